//! schema-catalog: a declarative catalog of MySQL-family system tables and the
//! operations that make a live database match it additively and exactly.
//!
//! Modules own one thing each: [`model`] (the typed shape), [`catalog`]
//! (YAML loading and lint), [`ddl`] (rendering), [`dump`] (parsing CREATE
//! TABLE text), [`diff`] (typed changes and problems), [`plan`] (ordering),
//! [`inspect`] (bounded reads), [`live`] (inspect and diff, shared by verify,
//! plan and apply), [`apply`](mod@apply) (the reconciler), [`verify`](mod@verify) (the startup
//! gate), [`fleet`] (many schemas and servers), [`import`], [`explain`],
//! [`review`] (release review); [`server`] holds what differs between
//! server vendors and releases ([`Server`], [`Flavor`], [`Version`]).
//!
//! A service's startup gate is two lines: the catalog directory compiled
//! in ([`embed_catalog!`], every file of it) and [`verify()`] on the
//! service's own pool, the schema being the database its URL names:
//!
//! ```no_run
//! # use std::time::Duration;
//! # use schema_catalog::VerifyOptions;
//! static CATALOG: schema_catalog::Embedded = schema_catalog::embed_catalog!("catalog");
//! # async fn gate(pool: mysql_async::Pool) -> schema_catalog::Result<()> {
//! let opts = VerifyOptions::default().consumer("worker").deadline(Duration::from_secs(5));
//! let report = schema_catalog::verify(&pool, &CATALOG, &opts).await?;
//! # Ok(()) }
//! ```
//!
//! [`apply()`] takes the same catalog type and a pool or a target
//! ([`Connector`]); a single connection does not compile there.

#![warn(missing_docs)]
#![warn(unnameable_types)]

mod acquire;
pub mod apply;
pub mod cost;
// The attribute contract (what inspection compares, what it refuses),
// public only for tests/it/attributes_live.rs, which holds the list against a
// live server's information_schema; not the library's API.
#[doc(hidden)]
pub mod attributes;
pub mod catalog;
pub(crate) mod collation;
pub(crate) mod coltype;
pub mod db;
// Database-URL handling for the `catalog` CLI crate (redacting passwords
// in its arguments); public for that crate only, not the library's API.
#[doc(hidden)]
pub mod dburl;
pub mod ddl;
pub(crate) mod dependency;
pub mod diff;
pub mod dump;
mod duration;
mod error;
pub mod explain;
mod expr;
pub mod finding;
pub mod fleet;
mod gate;
mod ident;
pub mod import;
pub mod inspect;
pub mod live;
pub mod model;
pub(crate) mod parallel;
pub mod plan;
pub mod readiness;
pub use apply::replica;
pub mod report;
pub mod review;
pub mod sarif;
pub mod server;
pub(crate) mod sql;
// The canonical printers of catalog expressions and engine names, public
// only for the workspace's own tests, which build models by hand; not the
// library's API.
#[doc(hidden)]
pub mod sqltext;
// The CLI's side-by-side table text; public for the `catalog` CLI crate
// only, not the library's API.
#[doc(hidden)]
pub mod textdiff;
pub(crate) mod tidb;
pub mod verify;
pub(crate) mod yaml_pos;

pub use acquire::{Acquire, Connector, Opener};
pub use catalog::{AsCatalog, Embedded};
pub use coltype::{
    auto_increment_use, AutoIncrementUse, ColumnType, IntKind, SpatialKind, UnknownType,
};
pub use ddl::ColumnAlgorithm;
pub use dump::{parse_create_table, parse_dump, read_dump, Dump, DumpParseError};
pub use error::{Error, Result};
pub use gate::apply;
pub use ident::{quote_ident, quote_str, Ident};
pub use model::{
    Column, DefaultValue, ForeignKey, FullTextParser, Index, IndexKind, IndexPart,
    ReferentialAction, Table, TableKind,
};
/// Embeds every file of a catalog directory: `static CATALOG: Embedded = embed_catalog!("catalog");`
/// (the path is relative to the crate's `Cargo.toml`; see [`Embedded`]).
pub use schema_catalog_macros::embed_catalog;
pub use server::{Flavor, Server, Version};
pub use verify::{verify, Consumer, VerifyOptions};
