//! Bring your own connection: the library runs on a [`Target`] it connects
//! to, on the caller's [`Pool`] or on the caller's [`Conn`] (owned or lent),
//! all through one trait.
//!
//! ```no_run
//! # async fn gate(pool: mysql_async::Pool, catalog: schema_catalog::catalog::Catalog) -> schema_catalog::Result<()> {
//! use std::time::Duration;
//! // The service's own pool; the whole gate within 5 s.
//! let opts = schema_catalog::VerifyOptions::default().schema("app").deadline(Duration::from_secs(5));
//! let report = schema_catalog::verify(&pool, &catalog, &opts).await?;
//! # Ok(()) }
//! ```

use std::future::Future;
use std::time::Duration;

use mysql_async::{Conn, Opts, Pool};

use crate::db::{self, Session, Target};
use crate::error::Result;

/// Something the library can open a [`Session`] on, within a deadline.
/// `'c` is how long the session may use what it was given: `'static` for
/// a target, a pool or an owned connection, the loan's lifetime for
/// `&mut Conn`.
pub trait Acquire<'c>: Send {
    /// Opens (or takes, or borrows) the connection and reads the server
    /// version, within `timeout`; the session's statements are bounded by
    /// `timeout` too.
    fn acquire(self, timeout: Duration) -> impl Future<Output = Result<Session<'c>>> + Send;
}

/// What apply runs on: a [`Target`] (it connects) or a [`Pool`] (it takes
/// connections from it; the pool needs room for two at once). Apply opens
/// connections of its own (the lock/DDL session and, while a step runs, a
/// side connection for progress reads and KILL QUERY on cancel), so a
/// single connection is not a connector: passing one does not compile.
///
/// ```compile_fail,E0277
/// # async fn f(conn: &mut mysql_async::Conn, tables: &[schema_catalog::Table]) {
/// let _ = schema_catalog::apply::run(conn, "app", tables, &Default::default()).await;
/// # }
/// ```
pub trait Connector: Acquire<'static> + Sync {
    /// How to open further connections to the same server.
    fn opener(&self) -> Opener;

    /// The database the target or pool connects to: the schema verify and
    /// apply work on. A pool says it on a connection taken (and given back)
    /// within `timeout`.
    fn schema(&self, timeout: Duration) -> impl Future<Output = Result<String>> + Send;
}

/// Opens new connections to the server an [`Acquire`] points at.
#[derive(Clone)]
pub enum Opener {
    /// Connect with these options.
    Opts(Box<Opts>),
    /// Take connections from this pool.
    Pool(Pool),
}

impl std::fmt::Debug for Opener {
    /// Never the options (they hold the password).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Opener::Opts(o) => write!(f, "Opener::Opts({}:{})", o.ip_or_hostname(), o.tcp_port()),
            Opener::Pool(_) => f.write_str("Opener::Pool"),
        }
    }
}

impl Opener {
    /// A new session of its own.
    pub async fn open(&self, timeout: Duration) -> Result<Session<'static>> {
        match self {
            Opener::Opts(opts) => {
                let target = Target::from_opts((**opts).clone());
                db::connect(&target, timeout).await
            }
            Opener::Pool(pool) => Session::from_pool(pool, timeout).await,
        }
    }
}

impl Acquire<'static> for &Target {
    async fn acquire(self, timeout: Duration) -> Result<Session<'static>> {
        db::connect(self, timeout).await
    }
}

impl Connector for &Target {
    fn opener(&self) -> Opener {
        Opener::Opts(Box::new(self.url.clone()))
    }

    async fn schema(&self, _timeout: Duration) -> Result<String> {
        Ok(self.schema.clone())
    }
}

impl Acquire<'static> for &Pool {
    async fn acquire(self, timeout: Duration) -> Result<Session<'static>> {
        Session::from_pool(self, timeout).await
    }
}

impl Connector for &Pool {
    fn opener(&self) -> Opener {
        Opener::Pool((*self).clone())
    }

    async fn schema(&self, timeout: Duration) -> Result<String> {
        let conn = db::pool_conn(self, timeout).await?;
        db::schema_of(conn.opts()).map(str::to_string)
    }
}

impl Acquire<'static> for Conn {
    async fn acquire(self, timeout: Duration) -> Result<Session<'static>> {
        Session::from_conn(self, timeout).await
    }
}

/// A session the caller already has, lent: the call runs on it (its
/// connection, server and per-statement deadline; `timeout` is not used).
impl<'c, 's: 'c> Acquire<'c> for &'c mut Session<'s> {
    async fn acquire(self, _timeout: Duration) -> Result<Session<'c>> {
        Ok(self.lend())
    }
}

impl<'c> Acquire<'c> for &'c mut Conn {
    async fn acquire(self, timeout: Duration) -> Result<Session<'c>> {
        Session::on(self, timeout).await
    }
}
