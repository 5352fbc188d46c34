//! The binary's exit codes and output for the commands that need no database.

use crate::cli_support;

use cli_support::catalog;

#[test]
fn check_passes_on_the_shipped_catalog() {
    let out = catalog().args(["check"]).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("8 table(s), 0 warning(s)"));
}

#[test]
fn check_rejects_every_bad_fixture_with_exit_2() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/bad-catalogs");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let out = catalog()
            .args(["--catalog", path.to_str().unwrap(), "check"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        if name.contains("warning") || name == "index-duplicates-primary-key" {
            assert_eq!(out.status.code(), Some(0), "{name}: {stderr}");
            assert!(stderr.contains(": warning["), "{name}: {stderr}");
        } else {
            assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
            assert!(stderr.contains(": error["), "{name}: {stderr}");
            assert!(
                stderr.contains(&name),
                "{name}: message must name the file: {stderr}"
            );
        }
        seen += 1;
    }
    assert!(seen >= 12);
}

#[test]
fn check_json_is_one_document() {
    let out = catalog()
        .args([
            "--catalog",
            "fixtures/bad-catalogs/unknown-type",
            "--format",
            "json",
            "check",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let doc: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("stdout is one JSON document");
    assert_eq!(doc["ok"], false);
    let first = &doc["problems"][0];
    for key in ["file", "table", "object", "message"] {
        assert!(!first[key].is_null(), "{key} missing in {first}");
    }
}

#[test]
fn render_each_flavor_and_no_online_clauses_in_create() {
    for flavor in ["tidb", "mysql", "mariadb"] {
        let out = catalog()
            .args(["render", "--flavor", flavor])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        let sql = String::from_utf8(out.stdout).unwrap();
        assert_eq!(sql.matches("CREATE TABLE").count(), 8, "{flavor}");
        assert!(
            !sql.contains("ALGORITHM") && !sql.contains("LOCK="),
            "{flavor}"
        );
    }
}

#[test]
fn render_of_a_bad_catalog_is_exit_2() {
    let out = catalog()
        .args(["--catalog", "fixtures/bad-catalogs/unknown-type", "render"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("is invalid (3 error(s)); run `catalog check` for the full list"),
        "the CLI adds its advice to the library's message: {stderr}"
    );
}

#[test]
fn database_commands_without_url_are_usage_errors() {
    for cmd in ["plan", "apply", "verify"] {
        let out = catalog().arg(cmd).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{cmd}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("--database-url"),
            "{cmd}"
        );
    }
}

#[test]
fn help_explains_each_command() {
    let out = catalog().arg("--help").output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    for cmd in ["check", "render", "plan", "apply", "verify"] {
        assert!(text.contains(cmd), "{cmd} missing from --help");
    }
}
