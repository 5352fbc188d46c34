//! An explicit table option that says what the server does anyway (each
//! flavor): a legacy table created with `ROW_FORMAT=DYNAMIC` (InnoDB's
//! default; both servers show it in CREATE_OPTIONS and SHOW CREATE TABLE,
//! an implicit one in neither) imports live and from a dump into the same
//! file as the implicit table, with a note naming the option, and the
//! catalog verifies against it and applies with no step. A table with
//! another row format (COMPRESSED, KEY_BLOCK_SIZE) is still refused, and
//! the refusal says the statement that would make it the catalog's table.

use crate::common;

use common::TestDb;
use mysql_async::prelude::Queryable;
use schema_catalog::diff::ProblemKind;
use schema_catalog::import::{self, ImportOptions, Imported};
use schema_catalog::{catalog, Flavor};

const TIMEOUT: std::time::Duration = std::time::Duration::from_secs(20);

fn create(name: &str, options: &str) -> String {
    format!(
        "CREATE TABLE `{name}` (`Id` bigint unsigned NOT NULL, `State` varchar(32) NOT NULL,
          PRIMARY KEY (`Id`), KEY `idx_{name}_state` (`State`))
          ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin{options}"
    )
}

async fn import_live(db: &TestDb) -> schema_catalog::Result<Imported> {
    let target = schema_catalog::db::parse_url(&db.url()).expect("test URL parses");
    let mut s = schema_catalog::db::connect(&target, TIMEOUT)
        .await
        .expect("connect");
    let sources = import::read_live(&mut s, &db.name, &[]).await?;
    import::build(&target.display, sources, &ImportOptions::default())
}

/// The YAML of `table` with its name replaced by `T`.
fn yaml_of(imported: &Imported, table: &str) -> String {
    import::to_yaml(imported)
        .1
        .into_iter()
        .find(|(f, _)| f.starts_with(table))
        .unwrap_or_else(|| panic!("{table}"))
        .1
        .replace(table, "T")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explicit_dynamic_row_format_imports_and_verifies_with_a_note() {
    let db = TestDb::new().await;
    db.exec(&[
        &create("legacy", " ROW_FORMAT=DYNAMIC"),
        &create("fresh", ""),
        "INSERT INTO `legacy` VALUES (1, 'queued'), (2, 'done')",
    ])
    .await;
    // What the servers report (the premise of the rule).
    let mut conn = db.pool.get_conn().await.unwrap();
    let options: Vec<(String, String, String)> = conn
        .exec(
            "SELECT TABLE_NAME, ROW_FORMAT, CREATE_OPTIONS FROM information_schema.TABLES
             WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME",
            (&db.name,),
        )
        .await
        .unwrap();
    assert_eq!(
        options,
        [
            ("fresh".into(), "Dynamic".into(), "".into()),
            (
                "legacy".into(),
                "Dynamic".into(),
                "row_format=DYNAMIC".into()
            )
        ]
    );
    let default: String = conn
        .query_first("SELECT @@innodb_default_row_format")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(default.to_ascii_lowercase(), "dynamic");
    drop(conn);
    assert!(db
        .show_create("legacy")
        .await
        .contains("ROW_FORMAT=DYNAMIC"));

    // Live import: accepted, the same file as the implicit table, a note.
    let live = import_live(&db).await.expect("ROW_FORMAT=DYNAMIC imports");
    assert!(live.skipped.is_empty(), "{:#?}", live.skipped);
    assert_eq!(yaml_of(&live, "legacy"), yaml_of(&live, "fresh"));
    assert_eq!(live.notes.len(), 1, "{:#?}", live.notes);
    let note = live.notes[0].to_string();
    assert!(
        note.contains("legacy") && note.contains("ROW_FORMAT") && note.contains("DYNAMIC"),
        "{note}"
    );

    // From a dump by the flavor's own client: the same files and note.
    let scratch = tempfile::tempdir().unwrap();
    let file = scratch.path().join("dump.sql");
    db.dump_no_data(&file);
    let dumped = schema_catalog::dump::read_dump(&file, None).expect("dump parses");
    let from_dump = import::from_dump(&dumped, &ImportOptions::default()).expect("dump imports");
    assert_eq!(import::to_yaml(&from_dump).1, import::to_yaml(&live).1);
    assert_eq!(from_dump.notes.len(), 1, "{:#?}", from_dump.notes);

    // Verify and apply accept the legacy table as the catalog's.
    let out = scratch.path().join("imported");
    schema_catalog::import::write_checked(&live, &out).expect("passes check");
    let cat = catalog::load(&out).expect("loads");
    let before = db.snapshot().await;
    common::assert_verified_and_idle(&db, &cat).await;
    assert_eq!(db.snapshot().await, before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_row_format_is_refused_with_the_statement_that_fixes_it() {
    let db = TestDb::new().await;
    let fix = "ALTER TABLE `squeezed` ROW_FORMAT=DEFAULT KEY_BLOCK_SIZE=0";
    db.exec(&[&create(
        "squeezed",
        " ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8",
    )])
    .await;
    let err = import_live(&db).await.expect_err("COMPRESSED is refused");
    let text = err.to_string();
    assert!(text.contains("ROW_FORMAT") && text.contains(fix), "{text}");

    // The dump says the same.
    let scratch = tempfile::tempdir().unwrap();
    let file = scratch.path().join("dump.sql");
    db.dump_no_data(&file);
    let dumped = schema_catalog::dump::read_dump(&file, None).expect("dump parses");
    let err = import::from_dump(&dumped, &ImportOptions::default()).expect_err("refused");
    assert!(err.to_string().contains(fix), "{err}");

    // Verify of the catalog's table names the option and the statement.
    let dir = scratch.path().join("catalog");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("squeezed.yaml"),
        "table: squeezed
columns:
  - {name: Id, type: bigint unsigned, nullable: false}
  - {name: State, type: varchar(32), nullable: false}
primary_key: [Id]
indexes:
  - {name: idx_squeezed_state, columns: [State]}
",
    )
    .unwrap();
    let cat = catalog::load(&dir).expect("loads");
    let v = common::verify_schema(&db, &cat).await;
    let p = v
        .problems
        .iter()
        .find(|p| p.kind == ProblemKind::Unrecognised)
        .unwrap_or_else(|| panic!("{:#?}", v.problems));
    assert!(p.actual.to_string().contains(fix), "{p}");

    // Running the statement clears the table options (on MariaDB the
    // primary key keeps its own KEY_BLOCK_SIZE, which the net still names).
    db.exec(&[fix]).await;
    let v = common::verify_schema(&db, &cat).await;
    if db.flavor == Flavor::MySql {
        assert!(v.ok, "{:#?}", v.problems);
    } else {
        assert!(
            v.problems
                .iter()
                .all(|p| p.actual.to_string().contains("KEY_BLOCK_SIZE")),
            "{:#?}",
            v.problems
        );
    }
}
