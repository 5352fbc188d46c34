//! The regenerate-and-compare net, against the real server
//! (each flavor): a live table with an attribute only `SHOW CREATE TABLE`
//! shows (information_schema has no trace of it, so the inspected model
//! matches the catalog exactly and plain verify passes) is refused as
//! `unrecognised`, naming the clause, by apply (changing nothing: no step,
//! no DDL, SHOW CREATE TABLE and rows unchanged), by `verify --strict`
//! (the library's `VerifyOptions::default().strict(true)`) and by a live import.
//! Without the net, apply converged and verify --strict passed on each.
//!
//! The attributes, probed on the servers (none is in information_schema):
//! - MySQL 9.7: `AUTOEXTEND_SIZE` (shown as `/*!80023 AUTOEXTEND_SIZE=4194304 */`,
//!   CREATE_OPTIONS empty), a column's `SECONDARY_ENGINE_ATTRIBUTE`, a
//!   column's `COLUMN_FORMAT DYNAMIC`;
//! - MariaDB 10.11: an index's `KEY_BLOCK_SIZE=8`, `WITH SYSTEM
//!   VERSIONING` (TABLE_TYPE `SYSTEM VERSIONED` reads as a base table),
//!   `PERIOD FOR`.

use crate::common;

use common::{catalog_dir, catalog_tables, TestDb};
use schema_catalog::apply::{Outcome, StepStatus};
use schema_catalog::catalog::{self, Catalog};
use schema_catalog::diff::ProblemKind;
use schema_catalog::import::{self, ImportOptions};
use schema_catalog::verify::VerifyOptions;

const SETTINGS: &str =
    "defaults:\n  engine: InnoDB\n  charset: utf8mb4\n  collation: utf8mb4_bin\n";

/// The catalog table `T`: `Id` (primary key), `Note`, and with `periods`
/// the two dates of MariaDB's `PERIOD FOR`; an index `k` on `Note` with
/// `index`.
fn catalog(periods: bool, index: bool) -> Catalog {
    let mut yaml = String::from(
        "table: T\ncolumns:\n  - name: Id\n    type: bigint unsigned\n    nullable: false\n  \
         - name: Note\n    type: varchar(20)\n",
    );
    if periods {
        yaml.push_str(
            "  - name: S\n    type: date\n    nullable: false\n  \
             - name: E\n    type: date\n    nullable: false\n",
        );
    }
    yaml.push_str("primary_key: [Id]\n");
    if index {
        yaml.push_str("indexes:\n  - name: k\n    columns: [Note]\n");
    }
    let dir = catalog_dir(&[("catalog.yaml", SETTINGS), ("t.yaml", &yaml)]);
    let report = catalog::check(dir.path());
    assert_eq!(report.error_count(), 0, "{}", report.render_human());
    report.catalog.unwrap()
}

/// One case: `T` built by `create` with a row, and `clause`, a word the
/// refusal must name.
struct Case {
    create: &'static str,
    periods: bool,
    index: bool,
    clause: &'static str,
}

const OPTIONS: &str = "ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";

fn cases(db: &TestDb) -> Vec<Case> {
    if db.is_mariadb() {
        vec![
            Case {
                create: "CREATE TABLE `T` (`Id` bigint unsigned NOT NULL, `Note` varchar(20), \
                         PRIMARY KEY (`Id`), KEY `k` (`Note`) KEY_BLOCK_SIZE=8) ",
                periods: false,
                index: true,
                clause: "KEY_BLOCK_SIZE",
            },
            Case {
                create: "CREATE TABLE `T` (`Id` bigint unsigned NOT NULL, `Note` varchar(20), \
                         PRIMARY KEY (`Id`)) WITH SYSTEM VERSIONING ",
                periods: false,
                index: false,
                clause: "SYSTEM",
            },
            Case {
                create: "CREATE TABLE `T` (`Id` bigint unsigned NOT NULL, `Note` varchar(20), \
                         `S` date NOT NULL, `E` date NOT NULL, PERIOD FOR `p` (`S`, `E`), \
                         PRIMARY KEY (`Id`)) ",
                periods: true,
                index: false,
                clause: "PERIOD",
            },
        ]
    } else {
        vec![
            Case {
                create: "CREATE TABLE `T` (`Id` bigint unsigned NOT NULL, `Note` varchar(20), \
                         PRIMARY KEY (`Id`)) AUTOEXTEND_SIZE=4M ",
                periods: false,
                index: false,
                clause: "AUTOEXTEND_SIZE",
            },
            Case {
                create: "CREATE TABLE `T` (`Id` bigint unsigned NOT NULL, \
                         `Note` varchar(20) SECONDARY_ENGINE_ATTRIBUTE='{\"a\": 1}', \
                         PRIMARY KEY (`Id`)) ",
                periods: false,
                index: false,
                clause: "SECONDARY_ENGINE_ATTRIBUTE",
            },
            Case {
                create: "CREATE TABLE `T` (`Id` bigint unsigned NOT NULL, \
                         `Note` varchar(20) COLUMN_FORMAT DYNAMIC, PRIMARY KEY (`Id`)) ",
                periods: false,
                index: false,
                clause: "COLUMN_FORMAT",
            },
        ]
    }
}

/// Verify of `cat`, strict or not.
async fn verify(db: &TestDb, cat: &Catalog, strict: bool) -> schema_catalog::verify::VerifyReport {
    let target = schema_catalog::db::parse_url(&db.url()).unwrap();
    let mut s = schema_catalog::db::connect(&target, std::time::Duration::from_secs(20))
        .await
        .unwrap();
    schema_catalog::verify(
        &mut s,
        cat,
        &VerifyOptions::default().strict(strict).schema(&db.name),
    )
    .await
    .expect("verify runs")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_attribute_only_show_create_shows_is_refused_by_apply_import_and_strict_verify() {
    let probe = TestDb::new().await;
    for case in cases(&probe) {
        let db = TestDb::new().await;
        let cols = if case.periods {
            "(`Id`, `Note`, `S`, `E`) VALUES (1, 'x', '2020-01-01', '2021-01-01')"
        } else {
            "(`Id`, `Note`) VALUES (1, 'x')"
        };
        db.exec(&[
            &format!("{}{OPTIONS}", case.create),
            &format!("INSERT INTO `T` {cols}"),
            // A plain table beside it, which import still takes.
            "CREATE TABLE `Plain` (`Id` int NOT NULL, PRIMARY KEY (`Id`))",
        ])
        .await;
        let cat = catalog(case.periods, case.index);
        let what = case.clause;

        // Plain verify reads information_schema only: it sees the
        // catalog's table (the net is what finds the clause).
        let plain = verify(&db, &cat, false).await;
        assert!(plain.ok, "{what}: plain verify {:#?}", plain.problems);

        let strict = verify(&db, &cat, true).await;
        assert!(!strict.ok, "{what}: verify --strict passed");
        let p = strict
            .problems
            .iter()
            .find(|p| p.kind == ProblemKind::Unrecognised && p.table == "T")
            .unwrap_or_else(|| panic!("{what}: {:#?}", strict.problems));
        assert!(p.actual.to_string().contains(what), "{what}: {p:#?}");

        let tables = catalog_tables(&cat);
        let report = common::assert_apply_refused(&db, &tables, &[("T", &["Id", "Note"])]).await;
        common::assert_drift(&report, "T", "T", ProblemKind::Unrecognised);
        assert!(
            report
                .drift
                .iter()
                .any(|p| p.actual.to_string().contains(what)),
            "{what}: {:#?}",
            report.drift
        );

        let target = schema_catalog::db::parse_url(&db.url()).unwrap();
        let mut s = schema_catalog::db::connect(&target, std::time::Duration::from_secs(20))
            .await
            .unwrap();
        let sources = import::read_live(&mut s, &db.name, &[]).await.unwrap();
        let failed = import::build("live", sources.clone(), &ImportOptions::default())
            .expect_err("import of T must fail");
        assert!(
            failed.to_string().contains("`T`") && failed.to_string().contains(what),
            "{what}: {failed}"
        );
        let skip = ImportOptions::default().skip_unsupported(true);
        let imported = import::build("live", sources, &skip).unwrap();
        let names: Vec<&str> = imported.tables.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["Plain"], "{what}");
        assert!(
            imported
                .skipped
                .iter()
                .any(|u| u.table == "T" && format!("{} {}", u.object, u.reason).contains(what)),
            "{what}: {:#?}",
            imported.skipped
        );
    }
}

/// The statement that gives table `t` an attribute only SHOW CREATE TABLE
/// shows, with a word its refusal names (verify_cli's `strict_runs_the_net`
/// uses the same two).
fn attribute_of(db: &TestDb, t: &str) -> (String, &'static str) {
    if db.is_mariadb() {
        (
            format!("ALTER TABLE `{t}` ADD SYSTEM VERSIONING"),
            "SYSTEM VERSIONING",
        )
    } else {
        (
            format!("ALTER TABLE `{t}` AUTOEXTEND_SIZE=4M"),
            "AUTOEXTEND_SIZE",
        )
    }
}

/// Tables `A` and `B` of one shape: `Id` (primary key), `Note`, `Extra`.
fn two_tables() -> Vec<schema_catalog::Table> {
    let table = |name: &str| {
        format!(
            "table: {name}\ncolumns:\n  - name: Id\n    type: bigint unsigned\n    nullable: false\n  \
             - name: Note\n    type: varchar(20)\n  - name: Extra\n    type: varchar(20)\nprimary_key: [Id]\n"
        )
    };
    let (a, b) = (table("A"), table("B"));
    let dir = catalog_dir(&[("catalog.yaml", SETTINGS), ("a.yaml", &a), ("b.yaml", &b)]);
    let report = catalog::check(dir.path());
    assert_eq!(report.error_count(), 0, "{}", report.render_human());
    catalog_tables(&report.catalog.unwrap())
}

/// `name` as the catalog declares it, with or without `Extra`.
fn create(name: &str, extra: bool) -> String {
    format!(
        "CREATE TABLE `{name}` (`Id` bigint unsigned NOT NULL, `Note` varchar(20), {}\
         PRIMARY KEY (`Id`)) {OPTIONS}",
        if extra { "`Extra` varchar(20), " } else { "" }
    )
}

/// Apply of `tables` with `hook` as its progress callback.
async fn apply_with(
    db: &TestDb,
    tables: &[schema_catalog::Table],
    hook: schema_catalog::apply::ProgressFn,
) -> schema_catalog::apply::ApplyReport {
    let budget = std::time::Duration::from_secs(20);
    let opts = schema_catalog::apply::ApplyOptions::default()
        .lock_timeout(budget)
        .read_timeout(budget)
        .progress(hook);
    let target = schema_catalog::db::parse_url(&db.url()).unwrap();
    schema_catalog::apply::run(&target, &target.schema, tables, &opts)
        .await
        .expect("apply runs")
}

/// Applies `tables` to `db` where `B` gains an attribute only SHOW CREATE
/// TABLE shows while the first step (`A`'s `Extra`) runs; the run must
/// have stopped after that step, with the steps `steps` and a message
/// that starts with `starts` and names the clause. Returns the report and
/// the clause.
async fn stopped_by_the_net(
    db: &TestDb,
    steps: &[(&str, StepStatus)],
    starts: &str,
) -> (schema_catalog::apply::ApplyReport, &'static str) {
    let (alter, clause) = attribute_of(db, "B");
    // Both tables' steps add `Extra`; the hook fires once, at the first.
    let hook = common::race_at_start(db.url(), "Extra", alter);
    let report = apply_with(db, &two_tables(), hook).await;
    let statuses: Vec<(&str, StepStatus)> = report
        .steps
        .iter()
        .map(|s| (s.table.as_str(), s.status))
        .collect();
    assert_eq!(statuses, steps, "{report:#?}");
    match &report.outcome {
        Outcome::Stopped {
            message,
            ddl_issued: true,
        } => assert!(
            message.starts_with(starts)
                && message.contains("unrecognised")
                && message.contains(clause),
            "{clause}: {message}"
        ),
        other => panic!("{clause}: {other:#?}"),
    }
    (report, clause)
}

/// `(table, kind)` of each problem.
fn kinds(problems: &[schema_catalog::diff::Problem]) -> Vec<(&str, ProblemKind)> {
    problems
        .iter()
        .map(|p| (p.table.as_str(), p.kind))
        .collect()
}

/// Apply's final verify is netted: `A` lacks `Extra` (one step), `B` is
/// complete, and while the step runs `B` gains an attribute only SHOW
/// CREATE TABLE shows. The step is applied, then the final verify finds
/// `B` unrecognised, naming the clause, and the run is stopped (CLI exit
/// 3), not `converged`; `plan` says the same of the schema afterwards.
/// Without the net in the final verify the run said converged.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_final_verify_refuses_what_only_show_create_shows() {
    let db = TestDb::new().await;
    db.exec(&[&create("A", false), &create("B", true)]).await;
    let (_, clause) =
        stopped_by_the_net(&db, &[("A", StepStatus::Applied)], "final verify failed: ").await;
    let target = schema_catalog::db::parse_url(&db.url()).unwrap();
    let mut s = schema_catalog::db::connect(&target, std::time::Duration::from_secs(20))
        .await
        .unwrap();
    let plan =
        schema_catalog::live::plan_live(&mut s, &db.name, &two_tables(), &Default::default())
            .await
            .unwrap();
    assert!(plan.steps.is_empty(), "{:#?}", plan.steps);
    assert_eq!(
        kinds(&plan.drift),
        [("B", ProblemKind::Unrecognised)],
        "{:#?}",
        plan.drift
    );
    assert!(
        plan.drift[0].actual.to_string().contains(clause),
        "{:#?}",
        plan.drift
    );
}

/// Apply's re-read before each step is netted: `A` and `B` both lack
/// `Extra` (two steps), and while `A`'s step runs `B` gains an attribute
/// only SHOW CREATE TABLE shows. `B`'s step is not run: the run stops on
/// `B`'s new `unrecognised` drift, naming the clause, and `B` keeps its
/// shape (no `Extra`). Without the net in the re-read, `B`'s column was
/// added and the run converged (MySQL), or the step was sent and the
/// server refused it (MariaDB, error 4119 on a system-versioned table):
/// the run failed mid-way instead of stopping before the DDL.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_step_stops_on_what_only_show_create_shows() {
    let db = TestDb::new().await;
    db.exec(&[&create("A", false), &create("B", false)]).await;
    let (report, _) = stopped_by_the_net(
        &db,
        &[("A", StepStatus::Applied), ("B", StepStatus::Failed)],
        "table `B` drifted during the run: ",
    )
    .await;
    assert_eq!(
        kinds(&report.drift),
        [("B", ProblemKind::Unrecognised)],
        "{report:#?}"
    );
    let b = db.show_create("B").await;
    assert!(!b.contains("`Extra`"), "B was altered: {b}");
}
