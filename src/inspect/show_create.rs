//! `SHOW CREATE TABLE` reads, for what information_schema does not show.
//!
//! - **FULLTEXT parsers.** information_schema.STATISTICS has no parser
//!   column (MySQL 9.7 and MariaDB 10.11: INDEX_TYPE is `FULLTEXT` with or
//!   without `WITH PARSER`), so without this read a live `ngram` index
//!   compares equal to a plain one. The statement is issued only for a
//!   table whose live shape has a FULLTEXT index, so inspection of a table
//!   without one costs no extra round trip. It is issued on every flavor:
//!   only MySQL ships a parser (`ngram`), but MariaDB's plugin API takes
//!   third-party FULLTEXT parsers, and a parser the model does not know
//!   must fail the read (fail closed) rather than read as the built-in one.
//!   The text is read by the dump parser ([`crate::dump`]), so a live
//!   index and a dumped one are read the same way.
//! - **TiDB table options** ([`super::tidb`]): TiDB's `/*T![...] */` markers.
//!
//! [`ShowCreate`] keeps each table's text for the rest of one inspection,
//! so a TiDB table with a FULLTEXT index is shown once.

use mysql_async::prelude::*;

use crate::db::Session;
use crate::dump::{parse_create_table_with, ParseOptions};
use crate::error::{Error, Result};
use crate::ident::{quote_ident, Ident};
use crate::model::{Index, Table, TableKind};
use crate::server::Flavor;

use super::row::{params, RowReader};

/// `SHOW CREATE TABLE` of one table, qualified by its schema (both names
/// through the quoting helper).
pub(crate) fn show_create_sql(schema: &str, table: &Ident) -> String {
    format!(
        "SHOW CREATE TABLE {}.{}",
        quote_ident(schema),
        quote_ident(table.as_str())
    )
}

/// The `SHOW CREATE TABLE` texts read during one inspection.
#[derive(Default)]
pub(crate) struct ShowCreate {
    /// By folded table name.
    shown: std::collections::HashMap<String, String>,
}

impl ShowCreate {
    /// The text of `table`: read once, then kept.
    pub(crate) async fn text(
        &mut self,
        session: &mut Session<'_>,
        schema: &str,
        table: &Ident,
    ) -> Result<String> {
        if let Some(text) = self.shown.get(table.folded()) {
            return Ok(text.clone());
        }
        let what = format!("reading SHOW CREATE TABLE {}", quote_ident(table.as_str()));
        let rows = session
            .exec_rows(&what, &show_create_sql(schema, table), params(&[]))
            .await?;
        let text = statement_of(&rows, &what, table)?;
        self.shown.insert(table.folded().to_string(), text.clone());
        Ok(text)
    }
}

impl ShowCreate {
    /// Reads the texts of `tables` not read yet, [`TABLES_PER_STATEMENT`]
    /// `SHOW CREATE TABLE` statements per text query: one round trip per
    /// chunk (the net's reads, see `super::net`), each statement bounded
    /// (one table by name), the query within the session's deadline and
    /// read retries. A table dropped meanwhile fails the read.
    ///
    /// [`TABLES_PER_STATEMENT`]: super::TABLES_PER_STATEMENT
    pub(crate) async fn prefetch(
        &mut self,
        session: &mut Session<'_>,
        schema: &str,
        tables: &[Ident],
    ) -> Result<()> {
        let missing: Vec<&Ident> = tables
            .iter()
            .filter(|t| !self.shown.contains_key(t.folded()))
            .collect();
        for chunk in missing.chunks(super::TABLES_PER_STATEMENT) {
            let sql = chunk
                .iter()
                .map(|t| show_create_sql(schema, t))
                .collect::<Vec<_>>()
                .join("; ");
            let what = format!(
                "reading SHOW CREATE TABLE of {} tables of {}",
                chunk.len(),
                quote_ident(schema)
            );
            let n = chunk.len();
            let sets = session
                .read(&what, move |c| {
                    let sql = sql.clone();
                    Box::pin(async move {
                        let mut result = c.query_iter(sql).await?;
                        let mut sets: Vec<Vec<mysql_async::Row>> = Vec::with_capacity(n);
                        for _ in 0..n {
                            sets.push(result.collect().await?);
                        }
                        result.drop_result().await?;
                        Ok(sets)
                    })
                })
                .await?;
            for (table, rows) in chunk.iter().zip(sets) {
                let text = statement_of(&rows, &what, table)?;
                self.shown.insert(table.folded().to_string(), text);
            }
        }
        Ok(())
    }
}

/// The `Create Table` text of a `SHOW CREATE TABLE` result: an error
/// naming `table` when there is none.
fn statement_of(rows: &[mysql_async::Row], what: &str, table: &Ident) -> Result<String> {
    let text = match rows.first() {
        Some(row) => RowReader::new(row, what).opt_text("Create Table")?,
        None => None,
    };
    text.ok_or_else(|| Error::Database {
        context: what.to_string(),
        code: None,
        message: format!(
            "SHOW CREATE TABLE {} returned no statement",
            quote_ident(table.as_str())
        ),
        source: None,
    })
}

/// Whether `indexes` holds a FULLTEXT index (whose parser only `SHOW
/// CREATE TABLE` shows).
pub(crate) fn has_fulltext(indexes: &[Index]) -> bool {
    indexes.iter().any(|i| i.kind.is_fulltext())
}

/// Gives each FULLTEXT index of `indexes` (of table `table`, read from
/// STATISTICS) its parser from the table's `SHOW CREATE TABLE` text. A text
/// the dump parser cannot read, a parser outside the closed set, or a
/// FULLTEXT index the text does not show as FULLTEXT fails closed.
pub(crate) fn fill_parsers(
    table: &str,
    indexes: &mut [Index],
    text: &str,
    flavor: Flavor,
) -> Result<()> {
    let unknown = |object: String, what: String| Error::UnknownShape {
        table: table.to_string(),
        object,
        what,
    };
    let options = ParseOptions {
        flavor: Some(flavor),
        keep_other_types: true,
    };
    let shown = parse_create_table_with(text, options)
        .map_err(|e| {
            unknown(
                "FULLTEXT parsers".into(),
                format!("SHOW CREATE TABLE: {}", e.message),
            )
        })?
        .table;
    for index in indexes.iter_mut().filter(|i| i.kind.is_fulltext()) {
        let object = format!("index `{}`", index.name);
        match shown.index(&index.name) {
            Some(s) if s.kind.is_fulltext() => index.kind = s.kind,
            _ => {
                return Err(unknown(
                    object,
                    "STATISTICS lists a FULLTEXT index that SHOW CREATE TABLE does not show".into(),
                ))
            }
        }
    }
    Ok(())
}

/// Fills in the FULLTEXT parsers of every existing base table of `tables`
/// that has a FULLTEXT index: one `SHOW CREATE TABLE` for each such table,
/// none for the others.
pub(crate) async fn fill_fulltext_parsers(
    session: &mut Session<'_>,
    schema: &str,
    shown: &mut ShowCreate,
    tables: &mut [(Ident, Option<Table>)],
) -> Result<()> {
    let flavor = session.server().flavor();
    for t in tables
        .iter_mut()
        .filter_map(|(_, t)| t.as_mut())
        .filter(|t| t.kind == TableKind::Base && has_fulltext(&t.indexes))
    {
        let text = shown.text(session, schema, &t.name).await?;
        fill_parsers(t.name.as_str(), &mut t.indexes, &text, flavor)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{FullTextParser, IndexKind};

    /// FULLTEXT index `name` over `b` as inspection lists it before the
    /// text is read: without its parser.
    fn fulltext(name: &str) -> Index {
        crate::dump::index(&format!("`b` text, FULLTEXT KEY `{name}` (`b`)"))
    }

    const SHOWN: &str = "CREATE TABLE `t` (\n  `id` int NOT NULL,\n  `b` text,\n  PRIMARY KEY (`id`),\n  \
        FULLTEXT KEY `ft` (`b`) COMMENT 'x' /*!50100 WITH PARSER `ngram` */ ,\n  FULLTEXT KEY `plain` (`b`)\n) \
        ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci";

    /// MySQL 9.7's text (probed): the parser lands on its index, a plain
    /// one stays plain; a parser outside the closed set, or a FULLTEXT
    /// index the text does not show, fails closed naming table and index.
    #[test]
    fn parsers_come_from_the_text_and_unknown_ones_fail_closed() {
        let mut indexes = vec![
            fulltext("ft"),
            fulltext("plain"),
            crate::dump::index("`id` int NOT NULL, KEY `k` (`id`)"),
        ];
        fill_parsers("t", &mut indexes, SHOWN, Flavor::MySql).unwrap();
        assert_eq!(
            indexes[0].kind,
            IndexKind::FullText(Some(FullTextParser::Ngram))
        );
        assert_eq!(indexes[1].kind, IndexKind::FullText(None));
        assert_eq!(indexes[2].kind, IndexKind::BTree);

        let mecab = SHOWN.replace("`ngram`", "`mecab`");
        let err = fill_parsers("t", &mut [fulltext("ft")], &mecab, Flavor::MySql).unwrap_err();
        let text = err.to_string();
        assert!(text.starts_with("table `t`: "), "{text}");
        assert!(
            text.contains("index `ft`: unknown FULLTEXT parser `mecab`"),
            "{text}"
        );

        let err = fill_parsers("t", &mut [fulltext("gone")], SHOWN, Flavor::MySql).unwrap_err();
        assert!(err.to_string().contains("index `gone`"), "{err}");
    }
}
