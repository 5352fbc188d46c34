//! The library on the caller's pool leaves the caller's sessions as it
//! found them (each flavor): verify, live explain and apply on a pool that
//! does not reset connections (`reset_connection=false`, one connection)
//! give back a connection whose session variables are unchanged, with no
//! advisory lock held. The caller's own values are set first, so a leak of
//! the library's (explain's JSON format version, apply's lock and statement
//! budgets) would show.

use crate::common;

use std::time::Duration;

use common::{catalog_tables, TestDb};
use mysql_async::prelude::*;
use mysql_async::{Conn, Pool, PoolConstraints, PoolOpts};
use schema_catalog::apply::{self, Outcome};
use schema_catalog::db::Session;
use schema_catalog::explain::{self, ExplainOptions};
use schema_catalog::{catalog, db, Flavor};

const TIMEOUT: Duration = Duration::from_secs(20);

/// The session variables the library may set (and a few it must not touch).
const VARIABLES: &[&str] = &[
    "explain_json_format_version",
    "lock_wait_timeout",
    "innodb_lock_wait_timeout",
    "max_execution_time",
    "max_statement_time",
    "sql_mode",
    "autocommit",
    "time_zone",
];

/// Each variable's session value (`<none>` where the server has no such
/// variable), the connection's id, and whether it holds the apply lock.
async fn state(conn: &mut Conn, lock: &str) -> (u32, Vec<String>, Option<u64>) {
    let mut values = Vec::new();
    for v in VARIABLES {
        let read: Result<Option<String>, _> = conn
            .query_first(format!("SELECT CAST(@@SESSION.{v} AS CHAR)"))
            .await;
        values.push(match read {
            Ok(value) => format!("{v}={}", value.unwrap_or_default()),
            Err(mysql_async::Error::Server(e)) if e.code == 1193 => format!("{v}=<none>"),
            Err(e) => panic!("reading {v}: {e}"),
        });
    }
    let held: Option<Option<u64>> = conn
        .exec_first("SELECT IS_USED_LOCK(?)", (lock,))
        .await
        .unwrap();
    let held = held.flatten();
    (conn.id(), values, held)
}

/// The caller's own values, none of them the library's or the server's default.
fn callers_settings(flavor: Flavor) -> &'static str {
    match flavor {
        Flavor::MariaDb => {
            "SET SESSION lock_wait_timeout = 777, innodb_lock_wait_timeout = 55, \
             max_statement_time = 43"
        }
        _ => {
            "SET SESSION lock_wait_timeout = 777, innodb_lock_wait_timeout = 55, \
             max_execution_time = 4321, explain_json_format_version = 2"
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pooled_connection_comes_back_as_it_was_lent() {
    let db = TestDb::new().await;
    let cat = catalog::load(&common::repo_root().join("catalog")).unwrap();
    let target = db::parse_url(&db.url()).unwrap();
    let created = apply::run(
        &target,
        &target.schema,
        &catalog_tables(&cat),
        &Default::default(),
    )
    .await
    .unwrap();
    assert_eq!(created.outcome, Outcome::Converged, "{created:#?}");
    let lock = apply::lock_name(&db.name);

    let opts = mysql_async::OptsBuilder::from_opts(mysql_async::Opts::from_url(&db.url()).unwrap())
        .pool_opts(
            PoolOpts::default()
                .with_constraints(PoolConstraints::new(1, 1).unwrap())
                .with_reset_connection(false),
        );
    let pool = Pool::new(opts);
    let mut conn = pool.get_conn().await.unwrap();
    conn.query_drop(callers_settings(db.flavor)).await.unwrap();
    let before = state(&mut conn, &lock).await;
    drop(conn);

    let v = schema_catalog::verify(
        &pool,
        &cat,
        &schema_catalog::VerifyOptions::default()
            .schema(&db.name)
            .deadline(TIMEOUT),
    )
    .await
    .unwrap();
    assert!(v.ok, "{:#?}", v.problems);
    let mut conn = pool.get_conn().await.unwrap();
    assert_eq!(state(&mut conn, &lock).await, before, "after verify");
    drop(conn);

    let mut session = Session::from_pool(&pool, TIMEOUT).await.unwrap();
    let report = explain::explain_live(&mut session, &cat, &ExplainOptions::default())
        .await
        .unwrap();
    assert_eq!(report.queries.len(), 4, "{}", report.render_human());
    drop(session);
    let mut conn = pool.get_conn().await.unwrap();
    assert_eq!(state(&mut conn, &lock).await, before, "after explain");
    // A lent connection too (the library's `Session::on`).
    let mut session = Session::on(&mut conn, TIMEOUT).await.unwrap();
    explain::explain_live(&mut session, &cat, &ExplainOptions::default())
        .await
        .unwrap();
    drop(session);
    assert_eq!(
        state(&mut conn, &lock).await,
        before,
        "after explain on a lent connection"
    );
    drop(conn);

    // Apply sets its budgets on the session it takes and closes it after
    // the run: the pool opens a fresh connection, with the server's defaults.
    let again = apply::run(&pool, &db.name, &catalog_tables(&cat), &Default::default())
        .await
        .unwrap();
    assert_eq!(again.outcome, Outcome::Converged, "{again:#?}");
    assert!(again.steps.is_empty(), "{:#?}", again.steps);
    let mut fresh = Conn::new(mysql_async::Opts::from_url(&db.url()).unwrap())
        .await
        .unwrap();
    let (_, defaults, _) = state(&mut fresh, &lock).await;
    fresh.disconnect().await.unwrap();
    let mut conn = pool.get_conn().await.unwrap();
    let (id, values, held) = state(&mut conn, &lock).await;
    assert_eq!(held, None, "the apply lock is released");
    if id == before.0 {
        assert_eq!(values, before.1, "after apply, the caller's connection");
    } else {
        assert_eq!(values, defaults, "after apply, a new connection");
    }
    drop(conn);
    pool.disconnect().await.unwrap();
}
