//! The one list of every attribute: each information_schema
//! column of the tables the inspection reads, on MariaDB 10.11 and MySQL
//! 9.7, and each table option a `CREATE TABLE` can carry, is either
//! compared (a difference is drift of the named kinds) or outside the
//! contract, with the reason. docs/apply.md "What counts as drift" is this
//! table ([`markdown`]; a unit test keeps the two equal), and
//! tests/it/attributes_live.rs fails when a server shows a column of those
//! tables that is in neither list.

use crate::finding::drift::ProblemKind;

/// Where an attribute is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A column of `information_schema.<table>`.
    InformationSchema(&'static str),
    /// A table option of `CREATE TABLE` (shown in TABLES.CREATE_OPTIONS
    /// when given explicitly; some only in `SHOW CREATE TABLE`).
    TableOption,
    /// A clause of a column's definition that only `SHOW CREATE TABLE`
    /// shows (what information_schema shows of a column is listed under
    /// COLUMNS).
    ColumnClause,
    /// A key option that only `SHOW CREATE TABLE` shows (what
    /// information_schema shows of an index is listed under STATISTICS).
    KeyOption,
    /// A clause of the table's body or tail, other than its options, that
    /// only `SHOW CREATE TABLE` shows.
    TableClause,
}

impl Source {
    /// Whether the attribute is read from `SHOW CREATE TABLE` text (by
    /// the regenerate-and-compare net, `crate::inspect`), not from
    /// information_schema.
    pub fn is_show_create(self) -> bool {
        !matches!(self, Source::InformationSchema(_))
    }
}

/// What the inspection does with an attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// Compared: a difference is drift (or missing) of these kinds.
    Compared(&'static [ProblemKind]),
    /// Outside the contract, for this reason.
    OutOfContract(&'static str),
}

impl Attribute {
    /// Whether a table that has the attribute is refused whatever the
    /// catalog says (`unrecognised`): outside the contract because the
    /// catalog cannot declare it, so present (given explicitly) it is
    /// never the catalog's table. Such a reason starts with "refused".
    pub fn refuses_the_table(&self) -> bool {
        matches!(self.rule, Rule::OutOfContract(why) if why.starts_with("refused"))
    }
}

/// One attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attribute {
    /// Where it is read.
    pub source: Source,
    /// The column or option name, as the server spells it.
    pub name: &'static str,
    /// Compared or not, and why.
    pub rule: Rule,
}

use ProblemKind as K;
use Rule::{Compared, OutOfContract};
use Source::{
    ColumnClause as Col, InformationSchema as Is, KeyOption as Key, TableClause as Clause,
    TableOption as Opt,
};

const fn a(source: Source, name: &'static str, rule: Rule) -> Attribute {
    Attribute { source, name, rule }
}

const NAME: &str = "identifies the object (the catalog names it; names compare case-insensitively)";
const CATALOG: &str = "the catalog (`def`): one per server";
const SCHEMA: &str = "the schema apply was pointed at";
const STATS: &str = "a statistic or counter the server keeps, not shape";
const DERIVED: &str = "derived from COLUMN_TYPE, which is compared";
const EXPLICIT_ONLY: &str = "refused when given explicitly (`unrecognised`: the catalog cannot declare it); the implicit value is the engine's or server's default";
const SHOWN_ONLY: &str = "refused when present (`unrecognised`: only SHOW CREATE TABLE shows it, and the regenerate-and-compare net names it; the catalog cannot declare it)";

/// Every attribute, information_schema columns first (by table), then
/// table options.
pub const ATTRIBUTES: &[Attribute] = &[
    // TABLES
    a(Is("TABLES"), "TABLE_CATALOG", OutOfContract(CATALOG)),
    a(Is("TABLES"), "TABLE_SCHEMA", OutOfContract(SCHEMA)),
    a(Is("TABLES"), "TABLE_NAME", OutOfContract(NAME)),
    a(Is("TABLES"), "TABLE_TYPE", Compared(&[K::NotATable, K::MissingTable])),
    a(Is("TABLES"), "ENGINE", Compared(&[K::TableEngine])),
    a(Is("TABLES"), "VERSION", OutOfContract("the .frm format version")),
    a(Is("TABLES"), "ROW_FORMAT", OutOfContract("the effective row format, read into the model (`Table::row_format`) for the widening rule table (\"Online widenings\"), not compared: an explicit ROW_FORMAT shows in CREATE_OPTIONS and is refused (`unrecognised`) unless it is InnoDB's default DYNAMIC (the same table, accepted with an import note), the implicit one is the server's innodb_default_row_format")),
    a(Is("TABLES"), "TABLE_ROWS", OutOfContract(STATS)),
    a(Is("TABLES"), "AVG_ROW_LENGTH", OutOfContract(STATS)),
    a(Is("TABLES"), "DATA_LENGTH", OutOfContract(STATS)),
    a(Is("TABLES"), "MAX_DATA_LENGTH", OutOfContract(STATS)),
    a(Is("TABLES"), "INDEX_LENGTH", OutOfContract(STATS)),
    a(Is("TABLES"), "DATA_FREE", OutOfContract(STATS)),
    a(Is("TABLES"), "AUTO_INCREMENT", OutOfContract("the next id is data, not shape")),
    a(Is("TABLES"), "CREATE_TIME", OutOfContract(STATS)),
    a(Is("TABLES"), "UPDATE_TIME", OutOfContract(STATS)),
    a(Is("TABLES"), "CHECK_TIME", OutOfContract(STATS)),
    a(Is("TABLES"), "TABLE_COLLATION", Compared(&[K::TableCollation])),
    a(Is("TABLES"), "CHECKSUM", OutOfContract("the live checksum value; the CHECKSUM=1 option shows in CREATE_OPTIONS and is refused")),
    a(Is("TABLES"), "CREATE_OPTIONS", Compared(&[K::Unrecognised, K::Partitioned])),
    a(Is("TABLES"), "TABLE_COMMENT", OutOfContract("informational: apply never rewrites a comment, and a comment changes no behaviour")),
    a(Is("TABLES"), "MAX_INDEX_LENGTH", OutOfContract("MariaDB: the engine's limit, not the table's (the catalog lints key lengths itself)")),
    a(Is("TABLES"), "TEMPORARY", OutOfContract("MariaDB: temporary tables are session objects, never a catalog table")),
    // COLUMNS
    a(Is("COLUMNS"), "TABLE_CATALOG", OutOfContract(CATALOG)),
    a(Is("COLUMNS"), "TABLE_SCHEMA", OutOfContract(SCHEMA)),
    a(Is("COLUMNS"), "TABLE_NAME", OutOfContract(NAME)),
    a(Is("COLUMNS"), "COLUMN_NAME", Compared(&[K::MissingColumn, K::MissingNotNullColumn, K::UnmanagedColumn])),
    a(Is("COLUMNS"), "ORDINAL_POSITION", OutOfContract("column order: apply adds a column after its catalog predecessor but never moves one (the release review reports a moved column)")),
    a(Is("COLUMNS"), "COLUMN_DEFAULT", Compared(&[K::ColumnDefault])),
    a(Is("COLUMNS"), "IS_NULLABLE", Compared(&[K::ColumnNullability])),
    a(Is("COLUMNS"), "DATA_TYPE", OutOfContract(DERIVED)),
    a(Is("COLUMNS"), "CHARACTER_MAXIMUM_LENGTH", OutOfContract(DERIVED)),
    a(Is("COLUMNS"), "CHARACTER_OCTET_LENGTH", OutOfContract(DERIVED)),
    a(Is("COLUMNS"), "NUMERIC_PRECISION", OutOfContract(DERIVED)),
    a(Is("COLUMNS"), "NUMERIC_SCALE", OutOfContract(DERIVED)),
    a(Is("COLUMNS"), "DATETIME_PRECISION", OutOfContract(DERIVED)),
    a(Is("COLUMNS"), "CHARACTER_SET_NAME", Compared(&[K::ColumnCollation])),
    a(Is("COLUMNS"), "COLLATION_NAME", Compared(&[K::ColumnCollation])),
    a(Is("COLUMNS"), "COLUMN_TYPE", Compared(&[K::ColumnType])),
    a(Is("COLUMNS"), "COLUMN_KEY", OutOfContract("derived from the indexes, which are compared")),
    a(Is("COLUMNS"), "EXTRA", Compared(&[K::ColumnAutoIncrement, K::ColumnOnUpdate, K::ColumnInvisible, K::ColumnGenerated, K::ColumnGeneratedStored])),
    a(Is("COLUMNS"), "PRIVILEGES", OutOfContract("the reading user's grants, not the table's shape")),
    a(Is("COLUMNS"), "COLUMN_COMMENT", OutOfContract("informational: apply never rewrites a comment, and a comment changes no behaviour")),
    a(Is("COLUMNS"), "IS_GENERATED", OutOfContract("MariaDB: derived from EXTRA and GENERATION_EXPRESSION, which are compared")),
    a(Is("COLUMNS"), "GENERATION_EXPRESSION", Compared(&[K::ColumnGeneratedExpression])),
    a(Is("COLUMNS"), "SRS_ID", Compared(&[K::ColumnType])),
    // STATISTICS
    a(Is("STATISTICS"), "TABLE_CATALOG", OutOfContract(CATALOG)),
    a(Is("STATISTICS"), "TABLE_SCHEMA", OutOfContract(SCHEMA)),
    a(Is("STATISTICS"), "TABLE_NAME", OutOfContract(NAME)),
    a(Is("STATISTICS"), "NON_UNIQUE", Compared(&[K::IndexUniqueness])),
    a(Is("STATISTICS"), "INDEX_SCHEMA", OutOfContract(SCHEMA)),
    a(Is("STATISTICS"), "INDEX_NAME", Compared(&[K::MissingIndex, K::UnmanagedIndex, K::PrimaryKey])),
    a(Is("STATISTICS"), "SEQ_IN_INDEX", Compared(&[K::IndexOrder, K::IndexColumns, K::PrimaryKey])),
    a(Is("STATISTICS"), "COLUMN_NAME", Compared(&[K::IndexColumns, K::PrimaryKey])),
    a(Is("STATISTICS"), "COLLATION", Compared(&[K::IndexOrder])),
    a(Is("STATISTICS"), "CARDINALITY", OutOfContract(STATS)),
    a(Is("STATISTICS"), "SUB_PART", Compared(&[K::IndexPrefix])),
    a(Is("STATISTICS"), "PACKED", OutOfContract("MyISAM key packing: set by PACK_KEYS, which shows in CREATE_OPTIONS and is refused")),
    a(Is("STATISTICS"), "NULLABLE", OutOfContract("derived from the column's IS_NULLABLE, which is compared")),
    a(Is("STATISTICS"), "INDEX_TYPE", Compared(&[K::IndexKind])),
    a(Is("STATISTICS"), "COMMENT", OutOfContract("the engine's note (`disabled`), never set by DDL the catalog renders")),
    a(Is("STATISTICS"), "INDEX_COMMENT", OutOfContract("informational: apply never rewrites a comment, and a comment changes no behaviour")),
    a(Is("STATISTICS"), "IGNORED", Compared(&[K::IndexInvisible])),
    a(Is("STATISTICS"), "IS_VISIBLE", Compared(&[K::IndexInvisible])),
    a(Is("STATISTICS"), "EXPRESSION", Compared(&[K::IndexExpression])),
    // TABLE_CONSTRAINTS
    a(Is("TABLE_CONSTRAINTS"), "CONSTRAINT_CATALOG", OutOfContract(CATALOG)),
    a(Is("TABLE_CONSTRAINTS"), "CONSTRAINT_SCHEMA", OutOfContract(SCHEMA)),
    a(Is("TABLE_CONSTRAINTS"), "CONSTRAINT_NAME", Compared(&[K::CheckNotOnline, K::ForeignKeyNotOnline, K::UnmanagedForeignKey])),
    a(Is("TABLE_CONSTRAINTS"), "TABLE_SCHEMA", OutOfContract(SCHEMA)),
    a(Is("TABLE_CONSTRAINTS"), "TABLE_NAME", OutOfContract(NAME)),
    a(Is("TABLE_CONSTRAINTS"), "CONSTRAINT_TYPE", Compared(&[K::CheckNotOnline, K::IndexUniqueness])),
    a(Is("TABLE_CONSTRAINTS"), "ENFORCED", Compared(&[K::CheckEnforcement])),
    // CHECK_CONSTRAINTS
    a(Is("CHECK_CONSTRAINTS"), "CONSTRAINT_CATALOG", OutOfContract(CATALOG)),
    a(Is("CHECK_CONSTRAINTS"), "CONSTRAINT_SCHEMA", OutOfContract(SCHEMA)),
    a(Is("CHECK_CONSTRAINTS"), "TABLE_NAME", OutOfContract(NAME)),
    a(Is("CHECK_CONSTRAINTS"), "CONSTRAINT_NAME", Compared(&[K::CheckNotOnline])),
    a(Is("CHECK_CONSTRAINTS"), "LEVEL", Compared(&[K::CheckLevel])),
    a(Is("CHECK_CONSTRAINTS"), "CHECK_CLAUSE", Compared(&[K::CheckExpression])),
    // KEY_COLUMN_USAGE
    a(Is("KEY_COLUMN_USAGE"), "CONSTRAINT_CATALOG", OutOfContract(CATALOG)),
    a(Is("KEY_COLUMN_USAGE"), "CONSTRAINT_SCHEMA", OutOfContract(SCHEMA)),
    a(Is("KEY_COLUMN_USAGE"), "CONSTRAINT_NAME", Compared(&[K::ForeignKeyNotOnline, K::UnmanagedForeignKey])),
    a(Is("KEY_COLUMN_USAGE"), "TABLE_CATALOG", OutOfContract(CATALOG)),
    a(Is("KEY_COLUMN_USAGE"), "TABLE_SCHEMA", OutOfContract(SCHEMA)),
    a(Is("KEY_COLUMN_USAGE"), "TABLE_NAME", OutOfContract(NAME)),
    a(Is("KEY_COLUMN_USAGE"), "COLUMN_NAME", Compared(&[K::ForeignKeyColumns])),
    a(Is("KEY_COLUMN_USAGE"), "ORDINAL_POSITION", Compared(&[K::ForeignKeyColumns])),
    a(Is("KEY_COLUMN_USAGE"), "POSITION_IN_UNIQUE_CONSTRAINT", OutOfContract("derived from ORDINAL_POSITION of the referenced columns, which are compared")),
    a(Is("KEY_COLUMN_USAGE"), "REFERENCED_TABLE_SCHEMA", Compared(&[K::ForeignKeyReference])),
    a(Is("KEY_COLUMN_USAGE"), "REFERENCED_TABLE_NAME", Compared(&[K::ForeignKeyReference])),
    a(Is("KEY_COLUMN_USAGE"), "REFERENCED_COLUMN_NAME", Compared(&[K::ForeignKeyReference])),
    // REFERENTIAL_CONSTRAINTS
    a(Is("REFERENTIAL_CONSTRAINTS"), "CONSTRAINT_CATALOG", OutOfContract(CATALOG)),
    a(Is("REFERENTIAL_CONSTRAINTS"), "CONSTRAINT_SCHEMA", OutOfContract(SCHEMA)),
    a(Is("REFERENTIAL_CONSTRAINTS"), "CONSTRAINT_NAME", Compared(&[K::ForeignKeyNotOnline, K::UnmanagedForeignKey])),
    a(Is("REFERENTIAL_CONSTRAINTS"), "UNIQUE_CONSTRAINT_CATALOG", OutOfContract(CATALOG)),
    a(Is("REFERENTIAL_CONSTRAINTS"), "UNIQUE_CONSTRAINT_SCHEMA", OutOfContract("derived from REFERENCED_TABLE_SCHEMA, which is compared")),
    a(Is("REFERENTIAL_CONSTRAINTS"), "UNIQUE_CONSTRAINT_NAME", OutOfContract("the parent's key the server picked: derived from the referenced columns, which are compared")),
    a(Is("REFERENTIAL_CONSTRAINTS"), "MATCH_OPTION", OutOfContract("always NONE on InnoDB (MATCH clauses are parsed and ignored)")),
    a(Is("REFERENTIAL_CONSTRAINTS"), "UPDATE_RULE", Compared(&[K::ForeignKeyAction])),
    a(Is("REFERENTIAL_CONSTRAINTS"), "DELETE_RULE", Compared(&[K::ForeignKeyAction])),
    a(Is("REFERENTIAL_CONSTRAINTS"), "TABLE_NAME", OutOfContract(NAME)),
    a(Is("REFERENTIAL_CONSTRAINTS"), "REFERENCED_TABLE_NAME", Compared(&[K::ForeignKeyReference])),
    // Table options
    a(Opt, "ENGINE", Compared(&[K::TableEngine])),
    a(Opt, "DEFAULT CHARSET", Compared(&[K::TableCollation])),
    a(Opt, "COLLATE", Compared(&[K::TableCollation])),
    a(Opt, "COMMENT", OutOfContract("informational: apply never rewrites a comment, and a comment changes no behaviour")),
    a(Opt, "AUTO_INCREMENT", OutOfContract("the next id is data, not shape")),
    a(Opt, "ROW_FORMAT", OutOfContract("refused when given explicitly (`unrecognised`: the catalog cannot declare it, and the refusal gives the `ALTER TABLE` that clears it), except `DYNAMIC` on InnoDB: the default, the same table, accepted (import says so in a note); the implicit value is the server's innodb_default_row_format")),
    a(Opt, "KEY_BLOCK_SIZE", OutOfContract(EXPLICIT_ONLY)),
    a(Opt, "COMPRESSION", OutOfContract(EXPLICIT_ONLY)),
    a(Opt, "PAGE_COMPRESSED", OutOfContract(EXPLICIT_ONLY)),
    a(Opt, "PAGE_COMPRESSION_LEVEL", OutOfContract(EXPLICIT_ONLY)),
    a(Opt, "STATS_PERSISTENT", OutOfContract(EXPLICIT_ONLY)),
    a(Opt, "STATS_AUTO_RECALC", OutOfContract(EXPLICIT_ONLY)),
    a(Opt, "STATS_SAMPLE_PAGES", OutOfContract(EXPLICIT_ONLY)),
    a(Opt, "CHECKSUM", OutOfContract(EXPLICIT_ONLY)),
    a(Opt, "DELAY_KEY_WRITE", OutOfContract(EXPLICIT_ONLY)),
    a(Opt, "PACK_KEYS", OutOfContract(EXPLICIT_ONLY)),
    a(Opt, "MAX_ROWS", OutOfContract(EXPLICIT_ONLY)),
    a(Opt, "MIN_ROWS", OutOfContract(EXPLICIT_ONLY)),
    a(Opt, "AVG_ROW_LENGTH", OutOfContract(EXPLICIT_ONLY)),
    a(Opt, "ENCRYPTION", OutOfContract(EXPLICIT_ONLY)),
    a(Opt, "ENCRYPTED", OutOfContract(EXPLICIT_ONLY)),
    a(Opt, "ENCRYPTION_KEY_ID", OutOfContract(EXPLICIT_ONLY)),
    a(Opt, "PAGE_CHECKSUM", OutOfContract(EXPLICIT_ONLY)),
    a(Opt, "TRANSACTIONAL", OutOfContract("refused when given explicitly, except MariaDB's `transactional=1` on an Aria table, which is what `engine: Aria` creates")),
    a(Opt, "PARTITION BY", Compared(&[K::Partitioned])),
    // Only in SHOW CREATE TABLE (read by the net; none is in
    // information_schema): table options, table clauses, column clauses,
    // key options.
    a(Opt, "AUTOEXTEND_SIZE", OutOfContract(SHOWN_ONLY)),
    a(Opt, "TABLESPACE", OutOfContract(SHOWN_ONLY)),
    a(Opt, "ENGINE_ATTRIBUTE", OutOfContract(SHOWN_ONLY)),
    a(Opt, "SECONDARY_ENGINE", OutOfContract(SHOWN_ONLY)),
    a(Opt, "SECONDARY_ENGINE_ATTRIBUTE", OutOfContract(SHOWN_ONLY)),
    a(Opt, "DATA DIRECTORY", OutOfContract(SHOWN_ONLY)),
    a(Opt, "INDEX DIRECTORY", OutOfContract(SHOWN_ONLY)),
    a(Opt, "INSERT_METHOD", OutOfContract(SHOWN_ONLY)),
    a(Opt, "UNION", OutOfContract(SHOWN_ONLY)),
    a(Opt, "CONNECTION", OutOfContract(SHOWN_ONLY)),
    a(Opt, "IETF_QUOTES", OutOfContract(SHOWN_ONLY)),
    a(Clause, "WITH SYSTEM VERSIONING", OutOfContract(SHOWN_ONLY)),
    a(Clause, "PERIOD FOR", OutOfContract(SHOWN_ONLY)),
    a(Col, "COLUMN_FORMAT", OutOfContract(SHOWN_ONLY)),
    a(Col, "STORAGE", OutOfContract(SHOWN_ONLY)),
    a(Col, "ENGINE_ATTRIBUTE", OutOfContract(SHOWN_ONLY)),
    a(Col, "SECONDARY_ENGINE_ATTRIBUTE", OutOfContract(SHOWN_ONLY)),
    a(Key, "KEY_BLOCK_SIZE", OutOfContract(SHOWN_ONLY)),
    a(Key, "ENGINE_ATTRIBUTE", OutOfContract(SHOWN_ONLY)),
    a(Key, "SECONDARY_ENGINE_ATTRIBUTE", OutOfContract(SHOWN_ONLY)),
    a(Key, "WITH PARSER", Compared(&[K::IndexParser])),
    a(Key, "USING", OutOfContract("the index method as written (BTREE, HASH): what the engine built is STATISTICS.INDEX_TYPE, which is compared (InnoDB builds a B-tree whatever USING says)")),
];

/// The attribute table as docs/apply.md holds it.
pub fn markdown() -> String {
    let mut out = String::from("| source | attribute | compared as | or outside the contract because |\n|---|---|---|---|\n");
    for at in ATTRIBUTES {
        let source = match at.source {
            Source::InformationSchema(t) => t.to_string(),
            Source::TableOption => "table option".to_string(),
            Source::ColumnClause => "column clause (SHOW CREATE TABLE)".to_string(),
            Source::KeyOption => "key option (SHOW CREATE TABLE)".to_string(),
            Source::TableClause => "table clause (SHOW CREATE TABLE)".to_string(),
        };
        let (kinds, reason) = match at.rule {
            Rule::Compared(kinds) => (
                kinds
                    .iter()
                    .map(|k| format!("`{}`", k.name()))
                    .collect::<Vec<_>>()
                    .join(", "),
                String::new(),
            ),
            Rule::OutOfContract(why) => (String::new(), why.to_string()),
        };
        out.push_str(&format!(
            "| {source} | `{}` | {kinds} | {reason} |\n",
            at.name
        ));
    }
    out
}

/// The rule for `information_schema.<table>.<column>`, if listed: a map
/// lookup on the folded (ASCII-lowercased) names, built once.
pub fn information_schema(table: &str, column: &str) -> Option<&'static Attribute> {
    static BY_NAME: std::sync::LazyLock<
        std::collections::HashMap<(String, String), &'static Attribute>,
    > = std::sync::LazyLock::new(|| {
        let mut map = std::collections::HashMap::new();
        for a in ATTRIBUTES {
            if let Source::InformationSchema(t) = a.source {
                // The first row of a name wins, as the list reads.
                map.entry((t.to_ascii_lowercase(), a.name.to_ascii_lowercase()))
                    .or_insert(a);
            }
        }
        map
    });
    BY_NAME
        .get(&(table.to_ascii_lowercase(), column.to_ascii_lowercase()))
        .copied()
}

#[cfg(test)]
mod tests;
