//! The additive changes a diff finds ([`Change`]) and one table's result
//! ([`TableDiff`]).

use crate::model::{Column, Index, Table};
use crate::Ident;

use super::{Problem, Severity, Subject};

/// An additive change apply may make. Each keeps the catalog object it comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// CREATE TABLE with all columns and indexes.
    AddTable(Table),
    /// ALTER TABLE ... ADD COLUMN.
    AddColumn {
        /// Table.
        table: Ident,
        /// The catalog column.
        column: Column,
        /// The column before it in the catalog (`None`: it is the first), so
        /// the column is placed `AFTER` it (or `FIRST`) and a warm table gets
        /// the greenfield column order.
        after: Option<Ident>,
    },
    /// ALTER TABLE ... ADD \[UNIQUE\] INDEX.
    AddIndex {
        /// Table.
        table: Ident,
        /// The catalog index.
        index: Index,
    },
}

impl Change {
    /// Whether the change leaves every existing row's bytes as they are and
    /// drops nothing. Apply accepts nothing else. A NOT NULL column with no
    /// default on an existing table would need values for retained rows: not additive.
    pub fn is_additive(&self) -> bool {
        match self {
            Change::AddTable(_) | Change::AddIndex { .. } => true,
            Change::AddColumn { column, .. } => {
                !column.auto_increment && (column.nullable || column.default.is_some())
            }
        }
    }

    /// `create_table`, `add_column` or `add_index`.
    pub fn kind(&self) -> &'static str {
        match self {
            Change::AddTable(_) => "create_table",
            Change::AddColumn { .. } => "add_column",
            Change::AddIndex { .. } => "add_index",
        }
    }

    /// The table the change is on.
    pub fn table(&self) -> &Ident {
        match self {
            Change::AddTable(t) => &t.name,
            Change::AddColumn { table, .. } | Change::AddIndex { table, .. } => table,
        }
    }

    /// The kind of object it adds.
    pub fn subject(&self) -> Subject {
        match self {
            Change::AddTable(_) => Subject::Table,
            Change::AddColumn { .. } => Subject::Column,
            Change::AddIndex { .. } => Subject::Index,
        }
    }

    /// Whether `p` is about the object this change adds (for a new table:
    /// anything on it).
    pub fn concerns(&self, p: &Problem) -> bool {
        matches!(self, Change::AddTable(_))
            || (p.kind.subject() == self.subject()
                && p.object.eq_ignore_ascii_case(self.object().as_str()))
    }

    /// The object it adds (table, column or index name).
    pub fn object(&self) -> &Ident {
        match self {
            Change::AddTable(t) => &t.name,
            Change::AddColumn { column, .. } => &column.name,
            Change::AddIndex { index, .. } => &index.name,
        }
    }
}

/// The differences for one catalog table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableDiff {
    /// Table name.
    pub table: Ident,
    /// The live table as read (absent: `None`), kept for readable diffs.
    pub live: Option<Table>,
    /// Additive changes, in apply order (columns before indexes).
    pub changes: Vec<Change>,
    /// Missing and drift problems (verify fails on any).
    pub problems: Vec<Problem>,
    /// Unmanaged objects (informational).
    pub unmanaged: Vec<Problem>,
}

impl TableDiff {
    /// Whether something exists under the table's name.
    pub fn exists(&self) -> bool {
        self.live.is_some()
    }

    /// Whether the table exists and is incomplete or drifted: worth a diff.
    pub fn needs_diff(&self) -> bool {
        self.exists() && !self.problems.is_empty()
    }

    /// Drift only (excludes what is merely missing).
    pub fn drift(&self) -> impl Iterator<Item = &Problem> {
        self.problems
            .iter()
            .filter(|p| p.kind.severity() == Severity::Drift)
    }

    /// Whether the live table has exactly what the catalog declares.
    pub fn is_satisfied(&self) -> bool {
        self.problems.is_empty()
    }
}
