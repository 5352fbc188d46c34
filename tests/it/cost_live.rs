//! Cost, live on the server under test: `catalog stats` agrees with the
//! server's own estimate (SHOW TABLE STATUS) and stays flat in unrelated
//! tables; a plan costs every step kind; a budget defers before any DDL;
//! a calibration drops its scratch schema.

use std::time::Duration;

use mysql_async::prelude::*;
use schema_catalog::apply::{self, ApplyOptions, Outcome};
use schema_catalog::catalog::{self, Catalog};
use schema_catalog::cost::{self, Budgets, CostOptions, SizeSource, StepClass};
use schema_catalog::{db, live, Table};

use crate::common::counters::{session, statement_work};
use crate::common::heavy::heavy_async;
use crate::common::TestDb;

const TIMEOUT: Duration = Duration::from_secs(60);

/// The catalog of these tests: `orders` (an index and a column the
/// legacy table lacks) and `events` (new).
fn catalog() -> Catalog {
    catalog::from_files(
        "cost",
        &[
            (
                "orders.yaml",
                "table: orders\ncolumns:\n  - { name: Id, type: bigint unsigned, nullable: false, auto_increment: true }\n  \
                 - { name: CustomerRef, type: varchar(64), nullable: false }\n  \
                 - { name: State, type: varchar(32), nullable: false }\n  \
                 - { name: Note, type: varchar(100) }\n\
                 primary_key: [Id]\nindexes:\n  - { name: idx_orders_customer, columns: [CustomerRef, State] }\n",
            ),
            (
                "events.yaml",
                "table: events\ncolumns:\n  - { name: Id, type: bigint unsigned, nullable: false }\nprimary_key: [Id]\n",
            ),
        ],
    )
    .expect("the test catalog is valid")
}

fn tables(cat: &Catalog) -> Vec<Table> {
    cat.tables.iter().map(|t| t.table.clone()).collect()
}

/// The legacy `orders` (no `Note`, no index) with `rows` rows, analyzed.
async fn legacy_orders(db: &TestDb, rows: u64) {
    db.exec(&[
        "CREATE TABLE orders (Id bigint unsigned NOT NULL AUTO_INCREMENT, \
         CustomerRef varchar(64) NOT NULL, State varchar(32) NOT NULL, PRIMARY KEY (Id)) \
         ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
        "CREATE TABLE digits (i int NOT NULL PRIMARY KEY)",
        "INSERT INTO digits VALUES (0),(1),(2),(3),(4),(5),(6),(7),(8),(9)",
    ])
    .await;
    let fill = format!(
        "INSERT INTO orders (CustomerRef, State) \
         SELECT SHA2(s, 256), 'open' FROM (SELECT a.i + 10*b.i + 100*c.i + 1000*d.i + 10000*e.i + 100000*f.i AS s \
         FROM digits a, digits b, digits c, digits d, digits e, digits f) x WHERE s < {rows}"
    );
    db.exec(&[&fill, "DROP TABLE digits"]).await;
    db.exec_batch("ANALYZE TABLE orders").await;
}

/// `SHOW TABLE STATUS` as a DBA reads it: (rows, data_length,
/// index_length, auto_increment).
async fn table_status(db: &TestDb, table: &str) -> (u64, u64, u64, Option<u64>) {
    let mut conn = db.pool.get_conn().await.expect("connect");
    let row: mysql_async::Row = conn
        .exec_first(format!("SHOW TABLE STATUS LIKE '{table}'"), ())
        .await
        .expect("SHOW TABLE STATUS")
        .expect("a row");
    let num = |name: &str| -> Option<u64> {
        row.get_opt::<Option<u64>, &str>(name)
            .expect("column present")
            .expect("a number")
    };
    (
        num("Rows").unwrap(),
        num("Data_length").unwrap(),
        num("Index_length").unwrap(),
        num("Auto_increment"),
    )
}

fn within(a: u64, b: u64, fraction: f64) -> bool {
    (a as f64 - b as f64).abs() <= fraction * (b as f64).max(1.0)
}

/// On a 200,000-row table the stats are the server's own estimate (what
/// SHOW TABLE STATUS says right after ANALYZE TABLE), and that estimate
/// is within ANALYZE's sampling of the true count; no row data is in the
/// report.
#[tokio::test]
async fn stats_match_the_servers_own_estimate_on_200k_rows() {
    let _heavy = heavy_async().await;
    let db = TestDb::new().await;
    legacy_orders(&db, 200_000).await;
    let cat = catalog();
    let mut s = session(&db).await;
    let report = cost::read_stats(&mut s, &db.name, &tables(&cat))
        .await
        .expect("stats");
    let (rows, data, index, auto) = table_status(&db, "orders").await;
    eprintln!("stats: {report:#?}\nSHOW TABLE STATUS: rows {rows}, data {data}, index {index}, auto_increment {auto:?}");
    assert_eq!(report.missing, vec!["events".to_string()]);
    assert_eq!(report.tables.len(), 1);
    let t = &report.tables[0];
    assert_eq!(t.table, "orders");
    assert!(within(t.rows, rows, 0.05), "{} vs {rows}", t.rows);
    assert!(within(t.rows, 200_000, 0.5), "{} rows", t.rows);
    assert!(
        within(t.data_length, data, 0.05),
        "{} vs {data}",
        t.data_length
    );
    assert_eq!(t.index_length, index);
    assert_eq!(t.auto_increment, auto);
    assert!(t.auto_increment.unwrap() > 200_000);
    assert_eq!(t.auto_increment_column.as_deref(), Some("Id"));
    assert_eq!(t.auto_increment_max, Some(u64::MAX));
    assert_eq!(t.engine.as_deref(), Some("InnoDB"));
    assert_eq!(report.flavor, db.flavor);
    // No row data: no key value of any row appears in the document.
    let json = serde_json::to_string(&report).unwrap();
    let mut conn = db.pool.get_conn().await.unwrap();
    let sample: String = conn
        .query_first("SELECT CustomerRef FROM orders ORDER BY Id LIMIT 1")
        .await
        .unwrap()
        .unwrap();
    assert!(!json.contains(&sample), "row data leaked into the stats");
}

/// The stats read is bounded by the catalog's tables: the work of its
/// statements (counted for those statements alone) does not move when the
/// schema and another schema fill with unrelated tables.
#[tokio::test]
async fn stats_read_is_flat_in_unrelated_tables() {
    let db = TestDb::new().await;
    let other = TestDb::new().await;
    let cat = catalog();
    db.exec(&[&schema_catalog::ddl::create_table(
        &cat.tables[0].table,
        db.flavor,
    )])
    .await;
    let t = tables(&cat);
    let mut s = session(&db).await;
    let work = async |s: &mut db::Session<'static>| {
        // Warm: the first read prepares its statement.
        cost::read_stats(s, &db.name, &t).await.expect("warm-up");
        statement_work(&db, s, async |s| {
            cost::read_stats(s, &db.name, &t).await.expect("stats");
        })
        .await
    };
    let alone = work(&mut s).await;
    let unrelated: Vec<String> = (0..40)
        .map(|i| format!("CREATE TABLE unrelated_{i} (a int PRIMARY KEY, b int, KEY ib (b))"))
        .collect();
    let unrelated: Vec<&str> = unrelated.iter().map(String::as_str).collect();
    db.exec(&unrelated).await;
    other.exec(&unrelated).await;
    let crowded = work(&mut s).await;
    eprintln!("stats read alone: {alone:?}\nwith 40 + 40 unrelated tables: {crowded:?}");
    assert_eq!(alone, crowded, "the stats read grew with unrelated tables");
}

/// A live plan costs every step kind: CREATE TABLE (instant, empty),
/// ADD COLUMN (instant), ADD INDEX (in place: the table's size, an index
/// size, a build and a replica stall, temporary space).
#[tokio::test]
async fn plan_costs_every_step_kind() {
    let db = TestDb::new().await;
    legacy_orders(&db, 20_000).await;
    let cat = catalog();
    let t = tables(&cat);
    let mut s = session(&db).await;
    let plan = live::plan_live(&mut s, &db.name, &t, &cat.widens())
        .await
        .expect("plan");
    let cost = cost::plan_cost(&mut s, &db.name, &t, &plan, &CostOptions::default())
        .await
        .expect("cost");
    let kinds: Vec<(&str, StepClass)> = plan
        .steps
        .iter()
        .zip(&cost.steps)
        .map(|(s, c)| (s.change.kind(), c.class))
        .collect();
    assert_eq!(
        kinds,
        vec![
            ("create_table", StepClass::Instant),
            ("add_column", StepClass::Instant),
            ("add_index", StepClass::Inplace),
        ]
    );
    let (create, column, index) = (&cost.steps[0], &cost.steps[1], &cost.steps[2]);
    assert_eq!((create.rows, create.duration_ms), (Some(0), Some(0)));
    assert_eq!(column.duration_ms, Some(0));
    assert_eq!(column.replica_stall_ms, Some(0));
    let rows = index.rows.expect("rows known live");
    assert!(within(rows, 20_000, 0.5), "{rows}");
    // varchar(64) + varchar(32) utf8mb4 and the bigint key.
    assert_eq!(index.key_bytes, Some(64 * 4 + 32 * 4 + 8));
    assert_eq!(index.index_bytes, Some(rows * (64 * 4 + 32 * 4 + 8)));
    assert!(index.duration_ms.unwrap() > 0);
    assert_eq!(index.replica_stall_ms, index.duration_ms);
    assert_eq!(index.temp_bytes, index.index_bytes);
    assert_eq!(cost.summary.sizes, SizeSource::Live);
    assert_eq!(cost.summary.total.steps, 3);
    assert_eq!(cost.summary.total.duration_ms, index.duration_ms);
}

/// A budget defers before any DDL: apply stops with OverBudget naming the
/// step, the session issued no DDL, the table is unchanged; allowing the
/// step by name lets the run converge.
#[tokio::test]
async fn a_budget_defers_before_any_ddl() {
    let db = TestDb::new().await;
    legacy_orders(&db, 20_000).await;
    let cat = catalog();
    let t = tables(&cat);
    let before = db.physical().await;
    let target = db::parse_url(&db.url()).unwrap();
    let budget = Budgets::default().max_step_duration(Duration::from_millis(1));
    let opts = ApplyOptions::default()
        .budgets(budget.clone())
        .read_timeout(TIMEOUT);
    let report = apply::run(&target, &db.name, &t, &opts)
        .await
        .expect("apply");
    let Outcome::OverBudget { steps } = &report.outcome else {
        panic!("expected OverBudget, got {:?}", report.outcome);
    };
    assert_eq!(steps.len(), 1, "{steps:?}");
    assert_eq!(steps[0].step, "orders.idx_orders_customer");
    assert_eq!(steps[0].budget, "max_step_duration");
    assert_eq!(steps[0].budget_ms, 1);
    assert!(steps[0].estimate_ms.unwrap() > 1);
    // MySQL and MariaDB count the session's DDL (Com_create_table,
    // Com_alter_table): none was sent.
    assert_eq!(
        report.server_ddl_count,
        Some(0),
        "no DDL on the run's session"
    );
    assert!(report.steps.is_empty());
    assert_eq!(db.physical().await, before, "the schema changed");
    let message = report.stopped().map(|s| format!("{s:?}")).unwrap();
    assert!(message.contains("orders.idx_orders_customer"), "{message}");

    // The replica-stall budget alone defers the same step.
    let stall = ApplyOptions::default()
        .budgets(Budgets::default().max_replica_stall(Duration::from_millis(1)))
        .read_timeout(TIMEOUT);
    let report = apply::run(&target, &db.name, &t, &stall)
        .await
        .expect("apply");
    assert!(
        matches!(report.outcome, Outcome::OverBudget { .. }),
        "{:?}",
        report.outcome
    );
    assert_eq!(db.physical().await, before);

    // Allowed by name: converges.
    let allowed = opts.budgets(budget.allow(vec!["orders.idx_orders_customer".into()]));
    let report = apply::run(&target, &db.name, &t, &allowed)
        .await
        .expect("apply");
    assert_eq!(report.outcome, Outcome::Converged);
}

/// A calibration builds and drops its scratch schema and measures a rate.
#[tokio::test]
async fn calibration_measures_a_rate_and_drops_its_schema() {
    let db = TestDb::new().await;
    let mut s = session(&db).await;
    let c = cost::calibrate(&mut s, 20_000).await.expect("calibrate");
    eprintln!("{c:?}");
    assert_eq!(c.rows, 20_000);
    assert!(
        c.data_length > 0 && c.seconds > 0.0 && c.mb_per_s > 0.0,
        "{c:?}"
    );
    assert!(c.overhead_seconds <= c.seconds);
    let left: Vec<String> = s
        .conn()
        .query("SHOW DATABASES LIKE 'catalog\\_calibrate\\_%'")
        .await
        .unwrap();
    let pid = format!("catalog_calibrate_{}_", std::process::id());
    assert!(
        !left.iter().any(|d| d.starts_with(&pid)),
        "the scratch schema is left: {left:?}"
    );
}
