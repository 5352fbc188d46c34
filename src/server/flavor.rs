//! Server flavors (the vendor) and how each is recognised from `VERSION()`.

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
    /// The spelling of DDL shown in a hint for the user to run by hand,
    /// when the hint is made without a server (a drift finding's `fix`):
    /// MySQL's. The one keyword that differs in such hints is an
    /// invisible index's, `INVISIBLE` on MySQL, `IGNORED` on MariaDB
    /// ([`Flavor::hidden_index_keyword`]).
    pub const HINT_SPELLING: Flavor = Flavor::MySql;

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

    /// Whether the server has `@@server_uuid`: MySQL only (MySQL Reference
    /// Manual, "Replication and Binary Logging Options and Variables":
    /// `server_uuid`; MariaDB and TiDB have no such variable).
    pub(crate) fn has_server_uuid(self) -> bool {
        self == Flavor::MySql
    }

    /// Whether the server refuses to add a column online (both
    /// `ALGORITHM=INSTANT` and `ALGORITHM=INPLACE, LOCK=NONE`, error 1846
    /// `ER_UNSUPPORTED_ALTER_INPLACE_ON_VIRTUAL_COLUMN`, "INPLACE ADD or
    /// DROP of virtual columns cannot be combined with other ALTER TABLE
    /// actions") when the new column is placed before an existing VIRTUAL
    /// generated column; `virtual_column` says whether the new column is
    /// VIRTUAL itself. The servers' manuals (MySQL 8.4, "Online DDL
    /// Operations", Generated Column Operations; MariaDB KB, "InnoDB Online
    /// DDL Operations with the INSTANT Alter Algorithm") describe adding
    /// columns online but not this case; the rule is as probed on MariaDB
    /// 10.11.19 and MySQL 9.7.4, and tests/it/upgrade_features_live.rs pins
    /// each case on both:
    /// - MySQL: a VIRTUAL new column only (a plain or STORED one goes
    ///   INSTANT). A functional index's hidden virtual column counts: it
    ///   is last, so any positioned VIRTUAL column lands before it.
    /// - MariaDB: any new column.
    /// - TiDB: never (its DDL is online; the clause is not sent).
    ///
    /// `None` (no server known) answers with the rule both servers share.
    pub fn refuses_column_added_before_virtual(
        flavor: Option<Flavor>,
        virtual_column: bool,
    ) -> bool {
        match flavor {
            Some(Flavor::TiDb) => false,
            Some(Flavor::MariaDb) => true,
            Some(Flavor::MySql) | None => virtual_column,
        }
    }

    /// Whether a functional key part is kept as a hidden VIRTUAL generated
    /// column placed after every visible column, so that it counts for
    /// [`Flavor::refuses_column_added_before_virtual`]: MySQL (8.0.13+,
    /// MySQL 8.4 manual, CREATE INDEX, "Functional Key Parts": "implemented
    /// as hidden virtual generated columns"). MariaDB 10.11 has no
    /// functional key parts. `None` (no server known) answers as MySQL,
    /// the stricter side.
    pub fn hides_functional_key_columns(flavor: Option<Flavor>) -> bool {
        !matches!(flavor, Some(Flavor::MariaDb))
    }

    /// The flavor a schema dump was taken from: `version` is its
    /// `Server version` line when it has one, the server's own word
    /// (`...-MariaDB...`, `...-TiDB-...`, else MySQL), since either client
    /// may dump either server. Without it, from what only one vendor
    /// writes: TiDB feature comments (`/*T![`) or a TiDB banner; MariaDB's
    /// banner, `/*M!` comments, or what only MariaDB's SHOW CREATE TABLE
    /// writes (`DEFAULT current_timestamp(` in lowercase, a JSON column's
    /// `CHECK (json_valid(`: MariaDB's JSON is LONGTEXT with that check,
    /// MariaDB KB "JSON Data Type"); MySQL's banner or `utf8mb4_0900_*`
    /// collations. `None` when nothing tells.
    pub fn from_dump_text(version: Option<&str>, text: &str) -> Option<Flavor> {
        if let Some(version) = version {
            let version = version.to_ascii_lowercase();
            return Some(if version.contains("tidb") {
                Flavor::TiDb
            } else if version.contains("mariadb") {
                Flavor::MariaDb
            } else {
                Flavor::MySql
            });
        }
        let lower = text.to_ascii_lowercase();
        let mariadb_show_create = [
            "DEFAULT current_timestamp(",
            "ON UPDATE current_timestamp(",
            "CHECK (json_valid(",
        ]
        .iter()
        .any(|m| text.contains(m));
        if lower.contains("/*t![") || lower.contains("-- tidb") {
            Some(Flavor::TiDb)
        } else if lower.contains("mariadb dump") || text.contains("/*M!") || mariadb_show_create {
            Some(Flavor::MariaDb)
        } else if lower.contains("mysql dump") || lower.contains("utf8mb4_0900_") {
            Some(Flavor::MySql)
        } else {
            None
        }
    }

    /// Whether the server keeps a CHECK constraint's level (column or
    /// table) apart: MariaDB does (information_schema.CHECK_CONSTRAINTS.
    /// LEVEL, 10.5.10+; SHOW CREATE TABLE prints a column-level CHECK in
    /// its column), MySQL 8.0.16+ stores every CHECK as a table constraint
    /// ("CHECK Constraints" in the MySQL manual: a column check is a table
    /// constraint referring to that column) and TiDB follows MySQL.
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

impl<'de> serde::Deserialize<'de> for Flavor {
    /// From its [`Flavor::name`] (a `catalog stats` file read back).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
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
        for f in Flavor::ALL {
            assert_eq!(serde_json::to_value(f).unwrap(), f.name());
            assert_eq!(f.name().parse::<Flavor>(), Ok(f));
        }
    }
}
