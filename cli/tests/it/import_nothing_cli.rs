//! `catalog import` never writes a catalog its own check refuses: a source
//! with no tables (an empty schema, a schema of views only, a dump with no
//! CREATE TABLE or only views) exits 2 saying what it found, and writes
//! nothing. A successful import's output passes `catalog check`.

use crate::cli_support;
use crate::common;

use std::path::{Path, PathBuf};

use cli_support::run;
use common::TestDb;

fn work(name: &str) -> PathBuf {
    common::scratch_dir(&format!("import-nothing/{name}"))
}

/// Exit 2, the message holds `found`, the JSON form is one error document,
/// and `out` holds no file.
/// `source`: `--database-url URL` (global) or `--from FILE` (import's own).
async fn assert_nothing_imported(source: &[String], out: &Path, found: &str) {
    let mut args: Vec<String> = Vec::new();
    let (global, own) = if source[0] == "--from" {
        (&[][..], source)
    } else {
        (source, &[][..])
    };
    args.extend(global.iter().cloned());
    args.extend(["import".into(), "--out".into(), out.display().to_string()]);
    args.extend(own.iter().cloned());
    let human = run(args.clone()).await;
    let stderr = String::from_utf8_lossy(&human.stderr);
    assert_eq!(human.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("nothing to import") && stderr.contains(found),
        "{stderr}"
    );
    let mut json_args = vec!["--format".to_string(), "json".to_string()];
    json_args.extend(args);
    let json = run(json_args).await;
    assert_eq!(json.status.code(), Some(2));
    let doc: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(doc["exit_code"], 2);
    assert!(doc["error"].as_str().unwrap().contains(found), "{doc}");
    let written: Vec<_> = std::fs::read_dir(out)
        .map(|d| d.collect())
        .unwrap_or_default();
    assert!(written.is_empty(), "{written:?}");
}

#[tokio::test]
async fn a_dump_without_tables_is_exit_2() {
    let dir = work("dumps");
    let views = dir.join("views.sql");
    std::fs::write(&views, "CREATE VIEW v AS SELECT 1 AS x;\n").unwrap();
    let empty = dir.join("empty.sql");
    std::fs::write(&empty, "-- no statements\n").unwrap();
    let from = |f: &Path| vec!["--from".to_string(), f.display().to_string()];
    assert_nothing_imported(&from(&views), &dir.join("out-views"), "only 1 view(s)").await;
    assert_nothing_imported(&from(&empty), &dir.join("out-empty"), "no CREATE TABLE").await;
}

#[tokio::test]
async fn a_live_schema_without_tables_is_exit_2() {
    let db = TestDb::new().await;
    let url = vec!["--database-url".to_string(), db.url()];
    assert_nothing_imported(&url, &work("live-empty"), "no base tables").await;
    db.exec(&["CREATE VIEW v AS SELECT 1 AS x"]).await;
    assert_nothing_imported(&url, &work("live-views"), "no base tables").await;
}

#[tokio::test]
async fn what_import_writes_passes_check() {
    let db = TestDb::new().await;
    db.exec(&[
        "CREATE TABLE `t'x` (id bigint NOT NULL PRIMARY KEY, note varchar(8) DEFAULT 'a''b' COMMENT 'c;--')",
        "CREATE VIEW v AS SELECT 1 AS x",
    ])
    .await;
    let out = work("live-ok");
    let import = run(vec![
        "--database-url".into(),
        db.url(),
        "import".into(),
        "--out".into(),
        out.display().to_string(),
    ])
    .await;
    assert_eq!(
        import.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&import.stderr)
    );
    let check = run(vec![
        "--catalog".into(),
        out.display().to_string(),
        "check".into(),
    ])
    .await;
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    // No staging directory is left behind.
    let names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    assert!(names.iter().all(|n| n.ends_with(".yaml")), "{names:?}");
}
