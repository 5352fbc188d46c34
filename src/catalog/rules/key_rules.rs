//! The rules across a table's keys: an auto_increment column leads a key,
//! and no index repeats another or the primary key.

use crate::ident::Ident;
use crate::model::{Column, Index, IndexKind, IndexPart, Table};

use crate::catalog::rule_ids;
use crate::catalog::sink::Sink;

/// An auto_increment column must lead the primary key or some index:
/// `leads` are the columns that lead one (`Declared` columns).
pub(in crate::catalog) fn check_auto_increment_keys(
    columns: &[&Column],
    leads: &[Ident],
    sink: &mut Sink,
) {
    for column in columns.iter().filter(|c| c.auto_increment) {
        if !leads.contains(&column.name) {
            sink.report(&rule_ids::AUTO_INCREMENT,
                Some(format!("column `{}`", column.name)),
                "an auto_increment column must be the first column of the primary key or of an index: put it first in `primary_key` (e.g. `primary_key: [Id]`)",
            );
        }
    }
}

/// Warns about an index with the same kind, ordered parts and uniqueness as
/// an earlier one, or the same parts as the primary key.
pub(in crate::catalog) fn warn_duplicate_indexes(
    indexes: &[Index],
    primary_key: &[IndexPart],
    sink: &mut Sink,
) {
    for (i, index) in indexes.iter().enumerate() {
        let object = Some(format!("index `{}`", index.name));
        let columns = || {
            index
                .parts
                .iter()
                .map(|p| match p {
                    IndexPart::Column { name, .. } => name.to_string(),
                    IndexPart::Expression(e) => format!("({e})"),
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        if !primary_key.is_empty() && index.kind == IndexKind::BTree && index.parts == primary_key {
            sink.report(&rule_ids::DUPLICATE_INDEX,
                object,
                format!("has the same columns ({}) as the primary key, which is already unique: remove the index", columns()),
            );
        } else if let Some(earlier) = indexes[..i]
            .iter()
            .find(|e| e.unique == index.unique && e.kind == index.kind && e.parts == index.parts)
        {
            sink.report(&rule_ids::DUPLICATE_INDEX,
                object,
                format!(
                    "duplicates index `{}`: same ordered columns ({}) and uniqueness; remove one of them",
                    earlier.name,
                    columns()
                ),
            );
        }
    }
}

/// Whether `parts` are exactly `columns`, in order, over whole columns.
pub(in crate::catalog) fn keys_on(parts: &[IndexPart], columns: &[Ident]) -> bool {
    parts.len() == columns.len()
        && parts
            .iter()
            .zip(columns)
            .all(|(p, c)| matches!(p, IndexPart::Column { name, prefix: None, .. } if name == c))
}

/// The unique B-tree indexes of `table` that are exactly `columns`.
pub(in crate::catalog) fn unique_indexes_on<'t>(
    columns: &'t [Ident],
    table: &'t Table,
) -> impl Iterator<Item = &'t Index> {
    table
        .indexes
        .iter()
        .filter(|i| i.unique && i.kind == IndexKind::BTree)
        .filter(move |i| keys_on(&i.parts, columns))
}
