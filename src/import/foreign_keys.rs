//! Foreign keys in `catalog import`: what a catalog can declare, decided
//! per table ([`unsupported`]) and across the imported tables
//! ([`reconcile`]: the referenced key, the child's index, cycles), so that
//! an import always passes `catalog check`; and their raw YAML type ([`raw`]).

use std::collections::{BTreeSet, HashMap, HashSet};

use crate::catalog::raw::{RawForeignKey, RawReference};
use crate::ident::{quote_ident, Ident};
use crate::model::{ReferentialAction, Table};

/// `foreign key `name``: the object of an unsupported foreign key.
pub(crate) fn object(name: &Ident) -> String {
    format!("foreign key {}", quote_ident(name.as_str()))
}

/// The foreign keys of `t` no catalog can declare, with the reason: one to
/// another schema, or with `SET DEFAULT` (InnoDB refuses it).
pub(crate) fn unsupported(t: &Table) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for fk in &t.foreign_keys {
        if let Some(schema) = &fk.referenced_schema {
            out.push((
                object(&fk.name),
                format!(
                    "references {}.{} in another schema (a catalog references tables of its own schema)",
                    quote_ident(schema.as_str()),
                    quote_ident(fk.referenced_table.as_str())
                ),
            ));
        }
        if [fk.on_delete, fk.on_update].contains(&ReferentialAction::SetDefault) {
            out.push((
                object(&fk.name),
                "uses SET DEFAULT, which InnoDB refuses (a catalog cannot declare it)".into(),
            ));
        }
    }
    out
}

/// One foreign key the cross-table pass refuses: (table, foreign key, reason).
pub(crate) type Refusal = (Ident, Ident, String);

/// Checks the foreign keys of the imported (already stripped) tables as
/// `catalog check` will: the child's columns are still there and lead an
/// index, the referenced columns of an imported table are still there,
/// compatible and a whole unique key, and no cycle remains (the foreign key
/// that closes one is refused). Returns the refusals (the caller fails or
/// removes them) and the referenced tables that are not imported: they go
/// into `external_tables`.
pub(crate) fn reconcile(tables: &[Table]) -> (Vec<Refusal>, Vec<Ident>) {
    let mut refused: Vec<Refusal> = Vec::new();
    let mut external: BTreeSet<String> = BTreeSet::new();
    let mut external_names: Vec<Ident> = Vec::new();
    // Parents by folded name (the first table of that name), not searched.
    let mut by_name: HashMap<&str, &Table> = HashMap::with_capacity(tables.len());
    for t in tables {
        by_name.entry(t.name.folded()).or_insert(t);
    }
    for t in tables {
        for fk in &t.foreign_keys {
            let reason = match by_name.get(fk.referenced_table.folded()).copied() {
                Some(parent) => crate::catalog::foreign_key_problem(t, fk, Some(parent)),
                None => {
                    if external.insert(fk.referenced_table.key()) {
                        external_names.push(fk.referenced_table.clone());
                    }
                    crate::catalog::foreign_key_problem(t, fk, None)
                }
            };
            if let Some(reason) = reason {
                refused.push((t.name.clone(), fk.name.clone(), reason));
            }
        }
    }
    // What remains must not form a cycle: refuse the key closing each.
    // Only the tables that lose a refused key are copied.
    let refused_keys: HashSet<(&str, &str)> = refused
        .iter()
        .map(|(t, f, _)| (t.folded(), f.folded()))
        .collect();
    let trimmed: Vec<Option<Table>> = tables
        .iter()
        .map(|t| {
            let loses = |f: &crate::model::ForeignKey| {
                refused_keys.contains(&(t.name.folded(), f.name.folded()))
            };
            t.foreign_keys.iter().any(loses).then(|| {
                let mut t = t.clone();
                t.foreign_keys.retain(|f| !loses(f));
                t
            })
        })
        .collect();
    let refs: Vec<&Table> = tables
        .iter()
        .zip(&trimmed)
        .map(|(t, kept)| kept.as_ref().unwrap_or(t))
        .collect();
    for cycle in crate::dependency::cycles(&refs) {
        let (Some(first), Some(next)) = (cycle.first(), cycle.get(1)) else {
            continue;
        };
        let Some(t) = refs.iter().find(|t| &t.name == first) else {
            continue;
        };
        let mut path: Vec<String> = cycle.iter().map(|n| quote_ident(n.as_str())).collect();
        path.push(quote_ident(first.as_str()));
        for fk in t
            .foreign_keys
            .iter()
            .filter(|f| &f.referenced_table == next)
        {
            refused.push((
                t.name.clone(),
                fk.name.clone(),
                format!(
                    "closes a foreign key cycle ({}): a catalog creates tables one after the other",
                    path.join(" -> ")
                ),
            ));
        }
    }
    external_names.sort();
    (refused, external_names)
}

/// `foreign_keys:` of a table file, sorted by name; actions other than
/// `restrict` (the catalog default) spelled out. A server's `NO ACTION`
/// is written as `restrict` (omitted): the same action on InnoDB and TiDB
/// ([`ReferentialAction::effect`]), so a catalog imported from MariaDB
/// and one imported from MySQL are the same file.
pub(crate) fn raw(t: &Table) -> Vec<RawForeignKey> {
    let names = |v: &[Ident]| -> Vec<String> { v.iter().map(|n| n.as_str().to_string()).collect() };
    let spelled = |a: ReferentialAction| {
        (a.effect() != ReferentialAction::Restrict).then(|| a.effect().yaml())
    };
    let mut sorted: Vec<&crate::model::ForeignKey> = t.foreign_keys.iter().collect();
    sorted.sort_by_key(|f| f.name.key());
    sorted
        .into_iter()
        .map(|fk| RawForeignKey {
            name: fk.name.as_str().to_string(),
            columns: names(&fk.columns),
            references: Some(RawReference {
                table: Some(fk.referenced_table.as_str().to_string()),
                columns: names(&fk.referenced_columns),
            }),
            on_delete: spelled(fk.on_delete),
            on_update: spelled(fk.on_update),
        })
        .collect()
}
