//! Load test: steady application traffic (writers and readers on the
//! table) while `catalog apply` adds two columns and an index to a
//! 1,048,576-row table, once without and once with a long-open transaction
//! on that table. Records the application's statement latencies during the
//! apply (p50 / p99 / max) and its errors, and requires no application
//! error and no application statement slower than `--lock-wait` + 0.5 s.
//!
//! `benches/load_bench.sh` runs this test in release mode and prints the
//! figures (docs/apply.md has them). The two passes run one at a time.

use crate::common;

use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::TestDb;
use mysql_async::prelude::*;

const WRITERS: usize = 4;
const READERS: usize = 4;
const LOCK_WAIT: Duration = Duration::from_secs(2);
/// How long the long transaction stays open after apply starts.
const LONG_TRANSACTION: Duration = Duration::from_secs(8);

const JOBS: &str = "table: Jobs
columns:
  - { name: Id, type: bigint unsigned, nullable: false, auto_increment: true }
  - { name: State, type: varchar(32), nullable: false }
  - { name: CreatedAt, type: datetime(6), nullable: false }
  - { name: LeaseOwner, type: varchar(64) }
  - { name: Attempts, type: int }
primary_key: [Id]
indexes:
  - { name: idx_jobs_state_created, columns: [State, CreatedAt] }
";

/// Latencies of the application's statements while apply ran.
#[derive(Default)]
struct Sample {
    latencies: Vec<Duration>,
    errors: Vec<String>,
}

impl Sample {
    fn percentile(&self, p: f64) -> Duration {
        let mut v = self.latencies.clone();
        v.sort();
        v[((v.len() - 1) as f64 * p).round() as usize]
    }

    fn max(&self) -> Duration {
        self.latencies.iter().copied().max().unwrap_or_default()
    }

    fn line(&self, name: &str, apply: Duration, flavor: &str) -> String {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        format!(
            "load {flavor} {name}: apply {:.1} s; app statements {} (p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms), errors {}",
            apply.as_secs_f64(),
            self.latencies.len(),
            ms(self.percentile(0.5)),
            ms(self.percentile(0.99)),
            ms(self.max()),
            self.errors.len()
        )
    }
}

/// One application session: runs `statement(i)` in a loop until `stop`,
/// timing each statement issued while `measuring`.
async fn app_session(
    pool: mysql_async::Pool,
    writer: bool,
    seed: u64,
    measuring: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
) -> Sample {
    let mut sample = Sample::default();
    let mut conn = pool.get_conn().await.expect("app connection");
    let mut i = seed;
    while !stop.load(Ordering::SeqCst) {
        i = i.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let id = 1 + (i >> 33) % 1_000_000;
        let started = Instant::now();
        let result = match (writer, i % 2) {
            (true, 0) => {
                conn.exec_drop(
                    "INSERT INTO Jobs (State, CreatedAt) VALUES ('queued', NOW(6))",
                    (),
                )
                .await
            }
            (true, _) => {
                conn.exec_drop("UPDATE Jobs SET State = 'leased' WHERE Id = ?", (id,))
                    .await
            }
            (false, 0) => conn
                .exec_first::<String, _, _>("SELECT State FROM Jobs WHERE Id = ?", (id,))
                .await
                .map(drop),
            (false, _) => conn
                .exec_first::<u64, _, _>(
                    "SELECT COUNT(*) FROM Jobs WHERE Id BETWEEN ? AND ? + 100",
                    (id, id),
                )
                .await
                .map(drop),
        };
        if measuring.load(Ordering::SeqCst) {
            sample.latencies.push(started.elapsed());
            if let Err(e) = result {
                sample.errors.push(e.to_string());
            }
        }
    }
    sample
}

/// Runs apply under traffic (and, with `long_transaction`, while a session
/// holds the table for [`LONG_TRANSACTION`]); returns the sample and how
/// long apply took.
async fn under_load(long_transaction: bool) -> (Sample, Duration, String) {
    let db = TestDb::new().await;
    common::unindexed_jobs(&db).await;
    common::double_jobs(&db, 2).await;
    let mut admin = db.pool.get_conn().await.unwrap();
    let version: String = admin
        .query_first("SELECT VERSION()")
        .await
        .unwrap()
        .unwrap();
    let flavor = if version.contains("MariaDB") {
        "mariadb"
    } else {
        "mysql"
    };

    let measuring = Arc::new(AtomicBool::new(false));
    let stop = Arc::new(AtomicBool::new(false));
    let sessions: Vec<_> = (0..WRITERS + READERS)
        .map(|n| {
            tokio::spawn(app_session(
                db.pool.clone(),
                n < WRITERS,
                n as u64 + 1,
                measuring.clone(),
                stop.clone(),
            ))
        })
        .collect();
    // Traffic first, then apply.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let holder = if long_transaction {
        let mut conn = db.pool.get_conn().await.unwrap();
        conn.query_drop("BEGIN").await.unwrap();
        let _: Option<u64> = conn
            .query_first("SELECT COUNT(*) FROM Jobs WHERE Id < 100")
            .await
            .unwrap();
        Some(conn)
    } else {
        None
    };
    let dir = common::catalog_dir(&[("jobs.yaml", JOBS)]);
    measuring.store(true, Ordering::SeqCst);
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_catalog"))
        .env_remove("DATABASE_URL")
        .env_remove("CATALOG_DIR")
        .args([
            "--catalog",
            dir.path().to_str().unwrap(),
            "--database-url",
            &db.url(),
        ])
        .args([
            "--format",
            "json",
            "apply",
            "--lock-wait",
            &LOCK_WAIT.as_secs().to_string(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut holder = holder;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() >= LONG_TRANSACTION {
            if let Some(mut conn) = holder.take() {
                conn.query_drop("COMMIT").await.unwrap();
            }
        }
        assert!(
            started.elapsed() < Duration::from_secs(600),
            "apply did not finish"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let took = started.elapsed();
    measuring.store(false, Ordering::SeqCst);
    stop.store(true, Ordering::SeqCst);
    let mut sample = Sample::default();
    for s in sessions {
        let s = s.await.unwrap();
        sample.latencies.extend(s.latencies);
        sample.errors.extend(s.errors);
    }
    let out = child.wait_with_output().unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(status.code(), Some(0), "{doc:#}");
    assert_eq!(doc["steps"].as_array().unwrap().len(), 3, "{doc:#}");
    if long_transaction {
        assert!(
            took >= LONG_TRANSACTION,
            "apply finished in {took:?} while the transaction was open"
        );
    }
    (sample, took, flavor.to_string())
}

fn check(sample: &Sample, name: &str, took: Duration, flavor: &str) {
    let line = sample.line(name, took, flavor);
    println!("{line}");
    assert!(sample.latencies.len() > 100, "too little traffic: {line}");
    assert!(
        sample.errors.is_empty(),
        "{line}: {:?}",
        &sample.errors[..sample.errors.len().min(5)]
    );
    assert!(
        sample.max() <= LOCK_WAIT + Duration::from_millis(500),
        "an application statement waited longer than --lock-wait + 0.5 s: {line}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn app_traffic_is_not_stalled_by_apply() {
    let _serial = common::heavy::heavy_async().await;
    let (sample, took, flavor) = under_load(false).await;
    check(&sample, "without a long transaction", took, &flavor);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn app_traffic_is_not_stalled_by_apply_behind_a_long_transaction() {
    let _serial = common::heavy::heavy_async().await;
    let (sample, took, flavor) = under_load(true).await;
    check(&sample, "with an 8 s open transaction", took, &flavor);
}
