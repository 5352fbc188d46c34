//! `queries:` lint (no database): each rule is reported naming the file, the
//! table and the query; the explain fixtures and the shipped catalog pass;
//! consumer scoping of queries.

use std::path::Path;

use schema_catalog::catalog::{self, Severity};
use schema_catalog::explain;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_query_rule_names_file_table_and_query() {
    let report = catalog::check(&root().join("fixtures/bad-catalogs/bad-queries"));
    assert!(report.catalog.is_none());
    let lines: Vec<String> = report
        .problems
        .iter()
        .filter(|p| p.severity == Severity::Error)
        .map(|p| p.to_string())
        .collect();
    let expect = [
        ("two_statements", "contains `;`"),
        ("an_insert", "one SELECT, UPDATE or DELETE"),
        (
            "other_table",
            "names the table `Elsewhere`, which the catalog does not declare",
        ),
        ("other_table", "does not read `T`"),
        ("unknown_column", "names the column `Missing`"),
        (
            "missing_value",
            "2 `?` placeholder(s) but `params` gives 1 value(s)",
        ),
        ("unknown_index", "`uses: idx_nope` names no index of `T`"),
        ("DUP", "duplicate query name"),
        ("misspelled_key", "unknown key `use`"),
        ("misspelled_key", "missing `uses`"),
    ];
    for (query, message) in expect {
        let found = lines.iter().any(|l| {
            l.contains("bad-queries/t.yaml")
                && l.contains("table `T`")
                && l.contains(&format!("query `{query}`"))
                && l.contains(message)
        });
        assert!(
            found,
            "no error for query `{query}` saying {message:?}:\n{}",
            lines.join("\n")
        );
    }
    // `dup` itself is fine: only the second of the pair is reported.
    assert!(
        !lines.iter().any(|l| l.contains("query `dup`")),
        "{}",
        lines.join("\n")
    );
}

#[test]
fn explain_fixtures_and_the_shipped_catalog_are_valid() {
    for dir in [
        "catalog",
        "fixtures/explain/binary-key",
        "fixtures/explain/lifecycle-aggregate",
        "fixtures/explain/lane-or",
        "fixtures/explain/constant-plan",
    ] {
        let report = catalog::check(&root().join(dir));
        assert!(report.is_valid(), "{dir}:\n{}", report.render_human());
        let catalog = report.catalog.unwrap();
        let queries: usize = catalog.tables.iter().map(|t| t.queries.len()).sum();
        assert!(queries >= 2 || dir == "catalog", "{dir}: {queries} queries");
    }
}

#[test]
fn queries_are_scoped_by_consumer() {
    let catalog = catalog::load(&root().join("catalog")).unwrap();
    let names = |consumer: Option<&str>| -> Vec<String> {
        let mut v: Vec<String> = explain::scoped_queries(&catalog, consumer)
            .unwrap()
            .iter()
            .map(|(_, q)| q.name.clone())
            .collect();
        v.sort();
        v
    };
    assert_eq!(
        names(None),
        [
            "claim_next",
            "lifecycle_page",
            "reconcile_page",
            "wake_dependents"
        ]
    );
    assert_eq!(
        names(Some("integration-reconciler")),
        ["reconcile_page", "wake_dependents"]
    );
    assert_eq!(
        names(Some("runtime-platform-command")),
        ["claim_next", "wake_dependents"]
    );
    let err = explain::scoped_queries(&catalog, Some("nobody")).unwrap_err();
    assert!(
        err.to_string().contains("unknown consumer `nobody`"),
        "{err}"
    );
}
