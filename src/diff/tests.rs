//! diff's unit tests.

use super::*;
use crate::coltype::ColumnType;
use crate::model::{Column, DefaultValue, ForeignKey, Index, IndexPart};

fn table() -> Table {
    crate::dump::table(
        "CREATE TABLE `T` (`Id` bigint unsigned NOT NULL AUTO_INCREMENT, \
         `Key` varchar(64) NOT NULL, `At` datetime(6), PRIMARY KEY (`Id`), \
         UNIQUE KEY `uq_key` (`Key`), KEY `idx_at` (`At`, `Id`)\
         ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
    )
}

fn kinds(d: &TableDiff) -> Vec<ProblemKind> {
    d.problems.iter().map(|p| p.kind).collect()
}

#[test]
fn identical_is_satisfied() {
    let t = table();
    let d = diff_table(&t, Some(&t));
    assert!(d.is_satisfied() && d.changes.is_empty() && d.unmanaged.is_empty());
}

#[test]
fn generated_and_srid_differences_are_typed_drift() {
    let mut want = table();
    let spatial = |srid| ColumnType::Spatial {
        kind: crate::coltype::SpatialKind::Point,
        srid,
    };
    let mut pin = Column::new("Pin", spatial(Some(4326)));
    pin.nullable = false;
    let mut lower = Column::new("KeyLower", ColumnType::Varchar(64));
    lower.generated = Some(crate::model::Generated {
        expression: "lower(`Key`)".into(),
        stored: false,
    });
    want.columns.extend([pin, lower]);
    let mut have = want.clone();
    have.columns[3].ty = spatial(None);
    have.columns[4].generated = Some(crate::model::Generated {
        // MariaDB's spelling of the same expression, but STORED.
        expression: "lcase(`Key`)".into(),
        stored: true,
    });
    let d = diff_table(&want, Some(&have));
    assert_eq!(
        kinds(&d),
        vec![ProblemKind::ColumnType, ProblemKind::ColumnGeneratedStored]
    );
    have.columns[4].generated.as_mut().unwrap().expression = "upper(`Key`)".into();
    have.columns[4].generated.as_mut().unwrap().stored = false;
    let d = diff_table(&want, Some(&have));
    assert_eq!(
        kinds(&d),
        vec![
            ProblemKind::ColumnType,
            ProblemKind::ColumnGeneratedExpression
        ]
    );
    have.columns[4].generated = None;
    let d = diff_table(&want, Some(&have));
    assert_eq!(kinds(&d)[1], ProblemKind::ColumnGenerated);
    // Missing: the VIRTUAL one is a change, a STORED one is not online.
    have.columns.remove(4);
    let d = diff_table(&want, Some(&have));
    assert_eq!(d.changes.len(), 1, "{:?}", d.changes);
    want.columns[4].generated.as_mut().unwrap().stored = true;
    let d = diff_table(&want, Some(&have));
    assert!(d.changes.is_empty(), "{:?}", d.changes);
    assert!(kinds(&d).contains(&ProblemKind::ColumnNotOnline));
}

#[test]
fn absent_table_is_one_create() {
    let d = diff_table(&table(), None);
    assert_eq!(kinds(&d), vec![ProblemKind::MissingTable]);
    assert!(matches!(d.changes.as_slice(), [Change::AddTable(_)]));
}

#[test]
fn missing_nullable_column_and_index_are_changes() {
    let want = table();
    let mut have = want.clone();
    have.columns.pop();
    have.indexes.pop();
    let d = diff_table(&want, Some(&have));
    assert_eq!(
        kinds(&d),
        vec![ProblemKind::MissingColumn, ProblemKind::MissingIndex]
    );
    assert_eq!(
        d.changes.iter().map(Change::kind).collect::<Vec<_>>(),
        ["add_column", "add_index"]
    );
    assert!(d.changes.iter().all(Change::is_additive));
}

#[test]
fn missing_not_null_column_is_refused() {
    let mut want = table();
    want.columns[2].nullable = false;
    let mut have = want.clone();
    have.columns.pop();
    let d = diff_table(&want, Some(&have));
    assert_eq!(d.drift().count(), 1);
    assert!(d.changes.is_empty());
    want.columns[2].default = Some(DefaultValue::CurrentTimestamp(6));
    let d = diff_table(&want, Some(&have));
    assert_eq!(d.drift().count(), 0);
    assert_eq!(d.changes.len(), 1);
}

#[test]
fn column_drift_kinds() {
    let want = table();
    let mut have = want.clone();
    have.columns[1].collation = Some("utf8mb4_general_ci".into());
    have.columns[1].nullable = true;
    have.columns[2].ty = ColumnType::DateTime(0);
    have.columns[2].default = Some(DefaultValue::CurrentTimestamp(0));
    let d = diff_table(&want, Some(&have));
    assert_eq!(
        kinds(&d),
        vec![
            ProblemKind::ColumnNullability,
            ProblemKind::ColumnCollation,
            ProblemKind::ColumnType,
            ProblemKind::ColumnDefault
        ]
    );
    assert!(d.changes.is_empty());
}

#[test]
fn index_drift_kinds() {
    let want = table();
    let cases: Vec<(Index, ProblemKind)> = vec![
        (
            Index::new("idx_at", false, &["Id", "At"]),
            ProblemKind::IndexOrder,
        ),
        (
            Index::new("idx_at", true, &["At", "Id"]),
            ProblemKind::IndexUniqueness,
        ),
        (
            Index::new("idx_at", false, &["At"]),
            ProblemKind::IndexColumns,
        ),
        (
            Index::new("idx_at", false, &["At", "Id", "Key"]),
            ProblemKind::IndexColumns,
        ),
        (
            Index {
                parts: vec![
                    IndexPart::column("At"),
                    IndexPart::Column {
                        name: "Id".into(),
                        prefix: Some(4),
                        descending: false,
                    },
                ],
                ..Index::new("idx_at", false, &[])
            },
            ProblemKind::IndexPrefix,
        ),
        (
            Index {
                visible: false,
                ..Index::new("idx_at", false, &["At", "Id"])
            },
            ProblemKind::IndexInvisible,
        ),
    ];
    for (live, kind) in cases {
        let mut have = want.clone();
        have.indexes[1] = live.clone();
        let d = diff_table(&want, Some(&have));
        assert_eq!(kinds(&d), vec![kind], "{live:?}");
        assert!(d.changes.is_empty());
    }
    let mut have = want.clone();
    have.indexes[1] = Index::new("IDX_AT", false, &["at", "ID"]);
    assert!(diff_table(&want, Some(&have)).is_satisfied());
}

#[test]
fn live_on_update_is_drift() {
    let want = table();
    let mut have = want.clone();
    have.columns[2].on_update = Some(DefaultValue::CurrentTimestamp(6));
    let d = diff_table(&want, Some(&have));
    assert_eq!(kinds(&d), vec![ProblemKind::ColumnOnUpdate]);
    assert!(d.changes.is_empty());
}

#[test]
fn a_change_concerns_only_problems_about_its_own_object() {
    let want = table();
    let mut have = want.clone();
    have.columns[2].nullable = false;
    have.indexes[1] = Index::new("idx_at", true, &["At", "Id"]);
    let d = diff_table(&want, Some(&have));
    let add_col = Change::AddColumn {
        table: "T".into(),
        column: want.columns[2].clone(),
        after: None,
        defaults: want.defaults(),
    };
    let add_idx = Change::AddIndex {
        table: "T".into(),
        index: want.indexes[1].clone(),
    };
    let add_other = Change::AddIndex {
        table: "T".into(),
        index: Index::new("At", false, &["At"]),
    };
    let kinds = |c: &Change| {
        d.problems
            .iter()
            .filter(|p| c.concerns(p))
            .map(|p| p.kind)
            .collect::<Vec<_>>()
    };
    assert_eq!(kinds(&add_col), [ProblemKind::ColumnNullability]);
    assert_eq!(kinds(&add_idx), [ProblemKind::IndexUniqueness]);
    assert!(
        kinds(&add_other).is_empty(),
        "an index named like a column is another object"
    );
    assert_eq!(kinds(&Change::AddTable(want.clone())).len(), 2);
}

#[test]
fn a_view_under_the_name_is_drift_with_no_change() {
    let want = table();
    let view = Table::not_a_table("T".into(), "VIEW");
    let d = diff_table(&want, Some(&view));
    assert_eq!(kinds(&d), vec![ProblemKind::NotATable]);
    assert_eq!(d.drift().count(), 1);
    assert!(d.changes.is_empty() && d.exists());
}

fn fk(name: &str) -> ForeignKey {
    ForeignKey {
        name: name.into(),
        columns: vec!["Id".into()],
        referenced_schema: None,
        referenced_table: "P".into(),
        referenced_columns: vec!["Id".into()],
        on_delete: crate::model::ReferentialAction::Cascade,
        on_update: crate::model::ReferentialAction::Restrict,
    }
}

/// Each attribute of a same-named foreign key is its own drift kind; a
/// missing one is refused as not online (no change); an undeclared live
/// one is unmanaged; names compare case-insensitively.
#[test]
fn foreign_key_drift_kinds() {
    let mut want = table();
    want.foreign_keys = vec![fk("fk_t_p")];
    let cases: Vec<(ForeignKey, Vec<ProblemKind>)> = vec![
        (
            ForeignKey {
                columns: vec!["Key".into()],
                ..fk("fk_t_p")
            },
            vec![ProblemKind::ForeignKeyColumns],
        ),
        (
            ForeignKey {
                referenced_table: "Q".into(),
                ..fk("fk_t_p")
            },
            vec![ProblemKind::ForeignKeyReference],
        ),
        (
            ForeignKey {
                referenced_schema: Some("other".into()),
                ..fk("fk_t_p")
            },
            vec![ProblemKind::ForeignKeyReference],
        ),
        (
            ForeignKey {
                on_update: crate::model::ReferentialAction::Cascade,
                referenced_columns: vec!["Code".into()],
                ..fk("fk_t_p")
            },
            vec![
                ProblemKind::ForeignKeyReference,
                ProblemKind::ForeignKeyAction,
            ],
        ),
    ];
    for (live, expected) in cases {
        let mut have = want.clone();
        have.foreign_keys = vec![live.clone()];
        let d = diff_table(&want, Some(&have));
        assert_eq!(kinds(&d), expected, "{live:?}");
        assert!(d.changes.is_empty());
    }
    // NO ACTION is RESTRICT on InnoDB and TiDB: the same action.
    let mut have = want.clone();
    have.foreign_keys = vec![ForeignKey {
        on_update: crate::model::ReferentialAction::NoAction,
        ..fk("fk_t_p")
    }];
    assert!(diff_table(&want, Some(&have)).is_satisfied());
    let mut have = want.clone();
    have.foreign_keys = vec![ForeignKey {
        columns: vec!["ID".into()],
        referenced_table: "p".into(),
        ..fk("FK_T_P")
    }];
    assert!(diff_table(&want, Some(&have)).is_satisfied());
    have.foreign_keys = vec![fk("fk_extra")];
    let d = diff_table(&want, Some(&have));
    assert_eq!(kinds(&d), vec![ProblemKind::ForeignKeyNotOnline]);
    assert_eq!(d.drift().count(), 1);
    assert!(d.changes.is_empty());
    assert_eq!(d.unmanaged.len(), 1);
    assert_eq!(d.unmanaged[0].kind, ProblemKind::UnmanagedForeignKey);
    // A new table is created with its foreign keys: one change.
    let d = diff_table(&want, None);
    assert!(matches!(d.changes.as_slice(), [Change::AddTable(t)] if t.foreign_keys.len() == 1));
}

#[test]
fn primary_key_drift_and_unmanaged() {
    let want = table();
    let mut have = want.clone();
    have.primary_key = vec![IndexPart::column("Id"), IndexPart::column("Key")];
    have.columns.push(Column::new("Extra", ColumnType::Text));
    have.indexes.push(Index::new("idx_extra", false, &["Key"]));
    let d = diff_table(&want, Some(&have));
    assert_eq!(kinds(&d), vec![ProblemKind::PrimaryKey]);
    assert_eq!(d.unmanaged.len(), 2);
}
