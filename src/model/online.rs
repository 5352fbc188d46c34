//! Why a missing object cannot be added to an existing table online: the
//! typed reason drift carries ([`NotOnline`]), decided by the diff
//! (`diff::not_online_reason`, `diff::column_not_online_reason`) and
//! worded here, once.

use std::fmt;

/// Why a missing object cannot be added to an existing table online.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NotOnline {
    /// A FULLTEXT index: InnoDB rebuilds the table for the first one and
    /// takes a shared lock for any.
    FullTextIndex,
    /// A SPATIAL index: InnoDB refuses `LOCK=NONE` for it (error 1846).
    SpatialIndex,
    /// An index with an expression key part: MySQL adds it through a
    /// hidden virtual column and refuses `LOCK=NONE`.
    ExpressionIndex,
    /// A STORED generated column: computed into every row with a table
    /// copy (TiDB cannot add one at all).
    StoredGeneratedColumn,
    /// A CHECK constraint: validating every row copies the table.
    Check,
    /// A column placed before an existing VIRTUAL generated column (on
    /// MySQL: a VIRTUAL column, a functional index's hidden column
    /// counting; on MariaDB: any column): the server refuses INSTANT and
    /// INPLACE (error 1846), see [`crate::Flavor::refuses_column_added_before_virtual`].
    ColumnBeforeVirtual,
    /// A foreign key: validating every row copies the table unless
    /// `foreign_key_checks` is off, which the tool never sets.
    ForeignKey,
}

impl fmt::Display for NotOnline {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NotOnline::FullTextIndex => "a FULLTEXT index cannot be added to an existing table online (InnoDB rebuilds the table for the first one and takes a shared lock for any)",
            NotOnline::SpatialIndex => "a SPATIAL index cannot be added to an existing table online (InnoDB refuses LOCK=NONE for it and blocks writes with LOCK=SHARED)",
            NotOnline::ExpressionIndex => "an index with an expression key part cannot be added to an existing table online (MySQL adds it through a hidden virtual column and refuses LOCK=NONE)",
            NotOnline::StoredGeneratedColumn => "a STORED generated column cannot be added to an existing table online (MySQL and MariaDB compute it into every row with a table copy; TiDB cannot add one at all)",
            NotOnline::ColumnBeforeVirtual => "a column placed before an existing VIRTUAL generated column (on MySQL a VIRTUAL column, a functional index's hidden column counting; on MariaDB any column) cannot be added online: the server refuses ALGORITHM=INSTANT and INPLACE with error 1846; declare the new column after the table's last virtual column in the catalog, or add it in a maintenance window",
            NotOnline::Check => "adding a CHECK constraint to an existing table validates every row with a table copy (MySQL ALGORITHM=COPY, MariaDB likewise), which is not online",
            NotOnline::ForeignKey => "adding a foreign key to an existing table validates every row with a table copy (MySQL and MariaDB refuse ALGORITHM=INPLACE unless foreign_key_checks=0, which the tool never sets), which is not online",
        })
    }
}
