//! Release-review helpers: catalogs written to temporary directories, read
//! as revisions, reviewed.

use std::path::Path;

use schema_catalog::diff::ProblemKind;
use schema_catalog::review::{self, FindingKind, Review, ReviewKind, Revision, Source};
use schema_catalog::Flavor;

pub use super::catalog_dir;

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
/// (`tidb:` declares the TiDB servers enforce CHECKs: cases add some.)
pub const SETTINGS: &str =
    "tidb:\n  check_constraints: enforced\ndefaults:\n  collation: utf8mb4_bin\n";

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

/// BASE with a CHECK constraint and a FULLTEXT index (OLD of the cases
/// about checks and a second FULLTEXT).
pub fn base_checked() -> String {
    format!(
        "{BASE}  - {{name: ft_state, columns: [State], kind: fulltext}}\nchecks:\n  - {{name: chk_t_name, expression: \"Name <> '-'\"}}\n"
    )
}

/// One case of the classification list: OLD's table file and NEW's files.
pub struct Case {
    /// What it shows.
    pub name: &'static str,
    /// OLD's `t.yaml`.
    pub old: String,
    /// OLD's `catalog.yaml` ([`SETTINGS`] unless a case needs other flavors).
    pub old_settings: String,
    /// NEW's files (besides catalog.yaml, unless it is one of them).
    pub new: Vec<(&'static str, String)>,
    /// The kinds expected, in order.
    pub kinds: Vec<FindingKind>,
}

/// The cases: NEW is OLD edited, one classification each.
pub fn cases() -> Vec<Case> {
    use ProblemKind as P;
    use ReviewKind as R;
    let on = |old: &str, from: &str, to: &str| {
        assert!(old.contains(from), "{from}");
        vec![("t.yaml", old.replacen(from, to, 1))]
    };
    let edit = |from: &str, to: &str| on(BASE, from, to);
    // NEW's catalog.yaml `settings` and BASE edited.
    let settled = |settings: String, from: &str, to: &str| {
        let mut files = vec![("catalog.yaml", settings)];
        files.extend(edit(from, to));
        files
    };
    let checked = base_checked();
    let ngram_checked = checked.replacen("kind: fulltext}", "kind: fulltext, parser: ngram}", 1);
    // NEW's files with a catalog.yaml that targets MySQL only.
    let mysql_only = |mut files: Vec<(&'static str, String)>| {
        files.push(("catalog.yaml", format!("{SETTINGS}flavors: [mysql]\n")));
        files
    };
    let col = "  - {name: Note, type: varchar(16)}\n";
    let idx = "  - {name: idx_name, columns: [Name]}\n";
    let check = "  - {name: chk_t_name, expression: \"Name <> '-'\"}\n";
    let case = |name, new, kinds: Vec<FindingKind>| Case {
        name,
        old: BASE.into(),
        old_settings: SETTINGS.into(),
        new,
        kinds,
    };
    let generated =
        "  - {name: NameLower, type: varchar(64), generated: {expression: \"lower(Name)\"}}\n";
    let generated_old = BASE.replacen(col, &format!("{col}{generated}"), 1);
    let with_generated = |name, new, kinds: Vec<FindingKind>| Case {
        name,
        old: generated_old.clone(),
        old_settings: SETTINGS.into(),
        new,
        kinds,
    };
    // TiDB drops FULLTEXT indexes: a revision holding one targets MySQL and
    // MariaDB (NEW keeps a catalog.yaml of its own where it has one).
    let no_tidb_settings = format!("{SETTINGS}flavors: [mysql, mariadb]\n");
    let no_tidb = |mut files: Vec<(&'static str, String)>| {
        if !files.iter().any(|(n, _)| *n == "catalog.yaml") {
            files.push(("catalog.yaml", no_tidb_settings.clone()));
        }
        files
    };
    let with_checks = |name, new, kinds: Vec<FindingKind>| Case {
        name,
        old: checked.clone(),
        old_settings: no_tidb_settings.clone(),
        new: no_tidb(new),
        kinds,
    };
    let fulltext_case = |name, new, kinds: Vec<FindingKind>| Case {
        name,
        old: BASE.into(),
        old_settings: no_tidb_settings.clone(),
        new: no_tidb(new),
        kinds,
    };
    // A self-referencing foreign key on ParentId (ON DELETE `action`).
    let parented = BASE
        .replacen(
            col,
            &format!("{col}  - {{name: ParentId, type: bigint unsigned}}\n"),
            1,
        )
        .replacen(
            idx,
            &format!("{idx}  - {{name: idx_parent, columns: [ParentId]}}\n"),
            1,
        );
    let fk = |action: &str| {
        format!(
            "{parented}foreign_keys:\n  - {{name: fk_t_parent, columns: [ParentId], references: {{table: T, columns: [Id]}}, on_delete: {action}}}\n"
        )
    };
    let with_fk = |name, old: String, new: String, kinds: Vec<FindingKind>| Case {
        name,
        old,
        old_settings: SETTINGS.into(),
        new: vec![("t.yaml", new)],
        kinds,
    };
    vec![
        case(
            "table with foreign keys added",
            vec![
                ("t.yaml", BASE.into()),
                (
                    "u.yaml",
                    "table: U\ncolumns:\n  - {name: Id, type: bigint, nullable: false}\n  - {name: TId, type: bigint unsigned}\nprimary_key: [Id]\nindexes:\n  - {name: idx_u_t, columns: [TId]}\nforeign_keys:\n  - {name: fk_u_t, columns: [TId], references: {table: T, columns: [Id]}, on_delete: cascade}\n".into(),
                ),
            ],
            vec![P::MissingTable.into()],
        ),
        with_fk(
            "foreign key added to an existing table",
            parented.clone(),
            fk("restrict"),
            vec![P::ForeignKeyNotOnline.into()],
        ),
        with_fk(
            "foreign key action changed",
            fk("restrict"),
            fk("cascade"),
            vec![P::ForeignKeyAction.into()],
        ),
        with_fk(
            "foreign key removed",
            fk("restrict"),
            parented.clone(),
            vec![P::UnmanagedForeignKey.into()],
        ),
        case(
            "table added",
            vec![("t.yaml", BASE.into()), ("u.yaml", OTHER.into())],
            vec![P::MissingTable.into()],
        ),
        case(
            "table with checks added",
            vec![
                ("t.yaml", BASE.into()),
                (
                    "u.yaml",
                    format!("{OTHER}checks:\n  - {{name: chk_u_id, expression: Id > 0}}\n"),
                ),
            ],
            vec![P::MissingTable.into()],
        ),
        case(
            "nullable column added",
            edit(col, &format!("{col}  - {{name: Extra, type: int}}\n")),
            vec![P::MissingColumn.into()],
        ),
        case(
            "defaulted column added",
            edit(
                col,
                &format!("{col}  - {{name: Extra, type: int, nullable: false, default: 0}}\n"),
            ),
            vec![P::MissingColumn.into()],
        ),
        case(
            "index added",
            edit(idx, &format!("{idx}  - {{name: idx_at, columns: [At]}}\n")),
            vec![P::MissingIndex.into()],
        ),
        case(
            "comment changed",
            edit("comment: base", "comment: changed"),
            vec![R::CommentChanged.into()],
        ),
        case(
            "consumer scope",
            edit("required_by: [worker]", "required_by: [worker, reporter]"),
            vec![R::ConsumerScopeChanged.into()],
        ),
        case(
            "type",
            edit(
                "{name: State, type: varchar(32)}",
                "{name: State, type: varchar(64)}",
            ),
            vec![P::ColumnType.into()],
        ),
        case(
            "nullability",
            edit(
                "{name: At, type: datetime(6)}",
                "{name: At, type: datetime(6), nullable: false}",
            ),
            vec![P::ColumnNullability.into()],
        ),
        case(
            "default",
            edit("default: \"''\"", "default: \"'x'\""),
            vec![P::ColumnDefault.into()],
        ),
        // Issue 24: opted-in widenings. utf8mb4 varchar(32) -> varchar(63)
        // is 128 -> 252 bytes: in the rule table of every flavor.
        case(
            "widen varchar (defaults: widen)",
            settled(
                format!("{SETTINGS}  widen: true\n"),
                "{name: State, type: varchar(32)}",
                "{name: State, type: varchar(63)}",
            ),
            vec![P::MissingWidening.into()],
        ),
        // 128 -> 256 bytes crosses the length-byte class: refused as drift
        // on MySQL and MariaDB (128-255 -> 256+).
        case(
            "widen refused across the 256-byte class",
            settled(
                format!("{SETTINGS}  widen: true\nflavors: [mysql, mariadb]\n"),
                "{name: State, type: varchar(32)}",
                "{name: State, type: varchar(64)}",
            ),
            vec![P::ColumnType.into()],
        ),
        // A changed default with the column's own `widen: true`.
        case(
            "widen default (column widen)",
            settled(
                format!("{SETTINGS}flavors: [mysql, mariadb]\n"),
                "nullable: false, default: \"''\"}",
                "nullable: false, default: \"'x'\", widen: true}",
            ),
            vec![P::MissingWidening.into()],
        ),
        case(
            "collation",
            edit(
                "{name: Note, type: varchar(16)}",
                "{name: Note, type: varchar(16), collation: utf8mb4_general_ci}",
            ),
            vec![P::ColumnCollation.into()],
        ),
        case(
            "auto increment",
            edit(", auto_increment: true", ""),
            vec![P::ColumnAutoIncrement.into()],
        ),
        case(
            "on update",
            edit(
                "{name: At, type: datetime(6)}",
                "{name: At, type: datetime(6), on_update: CURRENT_TIMESTAMP(6)}",
            ),
            vec![P::ColumnOnUpdate.into()],
        ),
        case(
            "invisible",
            vec![
                ("catalog.yaml", format!("{SETTINGS}flavors: [mysql, mariadb]\n")),
                (
                    "t.yaml",
                    BASE.replacen(
                        "{name: Note, type: varchar(16)}",
                        "{name: Note, type: varchar(16), invisible: true}",
                        1,
                    ),
                ),
            ],
            vec![P::ColumnInvisible.into()],
        ),
        case(
            "primary key",
            edit("primary_key: [Id]", "primary_key: [Id, Name]"),
            vec![P::PrimaryKey.into()],
        ),
        case(
            "index columns",
            edit("columns: [Name]", "columns: [Name, Note]"),
            vec![P::IndexColumns.into()],
        ),
        case(
            "index order",
            edit("columns: [State, At]", "columns: [At, State]"),
            vec![P::IndexOrder.into()],
        ),
        case(
            "index direction",
            edit("columns: [Name]", "columns: [{column: Name, order: desc}]"),
            vec![P::IndexOrder.into()],
        ),
        case(
            "index prefix",
            edit("columns: [Name]", "columns: [{column: Name, length: 10}]"),
            vec![P::IndexPrefix.into()],
        ),
        case(
            "index uniqueness",
            edit("columns: [Name]}", "columns: [Name], unique: true}"),
            vec![P::IndexUniqueness.into()],
        ),
        case(
            "index visibility",
            edit("columns: [Name]}", "columns: [Name], visible: false}"),
            vec![P::IndexInvisible.into()],
        ),
        fulltext_case(
            "index kind",
            edit("columns: [Name]}", "columns: [Name], kind: fulltext}"),
            vec![P::IndexKind.into()],
        ),
        fulltext_case(
            "first fulltext added",
            edit(
                idx,
                &format!("{idx}  - {{name: ft_note, columns: [Note], kind: fulltext}}\n"),
            ),
            vec![P::IndexNotOnline.into()],
        ),
        with_checks(
            "second fulltext added",
            on(
                &checked,
                idx,
                &format!("{idx}  - {{name: ft_note, columns: [Note], kind: fulltext}}\n"),
            ),
            vec![P::IndexNotOnline.into()],
        ),
        // A FULLTEXT parser: MySQL only, so NEW (and OLD, where it has one)
        // targets MySQL alone.
        with_checks(
            "fulltext parser set",
            mysql_only(on(&checked, "kind: fulltext}", "kind: fulltext, parser: ngram}")),
            vec![P::IndexParser.into()],
        ),
        Case {
            name: "fulltext parser removed",
            old: ngram_checked.clone(),
            old_settings: format!("{SETTINGS}flavors: [mysql]\n"),
            new: mysql_only(on(&ngram_checked, ", parser: ngram}", "}")),
            kinds: vec![P::IndexParser.into()],
        },
        case(
            "table with an ngram fulltext index added",
            mysql_only(vec![
                ("t.yaml", BASE.into()),
                (
                    "u.yaml",
                    "table: U\ncolumns:\n  - {name: Id, type: bigint, nullable: false}\n  - {name: Body, type: text}\nprimary_key: [Id]\nindexes:\n  - {name: ft_u_body, columns: [Body], kind: fulltext, parser: ngram}\n".into(),
                ),
            ]),
            vec![P::MissingTable.into()],
        ),
        case(
            "ngram fulltext added to an existing table",
            mysql_only(edit(
                idx,
                &format!("{idx}  - {{name: ft_note, columns: [Note], kind: fulltext, parser: ngram}}\n"),
            )),
            vec![P::IndexNotOnline.into()],
        ),
        case(
            "expression index added",
            vec![
                // MariaDB has no functional key parts.
                ("catalog.yaml", format!("{SETTINGS}flavors: [tidb, mysql]\n")),
                (
                    "t.yaml",
                    BASE.replacen(
                        idx,
                        &format!("{idx}  - {{name: idx_note_lower, columns: [{{expression: \"lower(Note)\"}}]}}\n"),
                        1,
                    ),
                ),
            ],
            vec![P::IndexNotOnline.into()],
        ),
        case(
            "virtual generated column added",
            edit(col, &format!("{col}{generated}")),
            vec![P::MissingColumn.into()],
        ),
        case(
            "stored generated column added",
            edit(
                col,
                &format!("{col}  - {{name: NameLength, type: int, generated: {{expression: \"char_length(Name)\", stored: true}}}}\n"),
            ),
            vec![P::ColumnNotOnline.into()],
        ),
        with_generated(
            "generated expression changed",
            on(&generated_old, "lower(Name)", "upper(Name)"),
            vec![P::ColumnGeneratedExpression.into()],
        ),
        with_generated(
            "generated storage changed",
            on(&generated_old, "lower(Name)\"}", "lower(Name)\", stored: true}"),
            vec![P::ColumnGeneratedStored.into()],
        ),
        case(
            "not null column added",
            edit(
                col,
                &format!("{col}  - {{name: Extra, type: int, nullable: false}}\n"),
            ),
            vec![P::MissingNotNullColumn.into()],
        ),
        with_checks(
            "check added to an existing table",
            on(
                &checked,
                check,
                &format!("{check}  - {{name: chk_t_note, expression: \"Note <> ''\"}}\n"),
            ),
            vec![P::CheckNotOnline.into()],
        ),
        with_checks(
            "check expression changed",
            on(&checked, "Name <> '-'", "Name <> '--'"),
            vec![P::CheckExpression.into()],
        ),
        with_checks(
            "check removed",
            on(&checked, &format!("checks:\n{check}"), ""),
            vec![R::CheckRemoved.into()],
        ),
        case(
            "column renamed",
            edit(
                "{name: Note, type: varchar(16)}",
                "{name: Remark, type: varchar(16)}",
            ),
            vec![R::ColumnRenamed.into()],
        ),
        case(
            "index renamed",
            edit("{name: idx_name,", "{name: idx_by_name,"),
            vec![R::IndexRenamed.into()],
        ),
        case(
            "table renamed",
            vec![("t2.yaml", BASE.replacen("table: T\n", "table: T2\n", 1))],
            vec![R::TableRenamed.into()],
        ),
        case(
            "table removed",
            vec![("u.yaml", OTHER.into())],
            vec![P::MissingTable.into(), R::TableRemoved.into()],
        ),
        case(
            "column removed",
            edit(col, ""),
            vec![P::UnmanagedColumn.into()],
        ),
        case("index removed", edit(idx, ""), vec![P::UnmanagedIndex.into()]),
        case(
            "column moved",
            edit(
                "  - {name: State, type: varchar(32)}\n  - {name: At, type: datetime(6)}\n",
                "  - {name: At, type: datetime(6)}\n  - {name: State, type: varchar(32)}\n",
            ),
            vec![R::ColumnMoved.into()],
        ),
        case(
            "table engine",
            edit("comment: base\n", "comment: base\nengine: MyISAM\n"),
            vec![P::TableEngine.into()],
        ),
        case(
            "table collation",
            edit("comment: base\n", "comment: base\ncollation: utf8mb4_general_ci\n"),
            // Its textual columns inherit the new default: each drifts too.
            vec![
                P::TableCollation.into(),
                P::ColumnCollation.into(),
                P::ColumnCollation.into(),
                P::ColumnCollation.into(),
            ],
        ),
        // TiDB features: drift on TiDB only (MySQL and MariaDB omit them).
        case(
            "tidb clustered",
            edit("primary_key: [Id]", "primary_key: {columns: [Id], clustered: false}"),
            vec![P::TidbClustered.into()],
        ),
        case(
            "tidb auto_random",
            edit("auto_increment: true}", "auto_increment: true, auto_random: 5}")
                .into_iter()
                .map(|(f, t)| {
                    let t = t.replace(
                        "primary_key: [Id]",
                        "primary_key: {columns: [Id], clustered: true}",
                    );
                    (f, t)
                })
                .collect(),
            // OLD's single bigint key is clustered by TiDB's defaults; a warm
            // TiDB installation keeps its AUTO_INCREMENT key (divergent:
            // greenfield ones get AUTO_RANDOM).
            vec![P::TidbAutoRandomPending.into()],
        ),
        case(
            "tidb sharding",
            edit(
                "primary_key: [Id]",
                "primary_key: {columns: [Id], clustered: false}\nshard_row_id_bits: 4\npre_split_regions: 2",
            ),
            vec![
                P::TidbClustered.into(),
                P::TidbShardRowIdBits.into(),
                P::TidbPreSplitRegions.into(),
            ],
        ),
        case(
            "tidb ttl",
            edit(
                "primary_key: [Id]\n",
                "primary_key: [Id]\nttl: {column: At, interval: 30 DAY}\n",
            ),
            vec![P::TidbTtl.into()],
        ),
    ]
}

/// OLD and NEW of a case, written to temporary directories.
pub fn case_revisions(case: &Case) -> (tempfile::TempDir, tempfile::TempDir, Revision, Revision) {
    let old_dir = catalog_dir(&[("catalog.yaml", &case.old_settings), ("t.yaml", &case.old)]);
    let mut all: Vec<(&str, &str)> = vec![("catalog.yaml", SETTINGS)];
    all.extend(case.new.iter().map(|(n, t)| (*n, t.as_str())));
    let new_dir = catalog_dir(&all);
    let old = revision(old_dir.path(), "old");
    let new = revision(new_dir.path(), "new");
    (old_dir, new_dir, old, new)
}
