//! Bounded live inspection: the catalog's tables are read with one prepared
//! `information_schema` statement whatever their number (see [`sql`] for
//! its shape): a `UNION ALL` of three branches per table (TABLES, COLUMNS,
//! index rows), every branch filtered by `TABLE_SCHEMA = ? AND TABLE_NAME =
//! ?`. The servers' information_schema optimisation turns each branch into
//! a lookup of that one table (MariaDB: "Scanned 0 databases", MySQL:
//! single-row index lookups in the data dictionary), so the cost does not
//! grow with the number of other tables on the server, and the round trips
//! do not grow with the catalog. An `IN` list is not used: both servers
//! then scan the whole schema.
//!
//! Values are decoded explicitly from the binary protocol (see
//! [`row::RowReader`]).

mod row;
mod sql;

use mysql_async::Value;

use crate::coltype::ColumnType;
use crate::db::{ServerInfo, Session};
use crate::error::Result;
use crate::ident::{quote_ident, Ident};
use crate::model::{Check, Column, Table, TableKind};
use crate::normalize::{self, RawIndexRow};

use row::{check_clauses, raw_column};
pub(crate) use row::{params, raw_index_row, RowReader};
pub(crate) use sql::IndexSource;
use sql::{
    inspection_sql, inspection_sql_with, pairs_with, COLUMN_FIELDS, CONSTRAINT_FIELDS,
    INDEX_FIELDS, SRC_COLUMN, SRC_CONSTRAINT, SRC_INDEX, SRC_TABLE, TABLE_FIELDS,
};

/// The statement [`inspect_table`] runs on this server, for EXPLAIN and
/// audits. Its parameters are the schema and the table name, repeated once
/// per pair of `?`.
pub fn inspection_statements(info: &ServerInfo) -> Vec<String> {
    vec![inspection_sql(info, &[true])]
}

/// The statement [`inspect_tables`] runs for `tables` tables. Its
/// parameters are the schema and each table name in turn, repeated once
/// per pair of `?` of that table's branches.
pub fn batch_statement(info: &ServerInfo, tables: usize) -> String {
    inspection_sql(info, &vec![true; tables])
}

/// Whether reading `want`'s live shape needs its CHECK clauses: on MariaDB
/// they are what tells a json column from a longtext one, so only a table
/// whose catalog shape has a json or longtext column needs them (any other
/// type mismatch is drift whichever of the two the live column reads as).
/// Reading them opens the whole table.
fn needs_checks(want: &Table) -> bool {
    want.columns
        .iter()
        .any(|c| matches!(c.ty, ColumnType::Json | ColumnType::LongText))
}

/// Reads the live shape of each catalog table in `wants` (one statement,
/// as [`inspect_tables`]), CHECK clauses only where the catalog shape needs
/// them.
pub async fn inspect_catalog_tables(
    session: &mut Session<'_>,
    schema: &str,
    wants: &[Table],
) -> Result<Vec<(Ident, Option<Table>)>> {
    let names: Vec<(Ident, bool, bool)> = wants
        .iter()
        .map(|t| (t.name.clone(), needs_checks(t), !t.checks.is_empty()))
        .collect();
    read(session, schema, &names).await
}

/// Reads one table: `None` when it does not exist. One prepared statement,
/// bounded by the session's timeout. Used by apply's per-step re-reads.
pub async fn inspect_table(
    session: &mut Session<'_>,
    schema: &str,
    table: &str,
) -> Result<Option<Table>> {
    let mut out = inspect_tables(session, schema, &[Ident::new(table)]).await?;
    Ok(out.pop().and_then(|(_, t)| t))
}

/// The live checks without MariaDB's implicit `json_valid(col)` check of a
/// json column (named after the column): that one belongs to the type.
fn explicit_checks(mut checks: Vec<Check>, table: &Table) -> Vec<Check> {
    checks.sort_by_key(|c| c.name.key());
    checks
        .into_iter()
        .filter(|c| {
            let implicit = table.column(&c.name).is_some_and(|col| {
                col.ty == ColumnType::Json
                    && crate::shape::same_expression(
                        &c.expression,
                        &format!("json_valid({})", quote_ident(col.name.as_str())),
                    )
            });
            !implicit
        })
        .collect()
}

/// What the TABLES branch found for one name.
struct Head {
    name: String,
    table_type: String,
    collation: String,
    engine: Option<String>,
    comment: Option<String>,
    checks: Vec<String>,
    create_options: String,
}

/// Reads the named tables, in the order given, with one statement whatever
/// their number (see the module docs); none for an empty list.
pub async fn inspect_tables(
    session: &mut Session<'_>,
    schema: &str,
    names: &[Ident],
) -> Result<Vec<(Ident, Option<Table>)>> {
    let names: Vec<(Ident, bool, bool)> = names.iter().map(|n| (n.clone(), true, true)).collect();
    read(session, schema, &names).await
}

/// Reads `(name, with MariaDB's json CHECK clauses, with the table's
/// constraints)` tables in one statement.
async fn read(
    session: &mut Session<'_>,
    schema: &str,
    tables: &[(Ident, bool, bool)],
) -> Result<Vec<(Ident, Option<Table>)>> {
    let names: Vec<&Ident> = tables.iter().map(|(n, _, _)| n).collect();
    let checks: Vec<bool> = tables.iter().map(|(_, c, _)| *c).collect();
    let constraints: Vec<bool> = tables.iter().map(|(_, _, c)| *c).collect();
    if names.is_empty() {
        return Ok(Vec::new());
    }
    let info = session.info().clone();
    let flavor = info.flavor;
    let n = names.len();
    let what = match names.as_slice() {
        [one] => format!(
            "reading table {}.{}",
            quote_ident(schema),
            quote_ident(one.as_str())
        ),
        _ => format!("reading {n} tables of {}", quote_ident(schema)),
    };
    let values: Vec<Value> = tables
        .iter()
        .flat_map(|(t, checks, constraints)| {
            (0..pairs_with(flavor, *checks, *constraints)).flat_map(move |_| [schema, t.as_str()])
        })
        .map(Value::from)
        .collect();
    let rows = session
        .exec_rows(
            &what,
            &inspection_sql_with(&info, &checks, &constraints),
            mysql_async::Params::Positional(values),
        )
        .await?;

    let mut heads: Vec<Option<Head>> = (0..n).map(|_| None).collect();
    let mut raw_columns: Vec<Vec<&mysql_async::Row>> = vec![Vec::new(); n];
    let mut index_rows: Vec<Vec<RawIndexRow>> = vec![Vec::new(); n];
    let mut table_checks: Vec<Vec<Check>> = vec![Vec::new(); n];
    for row in &rows {
        let plain = RowReader::new(row, &what);
        let i = plain.branch(n)?;
        match plain.opt_u64("src")? {
            Some(SRC_TABLE) => {
                let r = RowReader::slotted(row, &what, TABLE_FIELDS);
                heads[i] = Some(Head {
                    name: r
                        .opt_text("table_name")?
                        .unwrap_or_else(|| names[i].to_string()),
                    table_type: r.opt_text("table_type")?.unwrap_or_default(),
                    collation: r.opt_text("table_collation")?.unwrap_or_default(),
                    engine: r.opt_text("engine")?,
                    comment: r.opt_text("table_comment")?.filter(|c| !c.is_empty()),
                    checks: check_clauses(r.opt_text("check_clauses")?.as_deref(), &what)?,
                    create_options: r.opt_text("create_options")?.unwrap_or_default(),
                });
            }
            // Rows come in src order: every table's head is read first, so
            // its CHECK clauses are known when its columns are normalised.
            Some(SRC_COLUMN) => raw_columns[i].push(row),
            Some(SRC_INDEX) => {
                let mut index = raw_index_row(&RowReader::slotted(row, &what, INDEX_FIELDS))?;
                // MySQL backslash-escapes quotes in STATISTICS.EXPRESSION
                // (`_utf8mb4\'\'`), as in CHECK_CLAUSE (verified on
                // MySQL 9.7); TiDB's is read as it is.
                if flavor == crate::Flavor::MySql {
                    index.expression = index
                        .expression
                        .map(|e| crate::expr::unescape_mysql_default(&e));
                }
                index_rows[i].push(index)
            }
            Some(SRC_CONSTRAINT) => {
                let r = RowReader::slotted(row, &what, CONSTRAINT_FIELDS);
                let is_check = r
                    .opt_text("constraint_type")?
                    .is_some_and(|t| t.eq_ignore_ascii_case("CHECK"));
                if let (true, Some(name), Some(clause)) = (
                    is_check,
                    r.opt_text("constraint_name")?,
                    r.opt_text("check_clause")?,
                ) {
                    // MySQL backslash-escapes quotes in CHECK_CLAUSE, as
                    // in an expression default's COLUMN_DEFAULT.
                    let expression = match flavor {
                        crate::Flavor::MariaDb => clause,
                        _ => crate::expr::unescape_mysql_default(&clause),
                    };
                    table_checks[i].push(Check {
                        name: Ident::new(name),
                        expression,
                    });
                }
            }
            other => {
                return Err(crate::Error::Database {
                    context: what.clone(),
                    code: None,
                    message: format!("unexpected row source {other:?}"),
                    source: None,
                })
            }
        }
    }

    let base = |h: &Head| TableKind::from_table_type(&h.table_type) == TableKind::Base;
    let mut out = Vec::with_capacity(n);
    for (i, ((head, (raw_columns, index_rows)), checks)) in heads
        .into_iter()
        .zip(raw_columns.into_iter().zip(index_rows))
        .zip(table_checks)
        .enumerate()
    {
        let table = match head {
            None => None,
            // A view or sequence under the catalog table's name: drift,
            // never a table to alter.
            Some(h) if !base(&h) => Some(Table::not_a_table(Ident::new(h.name), &h.table_type)),
            Some(h) => {
                let columns = raw_columns
                    .into_iter()
                    .map(|row| {
                        let r = RowReader::slotted(row, &what, COLUMN_FIELDS);
                        let raw = raw_column(&r)?;
                        normalize::column(flavor, &raw, &h.checks).map_err(|what| {
                            crate::Error::UnknownShape {
                                table: h.name.clone(),
                                object: format!("column `{}`", raw.name),
                                what,
                            }
                        })
                    })
                    .collect::<Result<Vec<Column>>>()?;
                let (primary_key, indexes) = normalize::indexes(&index_rows);
                let partitioned = h
                    .create_options
                    .split_whitespace()
                    .any(|w| w.eq_ignore_ascii_case("partitioned"));
                let mut t = Table {
                    name: Ident::new(h.name),
                    kind: if partitioned {
                        TableKind::Partitioned("partitioned".into())
                    } else {
                        TableKind::Base
                    },
                    comment: h.comment,
                    engine: h.engine,
                    charset: crate::collation::charset_named_by(&h.collation),
                    collation: h.collation,
                    columns,
                    primary_key,
                    indexes,
                    checks: Vec::new(),
                    required_by: Vec::new(),
                };
                t.checks = explicit_checks(checks, &t);
                t.normalize();
                Some(t)
            }
        };
        out.push(((*names[i]).clone(), table));
    }
    Ok(out)
}
