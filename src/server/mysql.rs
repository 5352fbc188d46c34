//! MySQL's rules: what MySQL 8.0+ does differently from the other vendors.
//! Each rule cites the Reference Manual page it comes from.

use super::alter::{ColumnChange, Online};

/// The widening rule table's row for MySQL (see `Flavor::online_change`).
pub(super) fn online_change(change: ColumnChange<'_>) -> Result<Online, String> {
    match change {
        // MySQL online DDL table, "Extending VARCHAR column size":
        // In Place Yes, Rebuilds No, Only Modifies Metadata Yes,
        // Instant No; "the number of length bytes required by a
        // VARCHAR column must remain the same": 0-255 bytes take
        // one, 256+ two (WL#6554; counted in bytes of the charset).
        ColumnChange::VarcharLength {
            from_chars: a,
            to_chars: b,
            from_bytes,
            to_bytes,
            charset,
        } => {
            if length_bytes(from_bytes) == length_bytes(to_bytes) {
                Ok(Online::InplaceNoLock)
            } else {
                Err(format!(
                    "varchar({a}) -> varchar({b}) is {from_bytes} -> {to_bytes} bytes in {charset}: it crosses from 1 to 2 length bytes at 256, which MySQL does only with a table copy",
                ))
            }
        }
        // MySQL online DDL table, "Modifying the definition of an
        // ENUM or SET column": Instant Yes when members are added at
        // the end and the storage size does not change; Vitess
        // capability.go InstantExpandEnumCapability.
        ColumnChange::MembersAppended { .. } => Ok(Online::Instant),
        // MySQL's online DDL table, "Changing the column data type":
        // Instant No, In Place No, Rebuilds Yes.
        ColumnChange::IntegerWidth { from, to } => {
            Err(format!("{from} -> {to} copies the table on mysql"))
        }
        // MySQL 8.0+ online DDL table, "Setting a column default value" /
        // "Dropping a column default value": Instant Yes, metadata only
        // (https://dev.mysql.com/doc/refman/8.0/en/innodb-online-ddl-operations.html);
        // Vitess schemadiff capability.go: a MODIFY differing only in its
        // DEFAULT is InstantChangeColumnDefaultFlavorCapability.
        ColumnChange::Default => Ok(Online::Instant),
    }
}

/// How many length bytes InnoDB stores for a VARCHAR of at most `bytes`:
/// one up to 255, two from 256 (MySQL and MariaDB alike).
pub(super) fn length_bytes(bytes: u32) -> u32 {
    if bytes <= 255 {
        1
    } else {
        2
    }
}
