//! Live inspection, the exact index check and connection errors, against the
//! real test server (each flavor). Physical tables are built with plain
//! DDL, never through the catalog.

use crate::common;

use std::time::{Duration, Instant};

use common::TestDb;
use mysql_async::prelude::*;
use schema_catalog::db::{self, Session};
use schema_catalog::inspect::{inspect_table, inspect_tables, inspection_statements};
use schema_catalog::readiness::{index_ready, index_statement, IndexProblem, IndexReadiness};
use schema_catalog::{Column, ColumnType, DefaultValue, Error, Ident, Index, IndexPart, Table};

const TIMEOUT: Duration = Duration::from_secs(10);

async fn session(db: &TestDb) -> Session<'static> {
    let target = db::parse_url(&db.url()).expect("test URL parses");
    db::connect(&target, TIMEOUT)
        .await
        .expect("connect to the test schema")
}

/// Session counters: (Com_stmt_execute, Com_stmt_prepare, Questions).
async fn counters(s: &mut Session<'_>) -> (u64, u64, u64) {
    let rows: Vec<(String, String)> = s
        .conn()
        .query(
            "SHOW SESSION STATUS WHERE Variable_name IN ('Com_stmt_execute', 'Com_stmt_prepare', 'Questions')",
        )
        .await
        .expect("session status");
    let get = |name: &str| -> u64 {
        rows.iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.parse().unwrap())
            .unwrap()
    };
    (
        get("Com_stmt_execute"),
        get("Com_stmt_prepare"),
        get("Questions"),
    )
}

/// A column as inspection should read it back.
fn col(
    name: &str,
    ty: &str,
    nullable: bool,
    default: Option<DefaultValue>,
    collation: Option<&str>,
) -> Column {
    let mut c = Column::new(name, ColumnType::parse(ty).unwrap());
    c.nullable = nullable;
    c.default = default;
    if c.ty.is_textual() {
        let collation = collation.unwrap_or("utf8mb4_bin");
        c.collation = Some(collation.to_string());
        // The test's collations all begin with their charset's name.
        c.charset = collation.split('_').next().map(str::to_string);
    }
    c
}

fn lit(v: &str) -> Option<DefaultValue> {
    Some(DefaultValue::Literal(v.to_string()))
}

const KINDS_DDL: &str = "CREATE TABLE kinds (
    Id bigint unsigned NOT NULL AUTO_INCREMENT,
    TenantId int(11) NOT NULL,
    Tiny tinyint NOT NULL DEFAULT '3',
    Small smallint DEFAULT NULL,
    Medium mediumint unsigned,
    Flag boolean NOT NULL DEFAULT 0,
    Amount decimal(12,2) NOT NULL DEFAULT 0.00,
    Ratio float,
    Score double,
    Code char(4) COLLATE utf8mb4_general_ci,
    State varchar(32) NOT NULL DEFAULT 'pending',
    Zero varchar(8) NOT NULL DEFAULT '0',
    Note varchar(200) DEFAULT NULL,
    Legacy varchar(20) CHARACTER SET utf8 COLLATE utf8_bin,
    Digest binary(32),
    Token varbinary(64) NOT NULL,
    Body text,
    MBody mediumtext,
    LBody longtext,
    Bl blob,
    MBl mediumblob,
    LBl longblob,
    Payload json,
    Day date,
    ExpiresAt datetime(6),
    CreatedAt timestamp(6) NOT NULL DEFAULT current_timestamp(6),
    PRIMARY KEY (Id, TenantId),
    UNIQUE KEY uq_token (Token),
    KEY idx_lifecycle (state, EXPIRESAT, id),
    KEY idx_note_prefix (Note(10), Day),
    KEY idx_day (Day) HIDDEN
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin COMMENT='every type'";

/// [`KINDS_DDL`] with the flavor's way of hiding `idx_day` (`IGNORED` / `INVISIBLE`).
fn kinds_ddl(db: &TestDb) -> String {
    KINDS_DDL.replace("HIDDEN", db.hidden_index())
}

fn expected_kinds() -> Table {
    let mut id = col("Id", "bigint unsigned", false, None, None);
    id.auto_increment = true;
    let ts = Some(DefaultValue::CurrentTimestamp(6));
    let columns = vec![
        id,
        col("TenantId", "int", false, None, None),
        col("Tiny", "tinyint", false, lit("3"), None),
        col("Small", "smallint", true, None, None),
        col("Medium", "mediumint unsigned", true, None, None),
        col("Flag", "boolean", false, lit("0"), None),
        col("Amount", "decimal(12,2)", false, lit("0"), None),
        col("Ratio", "float", true, None, None),
        col("Score", "double", true, None, None),
        col("Code", "char(4)", true, None, Some("utf8mb4_general_ci")),
        col("State", "varchar(32)", false, lit("pending"), None),
        col("Zero", "varchar(8)", false, lit("0"), None),
        col("Note", "varchar(200)", true, None, None),
        col("Legacy", "varchar(20)", true, None, Some("utf8mb3_bin")),
        col("Digest", "binary(32)", true, None, None),
        col("Token", "varbinary(64)", false, None, None),
        col("Body", "text", true, None, None),
        col("MBody", "mediumtext", true, None, None),
        col("LBody", "longtext", true, None, None),
        col("Bl", "blob", true, None, None),
        col("MBl", "mediumblob", true, None, None),
        col("LBl", "longblob", true, None, None),
        col("Payload", "json", true, None, None),
        col("Day", "date", true, None, None),
        col("ExpiresAt", "datetime(6)", true, None, None),
        col("CreatedAt", "timestamp(6)", false, ts, None),
    ];
    let mut ignored = Index::new("idx_day", false, &["Day"]);
    ignored.visible = false;
    let mut prefix = Index::new("idx_note_prefix", false, &["Note", "Day"]);
    prefix.parts[0] = IndexPart::Column {
        name: "Note".into(),
        prefix: Some(10),
        descending: false,
    };
    Table {
        name: "kinds".into(),
        kind: schema_catalog::TableKind::Base,
        comment: Some("every type".into()),
        engine: Some("InnoDB".into()),
        row_format: Some(schema_catalog::model::RowFormat::Dynamic),
        charset: "utf8mb4".into(),
        collation: "utf8mb4_bin".into(),
        columns,
        primary_key: vec![IndexPart::column("Id"), IndexPart::column("TenantId")],
        indexes: vec![
            ignored,
            Index::new("idx_lifecycle", false, &["State", "ExpiresAt", "Id"]),
            prefix,
            Index::new("uq_token", true, &["Token"]),
        ],
        checks: Vec::new(),
        foreign_keys: Vec::new(),
        tidb: None,
    }
}

#[tokio::test]
async fn inspects_every_type_default_collation_and_index() {
    let db = TestDb::new().await;
    db.exec(&[&kinds_ddl(&db)]).await;
    let mut s = session(&db).await;
    assert_eq!(s.flavor(), db.flavor);

    let got = inspect_table(&mut s, &db.name, "kinds")
        .await
        .unwrap()
        .expect("table exists");
    let want = expected_kinds();
    for (g, w) in got.columns.iter().zip(&want.columns) {
        assert_eq!(g, w, "column {}", w.name);
    }
    assert_eq!(got, want);
    // Index column names come back as the server stores them (the table's
    // spelling), and compare case-insensitively with any spelling.
    let lifecycle = got.index(&Ident::new("IDX_LIFECYCLE")).unwrap();
    assert!(lifecycle.same_shape(&Index::new("x", false, &["STATE", "expiresat", "ID"])));
    // One snapshot for every flavor: each reads the same table back.
    insta::assert_debug_snapshot!("kinds", got);
}

#[tokio::test]
async fn ignored_or_invisible_index_set_by_alter_and_create_reads_invisible() {
    let db = TestDb::new().await;
    let hidden = db.hidden_index();
    db.exec(&[
        "CREATE TABLE t (a int NOT NULL, b int, PRIMARY KEY (a), KEY ia (b))",
        &format!("ALTER TABLE t ALTER INDEX ia {hidden}"),
        &format!("CREATE INDEX ib ON t (b, a) {hidden}"),
    ])
    .await;
    let mut s = session(&db).await;
    let t = inspect_table(&mut s, &db.name, "t").await.unwrap().unwrap();
    assert_eq!(t.indexes.len(), 2);
    assert!(t.indexes.iter().all(|i| !i.visible), "{:?}", t.indexes);
}

#[tokio::test]
async fn generated_expression_default_and_unmanaged_types() {
    let db = TestDb::new().await;
    db.exec(&["CREATE TABLE g (
        d int NOT NULL,
        v int AS (d + 1) VIRTUAL,
        p int AS (d * 2) STORED,
        e varchar(20) DEFAULT (concat('a', 'b')),
        k enum('x', 'y') DEFAULT 'x',
        u timestamp(3) NULL DEFAULT NULL,
        q geometry NULL,
        z decimal(10,2) unsigned NULL,
        PRIMARY KEY (d))"])
        .await;
    let mut s = session(&db).await;
    let t = inspect_table(&mut s, &db.name, "g").await.unwrap().unwrap();
    let c = |n: &str| t.column(&Ident::new(n)).unwrap().clone();
    let generated = |n: &str| c(n).generated.map(|g| (g.expression, g.stored));
    assert_eq!(generated("v"), Some(("`d` + 1".into(), false)));
    assert_eq!(generated("p"), Some(("`d` * 2".into(), true)));
    assert_eq!(c("d").generated, None);
    // As the catalog spells it: MySQL's `concat(_utf8mb4\'a\',_utf8mb4\'b\')`
    // and MariaDB's `concat('a','b')` read as one canonical expression.
    assert_eq!(
        c("e").default,
        Some(DefaultValue::Expression("concat('a', 'b')".into()))
    );
    assert_eq!(
        c("e").default,
        DefaultValue::parse_sql("(CONCAT('a', 'b'))")
    );
    assert_eq!(c("k").ty, ColumnType::Enum(vec!["x".into(), "y".into()]));
    assert_eq!(c("q").ty, ColumnType::parse("geometry").unwrap());
    assert_eq!(
        c("z").ty,
        ColumnType::Other("decimal(10,2) unsigned".into())
    );
    assert_eq!(c("k").default, lit("x"));
    assert_eq!(
        (c("u").ty, c("u").nullable, c("u").default),
        (ColumnType::Timestamp(3), true, None)
    );
}

#[tokio::test]
async fn missing_table_is_none_and_order_is_kept() {
    let db = TestDb::new().await;
    db.exec(&["CREATE TABLE present (Id int NOT NULL PRIMARY KEY)"])
        .await;
    let mut s = session(&db).await;
    assert_eq!(
        inspect_table(&mut s, &db.name, "absent").await.unwrap(),
        None
    );
    let names = [
        Ident::new("zeta_absent"),
        Ident::new("present"),
        Ident::new("alpha_absent"),
    ];
    let got = inspect_tables(&mut s, &db.name, &names).await.unwrap();
    let summary: Vec<(&str, bool)> = got.iter().map(|(n, t)| (n.as_str(), t.is_some())).collect();
    assert_eq!(
        summary,
        [
            ("zeta_absent", false),
            ("present", true),
            ("alpha_absent", false)
        ]
    );
}

#[tokio::test]
async fn inspection_is_one_statement_per_read_whatever_else_exists() {
    let db = TestDb::new().await;
    db.exec(&[&kinds_ddl(&db)]).await;
    let unrelated: Vec<String> = (0..30)
        .map(|i| format!("CREATE TABLE unrelated_{i} (a int PRIMARY KEY, b int, KEY ib (b))"))
        .collect();
    db.exec(&unrelated.iter().map(String::as_str).collect::<Vec<_>>())
        .await;
    let mut s = session(&db).await;

    let before = counters(&mut s).await;
    inspect_table(&mut s, &db.name, "kinds")
        .await
        .unwrap()
        .unwrap();
    let first = counters(&mut s).await;
    inspect_table(&mut s, &db.name, "kinds")
        .await
        .unwrap()
        .unwrap();
    let second = counters(&mut s).await;
    inspect_table(&mut s, &db.name, "absent").await.unwrap();
    let missing = counters(&mut s).await;

    let delta = |a: (u64, u64, u64), b: (u64, u64, u64)| (b.0 - a.0, b.1 - a.1, b.2 - a.2);
    let (exec1, prep1, q1) = delta(before, first);
    let (exec2, prep2, q2) = delta(first, second);
    let (exec3, _, _) = delta(second, missing);
    eprintln!(
        "inspect_table: first call {exec1} executes / {prep1} prepares / {q1} questions (incl. 1 SHOW); \
         second call {exec2} / {prep2} / {q2}; missing table {exec3} executes"
    );
    assert_eq!(
        exec1, 1,
        "existing table: TABLES, COLUMNS, STATISTICS in one"
    );
    assert!(prep1 <= 1);
    assert_eq!(
        (exec2, prep2),
        (1, 0),
        "statements are cached on the connection"
    );
    assert_eq!(exec3, 1, "a missing table is the same one statement");
}

/// What EXPLAIN must show for a read of one named table: MariaDB's
/// information_schema lookup with both names constant (no directory scan, one
/// table opened); MySQL's data-dictionary plan reaching `mysql.tables` by a
/// single-row lookup of (schema, name), never a scan of it.
async fn assert_reads_only_the_named_table(s: &mut Session<'_>, sql: &str, params: Vec<&str>) {
    let flavor = s.flavor();
    let explain = match flavor {
        schema_catalog::Flavor::MariaDb => format!("EXPLAIN {sql}"),
        _ => format!("EXPLAIN FORMAT=TREE {sql}"),
    };
    let rows: Vec<mysql_async::Row> = s
        .conn()
        .exec(explain.as_str(), params)
        .await
        .expect("explain");
    assert!(!rows.is_empty(), "a plan for {sql}");
    for row in rows {
        match flavor {
            schema_catalog::Flavor::MariaDb => {
                let table: String = row.get("table").unwrap();
                if table.starts_with("<union") {
                    // The union's own result: sorting the rows read above.
                    continue;
                }
                let extra: String = row.get("Extra").unwrap();
                assert!(
                    extra.contains("Scanned 0 databases"),
                    "{table}: {extra}\n{sql}"
                );
            }
            _ => {
                let plan: String = row.get(0).unwrap();
                assert!(
                    plan.contains("Single-row index lookup on tbl using schema_id"),
                    "{plan}\n{sql}"
                );
                assert!(!plan.contains("scan on tbl"), "{plan}\n{sql}");
            }
        }
    }
}

#[tokio::test]
async fn every_inspection_statement_opens_only_the_named_table() {
    let db = TestDb::new().await;
    db.exec(&[&kinds_ddl(&db)]).await;
    let mut s = session(&db).await;
    let info = s.server().clone();
    for sql in inspection_statements(&info) {
        let pairs = sql.matches('?').count() / 2;
        let params: Vec<&str> = [db.name.as_str(), "kinds"].repeat(pairs);
        assert_reads_only_the_named_table(&mut s, &sql, params).await;
    }
    let sql = index_statement(&info);
    let params = vec![db.name.as_str(), "kinds", "idx_lifecycle"];
    assert_reads_only_the_named_table(&mut s, &sql, params).await;
}

const READY_DDL: &[&str] = &[
    "CREATE TABLE r (a varchar(20) NOT NULL, b varchar(20) NOT NULL, c int, PRIMARY KEY (a, b))",
    "CREATE INDEX ix_exact ON r (a, b)",
    "CREATE INDEX ix_prefix_first ON r (a(5), b)",
    "CREATE INDEX ix_prefix_later ON r (a, b(5))",
    "CREATE UNIQUE INDEX uq_ab ON r (a, b)",
    "CREATE INDEX ix_upper ON r (A, B)",
    "CREATE INDEX ix_ignored ON r (a, b) HIDDEN",
];

async fn ready_schema() -> TestDb {
    let db = TestDb::new().await;
    let ddl: Vec<String> = READY_DDL
        .iter()
        .map(|s| s.replace("HIDDEN", db.hidden_index()))
        .collect();
    db.exec(&ddl.iter().map(String::as_str).collect::<Vec<_>>())
        .await;
    db
}

async fn ready(s: &mut Session<'_>, db: &TestDb, want: Index) -> IndexReadiness {
    index_ready(s, &db.name, "r", &want).await.unwrap()
}

fn not_ready(r: IndexReadiness) -> Vec<IndexProblem> {
    match r {
        IndexReadiness::Ready => panic!("expected not ready"),
        IndexReadiness::NotReady(p) => p,
    }
}

fn is_columns(p: &[IndexProblem]) -> bool {
    matches!(p, [IndexProblem::Columns { .. }])
}

#[tokio::test]
async fn index_readiness_is_exact() {
    let db = ready_schema().await;
    let mut s = session(&db).await;
    let ix = |name: &str, unique: bool, cols: &[&str]| Index::new(name, unique, cols);

    assert!(ready(&mut s, &db, ix("ix_exact", false, &["a", "b"]))
        .await
        .is_ready());
    assert!(ready(&mut s, &db, ix("IX_EXACT", false, &["A", "B"]))
        .await
        .is_ready());
    assert!(ready(&mut s, &db, ix("ix_upper", false, &["a", "b"]))
        .await
        .is_ready());
    assert!(ready(&mut s, &db, ix("PRIMARY", true, &["a", "b"]))
        .await
        .is_ready());

    let p = not_ready(ready(&mut s, &db, ix("ix_absent", false, &["a"])).await);
    assert_eq!(p, [IndexProblem::Missing]);
    let p = not_ready(ready(&mut s, &db, ix("ix_prefix_first", false, &["a", "b"])).await);
    assert_eq!(
        p,
        [IndexProblem::Prefix {
            column: "a".into(),
            length: Some(5),
            want: None,
        }]
    );
    let p = not_ready(ready(&mut s, &db, ix("ix_prefix_later", false, &["a", "b"])).await);
    assert_eq!(
        p,
        [IndexProblem::Prefix {
            column: "b".into(),
            length: Some(5),
            want: None,
        }]
    );
    let p = not_ready(ready(&mut s, &db, ix("uq_ab", false, &["a", "b"])).await);
    assert_eq!(
        p,
        [IndexProblem::Uniqueness {
            want: false,
            have: true
        }]
    );
    let p = not_ready(ready(&mut s, &db, ix("ix_exact", true, &["a", "b"])).await);
    assert_eq!(
        p,
        [IndexProblem::Uniqueness {
            want: true,
            have: false
        }]
    );
    assert!(is_columns(&not_ready(
        ready(&mut s, &db, ix("ix_exact", false, &["a", "b", "c"])).await
    )));
    assert!(is_columns(&not_ready(
        ready(&mut s, &db, ix("ix_exact", false, &["a"])).await
    )));
    assert!(is_columns(&not_ready(
        ready(&mut s, &db, ix("ix_exact", false, &["b", "a"])).await
    )));
    let p = not_ready(ready(&mut s, &db, ix("ix_ignored", false, &["a", "b"])).await);
    assert_eq!(p, [IndexProblem::NotVisible]);
}

#[tokio::test]
async fn index_readiness_is_one_statement() {
    let db = ready_schema().await;
    let mut s = session(&db).await;
    let before = counters(&mut s).await;
    index_ready(
        &mut s,
        &db.name,
        "r",
        &Index::new("ix_exact", false, &["a", "b"]),
    )
    .await
    .unwrap();
    let after = counters(&mut s).await;
    eprintln!("index_ready: {} executes", after.0 - before.0);
    assert_eq!(after.0 - before.0, 1);
}

fn url_with(db: &TestDb, userinfo: &str, host_port: &str) -> String {
    format!("mysql://{userinfo}@{host_port}/{}", db.name)
}

#[tokio::test]
async fn wrong_password_error_does_not_contain_it() {
    let db = TestDb::new().await;
    let secret = "Wr0ng-S3cret-pw";
    let target = db::parse_url(&url_with(
        &db,
        &format!("root:{secret}"),
        &common::host_port(),
    ))
    .unwrap();
    let err = db::connect(&target, TIMEOUT)
        .await
        .expect_err("login must fail");
    let (text, debug) = (err.to_string(), format!("{err:?}"));
    eprintln!("{text}");
    assert!(matches!(err, Error::Connect { .. }), "{debug}");
    assert!(
        text.contains("1045") && text.contains(&common::host_port()),
        "{text}"
    );
    assert!(!text.contains(secret) && !debug.contains(secret), "{debug}");
}

#[tokio::test]
async fn unknown_schema_is_named() {
    let url = format!("{}/sc_no_such_schema_x", common::server_url());
    let target = db::parse_url(&url).unwrap();
    let err = db::connect(&target, TIMEOUT).await.expect_err("must fail");
    assert_eq!(
        err.to_string(),
        format!(
            "schema `sc_no_such_schema_x` does not exist on {}; \
             create it or fix the database name in the URL",
            common::host_port()
        )
    );
}

#[tokio::test]
async fn closed_port_fails_fast_and_clearly() {
    let target = db::parse_url("mysql://root:pw123456@127.0.0.1:1/x").unwrap();
    let started = Instant::now();
    let err = db::connect(&target, Duration::from_secs(5))
        .await
        .expect_err("must fail");
    let text = err.to_string();
    eprintln!("{text}");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(
        text.starts_with("cannot connect to 127.0.0.1:1/x: server unreachable"),
        "{text}"
    );
    assert!(!text.contains("pw123456"));
}

#[tokio::test]
async fn silent_server_times_out() {
    // Accepts TCP connections but never sends the handshake.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let target = db::parse_url(&format!("mysql://root:pw123456@127.0.0.1:{port}/x")).unwrap();
    let started = Instant::now();
    let err = db::connect(&target, Duration::from_millis(500))
        .await
        .expect_err("must time out");
    assert!(started.elapsed() < Duration::from_secs(3));
    assert!(matches!(err, Error::Timeout { .. }), "{err:?}");
    assert!(
        err.to_string().contains("connecting to 127.0.0.1:"),
        "{err}"
    );
    drop(listener);
}
