//! The server's release, parsed once from `VERSION()`: the one place that
//! knows how each vendor spells it.

use std::fmt;
use std::str::FromStr;

use super::Flavor;

/// A release `major.minor.patch`. For TiDB it is TiDB's own release (the
/// `vX.Y.Z` after `-TiDB-`), not the MySQL version TiDB imitates; for
/// MariaDB the release after any `5.5.5-` replication prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Version {
    /// Major release (`10` of `10.11.19`).
    pub major: u32,
    /// Minor release (`11` of `10.11.19`).
    pub minor: u32,
    /// Patch release (`19` of `10.11.19`).
    pub patch: u32,
}

/// A `VERSION()` text (or a `--server-version`) this tool cannot read: the
/// error names the text, and nothing is guessed in its place.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{text}` is not a server version this tool can read (expected MAJOR.MINOR.PATCH as \
     MySQL (`8.0.36-log`), MariaDB (`10.11.19-MariaDB`, `5.5.5-10.11.19-MariaDB`) or TiDB \
     (`8.0.11-TiDB-v8.5.1`) report it)"
)]
pub struct VersionError {
    /// The text as given.
    pub text: String,
}

impl Version {
    /// `major.minor.patch`.
    pub const fn new(major: u32, minor: u32, patch: u32) -> Version {
        Version {
            major,
            minor,
            patch,
        }
    }

    /// Parses a `SELECT VERSION()` text of a server of `flavor`:
    /// - MySQL: `9.7.0`, `8.0.36-log`, `8.0.36-28` (Percona), `9.7.4-2`;
    /// - MariaDB: `10.11.19-MariaDB-0+deb12u1`, or with the `5.5.5-` prefix
    ///   MariaDB sends in the handshake (and some proxies pass on) so that
    ///   old MySQL clients read it as 5.5;
    /// - TiDB: `8.0.11-TiDB-v8.5.1` (TiDB's release after `-TiDB-v`;
    ///   suffixes such as `-alpha` or `-nightly-...` are ignored).
    pub fn from_server_text(flavor: Flavor, text: &str) -> Result<Version, VersionError> {
        let err = || VersionError {
            text: text.to_string(),
        };
        let release = match flavor {
            Flavor::TiDb => text.split_once("-TiDB-v").ok_or_else(err)?.1,
            Flavor::MariaDb => text.strip_prefix("5.5.5-").unwrap_or(text),
            Flavor::MySql => text,
        };
        leading_triple(release).ok_or_else(err)
    }
}

/// `X.Y.Z` at the start of `s`, followed by the end or a character that is
/// neither a digit nor a dot (`-log`, `-MariaDB`, `+build`).
fn leading_triple(s: &str) -> Option<Version> {
    let end = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let mut parts = s[..end].split('.');
    let mut num = || -> Option<u32> {
        let p = parts.next()?;
        if p.is_empty() || p.len() > 9 {
            return None;
        }
        p.parse().ok()
    };
    let v = Version::new(num()?, num()?, num()?);
    parts.next().is_none().then_some(v)
}

impl FromStr for Version {
    type Err = VersionError;

    /// A plain release as a user writes it: `10.6.1`, `8.0.36`, or `v8.5.3`.
    fn from_str(s: &str) -> Result<Version, VersionError> {
        let t = s.trim();
        let t = t.strip_prefix('v').unwrap_or(t);
        match leading_triple(t) {
            Some(v) if v.to_string() == t => Ok(v),
            _ => Err(VersionError {
                text: s.to_string(),
            }),
        }
    }
}

impl fmt::Display for Version {
    /// `major.minor.patch`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

impl serde::Serialize for Version {
    /// As its `major.minor.patch` text.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Version {
    /// From the text it serialises to (a `catalog stats` file read back).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl schemars::JsonSchema for Version {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Version".into()
    }

    /// `major.minor.patch`, as it serialises.
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "string", "pattern": "^[0-9]+\\.[0-9]+\\.[0-9]+$" })
    }
}

impl Flavor {
    /// The oldest release of this flavor the tool supports, the version an
    /// offline run assumes unless told (`--server-version`): MySQL 8.0.11
    /// (the first 8.0 GA; README: "MySQL 8"), MariaDB 10.11.2 (the first
    /// 10.11 GA; README: "MariaDB 10.11"), TiDB v8.5.0 (the first 8.5 GA;
    /// SPEC: "TiDB v8.5").
    pub fn oldest_supported(self) -> Version {
        match self {
            Flavor::MySql => Version::new(8, 0, 11),
            Flavor::MariaDb => Version::new(10, 11, 2),
            Flavor::TiDb => Version::new(8, 5, 0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(flavor: Flavor, text: &str) -> Option<(u32, u32, u32)> {
        Version::from_server_text(flavor, text)
            .ok()
            .map(|v| (v.major, v.minor, v.patch))
    }

    #[test]
    fn reads_each_vendors_spelling() {
        use Flavor::*;
        assert_eq!(parse(MySql, "9.7.0"), Some((9, 7, 0)));
        assert_eq!(parse(MySql, "8.0.36-log"), Some((8, 0, 36)));
        assert_eq!(parse(MySql, "9.7.4-2"), Some((9, 7, 4)));
        assert_eq!(parse(MySql, "8.0.36-28"), Some((8, 0, 36)));
        assert_eq!(parse(MySql, "8.4.3+build"), Some((8, 4, 3)));
        assert_eq!(
            parse(MariaDb, "10.11.19-MariaDB-0+deb12u1"),
            Some((10, 11, 19))
        );
        assert_eq!(parse(MariaDb, "5.5.5-10.6.1-MariaDB"), Some((10, 6, 1)));
        assert_eq!(parse(TiDb, "8.0.11-TiDB-v8.5.1"), Some((8, 5, 1)));
        assert_eq!(parse(TiDb, "5.7.25-TiDB-v7.1.0-alpha"), Some((7, 1, 0)));
        assert_eq!(
            parse(TiDb, "8.0.11-TiDB-v8.5.0-nightly-20241201"),
            Some((8, 5, 0))
        );
    }

    #[test]
    fn an_unreadable_version_is_an_error_naming_it() {
        use Flavor::*;
        for (flavor, text) in [
            (MySql, ""),
            (MySql, "mysql"),
            (MySql, "8.0"),
            (MySql, "8.0.36.1"),
            (MySql, "8..36"),
            (MariaDb, "MariaDB"),
            (TiDb, "8.0.11-TiDB-vX"),
            (TiDb, "8.0.11-TiDB-None"),
        ] {
            let e = Version::from_server_text(flavor, text).unwrap_err();
            assert_eq!(e.text, text);
            assert!(e.to_string().contains(&format!("`{text}`")), "{e}");
        }
    }

    #[test]
    fn orders_and_prints_and_reads_user_text() {
        assert!(Version::new(8, 0, 14) > Version::new(8, 0, 13));
        assert!(Version::new(10, 11, 0) > Version::new(10, 6, 99));
        assert_eq!(Version::new(10, 11, 2).to_string(), "10.11.2");
        assert_eq!("8.5.3".parse(), Ok(Version::new(8, 5, 3)));
        assert_eq!("v8.5.3".parse(), Ok(Version::new(8, 5, 3)));
        assert!("8.5".parse::<Version>().is_err());
        assert!("8.5.3-log".parse::<Version>().is_err());
        assert_eq!(
            serde_json::to_value(Version::new(9, 7, 0)).unwrap(),
            "9.7.0"
        );
    }
}
