//! What apply must do with one case, and whether it did: the expectation
//! from the two shapes (reachable by online additions or not), the outcome
//! judged by the physical state afterwards.

use std::collections::BTreeMap;

use super::shape::{Key, Shape};

/// Whether `desired` is reachable from `current` by online additions
/// only, and if not, why. Not online, so refused by design
/// (docs/catalog-format.md): a FULLTEXT, SPATIAL or expression index, a
/// CHECK constraint, a foreign key, a STORED generated column or a primary
/// key added to an existing table; any attribute of an existing object
/// changed (apply never rewrites one).
pub fn reachable(current: &Shape, desired: &Shape) -> Result<(), String> {
    for (t, want) in &desired.tables {
        if let Some(have) = current.tables.get(t) {
            if have != want {
                return Err(format!("table {t}: {have:?} -> {want:?}"));
            }
        }
    }
    let existing = |(t, _): &Key| current.tables.contains_key(t);
    // A foreign key or CHECK: kept as is, or on a new table only.
    fn kept_or_new<V: PartialEq + std::fmt::Debug>(
        what: &str,
        current: &BTreeMap<Key, V>,
        desired: &BTreeMap<Key, V>,
        existing: impl Fn(&Key) -> bool,
    ) -> Result<(), String> {
        for (k, want) in desired {
            match current.get(k) {
                Some(have) if have == want => {}
                Some(have) => return Err(format!("{what} {k:?}: {have:?} -> {want:?}")),
                None if !existing(k) => {}
                None => {
                    return Err(format!(
                        "{what} {k:?} added to an existing table (not online)"
                    ))
                }
            }
        }
        Ok(())
    }
    kept_or_new(
        "foreign key",
        &current.foreign_keys,
        &desired.foreign_keys,
        existing,
    )?;
    kept_or_new("check", &current.checks, &desired.checks, existing)?;
    for (k, want) in &desired.columns {
        match current.columns.get(k) {
            Some(have) if have == want => {}
            Some(have) => return Err(format!("column {k:?}: {have:?} -> {want:?}")),
            None if !existing(k) => {}
            None => {
                let fillable = want.nullable == "YES"
                    || (want.default.is_some() && want.default.as_deref() != Some("NULL"));
                // A nullable VIRTUAL generated column is added online
                // (metadata only); a STORED one rewrites every row.
                if want.extra.contains("stored generated") {
                    return Err(format!(
                        "STORED generated column {k:?} added to an existing table (not online)"
                    ));
                }
                let fillable = fillable || (want.generated() && want.nullable == "YES");
                if !fillable || want.extra.contains("auto_increment") {
                    return Err(format!(
                        "column {k:?} cannot be added to retained rows (NOT NULL without default, or auto_increment)"
                    ));
                }
            }
        }
    }
    for (k, want) in &desired.indexes {
        match current.indexes.get(k) {
            Some(have) if have == want => {}
            Some(have) => return Err(format!("index {k:?}: {have:?} -> {want:?}")),
            None if k.1 == "primary" && existing(k) => {
                return Err(format!("primary key of {} added", k.0))
            }
            None if existing(k)
                && (want.kind == "FULLTEXT"
                    || want.kind == "SPATIAL"
                    || want.parts.iter().any(|(part, _, _)| part.contains('('))) =>
            {
                return Err(format!(
                    "{} index {k:?} added to an existing table (not online)",
                    want.kind
                ))
            }
            None => {}
        }
    }
    Ok(())
}

/// After a converged apply: every desired table, column, index, check and
/// foreign key exists exactly, and every object of `current` the catalog
/// does not name is still there unchanged.
pub fn contains_exactly(after: &Shape, desired: &Shape, current: &Shape) -> Result<(), String> {
    fn each<V: PartialEq + std::fmt::Debug, K: Ord + std::fmt::Debug>(
        what: &str,
        after: &BTreeMap<K, V>,
        desired: &BTreeMap<K, V>,
        current: &BTreeMap<K, V>,
    ) -> Result<(), String> {
        for (k, want) in desired {
            if after.get(k) != Some(want) {
                return Err(format!(
                    "{what} {k:?}: want {want:?}, have {:?}",
                    after.get(k)
                ));
            }
        }
        for (k, was) in current.iter().filter(|(k, _)| !desired.contains_key(k)) {
            if after.get(k) != Some(was) {
                return Err(format!(
                    "unmanaged {what} {k:?} changed: was {was:?}, now {:?}",
                    after.get(k)
                ));
            }
        }
        Ok(())
    }
    each("table", &after.tables, &desired.tables, &current.tables)?;
    each("column", &after.columns, &desired.columns, &current.columns)?;
    each("index", &after.indexes, &desired.indexes, &current.indexes)?;
    each("check", &after.checks, &desired.checks, &current.checks)?;
    each(
        "foreign key",
        &after.foreign_keys,
        &desired.foreign_keys,
        &current.foreign_keys,
    )
}
