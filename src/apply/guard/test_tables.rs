//! The tables and indexes the guard's unit tests check steps for.

use crate::model::{Index, Table};

/// A base table `T`: `Id bigint unsigned` primary key, `Note varchar(8)`.
pub(super) fn table() -> Table {
    crate::dump::table(
        "CREATE TABLE `T` (`Id` bigint unsigned NOT NULL, `Note` varchar(8), \
         PRIMARY KEY (`Id`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
    )
}

/// Format v2 shapes: a descending part, a declared prefix, an expression,
/// invisible.
pub(super) fn v2_index(unique: bool) -> Index {
    let mut i = Index::new(if unique { "uq_v2" } else { "ix_v2" }, unique, &[]);
    i.parts = vec![
        crate::model::IndexPart::Column {
            name: "Note".into(),
            prefix: Some(4),
            descending: true,
        },
        crate::model::IndexPart::Expression("lower(`Note`)".into()),
    ];
    i.visible = false;
    i
}

/// [`table`] with a CHECK, the two [`v2_index`] shapes, a FULLTEXT index
/// and [`fk`].
pub(super) fn v2_table() -> Table {
    let mut t = table();
    t.checks = vec![crate::model::Check {
        name: "chk_note".into(),
        expression: "`Note` <> ''".into(),
        enforced: true,
        level: Default::default(),
    }];
    t.indexes = vec![v2_index(false), v2_index(true), {
        let mut ft = Index::new("ft", false, &["Note"]);
        ft.kind = crate::model::IndexKind::FullText(None);
        ft
    }];
    t.foreign_keys = vec![fk()];
    t
}

/// `fk_t_parent`: `Id` references `Parent (Id)`, cascading deletes.
pub(super) fn fk() -> crate::model::ForeignKey {
    crate::model::ForeignKey {
        name: "fk_t_parent".into(),
        columns: vec!["Id".into()],
        referenced_schema: None,
        referenced_table: "Parent".into(),
        referenced_columns: vec!["Id".into()],
        on_delete: crate::model::ReferentialAction::Cascade,
        on_update: crate::model::ReferentialAction::Restrict,
    }
}
