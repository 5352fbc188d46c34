//! `catalog check` agrees with the real server (each flavor) on the format
//! v2 combinations a server refuses: for each case, the lint verdict for a
//! catalog that targets the server's flavor is the server's verdict on the
//! rendered `CREATE TABLE` — refused with the error code the lint message
//! quotes, or accepted when the lint accepts. A lint rule that goes stale
//! (the server starts accepting, or refuses something lint lets through)
//! fails here. Finally, `catalog import` narrows `flavors` for a table only
//! this server holds, and the import passes `catalog check`.

use crate::common;

use std::path::Path;

use common::TestDb;
use mysql_async::prelude::Queryable;
use schema_catalog::catalog::{self, CheckReport};
use schema_catalog::model::{ForeignKey, ReferentialAction};
use schema_catalog::{ddl, sqltext, DefaultValue, Flavor, Ident, Table};

/// A table every flavor accepts: the cases below edit one thing in it.
const BASE: &str = r#"
table: Agree
columns:
  - {name: Id, type: bigint unsigned, nullable: false, auto_increment: true}
  - {name: ParentId, type: bigint unsigned}
  - {name: OwnerId, type: bigint unsigned}
  - {name: Attempts, type: int, nullable: false}
  - {name: Note, type: varchar(64)}
  - {name: At, type: datetime}
  - {name: Kind, type: "enum('a','b')"}
  - name: NoteLower
    type: varchar(64)
    generated: {expression: "lower(Note)", stored: true}
  - name: ParentCopy
    type: bigint unsigned
    generated: {expression: "ParentId + 0", stored: true}
  - name: Derived
    type: varchar(255)
    generated: {expression: "concat(Note, '!')"}
primary_key: [Id]
indexes:
  - {name: idx_parent, columns: [ParentId]}
  - {name: idx_owner, columns: [OwnerId]}
  - {name: idx_parent_copy, columns: [ParentCopy]}
  - {name: ft_note_lower, kind: fulltext, columns: [NoteLower]}
foreign_keys:
  - {name: fk_agree_copy, columns: [ParentCopy], references: {table: Agree, columns: [Id]}, on_delete: cascade}
  - {name: fk_agree_owner, columns: [OwnerId], references: {table: Agree, columns: [Id]}, on_delete: set null}
checks:
  - {name: chk_agree, expression: "Attempts >= 0"}
"#;

/// One refused combination: the same edit as YAML text and on the model.
struct Case {
    label: &'static str,
    /// Replaces `.0` (once, exactly) in [`BASE`] by `.1`.
    edit: (&'static str, String),
    /// The same edit on the base model.
    mutate: fn(&mut Table),
    /// The object the lint message names.
    object: &'static str,
    /// The error MySQL refuses it with, if it does.
    mysql: Option<u16>,
    /// The error MariaDB refuses it with, if it does.
    mariadb: Option<u16>,
}

fn column<'a>(t: &'a mut Table, name: &str) -> &'a mut schema_catalog::Column {
    let name = Ident::new(name);
    t.columns.iter_mut().find(|c| c.name == name).unwrap()
}

fn set_stored(t: &mut Table, name: &str, stored: bool) {
    column(t, name).generated.as_mut().unwrap().stored = stored;
}

fn set_generated(t: &mut Table, name: &str, text: &str) {
    let names: Vec<Ident> = t.columns.iter().map(|c| c.name.clone()).collect();
    let g = column(t, name).generated.as_mut().unwrap();
    g.expression = sqltext::render_generated_expression(text, &names).unwrap();
}

fn set_check(t: &mut Table, text: &str) {
    let names: Vec<Ident> = t.columns.iter().map(|c| c.name.clone()).collect();
    t.checks[0].expression = sqltext::render_check_expression(text, &names).unwrap();
}

fn set_default(t: &mut Table, name: &str, literal: &str) {
    column(t, name).default = Some(DefaultValue::Literal(literal.into()));
}

fn parent_fk(t: &mut Table, on_delete: ReferentialAction) {
    t.foreign_keys.insert(
        0,
        ForeignKey {
            name: Ident::new("fk_agree_parent"),
            columns: vec![Ident::new("ParentId")],
            referenced_schema: None,
            referenced_table: Ident::new("Agree"),
            referenced_columns: vec![Ident::new("Id")],
            on_delete,
            on_update: ReferentialAction::Restrict,
        },
    );
}

const PARENT_FK: &str = "foreign_keys:\n";
const NOTE_LOWER: &str = r#"generated: {expression: "lower(Note)", stored: true}"#;
const PARENT_COPY: &str = r#"generated: {expression: "ParentId + 0", stored: true}"#;
const DERIVED: &str = r#"generated: {expression: "concat(Note, '!')"}"#;
const CHECK: &str = r#"expression: "Attempts >= 0""#;
const AT: &str = "{name: At, type: datetime}";
const KIND: &str = "enum('a','b')";

fn cases() -> Vec<Case> {
    vec![
        Case {
            label: "FULLTEXT on a VIRTUAL column",
            edit: (NOTE_LOWER, r#"generated: {expression: "lower(Note)"}"#.into()),
            mutate: |t| set_stored(t, "NoteLower", false),
            object: "index `ft_note_lower`",
            mysql: Some(3106),
            mariadb: Some(1907),
        },
        Case {
            label: "foreign key over a VIRTUAL column",
            edit: (PARENT_COPY, r#"generated: {expression: "ParentId + 0"}"#.into()),
            mutate: |t| set_stored(t, "ParentCopy", false),
            object: "foreign key `fk_agree_copy`",
            mysql: Some(3733),
            mariadb: None,
        },
        Case {
            label: "ON UPDATE CASCADE writing a STORED column",
            edit: (
                "on_delete: cascade}",
                "on_delete: cascade, on_update: cascade}".into(),
            ),
            mutate: |t| t.foreign_keys[0].on_update = ReferentialAction::Cascade,
            object: "foreign key `fk_agree_copy`",
            mysql: Some(3104),
            mariadb: Some(1905),
        },
        Case {
            label: "ON DELETE CASCADE over a STORED column's base",
            edit: (PARENT_FK, "foreign_keys:\n  - {name: fk_agree_parent, columns: [ParentId], references: {table: Agree, columns: [Id]}, on_delete: cascade}\n".into()),
            mutate: |t| parent_fk(t, ReferentialAction::Cascade),
            object: "foreign key `fk_agree_parent`",
            mysql: Some(1215),
            mariadb: None,
        },
        Case {
            label: "ON DELETE SET NULL over a STORED column's base",
            edit: (PARENT_FK, "foreign_keys:\n  - {name: fk_agree_parent, columns: [ParentId], references: {table: Agree, columns: [Id]}, on_delete: set null}\n".into()),
            mutate: |t| parent_fk(t, ReferentialAction::SetNull),
            object: "foreign key `fk_agree_parent`",
            mysql: Some(1215),
            mariadb: Some(1901),
        },
        Case {
            label: "a CHECK that is a value",
            edit: (CHECK, r#"expression: "Attempts""#.into()),
            mutate: |t| set_check(t, "Attempts"),
            object: "check `chk_agree`",
            mysql: Some(3812),
            mariadb: None,
        },
        Case {
            label: "a CHECK on the AUTO_INCREMENT column",
            edit: (CHECK, r#"expression: "Id > 0""#.into()),
            mutate: |t| set_check(t, "Id > 0"),
            object: "check `chk_agree`",
            mysql: Some(3818),
            mariadb: Some(1901),
        },
        Case {
            label: "a CHECK on a column ON DELETE SET NULL writes",
            edit: (CHECK, r#"expression: "OwnerId > 0""#.into()),
            mutate: |t| set_check(t, "OwnerId > 0"),
            object: "check `chk_agree`",
            mysql: Some(3823),
            mariadb: Some(1901),
        },
        Case {
            label: "a zero date default",
            edit: (AT, r#"{name: At, type: datetime, default: "'0000-00-00 00:00:00'"}"#.into()),
            mutate: |t| set_default(t, "At", "0000-00-00 00:00:00"),
            object: "column `At`",
            mysql: Some(1067),
            mariadb: None,
        },
        Case {
            label: "a default with a zero month",
            edit: (AT, r#"{name: At, type: datetime, default: "'2020-00-01 00:00:00'"}"#.into()),
            mutate: |t| set_default(t, "At", "2020-00-01 00:00:00"),
            object: "column `At`",
            mysql: Some(1067),
            mariadb: None,
        },
        Case {
            label: "a default in year 0 (not a zero date)",
            edit: (AT, r#"{name: At, type: datetime, default: "'0000-01-01 00:00:00'"}"#.into()),
            mutate: |t| set_default(t, "At", "0000-01-01 00:00:00"),
            object: "column `At`",
            mysql: None,
            mariadb: None,
        },
        Case {
            label: "a date not on the calendar",
            edit: (AT, r#"{name: At, type: datetime, default: "'2021-02-29 00:00:00'"}"#.into()),
            mutate: |t| set_default(t, "At", "2021-02-29 00:00:00"),
            object: "column `At`",
            mysql: Some(1067),
            mariadb: Some(1067),
        },
        Case {
            label: "a timestamp default past 2038",
            edit: (AT, r#"{name: At, type: timestamp, default: "'2040-01-01 00:00:00'"}"#.into()),
            mutate: |t| {
                column(t, "At").ty = schema_catalog::ColumnType::Timestamp(0);
                set_default(t, "At", "2040-01-01 00:00:00");
            },
            object: "column `At`",
            mysql: Some(1067),
            mariadb: Some(1067),
        },
        Case {
            label: "a timestamp default in range",
            edit: (AT, r#"{name: At, type: timestamp, default: "'2000-01-01 00:00:00'"}"#.into()),
            mutate: |t| {
                column(t, "At").ty = schema_catalog::ColumnType::Timestamp(0);
                set_default(t, "At", "2000-01-01 00:00:00");
            },
            object: "column `At`",
            mysql: None,
            mariadb: None,
        },
        Case {
            label: "an enum member over 255 characters",
            edit: (KIND, format!("enum('{}','b')", "a".repeat(256))),
            mutate: |t| {
                column(t, "Kind").ty = schema_catalog::ColumnType::Enum(vec!["a".repeat(256), "b".into()]);
            },
            object: "column `Kind`",
            mysql: Some(3505),
            mariadb: None,
        },
        Case {
            label: "a VIRTUAL column naming the AUTO_INCREMENT column",
            edit: (DERIVED, r#"generated: {expression: "Id + 1"}"#.into()),
            mutate: |t| set_generated(t, "Derived", "Id + 1"),
            object: "column `Derived`",
            mysql: Some(3109),
            mariadb: None,
        },
        Case {
            label: "a STORED column naming the AUTO_INCREMENT column",
            edit: (DERIVED, r#"generated: {expression: "Id + 1", stored: true}"#.into()),
            mutate: |t| {
                set_generated(t, "Derived", "Id + 1");
                set_stored(t, "Derived", true);
            },
            object: "column `Derived`",
            mysql: Some(3109),
            mariadb: Some(1901),
        },
    ]
}

/// One call in a CHECK or a generated column, and whether each server
/// refuses it there (as probed; the test re-proves it).
struct Call {
    text: &'static str,
    /// In a CHECK: (MySQL, MariaDB).
    check: (bool, bool),
    /// In a VIRTUAL column no index uses: (MySQL, MariaDB).
    virtual_column: (bool, bool),
    /// In a STORED column: (MySQL, MariaDB).
    stored_column: (bool, bool),
}

const fn call(
    text: &'static str,
    check: (bool, bool),
    virtual_column: (bool, bool),
    stored_column: (bool, bool),
) -> Call {
    Call {
        text,
        check,
        virtual_column,
        stored_column,
    }
}

/// Refused in a CHECK and a STORED column everywhere, in a VIRTUAL one by MySQL.
const fn volatile(text: &'static str) -> Call {
    call(text, (true, true), (true, false), (true, true))
}

/// Refused everywhere.
const fn never(text: &'static str) -> Call {
    call(text, (true, true), (true, true), (true, true))
}

const CALLS: &[Call] = &[
    volatile("now()"),
    volatile("current_timestamp"),
    volatile("localtimestamp()"),
    volatile("curdate()"),
    volatile("curtime()"),
    volatile("utc_timestamp()"),
    volatile("rand()"),
    volatile("uuid()"),
    volatile("uuid_short()"),
    volatile("connection_id()"),
    volatile("current_user()"),
    volatile("user()"),
    volatile("database()"),
    volatile("version()"),
    volatile("unix_timestamp()"),
    never("last_insert_id()"),
    never("found_rows()"),
    // MySQL 9.7 takes SYSDATE() in a CHECK.
    call("sysdate()", (false, true), (true, false), (true, true)),
    // The session time zone: MySQL only.
    call(
        "unix_timestamp(At)",
        (true, false),
        (true, false),
        (true, false),
    ),
    // The session time zone or locale: MariaDB only, and only where it
    // keeps the value.
    call(
        "from_unixtime(Attempts)",
        (false, true),
        (false, false),
        (false, true),
    ),
    call(
        "date_format(At, '%Y')",
        (false, true),
        (false, false),
        (false, true),
    ),
    call("dayname(At)", (false, true), (false, false), (false, true)),
    call(
        "monthname(At)",
        (false, true),
        (false, false),
        (false, true),
    ),
    call(
        "lower(Note)",
        (false, false),
        (false, false),
        (false, false),
    ),
];

/// The verdict for this server out of a (MySQL, MariaDB) pair.
fn pick(db: &TestDb, pair: (bool, bool)) -> bool {
    if db.is_mariadb() {
        pair.1
    } else {
        pair.0
    }
}

/// Lints `table` on a catalog that targets only the server's flavor
/// (`primary-key` off: the tables without one are what some cases test).
fn lint(db: &TestDb, table: &str) -> CheckReport {
    let settings = format!(
        "flavors: [{}]\nlint: {{rules: {{primary-key: off}}}}\n",
        db.flavor
    );
    catalog::check_files(
        "agree",
        &[("catalog.yaml", &settings), ("agree.yaml", table)],
    )
}

fn model(db: &TestDb, table: &str) -> Table {
    let report = lint(db, table);
    match &report.catalog {
        Some(catalog) => catalog.tables[0].table.clone(),
        None => panic!("{}", report.render_human()),
    }
}

/// Creates the table (and drops it again): the server's error code when it refuses.
async fn server_refusal(db: &TestDb, table: &Table) -> Option<u16> {
    let sql = ddl::create_table(table, db.flavor);
    let mut conn = db.pool.get_conn().await.expect("connect");
    match conn.query_drop(&sql).await {
        Ok(()) => {
            let drop = format!(
                "DROP TABLE {}",
                schema_catalog::quote_ident(table.name.as_str())
            );
            conn.query_drop(drop).await.expect("drop the table");
            None
        }
        Err(mysql_async::Error::Server(e)) => Some(e.code),
        Err(e) => panic!("{sql}: {e}"),
    }
}

/// The lint errors naming `object`, as one line each.
fn errors_on(report: &CheckReport, object: &str) -> Vec<String> {
    report
        .errors()
        .filter(|p| p.object.as_deref() == Some(object))
        .map(ToString::to_string)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lint_and_server_agree_on_refused_combinations() {
    let db = TestDb::new().await;
    let base = model(&db, BASE);
    assert_eq!(server_refusal(&db, &base).await, None, "the base table");
    for case in cases() {
        let want = if db.is_mariadb() {
            case.mariadb
        } else {
            case.mysql
        };
        assert_eq!(BASE.matches(case.edit.0).count(), 1, "{}", case.label);
        let yaml = BASE.replacen(case.edit.0, &case.edit.1, 1);
        let report = lint(&db, &yaml);
        let mut edited = base.clone();
        (case.mutate)(&mut edited);
        let got = server_refusal(&db, &edited).await;
        assert_eq!(got, want, "{} on {}: server", case.label, db.flavor);
        let errors = errors_on(&report, case.object);
        match want {
            Some(code) => {
                let quoted = errors.iter().any(|e| {
                    e.starts_with("agree/agree.yaml:")
                        && e.contains(": error[")
                        && e.contains("]: table `Agree`, ")
                        && e.contains(&format!("{code}"))
                });
                assert!(
                    quoted,
                    "{}: lint must refuse it quoting {code}:\n{}",
                    case.label,
                    report.render_human()
                );
            }
            None => {
                assert!(
                    report.is_valid(),
                    "{}:\n{}",
                    case.label,
                    report.render_human()
                );
                // The YAML edit and the model edit are the same change.
                assert_eq!(model(&db, &yaml), edited, "{}", case.label);
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lint_and_server_agree_on_calls() {
    let db = TestDb::new().await;
    let base = model(&db, BASE);
    for c in CALLS {
        // In a CHECK.
        let condition = format!("At <> {}", c.text);
        let yaml = BASE.replacen(CHECK, &format!("expression: \"{condition}\""), 1);
        let mut edited = base.clone();
        set_check(&mut edited, &condition);
        let refused = server_refusal(&db, &edited).await.is_some();
        assert_eq!(refused, pick(&db, c.check), "CHECK {condition}: server");
        let linted = !errors_on(&lint(&db, &yaml), "check `chk_agree`").is_empty();
        assert_eq!(linted, refused, "CHECK {condition}: lint");
        // In a generated column, VIRTUAL (no index uses it) and STORED.
        for (stored, pair) in [(false, c.virtual_column), (true, c.stored_column)] {
            let storage = if stored { ", stored: true" } else { "" };
            let generated = format!("generated: {{expression: \"{}\"{storage}}}", c.text);
            let yaml = BASE.replacen(DERIVED, &generated, 1);
            let mut edited = base.clone();
            set_generated(&mut edited, "Derived", c.text);
            set_stored(&mut edited, "Derived", stored);
            let report = lint(&db, &yaml);
            if report.is_valid() {
                assert_eq!(model(&db, &yaml), edited, "{generated}");
            }
            let refused = server_refusal(&db, &edited).await.is_some();
            assert_eq!(refused, pick(&db, pair), "{generated}: server");
            let linted = !errors_on(&report, "column `Derived`").is_empty();
            assert_eq!(
                linted,
                refused,
                "{generated}: lint\n{}",
                report.render_human()
            );
        }
    }
}

/// A table without a primary key: the servers promote its first unique
/// index over NOT NULL columns (MySQL counting a prefix part, MariaDB not)
/// and refuse that one hidden.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lint_and_server_agree_on_hidden_implicit_primary_keys() {
    const TABLE: &str = "table: NoPk\ncolumns:\n  - {name: Id, type: bigint unsigned, nullable: false}\n  - {name: Code, type: varchar(10), nullable: false}\n  - {name: Note, type: varchar(10)}\nindexes:\n";
    // (indexes, the hidden ones, MySQL's error, MariaDB's error)
    type Hidden = (
        &'static str,
        &'static [&'static str],
        Option<u16>,
        Option<u16>,
    );
    let cases: &[Hidden] = &[
        ("  - {name: uq_code, unique: true, columns: [Code]}\n", &["uq_code"], Some(3522), Some(4174)),
        ("  - {name: uq_id, unique: true, columns: [Id]}\n  - {name: uq_code, unique: true, columns: [Code]}\n", &["uq_code"], None, None),
        ("  - {name: uq_note, unique: true, columns: [Note]}\n", &["uq_note"], None, None),
        ("  - {name: k_id, columns: [Id]}\n  - {name: uq_code, unique: true, columns: [Code, Id]}\n", &["uq_code"], Some(3522), Some(4174)),
        ("  - {name: uq_prefix, unique: true, columns: [{column: Code, length: 5}]}\n  - {name: uq_id, unique: true, columns: [Id]}\n", &["uq_prefix"], Some(3522), None),
        ("  - {name: uq_prefix, unique: true, columns: [{column: Code, length: 5}]}\n  - {name: uq_id, unique: true, columns: [Id]}\n", &["uq_id"], None, Some(4174)),
    ];
    let db = TestDb::new().await;
    for (indexes, hidden, mysql, mariadb) in cases {
        let want = if db.is_mariadb() { *mariadb } else { *mysql };
        let visible = format!("{TABLE}{indexes}");
        let mut yaml = visible.clone();
        for name in *hidden {
            let at = format!("{{name: {name}, ");
            yaml = yaml.replacen(&at, &format!("{at}visible: false, "), 1);
        }
        let mut table = model(&db, &visible);
        for i in &mut table.indexes {
            i.visible = !hidden.contains(&i.name.as_str());
        }
        let label = format!("{indexes} hiding {hidden:?}");
        assert_eq!(server_refusal(&db, &table).await, want, "{label}: server");
        let report = lint(&db, &yaml);
        let linted = hidden
            .iter()
            .any(|n| !errors_on(&report, &format!("index `{n}`")).is_empty());
        assert_eq!(
            linted,
            want.is_some(),
            "{label}: lint\n{}",
            report.render_human()
        );
        if let Some(code) = want {
            assert!(
                report.render_human().contains(&format!("error {code}")),
                "{label}"
            );
        }
    }
}

/// A table on an engine that cannot hold what it declares: the server
/// refuses it, or (a foreign key on MyISAM) creates it without the key.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lint_and_server_agree_on_engines() {
    /// (file under fixtures/bad-catalogs/refused-engines, the engine,
    /// MySQL's error, MariaDB's error; `Some(0)`: created without its
    /// foreign key)
    type EngineCase = (&'static str, &'static str, Option<u16>, Option<u16>);
    let cases: &[EngineCase] = &[
        ("memory-text.yaml", "MEMORY", Some(1163), Some(1163)),
        ("csv.yaml", "CSV", Some(1069), Some(1069)),
        ("aria.yaml", "Aria", Some(1286), None),
        ("myisam-fk.yaml", "MyISAM", Some(0), Some(0)),
    ];
    let db = TestDb::new().await;
    let dir = common::repo_root().join("fixtures/bad-catalogs/refused-engines");
    for (file, engine, mysql, mariadb) in cases {
        let want = if db.is_mariadb() { *mariadb } else { *mysql };
        let yaml = std::fs::read_to_string(dir.join(file)).unwrap();
        let innodb = yaml.replacen(&format!("engine: {engine}"), "engine: InnoDB", 1);
        let mut table = model(&db, &innodb);
        table.engine = Some(engine.to_string());
        let mut got = server_refusal(&db, &table).await;
        if got.is_none() && !table.foreign_keys.is_empty() {
            // Created: with its foreign key, or silently without it?
            db.exec(&[&ddl::create_table(&table, db.flavor)]).await;
            if !db
                .show_create(table.name.as_str())
                .await
                .contains("FOREIGN KEY")
            {
                got = Some(0);
            }
        }
        assert_eq!(got, want, "{file} on {}: server", db.flavor);
        let report = lint(&db, &yaml);
        assert_eq!(
            report.is_valid(),
            want.is_none(),
            "{file}: lint\n{}",
            report.render_human()
        );
    }
}

/// A table only this server holds: MariaDB takes NOW() in a VIRTUAL column
/// and a CHECK that is a value, MySQL takes SYSDATE() in a CHECK.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn import_narrows_flavors_to_the_server_that_holds_it() {
    let db = TestDb::new().await;
    let (ddl, want) = if db.is_mariadb() {
        (
            "CREATE TABLE `Seen` (`Id` bigint unsigned NOT NULL, `Attempts` int NOT NULL, \
             `SeenAt` datetime AS (now()) VIRTUAL, PRIMARY KEY (`Id`), \
             CONSTRAINT `chk_seen` CHECK (`Attempts`)) ENGINE=InnoDB",
            vec![Flavor::MariaDb],
        )
    } else {
        (
            "CREATE TABLE `Seen` (`Id` bigint unsigned NOT NULL, `At` datetime, \
             PRIMARY KEY (`Id`), CONSTRAINT `chk_seen` CHECK (`At` < sysdate())) ENGINE=InnoDB",
            vec![Flavor::TiDb, Flavor::MySql],
        )
    };
    db.exec(&[ddl]).await;
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("imported");
    // Each way (live, written through `catalog check` and loaded, from a
    // dump) holds the same table, narrowed to this server's flavors.
    for tables in common::import_three_ways(&db, Path::new(&dir)).await {
        assert_eq!(tables.len(), 1);
        assert_eq!(catalog::flavors_for(&tables), want, "{tables:#?}");
    }
}
