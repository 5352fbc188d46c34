//! Command-line arguments (clap derive).

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};
use schema_catalog::Flavor;

/// Keep MySQL-family system tables exactly as a YAML catalog declares them:
/// lint the catalog, render DDL, plan, apply additively, verify at startup.
#[derive(Debug, Parser)]
#[command(name = "catalog", version, about, long_about = None)]
pub struct Cli {
    /// Catalog directory (catalog.yaml + one YAML file per table).
    #[arg(long, global = true, env = "CATALOG_DIR", default_value = "./catalog")]
    pub catalog: PathBuf,
    /// Target database: mysql://user:pass@host:port/db (the db is the target schema).
    #[arg(long, global = true, env = "DATABASE_URL", hide_env_values = true)]
    pub database_url: Option<String>,
    /// Output format. json prints exactly one JSON document on stdout.
    #[arg(long, global = true, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Deadline in seconds for connecting and for each read.
    #[arg(long, global = true, default_value_t = 5)]
    pub timeout: u64,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Readable text; errors on stderr.
    Human,
    /// One JSON document on stdout.
    Json,
    /// Markdown for a pull-request comment (`diff` only).
    Markdown,
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
    /// Load and lint the catalog (no database). Exit 0 valid, 2 invalid.
    Check,
    /// Print greenfield CREATE TABLE statements for every table (no database). Exit 0, 2.
    Render {
        /// SQL dialect to render for.
        #[arg(long, value_enum, default_value_t = FlavorArg::Tidb)]
        flavor: FlavorArg,
    },
    /// Inspect, diff and print the ordered steps apply would run; issues no DDL.
    /// Exit 0 planned, 1 drift blocks the plan, 2 usage/catalog error, 3 database error.
    Plan {
        /// Plan against a schema dump (mysqldump / mariadb-dump --no-data,
        /// SHOW CREATE TABLE output) instead of a live database.
        #[arg(long, value_name = "FILE.sql")]
        against: Option<PathBuf>,
        /// With --against: the server the dump comes from (default: detected
        /// from the dump, else tidb). Decides the SQL dialect of the steps.
        #[arg(long, value_enum, requires = "against")]
        flavor: Option<FlavorArg>,
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
    },
    /// Startup gate: does the live schema satisfy the catalog (or NAME's part of it)?
    /// Exit 0 satisfied, 1 not satisfied, 2 usage/catalog error, 3 database error.
    Verify {
        /// Check the base contract plus the items whose required_by lists NAME.
        #[arg(long, value_name = "NAME")]
        consumer: Option<String>,
        /// Also judge the plans of the consumer's declared queries on the
        /// live schema (EXPLAIN only, within the same --timeout budget).
        #[arg(long)]
        plans: bool,
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
        /// Flavors to show the upgrade SQL for (repeatable; default all three).
        #[arg(long, value_enum)]
        flavor: Vec<FlavorArg>,
    },
}
