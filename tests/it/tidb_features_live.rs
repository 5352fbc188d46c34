//! TiDB table features on MySQL and MariaDB, live: a catalog that declares
//! them for all three flavors (fixtures/format-v2/tidb) is applied, verified
//! and imported on the server, which gets the plain table: no AUTO_RANDOM,
//! no CLUSTERED marker, no sharding, no TTL (the servers have none; `check`
//! warns). The TiDB side is in tests/it/tidb_features.rs.

use crate::common;

use std::path::Path;

use common::{catalog_tables, import_three_ways, TestDb};
use schema_catalog::catalog;

#[tokio::test]
async fn tidb_features_are_omitted_and_verify_on_mysql_and_mariadb() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/format-v2/tidb");
    let report = catalog::check(&dir);
    let cat = report.catalog.clone().expect("the fixture is valid");
    assert_eq!(report.problems.len(), 2, "{}", report.render_human());
    let tables = catalog_tables(&cat);

    let db = TestDb::new().await;
    common::apply_converged(&db, &tables).await;
    for t in ["Journal", "ShardedEvent"] {
        let shown = db.show_create(t).await;
        for tidb_only in [
            "AUTO_RANDOM",
            "CLUSTERED",
            "SHARD_ROW_ID_BITS",
            "PRE_SPLIT",
            "TTL",
        ] {
            assert!(!shown.contains(tidb_only), "{tidb_only} in\n{shown}");
        }
        assert!(shown.contains("AUTO_INCREMENT"), "{shown}");
    }

    common::assert_verified_and_idle(&db, &cat).await;

    // Import reads what the server has: the tables without TiDB options.
    let scratch = tempfile::tempdir().unwrap();
    for imported in import_three_ways(&db, &scratch.path().join("imported")).await {
        for t in &imported {
            assert_eq!(t.tidb, None, "{}", t.name);
            let want = &cat.table(t.name.as_str()).unwrap().table;
            assert_eq!(t.columns, want.columns, "{}", t.name);
            assert_eq!(t.primary_key, want.primary_key, "{}", t.name);
        }
    }
}
