//! `catalog apply` on a busy server, on a real MariaDB or MySQL:
//!
//! - the probe: a session holds `BEGIN; SELECT COUNT(*) FROM Jobs` for 12 s
//!   while apply must add an index; an application read issued 1.5 s after
//!   apply started is answered within 2.5 s, apply streams a line naming the
//!   blocker while it waits, and converges once the transaction ends;
//! - deferred: past `--busy-timeout` apply exits 4 with `stopped.kind` busy
//!   and the blocker, the earlier step stays applied, the rerun resumes;
//! - interrupts: SIGINT and SIGTERM during an ADD INDEX on 1,048,576 rows
//!   cancel it on the server (exit 130 / 143), release the advisory lock,
//!   and the rerun converges with the rows unchanged;
//! - a lost connection: the DDL's connection is killed from the server
//!   side mid-build; apply exits 3 saying the DDL may or may not have run;
//!   the rerun converges with the rows unchanged.
//! - an interrupted widening: SIGINT while the `MODIFY COLUMN` of a
//!   widening step is on the server, waiting for its metadata lock behind
//!   a holder the blocker check cannot see; the server cancels it, no
//!   ALTER is left running, the column, table id and rows are unchanged,
//!   and the rerun converges.
//!
//! The tests run one at a time (they time a probe and kill statements).

use crate::cli_support;
use crate::common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{catalog_dir, TestDb};
use mysql_async::prelude::*;
use serde_json::Value;

const JOBS: &str = common::UNINDEXED_JOBS_CATALOG;

/// A new table: its CREATE TABLE is step 1, before the index on `Jobs`.
const AUDIT: &str = "table: Audit
columns:
  - { name: Id, type: bigint unsigned, nullable: false }
primary_key: [Id]
";

const ROWS: [&str; 3] = ["Id", "State", "CreatedAt"];
const INDEX_DDL: &str = "KEY `idx_jobs_state_created` (`State`,`CreatedAt`,`Id`)";

/// `catalog [--format json] apply ARGS` with stdout and stderr piped.
fn spawn_apply(dir: &Path, db: &TestDb, json: bool, args: &[&str]) -> Child {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_catalog"));
    cmd.env_remove("DATABASE_URL")
        .env_remove("CATALOG_DIR")
        .args(["--catalog", dir.to_str().unwrap()])
        .args(["--database-url", &db.url()]);
    if json {
        cmd.args(["--format", "json"]);
    }
    cmd.arg("apply")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start catalog apply")
}

/// Collects a child's stdout lines as they come, with the time each came.
#[derive(Clone)]
struct Lines(Arc<Mutex<Vec<(Duration, String)>>>);

impl Lines {
    fn follow(child: &mut Child) -> Lines {
        let lines = Lines(Arc::new(Mutex::new(Vec::new())));
        let sink = lines.clone();
        let out = child.stdout.take().unwrap();
        let start = Instant::now();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                sink.0.lock().unwrap().push((start.elapsed(), line));
            }
        });
        lines
    }

    fn text(&self) -> String {
        let lines = self.0.lock().unwrap();
        lines.iter().map(|(_, l)| format!("{l}\n")).collect()
    }

    /// Waits (at most `within`) for a line containing every part.
    async fn wait_for(&self, parts: &[&str], within: Duration) -> String {
        let deadline = Instant::now() + within;
        loop {
            if let Some((_, l)) = self
                .0
                .lock()
                .unwrap()
                .iter()
                .find(|(_, l)| parts.iter().all(|p| l.contains(p)))
            {
                return l.clone();
            }
            assert!(
                Instant::now() < deadline,
                "no line with {parts:?} within {within:?}:\n{}",
                self.text()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// Waits (at most `within`) for the child to exit; its code and stderr.
async fn finish(mut child: Child, within: Duration) -> (i32, String) {
    let deadline = Instant::now() + within;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
            return (status.code().expect("exited, not killed"), err);
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            panic!("apply did not finish within {within:?}");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A finished JSON run: exit code and its one document.
async fn finish_json(mut child: Child, within: Duration) -> (i32, Value) {
    let mut out = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        std::io::Read::read_to_end(&mut out, &mut s).unwrap();
        s
    });
    let (code, err) = finish(child, within).await;
    let stdout = reader.join().unwrap();
    let doc = serde_json::from_slice(&stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not one JSON document ({e}): {}\nstderr: {err}",
            String::from_utf8_lossy(&stdout)
        )
    });
    (code, doc)
}

async fn has_index(db: &TestDb) -> bool {
    db.show_create("Jobs").await.contains(INDEX_DDL)
}

/// A session that holds the table: `BEGIN; SELECT COUNT(*) FROM Jobs`.
async fn hold(db: &TestDb) -> (mysql_async::Conn, u64) {
    let mut conn = db.pool.get_conn().await.unwrap();
    conn.query_drop("BEGIN").await.unwrap();
    let _: Option<u64> = conn.query_first("SELECT COUNT(*) FROM Jobs").await.unwrap();
    let id = u64::from(conn.id());
    (conn, id)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn probe_app_read_is_answered_while_a_long_transaction_holds_the_table() {
    let _serial = common::heavy::heavy_async().await;
    let dir = catalog_dir(&[("jobs.yaml", JOBS)]);
    let db = TestDb::new().await;
    common::unindexed_jobs(&db).await;
    let rows = db.checksum("Jobs", &ROWS).await;

    let (mut holder, holder_id) = hold(&db).await;
    let held_at = Instant::now();
    let mut child = spawn_apply(dir.path(), &db, false, &[]);
    let started = Instant::now();
    let lines = Lines::follow(&mut child);

    // The application's plain read, 1.5 s after apply started.
    let mut app = db.pool.get_conn().await.unwrap();
    tokio::time::sleep_until((started + Duration::from_millis(1500)).into()).await;
    let asked = Instant::now();
    let count: Option<u64> = app.query_first("SELECT COUNT(*) FROM Jobs").await.unwrap();
    let answered = asked.elapsed();
    assert_eq!(count, Some(262_144));
    assert!(
        answered <= Duration::from_millis(2500),
        "the application read waited {answered:?}:\n{}",
        lines.text()
    );

    // apply says who blocks while it waits, before the transaction ends.
    let waiting = lines
        .wait_for(
            &["waiting", &format!("connection {holder_id} ")],
            Duration::from_secs(11),
        )
        .await;
    assert!(held_at.elapsed() < Duration::from_secs(12), "{waiting}");
    assert!(
        !has_index(&db).await,
        "the ALTER ran under the open transaction"
    );

    tokio::time::sleep_until((held_at + Duration::from_secs(12)).into()).await;
    holder.query_drop("COMMIT").await.unwrap();
    let (code, err) = finish(child, Duration::from_secs(120)).await;
    let out = lines.text();
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("step 1/1 add_index `Jobs`.`idx_jobs_state_created`: started"),
        "{out}"
    );
    assert!(
        out.contains("step 1/1 add_index `Jobs`.`idx_jobs_state_created`: applied"),
        "{out}"
    );
    assert!(out.contains("converged"), "{out}");
    assert!(has_index(&db).await);
    assert_eq!(db.checksum("Jobs", &ROWS).await, rows);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_busy_timeout_apply_defers_with_exit_4_and_the_rerun_resumes() {
    let _serial = common::heavy::heavy_async().await;
    let dir = catalog_dir(&[("jobs.yaml", JOBS), ("audit.yaml", AUDIT)]);
    let db = TestDb::new().await;
    common::unindexed_jobs(&db).await;
    let rows = db.checksum("Jobs", &ROWS).await;

    let (mut holder, holder_id) = hold(&db).await;
    let child = spawn_apply(dir.path(), &db, true, &["--busy-timeout", "3"]);
    let (code, doc) = finish_json(child, Duration::from_secs(60)).await;
    assert_eq!(code, 4, "{doc:#}");
    assert_eq!(doc["converged"], false);
    let stopped = &doc["stopped"];
    assert_eq!(stopped["kind"], "busy", "{doc:#}");
    assert_eq!(stopped["table"], "Jobs");
    assert!(stopped["waited_ms"].as_u64().unwrap() >= 3000, "{doc:#}");
    let blocker = stopped["blockers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["connection_id"] == holder_id)
        .unwrap_or_else(|| panic!("the holder {holder_id} is named: {doc:#}"));
    assert!(blocker["seconds"].as_u64().unwrap() >= 1, "{blocker}");
    assert!(
        blocker["user"].as_str().is_some_and(|u| !u.is_empty()),
        "{blocker}"
    );
    let statuses = cli_support::step_statuses(&doc, "kind");
    assert_eq!(
        statuses,
        ["create_table applied", "add_index deferred"],
        "{doc:#}"
    );
    let deferred = &doc["steps"][1];
    assert!(
        deferred["waited_ms"].as_u64().unwrap() >= 3000,
        "{deferred}"
    );
    assert!(
        deferred["blocked_by"]
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b["connection_id"] == holder_id),
        "{deferred}"
    );
    assert!(!has_index(&db).await);
    assert!(db
        .show_create("Audit")
        .await
        .contains("CREATE TABLE `Audit`"));

    holder.query_drop("COMMIT").await.unwrap();
    let (code, doc) = finish_json(
        spawn_apply(dir.path(), &db, true, &[]),
        Duration::from_secs(60),
    )
    .await;
    assert_eq!(code, 0, "{doc:#}");
    assert_eq!(doc["steps"].as_array().unwrap().len(), 1, "{doc:#}");
    assert_eq!(doc["steps"][0]["status"], "applied");
    assert!(has_index(&db).await);
    assert_eq!(db.checksum("Jobs", &ROWS).await, rows);
}

/// Whether the advisory lock of the schema is free (taken and released at once).
async fn lock_is_free(db: &TestDb) -> bool {
    let mut conn = db.pool.get_conn().await.unwrap();
    let name = schema_catalog::apply::lock_name(&db.name);
    let got: Option<Option<i64>> = conn
        .exec_first("SELECT GET_LOCK(?, 0)", (name.as_str(),))
        .await
        .unwrap();
    conn.exec_drop("SELECT RELEASE_LOCK(?)", (name.as_str(),))
        .await
        .unwrap();
    got.flatten() == Some(1)
}

/// A `Jobs` table of 1,048,576 rows, so that ADD INDEX runs long enough to
/// be interrupted.
async fn big_jobs() -> (TestDb, (u64, String)) {
    let db = TestDb::new().await;
    common::unindexed_jobs(&db).await;
    common::double_jobs(&db, 2).await;
    let rows = db.checksum("Jobs", &ROWS).await;
    assert_eq!(rows.0, 1_048_576);
    (db, rows)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigint_and_sigterm_cancel_the_running_ddl_and_the_rerun_converges() {
    let _serial = common::heavy::heavy_async().await;
    let dir = catalog_dir(&[("jobs.yaml", JOBS)]);
    let (db, rows) = big_jobs().await;

    for (signal, code) in [("-INT", 130), ("-TERM", 143)] {
        let mut child = spawn_apply(dir.path(), &db, false, &[]);
        let lines = Lines::follow(&mut child);
        cli_support::running_statement(&db, "ALTER TABLE", Duration::from_secs(30)).await;
        let sent = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let (got, err) = finish(child, Duration::from_secs(60)).await;
        assert_eq!(got, code, "{signal}: {}{err}", lines.text());
        assert!(
            err.contains("interrupted during `ALTER TABLE `Jobs` ADD INDEX")
                && err.contains("the server cancelled it"),
            "{signal}: {err}"
        );
        assert!(lines.text().contains("1. interrupted"), "{}", lines.text());
        assert!(!has_index(&db).await, "{signal}: the build was cancelled");
        assert!(
            lock_is_free(&db).await,
            "{signal}: the advisory lock was released"
        );
    }

    let (code, doc) = finish_json(
        spawn_apply(dir.path(), &db, true, &[]),
        Duration::from_secs(120),
    )
    .await;
    assert_eq!(code, 0, "{doc:#}");
    assert_eq!(doc["steps"][0]["status"], "applied");
    assert!(has_index(&db).await);
    assert_eq!(db.checksum("Jobs", &ROWS).await, rows);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_lost_mid_ddl_exits_3_and_the_rerun_converges() {
    let _serial = common::heavy::heavy_async().await;
    let dir = catalog_dir(&[("jobs.yaml", JOBS)]);
    let (db, rows) = big_jobs().await;

    let child = spawn_apply(dir.path(), &db, true, &[]);
    let ddl = cli_support::running_statement(&db, "ALTER TABLE", Duration::from_secs(30)).await;
    db.exec(&[&format!("KILL {ddl}")]).await;
    let (code, doc) = finish_json(child, Duration::from_secs(60)).await;
    assert_eq!(code, 3, "{doc:#}");
    assert_eq!(doc["stopped"]["kind"], "failed", "{doc:#}");
    let message = doc["stopped"]["message"].as_str().unwrap();
    assert!(
        message.contains("may or may not have run") && message.contains("rerun apply"),
        "{message}"
    );

    let (code, doc) = finish_json(
        spawn_apply(dir.path(), &db, true, &[]),
        Duration::from_secs(120),
    )
    .await;
    assert_eq!(code, 0, "{doc:#}");
    assert!(has_index(&db).await);
    assert_eq!(db.checksum("Jobs", &ROWS).await, rows);
    let again = finish_json(
        spawn_apply(dir.path(), &db, true, &[]),
        Duration::from_secs(60),
    )
    .await;
    assert_eq!(again.1["server_ddl_count"], 0, "{:#}", again.1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_while_waiting_for_the_advisory_lock_ends_the_wait() {
    let _serial = common::heavy::heavy_async().await;
    let dir = catalog_dir(&[("jobs.yaml", JOBS)]);
    let db = TestDb::new().await;
    common::unindexed_jobs(&db).await;
    let before = db.snapshot().await;
    let mut other = db.pool.get_conn().await.unwrap();
    let name = schema_catalog::apply::lock_name(&db.name);
    let got: Option<i64> = other
        .exec_first("SELECT GET_LOCK(?, 0)", (name.as_str(),))
        .await
        .unwrap();
    assert_eq!(got, Some(1));

    let child = spawn_apply(dir.path(), &db, false, &["--lock-timeout", "120"]);
    cli_support::running_statement(&db, "SELECT GET_LOCK", Duration::from_secs(30)).await;
    let asked = Instant::now();
    let sent = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let (code, err) = finish(child, Duration::from_secs(30)).await;
    assert_eq!(code, 143, "{err}");
    assert!(
        asked.elapsed() < Duration::from_secs(10),
        "{:?}",
        asked.elapsed()
    );
    assert!(err.contains("waiting for the advisory lock"), "{err}");
    assert_eq!(db.snapshot().await, before);
}

/// The widened table: `V` narrower than the catalog's, 1,000 rows, and an
/// unmanaged `Child` whose foreign key references it.
const WIDE: &str = "CREATE TABLE `Wide` (`Id` bigint unsigned NOT NULL, \
    `V` varchar(16) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL, \
    PRIMARY KEY (`Id`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";
const CHILD: &str = "CREATE TABLE `Child` (`Id` bigint unsigned NOT NULL, \
    `WideId` bigint unsigned NOT NULL, PRIMARY KEY (`Id`), KEY (`WideId`), \
    CONSTRAINT `fk_child_wide` FOREIGN KEY (`WideId`) REFERENCES `Wide` (`Id`)) ENGINE=InnoDB";
const WIDE_CATALOG: &str = "table: Wide
columns:
  - { name: Id, type: bigint unsigned, nullable: false }
  - { name: V, type: varchar(63), widen: true }
primary_key: [Id]
";

/// `Wide.V`'s COLUMN_TYPE.
async fn v_type(db: &TestDb) -> String {
    let mut conn = db.pool.get_conn().await.unwrap();
    conn.exec_first(
        "SELECT COLUMN_TYPE FROM information_schema.COLUMNS \
         WHERE TABLE_SCHEMA = ? AND TABLE_NAME = 'Wide' AND COLUMN_NAME = 'V'",
        (db.name.as_str(),),
    )
    .await
    .unwrap()
    .expect("Wide.V exists")
}

/// A widening step interrupted while its ALTER is on the server. A
/// widening touches no row, so the ALTER itself is over in milliseconds;
/// what keeps it on the server is its metadata-lock wait (`--lock-wait
/// 120`) behind a transaction that apply's blocker check does not see
/// (docs/apply.md "Busy servers"):
/// - MySQL: a transaction that read `Child`, whose foreign key references
///   `Wide`: an ALTER of a parent waits for its children's metadata locks
///   (verified on 9.7), and the check reads the altered table's only;
/// - MariaDB (no METADATA_LOCK_INFO plugin): a transaction that read
///   `Wide` by its qualified name from another schema.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigint_during_a_widening_step_cancels_it_and_the_rerun_converges() {
    let _serial = common::heavy::heavy_async().await;
    let dir = catalog_dir(&[("wide.yaml", WIDE_CATALOG)]);
    let db = TestDb::new().await;
    db.exec(&[
        WIDE,
        "INSERT INTO `Wide` WITH RECURSIVE s (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 1000) \
         SELECT n, CONCAT('v', n) FROM s",
        CHILD,
        "INSERT INTO `Child` VALUES (1, 1), (2, 500)",
    ])
    .await;
    let cols = ["Id", "V"];
    let rows = db.checksum("Wide", &cols).await;
    assert_eq!(rows.0, 1000);
    let id = db.innodb_table_id("Wide").await;

    let elsewhere = TestDb::new().await;
    let mut holder = if db.is_mariadb() {
        elsewhere.pool.get_conn().await.unwrap()
    } else {
        db.pool.get_conn().await.unwrap()
    };
    holder.query_drop("BEGIN").await.unwrap();
    let read = if db.is_mariadb() {
        format!("SELECT COUNT(*) FROM `{}`.`Wide`", db.name)
    } else {
        "SELECT COUNT(*) FROM `Child`".to_string()
    };
    let _: Option<u64> = holder.query_first(read).await.unwrap();

    let mut child = spawn_apply(dir.path(), &db, false, &["--lock-wait", "120"]);
    let lines = Lines::follow(&mut child);
    let ddl = cli_support::running_statement(&db, "ALTER TABLE", Duration::from_secs(60)).await;
    // It is the widening, waiting for its metadata lock.
    let mut conn = db.pool.get_conn().await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let state: Option<(Option<String>, Option<String>)> = conn
            .exec_first(
                "SELECT INFO, STATE FROM information_schema.PROCESSLIST WHERE ID = ?",
                (ddl,),
            )
            .await
            .unwrap();
        let (info, state) = state.expect("the ALTER's connection is there");
        let info = info.unwrap_or_default();
        assert!(info.contains("MODIFY COLUMN `V`"), "{info}");
        if state.is_some_and(|s| s.contains("metadata lock")) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the ALTER never waited for its lock"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let (code, err) = finish(child, Duration::from_secs(60)).await;
    assert_eq!(code, 130, "{}{err}", lines.text());
    assert!(
        err.contains("interrupted during `ALTER TABLE `Wide` MODIFY COLUMN")
            && err.contains("the server cancelled it"),
        "{err}"
    );
    assert!(lines.text().contains("1. interrupted"), "{}", lines.text());
    // Apply awaited the cancelled ALTER: none is left on the server.
    let running: Option<u64> = conn
        .exec_first(
            "SELECT ID FROM information_schema.PROCESSLIST \
             WHERE DB = ? AND INFO LIKE 'ALTER TABLE%' AND ID <> CONNECTION_ID()",
            (db.name.as_str(),),
        )
        .await
        .unwrap();
    assert_eq!(running, None, "an ALTER is still running");
    // Never half: the column is as before (the ALTER never had its lock),
    // the table not rebuilt, the rows the same, the advisory lock free.
    assert_eq!(v_type(&db).await, "varchar(16)");
    assert_eq!(db.innodb_table_id("Wide").await, id);
    assert_eq!(db.checksum("Wide", &cols).await, rows);
    assert!(lock_is_free(&db).await);

    holder.query_drop("COMMIT").await.unwrap();
    drop(holder);
    let (code, doc) = finish_json(
        spawn_apply(dir.path(), &db, true, &[]),
        Duration::from_secs(120),
    )
    .await;
    assert_eq!(code, 0, "{doc:#}");
    assert_eq!(
        cli_support::step_statuses(&doc, "kind"),
        ["widen_column applied"],
        "{doc:#}"
    );
    assert_eq!(v_type(&db).await, "varchar(63)");
    assert_eq!(db.innodb_table_id("Wide").await, id);
    assert_eq!(db.checksum("Wide", &cols).await, rows);
    let again = finish_json(
        spawn_apply(dir.path(), &db, true, &[]),
        Duration::from_secs(60),
    )
    .await;
    assert_eq!(again.1["server_ddl_count"], 0, "{:#}", again.1);
}
