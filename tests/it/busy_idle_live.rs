//! A session idle in a transaction that read the table is a blocker
//! whatever its age (docs/apply.md "Looks before it queues"): it will not
//! let go on its own, so apply must not send the ALTER behind it. On a
//! replica nothing bounds the replayed ALTER's metadata-lock wait (the
//! applier's `lock_wait_timeout` is the server default), so a holder the
//! look misses there queues the replica's reads for the holder's whole
//! life; on MariaDB without METADATA_LOCK_INFO the look went by the
//! transaction's age only and missed a holder younger than 1 s.

use crate::common;

use std::time::Duration;

use common::TestDb;
use mysql_async::prelude::*;
use schema_catalog::apply::{self, ApplyOptions, Outcome};
use schema_catalog::catalog;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_young_idle_transaction_that_read_the_table_is_seen_before_any_ddl() {
    let db = TestDb::new().await;
    common::small_unindexed_jobs(&db).await;
    let dir = common::catalog_dir(&[("jobs.yaml", common::UNINDEXED_JOBS_CATALOG)]);
    let tables = common::catalog_tables(&catalog::load(dir.path()).unwrap());
    // Idle in its transaction from this moment: younger than the blocker
    // age (1 s, whole seconds on the server) when apply first looks. It
    // starts early in a server second, so that an age-only look within the
    // same second (apply looks well within it) reads 0 s and misses it.
    // A monitor reading INNODB_TRX every 150 ms all along (as monitoring
    // agents do): InnoDB then serves the look a snapshot up to 0.1 s old,
    // which may predate the holder; the look dates it by its own
    // transaction (docs/apply.md, "Looks before it queues"). (A monitor
    // reading more often than every 0.1 s keeps the buffer from refreshing
    // at all: nothing can see the holder then.)
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let monitor = {
        let (pool, stop) = (db.pool.clone(), stop.clone());
        tokio::spawn(async move {
            let mut c = pool.get_conn().await.unwrap();
            let mut reads = 0u64;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let _: Option<u64> = c
                    .query_first("SELECT COUNT(*) FROM information_schema.INNODB_TRX")
                    .await
                    .unwrap();
                reads += 1;
                // A monitor's pace, not a wait for a condition.
                tokio::time::sleep(Duration::from_millis(150)).await;
            }
            reads
        })
    };
    let mut holder = db.pool.get_conn().await.unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let us: Option<u32> = holder
            .query_first("SELECT MICROSECOND(NOW(6))")
            .await
            .unwrap();
        if us.is_some_and(|us| us < 100_000) {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no new server second in 10 s"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    holder.query_drop("BEGIN").await.unwrap();
    let _: Option<u64> = holder
        .query_first("SELECT COUNT(*) FROM Jobs")
        .await
        .unwrap();
    let id = u64::from(holder.id());
    let opts = ApplyOptions::default()
        .lock_wait(Duration::from_secs(1))
        .busy_timeout(Duration::from_secs(3))
        .blocker_age(Duration::from_secs(1))
        .read_timeout(Duration::from_secs(20));
    let target = schema_catalog::db::parse_url(&db.url()).unwrap();
    let report = apply::run(&target, &db.name, &tables, &opts)
        .await
        .expect("apply runs");
    match &report.outcome {
        Outcome::Deferred { blockers, .. } => assert!(
            blockers.iter().any(|b| b.connection_id == id),
            "names the holder {id}: {report:#?}"
        ),
        other => panic!("not deferred: {other:?}\n{report:#?}"),
    }
    // Seen at the first look: no ALTER was sent (a missed holder makes the
    // first ALTER wait out --lock-wait and fail with 1205, which counts).
    assert_eq!(report.server_ddl_count, Some(0), "{report:#?}");
    holder.query_drop("COMMIT").await.unwrap();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    assert!(monitor.await.unwrap() > 0, "the monitor read INNODB_TRX");
}
