//! A view under a catalog table's name is drift (`not_a_table`): verify
//! fails, apply refuses before any DDL, and a dump plan agrees with the live one.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::TestDb;

const TABLE: &str = "table: W1
columns:
  - { name: Id, type: bigint unsigned, nullable: false }
  - { name: K, type: varchar(64) }
primary_key: [Id]
indexes:
  - { name: idx_k, columns: [K] }
";

fn catalog(dir: &Path, args: &[&str]) -> (Option<i32>, serde_json::Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_catalog"))
        .arg("--catalog")
        .arg(dir)
        .args(["--format", "json"])
        .args(args)
        .env_remove("DATABASE_URL")
        .output()
        .unwrap();
    let doc = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code(), doc)
}

#[tokio::test]
async fn a_view_with_the_tables_name_is_refused_live_and_offline() {
    let dir = common::catalog_dir(&[("w1.yaml", TABLE)]);
    let db = TestDb::new().await;
    db.exec(&[
        "CREATE TABLE `b` (`Id` bigint unsigned NOT NULL, `K` varchar(64), PRIMARY KEY (`Id`))",
        "CREATE VIEW `W1` AS SELECT `Id`, `K` FROM `b`",
    ])
    .await;
    let before = db.snapshot().await;
    let url = db.url();

    let (code, doc) = catalog(dir.path(), &["--database-url", &url, "verify"]);
    assert_eq!(code, Some(1), "{doc}");
    assert_eq!(doc["problems"][0]["kind"], "not_a_table", "{doc}");
    assert_eq!(doc["problems"][0]["actual"], "VIEW", "{doc}");

    let (code, doc) = catalog(dir.path(), &["--database-url", &url, "apply"]);
    assert_eq!(code, Some(1), "{doc}");
    assert_eq!(doc["server_ddl_count"], 0, "{doc}");
    assert_eq!(doc["drift"][0]["kind"], "not_a_table", "{doc}");
    assert_eq!(db.snapshot().await, before, "nothing changed");

    let (live_code, live) = catalog(dir.path(), &["--database-url", &url, "plan"]);
    let dump = common::scratch_dir("view-under-table-name").join("dump.sql");
    db.dump_no_data(&dump);
    let (dump_code, offline) = catalog(dir.path(), &["plan", "--against", dump.to_str().unwrap()]);
    assert_eq!(
        (live_code, dump_code),
        (Some(1), Some(1)),
        "{live}\n{offline}"
    );
    assert_eq!(live["drift"], offline["drift"]);
    assert_eq!(live["steps"], offline["steps"]);
}

#[tokio::test]
async fn mariadb_only_system_versioned_table_is_a_table_and_a_sequence_is_not() {
    let db = TestDb::new().await;
    if !db.is_mariadb() {
        eprintln!(
            "{} has neither system-versioned tables nor sequences (MariaDB features): nothing to run",
            db.version
        );
        return;
    }
    let s1 = TABLE.replace("table: W1", "table: S1");
    let dir = common::catalog_dir(&[("w1.yaml", TABLE), ("s1.yaml", &s1)]);
    db.exec(&[
        "CREATE TABLE `W1` (`Id` bigint unsigned NOT NULL, `K` varchar(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL, \
         PRIMARY KEY (`Id`), KEY `idx_k` (`K`)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin WITH SYSTEM VERSIONING",
        "CREATE SEQUENCE `S1`",
    ])
    .await;
    let (code, doc) = catalog(dir.path(), &["--database-url", &db.url(), "verify"]);
    assert_eq!(code, Some(1), "{doc}");
    let problems = doc["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 1, "only the sequence is a problem: {doc}");
    assert_eq!(problems[0]["table"], "S1");
    assert_eq!(problems[0]["kind"], "not_a_table");
    assert_eq!(problems[0]["actual"], "SEQUENCE");
}
