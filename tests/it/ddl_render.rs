//! Snapshots of rendered DDL for every flavor, and the TiDB no-online-clause rule.

use crate::tables;

use schema_catalog::ddl::{add_column, add_index, create_table, ColumnAlgorithm};
use schema_catalog::Flavor;

/// Everything rendered for one flavor, as one document.
fn render_all(flavor: Flavor) -> String {
    let mut out = Vec::new();
    for t in tables::all() {
        out.push(create_table(&t, flavor));
    }
    let target = tables::file_upload();
    for algo in [ColumnAlgorithm::Instant, ColumnAlgorithm::InplaceNoLock] {
        out.push(add_column(
            &target.name,
            &tables::added_column(),
            &target.defaults(),
            flavor,
            algo,
        ));
    }
    out.push(add_index(&target.name, &tables::added_index(), flavor));
    let hostile = tables::hostile();
    out.push(add_index(&hostile.name, &hostile.indexes[0], flavor));
    out.join(";\n") + ";\n"
}

/// A format v2 fixture (`fixtures/format-v2/<name>`): per table, CREATE
/// TABLE, then each index as an ADD.
fn render_v2(name: &str, flavor: Flavor) -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/format-v2")
        .join(name);
    let cat = schema_catalog::catalog::load(&dir).expect("the v2 fixture loads");
    let mut out = Vec::new();
    for t in cat.tables.iter().map(|t| &t.table) {
        out.push(create_table(t, flavor));
        out.extend(t.indexes.iter().map(|i| add_index(&t.name, i, flavor)));
    }
    out.join(";\n") + ";\n"
}

#[test]
fn v2_tidb_features_tidb() {
    insta::assert_snapshot!(render_v2("tidb", Flavor::TiDb));
}

#[test]
fn v2_tidb_features_mysql() {
    insta::assert_snapshot!(render_v2("tidb", Flavor::MySql));
}

#[test]
fn v2_tidb_features_mariadb() {
    insta::assert_snapshot!(render_v2("tidb", Flavor::MariaDb));
}

#[test]
fn v2_indexes_tidb() {
    insta::assert_snapshot!(render_v2("indexes", Flavor::TiDb));
}

#[test]
fn v2_indexes_mysql() {
    insta::assert_snapshot!(render_v2("indexes", Flavor::MySql));
}

#[test]
fn v2_indexes_mariadb() {
    insta::assert_snapshot!(render_v2("indexes", Flavor::MariaDb));
}

#[test]
fn v2_checks_tidb() {
    insta::assert_snapshot!(render_v2("checks", Flavor::TiDb));
}

#[test]
fn v2_checks_mysql() {
    insta::assert_snapshot!(render_v2("checks", Flavor::MySql));
}

#[test]
fn v2_checks_mariadb() {
    insta::assert_snapshot!(render_v2("checks", Flavor::MariaDb));
}

/// The foreign keys fixture as `catalog render` writes it: every table in
/// creation order (the parent before the child that sorts first).
fn render_foreign_keys(flavor: Flavor) -> String {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/format-v2/foreign-keys");
    let cat = schema_catalog::catalog::load(&dir).expect("the foreign keys fixture loads");
    let out: Vec<String> = cat
        .in_creation_order()
        .into_iter()
        .map(|t| create_table(&t.table, flavor))
        .collect();
    out.join(";\n") + ";\n"
}

#[test]
fn v2_foreign_keys_tidb() {
    insta::assert_snapshot!(render_foreign_keys(Flavor::TiDb));
}

#[test]
fn v2_foreign_keys_mysql() {
    insta::assert_snapshot!(render_foreign_keys(Flavor::MySql));
}

#[test]
fn v2_foreign_keys_mariadb() {
    insta::assert_snapshot!(render_foreign_keys(Flavor::MariaDb));
}

#[test]
fn v2_generated_tidb() {
    insta::assert_snapshot!(render_v2("generated", Flavor::TiDb));
}

#[test]
fn v2_generated_mysql() {
    insta::assert_snapshot!(render_v2("generated", Flavor::MySql));
}

#[test]
fn v2_generated_mariadb() {
    insta::assert_snapshot!(render_v2("generated", Flavor::MariaDb));
}

// Spatial types: MySQL and MariaDB; a catalog targeting TiDB is refused by
// lint (tests/it/catalog_check.rs, bad-flavor-features).
#[test]
fn v2_spatial_mysql() {
    insta::assert_snapshot!(render_v2("spatial", Flavor::MySql));
}

#[test]
fn v2_spatial_mariadb() {
    insta::assert_snapshot!(render_v2("spatial", Flavor::MariaDb));
}

// A column SRID: MySQL only.
#[test]
fn v2_srid_mysql() {
    insta::assert_snapshot!(render_v2("mysql-only", Flavor::MySql));
}

// A FULLTEXT parser (`parser: ngram`): MySQL only; a catalog targeting
// MariaDB or TiDB is refused by lint (tests/it/catalog_check.rs,
// bad-fulltext-parser and fulltext-parser-mariadb), so only MySQL ever gets
// the clause. Their plain FULLTEXT rendering is in v2_indexes_*.
#[test]
fn v2_fulltext_parser_mysql() {
    insta::assert_snapshot!(render_v2("fulltext-parser", Flavor::MySql));
}

// vector(n): MySQL 9 and TiDB; refused by lint for MariaDB.
#[test]
fn v2_vector_tidb() {
    insta::assert_snapshot!(render_v2("vector", Flavor::TiDb));
}

#[test]
fn v2_vector_mysql() {
    insta::assert_snapshot!(render_v2("vector", Flavor::MySql));
}

#[test]
fn tidb_ddl() {
    insta::assert_snapshot!(render_all(Flavor::TiDb));
}

#[test]
fn mysql_ddl() {
    insta::assert_snapshot!(render_all(Flavor::MySql));
}

#[test]
fn mariadb_ddl() {
    insta::assert_snapshot!(render_all(Flavor::MariaDb));
}

#[test]
fn tidb_carries_no_algorithm_or_lock() {
    let sql = render_all(Flavor::TiDb);
    assert!(!sql.contains("ALGORITHM"), "{sql}");
    assert!(!sql.contains("LOCK"), "{sql}");
}

#[test]
fn mysql_and_mariadb_alters_ask_to_be_online() {
    let t = tables::file_upload();
    for flavor in [Flavor::MySql, Flavor::MariaDb] {
        let col = add_column(
            &t.name,
            &tables::added_column(),
            &t.defaults(),
            flavor,
            ColumnAlgorithm::Instant,
        );
        assert!(col.ends_with(", ALGORITHM=INSTANT"), "{col}");
        let col = add_column(
            &t.name,
            &tables::added_column(),
            &t.defaults(),
            flavor,
            ColumnAlgorithm::InplaceNoLock,
        );
        assert!(col.ends_with(", ALGORITHM=INPLACE, LOCK=NONE"), "{col}");
        let idx = add_index(&t.name, &tables::added_index(), flavor);
        assert!(idx.ends_with(", ALGORITHM=INPLACE, LOCK=NONE"), "{idx}");
    }
}

#[test]
fn create_table_is_deterministic_and_flavor_independent() {
    for t in tables::all() {
        let first = create_table(&t, Flavor::MySql);
        assert_eq!(first, create_table(&t, Flavor::MySql));
        assert_eq!(first, create_table(&t, Flavor::TiDb));
        assert_eq!(first, create_table(&t, Flavor::MariaDb));
        assert!(!first.ends_with(';'));
    }
}

/// A textual column states its charset and collation only where they
/// differ from its table's, as SHOW CREATE TABLE prints it (MySQL
/// remembers a stated collation and prints it ever after).
#[test]
fn textual_columns_state_charset_and_collation_only_where_they_differ() {
    let mut t = tables::every_type();
    let other = t
        .columns
        .iter()
        .position(|c| c.collation.is_some())
        .expect("a textual column");
    t.columns[other].collation = Some("utf8mb4_general_ci".into());
    let name = format!("`{}` ", t.columns[other].name);
    let sql = create_table(&t, Flavor::MySql);
    let textual: Vec<&str> = sql
        .lines()
        .filter(|l| l.contains("char(") || l.contains("text "))
        .collect();
    assert!(textual.len() > 1, "{sql}");
    for line in textual {
        let stated = line.contains(" CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci ");
        assert_eq!(stated, line.trim_start().starts_with(&name), "{line}");
        assert!(!line.contains("utf8mb4_bin"), "{line}");
    }
}
