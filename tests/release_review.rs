//! `catalog diff` offline: every classification from catalog revision pairs
//! (each with its reason), the shipped catalog's fixture revisions, the
//! published JSON Schema and the Markdown rendering.

mod common;

use common::review::{
    case_revisions, cases, catalog_dir, fixture_revision, review, revision, BASE, SETTINGS,
};
use schema_catalog::review::{Class, DiffReport, FindingKind};
use schema_catalog::Flavor;

#[test]
fn every_classification_with_its_reason() {
    for (name, files, kinds) in cases() {
        let (_old_dir, _new_dir, old, new) = case_revisions(&files);
        assert!(
            new.report.catalog.is_some(),
            "{name}: {:?}",
            new.report.problems
        );
        let r = review(&old, &new, &Flavor::ALL);
        let got: Vec<FindingKind> = r.changes.iter().map(|c| c.kind).collect();
        assert_eq!(got, kinds, "{name}: {:#?}", r.changes);
        for c in &r.changes {
            assert_eq!(c.class, c.kind.class(), "{name}");
            assert!(c.reason.len() > 20, "{name}: a reason in words: {c:?}");
        }
        let not_deployable = kinds.iter().any(|k| k.class() == Class::NotDeployable);
        assert_eq!(r.deployable, !not_deployable, "{name}");
        // What apply refuses at OLD's shape is exactly the drift kinds.
        let drift_kind = kinds.iter().any(|k| {
            !matches!(
                k,
                FindingKind::ColumnRenamed
                    | FindingKind::IndexRenamed
                    | FindingKind::TableRenamed
                    | FindingKind::FirstFulltext
            ) && k.class() == Class::NotDeployable
        });
        for u in &r.upgrades {
            assert_eq!(
                !u.refused.is_empty(),
                drift_kind,
                "{name} on {}: {:?}",
                u.flavor,
                u.refused
            );
        }
    }
}

#[test]
fn a_new_lint_error_is_not_deployable() {
    let old_dir = catalog_dir(&[("catalog.yaml", SETTINGS), ("t.yaml", BASE)]);
    let wide = BASE.replacen(
        "  - {name: idx_name, columns: [Name]}\n",
        "  - {name: idx_name, columns: [Name]}\n  - {name: idx_wide, columns: [Wide]}\n",
        1,
    );
    let wide = wide.replacen(
        "primary_key:",
        "  - {name: Wide, type: varchar(800)}\nprimary_key:",
        1,
    );
    let new_dir = catalog_dir(&[("catalog.yaml", SETTINGS), ("t.yaml", &wide)]);
    let r = review(
        &revision(old_dir.path(), "old"),
        &revision(new_dir.path(), "new"),
        &Flavor::ALL,
    );
    assert!(!r.deployable);
    assert_eq!(r.new_lint_errors.len(), 1, "{:?}", r.new_lint_errors);
    let e = &r.new_lint_errors[0];
    assert_eq!(e.table.as_deref(), Some("T"));
    assert!(
        e.message.contains("3200"),
        "names the computed bytes: {}",
        e.message
    );
    assert!(e.file.ends_with("t.yaml"), "{}", e.file.display());
}

#[test]
fn fixture_revisions_of_the_shipped_catalog() {
    let (r1, r2, r3) = (
        fixture_revision("r1"),
        fixture_revision("r2"),
        fixture_revision("r3"),
    );
    let kinds = |r: &schema_catalog::review::Review| {
        r.changes
            .iter()
            .map(|c| (c.kind, c.table.clone(), c.object.clone()))
            .collect::<Vec<_>>()
    };
    let s = |x: &str| Some(x.to_string());
    let one_two = review(&r1, &r2, &Flavor::ALL);
    assert!(one_two.deployable);
    assert_eq!(
        kinds(&one_two),
        [
            (
                FindingKind::IndexAdded,
                "_System_FileUploadOperation".into(),
                s("idx_file_upload_lifecycle")
            ),
            (FindingKind::TableAdded, "_System_RollupDelta".into(), None),
            (
                FindingKind::ColumnAdded,
                "_System_WorkItem".into(),
                s("ClaimExpiresAt")
            ),
        ]
    );
    // A new base-contract table and column: every consumer waits for apply.
    assert_eq!(
        one_two.rollout.apply_first,
        ["integration-reconciler", "runtime-upload-lifecycle"]
    );
    assert!(one_two.rollout.whole_catalog_waits);
    let two_three = review(&r2, &r3, &Flavor::ALL);
    assert!(!two_three.deployable);
    assert_eq!(
        kinds(&two_three),
        [
            (
                FindingKind::IndexRemoved,
                "_System_ConnectorRemoteLink".into(),
                s("idx_connector_remote_link_record")
            ),
            (
                FindingKind::ColumnType,
                "_System_WorkItem".into(),
                s("State")
            ),
            (
                FindingKind::ColumnAdded,
                "_System_WorkItem".into(),
                s("Attempts")
            ),
        ]
    );
    assert!(
        two_three.rollout.advice.starts_with("do not deploy"),
        "{}",
        two_three.rollout.advice
    );
    for u in &two_three.upgrades {
        assert_eq!(u.refused.len(), 1, "{}: {:?}", u.flavor, u.refused);
        assert_eq!(u.refused[0].object, "State");
    }
    assert_eq!(
        two_three.table_diffs.len(),
        2,
        "connector link and work item"
    );
}

/// A report validates against its published JSON Schema (the `diff` entry
/// of `report::schemas`, kept in docs/schemas by `tests/json_schemas.rs`).
#[test]
fn reports_validate_against_the_published_schema() {
    let (_, schema) = schema_catalog::report::schemas()
        .into_iter()
        .find(|(name, _)| *name == "diff")
        .expect("the diff report has a schema");
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    let r1 = fixture_revision("r1");
    let report = DiffReport::new(
        "r3".into(),
        vec![
            review(&r1, &fixture_revision("r3"), &Flavor::ALL),
            review(
                &fixture_revision("r2"),
                &fixture_revision("r3"),
                &[Flavor::MySql],
            ),
        ],
    );
    let doc = serde_json::to_value(&report).unwrap();
    let errors: Vec<String> = validator.iter_errors(&doc).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    let mut bad = doc.clone();
    bad["reviews"][0]["changes"][0]["class"] = "maybe".into();
    assert!(!validator.is_valid(&bad), "the schema is not vacuous");
}

#[test]
fn markdown_for_a_pull_request() {
    let report = DiffReport::new(
        "r3".into(),
        vec![
            review(
                &fixture_revision("r1"),
                &fixture_revision("r3"),
                &[Flavor::MySql],
            ),
            review(
                &fixture_revision("r2"),
                &fixture_revision("r3"),
                &[Flavor::MariaDb],
            ),
        ],
    );
    insta::assert_snapshot!(schema_catalog::review::markdown::render(&report));
}

/// The kinds a v1 catalog cannot declare yet (format v2 brings them), on
/// the model itself: NEW is OLD's model with one attribute changed.
#[test]
fn model_only_attributes_are_classified() {
    use schema_catalog::{DefaultValue, Index, IndexKind, IndexPart};
    let dir = catalog_dir(&[("catalog.yaml", SETTINGS), ("t.yaml", BASE)]);
    let old = revision(dir.path(), "old").catalog().unwrap().clone();
    type Edit = fn(&mut schema_catalog::Table);
    let edits: Vec<(FindingKind, Edit)> = vec![
        (FindingKind::IndexPrefix, |t| {
            t.indexes[1].parts = vec![IndexPart::Column {
                name: "Name".into(),
                prefix: Some(10),
                descending: false,
            }]
        }),
        (FindingKind::IndexOrder, |t| {
            t.indexes[1].parts = vec![IndexPart::Column {
                name: "Name".into(),
                prefix: None,
                descending: true,
            }]
        }),
        (FindingKind::IndexVisibility, |t| {
            t.indexes[1].visible = false
        }),
        (FindingKind::IndexKind, |t| {
            t.indexes[1].kind = IndexKind::FullText
        }),
        (FindingKind::FirstFulltext, |t| {
            let mut i = Index::new("ft_note", false, &["Note"]);
            i.kind = IndexKind::FullText;
            t.indexes.push(i)
        }),
        (FindingKind::ColumnGenerated, |t| {
            t.columns[4].generated = Some("concat(`Name`, 'x')".into())
        }),
        (FindingKind::ColumnOnUpdate, |t| {
            t.columns[3].on_update = Some(DefaultValue::CurrentTimestamp(6))
        }),
    ];
    for (kind, edit) in edits {
        let mut new = old.clone();
        edit(&mut new.tables[0].table);
        let got: Vec<FindingKind> = schema_catalog::review::classify::classify(&old, &new)
            .iter()
            .map(|f| f.kind)
            .collect();
        assert_eq!(got, [kind]);
        assert_eq!(kind.class(), Class::NotDeployable, "{kind:?}");
    }
}
