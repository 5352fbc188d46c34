//! MariaDB's rules: what MariaDB 10.11 does differently from the other
//! vendors. Each rule cites the KB page or MDEV it comes from.

use super::mysql::length_bytes;
use super::vocab::{
    BlockerParam, BlockerRead, ColumnChange, DdlWork, Online, SnapshotProbe, StepClass,
};

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

/// Apply's session budgets on MariaDB. innodb_lock_wait_timeout bounds
/// row-lock waits (apply takes none, but a read under a locking isolation
/// level could). max_statement_time also aborts DDL: it is lifted around
/// each DDL (`Flavor::statement_limit_aborts_ddl`).
pub(super) fn session_budgets(lock_secs: u64, read_ms: u64) -> String {
    format!(
        "SET SESSION lock_wait_timeout = {lock_secs}, innodb_lock_wait_timeout = {lock_secs}, \
         max_statement_time = {}",
        read_ms as f64 / 1000.0
    )
}

/// A SELECT the server ends after `ms` milliseconds: MariaDB has no
/// execution-time hint; `SET STATEMENT max_statement_time = S FOR ...`
/// sets the limit (seconds, with microsecond precision; 0 would mean no
/// limit, so at least 1 ms) for this statement only, overriding the
/// session's (KB "SET STATEMENT"; KB "Aborting Statements that Exceed a
/// Certain Time to Execute"). The server answers 1969
/// (ER_STATEMENT_TIMEOUT) when the limit is reached. `rest` is what
/// follows `SELECT`.
pub(super) fn select_within(ms: u64, rest: &str) -> String {
    format!(
        "SET STATEMENT max_statement_time = {:.3} FOR SELECT {rest}",
        ms.max(1) as f64 / 1000.0
    )
}

/// MariaDB: with the `METADATA_LOCK_INFO` plugin loaded, the granted
/// metadata locks per table and connection (not the pending ones), exact
/// (not in the test suite, which would have to install the plugin on a
/// shared server; its query was checked by hand on MariaDB 10.11).
/// Without it (the default; `performance_schema` is off by default too),
/// `INNODB_TRX` + `PROCESSLIST`: open transactions and running statements
/// that may hold the table (see `apply::busy` for what that can miss).
pub(super) const BLOCKER_READS: &[BlockerRead] = &[
    BlockerRead {
        what: "reading information_schema.METADATA_LOCK_INFO",
        sql: MDL,
        params: &[
            BlockerParam::Schema,
            BlockerParam::Table,
            BlockerParam::Age,
            BlockerParam::Age,
        ],
        precondition: Some((
            "looking for the METADATA_LOCK_INFO plugin",
            "SELECT 1 FROM information_schema.PLUGINS \
             WHERE PLUGIN_NAME = 'METADATA_LOCK_INFO' AND PLUGIN_STATUS = 'ACTIVE'",
        )),
        // Idle holders are found by COMMAND = 'Sleep', live.
        snapshot: None,
    },
    BlockerRead {
        what: "reading information_schema.INNODB_TRX and PROCESSLIST",
        sql: TRX,
        params: &[
            BlockerParam::Age,
            BlockerParam::Schema,
            BlockerParam::Schema,
            BlockerParam::Age,
            BlockerParam::Schema,
            BlockerParam::Schema,
        ],
        precondition: None,
        // An idle holder is known by its INNODB_TRX row, and InnoDB fills
        // INNODB_TRX from a buffer "refreshed only if more than 0.1 seconds
        // has elapsed since the last time the buffer was read" (MySQL 5.6
        // Reference Manual 14.15.2.3, "Persistence and Consistency of InnoDB
        // Transaction and Locking Information", kept in the 5.7 manual's;
        // MariaDB's
        // `trx_i_s_possibly_fetch_data_into_cache` keeps the rule): with
        // another client reading it, a transaction begun in the last 0.1 s
        // is not there yet. The look's own transaction dates the snapshot.
        snapshot: Some(SnapshotProbe {
            what: "looking for this session's transaction in information_schema.INNODB_TRX",
            probe: "SELECT 1 FROM information_schema.INNODB_TRX \
                    WHERE trx_mysql_thread_id = CONNECTION_ID()",
            refresh: std::time::Duration::from_millis(110),
        }),
    },
];

const MDL: &str = "SELECT p.ID, p.USER, p.HOST, p.COMMAND, \
     CAST(GREATEST(COALESCE(TIMESTAMPDIFF(SECOND, x.trx_started, NOW()), 0), p.TIME) AS UNSIGNED), \
     CONCAT(m.LOCK_MODE, ' (', m.LOCK_TYPE, ')'), p.INFO \
     FROM information_schema.METADATA_LOCK_INFO m \
     JOIN information_schema.PROCESSLIST p ON p.ID = m.THREAD_ID \
     LEFT JOIN information_schema.INNODB_TRX x ON x.trx_mysql_thread_id = p.ID \
     WHERE m.TABLE_SCHEMA = ? AND m.TABLE_NAME = ? AND p.ID <> CONNECTION_ID() \
       AND (p.COMMAND = 'Sleep' OR TIMESTAMPDIFF(SECOND, x.trx_started, NOW()) >= ? OR p.TIME >= ?)";

/// Without metadata-lock information: a transaction idle in its session
/// (`Sleep`: it will not let go on its own, as where metadata locks are
/// visible) or older than the threshold, in a session whose default
/// database is the schema or none, or whose current statement names the
/// schema; a statement running that long in the schema or naming it (with
/// no default database a statement names every table it touches
/// qualified). LOCATE is case-insensitive: a false match only defers.
const TRX: &str = "SELECT p.ID, p.USER, p.HOST, p.COMMAND, \
     CAST(GREATEST(COALESCE(TIMESTAMPDIFF(SECOND, x.trx_started, NOW()), 0), p.TIME) AS UNSIGNED), \
     IF(x.trx_id IS NULL, 'running statement', 'open transaction'), p.INFO \
     FROM information_schema.PROCESSLIST p \
     LEFT JOIN information_schema.INNODB_TRX x ON x.trx_mysql_thread_id = p.ID \
     WHERE p.ID <> CONNECTION_ID() AND p.COMMAND NOT IN ('Daemon', 'Binlog Dump') \
       AND ((((p.COMMAND = 'Sleep' AND x.trx_started IS NOT NULL) \
              OR TIMESTAMPDIFF(SECOND, x.trx_started, NOW()) >= ?) \
             AND (p.DB IS NULL OR p.DB = ? OR LOCATE(?, p.INFO) > 0)) \
            OR (p.COMMAND = 'Query' AND p.TIME >= ? \
             AND (p.DB = ? OR LOCATE(?, p.INFO) > 0)))";

/// The build rate estimates assume on MariaDB without a calibration, MB
/// of DATA_LENGTH per second: `catalog stats --calibrate` measured 14.3
/// MB/s on MariaDB 10.11 on this project's shared 2-core machine under
/// load (docs/cost.md, "Measured accuracy"); a slow machine's rate, so an
/// uncalibrated estimate errs long rather than short.
pub(super) const DEFAULT_BUILD_RATE: f64 = 15.0;

/// MariaDB's cost class of a step: InnoDB's rules as on MySQL
/// ([`super::mysql::innodb_step_class`]), from the KB's "InnoDB Online DDL
/// Operations with the INPLACE Alter Algorithm" (ADD INDEX: in place, no
/// rebuild; the first FULLTEXT index rebuilds to add FTS_DOC_ID; ADD
/// COLUMN without INSTANT rebuilds; a PERSISTENT generated column copies)
/// and "... with the INSTANT Alter Algorithm" (ADD COLUMN instant since
/// 10.3.2 as the last column, MDEV-11369; anywhere since 10.4.0,
/// MDEV-15562; VARCHAR lengthening, MDEV-15563).
pub(super) fn step_class(work: DdlWork, instant_add: bool) -> StepClass {
    super::mysql::innodb_step_class(work, instant_add)
}
