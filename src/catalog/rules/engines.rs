//! What a table's storage engine cannot hold, each a [`Need`] for
//! [`crate::catalog::rules::flavored`] (so `catalog import` narrows `flavors` by the same
//! rules). Probed on MariaDB 10.11 and MySQL 9.7 (the error codes are in
//! the messages; tests/it/lint_agrees_live.rs keeps them honest); which
//! flavors lack each is the server's ([`Feature`]: TiDB ignores `ENGINE`,
//! so none of this concerns it). Whether an optional engine (ARCHIVE,
//! BLACKHOLE, ROCKSDB) is installed is the server's own setup and is not
//! judged here.

use crate::model::{IndexKind, Table};
use crate::server::Feature;

use crate::catalog::rules::need::Need;

/// Every use in `table` that its engine refuses.
pub(in crate::catalog) fn needs(table: &Table) -> Vec<Need> {
    let mut out = Vec::new();
    let Some(engine) = table.engine.as_deref() else {
        return out;
    };
    let mut need = |object: String, feature, message: String| {
        out.push(Need {
            object,
            feature,
            message,
        })
    };
    if engine == "Aria" {
        need(
            "engine".into(),
            Feature::AriaEngine,
            "`engine: Aria` on a catalog that targets MySQL, which has no Aria engine (error 1286): \
             use InnoDB, or list only `flavors: [mariadb]` (and `tidb`, which ignores ENGINE) in catalog.yaml"
                .into(),
        );
    }
    if engine != "InnoDB" {
        for fk in &table.foreign_keys {
            need(
                format!("foreign key `{}`", fk.name),
                Feature::ForeignKeyOnNonInnoDb,
                format!("a foreign key on an `engine: {engine}` table: only InnoDB keeps foreign keys (MySQL and MariaDB create the table and drop the key without an error, so it would be missing forever); use `engine: InnoDB` or remove the foreign key"),
            );
        }
    }
    match engine {
        "MEMORY" => {
            for c in table.columns.iter().filter(|c| c.ty.is_large_object()) {
                need(
                    format!("column `{}`", c.name),
                    Feature::LargeObjectOnMemory,
                    format!("a {} column on a MEMORY table: MEMORY holds no BLOB/TEXT columns (json, spatial and vector are stored as such; error 1163); use a varchar/varbinary column or another engine", c.ty),
                );
            }
            for i in table
                .indexes
                .iter()
                .filter(|i| matches!(i.kind, IndexKind::FullText(_)))
            {
                need(
                    format!("index `{}`", i.name),
                    Feature::FullTextIndexOnMemory,
                    "a FULLTEXT index on a MEMORY table, which has none (error 1214): use InnoDB"
                        .into(),
                );
            }
        }
        "CSV" => {
            let key = if table.primary_key.is_empty() {
                table.indexes.first().map(|i| format!("index `{}`", i.name))
            } else {
                Some("primary key".to_string())
            };
            if let Some(object) = key {
                need(
                    object,
                    Feature::KeyOnCsv,
                    "a key on a CSV table, which has none (error 1069 \"max 0 keys allowed\"): remove `primary_key` and `indexes`, or use another engine".into(),
                );
            }
            for c in table.columns.iter().filter(|c| c.nullable) {
                need(
                    format!("column `{}`", c.name),
                    Feature::NullableOnCsv,
                    "a nullable column on a CSV table, which holds none (error 1178): set `nullable: false`".into(),
                );
            }
        }
        _ => {}
    }
    out
}
