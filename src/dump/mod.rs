//! Parsing `CREATE TABLE` text (as rendered by [`crate::ddl`], or as printed
//! by `SHOW CREATE TABLE` on MySQL, MariaDB and TiDB) into the typed model.
//!
//! Parsing runs in two stages:
//! 1. a textual pre-pass ([`prepare`]) that handles what sqlparser cannot:
//!    executable version comments `/*!NNNNN ... */` are unwrapped (MySQL runs
//!    their content, so it is kept), TiDB feature comments `/*T![f] ... */`
//!    are dropped (e.g. `CLUSTERED`; recorded nowhere for now), and index
//!    visibility markers (`INVISIBLE`, `IGNORED`, `VISIBLE`, `NOT IGNORED`) are
//!    removed and remembered per table item;
//! 2. sqlparser (MySqlDialect) parses the statement, and the AST is mapped
//!    onto [`Table`], then [`Table::normalize`]d.
//!
//! The dump reader ([`read_dump`], [`parse_dump`]) splits a whole
//! `mysqldump` / `mariadb-dump` file into statements and runs each
//! `CREATE TABLE` through the same two stages (see [`reader`]).

mod reader;

pub use reader::{detect_flavor, parse_dump, read_dump, Dump, TableFeature};

use std::collections::BTreeSet;

use sqlparser::ast::{
    ColumnDef, ColumnOption, CreateTable, CreateTableOptions, Expr, FullTextOrSpatialConstraint,
    IndexColumn, IndexOption, OrderBySort, SqlOption, Statement, TableConstraint, Value,
};
use sqlparser::dialect::MySqlDialect;
use sqlparser::parser::Parser;
use sqlparser::tokenizer::Token;

use crate::collation::{charset_named_by, default_collation};
use crate::coltype::ColumnType;
use crate::flavor::Flavor;
use crate::ident::Ident;
use crate::model::{Column, DefaultValue, Index, IndexKind, IndexPart, Table};

/// Why a `CREATE TABLE` could not be read into the model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", .table.as_ref().map(|t| format!("table `{t}`: ")).unwrap_or_default())]
pub struct DumpParseError {
    /// The table, when its name was read.
    pub table: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl DumpParseError {
    fn new(table: Option<&str>, message: impl Into<String>) -> Self {
        DumpParseError {
            table: table.map(str::to_string),
            message: message.into(),
        }
    }
}

/// Parses one `CREATE TABLE` statement (a trailing `;` is allowed) into a
/// normalised [`Table`]. Fields SQL cannot carry (`required_by`) are empty.
///
/// A textual column without its own collation inherits the table's default
/// collation when it has no charset or the table's charset; with another
/// charset only, it gets [`default_collation`] of that charset. When only a
/// collation is given, the charset is derived from it.
pub fn parse_create_table(sql: &str) -> Result<Table, DumpParseError> {
    parse_create_table_with(sql, ParseOptions::default()).map(|p| p.table)
}

/// How [`parse_create_table_with`] reads a statement.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ParseOptions {
    /// The server the text comes from. It decides which collation a bare
    /// `CHARACTER SET cs` (without `COLLATE`) means: the server's default
    /// collation of `cs` ([`server_default_collation`]). `None`: the
    /// charset's binary collation, flavor-independent.
    pub flavor: Option<Flavor>,
    /// Keep a column type outside the catalog's types as
    /// [`ColumnType::Other`] (as live inspection does) instead of failing.
    pub keep_other_types: bool,
}

/// Something a `CREATE TABLE` declares that the model does not carry
/// (foreign keys, partitioning, `ON UPDATE`, CHECK constraints other than
/// MariaDB's json one, invisible columns, other table options). Import
/// refuses these; planning ignores them as it ignores unmanaged objects.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct Feature {
    /// The object: `column `X``, `foreign key `fk``, `PARTITION BY`, ...
    pub object: String,
    /// What it is, as SQL text or a short description.
    pub what: String,
}

/// A parsed table and what it declares beyond the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedTable {
    /// The normalised table.
    pub table: Table,
    /// Declarations the model does not carry.
    pub features: Vec<Feature>,
}

/// [`parse_create_table`] with options, also returning the [`Feature`]s
/// the model does not carry.
pub fn parse_create_table_with(
    sql: &str,
    options: ParseOptions,
) -> Result<ParsedTable, DumpParseError> {
    let prepared = prepare(sql);
    let statements = Parser::parse_sql(&MySqlDialect {}, &prepared.sql)
        .map_err(|e| DumpParseError::new(None, format!("cannot parse: {e}")))?;
    match statements.as_slice() {
        [statement] => {
            let mut parsed = parsed_from_statement(statement, &prepared, options)?;
            if let Some(p) = &prepared.partitioning {
                parsed.table.kind = crate::model::TableKind::Partitioned(p.clone());
            }
            Ok(parsed)
        }
        other => Err(DumpParseError::new(
            None,
            format!(
                "expected one CREATE TABLE statement, found {} statements",
                other.len()
            ),
        )),
    }
}

/// The collation a server gives character set `charset` when no collation
/// is named: MariaDB 10.11 `utf8mb4_general_ci`, MySQL 8
/// `utf8mb4_0900_ai_ci`, TiDB `utf8mb4_bin` (and `*_general_ci` /
/// `latin1_swedish_ci` / `*_bin` for the other charsets).
pub fn server_default_collation(charset: &str, flavor: Flavor) -> String {
    let cs = crate::collation::canonical_charset(charset);
    match (flavor, cs.as_str()) {
        (_, "binary") => cs,
        (Flavor::TiDb, _) => format!("{cs}_bin"),
        (Flavor::MySql, "utf8mb4") => "utf8mb4_0900_ai_ci".into(),
        (Flavor::MySql | Flavor::MariaDb, "latin1") => "latin1_swedish_ci".into(),
        (Flavor::MySql | Flavor::MariaDb, _) => format!("{cs}_general_ci"),
    }
}

/// Text ready for sqlparser, plus what the pre-pass removed from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prepared {
    /// The SQL with version comments unwrapped and markers removed.
    pub sql: String,
    /// 0-based positions, among the constraint items of the table body (keys,
    /// indexes, CONSTRAINT / CHECK / FOREIGN KEY, in order: the order of
    /// sqlparser's `CreateTable::constraints`), of indexes marked invisible /
    /// ignored.
    pub hidden_constraints: BTreeSet<usize>,
    /// A `PARTITION BY ...` clause after the table options, cut from `sql`
    /// (sqlparser does not read MySQL partitioning).
    pub partitioning: Option<String>,
}

/// The textual pre-pass (see the module docs).
pub fn prepare(sql: &str) -> Prepared {
    let unwrapped = unwrap_comments(sql);
    let (body, partitioning) = cut_partitioning(&unwrapped);
    let mut prepared = strip_visibility(&body);
    prepared.partitioning = partitioning;
    prepared
}

/// Cuts `PARTITION BY ...` (at nesting depth 0, after the table body) off
/// the statement: returns the rest and the clause (whitespace collapsed).
fn cut_partitioning(sql: &str) -> (String, Option<String>) {
    let tokens = lex(sql);
    let mut depth = 0usize;
    let mut body_seen = false;
    let words: Vec<(usize, &str)> = tokens
        .iter()
        .enumerate()
        .filter(|(_, (k, _))| *k == Lex::Word)
        .map(|(n, (_, r))| (n, &sql[r.clone()]))
        .collect();
    for (n, (kind, range)) in tokens.iter().enumerate() {
        let text = &sql[range.clone()];
        match (kind, text) {
            (Lex::Char, "(") => depth += 1,
            (Lex::Char, ")") => {
                depth = depth.saturating_sub(1);
                body_seen |= depth == 0;
            }
            (Lex::Word, w) if depth == 0 && body_seen && w.eq_ignore_ascii_case("PARTITION") => {
                let next = words.iter().find(|(m, _)| *m > n).map(|(_, w)| *w);
                if next.is_some_and(|w| w.eq_ignore_ascii_case("BY")) {
                    let rest = sql[range.start..].trim_end();
                    let rest = rest.strip_suffix(';').unwrap_or(rest);
                    let clause = rest.split_whitespace().collect::<Vec<_>>().join(" ");
                    return (sql[..range.start].to_string(), Some(clause));
                }
            }
            _ => {}
        }
    }
    (sql.to_string(), None)
}

/// A lexical token of the pre-pass: enough to skip quoted text and comments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lex {
    /// A bare word (letters, digits, `_`, `$`).
    Word,
    /// `'...'`, `"..."` or `` `...` ``.
    Quoted,
    /// `/* ... */` (not executable), `-- ...`, `# ...`.
    Comment,
    /// `/*!NNNNN` opener of an executable comment.
    VersionOpen,
    /// `/*T![...] ... */`, whole.
    TidbComment,
    /// `*/`, closing an executable comment.
    CommentClose,
    /// Any other single character (including whitespace).
    Char,
}

/// Splits `sql` into (kind, byte range) tokens.
fn lex(sql: &str) -> Vec<(Lex, std::ops::Range<usize>)> {
    let b = sql.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let find = |from: usize, pat: &str| sql[from..].find(pat).map_or(sql.len(), |p| from + p);
    while i < b.len() {
        let start = i;
        let kind = match b[i] {
            q @ (b'\'' | b'"' | b'`') => {
                i += 1;
                while i < b.len() {
                    if b[i] == b'\\' && q != b'`' {
                        // Skip the escaped character whole (it may be multi-byte).
                        i += 1 + sql[i + 1..].chars().next().map_or(0, char::len_utf8);
                    } else if b[i] == q && b.get(i + 1) == Some(&q) {
                        i += 2;
                    } else if b[i] == q {
                        i += 1;
                        break;
                    } else {
                        i += 1;
                    }
                }
                Lex::Quoted
            }
            b'/' if sql[i..].starts_with("/*!") => {
                i += 3;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                Lex::VersionOpen
            }
            b'/' if sql[i..].starts_with("/*T!") => {
                i = (find(i, "*/") + 2).min(b.len());
                Lex::TidbComment
            }
            b'/' if sql[i..].starts_with("/*") => {
                i = (find(i + 2, "*/") + 2).min(b.len());
                Lex::Comment
            }
            b'*' if sql[i..].starts_with("*/") => {
                i += 2;
                Lex::CommentClose
            }
            b'-' if sql[i..].starts_with("-- ") || sql[i..].starts_with("--\n") => {
                i = find(i, "\n");
                Lex::Comment
            }
            b'#' => {
                i = find(i, "\n");
                Lex::Comment
            }
            c if c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80 => {
                while i < b.len()
                    && (b[i].is_ascii_alphanumeric()
                        || b[i] == b'_'
                        || b[i] == b'$'
                        || b[i] >= 0x80)
                {
                    i += 1;
                }
                Lex::Word
            }
            _ => {
                i += sql[i..].chars().next().map_or(1, char::len_utf8);
                Lex::Char
            }
        };
        out.push((kind, start..i));
    }
    out
}

/// Unwraps `/*!NNNNN content */` to ` content ` and drops `/*T![..] .. */`.
fn unwrap_comments(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut open_versions = 0usize;
    for (kind, range) in lex(sql) {
        match kind {
            Lex::VersionOpen => {
                open_versions += 1;
                out.push(' ');
            }
            Lex::CommentClose if open_versions > 0 => {
                open_versions -= 1;
                out.push(' ');
            }
            Lex::TidbComment => out.push(' '),
            _ => out.push_str(&sql[range]),
        }
    }
    out
}

/// Removes index visibility markers from the constraint items of the first
/// parenthesised group (the table body), remembering which were hidden
/// (`INVISIBLE`, `IGNORED`; `VISIBLE` and `NOT IGNORED` are the default and
/// just removed). Column items are not touched: a column-level `INVISIBLE`
/// (an invisible column) is left to sqlparser.
fn strip_visibility(sql: &str) -> Prepared {
    let tokens = lex(sql);
    let mut hidden_constraints = BTreeSet::new();
    let mut drop = vec![false; tokens.len()];
    let mut depth = 0usize;
    let mut body_done = false;
    let mut constraint_items = 0usize;
    let mut item_is_constraint = false;
    let mut item_started = false;
    let mut last_word: Option<usize> = None;
    for (n, (kind, range)) in tokens.iter().enumerate() {
        let text = &sql[range.clone()];
        match (kind, text) {
            (Lex::Char, "(") => {
                depth += 1;
                if depth == 1 {
                    item_started = false;
                }
            }
            (Lex::Char, ")") => {
                depth = depth.saturating_sub(1);
                body_done |= depth == 0;
            }
            (Lex::Char, ",") if depth == 1 && !body_done => item_started = false,
            (Lex::Word | Lex::Quoted, _) if depth == 1 && !body_done => {
                if !item_started {
                    item_started = true;
                    item_is_constraint = *kind == Lex::Word && is_constraint_start(text);
                    constraint_items += usize::from(item_is_constraint);
                } else if item_is_constraint && *kind == Lex::Word {
                    let item = constraint_items - 1;
                    let upper = text.to_ascii_uppercase();
                    let after_not = last_word
                        .is_some_and(|w| sql[tokens[w].1.clone()].eq_ignore_ascii_case("NOT"));
                    match upper.as_str() {
                        "INVISIBLE" | "IGNORED" if !(upper == "IGNORED" && after_not) => {
                            drop[n] = true;
                            hidden_constraints.insert(item);
                        }
                        "IGNORED" => {
                            drop[n] = true;
                            if let Some(w) = last_word {
                                drop[w] = true;
                            }
                        }
                        "VISIBLE" => drop[n] = true,
                        _ => {}
                    }
                }
                if *kind == Lex::Word {
                    last_word = Some(n);
                }
            }
            _ => {}
        }
    }
    let sql = tokens
        .iter()
        .zip(&drop)
        .map(|((_, range), dropped)| if *dropped { " " } else { &sql[range.clone()] })
        .collect();
    Prepared {
        sql,
        hidden_constraints,
        partitioning: None,
    }
}

/// Whether a table-body item starting with `word` is a constraint (an index,
/// key, check or foreign key) rather than a column.
fn is_constraint_start(word: &str) -> bool {
    [
        "KEY",
        "INDEX",
        "UNIQUE",
        "PRIMARY",
        "FULLTEXT",
        "SPATIAL",
        "CONSTRAINT",
        "CHECK",
        "FOREIGN",
    ]
    .iter()
    .any(|k| word.eq_ignore_ascii_case(k))
}

/// Whether a CHECK condition is a `json_valid(...)` call.
fn is_json_valid(expr: &Expr) -> bool {
    matches!(expr, Expr::Function(f) if f.name.to_string().eq_ignore_ascii_case("json_valid"))
}

/// Maps one parsed statement onto the model. `hidden_constraints` are
/// positions in `constraints` (see [`Prepared::hidden_constraints`]) whose
/// index is invisible.
pub fn table_from_statement(
    statement: &Statement,
    hidden_constraints: &BTreeSet<usize>,
) -> Result<Table, DumpParseError> {
    let prepared = Prepared {
        sql: String::new(),
        hidden_constraints: hidden_constraints.clone(),
        partitioning: None,
    };
    parsed_from_statement(statement, &prepared, ParseOptions::default()).map(|p| p.table)
}

fn parsed_from_statement(
    statement: &Statement,
    prepared: &Prepared,
    options: ParseOptions,
) -> Result<ParsedTable, DumpParseError> {
    let Statement::CreateTable(create) = statement else {
        return Err(DumpParseError::new(
            None,
            format!("expected CREATE TABLE, found: {statement}"),
        ));
    };
    let name = create
        .name
        .0
        .last()
        .and_then(|p| p.as_ident())
        .map(|i| i.value.clone())
        .ok_or_else(|| DumpParseError::new(None, "CREATE TABLE without a table name"))?;
    TableBuilder::new(&name, options).build(create, &prepared.hidden_constraints)
}

/// Accumulates the model of one table while walking its AST.
struct TableBuilder {
    name: String,
    columns: Vec<Column>,
    primary_key: Vec<IndexPart>,
    indexes: Vec<Index>,
    json_columns: BTreeSet<String>,
    checks: Vec<crate::model::Check>,
    options: ParseOptions,
    features: Vec<Feature>,
}

impl TableBuilder {
    fn new(name: &str, options: ParseOptions) -> Self {
        TableBuilder {
            name: name.to_string(),
            columns: Vec::new(),
            primary_key: Vec::new(),
            indexes: Vec::new(),
            json_columns: BTreeSet::new(),
            checks: Vec::new(),
            options,
            features: Vec::new(),
        }
    }

    fn feature(&mut self, object: String, what: String) {
        self.features.push(Feature { object, what });
    }

    /// The collation a bare `CHARACTER SET cs` means (see [`ParseOptions::flavor`]).
    fn charset_collation(&self, charset: &str) -> String {
        match self.options.flavor {
            Some(f) => server_default_collation(charset, f),
            None => default_collation(charset),
        }
    }

    fn err(&self, message: impl Into<String>) -> DumpParseError {
        DumpParseError::new(Some(&self.name), message)
    }

    fn build(
        mut self,
        create: &CreateTable,
        hidden_constraints: &BTreeSet<usize>,
    ) -> Result<ParsedTable, DumpParseError> {
        for def in &create.columns {
            let column = self.column(def)?;
            self.columns.push(column);
        }
        for (n, constraint) in create.constraints.iter().enumerate() {
            self.constraint(constraint, hidden_constraints.contains(&n))?;
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
            charset,
            collation,
            columns: std::mem::take(&mut self.columns),
            primary_key: std::mem::take(&mut self.primary_key),
            indexes: std::mem::take(&mut self.indexes),
            checks: std::mem::take(&mut self.checks),
            required_by: Vec::new(),
        };
        self.finish_columns(&mut table);
        table.normalize();
        let mut features = std::mem::take(&mut self.features);
        features.sort();
        Ok(ParsedTable { table, features })
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
    /// NOT NULL, inherited charsets and collations.
    fn finish_columns(&self, table: &mut Table) {
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
    }

    fn column(&mut self, def: &ColumnDef) -> Result<Column, DumpParseError> {
        let name = def.name.value.clone();
        let type_text = data_type_text(&def.data_type.to_string());
        let ty = match members_type(&def.data_type)
            .map_or_else(|| ColumnType::parse(&type_text), Ok)
        {
            Ok(ty) => ty,
            Err(_) if self.options.keep_other_types => ColumnType::Other(compact_type(&type_text)),
            Err(e) => return Err(self.err(format!("column `{name}`: unsupported type `{}`", e.0))),
        };
        let mut column = Column::new(name.as_str(), ty);
        for option in &def.options {
            self.column_option(&mut column, &option.option)?;
        }
        Ok(column)
    }

    fn column_option(
        &mut self,
        column: &mut Column,
        option: &ColumnOption,
    ) -> Result<(), DumpParseError> {
        let name = column.name.as_str().to_string();
        match option {
            ColumnOption::Null => column.nullable = true,
            ColumnOption::NotNull => column.nullable = false,
            ColumnOption::Default(expr) => column.default = default_value(expr),
            ColumnOption::CharacterSet(cs) => column.charset = Some(cs.to_string()),
            ColumnOption::Collation(co) => column.collation = Some(co.to_string()),
            ColumnOption::Comment(text) => column.comment = Some(text.clone()),
            ColumnOption::PrimaryKey(_) => {
                self.primary_key = vec![IndexPart::column(name.as_str())]
            }
            ColumnOption::Unique(_) => {
                let index_name = self.unused_index_name(&name);
                self.indexes
                    .push(Index::new(index_name.as_str(), true, &[name.as_str()]));
            }
            ColumnOption::Check(check) => self.note_check(None, &check.expr),
            ColumnOption::DialectSpecific(tokens) if is_auto_increment(tokens) => {
                column.auto_increment = true
            }
            ColumnOption::Generated {
                generation_expr: Some(expr),
                ..
            } => column.generated = Some(expr.to_string()),
            // `on_update: CURRENT_TIMESTAMP(p)`; any other value is not one
            // the catalog format has (import refuses it).
            ColumnOption::OnUpdate(expr) => {
                column.on_update = DefaultValue::parse_sql(&expr.to_string());
                if !matches!(column.on_update, Some(DefaultValue::CurrentTimestamp(_))) {
                    self.feature(format!("column `{name}`"), format!("ON UPDATE {expr}"))
                }
            }
            ColumnOption::Invisible => column.invisible = true,
            other => {
                return Err(self.err(format!(
                    "column `{name}`: unsupported column option `{other}`"
                )))
            }
        }
        Ok(())
    }

    /// Remembers `json_valid(col)` checks: the column is JSON (MariaDB).
    /// (See [`is_json_valid`].)
    /// Any other CHECK is a [`Feature`].
    fn note_check(&mut self, name: Option<&str>, expr: &Expr) {
        if let Expr::Function(f) = expr {
            if f.name.to_string().eq_ignore_ascii_case("json_valid") {
                let args = f.args.to_string();
                let col = args.trim_matches(|c| c == '(' || c == ')' || c == '`' || c == ' ');
                self.json_columns.insert(col.to_lowercase());
                return;
            }
        }
        let object = match name {
            Some(n) => format!("check `{n}`"),
            None => "check".to_string(),
        };
        self.feature(object, format!("CHECK ({expr})"));
    }

    fn constraint(
        &mut self,
        constraint: &TableConstraint,
        hidden: bool,
    ) -> Result<(), DumpParseError> {
        let index = match constraint {
            TableConstraint::PrimaryKey(pk) => {
                self.primary_key = self.parts(&pk.columns)?;
                return Ok(());
            }
            TableConstraint::Check(check) => {
                let name = check.name.as_ref().map(|n| n.value.clone());
                match name {
                    // A named table-level CHECK is format v2, unless it is
                    // MariaDB's json one (named after its column).
                    Some(n) if !is_json_valid(&check.expr) => {
                        self.checks.push(crate::model::Check {
                            name: Ident::new(n),
                            expression: check.expr.to_string(),
                        })
                    }
                    _ => self.note_check(name.as_deref(), &check.expr),
                }
                return Ok(());
            }
            TableConstraint::ForeignKey(fk) => {
                let object = match &fk.name {
                    Some(n) => format!("foreign key `{}`", n.value),
                    None => "foreign key".to_string(),
                };
                self.feature(object, constraint.to_string());
                return Ok(());
            }
            TableConstraint::Unique(u) => self.index(
                u.index_name.as_ref().or(u.name.as_ref()),
                true,
                IndexKind::BTree,
                &u.columns,
                &u.index_options,
            )?,
            TableConstraint::Index(i) => self.index(
                i.name.as_ref(),
                false,
                IndexKind::BTree,
                &i.columns,
                &i.index_options,
            )?,
            TableConstraint::FulltextOrSpatial(FullTextOrSpatialConstraint {
                fulltext,
                opt_index_name,
                columns,
                ..
            }) => {
                let kind = if *fulltext {
                    IndexKind::FullText
                } else {
                    IndexKind::Spatial
                };
                self.index(opt_index_name.as_ref(), false, kind, columns, &[])?
            }
            other => {
                self.feature("constraint".into(), other.to_string());
                return Ok(());
            }
        };
        self.indexes.push(Index {
            visible: !hidden,
            ..index
        });
        Ok(())
    }

    fn index(
        &self,
        name: Option<&sqlparser::ast::Ident>,
        unique: bool,
        kind: IndexKind,
        columns: &[IndexColumn],
        options: &[IndexOption],
    ) -> Result<Index, DumpParseError> {
        let parts = self.parts(columns)?;
        let name = match name {
            Some(n) => n.value.clone(),
            None => {
                let base = parts
                    .first()
                    .and_then(IndexPart::column_name)
                    .map_or("functional_index", Ident::as_str);
                self.unused_index_name(base)
            }
        };
        let comment = options.iter().find_map(|o| match o {
            IndexOption::Comment(c) => Some(c.clone()),
            IndexOption::Using(_) => None,
        });
        Ok(Index {
            name: Ident::new(name),
            unique,
            parts,
            kind,
            visible: true,
            comment,
            required_by: Vec::new(),
        })
    }

    /// MySQL's name for an unnamed index: the first column, then `_2`, `_3` ...
    fn unused_index_name(&self, base: &str) -> String {
        let taken = |n: &str| self.indexes.iter().any(|i| i.name == Ident::new(n));
        if !taken(base) {
            return base.to_string();
        }
        (2..)
            .map(|k| format!("{base}_{k}"))
            .find(|n| !taken(n))
            .unwrap_or_default()
    }

    fn parts(&self, columns: &[IndexColumn]) -> Result<Vec<IndexPart>, DumpParseError> {
        columns.iter().map(|c| self.part(c)).collect()
    }

    fn part(&self, column: &IndexColumn) -> Result<IndexPart, DumpParseError> {
        let descending = matches!(column.column.options.sort, Some(OrderBySort::Desc));
        match &column.column.expr {
            Expr::Identifier(id) => Ok(IndexPart::Column {
                name: Ident::new(id.value.clone()),
                prefix: None,
                descending,
            }),
            // `col(10)` parses as a call of `col` with one numeric argument.
            Expr::Function(f) => {
                let name = f
                    .name
                    .0
                    .last()
                    .and_then(|p| p.as_ident())
                    .map(|i| i.value.clone());
                let prefix = f
                    .args
                    .to_string()
                    .trim_matches(|c| c == '(' || c == ')')
                    .parse::<u32>()
                    .ok();
                match (name, prefix) {
                    (Some(name), Some(prefix)) => Ok(IndexPart::Column {
                        name: Ident::new(name),
                        prefix: Some(prefix),
                        descending,
                    }),
                    _ => Err(self.err(format!(
                        "unsupported index key part `{}`",
                        column.column.expr
                    ))),
                }
            }
            Expr::Nested(inner) => Ok(IndexPart::Expression(inner.to_string())),
            other => Err(self.err(format!("unsupported index key part `{other}`"))),
        }
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

/// A type text spelled like the server's COLUMN_TYPE: no space after the
/// commas of an argument list outside quotes (`enum('x', 'y')` is
/// `enum('x','y')`).
fn compact_type(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut quoted = false;
    let mut after_comma = false;
    for c in text.chars() {
        if !quoted && after_comma && c == ' ' {
            continue;
        }
        after_comma = !quoted && c == ',';
        if c == '\'' {
            quoted = !quoted;
        }
        out.push(c);
    }
    out
}

/// `enum(...)` / `set(...)` from the AST: members keep their case and
/// quotes (the type's text form is lowercased for the other types).
fn members_type(ty: &sqlparser::ast::DataType) -> Option<ColumnType> {
    use sqlparser::ast::{DataType, EnumMember};
    match ty {
        DataType::Enum(members, None) => members
            .iter()
            .map(|m| match m {
                EnumMember::Name(n) => Some(n.clone()),
                EnumMember::NamedValue(..) => None,
            })
            .collect::<Option<Vec<_>>>()
            .map(ColumnType::Enum),
        DataType::Set(members) => Some(ColumnType::Set(members.clone())),
        _ => None,
    }
}

/// sqlparser's spelling of a data type, made readable by [`ColumnType::parse`].
fn data_type_text(displayed: &str) -> String {
    let lower = displayed.to_ascii_lowercase();
    match lower.as_str() {
        "double precision" | "real" => "double".to_string(),
        _ => lower,
    }
}

/// A column default from its expression; `None` for `DEFAULT NULL`.
fn default_value(expr: &Expr) -> Option<DefaultValue> {
    match expr {
        // Read string literals from the AST: sqlparser prints them without
        // re-escaping backslashes, so their text form is not reliable.
        Expr::Value(v) => match &v.value {
            Value::SingleQuotedString(s) | Value::DoubleQuotedString(s) => {
                Some(DefaultValue::Literal(s.clone()))
            }
            _ => DefaultValue::parse_sql(&expr.to_string()),
        },
        _ => DefaultValue::parse_sql(&expr.to_string()),
    }
}

fn is_auto_increment(tokens: &[Token]) -> bool {
    tokens
        .iter()
        .any(|t| matches!(t, Token::Word(w) if w.value.eq_ignore_ascii_case("AUTO_INCREMENT")))
}

/// Table options the model keeps.
#[derive(Debug, Default)]
struct TableOptions {
    engine: Option<String>,
    charset: Option<String>,
    collation: Option<String>,
    comment: Option<String>,
    /// Options the model does not keep: (object, SQL text).
    other: Vec<(String, String)>,
}

impl TableOptions {
    fn read(options: &CreateTableOptions) -> TableOptions {
        let mut out = TableOptions::default();
        let list = match options {
            CreateTableOptions::None => return out,
            CreateTableOptions::With(l)
            | CreateTableOptions::Options(l)
            | CreateTableOptions::Plain(l)
            | CreateTableOptions::TableProperties(l) => l,
        };
        for option in list {
            out.apply(option);
        }
        out
    }

    fn apply(&mut self, option: &SqlOption) {
        match option {
            SqlOption::KeyValue { key, value } => {
                let key = key.to_string().to_ascii_uppercase();
                let key = key
                    .strip_prefix("DEFAULT ")
                    .unwrap_or(&key)
                    .trim()
                    .to_string();
                let value = option_value(value);
                match key.as_str() {
                    "ENGINE" => self.engine = Some(value),
                    "CHARSET" | "CHARACTER SET" => self.charset = Some(value),
                    "COLLATE" => self.collation = Some(value),
                    // The next id is data, not shape.
                    "AUTO_INCREMENT" => {}
                    _ => self
                        .other
                        .push((format!("table option {key}"), option.to_string())),
                }
            }
            SqlOption::NamedParenthesizedList(l) if l.key.value.eq_ignore_ascii_case("ENGINE") => {
                self.engine = l.name.as_ref().map(|n| n.value.clone());
            }
            SqlOption::Comment(c) => {
                self.comment = Some(match c {
                    sqlparser::ast::CommentDef::WithEq(s)
                    | sqlparser::ast::CommentDef::WithoutEq(s) => s.clone(),
                });
            }
            other => self
                .other
                .push(("table option".to_string(), other.to_string())),
        }
    }
}

/// The text of an option value: identifiers and strings unquoted.
fn option_value(value: &Expr) -> String {
    match value {
        Expr::Identifier(id) => id.value.clone(),
        Expr::Value(v) => match &v.value {
            Value::SingleQuotedString(s) | Value::DoubleQuotedString(s) => s.clone(),
            _ => value.to_string(),
        },
        _ => value.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_comments_are_unwrapped_and_tidb_markers_dropped() {
        let p = prepare("CREATE TABLE t (a int, PRIMARY KEY (a) /*T![clustered_index] CLUSTERED */, KEY i (a) /*!80000 INVISIBLE */) /*!50100 COMMENT='x */ y' */");
        assert_eq!(p.hidden_constraints, BTreeSet::from([1]));
        assert!(!p.sql.contains("CLUSTERED"), "{}", p.sql);
        assert!(p.sql.contains("COMMENT='x */ y'"), "{}", p.sql);
        assert!(!p.sql.contains("/*"), "{}", p.sql);
    }

    #[test]
    fn lexer_survives_escapes_at_the_end_and_multibyte_text() {
        for sql in ["'abc\\", "'\\é' `é` é /*!", "\"x\\\"é\" -- é"] {
            let _ = prepare(sql);
        }
        assert_eq!(
            prepare("CREATE TABLE é (`é` int COMMENT '\\é')").sql,
            "CREATE TABLE é (`é` int COMMENT '\\é')"
        );
    }

    #[test]
    fn visibility_markers_only_touch_indexes() {
        let p = prepare("CREATE TABLE t (`IGNORED` int COMMENT 'INVISIBLE', KEY i (a) NOT IGNORED, KEY j (`IGNORED`) IGNORED)");
        assert_eq!(p.hidden_constraints, BTreeSet::from([1]));
        assert!(
            p.sql.contains("`IGNORED` int COMMENT 'INVISIBLE'"),
            "{}",
            p.sql
        );
        assert!(!p.sql.contains("NOT"), "{}", p.sql);
    }

    #[test]
    fn parses_prefix_desc_and_expression_parts() {
        let t = parse_create_table(
            "CREATE TABLE t (a varchar(20), b int, KEY i (a(10) DESC, b), KEY e ((lower(a)))) DEFAULT CHARSET=utf8mb4",
        )
        .unwrap();
        assert_eq!(
            t.indexes[0].parts,
            vec![
                IndexPart::Column {
                    name: "a".into(),
                    prefix: Some(10),
                    descending: true
                },
                IndexPart::column("b")
            ]
        );
        assert_eq!(
            t.indexes[1].parts,
            vec![IndexPart::Expression("lower(a)".into())]
        );
        assert_eq!(t.collation, "utf8mb4_bin");
        assert_eq!(t.columns[0].collation.as_deref(), Some("utf8mb4_bin"));
    }

    #[test]
    fn errors_name_the_table_and_column() {
        let e =
            parse_create_table("CREATE TABLE t (a geometry) DEFAULT CHARSET=utf8mb4").unwrap_err();
        assert_eq!(
            e.to_string(),
            "table `t`: column `a`: unsupported type `geometry`"
        );
        assert!(parse_create_table("SELECT 1").is_err());
    }
}
