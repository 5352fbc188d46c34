//! Bounded live inspection: the catalog's tables are read with at most
//! three prepared `information_schema` statements (TABLES, COLUMNS, index
//! rows) whatever the number of tables. Each statement is a `UNION ALL` of
//! one branch per table, every branch filtered by `TABLE_SCHEMA = ? AND
//! TABLE_NAME = ?`: the servers' information_schema optimisation turns each
//! branch into a lookup of that one table (MariaDB: "Scanned 0 databases",
//! MySQL: single-row index lookups in the data dictionary), so the cost does
//! not grow with the number of other tables on the server. An `IN` list is
//! not used: both servers then scan the whole schema.
//!
//! Every selected column has a lowercase alias, so rows are read the same way
//! whatever spelling the server uses for its own column names (TiDB's
//! `Expression`, MySQL's `EXPRESSION`). Values are decoded explicitly from
//! the binary protocol (see [`RowReader`]).

use mysql_async::{Row, Value};

use crate::db::{ServerInfo, Session};
use crate::error::{Error, Result};
use crate::flavor::Flavor;
use crate::ident::{quote_ident, Ident};
use crate::model::{Table, TableKind};
use crate::normalize::{self, RawColumn, RawIndexRow};

/// Where a server's index rows are read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IndexSource {
    /// MariaDB STATISTICS; `IGNORED` exists on 10.6+.
    MariaDb {
        /// Whether the `IGNORED` column exists.
        ignored: bool,
    },
    /// MySQL 8 / TiDB v8.5.3+ STATISTICS, with `IS_VISIBLE` and `EXPRESSION`.
    MySql,
    /// TiDB before v8.5.3: STATISTICS also lists indexes still being built,
    /// so `information_schema.TIDB_INDEXES` (public indexes only) is read.
    /// Assumptions (not runnable here, no TiDB): its columns are `KEY_NAME`,
    /// `NON_UNIQUE`, `SEQ_IN_INDEX`, `COLUMN_NAME`, `SUB_PART`, `Expression`,
    /// `IS_VISIBLE`; it has no `INDEX_TYPE` or `COLLATION` — such TiDB
    /// releases have no FULLTEXT/SPATIAL indexes and store `DESC` key parts
    /// ascending, so every part reads as an ascending B-tree part.
    TidbIndexes,
}

impl IndexSource {
    /// The source for a server.
    pub(crate) fn for_server(info: &ServerInfo) -> IndexSource {
        match info.flavor {
            Flavor::MariaDb => IndexSource::MariaDb {
                ignored: info.has_ignored_indexes(),
            },
            Flavor::TiDb if info.statistics_lists_building_indexes() => IndexSource::TidbIndexes,
            Flavor::TiDb | Flavor::MySql => IndexSource::MySql,
        }
    }

    /// The index-row statement: every index of one table, or with
    /// `single_index` only the index named by a third parameter. Parameters:
    /// schema, table[, index]. Rows come in index-name, key-part order.
    pub(crate) fn sql(self, single_index: bool) -> String {
        let name_col = self.name_col();
        let index_filter = if single_index {
            format!(" AND {name_col} = ?")
        } else {
            String::new()
        };
        format!(
            "{}{index_filter} ORDER BY {name_col}, SEQ_IN_INDEX",
            self.branch(None)
        )
    }

    /// The index-row statement for `tables` tables: one branch per table,
    /// parameters schema, table per branch. Rows come in branch, index-name,
    /// key-part order; `branch` is the 0-based position of the table.
    pub(crate) fn batch_sql(self, tables: usize) -> String {
        union(
            tables,
            |i| self.branch(Some(i)),
            "branch, index_name, seq_in_index",
        )
    }

    fn name_col(self) -> &'static str {
        match self {
            IndexSource::MariaDb { .. } | IndexSource::MySql => "INDEX_NAME",
            IndexSource::TidbIndexes => "KEY_NAME",
        }
    }

    /// One `SELECT ... WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?`, with a
    /// `branch` column when it is part of a batch.
    fn branch(self, branch: Option<usize>) -> String {
        let (from, order, kind, visible, ignored, expr) = match self {
            IndexSource::MariaDb { ignored } => (
                "STATISTICS",
                "COLLATION",
                "INDEX_TYPE",
                "NULL",
                if ignored { "IGNORED" } else { "NULL" },
                "NULL",
            ),
            IndexSource::MySql => (
                "STATISTICS",
                "COLLATION",
                "INDEX_TYPE",
                "IS_VISIBLE",
                "NULL",
                "EXPRESSION",
            ),
            IndexSource::TidbIndexes => (
                "TIDB_INDEXES",
                "NULL",
                "NULL",
                "IS_VISIBLE",
                "NULL",
                "EXPRESSION",
            ),
        };
        let name_col = self.name_col();
        format!(
            "SELECT {}{name_col} AS index_name, NON_UNIQUE AS non_unique, SEQ_IN_INDEX AS seq_in_index, \
             COLUMN_NAME AS col_name, SUB_PART AS sub_part, {order} AS key_order, {kind} AS index_type, \
             {visible} AS is_visible, {ignored} AS is_ignored, {expr} AS expr \
             FROM information_schema.{from} \
             WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?",
            branch_column(branch)
        )
    }
}

/// `<n> AS branch, ` for a batch branch (the number is the table's position,
/// generated here, never input), nothing for a single-table statement.
fn branch_column(branch: Option<usize>) -> String {
    branch
        .map(|i| format!("{i} AS branch, "))
        .unwrap_or_default()
}

/// `tables` branches joined by `UNION ALL`, ordered by `order` (aliases).
fn union(tables: usize, branch: impl Fn(usize) -> String, order: &str) -> String {
    let branches: Vec<String> = (0..tables).map(branch).collect();
    format!("{} ORDER BY {order}", branches.join(" UNION ALL "))
}

/// The TABLES statement for `tables` tables, in branch order. On MariaDB
/// each table's CHECK clauses ride along as a scalar subquery (json columns
/// are `longtext` + `json_valid` checks), so inspection stays at three
/// statements. Parameters per branch: on MariaDB schema, table, schema,
/// table; otherwise schema, table.
pub(crate) fn tables_batch_sql(flavor: Flavor, tables: usize) -> String {
    union(tables, |i| tables_branch(flavor, Some(i)), "branch")
}

fn tables_branch(flavor: Flavor, branch: Option<usize>) -> String {
    let checks = match flavor {
        Flavor::MariaDb => {
            "(SELECT JSON_ARRAYAGG(CHECK_CLAUSE) FROM information_schema.CHECK_CONSTRAINTS \
             WHERE CONSTRAINT_SCHEMA = ? AND TABLE_NAME = ?)"
        }
        Flavor::MySql | Flavor::TiDb => "NULL",
    };
    format!(
        "SELECT {}TABLE_NAME AS table_name, TABLE_TYPE AS table_type, \
         TABLE_COLLATION AS table_collation, ENGINE AS engine, TABLE_COMMENT AS table_comment, \
         {checks} AS check_clauses \
         FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?",
        branch_column(branch)
    )
}

/// The parameters of one TABLES branch.
fn tables_params<'a>(flavor: Flavor, schema: &'a str, table: &'a str) -> Vec<&'a str> {
    match flavor {
        Flavor::MariaDb => vec![schema, table, schema, table],
        Flavor::MySql | Flavor::TiDb => vec![schema, table],
    }
}

const COLUMNS_SELECT: &str = "COLUMN_NAME AS col_name, COLUMN_TYPE AS col_type, \
     IS_NULLABLE AS is_nullable, COLUMN_DEFAULT AS col_default, EXTRA AS extra, \
     CHARACTER_SET_NAME AS charset_name, COLLATION_NAME AS collation_name, \
     GENERATION_EXPRESSION AS gen_expr, COLUMN_COMMENT AS col_comment";

/// The COLUMNS statement for `tables` tables (schema, table per branch),
/// in branch, ordinal order.
pub(crate) fn columns_batch_sql(tables: usize) -> String {
    union(
        tables,
        |i| {
            format!(
                "SELECT {i} AS branch, ORDINAL_POSITION AS ordinal, {COLUMNS_SELECT} \
                 FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"
            )
        },
        "branch, ordinal",
    )
}

/// The three statements [`inspect_table`] runs on this server, in order
/// (TABLES, COLUMNS, index rows), for EXPLAIN and audits. Their parameters
/// are the schema and the table name, repeated once per pair of `?`.
pub fn inspection_statements(info: &ServerInfo) -> [String; 3] {
    batch_statements(info, 1)
}

/// The three statements [`inspect_tables`] runs for `tables` tables, in
/// order (TABLES, COLUMNS, index rows). Their parameters are the schema and
/// each table name in turn, repeated once per pair of `?` of a branch.
pub fn batch_statements(info: &ServerInfo, tables: usize) -> [String; 3] {
    [
        tables_batch_sql(info.flavor, tables),
        columns_batch_sql(tables),
        IndexSource::for_server(info).batch_sql(tables),
    ]
}

/// Reads one table: `None` when it does not exist. Issues three prepared
/// statements (TABLES, COLUMNS, index rows; only the first when the table
/// does not exist or is not a base table), each bounded by the session's
/// timeout. Used by apply's per-step re-reads.
pub async fn inspect_table(
    session: &mut Session<'_>,
    schema: &str,
    table: &str,
) -> Result<Option<Table>> {
    let mut out = inspect_tables(session, schema, &[Ident::new(table)]).await?;
    Ok(out.pop().and_then(|(_, t)| t))
}

/// What the TABLES read found for one name.
struct Head {
    name: String,
    table_type: String,
    collation: String,
    engine: Option<String>,
    comment: Option<String>,
    checks: Vec<String>,
}

/// Reads the named tables, in the order given, with at most three
/// statements whatever their number (see the module docs): TABLES, then,
/// when any of them is a base table, COLUMNS and the index rows. No
/// statement for an empty list.
pub async fn inspect_tables(
    session: &mut Session<'_>,
    schema: &str,
    names: &[Ident],
) -> Result<Vec<(Ident, Option<Table>)>> {
    if names.is_empty() {
        return Ok(Vec::new());
    }
    let info = session.info().clone();
    let flavor = info.flavor;
    let n = names.len();
    let context = |part: &str| match names {
        [one] => format!(
            "reading {part} of {}.{}",
            quote_ident(schema),
            quote_ident(one.as_str())
        ),
        _ => format!("reading {part} of {n} tables in {}", quote_ident(schema)),
    };
    let branch_params = |per_table: &dyn Fn(&str) -> Vec<String>| {
        let all: Vec<String> = names.iter().flat_map(|t| per_table(t.as_str())).collect();
        mysql_async::Params::Positional(all.into_iter().map(Value::from).collect())
    };

    let what = context("the table");
    let rows = session
        .exec_rows(
            &what,
            &tables_batch_sql(flavor, n),
            branch_params(&|t| {
                tables_params(flavor, schema, t)
                    .into_iter()
                    .map(str::to_string)
                    .collect()
            }),
        )
        .await?;
    let mut heads: Vec<Option<Head>> = (0..n).map(|_| None).collect();
    for row in &rows {
        let r = RowReader::new(row, &what);
        let i = r.branch(n)?;
        heads[i] = Some(Head {
            name: r
                .opt_text("table_name")?
                .unwrap_or_else(|| names[i].to_string()),
            table_type: r.opt_text("table_type")?.unwrap_or_default(),
            collation: r.opt_text("table_collation")?.unwrap_or_default(),
            engine: r.opt_text("engine")?,
            comment: r.opt_text("table_comment")?.filter(|c| !c.is_empty()),
            checks: check_clauses(r.opt_text("check_clauses")?.as_deref(), &what)?,
        });
    }
    let base = |h: &Head| TableKind::from_table_type(&h.table_type) == TableKind::Base;
    let mut columns: Vec<Vec<crate::model::Column>> = vec![Vec::new(); n];
    let mut index_rows: Vec<Vec<RawIndexRow>> = vec![Vec::new(); n];
    if heads.iter().flatten().any(base) {
        let pair = |t: &str| vec![schema.to_string(), t.to_string()];
        let what = context("columns");
        let rows = session
            .exec_rows(&what, &columns_batch_sql(n), branch_params(&pair))
            .await?;
        for row in &rows {
            let r = RowReader::new(row, &what);
            let i = r.branch(n)?;
            let checks = heads[i]
                .as_ref()
                .map(|h| h.checks.as_slice())
                .unwrap_or(&[]);
            columns[i].push(normalize::column(flavor, &raw_column(&r)?, checks));
        }
        let what = context("indexes");
        let sql = IndexSource::for_server(&info).batch_sql(n);
        let rows = session.exec_rows(&what, &sql, branch_params(&pair)).await?;
        for row in &rows {
            let r = RowReader::new(row, &what);
            index_rows[r.branch(n)?].push(raw_index_row(&r)?);
        }
    }

    let mut out = Vec::with_capacity(n);
    for (i, (head, (columns, index_rows))) in heads
        .into_iter()
        .zip(columns.into_iter().zip(index_rows))
        .enumerate()
    {
        let table = head.map(|h| {
            if !base(&h) {
                // A view or sequence under the catalog table's name: drift,
                // never a table to alter.
                return Table::not_a_table(Ident::new(h.name), &h.table_type);
            }
            let (primary_key, indexes) = normalize::indexes(&index_rows);
            let mut t = Table {
                name: Ident::new(h.name),
                kind: TableKind::Base,
                comment: h.comment,
                engine: h.engine,
                charset: crate::collation::charset_named_by(&h.collation),
                collation: h.collation,
                columns,
                primary_key,
                indexes,
                required_by: Vec::new(),
            };
            t.normalize();
            t
        });
        out.push((names[i].clone(), table));
    }
    Ok(out)
}

/// Positional string parameters for the binary protocol.
pub(crate) fn params(values: &[&str]) -> mysql_async::Params {
    mysql_async::Params::Positional(values.iter().map(|v| Value::from(*v)).collect())
}

/// The JSON array of CHECK clauses from the MariaDB TABLES read.
fn check_clauses(json: Option<&str>, context: &str) -> Result<Vec<String>> {
    let Some(json) = json else {
        return Ok(Vec::new());
    };
    let clauses: Vec<Option<String>> = serde_json::from_str(json).map_err(|e| Error::Database {
        context: context.to_string(),
        code: None,
        message: format!("unreadable CHECK constraint list: {e}"),
        source: None,
    })?;
    Ok(clauses.into_iter().flatten().collect())
}

fn raw_column(r: &RowReader<'_>) -> Result<RawColumn> {
    Ok(RawColumn {
        name: r.text("col_name")?,
        column_type: r.text("col_type")?,
        is_nullable: r.text("is_nullable")?,
        default: r.opt_text("col_default")?,
        extra: r.opt_text("extra")?.unwrap_or_default(),
        charset: r.opt_text("charset_name")?,
        collation: r.opt_text("collation_name")?,
        generation_expression: r.opt_text("gen_expr")?.filter(|e| !e.is_empty()),
        comment: r.opt_text("col_comment")?.unwrap_or_default(),
    })
}

pub(crate) fn raw_index_row(r: &RowReader<'_>) -> Result<RawIndexRow> {
    Ok(RawIndexRow {
        index_name: r.text("index_name")?,
        non_unique: r.opt_u64("non_unique")?.unwrap_or(1) != 0,
        seq_in_index: r.opt_u64("seq_in_index")?.unwrap_or(0),
        column_name: r.opt_text("col_name")?,
        sub_part: r.opt_u64("sub_part")?,
        collation: r.opt_text("key_order")?,
        index_type: r.opt_text("index_type")?,
        is_visible: r.opt_text("is_visible")?,
        ignored: r.opt_text("is_ignored")?,
        expression: r.opt_text("expr")?.filter(|e| !e.is_empty()),
    })
}

/// Reads columns of one binary-protocol row by alias, decoding each
/// [`Value`] kind explicitly: information_schema columns arrive as bytes or
/// integers depending on server and column, and are never guessed at.
pub(crate) struct RowReader<'r> {
    row: &'r Row,
    context: &'r str,
}

impl<'r> RowReader<'r> {
    pub(crate) fn new(row: &'r Row, context: &'r str) -> Self {
        RowReader { row, context }
    }

    fn value(&self, alias: &str) -> Result<&'r Value> {
        let idx = self
            .row
            .columns_ref()
            .iter()
            .position(|c| c.name_str().eq_ignore_ascii_case(alias))
            .ok_or_else(|| self.bad(alias, "column missing from the result"))?;
        self.row
            .as_ref(idx)
            .ok_or_else(|| self.bad(alias, "value already taken"))
    }

    fn bad(&self, alias: &str, why: &str) -> Error {
        Error::Database {
            context: self.context.to_string(),
            code: None,
            message: format!("`{alias}`: {why}"),
            source: None,
        }
    }

    /// A text value; NULL is `None`; integers are rendered in decimal.
    pub(crate) fn opt_text(&self, alias: &str) -> Result<Option<String>> {
        match self.value(alias)? {
            Value::NULL => Ok(None),
            Value::Bytes(b) => String::from_utf8(b.clone())
                .map(Some)
                .map_err(|_| self.bad(alias, "value is not UTF-8")),
            Value::Int(i) => Ok(Some(i.to_string())),
            Value::UInt(u) => Ok(Some(u.to_string())),
            other => Err(self.bad(alias, &format!("unexpected value {other:?} for text"))),
        }
    }

    /// The `branch` column of a batch row: the position of its table among
    /// `tables`.
    pub(crate) fn branch(&self, tables: usize) -> Result<usize> {
        self.opt_u64("branch")?
            .and_then(|b| usize::try_from(b).ok())
            .filter(|b| *b < tables)
            .ok_or_else(|| self.bad("branch", "not the position of a requested table"))
    }

    /// A text value that must not be NULL.
    pub(crate) fn text(&self, alias: &str) -> Result<String> {
        self.opt_text(alias)?
            .ok_or_else(|| self.bad(alias, "unexpected NULL"))
    }

    /// A non-negative integer; NULL is `None`; ASCII digits in bytes are accepted.
    pub(crate) fn opt_u64(&self, alias: &str) -> Result<Option<u64>> {
        match self.value(alias)? {
            Value::NULL => Ok(None),
            Value::Int(i) => u64::try_from(*i)
                .map(Some)
                .map_err(|_| self.bad(alias, "negative integer")),
            Value::UInt(u) => Ok(Some(*u)),
            Value::Bytes(b) => std::str::from_utf8(b)
                .ok()
                .and_then(|s| s.trim().parse::<u64>().ok())
                .map(Some)
                .ok_or_else(|| self.bad(alias, "value is not an unsigned integer")),
            other => Err(self.bad(alias, &format!("unexpected value {other:?} for integer"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(version: &str) -> ServerInfo {
        ServerInfo::from_version(version)
    }

    /// Every statement filters by schema and table equality, nothing else unbounded.
    fn assert_bounded(sql: &str) {
        assert!(
            sql.contains("WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"),
            "{sql}"
        );
        assert!(!sql.to_uppercase().contains(" JOIN "), "{sql}");
        assert!(!sql.to_uppercase().contains("NOT EXISTS"), "{sql}");
    }

    #[test]
    fn statements_are_bounded_for_every_flavor() {
        assert_bounded(&columns_batch_sql(3));
        for f in Flavor::ALL {
            assert_bounded(&tables_batch_sql(f, 3));
        }
        assert!(tables_batch_sql(Flavor::MariaDb, 1)
            .contains("WHERE CONSTRAINT_SCHEMA = ? AND TABLE_NAME = ?"));
        for v in [
            "10.11.19-MariaDB",
            "10.5.1-MariaDB",
            "8.0.36",
            "8.0.11-TiDB-v8.5.3",
            "8.0.11-TiDB-v7.5.1",
        ] {
            let source = IndexSource::for_server(&info(v));
            assert_bounded(&source.sql(false));
            assert_bounded(&source.batch_sql(4));
            assert!(source.sql(true).contains("TABLE_NAME = ? AND "), "{v}");
        }
    }

    #[test]
    fn flavor_specific_index_columns() {
        let maria = IndexSource::for_server(&info("10.11.19-MariaDB")).sql(false);
        assert!(maria.contains("IGNORED AS is_ignored") && !maria.contains("IS_VISIBLE AS"));
        let old_maria = IndexSource::for_server(&info("10.5.9-MariaDB")).sql(false);
        assert!(old_maria.contains("NULL AS is_ignored"));
        let mysql = IndexSource::for_server(&info("8.0.36")).sql(false);
        assert!(mysql.contains("IS_VISIBLE AS is_visible") && mysql.contains("EXPRESSION AS expr"));
        assert_eq!(
            IndexSource::for_server(&info("8.0.11-TiDB-v8.5.3")),
            IndexSource::MySql
        );
    }

    #[test]
    fn old_tidb_reads_public_indexes_only() {
        let source = IndexSource::for_server(&info("8.0.11-TiDB-v8.5.1"));
        assert_eq!(source, IndexSource::TidbIndexes);
        assert_eq!(
            source.sql(true),
            "SELECT KEY_NAME AS index_name, NON_UNIQUE AS non_unique, SEQ_IN_INDEX AS seq_in_index, \
             COLUMN_NAME AS col_name, SUB_PART AS sub_part, NULL AS key_order, NULL AS index_type, \
             IS_VISIBLE AS is_visible, NULL AS is_ignored, EXPRESSION AS expr \
             FROM information_schema.TIDB_INDEXES \
             WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND KEY_NAME = ? \
             ORDER BY KEY_NAME, SEQ_IN_INDEX"
        );
    }

    /// A batch is one branch per table, each with its own equality pair;
    /// nothing but the branch number differs between branches.
    #[test]
    fn batches_are_one_equality_branch_per_table() {
        for v in [
            "10.11.19-MariaDB",
            "9.7.0",
            "8.0.11-TiDB-v8.5.3",
            "8.0.11-TiDB-v7.5.1",
        ] {
            let info = info(v);
            for (sql, per_branch) in batch_statements(&info, 50).iter().zip([
                if info.flavor == Flavor::MariaDb { 4 } else { 2 },
                2,
                2,
            ]) {
                assert_eq!(sql.matches(" UNION ALL ").count(), 49, "{v}: {sql}");
                assert_eq!(sql.matches('?').count(), 50 * per_branch, "{v}");
                assert_eq!(
                    sql.matches("TABLE_SCHEMA = ? AND TABLE_NAME = ?").count(),
                    50
                );
                assert!(sql.contains("SELECT 49 AS branch, "), "{v}");
                assert!(!sql.contains(" IN ("), "{v}");
            }
        }
    }

    #[test]
    fn old_tidb_batch_reads_tidb_indexes() {
        let source = IndexSource::for_server(&info("8.0.11-TiDB-v7.5.1"));
        let branch = |i: usize| {
            format!(
                "SELECT {i} AS branch, KEY_NAME AS index_name, NON_UNIQUE AS non_unique, SEQ_IN_INDEX AS seq_in_index, \
                 COLUMN_NAME AS col_name, SUB_PART AS sub_part, NULL AS key_order, NULL AS index_type, \
                 IS_VISIBLE AS is_visible, NULL AS is_ignored, EXPRESSION AS expr \
                 FROM information_schema.TIDB_INDEXES \
                 WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"
            )
        };
        assert_eq!(
            source.batch_sql(2),
            format!(
                "{} UNION ALL {} ORDER BY branch, index_name, seq_in_index",
                branch(0),
                branch(1)
            )
        );
        let new = IndexSource::for_server(&info("8.0.11-TiDB-v8.5.3")).batch_sql(1);
        assert!(
            new.contains("FROM information_schema.STATISTICS") && !new.contains("TIDB_INDEXES")
        );
    }

    #[test]
    fn check_clause_list_decodes() {
        let got = check_clauses(Some(r#"["json_valid(`j`)", null, "`n` > 0"]"#), "ctx").unwrap();
        assert_eq!(got, ["json_valid(`j`)", "`n` > 0"]);
        assert!(check_clauses(None, "ctx").unwrap().is_empty());
        assert!(check_clauses(Some("not json"), "ctx").is_err());
    }
}
