//! `catalog verify` end to end: the binary against the real test server.
//! Schemas are built with plain DDL (the shipped catalog's exact CREATE
//! TABLE, then broken by hand), never through `catalog apply`.

use crate::cli_support;
use crate::common;

use std::process::Output;

use cli_support::catalog;
use common::shipped_schema_with;

const PASSWORD: &str = "SuperSecret123";

fn verify(url: &str, extra: &[&str]) -> Output {
    catalog()
        .args(["--database-url", url])
        .args(extra)
        .arg("verify")
        .output()
        .unwrap()
}

fn verify_consumer(url: &str, consumer: &str, extra: &[&str]) -> Output {
    catalog()
        .args(["--database-url", url])
        .args(extra)
        .args(["verify", "--consumer", consumer])
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).to_string()
}

fn show(out: &Output) -> String {
    format!(
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status.code(),
        text(&out.stdout),
        text(&out.stderr)
    )
}

const DROP_LIFECYCLE: &str =
    "ALTER TABLE _System_FileUploadOperation DROP INDEX idx_file_upload_lifecycle";
const DRIFT_DEPENDENCY_KEY: &str = "ALTER TABLE _System_IntegrationOutboundCommand MODIFY DependencyKey varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NULL";

#[tokio::test]
async fn exact_schema_exits_0() {
    let db = shipped_schema_with(&[]).await;
    let out = verify(&db.url(), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    assert!(
        text(&out.stdout).contains("satisfies the catalog"),
        "{}",
        show(&out)
    );
}

#[tokio::test]
async fn problems_exit_1_with_expected_and_actual() {
    let db = shipped_schema_with(&[DROP_LIFECYCLE, DRIFT_DEPENDENCY_KEY]).await;
    let before = db.snapshot().await;
    let out = verify(&db.url(), &[]);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("2 problem(s)"), "{stdout}");
    assert!(
        stdout.contains(
            "table `_System_FileUploadOperation`: missing_index `idx_file_upload_lifecycle`: \
             expected KEY (`State`, `ExpiresAt`, `Id`), found absent"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("column_collation `DependencyKey`: expected CHARACTER SET utf8mb4 COLLATE utf8mb4_bin, found CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci"),
        "{stdout}"
    );
    assert_eq!(db.snapshot().await, before, "verify changed the schema");
}

#[tokio::test]
async fn json_is_exactly_one_document() {
    let db = shipped_schema_with(&[DROP_LIFECYCLE]).await;
    let out = verify(&db.url(), &["--format", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    // from_slice fails on trailing non-whitespace: one document only.
    let doc: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("stdout is exactly one JSON document");
    assert_eq!(doc["ok"], false);
    assert_eq!(doc["flavor"], db.flavor.name());
    let problems = doc["problems"].as_array().expect("problems array");
    assert_eq!(problems.len(), 1, "{doc}");
    let p = &problems[0];
    assert_eq!(p["table"], "_System_FileUploadOperation");
    assert_eq!(p["object"], "idx_file_upload_lifecycle");
    assert_eq!(p["kind"], "missing_index");
    assert_eq!(p["expected"], "KEY (`State`, `ExpiresAt`, `Id`)");
    assert_eq!(p["actual"], "absent");

    let db = shipped_schema_with(&[]).await;
    let out = verify(&db.url(), &["--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["ok"], true);
    assert_eq!(doc["problems"], serde_json::json!([]));
}

#[tokio::test]
async fn consumer_scoping() {
    let db = shipped_schema_with(&[DROP_LIFECYCLE]).await;
    let other = verify_consumer(&db.url(), "integration-reconciler", &[]);
    assert_eq!(other.status.code(), Some(0), "{}", show(&other));
    assert!(text(&other.stdout).contains("for consumer `integration-reconciler`"));
    let owner = verify_consumer(&db.url(), "runtime-upload-lifecycle", &["--format", "json"]);
    assert_eq!(owner.status.code(), Some(1), "{}", show(&owner));
    let doc: serde_json::Value = serde_json::from_slice(&owner.stdout).unwrap();
    assert_eq!(doc["consumer"], "runtime-upload-lifecycle");
    assert_eq!(doc["problems"][0]["object"], "idx_file_upload_lifecycle");
    assert_eq!(verify(&db.url(), &[]).status.code(), Some(1));
}

#[tokio::test]
async fn unknown_consumer_exits_2_listing_known_ones() {
    let db = shipped_schema_with(&[]).await;
    let out = verify_consumer(&db.url(), "no-such-worker", &[]);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let stderr = text(&out.stderr);
    for name in [
        "no-such-worker",
        "integration-reconciler",
        "runtime-upload-lifecycle",
    ] {
        assert!(stderr.contains(name), "{stderr}");
    }
}

/// One clear non-empty line on stderr, nothing on stdout, no password anywhere.
fn assert_database_error(out: &Output, needle: &str) {
    assert_eq!(out.status.code(), Some(3), "{}", show(out));
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(
        !stdout.contains(PASSWORD) && !stderr.contains(PASSWORD),
        "{}",
        show(out)
    );
    assert!(stdout.is_empty(), "{}", show(out));
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "one line expected: {}", show(out));
    assert!(lines[0].starts_with("error: "), "{}", lines[0]);
    assert!(
        lines[0].contains(needle),
        "`{needle}` missing: {}",
        lines[0]
    );
}

#[test]
fn unreachable_server_exits_3_without_the_password() {
    let url = format!("mysql://root:{PASSWORD}@127.0.0.1:1/x");
    let out = verify(&url, &["--timeout", "5"]);
    assert_database_error(&out, "127.0.0.1:1/x");
    // The JSON form is one document and hides the password too.
    let out = verify(&url, &["--format", "json"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(!text(&out.stdout).contains(PASSWORD));
    assert!(!text(&out.stderr).contains(PASSWORD));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["exit_code"], 3);
}

#[test]
fn bad_credentials_exit_3_without_the_password() {
    let host = common::server_url();
    let host = host
        .rsplit('@')
        .next()
        .unwrap()
        .trim_start_matches("mysql://");
    // A known user with a wrong password: 1045, named as a refused login.
    let out = verify(&format!("mysql://root:{PASSWORD}@{host}/x"), &[]);
    assert_database_error(&out, "login refused for user `root` (error 1045)");
    // An unknown user (MariaDB answers 1698, MySQL asks for a made-up auth
    // plugin): still one line, exit 3.
    let out = verify(&format!("mysql://sc_no_such_user:{PASSWORD}@{host}/x"), &[]);
    assert_database_error(&out, "login refused for user `sc_no_such_user`");
}

#[test]
fn missing_schema_exits_3() {
    let url = format!("{}/sc_no_such_schema_for_verify", common::server_url());
    let out = verify(&url, &[]);
    assert_database_error(&out, "sc_no_such_schema_for_verify");
}

/// `verify --strict` runs the regenerate-and-compare net: a table with an
/// attribute only SHOW CREATE TABLE shows (MariaDB: `WITH SYSTEM
/// VERSIONING`; MySQL: `AUTOEXTEND_SIZE`, with CREATE_OPTIONS empty)
/// passes plain verify (exit 0) and fails `--strict` (exit 1) as
/// `unrecognised`, naming the clause; the schema is unchanged.
#[tokio::test]
async fn strict_runs_the_net() {
    let probe = common::TestDb::new().await;
    let (alter, clause) = if probe.is_mariadb() {
        (
            "ALTER TABLE _System_FileUploadOperation ADD SYSTEM VERSIONING",
            "SYSTEM VERSIONING",
        )
    } else {
        (
            "ALTER TABLE _System_FileUploadOperation AUTOEXTEND_SIZE=4M",
            "AUTOEXTEND_SIZE",
        )
    };
    let db = shipped_schema_with(&[alter]).await;
    let before = db.snapshot().await;
    let out = verify(&db.url(), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let strict = |extra: &[&str]| {
        catalog()
            .args(["--database-url", &db.url()])
            .args(extra)
            .args(["verify", "--strict"])
            .output()
            .unwrap()
    };
    let out = strict(&[]);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(text(&out.stdout).contains(clause), "{}", show(&out));
    let out = strict(&["--format", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let problems = doc["problems"].as_array().expect("problems array");
    assert_eq!(problems.len(), 1, "{doc}");
    assert_eq!(problems[0]["table"], "_System_FileUploadOperation");
    assert_eq!(problems[0]["kind"], "unrecognised");
    assert!(
        problems[0]["actual"].as_str().unwrap().contains(clause),
        "{doc}"
    );
    assert_eq!(db.snapshot().await, before, "verify changed the schema");
}
