//! Release-review helpers: catalogs written to temporary directories, read
//! as revisions, reviewed.

use std::path::Path;

use schema_catalog::review::{self, FindingKind, Review, Revision, Source};
use schema_catalog::Flavor;

/// A catalog directory holding `files` (`(name, text)`), removed on drop.
pub fn catalog_dir(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary directory");
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).expect("write catalog file");
    }
    dir
}

/// The revision in `dir`, labelled `label`.
pub fn revision(dir: &Path, label: &str) -> Revision {
    Source::Dir(dir.to_path_buf())
        .read(label)
        .expect("directory revision reads")
}

/// A fixture revision of the shipped catalog (`fixtures/revisions/<name>`).
pub fn fixture_revision(name: &str) -> Revision {
    let dir = super::repo_root().join("fixtures/revisions").join(name);
    revision(&dir, name)
}

/// NEW reviewed against OLD for `flavors`.
pub fn review(old: &Revision, new: &Revision, flavors: &[Flavor]) -> Review {
    review::review(old, new, flavors).expect("review runs")
}

/// catalog.yaml of the classification cases.
pub const SETTINGS: &str = "defaults:\n  collation: utf8mb4_bin\n";

/// OLD of the classification cases.
pub const BASE: &str = r#"table: T
comment: base
columns:
  - {name: Id, type: bigint unsigned, nullable: false, auto_increment: true}
  - {name: Name, type: varchar(64), nullable: false, default: "''"}
  - {name: State, type: varchar(32)}
  - {name: At, type: datetime(6)}
  - {name: Note, type: varchar(16)}
primary_key: [Id]
indexes:
  - {name: idx_state, columns: [State, At], required_by: [worker]}
  - {name: idx_name, columns: [Name]}
"#;

/// A second table.
pub const OTHER: &str = r#"table: U
columns:
  - {name: Id, type: bigint, nullable: false}
primary_key: [Id]
"#;

/// One case: its name, NEW's files, the kinds expected.
pub type Case = (&'static str, Vec<(&'static str, String)>, Vec<FindingKind>);

/// The cases: NEW is BASE edited.
pub fn cases() -> Vec<Case> {
    use FindingKind::*;
    let edit = |from: &str, to: &str| {
        assert!(BASE.contains(from), "{from}");
        vec![("t.yaml", BASE.replacen(from, to, 1))]
    };
    let col = "  - {name: Note, type: varchar(16)}\n";
    let idx = "  - {name: idx_name, columns: [Name]}\n";
    vec![
        (
            "table added",
            vec![("t.yaml", BASE.into()), ("u.yaml", OTHER.into())],
            vec![TableAdded],
        ),
        (
            "nullable column added",
            edit(col, &format!("{col}  - {{name: Extra, type: int}}\n")),
            vec![ColumnAdded],
        ),
        (
            "defaulted column added",
            edit(
                col,
                &format!("{col}  - {{name: Extra, type: int, nullable: false, default: 0}}\n"),
            ),
            vec![ColumnAdded],
        ),
        (
            "index added",
            edit(idx, &format!("{idx}  - {{name: idx_at, columns: [At]}}\n")),
            vec![IndexAdded],
        ),
        (
            "comment changed",
            edit("comment: base", "comment: changed"),
            vec![CommentChanged],
        ),
        (
            "consumer scope",
            edit("required_by: [worker]", "required_by: [worker, reporter]"),
            vec![ConsumerScopeChanged],
        ),
        (
            "type",
            edit(
                "{name: State, type: varchar(32)}",
                "{name: State, type: varchar(64)}",
            ),
            vec![ColumnType],
        ),
        (
            "nullability",
            edit(
                "{name: At, type: datetime(6)}",
                "{name: At, type: datetime(6), nullable: false}",
            ),
            vec![ColumnNullability],
        ),
        (
            "default",
            edit("default: \"''\"", "default: \"'x'\""),
            vec![ColumnDefault],
        ),
        (
            "collation",
            edit(
                "{name: Note, type: varchar(16)}",
                "{name: Note, type: varchar(16), collation: utf8mb4_general_ci}",
            ),
            vec![ColumnCollation],
        ),
        (
            "auto increment",
            edit(", auto_increment: true", ""),
            vec![ColumnAutoIncrement],
        ),
        (
            "primary key",
            edit("primary_key: [Id]", "primary_key: [Id, Name]"),
            vec![PrimaryKey],
        ),
        (
            "index columns",
            edit("columns: [Name]", "columns: [Name, Note]"),
            vec![IndexColumns],
        ),
        (
            "index order",
            edit("columns: [State, At]", "columns: [At, State]"),
            vec![IndexOrder],
        ),
        (
            "index uniqueness",
            edit("columns: [Name]}", "columns: [Name], unique: true}"),
            vec![IndexUniqueness],
        ),
        (
            "not null column added",
            edit(
                col,
                &format!("{col}  - {{name: Extra, type: int, nullable: false}}\n"),
            ),
            vec![NotNullColumnAdded],
        ),
        (
            "column renamed",
            edit(
                "{name: Note, type: varchar(16)}",
                "{name: Remark, type: varchar(16)}",
            ),
            vec![ColumnRenamed],
        ),
        (
            "index renamed",
            edit("{name: idx_name,", "{name: idx_by_name,"),
            vec![IndexRenamed],
        ),
        (
            "table renamed",
            vec![("t2.yaml", BASE.replacen("table: T\n", "table: T2\n", 1))],
            vec![TableRenamed],
        ),
        (
            "table removed",
            vec![("u.yaml", OTHER.into())],
            vec![TableAdded, TableRemoved],
        ),
        ("column removed", edit(col, ""), vec![ColumnRemoved]),
        ("index removed", edit(idx, ""), vec![IndexRemoved]),
        (
            "column moved",
            edit(
                "  - {name: State, type: varchar(32)}\n  - {name: At, type: datetime(6)}\n",
                "  - {name: At, type: datetime(6)}\n  - {name: State, type: varchar(32)}\n",
            ),
            vec![ColumnMoved],
        ),
        (
            "table options",
            edit("comment: base\n", "comment: base\nengine: MyISAM\n"),
            vec![TableOptions],
        ),
    ]
}

/// OLD and NEW of a case, written to temporary directories.
pub fn case_revisions(
    files: &[(&str, String)],
) -> (tempfile::TempDir, tempfile::TempDir, Revision, Revision) {
    let old_dir = catalog_dir(&[("catalog.yaml", SETTINGS), ("t.yaml", BASE)]);
    let mut all: Vec<(&str, &str)> = vec![("catalog.yaml", SETTINGS)];
    all.extend(files.iter().map(|(n, t)| (*n, t.as_str())));
    let new_dir = catalog_dir(&all);
    let old = revision(old_dir.path(), "old");
    let new = revision(new_dir.path(), "new");
    (old_dir, new_dir, old, new)
}
