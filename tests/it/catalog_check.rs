//! `catalog check`: one bad catalog per lint rule under fixtures/bad-catalogs,
//! each snapshotted; the shipped catalog passes with no problem at all.

use std::path::{Path, PathBuf};

use schema_catalog::catalog::{self, CheckReport, Severity};

/// The repository root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Checks `rel` (relative to the repository root).
fn check_rel(rel: &str) -> CheckReport {
    catalog::check(&root().join(rel))
}

/// The human report with the machine-specific root removed.
fn render(report: &CheckReport) -> String {
    report
        .render_human()
        .replace(&format!("{}/", root().display()), "")
}

fn count(report: &CheckReport, severity: Severity) -> usize {
    report
        .problems
        .iter()
        .filter(|p| p.severity == severity)
        .count()
}

/// Snapshots a bad catalog and checks its error and warning counts.
fn assert_fixture(name: &str, errors_at_least: usize, warnings: usize) {
    let report = check_rel(&format!("fixtures/bad-catalogs/{name}"));
    let rendered = render(&report);
    insta::assert_snapshot!(name, rendered);
    assert!(
        count(&report, Severity::Error) >= errors_at_least,
        "{name}:\n{rendered}"
    );
    assert_eq!(
        count(&report, Severity::Warning),
        warnings,
        "{name}:\n{rendered}"
    );
    assert_eq!(
        report.catalog.is_some(),
        errors_at_least == 0,
        "{name}:\n{rendered}"
    );
}

/// One test per fixture: `(test name, fixture dir, minimum errors, warnings)`.
macro_rules! fixtures {
    ($($test:ident: $dir:literal, $errors:literal, $warnings:literal;)*) => {
        $(
            #[test]
            fn $test() {
                assert_fixture($dir, $errors, $warnings);
            }
        )*

        /// Every fixture directory has a test above.
        #[test]
        fn every_fixture_is_tested() {
            let listed: Vec<&str> = vec![$($dir),*];
            let mut dirs: Vec<String> = std::fs::read_dir(root().join("fixtures/bad-catalogs"))
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            dirs.sort();
            let mut listed: Vec<String> = listed.into_iter().map(String::from).collect();
            listed.sort();
            assert_eq!(dirs, listed);
        }
    };
}

fixtures! {
    malformed_yaml: "malformed-yaml", 1, 0;
    unknown_key: "unknown-key", 5, 0;
    unknown_type: "unknown-type", 3, 0;
    wrong_value_type: "wrong-value-type", 1, 0;
    duplicate_table: "duplicate-table", 1, 0;
    duplicate_column: "duplicate-column", 1, 0;
    duplicate_index: "duplicate-index", 2, 0;
    duplicate_key_column: "duplicate-key-column", 2, 0;
    index_missing_column: "index-missing-column", 1, 0;
    pk_missing_column: "pk-missing-column", 1, 0;
    empty_index: "empty-index", 3, 0;
    missing_table_and_columns: "missing-table-and-columns", 3, 0;
    prefix_length: "prefix-length", 1, 0;
    nullable_pk: "nullable-pk", 2, 0;
    collation_wrong_type: "collation-wrong-type", 3, 0;
    collation_wrong_charset: "collation-wrong-charset", 2, 0;
    unknown_collation: "unknown-collation", 3, 0;
    bad_identifier: "bad-identifier", 4, 0;
    index_too_wide: "index-too-wide", 1, 0;
    text_key_part: "text-key-part", 2, 0;
    duplicate_index_warning: "duplicate-index-warning", 0, 1;
    index_duplicates_primary_key: "index-duplicates-primary-key", 0, 1;
    auto_increment_misuse: "auto-increment-misuse", 4, 0;
    consumer_only_column_in_base_index: "consumer-only-column-in-base-index", 3, 0;
    bad_consumer_name: "bad-consumer-name", 3, 0;
    no_tables: "no-tables", 2, 0;
    bad_default: "bad-default", 5, 0;
    too_many_columns: "too-many-columns", 1, 0;
    too_many_indexes: "too-many-indexes", 1, 0;
    too_many_key_parts: "too-many-key-parts", 1, 0;
    row_too_large: "row-too-large", 2, 0;
    comment_too_long: "comment-too-long", 3, 0;
    identifier_outside_bmp: "identifier-outside-bmp", 3, 0;
    text_outside_bmp: "text-outside-bmp", 6, 0;
    identifier_trailing_space: "identifier-trailing-space", 3, 0;
    bad_key_part: "bad-key-part", 7, 0;
    bad_prefix: "bad-prefix", 3, 0;
    prefix_warning: "prefix-warning", 0, 2;
    bad_key_expression: "bad-key-expression", 4, 0;
    bad_index_kind: "bad-index-kind", 5, 0;
    bad_check: "bad-check", 7, 0;
    bad_queries: "bad-queries", 10, 0;
    bad_v2_column: "bad-v2-column", 14, 0;
    bad_flavors: "bad-flavors", 4, 0;
    bad_foreign_key: "bad-foreign-key", 22, 0;
    foreign_key_cycle: "foreign-key-cycle", 2, 0;
    foreign_key_consumer_scope: "foreign-key-consumer-scope", 5, 0;
    bad_generated: "bad-generated", 10, 0;
    bad_spatial: "bad-spatial", 8, 1;
    bad_flavor_features: "bad-flavor-features", 6, 0;
    bad_fulltext_parser: "bad-fulltext-parser", 5, 0;
    fulltext_parser_mariadb: "fulltext-parser-mariadb", 1, 0;
    bad_tidb_features: "bad-tidb-features", 25, 0;
    tidb_features_without_tidb: "tidb-features-without-tidb", 3, 0;
    tidb_features_warning: "tidb-features-warning", 0, 1;
    tidb_fulltext_check: "tidb-fulltext-check", 1, 0;
    refused_generated: "refused-generated", 10, 0;
    refused_check: "refused-check", 9, 0;
    refused_keys_defaults: "refused-keys-defaults", 8, 1;
    refused_engines: "refused-engines", 8, 0;
}

#[test]
fn shipped_catalog_has_no_problem() {
    let report = check_rel("catalog");
    // Not even a warning: its TiDB features (`clustered: true`, `auto_random`
    // beside `auto_increment`) leave the tables as declared on InnoDB.
    assert!(report.problems.is_empty(), "{}", render(&report));
    let catalog = report.catalog.expect("valid");
    assert_eq!(catalog.tables.len(), 8);
    let names: Vec<&str> = catalog
        .tables
        .iter()
        .map(|t| t.table.name.as_str())
        .collect();
    let mut sorted = names.clone();
    sorted.sort_by_key(|n| n.to_lowercase());
    assert_eq!(names, sorted, "tables are sorted by name");
}

#[test]
fn shipped_catalog_keys_fit_and_are_binary() {
    let catalog = catalog::load(&root().join("catalog")).unwrap();
    for t in &catalog.tables {
        let t = &t.table;
        assert!(t.comment.is_some(), "{} has a comment", t.name);
        let keys = std::iter::once(&t.primary_key).chain(t.indexes.iter().map(|i| &i.parts));
        for parts in keys {
            let bytes = catalog::key_bytes(t, parts).expect("known widths");
            assert!(bytes <= 3072, "{}: {bytes}", t.name);
            for part in parts {
                let col = t.column(part.column_name().unwrap()).unwrap();
                if let Some(c) = &col.collation {
                    assert_eq!(c, "utf8mb4_bin", "{}.{}", t.name, col.name);
                }
            }
        }
    }
}

#[test]
fn shipped_catalog_consumers_and_scopes() {
    let catalog = catalog::load(&root().join("catalog")).unwrap();
    let consumers: Vec<String> = catalog.consumers().into_iter().collect();
    assert_eq!(
        consumers,
        // runtime-platform-command is named only by a declared query (claim_next).
        [
            "integration-reconciler",
            "runtime-platform-command",
            "runtime-upload-lifecycle"
        ]
    );
    let has_index = |tables: &[schema_catalog::Table], name: &str| {
        tables.iter().any(|t| t.index(&name.into()).is_some())
    };
    let all = catalog.scoped(None);
    let base = catalog.scoped(Some("someone-else"));
    let upload = catalog.scoped(Some("runtime-upload-lifecycle"));
    assert_eq!(all.len(), 8);
    assert!(has_index(&all, "idx_file_upload_lifecycle"));
    assert!(has_index(&all, "idx_integration_outbound_reconcile"));
    assert!(!has_index(&base, "idx_file_upload_lifecycle"));
    assert!(!has_index(&base, "idx_integration_outbound_reconcile"));
    assert!(has_index(&upload, "idx_file_upload_lifecycle"));
    assert!(!has_index(&upload, "idx_integration_outbound_reconcile"));
    assert!(has_index(&base, "uq_file_upload_idempotency"));
}

#[test]
fn every_error_in_one_file_is_reported() {
    let report = check_rel("fixtures/bad-catalogs/unknown-key");
    let keys: Vec<&str> = [
        "colation", "limit", "comments", "nulable", "primary", "uniq",
    ]
    .to_vec();
    for key in keys {
        assert!(
            report
                .problems
                .iter()
                .any(|p| p.message.contains(&format!("`{key}`"))),
            "{key} not reported:\n{}",
            render(&report)
        );
    }
    let report = check_rel("fixtures/bad-catalogs/auto-increment-misuse");
    assert!(count(&report, Severity::Error) >= 4, "{}", render(&report));
}

#[test]
fn errors_across_files_are_all_reported() {
    let report = check_rel("fixtures/bad-catalogs/unknown-collation");
    let files: std::collections::BTreeSet<PathBuf> = report
        .problems
        .iter()
        .map(|p| p.file.strip_prefix(root()).unwrap().to_path_buf())
        .collect();
    assert_eq!(files.len(), 2, "{}", render(&report));
}

#[test]
fn missing_directory_is_an_error_naming_it() {
    let report = check_rel("fixtures/bad-catalogs/does-not-exist");
    let rendered = render(&report);
    assert_eq!(count(&report, Severity::Error), 1, "{rendered}");
    assert!(
        rendered.starts_with("fixtures/bad-catalogs/does-not-exist: error[catalog-files]: "),
        "{rendered}"
    );
    assert!(catalog::load(&root().join("fixtures/bad-catalogs/does-not-exist")).is_err());
}

#[test]
fn load_refuses_an_invalid_catalog_with_the_report() {
    match catalog::load(&root().join("fixtures/bad-catalogs/nullable-pk")) {
        Err(schema_catalog::Error::InvalidCatalog {
            errors, problems, ..
        }) => {
            assert_eq!(errors, 2);
            assert_eq!(problems.len(), 2);
        }
        other => panic!("expected InvalidCatalog, got {other:?}"),
    }
}

#[test]
fn load_keeps_warnings() {
    let catalog =
        catalog::load(&root().join("fixtures/bad-catalogs/duplicate-index-warning")).unwrap();
    assert_eq!(catalog.warnings.len(), 1);
}

#[test]
fn problems_display_as_one_line_with_position() {
    let report = check_rel("fixtures/bad-catalogs/malformed-yaml");
    let line = render(&report).lines().next().unwrap().to_string();
    assert!(
        line.starts_with("fixtures/bad-catalogs/malformed-yaml/t.yaml:6:4: error[yaml-syntax]: "),
        "{line}"
    );
    assert!(line.contains("check the indentation"), "{line}");
    assert!(report.problems[0].line.is_some() && report.problems[0].column.is_some());
}

/// The combinations only MySQL and TiDB refuse (fixtures/format-v2/mariadb-only)
/// are valid with `flavors: [mariadb]`, and import narrows `flavors` by the
/// same rules: for the table that has them and for the foreign key
/// referencing a VIRTUAL column of it (which needs its parent in view).
#[test]
fn mariadb_only_combinations_narrow_flavors_to_mariadb() {
    use schema_catalog::Flavor;
    let report = check_rel("fixtures/format-v2/mariadb-only");
    assert!(report.problems.is_empty(), "{}", render(&report));
    let catalog = report.catalog.expect("valid on MariaDB");
    let table = |name: &str| catalog.table(name).unwrap().table.clone();
    let (parent, child) = (table("MariaOnly"), table("MariaChild"));
    let mariadb = vec![Flavor::MariaDb];
    assert_eq!(
        catalog::flavors_for(&[parent.clone(), child.clone()]),
        mariadb
    );
    assert_eq!(catalog::flavors_for(std::slice::from_ref(&parent)), mariadb);
    // The parent without its own MariaDB-only uses holds on every flavor;
    // the child referencing its VIRTUAL column narrows the pair.
    let mut plain = parent;
    plain.checks.clear();
    plain.foreign_keys.clear();
    plain
        .columns
        .retain(|c| !["SeenAt", "AtEpoch", "NextId"].contains(&c.name.as_str()));
    assert_eq!(
        catalog::flavors_for(std::slice::from_ref(&plain)),
        Flavor::ALL.to_vec()
    );
    assert_eq!(catalog::flavors_for(&[plain, child]), mariadb);
}

/// tinytext and tinyblob are keyed by a prefix, as text and blob are (the
/// servers refuse them whole): import wrote `{column: name, length: 32}`
/// for a tinytext key part and check refused it as taking no prefix.
#[test]
fn tiny_text_and_blob_key_parts_take_a_prefix() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("t.yaml"),
        "table: Notes
columns:
  - { name: Id, type: int, nullable: false }
  - { name: Title, type: tinytext, nullable: false }
  - { name: Tag, type: tinyblob, nullable: false }
primary_key: [Id]
indexes:
  - { name: idx_title, columns: [{ column: Title, length: 32 }] }
  - { name: idx_tag, columns: [{ column: Tag, length: 8 }] }
",
    )
    .unwrap();
    let report = catalog::check(dir.path());
    assert_eq!(
        count(&report, Severity::Error),
        0,
        "{}",
        report.render_human()
    );
    assert_eq!(
        count(&report, Severity::Warning),
        2,
        "{}",
        report.render_human()
    );
}
