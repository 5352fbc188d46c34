//! The warning for TiDB table features in a catalog that also targets
//! MySQL and MariaDB: only for features that change the table there.

/// Only the TiDB features that change the table on InnoDB are a warning in
/// a catalog that also targets MySQL and MariaDB: `clustered: true` (InnoDB
/// clusters by the primary key anyway) and `auto_random` beside
/// `auto_increment` (those servers assign the declared ids) are not;
/// `clustered: false` (InnoDB cannot) is.
#[test]
fn only_features_that_differ_on_innodb_warn() {
    let check = |pk: &str| {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("q.yaml"),
            format!(
                "table: q\ncolumns:\n  - {{ name: id, type: bigint unsigned, nullable: false, auto_increment: true{} }}\nprimary_key: {pk}\n",
                if pk.contains("true") { ", auto_random: 5" } else { "" }
            ),
        )
        .unwrap();
        schema_catalog::catalog::check(dir.path())
    };
    let report = check("{columns: [id], clustered: true}");
    assert!(
        report.is_valid() && report.problems.is_empty(),
        "{:?}",
        report.problems
    );
    let report = check("{columns: [id], clustered: false}");
    assert!(report.is_valid(), "{:?}", report.problems);
    assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
    assert!(
        report.problems[0]
            .message
            .starts_with("TiDB table features `clustered` apply on TiDB only"),
        "{:?}",
        report.problems
    );
}
