//! Foreign keys and consumer scopes (`required_by`). A foreign key belongs
//! to its table: every scope that holds the child table verifies the key.
//! The key stands on its columns, the referenced table, the referenced
//! columns and the parent key, so each scope that holds the child must hold
//! those too; then `verify --consumer NAME` reads the parent with the child.
//!
//! The key's existence alone proves nothing about the parent: with
//! `foreign_key_checks = 0` (as dump restores and online schema tools run)
//! MariaDB and MySQL create a key whose parent does not exist, and drop a
//! parent that keys still reference; the key then reads back unchanged from
//! `REFERENTIAL_CONSTRAINTS`, and every insert of a non-NULL value fails
//! with error 1452. Probed on MariaDB 10.11 and MySQL 9.7.
//!
//! A parent in `external_tables` is another owner's, verified by them.

use std::collections::HashMap;

use crate::model::ForeignKey;

use crate::catalog::rule_ids;
use crate::catalog::rules::key_rules::{keys_on, unique_indexes_on};
use crate::catalog::sink::Sink;
use crate::catalog::CatalogTable;

/// Reports each foreign key that a scope holding its table would verify
/// without something the key needs.
pub(in crate::catalog) fn lint_consumer_scopes(
    tables: &[CatalogTable],
    problems: &mut Vec<crate::catalog::Problem>,
) {
    let by_name: HashMap<&str, &CatalogTable> =
        tables.iter().map(|t| (t.table.name.folded(), t)).collect();
    for ct in tables.iter().filter(|t| !t.table.foreign_keys.is_empty()) {
        let child = &ct.table;
        let mut sink = Sink::new(&ct.file, problems);
        sink.table = Some(child.name.to_string());
        for fk in &child.foreign_keys {
            let parent = by_name.get(fk.referenced_table.folded()).copied();
            for (what, item) in needs(fk, ct, parent) {
                if let Some(lacking) = lacking(&ct.policy.required_by, item) {
                    sink.report(
                        &rule_ids::FK_SCOPE,
                        Some(format!("foreign key `{}`", fk.name)),
                        message(&what, item, &lacking),
                    );
                }
            }
        }
    }
}

/// What `fk` stands on, each with its `required_by`: the child columns,
/// and (for a catalog parent) the referenced table, the referenced columns
/// and, unless the primary key is the parent key, the unique index it is.
fn needs<'t>(
    fk: &'t ForeignKey,
    child: &'t CatalogTable,
    parent: Option<&'t CatalogTable>,
) -> Vec<(String, &'t [String])> {
    let mut out: Vec<(String, &[String])> = fk
        .columns
        .iter()
        .filter_map(|c| child.table.column(c))
        .map(|c| {
            (
                format!("its column `{}`", c.name),
                child.policy.column_required_by(&c.name),
            )
        })
        .collect();
    let Some(ct) = parent else {
        return out;
    };
    let parent = &ct.table;
    out.push((
        format!("the referenced table `{}`", parent.name),
        &ct.policy.required_by,
    ));
    out.extend(
        fk.referenced_columns
            .iter()
            .filter_map(|c| parent.column(c))
            .map(|c| {
                (
                    format!("the referenced column `{}`.`{}`", parent.name, c.name),
                    ct.policy.column_required_by(&c.name),
                )
            }),
    );
    if !keys_on(&parent.primary_key, &fk.referenced_columns) {
        // Any one unique index on the columns is a parent key: one in
        // every scope of the child will do.
        let scope = |i: &crate::model::Index| ct.policy.index_required_by(&i.name);
        let mut keys = unique_indexes_on(&fk.referenced_columns, parent);
        let first = keys.next();
        let key = std::iter::once(first)
            .flatten()
            .chain(keys)
            .find(|i| lacking(&child.policy.required_by, scope(i)).is_none())
            .or(first);
        if let Some(key) = key {
            out.push((
                format!("the parent key `{}`.`{}`", parent.name, key.name),
                scope(key),
            ));
        }
    }
    out
}

/// The scopes that hold an owner (`owner`: its `required_by`) but not an
/// item it needs (`item`): `Some(empty)` for the base contract (every
/// consumer), `None` when each of the owner's scopes holds the item.
fn lacking(owner: &[String], item: &[String]) -> Option<Vec<String>> {
    if item.is_empty() {
        return None;
    }
    if owner.is_empty() {
        return Some(Vec::new());
    }
    let missing: Vec<String> = owner
        .iter()
        .filter(|c| !item.contains(c))
        .cloned()
        .collect();
    (!missing.is_empty()).then_some(missing)
}

fn message(what: &str, item: &[String], lacking: &[String]) -> String {
    let only = item.join(", ");
    if lacking.is_empty() {
        format!(
            "the table is in the base contract, and the key needs {what}, which only [{only}] require: every other consumer's verify would check the key without it (a key whose parent is gone still reads back; inserts then fail with error 1452): remove `required_by` from it, or add `required_by` to the table"
        )
    } else {
        format!(
            "the key needs {what}, which only [{only}] require: [{}] would verify the key without it (a key whose parent is gone still reads back; inserts then fail with error 1452): add them to its `required_by`",
            lacking.join(", ")
        )
    }
}
