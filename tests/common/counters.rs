//! The server's session counters around a read: statements issued and the
//! work done (`SHOW SESSION STATUS` deltas), for the tests that pin
//! inspection cost (tests/inspect_round_trips.rs, tests/inspect_shapes.rs).
#![allow(dead_code)]

use mysql_async::prelude::*;
use schema_catalog::catalog::{self, Catalog};
use schema_catalog::db::Session;

use super::TestDb;

/// A catalog of `n` tables `gen_<nnnn>` (key, two columns and a text
/// column, one index), from in-memory files.
pub fn generated(n: usize) -> Catalog {
    let files: Vec<(String, String)> = (0..n)
        .map(|i| {
            (
                format!("gen_{i:04}.yaml"),
                format!(
                    "table: gen_{i:04}\ncolumns:\n  - name: Id\n    type: bigint unsigned\n    nullable: false\n  \
                     - name: Lane\n    type: varchar(64)\n    nullable: false\n  - name: Note\n    type: text\n\
                     primary_key: [Id]\nindexes:\n  - name: idx_gen_{i:04}_lane\n    columns: [Lane]\n"
                ),
            )
        })
        .collect();
    let pairs: Vec<(&str, &str)> = files
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    catalog::from_files("generated", &pairs).expect("the generated catalog is valid")
}

/// Creates the catalog's tables with plain DDL.
pub async fn create(db: &TestDb, cat: &Catalog) {
    let creates: Vec<String> = cat
        .tables
        .iter()
        .map(|t| schema_catalog::ddl::create_table(&t.table, db.flavor))
        .collect();
    db.exec(&creates.iter().map(String::as_str).collect::<Vec<_>>())
        .await;
}

/// The server's work counters (handler reads, tables and definitions
/// opened, temporary tables, rows read where the server counts them).
pub const WORK: &[&str] = &[
    "Handler_read",
    "Opened_table",
    "Created_tmp",
    "Rows_read",
    "Rows_tmp_read",
];

/// Every session counter whose name starts with one of `prefixes`.
pub async fn status(s: &mut Session<'_>, prefixes: &[&str]) -> Vec<(String, u64)> {
    let rows: Vec<(String, String)> = s.conn().query("SHOW SESSION STATUS").await.expect("status");
    let mut out: Vec<(String, u64)> = rows
        .into_iter()
        .filter(|(n, _)| prefixes.iter().any(|p| n.starts_with(p)))
        .filter_map(|(n, v)| v.parse().ok().map(|v| (n, v)))
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no counters named {prefixes:?}");
    out
}

/// `after - before`, counter by counter.
pub fn deltas(before: &[(String, u64)], after: &[(String, u64)]) -> Vec<(String, u64)> {
    before
        .iter()
        .zip(after)
        .map(|((n, b), (m, a))| {
            assert_eq!(n, m);
            (n.clone(), a - b)
        })
        .collect()
}
