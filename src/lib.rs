//! schema-catalog: a declarative catalog of MySQL-family system tables and the
//! operations that make a live database match it additively and exactly.
//!
//! Modules own one thing each: [`model`] (the typed shape), [`catalog`]
//! (YAML loading and lint), [`ddl`] (rendering), [`dump`] (parsing CREATE
//! TABLE text), [`diff`] (typed changes and problems), [`plan`] (ordering),
//! [`inspect`] (bounded reads), [`live`] (inspect and diff, shared by verify,
//! plan and apply), [`apply`] (the reconciler), [`verify`] (the startup
//! gate), [`flavor`] (server kinds).

pub mod acquire;
pub mod apply;
pub mod catalog;
pub mod collation;
pub mod coltype;
pub mod db;
pub mod dburl;
pub mod ddl;
pub mod dependency;
pub mod diff;
pub mod dump;
pub mod error;
pub mod explain;
mod expr;
pub mod finding;
pub mod flavor;
pub mod fleet;
pub mod ident;
pub mod import;
pub mod import_gate;
pub mod inspect;
pub mod live;
pub mod model;
pub mod normalize;
pub mod plan;
pub mod readiness;
pub mod report;
pub mod review;
pub mod server;

pub mod sql;
pub mod sqltext;
pub mod textdiff;
pub mod tidb;
pub mod verify;

pub use acquire::Acquire;
pub use coltype::{ColumnType, IntKind};
pub use ddl::ColumnAlgorithm;
pub use dump::{parse_create_table, parse_dump, read_dump, Dump, DumpParseError};
pub use error::{Error, Result};
pub use flavor::Flavor;
pub use ident::{quote_ident, quote_str, Ident};
pub use model::{
    Column, DefaultValue, ForeignKey, FullTextParser, Index, IndexKind, IndexPart,
    ReferentialAction, Table, TableKind,
};
