//! Bounded live inspection: a catalog table is read with exactly three
//! prepared `information_schema` statements (TABLES, COLUMNS, index rows),
//! each filtered by `TABLE_SCHEMA = ? AND TABLE_NAME = ?`. The cost does not
//! grow with the number of other tables on the server.
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
        let (from, name_col, order, kind, visible, ignored, expr) = match self {
            IndexSource::MariaDb { ignored } => (
                "STATISTICS",
                "INDEX_NAME",
                "COLLATION",
                "INDEX_TYPE",
                "NULL",
                if ignored { "IGNORED" } else { "NULL" },
                "NULL",
            ),
            IndexSource::MySql => (
                "STATISTICS",
                "INDEX_NAME",
                "COLLATION",
                "INDEX_TYPE",
                "IS_VISIBLE",
                "NULL",
                "EXPRESSION",
            ),
            IndexSource::TidbIndexes => (
                "TIDB_INDEXES",
                "KEY_NAME",
                "NULL",
                "NULL",
                "IS_VISIBLE",
                "NULL",
                "EXPRESSION",
            ),
        };
        let index_filter = if single_index {
            format!(" AND {name_col} = ?")
        } else {
            String::new()
        };
        format!(
            "SELECT {name_col} AS index_name, NON_UNIQUE AS non_unique, SEQ_IN_INDEX AS seq_in_index, \
             COLUMN_NAME AS col_name, SUB_PART AS sub_part, {order} AS key_order, {kind} AS index_type, \
             {visible} AS is_visible, {ignored} AS is_ignored, {expr} AS expr \
             FROM information_schema.{from} \
             WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?{index_filter} \
             ORDER BY {name_col}, SEQ_IN_INDEX"
        )
    }
}

/// The TABLES statement. On MariaDB the table's CHECK clauses ride along as
/// a scalar subquery (json columns are `longtext` + `json_valid` checks), so
/// inspection stays at three statements. Parameters: on MariaDB schema,
/// table, schema, table; otherwise schema, table.
pub(crate) fn tables_sql(flavor: Flavor) -> &'static str {
    match flavor {
        Flavor::MariaDb => {
            "SELECT TABLE_NAME AS table_name, TABLE_TYPE AS table_type, \
             TABLE_COLLATION AS table_collation, ENGINE AS engine, TABLE_COMMENT AS table_comment, \
             (SELECT JSON_ARRAYAGG(CHECK_CLAUSE) FROM information_schema.CHECK_CONSTRAINTS \
             WHERE CONSTRAINT_SCHEMA = ? AND TABLE_NAME = ?) AS check_clauses \
             FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"
        }
        Flavor::MySql | Flavor::TiDb => {
            "SELECT TABLE_NAME AS table_name, TABLE_TYPE AS table_type, \
             TABLE_COLLATION AS table_collation, ENGINE AS engine, TABLE_COMMENT AS table_comment, \
             NULL AS check_clauses \
             FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"
        }
    }
}

/// The COLUMNS statement. Parameters: schema, table.
pub(crate) const COLUMNS_SQL: &str = "SELECT COLUMN_NAME AS col_name, COLUMN_TYPE AS col_type, \
     IS_NULLABLE AS is_nullable, COLUMN_DEFAULT AS col_default, EXTRA AS extra, \
     CHARACTER_SET_NAME AS charset_name, COLLATION_NAME AS collation_name, \
     GENERATION_EXPRESSION AS gen_expr, COLUMN_COMMENT AS col_comment \
     FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? \
     ORDER BY ORDINAL_POSITION";

/// The three statements [`inspect_table`] runs on this server, in order
/// (TABLES, COLUMNS, index rows), for EXPLAIN and audits. Their parameters
/// are the schema and the table name, repeated once per pair of `?`.
pub fn inspection_statements(info: &ServerInfo) -> [String; 3] {
    [
        tables_sql(info.flavor).to_string(),
        COLUMNS_SQL.to_string(),
        IndexSource::for_server(info).sql(false),
    ]
}

/// Reads one table: `None` when it does not exist. Issues exactly three
/// prepared statements (TABLES, COLUMNS, index rows), each bounded by the
/// session's timeout.
pub async fn inspect_table(
    session: &mut Session,
    schema: &str,
    table: &str,
) -> Result<Option<Table>> {
    let info = session.info().clone();
    let flavor = info.flavor;
    let what = |part: &str| {
        format!(
            "reading {part} of {}.{}",
            quote_ident(schema),
            quote_ident(table)
        )
    };

    let table_params = match flavor {
        Flavor::MariaDb => vec![schema, table, schema, table],
        Flavor::MySql | Flavor::TiDb => vec![schema, table],
    };
    let context = what("the table");
    let rows = session
        .exec_rows(&context, tables_sql(flavor), params(&table_params))
        .await?;
    let Some(row) = rows.first() else {
        return Ok(None);
    };
    let head = RowReader::new(row, &context);
    let name = head
        .opt_text("table_name")?
        .unwrap_or_else(|| table.to_string());
    let table_type = head.opt_text("table_type")?.unwrap_or_default();
    if TableKind::from_table_type(&table_type) != TableKind::Base {
        // A view or sequence under the catalog table's name: drift, never a
        // table to alter. Nothing more is read.
        return Ok(Some(Table::not_a_table(Ident::new(name), &table_type)));
    }
    let collation = head.opt_text("table_collation")?.unwrap_or_default();
    let engine = head.opt_text("engine")?;
    let comment = head.opt_text("table_comment")?.filter(|c| !c.is_empty());
    let checks = check_clauses(head.opt_text("check_clauses")?.as_deref(), &context)?;

    let context = what("columns");
    let rows = session
        .exec_rows(&context, COLUMNS_SQL, params(&[schema, table]))
        .await?;
    let columns = rows
        .iter()
        .map(|r| {
            raw_column(&RowReader::new(r, &context))
                .map(|raw| normalize::column(flavor, &raw, &checks))
        })
        .collect::<Result<Vec<_>>>()?;

    let context = what("indexes");
    let sql = IndexSource::for_server(&info).sql(false);
    let rows = session
        .exec_rows(&context, &sql, params(&[schema, table]))
        .await?;
    let raw_indexes = rows
        .iter()
        .map(|r| raw_index_row(&RowReader::new(r, &context)))
        .collect::<Result<Vec<_>>>()?;
    let (primary_key, indexes) = normalize::indexes(&raw_indexes);

    let mut out = Table {
        name: Ident::new(name),
        kind: crate::model::TableKind::Base,
        comment,
        engine,
        charset: crate::collation::charset_named_by(&collation),
        collation,
        columns,
        primary_key,
        indexes,
        required_by: Vec::new(),
    };
    out.normalize();
    Ok(Some(out))
}

/// Reads the named tables one after another on the session, in the order
/// given: three statements per table, none for tables not named.
pub async fn inspect_tables(
    session: &mut Session,
    schema: &str,
    names: &[Ident],
) -> Result<Vec<(Ident, Option<Table>)>> {
    let mut out = Vec::with_capacity(names.len());
    for name in names {
        let table = inspect_table(session, schema, name.as_str()).await?;
        out.push((name.clone(), table));
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
        assert_bounded(COLUMNS_SQL);
        for f in Flavor::ALL {
            assert_bounded(tables_sql(f));
        }
        assert!(
            tables_sql(Flavor::MariaDb).contains("WHERE CONSTRAINT_SCHEMA = ? AND TABLE_NAME = ?")
        );
        for v in [
            "10.11.19-MariaDB",
            "10.5.1-MariaDB",
            "8.0.36",
            "8.0.11-TiDB-v8.5.3",
            "8.0.11-TiDB-v7.5.1",
        ] {
            let source = IndexSource::for_server(&info(v));
            assert_bounded(&source.sql(false));
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

    #[test]
    fn check_clause_list_decodes() {
        let got = check_clauses(Some(r#"["json_valid(`j`)", null, "`n` > 0"]"#), "ctx").unwrap();
        assert_eq!(got, ["json_valid(`j`)", "`n` > 0"]);
        assert!(check_clauses(None, "ctx").unwrap().is_empty());
        assert!(check_clauses(Some("not json"), "ctx").is_err());
    }
}
