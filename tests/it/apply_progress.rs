//! Progress of a long step is read from the server while the DDL runs and
//! reaches the callback: Started, server readings, Finished, in that order.

use crate::common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::TestDb;
use schema_catalog::apply::{self, ApplyOptions, Outcome, Progress, ProgressEvent, StepStatus};
use schema_catalog::{db, Column, ColumnType, Index, IndexPart, Table};

fn jobs() -> Table {
    let mut id = Column::new("Id", ColumnType::parse("bigint unsigned").unwrap());
    id.nullable = false;
    id.auto_increment = true;
    let mut state = Column::new("State", ColumnType::Varchar(32));
    state.nullable = false;
    state.charset = Some("utf8mb4".into());
    state.collation = Some("utf8mb4_bin".into());
    let mut at = Column::new("CreatedAt", ColumnType::DateTime(6));
    at.nullable = false;
    Table {
        name: "Jobs".into(),
        kind: schema_catalog::TableKind::Base,
        comment: None,
        engine: Some("InnoDB".into()),
        row_format: None,
        charset: "utf8mb4".into(),
        collation: "utf8mb4_bin".into(),
        columns: vec![id, state, at],
        primary_key: vec![IndexPart::column("Id")],
        indexes: vec![Index::new(
            "idx_jobs_state_created",
            false,
            &["State", "CreatedAt", "Id"],
        )],
        checks: vec![],
        foreign_keys: Vec::new(),
        tidb: None,
    }
}

/// Applies [`jobs`] (one ADD INDEX step) with a 20 ms progress watcher:
/// the report and every progress event, in order.
async fn add_index_watched(db: &TestDb) -> (apply::ApplyReport, Vec<Progress>) {
    let events: Arc<Mutex<Vec<Progress>>> = Arc::default();
    let sink = events.clone();
    let opts = ApplyOptions::default()
        .progress(Arc::new(move |p: &Progress| {
            sink.lock().unwrap().push(p.clone())
        }))
        .progress_interval(Duration::from_millis(20));
    let target = db::parse_url(&db.url()).unwrap();
    let report = apply::run(&target, &target.schema, &[jobs()], &opts)
        .await
        .unwrap();
    let events = events.lock().unwrap().clone();
    (report, events)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_add_index_reports_progress_from_the_server() {
    let db = TestDb::new().await;
    common::enable_stage_progress(&db).await;
    common::unindexed_jobs(&db).await;
    // A reading needs the build to outlast the watcher's first poll; on a
    // busy machine a 262,144-row build can end before it. So the table
    // doubles until a build takes 2 s: a build that long without a reading
    // is the failure.
    let mut rows = 262_144u64;
    let (report, events) = loop {
        let (report, events) = add_index_watched(&db).await;
        let kinds: Vec<&ProgressEvent> = events.iter().map(|p| &p.event).collect();
        if kinds.len() > 2 {
            break (report, events);
        }
        let ms = report.steps[0].ms;
        assert!(
            ms < 2_000,
            "no server reading during a {ms} ms ADD INDEX of {rows} rows: {kinds:?}"
        );
        eprintln!("{rows} rows built in {ms} ms before a reading; doubling");
        db.exec(&["ALTER TABLE `Jobs` DROP INDEX `idx_jobs_state_created`"])
            .await;
        common::double_jobs(&db, 1).await;
        rows *= 2;
    };
    assert_eq!(report.outcome, Outcome::Converged);
    assert_eq!(report.steps.len(), 1);
    let kinds: Vec<&ProgressEvent> = events.iter().map(|p| &p.event).collect();
    assert!(
        matches!(kinds.first(), Some(ProgressEvent::Started)),
        "{kinds:?}"
    );
    assert!(
        matches!(
            kinds.last(),
            Some(ProgressEvent::Finished(StepStatus::Applied))
        ),
        "{kinds:?}"
    );
    let readings = &kinds[1..kinds.len() - 1];
    assert!(
        readings
            .iter()
            .all(|e| matches!(e, ProgressEvent::Stage(_) | ProgressEvent::Percent(_))),
        "{kinds:?}"
    );
    assert!(events
        .iter()
        .all(|p| p.step == 1 && p.steps == 1 && p.object == "idx_jobs_state_created"));
    eprintln!("{}: {readings:?}", db.flavor);
    if db.flavor == schema_catalog::Flavor::MySql {
        // performance_schema stage work counters: a real percent.
        assert!(
            readings
                .iter()
                .any(|e| matches!(e, ProgressEvent::Percent(p) if (0.0..=100.0).contains(p))),
            "MySQL reports stage progress as a percent: {readings:?}"
        );
    }
}
