//! schema-catalog: a declarative catalog of MySQL-family system tables and the
//! operations that make a live database match it additively and exactly.

pub mod coltype;
pub mod collation;
pub mod ident;
pub mod model;

pub use coltype::{ColumnType, IntKind};
pub use ident::{quote_ident, quote_str, Ident};
pub use model::{Column, DefaultValue, Index, IndexKind, IndexPart, Table};
