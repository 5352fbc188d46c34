//! Apply guards named replicas (docs/replicas.md), on a real replication
//! pair: `CATALOG_TEST_REPLICA_PAIR=PRIMARY_URL,REPLICA_URL` (scripts/test
//! sets the MariaDB pair 3406 -> 3407 for the 3306 run and the MySQL pair
//! 3408 -> 3409 for the 3307 run; `scripts/replica-pair start`). A test
//! whose pair is not set or does not answer fails; it never skips.
//!
//! Replication is shared by every test on the pair: the tests of this file
//! run one at a time (a process-wide lock), and a test that stops the
//! replica's applier or sets a delay restores it on drop, also when it
//! fails.

use crate::common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use mysql_async::prelude::*;
use schema_catalog::apply::{self, ApplyOptions, ApplyReport, Outcome, StepStatus};
use schema_catalog::replica::ReadBack;
use schema_catalog::{catalog, db, Flavor, Table};

/// One test at a time on the pair: the tests stop the applier, delay it,
/// and wait for the replica.
pub(crate) static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The pair's URLs (without a database), from `CATALOG_TEST_REPLICA_PAIR`.
pub(crate) fn pair() -> (String, String) {
    let text = std::env::var("CATALOG_TEST_REPLICA_PAIR").expect(
        "CATALOG_TEST_REPLICA_PAIR=PRIMARY_URL,REPLICA_URL is not set: start a pair with \
         scripts/replica-pair start mariadb|mysql and set it (scripts/test does both)",
    );
    let (p, r) = text
        .split_once(',')
        .expect("CATALOG_TEST_REPLICA_PAIR is PRIMARY_URL,REPLICA_URL");
    (
        p.trim().trim_end_matches('/').to_string(),
        r.trim().trim_end_matches('/').to_string(),
    )
}

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A uniquely named schema on the primary (and so on its replica),
/// dropped on the primary afterwards, also when the test fails.
pub(crate) struct PairDb {
    pub(crate) name: String,
    pub(crate) primary: String,
    pub(crate) replica: String,
    pub(crate) flavor: Flavor,
}

impl PairDb {
    pub(crate) async fn new() -> PairDb {
        let (primary, replica) = pair();
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let name = format!(
            "sc_r_{}_{}_{}",
            std::process::id(),
            nanos % 1_000_000_000,
            COUNTER.fetch_add(1, Ordering::SeqCst)
        );
        let mut conn = mysql_async::Conn::from_url(primary.as_str())
            .await
            .unwrap_or_else(|e| panic!("the pair's primary {primary} does not answer: {e}"));
        conn.query_drop(format!(
            "CREATE DATABASE `{name}` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
        ))
        .await
        .unwrap();
        let version: String = conn.query_first("SELECT VERSION()").await.unwrap().unwrap();
        conn.disconnect().await.ok();
        // The replica must answer too (it fails here, never skips).
        let r = mysql_async::Conn::from_url(replica.as_str())
            .await
            .unwrap_or_else(|e| panic!("the pair's replica {replica} does not answer: {e}"));
        r.disconnect().await.ok();
        PairDb {
            name,
            primary,
            replica,
            flavor: Flavor::detect(&version),
        }
    }

    pub(crate) fn primary_url(&self) -> String {
        format!("{}/{}", self.primary, self.name)
    }

    pub(crate) fn replica_target(&self) -> db::Target {
        db::parse_server_url(&self.replica).unwrap()
    }

    pub(crate) async fn primary_conn(&self) -> mysql_async::Conn {
        mysql_async::Conn::from_url(self.primary_url().as_str())
            .await
            .unwrap()
    }

    pub(crate) async fn replica_conn(&self) -> mysql_async::Conn {
        mysql_async::Conn::from_url(self.replica.as_str())
            .await
            .unwrap()
    }

    /// Applies `tables` with the replica named and `opts`' budgets.
    pub(crate) async fn apply(&self, tables: &[Table], opts: ApplyOptions) -> ApplyReport {
        let target = db::parse_url(&self.primary_url()).unwrap();
        apply::run(&target, &self.name, tables, &opts)
            .await
            .expect("apply runs")
    }

    /// Waits (in the test, not under test) until the replica has the
    /// schema's latest change, at most 60 s.
    pub(crate) async fn synced(&self) {
        let mut p = self.primary_conn().await;
        let (pos_sql, wait_sql) = if self.flavor == Flavor::MariaDb {
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
        let pos: String = p.query_first(pos_sql).await.unwrap().unwrap();
        let mut r = self.replica_conn().await;
        let rc: Option<i64> = r.exec_first(wait_sql, (pos,)).await.unwrap();
        assert_eq!(rc, Some(0), "the replica did not catch up in 60 s");
    }

    /// Whether the replica has the index (read on the replica).
    pub(crate) async fn index_on_replica(&self, table: &str, index: &str) -> bool {
        let mut r = self.replica_conn().await;
        let n: Option<u64> = r
            .exec_first(
                "SELECT COUNT(*) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? \
                 AND TABLE_NAME = ? AND INDEX_NAME = ?",
                (&self.name, table, index),
            )
            .await
            .unwrap();
        n.unwrap_or(0) > 0
    }

    pub(crate) fn stop_sql(&self) -> &'static str {
        if self.flavor == Flavor::MariaDb {
            "STOP SLAVE SQL_THREAD"
        } else {
            "STOP REPLICA SQL_THREAD"
        }
    }
}

impl Drop for PairDb {
    fn drop(&mut self) {
        let (name, url) = (self.name.clone(), self.primary.clone());
        let _ = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                if let Ok(mut c) = mysql_async::Conn::from_url(url.as_str()).await {
                    let _ = c
                        .query_drop(format!("DROP DATABASE IF EXISTS `{name}`"))
                        .await;
                    let _ = c.disconnect().await;
                }
            });
        })
        .join();
    }
}

/// Restores the replica's applier on drop (also on a panic): no delay,
/// SQL thread running.
pub(crate) struct Restore {
    pub(crate) replica: String,
    pub(crate) flavor: Flavor,
}

impl Restore {
    pub(crate) fn statements(flavor: Flavor) -> [&'static str; 3] {
        if flavor == Flavor::MariaDb {
            // MariaDB's CHANGE MASTER wants both threads stopped.
            [
                "STOP SLAVE",
                "CHANGE MASTER TO MASTER_DELAY = 0",
                "START SLAVE",
            ]
        } else {
            [
                "STOP REPLICA",
                "CHANGE REPLICATION SOURCE TO SOURCE_DELAY = 0",
                "START REPLICA",
            ]
        }
    }
}

impl Drop for Restore {
    fn drop(&mut self) {
        let (url, flavor) = (self.replica.clone(), self.flavor);
        let restored = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let mut c = mysql_async::Conn::from_url(url.as_str())
                    .await
                    .expect("the replica answers to be restored");
                for sql in Restore::statements(flavor) {
                    c.query_drop(sql)
                        .await
                        .expect("restore the replica's applier");
                }
                let _ = c.disconnect().await;
            });
        })
        .join();
        // A restore that failed fails the test (unless it already fails).
        if restored.is_err() && !std::thread::panicking() {
            panic!("the replica's applier could not be restored");
        }
    }
}

pub(crate) fn restore(db: &PairDb) -> Restore {
    Restore {
        replica: db.replica.clone(),
        flavor: db.flavor,
    }
}

pub(crate) fn jobs_catalog() -> Vec<Table> {
    let dir = common::catalog_dir(&[("jobs.yaml", common::UNINDEXED_JOBS_CATALOG)]);
    common::catalog_tables(&catalog::load(dir.path()).unwrap())
}

pub(crate) fn opts_with(db: &PairDb, busy: u64) -> ApplyOptions {
    ApplyOptions::default()
        .replicas(vec![db.replica_target()])
        .busy_timeout(Duration::from_secs(busy))
        .read_timeout(Duration::from_secs(20))
}

/// The unindexed `Jobs` table with `rows` rows (doubling INSERT ... SELECT),
/// replicated.
pub(crate) async fn jobs_with_rows(db: &PairDb, rows: u64) {
    let mut c = db.primary_conn().await;
    c.query_drop(
        "CREATE TABLE `Jobs` (`Id` bigint unsigned NOT NULL AUTO_INCREMENT, \
         `State` varchar(32) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL, \
         `CreatedAt` datetime(6) NOT NULL, PRIMARY KEY (`Id`)) \
         ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
    )
    .await
    .unwrap();
    c.query_drop(
        "INSERT INTO `Jobs` (`State`, `CreatedAt`) VALUES ('queued', NOW(6)), ('done', NOW(6))",
    )
    .await
    .unwrap();
    let mut have = 2;
    while have < rows {
        c.query_drop(
            "INSERT INTO `Jobs` (`State`, `CreatedAt`) SELECT \
             ELT(1 + (`Id` % 4), 'queued', 'done', 'failed', 'leased'), `CreatedAt` FROM `Jobs`",
        )
        .await
        .unwrap();
        have *= 2;
    }
    c.disconnect().await.ok();
    db.synced().await;
}

pub(crate) fn index_statements(report: &ApplyReport) -> usize {
    report
        .steps
        .iter()
        .filter(|s| s.status == StepStatus::Applied)
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_index_on_200k_rows_is_on_the_replica_when_apply_returns() {
    let _serial = SERIAL.lock().await;
    let db = PairDb::new().await;
    jobs_with_rows(&db, 200_000).await;
    let tables = jobs_catalog();
    let report = db.apply(&tables, opts_with(&db, 120)).await;
    assert_eq!(report.outcome, Outcome::Converged, "{report:#?}");
    assert_eq!(index_statements(&report), 1, "{report:#?}");
    // Right after apply returned: verify against the replica passes and the
    // replica has the index.
    let mut session = db::connect(&db.replica_target(), Duration::from_secs(20))
        .await
        .unwrap();
    let cat =
        catalog::load(common::catalog_dir(&[("jobs.yaml", common::UNINDEXED_JOBS_CATALOG)]).path())
            .unwrap();
    let on_replica = schema_catalog::verify(
        &mut session,
        &cat,
        &schema_catalog::VerifyOptions::default().schema(&db.name),
    )
    .await
    .unwrap();
    assert!(on_replica.ok, "{on_replica:#?}");
    assert!(db.index_on_replica("Jobs", "idx_jobs_state_created").await);
    // The report names the replica, its check and the read-back.
    assert_eq!(report.replicas.len(), 1, "{report:#?}");
    let step = &report.steps[0];
    assert_eq!(step.replicas.len(), 1, "{step:#?}");
    assert_eq!(step.replicas[0].read_back, ReadBack::Exact, "{step:#?}");
    assert!(step.replicas[0].caught_up_ms.is_some(), "{step:#?}");
    assert!(!step.replicas[0].position.is_empty(), "{step:#?}");
    // Nothing held the table on the replica: no blocker wait, no holder.
    assert_eq!(step.replicas[0].blocker_waited_ms, 0, "{step:#?}");
    assert!(step.replicas[0].blocked_by.is_empty(), "{step:#?}");
    assert_eq!(step.replica_blocker_waited_ms, 0, "{step:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_applier_defers_before_any_ddl_and_a_rerun_converges() {
    let _serial = SERIAL.lock().await;
    let db = PairDb::new().await;
    jobs_with_rows(&db, 4).await;
    let tables = jobs_catalog();
    {
        let _restore = restore(&db);
        let mut r = db.replica_conn().await;
        r.query_drop(db.stop_sql()).await.unwrap();
        let started = Instant::now();
        let report = db.apply(&tables, opts_with(&db, 2)).await;
        let replica = db.replica_target().host_port();
        match &report.outcome {
            Outcome::ReplicaDeferred { replicas, step, .. } => {
                assert_eq!(replicas.len(), 1, "{report:#?}");
                assert_eq!(replicas[0].replica, replica, "{report:#?}");
                assert!(replicas[0].reason.contains("stopped"), "{report:#?}");
                assert_eq!(*step, None, "before any step: {report:#?}");
            }
            other => panic!("not deferred for the replica: {other:?}\n{report:#?}"),
        }
        assert!(
            started.elapsed() >= Duration::from_secs(2),
            "waited the budget"
        );
        assert_eq!(report.server_ddl_count, Some(0), "{report:#?}");
        assert!(!db.index_on_replica("Jobs", "idx_jobs_state_created").await);
        let message = format!("{:?}", report.stopped());
        assert!(message.contains(&replica), "{message}");
    }
    // Applier running again: the rerun converges on both.
    let report = db.apply(&tables, opts_with(&db, 60)).await;
    assert_eq!(report.outcome, Outcome::Converged, "{report:#?}");
    assert!(db.index_on_replica("Jobs", "idx_jobs_state_created").await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_is_not_this_primarys_replica_is_refused_before_ddl() {
    let _serial = SERIAL.lock().await;
    let db = PairDb::new().await;
    jobs_with_rows(&db, 4).await;
    let tables = jobs_catalog();
    // The single test server (3306/3307) replicates from nobody; the
    // primary itself is not its own replica.
    let standalone = common::server_url();
    for url in [standalone.clone(), db.primary.clone()] {
        let opts = opts_with(&db, 2).replicas(vec![db::parse_server_url(&url).unwrap()]);
        let report = db.apply(&tables, opts).await;
        match &report.outcome {
            Outcome::RefusedReplica { replica, message } => {
                let named = db::parse_server_url(&url).unwrap().host_port();
                assert_eq!(replica.as_deref(), Some(named.as_str()), "{message}");
                // Both identities: the replica's and the primary's.
                assert!(message.contains(&named), "{message}");
                assert!(
                    message.contains(&report.server.port.to_string()),
                    "{message}"
                );
            }
            other => panic!("not refused: {other:?}\n{report:#?}"),
        }
        assert_eq!(report.server_ddl_count, Some(0), "{report:#?}");
        assert!(report.steps.is_empty(), "{report:#?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unnamed_connected_replica_is_reported_and_refused_when_required() {
    let _serial = SERIAL.lock().await;
    let db = PairDb::new().await;
    jobs_with_rows(&db, 4).await;
    let tables = jobs_catalog();
    let opts = opts_with(&db, 2)
        .replicas(Vec::new())
        .require_replicas(true);
    let report = db.apply(&tables, opts).await;
    let port = db.replica_target().url.tcp_port().to_string();
    match &report.outcome {
        Outcome::RefusedReplica { replica, message } => {
            assert_eq!(*replica, None, "{message}");
            assert!(message.contains("connected and not guarded"), "{message}");
            assert!(message.contains(&port), "{message}");
        }
        other => panic!("not refused: {other:?}\n{report:#?}"),
    }
    assert_eq!(report.server_ddl_count, Some(0), "{report:#?}");
    // Without --require-replicas it is a hint, and the run converges.
    let opts = opts_with(&db, 30).replicas(Vec::new());
    let report = db.apply(&tables, opts).await;
    assert_eq!(report.outcome, Outcome::Converged, "{report:#?}");
    assert!(
        report.unguarded.iter().any(|u| u.contains(&port)),
        "{report:#?}"
    );
}

/// Runs `sql` on `url` from its own thread and runtime (for a progress
/// callback, which must not await).
fn run_blocking(url: String, sql: &'static str) {
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let mut c = mysql_async::Conn::from_url(url.as_str()).await.unwrap();
            c.query_drop(sql).await.unwrap();
            c.disconnect().await.ok();
        });
    })
    .join()
    .expect("statement on the replica");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replica_that_stops_after_the_first_step_is_pending_and_a_rerun_converges() {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let _serial = SERIAL.lock().await;
    let db = PairDb::new().await;
    jobs_with_rows(&db, 4).await;
    let dir = common::catalog_dir(&[("jobs.yaml", common::TWO_INDEX_JOBS_CATALOG)]);
    let tables = common::catalog_tables(&catalog::load(dir.path()).unwrap());
    {
        let _restore = restore(&db);
        // The replica's applier stops as step 2 starts: step 1 has reached
        // it, step 2 never does.
        let stopped = Arc::new(AtomicBool::new(false));
        let (flag, url, stop) = (stopped.clone(), db.replica.clone(), db.stop_sql());
        let progress: apply::ProgressFn = Arc::new(move |p: &apply::Progress| {
            if p.step == 2
                && p.event == apply::ProgressEvent::Started
                && !flag.swap(true, Ordering::SeqCst)
            {
                run_blocking(url.clone(), stop);
            }
        });
        let opts = opts_with(&db, 30)
            .progress(progress)
            .replica_timeout(Duration::from_secs(2));
        let report = db.apply(&tables, opts).await;
        assert!(stopped.load(Ordering::SeqCst), "step 2 started");
        match &report.outcome {
            Outcome::ReplicasPending { step, replicas } => {
                assert!(
                    step.as_deref()
                        .is_some_and(|s| s.contains("idx_jobs_created")),
                    "{report:#?}"
                );
                assert_eq!(replicas.len(), 1, "{report:#?}");
                assert_eq!(replicas[0].replica, db.replica_target().host_port());
                assert!(!replicas[0].position.is_empty(), "{report:#?}");
            }
            other => panic!("not replicas_pending: {other:?}\n{report:#?}"),
        }
        assert_eq!(report.server_ddl_count, Some(2), "{report:#?}");
        assert_eq!(report.steps[0].replicas[0].read_back, ReadBack::Exact);
        assert_eq!(report.steps[1].replicas[0].read_back, ReadBack::Pending);
        assert!(db.index_on_replica("Jobs", "idx_jobs_state").await);
        assert!(!db.index_on_replica("Jobs", "idx_jobs_created").await);
    }
    // Applier running again: no DDL, the replica catches up, reads back exact.
    let report = db.apply(&tables, opts_with(&db, 60)).await;
    assert_eq!(report.outcome, Outcome::Converged, "{report:#?}");
    assert_eq!(report.server_ddl_count, Some(0), "{report:#?}");
    assert!(report
        .steps
        .iter()
        .all(|s| s.status == StepStatus::AlreadyPresent));
    assert!(db.index_on_replica("Jobs", "idx_jobs_created").await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_transaction_on_the_replica_holding_the_table_defers_the_step_naming_it() {
    let _serial = SERIAL.lock().await;
    let db = PairDb::new().await;
    jobs_with_rows(&db, 4).await;
    let tables = jobs_catalog();
    // A read transaction on the replica, in the schema, that read the table.
    let mut holder = mysql_async::Conn::from_url(format!("{}/{}", db.replica, db.name).as_str())
        .await
        .unwrap();
    holder.query_drop("START TRANSACTION").await.unwrap();
    let _: Vec<u64> = holder.query("SELECT COUNT(*) FROM `Jobs`").await.unwrap();
    let holder_id = holder.id();
    // Older than the blocker age (1 s) by the time apply looks.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let report = db.apply(&tables, opts_with(&db, 3)).await;
    match &report.outcome {
        Outcome::ReplicaDeferred { replicas, step, .. } => {
            assert_eq!(replicas.len(), 1, "{report:#?}");
            assert_eq!(replicas[0].replica, db.replica_target().host_port());
            assert!(
                replicas[0].reason.contains(&holder_id.to_string()),
                "names the holder {holder_id}: {report:#?}"
            );
            assert!(step
                .as_deref()
                .is_some_and(|s| s.contains("idx_jobs_state_created")));
        }
        other => panic!("not deferred for the replica's blocker: {other:?}\n{report:#?}"),
    }
    assert_eq!(report.server_ddl_count, Some(0), "{report:#?}");
    holder.query_drop("COMMIT").await.unwrap();
    // Holder gone: the rerun converges on both.
    let report = db.apply(&tables, opts_with(&db, 60)).await;
    assert_eq!(report.outcome, Outcome::Converged, "{report:#?}");
    assert!(db.index_on_replica("Jobs", "idx_jobs_state_created").await);
}
