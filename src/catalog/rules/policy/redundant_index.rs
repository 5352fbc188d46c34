//! `redundant-index`: a non-unique index whose parts are a strict left
//! prefix of another visible index of the same kind (or of the primary
//! key) adds write cost and serves no lookup the longer one does not.
//! Exact repeats are `duplicate-index`. Never flagged, the false positives
//! peers' users report: a UNIQUE index (it enforces something the longer
//! one does not), the primary key, and an index whose columns are exactly
//! a foreign key's (the server chose or created it for the constraint; a
//! release that drops it while another is building can fail with 1553).

use crate::catalog::rule_ids::REDUNDANT_INDEX;
use crate::catalog::sink::Sink;
use crate::model::{Index, IndexKind, IndexPart, Table};

use super::Context;

use crate::catalog::fixes::REDUNDANT_INDEX_FIX as FIX;

/// Whether `short` is a strict left prefix of `long`.
fn strict_prefix(short: &[IndexPart], long: &[IndexPart]) -> bool {
    short.len() < long.len() && long[..short.len()] == *short
}

/// Whether `index`'s columns are exactly a foreign key's columns.
fn serves_foreign_key(index: &Index, table: &Table) -> bool {
    table
        .foreign_keys
        .iter()
        .any(|fk| crate::catalog::rules::key_rules::keys_on(&index.parts, &fk.columns))
}

pub(in crate::catalog) fn check(table: &Table, _: &Context<'_>, sink: &mut Sink) {
    for index in &table.indexes {
        if index.unique || index.parts.is_empty() || serves_foreign_key(index, table) {
            continue;
        }
        let longer = table
            .indexes
            .iter()
            .filter(|o| o.visible && o.kind == index.kind)
            .find(|o| strict_prefix(&index.parts, &o.parts))
            .map(|o| format!("index `{}`", o.name));
        let covered = longer.or_else(|| {
            (index.kind == IndexKind::BTree && strict_prefix(&index.parts, &table.primary_key))
                .then(|| "the primary key".to_string())
        });
        if let Some(by) = covered {
            sink.report(
                &REDUNDANT_INDEX,
                Some(format!("index `{}`", index.name)),
                format!(
                    "its columns are a left prefix of {by}, which serves the same lookups: {FIX}"
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::findings;

    fn table(indexes: &str) -> String {
        format!(
            "table: T\ncolumns:\n  - {{name: Id, type: bigint, nullable: false}}\n  - {{name: A, type: int, nullable: false}}\n  - {{name: B, type: int}}\nprimary_key: [Id]\nindexes:\n{indexes}"
        )
    }

    #[test]
    fn a_left_prefix_of_another_index_fails() {
        let t = table("  - {name: by_a, columns: [A]}\n  - {name: by_a_b, columns: [A, B]}\n");
        let found = findings("redundant-index", "", &t);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].object.as_deref(), Some("index `by_a`"));
        assert!(found[0].message.contains("index `by_a_b`"));
        assert_eq!((found[0].line, found[0].column), (Some(8), Some(18)));
        // Different leading columns: both serve.
        let t = table("  - {name: by_b, columns: [B]}\n  - {name: by_a_b, columns: [A, B]}\n");
        assert!(findings("redundant-index", "", &t).is_empty());
    }

    #[test]
    fn a_unique_index_is_never_redundant() {
        let t = table(
            "  - {name: uq_a, columns: [A], unique: true}\n  - {name: by_a_b, columns: [A, B]}\n",
        );
        assert!(findings("redundant-index", "", &t).is_empty());
    }

    #[test]
    fn the_primary_key_is_never_redundant_but_an_index_it_covers_is() {
        // The primary key (Id) is a prefix of this index: the key stays.
        let t = table("  - {name: by_id_a, columns: [Id, A]}\n");
        assert!(findings("redundant-index", "", &t).is_empty());
        let t = "table: T\ncolumns:\n  - {name: A, type: int, nullable: false}\n  - {name: B, type: int, nullable: false}\nprimary_key: [A, B]\nindexes:\n  - {name: by_a, columns: [A]}\n";
        let found = findings("redundant-index", "", t);
        assert_eq!(found.len(), 1);
        assert!(found[0].message.contains("the primary key"));
    }

    #[test]
    fn an_index_a_foreign_key_needs_is_never_redundant() {
        let parent =
            "table: P\ncolumns:\n  - {name: Id, type: int, nullable: false}\nprimary_key: [Id]\n";
        let child = "table: C\ncolumns:\n  - {name: Id, type: bigint, nullable: false}\n  - {name: PId, type: int}\n  - {name: B, type: int}\nprimary_key: [Id]\nindexes:\n  - {name: by_p, columns: [PId]}\n  - {name: by_p_b, columns: [PId, B]}\nforeign_keys:\n  - {name: fk_p, columns: [PId], references: {table: P, columns: [Id]}}\n";
        let report = crate::catalog::check_files("fk", &[("p.yaml", parent), ("c.yaml", child)]);
        assert!(report.is_valid(), "{:?}", report.problems);
        assert!(
            !report.problems.iter().any(|p| p.rule == "redundant-index"),
            "{:?}",
            report.problems
        );
        // Without the foreign key the same index is redundant.
        let alone = child.split("foreign_keys:").next().unwrap();
        assert_eq!(findings("redundant-index", "", alone).len(), 1);
    }
}
