//! The live side of verify, plan and apply: read the catalog's tables off
//! the server (bounded, [`crate::inspect`]) and diff them against their
//! catalog shapes. Verify, the planner and the reconciler all start here.

use std::time::Duration;

use crate::acquire::Acquire;
use crate::db::{bounded, Session};
use crate::diff::{diff_table, TableDiff};
use crate::error::Result;
use crate::inspect;
use crate::model::Table;
use crate::plan::{self, Plan};

/// Inspects `tables` (a fixed number of bounded statements for all of
/// them) and diffs each against its catalog shape, in the order given.
pub async fn diff_all(
    session: &mut Session<'_>,
    schema: &str,
    tables: &[Table],
) -> Result<Vec<TableDiff>> {
    let live = inspect::inspect_catalog_tables(session, schema, tables).await?;
    Ok(tables
        .iter()
        .zip(live)
        .map(|(t, (_, have))| diff_table(t, have.as_ref()))
        .collect())
}

/// Inspects, diffs and plans (issues no DDL).
pub async fn plan_live(session: &mut Session<'_>, schema: &str, tables: &[Table]) -> Result<Plan> {
    let diffs = diff_all(session, schema, tables).await?;
    let mut plan = plan::plan(&diffs, session.flavor());
    plan.server = Some(session.identity().clone());
    Ok(plan)
}

/// [`plan_live`] on the caller's target, pool or connection
/// ([`Acquire`]), the whole run within `deadline`.
pub async fn plan_within<'c>(
    db: impl Acquire<'c>,
    schema: &str,
    tables: &[Table],
    deadline: Duration,
) -> Result<Plan> {
    bounded(deadline, "plan", async {
        let mut session = db.acquire(deadline).await?;
        plan_live(&mut session, schema, tables).await
    })
    .await?
}
