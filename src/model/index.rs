//! Indexes: kind (with a FULLTEXT parser), key parts, visibility.

use crate::ident::Ident;

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
        }
    }

    /// Whether `self` (live) has exactly the shape of `want` (catalog): no
    /// difference by the one index rule (`crate::model::shape::index_differences`).
    pub fn same_shape(&self, want: &Index) -> bool {
        crate::model::shape::index_differences(self, want).is_empty()
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
    fn index_shape_ignores_name_case() {
        use crate::dump::index;
        let a = index("`State` int, `Id` int, KEY `i` (`State`, `Id`)");
        let b = index("`state` int, `ID` int, KEY `I` (`state`, `ID`)");
        assert!(a.same_shape(&b));
        let c = index("`State` int, `Id` int, KEY `i` (`Id`, `State`)");
        assert!(!a.same_shape(&c));
        // Expressions compare as the index rule compares them (parsed).
        let e = index("`State` int, KEY `e` ((lower(`State`)))");
        let f = index("`state` int, KEY `e` (((LOWER(`state`))))");
        assert_eq!(f.parts, [IndexPart::Expression("(LOWER(`state`))".into())]);
        assert!(e.same_shape(&f));
    }
}
