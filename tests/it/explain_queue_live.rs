//! `catalog explain --scratch` on a typical job-queue catalog
//! (fixtures/explain/queue), on the test server: an enum column bound by
//! a parameter gets members in its fixture (the matching rows the
//! parameter's, the others another member); a child table's rows name
//! parents its fixture does not hold and a parent is refilled under its
//! children (foreign keys are not checked in the scratch session); an
//! `IS NULL` predicate gets NULL in the matching rows, so the plan is
//! judged on the 1,000 rows it should find; and a query no fixture row
//! matches (0 rows examined) is not a pass: it fails as unproven.

use crate::common;

use std::path::Path;

use schema_catalog::explain::{self, ExplainOptions, FailureKind};
use schema_catalog::{catalog, db};

#[tokio::test]
async fn queue_tables_with_enum_foreign_key_and_is_null_are_judged_on_real_rows() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/explain/queue");
    let catalog = catalog::load(&dir).unwrap();
    let server = db::parse_server_url(&common::server_url()).unwrap();
    let report = explain::explain_scratch(&server, &catalog, &ExplainOptions::default())
        .await
        .unwrap_or_else(|e| panic!("the queue catalog's fixtures load: {e}"));
    let rendered = report.render_human();
    let q = |name: &str| {
        report
            .queries
            .iter()
            .find(|q| q.query == name)
            .unwrap_or_else(|| panic!("{name}:\n{rendered}"))
    };
    // enum + foreign key: the fixture loads and the claim reads its index.
    let claim = q("claim_next");
    assert!(claim.ok, "{rendered}");
    assert_eq!(claim.rows_examined, Some(10.0), "{rendered}");
    // IS NULL: the matching rows hold NULL, so the 1,000 are found.
    let unleased = q("unleased_running");
    assert!(unleased.ok, "{rendered}");
    assert_eq!(unleased.rows_examined, Some(1000.0), "{rendered}");
    // The parent, refilled while the child holds rows that reference it.
    assert!(q("by_name").ok, "{rendered}");
    // Nothing matched: unproven, not a pass.
    let unproven = q("unproven_no_matching_row");
    assert!(!unproven.ok, "{rendered}");
    assert_eq!(unproven.rows_examined, Some(0.0), "{rendered}");
    assert_eq!(unproven.failures[0].kind, FailureKind::NotProof);
    assert!(
        unproven.failures[0].message.starts_with("unproven: 0 rows"),
        "{rendered}"
    );
    assert!(!report.ok);
}
