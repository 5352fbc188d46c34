//! Bounded live inspection: the catalog's tables are read with prepared
//! `information_schema` statements (see `sql` for their shape): per group
//! of tables, a `UNION ALL` of five branches (TABLES, COLUMNS, index rows,
//! KEY_COLUMN_USAGE, REFERENTIAL_CONSTRAINTS), in one of two shapes
//! ([`Shape`]):
//!
//! - **Each** (a catalog of up to [`TABLES_PER_STATEMENT`] tables, or a
//!   small part of a large schema): one group per table, every branch
//!   filtered by `TABLE_SCHEMA = ? AND TABLE_NAME = ?` (`CONSTRAINT_SCHEMA`
//!   for REFERENTIAL_CONSTRAINTS). The servers' information_schema
//!   optimisation turns each branch into a lookup of that one table
//!   (MariaDB: "Scanned 0 databases", MySQL: single-row index lookups in the
//!   data dictionary), so the cost does not grow with the number of other
//!   tables on the server; at most [`TABLES_PER_STATEMENT`] tables per
//!   statement.
//! - **Listed** (a catalog that is a large part of its schema,
//!   [`LISTED_RATIO`]): one group per [`NAMES_PER_STATEMENT`] tables,
//!   every branch filtered by `TABLE_SCHEMA = ? AND TABLE_NAME IN (...)`
//!   (MariaDB, TiDB) or, on MySQL 8.0.14+, by each name of one JSON array
//!   parameter joined `LATERAL` to the view by equality
//!   (with `IN`, MySQL's optimizer may scan a
//!   data-dictionary table of the whole server, `mysql.indexes`, measured);
//!   rows carry their table's name and are filed by it. The server lists
//!   the schema's tables (names only: MariaDB's directory) or looks each
//!   one up (MySQL's data dictionary) and reads only the named ones: flat
//!   in other schemas, and 4 to 16 times cheaper per table than equality
//!   groups (docs/scale.md).
//!
//! A read larger than one statement of equality groups first reads the
//! size of each schema (one bounded COUNT per schema, names only) to
//! choose. Several schemas read together (`verify --fleet`) share
//! statements: each row's `branch` names its group, so its schema.
//!
//! Values are decoded explicitly from the binary protocol (see
//! `row::RowReader`).
//!
//! What information_schema does not show is read from `SHOW CREATE TABLE`
//! (`show_create`), one statement per table that needs it: a FULLTEXT
//! index's parser (only for tables whose live shape has a FULLTEXT index,
//! on every flavor) and TiDB's table options (every table, on TiDB).

mod decode;
mod net;
pub(crate) mod normalize;
mod options;
mod row;
mod shape;
mod show_create;
mod sql;
mod tidb;

use mysql_async::Value;

use crate::coltype::ColumnType;
use crate::db::Session;
use crate::error::Result;
use crate::ident::{quote_ident, Ident};
use crate::model::Table;
use crate::server::Server;

use decode::{assemble, gather, Gathered};
pub(crate) use net::with_line;
pub(crate) use row::{params, raw_index_row, RowReader};
pub use shape::{
    schemas_per_statement, shape_for, Shape, LISTED_RATIO, NAMES_PER_STATEMENT,
    TABLES_PER_STATEMENT,
};
use shape::{sizes, sizes_first, statements, Sized, Unit};
pub(crate) use show_create::{fill_parsers, has_fulltext, ShowCreate};
use sql::inspection_sql;
pub(crate) use sql::IndexSource;

/// The statements reading one table on this server, for EXPLAIN and
/// audits: without and with its CHECK constraints (read for a
/// catalog table with checks, as [`inspect_table`] reads). Their
/// parameters are the schema and the table name, repeated once per pair
/// of `?`.
pub fn inspection_statements(info: &Server) -> Vec<String> {
    vec![
        inspection_sql(info, &[true]),
        sql::inspection_sql_with(info, &[true], &[true]),
    ]
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

/// One read of the catalog's tables off a server, the one door of
/// [`read`]: which schemas, which tables (their catalog shapes decide what
/// is read), and whether the net runs. `Read::default()` and the builder
/// methods (one per field, same name); new fields may be added.
///
/// ```
/// # fn f(tables: &[schema_catalog::Table]) {
/// let request = schema_catalog::inspect::Read::default()
///     .schema("app")
///     .tables(tables)
///     .net(true);
/// # }
/// ```
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Read<'a> {
    /// The schemas read on the one server, each its own result, in order.
    /// Several are read together: the schemas' groups share statements
    /// (each row carries its group's position, so its schema), so the
    /// statements grow with the tables read, one per
    /// [`NAMES_PER_STATEMENT`], not with the schemas.
    pub schemas: Vec<&'a str>,
    /// The catalog's tables, read by name in each schema (one statement per
    /// [`TABLES_PER_STATEMENT`], or schema-narrowed, see [`Shape`]).
    pub tables: &'a [Table],
    /// The regenerate-and-compare net: the `SHOW CREATE TABLE` of every
    /// existing base table (one text query per [`TABLES_PER_STATEMENT`]
    /// tables, each statement bounded, under the session's timeout and read
    /// retries), compared with its inspected model; a table whose text
    /// shows what the model does not explain is returned as
    /// [`crate::model::TableKind::Unrecognised`], naming the clause. One
    /// more round trip per schema and 64 existing tables; not on TiDB (see
    /// `net`). Default off.
    pub net: bool,
    /// Read every table's CHECK clauses and TABLE_CONSTRAINTS rows (as
    /// [`inspect_tables`] does), not only where its catalog shape needs
    /// them (a json or longtext column on MariaDB; declared CHECKs).
    /// Reading the clauses opens the whole table. Default off.
    pub checks: bool,
}

impl<'a> Read<'a> {
    /// Adds one schema to [`Read::schemas`].
    pub fn schema(mut self, schema: &'a str) -> Self {
        self.schemas.push(schema);
        self
    }
    /// Sets [`Read::schemas`].
    pub fn schemas(mut self, schemas: &[&'a str]) -> Self {
        self.schemas = schemas.to_vec();
        self
    }
    /// Sets [`Read::tables`].
    pub fn tables(mut self, tables: &'a [Table]) -> Self {
        self.tables = tables;
        self
    }
    /// Sets [`Read::net`].
    pub fn net(mut self, yes: bool) -> Self {
        self.net = yes;
        self
    }
    /// Sets [`Read::checks`].
    pub fn checks(mut self, yes: bool) -> Self {
        self.checks = yes;
        self
    }
}

/// Reads the live shape of each of `request`'s catalog tables in each of
/// its schemas: the result per schema, in order, each the tables in the
/// order given, `None` for a table that does not exist. The same reads
/// and the same tables whether the schemas are read together or one at a
/// time; a schema whose rows cannot be read (an unknown shape) gets its
/// own error, a failed statement fails the call.
pub async fn read(session: &mut Session<'_>, request: &Read<'_>) -> Result<Vec<SchemaRead>> {
    Ok(read_stated(session, request).await?.0)
}

/// [`read`], also returning per schema the columns whose `SHOW CREATE
/// TABLE` text states a collation where the server's own text of the
/// regenerated table would not, or the reverse (with [`Read::net`] only;
/// `net::stated_collations`): a finding `verify --strict` reports on its
/// own, leaving the table recognised.
pub(crate) async fn read_stated(
    session: &mut Session<'_>,
    request: &Read<'_>,
) -> Result<(Vec<SchemaRead>, Vec<Vec<net::StatedCollation>>)> {
    let wants: Vec<Want> = request
        .tables
        .iter()
        .map(|t| Want {
            name: t.name.clone(),
            checks: request.checks || needs_checks(t),
            constraints: request.checks || !t.checks.is_empty(),
        })
        .collect();
    let mut reads = read_wants(session, &request.schemas, &wants).await?;
    let mut stated = Vec::new();
    if request.net {
        let net_reads: Vec<net::Read> = wants
            .iter()
            .map(|w| net::Read {
                json_checks: w.checks,
                constraints: w.constraints,
            })
            .collect();
        for (schema, read) in request.schemas.iter().zip(&mut reads) {
            stated.push(match read {
                Ok(out) => net::check(session, schema, &net_reads, out).await?,
                Err(_) => Vec::new(),
            });
        }
    }
    Ok((reads, stated))
}

/// Why `have`, inspected with everything read (as [`inspect_tables`]
/// reads), is not what the server's `SHOW CREATE TABLE` shows (`parsed`);
/// `None` when they agree (see `net`). Used by live import.
pub(crate) fn net_difference(
    have: &Table,
    parsed: &crate::dump::ParsedTable,
    flavor: crate::Flavor,
) -> Option<String> {
    net::difference_from(have, parsed, flavor, net::Read::ALL)
}

/// Why `have` (a base table, everything read) is not what the server's
/// `SHOW CREATE TABLE` `text` shows, naming the clause; `None` when they
/// agree (see `net`). For the attribute list's tests.
#[cfg(test)]
pub(crate) fn show_create_difference(
    have: &Table,
    text: &str,
    flavor: crate::Flavor,
) -> Option<String> {
    net::difference(have, text, flavor, net::Read::ALL)
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

/// [`inspect_table`], and with `net` the regenerate-and-compare net on
/// it as import runs it (everything read): one more round trip, a text
/// query of one `SHOW CREATE TABLE`, when the table exists (none on
/// TiDB); a text the model does not explain makes the table
/// [`crate::model::TableKind::Unrecognised`]. Used by apply's per-step
/// re-reads, so a step stops on what the preflight would have refused.
pub(crate) async fn inspect_table_with(
    session: &mut Session<'_>,
    schema: &str,
    table: &str,
    net: bool,
) -> Result<Option<Table>> {
    let mut out = inspect_tables(session, schema, &[Ident::new(table)]).await?;
    if net {
        net::check(session, schema, &[net::Read::ALL], &mut out).await?;
    }
    Ok(out.pop().and_then(|(_, t)| t))
}

/// Reads the named tables, in the order given, with one statement per
/// [`TABLES_PER_STATEMENT`] tables, or schema-narrowed (see [`Shape`]);
/// none for an empty list.
pub async fn inspect_tables(
    session: &mut Session<'_>,
    schema: &str,
    names: &[Ident],
) -> Result<Vec<(Ident, Option<Table>)>> {
    let wants: Vec<Want> = names
        .iter()
        .map(|n| Want {
            name: n.clone(),
            checks: true,
            constraints: true,
        })
        .collect();
    one(read_wants(session, &[schema], &wants).await?)
}

/// The one schema's result of a [`read`] of one schema.
fn one(mut out: Vec<SchemaRead>) -> SchemaRead {
    out.pop().unwrap_or_else(|| Ok(Vec::new()))
}

/// One catalog table to read: its name, whether its MariaDB CHECK clauses
/// are read (json vs longtext) and whether its TABLE_CONSTRAINTS rows are.
#[derive(Debug, Clone)]
struct Want {
    name: Ident,
    checks: bool,
    constraints: bool,
}

/// One schema's tables as read, in the order asked for: each name with
/// its live table (`None`: no such table), or the error that schema's
/// read ended with.
pub type SchemaRead = Result<Vec<(Ident, Option<Table>)>>;

/// Reads `wants` in each of `schemas` (the result per schema, in order;
/// each in the order of `wants`). A schema's shape is chosen by its size
/// ([`shape_for`]) when the read is larger than one statement of one-table
/// groups ([`sizes_first`]), and every statement holds groups of several
/// schemas up to [`NAMES_PER_STATEMENT`], so the statements per server
/// grow by one per [`NAMES_PER_STATEMENT`] tables read, not per schema.
/// A statement that fails fails the whole read; what one schema's rows
/// cannot be read as (an unknown shape) fails that schema only.
async fn read_wants(
    session: &mut Session<'_>,
    schemas: &[&str],
    wants: &[Want],
) -> Result<Vec<SchemaRead>> {
    if wants.is_empty() {
        return Ok(schemas.iter().map(|_| Ok(Vec::new())).collect());
    }
    let flavor = session.flavor();
    let sized: Vec<Sized> = if sizes_first(flavor, schemas.len(), wants.len()) {
        sizes(session, schemas, wants.len()).await?
    } else {
        vec![
            Sized {
                shape: Shape::Each,
                fold: false,
            };
            schemas.len()
        ]
    };
    let shapes: Vec<Shape> = sized.iter().map(|s| s.shape).collect();
    let mut slots: Vec<Option<Table>> = vec![None; schemas.len() * wants.len()];
    let mut failed: Vec<Option<crate::Error>> = (0..schemas.len()).map(|_| None).collect();
    for units in statements(&shapes, wants.len()) {
        read_statement(
            session,
            schemas,
            wants,
            &sized,
            &units,
            &mut slots,
            &mut failed,
        )
        .await?;
    }
    let mut out = Vec::with_capacity(schemas.len());
    let mut slots = slots.into_iter();
    for (s, failed) in schemas.iter().zip(failed) {
        let mut tables: Vec<(Ident, Option<Table>)> = wants
            .iter()
            .map(|w| (w.name.clone(), slots.next().flatten()))
            .collect();
        out.push(match failed {
            Some(e) => Err(e),
            None => fill(session, s, &mut tables).await.map(|()| tables),
        });
    }
    Ok(out)
}

/// What information_schema does not show, from SHOW CREATE TABLE: TiDB's
/// table options, FULLTEXT parsers.
async fn fill(
    session: &mut Session<'_>,
    schema: &str,
    out: &mut [(Ident, Option<Table>)],
) -> Result<()> {
    let mut shown = ShowCreate::default();
    // TiDB's own options (clustered, auto_random, ...) come from its views.
    if session.flavor().has_tidb_table_options() {
        tidb::fill(session, schema, out, &mut shown).await?;
    }
    show_create::fill_fulltext_parsers(session, schema, &mut shown, out).await
}

/// Reads each run of two or more consecutive [`sql::Filter::Joined`]
/// groups (listed groups of different schemas, MySQL) as one
/// [`sql::Filter::Pairs`] group: five or six branches for the run instead
/// of five or six per schema. Its first group takes the run's CHECK and
/// constraint counts, the others are [`sql::Filter::Covered`].
fn pair_up(groups: &mut [sql::Group]) {
    let mut i = 0;
    while i < groups.len() {
        let run = groups[i..]
            .iter()
            .take_while(|g| g.filter == sql::Filter::Joined)
            .count();
        if run >= 2 {
            let (checks, constraints) = groups[i..i + run]
                .iter()
                .fold((0, 0), |(c, k), g| (c + g.checks, k + g.constraints));
            groups[i] = sql::Group {
                filter: sql::Filter::Pairs(run),
                checks,
                constraints,
            };
            for g in &mut groups[i + 1..i + run] {
                g.filter = sql::Filter::Covered;
            }
        }
        i += run.max(1);
    }
}

/// Runs one statement of `units` and files each table it read into
/// `slots` (schema `s`, want `w` at `s * wants.len() + w`), or its
/// schema's error into `failed`.
#[allow(clippy::too_many_arguments)]
async fn read_statement(
    session: &mut Session<'_>,
    schemas: &[&str],
    wants: &[Want],
    sized: &[Sized],
    units: &[Unit],
    slots: &mut [Option<Table>],
    failed: &mut [Option<crate::Error>],
) -> Result<()> {
    let info = session.server().clone();
    let flavor = info.flavor();
    let mut groups: Vec<sql::Group> = units
        .iter()
        .map(|u| sql::Group {
            filter: match u.shape {
                Shape::Each => sql::Filter::One,
                // Joined where the names are compared as stored
                // (`lower_case_table_names` 0): the JSON names' collation
                // then meets the dictionary's binary one.
                Shape::Listed if info.has_lateral_json_table() && !sized[u.schema].fold => {
                    sql::Filter::Joined
                }
                Shape::Listed => sql::Filter::List(u.tables.len()),
            },
            checks: u.tables.iter().filter(|t| wants[**t].checks).count(),
            constraints: u.tables.iter().filter(|t| wants[**t].constraints).count(),
        })
        .collect();
    pair_up(&mut groups);
    let (sql, plan) = sql::statement(&info, &groups);
    let names = |u: &Unit, set: sql::NameSet| -> Vec<&str> {
        let keep: fn(&Want) -> bool = match set {
            sql::NameSet::Tables => |_| true,
            sql::NameSet::CheckTables => |w| w.checks,
            sql::NameSet::ConstraintTables => |w| w.constraints,
        };
        u.tables
            .iter()
            .map(|t| &wants[*t])
            .filter(|w| keep(w))
            .map(|w| w.name.as_str())
            .collect()
    };
    let values: Vec<Value> = plan
        .iter()
        .flat_map(|(g, p)| {
            let u = &units[*g];
            match p {
                sql::Param::Schema => vec![Value::from(schemas[u.schema])],
                sql::Param::Names(set) => names(u, *set).into_iter().map(Value::from).collect(),
                sql::Param::Json(set) => {
                    vec![Value::from(
                        serde_json::Value::from(names(u, *set)).to_string(),
                    )]
                }
                sql::Param::Pairs(set) => {
                    let n = match groups[*g].filter {
                        sql::Filter::Pairs(n) => n,
                        _ => 1,
                    };
                    let triples: Vec<serde_json::Value> = (*g..*g + n)
                        .flat_map(|k| {
                            let u = &units[k];
                            names(u, *set)
                                .into_iter()
                                .map(move |name| serde_json::json!([k, schemas[u.schema], name]))
                        })
                        .collect();
                    vec![Value::from(serde_json::Value::from(triples).to_string())]
                }
            }
        })
        .collect();
    let tables: usize = units.iter().map(|u| u.tables.len()).sum();
    let first = &units[0];
    let what = if units.iter().all(|u| u.schema == first.schema) {
        let schema = quote_ident(schemas[first.schema]);
        match (tables, first.tables.as_slice()) {
            (1, [t]) => format!(
                "reading table {schema}.{}",
                quote_ident(wants[*t].name.as_str())
            ),
            _ => format!("reading {tables} tables of {schema}"),
        }
    } else {
        let n = units.last().map_or(0, |u| u.schema) - first.schema + 1;
        format!("reading {tables} tables of {n} schemas")
    };
    let rows = session
        .exec_rows(&what, &sql, mysql_async::Params::Positional(values))
        .await?;

    // Where a row of group `g` belongs: a one-table group's is its table;
    // a listed group's is found by the name the row carries.
    let mut by_name: std::collections::HashMap<(usize, String), usize> =
        std::collections::HashMap::new();
    for (g, u) in units.iter().enumerate() {
        if u.shape == Shape::Listed {
            let fold = sized[u.schema].fold;
            for (k, t) in u.tables.iter().enumerate() {
                let name = wants[*t].name.as_str();
                let key = if fold {
                    name.to_lowercase()
                } else {
                    name.to_string()
                };
                by_name.insert((g, key), k);
            }
        }
    }
    let mut gathered: Vec<Vec<Gathered<'_>>> = units
        .iter()
        .map(|u| (0..u.tables.len()).map(|_| Gathered::default()).collect())
        .collect();
    for row in &rows {
        let plain = RowReader::new(row, &what);
        let g = plain.branch(units.len())?;
        let u = &units[g];
        if failed[u.schema].is_some() {
            continue;
        }
        let k = match u.shape {
            Shape::Each => Some(0),
            Shape::Listed => {
                let tbl = plain.opt_text("tbl")?.unwrap_or_default();
                let key = if sized[u.schema].fold {
                    tbl.to_lowercase()
                } else {
                    tbl
                };
                by_name.get(&(g, key)).copied()
            }
        };
        // A listed row of a table the read does not name (another case of
        // a name on a case-insensitive collation) is not one of ours.
        let Some(k) = k else { continue };
        let want = &wants[u.tables[k]];
        if let Err(e) = gather(
            row,
            &what,
            flavor,
            schemas[u.schema],
            want,
            &mut gathered[g][k],
        ) {
            failed[u.schema] = Some(e);
        }
    }
    for (u, gathered) in units.iter().zip(gathered) {
        for (t, g) in u.tables.iter().zip(gathered) {
            if failed[u.schema].is_some() {
                break;
            }
            match assemble(g, &what, flavor) {
                Ok(table) => slots[u.schema * wants.len() + t] = table,
                Err(e) => failed[u.schema] = Some(e),
            }
        }
    }
    Ok(())
}
