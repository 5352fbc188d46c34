//! TiDB's rules: what TiDB v8.5 does differently from the other vendors,
//! from pingcap's documentation and source (no TiDB server can be run
//! here, so each rule cites its page and is unit-tested, not proven live).

use super::alter::{ColumnChange, Online};

/// The type changes TiDB's rule table holds.
pub(super) const WIDENABLE_TYPES: &str = "VARCHAR lengthening, ENUM/SET appends, integer widening";

/// The widening rule table's row for TiDB (see `Flavor::online_change`).
pub(super) fn online_change(change: ColumnChange<'_>) -> Result<Online, String> {
    match change {
        // TiDB "ALTER TABLE ... MODIFY COLUMN": lossless changes
        // (lengthening a VARCHAR with the same charset) are
        // metadata-only (docs.pingcap.com/tidb/stable/sql-statement-modify-column).
        // Not proven live: no TiDB server here.
        ColumnChange::VarcharLength { .. } => Ok(Online::Metadata),
        ColumnChange::MembersAppended { .. } => Err(
            "appending members is not in TiDB's rule table (only lossless VARCHAR lengthening and integer widening are)".into(),
        ),
        // TiDB "ALTER TABLE ... MODIFY COLUMN": widening an integer
        // without a sign change is lossless and metadata-only.
        // Not proven live: no TiDB server here.
        ColumnChange::IntegerWidth { .. } => Ok(Online::Metadata),
        ColumnChange::Default => Err(
            "a changed default is not in TiDB's rule table (only lossless VARCHAR lengthening and integer widening are)".into(),
        ),
    }
}
