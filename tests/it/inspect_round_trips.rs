//! Inspection cost is fixed by the catalog, not by the server: a verify
//! issues the same statements for a 3-table and a 50-table catalog, and the
//! server's own work counters for it do not move when unrelated tables are
//! added to the same schema and to another one. Runs against MariaDB and
//! MySQL (`CATALOG_TEST_DATABASE_URL`).

use crate::common;

use std::time::Duration;

use common::counters::{create, deltas, generated, session, statement_work, status, verify_work};
use common::TestDb;
use mysql_async::prelude::*;
use schema_catalog::apply::Outcome;
use schema_catalog::catalog::{self, Catalog};
use schema_catalog::db;
use schema_catalog::verify::VerifyOptions;

const TIMEOUT: Duration = Duration::from_secs(20);

const ROUND_TRIPS: &[&str] = &["Com_stmt_execute", "Com_stmt_prepare", "Questions"];

/// Statement counters of one verify of `cat` on a fresh session (first run:
/// statements are prepared, then executed), minus one SHOW of the counters.
async fn verify_statements(db: &TestDb, cat: &Catalog) -> Vec<(String, u64)> {
    let mut s = session(db).await;
    let idle0 = status(&mut s, ROUND_TRIPS).await;
    let idle1 = status(&mut s, ROUND_TRIPS).await;
    let report = schema_catalog::verify(
        &mut s,
        cat,
        &schema_catalog::VerifyOptions::default().schema(&db.name),
    )
    .await
    .expect("verify runs");
    let after = status(&mut s, ROUND_TRIPS).await;
    assert!(report.ok, "{:#?}", report.problems);
    let show = deltas(&idle0, &idle1);
    deltas(&idle1, &after)
        .into_iter()
        .zip(show)
        .map(|((n, d), (_, s))| (n, d - s))
        .collect()
}

#[tokio::test]
async fn a_50_table_verify_issues_the_statements_of_a_3_table_one() {
    let small = generated(3);
    let large = generated(50);
    let db = TestDb::new().await;
    create(&db, &large).await;
    let three = verify_statements(&db, &small).await;
    let fifty = verify_statements(&db, &large).await;
    eprintln!("verify, 3 tables: {three:?}\nverify, 50 tables: {fifty:?}");
    assert_eq!(three, fifty, "round trips grow with the catalog");
    let execs = three
        .iter()
        .find(|(n, _)| n == "Com_stmt_execute")
        .unwrap()
        .1;
    assert_eq!(execs, 1, "TABLES, COLUMNS and index rows in one statement");
}

// A catalog larger than one statement of equality groups holds reads the
// schema's size first and is read listed or in chunks: its statements are
// pinned in tests/it/inspect_shapes.rs.

/// A FULLTEXT index's parser is read from SHOW CREATE TABLE, only for a
/// table whose live shape has one: a verify of three tables, one of them
/// with a FULLTEXT index, issues exactly one statement more than the same
/// catalog without it (and the catalog without FULLTEXT none more than
/// before, see above).
#[tokio::test]
async fn a_fulltext_table_costs_one_show_create() {
    let plain = generated(3);
    let files: Vec<(String, String)> = plain
        .tables
        .iter()
        .map(|t| {
            let name = t.table.name.to_string();
            let mut yaml = format!(
                "table: {name}\ncolumns:\n  - name: Id\n    type: bigint unsigned\n    nullable: false\n  \
                 - name: Lane\n    type: varchar(64)\n    nullable: false\n  - name: Note\n    type: text\n\
                 primary_key: [Id]\nindexes:\n  - name: idx_{name}_lane\n    columns: [Lane]\n"
            );
            if name == "gen_0000" {
                yaml.push_str("  - name: ft_gen_0000_note\n    kind: fulltext\n    columns: [Note]\n");
            }
            (format!("{name}.yaml"), yaml)
        })
        .collect();
    // TiDB drops FULLTEXT indexes: the catalog targets the other two.
    let pairs: Vec<(&str, &str)> = files
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .chain([("catalog.yaml", "flavors: [mysql, mariadb]\n")])
        .collect();
    let fulltext = catalog::from_files("fulltext", &pairs).expect("valid");
    let with = TestDb::new().await;
    let without = TestDb::new().await;
    create(&with, &fulltext).await;
    create(&without, &plain).await;
    let base = verify_statements(&without, &plain).await;
    let ft = verify_statements(&with, &fulltext).await;
    eprintln!("verify, 3 tables: {base:?}\nverify, 3 tables, one FULLTEXT: {ft:?}");
    let extra: Vec<(String, u64)> = deltas(&base, &ft);
    let count = |name: &str| extra.iter().find(|(n, _)| n == name).unwrap().1;
    // One SHOW CREATE TABLE, prepared and executed like every inspection read.
    assert_eq!(count("Com_stmt_execute"), 1, "{extra:?}");
    assert_eq!(count("Com_stmt_prepare"), 1, "{extra:?}");
}

/// The same work of a statement that reads the whole schema: the control
/// that shows the counters see unrelated tables at all.
async fn schema_wide_work(db: &TestDb) -> Vec<(String, u64)> {
    let mut s = session(db).await;
    let sql = "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ?";
    let _: Option<u64> = s.conn().exec_first(sql, (db.name.as_str(),)).await.unwrap();
    statement_work(db, &mut s, async |s| {
        let _: Option<u64> = s.conn().exec_first(sql, (db.name.as_str(),)).await.unwrap();
    })
    .await
}

fn total(c: &[(String, u64)]) -> u64 {
    c.iter().map(|(_, v)| v).sum()
}

#[tokio::test]
async fn server_work_does_not_grow_with_unrelated_tables() {
    let cat = generated(3);
    let db = TestDb::new().await;
    let other = TestDb::new().await;
    create(&db, &cat).await;

    let alone = verify_work(&db, &cat).await;
    let control_alone = schema_wide_work(&db).await;

    let unrelated = |prefix: &str| -> Vec<String> {
        (0..60)
            .map(|i| format!("CREATE TABLE {prefix}_{i} (a int PRIMARY KEY, b varchar(20), c text, KEY ib (b))"))
            .collect()
    };
    let same = unrelated("unrelated");
    db.exec(&same.iter().map(String::as_str).collect::<Vec<_>>())
        .await;
    let elsewhere = unrelated("elsewhere");
    other
        .exec(&elsewhere.iter().map(String::as_str).collect::<Vec<_>>())
        .await;

    let crowded = verify_work(&db, &cat).await;
    let control_crowded = schema_wide_work(&db).await;
    eprintln!(
        "verify work, 3 catalog tables alone: {alone:?}\n\
         with 60 unrelated tables here and 60 in another schema: {crowded:?}\n\
         control (schema-wide COLUMNS read): {} -> {}",
        total(&control_alone),
        total(&control_crowded)
    );
    assert!(
        total(&control_crowded) > total(&control_alone),
        "the control must see the unrelated tables: {control_alone:?} -> {control_crowded:?}"
    );
    assert!(
        total(&alone) > 0,
        "the counters record verify's reads: {alone:?}"
    );
    assert_eq!(
        alone, crowded,
        "verify's server work grew with unrelated tables"
    );
}

/// A catalog table with a CHECK (its TABLE_CONSTRAINTS rows and each
/// CHECK's clause are read) beside 40 other schemas full of CHECKs: the
/// read's work (MariaDB's handler and row counters) and the tables it
/// opens (both servers) do not grow. MariaDB's clause
/// lookup was correlated on the row's schema and table, a DEPENDENT
/// SUBQUERY that scanned every database per row (about 2,000 tables opened
/// per read beside many tenant schemas); it is bound by constants now
/// (EXPLAIN: tests/it/inspect_live.rs). The control, a server-wide count of
/// CHECK_CONSTRAINTS, shows the counters see the other schemas.
#[tokio::test]
async fn the_check_clause_lookup_stays_flat_in_other_schemas() {
    let files = [
        ("catalog.yaml", "tidb: {check_constraints: enforced}\n"),
        (
            "checked.yaml",
            "table: checked\ncolumns:\n  - name: Id\n    type: int\n    nullable: false\n  \
         - name: Amount\n    type: int\n    nullable: false\n  - name: Payload\n    type: json\n\
         primary_key: [Id]\nchecks:\n  - name: chk_checked_amount\n    expression: Amount >= 0\n",
        ),
    ];
    let cat = catalog::from_files("embedded", &files).unwrap();
    let db = TestDb::new().await;
    create(&db, &cat).await;
    let control = async |db: &TestDb| {
        let mut s = session(db).await;
        let sql = "SELECT COUNT(*) FROM information_schema.CHECK_CONSTRAINTS";
        let _: Option<u64> = s.conn().query_first(sql).await.unwrap();
        statement_work(db, &mut s, async |s| {
            let _: Option<u64> = s.conn().query_first(sql).await.unwrap();
        })
        .await
    };
    // Tables opened by the second of two verifies on one session.
    let opened = async |db: &TestDb| {
        let mut s = session(db).await;
        schema_catalog::verify(
            &mut s,
            &cat,
            &schema_catalog::VerifyOptions::default().schema(&db.name),
        )
        .await
        .unwrap();
        let before = status(&mut s, &["Opened_tables"]).await;
        let report = schema_catalog::verify(
            &mut s,
            &cat,
            &schema_catalog::VerifyOptions::default().schema(&db.name),
        )
        .await
        .unwrap();
        assert!(report.ok, "{:#?}", report.problems);
        let after = status(&mut s, &["Opened_tables"]).await;
        deltas(&before, &after)[0].1
    };
    let alone = verify_work(&db, &cat).await;
    let control_alone = control(&db).await;
    let opened_alone = opened(&db).await;
    let mut others = Vec::new();
    for _ in 0..40 {
        let other = TestDb::new().await;
        other
            .exec(&[
                "CREATE TABLE checked (Id int NOT NULL PRIMARY KEY, Amount int NOT NULL, Payload json, \
                 CONSTRAINT chk_other_amount CHECK (Amount >= 0))",
                "CREATE TABLE other (Id int NOT NULL PRIMARY KEY, CONSTRAINT chk_other_id CHECK (Id > 0))",
            ])
            .await;
        others.push(other);
    }
    let crowded = verify_work(&db, &cat).await;
    let control_crowded = control(&db).await;
    let opened_crowded = opened(&db).await;
    eprintln!(
        "verify work, one table with a CHECK: {alone:?}\n\
         beside 40 schemas of 2 tables with CHECKs: {crowded:?}\n\
         tables opened by a warm verify: {opened_alone} -> {opened_crowded}\n\
         control (server-wide CHECK_CONSTRAINTS count): {control_alone:?} -> {control_crowded:?}"
    );
    assert!(
        total(&control_crowded) > total(&control_alone),
        "the control must see the other schemas: {control_alone:?} -> {control_crowded:?}"
    );
    assert!(total(&alone) > 0, "{alone:?}");
    // MySQL's CHECK_CONSTRAINTS has no table column to bind, and its
    // optimizer may scan the server's check constraints for the lookup
    // (src/inspect/sql.rs, `check_clause`): flat on MariaDB only.
    if db.flavor == schema_catalog::Flavor::MariaDb {
        assert_eq!(
            alone, crowded,
            "the CHECK lookup's work grew with other schemas"
        );
    }
    assert!(
        opened_crowded <= 1,
        "a warm verify of one table opens at most that table: {opened_crowded}"
    );
}

/// CHECK clauses are read only for catalog tables with a json or longtext
/// column (on MariaDB they tell the two apart); a json column where the
/// catalog wants longtext, or where it wants another type, is drift either way.
#[tokio::test]
async fn json_drift_is_found_with_checks_read_only_where_needed() {
    let files = [
        (
            "wants_longtext.yaml",
            "table: wants_longtext\ncolumns:\n  - name: Id\n    type: int\n    nullable: false\n  - name: Body\n    type: longtext\nprimary_key: [Id]\n",
        ),
        (
            "wants_varchar.yaml",
            "table: wants_varchar\ncolumns:\n  - name: Id\n    type: int\n    nullable: false\n  - name: Body\n    type: varchar(10)\nprimary_key: [Id]\n",
        ),
    ];
    let cat = catalog::from_files("embedded", &files).unwrap();
    let db = TestDb::new().await;
    db.exec(&[
        "CREATE TABLE wants_longtext (Id int NOT NULL PRIMARY KEY, Body json)",
        "CREATE TABLE wants_varchar (Id int NOT NULL PRIMARY KEY, Body json)",
    ])
    .await;
    let mut s = session(&db).await;
    let report = schema_catalog::verify(
        &mut s,
        &cat,
        &schema_catalog::VerifyOptions::default().schema(&db.name),
    )
    .await
    .unwrap();
    let got: Vec<(&str, &str, schema_catalog::diff::ProblemKind)> = report
        .problems
        .iter()
        .map(|p| (p.table.as_str(), p.object.as_str(), p.kind))
        .collect();
    use schema_catalog::diff::ProblemKind::ColumnType;
    for table in ["wants_longtext", "wants_varchar"] {
        assert!(
            got.contains(&(table, "Body", ColumnType)),
            "{table}: {:#?}",
            report.problems
        );
    }
    // Read with its CHECK clauses: a json column, not a longtext one.
    let longtext = report
        .problems
        .iter()
        .find(|p| p.table == "wants_longtext" && p.kind == ColumnType)
        .unwrap();
    assert_eq!(longtext.actual, "json");
}

/// The test database's URL with the host and port of `proxy` in front of it.
fn url_via(db: &TestDb, proxy: &common::relay::Proxy) -> String {
    let mut url = url::Url::parse(&db.url()).expect("test URL parses");
    url.set_host(Some("127.0.0.1")).expect("a host");
    url.set_port(Some(proxy.port)).expect("a port");
    url.to_string()
}

/// The client's packets of one run through a fresh proxy, and its round
/// trips; the run must use exactly one connection.
async fn through_proxy<F, Fut>(db: &TestDb, run: F) -> (u64, Vec<String>)
where
    F: FnOnce(String) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let proxy = common::relay::Proxy::start(common::host_port()).await;
    run(url_via(db, &proxy)).await;
    let connections = proxy.finish().await;
    let [one] = connections.as_slice() else {
        panic!("expected one connection, got {}", connections.len());
    };
    let (up, down) = one.bytes();
    assert!(
        up > 0 && down > 0,
        "the proxy relayed {up} B up, {down} B down"
    );
    (one.round_trips(), one.commands())
}

/// What a run's packets must start with, in order, on `flavor`: the
/// login, the driver's settings read, version and identity (and MySQL's
/// server_uuid), then `body`, then COM_QUIT.
fn expected(flavor: schema_catalog::Flavor, body: &[&'static str]) -> Vec<&'static str> {
    let mut out = vec![
        "handshake",
        "query: SELECT @@max_allowed_packet,@@wait_timeout",
        "query: SELECT VERSION(), @@hostname, @@port",
    ];
    if flavor == schema_catalog::Flavor::MySql {
        out.push("query: SELECT @@server_uuid");
    }
    out.extend(body);
    out.push("quit");
    out
}

/// Whether `got` matches `pattern`: its text up to the first `*` is a
/// prefix of `got`, and each later piece follows in order.
fn matches(got: &str, pattern: &str) -> bool {
    let mut pieces = pattern.split('*');
    let Some(rest) = got.strip_prefix(pieces.next().unwrap_or("")) else {
        return false;
    };
    pieces
        .try_fold(rest, |rest, piece| {
            rest.find(piece).map(|at| &rest[at + piece.len()..])
        })
        .is_some()
}

fn assert_packets(what: &str, got: &[String], want: &[&str]) {
    let matches = got.len() == want.len() && got.iter().zip(want).all(|(g, w)| matches(g, w));
    assert!(
        matches,
        "{what}: the client's packets were\n{got:#?}\nexpected ones starting with\n{want:#?}"
    );
}

/// A no-op apply (everything present) takes the same round trips for 3 and
/// 50 tables: login, settings, identity, the lock (prepare, execute), the
/// session's budgets with its DDL counters (one query of two statements),
/// the preflight inspection (prepare, execute; with no step to run it is
/// the final verify too), the regenerate-and-compare net's `SHOW CREATE
/// TABLE` of every table (one text query of one statement per table, up
/// to 64 tables), the primary's list of connected replicas (the hint of
/// replicas not named; docs/replicas.md), the DDL counters again, the
/// release (prepare, execute) and COM_QUIT. 14 round trips on MariaDB, 15
/// on MySQL (its server_uuid). The proxy counts them as the latency bench
/// does.
#[tokio::test]
async fn a_no_op_apply_is_14_round_trips_whatever_the_catalog_size() {
    let db = TestDb::new().await;
    let hosts = if db.flavor == schema_catalog::Flavor::MySql {
        "query: SHOW REPLICAS"
    } else {
        "query: SHOW SLAVE HOSTS"
    };
    let body = [
        "prepare: SELECT GET_LOCK(?, ?)",
        "execute",
        "query: SET SESSION lock_wait_timeout = 2, innodb_lock_wait_timeout = 2, max_*; SHOW SESSION STATUS WHERE Variable_name IN ('Com_create_table', 'Com_alter_table')",
        "prepare: SELECT 0 AS src, 0 AS branch",
        "execute",
        "query: SHOW CREATE TABLE `*`.`gen_0000`; SHOW CREATE TABLE `*`.`gen_0001`; SHOW CREATE TABLE",
        hosts,
        "query: SHOW SESSION STATUS WHERE Variable_name IN ('Com_create_table', 'Com_alter_table')",
        "prepare: SELECT RELEASE_LOCK(?)",
        "execute",
    ];
    let want = expected(db.flavor, &body);
    let trips = if db.flavor == schema_catalog::Flavor::MySql {
        15
    } else {
        14
    };
    for n in [3, 50] {
        let cat = generated(n);
        let tables: Vec<schema_catalog::Table> =
            cat.tables.iter().map(|t| t.table.clone()).collect();
        let first = common::apply_tables(&db, &tables).await;
        assert!(
            matches!(first.outcome, Outcome::Converged),
            "{:?}",
            first.outcome
        );
        let (round_trips, packets) = through_proxy(&db, |url| async move {
            let report = common::apply_tables_at(&url, &tables).await;
            assert!(
                matches!(report.outcome, Outcome::Converged),
                "{:?}",
                report.outcome
            );
            assert!(report.steps.is_empty(), "{:#?}", report.steps);
            assert_eq!(report.server_ddl_count, Some(0));
        })
        .await;
        eprintln!("no-op apply, {n} tables: {round_trips} round trips: {packets:#?}");
        assert_packets(&format!("no-op apply of {n} tables"), &packets, &want);
        assert_eq!(
            round_trips, trips,
            "no-op apply of {n} tables: {packets:#?}"
        );
    }
}

/// A verify as the CLI runs it is 6 round trips (7 on MySQL), whatever
/// the catalog size: login, settings, identity, the one inspection
/// statement (prepare, execute), COM_QUIT.
#[tokio::test]
async fn a_verify_is_6_round_trips_whatever_the_catalog_size() {
    fixed_round_trips(Run::Verify { strict: false }).await;
}

/// `verify --strict` adds the net's `SHOW CREATE TABLE` of every table in
/// one text query (up to 64 tables): 7 round trips (8 on MySQL) for 3
/// tables and for 50.
#[tokio::test]
async fn a_strict_verify_is_7_round_trips_whatever_the_catalog_size() {
    fixed_round_trips(Run::Verify { strict: true }).await;
}

/// A live plan is netted as apply's preflight is, so it is the round
/// trips of a strict verify: login, settings, identity, the one
/// inspection statement (prepare, execute), the net's `SHOW CREATE TABLE`
/// of every existing table in one text query (up to 64 tables), COM_QUIT:
/// 7 round trips (8 on MySQL) for 3 tables and for 50.
#[tokio::test]
async fn a_plan_is_7_round_trips_whatever_the_catalog_size() {
    fixed_round_trips(Run::Plan).await;
}

/// What [`fixed_round_trips`] runs, as the CLI runs it (connect, run,
/// disconnect).
#[derive(Clone, Copy, Debug)]
enum Run {
    Verify { strict: bool },
    Plan,
}

async fn fixed_round_trips(run: Run) {
    let db = TestDb::new().await;
    let netted = !matches!(run, Run::Verify { strict: false });
    let mut body = vec!["prepare: SELECT 0 AS src, 0 AS branch", "execute"];
    if netted {
        body.push("query: SHOW CREATE TABLE `*`.`gen_0000`; SHOW CREATE TABLE `*`.`gen_0001`; SHOW CREATE TABLE");
    }
    let want = expected(db.flavor, &body);
    let trips = if db.flavor == schema_catalog::Flavor::MySql {
        7
    } else {
        6
    } + u64::from(netted);
    let large = generated(50);
    create(&db, &large).await;
    for cat in [generated(3), large] {
        let n = cat.tables.len();
        let (round_trips, packets) = through_proxy(&db, |url| async move {
            let target = db::parse_url(&url).expect("proxy URL parses");
            let mut s = db::connect(&target, TIMEOUT).await.expect("connect");
            match run {
                Run::Verify { strict } => {
                    let opts = VerifyOptions::default().strict(strict);
                    let report =
                        schema_catalog::verify(&mut s, &cat, &opts.clone().schema(&target.schema))
                            .await
                            .expect("verify runs");
                    assert!(report.ok, "{:#?}", report.problems);
                }
                Run::Plan => {
                    let tables: Vec<schema_catalog::Table> =
                        cat.tables.iter().map(|t| t.table.clone()).collect();
                    let plan = schema_catalog::live::plan_live(
                        &mut s,
                        &target.schema,
                        &tables,
                        &cat.widens(),
                    )
                    .await
                    .expect("plan runs");
                    assert!(plan.steps.is_empty() && plan.drift.is_empty(), "{plan:#?}");
                }
            }
            s.disconnect().await.expect("disconnect");
        })
        .await;
        eprintln!("{run:?}, {n} tables: {round_trips} round trips: {packets:#?}");
        assert_packets(&format!("{run:?} of {n} tables"), &packets, &want);
        assert_eq!(round_trips, trips, "{run:?} of {n} tables: {packets:#?}");
    }
}

/// Every read apply decides on is netted: an apply of one step (a missing
/// index on one of three tables) sends the net's `SHOW CREATE TABLE`
/// twice, each one text query of the three tables: the preflight's, which
/// the step decides on (taken under the lock with nothing sent since), and
/// the step's read-back, which as the last step's is the whole catalog's
/// read and the final verify. No read goes un-netted, and none is taken
/// twice.
#[tokio::test]
async fn an_apply_of_one_step_nets_each_read() {
    let db = TestDb::new().await;
    let cat = generated(3);
    create(&db, &cat).await;
    let tables: Vec<schema_catalog::Table> = cat.tables.iter().map(|t| t.table.clone()).collect();
    let index = tables[1].indexes[0].name.to_string();
    db.exec(&[&format!("ALTER TABLE `gen_0001` DROP INDEX `{index}`")])
        .await;
    let (_, packets) = through_proxy(&db, |url| async move {
        let report = common::apply_tables_at(&url, &tables).await;
        assert!(
            matches!(report.outcome, Outcome::Converged),
            "{:?}",
            report.outcome
        );
        assert_eq!(report.steps.len(), 1, "{:#?}", report.steps);
    })
    .await;
    // Where the net's reads are among the packets, and what they are.
    let reads: Vec<usize> = packets
        .iter()
        .enumerate()
        .filter(|(_, p)| p.starts_with("query: SHOW CREATE TABLE"))
        .map(|(i, _)| i)
        .collect();
    let shown: Vec<String> = reads.iter().map(|i| packets[*i].clone()).collect();
    eprintln!("apply of one step: {packets:#?}");
    let all = "query: SHOW CREATE TABLE `*`.`gen_0000`; SHOW CREATE TABLE `*`.`gen_0001`; SHOW CREATE TABLE `*`.`gen_0002`";
    assert_packets("the net's reads", &shown, &[all, all]);
    // The DDL runs between the two.
    let ddl = packets
        .iter()
        .position(|p| p.contains("ADD") && p.contains(&index))
        .unwrap_or_else(|| panic!("no DDL adding {index}: {packets:#?}"));
    assert!(reads[0] < ddl && ddl < reads[1], "{packets:#?}");
}
