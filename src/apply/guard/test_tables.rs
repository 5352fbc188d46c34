//! The tables and indexes the guard's unit tests check steps for.

use crate::model::{Index, Table};

/// `fk_t_parent`: `Id` references `Parent (Id)`, cascading deletes, as
/// the rendered CREATE TABLE spells it.
pub(super) const FK: &str =
    "CONSTRAINT `fk_t_parent` FOREIGN KEY (`Id`) REFERENCES `Parent` (`Id`) \
     ON DELETE CASCADE ON UPDATE RESTRICT";

/// Format v2 key parts: a descending part with a declared prefix and an
/// expression, invisible.
const V2_PARTS: &str = "(`Note`(4) DESC, (lower(`Note`))) INVISIBLE";

/// [`table`]'s columns and primary key.
const COLUMNS: &str = "`Id` bigint unsigned NOT NULL, `Note` varchar(8), PRIMARY KEY (`Id`)";

/// The CREATE TABLE of `T`: [`COLUMNS`], then `items` (each led by `, `).
fn sql(items: &str) -> String {
    format!(
        "CREATE TABLE `T` ({COLUMNS}{items}) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
    )
}

/// A base table `T`: `Id bigint unsigned` primary key, `Note varchar(8)`.
pub(super) fn table() -> Table {
    crate::dump::table(&sql(""))
}

/// The index `key` (`` KEY `ix` (`Note`) ``) declares on [`table`].
pub(super) fn index(key: &str) -> Index {
    crate::dump::index(&format!("{COLUMNS}, {key}"))
}

/// [`table`] with the foreign key [`FK`].
pub(super) fn table_with_fk() -> Table {
    crate::dump::table(&sql(&format!(", {FK}")))
}

/// [`table`] with a CHECK, the two [`v2_index`] shapes, a FULLTEXT index
/// and [`FK`].
pub(super) fn v2_table() -> Table {
    crate::dump::table(&sql(&format!(
        ", UNIQUE KEY `uq_v2` {V2_PARTS}, KEY `ix_v2` {V2_PARTS}, FULLTEXT KEY `ft` (`Note`), \
         {FK}, CONSTRAINT `chk_note` CHECK (`Note` <> '')"
    )))
}

/// Format v2 shapes ([`V2_PARTS`]): `uq_v2` or `ix_v2`.
pub(super) fn v2_index(unique: bool) -> Index {
    index(&if unique {
        format!("UNIQUE KEY `uq_v2` {V2_PARTS}")
    } else {
        format!("KEY `ix_v2` {V2_PARTS}")
    })
}
