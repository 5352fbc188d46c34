//! Exact means exact: each attribute a peer's test cases found
//! accepted as matching when it was not, against the real server (each
//! flavor). Every case builds the live table with plain DDL, with one row,
//! and requires apply to refuse it as typed drift that changed nothing
//! (no step, no DDL, SHOW CREATE TABLE and rows unchanged) and verify to
//! fail:
//! - the storage engine (`engine: MyISAM` against InnoDB, and back);
//! - the table's default charset/collation;
//! - `boolean` (`tinyint(1)`) against `tinyint`, both ways;
//! - a CHECK's enforcement (MySQL's `NOT ENFORCED`, both ways; MariaDB has
//!   none and `catalog check` refuses `enforced: false` for it);
//! - an explicit table option (`ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8`,
//!   `STATS_PERSISTENT=0`) the catalog cannot declare: `unrecognised`.
//!
//! And backslashes survive every path: a catalog whose default, CHECK,
//! generated column and (MySQL) expression key part hold `\` is rendered,
//! parsed back as a dump with no drift, applied, dumped by the server's
//! client and imported from that dump into the same expressions.

use crate::common;

use common::{catalog_dir, catalog_tables, TestDb};
use schema_catalog::catalog::{self, Catalog};
use schema_catalog::diff::ProblemKind;
use schema_catalog::Table;

/// `defaults` of every catalog here.
const DEFAULTS: &str =
    "defaults:\n  engine: InnoDB\n  charset: utf8mb4\n  collation: utf8mb4_bin\n";

/// The table of `table_yaml` in a catalog with `flavors` (a `flavors:`
/// line, or empty); no lint error.
fn load(table_yaml: &str, flavors: &str) -> Catalog {
    let settings = format!("{flavors}{DEFAULTS}");
    let dir = catalog_dir(&[("catalog.yaml", &settings), ("t.yaml", table_yaml)]);
    let report = catalog::check(dir.path());
    assert_eq!(report.error_count(), 0, "{}", report.render_human());
    report.catalog.unwrap()
}

/// The live shape of `table` in `db`.
async fn inspect(db: &TestDb, table: &str) -> Table {
    let target = schema_catalog::db::parse_url(&db.url()).unwrap();
    let mut s = schema_catalog::db::connect(&target, std::time::Duration::from_secs(20))
        .await
        .unwrap();
    schema_catalog::inspect::inspect_table(&mut s, &db.name, table)
        .await
        .unwrap()
        .expect("the table exists")
}

/// `T (Id, Flag)` with `flag` as Flag's type and `extra` after the table
/// name's definition (options).
fn yaml(flag: &str, extra: &str) -> String {
    format!(
        "table: T\n{extra}columns:\n  - name: Id\n    type: bigint unsigned\n    nullable: false\n  \
         - name: Flag\n    type: {flag}\n    nullable: false\n    default: 0\nprimary_key: [Id]\n"
    )
}

/// Creates `T` with `create` (plain DDL) and one row, applies `tables`, and
/// requires a refusal that changed nothing with `kind` on `object`; verify
/// fails naming the same kind.
async fn refused(create: &str, cat: &Catalog, object: &str, kind: ProblemKind) {
    let db = TestDb::new().await;
    db.exec(&[create, "INSERT INTO `T` (`Id`, `Flag`) VALUES (1, 1)"])
        .await;
    let tables = catalog_tables(cat);
    let report = common::assert_apply_refused(&db, &tables, &[("T", &["Id", "Flag"])]).await;
    common::assert_drift(&report, "T", object, kind);
    common::assert_verify_fails(&db, cat, object, kind).await;
}

const LIVE_T: &str = "CREATE TABLE `T` (`Id` bigint unsigned NOT NULL, `Flag` tinyint(1) NOT NULL DEFAULT 0, PRIMARY KEY (`Id`))";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engine_is_compared() {
    let myisam = load(&yaml("boolean", "engine: MyISAM\n"), "");
    let innodb_live = format!("{LIVE_T} ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin");
    refused(&innodb_live, &myisam, "T", ProblemKind::TableEngine).await;
    let innodb = load(&yaml("boolean", ""), "");
    let myisam_live = format!("{LIVE_T} ENGINE=MyISAM DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin");
    refused(&myisam_live, &innodb, "T", ProblemKind::TableEngine).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn table_default_collation_is_compared() {
    let bin = load(&yaml("boolean", ""), "");
    let general =
        format!("{LIVE_T} ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci");
    refused(&general, &bin, "T", ProblemKind::TableCollation).await;
    // Another charset's default (MariaDB's utf8mb3 against utf8mb4).
    let mb3 = format!("{LIVE_T} ENGINE=InnoDB DEFAULT CHARSET=utf8mb3 COLLATE=utf8mb3_bin");
    refused(&mb3, &bin, "T", ProblemKind::TableCollation).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn boolean_is_not_tinyint() {
    let boolean = load(&yaml("boolean", ""), "");
    let opts = " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";
    let tiny_live = format!(
        "CREATE TABLE `T` (`Id` bigint unsigned NOT NULL, `Flag` tinyint NOT NULL DEFAULT 0, PRIMARY KEY (`Id`)){opts}"
    );
    // MariaDB shows a plain tinyint as tinyint(4): the model reads it as tinyint.
    refused(&tiny_live, &boolean, "Flag", ProblemKind::ColumnType).await;
    let tiny = load(&yaml("tinyint", ""), "");
    refused(
        &format!("{LIVE_T}{opts}"),
        &tiny,
        "Flag",
        ProblemKind::ColumnType,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explicit_table_options_are_unrecognised() {
    let t = load(&yaml("boolean", ""), "");
    let opts = " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";
    for extra in [
        " ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8",
        " STATS_PERSISTENT=0",
    ] {
        refused(
            &format!("{LIVE_T}{opts}{extra}"),
            &t,
            "T",
            ProblemKind::Unrecognised,
        )
        .await;
    }
}

fn check_yaml(enforced: &str) -> String {
    format!(
        "{}checks:\n  - name: chk_flag\n    expression: Flag in (0, 1)\n{enforced}",
        yaml("boolean", "")
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn check_enforcement_is_compared() {
    let probe = TestDb::new().await;
    if probe.is_mariadb() {
        // MariaDB has no NOT ENFORCED: `catalog check` refuses it there,
        // and every MariaDB CHECK reads as enforced.
        let settings = format!("flavors: [mariadb]\n{DEFAULTS}");
        let dir = catalog_dir(&[
            ("catalog.yaml", &settings),
            ("t.yaml", &check_yaml("    enforced: false\n")),
        ]);
        let report = catalog::check(dir.path());
        assert!(
            report.render_human().contains("`enforced: false`"),
            "{}",
            report.render_human()
        );
        let t = load(&check_yaml(""), "flavors: [mariadb]\n");
        common::apply_converged(&probe, &catalog_tables(&t)).await;
        let live = inspect(&probe, "T").await;
        assert!(live.checks[0].enforced, "{live:?}");
        return;
    }
    drop(probe);
    let flavors = "flavors: [mysql]\n";
    let not_enforced = load(&check_yaml("    enforced: false\n"), flavors);
    let enforced = load(&check_yaml(""), flavors);
    let live = |clause: &str| {
        format!(
            "CREATE TABLE `T` (`Id` bigint unsigned NOT NULL, `Flag` tinyint(1) NOT NULL DEFAULT 0, \
             PRIMARY KEY (`Id`), CONSTRAINT `chk_flag` CHECK (`Flag` in (0, 1)){clause}) \
             ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
        )
    };
    refused(
        &live(""),
        &not_enforced,
        "chk_flag",
        ProblemKind::CheckEnforcement,
    )
    .await;
    refused(
        &live(" NOT ENFORCED"),
        &enforced,
        "chk_flag",
        ProblemKind::CheckEnforcement,
    )
    .await;
    // Created from the catalog, imported back (live, through check, from
    // a dump): NOT ENFORCED is kept every way.
    let db = TestDb::new().await;
    common::apply_converged(&db, &catalog_tables(&not_enforced)).await;
    assert!(db.show_create("T").await.contains("NOT ENFORCED"));
    common::assert_verified_and_idle(&db, &not_enforced).await;
    let dir = common::scratch_dir("exact-enforced");
    for tables in common::import_three_ways(&db, &dir).await {
        assert!(!tables[0].checks[0].enforced, "{:?}", tables[0].checks);
    }
}

/// A catalog whose literals hold backslashes and quotes at every
/// expression site: a default, a CHECK, a generated column, (on MySQL) an
/// expression key part, and the table, column and index comments.
fn backslash_yaml(functional: bool) -> String {
    let key = if functional {
        r#"  - name: ix_z
    columns:
      - expression: |-
          concat(Note, '\\z', '''')
    comment: |-
      z's \ "key"
"#
    } else {
        ""
    };
    format!(
        r#"table: B
comment: |-
  B's \ "table"
columns:
  - name: Id
    type: bigint unsigned
    nullable: false
  - name: Note
    type: varchar(64)
    nullable: false
    comment: |-
      it's a \ note
    default: |-
      (concat('a', '\\', 'it''s'))
  - name: Tail
    type: varchar(80)
    generated:
      expression: |-
        concat(Note, '\\', '''')
primary_key: [Id]
indexes:
  - name: ix_note
    columns: [Note]
    comment: |-
      ix's \ key
{key}checks:
  - name: chk_note
    expression: |-
      Note <> 'x\\y' AND Note <> 'it''s'
"#
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn backslashes_survive_render_dump_and_import() {
    let db = TestDb::new().await;
    let mysql = db.flavor == schema_catalog::Flavor::MySql;
    let flavors = if mysql {
        "flavors: [mysql]\n"
    } else {
        "flavors: [mariadb]\n"
    };
    let cat = load(&backslash_yaml(mysql), flavors);
    let tables = catalog_tables(&cat);
    let want = &tables[0];
    assert!(want.checks[0].expression.contains("\\\\"), "{want:?}");
    assert!(want.checks[0].expression.contains("'it''s'"), "{want:?}");
    assert_eq!(want.comment.as_deref(), Some(r#"B's \ "table""#));
    assert_eq!(want.columns[1].comment.as_deref(), Some(r"it's a \ note"));
    // render -> dump parse: no drift (the parser keeps every backslash).
    let ddl = schema_catalog::ddl::create_table(want, db.flavor);
    let parsed = schema_catalog::dump::parse_create_table(&ddl).expect("render parses");
    let d = schema_catalog::diff::diff_table(want, Some(&parsed));
    assert!(d.is_satisfied(), "{ddl}\n{:#?}", d.problems);
    // catalog -> server -> inspect: equal; a second apply is a no-op.
    common::apply_converged(&db, &tables).await;
    common::assert_verified_and_idle(&db, &cat).await;
    // The rows obey what the catalog means: `x\y` is refused, `xy` is not.
    use mysql_async::prelude::Queryable;
    let mut conn = db.pool.get_conn().await.unwrap();
    assert!(conn
        .query_drop("INSERT INTO `B` (`Id`, `Note`) VALUES (1, 'x\\\\y')")
        .await
        .is_err());
    assert!(conn
        .query_drop("INSERT INTO `B` (`Id`, `Note`) VALUES (3, 'it''s')")
        .await
        .is_err());
    conn.query_drop("INSERT INTO `B` (`Id`, `Note`) VALUES (2, 'xy')")
        .await
        .unwrap();
    // The default and the generated column hold what the catalog means.
    let row: Option<(String, String)> = conn
        .query_first("SELECT `Note`, `Tail` FROM `B` WHERE `Id` = 2")
        .await
        .unwrap();
    assert_eq!(row, Some(("xy".into(), r"xy\'".into())));
    conn.query_drop("INSERT INTO `B` (`Id`) VALUES (4)")
        .await
        .unwrap();
    let note: Option<String> = conn
        .query_first("SELECT `Note` FROM `B` WHERE `Id` = 4")
        .await
        .unwrap();
    assert_eq!(note.as_deref(), Some(r"a\it's"));
    drop(conn);
    // server -> import (live, through check, dump) -> the same expressions,
    // and an empty schema given the import has the same definition.
    let dir = common::scratch_dir("exact-backslash");
    for imported in common::import_three_ways(&db, &dir).await {
        let d = schema_catalog::diff::diff_table(want, Some(&imported[0]));
        assert!(d.is_satisfied(), "{:#?}", d.problems);
        let empty = TestDb::new().await;
        common::apply_converged(&empty, &imported).await;
        assert_eq!(empty.show_create("B").await, db.show_create("B").await);
    }
}
