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
}
