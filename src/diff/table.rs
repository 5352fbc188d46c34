//! Table-level drift: the storage engine and the default character set and
//! collation, each compared exactly (apply never alters either: changing
//! the engine rebuilds the table; changing the default collation changes
//! what every later textual column gets).

use crate::model::Table;

use super::{problem, Problem, ProblemKind, Value};

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
                Value::Engine(want.engine.clone()),
                Value::Engine(have.engine.clone().filter(|e| !e.is_empty())),
            ));
        }
    }
    if want.charset != have.charset || want.collation != have.collation {
        let value = |t: &Table| Value::TableCollation {
            charset: t.charset.clone(),
            collation: t.collation.clone(),
        };
        out.push(problem(
            want,
            name,
            ProblemKind::TableCollation,
            value(want),
            value(have),
        ));
    }
    out
}
