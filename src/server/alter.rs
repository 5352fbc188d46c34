//! What each vendor changes online: the questions the widening rule table
//! (`diff::widen`) asks, answered in one place per vendor
//! (`mysql.rs`, `mariadb.rs`, `tidb.rs`). The diff describes the change in
//! neutral terms ([`ColumnChange`]); the vendor says how it runs it
//! ([`Online`]) or why it cannot without touching rows.

use super::{mariadb, mysql, tidb, Flavor};

/// A change to one live column, as the widening rule table asks about it
/// (the checks every vendor shares, narrowing, sign, storage size, are
/// made before it is asked).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ColumnChange<'a> {
    /// `varchar(from_chars)` -> `varchar(to_chars)` in `charset`, which
    /// stores at most `from_bytes` -> `to_bytes`.
    VarcharLength {
        /// Old length in characters.
        from_chars: u32,
        /// New length in characters.
        to_chars: u32,
        /// Old maximum bytes.
        from_bytes: u32,
        /// New maximum bytes.
        to_bytes: u32,
        /// The column's character set.
        charset: &'a str,
    },
    /// ENUM (`set: false`) or SET members appended at the end, the
    /// storage size unchanged.
    MembersAppended {
        /// A SET, not an ENUM.
        set: bool,
    },
    /// An integer widened (`from` -> `to`, type names), sign unchanged.
    IntegerWidth {
        /// The old type's name (`int`).
        from: &'a str,
        /// The new type's name (`bigint`).
        to: &'a str,
    },
    /// SET / DROP DEFAULT.
    Default,
}

/// How the vendor runs a change without touching a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Online {
    /// `ALGORITHM=INSTANT`: a metadata-only change.
    Instant,
    /// `ALGORITHM=INPLACE, LOCK=NONE`: no rebuild, no lock.
    InplaceNoLock,
    /// TiDB: no clause, the change is metadata-only.
    Metadata,
}

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
