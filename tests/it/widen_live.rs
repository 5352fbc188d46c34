//! Online widenings, live on the test server (MariaDB 10.11 at
//! 3306, MySQL 9.7 at 3307: run with each `CATALOG_TEST_DATABASE_URL`).
//!
//! - `allowed_widenings_touch_no_row_of_a_million_row_table`: every rule of
//!   the server's row of the table (docs/apply.md "Online widenings") on one
//!   1,048,576-row table, in one apply: verify reports each as a missing
//!   widening (scoped per consumer), plan shows the steps, apply runs them
//!   with their online clause; the InnoDB table id is unchanged (no
//!   rebuild), the rows checksum the same, an application read beside it
//!   is never stalled beyond `--lock-wait`, and verify then passes. Step
//!   times are printed (docs/apply.md records them), not asserted.
//! - `refused_widenings_are_drift_and_the_server_would_copy`: each refused
//!   case stays drift, apply issues nothing, and the server itself refuses
//!   the same MODIFY with either online clause (error 1845/1846).

use crate::common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::applied::{assert_apply_refused, verify_schema};
use common::{catalog_dir, catalog_tables, TestDb};
use mysql_async::prelude::*;
use schema_catalog::apply::{self, ApplyOptions, Outcome};
use schema_catalog::catalog::{self, Catalog};
use schema_catalog::diff::ProblemKind;
use schema_catalog::{db, Flavor};

const LOCK_WAIT: Duration = Duration::from_secs(2);

/// The legacy table: every column narrower than the catalog's below.
const LEGACY: &str = "CREATE TABLE `Wide` (\
    `Id` bigint unsigned NOT NULL AUTO_INCREMENT, \
    `V` varchar(16) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL, \
    `W` varchar(31) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL, \
    `L` varchar(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL, \
    `E` enum('a','b') CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL, \
    `S` set('x','y') CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL, \
    `D` int NOT NULL DEFAULT 0, \
    PRIMARY KEY (`Id`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";

const COLUMNS: &[&str] = &["Id", "V", "W", "L", "E", "S", "D"];

/// The catalog: V 64 -> 252 bytes (1 length byte both), L 400 -> 800
/// (2 both), E and S one member appended, D's default changed (its own
/// `widen: true`); W 124 -> 256 bytes (MariaDB's 0-127 -> 256+ row) only
/// where the server has that row.
fn catalog(flavor: Flavor) -> (tempfile::TempDir, Catalog) {
    let w = if flavor == Flavor::MariaDb {
        "varchar(64)"
    } else {
        "varchar(31)"
    };
    let table = format!(
        "table: Wide
columns:
  - {{name: Id, type: bigint unsigned, nullable: false, auto_increment: true}}
  - {{name: V, type: varchar(63)}}
  - {{name: W, type: {w}}}
  - {{name: L, type: varchar(200)}}
  - {{name: E, type: \"enum('a','b','c')\", required_by: [worker]}}
  - {{name: S, type: \"set('x','y','z')\", required_by: [reporter]}}
  - {{name: D, type: int, nullable: false, default: 7, widen: true}}
primary_key: [Id]
"
    );
    let settings =
        "defaults:\n  collation: utf8mb4_bin\n  widen: true\nflavors: [mysql, mariadb]\n";
    let dir = catalog_dir(&[("catalog.yaml", settings), ("wide.yaml", &table)]);
    let cat = catalog::load(dir.path()).expect("the widening catalog loads");
    (dir, cat)
}

fn opts() -> ApplyOptions {
    ApplyOptions::default()
        .lock_wait(LOCK_WAIT)
        .lock_timeout(Duration::from_secs(20))
        .read_timeout(Duration::from_secs(20))
}

/// Point reads by id until `stop`, each timed while `measuring`.
async fn reader(
    pool: mysql_async::Pool,
    measuring: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
) -> Vec<Duration> {
    let mut conn = pool.get_conn().await.expect("reader connection");
    let mut out = Vec::new();
    let mut i: u64 = 7;
    while !stop.load(Ordering::SeqCst) {
        i = i.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let id = 1 + (i >> 33) % 1_000_000;
        let started = Instant::now();
        let _: Option<Option<String>> = conn
            .exec_first("SELECT `V` FROM `Wide` WHERE `Id` = ?", (id,))
            .await
            .expect("the application read succeeds");
        if measuring.load(Ordering::SeqCst) {
            out.push(started.elapsed());
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn allowed_widenings_touch_no_row_of_a_million_row_table() {
    let _heavy = common::heavy::heavy_async().await;
    let db = TestDb::new().await;
    db.exec(&[
        LEGACY,
        "INSERT INTO `Wide` (`V`, `W`, `L`, `E`, `S`, `D`) VALUES \
         ('v1', 'w1', 'l1', 'a', 'x', 1), ('v2', NULL, 'l2', 'b', 'x,y', 2), \
         (NULL, 'w3', NULL, NULL, '', 3), ('v4', 'w4', 'l4', 'a', NULL, 4)",
    ])
    .await;
    for _ in 0..18 {
        db.exec(&["INSERT INTO `Wide` (`V`, `W`, `L`, `E`, `S`, `D`) SELECT `V`, `W`, `L`, `E`, `S`, `D` FROM `Wide`"])
            .await;
    }
    let (_dir, cat) = catalog(db.flavor);
    let tables = catalog_tables(&cat);
    let widened: &[&str] = if db.flavor == Flavor::MariaDb {
        &["V", "W", "L", "E", "S", "D"]
    } else {
        &["V", "L", "E", "S", "D"]
    };

    // Verify: each a missing widening, not satisfied; per consumer.
    let v = verify_schema(&db, &cat).await;
    assert!(!v.ok);
    let mut found: Vec<&str> = v
        .problems
        .iter()
        .filter(|p| p.kind == ProblemKind::MissingWidening)
        .map(|p| p.object.as_str())
        .collect();
    found.sort();
    let mut want = widened.to_vec();
    want.sort();
    assert_eq!(found, want, "{:#?}", v.problems);
    assert_eq!(v.problems.len(), widened.len(), "{:#?}", v.problems);
    let target = db::parse_url(&db.url()).unwrap();
    let mut session = db::connect(&target, Duration::from_secs(20)).await.unwrap();
    let worker = schema_catalog::verify(
        &mut session,
        &cat,
        &schema_catalog::VerifyOptions::default()
            .schema(&db.name)
            .consumer("worker"),
    )
    .await
    .unwrap();
    let objects: Vec<&str> = worker.problems.iter().map(|p| p.object.as_str()).collect();
    assert!(
        objects.contains(&"E") && !objects.contains(&"S"),
        "{objects:?}"
    );

    // Plan: one widen_column step per column, with the rule's clause.
    let plan = schema_catalog::live::plan_live(&mut session, &db.name, &tables, &cat.widens())
        .await
        .unwrap();
    assert!(!plan.is_refused(), "{:#?}", plan.drift);
    assert_eq!(plan.steps.len(), widened.len(), "{:#?}", plan.steps);
    for s in &plan.steps {
        assert_eq!(s.change.kind(), "widen_column");
        let clause = match (db.flavor, s.change.object().as_str()) {
            (Flavor::MySql, "V" | "L") => ", ALGORITHM=INPLACE, LOCK=NONE",
            _ => ", ALGORITHM=INSTANT",
        };
        assert!(
            s.sql.contains(" MODIFY COLUMN ") && s.sql.ends_with(clause),
            "{}",
            s.sql
        );
    }
    drop(session);

    let id_before = db.innodb_table_id("Wide").await;
    let sum_before = db.checksum("Wide", COLUMNS).await;
    assert_eq!(sum_before.0, 1_048_576);

    let measuring = Arc::new(AtomicBool::new(false));
    let stop = Arc::new(AtomicBool::new(false));
    let readers: Vec<_> = (0..2)
        .map(|_| tokio::spawn(reader(db.pool.clone(), measuring.clone(), stop.clone())))
        .collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    measuring.store(true, Ordering::SeqCst);
    let started = Instant::now();
    let report = apply::run(
        &target,
        &target.schema,
        &tables,
        &opts().widens(cat.widens()),
    )
    .await
    .expect("apply runs");
    let took = started.elapsed();
    measuring.store(false, Ordering::SeqCst);
    stop.store(true, Ordering::SeqCst);
    let mut reads = Vec::new();
    for r in readers {
        reads.extend(r.await.unwrap());
    }
    assert_eq!(report.outcome, Outcome::Converged, "{report:#?}");
    assert_eq!(report.server_ddl_count, Some(widened.len() as u64));
    let max_read = reads.iter().copied().max().unwrap_or_default();
    let steps: Vec<String> = report
        .steps
        .iter()
        .map(|s| format!("{} {} ms", s.object, s.ms))
        .collect();
    println!(
        "widen {} ({}): apply {:.0} ms for {} steps [{}]; {} reads beside it, max {:.1} ms",
        db.flavor,
        db.version,
        took.as_secs_f64() * 1000.0,
        report.steps.len(),
        steps.join(", "),
        reads.len(),
        max_read.as_secs_f64() * 1000.0
    );
    assert!(!reads.is_empty(), "no application read ran beside apply");
    assert!(
        max_read <= LOCK_WAIT,
        "an application read was stalled {max_read:?}, beyond --lock-wait {LOCK_WAIT:?}"
    );
    assert_eq!(
        db.innodb_table_id("Wide").await,
        id_before,
        "the table was rebuilt"
    );
    assert_eq!(
        db.checksum("Wide", COLUMNS).await,
        sum_before,
        "rows changed"
    );
    let v = verify_schema(&db, &cat).await;
    assert!(v.ok, "{:#?}", v.problems);
    common::applied::assert_idle(&db, &tables).await;
}

/// One refused case: the legacy column, the catalog's, and the drift kind.
struct Refused {
    name: &'static str,
    legacy: &'static str,
    catalog: &'static str,
    kind: ProblemKind,
}

fn refused_cases(flavor: Flavor) -> Vec<Refused> {
    let mut cases = vec![
        Refused {
            name: "narrowing",
            legacy: "varchar(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL",
            catalog: "varchar(32)",
            kind: ProblemKind::ColumnType,
        },
        Refused {
            // utf8mb4 32 -> 64 characters: 128 -> 256 bytes. MySQL: across
            // the 255-byte class; MariaDB: 128-255 -> 256+.
            name: "length class crossing",
            legacy: "varchar(32) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL",
            catalog: "varchar(64)",
            kind: ProblemKind::ColumnType,
        },
        Refused {
            name: "enum member reordered",
            legacy: "enum('a','b') CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL",
            catalog: "\"enum('b','a')\"",
            kind: ProblemKind::ColumnType,
        },
        Refused {
            name: "enum member removed",
            legacy: "enum('a','b','c') CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL",
            catalog: "\"enum('a','b')\"",
            kind: ProblemKind::ColumnType,
        },
        Refused {
            name: "charset change",
            legacy: "varchar(32) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL",
            catalog: "varchar(32), collation: latin1_bin",
            kind: ProblemKind::ColumnCollation,
        },
        Refused {
            name: "integer widening",
            legacy: "int DEFAULT NULL",
            catalog: "bigint",
            kind: ProblemKind::ColumnType,
        },
    ];
    if flavor == Flavor::MySql {
        // MariaDB's 0-127 -> 256+ row is not MySQL's: 124 -> 256 bytes.
        cases.push(Refused {
            name: "short varchar to 256+ bytes on MySQL",
            legacy: "varchar(31) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL",
            catalog: "varchar(64)",
            kind: ProblemKind::ColumnType,
        });
    }
    cases
}

#[tokio::test]
async fn refused_widenings_are_drift_and_the_server_would_copy() {
    let probe = TestDb::new().await;
    let flavor = probe.flavor;
    drop(probe);
    for case in refused_cases(flavor) {
        let db = TestDb::new().await;
        db.exec(&[
            &format!(
                "CREATE TABLE `R` (`Id` int NOT NULL, `C` {}, PRIMARY KEY (`Id`)) \
                 ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
                case.legacy
            ),
            "INSERT INTO `R` (`Id`) VALUES (1), (2), (3)",
        ])
        .await;
        let table = format!(
            "table: R\ncolumns:\n  - {{name: Id, type: int, nullable: false}}\n  - {{name: C, type: {}}}\nprimary_key: [Id]\n",
            case.catalog
        );
        let settings =
            "defaults:\n  collation: utf8mb4_bin\n  widen: true\nflavors: [mysql, mariadb]\n";
        let dir = catalog_dir(&[("catalog.yaml", settings), ("r.yaml", &table)]);
        let cat = catalog::load(dir.path()).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let tables = catalog_tables(&cat);
        let report =
            assert_apply_refused(&db, (&tables, cat.widens()), &[("R", &["Id", "C"])]).await;
        common::applied::assert_drift(&report, "R", "C", case.kind);
        assert!(
            report
                .drift
                .iter()
                .any(|p| p.object == "C" && p.actual.to_string().contains("not an online widening")),
            "{}: {:#?}",
            case.name,
            report.drift
        );
        // The server itself: the same MODIFY with either online clause is
        // refused (1846: the algorithm is not supported; 1845: the lock).
        let column = tables[0].columns[1].clone();
        let modify = schema_catalog::ddl::widen_column(
            &tables[0].name,
            &column,
            &tables[0].defaults(),
            Some(schema_catalog::ddl::ColumnAlgorithm::Instant),
        );
        let base = modify.trim_end_matches(", ALGORITHM=INSTANT");
        let mut conn = db.pool.get_conn().await.unwrap();
        for clause in ["ALGORITHM=INSTANT", "ALGORITHM=INPLACE, LOCK=NONE"] {
            let sql = format!("{base}, {clause}");
            match conn.query_drop(&sql).await {
                Err(mysql_async::Error::Server(e)) if e.code == 1845 || e.code == 1846 => {}
                other => panic!(
                    "{}: `{sql}` was not refused as not online: {other:?}",
                    case.name
                ),
            }
        }
        drop(conn);
        assert_eq!(
            db.checksum("R", &["Id", "C"]).await.0,
            3,
            "{}: the server's refusal changed nothing",
            case.name
        );
    }
}

/// The busy rules hold for a widening step: a transaction that read the
/// table defers it (no DDL, the holder named); once it commits, the step
/// runs and the column is exact.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_widening_waits_for_a_transaction_on_the_table() {
    let db = TestDb::new().await;
    db.exec(&[
        LEGACY,
        "INSERT INTO `Wide` (`V`, `D`) VALUES ('v1', 1), ('v2', 2)",
    ])
    .await;
    let table = "table: Wide
columns:
  - {name: Id, type: bigint unsigned, nullable: false, auto_increment: true}
  - {name: V, type: varchar(63), widen: true}
  - {name: W, type: varchar(31)}
  - {name: L, type: varchar(100)}
  - {name: E, type: \"enum('a','b')\"}
  - {name: S, type: \"set('x','y')\"}
  - {name: D, type: int, nullable: false, default: 0}
primary_key: [Id]
";
    let dir = catalog_dir(&[("wide.yaml", table)]);
    let cat = catalog::load(dir.path()).unwrap();
    let tables = catalog_tables(&cat);
    let opts = ApplyOptions::default()
        .lock_wait(Duration::from_secs(1))
        .busy_timeout(Duration::from_secs(2))
        .blocker_age(Duration::from_secs(1))
        .read_timeout(Duration::from_secs(20))
        .widens(cat.widens());
    let target = db::parse_url(&db.url()).unwrap();
    let (mut holder, id) = common::holding(&db, "SELECT COUNT(*) FROM Wide").await;
    let report = apply::run(&target, &db.name, &tables, &opts)
        .await
        .expect("apply runs");
    match &report.outcome {
        Outcome::Deferred { blockers, .. } => assert!(
            blockers.iter().any(|b| b.connection_id == id),
            "{report:#?}"
        ),
        other => panic!("not deferred: {other:?}\n{report:#?}"),
    }
    assert_eq!(report.server_ddl_count, Some(0), "{report:#?}");
    holder.query_drop("COMMIT").await.unwrap();
    let again = apply::run(&target, &db.name, &tables, &opts)
        .await
        .expect("apply runs");
    assert_eq!(again.outcome, Outcome::Converged, "{again:#?}");
    assert_eq!(again.steps.len(), 1, "{again:#?}");
    assert_eq!(again.steps[0].kind, "widen_column");
    common::applied::assert_idle(&db, &tables).await;
}
