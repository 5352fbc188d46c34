//! Upgraded tables read as fresh installs (live, each flavor): after apply,
//! `SHOW CREATE TABLE` of every upgraded table equals what the server's
//! own DDL produced for the same catalog in a fresh, empty schema. Only
//! `AUTO_INCREMENT=N` is normalised.
//!
//! Three histories: the shipped catalog over an older shape of each of its
//! tables (nullable columns and B-tree indexes still missing, built with
//! plain DDL); the legacy releases in `fixtures/legacy` (dumps of earlier
//! installations) upgraded by apply; and a real project's kind of history
//! with CHECK constraints at column and table level, generated columns and
//! a table default collation of its own: the older and the newer release
//! each built by their own plain SQL, the catalog imported from the newer
//! one (through the import gate and `catalog check`), applied to the
//! older. There the upgraded tables must also equal the newer release's
//! own build.
//!
//! What this pins: MariaDB keeps a column-level CHECK apart from a
//! table-level one (apply used to recreate it at table level), and MySQL
//! remembers a column collation stated in DDL and prints it (apply used to
//! state it on every column, so an added column read `CHARACTER SET
//! utf8mb4 COLLATE ...` where a fresh one read `varchar(16)`).

use crate::common;

use common::applied::apply_converged;
use common::{catalog_tables, repo_root, shipped_catalog, TestDb};
use schema_catalog::model::{IndexKind, Table};
use schema_catalog::Flavor;

/// `SHOW CREATE TABLE` of `tables` in `db`, `AUTO_INCREMENT=N` removed.
async fn shown(db: &TestDb, tables: &[Table]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for t in tables {
        let text = db.show_create(t.name.as_str()).await;
        out.push((t.name.to_string(), without_auto_increment(&text)));
    }
    out
}

/// The text without its ` AUTO_INCREMENT=N` table option (the next value,
/// which rows and not the DDL decide).
fn without_auto_increment(text: &str) -> String {
    let Some(at) = text.rfind(" AUTO_INCREMENT=") else {
        return text.to_string();
    };
    let rest = &text[at + " AUTO_INCREMENT=".len()..];
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    if digits == 0 {
        return text.to_string();
    }
    format!("{}{}", &text[..at], &rest[digits..])
}

/// What the server's own DDL makes of `tables` in a fresh schema (apply
/// on an empty one: one CREATE TABLE each).
async fn fresh(tables: &[Table]) -> Vec<(String, String)> {
    let db = TestDb::new().await;
    apply_converged(&db, tables).await;
    shown(&db, tables).await
}

/// Applies `tables` to `db` (an older release), which must converge, and
/// requires every table to read as in `fresh`, naming the first that
/// does not.
async fn assert_upgrades_to(db: &TestDb, tables: &[Table], fresh: &[(String, String)], what: &str) {
    let before = shown(db, tables).await;
    let report = apply_converged(db, tables).await;
    assert!(!report.steps.is_empty(), "{what}: nothing was upgraded");
    let upgraded = shown(db, tables).await;
    for (((name, want), (_, got)), (_, old)) in fresh.iter().zip(&upgraded).zip(&before) {
        let want = &with_stated_collations(want, old);
        assert_eq!(
            got, want,
            "{what} on {}: `{name}` after apply differs from a fresh install",
            db.flavor
        );
    }
}

/// `fresh` with each column line that `old` (the table before the
/// upgrade) prints with a stated `CHARACTER SET` taken from `old`: MySQL
/// remembers a collation stated when the column was made and prints it
/// ever after, and apply never rewrites an existing column, so a column
/// an earlier release made that way (the `_System_WorkItem` of
/// fixtures/legacy/*-mysql.sql: every string column states
/// `CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`) keeps that text. Every
/// other line, the added columns and keys included, must be a fresh
/// install's.
fn with_stated_collations(fresh: &str, old: &str) -> String {
    let column = |line: &str| {
        let line = line.trim_start();
        line.starts_with('`')
            .then(|| line[1..].split('`').next().unwrap_or("").to_string())
    };
    fresh
        .lines()
        .map(|line| {
            let name = column(line);
            old.lines()
                .find(|o| o.contains(" CHARACTER SET ") && name.is_some() && column(o) == name)
                .unwrap_or(line)
                .to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// An older shape of `t`: without its plain B-tree indexes and without
/// the nullable, non-generated columns nothing else of the table needs
/// (no key, check, foreign key or generated expression names them): what
/// a release before those columns and indexes would hold.
fn older(t: &Table) -> Table {
    let mut old = t.clone();
    old.indexes.retain(|i| i.kind != IndexKind::BTree);
    let mentioned = |name: &str| {
        let quoted = schema_catalog::quote_ident(name).to_ascii_lowercase();
        let kept_parts = old
            .indexes
            .iter()
            .flat_map(|i| &i.parts)
            .chain(&old.primary_key)
            .any(|p| {
                p.column_name()
                    .is_some_and(|c| c.as_str().eq_ignore_ascii_case(name))
            });
        kept_parts
            || old
                .checks
                .iter()
                .any(|c| c.expression.to_ascii_lowercase().contains(&quoted))
            || old.columns.iter().any(|c| {
                c.generated
                    .as_ref()
                    .is_some_and(|g| g.expression.to_ascii_lowercase().contains(&quoted))
            })
            || old.foreign_keys.iter().any(|f| {
                f.columns
                    .iter()
                    .any(|c| c.as_str().eq_ignore_ascii_case(name))
            })
    };
    let drop: Vec<String> = old
        .columns
        .iter()
        .filter(|c| c.nullable && c.generated.is_none() && !c.auto_increment)
        .filter(|c| !mentioned(c.name.as_str()))
        .map(|c| c.name.to_string())
        .collect();
    old.columns.retain(|c| !drop.contains(&c.name.to_string()));
    old
}

/// The shipped catalog over an older shape of each of its tables.
#[tokio::test]
async fn the_shipped_catalog_upgrades_to_a_fresh_install() {
    let tables = catalog_tables(&shipped_catalog());
    let want = fresh(&tables).await;
    let db = TestDb::new().await;
    let creates: Vec<String> = tables
        .iter()
        .map(|t| schema_catalog::ddl::create_table(&older(t), db.flavor))
        .collect();
    db.exec(&creates.iter().map(String::as_str).collect::<Vec<_>>())
        .await;
    assert_upgrades_to(&db, &tables, &want, "the shipped catalog").await;
}

/// Every release in `fixtures/legacy` for the flavor (built by earlier
/// releases; the drifted one is refused, not upgraded), upgraded to the
/// shipped catalog.
#[tokio::test]
async fn legacy_releases_upgrade_to_a_fresh_install() {
    let tables = catalog_tables(&shipped_catalog());
    let want = fresh(&tables).await;
    for release in ["r1", "r2"] {
        let db = TestDb::new().await;
        let file = repo_root().join(format!(
            "fixtures/legacy/{release}-{}.sql",
            db.flavor.name()
        ));
        db.exec_batch(&std::fs::read_to_string(&file).unwrap())
            .await;
        assert_upgrades_to(&db, &tables, &want, release).await;
    }
}

/// A table collation other than the schema's on this flavor (MySQL's
/// utf8mb4 default, MariaDB's).
fn ci(flavor: Flavor) -> &'static str {
    match flavor {
        Flavor::MariaDb => "utf8mb4_general_ci",
        _ => "utf8mb4_0900_ai_ci",
    }
}

/// The older release: column- and table-level CHECKs, generated columns,
/// a table of its own default collation.
fn older_release(flavor: Flavor) -> String {
    format!(
        "CREATE TABLE `executions` (
           `id` int NOT NULL DEFAULT 0 CHECK (`id` = 0),
           `kind` varchar(16) NOT NULL DEFAULT 'x' CHECK (`kind` in ('x', 'y')),
           `amount` int NULL,
           PRIMARY KEY (`id`),
           CONSTRAINT `amount_positive` CHECK (`amount` >= 0)
         ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
         CREATE TABLE `payloads` (
           `id` bigint NOT NULL AUTO_INCREMENT,
           `body` varchar(64) NOT NULL,
           `body_len` int GENERATED ALWAYS AS (char_length(`body`)) STORED,
           `loud` varchar(64) GENERATED ALWAYS AS (upper(`body`)) VIRTUAL,
           PRIMARY KEY (`id`)
         ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
         CREATE TABLE `tasks` (
           `id` bigint NOT NULL,
           `state` varchar(16) NOT NULL,
           PRIMARY KEY (`id`)
         ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE={ci};
         INSERT INTO `executions` (`id`, `kind`, `amount`) VALUES (0, 'y', 5);
         INSERT INTO `payloads` (`body`) VALUES ('abcdefgh');
         INSERT INTO `tasks` VALUES (1, 'running')",
        ci = ci(flavor)
    )
}

/// The newer release: each table with one more nullable column (one of
/// another collation than its table's) and one more index.
fn newer_release(flavor: Flavor) -> String {
    format!(
        "CREATE TABLE `executions` (
           `id` int NOT NULL DEFAULT 0 CHECK (`id` = 0),
           `kind` varchar(16) NOT NULL DEFAULT 'x' CHECK (`kind` in ('x', 'y')),
           `amount` int NULL,
           `note` varchar(16) NULL,
           PRIMARY KEY (`id`),
           KEY `by_note` (`note`),
           CONSTRAINT `amount_positive` CHECK (`amount` >= 0)
         ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
         CREATE TABLE `payloads` (
           `id` bigint NOT NULL AUTO_INCREMENT,
           `body` varchar(64) NOT NULL,
           `body_len` int GENERATED ALWAYS AS (char_length(`body`)) STORED,
           `loud` varchar(64) GENERATED ALWAYS AS (upper(`body`)) VIRTUAL,
           `label` varchar(32) CHARACTER SET utf8mb4 COLLATE {ci} NULL,
           PRIMARY KEY (`id`),
           KEY `by_len` (`body_len`)
         ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
         CREATE TABLE `tasks` (
           `id` bigint NOT NULL,
           `state` varchar(16) NOT NULL,
           `queue` varchar(16) NULL,
           PRIMARY KEY (`id`),
           KEY `by_queue` (`queue`, `state`)
         ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE={ci}",
        ci = ci(flavor)
    )
}

/// The catalog `catalog import` writes from `db` (live), through the
/// import gate (`catalog check`) and loaded back.
async fn imported(db: &TestDb) -> Vec<Table> {
    use schema_catalog::import::{self, ImportOptions};
    let target = schema_catalog::db::parse_url(&db.url()).unwrap();
    let mut s = schema_catalog::db::connect(&target, std::time::Duration::from_secs(20))
        .await
        .unwrap();
    let sources = import::read_live(&mut s, &db.name, &[]).await.unwrap();
    let live = import::build(&target.display, sources, &ImportOptions::default()).unwrap();
    assert!(live.skipped.is_empty(), "{:#?}", live.skipped);
    let dir = common::scratch_dir("upgrade-show-create");
    let _ = std::fs::remove_dir_all(&dir);
    schema_catalog::import_gate::write_checked(&live, &dir).expect("import passes check");
    let cat = schema_catalog::catalog::load(&dir).expect("the import loads");
    let _ = std::fs::remove_dir_all(&dir);
    catalog_tables(&cat)
}

/// A project's history with CHECKs at both levels, generated columns and
/// a table collation of its own: the older release upgraded by the
/// catalog imported from the newer equals a fresh install of that catalog
/// and the newer release's own build, text for text.
#[tokio::test]
async fn a_release_history_with_checks_and_generated_columns_upgrades_exactly() {
    let newer = TestDb::new().await;
    newer.exec_batch(&newer_release(newer.flavor)).await;
    let tables = imported(&newer).await;
    let upstream = shown(&newer, &tables).await;
    if newer.flavor == Flavor::MariaDb {
        // The level survives import: two column-level checks, one table-level.
        let executions = tables
            .iter()
            .find(|t| t.name.as_str() == "executions")
            .unwrap();
        let levels: Vec<(&str, &str)> = executions
            .checks
            .iter()
            .map(|c| (c.name.as_str(), c.level.name()))
            .collect();
        assert_eq!(
            levels,
            [
                ("amount_positive", "table"),
                ("id", "column"),
                ("kind", "column")
            ]
        );
    }
    let want = fresh(&tables).await;
    assert_eq!(
        want, upstream,
        "a fresh install of the imported catalog reads as the newer release's own build"
    );
    let older = TestDb::new().await;
    older.exec_batch(&older_release(older.flavor)).await;
    assert_upgrades_to(&older, &tables, &want, "the release history").await;
    // Rows kept, and the verify net agrees: a second apply is idle.
    let sum = older
        .checksum("executions", &["id", "kind", "amount"])
        .await;
    assert_eq!(sum.0, 1);
    common::applied::assert_idle(&older, &tables).await;
}

/// MariaDB: a column-level CHECK and a table-level one of the same name
/// and condition are different constraints; verify says which.
#[tokio::test]
async fn mariadb_compares_a_checks_level() {
    let db = TestDb::new().await;
    if db.flavor != Flavor::MariaDb {
        // MySQL keeps no level: the same table is exact there (the
        // history test above covers it); nothing to compare.
        db.exec_batch(
            "CREATE TABLE `t` (`id` int NOT NULL, CONSTRAINT `id` CHECK (`id` = 0), PRIMARY KEY (`id`)) \
             ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
        )
        .await;
        let cat = column_check_catalog();
        let v = common::applied::verify_schema(&db, &cat).await;
        assert!(v.ok, "{:#?}", v.problems);
        return;
    }
    db.exec_batch(
        "CREATE TABLE `t` (`id` int NOT NULL, CONSTRAINT `id` CHECK (`id` = 0), PRIMARY KEY (`id`)) \
         ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
    )
    .await;
    let cat = column_check_catalog();
    common::applied::assert_verify_fails(
        &db,
        &cat,
        "id",
        schema_catalog::diff::ProblemKind::CheckLevel,
    )
    .await;
    // The inspection reads the level (the net, comparing it with SHOW
    // CREATE TABLE, passed the table as plain).
    let target = schema_catalog::db::parse_url(&db.url()).unwrap();
    let mut s = schema_catalog::db::connect(&target, std::time::Duration::from_secs(20))
        .await
        .unwrap();
    let read = schema_catalog::inspect::inspect_table(&mut s, &db.name, "t")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(read.kind, schema_catalog::model::TableKind::Base);
    assert_eq!(
        read.checks[0].level,
        schema_catalog::model::CheckLevel::Table
    );
    // The catalog's column-level check on a new table: created in its
    // column, read back at column level, verify passes.
    let fresh_db = TestDb::new().await;
    apply_converged(&fresh_db, &catalog_tables(&cat)).await;
    let text = fresh_db.show_create("t").await;
    assert!(
        text.contains("`id` int(11) NOT NULL CHECK (`id` = 0)"),
        "{text}"
    );
    let v = common::applied::verify_schema(&fresh_db, &cat).await;
    assert!(v.ok, "{:#?}", v.problems);
}

fn column_check_catalog() -> schema_catalog::catalog::Catalog {
    let dir = common::catalog_dir(&[
        ("catalog.yaml", "tidb: {check_constraints: enforced}\n"),
        (
            "t.yaml",
            "table: t\ncolumns:\n  - name: id\n    type: int\n    nullable: false\nprimary_key: [id]\n\
             checks:\n  - name: id\n    expression: id = 0\n    level: column\n",
        ),
    ]);
    schema_catalog::catalog::load(dir.path()).expect("catalog loads")
}
