//! The load guard (`max_threads_running`) and MariaDB's two-phase ALTER
//! (`two_phase_alter`) on a real replication pair (docs/replicas.md). Uses
//! the pair, the schema helpers and the process-wide lock of
//! `replicas_live`: one replica test at a time.

use std::time::Duration;

use mysql_async::prelude::*;
use schema_catalog::apply::{Outcome, StepStatus};
use schema_catalog::replica::{ReadBack, TwoPhaseAlter};
use schema_catalog::Flavor;

use crate::replicas_live::{jobs_catalog, jobs_with_rows, opts_with, PairDb, SERIAL};

/// Sessions held in `SELECT SLEEP(..)` on one server: each is a running
/// thread until killed (on drop, also when the test fails).
struct Sleepers {
    url: String,
    ids: Vec<u32>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl Sleepers {
    /// Starts `n` sessions sleeping 60 s on `url` and waits until the
    /// server shows each one running its SLEEP.
    async fn hold(url: &str, n: usize) -> Sleepers {
        let mut ids = Vec::new();
        let mut tasks = Vec::new();
        for _ in 0..n {
            let mut c = mysql_async::Conn::from_url(url).await.unwrap();
            ids.push(c.id());
            tasks.push(tokio::spawn(async move {
                // Killed by the test: the error is expected.
                let _ = c.query_drop("SELECT SLEEP(60)").await;
                let _ = c.disconnect().await;
            }));
        }
        let sleepers = Sleepers {
            url: url.to_string(),
            ids,
            tasks,
        };
        // Wait (with a deadline) until every one is in its SLEEP.
        let mut c = mysql_async::Conn::from_url(url).await.unwrap();
        let list = sleepers
            .ids
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(",");
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        loop {
            let running: Option<u64> = c
                .query_first(format!(
                    "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID IN ({list}) \
                     AND INFO LIKE 'SELECT SLEEP%'"
                ))
                .await
                .unwrap();
            if running == Some(n as u64) {
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the sleepers did not start"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        c.disconnect().await.ok();
        sleepers
    }

    /// Kills the sleepers' statements and waits for their sessions.
    async fn release(mut self) {
        let ids = std::mem::take(&mut self.ids);
        kill(&self.url, &ids).await;
        for t in std::mem::take(&mut self.tasks) {
            let _ = t.await;
        }
    }
}

async fn kill(url: &str, ids: &[u32]) {
    if let Ok(mut c) = mysql_async::Conn::from_url(url).await {
        for id in ids {
            let _ = c.query_drop(format!("KILL QUERY {id}")).await;
        }
        let _ = c.disconnect().await;
    }
}

impl Drop for Sleepers {
    fn drop(&mut self) {
        if self.ids.is_empty() {
            return;
        }
        let (url, ids) = (self.url.clone(), std::mem::take(&mut self.ids));
        let _ = std::thread::spawn(move || {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap()
                .block_on(kill(&url, &ids));
        })
        .join();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn threads_running_above_the_limit_defers_the_step_naming_each_server() {
    let _serial = SERIAL.lock().await;
    let db = PairDb::new().await;
    jobs_with_rows(&db, 4).await;
    let tables = jobs_catalog();
    // Four sleepers on each side and a limit of 2: both are above it
    // whatever else runs (other tests only add running threads).
    let on_primary = Sleepers::hold(&db.primary, 4).await;
    let on_replica = Sleepers::hold(&db.replica, 4).await;
    let opts = opts_with(&db, 3).max_threads_running(2);
    let started = std::time::Instant::now();
    let report = db.apply(&tables, opts).await;
    let replica = db.replica_target().host_port();
    match &report.outcome {
        Outcome::Overloaded {
            step,
            servers,
            waited_ms,
        } => {
            assert!(
                step.as_deref()
                    .is_some_and(|s| s.contains("idx_jobs_state_created")),
                "{report:#?}"
            );
            assert!(*waited_ms >= 3000, "{report:#?}");
            let primary = servers
                .iter()
                .find(|l| l.role == "primary")
                .expect("the primary is named");
            assert!(primary.threads_running >= 5, "{report:#?}");
            assert_eq!(primary.limit, 2);
            assert_eq!(
                primary.server,
                format!("{}:{}", report.server.hostname, report.server.port)
            );
            let r = servers
                .iter()
                .find(|l| l.role == "replica")
                .expect("the replica is named");
            assert_eq!(r.server, replica, "{report:#?}");
            assert!(r.threads_running >= 4, "{report:#?}");
        }
        other => panic!("not deferred for load: {other:?}\n{report:#?}"),
    }
    assert!(started.elapsed() >= Duration::from_secs(3));
    assert_eq!(report.steps.len(), 1, "{report:#?}");
    assert_eq!(report.steps[0].status, StepStatus::Deferred, "{report:#?}");
    assert_eq!(report.server_ddl_count, Some(0), "{report:#?}");
    assert!(!db.index_on_replica("Jobs", "idx_jobs_state_created").await);
    let message = format!("{:?}", report.stopped());
    assert!(message.contains("Threads_running"), "{message}");
    assert!(message.contains(&replica), "{message}");
    // Released: a rerun with a limit converges on both.
    on_primary.release().await;
    on_replica.release().await;
    let opts = opts_with(&db, 60).max_threads_running(200);
    let report = db.apply(&tables, opts).await;
    assert_eq!(report.outcome, Outcome::Converged, "{report:#?}");
    assert!(db.index_on_replica("Jobs", "idx_jobs_state_created").await);
}

/// Sets the replica's parallel applier threads (MariaDB: both replication
/// threads stopped around `SET GLOBAL slave_parallel_threads`), and
/// restores what it was on drop, also when the test fails.
struct ParallelApplier {
    replica: String,
    was: u64,
}

impl ParallelApplier {
    async fn set(replica: &str, threads: u64) -> ParallelApplier {
        let mut c = mysql_async::Conn::from_url(replica).await.unwrap();
        let was: u64 = c
            .query_first("SELECT @@GLOBAL.slave_parallel_threads")
            .await
            .unwrap()
            .unwrap();
        let guard = ParallelApplier {
            replica: replica.to_string(),
            was,
        };
        set_parallel(&mut c, threads).await;
        c.disconnect().await.ok();
        guard
    }
}

async fn set_parallel(c: &mut mysql_async::Conn, threads: u64) {
    c.query_drop("STOP SLAVE").await.unwrap();
    c.query_drop(format!("SET GLOBAL slave_parallel_threads = {threads}"))
        .await
        .unwrap();
    c.query_drop("START SLAVE").await.unwrap();
}

impl Drop for ParallelApplier {
    fn drop(&mut self) {
        let (url, was) = (self.replica.clone(), self.was);
        let restored = std::thread::spawn(move || {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap()
                .block_on(async move {
                    let mut c = mysql_async::Conn::from_url(url.as_str()).await.unwrap();
                    set_parallel(&mut c, was).await;
                    c.disconnect().await.ok();
                });
        })
        .join();
        if restored.is_err() && !std::thread::panicking() {
            panic!("the replica's slave_parallel_threads could not be restored");
        }
    }
}

/// The primary's binary log events from `(file, pos)` on, as
/// `(event type, info)`, across rotations.
async fn binlog_since(primary: &str, file: &str, pos: u64) -> Vec<(String, String)> {
    let mut c = mysql_async::Conn::from_url(primary).await.unwrap();
    let logs: Vec<mysql_async::Row> = c.query("SHOW BINARY LOGS").await.unwrap();
    let names: Vec<String> = logs
        .iter()
        .map(|r| r.get::<String, _>(0).unwrap())
        .filter(|n| n.as_str() >= file)
        .collect();
    let mut out = Vec::new();
    for name in names {
        let sql = if name == file {
            format!("SHOW BINLOG EVENTS IN '{name}' FROM {pos}")
        } else {
            format!("SHOW BINLOG EVENTS IN '{name}'")
        };
        let rows: Vec<mysql_async::Row> = c.query(sql).await.unwrap();
        for r in rows {
            let kind: String = r.get("Event_type").unwrap();
            let info: String = r.get("Info").unwrap_or_default();
            out.push((kind, info));
        }
    }
    c.disconnect().await.ok();
    out
}

/// The primary's binary log position now.
async fn binlog_position(primary: &str) -> (String, u64) {
    let mut c = mysql_async::Conn::from_url(primary).await.unwrap();
    let row: mysql_async::Row = c
        .query_first("SHOW MASTER STATUS")
        .await
        .unwrap()
        .expect("the primary writes a binary log");
    c.disconnect().await.ok();
    (row.get(0).unwrap(), row.get(1).unwrap())
}

/// The events of the ALTER of `schema` adding `index`: its GTID event's
/// info and the query's, in order.
fn alter_events(events: &[(String, String)], schema: &str, index: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, (kind, info)) in events.iter().enumerate() {
        if kind == "Query" && info.contains(schema) && info.contains(index) {
            if let Some((_, gtid)) = events[..i].iter().rev().find(|(k, _)| k == "Gtid") {
                out.push(gtid.clone());
            }
            out.push(info.clone());
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_phase_alter_follows_the_replicas_applier_and_reaches_the_binlog_in_two_parts() {
    let _serial = SERIAL.lock().await;
    let db = PairDb::new().await;
    jobs_with_rows(&db, 1024).await;
    let tables = jobs_catalog();
    let index = "idx_jobs_state_created";
    if db.flavor != Flavor::MariaDb {
        // MySQL has no two-phase ALTER: `on` is refused before any DDL
        // (before any replica is connected), `auto` is off and says why.
        let opts = opts_with(&db, 30).two_phase_alter(TwoPhaseAlter::On);
        let target = schema_catalog::db::parse_url(&db.primary_url()).unwrap();
        let err = schema_catalog::apply::apply(&target, &db.name, &tables, &opts)
            .await
            .expect_err("on is refused on MySQL");
        let text = err.to_string();
        assert!(text.contains("--two-phase-alter on"), "{text}");
        assert!(text.contains("MariaDB 10.8.1+"), "{text}");
        assert!(!db.index_on_replica("Jobs", index).await);
        let report = db.apply(&tables, opts_with(&db, 60)).await;
        assert_eq!(report.outcome, Outcome::Converged, "{report:#?}");
        let t = report.two_phase.as_ref().expect("decided");
        assert!(!t.on, "{t:?}");
        assert!(t.reason.contains("mysql"), "{t:?}");
        assert!(!report.steps[0].two_phase, "{report:#?}");
        return;
    }
    // A single-threaded replica: auto picks off, and the plan says so.
    {
        let _single = ParallelApplier::set(&db.replica, 0).await;
        let mut session = schema_catalog::db::connect(
            &schema_catalog::db::parse_url(&db.primary_url()).unwrap(),
            Duration::from_secs(20),
        )
        .await
        .unwrap();
        let survey = schema_catalog::apply::survey_replicas(
            &mut session,
            &[db.replica_target()],
            false,
            TwoPhaseAlter::Auto,
            Duration::from_secs(20),
        )
        .await
        .unwrap();
        session.disconnect().await.ok();
        let t = survey.two_phase.expect("the plan decides");
        assert!(!t.on, "{t:?}");
        assert!(t.reason.contains("single-threaded"), "{t:?}");
        assert!(t.reason.contains(&db.replica_target().host_port()), "{t:?}");
        let (file, pos) = binlog_position(&db.primary).await;
        let report = db.apply(&tables, opts_with(&db, 120)).await;
        assert_eq!(report.outcome, Outcome::Converged, "{report:#?}");
        assert!(!report.two_phase.as_ref().unwrap().on, "{report:#?}");
        assert!(!report.steps[0].two_phase, "{report:#?}");
        let events = alter_events(
            &binlog_since(&db.primary, &file, pos).await,
            &db.name,
            index,
        );
        assert_eq!(events.len(), 2, "one GTID and one ALTER: {events:#?}");
        assert!(
            !events.iter().any(|e| e.contains("START ALTER")),
            "{events:#?}"
        );
    }
    // The same index again on a fresh schema, the replica applying in
    // parallel: auto picks on, the ALTER is START ALTER ... COMMIT ALTER.
    let db2 = PairDb::new().await;
    jobs_with_rows(&db2, 1024).await;
    let _parallel = ParallelApplier::set(&db2.replica, 4).await;
    let (file, pos) = binlog_position(&db2.primary).await;
    let report = db2.apply(&tables, opts_with(&db2, 120)).await;
    assert_eq!(report.outcome, Outcome::Converged, "{report:#?}");
    let t = report.two_phase.as_ref().expect("decided");
    assert!(t.on, "{t:?}");
    assert!(t.reason.contains("slave_parallel_threads = 4"), "{t:?}");
    assert!(report.steps[0].two_phase, "{report:#?}");
    assert_eq!(report.replicas[0].parallel_workers, Some(4), "{report:#?}");
    assert_eq!(report.steps[0].replicas[0].read_back, ReadBack::Exact);
    let events = alter_events(
        &binlog_since(&db2.primary, &file, pos).await,
        &db2.name,
        index,
    );
    // GTID n START ALTER, the ALTER, GTID n+1 COMMIT ALTER id=n, the ALTER.
    assert_eq!(events.len(), 4, "{events:#?}");
    assert!(events[0].ends_with("START ALTER"), "{events:#?}");
    let start_seq = events[0]
        .trim_end_matches(" START ALTER")
        .rsplit('-')
        .next()
        .unwrap()
        .to_string();
    assert!(
        events[2].contains(&format!("COMMIT ALTER id={start_seq}")),
        "{events:#?}"
    );
    assert!(db2.index_on_replica("Jobs", index).await);
}
