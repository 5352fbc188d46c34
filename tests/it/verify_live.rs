//! `verify` against the real test server (each flavor `scripts/test` runs), through the
//! library API. Every physical case starts from the shipped catalog's exact
//! tables (created from `ddl::create_table`) and is then broken with plain
//! DDL, never through the catalog. Each case asserts the exact problem kinds
//! and objects, and that verify wrote nothing (schema snapshot and the
//! session's write counters unchanged).

use crate::common;

use std::path::Path;
use std::time::Duration;

use common::{shipped_schema_with, TestDb};
use mysql_async::prelude::*;
use schema_catalog::catalog::{self, Catalog};
use schema_catalog::db::{self, Session};
use schema_catalog::diff::{ProblemKind, Value};
use schema_catalog::verify::VerifyReport;
use schema_catalog::Error;

const TIMEOUT: Duration = Duration::from_secs(10);

const FILE_UPLOAD: &str = "_System_FileUploadOperation";
const OUTBOUND: &str = "_System_IntegrationOutboundCommand";
const LIFECYCLE: &str = "idx_file_upload_lifecycle";
const UPLOAD_CONSUMER: &str = "runtime-upload-lifecycle";
const RECONCILER: &str = "integration-reconciler";

fn shipped() -> Catalog {
    catalog::load(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/catalog")))
        .expect("the shipped catalog loads")
}

async fn session(db: &TestDb) -> Session<'static> {
    let target = db::parse_url(&db.url()).expect("test URL parses");
    db::connect(&target, TIMEOUT)
        .await
        .expect("connect to the test schema")
}

/// Session counters of every statement that writes, plus prepared executions.
const COUNTERS: [&str; 12] = [
    "Com_create_table",
    "Com_alter_table",
    "Com_drop_table",
    "Com_create_index",
    "Com_drop_index",
    "Com_insert",
    "Com_update",
    "Com_delete",
    "Com_replace",
    "Com_create_db",
    "Com_drop_db",
    "Com_stmt_execute",
];

async fn counters(s: &mut Session<'_>) -> Vec<(String, u64)> {
    let list = COUNTERS
        .iter()
        .map(|c| format!("'{c}'"))
        .collect::<Vec<_>>()
        .join(", ");
    let rows: Vec<(String, String)> = s
        .conn()
        .query(format!(
            "SHOW SESSION STATUS WHERE Variable_name IN ({list})"
        ))
        .await
        .expect("session status");
    let mut out: Vec<(String, u64)> = rows
        .into_iter()
        .map(|(n, v)| (n, v.parse().expect("numeric status")))
        .collect();
    out.sort();
    assert_eq!(out.len(), COUNTERS.len(), "every counter is read: {out:?}");
    out
}

fn get(c: &[(String, u64)], name: &str) -> u64 {
    c.iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| *v)
        .unwrap()
}

/// Runs verify on its own session and proves it wrote nothing: the schema's
/// SHOW CREATE TABLE snapshot is identical before and after, and the
/// session's write counters did not move. Also bounds the statements: at most
/// three prepared executions per scoped catalog table.
async fn run(db: &TestDb, consumer: Option<&str>) -> VerifyReport {
    let cat = shipped();
    let before = db.snapshot().await;
    let mut s = session(db).await;
    let c0 = counters(&mut s).await;
    let report = schema_catalog::verify(
        &mut s,
        &cat,
        &schema_catalog::VerifyOptions::default()
            .schema(&db.name)
            .consumer(consumer),
    )
    .await
    .expect("verify runs");
    let c1 = counters(&mut s).await;
    for name in COUNTERS.iter().filter(|n| **n != "Com_stmt_execute") {
        assert_eq!(
            get(&c0, name),
            get(&c1, name),
            "verify issued a write statement ({name})"
        );
    }
    let tables = catalog::Catalog::scoped(&cat, consumer).len() as u64;
    let executed = get(&c1, "Com_stmt_execute") - get(&c0, "Com_stmt_execute");
    assert!(
        executed <= 3 * tables,
        "{executed} statements for {tables} tables"
    );
    assert_eq!(db.snapshot().await, before, "verify changed the schema");
    assert_eq!(report.flavor, db.flavor);
    assert_eq!(report.consumer.as_deref(), consumer);
    report
}

/// (table, object, kind) of each problem, in report order (sorted).
fn kinds(r: &VerifyReport) -> Vec<(String, String, ProblemKind)> {
    r.problems
        .iter()
        .map(|p| (p.table.clone(), p.object.clone(), p.kind))
        .collect()
}

fn one(table: &str, object: &str, kind: ProblemKind) -> Vec<(String, String, ProblemKind)> {
    vec![(table.to_string(), object.to_string(), kind)]
}

/// Asserts the report fails with exactly `want` and that `ok` agrees.
fn assert_problems(r: &VerifyReport, want: Vec<(String, String, ProblemKind)>) {
    assert_eq!(kinds(r), want, "{:#?}", r.problems);
    assert_eq!(r.ok, want.is_empty());
}

/// Recreates `idx_file_upload_lifecycle` with another definition.
fn lifecycle_as(def: &str) -> Vec<String> {
    vec![
        format!("ALTER TABLE {FILE_UPLOAD} DROP INDEX {LIFECYCLE}"),
        format!("ALTER TABLE {FILE_UPLOAD} ADD {def}"),
    ]
}

async fn broken(statements: Vec<String>) -> TestDb {
    let s: Vec<&str> = statements.iter().map(String::as_str).collect();
    shipped_schema_with(&s).await
}

#[tokio::test]
async fn exact_shape_passes_for_everyone() {
    let db = shipped_schema_with(&[]).await;
    for consumer in [None, Some(UPLOAD_CONSUMER), Some(RECONCILER)] {
        let r = run(&db, consumer).await;
        assert!(r.ok, "{consumer:?}: {:#?}", r.problems);
        assert!(r.problems.is_empty());
        assert!(r.unmanaged.is_empty(), "{:#?}", r.unmanaged);
    }
}

#[tokio::test]
async fn full_verify_is_one_statement_whatever_the_catalog_size() {
    let db = shipped_schema_with(&[]).await;
    let cat = shipped();
    let mut s = session(&db).await;
    let c0 = counters(&mut s).await;
    schema_catalog::verify(
        &mut s,
        &cat,
        &schema_catalog::VerifyOptions::default().schema(&db.name),
    )
    .await
    .unwrap();
    let c1 = counters(&mut s).await;
    assert_eq!(
        get(&c1, "Com_stmt_execute") - get(&c0, "Com_stmt_execute"),
        1,
        "TABLES, COLUMNS and index rows of all {} tables in one statement",
        cat.tables.len()
    );
}

#[tokio::test]
async fn absent_index() {
    let db = shipped_schema_with(&[
        "ALTER TABLE _System_FileUploadOperation DROP INDEX idx_file_upload_expires",
    ])
    .await;
    let r = run(&db, None).await;
    assert_problems(
        &r,
        one(
            FILE_UPLOAD,
            "idx_file_upload_expires",
            ProblemKind::MissingIndex,
        ),
    );
    assert_eq!(r.problems[0].expected, "KEY (`ExpiresAt`)");
    assert_eq!(r.problems[0].actual, "absent");
}

#[tokio::test]
async fn prefix_on_the_first_column() {
    let db = broken(lifecycle_as(
        "KEY idx_file_upload_lifecycle (State(10), ExpiresAt, Id)",
    ))
    .await;
    let r = run(&db, None).await;
    assert_problems(&r, one(FILE_UPLOAD, LIFECYCLE, ProblemKind::IndexPrefix));
    assert!(
        r.problems[0].actual.to_string().contains("`State`(10)"),
        "{}",
        r.problems[0].actual
    );
}

#[tokio::test]
async fn prefix_on_a_later_column() {
    let db = shipped_schema_with(&[
        "ALTER TABLE _System_IntegrationOutboundCommand DROP INDEX idx_integration_outbound_dependency_wake",
        "ALTER TABLE _System_IntegrationOutboundCommand ADD KEY idx_integration_outbound_dependency_wake (DependencyKey, State(8), WaitingSince)",
    ])
    .await;
    let r = run(&db, None).await;
    assert_problems(
        &r,
        one(
            OUTBOUND,
            "idx_integration_outbound_dependency_wake",
            ProblemKind::IndexPrefix,
        ),
    );
    assert!(
        r.problems[0].actual.to_string().contains("`State`(8)"),
        "{}",
        r.problems[0].actual
    );
}

#[tokio::test]
async fn unique_where_non_unique_is_declared() {
    let db = broken(lifecycle_as(
        "UNIQUE KEY idx_file_upload_lifecycle (State, ExpiresAt, Id)",
    ))
    .await;
    let r = run(&db, None).await;
    assert_problems(
        &r,
        one(FILE_UPLOAD, LIFECYCLE, ProblemKind::IndexUniqueness),
    );
}

#[tokio::test]
async fn non_unique_where_unique_is_declared() {
    let db = shipped_schema_with(&[
        "ALTER TABLE _System_FileUploadOperation DROP INDEX uq_file_upload_idempotency",
        "ALTER TABLE _System_FileUploadOperation ADD KEY uq_file_upload_idempotency (IdempotencyKey)",
    ])
    .await;
    let r = run(&db, None).await;
    assert_problems(
        &r,
        one(
            FILE_UPLOAD,
            "uq_file_upload_idempotency",
            ProblemKind::IndexUniqueness,
        ),
    );
    assert_eq!(r.problems[0].expected, "UNIQUE KEY (`IdempotencyKey`)");
    assert_eq!(r.problems[0].actual, "KEY (`IdempotencyKey`)");
}

#[tokio::test]
async fn one_column_more() {
    let db = broken(lifecycle_as(
        "KEY idx_file_upload_lifecycle (State, ExpiresAt, Id, CreatedAt)",
    ))
    .await;
    let r = run(&db, None).await;
    assert_problems(&r, one(FILE_UPLOAD, LIFECYCLE, ProblemKind::IndexColumns));
}

#[tokio::test]
async fn one_column_fewer() {
    let db = broken(lifecycle_as(
        "KEY idx_file_upload_lifecycle (State, ExpiresAt)",
    ))
    .await;
    let r = run(&db, None).await;
    assert_problems(&r, one(FILE_UPLOAD, LIFECYCLE, ProblemKind::IndexColumns));
    assert_eq!(r.problems[0].expected, "KEY (`State`, `ExpiresAt`, `Id`)");
    assert_eq!(r.problems[0].actual, "KEY (`State`, `ExpiresAt`)");
}

#[tokio::test]
async fn columns_reordered() {
    let db = broken(lifecycle_as(
        "KEY idx_file_upload_lifecycle (ExpiresAt, State, Id)",
    ))
    .await;
    let r = run(&db, None).await;
    assert_problems(&r, one(FILE_UPLOAD, LIFECYCLE, ProblemKind::IndexOrder));
}

#[tokio::test]
async fn index_and_column_names_in_other_letter_case_pass() {
    let db = broken(lifecycle_as(
        "KEY IDX_FILE_UPLOAD_LIFECYCLE (state, EXPIRESAT, iD)",
    ))
    .await;
    let r = run(&db, None).await;
    assert_problems(&r, vec![]);
    assert!(r.unmanaged.is_empty(), "{:#?}", r.unmanaged);
}

/// MariaDB's `IGNORED` and MySQL's `INVISIBLE`, each on its own flavor.
#[tokio::test]
async fn ignored_or_invisible_index() {
    let db = shipped_schema_with(&[]).await;
    let marker = db.hidden_index();
    db.exec(&[&format!(
        "ALTER TABLE _System_FileUploadOperation ALTER INDEX idx_file_upload_expires {marker}"
    )])
    .await;
    let r = run(&db, None).await;
    assert_problems(
        &r,
        one(
            FILE_UPLOAD,
            "idx_file_upload_expires",
            ProblemKind::IndexInvisible,
        ),
    );
}

#[tokio::test]
async fn type_drift() {
    let db = shipped_schema_with(&[
        "ALTER TABLE _System_FileUploadOperation MODIFY State varchar(64) NOT NULL DEFAULT 'pending'",
    ])
    .await;
    let r = run(&db, None).await;
    assert_problems(&r, one(FILE_UPLOAD, "State", ProblemKind::ColumnType));
    assert_eq!(r.problems[0].expected, "varchar(32)");
    assert_eq!(r.problems[0].actual, "varchar(64)");
}

#[tokio::test]
async fn nullability_drift() {
    let db = shipped_schema_with(&[
        "ALTER TABLE _System_FileUploadOperation MODIFY ObjectKey varchar(512) NULL",
    ])
    .await;
    let r = run(&db, None).await;
    assert_problems(
        &r,
        one(FILE_UPLOAD, "ObjectKey", ProblemKind::ColumnNullability),
    );
    assert_eq!(
        (&r.problems[0].expected, &r.problems[0].actual),
        (&Value::Nullable(false), &Value::Nullable(true))
    );
    assert_eq!(r.problems[0].expected, "NOT NULL");
}

#[tokio::test]
async fn collation_drift_on_a_key_column() {
    let db = shipped_schema_with(&[
        "ALTER TABLE _System_IntegrationOutboundCommand MODIFY DependencyKey varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NULL",
    ])
    .await;
    let r = run(&db, None).await;
    assert_problems(
        &r,
        one(OUTBOUND, "DependencyKey", ProblemKind::ColumnCollation),
    );
    assert!(r.problems[0].expected.to_string().contains("utf8mb4_bin"));
    assert!(r.problems[0]
        .actual
        .to_string()
        .contains("utf8mb4_general_ci"));
}

#[tokio::test]
async fn default_drift() {
    let db = shipped_schema_with(&[
        "ALTER TABLE _System_FileUploadOperation ALTER COLUMN State SET DEFAULT 'queued'",
    ])
    .await;
    let r = run(&db, None).await;
    assert_problems(&r, one(FILE_UPLOAD, "State", ProblemKind::ColumnDefault));
    assert_eq!(r.problems[0].expected, "DEFAULT 'pending'");
    assert_eq!(r.problems[0].actual, "DEFAULT 'queued'");
}

#[tokio::test]
async fn missing_columns_nullable_and_not_null() {
    let db = shipped_schema_with(&[
        "ALTER TABLE _System_FileUploadOperation DROP COLUMN CommittedAt",
        "ALTER TABLE _System_FileUploadOperation DROP COLUMN ObjectKey",
    ])
    .await;
    let r = run(&db, None).await;
    assert_problems(
        &r,
        vec![
            (
                FILE_UPLOAD.into(),
                "CommittedAt".into(),
                ProblemKind::MissingColumn,
            ),
            (
                FILE_UPLOAD.into(),
                "ObjectKey".into(),
                ProblemKind::MissingNotNullColumn,
            ),
        ],
    );
}

#[tokio::test]
async fn missing_table() {
    let db = shipped_schema_with(&["DROP TABLE _System_WorkItem"]).await;
    let r = run(&db, None).await;
    assert_problems(
        &r,
        one(
            "_System_WorkItem",
            "_System_WorkItem",
            ProblemKind::MissingTable,
        ),
    );
}

#[tokio::test]
async fn primary_key_drift() {
    let db = shipped_schema_with(&[
        "ALTER TABLE _System_FileUploadOperation DROP PRIMARY KEY, ADD PRIMARY KEY (Id, State)",
    ])
    .await;
    let r = run(&db, None).await;
    assert_problems(&r, one(FILE_UPLOAD, "PRIMARY", ProblemKind::PrimaryKey));
    assert_eq!(r.problems[0].expected, "(`Id`)");
    assert_eq!(r.problems[0].actual, "(`Id`, `State`)");
}

#[tokio::test]
async fn unmanaged_column_index_and_table_are_tolerated() {
    let db = shipped_schema_with(&[
        "ALTER TABLE _System_FileUploadOperation ADD COLUMN Extra int NULL",
        "ALTER TABLE _System_FileUploadOperation ADD KEY idx_extra (Extra, CreatedAt)",
        "CREATE TABLE other_app_table (id int PRIMARY KEY, v varchar(10))",
    ])
    .await;
    let r = run(&db, None).await;
    assert_problems(&r, vec![]);
    let unmanaged: Vec<_> = r
        .unmanaged
        .iter()
        .map(|p| (p.table.as_str(), p.object.as_str(), p.kind))
        .collect();
    assert_eq!(
        unmanaged,
        vec![
            (FILE_UPLOAD, "Extra", ProblemKind::UnmanagedColumn),
            (FILE_UPLOAD, "idx_extra", ProblemKind::UnmanagedIndex),
        ]
    );
    // Tables outside the catalog are not even read.
    assert!(!format!("{r:?}").contains("other_app_table"));
}

#[tokio::test]
async fn consumer_scoping_of_a_missing_index() {
    let db = shipped_schema_with(&[
        "ALTER TABLE _System_FileUploadOperation DROP INDEX idx_file_upload_lifecycle",
    ])
    .await;
    let other = run(&db, Some(RECONCILER)).await;
    assert_problems(&other, vec![]);
    let owner = run(&db, Some(UPLOAD_CONSUMER)).await;
    assert_problems(
        &owner,
        one(FILE_UPLOAD, LIFECYCLE, ProblemKind::MissingIndex),
    );
    let full = run(&db, None).await;
    assert_problems(
        &full,
        one(FILE_UPLOAD, LIFECYCLE, ProblemKind::MissingIndex),
    );
}

#[tokio::test]
async fn consumer_scoping_of_a_drifted_index() {
    let db = broken(lifecycle_as(
        "KEY idx_file_upload_lifecycle (State(4), ExpiresAt)",
    ))
    .await;
    let other = run(&db, Some(RECONCILER)).await;
    assert_problems(&other, vec![]);
    let want = vec![
        (
            FILE_UPLOAD.into(),
            LIFECYCLE.into(),
            ProblemKind::IndexColumns,
        ),
        (
            FILE_UPLOAD.into(),
            LIFECYCLE.into(),
            ProblemKind::IndexPrefix,
        ),
    ];
    let mut owner = kinds(&run(&db, Some(UPLOAD_CONSUMER)).await);
    owner.sort();
    let mut full = kinds(&run(&db, None).await);
    full.sort();
    assert_eq!(owner, want);
    assert_eq!(full, want);
}

#[tokio::test]
async fn consumer_scoping_the_other_way_round() {
    let db = shipped_schema_with(&[
        "ALTER TABLE _System_IntegrationOutboundCommand DROP INDEX idx_integration_outbound_reconcile",
    ])
    .await;
    assert_problems(&run(&db, Some(UPLOAD_CONSUMER)).await, vec![]);
    assert_problems(
        &run(&db, Some(RECONCILER)).await,
        one(
            OUTBOUND,
            "idx_integration_outbound_reconcile",
            ProblemKind::MissingIndex,
        ),
    );
}

#[tokio::test]
async fn unknown_consumer_is_a_usage_error_listing_the_known_ones() {
    let db = shipped_schema_with(&[]).await;
    let mut s = session(&db).await;
    let err = schema_catalog::verify(
        &mut s,
        &shipped(),
        &schema_catalog::VerifyOptions::default()
            .schema(&db.name)
            .consumer("no-such-worker"),
    )
    .await
    .unwrap_err();
    let Error::Usage(msg) = &err else {
        panic!("expected a usage error, got {err:?}");
    };
    assert!(msg.contains("no-such-worker"), "{msg}");
    assert!(
        msg.contains(RECONCILER) && msg.contains(UPLOAD_CONSUMER),
        "{msg}"
    );
}

#[tokio::test]
async fn empty_schema_reports_every_table_missing() {
    let db = TestDb::new().await;
    let r = run(&db, None).await;
    assert_eq!(r.problems.len(), shipped().tables.len());
    assert!(r
        .problems
        .iter()
        .all(|p| p.kind == ProblemKind::MissingTable));
    assert!(!r.ok);
}
