//! The net compares MySQL's "collation stated" fact (live, each flavor).
//!
//! MySQL remembers a column collation stated in DDL, even the table's own,
//! and prints it in `SHOW CREATE TABLE` ever after; information_schema
//! does not show the fact (a fresh column of a `utf8mb4_bin` table reads
//! `COLLATE utf8mb4_bin`, a stated one `CHARACTER SET utf8mb4 COLLATE
//! utf8mb4_bin`). A table an earlier release of this tool made
//! (it stated `CHARACTER SET ... COLLATE ...` on every string column) is
//! exact (plain verify passes, apply has nothing to do) but reads
//! otherwise than a fresh install. `verify --strict` reports each such
//! column as `column_collation_stated`, with a fix that restates the
//! column: `ALTER TABLE ... MODIFY COLUMN ..., ALGORITHM=INSTANT`, which on
//! MySQL 9.7 changes the text only (same InnoDB table id, so no rebuild;
//! rows unchanged) and leaves the table reading as a fresh install.
//!
//! MariaDB 10.11 keeps no such fact: it prints a column's charset and
//! collation only where they differ from the table's, however the column
//! was made, so the same table is exact text and all there.

use crate::common;

use common::applied::{apply_converged, assert_idle, verify_schema};
use common::{catalog_dir, catalog_tables, TestDb};
use schema_catalog::catalog::{self, Catalog};
use schema_catalog::diff::ProblemKind;
use schema_catalog::verify::{verify, VerifyOptions, VerifyReport};

const SETTINGS: &str =
    "defaults:\n  engine: InnoDB\n  charset: utf8mb4\n  collation: utf8mb4_bin\n";

/// `t`: `a` and `e` state the table's own collation, `b` states nothing,
/// `c` another collation than the table's (every server prints that).
const OLD_RELEASE: &str = "CREATE TABLE `t` (
  `id` int NOT NULL,
  `a` varchar(16) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL DEFAULT 'x',
  `b` varchar(16) NULL,
  `c` varchar(8) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NULL,
  `e` enum('p','q') COLLATE utf8mb4_bin NULL,
  PRIMARY KEY (`id`),
  KEY `ka` (`a`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";

fn catalog() -> Catalog {
    catalog_with_b("varchar(16)")
}

/// [`catalog`] with column `b` of type `b`.
fn catalog_with_b(b: &str) -> Catalog {
    let yaml = format!(
        "table: t\ncolumns:\n  - name: id\n    type: int\n    nullable: false\n  \
         - name: a\n    type: varchar(16)\n    nullable: false\n    default: \"'x'\"\n  \
         - name: b\n    type: {b}\n  \
         - name: c\n    type: varchar(8)\n    collation: utf8mb4_general_ci\n  \
         - name: e\n    type: enum('p','q')\n\
         primary_key: [id]\nindexes:\n  - name: ka\n    columns: [a]\n"
    );
    let dir = catalog_dir(&[("catalog.yaml", SETTINGS), ("t.yaml", &yaml)]);
    let report = catalog::check(dir.path());
    assert_eq!(report.error_count(), 0, "{}", report.render_human());
    report.catalog.unwrap()
}

async fn strict_verify(db: &TestDb, cat: &Catalog) -> VerifyReport {
    let target = schema_catalog::db::parse_url(&db.url()).unwrap();
    let mut s = schema_catalog::db::connect(&target, std::time::Duration::from_secs(20))
        .await
        .unwrap();
    verify(
        &mut s,
        cat,
        &VerifyOptions::default()
            .schema(db.name.clone())
            .strict(true),
    )
    .await
    .expect("verify runs")
}

/// SHOW CREATE TABLE of `t` as this release installs it fresh.
async fn fresh_install(tables: &[schema_catalog::Table]) -> String {
    let fresh = TestDb::new().await;
    apply_converged(&fresh, tables).await;
    fresh.show_create("t").await
}

/// The statement a fix ends with (`...: `ALTER TABLE ...``).
fn fix_statement(fix: &str) -> &str {
    let (_, sql) = fix.split_once(": `").expect("the fix names a statement");
    sql.strip_suffix('`').expect("the statement ends the fix")
}

#[tokio::test]
async fn a_stated_collation_is_a_strict_finding_with_an_instant_fix() {
    let cat = catalog();
    let tables = catalog_tables(&cat);
    let fresh_text = fresh_install(&tables).await;

    let db = TestDb::new().await;
    db.exec(&[
        OLD_RELEASE,
        "INSERT INTO `t` VALUES (1, 'a1', 'b1', 'c1', 'p'), (2, 'A2', NULL, NULL, 'q')",
    ])
    .await;
    let rows: &[&str] = &["id", "a", "b", "c", "e"];
    let before = db.checksum("t", rows).await;
    let id_before = db.innodb_table_id("t").await;
    // Exact: the startup gate passes and apply has nothing to do.
    let plain = verify_schema(&db, &cat).await;
    assert!(plain.ok, "{:#?}", plain.problems);
    assert_idle(&db, &tables).await;

    let strict = strict_verify(&db, &cat).await;
    if db.is_mariadb() {
        // MariaDB prints no collation equal to the table's, stated or not.
        let text = db.show_create("t").await;
        assert_eq!(text, fresh_text);
        assert!(
            !text.contains("COLLATE utf8mb4_bin"),
            "MariaDB printed a stated collation: {text}"
        );
        assert!(strict.ok, "{:#?}", strict.problems);
        return;
    }
    assert_ne!(db.show_create("t").await, fresh_text);
    assert!(!strict.ok, "verify --strict passed stated collations");
    let found: Vec<(&str, ProblemKind)> = strict
        .problems
        .iter()
        .map(|p| (p.object.as_str(), p.kind))
        .collect();
    assert_eq!(
        found,
        [
            ("a", ProblemKind::ColumnCollationStated),
            ("e", ProblemKind::ColumnCollationStated)
        ],
        "{:#?}",
        strict.problems
    );
    let a = &strict.problems[0];
    assert_eq!(a.expected, "SHOW CREATE TABLE writes COLLATE utf8mb4_bin");
    assert_eq!(
        a.actual,
        "SHOW CREATE TABLE writes CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
    );
    let fixes: Vec<&str> = strict
        .problems
        .iter()
        .map(|p| fix_statement(p.fix.as_deref().expect("a fix")))
        .collect();
    assert_eq!(
        fixes,
        [
            "ALTER TABLE `t` MODIFY COLUMN `a` varchar(16) NOT NULL DEFAULT 'x', ALGORITHM=INSTANT",
            "ALTER TABLE `t` MODIFY COLUMN `e` enum('p','q') NULL, ALGORITHM=INSTANT"
        ]
    );
    // The fix, run as given: text only (no rebuild, rows unchanged), and
    // the table now reads as a fresh install.
    db.exec(&fixes).await;
    assert_eq!(db.innodb_table_id("t").await, id_before, "the fix rebuilt");
    assert_eq!(db.checksum("t", rows).await, before);
    assert_eq!(db.show_create("t").await, fresh_text);
    let strict = strict_verify(&db, &cat).await;
    assert!(strict.ok, "{:#?}", strict.problems);
    assert_idle(&db, &tables).await;
}

/// A drift finding's hand-run fix (`... or run by hand: `ALTER TABLE
/// ...``) writes the column as the catalog does: no `CHARACTER SET` /
/// `COLLATE` equal to the table's, so on MySQL running it leaves no stated
/// collation behind (strict verify passes, SHOW CREATE TABLE reads as a
/// fresh install), on MariaDB the same.
#[tokio::test]
async fn a_drift_fix_run_by_hand_states_no_table_collation() {
    let cat = catalog();
    let tables = catalog_tables(&cat);
    let fresh_text = fresh_install(&tables).await;

    let db = TestDb::new().await;
    // An earlier release's `b`, narrower than the catalog's varchar(16):
    // drift, no widen opt-in. (Made by the tool: SHOW CREATE TABLE text run
    // as DDL would state the collations it prints, on MySQL.)
    apply_converged(&db, &catalog_tables(&catalog_with_b("varchar(8)"))).await;
    assert_ne!(db.show_create("t").await, fresh_text);
    let plain = verify_schema(&db, &cat).await;
    let found: Vec<(&str, ProblemKind)> = plain
        .problems
        .iter()
        .map(|p| (p.object.as_str(), p.kind))
        .collect();
    assert_eq!(
        found,
        [("b", ProblemKind::ColumnType)],
        "{:#?}",
        plain.problems
    );
    let fix = plain.problems[0].fix.as_deref().expect("a fix");
    // An online widening: the fix names the opt-in, or the statement by hand.
    assert!(fix.contains("widen: true"), "{fix}");
    let sql = fix_statement(fix);
    assert_eq!(sql, "ALTER TABLE `t` MODIFY COLUMN `b` varchar(16) NULL");
    db.exec(&[sql]).await;
    assert_eq!(db.show_create("t").await, fresh_text);
    let strict = strict_verify(&db, &cat).await;
    assert!(strict.ok, "{:#?}", strict.problems);
    assert_idle(&db, &tables).await;
}
