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

/// `apply` on a pipe: the header before the step lines and only once; a
/// dry run prints the SQL it would send; a run with nothing to do says so.
#[tokio::test]
async fn apply_on_a_pipe_reads_top_down() {
    let db = shipped_schema_with(&[DROP_LIFECYCLE]).await;
    let url = db.url();
    let out = run(&url, &["apply", "--dry-run"]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        stdout.contains(
            "      ALTER TABLE `_System_FileUploadOperation` ADD INDEX `idx_file_upload_lifecycle` (`State`, `ExpiresAt`, `Id`)"
        ),
        "{}",
        show(&out)
    );
    assert!(stdout.contains("dry run: preflight passed; no DDL issued"));

    let out = run(&url, &["apply"]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].starts_with("apply to ") && lines[0].contains(&db.name),
        "{stdout}"
    );
    assert!(lines[1].starts_with("server: "), "{stdout}");
    assert!(
        lines[2].starts_with(
            "step 1/1 add_index `_System_FileUploadOperation`.`idx_file_upload_lifecycle`: started"
        ),
        "{stdout}"
    );
    assert_eq!(stdout.matches("apply to ").count(), 1, "{stdout}");
    assert!(
        stdout.contains("converged: the schema satisfies the catalog"),
        "{stdout}"
    );

    let out = run(&url, &["apply"]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(stdout.starts_with("apply to "), "{stdout}");
    assert!(
        stdout.contains("nothing to do: the schema already satisfies the catalog"),
        "{stdout}"
    );
    assert!(!stdout.contains("step "), "{stdout}");
}
