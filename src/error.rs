//! The library's error type. Messages say what is wrong, naming the object;
//! they never contain a password and give no command-line advice (the CLI
//! adds its own: which option to raise, which command to run). A caller
//! matches the variant: cannot connect ([`Error::Connect`],
//! [`Error::UnknownSchema`]), timed out ([`Error::Timeout`]), catalog invalid
//! ([`Error::InvalidCatalog`]), schema not ready ([`Error::Drift`]), busy
//! ([`Error::LockHeld`]), database error with its code
//! ([`Error::Database`]). Errors a driver caused keep it as their
//! [`std::error::Error::source`].

use std::path::PathBuf;

/// Every error the library returns.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The catalog failed `check`; `problems` lists every finding.
    #[error("the catalog in {} is invalid ({} error(s))", .dir.display(), .errors)]
    InvalidCatalog {
        /// Catalog directory.
        dir: PathBuf,
        /// Number of errors.
        errors: usize,
        /// Every finding of the check (errors and warnings), sorted by file
        /// and position.
        problems: Vec<crate::finding::lint::Problem>,
    },
    /// The fleet file failed its lint; every finding names the file, a
    /// line and the object (server, stage).
    #[error("the fleet file {} is invalid ({} error(s))", .file.display(), .errors)]
    InvalidFleet {
        /// The fleet file.
        file: PathBuf,
        /// Number of errors.
        errors: usize,
        /// Every finding.
        problems: Vec<crate::finding::lint::Problem>,
    },
    /// Reading a file or directory failed.
    #[error("cannot read {}: {source}", .path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// A usage error: bad option value, unknown consumer, bad URL.
    #[error("{0}")]
    Usage(String),
    /// The database could not be reached or refused the login.
    #[error("cannot connect to {target}: {message}")]
    Connect {
        /// `host:port/db`, never the password.
        target: String,
        /// What the server or network said.
        message: String,
        /// The driver's error.
        #[source]
        source: Option<mysql_async::Error>,
    },
    /// The schema named in the database URL does not exist on the server.
    #[error(
        "schema `{schema}` does not exist on {host}; create it or fix the database name in the URL"
    )]
    UnknownSchema {
        /// Schema (database) name from the URL.
        schema: String,
        /// `host:port`.
        host: String,
    },
    /// A statement failed on the server.
    #[error("{context}: {message}")]
    Database {
        /// What was being done (`reading columns of table X`).
        context: String,
        /// Server error code, when the server sent one.
        code: Option<u16>,
        /// Server message.
        message: String,
        /// The driver's error, when a driver call failed.
        #[source]
        source: Option<mysql_async::Error>,
    },
    /// A deadline passed.
    #[error("{what} did not finish within {seconds} s")]
    Timeout {
        /// What timed out.
        what: String,
        /// The budget.
        seconds: u64,
    },
    /// Busy: another applier holds the advisory lock.
    #[error("advisory lock `{name}` is held by another applier (waited {seconds} s)")]
    LockHeld {
        /// Lock name.
        name: String,
        /// How long we waited.
        seconds: u64,
    },
    /// A schema dump could not be read.
    #[error("{}:{line}: {message}", .file.display())]
    Dump {
        /// Dump file.
        file: PathBuf,
        /// 1-based line of the failing statement.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// Something the catalog format cannot express was met (import).
    #[error("table `{table}`: {object} cannot be expressed in a catalog: {reason}")]
    Unsupported {
        /// Table.
        table: String,
        /// Object (column / index name).
        object: String,
        /// Why.
        reason: String,
    },
    /// The schema does not satisfy the catalog: objects are missing or
    /// drifted (the verify report's `into_result`).
    #[error("the schema does not satisfy the catalog ({} problem(s))", .problems.len())]
    Drift {
        /// The missing objects and drift, sorted.
        problems: Vec<crate::finding::drift::Problem>,
    },
    /// Inspection met something the model cannot represent (an unknown
    /// EXTRA word such as `INVISIBLE`): the table is refused, not misread.
    #[error("table `{table}`: {object}: {what}; refusing to read the table rather than ignore it")]
    UnknownShape {
        /// Table.
        table: String,
        /// Object (`column `X``).
        object: String,
        /// What was not understood.
        what: String,
    },
    /// The server is set so that it would not keep what the catalog
    /// declares (TiDB with `tidb_enable_check_constraint` OFF drops a
    /// CHECK): apply refused before any DDL.
    #[error(
        "table `{table}`, {object}: the server's `{setting}` is `{value}`: {why}; nothing was done"
    )]
    ServerSetting {
        /// Table.
        table: String,
        /// Object (`check `X``).
        object: String,
        /// The server variable.
        setting: &'static str,
        /// Its value as the server reported it.
        value: String,
        /// What the server would do, and the setting that fixes it.
        why: &'static str,
    },
    /// Apply stopped: a step failed or new drift appeared mid-run.
    #[error("apply stopped at table `{table}`, {object}: {message}")]
    ApplyStopped {
        /// Table.
        table: String,
        /// Object.
        object: String,
        /// Why.
        message: String,
    },
    /// Import found nothing it can write as a catalog.
    #[error("nothing to import from {from}: {found}; a catalog needs at least one table")]
    NothingToImport {
        /// Where it read from (URL without password, or file).
        from: String,
        /// What was found instead.
        found: String,
    },
    /// Internal error: the catalog import would write fails `catalog check`;
    /// nothing was written.
    #[error("internal error: the imported catalog would not pass `catalog check`, so nothing was written to {}: {problems} (please report this)", .dir.display())]
    ImportFailsCheck {
        /// The output directory.
        dir: PathBuf,
        /// The check's errors, one per line.
        problems: String,
    },
    /// Internal error: a statement about to be sent is not exactly the one
    /// statement its step calls for. It was not sent; the run stopped.
    #[error("internal error: the statement for table `{table}`, {object} {reason}; it was not sent and the run stopped (please report this)")]
    UnsafeStatement {
        /// Table of the step.
        table: String,
        /// Object of the step.
        object: String,
        /// What is wrong with the statement.
        reason: String,
    },
}

/// Library result.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// A [`Error::Database`] whose context gains `suffix` (what else was
    /// true when the statement failed); any other error as it is.
    pub(crate) fn with_context(self, suffix: &str) -> Error {
        match self {
            Error::Database {
                context,
                code,
                message,
                source,
            } => Error::Database {
                context: format!("{context} {suffix}"),
                code,
                message,
                source,
            },
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Error;

    #[test]
    fn with_context_extends_only_a_database_error() {
        let e = Error::Database {
            context: "reading table `t`".into(),
            code: Some(3024),
            message: "Query execution was interrupted".into(),
            source: None,
        }
        .with_context("(tried 3 times within the busy budget of 30 s)");
        assert_eq!(
            e.to_string(),
            "reading table `t` (tried 3 times within the busy budget of 30 s): \
             Query execution was interrupted"
        );
        assert!(matches!(
            e,
            Error::Database {
                code: Some(3024),
                ..
            }
        ));
        let usage = Error::Usage("no schema".into()).with_context("(ignored)");
        assert_eq!(
            usage.to_string(),
            Error::Usage("no schema".into()).to_string()
        );
    }
}
