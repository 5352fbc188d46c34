//! `catalog apply --replica` killed (SIGKILL) or interrupted (SIGINT) while
//! it waits for a replica to execute a step, through the binary on a real
//! pair (`CATALOG_TEST_REPLICA_PAIR`; one replica test at a time, the lock
//! of `replicas_cli`). The replica is delayed by 30 s (SOURCE_DELAY /
//! MASTER_DELAY) so apply is certainly waiting after its first step; the
//! delay and the applier are restored on drop, also when a test fails.

use crate::common;
use crate::replicas_cli::{text, Setup, SERIAL};

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use mysql_async::prelude::*;

/// Whether the pair is MariaDB.
async fn is_mariadb(url: &str) -> bool {
    let mut c = mysql_async::Conn::from_url(url).await.unwrap();
    let v: String = c.query_first("SELECT VERSION()").await.unwrap().unwrap();
    c.disconnect().await.ok();
    v.contains("MariaDB")
}

/// Waits (in the test, not under test) until the replica has everything
/// the primary has, at most 60 s.
async fn synced(primary: &str, replica: &str, mariadb: bool) {
    let (pos_sql, wait_sql) = if mariadb {
        (
            "SELECT @@GLOBAL.gtid_binlog_pos",
            "SELECT MASTER_GTID_WAIT(?, 60)",
        )
    } else {
        (
            "SELECT @@GLOBAL.gtid_executed",
            "SELECT WAIT_FOR_EXECUTED_GTID_SET(?, 60)",
        )
    };
    let mut p = mysql_async::Conn::from_url(primary).await.unwrap();
    let pos: String = p.query_first(pos_sql).await.unwrap().unwrap();
    p.disconnect().await.ok();
    let mut r = mysql_async::Conn::from_url(replica).await.unwrap();
    let rc: Option<i64> = r.exec_first(wait_sql, (pos,)).await.unwrap();
    r.disconnect().await.ok();
    assert_eq!(rc, Some(0), "the replica did not catch up in 60 s");
}

/// The replica's applier: delayed, stopped, and restored (no delay, both
/// threads running) on drop.
struct Applier {
    replica: String,
    mariadb: bool,
}

impl Applier {
    async fn run(&self, sqls: &[String]) {
        let mut c = mysql_async::Conn::from_url(self.replica.as_str())
            .await
            .unwrap();
        for sql in sqls {
            c.query_drop(sql).await.unwrap();
        }
        c.disconnect().await.ok();
    }

    fn delay_statements(&self, secs: u32) -> Vec<String> {
        if self.mariadb {
            vec![
                "STOP SLAVE".into(),
                format!("CHANGE MASTER TO MASTER_DELAY = {secs}"),
                "START SLAVE".into(),
            ]
        } else {
            vec![
                "STOP REPLICA".into(),
                format!("CHANGE REPLICATION SOURCE TO SOURCE_DELAY = {secs}"),
                "START REPLICA".into(),
            ]
        }
    }

    async fn delay(&self, secs: u32) {
        self.run(&self.delay_statements(secs)).await;
    }

    async fn stop_sql_thread(&self) {
        let sql = if self.mariadb {
            "STOP SLAVE SQL_THREAD"
        } else {
            "STOP REPLICA SQL_THREAD"
        };
        self.run(&[sql.to_string()]).await;
    }
}

impl Drop for Applier {
    fn drop(&mut self) {
        let sqls = self.delay_statements(0);
        let url = self.replica.clone();
        let restored = std::thread::spawn(move || {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap()
                .block_on(async move {
                    let mut c = mysql_async::Conn::from_url(url.as_str()).await.unwrap();
                    for sql in sqls {
                        c.query_drop(sql).await.unwrap();
                    }
                    c.disconnect().await.ok();
                })
        })
        .join();
        if restored.is_err() && !std::thread::panicking() {
            panic!("the replica's applier could not be restored");
        }
    }
}

/// `catalog apply --replica ... --format json`, started (stdout piped).
fn spawn_apply(s: &Setup) -> Child {
    Command::new(env!("CARGO_BIN_EXE_catalog"))
        .env_remove("DATABASE_URL")
        .env_remove("CATALOG_DIR")
        .args(["--catalog", s.catalog.path().to_str().unwrap()])
        .args(["--database-url", &format!("{}/{}", s.primary, s.name)])
        .args(["--format", "json", "apply", "--replica", &s.replica])
        .args(["--busy-timeout", "120", "--replica-timeout", "120"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start catalog apply")
}

/// How many indexes named `index` table `Jobs` of the schema has on `url`.
async fn has_index(url: &str, schema: &str, index: &str) -> bool {
    let mut c = mysql_async::Conn::from_url(url).await.unwrap();
    let n: Option<u64> = c
        .exec_first(
            "SELECT COUNT(*) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? \
             AND TABLE_NAME = 'Jobs' AND INDEX_NAME = ?",
            (schema, index),
        )
        .await
        .unwrap();
    c.disconnect().await.ok();
    n.unwrap_or(0) > 0
}

/// Waits (at most 60 s) until apply has run `index` on the primary and is
/// waiting on the replica for a GTID position (its wait statement shows in
/// the replica's processlist).
async fn waiting_after(s: &Setup, index: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut r = mysql_async::Conn::from_url(s.replica.as_str())
        .await
        .unwrap();
    loop {
        let waits: Option<u64> = r
            .query_first(
                "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE \
                 INFO LIKE 'SELECT MASTER_GTID_WAIT%' OR INFO LIKE 'SELECT WAIT_FOR_EXECUTED_GTID_SET%'",
            )
            .await
            .unwrap();
        if waits.unwrap_or(0) > 0 && has_index(&s.primary, &s.name, index).await {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "apply did not reach its wait for the replica after {index}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    r.disconnect().await.ok();
}

/// `CHECKSUM TABLE Jobs` of the schema on `url`.
async fn checksum(url: &str, schema: &str) -> u64 {
    let mut c = mysql_async::Conn::from_url(url).await.unwrap();
    let row: (String, Option<u64>) = c
        .query_first(format!("CHECKSUM TABLE `{schema}`.`Jobs`"))
        .await
        .unwrap()
        .unwrap();
    c.disconnect().await.ok();
    row.1.expect("a checksum")
}

fn parse(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("stdout is not one JSON document ({e}):\n{}", text(out)))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_while_waiting_for_a_replica_then_a_rerun_issues_no_ddl_and_converges() {
    let _serial = SERIAL.lock().await;
    let s = Setup::new("kill9").await;
    let mariadb = is_mariadb(&s.primary).await;
    synced(&s.primary, &s.replica, mariadb).await;
    let on_replica = format!("{}/{}", s.replica, s.name);
    let before = (
        checksum(&s.primary, &s.name).await,
        checksum(&s.replica, &s.name).await,
    );
    assert_eq!(before.0, before.1, "the pair starts in sync");
    let applier = Applier {
        replica: s.replica.clone(),
        mariadb,
    };
    applier.delay(30).await;
    let index = "idx_jobs_state_created";
    let mut child = spawn_apply(&s);
    waiting_after(&s, index).await;
    // Waiting for the replica: its SQL thread stops, then apply dies.
    applier.stop_sql_thread().await;
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), None, "killed by SIGKILL");
    assert!(has_index(&s.primary, &s.name, index).await);
    assert!(!has_index(&on_replica, &s.name, index).await);
    // The rerun starts with the applier stopped; it is restored once the
    // rerun holds the run's lock on the primary (so it had to wait).
    let rerun = spawn_apply(&s);
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut p = mysql_async::Conn::from_url(s.primary.as_str())
        .await
        .unwrap();
    let lock = schema_catalog::apply::lock_name(&s.name);
    loop {
        let held: Option<Option<u64>> = p
            .exec_first("SELECT IS_USED_LOCK(?)", (lock.as_str(),))
            .await
            .unwrap();
        if held.flatten().is_some() {
            break;
        }
        assert!(Instant::now() < deadline, "the rerun did not take its lock");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    p.disconnect().await.ok();
    let restarted = Instant::now();
    applier.delay(0).await;
    let out = tokio::task::spawn_blocking(move || rerun.wait_with_output().unwrap())
        .await
        .unwrap();
    let doc = parse(&out);
    assert_eq!(out.status.code(), Some(0), "{doc:#}");
    assert_eq!(doc["converged"], true, "{doc:#}");
    assert_eq!(doc["server_ddl_count"], 0, "no DDL on the rerun: {doc:#}");
    assert!(
        doc["steps"]
            .as_array()
            .unwrap()
            .iter()
            .all(|st| st["status"] == "already_present"),
        "{doc:#}"
    );
    assert_eq!(doc["replicas"][0]["replica"], s.replica_host_port());
    eprintln!(
        "rerun finished {:?} after the applier was restarted",
        restarted.elapsed()
    );
    assert!(has_index(&on_replica, &s.name, index).await);
    let out = s.cli(&s.replica, &["verify"]).await;
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    // Rows unchanged on both.
    synced(&s.primary, &s.replica, mariadb).await;
    let after = (
        checksum(&s.primary, &s.name).await,
        checksum(&s.replica, &s.name).await,
    );
    assert_eq!(after, before, "rows unchanged on primary and replica");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigint_while_waiting_for_a_replica_exits_130_with_no_ddl_after_it() {
    let _serial = SERIAL.lock().await;
    let s = Setup::new("sigint").await;
    std::fs::write(
        s.catalog.path().join("jobs.yaml"),
        common::TWO_INDEX_JOBS_CATALOG,
    )
    .unwrap();
    let mariadb = is_mariadb(&s.primary).await;
    synced(&s.primary, &s.replica, mariadb).await;
    let applier = Applier {
        replica: s.replica.clone(),
        mariadb,
    };
    applier.delay(30).await;
    let child = spawn_apply(&s);
    waiting_after(&s, "idx_jobs_state").await;
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let out = tokio::task::spawn_blocking(move || child.wait_with_output().unwrap())
        .await
        .unwrap();
    let doc = parse(&out);
    assert_eq!(out.status.code(), Some(130), "{doc:#}");
    assert_eq!(doc["stopped"]["kind"], "interrupted", "{doc:#}");
    assert_eq!(doc["stopped"]["ddl_cancelled"], false, "{doc:#}");
    // Step 1 ran; nothing after the signal: the session's DDL count is 1,
    // step 2's index is not on the primary and no ALTER of the schema runs.
    assert_eq!(doc["server_ddl_count"], 1, "{doc:#}");
    assert_eq!(doc["steps"].as_array().unwrap().len(), 1, "{doc:#}");
    assert!(has_index(&s.primary, &s.name, "idx_jobs_state").await);
    assert!(!has_index(&s.primary, &s.name, "idx_jobs_created").await);
    let mut p = mysql_async::Conn::from_url(s.primary.as_str())
        .await
        .unwrap();
    let running: Option<u64> = p
        .exec_first(
            "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE DB = ? AND INFO LIKE 'ALTER%'",
            (s.name.as_str(),),
        )
        .await
        .unwrap();
    p.disconnect().await.ok();
    assert_eq!(running, Some(0));
    drop(applier);
}
