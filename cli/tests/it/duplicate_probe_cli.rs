//! The duplicate probe through the binary (docs/apply.md "Before the first
//! DDL: duplicate probe"): a UNIQUE index added to an existing table whose
//! rows share a key is refused before any DDL (exit 1), naming the table,
//! the index and the number of duplicate groups, never the values unless
//! `--show-duplicates`; the probe groups as the index compares (a `_ci`
//! collation, a prefix part) and leaves NULLs out; a probe the server ends
//! at `--probe-timeout` refuses too, and `--skip-duplicate-probe` goes on.

use crate::cli_support;
use crate::common;

use std::process::Output;

use cli_support::{json, run};
use common::TestDb;

const ACCT_YAML: &str = "table: Acct
columns:
  - { name: Id, type: int, nullable: false, auto_increment: true }
  - { name: Email, type: varchar(64), collation: utf8mb4_general_ci }
  - { name: Code, type: varchar(32) }
primary_key: [Id]
indexes:
  - { name: uq_acct_email, columns: [Email], unique: true }
  - { name: uq_acct_code, columns: [{column: Code, length: 3}], unique: true }
";

const CATALOG_YAML: &str =
    "defaults:\n  engine: InnoDB\n  charset: utf8mb4\n  collation: utf8mb4_bin\n";

/// The legacy `Acct` table (no unique index yet) with `rows` (Email, Code).
async fn acct(db: &TestDb, rows: &[(Option<&str>, Option<&str>)]) {
    db.exec(&["CREATE TABLE `Acct` (`Id` int NOT NULL AUTO_INCREMENT, \
         `Email` varchar(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci DEFAULT NULL, \
         `Code` varchar(32) COLLATE utf8mb4_bin DEFAULT NULL, PRIMARY KEY (`Id`)) \
         ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"])
        .await;
    let lit = |v: Option<&str>| v.map_or("NULL".to_string(), |s| format!("'{s}'"));
    let values: Vec<String> = rows
        .iter()
        .map(|(e, c)| format!("({}, {})", lit(*e), lit(*c)))
        .collect();
    if !values.is_empty() {
        db.exec(&[&format!(
            "INSERT INTO `Acct` (`Email`, `Code`) VALUES {}",
            values.join(", ")
        )])
        .await;
    }
}

async fn apply(db: &TestDb, json_out: bool, extra: &[&str]) -> Output {
    let dir = common::catalog_dir(&[("catalog.yaml", CATALOG_YAML), ("acct.yaml", ACCT_YAML)]);
    let mut args = vec![
        "--catalog".to_string(),
        dir.path().display().to_string(),
        "--database-url".to_string(),
        db.url(),
    ];
    if json_out {
        args.extend(["--format".to_string(), "json".to_string()]);
    }
    args.push("apply".into());
    args.extend(extra.iter().map(|s| s.to_string()));
    run(args).await
}

fn all_output(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn probe<'a>(doc: &'a serde_json::Value, index: &str) -> &'a serde_json::Value {
    doc["duplicate_probes"]
        .as_array()
        .expect("duplicate_probes")
        .iter()
        .find(|p| p["index"] == index)
        .unwrap_or_else(|| panic!("no probe of {index}: {doc:#}"))
}

/// Rows that collide only under the index's rules: `alice@x` / `ALICE@x`
/// under utf8mb4_general_ci, `abc1` / `abc2` in a 3-character prefix; two
/// NULL emails and two NULL codes (never a collision).
const COLLIDING: &[(Option<&str>, Option<&str>)] = &[
    (Some("alice@x"), Some("abc1")),
    (Some("ALICE@x"), Some("abc2")),
    (None, None),
    (None, None),
    (Some("bob@x"), Some("zzz1")),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn duplicates_refuse_before_any_ddl_without_their_values() {
    let db = TestDb::new().await;
    acct(&db, COLLIDING).await;
    let before = db.show_create("Acct").await;

    let out = apply(&db, true, &[]).await;
    assert_eq!(out.status.code(), Some(1), "{}", all_output(&out));
    let doc = json(&out);
    assert_eq!(doc["stopped"]["kind"], "duplicates", "{doc:#}");
    assert_eq!(doc["server_ddl_count"], 0, "no DDL: {doc:#}");
    assert_eq!(doc["steps"].as_array().unwrap().len(), 0, "{doc:#}");
    // One group each: the case-insensitive pair, the prefix pair; the
    // NULLs are not a group.
    for index in ["uq_acct_email", "uq_acct_code"] {
        let p = probe(&doc, index);
        assert_eq!(p["status"], "duplicates", "{p:#}");
        assert_eq!(p["groups"], 1, "{p:#}");
        assert!(p.get("values").is_none(), "no values by default: {p:#}");
    }
    let message = doc["stopped"]["message"].as_str().unwrap();
    assert!(
        message.contains("`Acct`.`uq_acct_email`") && message.contains("1 group(s)"),
        "{message}"
    );
    let text = all_output(&out).to_lowercase();
    for value in ["alice", "abc1", "abc2", "abc"] {
        assert!(!text.contains(value), "value {value} printed:\n{text}");
    }
    assert_eq!(
        db.show_create("Acct").await,
        before,
        "the table is unchanged"
    );

    // Human output: the same refusal, the same silence about values.
    let out = apply(&db, false, &[]).await;
    assert_eq!(out.status.code(), Some(1), "{}", all_output(&out));
    let text = all_output(&out);
    assert!(
        text.contains("unique index `Acct`.`uq_acct_email` cannot be built: 1 group(s)"),
        "{text}"
    );
    assert!(text.contains("no DDL was issued"), "{text}");
    for value in ["alice", "abc1", "abc2"] {
        assert!(
            !text.to_lowercase().contains(value),
            "{value} printed:\n{text}"
        );
    }
    assert_eq!(
        db.show_create("Acct").await,
        before,
        "the table is unchanged"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn show_duplicates_prints_the_keys() {
    let db = TestDb::new().await;
    acct(&db, COLLIDING).await;
    let before = db.show_create("Acct").await;
    let out = apply(&db, true, &["--show-duplicates"]).await;
    assert_eq!(out.status.code(), Some(1), "{}", all_output(&out));
    let doc = json(&out);
    let email = probe(&doc, "uq_acct_email");
    let key = email["values"][0]["key"][0].as_str().unwrap();
    assert!(key.eq_ignore_ascii_case("alice@x"), "{email:#}");
    assert_eq!(email["values"][0]["rows"], 2, "{email:#}");
    assert_eq!(probe(&doc, "uq_acct_code")["values"][0]["key"][0], "abc");
    let out = apply(&db, false, &["--show-duplicates"]).await;
    let text = all_output(&out);
    assert!(
        text.to_lowercase().contains("key (alice@x): 2 rows"),
        "{text}"
    );
    assert_eq!(
        db.show_create("Acct").await,
        before,
        "the table is unchanged"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nulls_do_not_collide_and_a_clean_table_converges() {
    let db = TestDb::new().await;
    acct(
        &db,
        &[
            (None, None),
            (None, None),
            (None, None),
            (Some("a@x"), Some("abc")),
            (Some("b@x"), Some("abd")),
        ],
    )
    .await;
    let out = apply(&db, true, &[]).await;
    assert_eq!(out.status.code(), Some(0), "{}", all_output(&out));
    let doc = json(&out);
    assert_eq!(doc["converged"], true, "{doc:#}");
    for index in ["uq_acct_email", "uq_acct_code"] {
        let p = probe(&doc, index);
        assert_eq!(p["status"], "clean", "{p:#}");
        assert_eq!(p["groups"], 0, "{p:#}");
    }
    let created = db.show_create("Acct").await;
    assert!(created.contains("UNIQUE KEY `uq_acct_email`"), "{created}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_probe_past_its_time_limit_refuses_and_the_skip_flag_goes_on() {
    let db = TestDb::new().await;
    acct(&db, &[(Some("seed"), None)]).await;
    // 2^17 rows with distinct emails (codes NULL): grouping them takes far
    // longer than 1 ms.
    for _ in 0..17 {
        db.exec(&["INSERT INTO `Acct` (`Email`, `Code`) SELECT NULL, NULL FROM `Acct`"])
            .await;
    }
    db.exec(&["UPDATE `Acct` SET `Email` = CONCAT('k', `Id`)"])
        .await;
    let before = db.show_create("Acct").await;

    let out = apply(&db, true, &["--probe-timeout", "0.001"]).await;
    assert_eq!(out.status.code(), Some(1), "{}", all_output(&out));
    let doc = json(&out);
    assert_eq!(doc["stopped"]["kind"], "duplicates", "{doc:#}");
    let p = probe(&doc, "uq_acct_email");
    assert_eq!(p["status"], "timed_out", "{p:#}");
    assert_eq!(p["timeout_ms"], 1, "{p:#}");
    assert_eq!(doc["server_ddl_count"], 0, "{doc:#}");
    let message = doc["stopped"]["message"].as_str().unwrap();
    assert!(
        message.contains("did not finish within 1 ms")
            && message.contains("--skip-duplicate-probe"),
        "{message}"
    );
    assert_eq!(
        db.show_create("Acct").await,
        before,
        "the table is unchanged"
    );

    let out = apply(&db, false, &["--skip-duplicate-probe"]).await;
    let text = all_output(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains(
            "unique index `Acct`.`uq_acct_email`: duplicate probe skipped (--skip-duplicate-probe)"
        ),
        "never silently: {text}"
    );
    let created = db.show_create("Acct").await;
    assert!(created.contains("UNIQUE KEY `uq_acct_email`"), "{created}");
}
