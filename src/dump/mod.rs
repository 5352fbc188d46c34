//! Parsing `CREATE TABLE` text (as rendered by [`crate::ddl`], or as printed
//! by `SHOW CREATE TABLE` on MySQL, MariaDB and TiDB) into the typed model.
//!
//! Parsing runs in two stages:
//! 1. a pre-pass (`prepass`, over the lexemes of `sql::lex`, which
//!    sqlparser then parses: the statement is lexed once) that
//!    handles what sqlparser cannot:
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
//! `CREATE TABLE` through the same two stages (see `reader`).
//!
//! Files: `prepass` (stage 1), `builder` (stage 2's table-level walk),
//! `columns`, `constraints` and `options` (the AST pieces), `reader` (dumps).

mod builder;
mod columns;
mod constraints;
mod lexeme_text;
mod options;
mod prepass;
mod reader;
mod split;
mod tidb;

pub(crate) use prepass::Prepared;
pub use reader::{detect_flavor, parse_dump, read_dump, Dump, TableFeature};
pub(crate) use reader::{joined, parse_dump_on};

use builder::TableBuilder;

use sqlparser::ast::Statement;
use sqlparser::dialect::MySqlDialect;
use sqlparser::parser::Parser;

#[cfg(doc)]
use crate::collation::default_collation;
use crate::ident::Ident;
use crate::model::Table;
use crate::server::Flavor;
use crate::sql::lex::{lex, Kind, Lexeme};

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
/// normalised [`Table`].
///
/// A textual column without its own collation inherits the table's default
/// collation when it has no charset or the table's charset; with another
/// charset only, it gets the default collation of that charset. When only a
/// collation is given, the charset is derived from it.
pub fn parse_create_table(sql: &str) -> Result<Table, DumpParseError> {
    parse_create_table_with(sql, ParseOptions::default()).map(|p| p.table)
}

/// A table from its `CREATE TABLE` text, for unit tests instead of a
/// hand-built model: [`parse_create_table`]'s reading (flavor-independent),
/// panicking with the text when it does not parse.
#[cfg(test)]
pub(crate) fn table(sql: &str) -> Table {
    parse_create_table(sql).unwrap_or_else(|e| panic!("{e}\n{sql}"))
}

/// [`table`] as `flavor`'s text reads (its column-level CHECKs, its
/// charset defaults): [`parse_create_table_with`] for that server.
#[cfg(test)]
pub(crate) fn table_on(flavor: Flavor, sql: &str) -> Table {
    parse_create_table_with(sql, ParseOptions::default().flavor(flavor))
        .map(|p| p.table)
        .unwrap_or_else(|e| panic!("{e}\n{sql}"))
}

/// [`table`] of `CREATE TABLE `t` (items)` in a table whose default
/// collation is utf8mb4_bin.
#[cfg(test)]
fn table_of(items: &str) -> Table {
    table(&format!(
        "CREATE TABLE `t` ({items}) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
    ))
}

/// The one column `definition` declares (`` `c` varchar(16) NOT NULL ``),
/// read in a table `t` of default collation utf8mb4_bin: for unit tests
/// of a column alone.
#[cfg(test)]
pub(crate) fn column(definition: &str) -> crate::model::Column {
    match <[_; 1]>::try_from(table_of(definition).columns) {
        Ok([column]) => column,
        Err(columns) => panic!("{} columns, not one: {definition}", columns.len()),
    }
}

/// The one index that `items` (a table's columns and one key:
/// `` `a` int, KEY `ix` (`a`) ``) declare, read in a table `t` of default
/// collation utf8mb4_bin: for unit tests of an index alone.
#[cfg(test)]
pub(crate) fn index(items: &str) -> crate::model::Index {
    match <[_; 1]>::try_from(table_of(items).indexes) {
        Ok([index]) => index,
        Err(indexes) => panic!("{} indexes, not one: {items}", indexes.len()),
    }
}

/// How [`parse_create_table_with`] reads a statement:
/// `ParseOptions::default()` and the builder methods (one per field, same
/// name); new fields may be added.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParseOptions {
    /// The server the text comes from. It decides which collation a bare
    /// `CHARACTER SET cs` (without `COLLATE`) means: the server's default
    /// collation of `cs` (`server_default_collation`). `None`: the
    /// charset's binary collation, flavor-independent.
    pub flavor: Option<Flavor>,
    /// Keep a column type outside the catalog's types as
    /// `ColumnType::Other` (as live inspection does) instead of failing.
    pub keep_other_types: bool,
}

impl ParseOptions {
    /// Sets [`ParseOptions::flavor`].
    pub fn flavor(mut self, flavor: impl Into<Option<Flavor>>) -> Self {
        self.flavor = flavor.into();
        self
    }
    /// Sets [`ParseOptions::keep_other_types`].
    pub fn keep_other_types(mut self, yes: bool) -> Self {
        self.keep_other_types = yes;
        self
    }
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
    /// The textual columns whose definition writes `CHARACTER SET` or
    /// `COLLATE`, in column order, with which. The model carries the
    /// resulting collation only; MySQL also remembers that one was stated
    /// in DDL and prints it ever after, even when it is the table's own
    /// (the net compares the text: see `inspect::net`).
    pub collation_clauses: Vec<(Ident, crate::model::CollationClauses)>,
}

/// [`parse_create_table`] with options, also returning the [`Feature`]s
/// the model does not carry.
pub fn parse_create_table_with(
    sql: &str,
    options: ParseOptions,
) -> Result<ParsedTable, DumpParseError> {
    parse_lexed(sql, lex(sql), options)
}

/// [`parse_create_table_with`] of a statement already lexed (`lexemes`,
/// ranges in `sql`): the pre-pass and sqlparser read these lexemes.
pub(crate) fn parse_lexed(
    sql: &str,
    lexemes: Vec<Lexeme>,
    options: ParseOptions,
) -> Result<ParsedTable, DumpParseError> {
    let (prepared, lexemes) = prepass::prepare_lexemes(sql, lexemes);
    let cannot_parse =
        |e: sqlparser::parser::ParserError| DumpParseError::new(None, format!("cannot parse: {e}"));
    let statements = if lexemes.iter().any(|l| l.kind == Kind::Unreadable) {
        // Unreadable text: the tokenizer's own error (or what it reads).
        crate::sql::lex::hinted_tokens(&prepass::text(sql, &lexemes))
            .map_err(sqlparser::parser::ParserError::from)
            .and_then(|tokens| {
                Parser::new(&MySqlDialect {})
                    .with_tokens_with_locations(tokens)
                    .parse_statements()
            })
    } else {
        Parser::new(&MySqlDialect {})
            .with_tokens_with_locations(prepass::parser_tokens(sql, lexemes))
            .parse_statements()
    }
    .map_err(cannot_parse)?;
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
/// is named: the vendor's rule, [`Flavor::default_collation`].
pub(crate) fn server_default_collation(charset: &str, flavor: Flavor) -> String {
    let cs = crate::collation::canonical_charset(charset);
    flavor.default_collation(&cs)
}

/// The TiDB table features of a `CREATE TABLE` text as TiDB's `SHOW CREATE
/// TABLE` prints it (its `/*T![...] */` comments); an error names a clause
/// that is not TiDB's grammar or a feature comment the model does not read.
pub(crate) fn tidb_options(sql: &str) -> Result<crate::tidb::TidbOptions, String> {
    let (prepared, _) = prepass::prepare_lexemes(sql, lex(sql));
    if let Some(e) = prepared.tidb_error {
        return Err(e);
    }
    if let Some((id, text)) = prepared.tidb_unknown.first() {
        return Err(format!(
            "TiDB feature `{id}` ({text}) is not one the catalog models"
        ));
    }
    Ok(prepared.tidb.unwrap_or_default())
}

fn parsed_from_statement(
    statement: &Statement,
    prepared: &Prepared,
    options: ParseOptions,
) -> Result<ParsedTable, DumpParseError> {
    let Statement::CreateTable(create) = statement else {
        return Err(DumpParseError::new(
            None,
            format!(
                "expected CREATE TABLE, found: {}",
                crate::sql::print::node(statement)
            ),
        ));
    };
    let name = create
        .name
        .0
        .last()
        .and_then(|p| p.as_ident())
        .map(|i| i.value.clone())
        .ok_or_else(|| DumpParseError::new(None, "CREATE TABLE without a table name"))?;
    let mut builder = TableBuilder::new(&name, options);
    if let Some(e) = &prepared.tidb_error {
        return Err(builder.err(e.clone()));
    }
    // Read from TiDB, a table has TiDB options even when it declares none.
    builder.tidb = match (&prepared.tidb, options.flavor) {
        (Some(t), _) => Some(t.clone()),
        (None, Some(f)) if f.has_tidb_table_options() => Some(crate::tidb::TidbOptions::default()),
        (None, _) => None,
    };
    for (id, text) in &prepared.tidb_unknown {
        builder.feature(format!("TiDB feature `{id}`"), text.clone());
    }
    builder.build(create, prepared)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::IndexPart;

    /// A foreign key as SHOW CREATE TABLE prints it: an omitted action is
    /// the server's default (MariaDB omits RESTRICT, MySQL NO ACTION), a
    /// qualified referenced table keeps its schema, keys sorted by name.
    #[test]
    fn foreign_keys_read_with_the_servers_default_action() {
        let sql = "CREATE TABLE c (a int, b int, KEY (a), KEY (b), \
            CONSTRAINT z_fk FOREIGN KEY (a) REFERENCES p (id) ON UPDATE CASCADE, \
            CONSTRAINT a_fk FOREIGN KEY (b) REFERENCES other.p (id) ON DELETE SET DEFAULT) DEFAULT CHARSET=utf8mb4";
        let read = |flavor| {
            let options = ParseOptions {
                flavor,
                keep_other_types: false,
            };
            parse_create_table_with(sql, options)
                .unwrap()
                .table
                .foreign_keys
        };
        let maria = read(Some(Flavor::MariaDb));
        let names: Vec<&str> = maria.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["a_fk", "z_fk"]);
        assert_eq!(
            crate::ddl::foreign_key_definition(&maria[1]),
            "CONSTRAINT `z_fk` FOREIGN KEY (`a`) REFERENCES `p` (`id`) ON DELETE RESTRICT ON UPDATE CASCADE"
        );
        assert_eq!(
            crate::ddl::foreign_key_definition(&maria[0]),
            "CONSTRAINT `a_fk` FOREIGN KEY (`b`) REFERENCES `other`.`p` (`id`) ON DELETE SET DEFAULT ON UPDATE RESTRICT"
        );
        let mysql = read(Some(Flavor::MySql));
        assert_eq!(
            mysql[1].on_delete,
            crate::model::ReferentialAction::NoAction
        );
        assert_eq!(
            read(None)[1].on_delete,
            crate::model::ReferentialAction::NoAction
        );
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

    /// Every place the dump reader reads a name, a number or a text from
    /// the AST keeps a backslash (sqlparser's `Display` would print the
    /// string `x\y` as `'x\y'`, which MySQL reads as `xy`): names and
    /// numbers are read, texts printed by `sql::print`.
    #[test]
    fn backslashes_survive_every_dump_site() {
        let read = |sql: &str, flavor| {
            let options = ParseOptions {
                flavor,
                keep_other_types: false,
            };
            parse_create_table_with(sql, options)
        };
        let what = |p: &ParsedTable, object: &str| {
            p.features
                .iter()
                .find(|f| f.object == object)
                .unwrap_or_else(|| panic!("no feature {object}: {:?}", p.features))
                .what
                .clone()
        };
        // An unsupported foreign key (MATCH FULL), its names with backslashes.
        let p = read(
            r"CREATE TABLE `c\1` (`a\b` int, KEY (`a\b`), CONSTRAINT `f\k` FOREIGN KEY (`a\b`) REFERENCES `p\q` (`i\d`) MATCH FULL) DEFAULT CHARSET=utf8mb4",
            Some(Flavor::MySql),
        )
        .unwrap();
        assert_eq!(
            what(&p, r"foreign key `f\k`"),
            r"CONSTRAINT `f\k` FOREIGN KEY (`a\b`) REFERENCES `p\q`(`i\d`) MATCH FULL"
        );
        // MariaDB's json: a json_valid check on a column named with a backslash.
        let p = read(
            r"CREATE TABLE t (`j\x` longtext CHECK (json_valid(`j\x`)), `k` longtext, CONSTRAINT `k` CHECK (json_valid(`k`))) DEFAULT CHARSET=utf8mb4",
            Some(Flavor::MariaDb),
        )
        .unwrap();
        assert_eq!(p.table.columns[0].name.as_str(), r"j\x");
        assert_eq!(p.table.columns[0].ty, crate::coltype::ColumnType::Json);
        assert_eq!(p.table.columns[1].ty, crate::coltype::ColumnType::Json);
        assert!(p.features.is_empty(), "{:?}", p.features);
        // A prefix key part of a column named with a backslash.
        let p = read(
            r"CREATE TABLE t (`a\b` varchar(20), KEY `i\1` (`a\b`(10))) DEFAULT CHARSET=utf8mb4",
            None,
        )
        .unwrap();
        assert_eq!(
            p.table.indexes[0].parts,
            vec![crate::model::IndexPart::Column {
                name: r"a\b".into(),
                prefix: Some(10),
                descending: false
            }]
        );
        // A table option the model does not keep: its string re-escaped.
        let p = read(
            r"CREATE TABLE t (a int) DEFAULT CHARSET=utf8mb4 CONNECTION='x\\y' DATA DIRECTORY='C:\\d'",
            None,
        )
        .unwrap();
        assert_eq!(what(&p, "table option CONNECTION"), r"CONNECTION = 'x\\y'");
        assert_eq!(
            what(&p, "table option DATA DIRECTORY"),
            r"DATA DIRECTORY = 'C:\\d'"
        );
        // A CHECK the model does not carry (MySQL, unnamed json_valid on
        // longtext is a CHECK there) and an ON UPDATE it cannot express.
        let p = read(
            r"CREATE TABLE t (a longtext, b datetime ON UPDATE now(), CHECK (a <> 'x\\y')) DEFAULT CHARSET=utf8mb4",
            None,
        )
        .unwrap();
        assert_eq!(what(&p, "check"), r"CHECK (a <> 'x\\y')");
        // Error texts: an unsupported key part, a statement that is not CREATE TABLE.
        let e = read(
            r"CREATE TABLE t (a varchar(9), KEY k (a + 'x\\y')) DEFAULT CHARSET=utf8mb4",
            None,
        )
        .unwrap_err();
        assert!(
            e.to_string()
                .ends_with(r"unsupported index key part `a + 'x\\y'`"),
            "{e}"
        );
        let e = read(r"SELECT 'x\\y'", None).unwrap_err();
        assert_eq!(
            e.to_string(),
            r"expected CREATE TABLE, found: SELECT 'x\\y'"
        );
        // Column charset and collation are the names as written, unquoted.
        let p = read(
            "CREATE TABLE t (a varchar(9) CHARACTER SET `latin1` COLLATE `latin1_bin`) DEFAULT CHARSET=utf8mb4",
            None,
        )
        .unwrap();
        assert_eq!(p.table.columns[0].charset.as_deref(), Some("latin1"));
        assert_eq!(p.table.columns[0].collation.as_deref(), Some("latin1_bin"));
        // An enum member with a backslash, kept as another type.
        let p = read(
            r"CREATE TABLE t (a enum('x\\y') CHARACTER SET utf8mb4) DEFAULT CHARSET=utf8mb4",
            None,
        )
        .unwrap();
        assert_eq!(
            p.table.columns[0].ty,
            crate::coltype::ColumnType::Enum(vec![r"x\y".to_string()])
        );
    }

    #[test]
    fn errors_name_the_table_and_column() {
        let e =
            parse_create_table("CREATE TABLE t (a decimal(10,2) unsigned) DEFAULT CHARSET=utf8mb4")
                .unwrap_err();
        assert_eq!(
            e.to_string(),
            "table `t`: column `a`: unsupported type `decimal(10,2) unsigned`"
        );
        assert!(parse_create_table("SELECT 1").is_err());
    }
}
