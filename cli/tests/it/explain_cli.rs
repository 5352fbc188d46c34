//! `catalog explain` end to end: the binary against the real test server
//! (once per server via scripts/test): exit codes 0/1/2/3, one JSON document
//! valid against docs/schemas/explain.schema.json, the human line per query
//! with the plan excerpt on failure, and `verify --plans`.

use crate::cli_support;
use crate::common;

use std::path::Path;

use cli_support::run;
use common::TestDb;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// `catalog [--catalog DIR] [--format json] --database-url <server> explain --scratch`.
async fn scratch(catalog: Option<&str>, json: bool) -> std::process::Output {
    let url = common::server_url();
    let mut list: Vec<&str> = Vec::new();
    if let Some(dir) = catalog {
        list.extend(["--catalog", dir]);
    }
    if json {
        list.extend(["--format", "json"]);
    }
    list.extend(["--database-url", url.as_str(), "explain", "--scratch"]);
    run(args(&list)).await
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The published schema of `name` (tests/it/json_schemas.rs keeps it current).
fn validator_of(name: &str) -> jsonschema::Validator {
    let file = root().join(format!("docs/schemas/{name}.schema.json"));
    let published: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    jsonschema::validator_for(&published).unwrap()
}

fn validator() -> jsonschema::Validator {
    validator_of("explain")
}

fn assert_valid(doc: &serde_json::Value) {
    let v = validator();
    let errors: Vec<String> = v.iter_errors(doc).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}\n{doc:#}");
}

#[tokio::test]
async fn shipped_catalog_scratch_json_is_one_valid_document_exit_0() {
    let out = scratch(None, true).await;
    let text = stdout(&out);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_str(&text).expect("one JSON document");
    assert_eq!(doc["ok"], true);
    assert_eq!(doc["mode"], "scratch");
    assert_eq!(doc["queries"].as_array().unwrap().len(), 4);
    assert_valid(&doc);
}

#[tokio::test]
async fn a_failing_query_is_exit_1_with_its_plan_excerpt() {
    let out = scratch(Some("fixtures/explain/binary-key"), false).await;
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("FAIL _System_ConnectorRemoteLink.historical_binary_cast uses uq_connector_remote_link_key"), "{text}");
    assert!(text.contains("a full index scan"), "{text}");
    assert!(text.contains("       plan: table _System_ConnectorRemoteLink: access_type index, key uq_connector_remote_link_key"), "{text}");
    assert!(
        text.contains("ok   _System_ConnectorRemoteLink.corrected_plain_equality"),
        "{text}"
    );
    assert!(text.contains("1 of 2 queries passed"), "{text}");
    // JSON of a failure validates too.
    let out = scratch(Some("fixtures/explain/binary-key"), true).await;
    assert_eq!(out.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["queries"][0]["failures"][0]["kind"], "full_index_scan");
    assert_valid(&doc);
}

#[tokio::test]
async fn usage_and_catalog_errors_are_exit_2_database_errors_exit_3() {
    let url = common::server_url();
    for (extra, what) in [
        (
            vec!["explain", "--scratch", "--consumer", "nobody"],
            "unknown consumer",
        ),
        (
            vec![
                "--catalog",
                "fixtures/bad-catalogs/bad-queries",
                "explain",
                "--scratch",
            ],
            "invalid",
        ),
        (
            vec!["explain", "--scratch", "--analyze"],
            "cannot be used with",
        ),
    ] {
        let mut list = vec!["--database-url", url.as_str()];
        list.extend(extra);
        let out = run(args(&list)).await;
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{list:?}: {err}");
        assert!(err.contains(what), "{list:?}: {err}");
    }
    let out = run(args(&["explain", "--scratch"])).await;
    assert_eq!(out.status.code(), Some(2), "no URL");
    let out = run(args(&[
        "--database-url",
        "mysql://root@127.0.0.1:1/x",
        "--format",
        "json",
        "explain",
    ]))
    .await;
    assert_eq!(out.status.code(), Some(3));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["exit_code"], 3);
}

#[tokio::test]
async fn verify_plans_adds_the_judgement_of_the_consumers_queries() {
    let test = TestDb::new().await;
    let url = test.url();
    let out = run(args(&["--database-url", &url, "apply"])).await;
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(args(&[
        "--database-url",
        &url,
        "--format",
        "json",
        "verify",
        "--consumer",
        "integration-reconciler",
        "--plans",
    ]))
    .await;
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let plans = &doc["plans"];
    assert_eq!(plans["mode"], "live");
    let mut names: Vec<&str> = plans["queries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["query"].as_str().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["reconcile_page", "wake_dependents"]);
    // EXPLAIN only: nothing was run.
    for q in plans["queries"].as_array().unwrap() {
        assert_eq!(q["plan_statement"], "EXPLAIN FORMAT=JSON", "{q:#}");
    }
    assert_eq!(
        doc["verify"]["ok"], true,
        "the schema itself satisfies the catalog"
    );
    let ok = doc["ok"].as_bool().unwrap();
    assert_eq!(ok, plans["ok"].as_bool().unwrap());
    assert_eq!(out.status.code(), Some(if ok { 0 } else { 1 }));
    let errors: Vec<String> = validator_of("verify-plans")
        .iter_errors(&doc)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}\n{doc:#}");
}
