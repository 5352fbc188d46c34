//! The one typed model of tables, columns and indexes, produced alike by the
//! catalog loader, live inspection and the dump parser, and compared by `diff`.
//!
//! Values are kept normalised (canonical collation names, typed column types,
//! typed defaults) so that equal physical shapes compare equal across flavors.

use crate::collation::{canonical_charset, canonical_collation};
use crate::coltype::ColumnType;
use crate::ident::Ident;
pub use crate::tidb::{AutoRandom, TidbOptions, Ttl, TtlInterval, TtlUnit};

/// A column default, normalised.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum DefaultValue {
    /// A literal value, unquoted (`'pending'` and `pending` are both `pending`;
    /// numbers in canonical form, `0.00` is `0`).
    Literal(String),
    /// `CURRENT_TIMESTAMP(p)` / `NOW(p)`, p = fractional digits.
    CurrentTimestamp(u8),
    /// A bit-value literal `b'101'` (a bit(n) column's default, as both
    /// servers show it): the binary digits without leading zeros (`0` for zero).
    Bits(String),
    /// Any other expression, in one canonical text (parsed and re-rendered,
    /// charset introducers dropped, function and column names lowercased,
    /// string literals exactly as written; see `expr::folded`).
    Expression(String),
}

impl DefaultValue {
    /// Parses a default as SQL text: `NULL`, a quoted or numeric literal,
    /// `CURRENT_TIMESTAMP[(p)]` / `NOW([p])`, or an expression (outer
    /// parentheses removed). `Ok(None)` is "no default" (DEFAULT NULL).
    pub fn parse_sql(text: &str) -> Option<DefaultValue> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("null") {
            return None;
        }
        if let Some(bits) = bit_literal(t) {
            return Some(DefaultValue::Bits(bits));
        }
        if let Some(lit) = unquote_sql_string(t) {
            return Some(DefaultValue::Literal(lit));
        }
        if t.eq_ignore_ascii_case("true") {
            return Some(DefaultValue::Literal("1".into()));
        }
        if t.eq_ignore_ascii_case("false") {
            return Some(DefaultValue::Literal("0".into()));
        }
        if is_number(t) {
            return Some(DefaultValue::Literal(t.to_string()));
        }
        if let Some(p) = current_timestamp_precision(t) {
            return Some(DefaultValue::CurrentTimestamp(p));
        }
        let mut inner = t;
        while inner.starts_with('(') && inner.ends_with(')') && inner.len() >= 2 {
            inner = inner[1..inner.len() - 1].trim();
        }
        if inner != t {
            return DefaultValue::parse_sql(inner);
        }
        Some(DefaultValue::Expression(crate::expr::folded(t)))
    }

    /// SQL text for DDL (`DEFAULT <this>`).
    pub fn to_sql(&self, numeric: bool) -> String {
        match self {
            DefaultValue::Literal(v) if numeric && is_number(v) => v.clone(),
            DefaultValue::Literal(v) => crate::ident::quote_str(v),
            DefaultValue::Bits(b) => format!("b'{b}'"),
            DefaultValue::CurrentTimestamp(0) => "CURRENT_TIMESTAMP".into(),
            DefaultValue::CurrentTimestamp(p) => format!("CURRENT_TIMESTAMP({p})"),
            // Re-rendered from the parsed AST, never pasted. The catalog
            // refuses an expression that does not render; one read from a
            // live table is shown as a placeholder the server would refuse.
            DefaultValue::Expression(e) => match crate::sqltext::render_default_expression(e) {
                Ok(sql) => format!("({sql})"),
                Err(_) => "(<expression not rendered>)".into(),
            },
        }
    }

    /// The same default with numeric literals in canonical form.
    pub fn canonical(&self, numeric: bool) -> DefaultValue {
        match self {
            DefaultValue::Literal(v) if numeric && is_number(v) => {
                DefaultValue::Literal(canonical_number(v))
            }
            other => other.clone(),
        }
    }
}

/// `b'0101'`, `B'1'` or `0b101`: the digits without leading zeros.
fn bit_literal(t: &str) -> Option<String> {
    let digits = t
        .strip_prefix(['b', 'B'])
        .and_then(|r| r.strip_prefix('\''))
        .and_then(|r| r.strip_suffix('\''))
        .or_else(|| t.strip_prefix("0b"))?;
    if !digits.chars().all(|c| c == '0' || c == '1') || (digits.is_empty() && t.starts_with('0')) {
        return None;
    }
    let trimmed = digits.trim_start_matches('0');
    Some(if trimmed.is_empty() { "0" } else { trimmed }.to_string())
}

fn is_number(t: &str) -> bool {
    let s = t.strip_prefix(['-', '+']).unwrap_or(t);
    !s.is_empty()
        && s.chars().all(|c| c.is_ascii_digit() || c == '.')
        && s.chars().filter(|c| *c == '.').count() <= 1
        && s.chars().any(|c| c.is_ascii_digit())
}

fn canonical_number(v: &str) -> String {
    let (neg, s) = match v.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, v.strip_prefix('+').unwrap_or(v)),
    };
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    let int = int.trim_start_matches('0');
    let frac = frac.trim_end_matches('0');
    let mut out = if int.is_empty() {
        "0".to_string()
    } else {
        int.to_string()
    };
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    if neg && out != "0" {
        out.insert(0, '-');
    }
    out
}

/// `CURRENT_TIMESTAMP`, `current_timestamp()`, `NOW(6)`, `LOCALTIMESTAMP(3)`: the precision.
fn current_timestamp_precision(t: &str) -> Option<u8> {
    let lower = t.to_ascii_lowercase().replace(' ', "");
    for name in ["current_timestamp", "now", "localtimestamp", "localtime"] {
        if let Some(rest) = lower.strip_prefix(name) {
            if rest.is_empty() || rest == "()" {
                return Some(0);
            }
            if let Some(p) = rest.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
                return p.parse::<u8>().ok().filter(|p| *p <= 6);
            }
        }
    }
    None
}

/// Unquotes a single-quoted SQL string literal (`''` and backslash escapes).
pub fn unquote_sql_string(t: &str) -> Option<String> {
    let inner = t.strip_prefix('\'')?.strip_suffix('\'')?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                if chars.next() != Some('\'') {
                    return None;
                }
                out.push('\'');
            }
            '\\' => match chars.next()? {
                'n' => out.push('\n'),
                'r' => out.push('\r'),
                't' => out.push('\t'),
                '0' => out.push('\0'),
                other => out.push(other),
            },
            _ => out.push(c),
        }
    }
    Some(out)
}

/// How a generated column is computed: `GENERATED ALWAYS AS (expression)
/// VIRTUAL` (computed when read) or `STORED` (MariaDB's `PERSISTENT`:
/// computed when written and kept in the row).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// From a catalog, rendered by the closed expression renderer; from a
    /// server or dump, its text (compared after normalisation, see
    /// [`crate::readiness::same_expression`]).
    pub expression: String,
    /// STORED (MariaDB PERSISTENT) rather than VIRTUAL.
    pub stored: bool,
}

impl Generated {
    /// `VIRTUAL` or `STORED` (the word MySQL, MariaDB 10.2+ and TiDB all accept).
    pub fn storage(&self) -> &'static str {
        if self.stored {
            "STORED"
        } else {
            "VIRTUAL"
        }
    }
}

impl std::fmt::Display for Generated {
    /// `GENERATED ALWAYS AS (expr) VIRTUAL|STORED`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "GENERATED ALWAYS AS ({}) {}",
            self.expression,
            self.storage()
        )
    }
}

/// A column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    /// Column name.
    pub name: Ident,
    /// Typed column type.
    pub ty: ColumnType,
    /// Whether NULL is allowed.
    pub nullable: bool,
    /// Whether the column is AUTO_INCREMENT.
    pub auto_increment: bool,
    /// Default, normalised; `None` is no default (or DEFAULT NULL).
    pub default: Option<DefaultValue>,
    /// Character set, for textual types only (canonical name).
    pub charset: Option<String>,
    /// Collation, for textual types only (canonical name).
    pub collation: Option<String>,
    /// `GENERATED ALWAYS AS (expr) VIRTUAL|STORED` (catalog `generated`).
    pub generated: Option<Generated>,
    /// `ON UPDATE CURRENT_TIMESTAMP(p)` (catalog `on_update`).
    pub on_update: Option<DefaultValue>,
    /// `INVISIBLE` (MySQL 8.0.23+, MariaDB 10.3+): left out of `SELECT *`.
    pub invisible: bool,
    /// Comment, informational; never compared.
    pub comment: Option<String>,
    /// Consumers that require this column; empty = base contract.
    pub required_by: Vec<String>,
}

impl Column {
    /// A plain nullable column of `ty` with no charset and no default.
    pub fn new(name: impl Into<Ident>, ty: ColumnType) -> Column {
        Column {
            name: name.into(),
            ty,
            nullable: true,
            auto_increment: false,
            default: None,
            charset: None,
            collation: None,
            generated: None,
            on_update: None,
            invisible: false,
            comment: None,
            required_by: Vec::new(),
        }
    }

    /// Canonical spelling of charset, collation and numeric defaults.
    pub fn normalize(&mut self) {
        self.charset = self.charset.as_deref().map(canonical_charset);
        self.collation = self.collation.as_deref().map(canonical_collation);
        if !self.ty.is_textual() {
            self.charset = None;
            self.collation = None;
        }
        let numeric = self.ty.is_numeric();
        self.default = self.default.as_ref().map(|d| d.canonical(numeric));
    }
}

impl From<String> for Ident {
    fn from(s: String) -> Self {
        Ident::new(s)
    }
}

/// Index algorithm family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum IndexKind {
    /// Ordinary B-tree key.
    #[default]
    BTree,
    /// FULLTEXT, with its parser (`None`: the server's built-in one).
    FullText(Option<FullTextParser>),
    /// SPATIAL.
    Spatial,
}

impl IndexKind {
    /// A FULLTEXT index, whatever its parser.
    pub fn is_fulltext(self) -> bool {
        matches!(self, IndexKind::FullText(_))
    }

    /// The FULLTEXT parser (`None` for the built-in one and other kinds).
    pub fn parser(self) -> Option<FullTextParser> {
        match self {
            IndexKind::FullText(parser) => parser,
            IndexKind::BTree | IndexKind::Spatial => None,
        }
    }

    /// The same family (B-tree, FULLTEXT, SPATIAL), parsers aside.
    pub fn same_family(self, other: IndexKind) -> bool {
        std::mem::discriminant(&self) == std::mem::discriminant(&other)
    }

    /// `B-tree`, `FULLTEXT`, `SPATIAL`, or `FULLTEXT WITH PARSER ngram`.
    pub fn describe(self) -> String {
        match self {
            IndexKind::BTree => "B-tree".into(),
            IndexKind::FullText(None) => "FULLTEXT".into(),
            IndexKind::FullText(Some(p)) => format!("FULLTEXT WITH PARSER {}", p.name()),
            IndexKind::Spatial => "SPATIAL".into(),
        }
    }
}

/// A FULLTEXT parser plugin (`WITH PARSER name`): a closed set, the one
/// spelling shared by the catalog, live inspection and the dump parser.
///
/// Decided from the servers (probed on MySQL 9.7 and MariaDB 10.11):
/// - `ngram` is MySQL's built-in parser (information_schema.PLUGINS lists
///   it ACTIVE, FTPARSER); `SHOW CREATE TABLE` prints
///   ``/*!50100 WITH PARSER `ngram` */``.
/// - MySQL's `mecab` plugin is not in the set: it must be installed and
///   given a MeCab dictionary on every server (`INSTALL PLUGIN mecab`
///   fails with 1123 on a server without one, as on the test server), so no
///   catalog could be proven against it here.
/// - MariaDB 10.11 ships no parser plugin: `WITH PARSER ngram` fails with
///   1128 "Function 'ngram' is not defined".
/// - Self-managed TiDB has no FULLTEXT indexes; TiDB Cloud's `STANDARD` /
///   `MULTILINGUAL` parsers exist only on TiDB Cloud Starter/Essential
///   (<https://docs.pingcap.com/ai/vector-search-full-text-search-sql>),
///   not on the servers this tool targets.
///
/// Any other name read from a server or a dump fails closed (see
/// [`FullTextParser::parse`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FullTextParser {
    /// MySQL's built-in n-gram parser (CJK text; token size
    /// `ngram_token_size`, a server variable, default 2).
    Ngram,
}

impl FullTextParser {
    /// Every parser, in declaration order.
    pub const ALL: [FullTextParser; 1] = [FullTextParser::Ngram];

    /// The plugin name, as the catalog writes it and the server reports it.
    pub fn name(self) -> &'static str {
        match self {
            FullTextParser::Ngram => "ngram",
        }
    }

    /// The parser named `name` (case-insensitive, as the server reads plugin
    /// names), or why there is none: the message names the known set.
    pub fn parse(name: &str) -> Result<FullTextParser, String> {
        if let Some(p) = FullTextParser::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(name))
        {
            return Ok(p);
        }
        let hint = if name.eq_ignore_ascii_case("mecab") {
            " (MySQL's mecab plugin is not supported: it needs the plugin and a MeCab dictionary installed on every server)"
        } else {
            ""
        };
        Err(format!(
            "unknown FULLTEXT parser `{}`: the catalog knows `ngram` (MySQL's built-in parser){hint}",
            name.escape_debug()
        ))
    }
}

impl std::fmt::Display for FullTextParser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One key part of an index.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum IndexPart {
    /// A column, optionally with a prefix length, optionally descending.
    Column {
        /// Column name.
        name: Ident,
        /// Prefix length (SUB_PART); catalogs never declare one.
        prefix: Option<u32>,
        /// Descending key part (MySQL 8 `DESC`).
        descending: bool,
    },
    /// A functional key part (MySQL 8 / TiDB expression index).
    Expression(String),
}

impl IndexPart {
    /// An ascending whole-column part.
    pub fn column(name: impl Into<Ident>) -> IndexPart {
        IndexPart::Column {
            name: name.into(),
            prefix: None,
            descending: false,
        }
    }

    /// The column name, if this part is a column.
    pub fn column_name(&self) -> Option<&Ident> {
        match self {
            IndexPart::Column { name, .. } => Some(name),
            IndexPart::Expression(_) => None,
        }
    }
}

/// A secondary index (the primary key is kept on the table).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Index {
    /// Index name.
    pub name: Ident,
    /// UNIQUE or not.
    pub unique: bool,
    /// Ordered key parts.
    pub parts: Vec<IndexPart>,
    /// Algorithm family.
    pub kind: IndexKind,
    /// Visible (MySQL/TiDB) / not IGNORED (MariaDB).
    pub visible: bool,
    /// Comment, informational; never compared.
    pub comment: Option<String>,
    /// Consumers that require this index; empty = base contract.
    pub required_by: Vec<String>,
}

impl Index {
    /// A visible B-tree index over whole columns.
    pub fn new(name: impl Into<Ident>, unique: bool, columns: &[&str]) -> Index {
        Index {
            name: name.into(),
            unique,
            parts: columns.iter().map(|c| IndexPart::column(*c)).collect(),
            kind: IndexKind::BTree,
            visible: true,
            comment: None,
            required_by: Vec::new(),
        }
    }

    /// Whether `self` (live) has exactly the shape of `want` (catalog): no
    /// difference by the one index rule ([`crate::shape::index_differences`]).
    pub fn same_shape(&self, want: &Index) -> bool {
        crate::shape::index_differences(self, want).is_empty()
    }
}

/// A named CHECK constraint (table level). MariaDB's implicit
/// `json_valid(col)` check of a json column is not one: it belongs to the
/// column's type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// Constraint name (unique per schema on MySQL).
    pub name: Ident,
    /// The condition: from a catalog, rendered by the closed expression
    /// renderer; from a server or dump, its text (compared after
    /// normalisation, see [`crate::shape::same_expression`]).
    pub expression: String,
}

/// What a foreign key does to the child rows when the referenced row is
/// deleted or its key updated (`ON DELETE` / `ON UPDATE`): a closed set.
/// InnoDB (MySQL, MariaDB) and TiDB treat `NO ACTION` as `RESTRICT` (the
/// check is immediate), but the servers store and report the word given,
/// so the two are kept apart and compared exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum ReferentialAction {
    /// `RESTRICT`: refuse the parent change (the catalog's default).
    #[default]
    Restrict,
    /// `CASCADE`: delete / update the child rows too.
    Cascade,
    /// `SET NULL`: set the child's columns to NULL (they must be nullable).
    SetNull,
    /// `NO ACTION`: as RESTRICT on InnoDB and TiDB.
    NoAction,
    /// `SET DEFAULT`: refused by InnoDB (MariaDB 10.11 silently stores
    /// RESTRICT instead); only ever read from a server or a dump.
    SetDefault,
}

impl ReferentialAction {
    /// Every action, in declaration order.
    pub const ALL: [ReferentialAction; 5] = [
        ReferentialAction::Restrict,
        ReferentialAction::Cascade,
        ReferentialAction::SetNull,
        ReferentialAction::NoAction,
        ReferentialAction::SetDefault,
    ];

    /// The SQL keywords (`SET NULL`), as the servers report them in
    /// information_schema.REFERENTIAL_CONSTRAINTS.
    pub fn sql(self) -> &'static str {
        match self {
            ReferentialAction::Restrict => "RESTRICT",
            ReferentialAction::Cascade => "CASCADE",
            ReferentialAction::SetNull => "SET NULL",
            ReferentialAction::NoAction => "NO ACTION",
            ReferentialAction::SetDefault => "SET DEFAULT",
        }
    }

    /// The catalog spelling (`set null`).
    pub fn yaml(self) -> String {
        self.sql().to_ascii_lowercase()
    }

    /// Reads `restrict`, `SET NULL`, `set_null`, `no action` (any case,
    /// `_` or spaces between the words).
    pub fn parse(text: &str) -> Option<ReferentialAction> {
        let words: Vec<String> = text
            .split(|c: char| c == '_' || c.is_whitespace())
            .filter(|w| !w.is_empty())
            .map(str::to_ascii_uppercase)
            .collect();
        let text = words.join(" ");
        ReferentialAction::ALL.into_iter().find(|a| a.sql() == text)
    }
}

/// A foreign key of a table (format v2 `foreign_keys`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForeignKey {
    /// Constraint name (unique per schema on InnoDB).
    pub name: Ident,
    /// The child's columns, in key order.
    pub columns: Vec<Ident>,
    /// The referenced table's schema when it is not the table's own (live
    /// and dumps only; a catalog references tables of its own schema).
    pub referenced_schema: Option<Ident>,
    /// The referenced (parent) table.
    pub referenced_table: Ident,
    /// The referenced columns, in key order.
    pub referenced_columns: Vec<Ident>,
    /// `ON DELETE`.
    pub on_delete: ReferentialAction,
    /// `ON UPDATE`.
    pub on_update: ReferentialAction,
}

impl ForeignKey {
    /// Whether `self` (live) has exactly the shape of `want` (catalog):
    /// columns, referenced table and columns (names case-insensitive) and
    /// both actions.
    pub fn same_shape(&self, want: &ForeignKey) -> bool {
        self.columns == want.columns
            && self.referenced_schema == want.referenced_schema
            && self.referenced_table == want.referenced_table
            && self.referenced_columns == want.referenced_columns
            && self.on_delete == want.on_delete
            && self.on_update == want.on_update
    }
}

/// What a live name is: a base table, or something else under that name.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum TableKind {
    /// A base table (the only kind a catalog declares), system-versioned or not.
    #[default]
    Base,
    /// Something else under the table's name, with the server's TABLE_TYPE
    /// (`VIEW`, `SYSTEM VIEW`, `SEQUENCE`).
    NotATable(String),
    /// A partitioned base table (live and dumps only): partitioned tables
    /// are not supported yet, so such a table is drift, never altered, and
    /// never imported. Holds the `PARTITION BY ...` clause of a dump, or
    /// the server's CREATE_OPTIONS (`partitioned`) in live inspection.
    Partitioned(String),
}

impl TableKind {
    /// Whether the object is a base table, partitioned or not.
    pub fn is_base_table(&self) -> bool {
        matches!(self, TableKind::Base | TableKind::Partitioned(_))
    }

    /// The kind for an information_schema TABLE_TYPE: `BASE TABLE` and
    /// MariaDB's `SYSTEM VERSIONED` are base tables; anything else is not.
    pub fn from_table_type(table_type: &str) -> TableKind {
        match table_type.trim().to_ascii_uppercase().as_str() {
            "BASE TABLE" | "SYSTEM VERSIONED" => TableKind::Base,
            other => TableKind::NotATable(other.to_string()),
        }
    }
}

/// A table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// Table name.
    pub name: Ident,
    /// Base table or view (live and dumps only; catalogs declare base tables).
    pub kind: TableKind,
    /// Table comment, informational.
    pub comment: Option<String>,
    /// Storage engine (`InnoDB`), informational.
    pub engine: Option<String>,
    /// Default character set (canonical).
    pub charset: String,
    /// Default collation (canonical).
    pub collation: String,
    /// Columns in declared / ordinal order.
    pub columns: Vec<Column>,
    /// Primary key columns in key order; empty when there is none.
    pub primary_key: Vec<IndexPart>,
    /// Secondary indexes.
    pub indexes: Vec<Index>,
    /// Named CHECK constraints.
    pub checks: Vec<Check>,
    /// Foreign keys, sorted by name in live and dump tables.
    pub foreign_keys: Vec<ForeignKey>,
    /// TiDB table features (see [`TidbOptions`]): declared by the catalog
    /// (`None`: none declared), or read from TiDB (`None`: read from MySQL
    /// or MariaDB, which have none).
    pub tidb: Option<TidbOptions>,
    /// Consumers that require this table; empty = base contract.
    pub required_by: Vec<String>,
}

impl Table {
    /// A base table of `columns` in the catalog's default charset and
    /// collation (`utf8mb4`, `utf8mb4_bin`), with no keys, checks, foreign
    /// keys, engine or comment; set the rest with struct update syntax.
    pub fn new(name: impl Into<Ident>, columns: Vec<Column>) -> Table {
        Table {
            name: name.into(),
            kind: TableKind::Base,
            comment: None,
            engine: None,
            charset: "utf8mb4".into(),
            collation: "utf8mb4_bin".into(),
            columns,
            primary_key: Vec::new(),
            indexes: Vec::new(),
            checks: Vec::new(),
            foreign_keys: Vec::new(),
            tidb: None,
            required_by: Vec::new(),
        }
    }

    /// What live inspection or a dump reports for a name that is not a base
    /// table (`table_type`: `VIEW`, `SEQUENCE` ...): only the name and kind.
    pub fn not_a_table(name: Ident, table_type: &str) -> Table {
        Table {
            name,
            kind: TableKind::NotATable(table_type.to_string()),
            comment: None,
            engine: None,
            charset: String::new(),
            collation: String::new(),
            columns: Vec::new(),
            primary_key: Vec::new(),
            indexes: Vec::new(),
            checks: Vec::new(),
            foreign_keys: Vec::new(),
            tidb: None,
            required_by: Vec::new(),
        }
    }

    /// Looks a column up by name (case-insensitive).
    pub fn column(&self, name: &Ident) -> Option<&Column> {
        self.columns.iter().find(|c| &c.name == name)
    }

    /// Looks an index up by name (case-insensitive).
    pub fn index(&self, name: &Ident) -> Option<&Index> {
        self.indexes.iter().find(|i| &i.name == name)
    }

    /// Looks a foreign key up by name (case-insensitive).
    pub fn foreign_key(&self, name: &Ident) -> Option<&ForeignKey> {
        self.foreign_keys.iter().find(|f| &f.name == name)
    }

    /// Canonical spelling throughout (see [`Column::normalize`]).
    pub fn normalize(&mut self) {
        self.charset = canonical_charset(&self.charset);
        self.collation = canonical_collation(&self.collation);
        for c in &mut self.columns {
            c.normalize();
        }
        if let Some(t) = &mut self.tidb {
            t.normalize();
        }
    }
}

impl std::fmt::Display for IndexPart {
    /// `` `Name` ``, `` `Name`(10) ``, `` `Name` DESC `` or `(expr)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IndexPart::Column {
                name,
                prefix,
                descending,
            } => {
                f.write_str(&crate::ident::quote_ident(name.as_str()))?;
                if let Some(n) = prefix {
                    write!(f, "({n})")?;
                }
                if *descending {
                    f.write_str(" DESC")?;
                }
                Ok(())
            }
            IndexPart::Expression(e) => write!(f, "({e})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_normalise() {
        assert_eq!(DefaultValue::parse_sql("NULL"), None);
        assert_eq!(
            DefaultValue::parse_sql("'it''s'"),
            Some(DefaultValue::Literal("it's".into()))
        );
        assert_eq!(
            DefaultValue::parse_sql("current_timestamp(6)"),
            Some(DefaultValue::CurrentTimestamp(6))
        );
        assert_eq!(
            DefaultValue::parse_sql("CURRENT_TIMESTAMP"),
            Some(DefaultValue::CurrentTimestamp(0))
        );
        assert_eq!(
            DefaultValue::parse_sql("now()"),
            Some(DefaultValue::CurrentTimestamp(0))
        );
        assert_eq!(
            DefaultValue::parse_sql("(0)"),
            Some(DefaultValue::Literal("0".into()))
        );
        assert_eq!(
            DefaultValue::parse_sql("0.00").unwrap().canonical(true),
            DefaultValue::Literal("0".into())
        );
        assert_eq!(
            DefaultValue::parse_sql("'-1.50'").unwrap().canonical(true),
            DefaultValue::Literal("-1.5".into())
        );
        for bits in ["b'101'", "B'0101'", "0b101", "(b'101')"] {
            assert_eq!(
                DefaultValue::parse_sql(bits),
                Some(DefaultValue::Bits("101".into())),
                "{bits}"
            );
        }
        assert_eq!(
            DefaultValue::parse_sql("b'000'"),
            Some(DefaultValue::Bits("0".into()))
        );
        assert_eq!(DefaultValue::Bits("101".into()).to_sql(false), "b'101'");
        assert_eq!(
            DefaultValue::parse_sql("UUID( )"),
            Some(DefaultValue::Expression("uuid()".into()))
        );
    }

    #[test]
    fn referential_actions_parse_from_a_closed_set() {
        for a in ReferentialAction::ALL {
            assert_eq!(ReferentialAction::parse(a.sql()), Some(a));
            assert_eq!(ReferentialAction::parse(&a.yaml()), Some(a));
        }
        assert_eq!(
            ReferentialAction::parse("set_null"),
            Some(ReferentialAction::SetNull)
        );
        assert_eq!(
            ReferentialAction::parse(" No  Action "),
            Some(ReferentialAction::NoAction)
        );
        for bad in ["", "delete", "set", "cascade;", "restrict cascade"] {
            assert_eq!(ReferentialAction::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn index_shape_ignores_name_case() {
        let a = Index::new("i", false, &["State", "Id"]);
        let b = Index::new("I", false, &["state", "ID"]);
        assert!(a.same_shape(&b));
        let c = Index::new("i", false, &["Id", "State"]);
        assert!(!a.same_shape(&c));
        // Expressions compare as the index rule compares them (parsed).
        let mut e = Index::new("e", false, &[]);
        e.parts = vec![IndexPart::Expression("lower(`State`)".into())];
        let mut f = e.clone();
        f.parts = vec![IndexPart::Expression("(LOWER(`state`))".into())];
        assert!(e.same_shape(&f));
    }
}
