//! `apply` against the real test server (MariaDB by default), every test in
//! its own scratch schema. Legacy tables are built with plain DDL (hand-written
//! CREATE TABLE of an older shape, `fixtures/legacy-shapes/`), never through
//! the catalog; then the current catalog is applied to them.
//!
//! "No DDL issued" is proven with the server's own per-session counters of the
//! apply connection (`server_ddl_count`, `Com_create_table + Com_alter_table`)
//! and with every table's `SHOW CREATE TABLE` compared byte for byte.

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Duration;

use common::{race_at_start, TestDb};
use mysql_async::prelude::*;
use schema_catalog::apply::{self, ApplyOptions, ApplyReport, Outcome, StepStatus};
use schema_catalog::catalog::{self, Catalog};
use schema_catalog::diff::ProblemKind;
use schema_catalog::{db, verify, Table};

const FILE_UPLOAD: &str = "_System_FileUploadOperation";
/// The columns the legacy file-upload table already had (its retained data).
const FILE_UPLOAD_OLD_COLUMNS: &[&str] = &[
    "Id",
    "IdempotencyKey",
    "State",
    "ObjectKey",
    "ExpiresAt",
    "CommittedAt",
    "CreatedAt",
    "UpdatedAt",
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn shipped() -> Catalog {
    catalog::load(&root().join("catalog")).expect("the shipped catalog loads")
}

fn tables(c: &Catalog) -> Vec<Table> {
    c.tables.iter().map(|t| t.table.clone()).collect()
}

fn fixture(name: &str) -> String {
    std::fs::read_to_string(root().join("fixtures/legacy-shapes").join(name))
        .unwrap_or_else(|e| panic!("fixture {name}: {e}"))
}

fn opts() -> ApplyOptions {
    ApplyOptions::default()
        .lock_timeout(Duration::from_secs(20))
        .read_timeout(Duration::from_secs(20))
}

async fn run(db: &TestDb, tables: &[Table], opts: &ApplyOptions) -> ApplyReport {
    let target = db::parse_url(&db.url()).expect("test URL parses");
    apply::apply(&target, &target.schema, tables, opts)
        .await
        .expect("apply runs (no database error)")
}

/// The physical shape from `SHOW CREATE TABLE`, for comparing a warm table
/// with a greenfield one:
/// - the table option `AUTO_INCREMENT=<next id>` is dropped: it is row state;
/// - column order and the primary key are kept as they are (apply places
///   added columns `AFTER` their catalog predecessor, so order must match);
/// - secondary index lines are sorted: an index added later is listed after
///   the existing ones, and no DDL can place an index among the others. The
///   order of index definitions has no effect on what the server does; each
///   definition must still match byte for byte.
fn shape(show_create: &str) -> String {
    let without_ai: Vec<&str> = show_create
        .split(' ')
        .filter(|w| !w.starts_with("AUTO_INCREMENT="))
        .collect();
    let text = without_ai.join(" ");
    let lines: Vec<&str> = text.lines().collect();
    let (head, rest) = lines.split_first().expect("CREATE TABLE line");
    let (tail, body) = rest.split_last().expect(") ENGINE= line");
    let mut kept = Vec::new();
    let mut keys = Vec::new();
    for line in body {
        let item = line.trim_end_matches(',');
        let t = item.trim_start();
        if t.starts_with("KEY ") || t.starts_with("UNIQUE KEY ") || t.starts_with("FULLTEXT KEY ") {
            keys.push(item);
        } else {
            kept.push(item);
        }
    }
    keys.sort_unstable();
    kept.extend(keys);
    format!("{head}\n{}\n{tail}", kept.join(",\n"))
}

async fn scalar(db: &TestDb, sql: &str) -> u64 {
    let mut conn = db.pool.get_conn().await.expect("connect");
    conn.query_first::<u64, _>(sql)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
        .expect("one row")
}

/// `n` (<= 10,000) rows in the legacy file-upload table, generated server-side.
async fn fill_file_upload(db: &TestDb, n: u32) {
    let digits = "(SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 \
                  UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)";
    db.exec(&[&format!(
        "INSERT INTO `{FILE_UPLOAD}` (IdempotencyKey, State, ObjectKey, ExpiresAt, CommittedAt, CreatedAt, UpdatedAt) \
         SELECT CONCAT('key-', n), ELT(1 + n % 3, 'pending', 'uploading', 'committed'), CONCAT('bucket/obj/', n), \
                TIMESTAMP('2024-01-01 00:00:00.250000') + INTERVAL n SECOND, \
                IF(n % 2 = 0, NULL, TIMESTAMP('2024-02-01') + INTERVAL n MINUTE), \
                TIMESTAMP('2023-12-01 00:00:00.123456') + INTERVAL n SECOND, \
                TIMESTAMP('2023-12-02 00:00:00.654321') + INTERVAL n SECOND \
         FROM (SELECT a.d + 10 * b.d + 100 * c.d + 1000 * e.d AS n \
               FROM {digits} a, {digits} b, {digits} c, {digits} e) s \
         WHERE n < {n}"
    )])
    .await;
}

fn step_list(report: &ApplyReport) -> Vec<(String, &'static str, String, StepStatus)> {
    report
        .steps
        .iter()
        .map(|s| (s.table.clone(), s.kind, s.object.clone(), s.status))
        .collect()
}

fn st(
    table: &str,
    kind: &'static str,
    object: &str,
    status: StepStatus,
) -> (String, &'static str, String, StepStatus) {
    (table.to_string(), kind, object.to_string(), status)
}

// ---------------------------------------------------------------------------
// A small test catalog: `Job` (a key column, a defaulted NOT NULL column, two
// nullable columns legacy tables lack, a unique and a composite index) and
// `Lease`.

const CATALOG_YAML: &str =
    "defaults:\n  engine: InnoDB\n  charset: utf8mb4\n  collation: utf8mb4_bin\n";

const JOB_COLUMNS: &str = "table: Job
columns:
  - name: Id
    type: bigint unsigned
    nullable: false
    auto_increment: true
  - name: DependencyKey
    type: varchar(64)
    nullable: false
  - name: State
    type: varchar(32)
    nullable: false
  - name: Attempts
    type: int
    nullable: false
    default: 0
  - name: RunAfter
    type: datetime(6)
  - name: Note
    type: varchar(255)
  - name: Owner
    type: varchar(64)
";

const JOB_KEYS: &str = "primary_key: [Id]
indexes:
  - name: uq_job_dependency
    columns: [DependencyKey]
    unique: true
  - name: idx_job_state
    columns: [State, RunAfter, Id]
";

const LEASE_YAML: &str = "table: Lease
columns:
  - name: Id
    type: bigint unsigned
    nullable: false
  - name: Holder
    type: varchar(64)
    nullable: false
  - name: ExpiresAt
    type: datetime(6)
primary_key: [Id]
indexes:
  - name: idx_lease_expires
    columns: [ExpiresAt]
";

/// Writes a catalog directory (unique per call) and loads it.
fn test_catalog(extra_job_columns: &str) -> Catalog {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let dir: PathBuf = std::env::temp_dir().join(format!(
        "schema-catalog-apply-live-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("catalog.yaml"), CATALOG_YAML).unwrap();
    std::fs::write(
        dir.join("job.yaml"),
        format!("{JOB_COLUMNS}{extra_job_columns}{JOB_KEYS}"),
    )
    .unwrap();
    std::fs::write(dir.join("lease.yaml"), LEASE_YAML).unwrap();
    let c = catalog::load(&dir).expect("test catalog loads");
    let _ = std::fs::remove_dir_all(&dir);
    c
}

/// A legacy `Job`: lacks `Note` and `Owner`; carries only `indexes`.
/// Every part can be replaced to build a drifted shape.
#[derive(Clone, Copy)]
struct JobShape {
    key: &'static str,
    state: &'static str,
    attempts: &'static str,
    pk: &'static str,
    indexes: &'static [&'static str],
}

const JOB_V1: JobShape = JobShape {
    key: "`DependencyKey` varchar(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL",
    state: "`State` varchar(32) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL",
    attempts: "`Attempts` int NOT NULL DEFAULT 0",
    pk: "PRIMARY KEY (`Id`)",
    indexes: &[],
};

fn legacy_job(s: JobShape) -> String {
    let mut items = vec![
        "`Id` bigint unsigned NOT NULL AUTO_INCREMENT".to_string(),
        s.key.to_string(),
        s.state.to_string(),
        s.attempts.to_string(),
        "`RunAfter` datetime(6) NULL".to_string(),
        s.pk.to_string(),
    ];
    items.extend(s.indexes.iter().map(|i| i.to_string()));
    format!(
        "CREATE TABLE `Job` ({}) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
        items.join(", ")
    )
}

const JOB_ROWS: &str = "INSERT INTO `Job` (DependencyKey, State, Attempts, RunAfter) VALUES \
     ('a', 'ready', 0, '2024-01-01 00:00:00'), ('b', 'running', 2, NULL), ('c', 'done', 1, '2024-01-02 10:00:00.5')";

async fn build_job(db: &TestDb, shape: JobShape) {
    db.exec(&[&legacy_job(shape), JOB_ROWS]).await;
}

// ---------------------------------------------------------------------------
// Greenfield and warm upgrade.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn greenfield_apply_converges_and_a_second_apply_issues_no_ddl() {
    let db = TestDb::new().await;
    let cat = shipped();
    let report = run(&db, &tables(&cat), &opts()).await;
    assert_eq!(report.outcome, Outcome::Converged, "{report:#?}");
    assert_eq!(report.steps.len(), cat.tables.len());
    assert!(report
        .steps
        .iter()
        .all(|s| s.kind == "create_table" && s.status == StepStatus::Applied));
    assert_eq!(report.server_ddl_count, Some(cat.tables.len() as u64));
    assert_eq!(report.lock, format!("schema-catalog:{}", db.name));

    let target = db::parse_url(&db.url()).unwrap();
    let mut session = db::connect(&target, Duration::from_secs(10)).await.unwrap();
    let verified = verify::verify(&mut session, &db.name, &cat, None)
        .await
        .unwrap();
    assert!(verified.ok, "{:#?}", verified.problems);

    let before = db.snapshot().await;
    assert_eq!(before.len(), cat.tables.len());
    let again = run(&db, &tables(&cat), &opts()).await;
    assert_eq!(again.outcome, Outcome::Converged, "{again:#?}");
    assert!(again.steps.is_empty(), "{:#?}", again.steps);
    assert_eq!(again.server_ddl_count, Some(0));
    assert_eq!(db.snapshot().await, before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn warm_upgrade_keeps_rows_and_reaches_the_greenfield_shape() {
    let cat = shipped();
    let only: Vec<Table> = tables(&cat)
        .into_iter()
        .filter(|t| t.name.as_str() == FILE_UPLOAD)
        .collect();

    let warm = TestDb::new().await;
    warm.exec(&[&fixture("file_upload_v1.sql")]).await;
    fill_file_upload(&warm, 2000).await;
    let rows_before = warm.checksum(FILE_UPLOAD, FILE_UPLOAD_OLD_COLUMNS).await;
    assert_eq!(rows_before.0, 2000);

    let report = run(&warm, &only, &opts()).await;
    assert_eq!(report.outcome, Outcome::Converged, "{report:#?}");
    assert_eq!(
        step_list(&report),
        vec![
            st(
                FILE_UPLOAD,
                "add_column",
                "ContentType",
                StepStatus::Applied
            ),
            st(FILE_UPLOAD, "add_column", "SizeBytes", StepStatus::Applied),
            st(FILE_UPLOAD, "add_column", "Sha256Hex", StepStatus::Applied),
            st(
                FILE_UPLOAD,
                "add_index",
                "idx_file_upload_expires",
                StepStatus::Applied
            ),
        ]
    );
    assert_eq!(report.server_ddl_count, Some(4));
    // MariaDB: columns are added instantly (metadata only), the index online.
    for s in &report.steps[..3] {
        assert!(s.sql.ends_with("ALGORITHM=INSTANT"), "{}", s.sql);
    }
    assert!(report.steps[3]
        .sql
        .ends_with("ALGORITHM=INPLACE, LOCK=NONE"));

    assert_eq!(
        warm.checksum(FILE_UPLOAD, FILE_UPLOAD_OLD_COLUMNS).await,
        rows_before,
        "retained rows must keep their bytes"
    );
    assert_eq!(
        scalar(
            &warm,
            &format!(
                "SELECT COUNT(*) FROM `{FILE_UPLOAD}` \
                 WHERE ContentType IS NOT NULL OR SizeBytes IS NOT NULL OR Sha256Hex IS NOT NULL"
            )
        )
        .await,
        0,
        "new columns read NULL in retained rows"
    );

    let green = TestDb::new().await;
    let g = run(&green, &only, &opts()).await;
    assert_eq!(g.outcome, Outcome::Converged);
    let warm_shape = shape(&warm.show_create(FILE_UPLOAD).await);
    let green_shape = shape(&green.show_create(FILE_UPLOAD).await);
    assert_eq!(
        warm_shape, green_shape,
        "warm and greenfield must have the same physical shape (column order included)"
    );
    // The column order itself, not only the sorted-index shape.
    let columns = |ddl: &str| -> Vec<String> {
        ddl.lines()
            .filter(|l| l.trim_start().starts_with('`'))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(
        columns(&warm.show_create(FILE_UPLOAD).await),
        columns(&green.show_create(FILE_UPLOAD).await)
    );

    let again = run(&warm, &only, &opts()).await;
    assert!(again.converged() && again.steps.is_empty());
    assert_eq!(again.server_ddl_count, Some(0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn partial_resume_adds_only_what_is_still_missing() {
    let cat = shipped();
    let only: Vec<Table> = tables(&cat)
        .into_iter()
        .filter(|t| t.name.as_str() == FILE_UPLOAD)
        .collect();
    let db = TestDb::new().await;
    db.exec(&[&fixture("file_upload_v1_partial.sql")]).await;
    fill_file_upload(&db, 1000).await;
    let rows_before = db.checksum(FILE_UPLOAD, FILE_UPLOAD_OLD_COLUMNS).await;

    let report = run(&db, &only, &opts()).await;
    assert_eq!(report.outcome, Outcome::Converged, "{report:#?}");
    assert_eq!(
        step_list(&report),
        vec![
            st(FILE_UPLOAD, "add_column", "SizeBytes", StepStatus::Applied),
            st(FILE_UPLOAD, "add_column", "Sha256Hex", StepStatus::Applied),
            st(
                FILE_UPLOAD,
                "add_index",
                "idx_file_upload_expires",
                StepStatus::Applied
            ),
        ]
    );
    assert_eq!(report.server_ddl_count, Some(3));
    assert_eq!(
        db.checksum(FILE_UPLOAD, FILE_UPLOAD_OLD_COLUMNS).await,
        rows_before
    );

    let green = TestDb::new().await;
    run(&green, &only, &opts()).await;
    assert_eq!(
        shape(&db.show_create(FILE_UPLOAD).await),
        shape(&green.show_create(FILE_UPLOAD).await)
    );
}

// ---------------------------------------------------------------------------
// Drift matrix: each drifted legacy shape also lacks `Note`, `Owner`, at least
// one index and the whole `Lease` table, so there is DDL to be tempted into.
// Each run must refuse, issue no DDL at all, and leave every table as it was.

async fn assert_refused(db: &TestDb, cat: &Catalog, expected: &[(&str, &str, ProblemKind)]) {
    let report = common::assert_apply_refused(db, &tables(cat), &[]).await;
    for (table, object, kind) in expected {
        common::assert_drift(&report, table, object, *kind);
    }
    assert!(report
        .drift
        .iter()
        .all(|p| p.kind.severity() == schema_catalog::diff::Severity::Drift));
}

async fn job_drift_case(shape: JobShape, expected: &[(&str, &str, ProblemKind)]) {
    let db = TestDb::new().await;
    build_job(&db, shape).await;
    assert_refused(&db, &test_catalog(""), expected).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drift_key_column_collation_is_refused() {
    job_drift_case(
        JobShape {
            key: "`DependencyKey` varchar(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NOT NULL",
            ..JOB_V1
        },
        &[("Job", "DependencyKey", ProblemKind::ColumnCollation)],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drift_column_type_is_refused() {
    job_drift_case(
        JobShape {
            attempts: "`Attempts` bigint NOT NULL DEFAULT 0",
            indexes: &["UNIQUE KEY `uq_job_dependency` (`DependencyKey`)"],
            ..JOB_V1
        },
        &[("Job", "Attempts", ProblemKind::ColumnType)],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drift_nullability_is_refused() {
    job_drift_case(
        JobShape {
            state: "`State` varchar(32) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL",
            ..JOB_V1
        },
        &[("Job", "State", ProblemKind::ColumnNullability)],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drift_primary_key_is_refused() {
    job_drift_case(
        JobShape {
            pk: "PRIMARY KEY (`Id`, `State`)",
            ..JOB_V1
        },
        &[("Job", "PRIMARY", ProblemKind::PrimaryKey)],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drift_index_with_other_column_order_is_refused() {
    job_drift_case(
        JobShape {
            indexes: &["KEY `idx_job_state` (`RunAfter`, `State`, `Id`)"],
            ..JOB_V1
        },
        &[("Job", "idx_job_state", ProblemKind::IndexOrder)],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drift_index_with_other_uniqueness_is_refused() {
    job_drift_case(
        JobShape {
            indexes: &["KEY `uq_job_dependency` (`DependencyKey`)"],
            ..JOB_V1
        },
        &[("Job", "uq_job_dependency", ProblemKind::IndexUniqueness)],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drift_index_with_a_prefix_is_refused() {
    job_drift_case(
        JobShape {
            indexes: &["UNIQUE KEY `uq_job_dependency` (`DependencyKey`(16))"],
            ..JOB_V1
        },
        &[("Job", "uq_job_dependency", ProblemKind::IndexPrefix)],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drift_index_with_an_extra_column_is_refused() {
    job_drift_case(
        JobShape {
            indexes: &["KEY `idx_job_state` (`State`, `RunAfter`, `Id`, `Attempts`)"],
            ..JOB_V1
        },
        &[("Job", "idx_job_state", ProblemKind::IndexColumns)],
    )
    .await;
}

/// `Lease` drifted while `Job` (sorted first) only needs additive work: no
/// table is touched, not even the one that could have been completed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drift_in_one_table_blocks_work_on_another() {
    let db = TestDb::new().await;
    build_job(&db, JOB_V1).await;
    db.exec(&["CREATE TABLE `Lease` (`Id` bigint unsigned NOT NULL, \
               `Holder` varchar(32) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL, \
               `ExpiresAt` datetime(6) NULL, PRIMARY KEY (`Id`)) \
               ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"])
        .await;
    assert_refused(
        &db,
        &test_catalog(""),
        &[("Lease", "Holder", ProblemKind::ColumnType)],
    )
    .await;
}

// ---------------------------------------------------------------------------
// NOT NULL columns on a table with rows.

const PRIORITY_NO_DEFAULT: &str = "  - name: Priority\n    type: int\n    nullable: false\n";
const PRIORITY_DEFAULT: &str =
    "  - name: Priority\n    type: int\n    nullable: false\n    default: 5\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missing_not_null_column_without_default_is_refused() {
    let db = TestDb::new().await;
    build_job(&db, JOB_V1).await;
    assert_refused(
        &db,
        &test_catalog(PRIORITY_NO_DEFAULT),
        &[("Job", "Priority", ProblemKind::MissingNotNullColumn)],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missing_not_null_column_with_default_is_added() {
    let db = TestDb::new().await;
    build_job(&db, JOB_V1).await;
    let report = run(&db, &tables(&test_catalog(PRIORITY_DEFAULT)), &opts()).await;
    assert_eq!(report.outcome, Outcome::Converged, "{report:#?}");
    assert!(report
        .steps
        .iter()
        .any(|s| s.object == "Priority" && s.status == StepStatus::Applied));
    assert_eq!(
        scalar(&db, "SELECT COUNT(*) FROM `Job` WHERE Priority = 5").await,
        3,
        "retained rows read the default"
    );
}

// ---------------------------------------------------------------------------
// Races: another actor creates the index between the pre-step re-read and the
// step's DDL (at `ProgressEvent::Started`, sent synchronously before the DDL).

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn race_with_another_shape_stops_and_does_not_adopt_it() {
    let db = TestDb::new().await;
    build_job(&db, JOB_V1).await;
    let o = opts().progress(race_at_start(
        db.url(),
        "idx_job_state",
        "CREATE INDEX `idx_job_state` ON `Job` (`State`)",
    ));
    let report = run(&db, &tables(&test_catalog("")), &o).await;
    match &report.outcome {
        Outcome::Stopped {
            message,
            ddl_issued,
        } => {
            assert!(*ddl_issued, "columns were added before the race");
            assert!(message.contains("idx_job_state"), "{message}");
        }
        other => panic!("expected Stopped, got {other:?}: {report:#?}"),
    }
    let last = report.steps.last().unwrap();
    assert_eq!(
        (last.object.as_str(), last.status),
        ("idx_job_state", StepStatus::Failed)
    );
    assert!(report
        .drift
        .iter()
        .any(|p| p.object == "idx_job_state" && p.kind == ProblemKind::IndexColumns));
    let ddl = db.show_create("Job").await;
    assert!(
        ddl.contains("KEY `idx_job_state` (`State`)"),
        "the racer's index is neither adopted nor rewritten: {ddl}"
    );
    assert_eq!(ddl.matches("idx_job_state").count(), 1, "{ddl}");

    // A rerun refuses in preflight, before any DDL.
    let again = run(&db, &tables(&test_catalog("")), &opts()).await;
    assert_eq!(again.outcome, Outcome::RefusedDrift);
    assert_eq!(again.server_ddl_count, Some(0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn race_with_the_exact_shape_is_accepted() {
    let db = TestDb::new().await;
    build_job(&db, JOB_V1).await;
    let o = opts().progress(race_at_start(
        db.url(),
        "idx_job_state",
        "CREATE INDEX `idx_job_state` ON `Job` (`State`, `RunAfter`, `Id`)",
    ));
    let report = run(&db, &tables(&test_catalog("")), &o).await;
    assert_eq!(report.outcome, Outcome::Converged, "{report:#?}");
    assert_eq!(
        step_list(&report),
        vec![
            st("Lease", "create_table", "Lease", StepStatus::Applied),
            st("Job", "add_column", "Note", StepStatus::Applied),
            st("Job", "add_column", "Owner", StepStatus::Applied),
            st("Job", "add_index", "uq_job_dependency", StepStatus::Applied),
            st(
                "Job",
                "add_index",
                "idx_job_state",
                StepStatus::AcceptedRace
            ),
        ]
    );
    // The failed ADD INDEX is still counted by the server as an attempted
    // ALTER: 4 applied + 1 raced.
    assert_eq!(report.server_ddl_count, Some(5));
    let again = run(&db, &tables(&test_catalog("")), &opts()).await;
    assert!(again.converged() && again.steps.is_empty());
}

// ---------------------------------------------------------------------------
// Dry run.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dry_run_issues_no_ddl() {
    let db = TestDb::new().await;
    build_job(&db, JOB_V1).await;
    let before = db.snapshot().await;
    let report = run(&db, &tables(&test_catalog("")), &opts().dry_run(true)).await;
    assert_eq!(report.outcome, Outcome::DryRun);
    assert_eq!(report.steps.len(), 5);
    assert!(report.steps.iter().all(|s| s.status == StepStatus::Planned));
    assert_eq!(report.server_ddl_count, Some(0));
    assert_eq!(db.snapshot().await, before);
}
