//! Features of real upgrade histories (open-source projects' versioned
//! MySQL schemas) against the real server (each flavor): a generated
//! column whose expression has a unary minus inside a call
//! (`substr(x, -6, 6)`, which MySQL prints as `-(6)`), functional key parts
//! with `CAST(... AS DATETIME)` and multi-valued indexes
//! (`CAST(... AS CHAR(255) ARRAY)`, MySQL 8.0.17+) are imported live and
//! from a dump, pass `check`, apply to an empty schema with the source's
//! SHOW CREATE TABLE, and a second apply is a no-op; an older release of
//! the table (those keys already there) upgraded by the catalog imported
//! from a newer one reads, text for text, as the newer one's own build.

use crate::common;

use common::TestDb;
use schema_catalog::catalog::{self, Catalog};
use schema_catalog::diff::ProblemKind;
use schema_catalog::verify::{VerifyOptions, VerifyReport};

/// A catalog of `tables` as loaded from files (through the import gate).
fn catalog_of(tables: &[schema_catalog::Table]) -> Catalog {
    let dir = tempfile::tempdir().unwrap();
    let imported = common::generated_import(tables.to_vec());
    schema_catalog::import::write_checked(&imported, dir.path()).expect("passes check");
    catalog::load(dir.path()).expect("loads")
}

/// `verify --strict` of `cat` against `db`.
async fn strict_verify(db: &TestDb, cat: &Catalog) -> VerifyReport {
    let target = schema_catalog::db::parse_url(&db.url()).unwrap();
    let mut s = schema_catalog::db::connect(&target, std::time::Duration::from_secs(20))
        .await
        .unwrap();
    schema_catalog::verify(
        &mut s,
        cat,
        &VerifyOptions::default().strict(true).schema(&db.name),
    )
    .await
    .expect("verify runs")
}

/// The source table, built with plain DDL. MariaDB has no functional key
/// parts (its cast to DATETIME is not allowed in a generated column
/// either), so there the generated columns are the whole test.
fn source_ddl(db: &TestDb) -> String {
    let keys = if db.is_mariadb() {
        ""
    } else {
        ",
      KEY `by_start` ((cast(from_unixtime(`start_time`) as datetime))),
      KEY `by_start_run` (`run_id`, (cast(from_unixtime(`start_time`) as date))),
      KEY `by_tags` ((cast(json_extract(`memo`, '$.tags') as char(255) array))),
      KEY `by_ids` ((cast(json_extract(`memo`, '$.ids') as unsigned array)), `id`)"
    };
    format!(
        "CREATE TABLE `executions` (
      `id` bigint NOT NULL,
      `run_id` varchar(64) NOT NULL,
      `start_time` bigint NULL,
      `memo` json NULL,
      `run_suffix` varchar(6) GENERATED ALWAYS AS (substr(`run_id`, -6, 6)) VIRTUAL,
      `run_tail` varchar(6) GENERATED ALWAYS AS (substring(`run_id`, -(3))) STORED,
      `start_num` bigint GENERATED ALWAYS AS (cast(`start_time` as signed) - -1) VIRTUAL,
      PRIMARY KEY (`id`){keys}
    ) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
    )
}

/// SHOW CREATE TABLE of every table, as the server prints it (column
/// `CHARACTER SET` / `COLLATE` text included: apply states a column's
/// only where it is not the table's, as a fresh install does).
async fn shown(db: &TestDb) -> Vec<(String, String)> {
    db.snapshot().await
}

#[tokio::test]
async fn unary_minus_cast_and_multi_valued_keys_round_trip() {
    let source = TestDb::new().await;
    source.exec(&[&source_ddl(&source)]).await;
    let dir = common::scratch_dir("upgrade-features-import");
    let [live, reloaded, dumped] = common::import_three_ways(&source, &dir).await;
    for tables in [&live, &reloaded, &dumped] {
        let empty = common::assert_greenfield(&source, tables).await;
        assert_eq!(shown(&empty).await, shown(&source).await);
        // The regenerate-and-compare net explains every clause it shows.
        let cat = catalog_of(tables);
        for db in [&source, &empty] {
            let v = strict_verify(db, &cat).await;
            assert!(v.ok, "{:#?}", v.problems);
        }
    }
    // The catalog's own spelling, as `check` reads it.
    let t = &live[0];
    let generated: Vec<String> = t
        .columns
        .iter()
        .filter_map(|c| c.generated.as_ref().map(|g| g.expression.clone()))
        .collect();
    assert!(
        generated
            .iter()
            .any(|g| g.contains("-(6)") || g.contains("-6")),
        "{generated:?}"
    );
    if !source.is_mariadb() {
        let keys: Vec<String> = t
            .indexes
            .iter()
            .map(|i| {
                let parts: Vec<String> = i.parts.iter().map(|p| p.to_string()).collect();
                format!("{} {}", i.name.as_str(), parts.join(", "))
            })
            .collect();
        assert_eq!(keys.len(), 4, "{keys:?}");
    }
}

/// The upgrade of the history: the older `executions` lacks the
/// last VIRTUAL column. On MariaDB apply adds it online (INSTANT), rows
/// unchanged, and SHOW CREATE TABLE equals the fresh build's; on MySQL the
/// table's functional indexes hold hidden virtual columns after it, so
/// `plan` and apply refuse it as not online before any DDL.
#[tokio::test]
async fn an_upgrade_adds_the_last_virtual_column_or_refuses_it_before_ddl() {
    let fresh = TestDb::new().await;
    let new_ddl = source_ddl(&fresh);
    fresh.exec(&[&new_ddl]).await;
    let dir = common::scratch_dir("upgrade-features-warm");
    let [live, _, _] = common::import_three_ways(&fresh, &dir).await;
    let old = TestDb::new().await;
    let start_num = new_ddl
        .lines()
        .find(|l| l.contains("`start_num`"))
        .expect("start_num line")
        .to_string();
    old.exec(&[
        &new_ddl.replace(&format!("{start_num}\n"), ""),
        "INSERT INTO `executions` (`id`, `run_id`, `start_time`, `memo`) VALUES \
         (1, 'run-000001', 1700000000, '{\"tags\": [\"a\"], \"ids\": [1, 2]}'), (2, 'r', NULL, NULL)",
    ])
    .await;
    let rows: &[&str] = &["id", "run_id", "start_time", "memo"];
    if old.is_mariadb() {
        let before = old.checksum("executions", rows).await;
        let report = common::apply_converged(&old, &live).await;
        assert_eq!(report.steps.len(), 1, "{:#?}", report.steps);
        assert!(
            report.steps[0].sql.contains("ALGORITHM=INSTANT"),
            "{}",
            report.steps[0].sql
        );
        assert_eq!(old.checksum("executions", rows).await, before);
        assert_eq!(shown(&old).await, shown(&fresh).await);
        common::assert_idle(&old, &live).await;
    } else {
        let plan = plan_of(&old, &live).await;
        assert!(plan.is_refused(), "{:#?}", plan.steps);
        let report = common::assert_apply_refused(&old, &live, &[("executions", rows)]).await;
        common::assert_drift(
            &report,
            "executions",
            "start_num",
            ProblemKind::ColumnNotOnline,
        );
    }
}

/// A release history over the table with these features: the older
/// release has the generated columns and (MySQL) the functional and
/// multi-valued keys; the newer adds a nullable column and a plain key
/// last. The catalog imported from the newer release upgrades the older
/// one, rows unchanged, and every table then reads, text for text
/// (column collations included), as the newer release's own build and as
/// a fresh install of the catalog; `verify --strict` passes.
#[tokio::test]
async fn an_upgrade_of_a_table_with_functional_and_multi_valued_keys_reads_as_fresh() {
    let newer = TestDb::new().await;
    let old_ddl = source_ddl(&newer);
    let new_ddl = old_ddl
        .replace(
            "      PRIMARY KEY (`id`)",
            "      `note` varchar(16) NULL,\n      PRIMARY KEY (`id`)",
        )
        .replace(
            "\n    ) DEFAULT CHARSET",
            ",\n      KEY `by_note` (`note`)\n    ) DEFAULT CHARSET",
        );
    assert_ne!(new_ddl, old_ddl);
    newer.exec(&[&new_ddl]).await;
    let dir = common::scratch_dir("upgrade-features-keys");
    let [live, reloaded, _] = common::import_three_ways(&newer, &dir).await;
    let fresh = common::assert_greenfield(&newer, &reloaded).await;
    assert_eq!(shown(&fresh).await, shown(&newer).await);
    let older = TestDb::new().await;
    older
        .exec(&[
            &old_ddl,
            "INSERT INTO `executions` (`id`, `run_id`, `start_time`, `memo`) VALUES \
             (1, 'run-000001', 1700000000, '{\"tags\": [\"a\"], \"ids\": [1, 2]}'), (2, 'r', NULL, NULL)",
        ])
        .await;
    let rows: &[&str] = &["id", "run_id", "start_time", "memo"];
    let before = older.checksum("executions", rows).await;
    let report = common::apply_converged(&older, &reloaded).await;
    let sql: Vec<&str> = report.steps.iter().map(|s| s.sql.as_str()).collect();
    assert_eq!(sql.len(), 2, "{sql:#?}");
    assert_eq!(older.checksum("executions", rows).await, before);
    assert_eq!(shown(&older).await, shown(&newer).await);
    let cat = catalog_of(&live);
    let v = strict_verify(&older, &cat).await;
    assert!(v.ok, "{:#?}", v.problems);
    common::assert_idle(&older, &reloaded).await;
}

/// A multi-valued index in a catalog that targets MariaDB is a lint error
/// naming the index; the same catalog targeting MySQL only is clean. Two
/// multi-valued parts in one index are an error on any flavor (the server
/// refuses them).
#[test]
fn multi_valued_index_is_a_lint_error_for_mariadb() {
    let two = "table: docs
columns:
  - name: id
    type: bigint
    nullable: false
  - name: memo
    type: json
primary_key: [id]
indexes:
  - name: by_both
    columns:
      - {expression: \"cast(json_extract(memo, '$.a') as unsigned array)\"}
      - {expression: \"cast(json_extract(memo, '$.b') as unsigned array)\"}
";
    let dir = common::catalog_dir(&[("catalog.yaml", "flavors: [mysql]\n"), ("docs.yaml", two)]);
    let text = catalog::check(dir.path()).render_human();
    assert!(text.contains("2 multi-valued key parts"), "{text}");
    let table = "table: docs
columns:
  - name: id
    type: bigint
    nullable: false
  - name: memo
    type: json
primary_key: [id]
indexes:
  - name: by_tags
    columns: [{expression: \"cast(json_extract(memo, '$.tags') as char(255) array)\"}]
";
    for (flavors, errors) in [("[mysql]", 0), ("[mysql, mariadb]", 1)] {
        let dir = common::catalog_dir(&[
            ("catalog.yaml", &format!("flavors: {flavors}\n")),
            ("docs.yaml", table),
        ]);
        let report = catalog::check(dir.path());
        assert_eq!(
            report.error_count(),
            errors,
            "{flavors}: {}",
            report.render_human()
        );
        if errors > 0 {
            let text = report.render_human();
            assert!(text.contains("by_tags"), "{text}");
            assert!(text.contains("multi-valued index"), "{text}");
            assert!(text.contains("MariaDB"), "{text}");
        }
    }
}

// ---------------------------------------------------------------------------
// A column placed before an existing VIRTUAL generated column: the server
// refuses ALGORITHM=INSTANT and INPLACE with 1846 (MySQL: a VIRTUAL new
// column, a functional index's hidden column counting; MariaDB: any new
// column). `plan` and apply know it before the first DDL of the run.

const SETTINGS: &str =
    "defaults:\n  engine: InnoDB\n  charset: utf8mb4\n  collation: utf8mb4_bin\n";

/// The catalog of one table file.
fn load(yaml: &str) -> Vec<schema_catalog::Table> {
    let dir = common::catalog_dir(&[("catalog.yaml", SETTINGS), ("t.yaml", yaml)]);
    let report = catalog::check(dir.path());
    assert_eq!(report.error_count(), 0, "{}", report.render_human());
    common::catalog_tables(&report.catalog.unwrap())
}

/// Table `T` of the catalog: `Id`, then `extra` (catalog YAML entries),
/// then `X`, `Y` and the VIRTUAL `Z`.
fn catalog_t(extra: &str, tail: &str) -> String {
    format!(
        "table: T
columns:
  - name: Id
    type: int
    nullable: false
{extra}  - name: X
    type: varchar(64)
  - name: Y
    type: int
  - name: Z
    type: int
    generated: {{expression: \"Y + 1\"}}
{tail}primary_key: [Id]
"
    )
}

const LIVE_T: &str = "CREATE TABLE `T` (`Id` int NOT NULL, `X` varchar(64) NULL, `Y` int NULL, \
     `Z` int GENERATED ALWAYS AS (`Y` + 1) VIRTUAL, PRIMARY KEY (`Id`)) \
     DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";
const ROWS: &str = "INSERT INTO `T` (`Id`, `X`, `Y`) VALUES (1, 'abcdefgh', 1), (2, 'x', 2)";

const PLAIN_N: &str = "  - name: N\n    type: int\n";
const VIRTUAL_G: &str =
    "  - name: G\n    type: varchar(6)\n    generated: {expression: \"substr(X, -6, 6)\"}\n";

async fn plan_of(db: &TestDb, tables: &[schema_catalog::Table]) -> schema_catalog::plan::Plan {
    let target = schema_catalog::db::parse_url(&db.url()).unwrap();
    let mut s = schema_catalog::db::connect(&target, std::time::Duration::from_secs(20))
        .await
        .unwrap();
    schema_catalog::live::plan_live(&mut s, &db.name, tables, &Default::default())
        .await
        .unwrap()
}

/// A VIRTUAL column declared before the existing VIRTUAL `Z`, after a plain
/// column that could be added: on both servers `plan` is refused naming
/// `G` as not online, and apply refuses before its first DDL (no step, no
/// DDL, SHOW CREATE TABLE and rows unchanged).
#[tokio::test]
async fn a_virtual_column_before_a_virtual_one_is_refused_before_any_ddl() {
    let db = TestDb::new().await;
    db.exec(&[LIVE_T, ROWS]).await;
    // `N` first (MySQL could add it), then `G` before `Z`.
    let yaml =
        catalog_t(PLAIN_N, "").replace("  - name: Y\n", &format!("{VIRTUAL_G}  - name: Y\n"));
    let tables = load(&yaml);
    let plan = plan_of(&db, &tables).await;
    assert!(plan.is_refused(), "{:#?}", plan.steps);
    let on_g: Vec<_> = plan.drift.iter().filter(|p| p.object == "G").collect();
    assert_eq!(on_g.len(), 1, "{:#?}", plan.drift);
    assert_eq!(on_g[0].kind, ProblemKind::ColumnNotOnline);
    assert!(on_g[0].to_string().contains("1846"), "{}", on_g[0]);
    let report = common::assert_apply_refused(&db, &tables, &[("T", &["Id", "X", "Y"])]).await;
    common::assert_drift(&report, "T", "G", ProblemKind::ColumnNotOnline);
}

/// A plain column declared before the existing VIRTUAL `Z`: MariaDB
/// refuses it online (1846, so apply refuses before DDL); MySQL adds it
/// with ALGORITHM=INSTANT at its catalog position, rows unchanged.
#[tokio::test]
async fn a_plain_column_before_a_virtual_one_is_refused_on_mariadb_only() {
    let db = TestDb::new().await;
    db.exec(&[LIVE_T, ROWS]).await;
    let tables = load(&catalog_t(PLAIN_N, ""));
    if db.is_mariadb() {
        let report = common::assert_apply_refused(&db, &tables, &[("T", &["Id", "X", "Y"])]).await;
        common::assert_drift(&report, "T", "N", ProblemKind::ColumnNotOnline);
    } else {
        let before = db.checksum("T", &["Id", "X", "Y"]).await;
        let report = common::apply_converged(&db, &tables).await;
        assert_eq!(report.steps.len(), 1, "{:#?}", report.steps);
        assert!(
            report.steps[0].sql.contains("ALGORITHM=INSTANT"),
            "{}",
            report.steps[0].sql
        );
        assert_eq!(db.checksum("T", &["Id", "X", "Y"]).await, before);
        assert!(db
            .show_create("T")
            .await
            .contains("`N` int DEFAULT NULL,\n  `X`"));
        common::assert_idle(&db, &tables).await;
    }
}

/// A VIRTUAL column declared after the last VIRTUAL column is online on
/// both servers (ALGORITHM=INSTANT), rows unchanged, at its position.
#[tokio::test]
async fn a_virtual_column_after_the_last_virtual_one_is_added_online() {
    let db = TestDb::new().await;
    db.exec(&[LIVE_T, ROWS]).await;
    let tables = load(&catalog_t("", VIRTUAL_G));
    let before = db.checksum("T", &["Id", "X", "Y"]).await;
    let report = common::apply_converged(&db, &tables).await;
    assert_eq!(report.steps.len(), 1, "{:#?}", report.steps);
    assert!(
        report.steps[0].sql.contains("ALGORITHM=INSTANT"),
        "{}",
        report.steps[0].sql
    );
    assert_eq!(db.checksum("T", &["Id", "X", "Y"]).await, before);
    common::assert_idle(&db, &tables).await;
}

/// MySQL: a functional index's hidden virtual column is last, so any
/// VIRTUAL column added to its table lands before it: refused before DDL.
#[tokio::test]
async fn a_virtual_column_on_a_table_with_a_functional_index_is_refused_on_mysql() {
    let db = TestDb::new().await;
    if db.is_mariadb() {
        return; // MariaDB has no functional key parts (lint refuses them).
    }
    db.exec(&[
        "CREATE TABLE `T` (`Id` int NOT NULL, `X` varchar(64) NULL, `Y` int NULL, \
         PRIMARY KEY (`Id`), KEY `by_y` ((`Y` + 1))) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
        ROWS,
    ])
    .await;
    let yaml = "table: T
columns:
  - name: Id
    type: int
    nullable: false
  - name: X
    type: varchar(64)
  - name: Y
    type: int
  - name: G
    type: varchar(6)
    generated: {expression: \"substr(X, -6, 6)\"}
primary_key: [Id]
indexes:
  - name: by_y
    columns: [{expression: \"Y + 1\"}]
";
    let dir = common::catalog_dir(&[
        ("catalog.yaml", &format!("{SETTINGS}flavors: [mysql]\n")),
        ("t.yaml", yaml),
    ]);
    let report = catalog::check(dir.path());
    assert_eq!(report.error_count(), 0, "{}", report.render_human());
    let tables = common::catalog_tables(&report.catalog.unwrap());
    let report = common::assert_apply_refused(&db, &tables, &[("T", &["Id", "X", "Y"])]).await;
    common::assert_drift(&report, "T", "G", ProblemKind::ColumnNotOnline);
}

// ---------------------------------------------------------------------------
// `--skip-unsupported` names everything it leaves out.

/// A column the format cannot express (a collation the catalog does not
/// know) is left out, and so is everything that depends on it, each named
/// in `skipped` (which the CLI prints in human and JSON output): a
/// generated column computed from it, indexes over either, a CHECK naming
/// it, a primary key over it, a functional index naming it (MySQL), and a
/// table left without columns. What is written passes `check`.
#[tokio::test]
async fn skip_unsupported_names_every_object_it_leaves_out() {
    let source = TestDb::new().await;
    let expr_key = if source.is_mariadb() {
        ""
    } else {
        ", KEY `by_expr` ((lower(`tag`)))"
    };
    source
        .exec(&[
            &format!(
                "CREATE TABLE `runs` (`id` int NOT NULL, \
                 `tag` varchar(16) CHARACTER SET latin2 COLLATE latin2_czech_cs NULL, \
                 `tag_lower` varchar(16) GENERATED ALWAYS AS (lower(`tag`)) VIRTUAL, \
                 `n` int NULL, PRIMARY KEY (`id`), KEY `by_tag` (`tag`), KEY `by_id_tag` (`id`, `tag`), \
                 KEY `by_lower` (`tag_lower`), KEY `by_n` (`n`), \
                 CONSTRAINT `chk_tag` CHECK (`tag` <> ''), CONSTRAINT `chk_n` CHECK (`n` >= 0){expr_key}) \
                 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
            ),
            "CREATE TABLE `by_code` (`code` varchar(8) CHARACTER SET latin2 COLLATE latin2_czech_cs NOT NULL, \
             `n` int NULL, PRIMARY KEY (`code`)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
            "CREATE TABLE `only_tag` (`tag` varchar(8) CHARACTER SET latin2 COLLATE latin2_czech_cs NULL) \
             DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
        ])
        .await;
    let target = schema_catalog::db::parse_url(&source.url()).unwrap();
    let mut s = schema_catalog::db::connect(&target, std::time::Duration::from_secs(20))
        .await
        .unwrap();
    let sources = schema_catalog::import::read_live(&mut s, &source.name, &[])
        .await
        .unwrap();
    let opts = schema_catalog::import::ImportOptions::default().skip_unsupported(true);
    let imported = schema_catalog::import::build(&target.display, sources, &opts).unwrap();
    let skipped: Vec<(String, String)> = imported
        .skipped
        .iter()
        .map(|u| (u.table.clone(), u.object.clone()))
        .collect();
    let mut want = vec![
        ("runs", "column `tag`"),
        ("runs", "column `tag_lower`"),
        ("runs", "index `by_tag`"),
        ("runs", "index `by_id_tag`"),
        ("runs", "index `by_lower`"),
        ("runs", "check `chk_tag`"),
        ("by_code", "column `code`"),
        ("by_code", "primary key"),
        ("only_tag", "column `tag`"),
        ("only_tag", "table"),
    ];
    if !source.is_mariadb() {
        want.push(("runs", "index `by_expr`"));
    }
    for (table, object) in &want {
        assert!(
            skipped.contains(&(table.to_string(), object.to_string())),
            "{table} {object} not named in {skipped:#?}"
        );
    }
    // Every object the import lacks is named; nothing else is.
    let runs = imported
        .tables
        .iter()
        .find(|t| t.name.as_str() == "runs")
        .expect("runs imported");
    let columns: Vec<&str> = runs.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(columns, ["id", "n"]);
    let indexes: Vec<&str> = runs.indexes.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(indexes, ["by_n"]);
    let checks: Vec<&str> = runs.checks.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(checks, ["chk_n"]);
    assert!(imported
        .tables
        .iter()
        .all(|t| t.name.as_str() != "only_tag"));
    assert_eq!(skipped.len(), want.len(), "{skipped:#?}");
    // What is written passes check.
    let dir = tempfile::tempdir().unwrap();
    schema_catalog::import::write_checked(&imported, dir.path()).expect("passes check");
}
