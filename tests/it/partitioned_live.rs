//! Partitioned tables stay out of catalog format v2:
//! live inspection and the dump parser both see the partitioning, import
//! refuses the table naming it, and verify / apply refuse a catalog table
//! that is partitioned on the server, issuing no DDL and changing nothing.

use crate::common;

use std::time::Duration;

use common::TestDb;
use schema_catalog::diff::ProblemKind;
use schema_catalog::import::{self, ImportOptions};
use schema_catalog::{db, dump, Error, TableKind};

const TIMEOUT: Duration = Duration::from_secs(10);

const PARTED: &str = "CREATE TABLE `Parted` (`Id` bigint unsigned NOT NULL, `Note` varchar(20) NULL, PRIMARY KEY (`Id`)) \
     DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin PARTITION BY HASH (`Id`) PARTITIONS 2";

#[tokio::test]
async fn partitioned_tables_are_refused_by_import_verify_and_apply() {
    let db = TestDb::new().await;
    db.exec(&[PARTED]).await;
    let target = db::parse_url(&db.url()).unwrap();
    let mut s = db::connect(&target, TIMEOUT).await.unwrap();

    // live inspection sees it
    let live = schema_catalog::inspect::inspect_table(&mut s, &db.name, "Parted")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(live.kind, TableKind::Partitioned("partitioned".into()));

    // import refuses it, naming the table and saying why
    let sources = import::read_live(&mut s, &db.name, &[]).await.unwrap();
    let err = import::build(&target.display, sources, &ImportOptions::default()).unwrap_err();
    assert!(matches!(err, Error::Unsupported { .. }), "{err}");
    let text = err.to_string();
    assert!(text.contains("`Parted`"), "{text}");
    assert!(
        text.contains("partitioned tables are not supported yet"),
        "{text}"
    );
    assert!(
        text.contains("PARTITION BY"),
        "the definition names it: {text}"
    );

    // the dump path refuses it the same way
    let scratch = tempfile::tempdir().unwrap();
    let file = scratch.path().join("parted.sql");
    db.dump_no_data(&file);
    let d = dump::read_dump(&file, None).unwrap();
    let err = import::from_dump(&d, &ImportOptions::default()).unwrap_err();
    assert!(
        err.to_string()
            .contains("partitioned tables are not supported yet"),
        "{err}"
    );
    let _ = std::fs::remove_file(&file);

    // a catalog declaring the table (and a column it lacks) is refused
    let mut want = dump::parse_create_table(
        "CREATE TABLE `Parted` (`Id` bigint unsigned NOT NULL, `Note` varchar(20) NULL, `Extra` int NULL, PRIMARY KEY (`Id`)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin ENGINE=InnoDB",
    )
    .unwrap();
    want.engine = Some("InnoDB".into());
    let report = common::assert_apply_refused(&db, std::slice::from_ref(&want), &[]).await;
    let p = report
        .drift
        .iter()
        .find(|p| p.kind == ProblemKind::Partitioned)
        .unwrap_or_else(|| panic!("{:#?}", report.drift));
    assert_eq!(p.table, "Parted");
    assert!(
        p.actual
            .to_string()
            .contains("partitioned tables are not supported yet"),
        "{p:?}"
    );

    let dir = common::catalog_dir(&[
        ("catalog.yaml", "defaults:\n  collation: utf8mb4_bin\n"),
        (
            "parted.yaml",
            "table: Parted\ncolumns:\n  - name: Id\n    type: bigint unsigned\n    nullable: false\n  - name: Note\n    type: varchar(20)\nprimary_key: [Id]\n",
        ),
    ]);
    let cat = schema_catalog::catalog::load(dir.path()).unwrap();
    let v = schema_catalog::verify(
        &mut s,
        &cat,
        &schema_catalog::VerifyOptions::default().schema(&db.name),
    )
    .await
    .unwrap();
    assert!(!v.ok);
    assert!(
        v.problems
            .iter()
            .any(|p| p.kind == ProblemKind::Partitioned),
        "{:#?}",
        v.problems
    );
}
