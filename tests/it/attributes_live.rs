//! The attribute list is complete on this server (docs/conformance.md): every
//! column of the information_schema tables the inspection reads is either
//! compared or outside the contract in `schema_catalog::attributes`, so a
//! new server attribute cannot be silently ignored; and every table option
//! CREATE_OPTIONS can show (a sample of each family, created for real) is
//! listed and refuses the table.

use crate::common;

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

/// Probe tables with the attributes only `SHOW CREATE TABLE` shows that
/// this server takes: (statement, source, the row's name).
fn show_create_probes(db: &TestDb) -> Vec<(&'static str, Source, &'static str)> {
    if db.is_mariadb() {
        vec![
            (
                "CREATE TABLE `p0` (`id` int NOT NULL, `a` varchar(20), PRIMARY KEY (`id`), KEY `k` (`a`) KEY_BLOCK_SIZE=8)",
                Source::KeyOption,
                "KEY_BLOCK_SIZE",
            ),
            (
                "CREATE TABLE `p1` (`id` int NOT NULL, `a` varchar(20), PRIMARY KEY (`id`)) WITH SYSTEM VERSIONING",
                Source::TableClause,
                "WITH SYSTEM VERSIONING",
            ),
            (
                "CREATE TABLE `p2` (`id` int NOT NULL, `s` date NOT NULL, `e` date NOT NULL, PERIOD FOR `p` (`s`, `e`), PRIMARY KEY (`id`))",
                Source::TableClause,
                "PERIOD FOR",
            ),
            (
                "CREATE TABLE `p3` (`id` int NOT NULL, `a` varchar(20), PRIMARY KEY (`id`), KEY `k` (`a`) USING BTREE)",
                Source::KeyOption,
                "USING",
            ),
        ]
    } else {
        vec![
            (
                "CREATE TABLE `p0` (`id` int NOT NULL, `a` varchar(20), PRIMARY KEY (`id`)) AUTOEXTEND_SIZE=4M",
                Source::TableOption,
                "AUTOEXTEND_SIZE",
            ),
            (
                "CREATE TABLE `p1` (`id` int NOT NULL, `a` varchar(20), PRIMARY KEY (`id`)) TABLESPACE=innodb_file_per_table",
                Source::TableOption,
                "TABLESPACE",
            ),
            (
                "CREATE TABLE `p2` (`id` int NOT NULL, `a` varchar(20) COLUMN_FORMAT DYNAMIC, PRIMARY KEY (`id`))",
                Source::ColumnClause,
                "COLUMN_FORMAT",
            ),
            (
                "CREATE TABLE `p3` (`id` int NOT NULL, `a` varchar(20) SECONDARY_ENGINE_ATTRIBUTE='{\"a\": 1}', PRIMARY KEY (`id`))",
                Source::ColumnClause,
                "SECONDARY_ENGINE_ATTRIBUTE",
            ),
            (
                "CREATE TABLE `p4` (`id` int NOT NULL, `a` varchar(20), PRIMARY KEY (`id`), KEY `k` (`a`) SECONDARY_ENGINE_ATTRIBUTE='{\"a\": 1}')",
                Source::KeyOption,
                "SECONDARY_ENGINE_ATTRIBUTE",
            ),
            (
                "CREATE TABLE `p5` (`id` int NOT NULL, `a` varchar(20), PRIMARY KEY (`id`)) SECONDARY_ENGINE_ATTRIBUTE='{\"a\": 1}'",
                Source::TableOption,
                "SECONDARY_ENGINE_ATTRIBUTE",
            ),
            (
                "CREATE TABLE `p6` (`id` int NOT NULL, `a` varchar(20), PRIMARY KEY (`id`), KEY `k` (`a`) USING BTREE)",
                Source::KeyOption,
                "USING",
            ),
            (
                "CREATE TABLE `p7` (`id` int NOT NULL, `a` varchar(20), PRIMARY KEY (`id`), FULLTEXT KEY `f` (`a`) WITH PARSER ngram)",
                Source::KeyOption,
                "WITH PARSER",
            ),
        ]
    }
}

/// The table options of a `SHOW CREATE TABLE` text (its last line, after
/// the column list), each by name: `/*!NNNNN ... */` unwrapped, `DEFAULT
/// CHARSET` as one name.
fn option_names(text: &str) -> Vec<String> {
    let line = text.rsplit("\n)").next().unwrap_or_default();
    let words: Vec<&str> = line
        .split_whitespace()
        .filter(|w| !w.starts_with("/*!") && *w != "*/")
        .collect();
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let Some((key, _)) = w.split_once('=') else {
            continue;
        };
        let key = key.trim_matches('`').to_ascii_uppercase();
        if key == "CHARSET" && i > 0 && words[i - 1].eq_ignore_ascii_case("DEFAULT") {
            out.push("DEFAULT CHARSET".to_string());
        } else {
            out.push(key);
        }
    }
    out
}

/// Each attribute only `SHOW CREATE TABLE` shows that this server takes,
/// created for real: its row is listed, every table option its text
/// shows is listed, and the net does what the row says (a refusing row
/// makes the table `unrecognised`, naming it; any other is read and the
/// table stays a plain one), while information_schema alone reads a
/// plain table.
#[tokio::test]
async fn show_create_attributes_are_listed_and_the_net_follows_their_rows() {
    let db = TestDb::new().await;
    let target = schema_catalog::db::parse_url(&db.url()).unwrap();
    let mut s = schema_catalog::db::connect(&target, std::time::Duration::from_secs(20))
        .await
        .unwrap();
    for (i, (ddl, source, name)) in show_create_probes(&db).into_iter().enumerate() {
        let at = ATTRIBUTES
            .iter()
            .find(|a| (a.source, a.name) == (source, name))
            .unwrap_or_else(|| panic!("{source:?} {name} is not listed"));
        db.exec(&[ddl]).await;
        let table = format!("p{i}");
        let text = db.show_create(&table).await;
        assert!(text.to_uppercase().contains(name), "{name}: {text}");
        for option in option_names(&text) {
            assert!(
                ATTRIBUTES
                    .iter()
                    .any(|a| a.source == Source::TableOption && a.name == option),
                "{} {}: table option {option} of `{table}` is not listed: {text}",
                db.flavor,
                db.version
            );
        }
        let plain = schema_catalog::inspect::inspect_table(&mut s, &db.name, &table)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(plain.kind, schema_catalog::TableKind::Base, "{name}");
        let request = schema_catalog::inspect::Read::default()
            .schema(&db.name)
            .tables(std::slice::from_ref(&plain))
            .net(true);
        let netted = schema_catalog::inspect::read(&mut s, &request)
            .await
            .unwrap()
            .pop()
            .unwrap()
            .unwrap()
            .pop()
            .and_then(|(_, t)| t)
            .unwrap();
        match &netted.kind {
            schema_catalog::TableKind::Unrecognised(what) if at.refuses_the_table() => {
                let fold = |s: &str| s.to_uppercase().replace([' ', '_', '`'], "");
                assert!(fold(what).contains(&fold(name)), "{name}: {what}");
            }
            schema_catalog::TableKind::Base if !at.refuses_the_table() => {}
            other => panic!("{name} ({:?}): {other:?}\n{text}", at.rule),
        }
    }
}
