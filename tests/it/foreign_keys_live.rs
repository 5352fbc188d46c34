//! Format v2 foreign keys against the real server (each flavor): a catalog
//! whose child table sorts before its parent is applied to an empty schema
//! (the parent is created first), enforced by the server, verified,
//! re-applied with no steps, and imported back (live, through the import
//! gate, and from a dump) into the same foreign keys. A live foreign key of
//! the catalog's name with another action is drift, and a declared foreign
//! key missing from an existing table is refused as not online: apply
//! issues no DDL, the schema and the rows stay as they were.

use crate::common;

use common::{catalog_tables, TestDb};
use mysql_async::prelude::Queryable;
use schema_catalog::catalog::{self, Catalog};
use schema_catalog::diff::ProblemKind;
use schema_catalog::{db, Table};

const TIMEOUT: std::time::Duration = std::time::Duration::from_secs(20);

fn fixture() -> Catalog {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/format-v2/foreign-keys");
    catalog::load(&dir).expect("the foreign keys fixture loads")
}

/// Each foreign key of `t` as one line, sorted by name.
fn foreign_keys(t: &Table) -> Vec<String> {
    let mut v: Vec<String> = t
        .foreign_keys
        .iter()
        .map(|f| {
            format!(
                "{}: {}",
                f.name.key(),
                schema_catalog::diff::Value::foreign_key(f)
            )
        })
        .collect();
    v.sort();
    v
}

fn table<'a>(tables: &'a [Table], name: &str) -> &'a Table {
    tables
        .iter()
        .find(|t| t.name.as_str() == name)
        .unwrap_or_else(|| panic!("{name} in {tables:#?}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn declared_foreign_keys_round_trip_in_dependency_order() {
    let db = TestDb::new().await;
    let cat = fixture();
    let wants = catalog_tables(&cat);
    assert_eq!(
        wants.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
        ["_System_Item", "_System_Queue"],
        "the catalog lists the child first"
    );
    let report = common::apply_converged(&db, &wants).await;
    let created: Vec<&str> = report.steps.iter().map(|s| s.table.as_str()).collect();
    assert_eq!(created, ["_System_Queue", "_System_Item"], "parent first");
    let ddl = db.show_create("_System_Item").await;
    for name in ["fk_item_queue", "fk_item_queue_name", "fk_item_parent"] {
        assert!(
            ddl.contains(&format!("CONSTRAINT `{name}` FOREIGN KEY")),
            "{ddl}"
        );
    }

    // The server enforces them: an item of an unknown queue is refused,
    // and deleting a queue deletes its items (ON DELETE CASCADE).
    let mut conn = db.pool.get_conn().await.unwrap();
    conn.query_drop("INSERT INTO `_System_Queue` VALUES (1, 'q')")
        .await
        .unwrap();
    conn.query_drop("INSERT INTO `_System_Item` VALUES (10, 1, 'q', NULL)")
        .await
        .unwrap();
    let orphan = conn
        .query_drop("INSERT INTO `_System_Item` VALUES (11, 2, NULL, NULL)")
        .await;
    assert!(orphan.is_err(), "fk_item_queue holds");
    conn.query_drop("DELETE FROM `_System_Queue` WHERE `Id` = 1")
        .await
        .unwrap();
    let left: Option<u64> = conn
        .query_first("SELECT COUNT(*) FROM `_System_Item`")
        .await
        .unwrap();
    assert_eq!(left, Some(0), "ON DELETE CASCADE");
    drop(conn);

    let again = common::assert_verified_and_idle(&db, &cat).await;
    assert!(again.unmanaged.is_empty(), "{:#?}", again.unmanaged);

    // import, live, through the gate and from a dump: the same foreign keys
    let scratch = tempfile::tempdir().unwrap();
    for tables in common::import_three_ways(&db, &scratch.path().join("imported")).await {
        for name in ["_System_Item", "_System_Queue"] {
            assert_eq!(
                foreign_keys(table(&tables, name)),
                foreign_keys(table(&wants, name)),
                "{name}"
            );
        }
    }
}

/// Builds the fixture's tables with `item_fks` as `_System_Item`'s foreign
/// key lines (may be empty), one row each, applies the fixture and requires
/// a refusal with `kind` on `object`, verify failing on it, and nothing changed.
async fn refused(item_fks: &str, object: &str, kind: ProblemKind) {
    let db = TestDb::new().await;
    db.exec(&[
        "CREATE TABLE `_System_Queue` (`Id` bigint unsigned NOT NULL, `Name` varchar(64) NOT NULL,
          PRIMARY KEY (`Id`), UNIQUE KEY `uq_queue_name` (`Name`))
          ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin COMMENT='Format v2 foreign keys fixture, the parent (sorts after its child)'",
        &format!(
            "CREATE TABLE `_System_Item` (`Id` bigint unsigned NOT NULL, `QueueId` bigint unsigned NOT NULL,
              `QueueName` varchar(64) NULL, `ParentId` bigint unsigned NULL,
              PRIMARY KEY (`Id`), KEY `idx_item_queue` (`QueueId`, `Id`),
              KEY `idx_item_queue_name` (`QueueName`), KEY `idx_item_parent` (`ParentId`){item_fks})
              ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
        ),
        "INSERT INTO `_System_Queue` VALUES (1, 'q')",
        "INSERT INTO `_System_Item` VALUES (10, 1, 'q', NULL), (11, 1, NULL, NULL)",
    ])
    .await;
    let cols: &[&str] = &["Id", "QueueId", "QueueName", "ParentId"];
    let before = db.snapshot().await;
    let cat = fixture();
    let report =
        common::assert_apply_refused(&db, &catalog_tables(&cat), &[("_System_Item", cols)]).await;
    let p = common::drift_on(&report, object);
    assert_eq!(p.kind, kind, "{p}");
    if kind == ProblemKind::ForeignKeyNotOnline {
        assert!(p.actual.to_string().contains("table copy"), "{p}");
    }
    common::assert_verify_fails(&db, &cat, object, kind).await;
    assert_eq!(db.snapshot().await, before, "verify changed a table");
}

const QUEUE_NAME_FK: &str = ",
    CONSTRAINT `fk_item_queue_name` FOREIGN KEY (`QueueName`) REFERENCES `_System_Queue` (`Name`) ON DELETE SET NULL ON UPDATE CASCADE";
const PARENT_FK: &str = ",
    CONSTRAINT `fk_item_parent` FOREIGN KEY (`ParentId`) REFERENCES `_System_Item` (`Id`) ON DELETE SET NULL ON UPDATE NO ACTION";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drift_other_action_is_refused() {
    refused(
        &format!(
            ",
    CONSTRAINT `fk_item_queue` FOREIGN KEY (`QueueId`) REFERENCES `_System_Queue` (`Id`) ON DELETE RESTRICT ON UPDATE RESTRICT{QUEUE_NAME_FK}{PARENT_FK}"
        ),
        "fk_item_queue",
        ProblemKind::ForeignKeyAction,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drift_other_referenced_table_is_refused() {
    refused(
        &format!(
            ",
    CONSTRAINT `fk_item_queue` FOREIGN KEY (`QueueId`) REFERENCES `_System_Queue` (`Id`) ON DELETE CASCADE ON UPDATE RESTRICT{QUEUE_NAME_FK},
    CONSTRAINT `fk_item_parent` FOREIGN KEY (`ParentId`) REFERENCES `_System_Queue` (`Id`) ON DELETE SET NULL ON UPDATE NO ACTION"
        ),
        "fk_item_parent",
        ProblemKind::ForeignKeyReference,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn adding_a_foreign_key_to_an_existing_table_is_refused_as_not_online() {
    refused(
        &format!("{QUEUE_NAME_FK}{PARENT_FK}"),
        "fk_item_queue",
        ProblemKind::ForeignKeyNotOnline,
    )
    .await;
}

/// Two tables for consumer scoping: `scope_parent` (required by
/// `parent_scope`, `None` for the base contract) and `scope_child`, which
/// only `svc` requires, referencing it.
fn scoped_pair(parent_scope: Option<&str>) -> Result<Catalog, schema_catalog::Error> {
    let required = parent_scope
        .map(|c| format!("required_by: [{c}]\n"))
        .unwrap_or_default();
    let parent = format!(
        "table: scope_parent\n{required}columns:\n  - {{name: Id, type: bigint unsigned, nullable: false}}\nprimary_key: [Id]\n"
    );
    let child = "table: scope_child\nrequired_by: [svc]\ncolumns:\n  - {name: Id, type: bigint unsigned, nullable: false}\n  \
                 - {name: ParentId, type: bigint unsigned, nullable: false}\nprimary_key: [Id]\nindexes:\n  \
                 - {name: idx_child_parent, columns: [ParentId]}\nforeign_keys:\n  \
                 - {name: fk_child_parent, columns: [ParentId], references: {table: scope_parent, columns: [Id]}}\n";
    catalog::from_files(
        "embedded",
        &[("parent.yaml", &parent), ("child.yaml", child)],
    )
}

/// A foreign key alone does not prove its parent is there: with
/// `foreign_key_checks = 0` the server drops a referenced table and the key
/// reads back unchanged, while every insert of the child fails (1452). So a
/// consumer's verify needs the parent in its scope: lint refuses a child
/// whose parent another consumer alone requires, and `verify --consumer
/// svc` of a valid catalog reports the dropped parent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_consumer_verify_needs_the_parent_of_its_foreign_key() {
    let err = scoped_pair(Some("billing")).expect_err("svc's child needs billing's parent");
    let text = format!("{err:?}");
    assert!(
        text.contains("fk_child_parent")
            && text.contains("the referenced table `scope_parent`, which only [billing] require: [svc] would verify the key without it"),
        "{text}"
    );
    let cat = scoped_pair(None).expect("a base-contract parent is in every scope");
    let db = TestDb::new().await;
    common::apply_converged(&db, &catalog_tables(&cat)).await;
    let target = db::parse_url(&db.url()).unwrap();
    let mut s = db::connect(&target, TIMEOUT).await.unwrap();
    let v = schema_catalog::verify(
        &mut s,
        &cat,
        &schema_catalog::VerifyOptions::default()
            .schema(&db.name)
            .consumer("svc"),
    )
    .await
    .unwrap();
    assert!(v.ok, "{:#?}", v.problems);

    db.exec(&[
        "SET SESSION foreign_key_checks = 0",
        "DROP TABLE scope_parent",
    ])
    .await;
    let v = schema_catalog::verify(
        &mut s,
        &cat,
        &schema_catalog::VerifyOptions::default()
            .schema(&db.name)
            .consumer("svc"),
    )
    .await
    .unwrap();
    let got: Vec<(&str, &str, ProblemKind)> = v
        .problems
        .iter()
        .map(|p| (p.table.as_str(), p.object.as_str(), p.kind))
        .collect();
    // The child and its key read back exact; only the parent is missing.
    assert_eq!(
        got,
        [("scope_parent", "scope_parent", ProblemKind::MissingTable)],
        "{:#?}",
        v.problems
    );
    let insert = s
        .conn()
        .query_drop("INSERT INTO scope_child (Id, ParentId) VALUES (1, 1)")
        .await;
    match insert {
        Err(mysql_async::Error::Server(e)) => assert_eq!(e.code, 1452, "{e}"),
        other => panic!("the insert should fail with 1452: {other:?}"),
    }
}
