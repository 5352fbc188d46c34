//! From an inspection statement's rows to tables: each row filed under
//! its table ([`gather`]), then each table assembled and normalised
//! ([`assemble`]), failing closed on what the model does not know.

use super::normalize::{self, RawIndexRow};
use crate::coltype::ColumnType;
use crate::error::Result;
use crate::ident::{quote_ident, Ident};
use crate::model::{Check, Column, ForeignKey, ReferentialAction, Table, TableKind};

use super::options;
use super::row::{check_clauses, raw_column, raw_index_row, RowReader};
use super::sql::{
    CHECK_FIELDS, COLUMN_FIELDS, CONSTRAINT_FIELDS, FOREIGN_KEY_FIELDS, INDEX_FIELDS,
    REFERENTIAL_FIELDS, SRC_CHECK, SRC_COLUMN, SRC_CONSTRAINT, SRC_FOREIGN_KEY, SRC_INDEX,
    SRC_REFERENTIAL, SRC_TABLE, TABLE_FIELDS,
};
use super::Want;

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
    row_format: Option<String>,
}

/// The rows of one table, gathered from a statement's rows.
#[derive(Default)]
pub(super) struct Gathered<'r> {
    head: Option<Head>,
    columns: Vec<&'r mysql_async::Row>,
    indexes: Vec<RawIndexRow>,
    listed_checks: Vec<String>,
    checks: Vec<Check>,
    foreign_keys: Vec<ForeignKey>,
    rules: Vec<Rules>,
}

/// Files one row of a statement under its table.
pub(super) fn gather<'r>(
    row: &'r mysql_async::Row,
    what: &str,
    flavor: crate::Flavor,
    schema: &str,
    want: &Want,
    g: &mut Gathered<'r>,
) -> Result<()> {
    let plain = RowReader::new(row, what);
    match plain.opt_u64("src")? {
        Some(SRC_TABLE) => {
            let r = RowReader::slotted(row, what, TABLE_FIELDS);
            g.head = Some(Head {
                name: r
                    .opt_text("table_name")?
                    .unwrap_or_else(|| want.name.to_string()),
                table_type: r.opt_text("table_type")?.unwrap_or_default(),
                collation: r.opt_text("table_collation")?.unwrap_or_default(),
                engine: r.opt_text("engine")?,
                comment: r.opt_text("table_comment")?.filter(|c| !c.is_empty()),
                checks: check_clauses(r.opt_text("check_clauses")?.as_deref(), what)?,
                create_options: r.opt_text("create_options")?.unwrap_or_default(),
                row_format: r.opt_text("row_format")?,
            });
        }
        // Columns are normalised once every row is read, with the table's
        // CHECK clauses.
        Some(SRC_COLUMN) => g.columns.push(row),
        Some(SRC_INDEX) => {
            let mut index = raw_index_row(&RowReader::slotted(row, what, INDEX_FIELDS))?;
            // MySQL backslash-escapes quotes in STATISTICS.EXPRESSION
            // (`_utf8mb4\'\'`), as in CHECK_CLAUSE (verified on
            // MySQL 9.7); TiDB's is read as it is.
            if flavor.expression_text() == crate::server::ExpressionText::MySqlEscaped {
                index.expression = index.expression.map(|e| crate::expr::mysql_expression(&e));
            }
            g.indexes.push(index)
        }
        Some(SRC_CHECK) => {
            let r = RowReader::slotted(row, what, CHECK_FIELDS);
            if let Some(clause) = r.opt_text("check_clause")? {
                g.listed_checks.push(clause);
            }
        }
        Some(SRC_CONSTRAINT) => {
            let r = RowReader::slotted(row, what, CONSTRAINT_FIELDS);
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
                let expression = match flavor.expression_text() {
                    crate::server::ExpressionText::Plain => clause,
                    crate::server::ExpressionText::MySqlEscaped => {
                        crate::expr::mysql_expression(&clause)
                    }
                    crate::server::ExpressionText::Backslashed => {
                        crate::expr::unescape_mysql_default(&clause)
                    }
                };
                let enforced = r
                    .opt_text("enforced")?
                    .is_none_or(|e| !e.eq_ignore_ascii_case("NO"));
                // An unknown level fails closed: the row is not a check
                // this tool can describe.
                let level_text = r.opt_text("check_level")?.unwrap_or_default();
                let level = crate::model::CheckLevel::parse(&level_text).ok_or_else(|| {
                    crate::Error::Database {
                        context: what.to_string(),
                        code: None,
                        message: format!(
                            "CHECK `{name}` has level `{level_text}`, neither Table nor Column"
                        ),
                        source: None,
                    }
                })?;
                g.checks.push(Check {
                    name: Ident::new(name),
                    expression,
                    enforced,
                    level,
                });
            }
        }
        Some(SRC_FOREIGN_KEY) => {
            let r = RowReader::slotted(row, what, FOREIGN_KEY_FIELDS);
            foreign_key_row(&r, schema, &mut g.foreign_keys)?;
        }
        Some(SRC_REFERENTIAL) => {
            let r = RowReader::slotted(row, what, REFERENTIAL_FIELDS);
            if let Some(name) = r.opt_text("constraint_name")? {
                g.rules.push(Rules {
                    name: Ident::new(name),
                    update: r.opt_text("update_rule")?.unwrap_or_default(),
                    delete: r.opt_text("delete_rule")?.unwrap_or_default(),
                });
            }
        }
        other => {
            return Err(crate::Error::Database {
                context: what.to_string(),
                code: None,
                message: format!("unexpected row source {other:?}"),
                source: None,
            })
        }
    }
    Ok(())
}

/// One table from its gathered rows: `None` when it has no TABLES row.
pub(super) fn assemble(
    g: Gathered<'_>,
    what: &str,
    flavor: crate::Flavor,
) -> Result<Option<Table>> {
    let Some(mut h) = g.head else {
        return Ok(None);
    };
    // A view or sequence under the catalog table's name: drift, never a
    // table to alter.
    if TableKind::from_table_type(&h.table_type) != TableKind::Base {
        return Ok(Some(Table::not_a_table(Ident::new(h.name), &h.table_type)));
    }
    h.checks.extend(g.listed_checks);
    let columns = g
        .columns
        .into_iter()
        .map(|row| {
            let r = RowReader::slotted(row, what, COLUMN_FIELDS);
            let raw = raw_column(&r)?;
            normalize::column(flavor, &raw, &h.checks).map_err(|what| crate::Error::UnknownShape {
                table: h.name.clone(),
                object: format!("column `{}`", raw.name),
                what,
            })
        })
        .collect::<Result<Vec<Column>>>()?;
    let (primary_key, indexes) = normalize::indexes(&g.indexes);
    let kind = options::table_kind(flavor, &h.name, &h.create_options, h.engine.as_deref());
    let mut t = Table {
        name: Ident::new(h.name),
        kind,
        comment: h.comment,
        engine: h.engine,
        row_format: h
            .row_format
            .as_deref()
            .filter(|f| !f.is_empty())
            .map(crate::model::RowFormat::from_server),
        charset: crate::collation::charset_named_by(&h.collation),
        collation: h.collation,
        columns,
        primary_key,
        indexes,
        checks: Vec::new(),
        foreign_keys: Vec::new(),
        tidb: None,
    };
    t.checks = explicit_checks(g.checks, &t);
    let mut foreign_keys = g.foreign_keys;
    apply_rules(&mut foreign_keys, &g.rules, &t.name)?;
    foreign_keys.sort_by_key(|f| f.name.key());
    t.foreign_keys = foreign_keys;
    t.normalize();
    Ok(Some(t))
}
