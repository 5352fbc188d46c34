//! Named capabilities: each question an operation asks of the server is one
//! method here, with the manual page, MDEV or bug that answers it above it,
//! and a unit test at each version boundary. A new question is added when a
//! caller needs it, never re-derived from the flavor at the call site.

use super::{Flavor, Server, Version};

impl Server {
    /// Whether `information_schema.STATISTICS` has MariaDB's `IGNORED`
    /// column, and indexes can be `IGNORED`: MariaDB 10.6.0+.
    /// Source: MariaDB KB "Ignored Indexes" (added in 10.6.0, MDEV-7317).
    pub(crate) fn has_ignored_indexes(&self) -> bool {
        self.at_least(Flavor::MariaDb, Version::new(10, 6, 0))
    }

    /// Whether the server takes `JSON_TABLE` joined `LATERAL`: MySQL 8.0.14+
    /// (a listed read then joins each name to the views by equality).
    /// Source: MySQL 8.0 Reference Manual 15.2.15.9 "Lateral Derived Tables"
    /// ("supported as of MySQL 8.0.14").
    pub(crate) fn has_lateral_json_table(&self) -> bool {
        self.at_least(Flavor::MySql, Version::new(8, 0, 14))
    }

    /// Whether `information_schema.STATISTICS` may list indexes that are
    /// still being built: TiDB before v8.5.3 does (CONTEXT.md; TiDB v8.5.3
    /// release notes, pingcap/tidb#59943), so such servers are inspected
    /// through `information_schema.TIDB_INDEXES`, which lists public indexes
    /// only.
    pub(crate) fn statistics_lists_building_indexes(&self) -> bool {
        self.flavor == Flavor::TiDb && self.version < Version::new(8, 5, 3)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server(text: &str) -> Server {
        Server::from_version_text(text).unwrap()
    }

    #[test]
    fn lateral_json_table_from_mysql_8_0_14() {
        let has = |v: &str| server(v).has_lateral_json_table();
        assert!(has("8.0.14") && has("8.0.36") && has("8.4.3") && has("9.7.4"));
        assert!(!has("8.0.13") && !has("8.0.11"));
        assert!(!has("10.11.19-MariaDB") && !has("8.0.11-TiDB-v8.5.3"));
    }

    #[test]
    fn old_tidb_lists_building_indexes() {
        assert!(server("8.0.11-TiDB-v8.5.1").statistics_lists_building_indexes());
        assert!(server("8.0.11-TiDB-v8.5.2").statistics_lists_building_indexes());
        assert!(!server("8.0.11-TiDB-v8.5.3").statistics_lists_building_indexes());
        assert!(!server("8.0.11-TiDB-v9.0.0").statistics_lists_building_indexes());
        assert!(!server("10.11.19-MariaDB").statistics_lists_building_indexes());
        assert!(!server("8.0.36").statistics_lists_building_indexes());
    }

    #[test]
    fn mariadb_ignored_indexes_since_10_6() {
        assert!(server("10.11.19-MariaDB-0+deb12u1").has_ignored_indexes());
        assert!(server("5.5.5-10.6.0-MariaDB").has_ignored_indexes());
        assert!(!server("10.5.9-MariaDB").has_ignored_indexes());
        assert!(!server("8.0.36").has_ignored_indexes());
    }
}
