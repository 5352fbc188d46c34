//! What the walk reports about a declared query: its kind, the tables and
//! columns it names, and each placeholder with the column it is compared with.

use crate::ident::Ident;

/// What kind of statement a query is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StatementKind {
    /// SELECT (or a UNION ALL of SELECTs).
    Select,
    /// UPDATE.
    Update,
    /// DELETE.
    Delete,
}

/// How a placeholder's column is compared with it (column on the left).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmp {
    /// `=` or `IN (...)`.
    Eq,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
}

/// One placeholder: the column it is compared with, when it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// The column and comparison; `None` for a placeholder elsewhere (LIMIT, SET).
    pub column: Option<(Ident, Cmp)>,
}

/// What the walk found in a query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    /// Statement kind.
    pub kind: StatementKind,
    /// Tables named (FROM, UPDATE, DELETE FROM), in order, with repeats.
    pub tables: Vec<Ident>,
    /// Columns named, each with its qualifier when written `t.c`.
    pub columns: Vec<(Option<Ident>, Ident)>,
    /// One entry per `?`, in text order.
    pub bindings: Vec<Binding>,
    /// Columns the query compares `IS NULL` (a fixture's matching rows
    /// hold NULL there), in text order.
    pub null_columns: Vec<Ident>,
    /// The outermost LIMIT, when it is a number literal.
    pub limit: Option<u64>,
}
