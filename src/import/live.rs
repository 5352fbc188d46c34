//! Reading the source tables of a live schema ([`read_live`]).

use std::collections::BTreeSet;

use crate::db::Session;
use crate::dump::{self, Feature, ParseOptions};
use crate::error::Result;
use crate::ident::{quote_ident, Ident};
use crate::inspect;
use crate::model::TableKind;

use super::SourceTable;

/// The statement listing the base tables of a schema (one bounded read,
/// equality on TABLE_SCHEMA), MariaDB's system-versioned ones among them
/// (TABLE_TYPE `SYSTEM VERSIONED`): those are read and refused, never
/// left out without a word. Parameter: the schema.
pub const LIST_TABLES_SQL: &str = "SELECT TABLE_NAME AS table_name FROM information_schema.TABLES \
     WHERE TABLE_SCHEMA = ? AND TABLE_TYPE IN ('BASE TABLE', 'SYSTEM VERSIONED') ORDER BY TABLE_NAME";

/// Reads the source tables of a live schema: one listing read, then the
/// tables (only those named in `only`, when not empty) with the chunked
/// inspection reads ([`inspect::inspect_tables`]) and their `SHOW CREATE
/// TABLE` texts, 64 per text query, which supply what the model does not
/// carry (foreign keys, partitioning, ON UPDATE, checks, options) and the
/// declared index order.
pub async fn read_live(
    session: &mut Session<'_>,
    schema: &str,
    only: &[String],
) -> Result<Vec<SourceTable>> {
    let what = format!("listing the tables of {}", quote_ident(schema));
    let rows = session
        .exec_rows(&what, LIST_TABLES_SQL, inspect::params(&[schema]))
        .await?;
    let names: Vec<String> = rows
        .iter()
        .map(|r| inspect::RowReader::new(r, &what).text("table_name"))
        .collect::<Result<_>>()?;
    let wanted: BTreeSet<String> = only.iter().map(|t| Ident::new(t.as_str()).key()).collect();
    let names: Vec<Ident> = names
        .iter()
        .map(|n| Ident::new(n.as_str()))
        .filter(|n| wanted.is_empty() || wanted.contains(&n.key()))
        .collect();
    let flavor = session.flavor();
    // The tables are read as verify reads a large catalog (the size read,
    // then listed statements of up to 1,024 tables, or equality groups of
    // 64), and their definitions 64 per text query: a fixed number of
    // round trips per chunk, not three per table.
    let read = inspect::inspect_tables(session, schema, &names).await?;
    let existing: Vec<Ident> = read
        .iter()
        .filter_map(|(_, t)| t.as_ref().map(|t| t.name.clone()))
        .collect();
    let mut shown = inspect::ShowCreate::default();
    shown.prefetch(session, schema, &existing).await?;
    let mut out = Vec::new();
    for (_, table) in read {
        let Some(mut table) = table else {
            continue; // dropped meanwhile
        };
        // The effective row format is read for the widening rules only; a
        // catalog does not declare it, so an import does not carry it.
        table.row_format = None;
        let text = shown.text(session, schema, &table.name).await?;
        let options = ParseOptions {
            flavor: Some(flavor),
            keep_other_types: true,
        };
        let features = match dump::parse_create_table_with(&text, options) {
            Ok(parsed) => {
                // The definition names the partitioning; inspection only knows there is one.
                if matches!(parsed.table.kind, TableKind::Partitioned(_)) {
                    table.kind = parsed.table.kind.clone();
                }
                // The definition names each table option the inspection
                // found in CREATE_OPTIONS, one feature per option: those
                // say it more precisely.
                if matches!(table.kind, TableKind::Unrecognised(_))
                    && parsed
                        .features
                        .iter()
                        .any(|f| f.object.starts_with("table option"))
                {
                    table.kind = TableKind::Base;
                }
                // The regenerate-and-compare net: a table whose text
                // shows what the inspected model does not explain is
                // refused (`unrecognised`), naming the clause. A table
                // with features is refused by them already.
                let refused = parsed
                    .features
                    .iter()
                    .any(|f| !super::unsupported::is_server_default(&parsed.table, f));
                if table.kind == TableKind::Base && !refused {
                    if let Some(what) = inspect::net_difference(&table, &parsed, flavor) {
                        table.kind = TableKind::Unrecognised(what);
                    }
                }
                // Keep the server's index order (SHOW CREATE TABLE order).
                let pos = |n: &Ident| parsed.table.indexes.iter().position(|i| &i.name == n);
                table
                    .indexes
                    .sort_by_key(|i| pos(&i.name).unwrap_or(usize::MAX));
                // Inspection does not read index comments; the definition has them.
                for i in &mut table.indexes {
                    if let Some(p) = parsed.table.index(&i.name) {
                        i.comment = p.comment.clone();
                    }
                }
                parsed.features
            }
            Err(e) => vec![Feature {
                object: "table".into(),
                what: format!(
                    "a definition this tool cannot read ({})",
                    inspect::with_line(&text, &e.to_string())
                ),
            }],
        };
        out.push(SourceTable { table, features });
    }
    Ok(out)
}
