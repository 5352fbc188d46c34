//! What the review adds about indexes: renames and each index's
//! informational attributes. Everything else about an index (added,
//! reshaped, not online, removed) is apply's diff.

use super::{found_of, Out, Rename, ReviewKind, TablePolicy};
use crate::diff::{Problem, ProblemKind};
use crate::ident::Ident;
use crate::model::{ByName, Index, Table};
use crate::server::Flavor;

/// The review's index findings of NEW's table `n` (pushed to `out`), and
/// the renames among apply's `found` additions and unmanaged indexes: a
/// dropped index and an added one of the same shape.
pub(super) fn table_indexes(
    o: &Table,
    n: &Table,
    indexes: &[Index],
    policies: (&TablePolicy, &TablePolicy),
    found: &[(Problem, Vec<Flavor>)],
    out: &mut Out,
) -> Vec<Rename> {
    let (olds, news) = (ByName::new(&o.indexes), ByName::new(&n.indexes));
    let mut dropped: Vec<Index> = found_of(found, ProblemKind::UnmanagedIndex)
        .into_iter()
        .filter_map(|d| olds.get(&Ident::new(d)).cloned())
        .collect();
    let mut renames = Vec::new();
    for added in found_of(found, ProblemKind::MissingIndex) {
        let Some(now) = news.get(&Ident::new(added)).cloned() else {
            continue;
        };
        let Some(k) = dropped.iter().position(|r| r.same_shape(&now)) else {
            continue;
        };
        let was = dropped.remove(k);
        renames.push(Out::rename(
            ReviewKind::IndexRenamed,
            &n.name,
            (ProblemKind::MissingIndex, ProblemKind::UnmanagedIndex),
            (&was.name, &now.name),
            format!(
                "looks like a rename of `{}` (same shape): apply renames nothing, so a warm installation keeps `{}` and builds `{}` beside it, a second copy of the same key",
                was.name, was.name, now.name
            ),
        ));
    }
    for i in indexes {
        if let Some(old) = olds.get(&i.name) {
            let scopes = (
                policies.0.index_required_by(&old.name),
                policies.1.index_required_by(&i.name),
            );
            index(&n.name, old, i, scopes, out);
        }
    }
    renames
}

/// An index on both sides: its informational attributes (with its
/// consumers, OLD's and NEW's `scopes` from the catalogs' policies). Its
/// shape is apply's diff (`readiness::check_index`), which compares the
/// others.
fn index(table: &Ident, o: &Index, n: &Index, scopes: (&[String], &[String]), out: &mut Out) {
    let Index {
        name,
        unique: _,
        parts: _,
        kind: _,
        visible: _,
        comment,
    } = n;
    out.informational(table, Some(name.as_str()), (&o.comment, comment), scopes);
}
