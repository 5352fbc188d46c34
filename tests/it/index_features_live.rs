//! Format v2 index features against the real server (each flavor):
//! descending and explicit-prefix key parts, functional key parts (MySQL),
//! FULLTEXT and invisible/ignored indexes. A catalog declaring them is
//! applied to an empty schema, verified, re-applied with no steps, and
//! imported back into the same indexes; on an existing table the B-tree
//! ones are added online with rows unchanged, a FULLTEXT or functional one
//! is refused as not online; a live index that differs in prefix, direction or visibility
//! is drift (apply refuses, schema unchanged). A FULLTEXT parser (`parser:
//! ngram`, MySQL only) round-trips on MySQL and a parser difference is
//! `index_parser` drift; on MariaDB the server and lint refuse it.

use crate::common;

use std::path::{Path, PathBuf};

use common::{apply_tables, catalog_tables, TestDb};
use schema_catalog::apply::{Outcome, StepStatus};
use schema_catalog::catalog::{self, Catalog};
use schema_catalog::diff::ProblemKind;
use schema_catalog::model::{FullTextParser, IndexKind, IndexPart};
use schema_catalog::{Flavor, Table};

/// The table file: `{expr}` is the functional index (MySQL only: MariaDB
/// has no functional key parts).
const TABLE: &str = "table: Job
columns:
  - name: Id
    type: bigint unsigned
    nullable: false
  - name: Queue
    type: varchar(64)
    nullable: false
  - name: Note
    type: text
  - name: Url
    type: varchar(255)
  - name: AvailableAt
    type: datetime(6)
primary_key: [Id]
indexes:
  - name: idx_job_available
    columns: [Queue, {column: AvailableAt, order: desc}]
  - name: idx_job_note
    columns: [{column: Note, length: 20}]
  - name: uq_job_url
    unique: true
    columns: [{column: Url, length: 100}, Id]
  - name: idx_job_staged
    columns: [Queue, Id]
    visible: false
  - name: ft_job_note
    kind: fulltext
    columns: [Note]
{expr}";

const EXPRESSION_INDEX: &str = "  - name: idx_job_queue_lower
    columns: [{expression: \"lower(Queue)\"}]
";

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("catalog-index-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn table_yaml(db: &TestDb, without: &[&str]) -> String {
    let expr = if db.flavor == Flavor::MariaDb {
        ""
    } else {
        EXPRESSION_INDEX
    };
    let mut text = TABLE.replace("{expr}", expr);
    for name in without {
        // Drop one index entry (its `- name:` line up to the next entry).
        let start = text
            .find(&format!("  - name: {name}\n"))
            .expect("index in TABLE");
        let end = text[start + 4..]
            .find("  - name: ")
            .map_or(text.len(), |e| start + 4 + e);
        text.replace_range(start..end, "");
    }
    text
}

/// Loads the table file as a catalog, targeting the flavors that hold it
/// (see [`write_catalog`]).
fn load(dir: &Path, yaml: &str) -> Catalog {
    write_catalog(dir, yaml);
    let report = catalog::check(dir);
    assert_eq!(report.error_count(), 0, "{}", report.render_human());
    report.catalog.unwrap()
}

fn write_catalog(dir: &Path, yaml: &str) {
    std::fs::write(dir.join("job.yaml"), yaml).unwrap();
    // MariaDB has no expression key parts; TiDB drops FULLTEXT indexes and
    // builds a descending key part ascending (`tidb-ignored`).
    let no_tidb = yaml.contains("kind: fulltext") || yaml.contains("order: desc");
    let flavors = match (yaml.contains("expression"), no_tidb) {
        (true, true) => Some("[mysql]"),
        (true, false) => Some("[tidb, mysql]"),
        (false, true) => Some("[mysql, mariadb]"),
        (false, false) => None,
    };
    // A catalog.yaml already there (copied from a fixture) decides.
    if let Some(flavors) = flavors.filter(|_| !dir.join("catalog.yaml").exists()) {
        std::fs::write(dir.join("catalog.yaml"), format!("flavors: {flavors}\n")).unwrap();
    }
}

/// The declared index shapes, comparable across catalog and import
/// (expressions in their canonical text).
fn shapes(t: &Table) -> Vec<String> {
    let mut out: Vec<String> = t
        .indexes
        .iter()
        .map(|i| {
            let parts: Vec<String> = i
                .parts
                .iter()
                .map(|p| match p {
                    IndexPart::Expression(e) => format!(
                        "expr:{}",
                        schema_catalog::readiness::canonical_expression(e)
                    ),
                    other => other.to_string().to_lowercase(),
                })
                .collect();
            format!(
                "{} unique={} {:?} visible={} [{}]",
                i.name.key(),
                i.unique,
                i.kind,
                i.visible,
                parts.join(", ")
            )
        })
        .collect();
    out.sort();
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn declared_index_features_round_trip() {
    let db = TestDb::new().await;
    let d = dir("roundtrip");
    let cat = load(&d, &table_yaml(&db, &[]));
    let want = &cat.tables[0].table;

    let report = apply_tables(&db, &catalog_tables(&cat)).await;
    assert_eq!(report.outcome, Outcome::Converged, "{report:#?}");
    assert_eq!(
        report.steps.len(),
        1,
        "one CREATE TABLE: {:#?}",
        report.steps
    );
    let ddl = db.show_create("Job").await;
    assert!(ddl.contains("`AvailableAt` DESC"), "{ddl}");
    assert!(ddl.contains("`Note`(20)"), "{ddl}");
    assert!(ddl.contains("FULLTEXT KEY `ft_job_note`"), "{ddl}");
    assert!(ddl.contains(db.hidden_index()), "{ddl}");

    // verify passes; a second apply has nothing to do
    common::assert_verified_and_idle(&db, &cat).await;

    // import (live, reloaded after check, and from a dump) gives the same indexes
    for tables in common::import_three_ways(&db, &d).await {
        assert_eq!(shapes(&tables[0]), shapes(want));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn btree_features_are_added_online_and_fulltext_is_refused() {
    let db = TestDb::new().await;
    db.exec(&[
        "CREATE TABLE `Job` (`Id` bigint unsigned NOT NULL, `Queue` varchar(64) NOT NULL,
          `Note` text, `Url` varchar(255), `AvailableAt` datetime(6), PRIMARY KEY (`Id`))
          ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
        "INSERT INTO `Job` VALUES (1, 'a', 'first note', 'https://a', '2026-01-01'),
          (2, 'b', NULL, NULL, NULL), (3, 'a', 'third', 'https://c', '2026-02-01')",
    ])
    .await;
    let columns = ["Id", "Queue", "Note", "Url", "AvailableAt"];
    let rows = db.checksum("Job", &columns).await;
    let d = dir("warm");

    // Every B-tree feature but the expression: added one ALTER each, online.
    let mut later = vec!["ft_job_note"];
    if db.flavor != Flavor::MariaDb {
        later.push("idx_job_queue_lower");
    }
    let cat = load(&d, &table_yaml(&db, &later));
    let report = apply_tables(&db, &catalog_tables(&cat)).await;
    assert_eq!(report.outcome, Outcome::Converged, "{report:#?}");
    assert_eq!(report.steps.len(), 4, "{:#?}", report.steps);
    for step in &report.steps {
        assert_eq!(step.kind, "add_index");
        assert_eq!(step.status, StepStatus::Applied);
        assert!(
            step.sql.ends_with("ALGORITHM=INPLACE, LOCK=NONE"),
            "{}",
            step.sql
        );
    }
    assert_eq!(db.checksum("Job", &columns).await, rows);

    // The FULLTEXT index (and on MySQL the functional one) on the existing
    // table: refused with the reason, no DDL.
    let cat = load(&d, &table_yaml(&db, &[]));
    let report =
        common::assert_apply_refused(&db, &catalog_tables(&cat), &[("Job", &columns)]).await;
    assert_eq!(report.drift.len(), later.len(), "{:#?}", report.drift);
    for name in &later {
        let p = common::drift_on(&report, name);
        assert_eq!(p.kind, ProblemKind::IndexNotOnline);
        assert!(
            p.actual
                .to_string()
                .contains("cannot be added to an existing table online"),
            "{p}"
        );
    }
    assert_eq!(db.checksum("Job", &columns).await, rows);
    let _ = std::fs::remove_dir_all(&d);
}

/// Builds `Job` with the given index lines, applies the full catalog and
/// requires a refusal with exactly `kind` on `object`, schema unchanged.
async fn drift_case(indexes: &str, object: &str, kind: ProblemKind) {
    let db = TestDb::new().await;
    db.exec(&[&format!(
        "CREATE TABLE `Job` (`Id` bigint unsigned NOT NULL, `Queue` varchar(64) NOT NULL,
          `Note` text, `Url` varchar(255), `AvailableAt` datetime(6), PRIMARY KEY (`Id`), {indexes})
          ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
    )])
    .await;
    let d = dir(object);
    let cat = load(&d, &table_yaml(&db, &[]));
    let report = common::assert_apply_refused(&db, &catalog_tables(&cat), &[]).await;
    common::assert_drift(&report, "Job", object, kind);
    let _ = std::fs::remove_dir_all(&d);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drift_other_prefix_length_is_refused() {
    drift_case(
        "KEY `idx_job_note` (`Note`(10))",
        "idx_job_note",
        ProblemKind::IndexPrefix,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drift_ascending_where_descending_is_declared_is_refused() {
    drift_case(
        "KEY `idx_job_available` (`Queue`, `AvailableAt`)",
        "idx_job_available",
        ProblemKind::IndexOrder,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drift_visible_where_invisible_is_declared_is_refused() {
    drift_case(
        "KEY `idx_job_staged` (`Queue`, `Id`)",
        "idx_job_staged",
        ProblemKind::IndexInvisible,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drift_btree_where_fulltext_is_declared_is_refused() {
    drift_case(
        "KEY `ft_job_note` (`Note`(30))",
        "ft_job_note",
        ProblemKind::IndexKind,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drift_other_expression_is_refused_on_mysql() {
    let db = TestDb::new().await;
    if db.flavor == Flavor::MariaDb {
        // MariaDB has no functional key parts: nothing to drift. The
        // catalog built for MariaDB declares none (see `table_yaml`).
        assert!(!table_yaml(&db, &[]).contains("expression"));
        return;
    }
    drop(db);
    drift_case(
        "KEY `idx_job_queue_lower` ((upper(`Queue`)))",
        "idx_job_queue_lower",
        ProblemKind::IndexExpression,
    )
    .await;
}

#[test]
fn expression_index_kind_is_parsed() {
    // Offline: the expression part is parsed and re-rendered with the
    // declared column's spelling.
    let d = dir("offline");
    write_catalog(&d, &TABLE.replace("{expr}", EXPRESSION_INDEX));
    let cat = catalog::load(&d).unwrap();
    let t = &cat.tables[0].table;
    let i = t
        .indexes
        .iter()
        .find(|i| i.name.as_str() == "idx_job_queue_lower")
        .unwrap();
    assert_eq!(
        i.parts,
        vec![IndexPart::Expression("lower(`Queue`)".into())]
    );
    let ft = t
        .indexes
        .iter()
        .find(|i| i.kind == IndexKind::FullText(None));
    assert!(ft.is_some());
    let _ = std::fs::remove_dir_all(&d);
}

/// The FULLTEXT parser fixture (`parser: ngram`, a MySQL-only catalog).
fn parser_fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/format-v2/fulltext-parser")
}

/// The `Docs` table of the parser fixture, built with plain DDL with the
/// given FULLTEXT clauses for `ft_docs_body` and `ft_docs_title`, and two
/// rows.
async fn legacy_docs(db: &TestDb, body: &str, title: &str) {
    db.exec(&[
        &format!(
            "CREATE TABLE `Docs` (`Id` bigint unsigned NOT NULL, `Title` varchar(200), `Body` text,
              PRIMARY KEY (`Id`), FULLTEXT KEY `ft_docs_body` (`Body`) {body},
              FULLTEXT KEY `ft_docs_title` (`Title`) {title})
              ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
        ),
        "INSERT INTO `Docs` VALUES (1, 'first', '全文検索のテスト'), (2, NULL, 'plain words')",
    ])
    .await;
}

/// MariaDB 10.11 refuses a FULLTEXT key with the ngram parser (`clause`),
/// error 1128 "Function 'ngram' is not defined", creating nothing.
async fn refuses_ngram(db: &TestDb, clause: &str) {
    let mut conn = db.pool.get_conn().await.expect("connect");
    let sql = format!(
        "CREATE TABLE `Docs` (`Id` int PRIMARY KEY, `Body` text, FULLTEXT KEY `ft_docs_body` (`Body`) {clause})"
    );
    let err = mysql_async::prelude::Queryable::query_drop(&mut conn, sql)
        .await
        .expect_err("MariaDB has no ngram parser");
    assert!(err.to_string().contains("1128"), "{err}");
    drop(conn);
    assert!(db.snapshot().await.is_empty(), "nothing was created");
}

/// MySQL: the ngram FULLTEXT index is created with its parser (read back
/// from SHOW CREATE TABLE), verified, re-applied with nothing to do, and
/// imported back (live, check-gated, dump) with `parser: ngram`.
/// MariaDB: the server refuses `WITH PARSER ngram` (1128), a MariaDB-only
/// catalog declaring it is a lint error, and the plain FULLTEXT index of
/// the same fixture round-trips as before.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fulltext_parser_round_trips_on_mysql_and_is_refused_for_mariadb() {
    let db = TestDb::new().await;
    let d = dir("parser");
    if db.flavor == Flavor::MariaDb {
        refuses_ngram(&db, "WITH PARSER `ngram`").await;
        let bad = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/bad-catalogs/fulltext-parser-mariadb");
        let report = catalog::check(&bad);
        assert_eq!(report.error_count(), 1, "{}", report.render_human());
        let text = report.render_human();
        assert!(
            text.contains("]: table `Docs`, index `ft_body_ngram`: `parser: ngram` on a catalog that targets MariaDB"),
            "{text}"
        );
        // The plain FULLTEXT path: the fixture without its parser line.
        let yaml = std::fs::read_to_string(parser_fixture().join("docs.yaml")).unwrap();
        std::fs::write(d.join("docs.yaml"), yaml.replace("    parser: ngram\n", "")).unwrap();
        // TiDB drops FULLTEXT indexes: the plain catalog targets the other two.
        std::fs::write(d.join("catalog.yaml"), "flavors: [mysql, mariadb]\n").unwrap();
    } else {
        for file in ["catalog.yaml", "docs.yaml"] {
            std::fs::copy(parser_fixture().join(file), d.join(file)).unwrap();
        }
    }
    let report = catalog::check(&d);
    assert_eq!(report.error_count(), 0, "{}", report.render_human());
    let cat = report.catalog.unwrap();
    let want = cat.tables[0].table.clone();
    let ngram = db.flavor != Flavor::MariaDb;
    let body = want.index(&"ft_docs_body".into()).unwrap().kind;
    assert_eq!(body.parser(), ngram.then_some(FullTextParser::Ngram));

    let report = apply_tables(&db, &catalog_tables(&cat)).await;
    assert_eq!(report.outcome, Outcome::Converged, "{report:#?}");
    assert_eq!(report.steps.len(), 1, "{:#?}", report.steps);
    assert_eq!(
        report.steps[0].sql.contains("WITH PARSER `ngram`"),
        ngram,
        "{}",
        report.steps[0].sql
    );
    let ddl = db.show_create("Docs").await;
    // MySQL 9.7 prints the clause in a version comment, after the comment.
    assert_eq!(
        ddl.contains(
            "FULLTEXT KEY `ft_docs_body` (`Body`) COMMENT 'CJK bigrams' /*!50100 WITH PARSER `ngram` */"
        ),
        ngram,
        "{ddl}"
    );
    assert!(
        ddl.contains("FULLTEXT KEY `ft_docs_title` (`Title`)"),
        "{ddl}"
    );
    assert_eq!(
        ddl.matches("WITH PARSER").count(),
        usize::from(ngram),
        "{ddl}"
    );

    common::assert_verified_and_idle(&db, &cat).await;
    for tables in common::import_three_ways(&db, &d.join("import")).await {
        assert_eq!(shapes(&tables[0]), shapes(&want));
        let t = &tables[0];
        assert_eq!(t.index(&"ft_docs_body".into()).unwrap().kind, body);
        assert_eq!(
            t.index(&"ft_docs_title".into()).unwrap().kind,
            IndexKind::FullText(None)
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// Applies the parser fixture (`ngram` on `ft_docs_body`; with
/// `declare_parser` false, the fixture without it) to a `Docs` table built
/// with `body` / `title` FULLTEXT clauses: refused as `index_parser` drift
/// on `object`, no DDL, rows and schema unchanged.
async fn parser_drift(db: &TestDb, body: &str, title: &str, declare_parser: bool, object: &str) {
    legacy_docs(db, body, title).await;
    let columns = ["Id", "Title", "Body"];
    let rows = db.checksum("Docs", &columns).await;
    let d = dir(&format!("parser-drift-{object}-{declare_parser}"));
    std::fs::copy(
        parser_fixture().join("catalog.yaml"),
        d.join("catalog.yaml"),
    )
    .unwrap();
    let yaml = std::fs::read_to_string(parser_fixture().join("docs.yaml")).unwrap();
    let yaml = if declare_parser {
        yaml
    } else {
        yaml.replace("    parser: ngram\n", "")
    };
    let cat = load(&d, &yaml);
    let before = db.snapshot().await;
    let report = apply_tables(db, &catalog_tables(&cat)).await;
    assert_eq!(report.outcome, Outcome::RefusedDrift, "{report:#?}");
    assert!(report.steps.is_empty(), "{:#?}", report.steps);
    assert_eq!(report.server_ddl_count, Some(0));
    let kinds: Vec<(&str, ProblemKind)> = report
        .drift
        .iter()
        .map(|p| (p.object.as_str(), p.kind))
        .collect();
    assert_eq!(
        kinds,
        [(object, ProblemKind::IndexParser)],
        "{:#?}",
        report.drift
    );
    assert!(
        report.drift[0].to_string().contains("WITH PARSER `ngram`"),
        "{}",
        report.drift[0]
    );
    assert_eq!(db.snapshot().await, before, "a refused run changed a table");
    assert_eq!(db.checksum("Docs", &columns).await, rows);
    let _ = std::fs::remove_dir_all(&d);
}

/// A live FULLTEXT index without the declared ngram parser, and one with
/// ngram where the built-in parser is declared, are `index_parser` drift
/// (MySQL). MariaDB cannot hold a parser (see the round trip above), so
/// there the drift cannot arise: the server refuses the legacy table.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drift_fulltext_parser_is_refused() {
    let db = TestDb::new().await;
    if db.flavor == Flavor::MariaDb {
        refuses_ngram(&db, "/*!50100 WITH PARSER `ngram` */").await;
        return;
    }
    // Declared ngram, live built-in.
    parser_drift(&db, "", "", true, "ft_docs_body").await;
    // Declared built-in, live ngram, on either index (a fresh schema each).
    let db = TestDb::new().await;
    parser_drift(
        &db,
        "WITH PARSER ngram",
        "WITH PARSER ngram",
        true,
        "ft_docs_title",
    )
    .await;
    let db = TestDb::new().await;
    parser_drift(&db, "WITH PARSER ngram", "", false, "ft_docs_body").await;
}
