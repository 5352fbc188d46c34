//! What each vendor changes online: the questions the widening rule table
//! (`diff::widen`) asks, answered in one place per vendor
//! (`mysql.rs`, `mariadb.rs`, `tidb.rs`). The diff describes the change in
//! neutral terms ([`ColumnChange`]); the vendor says how it runs it
//! ([`Online`]) or why it cannot without touching rows.

pub use super::vocab::StepClass;
pub(crate) use super::vocab::{ColumnChange, DdlWork, Online};
use super::{mariadb, mysql, tidb, Flavor};

impl Flavor {
    /// How this vendor runs `change` online, or why it cannot (the
    /// message names the change; the caller adds the column).
    pub(crate) fn online_change(self, change: ColumnChange<'_>) -> Result<Online, String> {
        match self {
            Flavor::MySql => mysql::online_change(change),
            Flavor::MariaDb => mariadb::online_change(change),
            Flavor::TiDb => tidb::online_change(change),
        }
    }

    /// The type changes this vendor's rule table holds, for a message
    /// about one it does not.
    pub(crate) fn widenable_types(self) -> &'static str {
        match self {
            Flavor::MySql | Flavor::MariaDb => "VARCHAR lengthening, ENUM/SET appends",
            Flavor::TiDb => tidb::WIDENABLE_TYPES,
        }
    }

    /// Whether the rule table holds only for some storage (on MySQL and
    /// MariaDB: InnoDB in one of its row formats; TiDB has one storage
    /// layer, TiKV, and no engine choice).
    pub(crate) fn online_rules_depend_on_storage(self) -> bool {
        match self {
            Flavor::MySql | Flavor::MariaDb => true,
            Flavor::TiDb => false,
        }
    }
}

impl super::Server {
    /// How this server runs a step that does `work` (the cost class): the
    /// vendor's answer, with the release's instant ADD COLUMN
    /// ([`super::Server::instant_add_column`]).
    pub(crate) fn step_class(&self, work: DdlWork) -> StepClass {
        // Whether this release adds the column instantly where it goes.
        let instant_add = match work {
            DdlWork::AddColumn { at_end, .. } => self
                .instant_add_column()
                .is_some_and(|i| i.anywhere || at_end),
            _ => false,
        };
        match self.flavor() {
            Flavor::MySql => mysql::step_class(work, instant_add),
            Flavor::MariaDb => mariadb::step_class(work, instant_add),
            Flavor::TiDb => tidb::step_class(work),
        }
    }

    /// Whether a replica replays a step that reads rows as one statement
    /// after the primary finished it, stalling its applier for about as
    /// long as the build took on the primary: MySQL and MariaDB binlog
    /// replication (measured here: 1.0-1.4x the build, docs/replicas.md;
    /// MariaDB's `binlog_alter_two_phase` would overlap the two, but apply
    /// does not use it). TiDB: the DDL is one job of the cluster; no
    /// binlog replica replays it.
    pub(crate) fn replica_replays_build(&self) -> bool {
        match self.flavor() {
            Flavor::MySql | Flavor::MariaDb => true,
            Flavor::TiDb => false,
        }
    }
}

impl Flavor {
    /// The index build rate an estimate assumes when no calibration
    /// (`catalog stats --calibrate`) or `--build-rate` says otherwise, in
    /// MB of the table's DATA_LENGTH per second (docs/cost.md has the
    /// measurements behind each).
    pub(crate) fn default_build_rate(self) -> f64 {
        match self {
            Flavor::MySql => mysql::DEFAULT_BUILD_RATE,
            Flavor::MariaDb => mariadb::DEFAULT_BUILD_RATE,
            Flavor::TiDb => tidb::DEFAULT_BUILD_RATE,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::Server;

    fn class(version: &str, work: DdlWork) -> StepClass {
        Server::from_version_text(version).unwrap().step_class(work)
    }

    #[test]
    fn classes_per_vendor_and_release() {
        let add_index = DdlWork::AddIndex { fulltext: false };
        let fulltext = DdlWork::AddIndex { fulltext: true };
        let after = DdlWork::AddColumn {
            at_end: false,
            stored_generated: false,
        };
        let last = DdlWork::AddColumn {
            at_end: true,
            stored_generated: false,
        };
        let stored = DdlWork::AddColumn {
            at_end: true,
            stored_generated: true,
        };
        for v in ["9.7.0", "8.0.36", "10.11.19-MariaDB"] {
            assert_eq!(class(v, add_index), StepClass::Inplace, "{v}");
            assert_eq!(class(v, fulltext), StepClass::Rebuild, "{v}");
            assert_eq!(class(v, after), StepClass::Instant, "{v}");
            assert_eq!(class(v, stored), StepClass::Rebuild, "{v}");
            assert_eq!(class(v, DdlWork::CreateTable), StepClass::Instant);
            assert_eq!(
                class(v, DdlWork::Widen(Online::InplaceNoLock)),
                StepClass::Inplace
            );
            assert_eq!(
                class(v, DdlWork::Widen(Online::Instant)),
                StepClass::Instant
            );
        }
        // Instant ADD COLUMN by release: MySQL 8.0.12-8.0.28 and MariaDB
        // 10.3.2-10.3.x only as the last column; before them, a rebuild.
        assert_eq!(class("8.0.28", after), StepClass::Rebuild);
        assert_eq!(class("8.0.28", last), StepClass::Instant);
        assert_eq!(class("8.0.29", after), StepClass::Instant);
        assert_eq!(class("8.0.11", last), StepClass::Rebuild);
        assert_eq!(class("10.3.2-MariaDB", after), StepClass::Rebuild);
        assert_eq!(class("10.3.2-MariaDB", last), StepClass::Instant);
        assert_eq!(class("10.4.0-MariaDB", after), StepClass::Instant);
        let tidb = "8.0.11-TiDB-v8.5.1";
        assert_eq!(class(tidb, add_index), StepClass::Reorg);
        assert_eq!(class(tidb, fulltext), StepClass::Reorg);
        assert_eq!(class(tidb, after), StepClass::Instant);
        assert_eq!(
            class(tidb, DdlWork::Widen(Online::Metadata)),
            StepClass::Instant
        );
    }

    #[test]
    fn replicas_replay_builds_on_binlog_vendors_only() {
        let replays = |v: &str| {
            Server::from_version_text(v)
                .unwrap()
                .replica_replays_build()
        };
        assert!(replays("9.7.0"));
        assert!(replays("10.11.19-MariaDB"));
        assert!(!replays("8.0.11-TiDB-v8.5.1"));
        for f in Flavor::ALL {
            assert!(f.default_build_rate() > 0.0);
        }
    }
}
