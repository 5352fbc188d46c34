//! What a newcomer meets on a live server: the JSON of `plan` and `verify`
//! names the schema, not only the server; apply's human output on a pipe.

use crate::cli_support;
use crate::common;

use std::process::Output;

use cli_support::{catalog, json};
use common::shipped_schema_with;

const DROP_LIFECYCLE: &str =
    "ALTER TABLE _System_FileUploadOperation DROP INDEX idx_file_upload_lifecycle";

fn show(out: &Output) -> String {
    format!(
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn run(url: &str, args: &[&str]) -> Output {
    catalog()
        .args(["--database-url", url])
        .args(args)
        .output()
        .unwrap()
}

#[tokio::test]
async fn plan_and_verify_json_name_the_schema() {
    let db = shipped_schema_with(&[DROP_LIFECYCLE]).await;
    let out = run(&db.url(), &["--format", "json", "plan"]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let doc = json(&out);
    assert_eq!(doc["schema"], db.name.as_str(), "{}", show(&out));
    assert!(doc["server"]["port"].is_u64());
    let out = run(&db.url(), &["--format", "json", "verify"]);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert_eq!(json(&out)["schema"], db.name.as_str(), "{}", show(&out));
    let exact = shipped_schema_with(&[]).await;
    let out = run(&exact.url(), &["--format", "json", "verify", "--plans"]);
    assert_eq!(
        json(&out)["verify"]["schema"],
        exact.name.as_str(),
        "{}",
        show(&out)
    );
    // A plan against a dump names no schema.
    let out = catalog()
        .args([
            "plan",
            "--format",
            "json",
            "--against",
            "fixtures/legacy/r1-mariadb.sql",
            "--flavor",
            "mariadb",
        ])
        .output()
        .unwrap();
    assert!(json(&out)["schema"].is_null(), "{}", show(&out));
}
