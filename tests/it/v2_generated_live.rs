//! Catalog format v2 generated columns, spatial types and SPATIAL indexes,
//! bit and expression defaults, and (MySQL 9) column SRIDs and vector(n),
//! against the real server (MariaDB and MySQL).
//!
//! - Round trip: a table built with plain DDL imports three ways (live,
//!   through `catalog check`, from a dump) into the same catalog; applied
//!   to an empty schema it gives the same physical table, and a second
//!   apply has no step.
//! - Drift: a live generated column whose expression or STORED/VIRTUAL
//!   differs, or a plain column where a generated one is declared, is
//!   refused: no DDL, schema unchanged.
//! - Add: a missing VIRTUAL generated column (and an index on it) is added
//!   online to a populated table whose rows keep their bytes; a missing
//!   STORED one and a missing SPATIAL index are refused as not online.
//!
//! MariaDB 10.11 has no vector type and no column SRID: there the lint
//! refusal is the test (tests/it/catalog_check.rs, `bad-flavor-features`).

use crate::common;

use common::{catalog_dir, catalog_tables, import_three_ways, TestDb};
use schema_catalog::apply::ApplyReport;
use schema_catalog::catalog;
use schema_catalog::diff::ProblemKind;
use schema_catalog::{ColumnType, Flavor, Table};

/// Both servers: generated VIRTUAL / STORED columns (a string literal in
/// one, which MySQL reports with an introducer and escaped quotes; one that
/// is only a string, `_utf8mb4'test'` on MySQL), an
/// index on a virtual column, a bit default, an expression default on
/// json, every spatial type and a SPATIAL index.
const BOTH: &str = "CREATE TABLE `Shapes` (
  `Id` bigint unsigned NOT NULL,
  `Queue` varchar(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
  `Attempts` int NOT NULL DEFAULT 0,
  `Flags` bit(3) NOT NULL DEFAULT b'101',
  `Payload` json NULL DEFAULT (json_array()),
  `QueueKey` varchar(80) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin GENERATED ALWAYS AS (concat(lower(`Queue`), ':', 'x')) VIRTUAL,
  `AttemptsLeft` int GENERATED ALWAYS AS (5 - `Attempts`) STORED,
  `Label` varchar(8) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin GENERATED ALWAYS AS ('test') VIRTUAL,
  `Area` geometry NOT NULL,
  `Center` point NULL,
  `Route` linestring NULL,
  `Outline` polygon NULL,
  `Stops` multipoint NULL,
  `Routes` multilinestring NULL,
  `Outlines` multipolygon NULL,
  `Things` geometrycollection NULL,
  PRIMARY KEY (`Id`),
  KEY `idx_shapes_queue_key` (`QueueKey`, `Id`),
  SPATIAL KEY `sp_shapes_area` (`Area`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";

/// MySQL 9 only: an SRID-restricted column with its SPATIAL index, a
/// vector, a NOT NULL generated column.
const MYSQL_ONLY: &str = "CREATE TABLE `Located` (
  `Id` bigint unsigned NOT NULL,
  `Pin` point NOT NULL SRID 4326,
  `Embedding` vector(3) NULL,
  `Twice` bigint unsigned GENERATED ALWAYS AS (`Id` * 2) STORED NOT NULL,
  PRIMARY KEY (`Id`),
  SPATIAL KEY `sp_located_pin` (`Pin`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";

fn column<'a>(t: &'a [Table], table: &str, name: &str) -> &'a schema_catalog::Column {
    t.iter()
        .find(|t| t.name.as_str() == table)
        .and_then(|t| t.columns.iter().find(|c| c.name.as_str() == name))
        .unwrap_or_else(|| panic!("{table}.{name} in {t:#?}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn generated_spatial_and_defaults_round_trip() {
    let source = TestDb::new().await;
    source.exec(&[BOTH]).await;
    if source.flavor == Flavor::MySql {
        source.exec(&[MYSQL_ONLY]).await;
    }
    let dir = tempfile::tempdir().unwrap();
    let [live, reloaded, dumped] = import_three_ways(&source, dir.path()).await;
    assert_eq!(reloaded, live, "the checked import loads as imported");
    assert_eq!(dumped, live, "the dump imports as the live schema");
    let key = column(&live, "Shapes", "QueueKey")
        .generated
        .clone()
        .unwrap();
    assert!(!key.stored);
    assert!(
        schema_catalog::readiness::same_expression(
            &key.expression,
            "concat(lower(`Queue`), ':', 'x')"
        ),
        "{key:?}"
    );
    assert_eq!(
        column(&live, "Shapes", "Label")
            .generated
            .as_ref()
            .map(|g| g.expression.as_str()),
        Some("'test'"),
        "a lone generated string is read without its introducer"
    );
    assert!(
        column(&live, "Shapes", "AttemptsLeft")
            .generated
            .as_ref()
            .unwrap()
            .stored
    );
    assert_eq!(
        column(&live, "Shapes", "Flags").default,
        Some(schema_catalog::DefaultValue::Bits("101".into()))
    );
    if source.flavor == Flavor::MySql {
        assert_eq!(
            column(&live, "Located", "Pin").ty,
            ColumnType::parse("point srid 4326").unwrap()
        );
        assert_eq!(
            column(&live, "Located", "Embedding").ty,
            ColumnType::Vector(3)
        );
    }

    common::assert_greenfield(&source, &reloaded).await;
}

/// The catalog of the drift and add tests: a virtual and a stored
/// generated column, and an index on the virtual one.
const CATALOG: &str = "table: T
columns:
  - name: Id
    type: bigint unsigned
    nullable: false
  - name: Queue
    type: varchar(64)
    nullable: false
  - name: QueueLower
    type: varchar(64)
    generated: {expression: \"lower(Queue)\"}
  - name: Twice
    type: bigint unsigned
    generated: {expression: \"Id * 2\", stored: true}
primary_key: [Id]
indexes:
  - name: idx_t_queue_lower
    columns: [QueueLower]
";

const SETTINGS: &str =
    "defaults:\n  engine: InnoDB\n  charset: utf8mb4\n  collation: utf8mb4_bin\n";

/// The one table of `table_yaml` in a catalog for all three flavors.
fn load(table_yaml: &str) -> Vec<Table> {
    load_with_flavors(table_yaml, "")
}

/// Applies the catalog to a schema holding `live` and two rows, and
/// returns the report: refused as drift, no DDL, tables and rows unchanged.
async fn refused(live: &str, yaml: &str) -> ApplyReport {
    let db = TestDb::new().await;
    db.exec(&[
        live,
        "INSERT INTO `T` (`Id`, `Queue`) VALUES (1, 'A'), (2, 'b')",
    ])
    .await;
    common::assert_apply_refused(&db, &load(yaml), &[("T", &["Id", "Queue"])]).await
}

fn assert_problem(report: &ApplyReport, object: &str, kind: ProblemKind) {
    common::assert_drift(report, "T", object, kind);
}

fn live_t(queue_lower: &str, twice: &str) -> String {
    format!(
        "CREATE TABLE `T` (`Id` bigint unsigned NOT NULL, `Queue` varchar(64) NOT NULL, {queue_lower}, {twice}, \
         PRIMARY KEY (`Id`), KEY `idx_t_queue_lower` (`QueueLower`)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
    )
}

const OK_LOWER: &str = "`QueueLower` varchar(64) GENERATED ALWAYS AS (lower(`Queue`)) VIRTUAL";
const OK_TWICE: &str = "`Twice` bigint unsigned GENERATED ALWAYS AS (`Id` * 2) STORED";

#[tokio::test]
async fn the_declared_generated_columns_verify() {
    let db = TestDb::new().await;
    db.exec(&[&live_t(OK_LOWER, OK_TWICE)]).await;
    let report = common::apply_converged(&db, &load(CATALOG)).await;
    assert!(report.steps.is_empty(), "{report:#?}");
}

#[tokio::test]
async fn drift_generated_expression_is_refused() {
    let lower = "`QueueLower` varchar(64) GENERATED ALWAYS AS (upper(`Queue`)) VIRTUAL";
    let report = refused(&live_t(lower, OK_TWICE), CATALOG).await;
    assert_problem(
        &report,
        "QueueLower",
        ProblemKind::ColumnGeneratedExpression,
    );
}

#[tokio::test]
async fn drift_generated_storage_is_refused() {
    let twice = "`Twice` bigint unsigned GENERATED ALWAYS AS (`Id` * 2) VIRTUAL";
    let report = refused(&live_t(OK_LOWER, twice), CATALOG).await;
    assert_problem(&report, "Twice", ProblemKind::ColumnGeneratedStored);
}

#[tokio::test]
async fn drift_plain_column_where_generated_is_declared_is_refused() {
    let lower = "`QueueLower` varchar(64) NULL";
    let report = refused(&live_t(lower, OK_TWICE), CATALOG).await;
    assert_problem(&report, "QueueLower", ProblemKind::ColumnGenerated);
}

/// A retained table without the generated columns: the VIRTUAL one and its
/// index are added online (ALGORITHM=INSTANT, then INPLACE LOCK=NONE), rows
/// unchanged and the values computed; the STORED one is not declared here.
#[tokio::test]
async fn missing_virtual_generated_column_is_added_online() {
    let db = TestDb::new().await;
    db.exec(&[
        "CREATE TABLE `T` (`Id` bigint unsigned NOT NULL, `Queue` varchar(64) NOT NULL, PRIMARY KEY (`Id`)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
        "INSERT INTO `T` (`Id`, `Queue`) VALUES (1, 'A'), (2, 'b')",
    ])
    .await;
    let rows = db.checksum("T", &["Id", "Queue"]).await;
    let yaml = CATALOG.replace(
        "  - name: Twice\n    type: bigint unsigned\n    generated: {expression: \"Id * 2\", stored: true}\n",
        "",
    );
    let tables = load(&yaml);
    let report = common::apply_converged(&db, &tables).await;
    let sql: Vec<&str> = report.steps.iter().map(|s| s.sql.as_str()).collect();
    assert_eq!(sql.len(), 2, "{sql:#?}");
    assert!(
        sql[0].contains("ADD COLUMN `QueueLower`") && sql[0].ends_with("ALGORITHM=INSTANT"),
        "{sql:#?}"
    );
    assert!(sql[1].ends_with("ALGORITHM=INPLACE, LOCK=NONE"), "{sql:#?}");
    assert_eq!(db.checksum("T", &["Id", "Queue"]).await, rows);
    let lower = db.checksum("T", &["QueueLower"]).await;
    let expected = TestDb::new().await;
    expected
        .exec(&["CREATE TABLE `T` (`QueueLower` varchar(64)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin", "INSERT INTO `T` VALUES ('a'), ('b')"])
        .await;
    assert_eq!(lower, expected.checksum("T", &["QueueLower"]).await);
    common::assert_idle(&db, &tables).await;
}

/// A missing STORED generated column is computed into every row with a
/// table copy: refused as not online, nothing changed.
#[tokio::test]
async fn missing_stored_generated_column_is_refused_as_not_online() {
    let live = live_t(OK_LOWER, "`Other` int NULL");
    let report = refused(&live, CATALOG).await;
    assert_problem(&report, "Twice", ProblemKind::ColumnNotOnline);
}

/// A missing SPATIAL index: both servers refuse LOCK=NONE for it, so apply
/// refuses it as not online, nothing changed.
#[tokio::test]
async fn missing_spatial_index_is_refused_as_not_online() {
    let yaml = format!("{CATALOG}  - name: sp_t_area\n    kind: spatial\n    columns: [Area]\n")
        .replace(
            "primary_key: [Id]",
            "  - name: Area\n    type: geometry\n    nullable: false\nprimary_key: [Id]",
        );
    let db = TestDb::new().await;
    let live = format!(
        "CREATE TABLE `T` (`Id` bigint unsigned NOT NULL, `Queue` varchar(64) NOT NULL, {OK_LOWER}, {OK_TWICE}, \
         `Area` geometry NOT NULL, PRIMARY KEY (`Id`), KEY `idx_t_queue_lower` (`QueueLower`)) \
         DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
    );
    db.exec(&[&live]).await;
    let tables = load_with_flavors(&yaml, "flavors: [mysql, mariadb]\n");
    let report = common::assert_apply_refused(&db, &tables, &[]).await;
    assert_problem(&report, "sp_t_area", ProblemKind::IndexNotOnline);
}

/// The one table of `table_yaml`, `flavors` being the catalog's flavors
/// line (or empty); no lint error.
fn load_with_flavors(table_yaml: &str, flavors: &str) -> Vec<Table> {
    let settings = format!("{flavors}{SETTINGS}");
    let dir = catalog_dir(&[("catalog.yaml", &settings), ("t.yaml", table_yaml)]);
    let report = catalog::check(dir.path());
    assert_eq!(report.error_count(), 0, "{}", report.render_human());
    catalog_tables(&report.catalog.unwrap())
}
