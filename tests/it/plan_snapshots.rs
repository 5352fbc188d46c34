//! Snapshots of the plan SQL for representative legacy shapes, per flavor.
//!
//! Each shape is built in the real test server (MariaDB) with plain DDL from
//! `fixtures/legacy-shapes/`, inspected and diffed live (`plan_live`); the same
//! diffs are then planned for TiDB and MySQL with `plan::plan(&diffs, flavor)`.

use crate::common;

use std::path::Path;
use std::time::Duration;

use common::TestDb;
use schema_catalog::catalog;
use schema_catalog::diff::Change;
use schema_catalog::live::diff_all;
use schema_catalog::live::plan_live;
use schema_catalog::plan::{self, Plan};
use schema_catalog::{db, Flavor, Table};

const FILE_UPLOAD: &str = "_System_FileUploadOperation";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn file_upload_catalog() -> Vec<Table> {
    catalog::load(&root().join("catalog"))
        .expect("shipped catalog loads")
        .tables
        .into_iter()
        .map(|t| t.table)
        .filter(|t| t.name.as_str() == FILE_UPLOAD)
        .collect()
}

/// The plan as a human reads it: one numbered block per step.
fn render(plan: &Plan) -> String {
    let mut out = format!("-- {} step(s) for {}\n", plan.steps.len(), plan.flavor);
    for (i, s) in plan.steps.iter().enumerate() {
        out.push_str(&format!(
            "\n-- {}. {} {} on `{}`\n{};\n",
            i + 1,
            s.change.kind(),
            s.change.object(),
            s.change.table(),
            s.sql
        ));
    }
    for d in &plan.drift {
        out.push_str(&format!("\n-- drift: {d}\n"));
    }
    out
}

/// Online clauses per flavor: none on TiDB; MySQL/MariaDB ADD COLUMN asks for
/// INSTANT and ADD INDEX for INPLACE without a lock.
fn assert_online_clauses(plan: &Plan) {
    for s in &plan.steps {
        match (plan.flavor, &s.change) {
            (Flavor::TiDb, _) => assert!(
                !s.sql.contains("ALGORITHM") && !s.sql.contains("LOCK="),
                "{}",
                s.sql
            ),
            (_, Change::AddIndex { .. }) => {
                assert!(
                    s.sql.ends_with(", ALGORITHM=INPLACE, LOCK=NONE"),
                    "{}",
                    s.sql
                )
            }
            (_, Change::AddColumn { .. }) => {
                assert!(s.sql.ends_with(", ALGORITHM=INSTANT"), "{}", s.sql)
            }
            (_, Change::WidenColumn { .. }) => assert!(
                s.sql.ends_with(", ALGORITHM=INSTANT")
                    || s.sql.ends_with(", ALGORITHM=INPLACE, LOCK=NONE"),
                "{}",
                s.sql
            ),
            (_, Change::AddTable(_)) => assert!(
                !s.sql.contains("ALGORITHM") && !s.sql.contains("LOCK="),
                "{}",
                s.sql
            ),
        }
    }
}

/// Builds `legacy` (None: empty schema), plans live and per flavor, snapshots.
async fn snapshot_shape(name: &str, legacy: Option<&str>) -> Vec<Plan> {
    let db = TestDb::new().await;
    if let Some(file) = legacy {
        let sql = std::fs::read_to_string(root().join("fixtures/legacy-shapes").join(file))
            .expect("fixture");
        db.exec(&[&sql]).await;
    }
    let before = db.snapshot().await;
    let tables = file_upload_catalog();
    let target = db::parse_url(&db.url()).unwrap();
    let mut session = db::connect(&target, Duration::from_secs(10)).await.unwrap();
    assert_eq!(session.flavor(), db.flavor);
    let live = plan_live(&mut session, &db.name, &tables, &Default::default())
        .await
        .unwrap();
    let request = schema_catalog::inspect::Read::default()
        .schema(&db.name)
        .tables(&tables);
    let diffs = diff_all(&mut session, &request, &Default::default())
        .await
        .unwrap()
        .pop()
        .unwrap()
        .unwrap();
    // The live plan is the offline plan of the same diffs, plus the server it read.
    let mut offline = plan::plan(&diffs, db.flavor);
    assert_eq!(offline.server, None);
    assert_eq!(offline.schema, None);
    offline.server = Some(session.identity().clone());
    offline.schema = Some(db.name.clone());
    assert_eq!(offline, live);
    let mut plans = Vec::new();
    for flavor in [Flavor::MariaDb, Flavor::MySql, Flavor::TiDb] {
        let p = plan::plan(&diffs, flavor);
        assert!(!p.is_refused(), "{:#?}", p.drift);
        assert_online_clauses(&p);
        insta::assert_snapshot!(format!("{name}__{flavor}"), render(&p));
        plans.push(p);
    }
    assert_eq!(db.snapshot().await, before, "planning changed the schema");
    plans
}

/// Each step of `p` as (change kind, object), in plan order.
fn step_kinds(p: &Plan) -> Vec<(&str, &str)> {
    p.steps
        .iter()
        .map(|s| (s.change.kind(), s.change.object().as_str()))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn greenfield() {
    for p in snapshot_shape("greenfield", None).await {
        assert_eq!(p.steps.len(), 1);
        assert!(matches!(p.steps[0].change, Change::AddTable(_)));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missing_columns_and_index() {
    for p in snapshot_shape("file_upload_v1", Some("file_upload_v1.sql")).await {
        assert_eq!(
            step_kinds(&p),
            [
                ("add_column", "ContentType"),
                ("add_column", "SizeBytes"),
                ("add_column", "Sha256Hex"),
                ("add_index", "idx_file_upload_expires"),
            ]
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn partial() {
    for p in snapshot_shape("file_upload_v1_partial", Some("file_upload_v1_partial.sql")).await {
        assert_eq!(
            step_kinds(&p),
            [
                ("add_column", "SizeBytes"),
                ("add_column", "Sha256Hex"),
                ("add_index", "idx_file_upload_expires"),
            ]
        );
    }
}
