//! Running the `catalog` binary from the CLI tests added for the closed SQL
//! surface, connection and secrets work (one copy instead of one per file).
#![allow(dead_code)]

use std::process::{Command, Output};

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
