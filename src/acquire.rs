//! Bring your own connection: the library runs on a [`Target`] it connects
//! to, on the caller's [`Pool`] or on the caller's [`Conn`] (owned or lent),
//! all through one trait.
//!
//! ```no_run
//! # async fn gate(pool: mysql_async::Pool, catalog: schema_catalog::catalog::Catalog) -> schema_catalog::Result<()> {
//! use std::time::Duration;
//! // The service's own pool; the whole gate within 5 s.
//! let report = schema_catalog::verify::within(&pool, "app", &catalog, None, Duration::from_secs(5)).await?;
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

    /// How to open further connections to the same server, for apply's
    /// lock/DDL session and its side connections (KILL QUERY on cancel,
    /// progress reads). `None` for a single connection (owned or lent): the
    /// library never opens connections a caller did not hand it the means
    /// for, so apply refuses it ([`crate::Error::SingleConnection`]).
    fn opener(&self) -> Option<Opener>;
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

    fn opener(&self) -> Option<Opener> {
        Some(Opener::Opts(Box::new(self.url.clone())))
    }
}

impl Acquire<'static> for &Pool {
    async fn acquire(self, timeout: Duration) -> Result<Session<'static>> {
        Session::from_pool(self, timeout).await
    }

    fn opener(&self) -> Option<Opener> {
        Some(Opener::Pool((*self).clone()))
    }
}

impl Acquire<'static> for Conn {
    async fn acquire(self, timeout: Duration) -> Result<Session<'static>> {
        Session::from_conn(self, timeout).await
    }

    fn opener(&self) -> Option<Opener> {
        None
    }
}

impl<'c> Acquire<'c> for &'c mut Conn {
    async fn acquire(self, timeout: Duration) -> Result<Session<'c>> {
        Session::on(self, timeout).await
    }

    fn opener(&self) -> Option<Opener> {
        None
    }
}
