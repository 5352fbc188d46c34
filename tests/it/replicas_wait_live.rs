//! Apply waiting for a replica, measured on a real pair: a long replica
//! transaction holding the table (and a reader on the replica that must
//! never queue behind the replayed ALTER), and a replica delayed by 5 s.
//! Uses the pair, helpers and lock of `replicas_live`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mysql_async::prelude::*;
use schema_catalog::apply::{self, Outcome, StepStatus};
use schema_catalog::replica::ReadBack;
use schema_catalog::Flavor;

use crate::replicas_live::{jobs_catalog, jobs_with_rows, opts_with, restore, PairDb, SERIAL};

/// Every progress text apply told, for assertions.
fn recorder() -> (apply::ProgressFn, Arc<Mutex<Vec<String>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let into = seen.clone();
    let f: apply::ProgressFn = Arc::new(move |p: &apply::Progress| {
        if let apply::ProgressEvent::Replica(text) = &p.event {
            into.lock().unwrap().push(text.clone());
        }
    });
    (f, seen)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_15_s_replica_transaction_is_waited_for_and_replica_reads_never_queue() {
    let _serial = SERIAL.lock().await;
    let db = PairDb::new().await;
    jobs_with_rows(&db, 4096).await;
    let tables = jobs_catalog();
    let on_replica = format!("{}/{}", db.replica, db.name);
    // The holder: a read transaction on the replica that read the table,
    // open for 15 s.
    let mut holder = mysql_async::Conn::from_url(on_replica.as_str())
        .await
        .unwrap();
    holder.query_drop("START TRANSACTION").await.unwrap();
    let _: Vec<u64> = holder.query("SELECT COUNT(*) FROM `Jobs`").await.unwrap();
    let holder_id = holder.id();
    let opened = Instant::now();
    let release = tokio::spawn(async move {
        tokio::time::sleep_until((opened + Duration::from_secs(15)).into()).await;
        holder.query_drop("COMMIT").await.unwrap();
        holder.disconnect().await.ok();
    });
    // The probe: a point read of the table on the replica every 100 ms for
    // the whole run; the longest one is recorded.
    let stop = Arc::new(AtomicBool::new(false));
    let longest = Arc::new(AtomicU64::new(0));
    let probes = Arc::new(AtomicU64::new(0));
    let probe = {
        let (stop, longest, probes) = (stop.clone(), longest.clone(), probes.clone());
        let url = on_replica.clone();
        tokio::spawn(async move {
            let mut c = mysql_async::Conn::from_url(url.as_str()).await.unwrap();
            while !stop.load(Ordering::SeqCst) {
                let t = Instant::now();
                let _: Option<u64> = c
                    .query_first("SELECT `Id` FROM `Jobs` WHERE `Id` = 1")
                    .await
                    .unwrap();
                longest.fetch_max(t.elapsed().as_millis() as u64, Ordering::SeqCst);
                probes.fetch_add(1, Ordering::SeqCst);
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            c.disconnect().await.ok();
        })
    };
    // Older than the blocker age (1 s) before apply looks: wait for it.
    tokio::time::sleep_until((opened + Duration::from_millis(1200)).into()).await;
    let (progress, seen) = recorder();
    let opts = opts_with(&db, 60).progress(progress);
    let lock_wait = opts.lock_wait;
    let report = db.apply(&tables, opts).await;
    let elapsed = opened.elapsed();
    release.await.unwrap();
    stop.store(true, Ordering::SeqCst);
    probe.await.unwrap();
    assert_eq!(report.outcome, Outcome::Converged, "{report:#?}");
    assert_eq!(report.steps[0].status, StepStatus::Applied, "{report:#?}");
    assert_eq!(
        report.steps[0].replicas[0].read_back,
        ReadBack::Exact,
        "{report:#?}"
    );
    // The step waited for the replica's holder, naming it, in the report
    // too: the holder was released 15 s after it opened, apply started
    // 1.2 s after that.
    assert!(elapsed >= Duration::from_secs(15), "{elapsed:?}");
    let step = &report.steps[0];
    let on_replica = &step.replicas[0];
    assert_eq!(on_replica.replica, db.replica_target().host_port());
    assert!(
        on_replica.blocker_waited_ms >= 12_000,
        "the replica's blocker wait is reported: {report:#?}"
    );
    assert_eq!(
        step.replica_blocker_waited_ms, on_replica.blocker_waited_ms,
        "{report:#?}"
    );
    assert!(
        step.ms >= step.replica_blocker_waited_ms,
        "part of the step's time: {report:#?}"
    );
    assert!(
        on_replica
            .blocked_by
            .iter()
            .any(|b| b.connection_id == u64::from(holder_id) && b.seconds >= 1),
        "names the replica's holder {holder_id}: {report:#?}"
    );
    let seen = seen.lock().unwrap().clone();
    assert!(
        seen.iter().any(|t| t.contains("blocker")
            && t.contains(&db.replica_target().host_port())
            && t.contains(&holder_id.to_string())),
        "names the replica's holder {holder_id}: {seen:#?}"
    );
    let longest = Duration::from_millis(longest.load(Ordering::SeqCst));
    let probes = probes.load(Ordering::SeqCst);
    eprintln!(
        "replica read probe ({:?}): {probes} reads over {elapsed:?}, longest {longest:?} \
         (bound: --lock-wait {lock_wait:?} + 1 s)",
        db.flavor
    );
    assert!(probes >= 50, "the probe ran the whole time: {probes}");
    assert!(
        longest <= lock_wait + Duration::from_secs(1),
        "a replica read waited {longest:?}"
    );
}

/// Sets a replication delay of `secs` on the pair's replica (both threads
/// stopped around it on MariaDB, as CHANGE MASTER wants).
async fn delay(db: &PairDb, secs: u32) {
    let mut r = db.replica_conn().await;
    let (stop, change, start) = if db.flavor == Flavor::MariaDb {
        (
            "STOP SLAVE",
            "CHANGE MASTER TO MASTER_DELAY = ",
            "START SLAVE",
        )
    } else {
        (
            "STOP REPLICA",
            "CHANGE REPLICATION SOURCE TO SOURCE_DELAY = ",
            "START REPLICA",
        )
    };
    for sql in [
        stop.to_string(),
        format!("{change}{secs}"),
        start.to_string(),
    ] {
        r.query_drop(sql).await.unwrap();
    }
    r.disconnect().await.ok();
}

/// An `on_plan` callback that writes one row to the primary (and waits
/// for its commit) right before the first step's replica check: with the
/// replica delayed, the step's lag wait starts with the replica exactly
/// one fresh transaction behind, however long apply took to get there.
fn write_before_the_step(db: &PairDb) -> apply::PlanFn {
    let url = db.primary_url();
    Arc::new(move |_: &apply::ApplyReport| {
        let url = url.clone();
        std::thread::spawn(move || {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap()
                .block_on(async move {
                    let mut c = mysql_async::Conn::from_url(url.as_str()).await.unwrap();
                    c.query_drop(
                        "INSERT INTO `Jobs` (`State`, `CreatedAt`) VALUES ('queued', NOW(6))",
                    )
                    .await
                    .unwrap();
                    c.disconnect().await.ok();
                });
        })
        .join()
        .expect("the write before the step");
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_5_s_replica_delay_defers_at_a_3_s_budget_and_converges_with_15_s() {
    let _serial = SERIAL.lock().await;
    let db = PairDb::new().await;
    jobs_with_rows(&db, 4).await;
    let tables = jobs_catalog();
    let _restore = restore(&db);
    delay(&db, 5).await;
    // 3 s budget, half-second lag slices: the last look ends by about
    // 3.5 s, the write arrives on the replica at 5 s.
    let opts = opts_with(&db, 3)
        .on_plan(write_before_the_step(&db))
        .max_replica_lag(Duration::from_millis(500));
    let report = db.apply(&tables, opts).await;
    match &report.outcome {
        Outcome::ReplicaDeferred {
            replicas,
            step,
            waited_ms,
        } => {
            assert_eq!(replicas.len(), 1, "{report:#?}");
            assert_eq!(replicas[0].replica, db.replica_target().host_port());
            assert!(replicas[0].reason.contains("lacks"), "{report:#?}");
            assert!(!replicas[0].position.is_empty(), "{report:#?}");
            assert!(*waited_ms >= 3000, "{report:#?}");
            assert!(step
                .as_deref()
                .is_some_and(|s| s.contains("idx_jobs_state_created")));
        }
        other => panic!("not deferred for lag: {other:?}\n{report:#?}"),
    }
    assert_eq!(report.steps[0].status, StepStatus::Deferred, "{report:#?}");
    assert_eq!(report.server_ddl_count, Some(0), "{report:#?}");
    // A 15 s budget converges. The lag budget is above the injected 5 s:
    // the primary of a shared pair takes other writes all the time (other
    // tests, a benchmark's heartbeat), so a replica delayed by 5 s is never
    // within a smaller budget of the primary's current position, however
    // long apply waits. The step waits for the fresh write (5 s), runs, and
    // apply waits for the delayed ALTER on the replica (5 s) and reads it
    // back.
    let (progress, seen) = recorder();
    let started = Instant::now();
    let opts = opts_with(&db, 15)
        .on_plan(write_before_the_step(&db))
        .progress(progress)
        .max_replica_lag(Duration::from_secs(8));
    let report = db.apply(&tables, opts).await;
    let elapsed = started.elapsed();
    assert_eq!(report.outcome, Outcome::Converged, "{report:#?}");
    let step = &report.steps[0];
    assert_eq!(step.status, StepStatus::Applied, "{report:#?}");
    assert!(
        step.replicas[0].caught_up_ms.is_some_and(|ms| ms >= 3000),
        "waited for the delayed ALTER: {report:#?}"
    );
    assert!(
        elapsed >= Duration::from_secs(8),
        "waited twice: {elapsed:?}"
    );
    assert_eq!(step.replicas[0].read_back, ReadBack::Exact);
    let seen = seen.lock().unwrap().clone();
    assert!(
        seen.iter()
            .any(|t| t.contains("to execute the step")
                && t.contains(&db.replica_target().host_port())),
        "names the replica it waits for: {seen:#?}"
    );
    assert!(db.index_on_replica("Jobs", "idx_jobs_state_created").await);
}
