//! Named capabilities: each question an operation asks of the server is one
//! method here, with the manual page, MDEV or bug that answers it above it,
//! and a unit test at each version boundary. A new question is added when a
//! caller needs it, never re-derived from the flavor at the call site.
//!
//! Two kinds: facts of a release ([`Server`] methods: "MariaDB 10.6+"), and
//! facts of the grammar that hold for every supported release of a vendor
//! ([`Flavor`] methods), which offline rendering asks with no version.

use super::{Flavor, Server, Version};

/// Which `ALTER TABLE ... ADD COLUMN` the server does as a metadata-only
/// (`ALGORITHM=INSTANT`) change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InstantAddColumn {
    /// Whether the column may go anywhere (`AFTER x` / `FIRST`), not only
    /// last.
    pub anywhere: bool,
    /// How many instant row versions a table can take before INSTANT is
    /// refused (MySQL error 4092, `ER_INNODB_MAX_ROW_VERSION`) and INPLACE
    /// or a rebuild is needed; `None`: no such limit.
    pub row_versions: Option<u32>,
}

/// How a DDL statement running on another connection is cancelled
/// ([`Flavor::ddl_cancel`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DdlCancel {
    /// `KILL QUERY <id>`: the statement stops, the connection stays.
    KillQuery,
    /// TiDB: `ADMIN CANCEL DDL JOBS` for the table's queued or running
    /// jobs, then `KILL TIDB QUERY <id>` for the waiting statement.
    CancelDdlJobs,
}

/// Where a running ALTER's progress is read ([`Flavor::ddl_progress`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DdlProgress {
    /// `information_schema.PROCESSLIST` STAGE, MAX_STAGE and PROGRESS of
    /// the DDL's connection.
    Processlist,
    /// `performance_schema.events_stages_current` WORK_COMPLETED and
    /// WORK_ESTIMATED of the DDL's thread.
    StageEvents,
    /// `information_schema.DDL_JOBS` ROW_COUNT of the table's running job.
    DdlJobRows,
}

/// How a statement's query plan is read ([`Flavor::plan_reading`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlanReading {
    /// `EXPLAIN FORMAT=JSON`, or `ANALYZE FORMAT=JSON` when the statement
    /// runs (a JSON plan with the measured rows).
    AnalyzeFormatJson,
    /// `EXPLAIN FORMAT=JSON`, plus the `EXPLAIN ANALYZE` tree when a
    /// SELECT runs.
    ExplainJsonAndAnalyzeTree,
    /// `EXPLAIN` / `EXPLAIN ANALYZE` rows (id, estRows, actRows, task,
    /// access object, operator info).
    ExplainRows,
}

/// What the server does with a `CHECK` constraint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckEnforcement {
    /// Enforced on every insert and update.
    Enforced,
    /// Enforced only while the named server variable is `ON`; with it
    /// `OFF` the clause is parsed and dropped.
    WhenSettingOn(&'static str),
    /// Parsed and ignored.
    Ignored,
}

/// Where a server's index rows are read from (inspection's index branch).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IndexView {
    /// MariaDB STATISTICS; `IGNORED` exists on 10.6+.
    MariaDb {
        /// Whether the `IGNORED` column exists.
        ignored: bool,
    },
    /// MySQL 8 / TiDB v8.5.3+ STATISTICS, with `IS_VISIBLE` and `EXPRESSION`.
    MySql,
    /// TiDB before v8.5.3: STATISTICS also lists indexes still being built,
    /// so `information_schema.TIDB_INDEXES` (public indexes only) is read.
    /// Assumptions (not runnable here, no TiDB): its columns are `KEY_NAME`,
    /// `NON_UNIQUE`, `SEQ_IN_INDEX`, `COLUMN_NAME`, `SUB_PART`, `Expression`,
    /// `IS_VISIBLE`; it has no `INDEX_TYPE` or `COLLATION` — such TiDB
    /// releases have no FULLTEXT/SPATIAL indexes and store `DESC` key parts
    /// ascending, so every part reads as an ascending B-tree part.
    TidbIndexes,
}

impl Server {
    /// Where this server's index rows are read from: MariaDB's STATISTICS
    /// (with `IGNORED` from 10.6), TiDB's `TIDB_INDEXES` where STATISTICS
    /// lists building indexes, MySQL's STATISTICS otherwise.
    pub(crate) fn index_view(&self) -> IndexView {
        match self.flavor {
            Flavor::MariaDb => IndexView::MariaDb {
                ignored: self.has_ignored_indexes(),
            },
            Flavor::TiDb if self.statistics_lists_building_indexes() => IndexView::TidbIndexes,
            Flavor::TiDb | Flavor::MySql => IndexView::MySql,
        }
    }

    /// Whether `information_schema.STATISTICS` has MariaDB's `IGNORED`
    /// column, and indexes can be `IGNORED`: MariaDB 10.6.0+.
    /// Source: MariaDB KB "Ignored Indexes" (added in 10.6.0, MDEV-7317).
    pub(crate) fn has_ignored_indexes(&self) -> bool {
        self.at_least(Flavor::MariaDb, Version::new(10, 6, 0))
    }

    /// Whether the server takes `JSON_TABLE` joined `LATERAL`: MySQL 8.0.14+
    /// (a listed read then joins each name to the views by equality).
    /// Source: MySQL 8.0 Reference Manual 15.2.15.9 "Lateral Derived Tables"
    /// ("supported as of MySQL 8.0.14").
    pub(crate) fn has_lateral_json_table(&self) -> bool {
        self.at_least(Flavor::MySql, Version::new(8, 0, 14))
    }

    /// Whether `information_schema.STATISTICS` may list indexes that are
    /// still being built: TiDB before v8.5.3 does (CONTEXT.md; TiDB v8.5.3
    /// release notes, pingcap/tidb#59943), so such servers are inspected
    /// through `information_schema.TIDB_INDEXES`, which lists public indexes
    /// only.
    pub(crate) fn statistics_lists_building_indexes(&self) -> bool {
        self.flavor == Flavor::TiDb && self.version < Version::new(8, 5, 3)
    }

    /// The keyword that makes an index unused by the optimizer but kept up
    /// to date, or `None` when the release has none:
    /// - MySQL 8.0.0+: `INVISIBLE` (Reference Manual 10.3.12 "Invisible
    ///   Indexes");
    /// - TiDB: `INVISIBLE` (docs.pingcap.com "Invisible Indexes", every
    ///   supported release);
    /// - MariaDB 10.6.0+: `IGNORED` (KB "Ignored Indexes", MDEV-7317).
    pub fn hidden_index_keyword(&self) -> Option<&'static str> {
        match self.flavor {
            Flavor::MariaDb => self.has_ignored_indexes().then_some("IGNORED"),
            Flavor::MySql => (self.version >= Version::new(8, 0, 0)).then_some("INVISIBLE"),
            Flavor::TiDb => Some("INVISIBLE"),
        }
    }

    /// Which ADD COLUMN is instant, or `None` when none is:
    /// - MySQL 8.0.29+: anywhere, up to 64 row versions per table
    ///   (Reference Manual 17.12.1 "Online DDL Operations", Column
    ///   Operations; error 4092 past the limit); 8.0.12-8.0.28: last only
    ///   (INSTANT was added in 8.0.12, WL#11250);
    /// - MariaDB 10.4.0+: anywhere (MDEV-15562); 10.3.2-10.3.x: last only
    ///   (MDEV-11369), no row-version limit (KB "Instant ADD COLUMN for
    ///   InnoDB");
    /// - TiDB: every ADD COLUMN is a metadata change, anywhere
    ///   (docs.pingcap.com "ADD COLUMN"; DDL is online).
    pub fn instant_add_column(&self) -> Option<InstantAddColumn> {
        let v = self.version;
        let (anywhere, row_versions) = match self.flavor {
            Flavor::MySql if v >= Version::new(8, 0, 29) => (true, Some(64)),
            Flavor::MySql if v >= Version::new(8, 0, 12) => (false, None),
            Flavor::MariaDb if v >= Version::new(10, 4, 0) => (true, None),
            Flavor::MariaDb if v >= Version::new(10, 3, 2) => (false, None),
            Flavor::TiDb => (true, None),
            Flavor::MySql | Flavor::MariaDb => return None,
        };
        Some(InstantAddColumn {
            anywhere,
            row_versions,
        })
    }

    /// What a `CHECK` constraint does:
    /// - MySQL 8.0.16+: enforced (Reference Manual 15.1.20.6 "CHECK
    ///   Constraints"; earlier releases parse and ignore it);
    /// - MariaDB 10.2.1+: enforced (KB "CONSTRAINT");
    /// - TiDB v7.2.0+: enforced while `tidb_enable_check_constraint` is ON
    ///   (default OFF), otherwise parsed and ignored (docs.pingcap.com
    ///   "Constraints", CHECK; v7.2.0 release notes).
    pub fn check_enforcement(&self) -> CheckEnforcement {
        let v = self.version;
        match self.flavor {
            Flavor::MySql if v >= Version::new(8, 0, 16) => CheckEnforcement::Enforced,
            Flavor::MariaDb if v >= Version::new(10, 2, 1) => CheckEnforcement::Enforced,
            Flavor::TiDb if v >= Version::new(7, 2, 0) => {
                CheckEnforcement::WhenSettingOn("tidb_enable_check_constraint")
            }
            Flavor::MySql | Flavor::MariaDb | Flavor::TiDb => CheckEnforcement::Ignored,
        }
    }

    /// The statement that shows a replica's threads and position, or `None`
    /// on TiDB (no MySQL-protocol replication):
    /// - MySQL 8.0.22+: `SHOW REPLICA STATUS`; `SHOW SLAVE STATUS` was
    ///   deprecated then and removed in 8.4.0 (Reference Manual 15.7.7.35
    ///   "SHOW REPLICA STATUS"; 8.4 "What Is New": removed features);
    /// - MariaDB 10.5.1+: `SHOW REPLICA STATUS` as a synonym (KB "SHOW
    ///   REPLICA STATUS", MDEV-20601); older releases `SHOW SLAVE STATUS`.
    pub fn replica_status_statement(&self) -> Option<&'static str> {
        let replica = match self.flavor {
            Flavor::MySql => self.version >= Version::new(8, 0, 22),
            Flavor::MariaDb => self.version >= Version::new(10, 5, 1),
            Flavor::TiDb => return None,
        };
        Some(if replica {
            "SHOW REPLICA STATUS"
        } else {
            "SHOW SLAVE STATUS"
        })
    }

    /// Whether the server has `binlog_alter_two_phase` (MariaDB 10.8.1+,
    /// MDEV-11675: an ALTER is binlogged as START ALTER ... COMMIT ALTER so a
    /// replica with parallel applier threads builds alongside the primary;
    /// KB "Replication and Binary Log System Variables",
    /// <https://mariadb.com/kb/en/replication-and-binary-log-system-variables/#binlog_alter_two_phase>,
    /// "System Variables Added in MariaDB 10.8"). It helps only a replica
    /// with parallel applier threads: a single-threaded applier still
    /// replays the ALTER before anything after it (measured: 4.9 s max lag
    /// on 2M rows either way; 0.5 s with parallel appliers; docs/replicas.md).
    pub fn has_binlog_alter_two_phase(&self) -> bool {
        self.at_least(Flavor::MariaDb, Version::new(10, 8, 1))
    }

    /// The statement that reads how many threads are running a statement
    /// now (`Threads_running`, one row `Variable_name`, `Value`), or `None`
    /// where the server has no such status variable:
    /// - MySQL: `Threads_running` (Reference Manual "Server Status
    ///   Variables");
    /// - MariaDB: `Threads_running` (KB "Server Status Variables");
    /// - TiDB: `SHOW STATUS` is there for compatibility and lists a handful
    ///   of variables, not `Threads_running` (docs.pingcap.com "SHOW
    ///   [GLOBAL|SESSION] STATUS"; metrics go to Prometheus).
    pub fn threads_running_statement(&self) -> Option<&'static str> {
        match self.flavor {
            Flavor::MySql | Flavor::MariaDb => Some("SHOW GLOBAL STATUS LIKE 'Threads_running'"),
            Flavor::TiDb => None,
        }
    }
}

impl Flavor {
    /// The statement that makes information_schema.TABLES report a
    /// table's current statistics rather than a cached copy: MySQL 8.0+
    /// caches TABLE_ROWS, DATA_LENGTH, INDEX_LENGTH and AUTO_INCREMENT for
    /// `information_schema_stats_expiry` seconds (default 86400; Reference
    /// Manual "Optimizing INFORMATION_SCHEMA Queries"), and 0 in the
    /// session reads them from the storage engine. MariaDB and TiDB keep
    /// no such cache (their TABLES rows come from the engine's statistics
    /// directly).
    pub(crate) fn fresh_table_stats_statement(self) -> Option<&'static str> {
        match self {
            Flavor::MySql => Some("SET SESSION information_schema_stats_expiry = 0"),
            Flavor::MariaDb | Flavor::TiDb => None,
        }
    }

    /// Whether tables carry TiDB's own table options (clustered primary
    /// key, `AUTO_RANDOM`, `SHARD_ROW_ID_BITS`, ...; docs.pingcap.com
    /// "CREATE TABLE"), rendered and read on this vendor only: TiDB.
    pub(crate) fn has_tidb_table_options(self) -> bool {
        match self {
            Flavor::TiDb => true,
            Flavor::MySql | Flavor::MariaDb => false,
        }
    }

    /// Whether the server counts a session's DDL in `SHOW SESSION STATUS`
    /// (`Com_create_table`, `Com_alter_table`: MySQL Reference Manual
    /// "Server Status Variables", MariaDB KB "Server Status Variables");
    /// TiDB keeps no such per-session counters.
    pub(crate) fn counts_session_ddl(self) -> bool {
        match self {
            Flavor::MySql | Flavor::MariaDb => true,
            Flavor::TiDb => false,
        }
    }

    /// Whether ADD INDEX runs as a server-side job that outlives the
    /// client's connection, so a second identical ADD INDEX is answered
    /// 1061 "... a background job is trying to add the same index": TiDB
    /// (CONTEXT.md; docs.pingcap.com "ADD INDEX", "DDL Introduction").
    pub(crate) fn builds_indexes_in_background_jobs(self) -> bool {
        match self {
            Flavor::TiDb => true,
            Flavor::MySql | Flavor::MariaDb => false,
        }
    }

    /// The server variable without which a CHECK constraint is parsed and
    /// dropped, on every supported release (see
    /// [`Server::check_enforcement`]): TiDB's `tidb_enable_check_constraint`
    /// (default OFF; docs.pingcap.com "Constraints"); `None` elsewhere.
    pub(crate) fn check_needs_setting(self) -> Option<&'static str> {
        match self {
            Flavor::TiDb => Some("tidb_enable_check_constraint"),
            Flavor::MySql | Flavor::MariaDb => None,
        }
    }

    /// Whether the server's default sql_mode accepts a zero date ('0000-00-00',
    /// a `00` month or day) as a column default: MariaDB 10.11's default
    /// sql_mode has neither NO_ZERO_DATE nor NO_ZERO_IN_DATE (KB
    /// "SQL_MODE"); MySQL 8.0+ and TiDB have both (MySQL 8.4 manual, 7.1.11
    /// "Server SQL Modes"; TiDB docs "SQL Mode"), and refuse it with 1067
    /// (probed on MySQL 9.7).
    pub(crate) fn accepts_zero_dates(self) -> bool {
        match self {
            Flavor::MariaDb => true,
            Flavor::MySql | Flavor::TiDb => false,
        }
    }

    /// The session variable that makes `information_schema.TABLES` read
    /// a table's current statistics (AUTO_INCREMENT, TABLE_ROWS) instead of
    /// a cached copy: MySQL 8.0.3+ caches them for
    /// `information_schema_stats_expiry` seconds (default 86400; MySQL 8.4
    /// manual, "Optimizing INFORMATION_SCHEMA Queries"; probed on 9.7: a
    /// stale AUTO_INCREMENT until it is set to 0, and not settable by a
    /// SET_VAR hint, warning 3637). MariaDB and TiDB read them live.
    pub(crate) fn table_stats_expiry_variable(self) -> Option<&'static str> {
        match self {
            Flavor::MySql => Some("information_schema_stats_expiry"),
            Flavor::MariaDb | Flavor::TiDb => None,
        }
    }

    /// Whether a descending key part (`DESC`) is parsed and built
    /// ascending: TiDB ("Descending indexes are not supported (similar to
    /// MySQL 5.7)", docs.pingcap.com ADD INDEX / CREATE INDEX, "MySQL
    /// compatibility"). MySQL 8.0+ (manual, "Descending Indexes") and
    /// MariaDB 10.8+ (MDEV-13756) build them descending.
    pub(crate) fn ignores_descending_key_parts(self) -> bool {
        match self {
            Flavor::TiDb => true,
            Flavor::MySql | Flavor::MariaDb => false,
        }
    }

    /// Whether the SHOW CREATE TABLE net (`inspect/net.rs`) runs: on MySQL
    /// and MariaDB. Not on TiDB: its table features are already read from
    /// that text, and how its text and its information_schema agree has
    /// not been run against a live TiDB here.
    pub(crate) fn show_create_net_runs(self) -> bool {
        match self {
            Flavor::MySql | Flavor::MariaDb => true,
            Flavor::TiDb => false,
        }
    }

    /// Whether this vendor's behaviour is measured live in this project
    /// (MySQL 9.7 and MariaDB 10.11 run beside the tests): paths chosen
    /// for their measured cost stay off where it is not. TiDB cannot be run
    /// here (SPEC "Tests"), so its rules come from its documentation.
    pub(crate) fn measured_live_here(self) -> bool {
        match self {
            Flavor::MySql | Flavor::MariaDb => true,
            Flavor::TiDb => false,
        }
    }

    /// Whether a foreign key declared with no ON DELETE / ON UPDATE is
    /// shown with `RESTRICT` (MariaDB's SHOW CREATE TABLE and
    /// REFERENTIAL_CONSTRAINTS) rather than `NO ACTION` (MySQL, TiDB);
    /// InnoDB treats them alike (CONTEXT.md; MariaDB KB "Foreign Keys").
    pub(crate) fn shows_omitted_fk_action_as_restrict(self) -> bool {
        match self {
            Flavor::MariaDb => true,
            Flavor::MySql | Flavor::TiDb => false,
        }
    }

    /// Whether `JSON` is stored as `LONGTEXT` with a `json_valid` CHECK, so
    /// a JSON column reads back as a checked longtext: MariaDB (KB "JSON
    /// Data Type": an alias for LONGTEXT, with the CHECK added since
    /// 10.4.3, MDEV-13916); MySQL and TiDB have a native JSON type.
    pub(crate) fn json_is_checked_longtext(self) -> bool {
        match self {
            Flavor::MariaDb => true,
            Flavor::MySql | Flavor::TiDb => false,
        }
    }

    /// Whether `information_schema.COLUMNS` has `SRS_ID`, a spatial
    /// column's SRID: MySQL 8.0.3+ (Reference Manual 28.3.8 "The
    /// INFORMATION_SCHEMA COLUMNS Table"). MariaDB's `REF_SYSTEM_ID` is not
    /// a column attribute the catalog declares; TiDB has no spatial types.
    pub(crate) fn columns_have_srs_id(self) -> bool {
        match self {
            Flavor::MySql => true,
            Flavor::MariaDb | Flavor::TiDb => false,
        }
    }

    /// Whether `information_schema.CHECK_CONSTRAINTS` has a `TABLE_NAME`
    /// column, so a table's checks are read from it directly: MariaDB's
    /// does (KB "Information Schema CHECK_CONSTRAINTS Table": TABLE_NAME,
    /// LEVEL), MySQL's has none (Reference Manual 28.3.5 "The
    /// INFORMATION_SCHEMA CHECK_CONSTRAINTS Table"), nor TiDB's (its
    /// `TIDB_CHECK_CONSTRAINTS` adds it; docs.pingcap.com).
    pub(crate) fn check_constraints_view_names_tables(self) -> bool {
        match self {
            Flavor::MariaDb => true,
            Flavor::MySql | Flavor::TiDb => false,
        }
    }

    /// Whether an online ALTER carries `ALGORITHM=...` / `LOCK=...` clauses.
    /// MySQL and MariaDB take them and refuse (1845/1846) instead of
    /// silently locking (MySQL Reference Manual 15.1.9 "ALTER TABLE",
    /// "Performance and Space Requirements"; MariaDB KB "ALTER TABLE",
    /// ALGORITHM and LOCK). TiDB's DDL is always online; it parses the
    /// clauses but rejects some values for some statements (docs.pingcap.com
    /// "ALTER TABLE", MySQL compatibility), so none are written.
    pub fn takes_online_clauses(self) -> bool {
        match self {
            Flavor::MySql | Flavor::MariaDb => true,
            Flavor::TiDb => false,
        }
    }

    /// The keyword for an index kept but unused by the optimizer, in every
    /// supported release (see [`Server::hidden_index_keyword`] for the
    /// releases that brought it): `IGNORED` on MariaDB, `INVISIBLE` on
    /// MySQL and TiDB.
    pub fn hidden_index_keyword(self) -> &'static str {
        match self {
            Flavor::MariaDb => "IGNORED",
            Flavor::MySql | Flavor::TiDb => "INVISIBLE",
        }
    }

    /// Whether the server speaks the MySQL replication protocol, so its
    /// replicas can be surveyed (discovered, GTID-checked): MySQL and
    /// MariaDB do; TiDB does not, it replicates through TiCDC and DM
    /// (docs.pingcap.com "MySQL Compatibility": "TiDB does not support the
    /// MySQL replication protocol").
    pub fn has_mysql_replication(self) -> bool {
        match self {
            Flavor::MySql | Flavor::MariaDb => true,
            Flavor::TiDb => false,
        }
    }

    /// Whether the session may have `explain_json_format_version`: a MySQL
    /// variable (added in 8.3.0; Reference Manual "Server System
    /// Variables", explain_json_format_version), which a MySQL before 8.3
    /// refuses as unknown (1193). MariaDB's EXPLAIN FORMAT=JSON has one
    /// format (KB "EXPLAIN FORMAT=JSON"), and TiDB has no such variable.
    pub fn may_have_explain_json_format_version(self) -> bool {
        self == Flavor::MySql
    }

    /// Whether the optimizer uses a SPATIAL index only on a column
    /// restricted to one SRID: MySQL ("The optimizer can use SPATIAL
    /// indexes on SRID-restricted columns only", MySQL 8.0 manual,
    /// "Creating Spatial Indexes"). MariaDB has no SRID restriction on a
    /// column and uses its SPATIAL indexes; TiDB has no spatial types.
    pub(crate) fn uses_spatial_index_only_with_srid(self) -> bool {
        match self {
            Flavor::MySql => true,
            Flavor::MariaDb | Flavor::TiDb => false,
        }
    }

    /// Whether a character outside the Basic Multilingual Plane in a
    /// comment, string default or expression is lost (stored or read back
    /// as `?`): on MySQL and MariaDB, as probed on MariaDB 10.11 and MySQL
    /// 9.7: comments are kept in utf8mb3 on both, MySQL keeps the text of
    /// a CHECK, a generated column and an expression key part in utf8mb3,
    /// and both show a literal default's character as `?` (MySQL manual
    /// "The utf8mb3 Character Set"; tests/it/meaning_property.rs found
    /// it). TiDB's behaviour is not probed: `false`.
    pub fn loses_astral_text_in_definitions(self) -> bool {
        match self {
            Flavor::MySql | Flavor::MariaDb => true,
            Flavor::TiDb => false,
        }
    }

    /// How a running DDL is cancelled from another connection: MySQL and
    /// MariaDB `KILL QUERY` (Reference Manual "KILL Statement"; KB "KILL");
    /// TiDB runs DDL as jobs owned by the DDL owner, so the job is
    /// cancelled with `ADMIN CANCEL DDL JOBS` and the waiting statement with
    /// `KILL TIDB QUERY` (docs.pingcap.com "ADMIN CANCEL DDL", "KILL").
    pub fn ddl_cancel(self) -> DdlCancel {
        match self {
            Flavor::MySql | Flavor::MariaDb => DdlCancel::KillQuery,
            Flavor::TiDb => DdlCancel::CancelDdlJobs,
        }
    }

    /// Where a running ALTER's progress is read: MariaDB reports it in the
    /// process list (KB "Progress Reporting"); MySQL in the Performance
    /// Schema stage events (Reference Manual "Monitoring ALTER TABLE
    /// Progress for InnoDB Tables Using Performance Schema"); TiDB in its
    /// DDL job's ROW_COUNT (docs.pingcap.com "INFORMATION_SCHEMA.DDL_JOBS").
    pub fn ddl_progress(self) -> DdlProgress {
        match self {
            Flavor::MariaDb => DdlProgress::Processlist,
            Flavor::MySql => DdlProgress::StageEvents,
            Flavor::TiDb => DdlProgress::DdlJobRows,
        }
    }

    /// How a query plan is read: MariaDB has `ANALYZE FORMAT=JSON` (KB
    /// "ANALYZE FORMAT=JSON"); MySQL runs a SELECT with `EXPLAIN ANALYZE`,
    /// read in its default tree format beside the `EXPLAIN FORMAT=JSON`
    /// plan (Reference Manual "Obtaining Information with EXPLAIN ANALYZE");
    /// TiDB's `EXPLAIN` is rows of operators (docs.pingcap.com "EXPLAIN",
    /// "EXPLAIN ANALYZE").
    pub fn plan_reading(self) -> PlanReading {
        match self {
            Flavor::MariaDb => PlanReading::AnalyzeFormatJson,
            Flavor::MySql => PlanReading::ExplainJsonAndAnalyzeTree,
            Flavor::TiDb => PlanReading::ExplainRows,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server(text: &str) -> Server {
        Server::from_version_text(text).unwrap()
    }

    #[test]
    fn lateral_json_table_from_mysql_8_0_14() {
        let has = |v: &str| server(v).has_lateral_json_table();
        assert!(has("8.0.14") && has("8.0.36") && has("8.4.3") && has("9.7.4"));
        assert!(!has("8.0.13") && !has("8.0.11"));
        assert!(!has("10.11.19-MariaDB") && !has("8.0.11-TiDB-v8.5.3"));
    }

    #[test]
    fn old_tidb_lists_building_indexes() {
        assert!(server("8.0.11-TiDB-v8.5.1").statistics_lists_building_indexes());
        assert!(server("8.0.11-TiDB-v8.5.2").statistics_lists_building_indexes());
        assert!(!server("8.0.11-TiDB-v8.5.3").statistics_lists_building_indexes());
        assert!(!server("8.0.11-TiDB-v9.0.0").statistics_lists_building_indexes());
        assert!(!server("10.11.19-MariaDB").statistics_lists_building_indexes());
        assert!(!server("8.0.36").statistics_lists_building_indexes());
    }

    #[test]
    fn mariadb_ignored_indexes_since_10_6() {
        assert!(server("10.11.19-MariaDB-0+deb12u1").has_ignored_indexes());
        assert!(server("5.5.5-10.6.0-MariaDB").has_ignored_indexes());
        assert!(!server("10.5.9-MariaDB").has_ignored_indexes());
        assert!(!server("8.0.36").has_ignored_indexes());
    }

    #[test]
    fn hidden_index_keyword_by_release() {
        assert_eq!(server("8.0.36").hidden_index_keyword(), Some("INVISIBLE"));
        assert_eq!(server("5.7.44").hidden_index_keyword(), None);
        assert_eq!(
            server("10.6.0-MariaDB").hidden_index_keyword(),
            Some("IGNORED")
        );
        assert_eq!(server("10.5.99-MariaDB").hidden_index_keyword(), None);
        assert_eq!(
            server("8.0.11-TiDB-v8.5.0").hidden_index_keyword(),
            Some("INVISIBLE")
        );
        for f in Flavor::ALL {
            let newest = Server::offline(f, Some(Version::new(99, 0, 0)));
            assert_eq!(
                newest.hidden_index_keyword(),
                Some(f.hidden_index_keyword())
            );
        }
    }

    #[test]
    fn instant_add_column_by_release() {
        let instant = |v: &str| server(v).instant_add_column();
        let at = |anywhere, row_versions| {
            Some(InstantAddColumn {
                anywhere,
                row_versions,
            })
        };
        assert_eq!(instant("8.0.11"), None);
        assert_eq!(instant("8.0.12"), at(false, None));
        assert_eq!(instant("8.0.28"), at(false, None));
        assert_eq!(instant("8.0.29"), at(true, Some(64)));
        assert_eq!(instant("9.7.0"), at(true, Some(64)));
        assert_eq!(instant("10.3.1-MariaDB"), None);
        assert_eq!(instant("10.3.2-MariaDB"), at(false, None));
        assert_eq!(instant("10.4.0-MariaDB"), at(true, None));
        assert_eq!(instant("10.11.19-MariaDB"), at(true, None));
        assert_eq!(instant("8.0.11-TiDB-v8.5.0"), at(true, None));
    }

    #[test]
    fn lint_facts_by_vendor() {
        assert!(Flavor::MariaDb.accepts_zero_dates());
        assert!(!Flavor::MySql.accepts_zero_dates() && !Flavor::TiDb.accepts_zero_dates());
        assert!(Flavor::TiDb.ignores_descending_key_parts());
        assert!(!Flavor::MySql.ignores_descending_key_parts());
        assert!(!Flavor::MariaDb.ignores_descending_key_parts());
        assert_eq!(
            Flavor::MySql.table_stats_expiry_variable(),
            Some("information_schema_stats_expiry")
        );
        assert_eq!(Flavor::MariaDb.table_stats_expiry_variable(), None);
        assert_eq!(Flavor::TiDb.table_stats_expiry_variable(), None);
    }

    #[test]
    fn check_enforcement_by_release() {
        use CheckEnforcement::*;
        let check = |v: &str| server(v).check_enforcement();
        assert_eq!(check("8.0.15"), Ignored);
        assert_eq!(check("8.0.16"), Enforced);
        assert_eq!(check("10.2.0-MariaDB"), Ignored);
        assert_eq!(check("10.2.1-MariaDB"), Enforced);
        assert_eq!(check("8.0.11-TiDB-v7.1.9"), Ignored);
        assert_eq!(
            check("8.0.11-TiDB-v7.2.0"),
            WhenSettingOn("tidb_enable_check_constraint")
        );
    }

    #[test]
    fn replica_questions_by_release() {
        let s = server;
        assert_eq!(
            s("8.0.21").replica_status_statement(),
            Some("SHOW SLAVE STATUS")
        );
        assert_eq!(
            s("8.0.22").replica_status_statement(),
            Some("SHOW REPLICA STATUS")
        );
        assert_eq!(
            s("9.7.0").replica_status_statement(),
            Some("SHOW REPLICA STATUS")
        );
        assert_eq!(
            s("10.5.0-MariaDB").replica_status_statement(),
            Some("SHOW SLAVE STATUS")
        );
        assert_eq!(
            s("10.5.1-MariaDB").replica_status_statement(),
            Some("SHOW REPLICA STATUS")
        );
        assert_eq!(s("8.0.11-TiDB-v8.5.0").replica_status_statement(), None);

        assert!(!s("10.8.0-MariaDB").has_binlog_alter_two_phase());
        assert!(s("10.8.1-MariaDB").has_binlog_alter_two_phase());
        assert!(s("10.11.19-MariaDB").has_binlog_alter_two_phase());
        assert!(!s("9.7.0").has_binlog_alter_two_phase());
        assert!(!s("8.0.11-TiDB-v8.5.0").has_binlog_alter_two_phase());

        assert!(s("9.7.0").threads_running_statement().is_some());
        assert!(s("10.11.19-MariaDB").threads_running_statement().is_some());
        assert_eq!(s("8.0.11-TiDB-v8.5.0").threads_running_statement(), None);
    }

    #[test]
    fn online_clauses_except_on_tidb() {
        assert!(Flavor::MySql.takes_online_clauses());
        assert!(Flavor::MariaDb.takes_online_clauses());
        assert!(!Flavor::TiDb.takes_online_clauses());
    }

    #[test]
    fn per_flavor_facts_asked_outside_the_seam() {
        let of = |f: fn(Flavor) -> bool| Flavor::ALL.map(f);
        // Flavor::ALL order: TiDB, MySQL, MariaDB.
        assert_eq!(of(Flavor::has_mysql_replication), [false, true, true]);
        assert_eq!(
            of(Flavor::may_have_explain_json_format_version),
            [false, true, false]
        );
        assert_eq!(
            of(Flavor::loses_astral_text_in_definitions),
            [false, true, true]
        );
        assert_eq!(
            of(Flavor::uses_spatial_index_only_with_srid),
            [false, true, false]
        );
    }

    #[test]
    fn per_flavor_ways_of_cancelling_watching_and_explaining() {
        assert_eq!(Flavor::MySql.ddl_cancel(), DdlCancel::KillQuery);
        assert_eq!(Flavor::MariaDb.ddl_cancel(), DdlCancel::KillQuery);
        assert_eq!(Flavor::TiDb.ddl_cancel(), DdlCancel::CancelDdlJobs);
        assert_eq!(Flavor::MariaDb.ddl_progress(), DdlProgress::Processlist);
        assert_eq!(Flavor::MySql.ddl_progress(), DdlProgress::StageEvents);
        assert_eq!(Flavor::TiDb.ddl_progress(), DdlProgress::DdlJobRows);
        assert_eq!(
            Flavor::MariaDb.plan_reading(),
            PlanReading::AnalyzeFormatJson
        );
        assert_eq!(
            Flavor::MySql.plan_reading(),
            PlanReading::ExplainJsonAndAnalyzeTree
        );
        assert_eq!(Flavor::TiDb.plan_reading(), PlanReading::ExplainRows);
    }
}
