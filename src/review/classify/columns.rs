//! What the review adds about columns: renames, order, and each column's
//! informational attributes. Everything else about a column is apply's diff.

use super::{found_of, Out, Rename, ReviewKind, TablePolicy};
use crate::diff::{same_column_shape, Problem, ProblemKind};
use crate::ident::Ident;
use crate::model::{ByName, Column, Table};
use crate::server::Flavor;

/// The review's column findings of NEW's table `n` (pushed to `out`), and
/// the renames among apply's `found` additions and unmanaged columns: a
/// dropped column and an added one of the same shape at the same place.
pub(super) fn table_columns(
    o: &Table,
    n: &Table,
    columns: &[Column],
    policies: (&TablePolicy, &TablePolicy),
    found: &[(Problem, Vec<Flavor>)],
    out: &mut Out,
) -> Vec<Rename> {
    let (olds, news) = (ByName::new(&o.columns), ByName::new(&n.columns));
    let mut added = found_of(found, ProblemKind::MissingColumn);
    let mut renames = Vec::new();
    for dropped in found_of(found, ProblemKind::UnmanagedColumn) {
        let Some(i) = olds.position(&Ident::new(dropped)) else {
            continue;
        };
        let was = &o.columns[i];
        let same = added.iter().position(|a| {
            news.position(&Ident::new(*a)) == Some(i) && same_column_shape(&n.columns[i], was)
        });
        let Some(k) = same else { continue };
        added.remove(k);
        let now = &n.columns[i];
        renames.push(Out::rename(
            ReviewKind::ColumnRenamed,
            &n.name,
            (ProblemKind::MissingColumn, ProblemKind::UnmanagedColumn),
            (&was.name, &now.name),
            format!(
                "looks like a rename of `{}` (same shape, same place): apply renames nothing, so a warm installation keeps `{}` with its values and gets a new, empty `{}`",
                was.name, was.name, now.name
            ),
        ));
    }
    for c in columns {
        if let Some(old) = olds.get(&c.name) {
            let scopes = (
                policies.0.column_required_by(&old.name),
                policies.1.column_required_by(&c.name),
            );
            column(&n.name, old, c, scopes, out);
        }
    }
    for moved in moved_columns(o, n) {
        out.push(
            ReviewKind::ColumnMoved,
            &n.name,
            Some(moved.as_str()),
            None,
            None,
            "apply never moves a column: warm installations keep OLD's column order, greenfield ones get NEW's",
        );
    }
    renames
}

/// The columns present on both sides whose relative order changed: those
/// outside the longest run kept in order.
fn moved_columns(o: &Table, n: &Table) -> Vec<Ident> {
    let olds = ByName::new(&o.columns);
    let common: Vec<(&Ident, usize)> = n
        .columns
        .iter()
        .filter_map(|c| olds.position(&c.name).map(|p| (&c.name, p)))
        .collect();
    // Longest increasing subsequence of OLD positions, O(n^2) (tables are small).
    let len = common.len();
    let mut best = vec![1usize; len];
    let mut prev = vec![usize::MAX; len];
    for i in 0..len {
        for j in 0..i {
            if common[j].1 < common[i].1 && best[j] + 1 > best[i] {
                best[i] = best[j] + 1;
                prev[i] = j;
            }
        }
    }
    let mut keep = vec![false; len];
    let mut at = (0..len).max_by_key(|i| (best[*i], usize::MAX - *i));
    while let Some(i) = at {
        keep[i] = true;
        at = (prev[i] != usize::MAX).then(|| prev[i]);
    }
    common
        .iter()
        .zip(keep)
        .filter(|(_, k)| !k)
        .map(|((name, _), _)| (*name).clone())
        .collect()
}

/// A column on both sides: its informational attributes (with its
/// consumers, OLD's and NEW's `scopes` from the catalogs' policies). Its
/// shape is apply's diff (`diff::column_drift`), which compares each of
/// the others.
fn column(table: &Ident, o: &Column, n: &Column, scopes: (&[String], &[String]), out: &mut Out) {
    let Column {
        name,
        ty: _,
        nullable: _,
        auto_increment: _,
        default: _,
        charset: _,
        collation: _,
        generated: _,
        on_update: _,
        invisible: _,
        comment,
    } = n;
    out.informational(table, Some(name.as_str()), (&o.comment, comment), scopes);
}
