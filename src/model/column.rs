//! Columns and generated columns.

use super::DefaultValue;
use crate::collation::{canonical_charset, canonical_collation};
use crate::coltype::ColumnType;
use crate::ident::Ident;

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

/// Which of `CHARACTER SET` and `COLLATE` a textual column's definition
/// writes (in `SHOW CREATE TABLE` or a dump). The column's collation is the
/// same either way; MySQL also prints the clauses wherever DDL stated them,
/// so the text tells a column made by such DDL from a fresh one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct CollationClauses {
    /// `CHARACTER SET cs` is written.
    pub charset: bool,
    /// `COLLATE co` is written.
    pub collation: bool,
}

impl CollationClauses {
    /// The clauses as written for `charset` / `collation`: `CHARACTER SET
    /// cs COLLATE co`, one of them, or empty.
    pub fn text(self, charset: &str, collation: &str) -> String {
        let mut out = Vec::new();
        if self.charset {
            out.push(format!("CHARACTER SET {charset}"));
        }
        if self.collation {
            out.push(format!("COLLATE {collation}"));
        }
        out.join(" ")
    }
}
