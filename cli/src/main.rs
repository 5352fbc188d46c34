//! `catalog`: the command-line front of schema-catalog. Thin: parses
//! arguments, calls the library, prints reports, maps outcomes to exit codes.

/// `println!` that never panics: a closed stdout (`catalog plan | head`)
/// ends the output quietly instead of with a panic.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// `eprintln!` that never panics on a closed stderr.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// mimalloc instead of the system allocator: an 8,192-table catalog is
/// millions of small allocations, a quarter of the CPU of `diff` and
/// `import --from` under glibc malloc (docs/scale.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod args;
mod commands;
mod cost_cmd;
mod explain_cmd;
mod fleet;
mod fleet_print;
mod init;
mod offline;
mod print;
mod review;
mod shared;
mod signals;

use std::process::ExitCode;

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
    /// apply deferred: a table stayed busy; nothing half-done; rerun later.
    pub const DEFERRED: u8 = 4;
    /// apply interrupted by SIGINT (128 + 2).
    pub const SIGINT: u8 = 130;
    /// apply interrupted by SIGTERM (128 + 15).
    pub const SIGTERM: u8 = 143;
}

fn main() -> ExitCode {
    let cli = match args::parse(std::env::args_os()) {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    print::set_color(cli.color);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            errln!("error: cannot start the async runtime: {e}");
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

/// A command line clap refused: `--help` and `--version` print as usual;
/// a usage error is exit 2, as one JSON error document on stdout when
/// `--format json` was asked for, clap's own text otherwise. clap echoes
/// what it refused: an argument that could hold a password (a database URL
/// given positionally) is shown redacted.
fn usage_error(mut e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    use std::io::IsTerminal as _;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let _ = e.print();
        return ExitCode::SUCCESS;
    }
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    hint_catalog_dir(&mut e);
    let redact = |text: &str| schema_catalog::dburl::redact_args(text, &args);
    if wants_json(args.iter().cloned()) {
        let text = e
            .kind()
            .as_str()
            .unwrap_or("invalid command line")
            .to_string();
        let detail = redact(&e.to_string());
        // clap's first line, without its `error: ` prefix and styling.
        let first = detail
            .lines()
            .next()
            .unwrap_or_default()
            .trim_start_matches("error: ")
            .to_string();
        print::emit_json(&schema_catalog::report::ErrorDoc {
            error: if first.is_empty() { text } else { first },
            exit_code: exit::USAGE,
            problems: None,
            fix: None,
        });
    } else {
        let rendered = e.render();
        let color = match raw_color(&args) {
            Some(choice) => choice == "always",
            None => {
                std::io::stderr().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        };
        let text = if color {
            rendered.ansi().to_string()
        } else {
            rendered.to_string()
        };
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), "{}", redact(&text));
    }
    ExitCode::from(exit::USAGE)
}

/// `catalog check cat-v3`: an unexpected positional argument that names a
/// directory was most likely meant as the catalog; say how to give it.
fn hint_catalog_dir(e: &mut clap::Error) {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::UnknownArgument {
        return;
    }
    let Some(ContextValue::String(arg)) = e.get(ContextKind::InvalidArg) else {
        return;
    };
    if arg.starts_with('-') || !std::path::Path::new(arg).is_dir() {
        return;
    }
    let tip = format!("a catalog directory is given as `--catalog {arg}`");
    e.insert(
        ContextKind::Suggested,
        ContextValue::StyledStrs(vec![tip.into()]),
    );
}

/// `--color` as given on a command line that did not parse (`never`,
/// `always`, `auto`), if it was.
fn raw_color(args: &[String]) -> Option<&str> {
    let mut found = None;
    for (i, a) in args.iter().enumerate() {
        if let Some(v) = a.strip_prefix("--color=") {
            found = Some(v);
        } else if a == "--color" {
            found = args.get(i + 1).map(String::as_str);
        }
    }
    found.filter(|v| *v != "auto")
}

/// Whether the raw arguments ask for `--format json` (they did not parse,
/// so they are read as given).
fn wants_json(args: impl Iterator<Item = String>) -> bool {
    let args: Vec<String> = args.collect();
    args.iter().any(|a| a == "--format=json")
        || args
            .windows(2)
            .any(|w| w[0] == "--format" && w[1] == "json")
}

/// Maps an error to its exit code: usage and catalog errors 2, database 3.
fn exit_code_for(err: &anyhow::Error) -> u8 {
    use schema_catalog::Error as E;
    match err.downcast_ref::<E>() {
        Some(
            E::InvalidCatalog { .. }
            | E::InvalidFleet { .. }
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
