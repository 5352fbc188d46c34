//! A table of hostile catalog values (engine, charset, collation, type,
//! default, comment, identifiers with quotes, backticks, semicolons,
//! newlines, NUL and comment markers). Each is either refused by `catalog
//! check` (exit 2, naming the file, the object and the value) and by `catalog
//! apply` before it connects, or rendered harmlessly: apply creates exactly
//! the declared table with the hostile text as a name or comment. In every
//! case an unmanaged sentinel table with rows survives byte for byte, and
//! nothing else appears in the schema. Runs on the server of
//! `CATALOG_TEST_DATABASE_URL` (MariaDB by default; MySQL on 3307).

use crate::cli_support;
use crate::common;

use std::path::Path;
use std::process::Output;

use cli_support::run;
use common::TestDb;
use mysql_async::prelude::*;
use serde_yaml::{Mapping, Value};

/// The table file every case starts from.
fn base_table() -> Value {
    serde_yaml::from_str(
        "table: Hostile
columns:
  - {name: Id, type: bigint unsigned, nullable: false}
  - {name: Note, type: varchar(64)}
primary_key: [Id]
indexes:
  - {name: ix_note, columns: [Note]}
",
    )
    .unwrap()
}

fn column(t: &mut Value, i: usize) -> &mut Mapping {
    t["columns"][i].as_mapping_mut().unwrap()
}

fn set(m: &mut Mapping, key: &str, value: &str) {
    m.insert(key.into(), value.into());
}

/// What a case must do.
enum Expect {
    /// `check` exits 2 and its message holds this text.
    Refused(&'static str),
    /// `check` passes; apply creates table `.0` whose column `.1` exists and
    /// whose table comment (if `.2`) reads back exactly.
    Harmless(&'static str, &'static str, Option<&'static str>),
}

/// How a case changes the base table.
enum Edit {
    /// Sets a key of the table.
    Table(&'static str, &'static str),
    /// Sets a key of the second column (`Note`).
    Column(&'static str, &'static str),
    /// Anything else.
    Other(fn(&mut Value)),
}

impl Edit {
    fn apply(&self, t: &mut Value) {
        match self {
            Edit::Table(key, value) => set(t.as_mapping_mut().unwrap(), key, value),
            Edit::Column(key, value) => set(column(t, 1), key, value),
            Edit::Other(edit) => edit(t),
        }
    }
}

struct Case {
    name: &'static str,
    edit: Edit,
    expect: Expect,
}

fn cases() -> Vec<Case> {
    use Edit::*;
    use Expect::*;
    vec![
        Case {
            name: "engine with a second statement",
            edit: Table("engine", "InnoDB; DROP TABLE keepme; --"),
            expect: Refused("unknown engine `InnoDB; DROP TABLE keepme; --`"),
        },
        Case {
            name: "engine with an executable comment",
            edit: Table("engine", "InnoDB /*! , x int */"),
            expect: Refused("unknown engine `InnoDB /*! , x int */`"),
        },
        Case {
            name: "engine with a newline",
            edit: Table("engine", "InnoDB\nDROP TABLE keepme"),
            expect: Refused("unknown engine `InnoDB\\nDROP TABLE keepme`"),
        },
        Case {
            name: "table charset",
            edit: Table("charset", "utf8mb4; DROP TABLE keepme"),
            expect: Refused("unknown charset `utf8mb4; drop table keepme`"),
        },
        Case {
            name: "table collation",
            edit: Table("collation", "utf8mb4_bin; DROP TABLE keepme"),
            expect: Refused("unknown collation `utf8mb4_bin; drop table keepme`"),
        },
        Case {
            name: "column collation with a comment marker",
            edit: Column("collation", "utf8mb4_bin -- x"),
            expect: Refused("unknown collation `utf8mb4_bin -- x`"),
        },
        Case {
            name: "type with a second statement",
            edit: Column("type", "varchar(64); DROP TABLE keepme"),
            expect: Refused("unknown type `varchar(64); DROP TABLE keepme`"),
        },
        Case {
            name: "type with an extra column",
            edit: Column("type", "int, x int"),
            expect: Refused("unknown type `int, x int`"),
        },
        Case {
            name: "expression default adding a column",
            edit: Column("default", "(concat(1,2)) , x int"),
            expect: Refused("default `(concat(1,2)) , x int` is more than one expression"),
        },
        Case {
            name: "expression default with a second statement",
            edit: Column("default", "(concat('a')); DROP TABLE keepme"),
            expect: Refused("contains `;`"),
        },
        Case {
            name: "expression default with an executable comment",
            edit: Column("default", "(1) /*! , x int */"),
            // MySQL runs the body of /*! */: the one lexer refuses it as a comment.
            expect: Refused("default `(1) /*! , x int */` contains an SQL comment"),
        },
        Case {
            name: "expression default with a subquery",
            edit: Column(
                "default",
                "(1 + (select count(*) from information_schema.tables))",
            ),
            expect: Refused("not an allowed default expression"),
        },
        Case {
            name: "expression default escaping a quote with a backslash",
            edit: Column("default", "(concat('a\\', ') , x int -- '))"),
            expect: Refused("contains an SQL comment"),
        },
        Case {
            name: "table name with a backtick",
            edit: Table("table", "t`; DROP TABLE keepme; --"),
            expect: Refused("identifier contains a backtick"),
        },
        Case {
            name: "column name with NUL",
            edit: Column("name", "No\0te"),
            expect: Refused("identifier contains a NUL character"),
        },
        Case {
            name: "index name with a backtick",
            edit: Other(|t| {
                set(
                    t["indexes"][0].as_mapping_mut().unwrap(),
                    "name",
                    "ix` (Id)); DROP TABLE keepme; --",
                )
            }),
            expect: Refused("identifier contains a backtick"),
        },
        Case {
            name: "table name outside the BMP",
            edit: Table("table", "t\u{1F600}"),
            expect: Refused("outside the Basic Multilingual Plane"),
        },
        Case {
            name: "table name with quote, semicolon and comment markers",
            edit: Table("table", "t'\"; DROP TABLE keepme; -- /* #"),
            expect: Harmless("t'\"; DROP TABLE keepme; -- /* #", "Note", None),
        },
        Case {
            name: "column name with a newline and comment markers",
            edit: Other(|t| {
                set(column(t, 1), "name", "No\nte -- */ #");
                t["indexes"][0]["columns"][0] = "No\nte -- */ #".into();
            }),
            expect: Harmless("Hostile", "No\nte -- */ #", None),
        },
        Case {
            name: "comment with quotes, backslash, newline and a statement",
            edit: Table("comment", "it's \\'; DROP TABLE keepme; -- \n*/ \\"),
            expect: Harmless(
                "Hostile",
                "Note",
                Some("it's \\'; DROP TABLE keepme; -- \n*/ \\"),
            ),
        },
        Case {
            name: "string default with a quote and a statement",
            edit: Column("default", "'x''; DROP TABLE keepme; --'"),
            expect: Harmless("Hostile", "Note", None),
        },
        Case {
            name: "column comment ending in a backslash",
            edit: Column("comment", "ends with \\"),
            expect: Harmless("Hostile", "Note", None),
        },
    ]
}

const CATALOG_YAML: &str =
    "defaults:\n  engine: InnoDB\n  charset: utf8mb4\n  collation: utf8mb4_bin\n";

fn write_catalog(dir: &Path, table: &Value) {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("catalog.yaml"), CATALOG_YAML).unwrap();
    std::fs::write(
        dir.join("hostile.yaml"),
        serde_yaml::to_string(table).unwrap(),
    )
    .unwrap();
}

async fn tables(db: &TestDb) -> Vec<String> {
    let mut c = db.pool.get_conn().await.unwrap();
    c.exec(
        "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME",
        (db.name.as_str(),),
    )
    .await
    .unwrap()
}

/// Every row of the sentinel (three rows; compared whole, not by checksum,
/// as MySQL 9 has no MD5()).
async fn sentinel_rows(db: &TestDb) -> Vec<(i32, String)> {
    let mut c = db.pool.get_conn().await.unwrap();
    let rows: Vec<(i32, String)> = c
        .query("SELECT id, v FROM keepme ORDER BY id")
        .await
        .expect("the sentinel table is there");
    assert_eq!(rows.len(), 3);
    rows
}

async fn table_comment(db: &TestDb, table: &str) -> String {
    let mut c = db.pool.get_conn().await.unwrap();
    let comment: Option<String> = c
        .exec_first(
            "SELECT TABLE_COMMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?",
            (db.name.as_str(), table),
        )
        .await
        .unwrap();
    comment.unwrap_or_default()
}

/// What is wrong when `out` did not exit `code` (`text`: what it said).
fn exited_other(what: &str, out: &Output, code: i32, text: &str) -> Option<String> {
    (out.status.code() != Some(code))
        .then(|| format!("{what} exited {:?}: {text}", out.status.code()))
}

async fn has_column(db: &TestDb, table: &str, column: &str) -> bool {
    let mut c = db.pool.get_conn().await.unwrap();
    let n: Option<u64> = c
        .exec_first(
            "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND COLUMN_NAME = ?",
            (db.name.as_str(), table, column),
        )
        .await
        .unwrap();
    n == Some(1)
}

#[tokio::test]
async fn hostile_values_are_refused_or_harmless_and_the_sentinel_survives() {
    let work = common::scratch_dir("hostile-catalog");
    let mut failures = Vec::new();
    let cases = cases();
    for (n, case) in cases.iter().enumerate() {
        let db = TestDb::new().await;
        db.exec(&[
            "CREATE TABLE keepme (id int PRIMARY KEY, v varchar(32))",
            "INSERT INTO keepme VALUES (1, 'a'), (2, 'b'), (3, 'c')",
        ])
        .await;
        let sentinel = sentinel_rows(&db).await;
        let mut table = base_table();
        case.edit.apply(&mut table);
        let dir = work.join(format!("case{n}"));
        write_catalog(&dir, &table);
        let dir_arg = dir.display().to_string();
        let check = run(vec!["--catalog".into(), dir_arg.clone(), "check".into()]).await;
        let check_err = String::from_utf8_lossy(&check.stderr).to_string();
        let apply = run(vec![
            "--catalog".into(),
            dir_arg,
            "--database-url".into(),
            db.url(),
            "--format".into(),
            "json".into(),
            "apply".into(),
        ])
        .await;
        let apply_out = String::from_utf8_lossy(&apply.stdout).to_string();
        let mut problem = |what: String| failures.push(format!("{}: {what}", case.name));
        match &case.expect {
            Expect::Refused(needle) => {
                if let Some(p) = exited_other("check", &check, 2, &check_err) {
                    problem(p);
                } else if !check_err.contains("hostile.yaml") || !check_err.contains(needle) {
                    problem(format!(
                        "check did not name the file and `{needle}`: {check_err}"
                    ));
                }
                if let Some(p) = exited_other("apply", &apply, 2, &apply_out) {
                    problem(p);
                }
                if tables(&db).await != ["keepme"] {
                    problem(format!("the schema changed: {:?}", tables(&db).await));
                }
            }
            Expect::Harmless(name, col, comment) => {
                if let Some(p) = exited_other("check", &check, 0, &check_err) {
                    problem(p);
                }
                if let Some(p) = exited_other("apply", &apply, 0, &apply_out) {
                    problem(p);
                }
                let mut want = vec![name.to_string(), "keepme".to_string()];
                want.sort();
                let mut got = tables(&db).await;
                got.sort();
                if got != want {
                    problem(format!("tables are {got:?}, not {want:?}"));
                } else if !has_column(&db, name, col).await {
                    problem(format!("column {col:?} is missing"));
                }
                if let Some(c) = comment {
                    let read = table_comment(&db, name).await;
                    if read != *c {
                        problem(format!("comment read back as {read:?}, not {c:?}"));
                    }
                }
            }
        }
        if sentinel_rows(&db).await != sentinel {
            failures.push(format!("{}: the sentinel table changed", case.name));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
