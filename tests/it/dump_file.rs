//! Dumps against the real server (each flavor): a schema built with plain
//! DDL, dumped with the flavor's own client (`mariadb-dump` / `mysqldump`
//! `--no-data`), reads back through the
//! dump reader exactly as live inspection reads it, and a dump plan equals
//! the live plan step for step.

use crate::common;

use std::path::PathBuf;
use std::time::Duration;

use common::TestDb;
use mysql_async::prelude::*;
use schema_catalog::diff::diff_table;
use schema_catalog::dump::{read_dump, Dump};
use schema_catalog::inspect::inspect_table;
use schema_catalog::live::plan_live;
use schema_catalog::plan::{plan, Plan};
use schema_catalog::{catalog, db, Flavor, Table};

const TIMEOUT: Duration = Duration::from_secs(10);

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn shipped_catalog() -> Vec<Table> {
    catalog::load(&root().join("catalog"))
        .unwrap()
        .tables
        .into_iter()
        .map(|t| t.table)
        .collect()
}

async fn live_plan(db: &TestDb, tables: &[Table]) -> (Plan, Vec<(String, Option<Table>)>) {
    let target = db::parse_url(&db.url()).unwrap();
    let mut s = db::connect(&target, TIMEOUT).await.unwrap();
    let p = plan_live(&mut s, &db.name, tables, &Default::default())
        .await
        .unwrap();
    let mut inspected = Vec::new();
    let names: Vec<String> = {
        let mut conn = db.pool.get_conn().await.unwrap();
        conn.exec(schema_catalog::import::LIST_TABLES_SQL, (db.name.as_str(),))
            .await
            .unwrap()
    };
    for name in names {
        let t = inspect_table(&mut s, &db.name, &name).await.unwrap();
        inspected.push((name, t));
    }
    (p, inspected)
}

fn dump_plan(dump: &Dump, tables: &[Table], flavor: Flavor) -> Plan {
    let diffs: Vec<_> = tables
        .iter()
        .map(|t| diff_table(t, dump.table(t.name.as_str())))
        .collect();
    plan(&diffs, flavor)
}

/// A legacy fixture written for the flavor under test.
fn legacy_fixture(name: &str, flavor: Flavor) -> PathBuf {
    root().join(format!("fixtures/legacy/{name}-{}.sql", flavor.name()))
}

fn tmp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("catalog-dump-{}-{name}.sql", std::process::id()))
}

#[tokio::test]
async fn dump_and_live_read_the_same_tables_and_plan_the_same_steps() {
    let db = TestDb::new().await;
    // Legacy shapes of the shipped catalog plus drift and unmanaged objects.
    db.exec_batch(&std::fs::read_to_string(legacy_fixture("r1", db.flavor)).unwrap())
        .await;
    let hidden = db.hidden_index();
    let note = format!(
        "ALTER TABLE `_System_RollupDelta` ADD COLUMN `Note` varchar(300) NULL, ADD INDEX `idx_note` (`Note`(20)) {hidden}"
    );
    db.exec(&[
        // drift: a collation, a same-named index with another order, a prefix
        "ALTER TABLE `_System_WorkItem` MODIFY `ClaimedBy` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NULL COMMENT 'Worker holding the claim.'",
        "ALTER TABLE `_System_AuditOutbox` DROP INDEX `idx_audit_outbox_pending`, ADD INDEX `idx_audit_outbox_pending` (`Id`, `PublishedAt`)",
        &note,
        // unmanaged: a table, a view, a trigger, an extra column with odd types
        "CREATE TABLE `Other` (`a` int NOT NULL, `e` enum('x','y') DEFAULT 'x', `j` json, `t` timestamp(3) NULL DEFAULT NULL, `d` decimal(10,2) DEFAULT 1.50, `s` varchar(10) CHARACTER SET latin1 DEFAULT 'it''s', PRIMARY KEY (`a`), UNIQUE KEY (`s`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci COMMENT='not ours'",
        "CREATE VIEW `v_other` AS SELECT `a` FROM `Other`",
        "CREATE TRIGGER `tr_other` BEFORE INSERT ON `Other` FOR EACH ROW BEGIN SET NEW.a = NEW.a + 1; SET NEW.d = 2; END",
    ])
    .await;
    let file = tmp("live");
    db.dump_no_data(&file);
    let dump = read_dump(&file, None).expect("the dump parses");
    assert_eq!(dump.flavor, Some(db.flavor), "detected");
    assert!(
        dump.skipped > 10,
        "SET/DROP/view/trigger statements skipped: {}",
        dump.skipped
    );
    assert_eq!(
        dump.table("v_other").map(|t| t.kind.clone()),
        Some(schema_catalog::TableKind::NotATable("VIEW".into())),
        "views are kept by name only, as views"
    );

    let catalog = shipped_catalog();
    let (live, inspected) = live_plan(&db, &catalog).await;
    // Every base table reads back identically (inspection orders indexes by
    // name and does not read index comments: informational, never compared;
    // the row format is known live only).
    let shape = |t: &Table| {
        let mut t = t.clone();
        t.row_format = None;
        t.indexes.sort_by(|a, b| a.name.cmp(&b.name));
        for i in &mut t.indexes {
            i.comment = None;
        }
        t
    };
    let base_tables = dump
        .tables
        .iter()
        .filter(|t| t.kind == schema_catalog::TableKind::Base)
        .count();
    assert_eq!(inspected.len(), base_tables);
    for (name, t) in &inspected {
        let t = t.as_ref().expect("inspected");
        assert_eq!(dump.table(name).map(shape), Some(shape(t)), "table {name}");
    }
    let offline = dump_plan(&dump, &catalog, db.flavor);
    let sql = |p: &Plan| p.steps.iter().map(|s| s.sql.clone()).collect::<Vec<_>>();
    assert_eq!(sql(&offline), sql(&live));
    assert_eq!(offline.drift, live.drift);
    assert_eq!(offline.unmanaged, live.unmanaged);
    assert!(live.is_refused());
    let kinds: Vec<String> = live.drift.iter().map(|p| p.kind.name()).collect();
    assert_eq!(
        kinds,
        ["index_order", "column_collation"],
        "{:#?}",
        live.drift
    );
    let _ = std::fs::remove_file(file);
}

#[tokio::test]
async fn every_legacy_fixture_of_the_flavor_plans_like_the_schema_it_was_dumped_from() {
    let catalog = shipped_catalog();
    for fixture in ["r1", "r2", "r2-drifted"] {
        let db = TestDb::new().await;
        let path = legacy_fixture(fixture, db.flavor);
        db.exec_batch(&std::fs::read_to_string(&path).unwrap())
            .await;
        let (live, _) = live_plan(&db, &catalog).await;
        let dump = read_dump(&path, Some(db.flavor)).unwrap();
        let offline = dump_plan(&dump, &catalog, db.flavor);
        // Same steps, drift and unmanaged objects (the tables kept for diffs
        // differ only in what inspection does not read: index comments).
        assert_eq!(
            (&offline.steps, &offline.drift, &offline.unmanaged),
            (&live.steps, &live.drift, &live.unmanaged),
            "{fixture}"
        );
        assert_eq!(offline.live.len(), live.live.len(), "{fixture}");
        assert_eq!(live.is_refused(), fixture.contains("drifted"), "{fixture}");
        // Dumping the replayed fixture again reads back the same tables.
        let again = tmp(fixture);
        db.dump_no_data(&again);
        let redump = read_dump(&again, Some(db.flavor)).unwrap();
        assert_eq!(redump.tables, dump.tables, "{fixture}");
        let _ = std::fs::remove_file(again);
    }
}
