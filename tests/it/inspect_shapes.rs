//! The two read shapes (docs/scale.md): a read of more tables than one statement
//! of equality groups holds reads the schema's size first and, when the
//! catalog is a large part of the schema, reads it listed (`TABLE_SCHEMA =
//! ? AND TABLE_NAME IN (...)`). Both shapes find the same tables, exactly,
//! and each issues a pinned number of statements; several schemas read
//! together share statements. Runs against MariaDB and MySQL
//! (`CATALOG_TEST_DATABASE_URL`).

use crate::common;

use common::counters::{create, generated, session, statement_work, status, verify_work};
use common::TestDb;
use schema_catalog::catalog::Catalog;
use schema_catalog::db::Session;
use schema_catalog::diff::TableDiff;
use schema_catalog::inspect::{inspect_table, inspect_tables, NAMES_PER_STATEMENT};
use schema_catalog::{Flavor, Ident};

/// Tables with what each branch reads: a foreign key with its rules, a
/// CHECK, json and longtext columns (MariaDB's CHECK clauses), a generated
/// column, a prefix and a descending key part, a FULLTEXT index (SHOW
/// CREATE TABLE), comments, a view under a catalog name, a mixed-case name, a name with
/// quotes, a backslash and a non-ASCII letter (MySQL's listed read takes
/// the names as one JSON array).
const RICH: &[&str] = &[
    "CREATE TABLE parent (Id bigint unsigned NOT NULL, Code varchar(20) NOT NULL, \
     PRIMARY KEY (Id), UNIQUE KEY uq_code (Code)) ENGINE=InnoDB",
    "CREATE TABLE child (Id bigint unsigned NOT NULL AUTO_INCREMENT, ParentId bigint unsigned NOT NULL, \
     Amount decimal(12,2) NOT NULL DEFAULT 0, Payload json, Body longtext, \
     Note varchar(200) COMMENT 'a note', Doc text, Twice decimal(13,2) GENERATED ALWAYS AS (Amount * 2) VIRTUAL, \
     PRIMARY KEY (Id), KEY idx_note (Note(20), Amount DESC), FULLTEXT KEY ft_doc (Doc), \
     CONSTRAINT fk_child_parent FOREIGN KEY (ParentId) REFERENCES parent (Id) ON DELETE CASCADE ON UPDATE RESTRICT, \
     CONSTRAINT chk_amount CHECK (Amount >= 0)) ENGINE=InnoDB COMMENT='child rows'",
    "CREATE TABLE MixedCase (Id int NOT NULL, PRIMARY KEY (Id))",
    "CREATE TABLE `Odd\"Back\\slash'Ü` (Id int NOT NULL, PRIMARY KEY (Id))",
    "CREATE VIEW looks_like_a_table AS SELECT 1 AS a",
];

const RICH_NAMES: &[&str] = &[
    "parent",
    "child",
    "MixedCase",
    "Odd\"Back\\slash'Ü",
    "looks_like_a_table",
];

/// `RICH_NAMES`, then `absent` names no table has.
fn names(absent: usize) -> Vec<Ident> {
    RICH_NAMES
        .iter()
        .map(|n| Ident::new(*n))
        .chain((0..absent).map(|i| Ident::new(format!("absent_{i:04}"))))
        .collect()
}

/// The statements (`Com_stmt_execute`, `Com_stmt_prepare`) `run` issues on
/// a fresh session, without the counters' own SHOW.
async fn statements<F>(db: &TestDb, run: F) -> (u64, u64)
where
    F: for<'a> AsyncFnOnce(&'a mut Session<'static>),
{
    let mut s = session(db).await;
    let names = ["Com_stmt_execute", "Com_stmt_prepare"];
    let before = status(&mut s, &names).await;
    run(&mut s).await;
    let after = status(&mut s, &names).await;
    let d = |i: usize| after[i].1 - before[i].1;
    (d(0), d(1))
}

#[tokio::test]
async fn the_listed_read_finds_exactly_what_the_equality_read_finds() {
    let db = TestDb::new().await;
    db.exec(RICH).await;
    let mut s = session(&db).await;
    // One table at a time: one-table groups, no size read.
    let mut each = Vec::new();
    for n in RICH_NAMES {
        each.push(inspect_table(&mut s, &db.name, n).await.expect("read"));
    }
    assert!(each.iter().all(Option::is_some), "{each:#?}");
    // 5 + 70 names: more than one statement of one-table groups, in a
    // schema of 5 tables: listed.
    let wanted = names(70);
    let (execs, _) = statements(&db, async |s| {
        let listed = inspect_tables(s, &db.name, &wanted)
            .await
            .expect("listed read");
        assert_eq!(listed.len(), wanted.len());
        for ((name, got), want) in listed.iter().zip(&each) {
            assert_eq!(got, want, "table `{name}` read listed differs");
        }
        assert!(listed[RICH_NAMES.len()..].iter().all(|(_, t)| t.is_none()));
    })
    .await;
    // The size read, one listed statement, SHOW CREATE TABLE of the
    // FULLTEXT table.
    assert_eq!(execs, 3, "size read, listed read, one SHOW CREATE TABLE");
}

/// Statements per shape: a catalog of up to 64 tables is one statement of
/// equality groups (tests/it/inspect_round_trips.rs); a larger one that is
/// most of its schema is the size read plus one listed statement per
/// 1,024 tables.
#[tokio::test]
async fn a_large_catalog_is_the_size_read_and_one_listed_statement_per_1024_tables() {
    assert_eq!(NAMES_PER_STATEMENT, 1_024, "the counts below assume it");
    let db = TestDb::new().await;
    let present = generated(200);
    create(&db, &present).await;
    let (execs, prepares) = statements(&db, async |s| {
        let report = schema_catalog::verify(
            s,
            &present,
            &schema_catalog::VerifyOptions::default().schema(&db.name),
        )
        .await
        .expect("verify");
        assert!(report.ok, "{:#?}", report.problems);
    })
    .await;
    assert_eq!(
        (execs, prepares),
        (2, 2),
        "200 tables: the size read and one listed read"
    );
    // 1,100 catalog tables (900 missing): 1,024 + 76 names.
    let larger = generated(1_100);
    let (execs, prepares) = statements(&db, async |s| {
        let report = schema_catalog::verify(
            s,
            &larger,
            &schema_catalog::VerifyOptions::default().schema(&db.name),
        )
        .await
        .expect("verify");
        assert_eq!(report.problems.len(), 900, "the missing tables");
    })
    .await;
    // On MySQL a listed statement takes its names as one JSON array, so
    // both chunks run one prepared statement; elsewhere each chunk's `IN`
    // list has its own length.
    let listed_prepares = if db.flavor == Flavor::MySql { 1 } else { 2 };
    assert_eq!(
        (execs, prepares),
        (3, 1 + listed_prepares),
        "1,100 tables: the size read and two listed reads"
    );
}

/// A listed read is narrowed to its schema: the work of its statements
/// (counted for those statements alone, `common::counters::statement_work`)
/// does not move when another schema fills with tables.
#[tokio::test]
async fn a_listed_read_stays_flat_in_other_schemas() {
    let cat = generated(100);
    let db = TestDb::new().await;
    let other = TestDb::new().await;
    create(&db, &cat).await;
    let alone = verify_work(&db, &cat).await;
    let elsewhere: Vec<String> = (0..60)
        .map(|i| {
            format!("CREATE TABLE elsewhere_{i} (a int PRIMARY KEY, b varchar(20), KEY ib (b))")
        })
        .collect();
    other
        .exec(&elsewhere.iter().map(String::as_str).collect::<Vec<_>>())
        .await;
    let crowded = verify_work(&db, &cat).await;
    eprintln!(
        "listed verify of 100 tables: {alone:?}\nwith 60 tables in another schema: {crowded:?}"
    );
    assert!(alone.iter().any(|(_, v)| *v > 0), "{alone:?}");
    assert_eq!(
        alone, crowded,
        "a listed read's work grew with another schema"
    );
}

/// `cat`'s tables diffed in each of `schemas`, read together
/// (`live::diff_all` of a request naming them all; verify's and the
/// fleet's read): each schema's diffs, in order.
async fn diff_together(
    s: &mut Session<'_>,
    schemas: &[&str],
    cat: &Catalog,
) -> Vec<Vec<TableDiff>> {
    let tables = cat.scoped(None);
    let request = schema_catalog::inspect::Read::default()
        .schemas(schemas)
        .tables(&tables);
    schema_catalog::live::diff_all(s, &request, &cat.widens())
        .await
        .expect("read together")
        .into_iter()
        .map(|r| r.expect("this schema's read"))
        .collect()
}

/// Whether a schema's diffs hold a problem verify fails on or reports.
fn has_problems(diffs: &[TableDiff]) -> bool {
    diffs.iter().any(|d| !d.problems.is_empty())
}

/// Several schemas read together share statements: 9 and 20 schemas
/// of an 8-table catalog (more tables than one statement of equality
/// groups) are each the size read plus one statement, and each
/// schema's diffs are the ones a read of it alone gives, drift included.
#[tokio::test]
async fn schemas_read_together_share_statements_and_report_as_alone() {
    let cat = generated(8);
    let mut dbs = Vec::new();
    for _ in 0..20 {
        let db = TestDb::new().await;
        create(&db, &cat).await;
        dbs.push(db);
    }
    // Drift in one schema: a missing index and an extra column.
    dbs[3]
        .exec(&[
            "ALTER TABLE gen_0002 DROP INDEX idx_gen_0002_lane",
            "ALTER TABLE gen_0005 ADD COLUMN Extra int",
        ])
        .await;
    let names: Vec<&str> = dbs.iter().map(|d| d.name.as_str()).collect();
    let mut alone = Vec::new();
    for db in &dbs {
        let mut s = session(db).await;
        let mut one = diff_together(&mut s, &[&db.name], &cat).await;
        alone.push(one.pop().expect("one schema"));
    }
    assert!(has_problems(&alone[3]) && alone.iter().filter(|d| !has_problems(d)).count() == 19);
    for n in [9, 20] {
        let (execs, prepares) = statements(&dbs[0], async |s| {
            let together = diff_together(s, &names[..n], &cat).await;
            assert_eq!(together.len(), n);
            for (got, want) in together.iter().zip(&alone) {
                assert_eq!(got, want);
            }
        })
        .await;
        assert_eq!(
            (execs, prepares),
            (2, 2),
            "{n} schemas: the size read and one statement"
        );
    }
}

/// Schemas read together stay flat in other schemas: the work of one
/// verify of 12 schemas of an 8-table catalog (each schema one listed
/// group; on MySQL all of them one group of (schema, table) pairs) does
/// not move when 24 more schemas of the same tables exist beside them.
#[tokio::test]
async fn schemas_read_together_stay_flat_in_other_schemas() {
    let cat = generated(8);
    let mut dbs = Vec::new();
    for _ in 0..12 {
        let db = TestDb::new().await;
        create(&db, &cat).await;
        dbs.push(db);
    }
    let names: Vec<&str> = dbs.iter().map(|d| d.name.as_str()).collect();
    let work = async || {
        let mut s = session(&dbs[0]).await;
        diff_together(&mut s, &names, &cat).await;
        statement_work(&dbs[0], &mut s, async |s| {
            for diffs in diff_together(s, &names, &cat).await {
                assert!(!has_problems(&diffs), "{diffs:#?}");
            }
        })
        .await
    };
    let alone = work().await;
    let mut others = Vec::new();
    for _ in 0..24 {
        let other = TestDb::new().await;
        create(&other, &cat).await;
        others.push(other);
    }
    let crowded = work().await;
    eprintln!(
        "verify of 12 schemas together: {alone:?}\nbeside 24 more schemas of the same tables: {crowded:?}"
    );
    assert!(alone.iter().any(|(_, v)| *v > 0), "{alone:?}");
    assert_eq!(
        alone, crowded,
        "reading schemas together grew with other schemas"
    );
}
