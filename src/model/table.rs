//! Tables and what a live name is.

use super::{Check, Column, ForeignKey, Index, IndexPart, TidbOptions};
use crate::collation::{canonical_charset, canonical_collation};
use crate::ident::Ident;

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
    /// A base table with something the model does not carry (live only):
    /// a table option the catalog cannot declare (`ROW_FORMAT=COMPRESSED
    /// KEY_BLOCK_SIZE=8`, `STATS_PERSISTENT=0`, MariaDB's
    /// `PAGE_COMPRESSED=1` ...). Holds the clause. Such a table is refused
    /// as drift (`unrecognised`) and never imported: exact means exact.
    Unrecognised(String),
}

impl TableKind {
    /// Whether the object is a base table, partitioned or not.
    pub fn is_base_table(&self) -> bool {
        matches!(
            self,
            TableKind::Base | TableKind::Partitioned(_) | TableKind::Unrecognised(_)
        )
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

/// The row format InnoDB stores a live table's rows in, as the server
/// reports it (`information_schema.TABLES.ROW_FORMAT`): the one the table
/// was created with, explicitly (`ROW_FORMAT=...`, which also shows in
/// CREATE_OPTIONS and is refused as `unrecognised` unless it is InnoDB's
/// default, see [`is_innodb_default_option`]) or by the server's
/// `innodb_default_row_format`. Other engines report theirs (`Fixed`,
/// MyISAM's `Dynamic`, Aria's `Page`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RowFormat {
    /// InnoDB `DYNAMIC` (the default since MySQL 5.7.9 and MariaDB 10.2.2).
    Dynamic,
    /// InnoDB `COMPACT`.
    Compact,
    /// InnoDB `COMPRESSED`.
    Compressed,
    /// InnoDB `REDUNDANT`, the oldest format.
    Redundant,
    /// Anything else, as the server spelled it (`Fixed`, `Page`, ...).
    Other(String),
}

impl RowFormat {
    /// The row format of a TABLES.ROW_FORMAT value (case-insensitive).
    pub fn from_server(text: &str) -> RowFormat {
        match text.trim().to_ascii_uppercase().as_str() {
            "DYNAMIC" => RowFormat::Dynamic,
            "COMPACT" => RowFormat::Compact,
            "COMPRESSED" => RowFormat::Compressed,
            "REDUNDANT" => RowFormat::Redundant,
            _ => RowFormat::Other(text.trim().to_string()),
        }
    }
}

/// Whether an explicit table option `name = value` (as a dump or SHOW
/// CREATE TABLE writes it, or CREATE_OPTIONS's `row_format=DYNAMIC`) only
/// says what InnoDB does anyway, so the table is the one a catalog creates
/// without it: `ROW_FORMAT=DYNAMIC` on an InnoDB table (or one whose engine
/// is not named, InnoDB being the default engine). DYNAMIC is
/// `innodb_default_row_format`'s default since MySQL 5.7.9 and MariaDB
/// 10.2.2 (MySQL manual "InnoDB Row Formats", MariaDB KB "InnoDB Row
/// Formats Overview"); the implicit format's effective value is not
/// compared either (see the attribute table), so an explicit DYNAMIC is
/// accepted exactly where an implicit one is. Every other option
/// (COMPRESSED, COMPACT, REDUNDANT, any KEY_BLOCK_SIZE) changes how rows
/// are stored or which indexes fit, and stays refused.
pub fn is_innodb_default_option(engine: Option<&str>, name: &str, value: &str) -> bool {
    let innodb = engine.is_none_or(|e| e.eq_ignore_ascii_case("InnoDB"));
    let value = value.trim().trim_matches(|c| c == '\'' || c == '"');
    innodb
        && name.trim().eq_ignore_ascii_case("ROW_FORMAT")
        && value.eq_ignore_ascii_case("DYNAMIC")
}

/// [`is_innodb_default_option`] for a `name=value` or `name = value` text.
pub fn is_innodb_default_option_text(engine: Option<&str>, text: &str) -> bool {
    text.split_once('=')
        .is_some_and(|(n, v)| is_innodb_default_option(engine, n, v))
}

/// What to do about an explicit table option the catalog cannot declare
/// (`option` as written: `ROW_FORMAT = COMPRESSED`, `row_format=COMPACT`,
/// `KEY_BLOCK_SIZE=8`, `stats_persistent=0`): the statement that rebuilds
/// `table` without it, run by hand, or leaving the table out. `DEFAULT`
/// (and `KEY_BLOCK_SIZE=0`) clear an option on MySQL and MariaDB, verified
/// on 9.7 and 10.11: CREATE_OPTIONS is empty afterwards; MariaDB keeps an
/// index's own `KEY_BLOCK_SIZE` until that index is re-created.
pub fn table_option_fix(table: &str, option: &str) -> String {
    let name = option
        .split('=')
        .next()
        .unwrap_or(option)
        .trim()
        .to_ascii_uppercase();
    let clear = match name.as_str() {
        "ROW_FORMAT" | "KEY_BLOCK_SIZE" => "ROW_FORMAT=DEFAULT KEY_BLOCK_SIZE=0".to_string(),
        n if n.is_empty() || !n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
            return format!(
                "rebuild {} without the option, or leave the table out (`--tables`, `--skip-unsupported`)",
                crate::ident::quote_ident(table)
            );
        }
        n => format!("{n}=DEFAULT"),
    };
    format!(
        "to make it the catalog's table, clear the option by hand: `ALTER TABLE {} {clear}` (a table rebuild: check its cost and run it at a quiet time; on MariaDB an index keeps its own KEY_BLOCK_SIZE until it is re-created), or leave the table out (`--tables`, `--skip-unsupported`)",
        crate::ident::quote_ident(table)
    )
}

impl std::fmt::Display for RowFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RowFormat::Dynamic => "DYNAMIC",
            RowFormat::Compact => "COMPACT",
            RowFormat::Compressed => "COMPRESSED",
            RowFormat::Redundant => "REDUNDANT",
            RowFormat::Other(s) => s,
        })
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
    /// The row format a live table is stored in (live inspection only;
    /// `None` for catalog and dump tables, which do not know it). Not
    /// compared (the catalog cannot declare one, and an explicit one is
    /// refused from CREATE_OPTIONS); the widening rule table consults it.
    pub row_format: Option<RowFormat>,
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
}

/// A table's default character set and collation (`DEFAULT CHARSET=...
/// COLLATE=...`): what a column declared without its own takes. A
/// column's DDL states its charset and collation only where they differ
/// from these ([`crate::ddl::column_definition_in`]), as the servers' own
/// SHOW CREATE TABLE does.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TableDefaults {
    /// Default character set (canonical).
    pub charset: String,
    /// Default collation (canonical).
    pub collation: String,
}

impl Table {
    /// The table's default charset and collation.
    pub fn defaults(&self) -> TableDefaults {
        TableDefaults {
            charset: self.charset.clone(),
            collation: self.collation.clone(),
        }
    }

    /// A base table of `columns` in the catalog's default charset and
    /// collation (`utf8mb4`, `utf8mb4_bin`), with no keys, checks, foreign
    /// keys, engine or comment; set the rest with struct update syntax.
    pub fn new(name: impl Into<Ident>, columns: Vec<Column>) -> Table {
        Table {
            name: name.into(),
            kind: TableKind::Base,
            comment: None,
            engine: None,
            row_format: None,
            charset: "utf8mb4".into(),
            collation: "utf8mb4_bin".into(),
            columns,
            primary_key: Vec::new(),
            indexes: Vec::new(),
            checks: Vec::new(),
            foreign_keys: Vec::new(),
            tidb: None,
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
            row_format: None,
            charset: String::new(),
            collation: String::new(),
            columns: Vec::new(),
            primary_key: Vec::new(),
            indexes: Vec::new(),
            checks: Vec::new(),
            foreign_keys: Vec::new(),
            tidb: None,
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
