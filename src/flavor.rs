//! Server flavors and how each is recognised.

use std::fmt;
use std::str::FromStr;

/// The MySQL-family server the catalog is applied to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Flavor {
    /// TiDB (`VERSION()` contains `-TiDB-`).
    TiDb,
    /// MySQL 8 (anything not TiDB or MariaDB).
    MySql,
    /// MariaDB 10.11+ (`VERSION()` contains `MariaDB`).
    MariaDb,
}

impl Flavor {
    /// All flavors, in a fixed order.
    pub const ALL: [Flavor; 3] = [Flavor::TiDb, Flavor::MySql, Flavor::MariaDb];

    /// Classifies a `SELECT VERSION()` string.
    pub fn detect(version: &str) -> Flavor {
        if version.contains("-TiDB-") {
            Flavor::TiDb
        } else if version.contains("MariaDB") {
            Flavor::MariaDb
        } else {
            Flavor::MySql
        }
    }

    /// Whether the server keeps a CHECK constraint's level (column or
    /// table) apart: MariaDB does (information_schema.CHECK_CONSTRAINTS.
    /// LEVEL, 10.5.10+; SHOW CREATE TABLE prints a
    /// column-level CHECK in its column), MySQL 8.0.16+ stores every CHECK
    /// as a table constraint ("CHECK Constraints" in the MySQL manual:
    /// a column check is a table constraint referring to that column) and
    /// TiDB follows MySQL.
    pub fn keeps_check_levels(self) -> bool {
        self == Flavor::MariaDb
    }

    /// Lowercase name (`tidb`, `mysql`, `mariadb`).
    pub fn name(self) -> &'static str {
        match self {
            Flavor::TiDb => "tidb",
            Flavor::MySql => "mysql",
            Flavor::MariaDb => "mariadb",
        }
    }
}

/// The TiDB release in a `VERSION()` string (`8.0.11-TiDB-v8.5.1` -> (8,5,1)).
pub fn tidb_release(version: &str) -> Option<(u32, u32, u32)> {
    let rest = version.split("-TiDB-v").nth(1)?;
    let mut nums = rest
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<u32>().ok());
    Some((
        nums.next()??,
        nums.next()??,
        nums.next().flatten().unwrap_or(0),
    ))
}

impl fmt::Display for Flavor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for Flavor {
    /// As its [`Flavor::name`].
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl schemars::JsonSchema for Flavor {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Flavor".into()
    }

    /// One of the [`Flavor::name`]s, as it serialises.
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let names: Vec<&str> = Flavor::ALL.iter().map(|f| f.name()).collect();
        schemars::json_schema!({ "type": "string", "enum": names })
    }
}

impl FromStr for Flavor {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "tidb" => Ok(Flavor::TiDb),
            "mysql" => Ok(Flavor::MySql),
            "mariadb" => Ok(Flavor::MariaDb),
            other => Err(format!(
                "unknown flavor `{other}`: expected tidb, mysql or mariadb"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_flavors() {
        assert_eq!(Flavor::detect("8.0.11-TiDB-v8.5.1"), Flavor::TiDb);
        assert_eq!(
            Flavor::detect("10.11.19-MariaDB-0+deb12u1"),
            Flavor::MariaDb
        );
        assert_eq!(Flavor::detect("8.0.36"), Flavor::MySql);
        assert_eq!(tidb_release("8.0.11-TiDB-v8.5.3"), Some((8, 5, 3)));
        for f in Flavor::ALL {
            assert_eq!(serde_json::to_value(f).unwrap(), f.name());
            assert_eq!(f.name().parse::<Flavor>(), Ok(f));
        }
        assert_eq!(tidb_release("5.7.25-TiDB-v7.1.0-alpha"), Some((7, 1, 0)));
    }
}
