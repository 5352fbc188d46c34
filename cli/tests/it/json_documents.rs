//! Every JSON document the CLI prints validates against its published
//! schema in `docs/schemas/` (generated from the library's typed reports;
//! `tests/it/json_schemas.rs` keeps the files up to date): check, render,
//! plan (live and from a dump), verify (ready and not), apply (run and dry
//! run), import, and the error document of usage, catalog, database and
//! command-line errors. Against the test server (MariaDB or MySQL).

use crate::cli_support;
use crate::common;

use std::path::{Path, PathBuf};

use common::TestDb;
use serde_json::Value;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

fn schema(name: &str) -> jsonschema::Validator {
    let file = Path::new(ROOT).join(format!("docs/schemas/{name}.schema.json"));
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let schema: Value = serde_json::from_str(&text).unwrap();
    jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

/// Runs the CLI with `--format json` and `args`; asserts the exit code and
/// that stdout is exactly one document valid against `name`'s schema.
async fn document(name: &str, args: &[&str], code: i32) -> Value {
    let mut all = vec!["--format".to_string(), "json".to_string()];
    all.extend(args.iter().map(|a| a.to_string()));
    let out = cli_support::run(all).await;
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(code),
        "{args:?}: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{args:?}: not one JSON document ({e}): {stdout}"));
    let validator = schema(name);
    let errors: Vec<String> = validator.iter_errors(&doc).map(|e| e.to_string()).collect();
    assert!(
        errors.is_empty(),
        "{args:?}: the {name} document does not match its schema: {errors:#?}\n{doc:#}"
    );
    doc
}

#[tokio::test]
async fn every_document_matches_its_schema() {
    let db = TestDb::new().await;
    let url = db.url();
    let url = url.as_str();

    let doc = document("check", &["check"], 0).await;
    assert_eq!(doc["ok"], true);
    let bad = "fixtures/bad-catalogs/unknown-type";
    let doc = document("check", &["--catalog", bad, "check"], 2).await;
    assert_eq!(doc["ok"], false);
    document("render", &["render", "--flavor", "mysql"], 0).await;

    let doc = document("verify", &["--database-url", url, "verify"], 1).await;
    assert_eq!(doc["ok"], false);
    let doc = document("plan", &["--database-url", url, "plan"], 0).await;
    assert!(!doc["steps"].as_array().unwrap().is_empty());
    let doc = document("apply", &["--database-url", url, "apply", "--dry-run"], 0).await;
    assert_eq!(doc["dry_run"], true);
    let doc = document("apply", &["--database-url", url, "apply"], 0).await;
    assert_eq!(doc["converged"], true);
    let doc = document("verify", &["--database-url", url, "verify"], 0).await;
    assert_eq!(doc["ok"], true);
    let doc = document("plan", &["--database-url", url, "plan"], 0).await;
    assert!(doc["steps"].as_array().unwrap().is_empty());

    let dump = "fixtures/legacy/r2-drifted-mariadb.sql";
    document("plan", &["plan", "--against", dump], 1).await;
    let out: PathBuf = std::env::temp_dir().join(format!("catalog-json-import-{}", db.name));
    let _ = std::fs::remove_dir_all(&out);
    let doc = document(
        "import",
        &[
            "import",
            "--from",
            "fixtures/legacy/r2-mariadb.sql",
            "--out",
            out.to_str().unwrap(),
        ],
        0,
    )
    .await;
    assert!(!doc["tables"].as_array().unwrap().is_empty());
    let _ = std::fs::remove_dir_all(&out);

    // Errors: usage, catalog, database, command line.
    let doc = document("error", &["verify"], 2).await;
    assert!(doc["error"].as_str().unwrap().contains("--database-url"));
    let doc = document("error", &["--catalog", bad, "render"], 2).await;
    assert!(!doc["problems"].as_array().unwrap().is_empty());
    let unreachable = "mysql://root:pw123456@127.0.0.1:1/x";
    let doc = document("error", &["--database-url", unreachable, "verify"], 3).await;
    assert!(!doc.to_string().contains("pw123456"));
    let doc = document("error", &["verify", "--no-such-option"], 2).await;
    assert_eq!(doc["error"], "unexpected argument '--no-such-option' found");
    document("error", &["no-such-command"], 2).await;
    // A shared option the command does not use; a URL given positionally.
    let doc = document("error", &["--timeout", "3", "check"], 2).await;
    assert!(doc["error"].as_str().unwrap().contains("--timeout"));
    let doc = document("error", &["verify", unreachable], 2).await;
    assert!(!doc.to_string().contains("pw123456"), "{doc}");
}

#[tokio::test]
async fn diff_documents_match_their_schema() {
    let (r1, r2, r3) = (
        "fixtures/revisions/r1",
        "fixtures/revisions/r2",
        "fixtures/revisions/r3",
    );
    let doc = document("diff", &["diff", "--from", r1, "--to", r2], 0).await;
    assert_eq!(doc["deployable"], true);
    let doc = document("diff", &["diff", "--from", r1, "--from", r2, "--to", r3], 1).await;
    assert_eq!(doc["reviews"].as_array().unwrap().len(), 2);
    let bad = "fixtures/bad-catalogs/index-too-wide";
    let doc = document("diff", &["diff", "--from", r2, "--to", bad], 1).await;
    assert!(!doc["reviews"][0]["new_lint_errors"]
        .as_array()
        .unwrap()
        .is_empty());
    document("error", &["diff", "--from", "no/such/dir", "--to", r2], 2).await;
}
