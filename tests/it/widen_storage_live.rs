//! Online widenings and the live table's storage (the widening's row-format
//! rule, the table options), live on the test server (MariaDB 10.11
//! at 3306, MySQL 9.7 at 3307: run with each `CATALOG_TEST_DATABASE_URL`).
//!
//! - `the_row_format_is_read_and_explicit_ones_are_refused`: inspection
//!   reads TABLES.ROW_FORMAT (the server's default for a table created
//!   without one, REDUNDANT/COMPACT/COMPRESSED where given); a table with
//!   an explicit ROW_FORMAT or KEY_BLOCK_SIZE that the catalog cannot
//!   declare is refused as `unrecognised` before any DDL, even when its
//!   only difference is an allowed widening; the table in the server's
//!   default row format widens, and so does one with an explicit
//!   `ROW_FORMAT=DYNAMIC` (InnoDB's default: the same table).
//! - `a_widening_on_another_engine_is_refused_before_any_ddl`: a MyISAM
//!   table's VARCHAR lengthening is drift whose reason names the table,
//!   the column and the engine; apply issues nothing; the server refuses
//!   the same MODIFY with either online clause (1845).
//! - `the_rule_table_holds_on_every_innodb_row_format`: the server itself,
//!   by plain DDL on one table per row format: every VARCHAR row the rule
//!   allows runs with its clause and keeps the InnoDB table id, and every
//!   one it refuses is refused with either clause (1845/1846), except
//!   MariaDB's REDUNDANT, which lengthens 128 -> 256 bytes INSTANT (an
//!   extra row the rule does not use: see `diff::widen`'s `storage`).
//!
//! The server's `innodb_default_row_format` is global only (1229 for
//! SESSION on both servers), so no test creates an implicitly REDUNDANT
//! table: that would change the shared server for every other test.

use crate::common;

use common::applied::{apply_converged, assert_apply_refused, assert_drift, drift_on};
use common::{catalog_dir, catalog_tables, TestDb};
use mysql_async::prelude::*;
use schema_catalog::catalog;
use schema_catalog::diff::ProblemKind;
use schema_catalog::model::RowFormat;
use schema_catalog::{db, inspect, Flavor, Ident};

/// A table `name` with a VARCHAR(16) the catalog lengthens to 63
/// characters (64 -> 252 bytes in utf8mb4: one length byte both, an
/// allowed row on both servers), followed by `options`.
fn legacy(name: &str, options: &str) -> String {
    format!(
        "CREATE TABLE `{name}` (`Id` int NOT NULL, \
         `V` varchar(16) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL, \
         PRIMARY KEY (`Id`)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin{options}"
    )
}

/// The catalog of `name` with `V varchar(63)`, widenings on.
/// The one-table catalog (its directory, its tables and their widening
/// opt-ins).
fn catalog_of(
    name: &str,
    engine: &str,
) -> (
    tempfile::TempDir,
    Vec<schema_catalog::Table>,
    schema_catalog::model::Widens,
) {
    let table = format!(
        "table: {name}\nengine: {engine}\ncolumns:\n  - {{name: Id, type: int, nullable: false}}\n  - {{name: V, type: varchar(63)}}\nprimary_key: [Id]\n"
    );
    let settings =
        "defaults:\n  collation: utf8mb4_bin\n  widen: true\nflavors: [mysql, mariadb]\n";
    let dir = catalog_dir(&[("catalog.yaml", settings), ("t.yaml", &table)]);
    let cat = catalog::load(dir.path()).unwrap_or_else(|e| panic!("{name}: {e}"));
    let tables = catalog_tables(&cat);
    (dir, tables, cat.widens())
}

async fn session(db: &TestDb) -> db::Session<'static> {
    let target = db::parse_url(&db.url()).unwrap();
    db::connect(&target, std::time::Duration::from_secs(20))
        .await
        .expect("connect")
}

#[tokio::test]
async fn the_row_format_is_read_and_explicit_ones_are_refused() {
    let probe = TestDb::new().await;
    let mut conn = probe.pool.get_conn().await.unwrap();
    let default: String = conn
        .query_first("SELECT @@GLOBAL.innodb_default_row_format")
        .await
        .unwrap()
        .unwrap();
    drop(conn);
    drop(probe);
    let explicit = [
        (
            "Red",
            " ROW_FORMAT=REDUNDANT",
            RowFormat::Redundant,
            "row_format=REDUNDANT",
        ),
        (
            "Cpt",
            " ROW_FORMAT=COMPACT",
            RowFormat::Compact,
            "row_format=COMPACT",
        ),
        (
            "Zip",
            " ROW_FORMAT=COMPRESSED",
            RowFormat::Compressed,
            "row_format=COMPRESSED",
        ),
        // KEY_BLOCK_SIZE alone makes the table COMPRESSED.
        (
            "Kbs",
            " KEY_BLOCK_SIZE=8",
            RowFormat::Compressed,
            "KEY_BLOCK_SIZE=8",
        ),
    ];
    for (name, options, format, option) in explicit {
        let db = TestDb::new().await;
        db.exec(&[
            &legacy(name, options),
            &format!("INSERT INTO `{name}` VALUES (1, 'a'), (2, 'b')"),
        ])
        .await;
        let live = inspect::inspect_table(&mut session(&db).await, &db.name, name)
            .await
            .unwrap()
            .expect("the table exists");
        assert_eq!(live.row_format, Some(format), "{name}");
        let (_dir, tables, widens) = catalog_of(name, "InnoDB");
        let report = assert_apply_refused(&db, (&tables, widens), &[(name, &["Id", "V"])]).await;
        assert_drift(&report, name, name, ProblemKind::Unrecognised);
        let p = drift_on(&report, name);
        // MariaDB spells the option `key_block_size=8`, MySQL `KEY_BLOCK_SIZE=8`.
        assert!(
            p.actual
                .to_string()
                .to_lowercase()
                .contains(&option.to_lowercase()),
            "{name}: {p}"
        );
    }

    // Created without one (the server's default) or with an explicit
    // DYNAMIC (InnoDB's default, the same table): each widens.
    for (name, options, format) in [
        ("Plain", "", RowFormat::from_server(&default)),
        ("Dyn", " ROW_FORMAT=DYNAMIC", RowFormat::Dynamic),
    ] {
        let db = TestDb::new().await;
        db.exec(&[
            &legacy(name, options),
            &format!("INSERT INTO `{name}` VALUES (1, 'a'), (2, 'b')"),
        ])
        .await;
        let live = inspect::inspect_table(&mut session(&db).await, &db.name, name)
            .await
            .unwrap()
            .expect("the table exists");
        assert_eq!(live.row_format, Some(format), "{name}");
        let (_dir, tables, widens) = catalog_of(name, "InnoDB");
        let id = db.innodb_table_id(name).await;
        let sum = db.checksum(name, &["Id", "V"]).await;
        let report = apply_converged(&db, (&tables, widens.clone())).await;
        assert_eq!(report.steps.len(), 1, "{name}: {report:#?}");
        assert_eq!(report.steps[0].kind, "widen_column");
        assert_eq!(
            db.innodb_table_id(name).await,
            id,
            "{name}: the table was rebuilt"
        );
        assert_eq!(db.checksum(name, &["Id", "V"]).await, sum);
        common::applied::assert_idle(&db, (&tables, widens)).await;
    }
}

#[tokio::test]
async fn a_widening_on_another_engine_is_refused_before_any_ddl() {
    let db = TestDb::new().await;
    db.exec(&[
        &legacy("My", " ENGINE=MyISAM"),
        "INSERT INTO `My` VALUES (1, 'a'), (2, 'b')",
    ])
    .await;
    let (dir, tables, widens) = catalog_of("My", "MyISAM");
    let report = assert_apply_refused(&db, (&tables, widens), &[("My", &["Id", "V"])]).await;
    assert_drift(&report, "My", "V", ProblemKind::ColumnType);
    let p = drift_on(&report, "V");
    assert!(
        p.actual.to_string().contains("not an online widening")
            && p.actual.to_string().contains("table `My` is ENGINE=MyISAM"),
        "{p}"
    );
    let verified = common::applied::verify_schema(&db, &catalog::load(dir.path()).unwrap()).await;
    assert!(!verified.ok, "{:#?}", verified.problems);
    // The server: MyISAM lengthens it only by a copy.
    let modify = schema_catalog::ddl::widen_column(
        &Ident::new("My"),
        &tables[0].columns[1],
        &tables[0].defaults(),
        None,
    );
    let mut conn = db.pool.get_conn().await.unwrap();
    for clause in ["ALGORITHM=INSTANT", "ALGORITHM=INPLACE, LOCK=NONE"] {
        let sql = format!("{modify}, {clause}");
        match conn.query_drop(&sql).await {
            Err(mysql_async::Error::Server(e)) if e.code == 1845 => {}
            other => panic!("`{sql}` was not refused as not online: {other:?}"),
        }
    }
}

/// One VARCHAR change the test makes by plain DDL: from and to characters
/// (utf8mb4), and whether the rule allows it per flavor.
struct Lengthening {
    from: u32,
    to: u32,
    mysql: bool,
    mariadb: bool,
}

#[tokio::test]
async fn the_rule_table_holds_on_every_innodb_row_format() {
    let db = TestDb::new().await;
    let flavor = db.flavor;
    let cases = [
        // 64 -> 252 bytes: one length byte both.
        Lengthening {
            from: 16,
            to: 63,
            mysql: true,
            mariadb: true,
        },
        // 400 -> 800 bytes: two length bytes both.
        Lengthening {
            from: 100,
            to: 200,
            mysql: true,
            mariadb: true,
        },
        // 124 -> 256 bytes: MariaDB's 0-127 -> 256+ row.
        Lengthening {
            from: 31,
            to: 64,
            mysql: false,
            mariadb: true,
        },
        // 128 -> 256 bytes: refused on both.
        Lengthening {
            from: 32,
            to: 64,
            mysql: false,
            mariadb: false,
        },
    ];
    for format in ["REDUNDANT", "COMPACT", "DYNAMIC", "COMPRESSED"] {
        // One table per row format, one column per case (C0 ...).
        let columns: Vec<String> = cases
            .iter()
            .enumerate()
            .map(|(i, c)| {
                format!(
                    "`C{i}` varchar({}) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL",
                    c.from
                )
            })
            .collect();
        let values: Vec<String> = cases
            .iter()
            .map(|c| format!("REPEAT('b', {})", c.from))
            .collect();
        let names: Vec<String> = (0..cases.len()).map(|i| format!("C{i}")).collect();
        let names: Vec<&str> = std::iter::once("Id")
            .chain(names.iter().map(String::as_str))
            .collect();
        db.exec(&[
            &format!(
                "CREATE TABLE `{format}` (`Id` int NOT NULL, {}, PRIMARY KEY (`Id`)) \
                 ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin ROW_FORMAT={format}",
                columns.join(", ")
            ),
            &format!("INSERT INTO `{format}` VALUES (1, {})", values.join(", ")),
        ])
        .await;
        let id = db.innodb_table_id(format).await;
        let sum = db.checksum(format, &names).await;
        let mut conn = db.pool.get_conn().await.unwrap();
        for (i, case) in cases.iter().enumerate() {
            let modify = format!(
                "ALTER TABLE `{format}` MODIFY COLUMN `C{i}` varchar({}) CHARACTER SET utf8mb4 \
                 COLLATE utf8mb4_bin NULL DEFAULT NULL",
                case.to
            );
            let (allowed, clause) = match flavor {
                Flavor::MySql => (case.mysql, "ALGORITHM=INPLACE, LOCK=NONE"),
                _ => (case.mariadb, "ALGORITHM=INSTANT"),
            };
            // MariaDB lengthens any VARCHAR of a REDUNDANT table INSTANT.
            let server_allows = allowed || (flavor == Flavor::MariaDb && format == "REDUNDANT");
            let what = format!("{format} varchar({}) -> varchar({})", case.from, case.to);
            if server_allows {
                conn.query_drop(format!("{modify}, {clause}"))
                    .await
                    .unwrap_or_else(|e| panic!("{what} with {clause}: {e}"));
                assert_eq!(db.innodb_table_id(format).await, id, "{what}: rebuilt");
            } else {
                for clause in ["ALGORITHM=INSTANT", "ALGORITHM=INPLACE, LOCK=NONE"] {
                    match conn.query_drop(format!("{modify}, {clause}")).await {
                        Err(mysql_async::Error::Server(e)) if e.code == 1845 || e.code == 1846 => {}
                        other => panic!("{what} with {clause} was not refused: {other:?}"),
                    }
                }
            }
        }
        drop(conn);
        assert_eq!(db.checksum(format, &names).await, sum, "{format}");
    }
}
