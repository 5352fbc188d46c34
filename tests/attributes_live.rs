//! The attribute list is complete on this server (issue #20): every
//! column of the information_schema tables the inspection reads is either
//! compared or outside the contract in `schema_catalog::attributes`, so a
//! new server attribute cannot be silently ignored; and every table option
//! CREATE_OPTIONS can show (a sample of each family, created for real) is
//! listed and refuses the table.

mod common;

use common::TestDb;
use mysql_async::prelude::*;
use schema_catalog::attributes::{self, Source, ATTRIBUTES};

/// The information_schema tables the inspection (and the import's
/// listing) reads.
const READ: &[&str] = &[
    "TABLES",
    "COLUMNS",
    "STATISTICS",
    "TABLE_CONSTRAINTS",
    "CHECK_CONSTRAINTS",
    "KEY_COLUMN_USAGE",
    "REFERENTIAL_CONSTRAINTS",
];

#[tokio::test]
async fn every_information_schema_column_is_compared_or_out_of_contract() {
    let db = TestDb::new().await;
    let mut conn = db.pool.get_conn().await.unwrap();
    let mut unlisted = Vec::new();
    let mut seen = 0;
    for table in READ {
        let columns: Vec<String> = conn
            .exec(
                "SELECT COLUMN_NAME FROM information_schema.COLUMNS \
                 WHERE TABLE_SCHEMA = 'information_schema' AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION",
                (table,),
            )
            .await
            .unwrap();
        assert!(
            !columns.is_empty(),
            "information_schema.{table} has no columns?"
        );
        for c in columns {
            seen += 1;
            if attributes::information_schema(table, &c).is_none() {
                unlisted.push(format!("{table}.{c}"));
            }
        }
    }
    assert!(
        unlisted.is_empty(),
        "{} {}: information_schema columns in neither list of schema_catalog::attributes: {unlisted:?}",
        db.flavor,
        db.version
    );
    assert!(seen > 80, "{seen}");
}

/// Each table option a sample table gets shows in CREATE_OPTIONS, is
/// listed, and the inspection refuses the table as `unrecognised`.
#[tokio::test]
async fn explicit_table_options_are_listed_and_refuse_the_table() {
    let db = TestDb::new().await;
    let mut options = vec![
        "ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8",
        "STATS_PERSISTENT=0",
        "STATS_AUTO_RECALC=1",
        "STATS_SAMPLE_PAGES=10",
        "MAX_ROWS=100",
        "MIN_ROWS=1",
        "AVG_ROW_LENGTH=10",
        "PACK_KEYS=1",
        "CHECKSUM=1",
        "DELAY_KEY_WRITE=1",
    ];
    if db.is_mariadb() {
        options.push("PAGE_COMPRESSED=1");
    } else {
        options.push("COMPRESSION='zlib'");
    }
    let target = schema_catalog::db::parse_url(&db.url()).unwrap();
    let mut s = schema_catalog::db::connect(&target, std::time::Duration::from_secs(20))
        .await
        .unwrap();
    for (i, opt) in options.iter().enumerate() {
        let name = format!("t{i}");
        db.exec(&[&format!(
            "CREATE TABLE `{name}` (`id` int NOT NULL, PRIMARY KEY (`id`)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin {opt}"
        )])
        .await;
        for word in opt.split_whitespace() {
            let key = word.split('=').next().unwrap();
            assert!(
                ATTRIBUTES
                    .iter()
                    .any(|a| a.source == Source::TableOption && a.name.eq_ignore_ascii_case(key)),
                "table option {key} is not listed"
            );
        }
        let t = schema_catalog::inspect::inspect_table(&mut s, &db.name, &name)
            .await
            .unwrap()
            .unwrap();
        assert!(
            matches!(&t.kind, schema_catalog::TableKind::Unrecognised(w) if w.to_lowercase().contains(&opt.split('=').next().unwrap().to_lowercase())),
            "{opt}: {:?}",
            t.kind
        );
    }
}
