//! `catalog`: the command-line front of schema-catalog. Thin: parses
//! arguments, calls the library, prints reports, maps outcomes to exit codes.

mod args;
mod commands;
mod offline;
mod print;
mod shared;

use std::process::ExitCode;

use clap::Parser;

use args::Cli;

/// Exit codes (SPEC "Commands").
pub mod exit {
    /// Success: valid, converged, satisfied, planned.
    pub const OK: u8 = 0;
    /// Drift blocks the plan / refused / not satisfied.
    pub const DRIFT: u8 = 1;
    /// Usage or catalog error.
    pub const USAGE: u8 = 2;
    /// Database error.
    pub const DATABASE: u8 = 3;
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::from(exit::DATABASE);
        }
    };
    let code = match runtime.block_on(commands::run(&cli)) {
        Ok(code) => code,
        Err(err) => {
            let code = exit_code_for(&err);
            print::error(cli.format, &err, code);
            code
        }
    };
    ExitCode::from(code)
}

/// Maps an error to its exit code: usage and catalog errors 2, database 3.
fn exit_code_for(err: &anyhow::Error) -> u8 {
    use schema_catalog::Error as E;
    match err.downcast_ref::<E>() {
        Some(
            E::InvalidCatalog { .. }
            | E::Usage(_)
            | E::Io { .. }
            | E::Unsupported { .. }
            | E::NothingToImport { .. }
            | E::ImportFailsCheck { .. }
            | E::Dump { .. },
        ) => exit::USAGE,
        Some(_) => exit::DATABASE,
        None => exit::USAGE,
    }
}
