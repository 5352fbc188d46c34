//! `auto-increment-capacity` in verify, on the live server (run once per
//! server): a table whose AUTO_INCREMENT has used more than the catalog's
//! share of its column's range is reported, as a warning that leaves the
//! gate satisfied, or as an error that fails it when the catalog says so;
//! the value read is the current one (MySQL caches it for a day unless the
//! session's `information_schema_stats_expiry` is 0, which the read sets
//! and then restores).

use crate::common;

use common::TestDb;
use mysql_async::prelude::*;
use schema_catalog::catalog::{self, Catalog, Severity};
use schema_catalog::verify::{self, VerifyReport};

const TABLE: &str = "table: Ticket\ncolumns:\n  - {name: Id, type: int unsigned, nullable: false, auto_increment: true}\n  - {name: Note, type: varchar(16)}\nprimary_key: [Id]\n";

fn catalog(settings: &str) -> Catalog {
    let mut files = vec![("ticket.yaml", TABLE)];
    if !settings.is_empty() {
        files.push(("catalog.yaml", settings));
    }
    catalog::from_files("capacity", &files).expect("valid catalog")
}

/// Verify with the capacity read, and the session's expiry after it.
async fn verify_capacity(db: &TestDb, cat: &Catalog) -> (VerifyReport, Option<u64>) {
    let target = schema_catalog::db::parse_url(&db.url()).expect("test URL parses");
    let mut s = schema_catalog::db::connect(&target, std::time::Duration::from_secs(20))
        .await
        .expect("connect");
    let mut report = verify::verify(&mut s, &db.name, cat, None)
        .await
        .expect("verify runs");
    verify::add_auto_increment_capacity(&mut s, &db.name, cat, None, &mut report)
        .await
        .expect("the capacity read runs");
    let expiry: Option<u64> = if db.is_mariadb() {
        None
    } else {
        s.conn()
            .query_first("SELECT @@SESSION.information_schema_stats_expiry")
            .await
            .expect("read expiry")
    };
    (report, expiry)
}

#[tokio::test]
async fn a_table_past_the_share_is_a_warning_or_an_error_as_set() {
    let db = TestDb::new().await;
    let cat = catalog("");
    common::apply_converged(&db, &cat.scoped(None)).await;
    db.exec(&["INSERT INTO `Ticket` (`Note`) VALUES ('first')"])
        .await;
    // Below the share: nothing (and on MySQL this read fills its cache).
    let (low, expiry) = verify_capacity(&db, &cat).await;
    assert!(low.ok && low.capacity.is_empty(), "{low:#?}");
    if !db.is_mariadb() {
        assert_eq!(expiry, Some(86400), "the session's expiry is given back");
    }
    // 3,500,000,000 of 4,294,967,295: 81.5% used.
    db.exec(&["INSERT INTO `Ticket` (`Id`, `Note`) VALUES (3500000000, 'late')"])
        .await;
    let (warned, _) = verify_capacity(&db, &cat).await;
    assert!(warned.ok, "a warning never fails the gate: {warned:#?}");
    assert_eq!(warned.capacity.len(), 1, "{warned:#?}");
    let found = &warned.capacity[0];
    assert_eq!(
        (
            found.rule,
            found.severity,
            found.table.as_str(),
            found.column.as_str()
        ),
        ("auto-increment-capacity", Severity::Warning, "Ticket", "Id")
    );
    assert_eq!(
        (found.usage.next, found.usage.max),
        (3_500_000_001, 4_294_967_295)
    );
    assert!(found.message.contains("81.5%"), "{}", found.message);
    // Set to error, it fails the gate; a higher share or `off` passes.
    let (failed, _) = verify_capacity(
        &db,
        &catalog("lint: {rules: {auto-increment-capacity: error}}\n"),
    )
    .await;
    assert!(
        !failed.ok && failed.capacity[0].severity == Severity::Error,
        "{failed:#?}"
    );
    assert!(failed.problems.is_empty());
    let (roomy, _) = verify_capacity(&db, &catalog("lint: {auto_increment_max_share: 90}\n")).await;
    assert!(roomy.ok && roomy.capacity.is_empty(), "{roomy:#?}");
    let (off, _) = verify_capacity(
        &db,
        &catalog("lint: {rules: {auto-increment-capacity: off}}\n"),
    )
    .await;
    assert!(off.ok && off.capacity.is_empty(), "{off:#?}");
    // The library's verify alone reads nothing more.
    let plain = common::verify_schema(&db, &cat).await;
    assert!(plain.ok && plain.capacity.is_empty());
}
