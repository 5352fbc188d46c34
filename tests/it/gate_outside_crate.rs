//! The startup-gate example compiles as a service would build it: in a
//! crate outside this workspace, with a path dependency on this repository,
//! its own `catalog/` directory embedded by `embed_catalog!`, offline (the
//! dependencies come from the local cargo cache, pinned by this
//! repository's Cargo.lock). Then it runs against the test server: a ready
//! schema is exit 0.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::TestDb;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The dependency lines of this repository's own manifest for `name`, so
/// the service uses the same versions and features.
fn dependency_line(name: &str) -> String {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    manifest
        .lines()
        .find(|l| l.starts_with(&format!("{name} = ")))
        .unwrap_or_else(|| panic!("{name} in Cargo.toml"))
        .to_string()
}

/// Writes the service crate: Cargo.toml, Cargo.lock, src/main.rs (the
/// example verbatim) and catalog/ (the shipped catalog).
fn write_service(dir: &Path) {
    let manifest = format!(
        "[package]\nname = \"gate-service\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [workspace]\n\n[dependencies]\nschema-catalog = {{ path = {:?} }}\n{}\n{}\nserde_json = \"1\"\n",
        root().display().to_string(),
        dependency_line("mysql_async"),
        dependency_line("tokio"),
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::copy(root().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::copy(
        root().join("examples/startup_gate.rs"),
        dir.join("src/main.rs"),
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("catalog")).unwrap();
    for entry in std::fs::read_dir(root().join("catalog")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.join("catalog").join(path.file_name().unwrap())).unwrap();
    }
}

/// Builds the service offline; its binary. The build directory sits in this
/// repository's target/ (kept between runs, so only the first run builds
/// the dependencies).
fn build(dir: &Path) -> PathBuf {
    let target = root().join("target").join("gate-outside-crate");
    let out = Command::new(env!("CARGO"))
        .args(["build", "--offline", "--quiet"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", &target)
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "the service builds outside the workspace:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    target
        .join("debug")
        .join(format!("gate-service{}", std::env::consts::EXE_SUFFIX))
}

#[tokio::test]
async fn the_gate_example_builds_outside_the_workspace_and_passes_a_ready_schema() {
    let dir = tempfile::tempdir().unwrap();
    write_service(dir.path());
    let exe = build(dir.path());

    let db = TestDb::new().await;
    let cat = common::shipped_tables_except(&db, "_System_WorkItem").await;
    let work = cat.table("_System_WorkItem").unwrap();
    db.exec(&[schema_catalog::ddl::create_table(&work.table, db.flavor).as_str()])
        .await;
    let out = Command::new(&exe)
        .env("DATABASE_URL", db.url())
        .output()
        .expect("the service runs");
    common::assert_gate_ready(&out);
}
