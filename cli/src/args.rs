//! Command-line arguments (clap derive).
//!
//! Each subcommand declares the shared options it uses as one flattened
//! group ([`OfflineOpts`], [`LiveOpts`], [`ImportOpts`], [`DiffOpts`], made
//! of [`CatalogOpt`], [`TargetOpts`] and a `--format`), so its `--help`
//! lists exactly those, and its `--format` only the formats it prints
//! ([`FormatOpt`]: human, json; [`ReviewFormatOpt`] for `diff`: also
//! markdown). The same options are also accepted before the subcommand
//! (`catalog --catalog DIR --format json verify`, as documented); [`parse`]
//! resolves both places into one [`Cli`] (the command line after the
//! subcommand, then before it, then the environment, then the default) and
//! refuses an option given before a subcommand that does not use it, and a
//! format it does not print.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::parser::ValueSource;
use clap::{ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use schema_catalog::Flavor;

/// Keep MySQL-family system tables exactly as a YAML catalog declares them:
/// lint the catalog, render DDL, plan, apply additively, verify at startup.
///
/// `catalog <COMMAND> --help` lists the options each command takes; they may
/// also be given before the command.
#[derive(Debug, Parser)]
#[command(name = "catalog", version, about, long_about = None)]
struct Line {
    /// Catalog directory (for the commands that read one).
    #[arg(long, value_name = "CATALOG")]
    catalog: Option<PathBuf>,
    /// Target database URL (for the commands that connect).
    #[arg(long, value_name = "DATABASE_URL")]
    database_url: Option<String>,
    /// Output format.
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Deadline in seconds (for the commands that connect).
    #[arg(long, value_name = "TIMEOUT")]
    timeout: Option<u64>,
    /// Colour in human output: auto (a terminal, and NO_COLOR unset),
    /// always or never.
    #[arg(long, value_enum, global = true, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    /// What to do.
    #[command(subcommand)]
    command: Command,
}

/// The parsed command line: the shared options resolved, and the command.
#[derive(Debug)]
pub struct Cli {
    /// Catalog directory.
    pub catalog: PathBuf,
    /// Target database URL.
    pub database_url: Option<String>,
    /// Output format.
    pub format: Format,
    /// Deadline in seconds for connecting and for each read.
    pub timeout: u64,
    /// `--color`.
    pub color: ColorChoice,
    /// What to do.
    pub command: Command,
}

/// `--color`: whether human output is coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// On a terminal, unless the environment sets NO_COLOR (no-color.org).
    Auto,
    /// Always, even on a pipe and with NO_COLOR set.
    Always,
    /// Never.
    Never,
}

/// `--catalog`, for the commands that read a catalog.
#[derive(Debug, Clone, Args)]
pub struct CatalogOpt {
    /// Catalog directory (catalog.yaml + one YAML file per table).
    #[arg(long, env = "CATALOG_DIR", default_value = "./catalog")]
    catalog: PathBuf,
}

/// `--database-url` and `--timeout`, for the commands that connect.
#[derive(Debug, Clone, Args)]
pub struct TargetOpts {
    /// Target database: mysql://user:pass@host:port/db (the db is the target schema).
    #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
    database_url: Option<String>,
    /// Deadline in seconds for connecting and for each read.
    #[arg(long, default_value_t = 5)]
    timeout: u64,
}

/// `--format` for the commands that print text or JSON.
#[derive(Debug, Clone, Args)]
pub struct FormatOpt {
    /// Output format. json prints exactly one JSON document on stdout.
    #[arg(long, default_value = "human", value_parser = formats(Format::TEXT))]
    format: Format,
}

/// `--format` for `catalog diff`, which also prints Markdown and SARIF.
#[derive(Debug, Clone, Args)]
pub struct ReviewFormatOpt {
    /// Output format. json prints exactly one JSON document on stdout;
    /// sarif a SARIF 2.1.0 log for code scanning (docs/lint.md).
    #[arg(long, default_value = "human", value_parser = formats(Format::REVIEW))]
    format: Format,
}

/// `--format` for `catalog check`, which also prints SARIF.
#[derive(Debug, Clone, Args)]
pub struct LintFormatOpt {
    /// Output format. json prints exactly one JSON document on stdout;
    /// sarif a SARIF 2.1.0 log for code scanning (docs/lint.md).
    #[arg(long, default_value = "human", value_parser = formats(Format::LINT))]
    format: Format,
}

/// The options of `check` (a catalog, no database; also SARIF).
#[derive(Debug, Clone, Args)]
pub struct CheckOpts {
    #[command(flatten)]
    catalog: CatalogOpt,
    #[command(flatten)]
    format: LintFormatOpt,
}

/// The `--format` parser of a command that prints `supported`: its help
/// lists those, and any other value is clap's usage error (exit 2).
fn formats(supported: &'static [Format]) -> impl TypedValueParser<Value = Format> {
    PossibleValuesParser::new(supported.iter().filter_map(ValueEnum::to_possible_value))
        .try_map(|name| Format::from_str(&name, false))
}

/// The shared options of `render` (a catalog, no database).
#[derive(Debug, Clone, Args)]
pub struct OfflineOpts {
    #[command(flatten)]
    catalog: CatalogOpt,
    #[command(flatten)]
    format: FormatOpt,
}

/// The shared options of `plan`, `apply`, `explain` and `verify` (a
/// catalog and a database).
#[derive(Debug, Clone, Args)]
pub struct LiveOpts {
    #[command(flatten)]
    catalog: CatalogOpt,
    #[command(flatten)]
    target: TargetOpts,
    #[command(flatten)]
    format: FormatOpt,
}

/// `--format` for `plan`, `apply` and `verify`, which also print jsonl
/// and Markdown for a fleet.
#[derive(Debug, Clone, Args)]
pub struct FleetFormatOpt {
    /// Output format. json prints exactly one JSON document on stdout;
    /// jsonl and markdown only with --fleet.
    #[arg(long, default_value = "human", value_parser = formats(Format::FLEET))]
    format: Format,
}

/// The shared options of `plan`, `apply` and `verify` (a catalog and a
/// database or a fleet).
#[derive(Debug, Clone, Args)]
pub struct FleetLiveOpts {
    #[command(flatten)]
    catalog: CatalogOpt,
    #[command(flatten)]
    target: TargetOpts,
    #[command(flatten)]
    format: FleetFormatOpt,
}

/// `--replica` and `--require-replicas`, for `plan` and `apply`
/// (docs/replicas.md).
#[derive(Debug, Clone, Args)]
pub struct ReplicaOpts {
    /// A replica of the --database-url server that must execute and read
    /// back every step before apply says converged (repeatable):
    /// mysql://user:pass@host:port (its database, if any, is ignored).
    /// Checked before any DDL: it must replicate from this server, by GTID,
    /// with both threads running.
    #[arg(long = "replica", value_name = "URL", conflicts_with = "fleet")]
    pub replica: Vec<String>,
    /// Refuse before any DDL when the server lists connected replicas that
    /// are not named with --replica.
    #[arg(long, conflicts_with = "fleet")]
    pub require_replicas: bool,
}

/// The shared options of `import` (a database or a dump, no catalog).
#[derive(Debug, Clone, Args)]
pub struct ImportOpts {
    #[command(flatten)]
    target: TargetOpts,
    #[command(flatten)]
    format: FormatOpt,
}

/// The shared options of `diff` (catalogs, no database; also Markdown).
#[derive(Debug, Clone, Args)]
pub struct DiffOpts {
    #[command(flatten)]
    catalog: CatalogOpt,
    #[command(flatten)]
    format: ReviewFormatOpt,
}

/// The clap command (for shell completions).
pub fn command() -> clap::Command {
    Line::command()
}

/// Parses the command line (`std::env::args_os()` in `main`).
pub fn parse<I, T>(args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let matches = Line::command().try_get_matches_from(args)?;
    let line = Line::from_arg_matches(&matches)?;
    let (name, sub) = matches.subcommand().expect("clap requires a subcommand");
    let used = line.command.options();
    let unused = |option: &str| {
        Line::command().error(
            clap::error::ErrorKind::ArgumentConflict,
            format!("`catalog {name}` does not use --{option}; leave it out"),
        )
    };
    let catalog = match (used.catalog, line.catalog) {
        (Some(c), before) => resolve(sub, "catalog", c.catalog.clone(), before),
        (None, Some(_)) => return Err(unused("catalog")),
        (None, None) => PathBuf::from("./catalog"),
    };
    let (database_url, timeout) = match (used.target, line.database_url, line.timeout) {
        (Some(t), url, timeout) => (
            resolve(sub, "database_url", t.database_url.clone(), url.map(Some)),
            resolve(sub, "timeout", t.timeout, timeout),
        ),
        (None, Some(_), _) => return Err(unused("database-url")),
        (None, _, Some(_)) => return Err(unused("timeout")),
        (None, None, None) => (None, 5),
    };
    let format = resolve(sub, "format", used.format, line.format);
    if !used.formats.contains(&format) {
        return Err(Line::command().error(
            clap::error::ErrorKind::InvalidValue,
            format!(
                "`catalog {name}` does not print --format {}; use {}",
                format.name(),
                used.formats
                    .iter()
                    .map(|f| f.name())
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
        ));
    }
    Ok(Cli {
        catalog,
        database_url,
        format,
        timeout,
        color: line.color,
        command: line.command,
    })
}

/// An option's value: given after the subcommand, else before it, else the
/// subcommand's environment variable or default (`after` holds those).
fn resolve<T>(sub: &ArgMatches, id: &str, after: T, before: Option<T>) -> T {
    match before {
        Some(before) if !given(sub, id) => before,
        _ => after,
    }
}

/// Whether the subcommand's own command line gave `id` (not its
/// environment variable or default).
fn given(sub: &ArgMatches, id: &str) -> bool {
    sub.value_source(id) == Some(ValueSource::CommandLine)
}

/// The shared options one command declares.
pub struct Used<'a> {
    /// `--catalog`, when the command reads a catalog.
    pub catalog: Option<&'a CatalogOpt>,
    /// `--database-url` / `--timeout`, when it connects.
    pub target: Option<&'a TargetOpts>,
    /// `--format` as given after the command (or its default).
    pub format: Format,
    /// The formats the command prints.
    pub formats: &'static [Format],
}

/// `--two-phase-alter` (docs/replicas.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TwoPhaseArg {
    /// On for INPLACE steps on MariaDB 10.8+ when every --replica has
    /// parallel applier threads; off otherwise.
    Auto,
    /// On for every INPLACE step (MariaDB 10.8+ only).
    On,
    /// Never.
    Off,
}

impl From<TwoPhaseArg> for schema_catalog::replica::TwoPhaseAlter {
    fn from(a: TwoPhaseArg) -> Self {
        match a {
            TwoPhaseArg::Auto => Self::Auto,
            TwoPhaseArg::On => Self::On,
            TwoPhaseArg::Off => Self::Off,
        }
    }
}

/// Output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Readable text; errors on stderr.
    Human,
    /// One JSON document on stdout.
    Json,
    /// Markdown for a pull-request comment or change ticket (`diff`, and
    /// `plan`/`apply`/`verify` with `--fleet`).
    Markdown,
    /// One JSON document per line: each target as it finishes, then the
    /// summary (`--fleet` only).
    Jsonl,
    /// A SARIF 2.1.0 log for code scanning (`check`, `diff`).
    Sarif,
}

impl Format {
    /// What `init` and `completions` print.
    const PLAIN: &'static [Format] = &[Format::Human];
    /// What every command but `diff` prints.
    const TEXT: &'static [Format] = &[Format::Human, Format::Json];
    /// What `catalog check` prints.
    const LINT: &'static [Format] = &[Format::Human, Format::Json, Format::Sarif];
    /// What `catalog diff` prints.
    const REVIEW: &'static [Format] =
        &[Format::Human, Format::Json, Format::Markdown, Format::Sarif];
    /// What `plan`, `apply` and `verify` print (jsonl and markdown with `--fleet` only).
    const FLEET: &'static [Format] =
        &[Format::Human, Format::Json, Format::Jsonl, Format::Markdown];

    /// The value as written on the command line.
    fn name(self) -> String {
        self.to_possible_value()
            .map(|v| v.get_name().to_string())
            .unwrap_or_default()
    }
}

/// A number of seconds above zero (fractions allowed).
fn positive_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if v > 0.0 && v.is_finite() && v <= 31_536_000.0 => Ok(v),
        _ => Err(format!("`{text}` is not a number of seconds above 0")),
    }
}

/// A build rate in MB/s above zero.
fn positive_rate(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if v > 0.0 && v.is_finite() && v <= 1e6 => Ok(v),
        _ => Err(format!("`{text}` is not a build rate in MB/s above 0")),
    }
}

/// A duration budget: seconds (`0.5`) or a number with a unit (`500ms`,
/// `10m`); `0` is a budget of zero, not "no limit".
fn budget(text: &str) -> Result<std::time::Duration, String> {
    schema_catalog::cost::parse_duration(text)
}

/// `--build-rate`, `--max-step-duration`, `--max-replica-stall` and
/// `--allow-long-steps`: the cost options of `apply` and `diff`
/// (docs/cost.md).
#[derive(Debug, Clone, Args)]
pub struct BudgetOpts {
    /// The index build rate estimates assume, in MB of the table's
    /// DATA_LENGTH per second (default: a --stats file's calibration,
    /// else the flavor's default; docs/cost.md).
    #[arg(long, value_name = "MB/s", value_parser = positive_rate)]
    pub build_rate: Option<f64>,
    /// A step whose estimated build exceeds this is not started: apply
    /// exits 4 before the first DDL (diff marks it). Seconds (`0.5`) or a
    /// number with a unit (`500ms`, `30s`, `10m`, `2h`); 0 is a budget of
    /// zero, not "no limit" (default: catalog.yaml `budgets:`, else none).
    #[arg(long, value_name = "TIME", value_parser = budget)]
    pub max_step_duration: Option<std::time::Duration>,
    /// A step whose estimated replica stall exceeds this is not started
    /// (as --max-step-duration).
    #[arg(long, value_name = "TIME", value_parser = budget)]
    pub max_replica_stall: Option<std::time::Duration>,
    /// Steps allowed past the budgets, as TABLE.OBJECT (comma-separated
    /// or repeated).
    #[arg(long, value_name = "STEP", value_delimiter = ',')]
    pub allow_long_steps: Vec<String>,
}

/// Server flavor argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FlavorArg {
    /// TiDB: no ALGORITHM/LOCK clauses (its DDL is always online).
    Tidb,
    /// MySQL 8.
    Mysql,
    /// MariaDB 10.11+.
    Mariadb,
}

impl From<FlavorArg> for Flavor {
    fn from(f: FlavorArg) -> Flavor {
        match f {
            FlavorArg::Tidb => Flavor::TiDb,
            FlavorArg::Mysql => Flavor::MySql,
            FlavorArg::Mariadb => Flavor::MariaDb,
        }
    }
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Load and lint the catalog (no database). Exit 0 valid, 2 invalid
    /// (an error, or more warnings than --max-warnings).
    Check {
        /// Exit 2 when the catalog has more than N warnings (findings a
        /// `# catalog: allow` comment silenced do not count). Default: no
        /// limit; warnings alone exit 0.
        #[arg(long, value_name = "N")]
        max_warnings: Option<usize>,
        #[command(flatten)]
        shared: CheckOpts,
    },
    /// Print greenfield CREATE TABLE statements for every table (no database). Exit 0, 2.
    Render {
        /// SQL dialect to render for.
        #[arg(long, value_enum, default_value_t = FlavorArg::Tidb)]
        flavor: FlavorArg,
        /// The server release to render for (`8.0.36`, `10.11.9`, `8.5.1`;
        /// default: the flavor's oldest supported release).
        #[arg(long, value_name = "X.Y.Z")]
        server_version: Option<schema_catalog::Version>,
        #[command(flatten)]
        shared: OfflineOpts,
    },
    /// Inspect, diff and print the ordered steps apply would run; issues no DDL.
    /// Exit 0 planned, 1 drift blocks the plan, 2 usage/catalog error, 3 database error.
    Plan {
        /// Plan against a schema dump (mysqldump / mariadb-dump --no-data,
        /// SHOW CREATE TABLE output) instead of a live database.
        #[arg(long, value_name = "FILE.sql")]
        against: Option<PathBuf>,
        /// With --against: the server the dump comes from (default: detected
        /// from the dump's header or server-specific syntax; required when
        /// the dump does not say). Decides the SQL dialect of the steps.
        #[arg(long, value_enum, requires = "against")]
        flavor: Option<FlavorArg>,
        /// With --against: the release of the server the dump comes from
        /// (default: the flavor's oldest supported release).
        #[arg(long, value_name = "X.Y.Z", requires = "against")]
        server_version: Option<schema_catalog::Version>,
        /// Run on every target of a fleet file (servers, schemas, stages;
        /// docs/fleet.md) instead of the --database-url schema. Takes
        /// --format jsonl and markdown too.
        #[arg(long, value_name = "FLEET.yaml", conflicts_with = "against")]
        fleet: Option<PathBuf>,
        /// A `catalog stats` file: with --against, the tables' sizes for
        /// the cost estimates (without it they are unknown); live, its
        /// calibrated build rate (docs/cost.md).
        #[arg(long, value_name = "FILE", conflicts_with = "fleet")]
        stats: Option<PathBuf>,
        /// The index build rate estimates assume, in MB of DATA_LENGTH per
        /// second (default: the --stats calibration, else the flavor's
        /// default).
        #[arg(long, value_name = "MB/s", value_parser = positive_rate, conflicts_with = "fleet")]
        build_rate: Option<f64>,
        #[command(flatten)]
        replicas: ReplicaOpts,
        /// What apply would do with MariaDB 10.8+ two-phase ALTER
        /// (binlog_alter_two_phase): the plan says on or off, and why.
        #[arg(
            long,
            value_enum,
            value_name = "MODE",
            default_value = "auto",
            conflicts_with = "against"
        )]
        two_phase_alter: TwoPhaseArg,
        #[command(flatten)]
        shared: FleetLiveOpts,
    },
    /// The size of each catalog table as the server estimates it (rows,
    /// data and index bytes, AUTO_INCREMENT, row format), from bounded
    /// reads of the catalog's tables only; no row data. `--out FILE`
    /// writes it for `plan --against --stats` and `diff --stats`.
    /// Exit 0, 2 usage/catalog error, 3 database error.
    Stats {
        /// Write the stats document (JSON) to FILE.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Also measure the server's index build rate: build an index on a
        /// generated table in a scratch schema (created and dropped) and
        /// time it; the rate goes into the document.
        #[arg(long)]
        calibrate: bool,
        /// Rows of the generated table (default 500000).
        #[arg(long, value_name = "N", requires = "calibrate")]
        rows: Option<u64>,
        #[command(flatten)]
        shared: LiveOpts,
    },
    /// Write a catalog (catalog.yaml + one YAML file per table) from an
    /// existing schema: the --database-url schema or a dump (--from).
    /// Exit 0 written, 2 usage error or something the catalog format cannot
    /// express (unless --skip-unsupported), 3 database error.
    Import {
        /// Read a schema dump instead of the live database.
        #[arg(long, value_name = "FILE.sql")]
        from: Option<PathBuf>,
        /// With --from: the server the dump comes from (default: detected).
        #[arg(long, value_enum, requires = "from")]
        flavor: Option<FlavorArg>,
        /// Output directory (created; must hold no YAML files yet).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Only these tables (comma-separated).
        #[arg(long, value_delimiter = ',', value_name = "A,B")]
        tables: Vec<String>,
        /// Leave out what the catalog format cannot express, and list it.
        #[arg(long)]
        skip_unsupported: bool,
        #[command(flatten)]
        shared: ImportOpts,
    },
    /// Reconcile the live database to the catalog: add missing tables, nullable
    /// columns and indexes; refuse drift before any DDL. Exit 0 converged,
    /// 1 refused for drift (no DDL issued), 2 usage/catalog error, 3 database
    /// error (rerun resumes), 4 deferred (a table stayed busy; rerun later),
    /// 130/143 interrupted by SIGINT/SIGTERM.
    Apply {
        /// Seconds to wait for the advisory lock held by another applier.
        #[arg(long, default_value_t = 60)]
        lock_timeout: u64,
        /// Seconds each DDL attempt may wait for the table's metadata lock
        /// (the session's lock_wait_timeout), so that the application's
        /// statements never queue behind it for longer.
        #[arg(long, value_name = "SECONDS", default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=31_536_000))]
        lock_wait: u64,
        /// Total seconds one step may wait for a busy table (blocker seen or
        /// lock wait timed out) before apply stops with exit 4.
        #[arg(long, value_name = "SECONDS", default_value_t = 300)]
        busy_timeout: u64,
        /// On SIGINT/SIGTERM, leave a running DDL to the server instead of
        /// cancelling it (KILL QUERY).
        #[arg(long)]
        detach: bool,
        /// Take the lock and preflight, print the steps, issue no DDL.
        #[arg(long)]
        dry_run: bool,
        /// Run on every target of a fleet file (servers, schemas, stages;
        /// docs/fleet.md) instead of the --database-url schema. Takes
        /// --format jsonl and markdown too.
        #[arg(long, value_name = "FLEET.yaml")]
        fleet: Option<PathBuf>,
        #[command(flatten)]
        replicas: ReplicaOpts,
        /// Before each step, every --replica must execute the server's
        /// current GTID position within this many seconds; while one does
        /// not, the step waits within --busy-timeout, then exit 4.
        #[arg(long, value_name = "SECONDS", default_value_t = 2.0, value_parser = positive_seconds)]
        max_replica_lag: f64,
        /// After each step, seconds every --replica may take to execute it
        /// before apply exits 4 (`replicas_pending`; default: --busy-timeout).
        #[arg(long, value_name = "SECONDS")]
        replica_timeout: Option<u64>,
        /// Before each step, the server's and every --replica's
        /// Threads_running must be at most N; while one is above, the step
        /// waits within --busy-timeout, then exit 4 (default: not checked).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        max_threads_running: Option<u64>,
        /// MariaDB 10.8+ two-phase ALTER (binlog_alter_two_phase) for
        /// INPLACE steps: auto turns it on when every --replica has
        /// parallel applier threads; on is refused on servers without it.
        #[arg(long, value_enum, value_name = "MODE", default_value = "auto")]
        two_phase_alter: TwoPhaseArg,
        /// Before the first DDL, each UNIQUE index added to an existing
        /// table is probed for duplicate keys under this statement time
        /// limit (seconds, fractions allowed); a probe that finds
        /// duplicates or times out refuses the run (exit 1, no DDL).
        /// Default: per table, the larger of 30 s and 2 x its estimated
        /// scan time (its live size at the build rate; docs/apply.md).
        #[arg(long, value_name = "SECONDS", value_parser = positive_seconds)]
        probe_timeout: Option<f64>,
        /// A `catalog stats --calibrate --out` file: its calibration (rate
        /// and fixed overhead) replaces the flavor's default rate in the
        /// estimates (budgets, the duplicate probe's limit); --build-rate
        /// still wins. Sizes are read live.
        #[arg(long, value_name = "FILE")]
        stats: Option<PathBuf>,
        /// Do not probe UNIQUE indexes for duplicates (after a probe timed
        /// out): the report lists them as skipped; a duplicate then fails
        /// the build with error 1062.
        #[arg(long)]
        skip_duplicate_probe: bool,
        /// Print the key values of the duplicate groups a probe finds (by
        /// default only their number: the values may be personal data).
        #[arg(long)]
        show_duplicates: bool,
        #[command(flatten)]
        budgets: BudgetOpts,
        #[command(flatten)]
        shared: FleetLiveOpts,
    },
    /// Prove each declared query (`queries:`) reads its table through the
    /// index it names, from the server's own plan. Exit 0 all pass, 1 a
    /// query fails, 2 usage/catalog error, 3 database error.
    Explain {
        /// Only the base queries and those whose required_by lists NAME.
        #[arg(long, value_name = "NAME")]
        consumer: Option<String>,
        /// Build a uniquely named scratch schema on the --database-url
        /// server, fill it with fixture rows, judge, drop it. Without it the
        /// URL's schema is read only (EXPLAIN; no UPDATE/DELETE runs).
        #[arg(long)]
        scratch: bool,
        /// Live mode: run each SELECT under the server's analyzing EXPLAIN
        /// for actual rows examined (UPDATE/DELETE are never run live).
        #[arg(long, conflicts_with = "scratch")]
        analyze: bool,
        /// Seed of the scratch fixture rows.
        #[arg(long, default_value_t = 1, requires = "scratch")]
        seed: u64,
        #[command(flatten)]
        shared: LiveOpts,
    },
    /// Startup gate: does the live schema satisfy the catalog (or NAME's part of it)?
    /// Exit 0 satisfied, 1 not satisfied, 2 usage/catalog error, 3 database error.
    Verify {
        /// Check the base contract plus the items whose required_by lists NAME.
        #[arg(long, value_name = "NAME")]
        consumer: Option<String>,
        /// Also judge the plans of the consumer's declared queries on the
        /// live schema (EXPLAIN only, within the same --timeout budget).
        #[arg(long, conflicts_with = "fleet")]
        plans: bool,
        /// Also run the regenerate-and-compare net: each existing table's
        /// SHOW CREATE TABLE is compared with its inspected model, and a
        /// table showing an attribute the model does not explain fails as
        /// `unrecognised`. One more bounded statement per table: for CI,
        /// not for a service's startup (docs/verify.md).
        #[arg(long, conflicts_with = "fleet")]
        strict: bool,
        /// Run on every target of a fleet file (servers, schemas, stages;
        /// docs/fleet.md) instead of the --database-url schema. Takes
        /// --format jsonl and markdown too.
        #[arg(long, value_name = "FLEET.yaml")]
        fleet: Option<PathBuf>,
        /// Also verify the schema on this replica (repeatable):
        /// mysql://user:pass@host:port (its database, if any, is ignored).
        /// Satisfied only when the server and every replica are.
        #[arg(long = "replica", value_name = "URL", conflicts_with = "fleet")]
        replica: Vec<String>,
        #[command(flatten)]
        shared: FleetLiveOpts,
    },
    /// Release review, no database: classify every change from OLD to NEW,
    /// the upgrade SQL each installation at OLD gets per flavor, and the
    /// consumer rollout order. Exit 0 all deployable, 1 something not
    /// deployable or a new lint error, 2 usage/catalog error.
    Diff {
        /// OLD: a catalog directory, `git:REV` (the --catalog directory at
        /// REV) or `git:REV:path`. Repeat for every release still installed.
        #[arg(long, value_name = "OLD", required = true)]
        from: Vec<String>,
        /// NEW, in the same forms (default: --catalog).
        #[arg(long, value_name = "NEW")]
        to: Option<String>,
        /// Flavors to show the upgrade SQL for (repeatable; default all
        /// three, with a note on stderr saying so).
        #[arg(long, value_enum)]
        flavor: Vec<FlavorArg>,
        /// With one --flavor: the server release the upgrade SQL is for
        /// (default: each flavor's oldest supported release).
        #[arg(long, value_name = "X.Y.Z")]
        server_version: Option<schema_catalog::Version>,
        /// Exit 1 (not deployable) when a review has more than N warnings:
        /// divergent changes (warm and greenfield differ). Default: no
        /// limit.
        #[arg(long, value_name = "N")]
        max_warnings: Option<usize>,
        /// A `catalog stats` file: the installed tables' sizes, for the
        /// cost of each upgrade step (without it: unknown).
        #[arg(long, value_name = "FILE")]
        stats: Option<PathBuf>,
        #[command(flatten)]
        budgets: BudgetOpts,
        #[command(flatten)]
        shared: DiffOpts,
    },
    /// Write a starter catalog into DIR (default ./catalog): catalog.yaml
    /// with the defaults and one commented example table, ready for
    /// `catalog check`. Refuses a directory that holds YAML files. Exit 0, 2.
    Init {
        /// Directory to create (or an empty one).
        #[arg(value_name = "DIR", default_value = "catalog")]
        dir: PathBuf,
    },
    /// Print a shell completion script to stdout, e.g.
    /// `catalog completions bash > /etc/bash_completion.d/catalog`,
    /// `catalog completions zsh > "${fpath[1]}/_catalog"`,
    /// `catalog completions fish > ~/.config/fish/completions/catalog.fish`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

impl Command {
    /// Whether the command runs on a fleet (`--fleet`).
    pub fn fleet(&self) -> bool {
        matches!(
            self,
            Command::Plan { fleet: Some(_), .. }
                | Command::Apply { fleet: Some(_), .. }
                | Command::Verify { fleet: Some(_), .. }
        )
    }

    /// The shared options this command declares (and so uses).
    pub fn options(&self) -> Used<'_> {
        match self {
            Command::Check { shared, .. } => Used {
                catalog: Some(&shared.catalog),
                target: None,
                format: shared.format.format,
                formats: Format::LINT,
            },
            Command::Render { shared, .. } => Used {
                catalog: Some(&shared.catalog),
                target: None,
                format: shared.format.format,
                formats: Format::TEXT,
            },
            Command::Plan { shared, .. }
            | Command::Apply { shared, .. }
            | Command::Verify { shared, .. } => Used {
                catalog: Some(&shared.catalog),
                target: Some(&shared.target),
                format: shared.format.format,
                formats: Format::FLEET,
            },
            Command::Explain { shared, .. } | Command::Stats { shared, .. } => Used {
                catalog: Some(&shared.catalog),
                target: Some(&shared.target),
                format: shared.format.format,
                formats: Format::TEXT,
            },
            Command::Import { shared, .. } => Used {
                catalog: None,
                target: Some(&shared.target),
                format: shared.format.format,
                formats: Format::TEXT,
            },
            Command::Diff { shared, .. } => Used {
                catalog: Some(&shared.catalog),
                target: None,
                format: shared.format.format,
                formats: Format::REVIEW,
            },
            Command::Init { .. } | Command::Completions { .. } => Used {
                catalog: None,
                target: None,
                format: Format::Human,
                formats: Format::PLAIN,
            },
        }
    }
}
