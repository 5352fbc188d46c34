//! The live side of verify, plan and apply: read the catalog's tables off
//! the server (bounded, [`crate::inspect`]) and diff them against their
//! catalog shapes. Verify, the planner and the reconciler all start here.

use std::time::Duration;

use crate::acquire::Acquire;
use crate::db::{bounded, Session};
use crate::diff::{diff_table_on, TableDiff};
use crate::error::Result;
use crate::inspect;
use crate::model::{Table, Widens};
use crate::plan::{self, Plan};

/// Reads `request`'s tables off the server ([`inspect::read`]: a fixed
/// number of bounded statements for all of them, the schemas read
/// together) and diffs each against its catalog shape: the result per
/// schema, in order, each the tables in the order given. A schema whose
/// tables cannot be read as a shape the model knows has its own error, a
/// failed statement fails the call. With [`inspect::Read::net`] a table
/// the net refuses is `unrecognised` drift. `widens` are the catalog's
/// widening opt-ins ([`crate::catalog::Catalog::widens`]; none: strictly
/// additive).
pub async fn diff_all(
    session: &mut Session<'_>,
    request: &inspect::Read<'_>,
    widens: &Widens,
) -> Result<Vec<Result<Vec<TableDiff>>>> {
    let live = inspect::read(session, request).await?;
    let flavor = Some(session.flavor());
    Ok(live
        .into_iter()
        .map(|read| {
            read.map(|live| {
                request
                    .tables
                    .iter()
                    .zip(live)
                    .map(|(t, (_, have))| diff_table_on(t, have.as_ref(), flavor, widens))
                    .collect()
            })
        })
        .collect())
}

/// [`diff_all`] of one schema, its error its own.
pub(crate) async fn diff_schema(
    session: &mut Session<'_>,
    schema: &str,
    tables: &[Table],
    widens: &Widens,
    net: bool,
) -> Result<Vec<TableDiff>> {
    let request = inspect::Read::default()
        .schema(schema)
        .tables(tables)
        .net(net);
    let mut out = diff_all(session, &request, widens).await?;
    out.pop().unwrap_or_else(|| Ok(Vec::new()))
}

/// [`diff_schema`] with the net (`verify --strict`), also reporting each
/// catalog column whose `SHOW CREATE TABLE` text states a collation where
/// the server's own text of the catalog's table would not, or the reverse
/// ([`crate::diff::ProblemKind::ColumnCollationStated`]): the net's own
/// finding, which plan and apply leave aside.
pub(crate) async fn diff_all_strict(
    session: &mut Session<'_>,
    schema: &str,
    tables: &[Table],
    widens: &Widens,
) -> Result<Vec<TableDiff>> {
    let request = inspect::Read::default()
        .schema(schema)
        .tables(tables)
        .net(true);
    let (mut reads, mut stated) = inspect::read_stated(session, &request).await?;
    let read = reads.pop().unwrap_or_else(|| Ok(Vec::new()))?;
    let stated = stated.pop().unwrap_or_default();
    let flavor = Some(session.flavor());
    let mut diffs: Vec<TableDiff> = tables
        .iter()
        .zip(read)
        .map(|(t, (_, have))| diff_table_on(t, have.as_ref(), flavor, widens))
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

/// Inspects, diffs and plans (issues no DDL). The read is netted as
/// apply's preflight is ([`inspect::Read::net`]: one more round trip per 64
/// existing tables), so a table apply refuses as `unrecognised` is drift
/// in the plan too. `widens` are the catalog's widening opt-ins
/// ([`crate::catalog::Catalog::widens`]).
pub async fn plan_live(
    session: &mut Session<'_>,
    schema: &str,
    tables: &[Table],
    widens: &Widens,
) -> Result<Plan> {
    let diffs = diff_schema(session, schema, tables, widens, true).await?;
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
    widens: &Widens,
    deadline: Duration,
) -> Result<Plan> {
    bounded(deadline, "plan", async {
        let mut session = db.acquire(deadline).await?;
        plan_live(&mut session, schema, tables, widens).await
    })
    .await?
}
