//! Applying a catalog to a test schema and what the run must have done:
//! converged (and then idle), reproduced a source schema's physical shape
//! on an empty one, or refused as drift without touching anything. One copy
//! of each check for every live test file.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use mysql_async::prelude::*;
use schema_catalog::apply::{ApplyReport, Outcome, Progress, ProgressEvent, ProgressFn};
use schema_catalog::catalog::Catalog;
use schema_catalog::diff::{Problem, ProblemKind};
use schema_catalog::model::Widens;
use schema_catalog::verify::VerifyReport;
use schema_catalog::Table;

use super::{catalog_tables, TestDb};

/// What apply is given: a catalog's tables and their widening opt-ins
/// (the catalog's policy, [`Catalog::widens`]). From tables alone: none.
#[derive(Clone)]
pub struct Wanted<'a> {
    pub tables: &'a [Table],
    pub widens: Widens,
}

impl<'a> From<&'a [Table]> for Wanted<'a> {
    fn from(tables: &'a [Table]) -> Self {
        Wanted {
            tables,
            widens: Widens::none(),
        }
    }
}

impl<'a> From<&'a Vec<Table>> for Wanted<'a> {
    fn from(tables: &'a Vec<Table>) -> Self {
        tables.as_slice().into()
    }
}

impl<'a, const N: usize> From<&'a [Table; N]> for Wanted<'a> {
    fn from(tables: &'a [Table; N]) -> Self {
        tables.as_slice().into()
    }
}

impl<'a> From<(&'a Vec<Table>, Widens)> for Wanted<'a> {
    fn from((tables, widens): (&'a Vec<Table>, Widens)) -> Self {
        Wanted { tables, widens }
    }
}

/// Applies `tables` to the test schema with 20-second lock and read
/// budgets; panics on a database error (the outcome is the caller's).
pub async fn apply_tables<'a>(db: &TestDb, tables: impl Into<Wanted<'a>>) -> ApplyReport {
    apply_tables_at(&db.url(), tables).await
}

/// [`apply_tables`] through the database URL `url` (a proxy in front of
/// the test server, say).
pub async fn apply_tables_at<'a>(url: &str, tables: impl Into<Wanted<'a>>) -> ApplyReport {
    let Wanted { tables, widens } = tables.into();
    let budget = std::time::Duration::from_secs(20);
    let opts = schema_catalog::apply::ApplyOptions::default()
        .lock_timeout(budget)
        .read_timeout(budget)
        .widens(widens);
    let target = schema_catalog::db::parse_url(url).expect("test URL parses");
    schema_catalog::apply::run(&target, &target.schema, tables, &opts)
        .await
        .expect("apply runs")
}

/// [`apply_tables`], which must converge; returns the report.
pub async fn apply_converged<'a>(db: &TestDb, tables: impl Into<Wanted<'a>>) -> ApplyReport {
    let report = apply_tables(db, tables).await;
    assert_eq!(report.outcome, Outcome::Converged, "{report:#?}");
    report
}

/// A second apply of `tables` is a no-op: it converges with no step and
/// no DDL. Returns its report.
pub async fn assert_idle<'a>(db: &TestDb, tables: impl Into<Wanted<'a>>) -> ApplyReport {
    let again = apply_converged(db, tables).await;
    assert!(
        again.steps.is_empty(),
        "second apply is a no-op: {:#?}",
        again.steps
    );
    assert_eq!(again.server_ddl_count, Some(0), "{again:#?}");
    again
}

/// Verify's report of `cat` against the test schema.
pub async fn verify_schema(db: &TestDb, cat: &Catalog) -> VerifyReport {
    let target = schema_catalog::db::parse_url(&db.url()).expect("test URL parses");
    let mut s = schema_catalog::db::connect(&target, std::time::Duration::from_secs(20))
        .await
        .expect("connect");
    schema_catalog::verify(
        &mut s,
        cat,
        &schema_catalog::VerifyOptions::default().schema(&db.name),
    )
    .await
    .expect("verify runs")
}

/// Verify of `cat` fails naming `kind` on `object`.
pub async fn assert_verify_fails(db: &TestDb, cat: &Catalog, object: &str, kind: ProblemKind) {
    let v = verify_schema(db, cat).await;
    assert!(!v.ok, "verify passed a drifted schema");
    assert!(
        v.problems
            .iter()
            .any(|p| p.object == object && p.kind == kind),
        "{:#?}",
        v.problems
    );
}

/// The schema holds `cat` exactly: verify passes, and a second apply is a
/// no-op ([`assert_idle`]). Returns the second apply's report.
pub async fn assert_verified_and_idle(db: &TestDb, cat: &Catalog) -> ApplyReport {
    let v = verify_schema(db, cat).await;
    assert!(v.ok, "{:#?}", v.problems);
    assert_idle(db, (&catalog_tables(cat), cat.widens())).await
}

/// Greenfield: `tables` (rendered from a catalog read off `source`)
/// applied to a new, empty schema converge, that schema then has
/// `source`'s physical shape ([`TestDb::physical`]), and a second apply is
/// a no-op. Returns the new schema.
pub async fn assert_greenfield(source: &TestDb, tables: &[Table]) -> TestDb {
    let empty = TestDb::new().await;
    apply_converged(&empty, tables).await;
    assert_eq!(
        empty.physical().await,
        source.physical().await,
        "the empty schema after apply has the source's physical shape"
    );
    assert_idle(&empty, tables).await;
    empty
}

/// Applies `tables` to a schema that has drifted from them and requires a
/// refusal that changed nothing: outcome `RefusedDrift`, no step, no DDL
/// by the server's count, every table's SHOW CREATE TABLE as before and
/// the rows of each `(table, columns)` in `rows` checksummed unchanged.
/// Returns the report, for the caller's problem checks ([`drift_on`],
/// [`assert_drift`]).
pub async fn assert_apply_refused<'a>(
    db: &TestDb,
    tables: impl Into<Wanted<'a>>,
    rows: &[(&str, &[&str])],
) -> ApplyReport {
    let before = db.snapshot().await;
    let mut sums = Vec::with_capacity(rows.len());
    for (table, columns) in rows {
        sums.push(db.checksum(table, columns).await);
    }
    let report = apply_tables(db, tables).await;
    assert_eq!(report.outcome, Outcome::RefusedDrift, "{report:#?}");
    assert!(report.steps.is_empty(), "{:#?}", report.steps);
    assert_eq!(report.server_ddl_count, Some(0), "the run issued DDL");
    assert_eq!(db.snapshot().await, before, "a refused run changed a table");
    for ((table, columns), sum) in rows.iter().zip(sums) {
        assert_eq!(
            db.checksum(table, columns).await,
            sum,
            "a refused run changed the rows of {table}"
        );
    }
    report
}

/// The first drift problem the report names on `object`; panics with the
/// report's drift list when there is none.
pub fn drift_on<'r>(report: &'r ApplyReport, object: &str) -> &'r Problem {
    report
        .drift
        .iter()
        .find(|p| p.object == object)
        .unwrap_or_else(|| panic!("{object} in {:#?}", report.drift))
}

/// The report names drift of `kind` on `table`.`object`.
pub fn assert_drift(report: &ApplyReport, table: &str, object: &str, kind: ProblemKind) {
    assert!(
        report
            .drift
            .iter()
            .any(|p| p.table == table && p.object == object && p.kind == kind),
        "expected {kind:?} on {table}.{object} in {:#?}",
        report.drift
    );
}

/// A progress callback that, once, at `Started` of step `object`, runs `sql`
/// on its own connection and waits for it (`Started` is reported before the
/// step's DDL is sent, after its re-read).
pub fn race_at_start(url: String, object: &'static str, sql: impl Into<String>) -> ProgressFn {
    let sql: String = sql.into();
    let fired = Arc::new(AtomicBool::new(false));
    Arc::new(move |p: &Progress| {
        if p.event != ProgressEvent::Started
            || p.object != object
            || fired.swap(true, Ordering::SeqCst)
        {
            return;
        }
        let (url, sql) = (url.clone(), sql.clone());
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let pool = mysql_async::Pool::new(url.as_str());
                let mut conn = pool.get_conn().await.expect("racer connects");
                conn.query_drop(sql)
                    .await
                    .expect("the racer's statement runs");
                drop(conn);
                pool.disconnect().await.ok();
            });
        })
        .join()
        .expect("racer thread");
    })
}
