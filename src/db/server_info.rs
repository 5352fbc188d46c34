//! What the server is, read from its `VERSION()`: the flavor and the
//! version-dependent features inspection chooses its statements by.

use crate::flavor::{tidb_release, Flavor};

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
    pub(crate) fn from_version(version: &str) -> ServerInfo {
        ServerInfo {
            flavor: Flavor::detect(version),
            version: version.to_string(),
        }
    }

    /// Whether STATISTICS has MariaDB's `IGNORED` column (MariaDB 10.6+).
    pub(crate) fn has_ignored_indexes(&self) -> bool {
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
    pub(crate) fn has_lateral_json_table(&self) -> bool {
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
    pub(crate) fn statistics_lists_building_indexes(&self) -> bool {
        self.flavor == Flavor::TiDb
            && !matches!(tidb_release(&self.version), Some(release) if release >= (8, 5, 3))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lateral_json_table_from_mysql_8_0_14() {
        let has = |v: &str| ServerInfo::from_version(v).has_lateral_json_table();
        assert!(has("8.0.14") && has("8.0.36") && has("8.4.3") && has("9.7.4"));
        assert!(!has("8.0.13") && !has("8.0.11") && !has("mysql"));
        assert!(!has("10.11.19-MariaDB") && !has("8.0.11-TiDB-v8.5.3"));
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
