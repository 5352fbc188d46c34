//! The curated gate: what a service calls at startup (and a deploy job to
//! apply), in terms of the pool it already has and the catalog it embeds.
//!
//! ```no_run
//! use std::time::Duration;
//! use schema_catalog::Consumer;
//!
//! static CATALOG: schema_catalog::Embedded = schema_catalog::embed_catalog!("catalog");
//!
//! # async fn gate(pool: mysql_async::Pool) -> schema_catalog::Result<()> {
//! let report = schema_catalog::verify(&pool, &CATALOG, Consumer::named("worker"), Duration::from_secs(5)).await?;
//! report.into_result()?;
//! # Ok(()) }
//! ```
//!
//! The schema is the database the pool's (or target's) URL names. These
//! are thin: [`crate::verify::within`] and [`crate::apply::apply`] are the
//! engine, with the schema and the table list given explicitly.

use std::time::Duration;

use crate::acquire::{Acquire, Connector};
use crate::apply::{ApplyOptions, ApplyReport};
use crate::catalog::AsCatalog;
use crate::db::bounded;
use crate::error::Result;
use crate::verify::VerifyReport;

/// Whose part of the catalog verify checks.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Consumer {
    /// The whole catalog.
    #[default]
    All,
    /// The base contract plus what `required_by` lists for this consumer.
    Named(String),
}

impl Consumer {
    /// The consumer of this name (`Consumer::named("worker")`).
    pub fn named(name: impl Into<String>) -> Consumer {
        Consumer::Named(name.into())
    }

    /// The name, `None` for [`Consumer::All`].
    pub fn name(&self) -> Option<&str> {
        match self {
            Consumer::All => None,
            Consumer::Named(n) => Some(n),
        }
    }
}

/// The startup gate: verifies the schema `db` connects to (a pool, a
/// target, or a connection, owned or lent) against `catalog` (or the
/// consumer's part of it), the whole run within `deadline`
/// ([`crate::Error::Timeout`] past it). The report says whether the schema
/// is ready; [`VerifyReport::into_result`] turns "not ready" into
/// [`crate::Error::Drift`]. An invalid catalog is
/// [`crate::Error::InvalidCatalog`]; nothing is read then.
pub async fn verify<'c>(
    db: impl Acquire<'c>,
    catalog: &impl AsCatalog,
    consumer: Consumer,
    deadline: Duration,
) -> Result<VerifyReport> {
    let catalog = catalog.as_catalog()?;
    bounded(deadline, "verify", async {
        let mut session = db.acquire(deadline).await?;
        let schema = session.schema()?;
        crate::verify::verify(&mut session, &schema, catalog, consumer.name()).await
    })
    .await?
}

/// Applies `catalog` (all of it) to the schema `db` connects to, additively
/// ([`crate::apply::apply`]). `db` is a pool or a target, never a single
/// connection ([`Connector`]).
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
    crate::apply::apply(db, &schema, &tables, opts).await
}
