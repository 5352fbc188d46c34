//! The startup gate as a library: verify and plan on the caller's pool or
//! connection (owned or lent) with the caller's deadline, and errors a
//! service can match. Against the real test server (MariaDB or MySQL via
//! `CATALOG_TEST_DATABASE_URL`).

use crate::common;

use std::error::Error as _;
use std::time::{Duration, Instant};

use common::TestDb;
use mysql_async::prelude::*;
use schema_catalog::apply::{self, ApplyOptions, ApplyReport};
use schema_catalog::catalog::{self, Catalog};
use schema_catalog::db::{self, Session};
use schema_catalog::diff::ProblemKind;
use schema_catalog::live::plan_within;
use schema_catalog::verify::VerifyReport;
use schema_catalog::Error;

const DEADLINE: Duration = Duration::from_secs(10);

fn shipped() -> Catalog {
    common::shipped_catalog()
}

/// The shipped catalog's tables, exactly, except `_System_WorkItem`.
async fn all_but_work_item(db: &TestDb) -> Catalog {
    common::shipped_tables_except(db, "_System_WorkItem").await
}

fn missing_work_item(r: &VerifyReport) {
    assert!(!r.ok);
    let got: Vec<(&str, ProblemKind)> = r
        .problems
        .iter()
        .map(|p| (p.table.as_str(), p.kind))
        .collect();
    assert_eq!(got, [("_System_WorkItem", ProblemKind::MissingTable)]);
}

/// The run converged by creating `_System_WorkItem`, and only that.
fn created_work_item(report: &ApplyReport) {
    assert!(report.converged(), "{report:?}");
    let created: Vec<String> = report
        .steps
        .iter()
        .map(|s| format!("{} {}", s.kind, s.table))
        .collect();
    assert_eq!(created, ["create_table _System_WorkItem"]);
}

#[tokio::test]
async fn verify_runs_on_a_pool_a_lent_conn_an_owned_conn_and_a_target() {
    let db = TestDb::new().await;
    let cat = all_but_work_item(&db).await;
    let schema = db.name.as_str();

    let on_pool = schema_catalog::verify(
        &db.pool,
        &cat,
        &schema_catalog::VerifyOptions::default()
            .schema(schema)
            .deadline(DEADLINE),
    )
    .await
    .unwrap();
    missing_work_item(&on_pool);

    let mut conn = db.pool.get_conn().await.unwrap();
    conn.query_drop("SET @caller_state = 42").await.unwrap();
    let on_lent = schema_catalog::verify(
        &mut conn,
        &cat,
        &schema_catalog::VerifyOptions::default()
            .schema(schema)
            .deadline(DEADLINE),
    )
    .await
    .unwrap();
    // The caller's connection is still theirs, session state intact.
    let state: Option<i64> = conn.query_first("SELECT @caller_state").await.unwrap();
    assert_eq!(state, Some(42));

    let on_owned = schema_catalog::verify(
        conn,
        &cat,
        &schema_catalog::VerifyOptions::default()
            .schema(schema)
            .deadline(DEADLINE),
    )
    .await
    .unwrap();
    let target = db::parse_url(&db.url()).unwrap();
    let on_target = schema_catalog::verify(
        &target,
        &cat,
        &schema_catalog::VerifyOptions::default()
            .schema(schema)
            .deadline(DEADLINE),
    )
    .await
    .unwrap();
    assert_eq!(on_pool, on_lent);
    assert_eq!(on_pool, on_owned);
    assert_eq!(on_pool, on_target);

    let err = on_pool.into_result().unwrap_err();
    let Error::Drift { problems } = &err else {
        panic!("not Drift: {err:?}");
    };
    assert_eq!(problems, &on_target.problems);
    assert_eq!(problems.len(), 1);
}

#[tokio::test]
async fn plan_runs_on_the_callers_pool() {
    let db = TestDb::new().await;
    let cat = all_but_work_item(&db).await;
    let tables: Vec<_> = cat.tables.iter().map(|t| t.table.clone()).collect();
    let plan = plan_within(&db.pool, &db.name, &tables, &cat.widens(), DEADLINE)
        .await
        .unwrap();
    assert!(!plan.is_refused());
    let kinds: Vec<String> = plan
        .steps
        .iter()
        .map(|s| format!("{} {}", s.change.kind(), s.change.table()))
        .collect();
    assert_eq!(kinds, ["create_table _System_WorkItem"]);
    let snapshot = db.snapshot().await;
    assert_eq!(snapshot.len(), cat.tables.len() - 1, "plan created nothing");
}

#[tokio::test]
async fn apply_runs_on_the_callers_pool() {
    // A single connection cannot hold the lock session and the side
    // connection: apply does not take one (a compile error, the
    // `compile_fail` examples on `schema_catalog::Connector` and `schema_catalog::apply`).
    let db = TestDb::new().await;
    let cat = all_but_work_item(&db).await;
    let tables: Vec<_> = cat.tables.iter().map(|t| t.table.clone()).collect();
    let report = apply::run(&db.pool, &db.name, &tables, &ApplyOptions::default())
        .await
        .unwrap();
    created_work_item(&report);
    assert_eq!(db.snapshot().await.len(), cat.tables.len());
    let after = schema_catalog::verify(
        &db.pool,
        &cat,
        &schema_catalog::VerifyOptions::default()
            .schema(&db.name)
            .deadline(DEADLINE),
    )
    .await
    .unwrap();
    assert!(after.ok, "{after:?}");
}

#[tokio::test]
async fn the_gate_takes_its_schema_from_the_pools_url() {
    // `schema_catalog::verify` / `apply` as a service calls them: no schema
    // argument, the database the pool's URL names is the one read and changed.
    let db = TestDb::new().await;
    let cat = all_but_work_item(&db).await;
    let before = schema_catalog::verify(
        &db.pool,
        &cat,
        &schema_catalog::VerifyOptions::default().deadline(DEADLINE),
    )
    .await
    .unwrap();
    missing_work_item(&before);
    let report = schema_catalog::apply(&db.pool, &cat, &ApplyOptions::default())
        .await
        .unwrap();
    created_work_item(&report);
    let after = schema_catalog::verify(
        &db.pool,
        &cat,
        &schema_catalog::VerifyOptions::default().deadline(DEADLINE),
    )
    .await
    .unwrap();
    assert!(after.ok, "{after:?}");

    // A pool whose URL names no database: a usage error saying so, for
    // verify and apply alike, and nothing created anywhere.
    let bare = mysql_async::Pool::new(common::server_url().as_str());
    let verified = schema_catalog::verify(
        &bare,
        &cat,
        &schema_catalog::VerifyOptions::default().deadline(DEADLINE),
    )
    .await;
    let applied = schema_catalog::apply(&bare, &cat, &ApplyOptions::default()).await;
    for err in [verified.unwrap_err(), applied.unwrap_err()] {
        assert!(matches!(err, Error::Usage(_)), "{err:?}");
        assert!(err.to_string().contains("names no database"), "{err}");
    }
    bare.disconnect().await.unwrap();
    assert_eq!(db.snapshot().await.len(), cat.tables.len());
}

/// A listener that accepts TCP connections and never answers.
fn silent_server() -> (std::net::TcpListener, String) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    (
        listener,
        format!("mysql://root:pw123456@127.0.0.1:{port}/x"),
    )
}

#[tokio::test]
async fn the_callers_deadline_bounds_the_whole_gate() {
    let (listener, url) = silent_server();
    let cat = shipped();
    let pool = mysql_async::Pool::new(url.as_str());
    let deadline = Duration::from_millis(300);
    let started = Instant::now();
    let err = schema_catalog::verify(
        &pool,
        &cat,
        &schema_catalog::VerifyOptions::default()
            .schema("x")
            .deadline(deadline),
    )
    .await
    .unwrap_err();
    let took = started.elapsed();
    assert!(matches!(err, Error::Timeout { .. }), "{err:?}");
    assert!(took < Duration::from_secs(3), "{took:?}");
    let target = db::parse_url(&url).unwrap();
    let err = plan_within(&target, "x", &[], &Default::default(), deadline)
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Timeout { .. }), "{err:?}");
    // The connect inside it or the gate as a whole: either names the deadline.
    assert!(
        err.to_string().ends_with("did not finish within 1 s"),
        "{err}"
    );
    drop(listener);
    drop(pool);
}

#[tokio::test]
async fn driver_errors_are_sources_and_server_codes_are_kept() {
    let db = TestDb::new().await;
    let mut s = Session::from_pool(&db.pool, DEADLINE).await.unwrap();
    let err = s
        .run("running a typo", |c| c.query_drop("SELEKT 1"))
        .await
        .unwrap_err();
    let Error::Database { code, context, .. } = &err else {
        panic!("not Database: {err:?}");
    };
    assert_eq!((*code, context.as_str()), (Some(1064), "running a typo"));
    let source = err.source().expect("the driver error is the source");
    assert!(source.downcast_ref::<mysql_async::Error>().is_some());

    let target = db::parse_url("mysql://root:pw123456@127.0.0.1:1/x").unwrap();
    let err = schema_catalog::verify(
        &target,
        &shipped(),
        &schema_catalog::VerifyOptions::default()
            .schema("x")
            .deadline(DEADLINE),
    )
    .await
    .unwrap_err();
    assert!(matches!(err, Error::Connect { .. }), "{err:?}");
    assert!(err.source().is_some(), "{err:?}");
    assert!(!err.to_string().contains("pw123456"));
}

#[test]
fn library_messages_give_no_command_line_advice() {
    let errors = [
        Error::Timeout {
            what: "verify".into(),
            seconds: 5,
        },
        Error::LockHeld {
            name: "l".into(),
            seconds: 1,
        },
        Error::Unsupported {
            table: "t".into(),
            object: "column `c`".into(),
            reason: "enum".into(),
        },
        catalog::check_files("embedded", &[]).catalog.map_or_else(
            || catalog::from_files("embedded", &[]).unwrap_err(),
            |_| unreachable!("an empty catalog is invalid"),
        ),
    ];
    for e in errors {
        let text = e.to_string();
        assert!(
            !text.contains("--") && !text.contains("catalog check"),
            "{text}"
        );
    }
}
