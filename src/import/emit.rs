//! The catalog files of an import: the loader's own raw types
//! (`crate::catalog::raw`) built from the model and serialized by
//! [`super::yaml`]. Each builder fills only what differs from what the loader
//! assumes when a key is absent (a column is nullable, takes the table's
//! collation, a table the catalog's defaults), so the files stay minimal; the
//! raw types leave out whatever is left unset.

use std::collections::BTreeSet;

use serde_yaml::Value;

use crate::catalog::raw::{
    RawAutoRandom, RawAutoRandomMap, RawCatalogFile, RawCheck, RawColumn, RawDefaults,
    RawGenerated, RawIndex, RawKeyPart, RawPrimaryKey, RawPrimaryKeyMap, RawTable, RawTtl,
};
use crate::model::{Check, Column, DefaultValue, Index, IndexKind, IndexPart, Table};
use crate::ColumnType;

use super::{yaml, ImportDefaults, Imported};

/// `catalog.yaml` and one `(file name, YAML text)` per table, in table order.
/// `catalog.yaml` starts with a comment naming the source (the one piece of
/// the output that is not a raw type: YAML comments are not data).
pub fn to_yaml(imported: &Imported) -> (String, Vec<(String, String)>) {
    let header = format!(
        "# Catalog imported from {} by `catalog import`. Review before committing.\n",
        imported.source
    );
    let catalog_yaml = format!("{header}{}", yaml::to_string(&catalog_file(imported)));
    let mut used = BTreeSet::new();
    let named: Vec<(String, &Table)> = imported
        .tables
        .iter()
        .map(|t| {
            let stem = file_stem(t.name.as_str());
            let mut name = format!("{stem}.yaml");
            let mut k = 2;
            while !used.insert(name.clone()) {
                name = format!("{stem}_{k}.yaml");
                k += 1;
            }
            (name, t)
        })
        .collect();
    // Each table's YAML on up to one thread per core (issue 22).
    let files = crate::parallel::runs(&named, |run| {
        run.iter()
            .map(|(name, t)| {
                (
                    name.clone(),
                    yaml::to_string(&raw_table(t, &imported.defaults)),
                )
            })
            .collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect();
    (catalog_yaml, files)
}

/// `catalog.yaml`: the defaults, and `flavors` when a table needs fewer than
/// all three.
fn catalog_file(imported: &Imported) -> RawCatalogFile {
    let d = &imported.defaults;
    // A feature some flavor lacks (an invisible column on TiDB, ...)
    // narrows the flavors the catalog targets (`check` refuses it there).
    let flavors = crate::catalog::flavors_for(&imported.tables);
    RawCatalogFile {
        flavors: (flavors != crate::Flavor::ALL)
            .then(|| flavors.iter().map(ToString::to_string).collect()),
        external_tables: imported.external_tables.clone(),
        defaults: RawDefaults {
            engine: d.engine.clone(),
            charset: Some(d.charset.clone()),
            collation: Some(d.collation.clone()),
            widen: None,
        },
        // The source enforces its CHECK constraints: on TiDB the catalog
        // asks for the same (`tidb-check`; apply reads the switch first).
        // A source table without a primary key is imported as it is: the
        // `primary-key` rule stays visible as a warning instead of making
        // the written catalog invalid (import never writes one `check`
        // refuses).
        lint: crate::catalog::raw::RawLint {
            rules: if imported.tables.iter().any(|t| t.primary_key.is_empty()) {
                [("primary-key".to_string(), "warning".to_string())].into()
            } else {
                Default::default()
            },
            ..Default::default()
        },
        tidb: crate::catalog::raw::RawTidbSettings {
            check_constraints: (imported.tables.iter().any(|t| !t.checks.is_empty())
                && flavors.iter().any(|f| f.check_needs_setting().is_some()))
            .then(|| "enforced".to_string()),
        },
        ..RawCatalogFile::default()
    }
}

/// One table file.
fn raw_table(t: &Table, d: &ImportDefaults) -> RawTable {
    let tidb = t.tidb.clone().unwrap_or_default();
    let mut checks: Vec<&Check> = t.checks.iter().collect();
    checks.sort_by_key(|c| c.name.key());
    RawTable {
        table: Some(t.name.as_str().to_string()),
        comment: t.comment.clone(),
        engine: t.engine.clone().filter(|e| d.engine.as_ref() != Some(e)),
        collation: Some(t.collation.clone()).filter(|c| c != &d.collation),
        columns: Some(t.columns.iter().map(|c| raw_column(c, t)).collect()),
        primary_key: (!t.primary_key.is_empty()).then(|| {
            let columns = t
                .primary_key
                .iter()
                .filter_map(|p| p.column_name().map(|n| n.as_str().to_string()))
                .collect();
            match tidb.clustered {
                None => RawPrimaryKey::Columns(columns),
                Some(clustered) => RawPrimaryKey::Mapping(RawPrimaryKeyMap {
                    columns,
                    clustered: Some(clustered),
                }),
            }
        }),
        shard_row_id_bits: tidb.shard_row_id_bits,
        pre_split_regions: tidb.pre_split_regions,
        ttl: tidb.ttl.as_ref().map(|ttl| RawTtl {
            column: Some(ttl.column.as_str().to_string()),
            interval: Some(ttl.interval.to_string()),
            enabled: (!ttl.enabled).then_some(false),
            job_interval: ttl.job_interval.clone(),
        }),
        indexes: t.indexes.iter().map(raw_index).collect(),
        checks: checks
            .into_iter()
            .map(|c| RawCheck {
                name: c.name.as_str().to_string(),
                expression: Some(crate::expr::canonical(&c.expression)),
                enforced: (!c.enforced).then_some(false),
                level: (c.level != crate::model::CheckLevel::Table)
                    .then(|| c.level.name().to_string()),
            })
            .collect(),
        foreign_keys: super::foreign_keys::raw(t),
        ..RawTable::default()
    }
}

fn raw_column(c: &Column, t: &Table) -> RawColumn {
    let (ty, srid) = match &c.ty {
        ColumnType::Boolean => ("boolean".to_string(), None),
        ColumnType::Spatial { kind, srid } => (kind.name().to_string(), *srid),
        other => (other.to_string(), None),
    };
    // An AUTO_RANDOM column read from TiDB is declared auto_increment too,
    // so MySQL / MariaDB assign its ids (on TiDB AUTO_RANDOM takes
    // AUTO_INCREMENT's place).
    let auto_random = t
        .tidb
        .as_ref()
        .and_then(|tidb| tidb.auto_random.as_ref())
        .filter(|a| a.column == c.name)
        .map(|a| {
            if a.range == crate::tidb::DEFAULT_RANGE {
                RawAutoRandom::Bits(a.shard_bits)
            } else {
                RawAutoRandom::Mapping(RawAutoRandomMap {
                    shard_bits: Some(a.shard_bits),
                    range: Some(a.range),
                })
            }
        });
    RawColumn {
        name: c.name.as_str().to_string(),
        ty: Some(ty),
        srid,
        generated: c.generated.as_ref().map(|g| RawGenerated {
            expression: Some(g.expression.clone()),
            stored: g.stored,
        }),
        collation: c.collation.clone().filter(|co| co != &t.collation),
        nullable: (!c.nullable).then_some(false),
        auto_increment: c.auto_increment || auto_random.is_some(),
        auto_random,
        default: c
            .default
            .as_ref()
            .map(|d| default_value(d, c.ty.is_numeric())),
        on_update: c.on_update.as_ref().map(|u| u.to_sql(false)),
        invisible: c.invisible,
        comment: c.comment.clone(),
        ..RawColumn::default()
    }
}

/// A default as SQL text, or as a YAML number when the column is numeric and
/// the number reads back as the same default (`0`, `-1`, `0.5`; not a
/// literal YAML would read otherwise, such as `1e3` or a 20-digit decimal).
fn default_value(d: &DefaultValue, numeric: bool) -> Value {
    let sql = d.to_sql(numeric);
    if numeric {
        if let Ok(Value::Number(n)) = serde_yaml::from_str::<Value>(&sql) {
            let back = DefaultValue::parse_sql(&n.to_string()).map(|b| b.canonical(true));
            if back == Some(d.canonical(true)) {
                return Value::Number(n);
            }
        }
    }
    Value::String(sql)
}

fn raw_index(i: &Index) -> RawIndex {
    RawIndex {
        name: i.name.as_str().to_string(),
        columns: i.parts.iter().map(key_part).collect(),
        unique: i.unique,
        kind: match i.kind {
            IndexKind::BTree => None,
            IndexKind::FullText(_) => Some("fulltext".into()),
            IndexKind::Spatial => Some("spatial".into()),
        },
        parser: i.kind.parser().map(|p| p.name().to_string()),
        visible: (!i.visible).then_some(false),
        comment: i.comment.clone(),
        ..RawIndex::default()
    }
}

/// A key part: a plain name for an ascending whole column, else the mapping
/// `{column, order, length}` or `{expression}`.
fn key_part(p: &IndexPart) -> Value {
    let raw = match p {
        IndexPart::Column {
            name,
            prefix: None,
            descending: false,
        } => return Value::String(name.as_str().to_string()),
        IndexPart::Column {
            name,
            prefix,
            descending,
        } => RawKeyPart {
            column: Some(name.as_str().to_string()),
            order: descending.then_some("desc"),
            length: *prefix,
            ..RawKeyPart::default()
        },
        IndexPart::Expression(e) => RawKeyPart {
            expression: Some(crate::expr::canonical(e)),
            ..RawKeyPart::default()
        },
    };
    serde_yaml::to_value(raw).expect("a key part serializes")
}

/// The file name a table is written to: its name in snake case (`_System_FileUpload`
/// -> `system_file_upload.yaml`), made unique.
fn file_stem(name: &str) -> String {
    let mut out = String::new();
    let mut prev: Option<char> = None;
    for c in name.chars() {
        if c.is_ascii_uppercase()
            && prev.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit())
        {
            out.push('_');
        }
        out.push(if c.is_ascii_alphanumeric() {
            c.to_ascii_lowercase()
        } else {
            '_'
        });
        prev = Some(c);
    }
    let collapsed = out
        .split('_')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("_");
    match collapsed.as_str() {
        "" => "table".into(),
        "catalog" => "catalog_table".into(),
        _ => collapsed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_snake_case_and_unique() {
        assert_eq!(
            file_stem("_System_FileUploadOperation"),
            "system_file_upload_operation"
        );
        assert_eq!(file_stem("catalog"), "catalog_table");
        assert_eq!(file_stem("é"), "table");
    }

    #[test]
    fn numeric_defaults_are_numbers_when_they_read_back() {
        let lit = |s: &str| DefaultValue::Literal(s.into());
        assert_eq!(default_value(&lit("0"), true), Value::from(0));
        assert_eq!(default_value(&lit("-1"), true), Value::from(-1));
        assert_eq!(default_value(&lit("0.5"), true), Value::from(0.5));
        let long = "0.12345678901234567890";
        assert_eq!(default_value(&lit(long), true), Value::from(long));
        assert_eq!(default_value(&lit("0"), false), Value::from("'0'"));
    }
}
