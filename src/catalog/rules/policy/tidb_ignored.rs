//! `tidb-ignored`: what TiDB parses and then ignores, on a catalog that
//! targets TiDB. The table would be created without it and never match
//! the catalog, so these are errors that cannot be lowered.
//! - A descending key part (`order: desc`): "Descending indexes are not
//!   supported (similar to MySQL 5.7)": DESC is parsed and the part is
//!   stored ascending (TiDB docs, CREATE INDEX / ADD INDEX, "MySQL
//!   compatibility": <https://docs.pingcap.com/tidb/stable/sql-statement-add-index#mysql-compatibility>).
//!
//! FULLTEXT indexes (parsed, dropped with warning 1214) and spatial types
//! and SPATIAL indexes (unsupported) are refused by the `flavor` rule with
//! the same citation pages. Written from TiDB's documentation: no TiDB
//! server can be run here, so it is unit-tested only.

use crate::catalog::rule_ids::TIDB_IGNORED;
use crate::catalog::sink::Sink;
use crate::model::{IndexPart, Table};

use super::Context;

use crate::catalog::fixes::TIDB_IGNORED_FIX as FIX;

pub(in crate::catalog) fn check(table: &Table, ctx: &Context<'_>, sink: &mut Sink) {
    if !ctx
        .defaults
        .flavors
        .iter()
        .any(|f| f.ignores_descending_key_parts())
    {
        return;
    }
    let descending = |parts: &[IndexPart]| {
        parts.iter().any(|p| {
            matches!(
                p,
                IndexPart::Column {
                    descending: true,
                    ..
                }
            )
        })
    };
    let mut report = |object: String| {
        sink.report(
            &TIDB_IGNORED,
            Some(object),
            format!("a descending key part on a catalog that targets TiDB, which parses DESC and builds the part ascending, so the index would never match: {FIX}"),
        );
    };
    if descending(&table.primary_key) {
        report("primary key".into());
    }
    for i in table.indexes.iter().filter(|i| descending(&i.parts)) {
        report(format!("index `{}`", i.name));
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::findings;

    const T: &str = "table: T\ncolumns:\n  - {name: Id, type: bigint, nullable: false}\n  - {name: At, type: datetime}\nprimary_key: [Id]\nindexes:\n  - {name: by_at, columns: [{column: At, order: desc}]}\n";

    #[test]
    fn a_descending_part_fails_on_a_tidb_catalog() {
        let found = findings("tidb-ignored", "", T);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].object.as_deref(), Some("index `by_at`"));
        assert!(findings("tidb-ignored", "flavors: [mysql, mariadb]\n", T).is_empty());
        let ascending = T.replace(", order: desc", "");
        assert!(findings("tidb-ignored", "", &ascending).is_empty());
    }

    #[test]
    fn it_cannot_be_lowered() {
        let found = findings("settings", "lint: {rules: {tidb-ignored: warning}}\n", T);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].message.contains("cannot be lowered"),
            "{}",
            found[0].message
        );
    }
}
