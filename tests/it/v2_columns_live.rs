//! Catalog format v2 column types and attributes against the real server
//! (MariaDB and MySQL): `enum`/`set` (members in order, with their
//! collation), `year`, `bit(n)`, `time(p)`, `tinytext`/`tinyblob`,
//! `on_update: CURRENT_TIMESTAMP(p)` and `invisible: true`.
//!
//! - Round trip: a table built with plain DDL imports into a catalog that
//!   passes `check` and `verify`; applied to an empty schema it gives the
//!   same physical table; the dump path writes the same files.
//! - Drift: a live column whose members, order or ON UPDATE differ from the
//!   catalog is refused, no DDL is issued and the schema is unchanged.
//! - Add: a missing ON UPDATE / enum column is added online to a populated
//!   table whose rows keep their bytes.

use crate::common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::TestDb;
use schema_catalog::diff::ProblemKind;
use schema_catalog::import::{self, ImportOptions};
use schema_catalog::{catalog, db, dump, Table};

const TIMEOUT: Duration = Duration::from_secs(10);

const SOURCE: &str = "CREATE TABLE `Kinds` (
  `Id` bigint unsigned NOT NULL AUTO_INCREMENT,
  `State` enum('Pending','Running','it''s done') CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL DEFAULT 'Pending',
  `Tags` set('red','Green','blue') COLLATE utf8mb4_general_ci NULL DEFAULT 'red,blue',
  `Born` year NULL DEFAULT 2020,
  `Bits` bit(5) NULL,
  `Took` time(3) NULL DEFAULT '01:02:03.500',
  `Note` tinytext NULL,
  `Raw` tinyblob NULL,
  `CreatedAt` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  `UpdatedAt` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6),
  `Touched` timestamp NULL DEFAULT NULL ON UPDATE CURRENT_TIMESTAMP,
  `Hidden` int NULL INVISIBLE,
  PRIMARY KEY (`Id`),
  KEY `idx_kinds_state` (`State`, `Born`, `Took`, `Id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";

fn out_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("catalog-v2col-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// A one-table catalog directory from the table file's YAML text.
fn catalog_dir(table_yaml: &str) -> tempfile::TempDir {
    common::catalog_dir(&[
        (
            "catalog.yaml",
            "flavors: [mysql, mariadb]\ndefaults:\n  engine: InnoDB\n  charset: utf8mb4\n  collation: utf8mb4_bin\n",
        ),
        ("t.yaml", table_yaml),
    ])
}

fn load(dir: &Path) -> Vec<Table> {
    let report = catalog::check(dir);
    assert!(report.problems.is_empty(), "{}", report.render_human());
    let cat = report.catalog.unwrap();
    cat.tables.iter().map(|t| t.table.clone()).collect()
}

#[tokio::test]
async fn v2_column_types_round_trip() {
    let source = TestDb::new().await;
    source.exec(&[SOURCE]).await;
    let target = db::parse_url(&source.url()).unwrap();
    let mut s = db::connect(&target, TIMEOUT).await.unwrap();
    let sources = import::read_live(&mut s, &source.name, &[]).await.unwrap();
    let imported = import::build(&target.display, sources, &ImportOptions::default()).unwrap();
    assert!(imported.skipped.is_empty(), "{:#?}", imported.skipped);
    let dir = out_dir("roundtrip");
    import::write(&imported, &dir).unwrap();
    let text = std::fs::read_to_string(dir.join("kinds.yaml")).unwrap();
    for line in [
        "type: enum('Pending','Running','it''s done')",
        "type: set('red','Green','blue')",
        "collation: utf8mb4_general_ci",
        "type: year",
        "type: bit(5)",
        "type: time(3)",
        "on_update: CURRENT_TIMESTAMP(6)",
        "on_update: CURRENT_TIMESTAMP\n",
        "invisible: true",
    ] {
        assert!(text.contains(line), "{line} not in\n{text}");
    }
    let settings = std::fs::read_to_string(dir.join("catalog.yaml")).unwrap();
    assert!(
        settings.contains("flavors:\n- mysql\n- mariadb"),
        "{settings}"
    );
    let tables = load(&dir);
    let cat = catalog::load(&dir).unwrap();

    // verify against the source passes
    let v = common::verify_schema(&source, &cat).await;
    assert!(v.ok, "{:#?}", v.problems);

    // apply to an empty schema gives the same physical table
    common::assert_greenfield(&source, &tables).await;

    // the dump path writes the same files
    let file = dir.with_extension("sql");
    source.dump_no_data(&file);
    let d = dump::read_dump(&file, None).unwrap();
    let from_dump = import::from_dump(&d, &ImportOptions::default()).unwrap();
    assert_eq!(import::to_yaml(&from_dump).1, import::to_yaml(&imported).1);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_file(&file);
}

const CATALOG: &str = "table: T
columns:
  - name: Id
    type: bigint unsigned
    nullable: false
  - name: State
    type: enum('Pending','Running')
    nullable: false
    default: \"'Pending'\"
  - name: UpdatedAt
    type: datetime(6)
    nullable: false
    default: CURRENT_TIMESTAMP(6)
    on_update: CURRENT_TIMESTAMP(6)
  - name: Note
    type: varchar(20)
  - name: Secret
    type: int
    invisible: true
primary_key: [Id]
indexes:
  - name: idx_t_note
    columns: [Note]
";

/// The drifted live table (also lacking `Note` and its index, so there is
/// DDL to be tempted into) is refused: no step, no DDL, schema unchanged.
async fn assert_drift_refused(live: &str, object: &str, kind: ProblemKind) {
    let db = TestDb::new().await;
    db.exec(&[live]).await;
    let tables = load(catalog_dir(CATALOG).path());
    let report = common::assert_apply_refused(&db, &tables, &[]).await;
    common::assert_drift(&report, "T", object, kind);
}

const LIVE_OK_STATE: &str = "`State` enum('Pending','Running') NOT NULL DEFAULT 'Pending'";
const LIVE_OK_UPDATED: &str =
    "`UpdatedAt` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6)";

fn live(state: &str, updated: &str) -> String {
    live_with(state, updated, "`Secret` int NULL INVISIBLE")
}

fn live_with(state: &str, updated: &str, secret: &str) -> String {
    format!(
        "CREATE TABLE `T` (`Id` bigint unsigned NOT NULL, {state}, {updated}, {secret}, PRIMARY KEY (`Id`)) \
         DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
    )
}

#[tokio::test]
async fn drift_visible_column_is_refused() {
    assert_drift_refused(
        &live_with(LIVE_OK_STATE, LIVE_OK_UPDATED, "`Secret` int NULL"),
        "Secret",
        ProblemKind::ColumnInvisible,
    )
    .await;
}

#[tokio::test]
async fn drift_missing_on_update_is_refused() {
    let updated = "`UpdatedAt` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)";
    assert_drift_refused(
        &live(LIVE_OK_STATE, updated),
        "UpdatedAt",
        ProblemKind::ColumnOnUpdate,
    )
    .await;
}

#[tokio::test]
async fn drift_enum_member_order_is_refused() {
    let state = "`State` enum('Running','Pending') NOT NULL DEFAULT 'Pending'";
    assert_drift_refused(
        &live(state, LIVE_OK_UPDATED),
        "State",
        ProblemKind::ColumnType,
    )
    .await;
}

#[tokio::test]
async fn drift_enum_extra_member_is_refused() {
    let state = "`State` enum('Pending','Running','Done') NOT NULL DEFAULT 'Pending'";
    assert_drift_refused(
        &live(state, LIVE_OK_UPDATED),
        "State",
        ProblemKind::ColumnType,
    )
    .await;
}

#[tokio::test]
async fn drift_enum_collation_is_refused() {
    let state =
        "`State` enum('Pending','Running') COLLATE utf8mb4_general_ci NOT NULL DEFAULT 'Pending'";
    assert_drift_refused(
        &live(state, LIVE_OK_UPDATED),
        "State",
        ProblemKind::ColumnCollation,
    )
    .await;
}

/// A retained table without the v2 columns gets them added online (nullable,
/// per the warm-installation rule); existing rows keep their bytes.
#[tokio::test]
async fn missing_on_update_and_enum_columns_are_added_online() {
    let db = TestDb::new().await;
    db.exec(&[
        "CREATE TABLE `T` (`Id` bigint unsigned NOT NULL, `Note` varchar(20) NULL, PRIMARY KEY (`Id`)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
        "INSERT INTO `T` (`Id`, `Note`) VALUES (1, 'a'), (2, NULL), (3, 'c')",
    ])
    .await;
    let before = db.checksum("T", &["Id", "Note"]).await;
    let yaml = "table: T
columns:
  - name: Id
    type: bigint unsigned
    nullable: false
  - name: Note
    type: varchar(20)
  - name: Kind
    type: enum('a','b')
  - name: Flags
    type: set('x','y')
  - name: Touched
    type: datetime(6)
    on_update: CURRENT_TIMESTAMP(6)
  - name: Hidden
    type: int
    invisible: true
primary_key: [Id]
";
    let tables = load(catalog_dir(yaml).path());
    common::apply_converged(&db, &tables).await;
    assert_eq!(db.checksum("T", &["Id", "Note"]).await, before);
    assert_eq!(
        count(&db, "SELECT COUNT(*) FROM `T` WHERE `Kind` IS NULL AND `Flags` IS NULL AND `Touched` IS NULL").await,
        3,
        "existing rows read NULL in the added columns"
    );
    let ddl = db.show_create("T").await.to_ascii_lowercase();
    assert!(ddl.contains("on update current_timestamp(6)"), "{ddl}");
    assert!(ddl.contains("enum('a','b')"), "{ddl}");
    let hidden = ddl.lines().find(|l| l.trim_start().starts_with("`hidden`"));
    assert!(hidden.is_some_and(|l| l.contains("invisible")), "{ddl}");
    common::assert_idle(&db, &tables).await;
    // ON UPDATE works: updating one row stamps that row only.
    db.exec(&["UPDATE `T` SET `Note` = 'b' WHERE `Id` = 2"])
        .await;
    assert_eq!(
        count(
            &db,
            "SELECT COUNT(*) FROM `T` WHERE `Touched` IS NOT NULL AND `Id` = 2"
        )
        .await,
        1
    );
    assert_eq!(
        count(&db, "SELECT COUNT(*) FROM `T` WHERE `Touched` IS NOT NULL").await,
        1
    );
}

async fn count(db: &TestDb, sql: &str) -> u64 {
    use mysql_async::prelude::*;
    let mut conn = db.pool.get_conn().await.expect("connect");
    conn.query_first::<u64, _>(sql)
        .await
        .expect("query")
        .expect("row")
}
