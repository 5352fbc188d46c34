//! What the commands share: loading the catalog, the target and its
//! deadline, and ending a plan (live or from a dump) with its report and
//! exit code. `commands` and `offline` both use this module and not each
//! other.

use std::time::Duration;

use anyhow::Result;
use schema_catalog::catalog::{self, Catalog};
use schema_catalog::plan::Plan;
use schema_catalog::{db, Table};

use crate::args::{Cli, Format};
use crate::exit;
use crate::print;

/// What a database command says when no URL was given.
pub const NO_DATABASE: &str = "no database: pass --database-url or set DATABASE_URL";

/// Loads the catalog; an invalid one prints its problems and is a usage error.
pub fn load(cli: &Cli) -> Result<Catalog> {
    catalog::load(&cli.catalog).map_err(|err| {
        if let (Format::Human, schema_catalog::Error::InvalidCatalog { problems, .. }) =
            (cli.format, &err)
        {
            print::problems_to_stderr(problems);
        }
        err.into()
    })
}

/// The target from `--database-url` / `DATABASE_URL`; `missing` is the
/// usage error when there is none.
pub fn target(cli: &Cli, missing: &str) -> Result<db::Target> {
    let url = cli
        .database_url
        .as_deref()
        .ok_or_else(|| schema_catalog::Error::Usage(missing.into()))?;
    Ok(db::parse_url(url)?)
}

/// The deadline for connecting and for each read (`--timeout`, at least 1 s).
pub fn timeout(cli: &Cli) -> Duration {
    Duration::from_secs(cli.timeout.max(1))
}

/// Prints a plan (and, in human output, the diff of each table it touches)
/// and returns its exit code: the same for a live plan and a dump plan.
pub fn report_plan<'a>(
    cli: &Cli,
    tables: impl IntoIterator<Item = &'a Table>,
    plan: &Plan,
    source: &str,
    cost: Option<&schema_catalog::cost::PlanCost>,
) -> u8 {
    report_plan_with(cli, tables, plan, source, None, cost)
}

/// [`report_plan`] with what the replicas survey found (a live plan).
pub fn report_plan_with<'a>(
    cli: &Cli,
    tables: impl IntoIterator<Item = &'a Table>,
    plan: &Plan,
    source: &str,
    replicas: Option<&schema_catalog::replica::Survey>,
    cost: Option<&schema_catalog::cost::PlanCost>,
) -> u8 {
    print::plan(cli.format, source, plan, replicas, cost);
    print::table_diffs(cli.format, tables, &plan.live, plan.flavor, source);
    if plan.is_refused() {
        exit::DRIFT
    } else {
        exit::OK
    }
}
