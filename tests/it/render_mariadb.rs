//! Rendered MariaDB DDL runs unchanged on a real MariaDB, and what the server
//! prints back (`SHOW CREATE TABLE`) parses to the rendered model.

use crate::common;
use crate::tables;

use common::TestDb;
use mysql_async::prelude::*;
use schema_catalog::ddl::{add_column, add_index, create_table, ColumnAlgorithm};
use schema_catalog::{parse_create_table, quote_ident, Flavor, Table};

/// `SHOW CREATE TABLE` with the name quoted by `quote_ident` (the shared
/// `TestDb::show_create` does not escape backticks in names).
async fn show_create(db: &TestDb, table: &str) -> String {
    let mut conn = db.pool.get_conn().await.expect("connect");
    let row: (String, String) = conn
        .query_first(format!("SHOW CREATE TABLE {}", quote_ident(table)))
        .await
        .expect("show create")
        .expect("table exists");
    row.1
}

/// The parsed model of the table as the server shows it.
async fn read_back(db: &TestDb, table: &str) -> Table {
    let shown = show_create(db, table).await;
    parse_create_table(&shown).unwrap_or_else(|e| panic!("{e}\n{shown}"))
}

/// Creates `t` from its rendered DDL and returns the model parsed from the
/// server's SHOW CREATE TABLE.
async fn create_and_read_back(db: &TestDb, t: &Table) -> Table {
    db.exec(&[&create_table(t, Flavor::MariaDb)]).await;
    read_back(db, t.name.as_str()).await
}

#[tokio::test]
async fn rendered_tables_run_on_mariadb_and_read_back_equal() {
    let db = TestDb::new().await;
    for t in tables::all() {
        let back = create_and_read_back(&db, &t).await;
        assert_eq!(back, t, "{}", show_create(&db, t.name.as_str()).await);
    }
}

#[tokio::test]
async fn online_add_column_and_add_index_succeed_on_mariadb() {
    let db = TestDb::new().await;
    let mut t = tables::file_upload();
    create_and_read_back(&db, &t).await;
    db.exec(&["INSERT INTO `_System_FileUploadOperation` (`IdempotencyKey`, `State`) VALUES ('k1', 'new')"])
        .await;

    let column = tables::added_column();
    db.exec(&[&add_column(
        &t.name,
        &column,
        &t.defaults(),
        Flavor::MariaDb,
        ColumnAlgorithm::Instant,
    )])
    .await;
    let index = tables::added_index();
    db.exec(&[&add_index(&t.name, &index, Flavor::MariaDb)])
        .await;
    t.columns.push(column);
    t.indexes.push(index);
    let back = read_back(&db, t.name.as_str()).await;
    assert_eq!(back, t);

    // The INPLACE, LOCK=NONE fallback also runs.
    let mut second = tables::col("Note", "varchar(20)");
    second.comment = Some("fallback".into());
    db.exec(&[&add_column(
        &t.name,
        &second,
        &t.defaults(),
        Flavor::MariaDb,
        ColumnAlgorithm::InplaceNoLock,
    )])
    .await;
    t.columns.push(second);
    let back = read_back(&db, t.name.as_str()).await;
    assert_eq!(back, t);
}

#[tokio::test]
async fn unique_index_with_hostile_names_adds_online() {
    let db = TestDb::new().await;
    let mut t = tables::hostile();
    let index = t.indexes.remove(0);
    create_and_read_back(&db, &t).await;
    db.exec(&[&add_index(&t.name, &index, Flavor::MariaDb)])
        .await;
    t.indexes.insert(0, index);
    let back = read_back(&db, t.name.as_str()).await;
    assert_eq!(back, t);
}
