//! The example service (`examples/startup_gate.rs`) is built and run
//! against the test server: ready schema exit 0, a missing table exit 1 with
//! the JSON report naming it, an unreachable server a clear non-zero exit.

use crate::common;

use std::path::PathBuf;
use std::process::{Command, Output};

use common::TestDb;

/// Builds the example with this test's cargo and profile; its path.
fn build_example() -> PathBuf {
    let root = env!("CARGO_MANIFEST_DIR");
    let status = Command::new(env!("CARGO"))
        .args(["build", "--quiet", "--example", "startup_gate"])
        .current_dir(root)
        .status()
        .expect("cargo runs");
    assert!(status.success(), "the example builds");
    // target/<profile>/deps/<this test> -> target/<profile>/examples/
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().parent().unwrap().join("examples");
    dir.join(format!("startup_gate{}", std::env::consts::EXE_SUFFIX))
}

fn run(exe: &PathBuf, url: &str) -> Output {
    Command::new(exe)
        .env("DATABASE_URL", url)
        .output()
        .expect("the example runs")
}

#[tokio::test]
async fn example_service_gates_startup_on_the_test_server() {
    let exe = build_example();
    let db = TestDb::new().await;
    // All but _System_WorkItem: the gate must refuse to start.
    let cat = common::shipped_tables_except(&db, "_System_WorkItem").await;

    let out = run(&exe, &db.url());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stderr).expect("a JSON report");
    assert_eq!(report["ok"], false);
    assert_eq!(report["flavor"], db.flavor.name());
    let problems = report["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 1, "{report}");
    assert_eq!(problems[0]["table"], "_System_WorkItem");
    assert_eq!(problems[0]["kind"], "missing_table");

    let work = cat.table("_System_WorkItem").unwrap();
    db.exec(&[schema_catalog::ddl::create_table(&work.table, db.flavor).as_str()])
        .await;
    common::assert_gate_ready(&run(&exe, &db.url()));

    let out = run(&exe, "mysql://root:pw123456@127.0.0.1:1/x");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.starts_with("startup gate: cannot connect to the pool's server: ")
            && stderr.contains("Connection refused"),
        "{stderr}"
    );
    assert!(!stderr.contains("pw123456"), "{stderr}");
}
