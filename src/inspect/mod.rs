//! Bounded live inspection: the catalog's tables are read with prepared
//! `information_schema` statements, one per chunk of tables (see `sql`
//! for their shape): a `UNION ALL` of five branches per table (TABLES, COLUMNS,
//! index rows, KEY_COLUMN_USAGE, REFERENTIAL_CONSTRAINTS), every branch
//! filtered by `TABLE_SCHEMA = ? AND TABLE_NAME = ?` (`CONSTRAINT_SCHEMA`
//! for REFERENTIAL_CONSTRAINTS), at most [`TABLES_PER_STATEMENT`] tables
//! per statement. The servers' information_schema optimisation turns each branch into
//! a lookup of that one table (MariaDB: "Scanned 0 databases", MySQL:
//! single-row index lookups in the data dictionary), so the cost does not
//! grow with the number of other tables on the server, and the round trips
//! grow only by one per chunk. An `IN` list is not used: both servers
//! then scan the whole schema.
//!
//! Values are decoded explicitly from the binary protocol (see
//! `row::RowReader`).
//!
//! What information_schema does not show is read from `SHOW CREATE TABLE`
//! (`show_create`), one statement per table that needs it: a FULLTEXT
//! index's parser (only for tables whose live shape has a FULLTEXT index,
//! on every flavor) and TiDB's table options (every table, on TiDB).

mod options;
mod row;
mod show_create;
mod sql;
mod tidb;

use mysql_async::Value;

use crate::coltype::ColumnType;
use crate::db::{ServerInfo, Session};
use crate::error::Result;
use crate::ident::{quote_ident, Ident};
use crate::model::{Check, Column, ForeignKey, ReferentialAction, Table, TableKind};
use crate::normalize::{self, RawIndexRow};

use row::{check_clauses, raw_column};
pub(crate) use row::{params, raw_index_row, RowReader};
pub(crate) use show_create::{fill_parsers, has_fulltext, ShowCreate};
pub(crate) use sql::IndexSource;
use sql::{
    inspection_sql, inspection_sql_with, pairs_with, COLUMN_FIELDS, CONSTRAINT_FIELDS,
    FOREIGN_KEY_FIELDS, INDEX_FIELDS, REFERENTIAL_FIELDS, SRC_COLUMN, SRC_CONSTRAINT,
    SRC_FOREIGN_KEY, SRC_INDEX, SRC_REFERENTIAL, SRC_TABLE, TABLE_FIELDS,
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
                    && crate::model::shape::same_expression(
                        &c.expression,
                        &format!("json_valid({})", quote_ident(col.name.as_str())),
                    )
            });
            !implicit
        })
        .collect()
}

/// A REFERENTIAL_CONSTRAINTS row: a foreign key's rules, as text.
#[derive(Debug, Clone)]
struct Rules {
    name: Ident,
    update: String,
    delete: String,
}

/// Gives each foreign key its ON UPDATE / ON DELETE rules. A key without
/// its REFERENTIAL_CONSTRAINTS row, or a rule the model does not know,
/// fails closed.
fn apply_rules(fks: &mut [ForeignKey], rules: &[Rules], table: &Ident) -> Result<()> {
    for fk in fks.iter_mut() {
        let unknown = |what: String| crate::Error::UnknownShape {
            table: table.to_string(),
            object: format!("foreign key `{}`", fk.name),
            what,
        };
        let r = rules
            .iter()
            .find(|r| r.name == fk.name)
            .ok_or_else(|| unknown("no REFERENTIAL_CONSTRAINTS row".into()))?;
        fk.on_update = ReferentialAction::parse(&r.update)
            .ok_or_else(|| unknown(format!("UPDATE_RULE `{}`", r.update)))?;
        fk.on_delete = ReferentialAction::parse(&r.delete)
            .ok_or_else(|| unknown(format!("DELETE_RULE `{}`", r.delete)))?;
    }
    Ok(())
}

/// Adds one KEY_COLUMN_USAGE row to the table's foreign keys (rows come in
/// ORDINAL_POSITION order, so each key's columns in key order; the rules
/// come from REFERENTIAL_CONSTRAINTS, see [`apply_rules`]). A row without a
/// referenced table is a primary or unique key's: skipped.
fn foreign_key_row(r: &RowReader<'_>, schema: &str, out: &mut Vec<ForeignKey>) -> Result<()> {
    let (Some(name), Some(column), Some(table), Some(ref_column)) = (
        r.opt_text("constraint_name")?,
        r.opt_text("col_name")?,
        r.opt_text("ref_table")?,
        r.opt_text("ref_col")?,
    ) else {
        return Ok(());
    };
    let name = Ident::new(name);
    if let Some(fk) = out.iter_mut().find(|f| f.name == name) {
        fk.columns.push(Ident::new(column));
        fk.referenced_columns.push(Ident::new(ref_column));
        return Ok(());
    }
    let referenced_schema = r
        .opt_text("ref_schema")?
        .filter(|s| s != schema)
        .map(Ident::new);
    out.push(ForeignKey {
        name: name.clone(),
        columns: vec![Ident::new(column)],
        referenced_schema,
        referenced_table: Ident::new(table),
        referenced_columns: vec![Ident::new(ref_column)],
        on_delete: ReferentialAction::Restrict,
        on_update: ReferentialAction::Restrict,
    });
    Ok(())
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

/// Reads the named tables, in the order given, with one statement per
/// [`TABLES_PER_STATEMENT`] tables (see the module docs); none for an
/// empty list.
pub async fn inspect_tables(
    session: &mut Session<'_>,
    schema: &str,
    names: &[Ident],
) -> Result<Vec<(Ident, Option<Table>)>> {
    let names: Vec<(Ident, bool, bool)> = names.iter().map(|n| (n.clone(), true, true)).collect();
    read(session, schema, &names).await
}

/// Tables per inspection statement. A `UNION ALL` of five equality
/// branches per table is planned and run in time that grows faster than
/// its branch count on both servers (issue 22: 1,024 tables in one
/// statement took 3-22 s), so a large catalog is read in statements of
/// at most this many tables, one round trip each; a catalog of up to this
/// many tables is still one statement (tests/inspect_round_trips.rs pins
/// 3, 50 and a chunked count).
pub const TABLES_PER_STATEMENT: usize = 64;

/// Reads `(name, with MariaDB's json CHECK clauses, with the table's
/// constraints)` tables, in the order given: one statement per
/// [`TABLES_PER_STATEMENT`] tables.
async fn read(
    session: &mut Session<'_>,
    schema: &str,
    tables: &[(Ident, bool, bool)],
) -> Result<Vec<(Ident, Option<Table>)>> {
    let mut out = Vec::with_capacity(tables.len());
    for chunk in tables.chunks(TABLES_PER_STATEMENT) {
        out.extend(read_chunk(session, schema, chunk).await?);
    }
    Ok(out)
}

/// Reads one chunk of [`read`]'s tables in one statement.
async fn read_chunk(
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
    let mut table_fks: Vec<Vec<ForeignKey>> = vec![Vec::new(); n];
    let mut table_rules: Vec<Vec<Rules>> = vec![Vec::new(); n];
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
                    let enforced = r
                        .opt_text("enforced")?
                        .is_none_or(|e| !e.eq_ignore_ascii_case("NO"));
                    table_checks[i].push(Check {
                        name: Ident::new(name),
                        expression,
                        enforced,
                    });
                }
            }
            Some(SRC_FOREIGN_KEY) => {
                let r = RowReader::slotted(row, &what, FOREIGN_KEY_FIELDS);
                foreign_key_row(&r, schema, &mut table_fks[i])?;
            }
            Some(SRC_REFERENTIAL) => {
                let r = RowReader::slotted(row, &what, REFERENTIAL_FIELDS);
                if let Some(name) = r.opt_text("constraint_name")? {
                    table_rules[i].push(Rules {
                        name: Ident::new(name),
                        update: r.opt_text("update_rule")?.unwrap_or_default(),
                        delete: r.opt_text("delete_rule")?.unwrap_or_default(),
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
    for (i, (((head, (raw_columns, index_rows)), checks), (mut foreign_keys, rules))) in heads
        .into_iter()
        .zip(raw_columns.into_iter().zip(index_rows))
        .zip(table_checks)
        .zip(table_fks.into_iter().zip(table_rules))
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
                let kind = options::table_kind(flavor, &h.create_options, h.engine.as_deref());
                let mut t = Table {
                    name: Ident::new(h.name),
                    kind,
                    comment: h.comment,
                    engine: h.engine,
                    charset: crate::collation::charset_named_by(&h.collation),
                    collation: h.collation,
                    columns,
                    primary_key,
                    indexes,
                    checks: Vec::new(),
                    foreign_keys: Vec::new(),
                    tidb: None,
                    required_by: Vec::new(),
                };
                t.checks = explicit_checks(checks, &t);
                apply_rules(&mut foreign_keys, &rules, &t.name)?;
                foreign_keys.sort_by_key(|f| f.name.key());
                t.foreign_keys = foreign_keys;
                t.normalize();
                Some(t)
            }
        };
        out.push(((*names[i]).clone(), table));
    }
    let mut shown = ShowCreate::default();
    if flavor == crate::Flavor::TiDb {
        tidb::fill(session, schema, &mut out, &mut shown).await?;
    }
    show_create::fill_fulltext_parsers(session, schema, &mut shown, &mut out).await?;
    Ok(out)
}
