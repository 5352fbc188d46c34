//! What each vendor changes online: the questions the widening rule table
//! (`diff::widen`) asks, answered in one place per vendor
//! (`mysql.rs`, `mariadb.rs`, `tidb.rs`). The diff describes the change in
//! neutral terms ([`ColumnChange`]); the vendor says how it runs it
//! ([`Online`]) or why it cannot without touching rows.

pub(crate) use super::vocab::{ColumnChange, Online};
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
