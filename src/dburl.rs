//! Database URLs: parsing with the `url` crate, connecting only where the
//! URL says, and redaction that never lets a password through.
//!
//! - mysql_async's `prefer_socket` is forced off: by default it asks a TCP
//!   server for `@@socket` and silently reconnects through a local Unix
//!   socket of that path, which can be another server (a laptop's dev MySQL
//!   behind an `ssh -L` tunnel to production). A socket is used only when
//!   the URL asks for one: `mysql://user:pass@localhost/db?socket=/run/mysqld/mysqld.sock`.
//! - [`redact`] shows a URL with its password (userinfo or a `password=`
//!   query parameter) replaced by `***`; a URL the `url` crate cannot parse
//!   as `mysql://...` is shown as `<unparseable URL>` and what is wrong,
//!   never echoed.

use mysql_async::{Opts, OptsBuilder};
use url::Url;

/// Placeholder for a URL that cannot be shown safely.
pub const UNPARSEABLE: &str = "<unparseable URL>";

/// Query parameters that carry a secret.
const SECRET_PARAMS: &[&str] = &["password", "pass", "pwd"];

/// Parses `text` as a `mysql://` URL into connection options with
/// `prefer_socket` off. Errors never contain the password.
pub(crate) fn parse(text: &str) -> Result<Opts, String> {
    let url = parse_mysql_url(text)?;
    if let Some((key, _)) = url
        .query_pairs()
        .find(|(k, _)| SECRET_PARAMS.contains(&k.to_ascii_lowercase().as_str()) || k == "user")
    {
        return Err(format!(
            "{}: `{key}=` in the query is not supported; put the user and password before the host \
             (mysql://user:password@host:port/db, the password percent-encoded)",
            redact(text)
        ));
    }
    if let Some((key, _)) = url.query_pairs().find(|(k, _)| k == "prefer_socket") {
        return Err(format!(
            "{}: `{key}=` is not supported: connections go only where the URL says; \
             ask for a Unix socket with `?socket=/path/to/mysqld.sock`",
            redact(text)
        ));
    }
    let opts = Opts::from_url(url.as_str()).map_err(|e| {
        let message = scrub(&e.to_string(), &secrets(&url));
        format!("{}: {message}", redact(text))
    })?;
    Ok(OptsBuilder::from_opts(opts).prefer_socket(false).into())
}

/// `text` as a URL with the scheme `mysql` and a host, or what is wrong.
fn parse_mysql_url(text: &str) -> Result<Url, String> {
    let hint = encode_hint(text);
    let url = Url::parse(text).map_err(|e| format!("{UNPARSEABLE}: {e}{hint}"))?;
    if url.scheme() != "mysql" {
        return Err(format!(
            "{UNPARSEABLE}: it does not start with `mysql://`; write mysql://user:password@host:port/db{hint}"
        ));
    }
    if url.cannot_be_a_base() || !url.has_host() || url.host_str() == Some("") {
        return Err(format!(
            "{UNPARSEABLE}: no host after `mysql://`; write mysql://user:password@host:port/db{hint}"
        ));
    }
    Ok(url)
}

/// A hint to percent-encode, when the URL has a userinfo part (`@`): a
/// password with a raw `@ : / %` is the usual reason such a URL fails.
pub(crate) fn encode_hint(text: &str) -> &'static str {
    if text.contains('@') {
        "; if the password contains `@`, `:`, `/` or `%`, percent-encode them (%40, %3A, %2F, %25)"
    } else {
        ""
    }
}

/// The password as written and decoded, and every secret query value.
fn secrets(url: &Url) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    if let Some(p) = url.password() {
        out.push(p.to_string());
        if let Ok(decoded) = percent_decode(p) {
            out.push(decoded);
        }
    }
    for (k, v) in url.query_pairs() {
        if SECRET_PARAMS.contains(&k.to_ascii_lowercase().as_str()) {
            out.push(v.into_owned());
        }
    }
    out.retain(|s| !s.is_empty());
    out
}

fn percent_decode(s: &str) -> Result<String, std::str::Utf8Error> {
    percent_encoding::percent_decode_str(s)
        .decode_utf8()
        .map(|c| c.into_owned())
}

/// Replaces every secret in `message` by `***`.
pub(crate) fn scrub(message: &str, secrets: &[String]) -> String {
    secrets
        .iter()
        .filter(|s| !s.is_empty())
        .fold(message.to_string(), |m, s| m.replace(s.as_str(), "***"))
}

/// The URL with any password replaced by `***`; a URL that is not a
/// parseable `mysql://` URL with a host is `<unparseable URL>`.
pub fn redact(text: &str) -> String {
    let mut url = match parse_mysql_url(text) {
        Ok(url) => url,
        Err(_) => return UNPARSEABLE.to_string(),
    };
    let secrets = secrets(&url);
    if url.password().is_some() {
        // Cannot fail: the URL has a host.
        let _ = url.set_password(Some("***"));
    }
    if url
        .query_pairs()
        .any(|(k, _)| SECRET_PARAMS.contains(&k.to_ascii_lowercase().as_str()))
    {
        let pairs: Vec<(String, String)> = url
            .query_pairs()
            .map(|(k, v)| {
                let secret = SECRET_PARAMS.contains(&k.to_ascii_lowercase().as_str());
                (
                    k.into_owned(),
                    if secret { "***".into() } else { v.into_owned() },
                )
            })
            .collect();
        url.query_pairs_mut().clear().extend_pairs(pairs);
    }
    // The same secret elsewhere in the URL (another parameter's value) too.
    scrub(url.as_str(), &secrets)
}

/// `text` (a message that may echo command-line arguments, such as a
/// parser's usage error) with each of `args` that could hold a secret (it
/// holds `@`, `://` or a password parameter; for `--name=value`, the value)
/// replaced by its [`redact`]ed form wherever it occurs.
pub fn redact_args(text: &str, args: &[String]) -> String {
    let suspect = |a: &str| {
        let lower = a.to_ascii_lowercase();
        a.contains('@')
            || a.contains("://")
            || SECRET_PARAMS
                .iter()
                .any(|p| lower.contains(&format!("{p}=")))
    };
    let mut found: Vec<&str> = Vec::new();
    for arg in args {
        let value = arg
            .strip_prefix("--")
            .and_then(|a| a.split_once('='))
            .map(|(_, v)| v);
        for candidate in [Some(arg.as_str()), value].into_iter().flatten() {
            if suspect(candidate) && !found.contains(&candidate) {
                found.push(candidate);
            }
        }
    }
    // Longest first, so that a value is not replaced inside its `--name=value`.
    found.sort_by_key(|c| std::cmp::Reverse(c.len()));
    found.into_iter().fold(text.to_string(), |t, c| {
        let shown = match c.split_once('=') {
            Some((name, value)) if name.starts_with("--") => format!("{name}={}", redact(value)),
            _ => redact(c),
        };
        t.replace(c, &shown)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echoed_arguments_are_redacted() {
        let args: Vec<String> = [
            "catalog",
            "verify",
            "mysql://u:s3cret@h/db",
            "--timeout=root:s3cret@h",
            "--format",
            "json",
        ]
        .map(String::from)
        .to_vec();
        let text = "error: unexpected argument 'mysql://u:s3cret@h/db' found; invalid value 'root:s3cret@h' for '--timeout'; verify json";
        let got = redact_args(text, &args);
        assert!(!got.contains("s3cret"), "{got}");
        assert!(got.contains("'mysql://u:***@h/db'"), "{got}");
        assert!(got.contains(UNPARSEABLE), "{got}");
        assert!(got.ends_with("; verify json"), "{got}");
    }

    #[test]
    fn redaction_hides_every_password_form() {
        for (url, want) in [
            ("mysql://app:s3cret@h:1/db", "mysql://app:***@h:1/db"),
            ("mysql://app@h/db", "mysql://app@h/db"),
            ("mysql://h/db", "mysql://h/db"),
            (
                "mysql://app:pw@h/db?ssl_ca=/etc/a@b.pem",
                "mysql://app:***@h/db?ssl_ca=/etc/a@b.pem",
            ),
            ("mysql://h/db?password=s3cret", "mysql://h/db?password=***"),
            ("root:s3cret@127.0.0.1:3306/db", UNPARSEABLE),
            ("//root:s3cret@host/db", UNPARSEABLE),
            ("mysql:root:s3cret@host/db", UNPARSEABLE),
            ("mysql:///db?user=root&password=s3cret", UNPARSEABLE),
        ] {
            assert_eq!(redact(url), want, "{url}");
        }
        assert!(!redact("mysql://app:p@ss@h/db").contains("p@ss"));
    }

    #[test]
    fn parse_errors_name_the_problem_without_the_password() {
        for url in [
            "root:s3cret@127.0.0.1:3306/db",
            "//root:s3cret@host/db",
            "mysql:root:s3cret@host/db",
            "mysql:///db?user=root&password=s3cret",
            "mysql://h/db?password=s3cret",
            "mysql://app:s3cret@h/db?bogus=1",
            "mysql://app:s3cret@h/db?require_ssl=s3cret",
            "mysql://app:s3/cret@h/db",
            "postgres://app:s3cret@h/db",
        ] {
            let err = parse(url).unwrap_err();
            assert!(!err.contains("s3cret"), "{url}: {err}");
            assert!(!err.contains("cret"), "{url}: {err}");
        }
        assert!(parse("mysql://app:s3/cret@h/db")
            .unwrap_err()
            .contains("percent-encode"));
    }

    #[test]
    fn prefer_socket_is_off_and_socket_is_explicit() {
        let opts = parse("mysql://app:pw@127.0.0.1:3307/db").unwrap();
        assert!(!opts.prefer_socket());
        assert_eq!(opts.socket(), None);
        let opts = parse("mysql://app@localhost/db?socket=/tmp/x.sock").unwrap();
        assert_eq!(opts.socket(), Some("/tmp/x.sock"));
        assert!(parse("mysql://app@h/db?prefer_socket=true").is_err());
    }
}
