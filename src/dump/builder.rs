//! Mapping a parsed `CREATE TABLE` onto the model: the builder and the
//! table-level facts (charset, collation, primary-key columns NOT NULL).

use std::collections::BTreeSet;

use sqlparser::ast::CreateTable;

use super::options::TableOptions;
use super::{server_default_collation, DumpParseError, Feature, ParseOptions, ParsedTable};
use crate::collation::{charset_named_by, default_collation};
use crate::coltype::ColumnType;
use crate::ident::Ident;
use crate::model::{Column, Index, IndexPart, Table};

/// Accumulates the model of one table while walking its AST.
pub(super) struct TableBuilder {
    pub(super) name: String,
    pub(super) columns: Vec<Column>,
    pub(super) primary_key: Vec<IndexPart>,
    pub(super) indexes: Vec<Index>,
    pub(super) json_columns: BTreeSet<String>,
    pub(super) checks: Vec<crate::model::Check>,
    pub(super) foreign_keys: Vec<crate::model::ForeignKey>,
    pub(super) options: ParseOptions,
    pub(super) features: Vec<Feature>,
    /// TiDB table features, read by the pre-pass.
    pub(super) tidb: Option<crate::tidb::TidbOptions>,
}

impl TableBuilder {
    pub(super) fn new(name: &str, options: ParseOptions) -> Self {
        TableBuilder {
            name: name.to_string(),
            columns: Vec::new(),
            primary_key: Vec::new(),
            indexes: Vec::new(),
            json_columns: BTreeSet::new(),
            checks: Vec::new(),
            foreign_keys: Vec::new(),
            options,
            features: Vec::new(),
            tidb: None,
        }
    }

    pub(super) fn feature(&mut self, object: String, what: String) {
        self.features.push(Feature { object, what });
    }

    /// The collation a bare `CHARACTER SET cs` means (see [`ParseOptions::flavor`]).
    fn charset_collation(&self, charset: &str) -> String {
        match self.options.flavor {
            Some(f) => server_default_collation(charset, f),
            None => default_collation(charset),
        }
    }

    pub(super) fn err(&self, message: impl Into<String>) -> DumpParseError {
        DumpParseError::new(Some(&self.name), message)
    }

    pub(super) fn build(
        mut self,
        create: &CreateTable,
        prepared: &super::Prepared,
    ) -> Result<ParsedTable, DumpParseError> {
        for def in &create.columns {
            let column = self.column(def)?;
            self.columns.push(column);
        }
        for (n, constraint) in create.constraints.iter().enumerate() {
            let markers = ItemMarkers {
                parser: prepared.parsers.get(&n).map(String::as_str),
                comment: prepared.key_comments.get(&n).map(String::as_str),
            };
            self.constraint(
                constraint,
                prepared.hidden_constraints.contains(&n),
                markers,
            )?;
        }
        let options = TableOptions::read(&create.table_options);
        for (object, what) in &options.other {
            self.feature(object.clone(), what.clone());
        }
        let (charset, collation) = self.table_charset(&options)?;
        let mut table = Table {
            name: Ident::new(self.name.clone()),
            kind: crate::model::TableKind::Base,
            comment: options.comment.clone(),
            engine: options.engine.clone(),
            row_format: None,
            charset,
            collation,
            columns: std::mem::take(&mut self.columns),
            primary_key: std::mem::take(&mut self.primary_key),
            indexes: std::mem::take(&mut self.indexes),
            checks: std::mem::take(&mut self.checks),
            foreign_keys: {
                let mut fks = std::mem::take(&mut self.foreign_keys);
                fks.sort_by_key(|f| f.name.key());
                fks
            },
            tidb: self.tidb.take(),
        };
        let collation_clauses = self.finish_columns(&mut table);
        table.normalize();
        let mut features = std::mem::take(&mut self.features);
        features.sort();
        Ok(ParsedTable {
            table,
            features,
            collation_clauses,
        })
    }

    /// Table default charset and collation, each derived from the other when absent.
    fn table_charset(&self, options: &TableOptions) -> Result<(String, String), DumpParseError> {
        match (&options.charset, &options.collation) {
            (Some(cs), Some(co)) => Ok((cs.clone(), co.clone())),
            (Some(cs), None) => Ok((cs.clone(), self.charset_collation(cs))),
            (None, Some(co)) => Ok((charset_named_by(co), co.clone())),
            (None, None) => Err(self.err("no DEFAULT CHARSET or COLLATE table option; the collation of its text columns is unknown")),
        }
    }

    /// Applies table-level facts to columns: JSON checks, primary-key
    /// NOT NULL, inherited charsets and collations. Returns the textual
    /// columns whose definition writes a charset or collation, with which.
    fn finish_columns(&self, table: &mut Table) -> Vec<(Ident, crate::model::CollationClauses)> {
        let mut stated = Vec::new();
        let pk: Vec<Ident> = table
            .primary_key
            .iter()
            .filter_map(|p| p.column_name().cloned())
            .collect();
        let defaults = (table.charset.clone(), table.collation.clone());
        for c in &mut table.columns {
            if c.ty == ColumnType::LongText && self.json_columns.contains(&c.name.key()) {
                // MariaDB stores `json` as longtext with CHECK (json_valid(col)).
                c.ty = ColumnType::Json;
            }
            if pk.contains(&c.name) {
                c.nullable = false;
            }
            if c.ty.is_textual() {
                let clauses = crate::model::CollationClauses {
                    charset: c.charset.is_some(),
                    collation: c.collation.is_some(),
                };
                if clauses != crate::model::CollationClauses::default() {
                    stated.push((c.name.clone(), clauses));
                }
                let bare = |cs: &str| self.charset_collation(cs);
                let (cs, co) = match (self.options.flavor, c.charset.take(), c.collation.take()) {
                    // With a known server, a bare CHARACTER SET means its default collation.
                    (Some(_), Some(cs), None) => {
                        let co = bare(&cs);
                        (cs, co)
                    }
                    (_, cs, co) => column_charset(cs, co, &defaults),
                };
                c.charset = Some(cs);
                c.collation = Some(co);
            }
        }
        stated
    }
}

/// Column charset and collation, inheriting from the table (see [`parse_create_table`]).
/// `table` is the table's (charset, collation).
fn column_charset(
    charset: Option<String>,
    collation: Option<String>,
    table: &(String, String),
) -> (String, String) {
    match (charset, collation) {
        (Some(cs), Some(co)) => (cs, co),
        (None, Some(co)) => (charset_named_by(&co), co),
        (Some(cs), None) if cs.eq_ignore_ascii_case(&table.0) => (cs, table.1.clone()),
        (Some(cs), None) => {
            let co = default_collation(&cs);
            (cs, co)
        }
        (None, None) => table.clone(),
    }
}

/// What the pre-pass cut from one constraint item (see
/// [`super::Prepared`]): its `WITH PARSER` name and, for a FULLTEXT or
/// SPATIAL key, its comment.
#[derive(Clone, Copy, Default)]
pub(super) struct ItemMarkers<'a> {
    pub parser: Option<&'a str>,
    pub comment: Option<&'a str>,
}
