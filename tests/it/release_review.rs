//! `catalog diff` offline: every classification from catalog revision pairs
//! (each with its reason), the shipped catalog's fixture revisions, the
//! published JSON Schema and the Markdown rendering.

use crate::common;

use common::review::{
    case_revisions, cases, catalog_dir, fixture_revision, review, revision, BASE, SETTINGS,
};
use schema_catalog::diff::ProblemKind;
use schema_catalog::review::{Class, DiffReport, Finding, FindingKind, Review, ReviewKind};
use schema_catalog::Flavor;

#[test]
fn every_classification_with_its_reason() {
    let validator = diff_validator();
    let mut seen = Vec::new();
    for case in cases() {
        let name = case.name;
        let (_old_dir, _new_dir, old, new) = case_revisions(&case);
        assert!(
            new.report.catalog.is_some(),
            "{name}: {:?}",
            new.report.problems
        );
        let r = review(&old, &new, &Flavor::ALL);
        let got: Vec<FindingKind> = r.changes.iter().map(|c| c.kind).collect();
        assert_eq!(got, case.kinds, "{name}: {:#?}", r.changes);
        for c in &r.changes {
            assert_eq!(c.class, c.kind.class(), "{name}");
            assert!(c.reason.len() > 20, "{name}: a reason in words: {c:?}");
            // The TiDB feature cases change TiDB only (MySQL and MariaDB
            // omit the features).
            // TiDB ignores ENGINE, so an engine change is MySQL's and
            // MariaDB's only.
            let on: &[Flavor] = if name.starts_with("tidb ") {
                &[Flavor::TiDb]
            } else if name == "table engine" {
                &[Flavor::MySql, Flavor::MariaDb]
            } else {
                &[]
            };
            assert_eq!(c.only_on, on, "{name}: on every flavor: {c:?}");
        }
        let not_deployable = case.kinds.iter().any(|k| k.class() == Class::NotDeployable);
        assert_eq!(r.deployable, !not_deployable, "{name}");
        classification_is_what_apply_does(name, &r);
        let doc = serde_json::to_value(DiffReport::new("new".into(), vec![r.clone()])).unwrap();
        let errors: Vec<String> = validator.iter_errors(&doc).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
        for c in &r.changes {
            seen.push(format!(
                "{name}: {} {} {}.{}: {}",
                c.class.name(),
                c.kind_text(),
                c.table,
                c.object.as_deref().unwrap_or("-"),
                c.reason
            ));
        }
    }
    // Class and reason of every case, reviewed once.
    insta::assert_snapshot!(seen.join("\n"));
}

/// The published JSON Schema of the diff report.
fn diff_validator() -> jsonschema::Validator {
    let (_, schema) = schema_catalog::report::schemas()
        .into_iter()
        .find(|(name, _)| *name == "diff")
        .expect("the diff report has a schema");
    jsonschema::validator_for(&schema).expect("the schema compiles")
}

/// The one source of truth: on every flavor, each change apply refuses at
/// OLD's shape is a not-deployable finding of apply's own kind, and each
/// statement it would run (or holds back) is a deployable addition, or the
/// added side of a rename; every deployable addition has its statement.
fn classification_is_what_apply_does(name: &str, r: &Review) {
    let findings = |table: &str, object: Option<&str>| -> Vec<&Finding> {
        r.changes
            .iter()
            .filter(|c| c.table == table && c.object.as_deref() == object)
            .collect()
    };
    for u in &r.upgrades {
        let at = format!("{name} on {}", u.flavor);
        for p in &u.refused {
            let f = findings(&p.table, Some(&p.object));
            assert!(
                f.iter().any(
                    |c| c.kind == FindingKind::Apply(p.kind) && c.class == Class::NotDeployable
                ),
                "{at}: apply refuses {p}, the review says {f:?}"
            );
        }
        let steps: Vec<_> = u.steps.iter().chain(&u.held_back).collect();
        for s in &steps {
            let (object, kinds): (Option<&str>, &[FindingKind]) = match s.kind.as_str() {
                "create_table" => (
                    None,
                    &[
                        FindingKind::Apply(ProblemKind::MissingTable),
                        FindingKind::Review(ReviewKind::TableRenamed),
                    ],
                ),
                "add_column" => (
                    Some(&s.object),
                    &[
                        FindingKind::Apply(ProblemKind::MissingColumn),
                        FindingKind::Review(ReviewKind::ColumnRenamed),
                    ],
                ),
                "widen_column" => (
                    Some(&s.object),
                    &[FindingKind::Apply(ProblemKind::MissingWidening)],
                ),
                _ => (
                    Some(&s.object),
                    &[
                        FindingKind::Apply(ProblemKind::MissingIndex),
                        FindingKind::Review(ReviewKind::IndexRenamed),
                    ],
                ),
            };
            let f = findings(&s.table, object);
            assert!(
                f.iter().any(|c| kinds.contains(&c.kind)),
                "{at}: apply runs {}, the review says {f:?}",
                s.sql
            );
        }
        for c in r.changes.iter().filter(|c| {
            c.kind.class() == Class::Deployable && matches!(c.kind, FindingKind::Apply(_))
        }) {
            assert!(
                steps.iter().any(|s| s.table == c.table
                    && (c.object.is_none() || c.object.as_deref() == Some(&s.object))),
                "{at}: {c:?} is deployable but apply runs nothing for it"
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
                ProblemKind::MissingIndex.into(),
                "_System_FileUploadOperation".into(),
                s("idx_file_upload_lifecycle")
            ),
            (
                ProblemKind::MissingTable.into(),
                "_System_RollupDelta".into(),
                None
            ),
            (
                ProblemKind::MissingColumn.into(),
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
    classification_is_what_apply_does("r1 -> r2", &one_two);
    classification_is_what_apply_does("r2 -> r3", &two_three);
    classification_is_what_apply_does("r1 -> r3", &review(&r1, &r3, &Flavor::ALL));
    assert!(!two_three.deployable);
    assert_eq!(
        kinds(&two_three),
        [
            (
                ProblemKind::UnmanagedIndex.into(),
                "_System_ConnectorRemoteLink".into(),
                s("idx_connector_remote_link_record")
            ),
            (
                ProblemKind::ColumnType.into(),
                "_System_WorkItem".into(),
                s("State")
            ),
            (
                ProblemKind::MissingColumn.into(),
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
/// of `report::schemas`, kept in docs/schemas by `tests/it/json_schemas.rs`).
#[test]
fn reports_validate_against_the_published_schema() {
    let validator = diff_validator();
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

/// Rollout advice: a consumer-scoped addition makes only that consumer wait,
/// a base-contract one every consumer; a reshaped item in a consumer's scope
/// blocks it; an item removed or given to another consumer is a loss.
#[test]
fn rollout_orders_consumers_and_names_losses() {
    let old_dir = catalog_dir(&[("catalog.yaml", SETTINGS), ("t.yaml", BASE)]);
    let old = revision(old_dir.path(), "old");
    let col = "  - {name: Note, type: varchar(16)}\n";
    let idx = "  - {name: idx_name, columns: [Name]}\n";
    let scoped = "  - {name: idx_state, columns: [State, At], required_by: [worker]}\n";
    let with = |edits: &[(&str, &str)]| {
        let mut t = BASE.to_string();
        for (from, to) in edits {
            assert!(t.contains(from), "{from}");
            t = t.replacen(from, to, 1);
        }
        let dir = catalog_dir(&[("catalog.yaml", SETTINGS), ("t.yaml", &t)]);
        let r = review(&old, &revision(dir.path(), "new"), &Flavor::ALL);
        r.rollout
    };
    // Only `reporter` requires the new column: `worker` deploys any time.
    let r = with(&[(
        col,
        &format!("{col}  - {{name: Extra, type: int, required_by: [reporter]}}\n"),
    )]);
    assert_eq!(r.apply_first, ["reporter"]);
    assert_eq!(r.unaffected, ["worker"]);
    assert!(r.blocked.is_empty() && r.losses.is_empty());
    assert!(r.whole_catalog_waits);
    assert_eq!(r.advice, "apply the schema, then deploy: reporter");
    // A base-contract column: every consumer waits, in name order.
    let r = with(&[
        (col, &format!("{col}  - {{name: Extra, type: int}}\n")),
        (
            idx,
            &format!("{idx}  - {{name: idx_note, columns: [Note], required_by: [reporter]}}\n"),
        ),
    ]);
    assert_eq!(r.apply_first, ["reporter", "worker"]);
    assert_eq!(r.advice, "apply the schema, then deploy: reporter, worker");
    // `worker`'s index reshaped: its verify fails even after apply.
    let r = with(&[("columns: [State, At]", "columns: [At, State]")]);
    assert_eq!(r.blocked, ["worker"]);
    assert!(r.advice.starts_with("do not deploy"), "{}", r.advice);
    // `worker`'s index given to `reporter`, and a base column removed.
    let r = with(&[
        (
            scoped,
            "  - {name: idx_state, columns: [State, At], required_by: [reporter]}\n",
        ),
        (col, ""),
    ]);
    let losses: Vec<String> = r.losses.iter().map(ToString::to_string).collect();
    assert_eq!(
        losses,
        [
            "every consumer loses `T`.`Note` (removed)",
            "worker loses `T`.`idx_state` (now required by reporter)",
        ]
    );
    // Removed from `worker`'s scope altogether.
    let r = with(&[(scoped, "")]);
    let losses: Vec<String> = r.losses.iter().map(ToString::to_string).collect();
    assert_eq!(losses, ["worker loses `T`.`idx_state` (removed)"]);
    assert_eq!(
        r.advice,
        "no ordering needed: every consumer's verify passes at OLD"
    );
}

/// A NEW that targets some flavors (catalog.yaml `flavors`) is reviewed on
/// those only; asked for none of them, the review is a usage error.
#[test]
fn only_the_flavors_new_targets() {
    let case = cases()
        .into_iter()
        .find(|c| c.name == "invisible")
        .expect("the invisible case");
    let (_o, _n, old, new) = case_revisions(&case);
    let r = review(&old, &new, &Flavor::ALL);
    let flavors: Vec<Flavor> = r.upgrades.iter().map(|u| u.flavor).collect();
    assert_eq!(flavors, [Flavor::MySql, Flavor::MariaDb]);
    let err = schema_catalog::review::review(&old, &new, &[Flavor::TiDb]).unwrap_err();
    assert!(matches!(err, schema_catalog::Error::Usage(_)), "{err:?}");
    assert_eq!(
        err.to_string(),
        "new targets mysql, mariadb (catalog.yaml `flavors`): none of the flavors to review"
    );
}

/// An opted-in widening's upgrade SQL is the one MODIFY COLUMN
/// step per flavor, with the rule's online clause, and its from/to types.
#[test]
fn a_widening_upgrade_shows_its_step_per_flavor() {
    let case = cases()
        .into_iter()
        .find(|c| c.name == "widen varchar (defaults: widen)")
        .expect("the case");
    let (_o, _n, old, new) = case_revisions(&case);
    let r = review(&old, &new, &Flavor::ALL);
    assert!(r.deployable, "{:#?}", r.changes);
    for u in &r.upgrades {
        assert!(u.refused.is_empty(), "{:?}", u.refused);
        let [s] = u.steps.as_slice() else {
            panic!("{}: one step: {:?}", u.flavor, u.steps)
        };
        assert_eq!(
            (s.kind.as_str(), s.object.as_str()),
            ("widen_column", "State")
        );
        assert_eq!(
            (s.from.as_deref(), s.to.as_deref()),
            (Some("varchar(32)"), Some("varchar(63)"))
        );
        let clause = match u.flavor {
            Flavor::MySql => ", ALGORITHM=INPLACE, LOCK=NONE",
            Flavor::MariaDb => ", ALGORITHM=INSTANT",
            Flavor::TiDb => " NULL",
        };
        assert!(
            s.sql
                .starts_with("ALTER TABLE `T` MODIFY COLUMN `State` varchar(63)")
                && s.sql.ends_with(clause),
            "{}: {}",
            u.flavor,
            s.sql
        );
    }
    let md = schema_catalog::review::markdown::render(&DiffReport::new("new".into(), vec![r]));
    assert!(md.contains("MODIFY COLUMN `State` varchar(63)"), "{md}");
}
