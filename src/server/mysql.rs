//! MySQL's rules: what MySQL 8.0+ does differently from the other vendors.
//! Each rule cites the Reference Manual page it comes from.

use super::vocab::{BlockerParam, BlockerRead, ColumnChange, DdlWork, Online, StepClass};

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
    snapshot: None,
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

/// The build rate estimates assume on MySQL without a calibration, MB of
/// DATA_LENGTH per second: `catalog stats --calibrate` measured 8.1 MB/s
/// on MySQL 9.7 on this project's shared 2-core machine under load
/// (docs/cost.md, "Measured accuracy"); a slow machine's rate, so an
/// uncalibrated estimate errs long rather than short.
pub(super) const DEFAULT_BUILD_RATE: f64 = 8.0;

/// The cost class of a step on InnoDB (MySQL and MariaDB answer alike;
/// each vendor's page is cited where it calls this). MySQL Reference
/// Manual 17.12.1 "Online DDL Operations"
/// (https://dev.mysql.com/doc/refman/8.0/en/innodb-online-ddl-operations.html):
/// - "Creating or adding a secondary index": In Place Yes, Rebuilds Table
///   No (the table is scanned and the index sorted and built);
/// - "Adding a FULLTEXT index": the first one rebuilds the table when it
///   has no user-defined FTS_DOC_ID column (the catalog never declares
///   one), so it is counted as a rebuild;
/// - "Adding a column": Instant Yes (8.0.29+ at any position, 8.0.12+ as
///   the last column), otherwise In Place with Rebuilds Table Yes;
///   "Adding a stored generated column": not in place, the table is
///   rebuilt (apply asks INPLACE and the server refuses it before any
///   row is touched);
/// - "Extending VARCHAR column size": In Place, Only Modifies Metadata.
pub(super) fn innodb_step_class(work: DdlWork, instant_add: bool) -> StepClass {
    match work {
        DdlWork::CreateTable => StepClass::Instant,
        DdlWork::AddColumn {
            stored_generated: true,
            ..
        } => StepClass::Rebuild,
        DdlWork::AddColumn { .. } if instant_add => StepClass::Instant,
        DdlWork::AddColumn { .. } => StepClass::Rebuild,
        DdlWork::AddIndex { fulltext: true } => StepClass::Rebuild,
        DdlWork::AddIndex { fulltext: false } => StepClass::Inplace,
        DdlWork::Widen(Online::InplaceNoLock) => StepClass::Inplace,
        DdlWork::Widen(Online::Instant | Online::Metadata) => StepClass::Instant,
    }
}

/// MySQL's cost class of a step (see [`innodb_step_class`]).
pub(super) fn step_class(work: DdlWork, instant_add: bool) -> StepClass {
    innodb_step_class(work, instant_add)
}
