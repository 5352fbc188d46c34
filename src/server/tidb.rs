//! TiDB's rules: what TiDB v8.5 does differently from the other vendors,
//! from pingcap's documentation and source (no TiDB server can be run
//! here, so each rule cites its page and is unit-tested, not proven live).

use super::vocab::{BlockerParam, BlockerRead, ColumnChange, DdlWork, Online, StepClass};

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

/// Apply's session budgets on TiDB (assumption): lock_wait_timeout is
/// accepted but its DDL is a job whose metadata-lock wait it does not
/// bound; max_execution_time bounds SELECTs; innodb_lock_wait_timeout
/// bounds pessimistic locks.
pub(super) fn session_budgets(lock_secs: u64, read_ms: u64) -> String {
    format!("SET SESSION innodb_lock_wait_timeout = {lock_secs}, max_execution_time = {read_ms}")
}

/// A SELECT the server ends after `ms` milliseconds (assumption, not
/// runnable here): TiDB takes MySQL's `MAX_EXECUTION_TIME(N)` optimizer
/// hint, in milliseconds, overriding the session's `max_execution_time`
/// (<https://docs.pingcap.com/tidb/stable/optimizer-hints#max_execution_timen>).
pub(super) fn select_within(ms: u64, rest: &str) -> String {
    super::mysql::select_within(ms, rest)
}

/// TiDB (assumption, not runnable here): its metadata lock does not block
/// DML; a DDL waits for transactions that started before it and used the
/// table.
pub(super) const BLOCKER_READS: &[BlockerRead] = &[BlockerRead {
    what: "reading information_schema.CLUSTER_TIDB_TRX",
    sql: TRX,
    params: &[
        BlockerParam::Schema,
        BlockerParam::Table,
        BlockerParam::Age,
        BlockerParam::Schema,
        BlockerParam::Table,
    ],
    precondition: None,
    snapshot: None,
}];

/// TiDB assumption (not runnable here): transactions that used the table,
/// by table id, older than the threshold (`RELATED_TABLE_IDS`, v6.3+), and
/// the sessions a DDL job on the table already waits for
/// (`mysql.tidb_mdl_view`, v6.3+; its QUERY is the DDL's, not the holder's,
/// so no statement is shown for those).
const TRX: &str = "SELECT x.SESSION_ID, x.USER, '', x.STATE, \
     CAST(TIMESTAMPDIFF(SECOND, x.START_TIME, NOW()) AS UNSIGNED), 'open transaction', \
     x.CURRENT_SQL_DIGEST_TEXT \
     FROM information_schema.CLUSTER_TIDB_TRX x \
     JOIN information_schema.TABLES t ON FIND_IN_SET(t.TIDB_TABLE_ID, x.RELATED_TABLE_IDS) \
     WHERE t.TABLE_SCHEMA = ? AND t.TABLE_NAME = ? AND x.SESSION_ID <> CONNECTION_ID() \
       AND TIMESTAMPDIFF(SECOND, x.START_TIME, NOW()) >= ? \
     UNION ALL \
     SELECT v.SESSION_ID, '', '', 'blocking a DDL job', 0, \
     'metadata lock a DDL job waits for', NULL \
     FROM mysql.tidb_mdl_view v WHERE v.DB_NAME = ? AND v.TABLE_NAME = ?";

/// The build rate estimates assume on TiDB without a calibration, MB of
/// DATA_LENGTH per second. Not measured (no TiDB server here): an
/// assumption, to be replaced by `catalog stats --calibrate` on the
/// cluster (docs/cost.md says so).
pub(super) const DEFAULT_BUILD_RATE: f64 = 15.0;

/// TiDB's cost class of a step. docs.pingcap.com "Best Practices for DDL
/// Execution in TiDB" (ddl-introduction): logical DDL (CREATE TABLE, ADD
/// COLUMN, lossless MODIFY COLUMN) changes metadata only and takes
/// "tens of milliseconds or seconds"; physical ("reorg") DDL is "only
/// ADD INDEX and lossy column type changes", which backfill from a full
/// scan of the table. Not proven live: no TiDB server here.
pub(super) fn step_class(work: DdlWork) -> StepClass {
    match work {
        DdlWork::AddIndex { .. } => StepClass::Reorg,
        DdlWork::CreateTable | DdlWork::AddColumn { .. } | DdlWork::Widen(_) => StepClass::Instant,
    }
}
