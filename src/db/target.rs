//! Where to connect: a [`Target`] parsed from a database URL, never
//! printing the password.

use mysql_async::Opts;

use crate::error::{Error, Result};

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

/// The database named in the connection options: the schema to work on.
pub(crate) fn schema_of(opts: &Opts) -> Result<&str> {
    opts.db_name().filter(|db| !db.is_empty()).ok_or_else(|| {
        Error::Usage(format!(
            "the connection to {} names no database; the schema is the database of the pool's or target's URL (mysql://user:pass@host:port/db)",
            Target::from_opts(opts.clone()).display
        ))
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
}
