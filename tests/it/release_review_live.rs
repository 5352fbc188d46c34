//! `catalog diff`'s upgrade SQL is what `catalog apply` runs: for every
//! classification case and the shipped catalog's fixture revisions, a live
//! database is built at OLD's shape (apply OLD), then NEW is applied, and
//! the statements apply reports (or the drift it refuses) equal the
//! review's upgrade for the server's flavor.

use crate::common;

use std::time::Duration;

use common::review::{case_revisions, cases, fixture_revision, review};
use common::TestDb;
use schema_catalog::apply::{self, ApplyOptions, ApplyReport, Outcome};
use schema_catalog::diff::ProblemKind;
use schema_catalog::review::{Class, FindingKind, ReviewKind, Revision};
use schema_catalog::{db, Table};

fn tables(r: &Revision) -> Vec<Table> {
    r.catalog()
        .expect("a valid revision")
        .tables
        .iter()
        .map(|t| t.table.clone())
        .collect()
}

async fn apply(db: &TestDb, r: &Revision) -> ApplyReport {
    let target = db::parse_url(&db.url()).expect("test URL parses");
    let widens = r.catalog().expect("a valid revision").widens();
    let opts = ApplyOptions::default()
        .lock_timeout(Duration::from_secs(20))
        .read_timeout(Duration::from_secs(20))
        .widens(widens);
    apply::run(&target, &target.schema, &tables(r), &opts)
        .await
        .expect("apply runs")
}

/// Builds OLD live, applies NEW, and compares with the review's upgrade.
async fn upgrade_is_what_apply_runs(name: &str, old: &Revision, new: &Revision) -> usize {
    let db = TestDb::new().await;
    let first = apply(&db, old).await;
    assert_eq!(first.outcome, Outcome::Converged, "{name}: OLD applies");
    let review = review(old, new, &[db.flavor]);
    let upgrade = &review.upgrades[0];
    assert_eq!(upgrade.flavor, db.flavor);
    let report = apply(&db, new).await;
    let ran: Vec<&str> = report.steps.iter().map(|s| s.sql.as_str()).collect();
    let planned: Vec<&str> = upgrade.steps.iter().map(|s| s.sql.as_str()).collect();
    assert_eq!(ran, planned, "{name} on {}", db.flavor);
    // The same refusals (the live server words a drifted shape its own way:
    // `_utf8mb4'-'` for a CHECK's literal), each a not-deployable finding
    // of apply's own kind in the review.
    let what = |ps: &[schema_catalog::diff::Problem]| {
        let mut v: Vec<_> = ps
            .iter()
            .map(|p| {
                (
                    p.table.clone(),
                    p.object.clone(),
                    p.kind,
                    p.expected.clone(),
                )
            })
            .collect();
        v.sort();
        v
    };
    assert_eq!(
        what(&report.drift),
        what(&upgrade.refused),
        "{name} on {}",
        db.flavor
    );
    for p in &report.drift {
        assert!(
            review
                .changes
                .iter()
                .any(|c| c.kind == FindingKind::Apply(p.kind)
                    && c.table == p.table
                    && c.object.as_deref() == Some(p.object.as_str())
                    && c.class == Class::NotDeployable),
            "{name} on {}: apply refuses {p}; the review says {:?}",
            db.flavor,
            review.changes
        );
    }
    let expected = if upgrade.refused.is_empty() {
        Outcome::Converged
    } else {
        Outcome::RefusedDrift
    };
    assert_eq!(report.outcome, expected, "{name}");
    drop(db);
    ran.len()
}

#[tokio::test]
async fn every_case_upgrade_equals_apply() {
    let flavor = TestDb::new().await.flavor;
    for case in cases() {
        let (_o, _n, old, new) = case_revisions(&case);
        // A case whose NEW does not target this server (an expression key
        // part: MySQL and TiDB only) has no upgrade here.
        if !new.catalog().unwrap().defaults.flavors.contains(&flavor) {
            continue;
        }
        let ran = upgrade_is_what_apply_runs(case.name, &old, &new).await;
        // Apply runs the additions, an opted-in widening, and the added
        // side of a rename.
        let additions = case.kinds.iter().any(|k| {
            matches!(
                k,
                FindingKind::Apply(
                    ProblemKind::MissingTable
                        | ProblemKind::MissingColumn
                        | ProblemKind::MissingIndex
                        | ProblemKind::MissingWidening
                ) | FindingKind::Review(
                    ReviewKind::TableRenamed | ReviewKind::ColumnRenamed | ReviewKind::IndexRenamed
                )
            )
        });
        assert_eq!(
            ran > 0,
            additions,
            "{}: a deployable addition runs a statement",
            case.name
        );
    }
}

#[tokio::test]
async fn fixture_revisions_upgrade_equals_apply() {
    // r1 -> r2: a table, a column and an index; r3's type change refuses the rest.
    for (old, new, statements) in [("r1", "r2", 3), ("r2", "r3", 0), ("r1", "r3", 0)] {
        let name = format!("{old} -> {new}");
        let ran =
            upgrade_is_what_apply_runs(&name, &fixture_revision(old), &fixture_revision(new)).await;
        assert_eq!(ran, statements, "{name}");
    }
}
