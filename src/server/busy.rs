//! What each vendor lets apply see and bound on a busy server: the session
//! budgets statement and the reads that find sessions holding a table
//! (`apply::busy` runs them; the queries live in the vendor files).

use super::{mariadb, mysql, tidb, Flavor};

/// A value a blocker read binds, in its placeholders' order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BlockerParam {
    /// The table's schema.
    Schema,
    /// The table's name.
    Table,
    /// The age threshold in seconds.
    Age,
}

/// One way to read the sessions holding a table. Columns, every query:
/// id, user, host, command, seconds, holds, statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BlockerRead {
    /// What it reads, for error messages.
    pub what: &'static str,
    /// The statement (prepared, values bound).
    pub sql: &'static str,
    /// What its placeholders bind, in order.
    pub params: &'static [BlockerParam],
    /// A constant statement (`what`, `sql`) that returns a row when this
    /// read can be used (a plugin loaded); `None`: always.
    pub precondition: Option<(&'static str, &'static str)>,
}

impl Flavor {
    /// The `SET SESSION` of apply's budgets: `lock_secs` bounds each DDL's
    /// metadata-lock wait, `read_ms` the reads on the server side.
    pub(crate) fn session_budgets(self, lock_secs: u64, read_ms: u64) -> String {
        match self {
            Flavor::MySql => mysql::session_budgets(lock_secs, read_ms),
            Flavor::MariaDb => mariadb::session_budgets(lock_secs, read_ms),
            Flavor::TiDb => tidb::session_budgets(lock_secs, read_ms),
        }
    }

    /// Whether the session's statement time limit also aborts DDL, so it
    /// must be lifted around each DDL: MariaDB's `max_statement_time` does
    /// (KB "Aborting Statements that Exceed a Certain Time to Execute");
    /// MySQL's and TiDB's `max_execution_time` bounds read-only SELECTs only
    /// (MySQL Reference Manual, `max_execution_time`).
    pub(crate) fn statement_limit_aborts_ddl(self) -> bool {
        match self {
            Flavor::MariaDb => true,
            Flavor::MySql | Flavor::TiDb => false,
        }
    }

    /// The reads that find sessions holding a table, best first: the first
    /// whose precondition holds is used.
    pub(crate) fn blocker_reads(self) -> &'static [BlockerRead] {
        match self {
            Flavor::MySql => mysql::BLOCKER_READS,
            Flavor::MariaDb => mariadb::BLOCKER_READS,
            Flavor::TiDb => tidb::BLOCKER_READS,
        }
    }
}
