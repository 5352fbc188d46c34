//! What the library's apply report says when a step's own DDL ran but the
//! object did not read back exact (a shape the catalog lint would refuse,
//! built here in code to get past it).

use crate::common;

use common::TestDb;
use schema_catalog::apply::{self, ApplyOptions, Outcome, StepStatus};
use schema_catalog::{db, Column, ColumnType, Index, IndexPart, Table};

#[tokio::test]
async fn a_step_whose_ddl_ran_but_read_back_differs_reports_ddl_issued() {
    let mut id = Column::new("Id", ColumnType::parse("bigint unsigned").unwrap());
    id.nullable = false;
    // A prefix as long as the column: MariaDB and MySQL both store a
    // whole-column key part, so the created index cannot read back as declared.
    let c = Column::new("C", ColumnType::parse("varchar(10)").unwrap());
    let mut index = Index::new("k_c", false, &["C"]);
    index.parts = vec![IndexPart::Column {
        name: "C".into(),
        prefix: Some(10),
        descending: false,
    }];
    let t = Table {
        name: "P1".into(),
        kind: schema_catalog::TableKind::Base,
        comment: None,
        engine: Some("InnoDB".into()),
        row_format: None,
        charset: "utf8mb4".into(),
        collation: "utf8mb4_bin".into(),
        columns: vec![id, c],
        primary_key: vec![IndexPart::column("Id")],
        indexes: vec![index],
        checks: Vec::new(),
        foreign_keys: Vec::new(),
        tidb: None,
    };
    let db = TestDb::new().await;
    let target = db::parse_url(&db.url()).unwrap();
    let report = apply::run(&target, &target.schema, &[t], &ApplyOptions::default())
        .await
        .unwrap();
    match &report.outcome {
        Outcome::Stopped {
            message,
            ddl_issued,
        } => {
            assert!(*ddl_issued, "the CREATE TABLE ran: {message}");
            assert!(message.contains("not exact"), "{message}");
        }
        other => panic!("expected a stop, got {other:?}"),
    }
    assert_eq!(report.steps.len(), 1);
    assert_eq!(report.steps[0].status, StepStatus::Failed);
    assert_eq!(report.server_ddl_count, Some(1));
    assert_eq!(db.snapshot().await.len(), 1, "the table exists");
}
