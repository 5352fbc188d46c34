//! What each vendor lets apply see and bound on a busy server: the session
//! budgets statement and the reads that find sessions holding a table
//! (`apply::busy` runs them; the queries live in the vendor files).

pub(crate) use super::vocab::{BlockerParam, BlockerRead, SnapshotProbe};
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

    /// `SELECT rest` with a statement time limit of `ms` milliseconds of
    /// its own, whatever the session's (the vendor files cite how each
    /// spells it): the server ends it with the code
    /// `code::statement_timeout` knows.
    pub(crate) fn select_within(self, ms: u64, rest: &str) -> String {
        match self {
            Flavor::MySql => mysql::select_within(ms, rest),
            Flavor::MariaDb => mariadb::select_within(ms, rest),
            Flavor::TiDb => tidb::select_within(ms, rest),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_within_spells_each_vendors_limit() {
        assert_eq!(
            Flavor::MySql.select_within(1500, "1"),
            "SELECT /*+ MAX_EXECUTION_TIME(1500) */ 1"
        );
        assert_eq!(
            Flavor::TiDb.select_within(0, "1"),
            "SELECT /*+ MAX_EXECUTION_TIME(1) */ 1"
        );
        assert_eq!(
            Flavor::MariaDb.select_within(1500, "1"),
            "SET STATEMENT max_statement_time = 1.500 FOR SELECT 1"
        );
        assert_eq!(
            Flavor::MariaDb.select_within(0, "1"),
            "SET STATEMENT max_statement_time = 0.001 FOR SELECT 1"
        );
    }
}
