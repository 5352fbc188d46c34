//! Table-level drift: the storage engine and the default character set and
//! collation, each compared exactly (apply never alters either: changing
//! the engine rebuilds the table; changing the default collation changes
//! what every later textual column gets).

use crate::model::Table;

use super::{problem, Problem, ProblemKind};

/// The engine and default charset/collation of `have` against `want`.
/// The engine is compared when the catalog has one (every catalog table
/// does: `engine` defaults to InnoDB) and the live table was not read from
/// TiDB, which parses ENGINE and ignores it (every TiDB table reports
/// InnoDB).
pub(super) fn table_drift(want: &Table, have: &Table) -> Vec<Problem> {
    let mut out = Vec::new();
    let name = want.name.as_str();
    if let (Some(w), None) = (want.engine.as_deref(), &have.tidb) {
        let h = have.engine.as_deref().unwrap_or("");
        if !w.eq_ignore_ascii_case(h) {
            out.push(problem(
                want,
                name,
                ProblemKind::TableEngine,
                &format!("ENGINE={w}"),
                &format!("ENGINE={}", if h.is_empty() { "none" } else { h }),
            ));
        }
    }
    if want.charset != have.charset || want.collation != have.collation {
        let text = |t: &Table| format!("DEFAULT CHARSET={} COLLATE={}", t.charset, t.collation);
        out.push(problem(
            want,
            name,
            ProblemKind::TableCollation,
            &text(want),
            &text(have),
        ));
    }
    out
}
