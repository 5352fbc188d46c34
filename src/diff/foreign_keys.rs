//! Foreign keys: each catalog one against the live one of its name, every
//! attribute exactly; a missing one is refused as not online.

use crate::model::{ByName, NotOnline, Table};

use super::{problem, Problem, ProblemKind, Value};

/// The catalog's foreign keys against the live table's, by name (case
/// -insensitively), each attribute exactly. A missing one is not added:
/// InnoDB validates the rows with a table copy (`ALGORITHM=INPLACE` is
/// refused with "Adding foreign keys needs foreign_key_checks=OFF", error
/// 1846, on MySQL and MariaDB alike), and the tool never turns the checks off.
pub(super) fn foreign_key_drift(want: &Table, have: &Table) -> Vec<Problem> {
    let mut out = Vec::new();
    let have_keys = ByName::new(&have.foreign_keys);
    for fk in &want.foreign_keys {
        let Some(live) = have_keys.get(&fk.name) else {
            out.push(problem(
                want,
                fk.name.as_str(),
                ProblemKind::ForeignKeyNotOnline,
                Value::foreign_key(fk),
                Value::AbsentNotOnline(NotOnline::ForeignKey),
            ));
            continue;
        };
        let mut kinds = Vec::new();
        if live.columns != fk.columns {
            kinds.push(ProblemKind::ForeignKeyColumns);
        }
        if live.referenced_schema != fk.referenced_schema
            || live.referenced_table != fk.referenced_table
            || live.referenced_columns != fk.referenced_columns
        {
            kinds.push(ProblemKind::ForeignKeyReference);
        }
        if !live.on_delete.same_effect(fk.on_delete) || !live.on_update.same_effect(fk.on_update) {
            kinds.push(ProblemKind::ForeignKeyAction);
        }
        out.extend(kinds.into_iter().map(|k| {
            let (e, a) = (Value::foreign_key(fk), Value::foreign_key(live));
            problem(want, fk.name.as_str(), k, e, a)
        }));
    }
    out
}

/// The live foreign keys the catalog does not name (informational).
pub(super) fn unmanaged_foreign_keys(want: &Table, have: &Table) -> Vec<Problem> {
    let want_keys = ByName::new(&want.foreign_keys);
    have.foreign_keys
        .iter()
        .filter(|f| !want_keys.contains(&f.name))
        .map(|fk| {
            problem(
                want,
                fk.name.as_str(),
                ProblemKind::UnmanagedForeignKey,
                Value::NotInCatalog,
                Value::foreign_key(fk),
            )
        })
        .collect()
}
