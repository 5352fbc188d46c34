//! `catalog apply` under hostile conditions, on a real MariaDB with rows:
//!
//! - crash: the apply process is killed with SIGKILL during ADD COLUMN,
//!   during ADD INDEX and between steps; one rerun converges, rows are
//!   unchanged, no stray or duplicate index, a further run issues no DDL;
//! - concurrency: six appliers at once on one schema (and six that cannot
//!   get the lock: exit 3 naming it, nothing changed);
//! - online: a writer keeps inserting (each under a second) while ADD INDEX
//!   runs on a 1,000,000-row table, and the DDL carries `LOCK=NONE`.
//!
//! The tests run one at a time (they measure latency and time kills).
//! `cargo test -p schema-catalog-cli --test it apply_resilience:: -- --nocapture`
//! shows which phase each kill hit.

use crate::cli_support;
use crate::common;

use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::TestDb;
use mysql_async::prelude::*;
use serde_json::Value;

/// One test at a time, and no other heavy test on the server (any binary,
/// any suite beside this one): kills are timed and latencies measured.
fn serial() -> common::heavy::Heavy {
    common::heavy::heavy()
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

const NEW_COLUMNS: [&str; 3] = ["LeaseOwner", "LeaseUntil", "Attempts"];

/// The catalog: `Jobs` as the legacy table has it, plus three nullable
/// columns and two indexes the legacy table lacks (5 steps).
const JOBS_YAML: &str = "\
table: Jobs
columns:
  - name: Id
    type: bigint unsigned
    nullable: false
    auto_increment: true
  - name: State
    type: varchar(32)
    nullable: false
  - name: Payload
    type: varchar(255)
  - name: CreatedAt
    type: datetime(6)
    nullable: false
  - name: LeaseOwner
    type: varchar(64)
  - name: LeaseUntil
    type: datetime(6)
  - name: Attempts
    type: int
primary_key: [Id]
indexes:
  - name: idx_jobs_state_created
    columns: [State, CreatedAt]
  - name: idx_jobs_lease
    columns: [LeaseOwner, LeaseUntil]
";

/// The legacy physical table, built with plain DDL.
const LEGACY_DDL: &str = "CREATE TABLE Jobs (
  Id bigint unsigned NOT NULL AUTO_INCREMENT,
  State varchar(32) COLLATE utf8mb4_bin NOT NULL,
  Payload varchar(255) COLLATE utf8mb4_bin NULL,
  CreatedAt datetime(6) NOT NULL,
  PRIMARY KEY (Id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";

/// A temporary catalog directory, removed on drop.
struct CatalogDir(PathBuf);

impl CatalogDir {
    fn new() -> CatalogDir {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "sc_resilience_{}_{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("catalog.yaml"),
            "defaults:\n  engine: InnoDB\n  charset: utf8mb4\n  collation: utf8mb4_bin\n",
        )
        .unwrap();
        std::fs::write(dir.join("jobs.yaml"), JOBS_YAML).unwrap();
        CatalogDir(dir)
    }
}

impl Drop for CatalogDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn catalog(dir: &CatalogDir, db: &TestDb) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_catalog"));
    cmd.env_remove("DATABASE_URL")
        .env_remove("CATALOG_DIR")
        .args(["--catalog", dir.0.to_str().unwrap()])
        .args(["--database-url", &db.url(), "--format", "json"]);
    cmd
}

/// Starts `catalog --format json apply --lock-timeout N` (stdout/stderr piped).
fn spawn_apply(dir: &CatalogDir, db: &TestDb, lock_timeout: u64) -> Child {
    catalog(dir, db)
        .args(["apply", "--lock-timeout", &lock_timeout.to_string()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start catalog apply")
}

/// Exit code and the JSON document of a finished run.
fn parse(out: &Output) -> (i32, Value) {
    let doc = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not one JSON document ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().expect("exited, not killed"), doc)
}

fn apply(dir: &CatalogDir, db: &TestDb) -> (i32, Value) {
    parse(&spawn_apply(dir, db, 120).wait_with_output().unwrap())
}

fn statuses(doc: &Value) -> Vec<String> {
    cli_support::step_statuses(doc, "object")
}

/// Creates the legacy table and fills it to exactly `rows` rows with
/// doubling `INSERT ... SELECT`.
async fn build_legacy(db: &TestDb, rows: u64) {
    let mut conn = db.pool.get_conn().await.unwrap();
    conn.query_drop(LEGACY_DDL).await.unwrap();
    conn.query_drop("SET SESSION unique_checks = 0")
        .await
        .unwrap();
    conn.query_drop(
        "INSERT INTO Jobs (State, Payload, CreatedAt) VALUES ('queued', 'payload-0', '2024-01-01 00:00:00.000001')",
    )
    .await
    .unwrap();
    let mut have = 1u64;
    while have < rows {
        let add = have.min(rows - have);
        conn.query_drop(format!(
            "INSERT INTO Jobs (State, Payload, CreatedAt) \
             SELECT ELT(1 + Id % 4, 'queued', 'running', 'done', 'failed'), CONCAT('payload-', Id), \
                    CreatedAt + INTERVAL Id SECOND \
             FROM Jobs ORDER BY Id LIMIT {add}"
        ))
        .await
        .unwrap();
        have += add;
    }
}

/// Copies the legacy table of `seed` into `db` (same rows, same shape).
async fn copy_legacy(seed: &TestDb, db: &TestDb) {
    let mut conn = db.pool.get_conn().await.unwrap();
    conn.query_drop(format!("CREATE TABLE Jobs LIKE `{}`.Jobs", seed.name))
        .await
        .unwrap();
    conn.query_drop("SET SESSION unique_checks = 0")
        .await
        .unwrap();
    conn.query_drop(format!(
        "INSERT INTO Jobs SELECT * FROM `{}`.Jobs",
        seed.name
    ))
    .await
    .unwrap();
}

/// Row count and a digest of every legacy row's original columns.
async fn rows_checksum(db: &TestDb) -> (u64, String) {
    db.checksum("Jobs", &["Id", "State", "Payload", "CreatedAt"])
        .await
}

/// ALTER statements of this schema the server is running: (id, state, text).
/// On MySQL through performance_schema.processlist: its information_schema
/// PROCESSLIST fails (error 3854) while any session's statement holds a
/// 4-byte character, as other tests on a shared server may.
async fn running_alters(
    conn: &mut mysql_async::Conn,
    flavor: schema_catalog::Flavor,
    schema: &str,
) -> Vec<(u64, String, String)> {
    let table = match flavor {
        schema_catalog::Flavor::MySql => "performance_schema.processlist",
        _ => "information_schema.PROCESSLIST",
    };
    conn.exec(
        format!(
            "SELECT ID, COALESCE(STATE, ''), INFO FROM {table} \
             WHERE DB = ? AND INFO LIKE 'ALTER TABLE%'"
        ),
        (schema,),
    )
    .await
    .unwrap()
}

/// (catalog columns present of the three, catalog indexes present of the two).
async fn progress_of(conn: &mut mysql_async::Conn, schema: &str) -> (u64, u64) {
    let cols: Option<u64> = conn
        .exec_first(
            "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? \
             AND TABLE_NAME = 'Jobs' AND COLUMN_NAME IN ('LeaseOwner', 'LeaseUntil', 'Attempts')",
            (schema,),
        )
        .await
        .unwrap();
    let idx: Option<u64> = conn
        .exec_first(
            "SELECT COUNT(DISTINCT INDEX_NAME) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? \
             AND TABLE_NAME = 'Jobs' AND INDEX_NAME IN ('idx_jobs_state_created', 'idx_jobs_lease')",
            (schema,),
        )
        .await
        .unwrap();
    (cols.unwrap(), idx.unwrap())
}

/// `SHOW INDEX FROM Jobs` as (name, non_unique, [columns]) sorted by name;
/// panics on any prefix part.
async fn show_index(db: &TestDb) -> Vec<(String, i64, Vec<String>)> {
    let mut conn = db.pool.get_conn().await.unwrap();
    let rows: Vec<mysql_async::Row> = conn.query("SHOW INDEX FROM Jobs").await.unwrap();
    let mut out: Vec<(String, i64, Vec<String>)> = Vec::new();
    for row in rows {
        let name: String = row.get("Key_name").unwrap();
        let non_unique: i64 = row.get("Non_unique").unwrap();
        let seq: usize = row.get("Seq_in_index").unwrap();
        let column: String = row.get("Column_name").unwrap();
        let sub_part: Option<u64> = row.get("Sub_part").unwrap();
        assert_eq!(sub_part, None, "prefix on {name}.{column}");
        match out.iter_mut().find(|(n, _, _)| *n == name) {
            Some((_, _, cols)) => {
                assert_eq!(
                    cols.len() + 1,
                    seq,
                    "{name}: duplicate or out-of-order part"
                );
                cols.push(column);
            }
            None => out.push((name, non_unique, vec![column])),
        }
    }
    out.sort();
    out
}

fn expected_indexes() -> Vec<(String, i64, Vec<String>)> {
    let v = |name: &str, nu: i64, cols: &[&str]| {
        (
            name.to_string(),
            nu,
            cols.iter().map(|c| c.to_string()).collect(),
        )
    };
    vec![
        v("PRIMARY", 0, &["Id"]),
        v("idx_jobs_lease", 1, &["LeaseOwner", "LeaseUntil"]),
        v("idx_jobs_state_created", 1, &["State", "CreatedAt"]),
    ]
}

/// After a disturbed run: one apply converges, rows are unchanged, the new
/// columns are NULL, SHOW INDEX lists exactly the catalog's indexes, verify
/// passes, and a further apply issues zero DDL. Returns the converging
/// run's step statuses.
async fn assert_one_rerun_converges(
    dir: &CatalogDir,
    db: &TestDb,
    rows_before: &(u64, String),
) -> Vec<String> {
    let (code, doc) = apply(dir, db);
    assert_eq!(code, 0, "the rerun must converge: {doc}");
    assert_eq!(doc["converged"], true, "{doc}");
    let rerun_statuses = statuses(&doc);

    assert_eq!(
        &rows_checksum(db).await,
        rows_before,
        "rows already in the table were changed"
    );
    let mut conn = db.pool.get_conn().await.unwrap();
    let non_null: Option<u64> = conn
        .query_first(format!(
            "SELECT COUNT(*) FROM Jobs WHERE COALESCE({}) IS NOT NULL",
            NEW_COLUMNS.join(", ")
        ))
        .await
        .unwrap();
    assert_eq!(
        non_null,
        Some(0),
        "retained rows must read NULL in new columns"
    );
    drop(conn);
    assert_eq!(show_index(db).await, expected_indexes());

    let verify = catalog(dir, db).arg("verify").output().unwrap();
    assert_eq!(
        verify.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&verify.stdout)
    );

    let (code, again) = apply(dir, db);
    assert_eq!(code, 0, "{again}");
    assert_eq!(
        again["server_ddl_count"], 0,
        "a further apply must issue no DDL: {again}"
    );
    assert!(
        again["steps"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["status"] == "already_present"),
        "{again}"
    );
    rerun_statuses
}

#[derive(Debug, Clone, Copy)]
enum KillAt {
    /// While the server runs (waits in) an ALTER ... ADD COLUMN.
    AddColumn,
    /// While the server builds an index.
    AddIndex,
    /// The client frozen after a step, no DDL in flight, then killed.
    BetweenSteps,
}

/// Kills one apply at `when`; returns a description of what was hit.
async fn kill_apply_at(dir: &CatalogDir, db: &TestDb, when: KillAt) -> String {
    let mut watch = db.pool.get_conn().await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(90);
    match when {
        KillAt::AddColumn => {
            // A reader's running statement holds a metadata lock on Jobs:
            // the first ADD COLUMN waits in the server, observably. apply
            // does not send an ALTER while a holder is idle in a transaction
            // or has run for a second (`blocker_age`), so the holder is a
            // statement younger than that when apply looks (apply reaches
            // its look well within a second of starting).
            let mut reader = db.pool.get_conn().await.unwrap();
            let reader_id = reader.id();
            let reading = tokio::spawn(async move {
                let _ = reader
                    .query_drop("SELECT SLEEP(60) FROM Jobs ORDER BY Id LIMIT 1")
                    .await;
                reader
            });
            cli_support::running_statement(db, "SELECT SLEEP(60)", Duration::from_secs(10)).await;
            let mut child = spawn_apply(dir, db, 120);
            let hit = loop {
                let alters = running_alters(&mut watch, db.flavor, &db.name).await;
                if let Some((_, state, info)) = alters.iter().find(|a| a.2.contains("ADD COLUMN")) {
                    break format!("during ADD COLUMN (server: {state}: `{info}`)");
                }
                assert!(Instant::now() < deadline, "ADD COLUMN never started");
                assert!(child.try_wait().unwrap().is_none(), "apply ended early");
                tokio::time::sleep(Duration::from_millis(5)).await;
            };
            child.kill().unwrap();
            child.wait().unwrap();
            watch
                .query_drop(format!("KILL QUERY {reader_id}"))
                .await
                .unwrap();
            drop(reading.await.unwrap());
            hit
        }
        KillAt::AddIndex => {
            let mut child = spawn_apply(dir, db, 120);
            let seen = loop {
                let alters = running_alters(&mut watch, db.flavor, &db.name).await;
                if let Some((_, state, info)) = alters.iter().find(|a| a.2.contains("ADD INDEX")) {
                    break (state.clone(), info.clone());
                }
                assert!(Instant::now() < deadline, "ADD INDEX never started");
                assert!(child.try_wait().unwrap().is_none(), "apply ended early");
                tokio::time::sleep(Duration::from_millis(5)).await;
            };
            // Into the build, well before it ends (~1 s for 300k rows here).
            tokio::time::sleep(Duration::from_millis(150)).await;
            let still = running_alters(&mut watch, db.flavor, &db.name).await;
            child.kill().unwrap();
            child.wait().unwrap();
            format!(
                "during ADD INDEX (server: {}: `{}`; 150 ms later still running: {})",
                seen.0,
                seen.1,
                still.iter().any(|a| a.2 == seen.1)
            )
        }
        KillAt::BetweenSteps => {
            let mut child = spawn_apply(dir, db, 120);
            loop {
                if progress_of(&mut watch, &db.name).await.0 >= 1 {
                    break;
                }
                assert!(Instant::now() < deadline, "no column was ever added");
                assert!(child.try_wait().unwrap().is_none(), "apply ended early");
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
            // Freeze the client, let the server finish whatever statement
            // it had already received, then kill: no DDL in flight.
            let stopped = Command::new("kill")
                .args(["-STOP", &child.id().to_string()])
                .status()
                .unwrap();
            assert!(stopped.success());
            while !running_alters(&mut watch, db.flavor, &db.name)
                .await
                .is_empty()
            {
                assert!(Instant::now() < deadline, "DDL never finished");
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            let (cols, idx) = progress_of(&mut watch, &db.name).await;
            child.kill().unwrap();
            child.wait().unwrap();
            format!("between steps ({cols}/3 columns and {idx}/2 indexes done, no DDL in flight)")
        }
    }
}

#[test]
fn killed_apply_is_finished_by_one_rerun() {
    let _one = serial();
    runtime().block_on(async {
        let started = Instant::now();
        let seed = TestDb::new().await;
        build_legacy(&seed, 300_000).await;
        println!("seed: 300000 rows in {:?}", started.elapsed());
        let dir = CatalogDir::new();
        for when in [KillAt::AddColumn, KillAt::AddIndex, KillAt::BetweenSteps] {
            let db = TestDb::new().await;
            copy_legacy(&seed, &db).await;
            let rows_before = rows_checksum(&db).await;
            assert_eq!(rows_before.0, 300_000);
            let hit = kill_apply_at(&dir, &db, when).await;
            let mut conn = db.pool.get_conn().await.unwrap();
            let left = progress_of(&mut conn, &db.name).await;
            let in_flight = running_alters(&mut conn, db.flavor, &db.name).await;
            drop(conn);
            let rerun = assert_one_rerun_converges(&dir, &db, &rows_before).await;
            println!(
                "kill {when:?}: hit {hit}; right after the kill: {}/3 columns, {}/2 indexes, \
                 server still running {:?}; rerun steps: {rerun:?}",
                left.0,
                left.1,
                in_flight.iter().map(|a| &a.2).collect::<Vec<_>>()
            );
        }
        println!("crash test: {:?}", started.elapsed());
    });
}

#[test]
fn six_concurrent_appliers_converge_once() {
    let _one = serial();
    runtime().block_on(async {
        let dir = CatalogDir::new();

        let db = TestDb::new().await;
        build_legacy(&db, 100_000).await;
        let rows_before = rows_checksum(&db).await;
        let lock = format!("schema-catalog:{}", db.name);

        // Another applier holds the lock: six runs with a short lock
        // timeout all exit 3, name the lock, and change nothing.
        let shape_before = db.snapshot().await;
        let mut holder = db.pool.get_conn().await.unwrap();
        let got: Option<i64> = holder
            .exec_first("SELECT GET_LOCK(?, 0)", (lock.as_str(),))
            .await
            .unwrap();
        assert_eq!(got, Some(1));
        let children: Vec<Child> = (0..6).map(|_| spawn_apply(&dir, &db, 1)).collect();
        for child in children {
            let (code, doc) = parse(&child.wait_with_output().unwrap());
            assert_eq!(code, 3, "{doc}");
            let error = doc["error"].as_str().unwrap_or_default();
            assert!(error.contains(&lock), "exit 3 must name the lock: {doc}");
        }
        println!("lock held elsewhere, --lock-timeout 1: 6 x exit 3 naming `{lock}`");
        assert_eq!(
            db.snapshot().await,
            shape_before,
            "a run without the lock changed the schema"
        );
        let released: Option<i64> = holder
            .exec_first("SELECT RELEASE_LOCK(?)", (lock.as_str(),))
            .await
            .unwrap();
        assert_eq!(released, Some(1));
        drop(holder);

        // Six at once, each willing to wait: all exit 0, the DDL runs once.
        let children: Vec<Child> = (0..6).map(|_| spawn_apply(&dir, &db, 120)).collect();
        let runs: Vec<(i32, Value)> = children
            .into_iter()
            .map(|c| parse(&c.wait_with_output().unwrap()))
            .collect();
        let mut ddl = 0;
        let mut applied = 0;
        for (code, doc) in &runs {
            assert_eq!(*code, 0, "{doc}");
            assert_eq!(doc["converged"], true, "{doc}");
            assert_eq!(doc["lock"], lock);
            ddl += doc["server_ddl_count"].as_u64().unwrap();
            applied += statuses(doc)
                .iter()
                .filter(|s| s.ends_with(" applied"))
                .count();
            println!("lock-timeout 120: exit {code}: {:?}", statuses(doc));
        }
        assert_eq!(
            ddl, 5,
            "the lock serialises appliers: 5 DDL statements in all"
        );
        assert_eq!(applied, 5);
        assert_one_rerun_converges(&dir, &db, &rows_before).await;
    });
}

#[test]
fn writes_keep_flowing_while_add_index_runs_on_a_million_rows() {
    let _one = serial();
    runtime().block_on(async {
        let started = Instant::now();
        let db = TestDb::new().await;
        build_legacy(&db, 1_000_000).await;
        println!("1000000 rows in {:?}", started.elapsed());
        let dir = CatalogDir::new();

        let t0 = Instant::now();
        let stop = Arc::new(AtomicBool::new(false));
        // Writer: one autocommit INSERT after another, each timed.
        let writer = {
            let stop = stop.clone();
            let mut conn = db.pool.get_conn().await.unwrap();
            tokio::spawn(async move {
                let mut inserts: Vec<(Duration, Duration)> = Vec::new();
                while !stop.load(Ordering::SeqCst) {
                    let at = t0.elapsed();
                    conn.query_drop(
                        "INSERT INTO Jobs (State, Payload, CreatedAt) VALUES ('queued', 'writer', NOW(6))",
                    )
                    .await
                    .unwrap();
                    inserts.push((at, t0.elapsed() - at));
                }
                inserts
            })
        };
        // Watcher: when an ADD INDEX is visible in the processlist.
        let watcher = {
            let stop = stop.clone();
            let mut conn = db.pool.get_conn().await.unwrap();
            let (schema, flavor) = (db.name.clone(), db.flavor);
            tokio::spawn(async move {
                let mut seen: Vec<(Duration, Option<String>)> = Vec::new();
                while !stop.load(Ordering::SeqCst) {
                    let alters = running_alters(&mut conn, flavor, &schema).await;
                    let info = alters.into_iter().map(|a| a.2).find(|i| i.contains("ADD INDEX"));
                    seen.push((t0.elapsed(), info));
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
                seen
            })
        };
        tokio::time::sleep(Duration::from_millis(300)).await;
        let child = spawn_apply(&dir, &db, 120);
        let out = tokio::task::spawn_blocking(move || child.wait_with_output())
            .await
            .unwrap()
            .unwrap();
        tokio::time::sleep(Duration::from_millis(300)).await;
        stop.store(true, Ordering::SeqCst);
        let inserts = writer.await.unwrap();
        let seen = watcher.await.unwrap();

        let (code, doc) = parse(&out);
        assert_eq!(code, 0, "{doc}");
        for step in doc["steps"].as_array().unwrap() {
            let sql = step["sql"].as_str().unwrap();
            assert_eq!(step["status"], "applied", "{step}");
            match step["kind"].as_str().unwrap() {
                "add_index" => assert!(sql.contains("ALGORITHM=INPLACE, LOCK=NONE"), "{sql}"),
                "add_column" => assert!(sql.contains("ALGORITHM=INSTANT"), "{sql}"),
                other => panic!("unexpected step {other}"),
            }
        }
        let server_sql: Vec<&String> = seen.iter().filter_map(|s| s.1.as_ref()).collect();
        assert!(!server_sql.is_empty(), "ADD INDEX never seen in PROCESSLIST");
        assert!(server_sql.iter().all(|s| s.contains("LOCK=NONE")), "{server_sql:?}");

        // Windows in which an ADD INDEX was continuously visible.
        let mut windows: Vec<(Duration, Duration)> = Vec::new();
        let mut open: Option<Duration> = None;
        let mut last = Duration::ZERO;
        for (at, info) in &seen {
            match (info.is_some(), open) {
                (true, None) => open = Some(*at),
                (false, Some(start)) => {
                    windows.push((start, last));
                    open = None;
                }
                _ => {}
            }
            last = *at;
        }
        if let Some(start) = open {
            windows.push((start, last));
        }
        let during = inserts
            .iter()
            .filter(|(at, lat)| windows.iter().any(|(s, e)| *at >= *s && *at + *lat <= *e))
            .count();
        let worst = inserts.iter().map(|i| i.1).max().unwrap();
        let mut lat: Vec<Duration> = inserts.iter().map(|i| i.1).collect();
        lat.sort();
        let alter_time: Duration = windows.iter().map(|(s, e)| *e - *s).sum();
        println!(
            "apply {:?}; ADD INDEX visible {alter_time:?} in {} window(s); {} inserts, {during} \
             completed inside those windows; latency p50 {:?} p99 {:?} max {worst:?}",
            doc["steps"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| format!("{} {} ms", s["object"], s["ms"]))
                .collect::<Vec<_>>(),
            windows.len(),
            inserts.len(),
            lat[lat.len() / 2],
            lat[lat.len() * 99 / 100],
        );
        assert!(during > 0, "no insert completed while ADD INDEX ran");
        assert!(worst < Duration::from_secs(1), "worst insert latency {worst:?}");

        // Nothing lost: the legacy rows plus every insert.
        let (count, _) = rows_checksum(&db).await;
        assert_eq!(count, 1_000_000 + inserts.len() as u64);
        assert_eq!(show_index(&db).await, expected_indexes());
    });
}
