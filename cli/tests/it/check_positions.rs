//! `catalog check` places every finding: `file:line:col`, the rule id and
//! the object in the human report; `rule`, `severity`, `file`, `line` and
//! `column` in JSON. Findings print in file order, causes first.

use crate::cli_support;

use cli_support::catalog;

const JOB: &str = "table: job
columns:
  - name: id
    type: bigint unsigned
    nullable: false
  - name: dedupe_key
    type: varchr(190)
    nullable: false
primary_key: [id]
indexes:
  - name: uq_job_dedupe
    columns: [dedupe_key]
    unique: true
";

/// A catalog directory holding `files`.
fn catalog_dir(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

fn check(dir: &tempfile::TempDir, json: bool) -> std::process::Output {
    let mut args = vec!["--catalog", dir.path().to_str().unwrap()];
    if json {
        args.extend(["--format", "json"]);
    }
    args.push("check");
    catalog().args(args).output().unwrap()
}

#[test]
fn a_bad_type_names_file_line_column_rule_and_object() {
    let dir = catalog_dir(&[("job.yaml", JOB)]);
    let out = check(&dir, false);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let file = dir.path().join("job.yaml");
    let want = format!(
        "{}:7:5: error[unknown-type]: table `job`, column `dedupe_key`: unknown type `varchr(190)`; use one of:",
        file.display()
    );
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(lines[0].starts_with(&want), "{stderr}");
    // The rule's fix hint.
    assert!(
        lines[1].starts_with("  help: write one of the types"),
        "{stderr}"
    );
    // The index over that column is not reported again: the cause is
    // the one finding.
    assert_eq!(lines.len(), 3, "{stderr}");
    assert!(
        lines[2].starts_with("catalog is invalid: 1 error(s)"),
        "{stderr}"
    );
}

#[test]
fn json_carries_rule_severity_file_line_and_column() {
    let dir = catalog_dir(&[("job.yaml", JOB)]);
    let out = check(&dir, true);
    assert_eq!(out.status.code(), Some(2));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let first = &doc["problems"][0];
    assert_eq!(first["rule"], "unknown-type", "{first}");
    assert_eq!(first["severity"], "error", "{first}");
    assert_eq!(first["line"], 7, "{first}");
    assert_eq!(first["column"], 5, "{first}");
    assert_eq!(first["object"], "column `dedupe_key`", "{first}");
    assert!(
        first["file"].as_str().unwrap().ends_with("job.yaml"),
        "{first}"
    );
}

#[test]
fn a_bad_indent_gets_an_indentation_hint() {
    // `type` indented less than `name`: out of its column entry.
    let text = "table: t\ncolumns:\n  - name: id\n   type: int\nprimary_key: [id]\n";
    let dir = catalog_dir(&[("t.yaml", text)]);
    let out = check(&dir, false);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("t.yaml:4:"), "{stderr}");
    assert!(stderr.contains("error[yaml-syntax]"), "{stderr}");
    assert!(stderr.contains("check the indentation"), "{stderr}");
    // A key indented back to the top of the file is a known key of a column.
    let text = "table: t\ncolumns:\n  - name: id\ntype: int\nprimary_key: [id]\n";
    let dir = catalog_dir(&[("t.yaml", text)]);
    let stderr = String::from_utf8_lossy(&check(&dir, false).stderr).to_string();
    assert!(
        stderr.contains("t.yaml:4:1: error[unknown-key]"),
        "{stderr}"
    );
    assert!(stderr.contains("is a key of a column entry"), "{stderr}");
}

#[test]
fn fleet_file_errors_name_line_and_column() {
    let dir = catalog_dir(&[]);
    let fleet = dir.path().join("fleet.yaml");
    std::fs::write(
        &fleet,
        "servers:\n  - url: mysql://root@db1:3306\n    schemas: [a]\nstages:\n  - name: canary\n    match: {server: nope}\n",
    )
    .unwrap();
    let out = catalog()
        .args(["plan", "--fleet", fleet.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "{}:5:5: error[fleet-stage]: stage `canary`:",
            fleet.display()
        )),
        "{stderr}"
    );
}
