//! Format v2 CHECK constraints against the real server (each flavor): a
//! catalog declaring them is applied to an empty schema, verified,
//! re-applied with no steps, and imported back (live and from a dump) into
//! the same checks; a live check with another condition is drift, and a
//! declared check missing from an existing table is refused as not online
//! (apply issues no DDL, schema and rows unchanged). Conditions as people
//! write them (row constructors, typed literals, CASE, a column-level CHECK)
//! import, apply elsewhere and verify.

use crate::common;

use std::path::PathBuf;

use common::{catalog_tables, TestDb};
use schema_catalog::catalog::{self, Catalog};
use schema_catalog::diff::ProblemKind;
use schema_catalog::readiness::canonical_expression;
use schema_catalog::Table;

fn fixture() -> Catalog {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/format-v2/checks");
    catalog::load(&dir).expect("the checks fixture loads")
}

/// `name: condition` of each check, conditions in their compared form.
fn checks(t: &Table) -> Vec<String> {
    let mut v: Vec<String> = t
        .checks
        .iter()
        .map(|c| format!("{}: {}", c.name.key(), canonical_expression(&c.expression)))
        .collect();
    v.sort();
    v
}

fn out_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("catalog-checks-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn declared_checks_round_trip() {
    let db = TestDb::new().await;
    let cat = fixture();
    let want = &cat.tables[0].table;
    common::apply_converged(&db, &catalog_tables(&cat)).await;
    let ddl = db.show_create("Job").await;
    for name in ["chk_job_attempts", "chk_job_state", "chk_job_finished"] {
        assert!(ddl.contains(&format!("CONSTRAINT `{name}` CHECK")), "{ddl}");
    }
    // The server enforces them: a violating row is refused.
    let mut conn = db.pool.get_conn().await.unwrap();
    use mysql_async::prelude::Queryable;
    let bad = conn
        .query_drop("INSERT INTO `Job` (`Id`, `State`, `Attempts`) VALUES (1, 'lost', 0)")
        .await;
    assert!(bad.is_err(), "the state check holds");
    drop(conn);

    common::assert_verified_and_idle(&db, &cat).await;

    // import, live and from a dump: the same checks, a catalog check accepts
    for tables in common::import_three_ways(&db, &out_dir("import")).await {
        assert_eq!(checks(&tables[0]), checks(want));
    }
}

/// Builds `Job` with `checks` (SQL constraint lines, may be empty), one
/// row, applies the fixture and requires a refusal with `kind` on `object`.
async fn refused(checks: &str, object: &str, kind: ProblemKind) {
    let db = TestDb::new().await;
    db.exec(&[
        &format!(
            "CREATE TABLE `Job` (`Id` bigint unsigned NOT NULL, `State` varchar(32) NOT NULL,
              `Attempts` int NOT NULL DEFAULT 0, `FinishedAt` datetime(6) NULL,
              PRIMARY KEY (`Id`){checks})
              ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
        ),
        "INSERT INTO `Job` VALUES (1, 'pending', 3, NULL)",
    ])
    .await;
    let columns: &[&str] = &["Id", "State", "Attempts", "FinishedAt"];
    let report =
        common::assert_apply_refused(&db, &catalog_tables(&fixture()), &[("Job", columns)]).await;
    let p = common::drift_on(&report, object);
    assert_eq!(p.kind, kind, "{p}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drift_other_check_condition_is_refused() {
    refused(
        ", CONSTRAINT `chk_job_attempts` CHECK (`Attempts` between 0 and 10),
           CONSTRAINT `chk_job_state` CHECK (`State` in ('pending','running','done')),
           CONSTRAINT `chk_job_finished` CHECK (`State` <> 'done' or `FinishedAt` is not null)",
        "chk_job_attempts",
        ProblemKind::CheckExpression,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn adding_a_check_to_an_existing_table_is_refused_as_not_online() {
    refused(
        ", CONSTRAINT `chk_job_attempts` CHECK (`Attempts` between 0 and 100),
           CONSTRAINT `chk_job_finished` CHECK (`State` <> 'done' or `FinishedAt` is not null)",
        "chk_job_state",
        ProblemKind::CheckNotOnline,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drift_check_literal_in_another_case_is_refused() {
    // The servers keep a condition's string literals as written (MySQL:
    // `_utf8mb4\'Done\'`, MariaDB: `'Done'`): `'Done'` is not the declared
    // `'done'`, whatever the collation.
    refused(
        ", CONSTRAINT `chk_job_attempts` CHECK (`Attempts` between 0 and 100),
           CONSTRAINT `chk_job_state` CHECK (`State` in ('pending','running','done')),
           CONSTRAINT `chk_job_finished` CHECK (`State` <> 'Done' or `FinishedAt` is not null)",
        "chk_job_finished",
        ProblemKind::CheckExpression,
    )
    .await;
}

/// `Pair`, as a person writes it: conditions beyond one compared value (a
/// row constructor, typed temporal literals, CASE), an inline column-level
/// CHECK (MariaDB keeps it under the column's name, MySQL as `Pair_chk_1`)
/// and, on MySQL (MariaDB has no functional key parts), a CASE key part
/// with a string literal (STATISTICS.EXPRESSION escapes its quotes).
/// `pair`: the row list of `chk_pair`.
fn pair_sql(db: &TestDb, pair: &str) -> String {
    let key = if db.is_mariadb() {
        ""
    } else {
        ", KEY `k_kind` ((case when `Kind` is null then '' else `Kind` end))"
    };
    format!(
        "CREATE TABLE `Pair` (`Id` bigint NOT NULL, `A` int NOT NULL, `B` int NOT NULL,
          `Kind` varchar(16) NULL CHECK (`Kind` in ('x', 'y')), `Day` date NOT NULL,
          PRIMARY KEY (`Id`),
          CONSTRAINT `chk_pair` CHECK ((`A`, `B`) in ({pair})),
          CONSTRAINT `chk_day` CHECK (`Day` >= DATE '2020-01-01' and `Day` < DATE'2031-01-01'),
          CONSTRAINT `chk_case` CHECK ((case when `A` = 1 then `B` else 3 end) = 3){key})
          ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_written_conditions_import_apply_and_verify() {
    let src = TestDb::new().await;
    src.exec(&[&pair_sql(&src, "(1, 3), (2, 4)")]).await;
    let [live, reloaded, dumped] = common::import_three_ways(&src, &out_dir("pair")).await;
    let want = checks(&live[0]);
    let column_check = if src.is_mariadb() {
        "kind"
    } else {
        "pair_chk_1"
    };
    assert_eq!(
        want.iter()
            .map(|c| c.split(':').next().unwrap())
            .collect::<Vec<_>>(),
        ["chk_case", "chk_day", "chk_pair", column_check],
        "{want:#?}"
    );
    assert_eq!(checks(&reloaded[0]), want);
    assert_eq!(checks(&dumped[0]), want);
    assert_eq!(live[0].indexes.len(), usize::from(!src.is_mariadb()));

    // The imported catalog builds the same table elsewhere, which then
    // verifies and imports back into the same checks and key parts.
    let dst = TestDb::new().await;
    common::apply_converged(&dst, &reloaded).await;
    common::assert_idle(&dst, &reloaded).await;
    let [back, _, _] = common::import_three_ways(&dst, &out_dir("pair-back")).await;
    assert_eq!(checks(&back[0]), want);
    assert_eq!(back[0].indexes, live[0].indexes);
    // The server enforces the row condition it was given.
    let mut conn = dst.pool.get_conn().await.unwrap();
    use mysql_async::prelude::Queryable;
    let bad = conn
        .query_drop("INSERT INTO `Pair` VALUES (1, 1, 4, NULL, '2024-01-01')")
        .await;
    assert!(bad.is_err(), "(1, 4) is not one of the rows");
    conn.query_drop("INSERT INTO `Pair` VALUES (1, 2, 4, 'x', '2024-01-01')")
        .await
        .expect("(2, 4) is");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drift_row_condition_in_another_order_is_refused() {
    let src = TestDb::new().await;
    src.exec(&[&pair_sql(&src, "(1, 3), (2, 4)")]).await;
    let [_, catalog, _] = common::import_three_ways(&src, &out_dir("pair-src")).await;
    // The same rows as (3, 1), (2, 4): another condition, compared exactly.
    let db = TestDb::new().await;
    db.exec(&[&pair_sql(&db, "(3, 1), (2, 4)")]).await;
    let report = common::assert_apply_refused(&db, &catalog, &[]).await;
    let p = common::drift_on(&report, "chk_pair");
    assert_eq!(p.kind, ProblemKind::CheckExpression, "{p}");
}
