//! The ALTER TABLE of an `AddColumn` or `AddIndex` step: exactly the one
//! addition the step says, plus only the online clauses.

use sqlparser::ast::{AlterTable, AlterTableOperation, TableConstraint};

use super::same_table;
use crate::ident::Ident;
use crate::model::{Column, Index};
use crate::sql::print;

/// The statement adds exactly `column` to `table`.
pub(super) fn adds_column(at: &AlterTable, table: &Ident, column: &Column) -> Result<(), String> {
    same_table(&at.name, table)?;
    let added = one_addition(at.if_exists, &at.operations)?;
    match added {
        AlterTableOperation::AddColumn {
            if_not_exists: false,
            column_def,
            ..
        } if column_def.name.value == column.name.as_str() => Ok(()),
        other => Err(format!(
            "adds `{}`, not column `{}`",
            print::node(other),
            column.name
        )),
    }
}

/// The statement modifies exactly `column` of `table`, in place (no
/// `FIRST` / `AFTER`).
pub(super) fn modifies_column(
    at: &AlterTable,
    table: &Ident,
    column: &Column,
) -> Result<(), String> {
    same_table(&at.name, table)?;
    let op = one_addition(at.if_exists, &at.operations)?;
    match op {
        AlterTableOperation::ModifyColumn {
            col_name,
            column_position: None,
            ..
        } if col_name.value == column.name.as_str() => Ok(()),
        other => Err(format!(
            "does `{}`, not a MODIFY of column `{}`",
            print::node(other),
            column.name
        )),
    }
}

/// The statement adds exactly `index` to `table`.
pub(super) fn adds_index(at: &AlterTable, table: &Ident, index: &Index) -> Result<(), String> {
    same_table(&at.name, table)?;
    let added = one_addition(at.if_exists, &at.operations)?;
    let name = match added {
        AlterTableOperation::AddConstraint {
            constraint: TableConstraint::Unique(u),
            ..
        } if index.unique && u.name.is_none() => u.index_name.as_ref(),
        AlterTableOperation::AddConstraint {
            constraint: TableConstraint::Index(i),
            ..
        } if !index.unique => i.name.as_ref(),
        _ => None,
    };
    match name {
        Some(n) if n.value == index.name.as_str() => Ok(()),
        _ => Err(format!(
            "adds `{}`, not index `{}`",
            print::node(added),
            index.name
        )),
    }
}

/// The one ADD of an ALTER TABLE whose other operations are online clauses.
fn one_addition(
    if_exists: bool,
    operations: &[AlterTableOperation],
) -> Result<&AlterTableOperation, String> {
    if if_exists {
        return Err("uses ALTER TABLE IF EXISTS".into());
    }
    let mut additions = operations.iter().filter(|op| {
        !matches!(
            op,
            AlterTableOperation::Algorithm { .. } | AlterTableOperation::Lock { .. }
        )
    });
    match (additions.next(), additions.next()) {
        (Some(op), None) => Ok(op),
        (None, _) => Err("adds nothing".into()),
        (Some(_), Some(second)) => Err(format!(
            "does more than one thing: also `{}`",
            print::node(second)
        )),
    }
}
