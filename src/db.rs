//! Connecting to the target database: URL parsing, bounded connect and
//! bounded statements, and error messages that never carry the password.
//!
//! One [`Session`] is one connection used sequentially; every statement it
//! runs is bounded by the session's timeout. After a [`Error::Timeout`] the
//! connection is in an unknown state: drop the session.

use std::future::Future;
use std::time::Duration;

use mysql_async::prelude::*;
use mysql_async::{Conn, Opts, Params, Row};

use crate::error::{Error, Result};
use crate::flavor::{tidb_release, Flavor};
use crate::server::{code, ServerIdentity};

/// Where to connect: parsed options plus a printable name without secrets.
/// Its `Debug` output omits the options (they hold the password).
#[derive(Clone)]
pub struct Target {
    /// Connection options (TLS and other query parameters as mysql_async reads them).
    pub url: Opts,
    /// The target schema (the database named in the URL).
    pub schema: String,
    /// `host:port/db`, for messages; never contains the password.
    pub display: String,
}

impl std::fmt::Debug for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Target")
            .field("schema", &self.schema)
            .field("display", &self.display)
            .finish_non_exhaustive()
    }
}

impl Target {
    /// A target from connection options the caller built (the schema is
    /// their database, empty when they name none).
    pub fn from_opts(url: Opts) -> Target {
        let schema = url.db_name().unwrap_or("").to_string();
        let display = match url.socket() {
            Some(socket) => format!("{socket} (Unix socket)/{schema}"),
            None => format!("{}:{}/{}", url.ip_or_hostname(), url.tcp_port(), schema),
        };
        Target {
            url,
            schema,
            display,
        }
    }

    /// `host:port`, for messages.
    pub fn host_port(&self) -> String {
        format!("{}:{}", self.url.ip_or_hostname(), self.url.tcp_port())
    }
}

/// What the server is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerInfo {
    /// Flavor detected from `VERSION()`.
    pub flavor: Flavor,
    /// The full `VERSION()` string.
    pub version: String,
}

impl ServerInfo {
    /// Classifies a `VERSION()` string.
    pub fn from_version(version: &str) -> ServerInfo {
        ServerInfo {
            flavor: Flavor::detect(version),
            version: version.to_string(),
        }
    }

    /// Whether STATISTICS has MariaDB's `IGNORED` column (MariaDB 10.6+).
    pub fn has_ignored_indexes(&self) -> bool {
        if self.flavor != Flavor::MariaDb {
            return false;
        }
        // Some proxies prefix MariaDB versions with `5.5.5-`.
        let v = self.version.strip_prefix("5.5.5-").unwrap_or(&self.version);
        let mut nums = v
            .split(|c: char| !c.is_ascii_digit())
            .map(|n| n.parse::<u32>().ok());
        match (nums.next().flatten(), nums.next().flatten()) {
            (Some(major), Some(minor)) => (major, minor) >= (10, 6),
            _ => true,
        }
    }

    /// Whether the server takes `JSON_TABLE` joined `LATERAL` (MySQL
    /// 8.0.14+): a listed read then joins each name to the views by
    /// equality. An unparsable MySQL version is treated as old.
    pub fn has_lateral_json_table(&self) -> bool {
        if self.flavor != Flavor::MySql {
            return false;
        }
        let mut nums = self
            .version
            .split(|c: char| !c.is_ascii_digit())
            .map(|n| n.parse::<u32>().ok());
        match (
            nums.next().flatten(),
            nums.next().flatten(),
            nums.next().flatten(),
        ) {
            (Some(major), Some(minor), Some(patch)) => (major, minor, patch) >= (8, 0, 14),
            _ => false,
        }
    }

    /// Whether `information_schema.STATISTICS` may list indexes that are still
    /// being built. TiDB before v8.5.3 does (CONTEXT.md); such servers are
    /// inspected through `information_schema.TIDB_INDEXES`, which lists public
    /// indexes only. An unparsable TiDB version is treated as old (safe side).
    pub fn statistics_lists_building_indexes(&self) -> bool {
        self.flavor == Flavor::TiDb
            && !matches!(tidb_release(&self.version), Some(release) if release >= (8, 5, 3))
    }
}

/// Parses `mysql://user:pass@host:port/db[?require_ssl=true&...]`
/// (see [`crate::dburl`]: `prefer_socket` is off; `?socket=PATH` asks for a
/// Unix socket explicitly).
///
/// The database is required: it is the target schema. Query parameters are
/// the ones mysql_async understands (`require_ssl`, `verify_ca`,
/// `verify_identity`, `built_in_roots`, `socket`, ...). Errors never contain
/// the password.
pub fn parse_url(url: &str) -> Result<Target> {
    let opts = parse_opts(url)?;
    if opts.db_name().is_none_or(str::is_empty) {
        return Err(Error::Usage(format!(
            "the database URL {} names no database; use mysql://user:pass@host:port/db",
            redact(url)
        )));
    }
    Ok(Target::from_opts(opts))
}

/// Like [`parse_url`], for a server rather than a schema: the database may
/// be absent (`catalog explain --scratch` makes its own schema); `schema`
/// is then empty.
pub fn parse_server_url(url: &str) -> Result<Target> {
    let opts = parse_opts(url)?;
    if opts.db_name().is_some_and(|db| !db.is_empty()) {
        return Ok(Target::from_opts(opts));
    }
    let display = match opts.socket() {
        Some(socket) => format!("{socket} (Unix socket)"),
        None => format!("{}:{}", opts.ip_or_hostname(), opts.tcp_port()),
    };
    Ok(Target {
        url: opts,
        schema: String::new(),
        display,
    })
}

/// The URL's connection options; a URL that does not parse is a usage
/// error (without the password).
fn parse_opts(url: &str) -> Result<Opts> {
    crate::dburl::parse(url).map_err(|e| Error::Usage(format!("invalid database URL {e}")))
}

/// The URL with the password (userinfo or `password=`) replaced by `***`;
/// `<unparseable URL>` for text that is not a `mysql://` URL with a host.
pub fn redact(url: &str) -> String {
    crate::dburl::redact(url)
}

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
    info: ServerInfo,
    timeout: Duration,
    display: String,
    password: Option<String>,
    identity: ServerIdentity,
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
            .field("info", &self.info)
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

/// The database named in the connection options: the schema to work on.
pub(crate) fn schema_of(opts: &Opts) -> Result<&str> {
    opts.db_name().filter(|db| !db.is_empty()).ok_or_else(|| {
        Error::Usage(format!(
            "the connection to {} names no database; the schema is the database of the pool's or target's URL (mysql://user:pass@host:port/db)",
            Target::from_opts(opts.clone()).display
        ))
    })
}

impl<'c> Session<'c> {
    /// A session on the caller's connection, lent for the session's life.
    /// After an [`Error::Timeout`] the connection is in an unknown state:
    /// the caller should drop it.
    pub async fn on(conn: &'c mut Conn, timeout: Duration) -> Result<Session<'c>> {
        Session::start(Handle::Borrowed(conn), timeout).await
    }

    /// Reads the server's version and identity on a new session.
    async fn start(mut conn: Handle<'c>, timeout: Duration) -> Result<Session<'c>> {
        let opts = conn.conn().opts().clone();
        let mut session = Session {
            conn,
            info: ServerInfo::from_version(""),
            timeout,
            display: Target::from_opts(opts.clone()).display,
            password: opts.pass().map(str::to_string),
            identity: ServerIdentity::default(),
            read_retry: None,
            read_retries: 0,
        };
        session.identity = read_identity(&mut session).await?;
        session.info = ServerInfo::from_version(&session.identity.version);
        Ok(session)
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

    /// The server's flavor and version.
    pub fn info(&self) -> &ServerInfo {
        &self.info
    }

    /// Who the server says it is (hostname, port, version, server_uuid),
    /// read right after connecting.
    pub fn identity(&self) -> &ServerIdentity {
        &self.identity
    }

    /// The server's flavor.
    pub fn flavor(&self) -> Flavor {
        self.info.flavor
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
    pub async fn exec_rows(&mut self, what: &str, sql: &str, params: Params) -> Result<Vec<Row>> {
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
    pub async fn run_within<'a, T, F, Fut>(
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

/// MySQL's and TiDB's `max_execution_time` (ER_QUERY_TIMEOUT).
pub(crate) const ER_QUERY_TIMEOUT: u16 = 3024;
/// MariaDB's `max_statement_time` (ER_STATEMENT_TIMEOUT).
pub(crate) const ER_STATEMENT_TIMEOUT: u16 = 1969;

/// Whether the server itself ended the statement at its session's statement
/// time limit (`max_execution_time` on MySQL/TiDB, `max_statement_time` on
/// MariaDB): the connection is clean and an idempotent read can be retried.
pub(crate) fn is_statement_timeout(e: &Error) -> bool {
    matches!(
        e,
        Error::Database {
            code: Some(ER_QUERY_TIMEOUT | ER_STATEMENT_TIMEOUT),
            ..
        }
    )
}

/// The last try's error, saying how often the read was tried.
fn retries_spent(e: Error, tries: u32, budget: Duration) -> Error {
    match e {
        Error::Database {
            context,
            code,
            message,
            source,
        } => Error::Database {
            context: format!(
                "{context} (tried {tries} times within the busy budget of {} s)",
                budget.as_secs()
            ),
            code,
            message,
            source,
        },
        other => other,
    }
}

/// Awaits `fut` for at most `timeout`; `what` names it in the timeout error.
pub async fn bounded<F: Future>(timeout: Duration, what: &str, fut: F) -> Result<F::Output> {
    tokio::time::timeout(timeout, fut)
        .await
        .map_err(|_| Error::Timeout {
            what: what.to_string(),
            seconds: timeout.as_secs_f64().ceil() as u64,
        })
}

/// Maps a failed connect to one clear line.
fn connect_error(target: &Target, e: mysql_async::Error) -> Error {
    use mysql_async::Error as E;
    let password = target.url.pass();
    let message = match &e {
        E::Server(s) if code::unknown_database(s.code) => {
            return Error::UnknownSchema {
                schema: target.schema.clone(),
                host: target.host_port(),
            };
        }
        E::Server(s) if code::access_denied(s.code) => format!(
            "login refused for user `{}` (error 1045); check the user name and password \
             (a password with `@`, `:`, `/` or `%` must be percent-encoded: %40, %3A, %2F, %25)",
            target.url.user().unwrap_or("")
        ),
        E::Server(s) => format!("server error {}: {}", s.code, s.message),
        // MySQL answers a login for an unknown user with a made-up plugin
        // (often sha256_password) rather than a refusal.
        E::Driver(mysql_async::DriverError::UnknownAuthPlugin { name }) => format!(
            "login refused for user `{}`: the server asks for authentication plugin `{name}`, \
             which this client does not support (MySQL also answers an unknown user this way); \
             check the user name, or give the user caching_sha2_password or mysql_native_password",
            target.url.user().unwrap_or("")
        ),
        // rustls reports a refused certificate as InvalidData on the socket.
        E::Io(mysql_async::IoError::Io(io)) if io.kind() == std::io::ErrorKind::InvalidData => {
            format!("TLS handshake failed: {io}")
        }
        E::Io(mysql_async::IoError::Io(io)) => format!("server unreachable: {io}"),
        E::Io(tls) => format!("TLS handshake failed: {tls}"),
        other => other.to_string(),
    };
    Error::Connect {
        target: target.display.clone(),
        message: scrub(&message, password),
        source: Some(e),
    }
}

/// Maps a failed statement to [`Error::Database`].
fn database_error(what: &str, e: mysql_async::Error, password: Option<&str>) -> Error {
    let (code, message) = match &e {
        mysql_async::Error::Server(s) => (Some(s.code), s.message.clone()),
        other => (None, other.to_string()),
    };
    Error::Database {
        context: what.to_string(),
        code,
        message: scrub(&message, password),
        source: Some(e),
    }
}

/// Removes the password from a message, should a driver ever echo it.
fn scrub(message: &str, password: Option<&str>) -> String {
    match password {
        Some(p) if !p.is_empty() => message.replace(p, "***"),
        _ => message.to_string(),
    }
}

/// Reads the identity on `session`, the server's version with it: one
/// constant text-protocol statement (a round trip; a prepared one would
/// take two), and on MySQL a second one for `@@server_uuid` (MariaDB and
/// TiDB have no such variable, and which server it is is known only now).
/// Values are decoded explicitly: the text protocol sends them as bytes.
pub(crate) async fn read_identity(session: &mut Session<'_>) -> Result<ServerIdentity> {
    let row: Option<(Option<String>, Option<String>, Option<String>)> = session
        .run("reading the server version and identity", |c| {
            c.query_first("SELECT VERSION(), @@hostname, @@port")
        })
        .await?;
    let (version, hostname, port) = row.unwrap_or_default();
    let version = version.unwrap_or_default();
    let port = port.and_then(|p| p.trim().parse::<u64>().ok()).unwrap_or(0);
    let server_uuid = match Flavor::detect(&version) {
        Flavor::MySql => {
            session
                .run("reading the server uuid", |c| {
                    c.query_first::<String, _>("SELECT @@server_uuid")
                })
                .await?
        }
        Flavor::MariaDb | Flavor::TiDb => None,
    };
    Ok(ServerIdentity {
        hostname: hostname.unwrap_or_default(),
        port,
        version,
        server_uuid,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_target_without_leaking_password() {
        let t = parse_url("mysql://app:s3cret@db.example:4000/sys").unwrap();
        assert_eq!(t.schema, "sys");
        assert_eq!(t.display, "db.example:4000/sys");
        assert_eq!(t.host_port(), "db.example:4000");
        assert!(!t.display.contains("s3cret"));
        assert!(!format!("{t:?}").contains("s3cret"));
    }

    #[test]
    fn tls_parameters_are_accepted() {
        let t = parse_url("mysql://app:pw@h:3306/db?require_ssl=true&verify_ca=false").unwrap();
        assert!(t.url.ssl_opts().is_some());
    }

    #[test]
    fn missing_database_is_a_usage_error() {
        for url in ["mysql://app:s3cret@h:3306", "mysql://app:s3cret@h:3306/"] {
            let err = parse_url(url).unwrap_err();
            assert!(matches!(err, Error::Usage(_)), "{err}");
            assert!(!err.to_string().contains("s3cret"), "{err}");
        }
    }

    #[test]
    fn lateral_json_table_from_mysql_8_0_14() {
        let has = |v: &str| ServerInfo::from_version(v).has_lateral_json_table();
        assert!(has("8.0.14") && has("8.0.36") && has("8.4.3") && has("9.7.4"));
        assert!(!has("8.0.13") && !has("8.0.11") && !has("mysql"));
        assert!(!has("10.11.19-MariaDB") && !has("8.0.11-TiDB-v8.5.3"));
    }

    #[test]
    fn bad_urls_do_not_leak_password() {
        for url in [
            "postgres://app:s3cret@h/db",
            "mysql://app:s3cret@h/db?bogus=1",
        ] {
            let err = parse_url(url).unwrap_err();
            assert!(!err.to_string().contains("s3cret"), "{err}");
        }
    }

    #[test]
    fn redacts_password() {
        assert_eq!(
            redact("mysql://app:s3cret@h:1/db"),
            "mysql://app:***@h:1/db"
        );
        assert!(!redact("mysql://app:p@ss@h/db").contains("p@ss"));
        assert_eq!(redact("mysql://app@h/db"), "mysql://app@h/db");
        assert_eq!(redact("mysql://h/db"), "mysql://h/db");
    }

    #[test]
    fn old_tidb_lists_building_indexes() {
        let old = ServerInfo::from_version("8.0.11-TiDB-v8.5.1");
        let new = ServerInfo::from_version("8.0.11-TiDB-v8.5.3");
        let maria = ServerInfo::from_version("10.11.19-MariaDB");
        assert!(old.statistics_lists_building_indexes());
        assert!(!new.statistics_lists_building_indexes());
        assert!(!maria.statistics_lists_building_indexes());
        assert!(ServerInfo::from_version("8.0.11-TiDB-vX").statistics_lists_building_indexes());
    }

    #[test]
    fn mariadb_ignored_indexes_since_10_6() {
        assert!(ServerInfo::from_version("10.11.19-MariaDB-0+deb12u1").has_ignored_indexes());
        assert!(ServerInfo::from_version("5.5.5-10.6.1-MariaDB").has_ignored_indexes());
        assert!(!ServerInfo::from_version("10.5.9-MariaDB").has_ignored_indexes());
        assert!(!ServerInfo::from_version("8.0.36").has_ignored_indexes());
    }
}
