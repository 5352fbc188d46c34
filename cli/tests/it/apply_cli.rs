//! `catalog plan` and `catalog apply` through the binary, against the real
//! test server (MariaDB by default), each test in its own scratch schema.
//! Legacy tables are built with plain DDL.

use crate::cli_support;
use crate::common;

use std::path::PathBuf;
use std::process::Output;
use std::sync::atomic::{AtomicUsize, Ordering};

use cli_support::{json, run};
use common::TestDb;
use mysql_async::prelude::*;

/// `catalog --catalog CAT --database-url DB [--format json] COMMAND...`
/// (the binary as [`cli_support::run`] runs it).
async fn cli(cat: &TempCatalog, db: &TestDb, json: bool, command: &[&str]) -> Output {
    let mut list = vec![
        "--catalog".to_string(),
        cat.path(),
        "--database-url".to_string(),
        db.url(),
    ];
    if json {
        list.extend(["--format".to_string(), "json".to_string()]);
    }
    list.extend(command.iter().map(|c| c.to_string()));
    run(list).await
}

const CATALOG_YAML: &str =
    "defaults:\n  engine: InnoDB\n  charset: utf8mb4\n  collation: utf8mb4_bin\n";

const JOB_YAML: &str = "table: Job
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
  - name: RunAfter
    type: datetime(6)
  - name: Note
    type: varchar(255)
primary_key: [Id]
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
primary_key: [Id]
";

/// A small catalog (`Job`, `Lease`) in a fresh temp directory.
struct TempCatalog(PathBuf);

impl TempCatalog {
    fn new() -> TempCatalog {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "schema-catalog-apply-cli-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("catalog.yaml"), CATALOG_YAML).unwrap();
        std::fs::write(dir.join("job.yaml"), JOB_YAML).unwrap();
        std::fs::write(dir.join("lease.yaml"), LEASE_YAML).unwrap();
        TempCatalog(dir)
    }

    fn path(&self) -> String {
        self.0.to_string_lossy().to_string()
    }
}

impl Drop for TempCatalog {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A legacy `Job` lacking `Note` and both indexes, with `key` as its key column.
fn legacy_job(key: &str) -> String {
    format!(
        "CREATE TABLE `Job` (`Id` bigint unsigned NOT NULL AUTO_INCREMENT, {key}, \
         `State` varchar(32) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL, \
         `RunAfter` datetime(6) NULL, PRIMARY KEY (`Id`)) \
         ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
    )
}

const KEY_BIN: &str =
    "`DependencyKey` varchar(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL";
const KEY_CI: &str =
    "`DependencyKey` varchar(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NOT NULL";

const ROWS: &str =
    "INSERT INTO `Job` (DependencyKey, State, RunAfter) VALUES ('a', 'ready', NULL), ('A', 'done', '2024-01-01')";

/// Apply through the binary with `--format json` on a drifted schema: exit 1,
/// zero DDL by the server's count, every table byte-identical.
async fn assert_cli_refuses(db: &TestDb, cat: &TempCatalog, object: &str, kind: &str) {
    let before = db.snapshot().await;
    let out = cli(cat, db, true, &["apply"]).await;
    let doc = json(&out);
    assert_eq!(out.status.code(), Some(1), "{doc:#}");
    assert_eq!(doc["converged"], false);
    assert_eq!(doc["server_ddl_count"], 0, "{doc:#}");
    assert_eq!(doc["steps"].as_array().unwrap().len(), 0, "{doc:#}");
    let drift = doc["drift"].as_array().unwrap();
    assert!(
        drift
            .iter()
            .any(|p| p["object"] == object && p["kind"] == kind),
        "{doc:#}"
    );
    assert_eq!(db.snapshot().await, before);

    // Human output: exit 1 too, and it says why.
    let out = cli(cat, db, false, &["apply"]).await;
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(kind) && text.contains(object), "{text}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("refused"));
    assert_eq!(db.snapshot().await, before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn apply_refuses_key_collation_drift_with_exit_1_and_no_ddl() {
    let db = TestDb::new().await;
    db.exec(&[&legacy_job(KEY_CI), ROWS]).await;
    let cat = TempCatalog::new();
    assert_cli_refuses(&db, &cat, "DependencyKey", "column_collation").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn apply_refuses_drift_in_another_table_with_exit_1_and_no_ddl() {
    let db = TestDb::new().await;
    db.exec(&[
        &legacy_job(KEY_BIN),
        ROWS,
        "CREATE TABLE `Lease` (`Id` bigint unsigned NOT NULL, `Holder` varchar(64) CHARACTER SET utf8mb4 \
         COLLATE utf8mb4_bin NULL, PRIMARY KEY (`Id`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
    ])
    .await;
    let cat = TempCatalog::new();
    assert_cli_refuses(&db, &cat, "Holder", "column_nullability").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn apply_refuses_a_same_named_index_of_another_shape() {
    let db = TestDb::new().await;
    db.exec(&[
        &legacy_job(KEY_BIN),
        "ALTER TABLE `Job` ADD INDEX `idx_job_state` (`State`(8), `RunAfter`, `Id`)",
    ])
    .await;
    let cat = TempCatalog::new();
    assert_cli_refuses(&db, &cat, "idx_job_state", "index_prefix").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plan_issues_no_ddl_and_lists_the_ordered_steps() {
    let db = TestDb::new().await;
    db.exec(&[&legacy_job(KEY_BIN), ROWS]).await;
    let cat = TempCatalog::new();
    let before = db.snapshot().await;
    let out = cli(&cat, &db, true, &["plan"]).await;
    assert_eq!(out.status.code(), Some(0));
    let doc = json(&out);
    let steps: Vec<(String, String, String)> = doc["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["table"].as_str().unwrap().to_string(),
                s["kind"].as_str().unwrap().to_string(),
                s["sql"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let kinds: Vec<(&str, &str)> = steps
        .iter()
        .map(|(t, k, _)| (t.as_str(), k.as_str()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("Lease", "create_table"),
            ("Job", "add_column"),
            ("Job", "add_index"),
            ("Job", "add_index"),
        ]
    );
    assert!(steps[1]
        .2
        .starts_with("ALTER TABLE `Job` ADD COLUMN `Note`"));
    assert!(steps[3].2.ends_with("ALGORITHM=INPLACE, LOCK=NONE"));
    assert_eq!(doc["drift"].as_array().unwrap().len(), 0);
    assert_eq!(db.snapshot().await, before, "plan changed the schema");

    // Human text prints the SQL; still no change.
    let out = cli(&cat, &db, false, &["plan"]).await;
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("4 step(s)") && text.contains("CREATE TABLE `Lease`"),
        "{text}"
    );
    assert_eq!(db.snapshot().await, before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plan_on_drift_exits_1_and_lists_it() {
    let db = TestDb::new().await;
    db.exec(&[&legacy_job(KEY_CI)]).await;
    let cat = TempCatalog::new();
    let before = db.snapshot().await;
    let out = cli(&cat, &db, true, &["plan"]).await;
    assert_eq!(out.status.code(), Some(1));
    let doc = json(&out);
    assert_eq!(doc["refused"], true);
    assert!(doc["drift"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["kind"] == "column_collation" && p["object"] == "DependencyKey"));
    assert_eq!(db.snapshot().await, before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn apply_converges_then_reruns_as_a_no_op() {
    let db = TestDb::new().await;
    db.exec(&[&legacy_job(KEY_BIN), ROWS]).await;
    let cat = TempCatalog::new();
    let out = cli(&cat, &db, true, &["apply"]).await;
    let doc = json(&out);
    assert_eq!(out.status.code(), Some(0), "{doc:#}");
    assert_eq!(doc["converged"], true);
    let statuses: Vec<&str> = doc["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["applied"; 4]);
    assert_eq!(doc["server_ddl_count"], 4);
    for s in doc["steps"].as_array().unwrap() {
        assert!(s["ms"].is_u64() && s["sql"].is_string(), "{s}");
    }

    let snapshot = db.snapshot().await;
    let out = cli(&cat, &db, true, &["apply"]).await;
    let doc = json(&out);
    assert_eq!(out.status.code(), Some(0), "{doc:#}");
    assert_eq!(doc["steps"].as_array().unwrap().len(), 0);
    assert_eq!(doc["server_ddl_count"], 0);
    assert_eq!(db.snapshot().await, snapshot);

    let out = cli(&cat, &db, true, &["verify"]).await;
    assert_eq!(out.status.code(), Some(0), "{}", json(&out));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dry_run_exits_0_and_changes_nothing() {
    let db = TestDb::new().await;
    db.exec(&[&legacy_job(KEY_BIN)]).await;
    let cat = TempCatalog::new();
    let before = db.snapshot().await;
    let out = cli(&cat, &db, true, &["apply", "--dry-run"]).await;
    let doc = json(&out);
    assert_eq!(out.status.code(), Some(0), "{doc:#}");
    assert_eq!(doc["dry_run"], true);
    assert_eq!(doc["server_ddl_count"], 0);
    assert_eq!(doc["steps"].as_array().unwrap().len(), 4);
    assert_eq!(db.snapshot().await, before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn apply_exits_3_naming_the_lock_while_another_applier_holds_it() {
    let db = TestDb::new().await;
    db.exec(&[&legacy_job(KEY_BIN)]).await;
    let cat = TempCatalog::new();
    let lock = format!("schema-catalog:{}", db.name);
    let mut holder = db.pool.get_conn().await.unwrap();
    let got: Option<i64> = holder
        .exec_first("SELECT GET_LOCK(?, 0)", (lock.as_str(),))
        .await
        .unwrap()
        .flatten();
    assert_eq!(got, Some(1));
    let before = db.snapshot().await;

    let started = std::time::Instant::now();
    let out = cli(&cat, &db, false, &["apply", "--lock-timeout", "1"]).await;
    assert_eq!(out.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&lock),
        "message must name the lock: {stderr}"
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(15));

    let out = cli(&cat, &db, true, &["apply", "--lock-timeout", "1"]).await;
    assert_eq!(out.status.code(), Some(3));
    let doc = json(&out);
    assert!(doc["error"].as_str().unwrap().contains(&lock), "{doc:#}");
    assert_eq!(db.snapshot().await, before, "no DDL without the lock");

    // Released: the next run goes through.
    holder
        .exec_drop("SELECT RELEASE_LOCK(?)", (lock.as_str(),))
        .await
        .unwrap();
    drop(holder);
    let out = cli(&cat, &db, false, &["apply", "--lock-timeout", "1"]).await;
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
