//! The typed sides of a drift finding: [`Value`], what the catalog expects
//! or the live schema has (a column, a key-part list, a collation, ...),
//! held as the model's own types and rendered to text only at the edge
//! (its [`Display`](fmt::Display), which is also how it serialises).

use std::cmp::Ordering;
use std::fmt;

use crate::coltype::ColumnType;
use crate::ident::quote_ident;
use crate::model::describe::{
    auto_increment_text, auto_random_text, charset_text, clustered_text, default_value_text,
    describe_column, describe_foreign_key, describe_index, generated_text, key_parts, null_text,
    on_update_text, ttl_text, visibility_text,
};
use crate::model::{
    AutoRandom, Column, DefaultValue, ForeignKey, Generated, Index, IndexPart, NotOnline,
    TableKind, Ttl, WidenRule,
};
use crate::server::Flavor;

/// One side of a [`Problem`](super::drift::Problem): the catalog's shape
/// (`expected`) or the live one (`actual`) of the attribute the problem is
/// about. Its text (`Display`, and the string it serialises as) is the
/// report's; equality and order are by that text.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Value {
    /// `table`: a table the catalog declares (the expected side of a missing one).
    Table,
    /// `BASE TABLE`: what the catalog's name should be on the server.
    BaseTable,
    /// `a table without partitioning`.
    Unpartitioned,
    /// `a table the catalog describes completely`.
    DescribedTable,
    /// What is under the table's name on the server when it is not a
    /// table the catalog can describe: its TABLE_TYPE (`VIEW`), its
    /// partitioning, or the clause the inspection does not explain.
    TableKind(TableKind),
    /// `absent`.
    Absent,
    /// `absent; <why>: add it in a maintenance window, ...`: missing, and
    /// not addable to the existing table online.
    AbsentNotOnline(NotOnline),
    /// `not in catalog`: the expected side of an unmanaged object.
    NotInCatalog,
    /// A whole column's shape (`describe_column`).
    Column(Box<Column>),
    /// A live column the catalog widens online:
    /// `<column> (apply widens it online: <rule> on <flavor>)`.
    Widening {
        /// The live column.
        from: Box<Column>,
        /// The rule-table row that allows it.
        rule: WidenRule,
        /// The server it is judged for.
        flavor: Flavor,
    },
    /// A live attribute the catalog opted in to widening, and why it is no
    /// online widening: `<found>; not an online widening on <flavor>: <why>`.
    NotWidening {
        /// The live attribute.
        found: Box<Value>,
        /// The server it is judged for.
        flavor: Flavor,
        /// Why not (the rule table's words).
        why: String,
    },
    /// A whole index's shape (`describe_index`).
    Index(Box<Index>),
    /// A key-part list (a primary key): `` (`a`, `b`) ``, `none` when empty.
    KeyParts(Vec<IndexPart>),
    /// A foreign key's shape (`describe_foreign_key`).
    ForeignKey(Box<ForeignKey>),
    /// A column's type.
    Type(ColumnType),
    /// `NULL` or `NOT NULL`.
    Nullable(bool),
    /// A column's character set and collation (`charset_text`).
    Collation {
        /// The character set.
        charset: Option<String>,
        /// The collation.
        collation: Option<String>,
    },
    /// The `CHARACTER SET` / `COLLATE` clauses a column's `SHOW CREATE
    /// TABLE` text writes: `SHOW CREATE TABLE writes CHARACTER SET cs
    /// COLLATE co` (or one of them), or `SHOW CREATE TABLE writes no
    /// CHARACTER SET or COLLATE (co)`.
    CollationClauses {
        /// Which clauses.
        clauses: crate::model::CollationClauses,
        /// The column's character set.
        charset: String,
        /// The column's collation.
        collation: String,
    },
    /// A column's default (`default_value_text`).
    Default {
        /// The default, if any.
        default: Option<DefaultValue>,
        /// Whether the column's type is numeric (the literal is unquoted).
        numeric: bool,
    },
    /// `AUTO_INCREMENT` or `no AUTO_INCREMENT`.
    AutoIncrement(bool),
    /// A column's `ON UPDATE` clause, if any.
    OnUpdate(Option<DefaultValue>),
    /// `INVISIBLE` (true) or `VISIBLE`: a column's visibility.
    Invisible(bool),
    /// A column's generation clause, or `not generated`.
    Generated(Option<Generated>),
    /// `STORED` or `VIRTUAL`: a generated column's storage.
    GeneratedStorage(Generated),
    /// `AS (<expression>)`: a generated column's expression.
    GeneratedExpression(Generated),
    /// `CHECK (<expression>)`, with `ENFORCED` / `NOT ENFORCED` when the
    /// enforcement is what differs.
    Check {
        /// The condition.
        expression: String,
        /// The enforcement, when it is part of the finding.
        enforced: Option<bool>,
    },
    /// `column-level CHECK` or `table-level CHECK`: where a CHECK is declared.
    CheckLevel(crate::model::CheckLevel),
    /// `ENGINE=<engine>` (`ENGINE=none` for `None`: the server reports none).
    Engine(Option<String>),
    /// `DEFAULT CHARSET=<charset> COLLATE=<collation>`: a table's defaults.
    TableCollation {
        /// The default character set.
        charset: String,
        /// The default collation.
        collation: String,
    },
    /// TiDB: a primary key's clustering (`CLUSTERED`, `NONCLUSTERED`; with
    /// none declared, `clustering left to the server's default` for a
    /// primary key, else `no primary key`).
    Clustered {
        /// Clustered or not, when known.
        clustered: Option<bool>,
        /// Whether the table has a primary key.
        primary_key: bool,
    },
    /// TiDB: a column's AUTO_RANDOM clause, or `no AUTO_RANDOM`.
    AutoRandom(Option<AutoRandom>),
    /// TiDB: a key column still AUTO_INCREMENT where the catalog declares
    /// AUTO_RANDOM (the table predates it), with how to convert it.
    AutoRandomPending {
        /// The table.
        table: String,
        /// The declared AUTO_RANDOM.
        auto_random: AutoRandom,
    },
    /// TiDB: `SHARD_ROW_ID_BITS=<n>` (0 when unset).
    ShardRowIdBits(Option<u8>),
    /// TiDB: `PRE_SPLIT_REGIONS=<n>` (0 when unset).
    PreSplitRegions(Option<u8>),
    /// TiDB: the row TTL, or `no TTL`.
    Ttl(Option<Ttl>),
    /// A live TiDB feature apply never changes on an existing table:
    /// `<found>; <why not>` (the reason follows from `found`'s variant).
    Unchangeable(Box<Value>),
}

impl Value {
    /// A column's shape.
    pub fn column(c: &Column) -> Value {
        Value::Column(Box::new(c.clone()))
    }

    /// An index's shape.
    pub fn index(i: &Index) -> Value {
        Value::Index(Box::new(i.clone()))
    }

    /// A foreign key's shape.
    pub fn foreign_key(fk: &ForeignKey) -> Value {
        Value::ForeignKey(Box::new(fk.clone()))
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Table => f.write_str("table"),
            Value::BaseTable => f.write_str("BASE TABLE"),
            Value::Unpartitioned => f.write_str("a table without partitioning"),
            Value::DescribedTable => f.write_str("a table the catalog describes completely"),
            Value::TableKind(TableKind::Base) => f.write_str("BASE TABLE"),
            Value::TableKind(TableKind::NotATable(table_type)) => f.write_str(table_type),
            Value::TableKind(TableKind::Partitioned(how)) => write!(
                f,
                "partitioned ({how}): partitioned tables are not supported yet"
            ),
            Value::TableKind(TableKind::Unrecognised(what)) => f.write_str(what),
            Value::Absent => f.write_str("absent"),
            Value::AbsentNotOnline(why) => write!(
                f,
                "absent; {why}: add it in a maintenance window, or declare it when the table is created"
            ),
            Value::NotInCatalog => f.write_str("not in catalog"),
            Value::Column(c) => f.write_str(&describe_column(c)),
            Value::Widening { from, rule, flavor } => write!(
                f,
                "{} (apply widens it online: {} on {flavor})",
                describe_column(from),
                rule.name()
            ),
            Value::NotWidening { found, flavor, why } => {
                write!(f, "{found}; not an online widening on {flavor}: {why}")
            }
            Value::Index(i) => f.write_str(&describe_index(i)),
            Value::KeyParts(parts) if parts.is_empty() => f.write_str("none"),
            Value::KeyParts(parts) => f.write_str(&key_parts(parts)),
            Value::ForeignKey(fk) => f.write_str(&describe_foreign_key(fk)),
            Value::Type(ty) => write!(f, "{ty}"),
            Value::Nullable(nullable) => f.write_str(null_text(*nullable)),
            Value::Collation { charset, collation } => {
                f.write_str(&charset_text(charset.as_deref(), collation.as_deref()))
            }
            Value::CollationClauses {
                clauses,
                charset,
                collation,
            } => match clauses.text(charset, collation) {
                t if t.is_empty() => write!(
                    f,
                    "SHOW CREATE TABLE writes no CHARACTER SET or COLLATE ({collation})"
                ),
                t => write!(f, "SHOW CREATE TABLE writes {t}"),
            },
            Value::Default { default, numeric } => {
                f.write_str(&default_value_text(default.as_ref(), *numeric))
            }
            Value::AutoIncrement(a) => f.write_str(auto_increment_text(*a)),
            Value::OnUpdate(v) => f.write_str(&on_update_text(v.as_ref())),
            Value::Invisible(i) => f.write_str(visibility_text(*i)),
            Value::Generated(g) => f.write_str(&generated_text(g.as_ref())),
            Value::GeneratedStorage(g) => f.write_str(g.storage()),
            Value::GeneratedExpression(g) => write!(f, "AS ({})", g.expression),
            Value::Check {
                expression,
                enforced,
            } => {
                write!(f, "CHECK ({expression})")?;
                match enforced {
                    Some(true) => f.write_str(" ENFORCED"),
                    Some(false) => f.write_str(" NOT ENFORCED"),
                    None => Ok(()),
                }
            }
            Value::CheckLevel(l) => write!(f, "{}-level CHECK", l.name()),
            Value::Engine(Some(e)) => write!(f, "ENGINE={e}"),
            Value::Engine(None) => f.write_str("ENGINE=none"),
            Value::TableCollation { charset, collation } => {
                write!(f, "DEFAULT CHARSET={charset} COLLATE={collation}")
            }
            Value::Clustered {
                clustered: None,
                primary_key: true,
            } => f.write_str("clustering left to the server's default"),
            Value::Clustered { clustered, .. } => f.write_str(&clustered_text(*clustered)),
            Value::AutoRandom(a) => f.write_str(&auto_random_text(a.as_ref())),
            Value::AutoRandomPending { table, auto_random } => write!(
                f,
                "AUTO_INCREMENT (the table predates AUTO_RANDOM; the server still assigns the ids; TiDB converts it with ALTER TABLE {} MODIFY COLUMN {} ... {}, by hand)",
                quote_ident(table),
                quote_ident(auto_random.column.as_str()),
                auto_random.clause()
            ),
            Value::ShardRowIdBits(n) => write!(f, "SHARD_ROW_ID_BITS={}", n.unwrap_or(0)),
            Value::PreSplitRegions(n) => write!(f, "PRE_SPLIT_REGIONS={}", n.unwrap_or(0)),
            Value::Ttl(t) => f.write_str(&ttl_text(t.as_ref())),
            Value::Unchangeable(found) => {
                let why = match **found {
                    Value::Clustered { .. } => {
                        "a primary key's clustering cannot change on an existing table"
                    }
                    Value::AutoRandom(_) => {
                        "AUTO_RANDOM cannot be changed on an existing table by apply"
                    }
                    Value::Ttl(_) => {
                        "changing TTL deletes or keeps rows, so apply never alters it (ALTER TABLE ... TTL by hand)"
                    }
                    _ => "apply never alters it on an existing table",
                };
                write!(f, "{found}; {why}")
            }
        }
    }
}

impl PartialEq for Value {
    /// By text.
    fn eq(&self, other: &Value) -> bool {
        self.to_string() == other.to_string()
    }
}

impl Eq for Value {}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Value {
    /// By text, as the reports sort their problems.
    fn cmp(&self, other: &Value) -> Ordering {
        self.to_string().cmp(&other.to_string())
    }
}

impl PartialEq<&str> for Value {
    /// Whether the value reads `other`.
    fn eq(&self, other: &&str) -> bool {
        self.to_string().as_str() == *other
    }
}

impl PartialEq<str> for Value {
    /// Whether the value reads `other`.
    fn eq(&self, other: &str) -> bool {
        self.to_string().as_str() == other
    }
}

impl serde::Serialize for Value {
    /// As its text.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl schemars::JsonSchema for Value {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Value".into()
    }

    /// A string: the value's text, as it serialises.
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "string" })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Typed values read as the report always has; equality and order are
    /// by that text, and the JSON is the text.
    #[test]
    fn values_render_compare_and_serialise_as_text() {
        let c = crate::dump::column("`c` varchar(16) NOT NULL");
        assert_eq!(
            Value::column(&c),
            "varchar(16) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL"
        );
        // No SQL gives a textual column no collation (the table's fills it).
        let bare = Column {
            charset: None,
            collation: None,
            ..c
        };
        assert_eq!(Value::column(&bare), "varchar(16) no collation NOT NULL");
        assert_eq!(Value::KeyParts(vec![]), "none");
        assert_eq!(Value::KeyParts(vec![IndexPart::column("Id")]), "(`Id`)");
        assert_eq!(Value::Engine(None), "ENGINE=none");
        let not_widening = Value::NotWidening {
            found: Box::new(Value::Type(ColumnType::Varchar(16))),
            flavor: Flavor::MySql,
            why: "because".into(),
        };
        assert_eq!(
            not_widening,
            "varchar(16); not an online widening on mysql: because"
        );
        assert_eq!(Value::Nullable(true), Value::Nullable(true));
        assert_ne!(Value::Nullable(true), Value::Nullable(false));
        assert!(Value::Absent < Value::NotInCatalog);
        assert_eq!(
            serde_json::to_string(&Value::AbsentNotOnline(NotOnline::Check)).unwrap(),
            serde_json::to_string(&Value::AbsentNotOnline(NotOnline::Check).to_string()).unwrap()
        );
        let pending = Value::Unchangeable(Box::new(Value::Clustered {
            clustered: None,
            primary_key: true,
        }));
        assert_eq!(pending, "clustering left to the server's default; a primary key's clustering cannot change on an existing table");
    }
}
