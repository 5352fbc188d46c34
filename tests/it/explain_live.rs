//! `catalog explain` on a real server (the suite runs once per server via
//! scripts/test): the four historical cases under fixtures/explain fail for
//! their reason while their corrected forms pass; the shipped catalog's
//! queries pass on a scratch schema; the scratch schema is dropped; live
//! mode reads only.

use crate::common;

use std::path::Path;

use common::TestDb;
use mysql_async::prelude::*;
use schema_catalog::explain::FailureKind;
use schema_catalog::explain::{self, ExplainOptions, ExplainReport, Mode};
use schema_catalog::{catalog, db, Flavor};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

async fn scratch(dir: &str) -> ExplainReport {
    let catalog = catalog::load(&root().join(dir)).unwrap();
    let server = db::parse_server_url(&common::server_url()).unwrap();
    let report = explain::explain_scratch(&server, &catalog, &ExplainOptions::default())
        .await
        .unwrap_or_else(|e| panic!("{dir}: {e}"));
    assert_eq!(report.mode, Mode::Scratch);
    assert_scratch_dropped(report.scratch_schema.as_deref().expect("scratch name")).await;
    report
}

async fn assert_scratch_dropped(name: &str) {
    let pool = mysql_async::Pool::new(common::server_url().as_str());
    let mut conn = pool.get_conn().await.expect("connect");
    let left: Option<String> = conn
        .exec_first(
            "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?",
            (name,),
        )
        .await
        .unwrap();
    assert_eq!(left, None, "scratch schema {name} was not dropped");
    drop(conn);
    pool.disconnect().await.ok();
}

fn result<'a>(report: &'a ExplainReport, query: &str) -> &'a explain::QueryResult {
    report
        .queries
        .iter()
        .find(|q| q.query == query)
        .unwrap_or_else(|| panic!("no query {query}"))
}

/// Runs one historical case: `historical` fails with `kind` (per flavor),
/// `corrected` passes; each failure carries a plan excerpt.
async fn case(dir: &str, historical: &str, corrected: &str, kind: fn(Flavor) -> FailureKind) {
    let report = scratch(dir).await;
    let rendered = report.render_human();
    assert!(!report.ok, "{dir}:\n{rendered}");
    let bad = result(&report, historical);
    let want = kind(report.flavor);
    assert!(!bad.ok, "{dir}:\n{rendered}");
    assert_eq!(bad.failures[0].kind, want, "{dir}:\n{rendered}");
    assert!(bad.failures.iter().all(|f| !f.excerpt.is_empty()));
    let good = result(&report, corrected);
    assert!(good.ok, "{dir}:\n{rendered}");
    assert!(good.failures.is_empty());
    assert!(
        rendered.contains(&format!("FAIL {}.{historical}", bad.table))
            && rendered.contains("plan: "),
        "{rendered}"
    );
}

#[tokio::test]
async fn binary_cast_is_a_full_index_scan_plain_equality_a_point_read() {
    case(
        "fixtures/explain/binary-key",
        "historical_binary_cast",
        "corrected_plain_equality",
        |_| FailureKind::FullIndexScan,
    )
    .await;
}

#[tokio::test]
async fn expires_only_aggregate_skips_the_leading_state() {
    // MariaDB scans the whole index; MySQL skip-scans it.
    case(
        "fixtures/explain/lifecycle-aggregate",
        "historical_expires_only",
        "corrected_state_and_expires",
        |f| match f {
            Flavor::MySql => FailureKind::SkipScan,
            _ => FailureKind::FullIndexScan,
        },
    )
    .await;
}

#[tokio::test]
async fn or_over_lanes_fails_union_all_passes() {
    // MariaDB merges the two lane indexes; MySQL scans the primary key.
    case(
        "fixtures/explain/lane-or",
        "historical_or_lanes",
        "corrected_union_all",
        |f| match f {
            Flavor::MySql => FailureKind::FullIndexScan,
            _ => FailureKind::IndexMerge,
        },
    )
    .await;
    let report = scratch("fixtures/explain/lane-or").await;
    let good = result(&report, "corrected_union_all");
    let indexes: Vec<&str> = good
        .accesses
        .iter()
        .filter_map(|a| a.index.as_deref())
        .collect();
    assert_eq!(
        indexes,
        ["idx_work_item_target_lane", "idx_work_item_source_lane"]
    );
    assert_eq!(good.rows_examined, Some(200.0), "{}", report.render_human());
}

#[tokio::test]
async fn a_plan_that_reads_nothing_is_not_proof() {
    case(
        "fixtures/explain/constant-plan",
        "historical_contradiction",
        "corrected_state_and_sync",
        |_| FailureKind::NotProof,
    )
    .await;
    let report = scratch("fixtures/explain/constant-plan").await;
    let bad = result(&report, "historical_contradiction");
    assert!(bad.accesses.is_empty());
    assert_eq!(bad.messages, ["Impossible WHERE"]);
}

#[tokio::test]
async fn shipped_catalog_queries_pass_on_a_scratch_schema() {
    let report = scratch("catalog").await;
    assert!(report.ok, "{}", report.render_human());
    let mut names: Vec<&str> = report.queries.iter().map(|q| q.query.as_str()).collect();
    names.sort();
    assert_eq!(
        names,
        [
            "claim_next",
            "lifecycle_page",
            "reconcile_page",
            "wake_dependents"
        ]
    );
    let claim = result(&report, "claim_next");
    assert_eq!(claim.rows_examined, Some(1.0), "{}", report.render_human());
    assert_eq!(claim.bound, Some(10));
}

#[tokio::test]
async fn live_mode_reads_only_and_never_runs_an_update() {
    let test = TestDb::new().await;
    let catalog = catalog::load(&root().join("catalog")).unwrap();
    let target = db::parse_url(&test.url()).unwrap();
    let tables: Vec<_> = catalog.tables.iter().map(|t| t.table.clone()).collect();
    let applied =
        schema_catalog::apply::apply(&target, &target.schema, &tables, &Default::default())
            .await
            .unwrap();
    assert!(matches!(
        applied.outcome,
        schema_catalog::apply::Outcome::Converged
    ));
    // Rows the wake UPDATE would change if it ran.
    test.exec(&[
        "INSERT INTO _System_IntegrationOutboundCommand (CommandKey, IntegrationKey, ExecutionScopeDigest, CommandKind, State, DependencyKey, Payload, WaitingSince, Attempts, AvailableAt) \
         VALUES ('c1', 'i', REPEAT('a', 64), 'k', 'waiting', 'order:4711', '{}', '2025-01-01', 0, '2025-01-01'), \
                ('c2', 'i', REPEAT('a', 64), 'k', 'waiting', 'order:4711', '{}', '2025-01-02', 0, '2025-01-02')",
    ])
    .await;
    let cols = [
        "Id",
        "CommandKey",
        "State",
        "DependencyKey",
        "WaitingSince",
        "AvailableAt",
    ];
    let before = test
        .checksum("_System_IntegrationOutboundCommand", &cols)
        .await;
    let mut session = db::connect(&target, std::time::Duration::from_secs(10))
        .await
        .unwrap();
    let opts = ExplainOptions::default().analyze(true);
    let report = explain::explain_live(&mut session, &catalog, &opts)
        .await
        .unwrap();
    session.disconnect().await.unwrap();
    assert_eq!(report.mode, Mode::Live);
    assert_eq!(report.queries.len(), 4);
    let wake = result(&report, "wake_dependents");
    assert_eq!(
        wake.plan_statement, "EXPLAIN FORMAT=JSON",
        "an UPDATE is only explained"
    );
    assert_eq!(wake.rows_examined, None);
    let page = result(&report, "reconcile_page");
    assert_ne!(
        page.plan_statement, "EXPLAIN FORMAT=JSON",
        "--analyze runs SELECTs"
    );
    let after = test
        .checksum("_System_IntegrationOutboundCommand", &cols)
        .await;
    assert_eq!(before, after, "live explain changed rows");
    assert_eq!(before.0, 2);
}

#[tokio::test]
async fn the_scratch_schema_is_dropped_when_a_run_fails() {
    // A declared example value the server refuses (not an integer) makes the
    // fixture insert fail after the scratch schema exists.
    let dir = common::catalog_dir(&[(
        "t.yaml",
        "table: T\ncolumns:\n  - {name: Id, type: bigint unsigned, nullable: false, auto_increment: true}\n  - {name: N, type: int, nullable: false}\nprimary_key: [Id]\nindexes:\n  - {name: idx_n, columns: [N]}\nqueries:\n  - name: q\n    sql: SELECT Id FROM T WHERE N = ?\n    params: [1]\n    uses: idx_n\n    fixture: {values: {N: not-a-number}}\n",
    )]);
    let catalog = catalog::load(dir.path()).unwrap();
    let server = db::parse_server_url(&common::server_url()).unwrap();
    let err = explain::explain_scratch(&server, &catalog, &ExplainOptions::default())
        .await
        .unwrap_err()
        .to_string();
    let name = err
        .split("scratch schema ")
        .nth(1)
        .and_then(|rest| rest.split(',').next())
        .unwrap_or_else(|| panic!("error does not name the scratch schema: {err}"));
    assert!(err.contains(", dropped)"), "{err}");
    assert_scratch_dropped(name).await;
}
