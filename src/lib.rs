//! schema-catalog: a declarative catalog of MySQL-family system tables and the
//! operations that make a live database match it additively and exactly.
//!
//! Modules own one thing each: [`model`] (the typed shape), [`catalog`]
//! (YAML loading and lint), [`ddl`] (rendering), [`flavor`] (server kinds).

pub mod catalog;
pub mod collation;
pub mod coltype;
pub mod db;
pub mod error;
pub mod flavor;
pub mod ident;
pub mod inspect;
pub mod model;
pub mod normalize;
pub mod readiness;

pub use coltype::{ColumnType, IntKind};
pub use error::{Error, Result};
pub use flavor::Flavor;
pub use ident::{quote_ident, quote_str, Ident};
pub use model::{Column, DefaultValue, Index, IndexKind, IndexPart, Table};
