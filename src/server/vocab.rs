//! The words the vendor files answer in: what a column change is, how
//! online the server does it, what a blocker read binds. A leaf of the
//! server room, so the dispatch files (`alter`, `busy`) and the vendor
//! files (`mysql`, `mariadb`, `tidb`) both import it and not each other.

/// A change to one live column, as the widening rule table asks about it
/// (the checks every vendor shares, narrowing, sign, storage size, are
/// made before it is asked).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ColumnChange<'a> {
    /// `varchar(from_chars)` -> `varchar(to_chars)` in `charset`, which
    /// stores at most `from_bytes` -> `to_bytes`.
    VarcharLength {
        /// Old length in characters.
        from_chars: u32,
        /// New length in characters.
        to_chars: u32,
        /// Old maximum bytes.
        from_bytes: u32,
        /// New maximum bytes.
        to_bytes: u32,
        /// The column's character set.
        charset: &'a str,
    },
    /// ENUM (`set: false`) or SET members appended at the end, the
    /// storage size unchanged.
    MembersAppended {
        /// A SET, not an ENUM.
        set: bool,
    },
    /// An integer widened (`from` -> `to`, type names), sign unchanged.
    IntegerWidth {
        /// The old type's name (`int`).
        from: &'a str,
        /// The new type's name (`bigint`).
        to: &'a str,
    },
    /// SET / DROP DEFAULT.
    Default,
}

/// How the vendor runs a change without touching a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Online {
    /// `ALGORITHM=INSTANT`: a metadata-only change.
    Instant,
    /// `ALGORITHM=INPLACE, LOCK=NONE`: no rebuild, no lock.
    InplaceNoLock,
    /// TiDB: no clause, the change is metadata-only.
    Metadata,
}

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
    /// How the read's snapshot is dated, where it is not live data; `None`:
    /// the read shows live data.
    pub snapshot: Option<SnapshotProbe>,
}

/// A read served from a buffer the server refreshes now and then: the look
/// opens a transaction, then runs `probe` (a row once the buffer lists
/// that transaction, so the snapshot is newer than the look), pausing
/// `refresh` between tries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SnapshotProbe {
    /// What the probe reads, for error messages.
    pub what: &'static str,
    /// Returns a row once the snapshot lists this session's transaction.
    pub probe: &'static str,
    /// The least time after which the buffer is refreshed.
    pub refresh: std::time::Duration,
}

/// What a step does to its table, as the cost classes ask about it (the
/// caller reads it off the model; the vendor says how it runs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DdlWork {
    /// CREATE TABLE: a new, empty table.
    CreateTable,
    /// ADD COLUMN.
    AddColumn {
        /// The column goes last (no `AFTER` another column needed).
        at_end: bool,
        /// A STORED (PERSISTENT) generated column: every row is computed.
        stored_generated: bool,
    },
    /// ADD \[UNIQUE\] INDEX.
    AddIndex {
        /// A FULLTEXT index.
        fulltext: bool,
    },
    /// A widening from the rule table, run as `how`.
    Widen(Online),
}

/// How a step runs on the server, by the work it does to existing rows
/// (docs/cost.md has the classes per vendor with their manual pages).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum StepClass {
    /// Metadata only (`ALGORITHM=INSTANT`, a new table, TiDB's logical
    /// DDL): no row is read; seconds at most, whatever the table's size.
    Instant,
    /// `ALGORITHM=INPLACE` without a table rebuild: an index build scans
    /// the table and sorts the new index beside it; a VARCHAR lengthening
    /// changes metadata only.
    Inplace,
    /// `ALGORITHM=INPLACE` with a table rebuild: every row is copied into
    /// a new clustered index, and every index is rebuilt.
    Rebuild,
    /// TiDB reorg DDL: a background job backfills the index from a full
    /// scan of the table.
    Reorg,
}

impl StepClass {
    /// `instant`, `inplace`, `rebuild`, `reorg`.
    pub fn name(self) -> &'static str {
        match self {
            StepClass::Instant => "instant",
            StepClass::Inplace => "inplace",
            StepClass::Rebuild => "rebuild",
            StepClass::Reorg => "reorg",
        }
    }
}

impl std::fmt::Display for StepClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
