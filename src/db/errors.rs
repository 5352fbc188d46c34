//! Errors of connecting and of statements, one clear line each and never
//! the password; whether a statement hit the server's time limit.

use std::time::Duration;

use crate::error::Error;
use crate::server::code;

use super::Target;

/// Whether the server itself ended the statement at its session's statement
/// time limit (`max_execution_time` on MySQL/TiDB, `max_statement_time` on
/// MariaDB): the connection is clean and an idempotent read can be retried.
pub(crate) fn is_statement_timeout(e: &Error) -> bool {
    matches!(e, Error::Database { code: Some(c), .. } if code::statement_timeout(*c))
}

/// The last try's error, saying how often the read was tried.
pub(super) fn retries_spent(e: Error, tries: u32, budget: Duration) -> Error {
    e.with_context(&format!(
        "(tried {tries} times within the busy budget of {} s)",
        budget.as_secs()
    ))
}

/// Maps a failed connect to one clear line.
pub(super) fn connect_error(target: &Target, e: mysql_async::Error) -> Error {
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
pub(super) fn database_error(what: &str, e: mysql_async::Error, password: Option<&str>) -> Error {
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
