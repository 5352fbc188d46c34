//! `primary-key`: every table declares a primary key. Without one InnoDB
//! clusters the rows on a hidden 6-byte row id (MySQL 8.4 manual, 17.6.2.1
//! "Clustered and Secondary Indexes") and TiDB on `_tidb_rowid`; row-based
//! replication then finds each changed row on a replica by a full scan
//! (the reason Skeema's `lint-pk` and Spirit's lint check it).

use crate::catalog::rule_ids::PRIMARY_KEY;
use crate::catalog::sink::Sink;
use crate::model::Table;

use super::Context;

use crate::catalog::fixes::PRIMARY_KEY_FIX as FIX;

pub(in crate::catalog) fn check(table: &Table, _: &Context<'_>, sink: &mut Sink) {
    if table.primary_key.is_empty() {
        sink.report(
            &PRIMARY_KEY,
            None,
            format!("the table has no primary key: the server clusters it on a hidden row id and replicas find changed rows by scanning; {FIX}"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::findings;

    #[test]
    fn a_table_without_a_primary_key_fails_and_one_with_passes() {
        let without = "table: T\ncolumns:\n  - {name: Id, type: bigint, nullable: false}\n";
        let found = findings("primary-key", "", without);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!((found[0].line, found[0].column), (Some(1), Some(1)));
        assert_eq!(found[0].severity, crate::catalog::Severity::Error);
        let with = format!("{without}primary_key: [Id]\n");
        assert!(findings("primary-key", "", &with).is_empty());
        // Lowered to a warning, or off, by the catalog.
        let lowered = findings(
            "primary-key",
            "lint: {rules: {primary-key: warning}}\n",
            without,
        );
        assert_eq!(lowered[0].severity, crate::catalog::Severity::Warning);
        assert!(findings(
            "primary-key",
            "lint: {rules: {primary-key: off}}\n",
            without
        )
        .is_empty());
    }
}
