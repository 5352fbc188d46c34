//! Running the `catalog` binary from the CLI tests added for the closed SQL
//! surface, connection and secrets work (one copy instead of one per file).

pub mod conformance;
pub mod fleet;

use std::process::{Command, Output};

use mysql_async::prelude::*;

use crate::common::TestDb;

/// The binary, run from the repository root, with `DATABASE_URL` and
/// `CATALOG_DIR` removed from its environment.
pub fn catalog() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_catalog"));
    cmd.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    cmd.env_remove("DATABASE_URL").env_remove("CATALOG_DIR");
    cmd
}

/// Runs the binary with `args`, off the async runtime's worker threads.
pub async fn run(args: Vec<String>) -> Output {
    tokio::task::spawn_blocking(move || catalog().args(&args).output().expect("binary runs"))
        .await
        .unwrap()
}

/// The one JSON document on `out`'s stdout; panics with stdout and stderr
/// when it is not one.
pub fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not one JSON document ({e}):\n{}\nstderr:\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// Runs the command on a pseudo-terminal (util-linux `script`) and returns
/// everything the terminal received (`NO_COLOR` removed from its environment).
pub fn on_a_terminal(args: &[String]) -> (Option<i32>, String) {
    on_a_terminal_with(args, &[])
}

/// [`on_a_terminal`] with `env` set.
pub fn on_a_terminal_with(args: &[String], env: &[(&str, &str)]) -> (Option<i32>, String) {
    let line = args
        .iter()
        .map(|a| format!("'{a}'"))
        .collect::<Vec<_>>()
        .join(" ");
    let out = Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .env_remove("DATABASE_URL")
        .env_remove("NO_COLOR")
        .envs(env.iter().copied())
        .output()
        .expect("util-linux `script` runs the command on a pty");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).to_string(),
    )
}

/// Each step of an apply JSON report as `"<field> <status>"` (`field`:
/// `kind`, `object`, ...), in report order.
pub fn step_statuses(doc: &serde_json::Value, field: &str) -> Vec<String> {
    doc["steps"]
        .as_array()
        .expect("the report lists its steps")
        .iter()
        .map(|s| {
            format!(
                "{} {}",
                s[field].as_str().unwrap(),
                s["status"].as_str().unwrap()
            )
        })
        .collect()
}

/// Waits (at most `within`) until a statement starting with `prefix` runs
/// in the schema and returns its connection id, or panics naming what was
/// awaited.
pub async fn running_statement(db: &TestDb, prefix: &str, within: std::time::Duration) -> u64 {
    let deadline = std::time::Instant::now() + within;
    let mut conn = db.pool.get_conn().await.expect("connect");
    loop {
        let id: Option<u64> = conn
            .exec_first(
                "SELECT ID FROM information_schema.PROCESSLIST WHERE DB = ? AND INFO LIKE CONCAT(?, '%') \
                 AND ID <> CONNECTION_ID() LIMIT 1",
                (db.name.as_str(), prefix),
            )
            .await
            .expect("read the processlist");
        if let Some(id) = id {
            return id;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no statement starting with `{prefix}` ran in `{}` within {within:?}",
            db.name
        );
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}

/// A `tickets` table whose `int unsigned` AUTO_INCREMENT key has used 93%
/// of its range (4,000,000,000 of 4,294,967,295), and a catalog directory
/// declaring it: the `auto-increment-capacity` setup of the verify and
/// stats tests.
pub async fn tickets_near_their_range(db: &TestDb, prefix: &str) -> tempfile::TempDir {
    db.exec(&[
        "CREATE TABLE tickets (Id int unsigned NOT NULL AUTO_INCREMENT, PRIMARY KEY (Id)) \
         ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
        "ALTER TABLE tickets AUTO_INCREMENT = 4000000000",
    ])
    .await;
    let dir = tempfile::Builder::new().prefix(prefix).tempdir().unwrap();
    std::fs::write(
        dir.path().join("tickets.yaml"),
        "table: tickets\ncolumns:\n  - { name: Id, type: int unsigned, nullable: false, auto_increment: true }\nprimary_key: [Id]\n",
    )
    .unwrap();
    dir
}
