//! The additive changes a diff finds ([`Change`]) and one table's result
//! ([`TableDiff`]).

use crate::model::{Column, Index, Table, TableDefaults};
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
        /// The live table's default charset and collation: the column
        /// states its own only where they differ, so it ends exactly as
        /// declared and (MySQL remembers a stated collation and prints it)
        /// reads in SHOW CREATE TABLE as a greenfield one.
        defaults: TableDefaults,
    },
    /// ALTER TABLE ... ADD \[UNIQUE\] INDEX.
    AddIndex {
        /// Table.
        table: Ident,
        /// The catalog index.
        index: Index,
    },
    /// ALTER TABLE ... MODIFY COLUMN with an online clause: a widening from
    /// the rule table ([`super::widening`]), opted in by the catalog.
    WidenColumn {
        /// Table.
        table: Ident,
        /// The catalog column (the shape after the step).
        column: Column,
        /// The live column (the shape before it).
        from: Column,
        /// The rule and the online clause.
        how: super::Widening,
        /// The live table's default charset and collation (as in
        /// `AddColumn`).
        defaults: TableDefaults,
    },
}

impl Change {
    /// Whether the change leaves every existing row's bytes as they are and
    /// drops nothing. Apply accepts nothing else. A NOT NULL column with no
    /// default on an existing table would need values for retained rows: not
    /// additive. A widening from the rule table touches no row.
    pub fn is_additive(&self) -> bool {
        match self {
            Change::AddTable(_) | Change::AddIndex { .. } | Change::WidenColumn { .. } => true,
            Change::AddColumn { column, .. } => {
                !column.auto_increment && (column.nullable || column.default.is_some())
            }
        }
    }

    /// `create_table`, `add_column`, `add_index` or `widen_column`.
    pub fn kind(&self) -> &'static str {
        match self {
            Change::AddTable(_) => "create_table",
            Change::AddColumn { .. } => "add_column",
            Change::AddIndex { .. } => "add_index",
            Change::WidenColumn { .. } => "widen_column",
        }
    }

    /// A widening's from and to types (`varchar(32)`, `varchar(64)`; the
    /// defaults for a changed default); `None` for an addition.
    pub fn widened(&self) -> Option<(String, String)> {
        match self {
            Change::WidenColumn {
                column, from, how, ..
            } if how.rule == super::WidenRule::Default => Some((
                crate::model::describe::default_text(from),
                crate::model::describe::default_text(column),
            )),
            Change::WidenColumn { column, from, .. } => {
                Some((from.ty.to_string(), column.ty.to_string()))
            }
            _ => None,
        }
    }

    /// The table the change is on.
    pub fn table(&self) -> &Ident {
        match self {
            Change::AddTable(t) => &t.name,
            Change::AddColumn { table, .. }
            | Change::AddIndex { table, .. }
            | Change::WidenColumn { table, .. } => table,
        }
    }

    /// The kind of object it adds.
    pub fn subject(&self) -> Subject {
        match self {
            Change::AddTable(_) => Subject::Table,
            Change::AddColumn { .. } | Change::WidenColumn { .. } => Subject::Column,
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
            Change::AddColumn { column, .. } | Change::WidenColumn { column, .. } => &column.name,
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
    /// Additive changes and opted-in widenings, in apply order (columns,
    /// then widenings, before indexes).
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
