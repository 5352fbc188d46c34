//! One catalog for MariaDB and MySQL (each flavor): a foreign key with no
//! action clause reads `RESTRICT` on MariaDB and `NO ACTION` on MySQL, and
//! an explicit `NO ACTION` stays `NO ACTION` on both. InnoDB does the same
//! for all of them, so import writes one spelling (`restrict`, omitted),
//! the same file whichever server (or dump flavor) it came from, and that
//! catalog (or one saying `no action`) verifies against every spelling
//! and applies to an empty schema with no drift and a no-op second run.

use crate::common;

use common::{catalog_tables, TestDb};
use schema_catalog::import::{self, ImportOptions};
use schema_catalog::{catalog, Flavor};

const TIMEOUT: std::time::Duration = std::time::Duration::from_secs(20);

/// A parent and three children whose foreign keys differ only in how the
/// (same) action is spelled: omitted, `NO ACTION`, `RESTRICT`.
async fn three_spellings(db: &TestDb) {
    let child = |name: &str, actions: &str| {
        format!(
            "CREATE TABLE `{name}` (`Id` bigint unsigned NOT NULL, `QueueId` bigint unsigned NOT NULL,
              PRIMARY KEY (`Id`), KEY `idx_{name}_queue` (`QueueId`),
              CONSTRAINT `fk_{name}_queue` FOREIGN KEY (`QueueId`) REFERENCES `queue` (`Id`){actions})
              ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
        )
    };
    db.exec(&[
        "CREATE TABLE `queue` (`Id` bigint unsigned NOT NULL, PRIMARY KEY (`Id`))
          ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
        &child("job_omitted", ""),
        &child("job_no_action", " ON DELETE NO ACTION ON UPDATE NO ACTION"),
        &child("job_restrict", " ON DELETE RESTRICT ON UPDATE RESTRICT"),
    ])
    .await;
}

/// The catalog's YAML files, as import writes them.
fn yaml_of(imported: &import::Imported) -> Vec<(String, String)> {
    import::to_yaml(imported).1
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_action_and_restrict_are_one_catalog_on_every_server() {
    let db = TestDb::new().await;
    three_spellings(&db).await;

    // The server reports the spellings apart (the reason for this test).
    let omitted = db.show_create("job_no_action").await;
    assert!(
        omitted.contains("NO ACTION") || db.flavor == Flavor::MySql,
        "{omitted}"
    );

    // Live import: one spelling, no action key written at all.
    let target = schema_catalog::db::parse_url(&db.url()).expect("test URL parses");
    let mut s = schema_catalog::db::connect(&target, TIMEOUT)
        .await
        .expect("connect");
    let sources = import::read_live(&mut s, &db.name, &[])
        .await
        .expect("read live");
    let live = import::build(&target.display, sources, &ImportOptions::default()).expect("import");
    let files = yaml_of(&live);
    let text = |name: &str| {
        files
            .iter()
            .find(|(f, _)| f.starts_with(name))
            .unwrap_or_else(|| panic!("{name} in {files:#?}"))
            .1
            .clone()
    };
    for name in ["job_omitted", "job_no_action", "job_restrict"] {
        let yaml = text(name);
        assert!(
            !yaml.contains("on_delete") && !yaml.contains("on_update"),
            "{name} spells an action: {yaml}"
        );
        let others = yaml.replace(name, "job");
        assert_eq!(
            others,
            text("job_restrict").replace("job_restrict", "job"),
            "{name} imports like the explicit RESTRICT"
        );
    }

    // A dump read as either flavor (MariaDB's omitted action is RESTRICT,
    // MySQL's NO ACTION) imports into the same files as the live server.
    let scratch = tempfile::tempdir().unwrap();
    let file = scratch.path().join("dump.sql");
    db.dump_no_data(&file);
    for flavor in [Flavor::MariaDb, Flavor::MySql] {
        let dumped = schema_catalog::dump::read_dump(&file, Some(flavor)).expect("dump parses");
        let from_dump = import::from_dump(&dumped, &ImportOptions::default()).expect("imports");
        for name in ["job_omitted", "job_no_action", "job_restrict"] {
            let (_, y) = yaml_of(&from_dump)
                .into_iter()
                .find(|(f, _)| f.starts_with(name))
                .unwrap();
            assert!(
                !y.contains("on_delete") && !y.contains("on_update"),
                "{flavor:?} dump: {y}"
            );
        }
    }

    // The imported catalog verifies against every spelling, and so does
    // one that says `no action` explicitly.
    let out = scratch.path().join("imported");
    schema_catalog::import::write_checked(&live, &out).expect("import passes check");
    let cat = catalog::load(&out).expect("the import loads");
    common::assert_verified_and_idle(&db, &cat).await;
    let spelled = scratch.path().join("spelled");
    std::fs::create_dir_all(&spelled).unwrap();
    for entry in std::fs::read_dir(&out).unwrap() {
        let path = entry.unwrap().path();
        let mut yaml = std::fs::read_to_string(&path).unwrap();
        if yaml.contains("references:") {
            yaml = yaml.replace(
                "    columns:\n    - Id\n",
                "    columns:\n    - Id\n  on_delete: no action\n  on_update: no action\n",
            );
            assert!(yaml.contains("on_delete: no action"), "{yaml}");
        }
        std::fs::write(spelled.join(path.file_name().unwrap()), yaml).unwrap();
    }
    let no_action = catalog::load(&spelled).expect("`no action` loads");
    common::assert_verified_and_idle(&db, &no_action).await;

    // Greenfield from the imported catalog: the same tables, no drift, and
    // a second run does nothing; the `no action` catalog agrees with it.
    let empty = TestDb::new().await;
    common::apply_converged(&empty, &catalog_tables(&cat)).await;
    common::assert_verified_and_idle(&empty, &no_action).await;
}

/// One hand-written table file against the same physical table created
/// with each server's (and each user's) spelling of the same thing:
/// `utf8` / `utf8mb3`, `bool` / `tinyint(1)`, `int(11)` / `int`,
/// `current_timestamp()` / `CURRENT_TIMESTAMP` (also in ON UPDATE), a
/// quoted / unquoted numeric default, `DEFAULT NULL` / no default clause.
/// Every spelling verifies against the one catalog, and import writes one
/// file for all of them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_catalog_covers_every_spelling_of_the_same_columns() {
    const TABLE: &str = "table: spell
charset: utf8mb4
collation: utf8mb4_bin
columns:
  - {name: Id, type: int, nullable: false}
  - {name: Flag, type: boolean, nullable: false, default: 0}
  - {name: Code, type: varchar(8), charset: utf8mb3, collation: utf8mb3_bin}
  - {name: Note, type: varchar(8), default: \"'pending'\"}
  - {name: Opt, type: varchar(8)}
  - {name: At, type: timestamp, nullable: false, default: CURRENT_TIMESTAMP, on_update: CURRENT_TIMESTAMP}
primary_key: [Id]
";
    let spellings = [
        "CREATE TABLE `spell` (`Id` int(11) NOT NULL, `Flag` bool NOT NULL DEFAULT '0',
          `Code` varchar(8) CHARACTER SET utf8 COLLATE utf8_bin DEFAULT NULL,
          `Note` varchar(8) DEFAULT 'pending', `Opt` varchar(8) DEFAULT NULL,
          `At` timestamp NOT NULL DEFAULT current_timestamp() ON UPDATE current_timestamp(),
          PRIMARY KEY (`Id`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
        "CREATE TABLE `spell` (`Id` int NOT NULL, `Flag` tinyint(1) NOT NULL DEFAULT 0,
          `Code` varchar(8) CHARACTER SET utf8mb3 COLLATE utf8mb3_bin,
          `Note` varchar(8) DEFAULT 'pending', `Opt` varchar(8),
          `At` timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
          PRIMARY KEY (`Id`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
    ];
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("catalog");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("spell.yaml"), TABLE).unwrap();
    let cat = catalog::load(&dir).expect("the hand-written catalog loads");
    let mut imported_files = Vec::new();
    for ddl in spellings {
        let db = TestDb::new().await;
        db.exec(&[ddl]).await;
        let v = common::verify_schema(&db, &cat).await;
        assert!(v.ok, "{ddl}\n{:#?}", v.problems);
        common::assert_idle(&db, &catalog_tables(&cat)).await;
        let target = schema_catalog::db::parse_url(&db.url()).expect("test URL parses");
        let mut s = schema_catalog::db::connect(&target, TIMEOUT)
            .await
            .expect("connect");
        let sources = import::read_live(&mut s, &db.name, &[])
            .await
            .expect("read live");
        let live = import::build("server", sources, &ImportOptions::default()).expect("import");
        imported_files.push(yaml_of(&live));
    }
    assert_eq!(imported_files[0], imported_files[1], "one import for both");
}
