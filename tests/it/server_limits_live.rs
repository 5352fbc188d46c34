//! The server-limit lints match the real server (MariaDB or MySQL): a table
//! exactly at each limit passes `check` and the server creates it; one step
//! over, `check` refuses it naming the limit, and the server refuses the
//! same table too (so the lint never refuses what the server would take,
//! nor lets through what it would refuse). MySQL 9 "takes" a name outside
//! the BMP by storing `?` in its place: a table apply could never find.

use crate::common;

use std::path::{Path, PathBuf};

use common::TestDb;
use mysql_async::prelude::*;
use schema_catalog::catalog;
use schema_catalog::model::{Column, Index, Table};
use schema_catalog::ColumnType;
use schema_catalog::{ddl, Flavor};

/// A table as YAML: header lines and column/index lines (flow style).
struct Spec {
    head: String,
    columns: Vec<String>,
    indexes: Vec<String>,
}

impl Spec {
    fn yaml(&self) -> String {
        let mut y = format!("{}\ncolumns:\n", self.head);
        for c in &self.columns {
            y.push_str(&format!("  - {c}\n"));
        }
        if !self.indexes.is_empty() {
            y.push_str("indexes:\n");
            for i in &self.indexes {
                y.push_str(&format!("  - {i}\n"));
            }
        }
        y
    }
}

fn write(dir: &Path, spec: &Spec) {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("t.yaml"), spec.yaml()).unwrap();
    // The limit tables have no primary key (a key would move the limits).
    std::fs::write(
        dir.join("catalog.yaml"),
        "lint: {rules: {primary-key: off}}\n",
    )
    .unwrap();
}

/// One limit: the table at the limit, and how to take it one step over,
/// both as YAML (for `check`) and as a model change (for the server).
struct Case {
    name: &'static str,
    at_limit: Spec,
    over_yaml: fn(&mut Spec),
    over_table: fn(&mut Table),
    /// What `check` says about the over-limit table.
    message: &'static str,
    /// The catalog's limit is the strictest flavor's: MariaDB takes up to
    /// 32 key parts where MySQL stops at 16.
    mariadb_takes_over: bool,
}

fn ints(n: usize) -> Vec<String> {
    (1..=n)
        .map(|i| format!("{{ name: C{i}, type: int }}"))
        .collect()
}

fn cases() -> Vec<Case> {
    let plain = |name: &str| format!("table: {name}");
    vec![
        Case {
            name: "columns",
            at_limit: Spec {
                head: plain("Cols"),
                columns: ints(1017),
                indexes: vec![],
            },
            over_yaml: |s| s.columns.push("{ name: C1018, type: int }".into()),
            over_table: |t| {
                t.columns
                    .push(Column::new("C1018", ColumnType::parse("int").unwrap()))
            },
            message: "the server's limit is 1017",
            mariadb_takes_over: false,
        },
        Case {
            name: "indexes",
            at_limit: Spec {
                head: plain("Idx"),
                columns: ints(65),
                indexes: (1..=64)
                    .map(|i| format!("{{ name: i{i}, columns: [C{i}] }}"))
                    .collect(),
            },
            over_yaml: |s| s.indexes.push("{ name: i65, columns: [C65] }".into()),
            over_table: |t| t.indexes.push(Index::new("i65", false, &["C65"])),
            message: "the server's limit is 64",
            mariadb_takes_over: false,
        },
        Case {
            name: "key parts",
            at_limit: Spec {
                head: plain("Parts"),
                columns: ints(17),
                indexes: vec![format!(
                    "{{ name: wide, columns: [{}] }}",
                    (1..=16)
                        .map(|i| format!("C{i}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )],
            },
            over_yaml: |s| s.indexes[0] = s.indexes[0].replace("C16]", "C16, C17]"),
            over_table: |t| {
                let extra = Index::new("x", false, &["C17"]).parts.remove(0);
                t.indexes[0].parts.push(extra);
            },
            message: "the server's limit is 16 key parts",
            mariadb_takes_over: true,
        },
        Case {
            name: "row size (utf8mb4)",
            at_limit: Spec {
                head: plain("RowWide"),
                columns: vec![
                    "{ name: A, type: varchar(8000), nullable: false }".into(),
                    "{ name: B, type: varchar(8378), nullable: false }".into(),
                    "{ name: T, type: text, nullable: false }".into(),
                    "{ name: D, type: datetime(6), nullable: false }".into(),
                    "{ name: N, type: tinyint, nullable: false }".into(),
                ],
                indexes: vec![],
            },
            // 32,002 + 33,514 + 10 + 8 + 1 = 65,535; a smallint N adds the one byte over.
            over_yaml: |s| s.columns[4] = "{ name: N, type: smallint, nullable: false }".into(),
            over_table: |t| t.columns[4].ty = ColumnType::parse("smallint").unwrap(),
            message: "row-size limit",
            mariadb_takes_over: false,
        },
        Case {
            name: "row size (latin1, NULL flags)",
            at_limit: Spec {
                head: "table: RowLatin1\ncharset: latin1\ncollation: latin1_bin".into(),
                columns: vec![
                    "{ name: A, type: varchar(32765), nullable: false }".into(),
                    "{ name: B, type: varchar(32766), nullable: false }".into(),
                ],
                indexes: vec![],
            },
            over_yaml: |s| s.columns[0] = "{ name: A, type: varchar(32765) }".into(),
            over_table: |t| t.columns[0].nullable = true,
            message: "row-size limit",
            mariadb_takes_over: false,
        },
        Case {
            name: "comments",
            at_limit: Spec {
                head: format!("table: Comments\ncomment: {}", "t".repeat(2048)),
                columns: vec![format!(
                    "{{ name: A, type: int, comment: {} }}",
                    "c".repeat(1024)
                )],
                indexes: vec![format!(
                    "{{ name: ia, columns: [A], comment: {} }}",
                    "i".repeat(1024)
                )],
            },
            over_yaml: |s| s.head.push('t'),
            over_table: |t| t.comment.as_mut().unwrap().push('t'),
            message: "the table comment is 2049 characters",
            mariadb_takes_over: false,
        },
    ]
}

fn scratch(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "limits-{}-{}",
        std::process::id(),
        name.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
    ))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_limit_is_where_the_server_draws_it() {
    let db = TestDb::new().await;
    let mut conn = db.pool.get_conn().await.unwrap();
    let version: String = conn.query_first("SELECT VERSION()").await.unwrap().unwrap();
    let flavor = Flavor::detect(&version);
    for case in cases() {
        let dir = scratch(case.name);
        write(&dir, &case.at_limit);
        let report = catalog::check(&dir);
        let text = report.render_human();
        let loaded = report
            .catalog
            .unwrap_or_else(|| panic!("{}: at the limit must pass check:\n{text}", case.name));
        let mut table = loaded.tables[0].table.clone();
        let sql = ddl::create_table(&table, flavor);
        conn.query_drop(&sql).await.unwrap_or_else(|e| {
            panic!("{}: the server refused the at-limit table: {e}", case.name)
        });
        conn.query_drop(format!(
            "DROP TABLE {}",
            schema_catalog::quote_ident(table.name.as_str())
        ))
        .await
        .unwrap();

        let mut over = Spec {
            head: case.at_limit.head.clone(),
            columns: case.at_limit.columns.clone(),
            indexes: case.at_limit.indexes.clone(),
        };
        (case.over_yaml)(&mut over);
        write(&dir, &over);
        let report = catalog::check(&dir);
        let text = report.render_human();
        assert!(
            report.catalog.is_none(),
            "{}: over the limit passed check",
            case.name
        );
        assert!(
            text.contains(case.message)
                && text.contains("t.yaml")
                && text.contains(table.name.as_str()),
            "{}: {text}",
            case.name
        );
        (case.over_table)(&mut table);
        let refused = conn
            .query_drop(ddl::create_table(&table, flavor))
            .await
            .is_err();
        if case.mariadb_takes_over && flavor == Flavor::MariaDb {
            assert!(!refused, "{}: MariaDB's own limit is higher", case.name);
            conn.query_drop(format!(
                "DROP TABLE {}",
                schema_catalog::quote_ident(table.name.as_str())
            ))
            .await
            .unwrap();
        } else {
            assert!(
                refused,
                "{}: the server took the table check refuses",
                case.name
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_refuses_names_outside_the_bmp_and_with_trailing_spaces() {
    let db = TestDb::new().await;
    let mut conn = db.pool.get_conn().await.unwrap();
    for name in ["T\u{1F600}", "T "] {
        let sql = format!(
            "CREATE TABLE {} (Id int)",
            schema_catalog::quote_ident(name)
        );
        if conn.query_drop(&sql).await.is_ok() {
            let stored: Vec<String> = conn
                .exec(
                    "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?",
                    (db.name.as_str(),),
                )
                .await
                .unwrap();
            assert!(
                !stored.iter().any(|s| s == name),
                "the server took `{name}` as it is: {stored:?}"
            );
        }
        let dir = scratch(name);
        write(
            &dir,
            &Spec {
                head: format!("table: \"{name}\""),
                columns: vec!["{ name: Id, type: int }".into()],
                indexes: vec![],
            },
        );
        let report = catalog::check(&dir);
        assert!(
            report.catalog.is_none(),
            "check took `{name}`: {}",
            report.render_human()
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
