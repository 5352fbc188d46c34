//! The live side of verify, plan and apply: read the catalog's tables off
//! the server (bounded, [`crate::inspect`]) and diff them against their
//! catalog shapes. Verify, the planner and the reconciler all start here.

use std::time::Duration;

use crate::acquire::Acquire;
use crate::db::{bounded, Session};
use crate::diff::{diff_table_on, TableDiff};
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
    let mut out = diff_all_schemas(session, &[schema], tables).await?;
    out.pop().unwrap_or_else(|| Ok(Vec::new()))
}

/// [`diff_all`], and with `net` the regenerate-and-compare net: one more
/// round trip per 64 existing tables (see
/// [`inspect::inspect_catalog_tables_with`]); a table the net refuses is
/// `unrecognised` drift.
pub(crate) async fn diff_all_with(
    session: &mut Session<'_>,
    schema: &str,
    tables: &[Table],
    net: bool,
) -> Result<Vec<TableDiff>> {
    let mut out = diff_all_schemas_with(session, &[schema], tables, net).await?;
    out.pop().unwrap_or_else(|| Ok(Vec::new()))
}

/// [`diff_all_with`] the net (`verify --strict`), also reporting each
/// catalog column whose `SHOW CREATE TABLE` text states a collation where
/// the server's own text of the catalog's table would not, or the reverse
/// ([`crate::diff::ProblemKind::ColumnCollationStated`]): the net's own
/// finding, which plan and apply leave aside.
pub(crate) async fn diff_all_strict(
    session: &mut Session<'_>,
    schema: &str,
    tables: &[Table],
) -> Result<Vec<TableDiff>> {
    let (read, stated) = inspect::inspect_catalog_tables_strict(session, schema, tables).await?;
    let flavor = Some(session.flavor());
    let mut diffs: Vec<TableDiff> = tables
        .iter()
        .zip(read?)
        .map(|(t, (_, have))| diff_table_on(t, have.as_ref(), flavor))
        .collect();
    for s in stated {
        let Some((want, d)) = tables
            .iter()
            .zip(&mut diffs)
            .find(|(t, _)| t.name == s.table)
        else {
            continue;
        };
        // A column drifted otherwise already has a fix restating it.
        let drifted = d.problems.iter().any(|p| {
            p.kind.subject() == crate::diff::Subject::Column
                && p.object.eq_ignore_ascii_case(s.column.as_str())
        });
        let live = d.live.as_ref().and_then(|l| l.column(&s.column));
        if let (false, Some(live), Some(_)) = (drifted, live, want.column(&s.column)) {
            d.problems.push(crate::diff::collation_stated(
                want,
                live,
                s.shown,
                s.regenerated,
            ));
        }
    }
    Ok(diffs)
}

/// [`diff_all`] in each of `schemas` on one server, read together
/// ([`inspect::inspect_catalog_schemas`]): the result per schema, in order;
/// a schema whose tables cannot be read as a shape the model knows has its
/// own error, a failed statement fails the call.
pub async fn diff_all_schemas(
    session: &mut Session<'_>,
    schemas: &[&str],
    tables: &[Table],
) -> Result<Vec<Result<Vec<TableDiff>>>> {
    diff_all_schemas_with(session, schemas, tables, false).await
}

/// [`diff_all_schemas`], and with `net` the net of [`diff_all_with`] on
/// each schema (apply's preflight read, for many schemas at once).
pub(crate) async fn diff_all_schemas_with(
    session: &mut Session<'_>,
    schemas: &[&str],
    tables: &[Table],
    net: bool,
) -> Result<Vec<Result<Vec<TableDiff>>>> {
    let live = inspect::inspect_catalog_schemas_with(session, schemas, tables, net).await?;
    let flavor = Some(session.flavor());
    Ok(live
        .into_iter()
        .map(|read| {
            read.map(|live| {
                tables
                    .iter()
                    .zip(live)
                    .map(|(t, (_, have))| diff_table_on(t, have.as_ref(), flavor))
                    .collect()
            })
        })
        .collect())
}

/// Inspects, diffs and plans (issues no DDL). The read is netted as
/// apply's preflight is (`diff_all_with`: one more round trip per 64
/// existing tables), so a table apply refuses as `unrecognised` is drift
/// in the plan too.
pub async fn plan_live(session: &mut Session<'_>, schema: &str, tables: &[Table]) -> Result<Plan> {
    let diffs = diff_all_with(session, schema, tables, true).await?;
    let mut plan = plan::plan(&diffs, session.flavor());
    plan.server = Some(session.identity().clone());
    plan.schema = Some(schema.to_string());
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
