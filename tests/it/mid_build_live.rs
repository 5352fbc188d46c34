//! Failures the server reports in the middle of an index build (docs/apply.md
//! "Failures mid-build"): 1062 from a concurrent write during an online ADD
//! UNIQUE, 1878 when the sort files do not fit in the tmpdir, 1799 when the
//! concurrent writes outgrow `innodb_online_alter_log_max_size`, 1114 when
//! the data directory's disk is full. Each run stops with a message naming the step,
//! the cause and the setting; the index is absent afterwards; a rerun after
//! the cause is removed converges.
//!
//! These run on the small server of the flavor under test, started by
//! `scripts/small-server` (a tmpfs tmpdir, a 64 KB online log, a tmpfs
//! data directory), never on the shared servers:
//! `CATALOG_TEST_SMALL_SERVER` names it (scripts/test sets it: MariaDB's
//! 3506 for the 3306 run, MySQL's 3508 for the 3307 run). Without it the
//! tests fail. They share that server's tmpdir and globals, so they run
//! one at a time.

use crate::common;

use std::time::{Duration, Instant};

use common::TestDb;
use mysql_async::prelude::*;
use schema_catalog::apply::{self, ApplyOptions, ApplyReport, Outcome, StepStatus};
use schema_catalog::{catalog, Table};

/// One test at a time on the small server.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

const ACCT_YAML: &str = "table: Acct
columns:
  - { name: Id, type: int, nullable: false, auto_increment: true }
  - { name: Email, type: varchar(255) }
primary_key: [Id]
indexes:
  - { name: uq_acct_email, columns: [Email], unique: true }
";

const CATALOG_YAML: &str =
    "defaults:\n  engine: InnoDB\n  charset: utf8mb4\n  collation: utf8mb4_bin\n";

const CREATE_ACCT: &str = "CREATE TABLE `Acct` (`Id` int NOT NULL AUTO_INCREMENT, \
     `Email` varchar(255) COLLATE utf8mb4_bin DEFAULT NULL, PRIMARY KEY (`Id`)) \
     ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";

/// The small server of the flavor under test; fails the test without it.
async fn small_db() -> TestDb {
    let url = std::env::var("CATALOG_TEST_SMALL_SERVER").unwrap_or_else(|_| {
        panic!(
            "CATALOG_TEST_SMALL_SERVER is not set: run `scripts/small-server start mariadb` \
             (with the 3306 run) or `scripts/small-server start mysql` (with the 3307 run) and \
             set it to the URL `scripts/small-server url ...` prints; scripts/test does both"
        )
    });
    let db = TestDb::new_at(&url).await;
    let main = TestDb::new().await;
    assert_eq!(
        db.flavor, main.flavor,
        "CATALOG_TEST_SMALL_SERVER must be of the flavor under test"
    );
    db
}

fn vendor(db: &TestDb) -> &'static str {
    if db.is_mariadb() {
        "mariadb"
    } else {
        "mysql"
    }
}

/// `scripts/small-server CMD VENDOR`.
fn script(cmd: &str, db: &TestDb) {
    let out = std::process::Command::new(common::repo_root().join("scripts/small-server"))
        .args([cmd, vendor(db)])
        .output()
        .expect("scripts/small-server runs");
    assert!(
        out.status.success(),
        "scripts/small-server {cmd}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn tables() -> Vec<Table> {
    let dir = common::catalog_dir(&[("catalog.yaml", CATALOG_YAML), ("acct.yaml", ACCT_YAML)]);
    common::catalog_tables(&catalog::load(dir.path()).unwrap())
}

/// Fills `Acct` with 2^`doublings` rows of distinct 200-character emails.
async fn fill_acct(db: &TestDb, doublings: usize) {
    db.exec(&["INSERT INTO `Acct` (`Email`) VALUES (NULL)"])
        .await;
    for _ in 0..doublings {
        db.exec(&["INSERT INTO `Acct` (`Email`) SELECT NULL FROM `Acct`"])
            .await;
    }
    db.exec(&["UPDATE `Acct` SET `Email` = CONCAT(LPAD(`Id`, 10, '0'), REPEAT('x', 190))"])
        .await;
}

fn opts() -> ApplyOptions {
    // The step waits for its commit lock while a test's transaction is
    // open: long enough for the test to end it.
    ApplyOptions::default()
        .lock_wait(Duration::from_secs(120))
        .busy_timeout(Duration::from_secs(30))
        .read_timeout(Duration::from_secs(30))
}

async fn run(db: &TestDb, opts: &ApplyOptions) -> ApplyReport {
    let target = schema_catalog::db::parse_url(&db.url()).unwrap();
    apply::apply(&target, &db.name, &tables(), opts)
        .await
        .expect("apply runs")
}

/// The run stopped at the index step with `code`, naming the setting; the
/// index is absent (from the message and from SHOW CREATE TABLE).
async fn assert_failed_mid_build(db: &TestDb, report: &ApplyReport, code: u16, setting: &str) {
    assert_failed_with_one_of(db, report, &[code], setting).await;
}

/// [`assert_failed_mid_build`] with any of `codes`.
async fn assert_failed_with_one_of(
    db: &TestDb,
    report: &ApplyReport,
    codes: &[u16],
    setting: &str,
) {
    let Outcome::Stopped {
        message,
        ddl_issued,
    } = &report.outcome
    else {
        panic!("not stopped: {report:#?}")
    };
    assert!(!ddl_issued, "{report:#?}");
    assert_eq!(report.steps.len(), 1, "{report:#?}");
    assert_eq!(report.steps[0].status, StepStatus::Failed, "{report:#?}");
    assert!(
        codes
            .iter()
            .any(|c| message.contains(&format!("error {c} ("))),
        "none of {codes:?} in: {message}"
    );
    for part in [
        "step 1/1 add_index `Acct`.`uq_acct_email` failed mid-build".to_string(),
        setting.to_string(),
        "nothing of it is left: `Acct` has no index `uq_acct_email`".to_string(),
    ] {
        assert!(message.contains(&part), "{part:?} not in: {message}");
    }
    let created = db.show_create("Acct").await;
    assert!(!created.contains("uq_acct_email"), "{created}");
}

async fn assert_converges(db: &TestDb) {
    let report = run(db, &opts()).await;
    assert_eq!(report.outcome, Outcome::Converged, "{report:#?}");
    assert_eq!(report.steps[0].status, StepStatus::Applied, "{report:#?}");
    let created = db.show_create("Acct").await;
    assert!(created.contains("UNIQUE KEY `uq_acct_email`"), "{created}");
}

/// The state of the session running the step's ALTER, if one runs.
async fn alter_state(watch: &mut mysql_async::Conn, db: &TestDb) -> Option<String> {
    watch
        .exec_first::<Option<String>, _, _>(
            "SELECT STATE FROM information_schema.PROCESSLIST \
             WHERE DB = ? AND INFO LIKE 'ALTER TABLE%'",
            (&db.name,),
        )
        .await
        .unwrap()
        .flatten()
}

/// Runs apply and, once its ALTER is building the index (past its
/// prepare phase: state `altering table`), opens a reader's transaction
/// on the table, runs `write` (autocommit) and keeps the reader's
/// transaction open until the ALTER waits for its commit lock: the write
/// lands in the online log while the index is built. Then ends the
/// reader's transaction and gives the report.
async fn apply_with_write_during_build(db: &TestDb, write: &str) -> ApplyReport {
    let target = schema_catalog::db::parse_url(&db.url()).unwrap();
    let (tables, opts) = (tables(), opts());
    let done = std::sync::atomic::AtomicBool::new(false);
    let finished = || done.load(std::sync::atomic::Ordering::SeqCst);
    let run = async {
        let report = apply::apply(&target, &db.name, &tables, &opts)
            .await
            .expect("apply runs");
        done.store(true, std::sync::atomic::Ordering::SeqCst);
        report
    };
    let write_during = async {
        let mut watch = db.pool.get_conn().await.unwrap();
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            assert!(!finished(), "the ALTER was not seen building");
            assert!(Instant::now() < deadline, "no ALTER building within 120 s");
            if alter_state(&mut watch, db).await.as_deref() == Some("altering table") {
                break;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        // A reader's open transaction holds the table's metadata lock
        // (shared, as the building ALTER's is): the ALTER cannot commit
        // before it ends, so the write below lands while the index is
        // still being built, whatever the machine's speed.
        let mut holder = db.pool.get_conn().await.unwrap();
        holder.query_drop("BEGIN").await.unwrap();
        holder
            .query_drop("SELECT `Id` FROM `Acct` WHERE `Id` = 1")
            .await
            .unwrap();
        let mut writer = db.pool.get_conn().await.unwrap();
        // The write may itself be refused once the log overflows: what
        // counts is the ALTER's outcome.
        let _ = writer.query_drop(write).await;
        let deadline = Instant::now() + Duration::from_secs(120);
        while !finished() && Instant::now() < deadline {
            let state = alter_state(&mut watch, db).await;
            if state.as_deref() == Some("Waiting for table metadata lock") {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        holder.query_drop("COMMIT").await.unwrap();
    };
    let (report, ()) = tokio::join!(run, write_during);
    report
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duplicate_written_during_the_build_fails_it_with_1062() {
    let _serial = SERIAL.lock().await;
    let db = small_db().await;
    db.exec(&[CREATE_ACCT]).await;
    fill_acct(&db, 17).await;
    let first: String = db
        .pool
        .get_conn()
        .await
        .unwrap()
        .query_first("SELECT `Email` FROM `Acct` WHERE `Id` = 1")
        .await
        .unwrap()
        .unwrap();
    let report = apply_with_write_during_build(
        &db,
        "INSERT INTO `Acct` (`Email`) SELECT `Email` FROM `Acct` WHERE `Id` = 1",
    )
    .await;
    assert_failed_mid_build(&db, &report, 1062, "no server setting").await;
    let Outcome::Stopped { message, .. } = &report.outcome else {
        unreachable!()
    };
    assert!(message.contains("ER_DUP_ENTRY"), "{message}");
    assert!(
        !message.contains(&first[..10]),
        "the value is shown: {message}"
    );
    // The probe before it found none: the duplicate came during the build.
    assert_eq!(report.duplicate_probes.len(), 1, "{report:#?}");
    // The cause removed: the duplicate row deleted.
    db.exec(&["DELETE FROM `Acct` WHERE `Id` > 131072"]).await;
    assert_converges(&db).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writes_outgrowing_the_online_log_fail_the_build_with_1799() {
    let _serial = SERIAL.lock().await;
    let db = small_db().await;
    db.exec(&[CREATE_ACCT]).await;
    fill_acct(&db, 17).await;
    // About 4 MB of new rows against a 64 KB online log (the log is
    // written, and its size checked, a sort buffer of 1 MB at a time).
    let report = apply_with_write_during_build(
        &db,
        "INSERT INTO `Acct` (`Email`) SELECT CONCAT('n', `Email`) FROM `Acct` WHERE `Id` <= 20000",
    )
    .await;
    // MariaDB answers 1799 when the overflow is found as the ALTER
    // commits (as here), and 1034 (the index being built marked corrupt
    // by the log writer) when its build finds it first; MySQL 1799. Both
    // name the setting.
    let codes: &[u16] = if db.is_mariadb() {
        &[1799, 1034]
    } else {
        &[1799]
    };
    assert_failed_with_one_of(&db, &report, codes, "innodb_online_alter_log_max_size").await;
    // The cause removed: no concurrent writes this time.
    assert_converges(&db).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_tmpdir_fails_the_build_with_1878() {
    let _serial = SERIAL.lock().await;
    let db = small_db().await;
    db.exec(&[CREATE_ACCT]).await;
    fill_acct(&db, 15).await;
    script("fill-tmpdir", &db);
    // The probe's own GROUP BY may want the full tmpdir too: the build's
    // failure is what this test is about.
    let skip = opts().skip_duplicate_probe(true);
    let report = run(&db, &skip).await;
    script("clear-tmpdir", &db);
    assert_failed_mid_build(&db, &report, 1878, "innodb_tmpdir").await;
    assert_converges(&db).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_fails_the_build_with_1114() {
    let _serial = SERIAL.lock().await;
    let db = small_db().await;
    db.exec(&[CREATE_ACCT]).await;
    fill_acct(&db, 15).await;
    // The data directory's disk (a tmpfs of the small server) full: the
    // table's tablespace cannot grow for the index.
    script("fill-datadir", &db);
    let report = run(&db, &opts()).await;
    script("clear-datadir", &db);
    assert_failed_mid_build(&db, &report, 1114, "the data directory's free space").await;
    // The cause removed: the space given back.
    assert_converges(&db).await;
}
