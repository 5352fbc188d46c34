//! MariaDB's rules: what MariaDB 10.11 does differently from the other
//! vendors. Each rule cites the KB page or MDEV it comes from.

use super::alter::{ColumnChange, Online};
use super::mysql::length_bytes;

/// The widening rule table's row for MariaDB (see `Flavor::online_change`).
pub(super) fn online_change(change: ColumnChange<'_>) -> Result<Online, String> {
    match change {
        // MariaDB "InnoDB Online DDL Operations with the INSTANT
        // Alter Algorithm", MODIFY COLUMN extending a VARCHAR
        // (MDEV-15563): INSTANT unless the length bytes change; for
        // ROW_FORMAT COMPACT/DYNAMIC/COMPRESSED a column of at most
        // 127 bytes is already stored like a long one, so 0-127 ->
        // 256+ is INSTANT too, while 128-255 -> 256+ is not.
        ColumnChange::VarcharLength {
            from_chars: a,
            to_chars: b,
            from_bytes,
            to_bytes,
            charset,
        } => {
            if length_bytes(from_bytes) == length_bytes(to_bytes) || from_bytes <= 127 {
                Ok(Online::Instant)
            } else {
                Err(format!(
                    "varchar({a}) -> varchar({b}) is {from_bytes} -> {to_bytes} bytes in {charset}: from 128-255 bytes to 256 or more MariaDB needs a table copy",
                ))
            }
        }
        // MariaDB "InnoDB Online DDL Operations with the INSTANT
        // Alter Algorithm": adding a new ENUM or SET value at the end
        // is INSTANT when the storage size does not change (MDEV-15562 / 10.3.7).
        ColumnChange::MembersAppended { .. } => Ok(Online::Instant),
        // MariaDB extends an integer instantly only in
        // ROW_FORMAT=REDUNDANT (MDEV-15563); the rule table does not use it.
        ColumnChange::IntegerWidth { from, to } => {
            Err(format!("{from} -> {to} copies the table on mariadb"))
        }
        // MariaDB "InnoDB Online DDL Operations with the INSTANT Alter
        // Algorithm", ALTER TABLE ... ALTER COLUMN / MODIFY COLUMN setting or
        // dropping a DEFAULT: INSTANT (metadata in the .frm only).
        ColumnChange::Default => Ok(Online::Instant),
    }
}
