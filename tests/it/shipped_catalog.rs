//! The project's own catalog: rendered DDL is snapshotted per table and
//! flavor, round-trips through sqlparser to the catalog model, runs on a
//! real MariaDB unchanged, and reads back (SHOW CREATE TABLE and live
//! inspection) exactly as declared.

use crate::common;

use std::path::Path;

use common::TestDb;
use schema_catalog::catalog::{self, Catalog};
use schema_catalog::{db, ddl, diff, inspect, parse_create_table, Flavor, Table};

fn shipped() -> Catalog {
    catalog::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("catalog"))
        .expect("shipped catalog is valid")
}

/// The catalog table as `flavor` holds it: TiDB's AUTO_RANDOM in
/// AUTO_INCREMENT's place; no TiDB features on MySQL / MariaDB.
fn as_on(t: &Table, flavor: Flavor) -> Table {
    let mut t = t.clone();
    match flavor {
        Flavor::TiDb => t = schema_catalog::model::on_tidb(&t).into_owned(),
        Flavor::MySql | Flavor::MariaDb => t.tidb = None,
    }
    t
}

#[test]
fn shipped_catalog_has_eight_tables_and_no_warning() {
    let c = shipped();
    assert_eq!(c.tables.len(), 8);
    // Its TiDB features (AUTO_RANDOM on clustered keys, AUTO_INCREMENT
    // beside) change nothing on MySQL and MariaDB: InnoDB clusters by the
    // primary key anyway and assigns the declared increasing ids.
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
}

#[test]
fn render_snapshots_every_table_every_flavor() {
    let c = shipped();
    for flavor in Flavor::ALL {
        for t in &c.tables {
            let sql = ddl::create_table(&t.table, flavor);
            assert!(
                !sql.contains("ALGORITHM") && !sql.contains("LOCK="),
                "{sql}"
            );
            insta::assert_snapshot!(format!("{}__{}", flavor.name(), t.table.name), sql);
        }
    }
}

#[test]
fn render_round_trips_to_the_catalog_model() {
    let c = shipped();
    for flavor in Flavor::ALL {
        for t in &c.tables {
            let sql = ddl::create_table(&t.table, flavor);
            let back = parse_create_table(&sql).unwrap_or_else(|e| panic!("{e}\n{sql}"));
            assert_eq!(back, as_on(&t.table, flavor), "{flavor}: {sql}");
        }
    }
}

#[tokio::test]
async fn rendered_ddl_of_the_server_flavor_runs_and_reads_back_exact() {
    let c = shipped();
    let db = TestDb::new().await;
    for t in &c.tables {
        db.exec(&[&ddl::create_table(&t.table, db.flavor)]).await;
    }
    let target = db::parse_url(&db.url()).unwrap();
    let mut session = db::connect(&target, std::time::Duration::from_secs(5))
        .await
        .unwrap();
    assert_eq!(session.flavor(), db.flavor);
    for t in &c.tables {
        let shown = db.show_create(t.table.name.as_str()).await;
        let parsed = parse_create_table(&shown).unwrap_or_else(|e| panic!("{e}\n{shown}"));
        assert_eq!(parsed, as_on(&t.table, db.flavor), "{shown}");
        let live = inspect::inspect_table(&mut session, &db.name, t.table.name.as_str())
            .await
            .unwrap()
            .expect("table exists");
        let d = diff::diff_table(&t.table, Some(&live));
        assert!(
            d.is_satisfied() && d.unmanaged.is_empty(),
            "{:?}",
            d.problems
        );
    }
}
