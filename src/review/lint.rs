//! Lint errors NEW has that OLD did not (the key-width budget, a type the
//! server refuses ...): a change that would fail its apply.

use crate::catalog::{CheckReport, Problem, Severity};

/// NEW's errors that OLD does not have (same file name, table, object and
/// message), in NEW's order.
pub fn new_errors(old: &CheckReport, new: &CheckReport) -> Vec<Problem> {
    let key = |p: &Problem| {
        (
            p.file.file_name().map(|n| n.to_os_string()),
            p.table.clone(),
            p.object.clone(),
            p.message.clone(),
        )
    };
    let old_keys: Vec<_> = old.errors().map(key).collect();
    new.problems
        .iter()
        .filter(|p| p.severity == Severity::Error && !old_keys.contains(&key(p)))
        .cloned()
        .collect()
}
