//! `import` against the real server (each flavor): a varied schema
//! built with plain DDL imports into a catalog that passes `check`, that
//! `verify` accepts against the source, and that `apply` turns into an empty
//! schema whose SHOW CREATE TABLE equals the source's, table for table. The
//! dump path writes the same files as the live path. What the format cannot
//! express is refused, or left out and listed with `skip_unsupported`.

use crate::common;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Duration;

use common::TestDb;
use schema_catalog::import::{self, ImportOptions, Imported};
use schema_catalog::{catalog, db, dump, Error};

const TIMEOUT: Duration = Duration::from_secs(10);

const SOURCE: &[&str] = &[
    "CREATE TABLE `Jobs` (
      `Id` bigint unsigned NOT NULL AUTO_INCREMENT COMMENT 'Surrogate key.',
      `Key` varbinary(64) NOT NULL,
      `Name` varchar(200) NOT NULL DEFAULT 'it''s' COMMENT 'A \"quoted\" name: yes.',
      `Kind` char(8) CHARACTER SET ascii COLLATE ascii_bin NULL,
      `Label` varchar(50) COLLATE utf8mb4_unicode_ci NULL,
      `Flag` boolean NOT NULL DEFAULT 0,
      `Tiny` tinyint NULL, `Small` smallint unsigned NULL, `Med` mediumint NULL,
      `Cnt` int NOT NULL DEFAULT -1,
      `Amount` decimal(12,4) NOT NULL DEFAULT 0.5000,
      `Ratio` float NULL, `Score` double NULL,
      `Blob1` blob, `MBlob` mediumblob, `LBlob` longblob,
      `Body` text, `MBody` mediumtext, `LBody` longtext,
      `Doc` json NULL,
      `Day` date NULL,
      `At` datetime NULL, `At3` datetime(3) NULL,
      `Ts` timestamp(6) NULL DEFAULT NULL,
      `Created` datetime(6) NOT NULL DEFAULT current_timestamp(6),
      `Bin` binary(16) NULL,
      PRIMARY KEY (`Id`),
      UNIQUE KEY `uq_jobs_key` (`Key`) COMMENT 'One per key.',
      KEY `idx_jobs_name_day` (`Name`, `Day`, `Id`)
    ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin COMMENT='Jobs, with every type.'",
    "CREATE TABLE `legacy_latin` (`code` varchar(20) NOT NULL, `note` text, PRIMARY KEY (`code`)) DEFAULT CHARSET=latin1 COLLATE=latin1_swedish_ci",
    "CREATE TABLE `NoPk` (`a` int NULL, `b` varchar(10) NULL, KEY `idx_a_b` (`a`, `b`)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci",
    "CREATE TABLE `Composite` (`a` int NOT NULL, `b` varchar(32) NOT NULL, `c` int NULL DEFAULT NULL, PRIMARY KEY (`a`, `b`), UNIQUE KEY `uq_c` (`c`)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
];

fn out_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("catalog-import-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

async fn import_live(db: &TestDb, opts: &ImportOptions) -> schema_catalog::Result<Imported> {
    let target = db::parse_url(&db.url()).unwrap();
    let mut s = db::connect(&target, TIMEOUT).await.unwrap();
    let sources = import::read_live(&mut s, &db.name, &opts.tables).await?;
    import::build(&target.display, sources, opts)
}

#[tokio::test]
async fn import_round_trips_check_verify_and_apply() {
    let source = TestDb::new().await;
    source.exec(SOURCE).await;
    let imported = import_live(&source, &ImportOptions::default())
        .await
        .unwrap();
    assert!(imported.skipped.is_empty());
    assert_eq!(imported.defaults.collation, "utf8mb4_bin", "most common");
    let dir = out_dir("roundtrip");
    let files = import::write(&imported, &dir).unwrap();
    assert_eq!(files.len(), 5, "catalog.yaml + one file per table");

    // check passes, without warnings
    let report = catalog::check(&dir);
    assert!(report.problems.is_empty(), "{}", report.render_human());
    let cat = report.catalog.unwrap();

    // verify against the source passes
    let v = common::verify_schema(&source, &cat).await;
    assert!(v.ok, "{:#?}", v.problems);
    assert!(v.unmanaged.is_empty(), "{:#?}", v.unmanaged);

    // apply to an empty schema reproduces the physical shape (and on
    // MariaDB SHOW CREATE TABLE) exactly
    let empty = common::assert_greenfield(&source, &common::catalog_tables(&cat)).await;
    if source.is_mariadb() {
        // MariaDB's SHOW CREATE TABLE does not depend on the DDL's spelling.
        assert_eq!(empty.snapshot().await, source.snapshot().await);
    }

    // the dump path writes the same files
    let file = dir.with_extension("sql");
    source.dump_no_data(&file);
    let d = dump::read_dump(&file, None).unwrap();
    assert_eq!(d.flavor, Some(source.flavor));
    let from_dump = import::from_dump(&d, &ImportOptions::default()).unwrap();
    let (_, live_files) = import::to_yaml(&imported);
    let (_, dump_files) = import::to_yaml(&from_dump);
    assert_eq!(dump_files, live_files);

    // --tables
    let only = import_live(
        &source,
        &ImportOptions::default()
            .tables(vec!["nopk".into()])
            .skip_unsupported(false),
    )
    .await
    .unwrap();
    assert_eq!(only.tables.len(), 1);
    assert_eq!(only.tables[0].name.as_str(), "NoPk");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_file(&file);
}

#[tokio::test]
async fn import_refuses_or_skips_what_the_format_cannot_express() {
    let source = TestDb::new().await;
    let hidden = source.hidden_index();
    let odd = format!(
        "CREATE TABLE `odd` (
               `id` int NOT NULL,
               `e` enum('a','b') NULL,
               `s` set('x','y') NULL,
               `u` timestamp NOT NULL DEFAULT current_timestamp() ON UPDATE current_timestamp(),
               `name` varchar(100) NULL,
               `body` text NULL,
               `q` int NULL,
               PRIMARY KEY (`id`),
               CONSTRAINT `chk_q` CHECK (`q` > 0),
               KEY `idx_prefix` (`name`(10)),
               FULLTEXT KEY `ft_body` (`body`),
               KEY `idx_ign` (`name`) {hidden},
               KEY `idx_enum` (`e`, `id`)
             ) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
    );
    source
        .exec(&[
            "CREATE TABLE `parent` (`id` int NOT NULL, PRIMARY KEY (`id`)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
            "CREATE TABLE `child` (`id` int NOT NULL, `pid` int NULL, PRIMARY KEY (`id`), CONSTRAINT `fk_child_parent` FOREIGN KEY (`pid`) REFERENCES `parent` (`id`)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
            "CREATE TABLE `parted` (`id` int NOT NULL, PRIMARY KEY (`id`)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin PARTITION BY HASH (`id`) PARTITIONS 2",
            &odd,
            "CREATE TABLE `rowfmt` (`id` int NOT NULL, PRIMARY KEY (`id`)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin ROW_FORMAT=COMPRESSED",
        ])
        .await;
    let err = import_live(&source, &ImportOptions::default())
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Unsupported { .. }), "{err}");
    assert!(
        !err.to_string().contains("--"),
        "the library gives no command-line advice: {err}"
    );

    let opts = ImportOptions::default().skip_unsupported(true);
    let imported = import_live(&source, &opts).await.unwrap();
    let got: BTreeSet<(String, String)> = imported
        .skipped
        .iter()
        .map(|u| (u.table.clone(), u.object.clone()))
        .collect();
    for (table, object) in [("parted", "table"), ("rowfmt", "table option ROW_FORMAT")] {
        assert!(
            got.contains(&(table.to_string(), object.to_string())),
            "{table} {object} not in {got:#?}"
        );
    }
    // A table without its ROW_FORMAT is another table: left out whole.
    assert!(
        imported.tables.iter().all(|t| t.name.as_str() != "rowfmt"),
        "{:?}",
        imported.tables
    );
    // A named foreign key is format v2; its parent is imported too.
    let child = imported
        .tables
        .iter()
        .find(|t| t.name.as_str() == "child")
        .unwrap();
    assert_eq!(
        child
            .foreign_keys
            .iter()
            .map(|f| schema_catalog::diff::Value::foreign_key(f).to_string())
            .collect::<Vec<_>>(),
        [if source.is_mariadb() {
            "FOREIGN KEY (`pid`) REFERENCES `parent` (`id`) ON DELETE RESTRICT ON UPDATE RESTRICT"
        } else {
            "FOREIGN KEY (`pid`) REFERENCES `parent` (`id`) ON DELETE NO ACTION ON UPDATE NO ACTION"
        }]
    );
    assert!(imported.external_tables.is_empty());
    // Imported alone, the child's parent is declared external.
    let only_child = ImportOptions::default().tables(vec!["child".into()]);
    let alone = import_live(&source, &only_child).await.unwrap();
    assert_eq!(alone.external_tables, ["parent"]);
    let odd = imported
        .tables
        .iter()
        .find(|t| t.name.as_str() == "odd")
        .unwrap();
    let cols: Vec<&str> = odd.columns.iter().map(|c| c.name.as_str()).collect();
    // enum, set and ON UPDATE CURRENT_TIMESTAMP are part of the format (v2).
    assert_eq!(cols, ["id", "e", "s", "u", "name", "body", "q"]);
    // Format v2 indexes (a declared prefix, FULLTEXT, invisible/ignored)
    // are imported, and idx_enum covers an importable column now.
    let mut idx: Vec<&str> = odd.indexes.iter().map(|i| i.name.as_str()).collect();
    idx.sort();
    assert_eq!(
        idx,
        ["ft_body", "idx_enum", "idx_ign", "idx_prefix"],
        "{:?}",
        odd.indexes
    );
    // A named CHECK is format v2 too.
    assert_eq!(odd.checks.len(), 1, "{:?}", odd.checks);
    assert_eq!(odd.checks[0].name.as_str(), "chk_q");
    for object in [
        "index `idx_prefix`",
        "index `ft_body`",
        "index `idx_ign`",
        "check `chk_q`",
    ] {
        assert!(!got.contains(&("odd".to_string(), object.to_string())));
    }
    for (_, object) in imported.skipped.iter().map(|u| (&u.table, &u.object)) {
        assert!(
            !["column `e`", "column `s`", "column `u`"].contains(&object.as_str()),
            "{object} is importable now"
        );
    }

    // What is left is a valid catalog the source satisfies.
    let dir = out_dir("skip");
    import::write(&imported, &dir).unwrap();
    let report = catalog::check(&dir);
    let cat = report.catalog.expect("valid");
    let v = common::verify_schema(&source, &cat).await;
    assert!(v.ok, "{:#?}", v.problems);
    let _ = std::fs::remove_dir_all(&dir);
}
