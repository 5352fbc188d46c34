//! MySQL-family behaviours proven live on each server: invisible columns
//! are read as such, functional and descending key parts are
//! drift, expression defaults converge, `CURRENT_TIMESTAMP` precision as the
//! server enforces it, INSTANT ADD COLUMN at MySQL's row-version limit, and a
//! password login over plain TCP. A test that only means something on one
//! flavor says so in its name and prints why it does nothing on the other.

use crate::common;

use std::time::Duration;

use common::{catalog_dir, catalog_tables, TestDb};
use mysql_async::prelude::*;
use schema_catalog::apply::StepStatus;
use schema_catalog::catalog;
use schema_catalog::db;
use schema_catalog::diff::ProblemKind;
use schema_catalog::inspect::inspect_table;
use schema_catalog::{Error, Flavor};

const TIMEOUT: Duration = Duration::from_secs(10);

async fn session(db: &TestDb) -> db::Session<'static> {
    db::connect(&db::parse_url(&db.url()).unwrap(), TIMEOUT)
        .await
        .expect("connect")
}

const T_YAML: &str = "table: t
columns:
  - { name: Id, type: bigint unsigned, nullable: false }
  - { name: State, type: varchar(32) }
primary_key: [Id]
indexes:
  - { name: idx_state, columns: [State] }
";

/// The catalog table `t`, and verify's problems against the live schema.
async fn verify_t(db: &TestDb) -> Vec<(String, ProblemKind)> {
    let cat = catalog::load(catalog_dir(&[("t.yaml", T_YAML)]).path()).unwrap();
    let mut s = session(db).await;
    let r = schema_catalog::verify(
        &mut s,
        &cat,
        &schema_catalog::VerifyOptions::default().schema(&db.name),
    )
    .await
    .unwrap();
    r.problems
        .iter()
        .map(|p| (p.object.clone(), p.kind))
        .collect()
}

const T_DDL: &str = "CREATE TABLE t (Id bigint unsigned NOT NULL, \
    State varchar(32) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL, PRIMARY KEY (Id)";

#[tokio::test]
async fn invisible_column_is_read_as_invisible_not_as_a_plain_column() {
    // MySQL 8.0.23+ and MariaDB 10.3+ both have INVISIBLE columns. The
    // attribute is read back (never misread as a visible column), so a
    // catalog that declares the column visible is drift and apply refuses
    // it without DDL.
    let db = TestDb::new().await;
    db.exec(&[
        &format!("{T_DDL}, KEY idx_state (State)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"),
        "ALTER TABLE t ADD COLUMN Secret int NULL INVISIBLE",
    ])
    .await;
    let mut s = session(&db).await;
    let live = inspect_table(&mut s, &db.name, "t").await.unwrap().unwrap();
    let secret = live.columns.iter().find(|c| c.name.as_str() == "Secret");
    assert!(secret.is_some_and(|c| c.invisible), "{live:?}");
    let visible = T_YAML.replace(
        "  - { name: State, type: varchar(32) }\n",
        "  - { name: State, type: varchar(32) }\n  - { name: Secret, type: int }\n",
    );
    let cat = catalog::load(catalog_dir(&[("t.yaml", &visible)]).path()).unwrap();
    let report = common::assert_apply_refused(&db, &catalog_tables(&cat), &[]).await;
    common::assert_drift(&report, "t", "Secret", ProblemKind::ColumnInvisible);
}

#[tokio::test]
async fn descending_key_part_is_drift() {
    // MySQL 8 and MariaDB 10.8+ store DESC key parts (STATISTICS.COLLATION = 'D').
    let db = TestDb::new().await;
    db.exec(&[&format!(
        "{T_DDL}, KEY idx_state (State DESC)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
    )])
    .await;
    assert_eq!(
        verify_t(&db).await,
        [("idx_state".to_string(), ProblemKind::IndexOrder)]
    );
}

#[tokio::test]
async fn mysql_only_functional_key_part_is_drift() {
    let db = TestDb::new().await;
    if db.flavor != Flavor::MySql {
        eprintln!(
            "{} has no functional key parts (a MySQL 8.0.13+ feature): nothing to run",
            db.version
        );
        return;
    }
    db.exec(&[&format!(
        "{T_DDL}, KEY idx_state ((lower(State)))) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
    )])
    .await;
    assert_eq!(
        verify_t(&db).await,
        [("idx_state".to_string(), ProblemKind::IndexExpression)]
    );
}

/// An expression default whose string literals hold capitals and a
/// backslash (the YAML `\\\\` is the SQL `'x\\y'`, the string `x\y`).
const EXPR_YAML: &str = r#"table: e
columns:
  - { name: Id, type: bigint unsigned, nullable: false }
  - { name: Tag, type: varchar(20), default: "(CONCAT('Abc', 'x\\\\y'))" }
primary_key: [Id]
"#;

/// The value the server stores in `e.Tag` for a row that names only `Id`.
async fn default_tag(db: &TestDb) -> String {
    let mut conn = db.pool.get_conn().await.unwrap();
    conn.query_drop("INSERT INTO e (Id) VALUES (1)")
        .await
        .unwrap();
    let tag: Option<String> = conn.query_first("SELECT Tag FROM e").await.unwrap();
    conn.query_drop("DELETE FROM e").await.unwrap();
    tag.expect("one row")
}

#[tokio::test]
async fn expression_default_converges_and_reads_back_equal() {
    // MySQL reports it as concat(_utf8mb4\'Abc\',_utf8mb4\'x\\\\y\'),
    // MariaDB as concat('Abc','x\\y'): both must equal the catalog's
    // spelling, and the default the server applies is the declared value
    // (case and backslash kept).
    let db = TestDb::new().await;
    let cat = catalog::load(catalog_dir(&[("e.yaml", EXPR_YAML)]).path()).unwrap();
    common::apply_converged(&db, &catalog_tables(&cat)).await;
    assert_eq!(default_tag(&db).await, r"Abcx\y");
    let mut conn = db.pool.get_conn().await.unwrap();
    let raw: Option<String> = conn
        .exec_first(
            "SELECT COLUMN_DEFAULT FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = 'e' AND COLUMN_NAME = 'Tag'",
            (db.name.as_str(),),
        )
        .await
        .unwrap();
    eprintln!("{} reports the default as {raw:?}", db.flavor);
    drop(conn);
    common::assert_verified_and_idle(&db, &cat).await;
}

/// A live expression default whose literal differs from the catalog's only
/// in case, or only by the backslash, is drift.
#[tokio::test]
async fn expression_default_literal_case_and_backslash_are_drift() {
    let cat = catalog::load(catalog_dir(&[("e.yaml", EXPR_YAML)]).path()).unwrap();
    for (live, stored) in [
        (r"concat('abc', 'x\\y')", r"abcx\y"),
        (r"concat('Abc', 'xy')", "Abcxy"),
    ] {
        let db = TestDb::new().await;
        db.exec(&[&format!(
            "CREATE TABLE e (Id bigint unsigned NOT NULL, \
             Tag varchar(20) NULL DEFAULT ({live}), PRIMARY KEY (Id)) \
             DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
        )])
        .await;
        assert_eq!(default_tag(&db).await, stored);
        let mut s = session(&db).await;
        let r = schema_catalog::verify(
            &mut s,
            &cat,
            &schema_catalog::VerifyOptions::default().schema(&db.name),
        )
        .await
        .unwrap();
        let kinds: Vec<_> = r
            .problems
            .iter()
            .map(|p| (p.object.as_str(), p.kind))
            .collect();
        assert_eq!(kinds, [("Tag", ProblemKind::ColumnDefault)], "{live}");
    }
}

/// `CURRENT_TIMESTAMP(p)` on a `datetime(f)`: the lint refuses exactly the
/// pairs MySQL refuses (error 1067: p must equal f), which MariaDB accepts
/// (a catalog must apply on every flavor), and every pair it accepts reads
/// back as declared on each server.
#[tokio::test]
async fn current_timestamp_precision_lint_matches_the_server() {
    let db = TestDb::new().await;
    let mut s = session(&db).await;
    for f in [0u8, 3, 6] {
        for p in [0u8, 3, 6] {
            let def = if p == 0 {
                "CURRENT_TIMESTAMP".to_string()
            } else {
                format!("CURRENT_TIMESTAMP({p})")
            };
            let yaml = format!(
                "table: c{f}{p}\ncolumns:\n  - {{ name: Id, type: int, nullable: false }}\n  - {{ name: At, type: datetime({f}), default: \"{def}\" }}\nprimary_key: [Id]\n"
            );
            let report = catalog::check(catalog_dir(&[("c.yaml", &yaml)]).path());
            let lint_refuses = report.catalog.is_none();
            let table = format!("c{f}{p}");
            let created = {
                let mut conn = db.pool.get_conn().await.unwrap();
                conn.query_drop(format!(
                    "CREATE TABLE `{table}` (Id int NOT NULL PRIMARY KEY, At datetime({f}) NULL DEFAULT {def})"
                ))
                .await
            };
            let reads_back_as_declared = match &created {
                Err(mysql_async::Error::Server(e)) => {
                    assert_eq!(e.code, 1067, "{table}: {e}");
                    false
                }
                Err(e) => panic!("{table}: {e}"),
                Ok(()) => {
                    let t = inspect_table(&mut s, &db.name, &table)
                        .await
                        .unwrap()
                        .unwrap();
                    let at = t.column(&"At".into()).unwrap();
                    at.default == Some(schema_catalog::DefaultValue::CurrentTimestamp(p))
                }
            };
            eprintln!(
                "{}: datetime({f}) DEFAULT {def}: server {}, lint {}",
                db.flavor,
                match created {
                    Ok(()) => "accepts",
                    Err(_) => "refuses",
                },
                if lint_refuses { "refuses" } else { "accepts" }
            );
            assert!(
                lint_refuses || reads_back_as_declared,
                "the lint accepts datetime({f}) DEFAULT {def}, which {} does not keep",
                db.flavor
            );
            if db.flavor == Flavor::MySql {
                // The strictest flavor: the lint is exactly MySQL's rule.
                assert_eq!(
                    created.is_err(),
                    lint_refuses,
                    "MySQL refuses exactly what the lint refuses: datetime({f}) DEFAULT {def}"
                );
            }
        }
    }
}

#[tokio::test]
async fn mysql_only_instant_add_column_at_the_row_version_limit_falls_back_to_inplace() {
    let db = TestDb::new().await;
    if db.flavor != Flavor::MySql {
        eprintln!(
            "{} has no instant row-version limit (MySQL error 4092): nothing to run",
            db.version
        );
        return;
    }
    db.exec(&[
        "CREATE TABLE r (Id bigint unsigned NOT NULL, A int NULL, PRIMARY KEY (Id)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
        "INSERT INTO r VALUES (1, 10), (2, 20), (3, NULL)",
    ])
    .await;
    // Spend the row versions: instant ADD COLUMNs until the server refuses with 4092.
    let mut conn = db.pool.get_conn().await.unwrap();
    let mut added = 0;
    loop {
        assert!(added < 1000, "no 4092 after {added} instant ADD COLUMNs");
        match conn
            .query_drop(format!(
                "ALTER TABLE r ADD COLUMN Pad{added} int NULL, ALGORITHM=INSTANT"
            ))
            .await
        {
            Ok(()) => added += 1,
            Err(mysql_async::Error::Server(e)) if e.code == 4092 => break,
            Err(e) => panic!("after {added}: {e}"),
        }
    }
    let versions: u64 = conn
        .exec_first(
            "SELECT TOTAL_ROW_VERSIONS FROM information_schema.INNODB_TABLES WHERE NAME = ?",
            (format!("{}/r", db.name),),
        )
        .await
        .unwrap()
        .unwrap();
    eprintln!("4092 after {added} instant ADD COLUMNs; TOTAL_ROW_VERSIONS = {versions}");
    drop(conn);
    let before = db.checksum("r", &["Id", "A"]).await;
    let yaml = "table: r
columns:
  - { name: Id, type: bigint unsigned, nullable: false }
  - { name: A, type: int }
  - { name: Late, type: varchar(16) }
primary_key: [Id]
";
    let cat = catalog::load(catalog_dir(&[("r.yaml", yaml)]).path()).unwrap();
    let report = common::apply_converged(&db, &catalog_tables(&cat)).await;
    assert_eq!(report.steps.len(), 1);
    let step = &report.steps[0];
    assert_eq!(step.status, StepStatus::Applied);
    assert!(
        step.sql.ends_with("ALGORITHM=INPLACE, LOCK=NONE"),
        "{}",
        step.sql
    );
    assert_eq!(
        db.checksum("r", &["Id", "A"]).await,
        before,
        "rows unchanged"
    );
    let t = inspect_table(&mut session(&db).await, &db.name, "r")
        .await
        .unwrap()
        .unwrap();
    assert!(t.column(&"Late".into()).is_some_and(|c| c.nullable));
}

#[tokio::test]
async fn password_login_over_plain_tcp_works() {
    // MySQL: caching_sha2_password, its cache flushed so the login takes the
    // full exchange (RSA key from the server, no TLS). MariaDB: mysql_native_password.
    let db = TestDb::new().await;
    let user = format!("sc_pw_{}", &db.name[5..]);
    let password = "Pl41n-TCP-pw";
    let plugin = match db.flavor {
        Flavor::MySql => "caching_sha2_password",
        _ => "mysql_native_password",
    };
    let create = match db.flavor {
        Flavor::MySql => format!(
            "CREATE USER '{user}'@'%' IDENTIFIED WITH caching_sha2_password BY '{password}'"
        ),
        _ => format!("CREATE USER '{user}'@'%' IDENTIFIED BY '{password}'"),
    };
    db.exec(&[
        &create,
        &format!("GRANT ALL ON `{}`.* TO '{user}'@'%'", db.name),
        "FLUSH PRIVILEGES",
    ])
    .await;
    let url = format!(
        "mysql://{user}:{password}@{}/{}",
        common::host_port(),
        db.name
    );
    let connected = db::connect(&db::parse_url(&url).unwrap(), TIMEOUT).await;
    let mut conn = db.pool.get_conn().await.unwrap();
    let stored: Option<String> = conn
        .exec_first(
            "SELECT plugin FROM mysql.user WHERE User = ?",
            (user.as_str(),),
        )
        .await
        .unwrap();
    conn.query_drop(format!("DROP USER '{user}'@'%'"))
        .await
        .unwrap();
    assert_eq!(stored.as_deref(), Some(plugin));
    let mut s = connected.unwrap_or_else(|e| panic!("{plugin} login over plain TCP: {e}"));
    assert_eq!(s.flavor(), db.flavor);
    let tls: Option<(String, String)> = s
        .conn()
        .query_first("SHOW SESSION STATUS LIKE 'Ssl_cipher'")
        .await
        .unwrap();
    assert_eq!(
        tls.map(|t| t.1).as_deref(),
        Some(""),
        "the session is not TLS"
    );
}

#[tokio::test]
async fn tls_login_works_or_fails_with_one_clear_line() {
    // MySQL 9.7 has TLS on with a self-signed certificate; this MariaDB has
    // none. Either way a TLS URL never panics and never silently goes plain.
    let db = TestDb::new().await;
    let base = format!("{}/{}", common::server_url(), db.name);
    let strict = db::connect(
        &db::parse_url(&format!("{base}?require_ssl=true")).unwrap(),
        TIMEOUT,
    )
    .await;
    let relaxed = db::connect(
        &db::parse_url(&format!("{base}?require_ssl=true&verify_ca=false")).unwrap(),
        TIMEOUT,
    )
    .await;
    match db.flavor {
        Flavor::MySql => {
            let err = strict.expect_err("a self-signed certificate is refused");
            assert!(err.to_string().contains("TLS handshake failed"), "{err}");
            let mut s = relaxed.unwrap_or_else(|e| panic!("TLS with verify_ca=false: {e}"));
            let cipher: Option<(String, String)> = s
                .conn()
                .query_first("SHOW SESSION STATUS LIKE 'Ssl_cipher'")
                .await
                .unwrap();
            assert!(
                cipher.is_some_and(|c| !c.1.is_empty()),
                "the session is TLS"
            );
        }
        _ => {
            for r in [strict, relaxed] {
                let err = r.expect_err("no TLS on this server");
                let text = err.to_string();
                assert!(matches!(err, Error::Connect { .. }), "{err:?}");
                assert!(text.contains("SSL") && !text.contains('\n'), "{text}");
            }
        }
    }
}
