//! `auto-increment-capacity` in `catalog verify`: each catalog table with
//! an auto_increment column has its next AUTO_INCREMENT value read (one
//! bounded read of `information_schema.TABLES` per 256 tables, by schema
//! and table name) and compared with the column's range
//! ([`crate::coltype::auto_increment_use`]). A warning by default; the
//! catalog sets its level and share (`lint:`, docs/lint.md).

use mysql_async::prelude::*;
use mysql_async::Params;

use crate::catalog::{Catalog, Level, AUTO_INCREMENT_CAPACITY};
use crate::db::Session;
use crate::error::Result;
use crate::model::Table;

use super::{scope, CapacityFinding, VerifyReport};

/// Tables per read.
const CHUNK: usize = 256;

/// Reads and reports the capacity of `catalog`'s (scoped) tables in
/// `schema` into `report`; nothing at all when the rule is `off`.
pub(super) async fn add(
    session: &mut Session<'_>,
    schema: &str,
    catalog: &Catalog,
    consumer: Option<&str>,
    report: &mut VerifyReport,
) -> Result<()> {
    let level = catalog.lint.level(&AUTO_INCREMENT_CAPACITY);
    let Some(severity) = level.severity() else {
        return Ok(());
    };
    let tables: Vec<Table> = scope(catalog, consumer)?
        .into_iter()
        .filter(|t| t.columns.iter().any(|c| c.auto_increment))
        .collect();
    if tables.is_empty() {
        return Ok(());
    }
    let next = next_values(session, schema, &tables).await?;
    let share = catalog.lint.auto_increment_max_share;
    for t in &tables {
        let Some(value) = next
            .iter()
            .find(|(n, _)| crate::ident::fold(n) == t.name.folded())
            .map(|(_, v)| *v)
        else {
            continue;
        };
        for c in t.columns.iter().filter(|c| c.auto_increment) {
            let Some(usage) = crate::coltype::auto_increment_use(&c.ty, value) else {
                continue;
            };
            if usage.over(share) {
                report.capacity.push(CapacityFinding {
                    rule: AUTO_INCREMENT_CAPACITY.id,
                    severity,
                    table: t.name.to_string(),
                    column: c.name.to_string(),
                    column_type: c.ty.to_string(),
                    usage,
                    max_share: share,
                    message: format!(
                        "{}: widen the column (e.g. `type: bigint unsigned`) before it runs out",
                        usage.describe(&c.ty, share)
                    ),
                });
            }
        }
    }
    if level == Level::Error && !report.capacity.is_empty() {
        report.ok = false;
    }
    Ok(())
}

/// `(table name, AUTO_INCREMENT)` of the tables that have a value.
async fn next_values(
    session: &mut Session<'_>,
    schema: &str,
    tables: &[Table],
) -> Result<Vec<(String, u64)>> {
    // MySQL shows a cached AUTO_INCREMENT unless the session's expiry is 0;
    // it is set for the read and given back its value after.
    let expiry = session.flavor().table_stats_expiry_variable();
    let restore = match expiry {
        Some(var) => {
            let old: Option<u64> = session
                .run("reading the statistics expiry", |c| {
                    c.query_first(format!("SELECT @@SESSION.{var}"))
                })
                .await?;
            session
                .run("reading current statistics", |c| {
                    c.query_drop(format!("SET SESSION {var} = 0"))
                })
                .await?;
            old.map(|v| format!("SET SESSION {var} = {v}"))
        }
        None => None,
    };
    let mut out = Vec::new();
    for chunk in tables.chunks(CHUNK) {
        let marks = vec!["?"; chunk.len()].join(", ");
        let sql = format!(
            "SELECT TABLE_NAME AS table_name, AUTO_INCREMENT AS next_value FROM information_schema.TABLES \
             WHERE TABLE_SCHEMA = ? AND TABLE_NAME IN ({marks})"
        );
        let params: Vec<mysql_async::Value> = std::iter::once(schema.into())
            .chain(chunk.iter().map(|t| t.name.as_str().into()))
            .collect();
        let what = "reading AUTO_INCREMENT values";
        let rows = session
            .exec_rows(what, &sql, Params::Positional(params))
            .await?;
        for row in &rows {
            let r = crate::inspect::RowReader::new(row, what);
            if let Some(next) = r.opt_u64("next_value")? {
                out.push((r.text("table_name")?, next));
            }
        }
    }
    if let Some(sql) = restore {
        session
            .run("restoring the statistics expiry", |c| c.query_drop(sql))
            .await?;
    }
    Ok(out)
}
