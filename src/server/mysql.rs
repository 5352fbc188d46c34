//! MySQL's rules: what MySQL 8.0+ does differently from the other vendors.
//! Each rule cites the Reference Manual page it comes from.

use super::vocab::{BlockerParam, BlockerRead, ColumnChange, Online};

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

/// Apply's session budgets on MySQL. innodb_lock_wait_timeout bounds
/// row-lock waits (apply takes none, but a read under a locking isolation
/// level could); max_execution_time applies to read-only SELECTs only.
pub(super) fn session_budgets(lock_secs: u64, read_ms: u64) -> String {
    format!(
        "SET SESSION lock_wait_timeout = {lock_secs}, innodb_lock_wait_timeout = {lock_secs}, \
         max_execution_time = {read_ms}"
    )
}

/// A SELECT the server ends after `ms` milliseconds (at least 1: 0 would
/// mean no limit): the `MAX_EXECUTION_TIME(N)` optimizer hint, which bounds
/// a top-level read-only SELECT and overrides the session's
/// `max_execution_time` (MySQL Reference Manual, "Optimizer Hints",
/// Statement Execution Time Optimizer Hints). The server answers 3024
/// (ER_QUERY_TIMEOUT) when the limit is reached. `rest` is what follows
/// `SELECT`.
pub(super) fn select_within(ms: u64, rest: &str) -> String {
    format!("SELECT /*+ MAX_EXECUTION_TIME({}) */ {rest}", ms.max(1))
}

/// MySQL: `performance_schema.metadata_locks` lists every granted and
/// pending metadata lock per table and owner thread (the `wait/lock/
/// metadata/sql/mdl` instrument is on by default since 8.0); `threads`
/// maps the owner to its connection id, user, host, command and statement.
/// Exact: only sessions that touched this table are reported.
pub(super) const BLOCKER_READS: &[BlockerRead] = &[BlockerRead {
    what: "reading performance_schema.metadata_locks",
    sql: MDL,
    params: &[
        BlockerParam::Schema,
        BlockerParam::Table,
        BlockerParam::Age,
        BlockerParam::Age,
    ],
    precondition: None,
}];

/// Columns, every query: id, user, host, command, seconds, holds, statement.
/// Where metadata locks are visible, a holder idle in its transaction
/// (`Sleep`) blocks whatever its age (it will not let go on its own); a
/// running statement blocks once it is older than the threshold.
const MDL: &str = "SELECT t.PROCESSLIST_ID, t.PROCESSLIST_USER, t.PROCESSLIST_HOST, \
     t.PROCESSLIST_COMMAND, \
     CAST(GREATEST(COALESCE(TIMESTAMPDIFF(SECOND, x.trx_started, NOW()), 0), \
                   COALESCE(t.PROCESSLIST_TIME, 0)) AS UNSIGNED), \
     CONCAT(m.LOCK_TYPE, ' metadata lock (', m.LOCK_STATUS, ')'), t.PROCESSLIST_INFO \
     FROM performance_schema.metadata_locks m \
     JOIN performance_schema.threads t ON t.THREAD_ID = m.OWNER_THREAD_ID \
     LEFT JOIN information_schema.INNODB_TRX x ON x.trx_mysql_thread_id = t.PROCESSLIST_ID \
     WHERE m.OBJECT_TYPE = 'TABLE' AND m.OBJECT_SCHEMA = ? AND m.OBJECT_NAME = ? \
       AND m.LOCK_STATUS = 'GRANTED' AND t.PROCESSLIST_ID <> CONNECTION_ID() \
       AND (t.PROCESSLIST_COMMAND = 'Sleep' \
            OR TIMESTAMPDIFF(SECOND, x.trx_started, NOW()) >= ? OR t.PROCESSLIST_TIME >= ?)";
