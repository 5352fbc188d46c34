//! `catalog plan`, `catalog apply` and `catalog verify --strict` agree on
//! the regenerate-and-compare net: on the shipped catalog's
//! schema with one table given an attribute only `SHOW CREATE TABLE` shows
//! (MariaDB: `WITH SYSTEM VERSIONING`; MySQL: `AUTOEXTEND_SIZE`, with
//! CREATE_OPTIONS empty) and one index of another table dropped, all three
//! exit 1 with the same `unrecognised` problem naming the clause, in human
//! and in JSON output, and the schema is unchanged. Once the attribute is
//! gone, plan shows the index step (exit 0) and apply converges (exit 0):
//! plan said "converged" before, where apply refused.

use crate::cli_support;
use crate::common;

use std::process::Output;

use cli_support::{json, run};
use common::shipped_schema_with;

const TABLE: &str = "_System_FileUploadOperation";
const DROP_INDEX: &str = "ALTER TABLE _System_AuditOutbox DROP INDEX idx_audit_outbox_pending";

async fn cli(url: &str, args: &[&str]) -> Output {
    let mut all = vec!["--database-url".to_string(), url.to_string()];
    all.extend(args.iter().map(|a| a.to_string()));
    run(all).await
}

fn show(out: &Output) -> String {
    format!(
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The problems of `field` in `doc` of kind `unrecognised`.
fn unrecognised<'d>(doc: &'d serde_json::Value, field: &str) -> Vec<&'d serde_json::Value> {
    doc[field]
        .as_array()
        .unwrap_or_else(|| panic!("no {field} array: {doc}"))
        .iter()
        .filter(|p| p["kind"] == "unrecognised")
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plan_apply_and_strict_verify_agree_on_what_only_show_create_shows() {
    let probe = common::TestDb::new().await;
    let (add, remove, clause) = if probe.is_mariadb() {
        (
            format!("ALTER TABLE {TABLE} ADD SYSTEM VERSIONING"),
            format!("ALTER TABLE {TABLE} DROP SYSTEM VERSIONING"),
            "SYSTEM VERSIONING",
        )
    } else {
        (
            format!("ALTER TABLE {TABLE} AUTOEXTEND_SIZE=4M"),
            format!("ALTER TABLE {TABLE} AUTOEXTEND_SIZE=0"),
            "AUTOEXTEND_SIZE",
        )
    };
    let db = shipped_schema_with(&[&add, DROP_INDEX]).await;
    let url = db.url();
    let before = db.snapshot().await;

    // Human output: each exits 1 and names the table, the kind and the clause.
    for args in [&["plan"][..], &["apply"], &["verify", "--strict"]] {
        let out = cli(&url, args).await;
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", show(&out));
        assert!(
            stdout.contains(TABLE) && stdout.contains("unrecognised") && stdout.contains(clause),
            "{args:?}: {}",
            show(&out)
        );
    }

    // JSON: the same one problem, field for field, in plan's and apply's
    // drift and in verify's problems.
    let plan = cli(&url, &["--format", "json", "plan"]).await;
    assert_eq!(plan.status.code(), Some(1), "{}", show(&plan));
    let plan = json(&plan);
    let apply = cli(&url, &["--format", "json", "apply"]).await;
    assert_eq!(apply.status.code(), Some(1), "{}", show(&apply));
    let apply = json(&apply);
    let verify = cli(&url, &["--format", "json", "verify", "--strict"]).await;
    assert_eq!(verify.status.code(), Some(1), "{}", show(&verify));
    let verify = json(&verify);
    let refused = unrecognised(&plan, "drift");
    assert_eq!(refused.len(), 1, "{plan}");
    assert_eq!(refused[0]["table"], TABLE, "{plan}");
    assert!(
        refused[0]["actual"].as_str().unwrap().contains(clause),
        "{plan}"
    );
    assert_eq!(
        plan["drift"], apply["drift"],
        "plan: {plan}\napply: {apply}"
    );
    assert_eq!(refused, unrecognised(&verify, "problems"), "{verify}");
    assert_eq!(apply["converged"], false, "{apply}");
    assert_eq!(apply["steps"], serde_json::json!([]), "{apply}");
    assert_eq!(db.snapshot().await, before, "the schema changed");

    // Without the attribute: the index step is planned and applied.
    db.exec(&[&remove]).await;
    let plan = cli(&url, &["--format", "json", "plan"]).await;
    assert_eq!(plan.status.code(), Some(0), "{}", show(&plan));
    let plan = json(&plan);
    let steps: Vec<(&str, &str)> = plan["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["table"].as_str().unwrap(), s["kind"].as_str().unwrap()))
        .collect();
    assert_eq!(steps, [("_System_AuditOutbox", "add_index")], "{plan}");
    let apply = cli(&url, &["--format", "json", "apply"]).await;
    assert_eq!(apply.status.code(), Some(0), "{}", show(&apply));
    assert_eq!(json(&apply)["converged"], true);
    let verify = cli(&url, &["verify", "--strict"]).await;
    assert_eq!(verify.status.code(), Some(0), "{}", show(&verify));
}
