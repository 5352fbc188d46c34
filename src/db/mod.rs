//! Connecting to the target database: URL parsing, bounded connect and
//! bounded statements, and error messages that never carry the password.
//!
//! One [`Session`] is one connection used sequentially; every statement it
//! runs is bounded by the session's timeout. After a [`Error::Timeout`] the
//! connection is in an unknown state: drop the session.
//!
//! Files: `target` (URLs and where to connect), `errors` (error messages
//! without the password; whether a statement hit its time limit); the
//! session is here. What the server is ([`Server`]) is `crate::server`'s.

use std::future::Future;
use std::time::Duration;

use mysql_async::prelude::*;
use mysql_async::{Conn, Params, Row};

use crate::error::{Error, Result};
use crate::server::Flavor;
use crate::server::{Server, ServerIdentity};

mod errors;
mod target;

pub(crate) use errors::is_statement_timeout;
use errors::{connect_error, database_error, retries_spent};
pub(crate) use target::schema_of;
pub use target::{parse_server_url, parse_url, redact, Target};

/// The connection a session runs on: its own, or one the caller lends.
enum Handle<'c> {
    Owned(Conn),
    Borrowed(&'c mut Conn),
}

impl Handle<'_> {
    fn conn(&mut self) -> &mut Conn {
        match self {
            Handle::Owned(c) => c,
            Handle::Borrowed(c) => c,
        }
    }
}

/// One connection to the target, used sequentially, with a per-statement
/// deadline. `Session<'static>` owns its connection ([`connect`],
/// [`Session::from_conn`], [`Session::from_pool`]); `Session<'c>` runs on a
/// connection the caller lends for `'c` ([`Session::on`]).
pub struct Session<'c> {
    conn: Handle<'c>,
    /// What the server is, read when the session started (its identity
    /// always present: this is a live server).
    server: Server,
    timeout: Duration,
    display: String,
    password: Option<String>,
    /// Reads cut short by the server's own statement time limit are tried
    /// again, with backoff, for this long in all (`None`: never).
    read_retry: Option<Duration>,
    /// Reads tried again so far under `read_retry`.
    read_retries: u32,
}

impl std::fmt::Debug for Session<'_> {
    /// Target, server and deadline; never the password.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("target", &self.display)
            .field("server", &self.server)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

/// Connects to `target` and reads `VERSION()`, both within `timeout`.
///
/// Errors, one line each: the server cannot be reached, the login was refused
/// (1045), the schema does not exist (1049), or the deadline passed.
pub async fn connect(target: &Target, timeout: Duration) -> Result<Session<'static>> {
    let what = format!("connecting to {}", target.display);
    let conn = bounded(timeout, &what, Conn::new(target.url.clone()))
        .await?
        .map_err(|e| connect_error(target, e))?;
    Session::start(Handle::Owned(conn), timeout).await
}

impl Session<'static> {
    /// A session on a connection the caller opened (reads `VERSION()`
    /// within `timeout`). Every later statement is bounded by `timeout` too.
    pub async fn from_conn(conn: Conn, timeout: Duration) -> Result<Session<'static>> {
        Session::start(Handle::Owned(conn), timeout).await
    }

    /// A session on a connection taken from the caller's pool (returned to
    /// the pool when the session is dropped), taken within `timeout`.
    pub async fn from_pool(
        pool: &mysql_async::Pool,
        timeout: Duration,
    ) -> Result<Session<'static>> {
        let conn = pool_conn(pool, timeout).await?;
        Session::start(Handle::Owned(conn), timeout).await
    }
}

/// A connection taken from `pool` within `timeout`.
pub(crate) async fn pool_conn(pool: &mysql_async::Pool, timeout: Duration) -> Result<Conn> {
    let what = "taking a connection from the pool";
    bounded(timeout, what, pool.get_conn())
        .await?
        .map_err(|e| Error::Connect {
            // A pool does not say where it connects.
            target: "the pool's server".to_string(),
            message: e.to_string(),
            source: Some(e),
        })
}

impl<'c> Session<'c> {
    /// A session on the caller's connection, lent for the session's life.
    /// After an [`Error::Timeout`] the connection is in an unknown state:
    /// the caller should drop it.
    pub async fn on(conn: &'c mut Conn, timeout: Duration) -> Result<Session<'c>> {
        Session::start(Handle::Borrowed(conn), timeout).await
    }

    /// This session lent for `'c`: the same connection, server, deadline
    /// and read retries, nothing read again. Reads retried on the loan are
    /// not counted here.
    pub(crate) fn lend(&mut self) -> Session<'_> {
        Session {
            conn: Handle::Borrowed(self.conn.conn()),
            server: self.server.clone(),
            timeout: self.timeout,
            display: self.display.clone(),
            password: self.password.clone(),
            read_retry: self.read_retry,
            read_retries: 0,
        }
    }

    /// Reads the server's version and identity on a new session.
    async fn start(mut conn: Handle<'c>, timeout: Duration) -> Result<Session<'c>> {
        let opts = conn.conn().opts().clone();
        let display = Target::from_opts(opts.clone()).display;
        let password = opts.pass().map(str::to_string);
        let identity = read_identity(&mut conn, timeout, password.as_deref()).await?;
        let server = Server::from_identity(identity).map_err(|e| Error::Connect {
            target: display.clone(),
            message: e.to_string(),
            source: None,
        })?;
        Ok(Session {
            conn,
            server,
            timeout,
            display,
            password,
            read_retry: None,
            read_retries: 0,
        })
    }

    /// The per-statement deadline, changed.
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }

    /// Reads ([`Session::exec_rows`]) that the server ends at its own
    /// statement time limit (see [`is_statement_timeout`]) are tried again
    /// with backoff until `budget` has passed since the first try. Reads are
    /// idempotent, and a statement the server ended leaves the connection
    /// clean; a read the client's own deadline cut is never retried (the
    /// connection is in an unknown state then). Apply sets this to its busy
    /// budget, with the server's limit below the client's deadline.
    pub(crate) fn retry_reads_within(&mut self, budget: Option<Duration>) {
        self.read_retry = budget;
    }

    /// How many reads were tried again under [`Session::retry_reads_within`].
    pub(crate) fn read_retries(&self) -> u32 {
        self.read_retries
    }

    /// What the server is: flavor, version and identity, read when the
    /// session started.
    pub fn server(&self) -> &Server {
        &self.server
    }

    /// Who the server says it is (hostname, port, version, server_uuid),
    /// read right after connecting.
    pub fn identity(&self) -> &ServerIdentity {
        self.server
            .identity()
            .expect("a session's server is read from its connection, identity included")
    }

    /// The server's flavor.
    pub fn flavor(&self) -> Flavor {
        self.server.flavor()
    }

    /// The database the connection was opened on (the URL's), the schema
    /// the gate works on; a usage error when the URL names none.
    pub fn schema(&mut self) -> Result<String> {
        schema_of(self.conn.conn().opts()).map(str::to_string)
    }

    /// `host:port/db` of the target.
    pub fn display(&self) -> &str {
        &self.display
    }

    /// The per-statement deadline.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// The underlying connection, for callers that run their own statements
    /// (wrap them in [`Session::run`] to keep the deadline).
    pub fn conn(&mut self) -> &mut Conn {
        self.conn.conn()
    }

    /// Runs one prepared statement (binary protocol) with bound parameters
    /// and returns its rows, within the deadline. `what` names the read in errors.
    ///
    /// Under `Session::retry_reads_within`, a read the server ended at its
    /// statement time limit is tried again until the budget is spent; the
    /// last server error is returned then, saying how often it was tried.
    pub(crate) async fn exec_rows(
        &mut self,
        what: &str,
        sql: &str,
        params: Params,
    ) -> Result<Vec<Row>> {
        let sql = sql.to_string();
        self.read(what, move |c| {
            let (sql, params) = (sql.clone(), params.clone());
            Box::pin(async move { c.exec(sql, params).await })
        })
        .await
    }

    /// Runs one read (`attempt`, called once per try) within the deadline,
    /// under [`Session::retry_reads_within`] as [`Session::exec_rows`].
    pub(crate) async fn read<T>(
        &mut self,
        what: &str,
        mut attempt: impl for<'k> FnMut(
            &'k mut Conn,
        ) -> futures_util::future::BoxFuture<
            'k,
            std::result::Result<T, mysql_async::Error>,
        >,
    ) -> Result<T> {
        let Some(budget) = self.read_retry else {
            return self.run(what, attempt).await;
        };
        let started = std::time::Instant::now();
        let mut pause = RETRY_FIRST_PAUSE;
        let mut tries = 1u32;
        loop {
            match self.run(what, &mut attempt).await {
                Err(e) if is_statement_timeout(&e) => {
                    if started.elapsed() + pause >= budget {
                        return Err(retries_spent(e, tries, budget));
                    }
                    // A backoff between tries of a read the server cut
                    // short, not a wait for a condition.
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(RETRY_LONGEST_PAUSE);
                    tries += 1;
                    self.read_retries += 1;
                }
                other => return other,
            }
        }
    }

    /// Runs any statement on the connection within the deadline, mapping the
    /// driver error to [`Error::Database`] with `what` as context.
    pub async fn run<'a, T, F, Fut>(&'a mut self, what: &str, f: F) -> Result<T>
    where
        F: FnOnce(&'a mut Conn) -> Fut,
        Fut: Future<Output = std::result::Result<T, mysql_async::Error>>,
    {
        let timeout = self.timeout;
        self.run_within(Some(timeout), what, f).await
    }

    /// [`Session::run`] with another deadline: `None` for statements that
    /// may rightly run long (DDL), a longer one for a lock wait. A server
    /// error keeps its code in [`Error::Database`].
    pub(crate) async fn run_within<'a, T, F, Fut>(
        &'a mut self,
        deadline: Option<Duration>,
        what: &str,
        f: F,
    ) -> Result<T>
    where
        F: FnOnce(&'a mut Conn) -> Fut,
        Fut: Future<Output = std::result::Result<T, mysql_async::Error>>,
    {
        let password = self.password.clone();
        let fut = f(self.conn.conn());
        let result = match deadline {
            Some(d) => bounded(d, what, fut).await?,
            None => fut.await,
        };
        result.map_err(|e| database_error(what, e, password.as_deref()))
    }

    /// Makes `schema` the session's current database (`USE`, the name
    /// through the quoting helper): a session kept for another schema of
    /// the same server, whose unqualified DDL then lands in `schema`.
    pub(crate) async fn use_schema(&mut self, schema: &str) -> Result<()> {
        let sql = format!("USE {}", crate::ident::quote_ident(schema));
        let what = format!("selecting schema {}", crate::ident::quote_ident(schema));
        self.run(&what, |c| c.query_drop(sql)).await
    }

    /// Closes the connection politely; a lent connection is left open
    /// for its owner.
    pub async fn disconnect(self) -> Result<()> {
        let Handle::Owned(conn) = self.conn else {
            return Ok(());
        };
        let what = format!("disconnecting from {}", self.display);
        let password = self.password.clone();
        bounded(self.timeout, &what, conn.disconnect())
            .await?
            .map_err(|e| database_error(&what, e, password.as_deref()))
    }
}

/// First pause before a read the server cut short is tried again; it
/// doubles up to [`RETRY_LONGEST_PAUSE`].
const RETRY_FIRST_PAUSE: Duration = Duration::from_millis(100);
/// Longest pause between two tries of a read.
const RETRY_LONGEST_PAUSE: Duration = Duration::from_secs(2);

/// Awaits `fut` for at most `timeout`; `what` names it in the timeout error.
pub async fn bounded<F: Future>(timeout: Duration, what: &str, fut: F) -> Result<F::Output> {
    tokio::time::timeout(timeout, fut)
        .await
        .map_err(|_| Error::Timeout {
            what: what.to_string(),
            seconds: timeout.as_secs_f64().ceil() as u64,
        })
}

/// Reads the identity on a new connection, the server's version with it:
/// one constant text-protocol statement (a round trip; a prepared one would
/// take two), and on MySQL a second one for `@@server_uuid` (MariaDB and
/// TiDB have no such variable, and which server it is is known only now).
/// Values are decoded explicitly: the text protocol sends them as bytes.
/// Each statement is bounded by `timeout`.
async fn read_identity(
    conn: &mut Handle<'_>,
    timeout: Duration,
    password: Option<&str>,
) -> Result<ServerIdentity> {
    let what = "reading the server version and identity";
    let row: Option<(Option<String>, Option<String>, Option<String>)> = bounded(
        timeout,
        what,
        conn.conn()
            .query_first("SELECT VERSION(), @@hostname, @@port"),
    )
    .await?
    .map_err(|e| database_error(what, e, password))?;
    let (version, hostname, port) = row.unwrap_or_default();
    let version = version.unwrap_or_default();
    let port = port.and_then(|p| p.trim().parse::<u64>().ok()).unwrap_or(0);
    let server_uuid = if Flavor::detect(&version).has_server_uuid() {
        let what = "reading the server uuid";
        bounded(
            timeout,
            what,
            conn.conn().query_first::<String, _>("SELECT @@server_uuid"),
        )
        .await?
        .map_err(|e| database_error(what, e, password))?
    } else {
        None
    };
    Ok(ServerIdentity {
        hostname: hostname.unwrap_or_default(),
        port,
        version,
        server_uuid,
    })
}
