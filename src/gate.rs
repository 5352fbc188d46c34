//! The curated gate: what a service calls at startup (and a deploy job to
//! apply), in terms of the pool it already has and the catalog it embeds.
//!
//! ```no_run
//! use std::time::Duration;
//! use schema_catalog::VerifyOptions;
//!
//! static CATALOG: schema_catalog::Embedded = schema_catalog::embed_catalog!("catalog");
//!
//! # async fn gate(pool: mysql_async::Pool) -> schema_catalog::Result<()> {
//! let opts = VerifyOptions::default().consumer("worker").deadline(Duration::from_secs(5));
//! let report = schema_catalog::verify(&pool, &CATALOG, &opts).await?;
//! report.into_result()?;
//! # Ok(()) }
//! ```
//!
//! The schema is the database the pool's (or target's) URL names.
//! [`crate::verify()`] is the one verify; [`apply()`] here is
//! [`crate::apply::run`] on the catalog's tables and widening opt-ins
//! ([`crate::catalog::Catalog::widens`]), with the schema the URL names.

use crate::acquire::Connector;
use crate::apply::{ApplyOptions, ApplyReport};
use crate::catalog::AsCatalog;
use crate::error::Result;

/// Applies `catalog` (all of it) to the schema `db` connects to, additively
/// ([`crate::apply::run`], with the catalog's widening opt-ins in place of
/// `opts.widens`). `db` is a pool or a target, never a single connection
/// ([`Connector`]).
///
/// On the service's pool it compiles:
///
/// ```no_run
/// # static CATALOG: schema_catalog::Embedded = schema_catalog::embed_catalog!("catalog");
/// # async fn deploy(pool: mysql_async::Pool) -> schema_catalog::Result<()> {
/// let report = schema_catalog::apply(&pool, &CATALOG, &Default::default()).await?;
/// # Ok(()) }
/// ```
///
/// On one connection, owned or lent, it does not (apply opens connections
/// of its own):
///
/// ```compile_fail,E0277
/// # static CATALOG: schema_catalog::Embedded = schema_catalog::embed_catalog!("catalog");
/// # async fn deploy(conn: &mut mysql_async::Conn) -> schema_catalog::Result<()> {
/// let report = schema_catalog::apply(conn, &CATALOG, &Default::default()).await?;
/// # Ok(()) }
/// ```
///
/// ```compile_fail,E0277
/// # static CATALOG: schema_catalog::Embedded = schema_catalog::embed_catalog!("catalog");
/// # async fn deploy(conn: mysql_async::Conn) -> schema_catalog::Result<()> {
/// let report = schema_catalog::apply(conn, &CATALOG, &Default::default()).await?;
/// # Ok(()) }
/// ```
pub async fn apply(
    db: impl Connector,
    catalog: &impl AsCatalog,
    opts: &ApplyOptions,
) -> Result<ApplyReport> {
    let catalog = catalog.as_catalog()?;
    let schema = db.schema(opts.read_timeout).await?;
    let tables = catalog.scoped(None);
    let opts = opts.clone().widens(catalog.widens());
    crate::apply::run(db, &schema, &tables, &opts).await
}
