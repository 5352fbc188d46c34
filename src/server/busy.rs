//! What each vendor lets apply see and bound on a busy server: the session
//! budgets statement and the reads that find sessions holding a table
//! (`apply::busy` runs them; the queries live in the vendor files).

pub(crate) use super::vocab::{BlockerParam, BlockerRead};
use super::{mariadb, mysql, tidb, Flavor};

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
