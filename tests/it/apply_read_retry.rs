//! Apply on a busy server: a read the server itself ends at its statement
//! time limit (the read budget apply sets on its session) is tried again
//! within the busy budget instead of ending the run, since reads are
//! idempotent and a statement the server ended leaves the connection
//! clean. The busy server is a relay that answers chosen executions with
//! the server's own statement-time-limit error (tests/it/common/fault.rs);
//! everything else runs on the real server.

use crate::common;

use std::time::Duration;

use common::fault::FaultProxy;
use common::{
    apply_tables_at, assert_idle, catalog_tables, shipped_catalog, verify_schema, TestDb,
};
use schema_catalog::apply::{ApplyOptions, Outcome};

/// Every inspection read names information_schema; nothing else on the
/// lock session does.
const INSPECTION: &str = "information_schema";

#[tokio::test(flavor = "multi_thread")]
async fn reads_the_server_cut_short_are_tried_again_and_the_run_converges() {
    let db = TestDb::new().await;
    let cat = shipped_catalog();
    let tables = catalog_tables(&cat);
    // The preflight read is cut twice, then answered.
    let proxy = FaultProxy::start(common::host_port(), db.flavor, INSPECTION, 2).await;
    let report = apply_tables_at(&db.url_at_port(proxy.port), &tables).await;
    assert_eq!(report.outcome, Outcome::Converged, "{report:#?}");
    assert_eq!(
        proxy.faults.answered(),
        2,
        "both cut reads were tried again"
    );
    assert_eq!(
        report.read_retries, 2,
        "the report counts the retried reads"
    );
    assert_eq!(report.steps.len(), tables.len(), "{:#?}", report.steps);
    // Read back on the server directly: every table is there, exact.
    let verify = verify_schema(&db, &cat).await;
    assert!(verify.ok, "{:#?}", verify.problems);
    assert_idle(&db, &tables).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn reads_cut_past_the_busy_budget_end_the_run_before_any_ddl() {
    let db = TestDb::new().await;
    let tables = catalog_tables(&shipped_catalog());
    let proxy = FaultProxy::start(common::host_port(), db.flavor, INSPECTION, u32::MAX).await;
    let url = db.url_at_port(proxy.port);
    let target = schema_catalog::db::parse_url(&url).expect("test URL parses");
    let opts = ApplyOptions::default()
        .lock_timeout(Duration::from_secs(20))
        .read_timeout(Duration::from_secs(20))
        .busy_timeout(Duration::from_secs(1));
    let err = schema_catalog::apply::apply(&target, &target.schema, &tables, &opts)
        .await
        .expect_err("every read is cut short");
    let text = err.to_string();
    assert!(
        text.contains("within the busy budget of 1 s"),
        "the error says the read was retried within the budget: {text}"
    );
    assert!(
        text.contains("max_statement_time") || text.contains("maximum statement execution time"),
        "the error keeps the server's message: {text}"
    );
    let tries = proxy.faults.answered();
    assert!(tries >= 2, "tried again before giving up: {tries}");
    assert!(db.snapshot().await.is_empty(), "no DDL was issued");
}

#[tokio::test(flavor = "multi_thread")]
async fn verify_does_not_retry_a_read_the_server_cut_short() {
    // The startup gate has one deadline and one bounded read: no retry.
    let db = TestDb::new().await;
    let cat = shipped_catalog();
    let proxy = FaultProxy::start(common::host_port(), db.flavor, INSPECTION, 1).await;
    let target = schema_catalog::db::parse_url(&db.url_at_port(proxy.port)).expect("URL parses");
    let mut session = schema_catalog::db::connect(&target, Duration::from_secs(20))
        .await
        .expect("connect");
    let err = schema_catalog::verify::verify(&mut session, &target.schema, &cat, None)
        .await
        .expect_err("the cut read is the gate's answer");
    assert!(
        err.to_string().contains("max_statement_time")
            || err.to_string().contains("maximum statement execution time"),
        "{err}"
    );
    assert_eq!(proxy.faults.answered(), 1);
}
