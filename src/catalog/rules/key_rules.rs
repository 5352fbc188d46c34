//! The rules across a table's keys: an auto_increment column leads a key,
//! and no index repeats another or the primary key.

use serde_yaml::Value;

use crate::ident::Ident;
use crate::model::{Index, IndexKind, IndexPart};

use crate::catalog::read::raw::key_parts::leading_column;
use crate::catalog::read::raw::RawIndex;
use crate::catalog::read::table::Declared;
use crate::catalog::rule_ids;
use crate::catalog::sink::Sink;

/// An auto_increment column must lead the primary key or some index.
pub(in crate::catalog) fn check_auto_increment_keys(
    declared: &[Declared],
    primary_key: &[String],
    indexes: &[RawIndex],
    sink: &mut Sink,
) {
    let pk: Vec<Value> = primary_key.iter().cloned().map(Value::String).collect();
    let leads: Vec<Ident> = std::iter::once(pk.as_slice())
        .chain(indexes.iter().map(|i| i.columns.as_slice()))
        .filter_map(leading_column)
        .collect();
    for column in declared
        .iter()
        .filter_map(|d| d.column.as_ref())
        .filter(|c| c.auto_increment)
    {
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
