//! The server's counters around a read: statements issued (`SHOW SESSION
//! STATUS` deltas) and the work done by those statements alone
//! ([`statement_work`]), for the tests that pin inspection cost
//! (tests/it/inspect_round_trips.rs, tests/it/inspect_shapes.rs).

use std::time::Duration;

use mysql_async::prelude::*;
use schema_catalog::catalog::{self, Catalog};
use schema_catalog::db::{self, Session};
use schema_catalog::Flavor;

use super::TestDb;

/// A catalog of `n` tables `gen_<nnnn>` (key, two columns and a text
/// column, one index), from in-memory files.
pub fn generated(n: usize) -> Catalog {
    let files: Vec<(String, String)> = (0..n)
        .map(|i| {
            (
                format!("gen_{i:04}.yaml"),
                format!(
                    "table: gen_{i:04}\ncolumns:\n  - name: Id\n    type: bigint unsigned\n    nullable: false\n  \
                     - name: Lane\n    type: varchar(64)\n    nullable: false\n  - name: Note\n    type: text\n\
                     primary_key: [Id]\nindexes:\n  - name: idx_gen_{i:04}_lane\n    columns: [Lane]\n"
                ),
            )
        })
        .collect();
    let pairs: Vec<(&str, &str)> = files
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    catalog::from_files("generated", &pairs).expect("the generated catalog is valid")
}

/// A fresh session on the test's schema.
pub async fn session(db: &TestDb) -> Session<'static> {
    let target = db::parse_url(&db.url()).expect("test URL parses");
    db::connect(&target, Duration::from_secs(30))
        .await
        .expect("connect")
}

/// The work ([`statement_work`]) of the second of two verifies of `cat` on
/// one session: the first warms the table-definition cache and the
/// statement cache. The second must find the schema satisfying `cat`.
pub async fn verify_work(db: &TestDb, cat: &Catalog) -> Vec<(String, u64)> {
    let mut s = session(db).await;
    schema_catalog::verify(
        &mut s,
        cat,
        &schema_catalog::VerifyOptions::default().schema(&db.name),
    )
    .await
    .expect("warm-up verify");
    statement_work(db, &mut s, async |s| {
        let report = schema_catalog::verify(
            s,
            cat,
            &schema_catalog::VerifyOptions::default().schema(&db.name),
        )
        .await
        .expect("verify");
        assert!(report.ok, "{:#?}", report.problems);
    })
    .await
}

/// Creates the catalog's tables with plain DDL.
pub async fn create(db: &TestDb, cat: &Catalog) {
    let creates: Vec<String> = cat
        .tables
        .iter()
        .map(|t| schema_catalog::ddl::create_table(&t.table, db.flavor))
        .collect();
    db.exec(&creates.iter().map(String::as_str).collect::<Vec<_>>())
        .await;
}

/// MariaDB's session work counters (handler reads, temporary tables, rows
/// read). Tables and definitions opened (`Opened_*`) are left out: they
/// depend on the server-wide table cache, which other clients churn.
pub const WORK: &[&str] = &["Handler_read", "Created_tmp", "Rows_read", "Rows_tmp_read"];

/// MySQL's per-statement work counters in
/// `performance_schema.events_statements_history`.
const STATEMENT_WORK: &[&str] = &[
    "ROWS_EXAMINED",
    "ROWS_SENT",
    "CREATED_TMP_TABLES",
    "CREATED_TMP_DISK_TABLES",
    "SELECT_FULL_JOIN",
    "SELECT_FULL_RANGE_JOIN",
    "SELECT_RANGE",
    "SELECT_RANGE_CHECK",
    "SELECT_SCAN",
    "SORT_ROWS",
    "SORT_SCAN",
    "NO_INDEX_USED",
];

/// The server work of the statements `run` issues on `s`, and of nothing
/// else: the same numbers for the same statements however busy the server.
///
/// - MySQL: the statements' own counters (rows examined, rows sent,
///   temporary tables, scans, sorts), summed over the statements `run`
///   issued, read from `performance_schema.events_statements_history` on
///   another session. MySQL's session `Handler_*` counters would also count
///   the data dictionary's reads on a miss of its server-wide object cache,
///   which concurrent clients churn: the same read counts differently
///   from one run to the next on a shared server.
/// - MariaDB: the session's handler, temporary-table and row counters
///   ([`WORK`]); its information_schema opens only the tables a read names
///   and keeps no shared dictionary cache in front of them.
pub async fn statement_work<F>(db: &TestDb, s: &mut Session<'static>, run: F) -> Vec<(String, u64)>
where
    F: for<'a> AsyncFnOnce(&'a mut Session<'static>),
{
    if db.flavor != Flavor::MySql {
        let before = status(s, WORK).await;
        run(s).await;
        let after = status(s, WORK).await;
        return deltas(&before, &after);
    }
    let mut observer = db.pool.get_conn().await.expect("observer session");
    let thread: u64 = observer
        .exec_first(
            "SELECT THREAD_ID FROM performance_schema.threads WHERE PROCESSLIST_ID = ?",
            (s.conn().id(),),
        )
        .await
        .expect("read the session's thread id")
        .expect("performance_schema instruments the session's thread");
    // Marker statements on the session around `run`: the server records a
    // statement in the history only after the client has its result, so
    // once the closing marker is there, every statement before it is too.
    // Each call's markers are its own: a closing marker left in the history
    // by an earlier call on the same session would end the wait too soon.
    static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let before_sql = format!("SELECT 'statement_work {call}: before'");
    let after_sql = format!("SELECT 'statement_work {call}: after'");
    s.conn()
        .query_drop(&before_sql)
        .await
        .expect("opening marker");
    run(s).await;
    s.conn()
        .query_drop(&after_sql)
        .await
        .expect("closing marker");
    let marker = "SELECT MAX(EVENT_ID) FROM performance_schema.events_statements_history \
                  WHERE THREAD_ID = ? AND SQL_TEXT = ?";
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let after: u64 = loop {
        let id: Option<u64> = observer
            .exec_first(marker, (thread, &after_sql))
            .await
            .expect("look for the closing marker")
            .flatten();
        if let Some(id) = id {
            break id;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the closing marker never reached the statement history"
        );
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    };
    let before: u64 = observer
        .exec_first(marker, (thread, &before_sql))
        .await
        .expect("look for the opening marker")
        .flatten()
        .expect("the opening marker is still in the statement history (the run issued fewer statements than it holds)");
    let sql = format!(
        "SELECT {} FROM performance_schema.events_statements_history \
         WHERE THREAD_ID = ? AND EVENT_ID > ? AND EVENT_ID < ?",
        STATEMENT_WORK.join(", ")
    );
    let rows: Vec<mysql_async::Row> = observer
        .exec(sql, (thread, before, after))
        .await
        .expect("read the statements' counters");
    assert!(!rows.is_empty(), "the run's statements are in the history");
    STATEMENT_WORK
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let sum = rows
                .iter()
                .map(|r| r.get::<u64, _>(i).expect("a counter"))
                .sum();
            (name.to_string(), sum)
        })
        .collect()
}

/// Every session counter whose name starts with one of `prefixes`.
pub async fn status(s: &mut Session<'_>, prefixes: &[&str]) -> Vec<(String, u64)> {
    let rows: Vec<(String, String)> = s.conn().query("SHOW SESSION STATUS").await.expect("status");
    let mut out: Vec<(String, u64)> = rows
        .into_iter()
        .filter(|(n, _)| prefixes.iter().any(|p| n.starts_with(p)))
        .filter_map(|(n, v)| v.parse().ok().map(|v| (n, v)))
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no counters named {prefixes:?}");
    out
}

/// `after - before`, counter by counter.
pub fn deltas(before: &[(String, u64)], after: &[(String, u64)]) -> Vec<(String, u64)> {
    before
        .iter()
        .zip(after)
        .map(|((n, b), (m, a))| {
            assert_eq!(n, m);
            (n.clone(), a - b)
        })
        .collect()
}
