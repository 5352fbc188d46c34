//! diff's unit tests.

use super::*;
use crate::coltype::ColumnType;
use crate::model::{DefaultValue, Index};

/// [`table`]'s columns.
const COLUMNS: &str =
    "`Id` bigint unsigned NOT NULL AUTO_INCREMENT, `Key` varchar(64) NOT NULL, `At` datetime(6)";

/// The CREATE TABLE of [`table`] with `columns` after its own and `items`
/// after its keys (each led by `, `).
fn sql(columns: &str, items: &str) -> String {
    format!(
        "CREATE TABLE `T` ({COLUMNS}{columns}, PRIMARY KEY (`Id`), \
         UNIQUE KEY `uq_key` (`Key`), KEY `idx_at` (`At`, `Id`){items}\
         ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
    )
}

fn table() -> Table {
    crate::dump::table(&sql("", ""))
}

/// The index `key` declares over [`table`]'s columns.
fn index(key: &str) -> Index {
    crate::dump::index(&format!("{COLUMNS}, {key}"))
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
    // `Pin` and `KeyLower` after `table`'s columns.
    let with = |pin: &str, lower: &str| crate::dump::table(&sql(&format!(", {pin}{lower}"), ""));
    let pin = "`Pin` point NOT NULL /*!80003 SRID 4326 */";
    let no_srid = "`Pin` point NOT NULL";
    let want = with(
        pin,
        ", `KeyLower` varchar(64) GENERATED ALWAYS AS (lower(`Key`)) VIRTUAL",
    );
    // MariaDB's spelling of the same expression, but STORED.
    let have = with(
        no_srid,
        ", `KeyLower` varchar(64) GENERATED ALWAYS AS (lcase(`Key`)) STORED",
    );
    let d = diff_table(&want, Some(&have));
    assert_eq!(
        kinds(&d),
        vec![ProblemKind::ColumnType, ProblemKind::ColumnGeneratedStored]
    );
    let have = with(
        no_srid,
        ", `KeyLower` varchar(64) GENERATED ALWAYS AS (upper(`Key`)) VIRTUAL",
    );
    let d = diff_table(&want, Some(&have));
    assert_eq!(
        kinds(&d),
        vec![
            ProblemKind::ColumnType,
            ProblemKind::ColumnGeneratedExpression
        ]
    );
    let have = with(no_srid, ", `KeyLower` varchar(64)");
    let d = diff_table(&want, Some(&have));
    assert_eq!(kinds(&d)[1], ProblemKind::ColumnGenerated);
    // Missing: the VIRTUAL one is a change, a STORED one is not online.
    let have = with(pin, "");
    let d = diff_table(&want, Some(&have));
    assert_eq!(d.changes.len(), 1, "{:?}", d.changes);
    let stored = with(
        pin,
        ", `KeyLower` varchar(64) GENERATED ALWAYS AS (lower(`Key`)) STORED",
    );
    let d = diff_table(&stored, Some(&have));
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
    let cases = [
        ("KEY `idx_at` (`Id`, `At`)", ProblemKind::IndexOrder),
        (
            "UNIQUE KEY `idx_at` (`At`, `Id`)",
            ProblemKind::IndexUniqueness,
        ),
        ("KEY `idx_at` (`At`)", ProblemKind::IndexColumns),
        (
            "KEY `idx_at` (`At`, `Id`, `Key`)",
            ProblemKind::IndexColumns,
        ),
        ("UNIQUE KEY `uq_key` (`Key`(4))", ProblemKind::IndexPrefix),
        (
            "KEY `idx_at` (`At`, `Id`) INVISIBLE",
            ProblemKind::IndexInvisible,
        ),
    ];
    // `want` with its same-named index replaced by the one `key` declares.
    let have = |key: &str| {
        let live = index(key);
        let mut have = want.clone();
        let at = have.indexes.iter().position(|i| i.name == live.name);
        have.indexes[at.expect("a same-named index")] = live;
        have
    };
    for (key, kind) in cases {
        let d = diff_table(&want, Some(&have(key)));
        assert_eq!(kinds(&d), vec![kind], "{key}");
        assert!(d.changes.is_empty());
    }
    assert!(diff_table(&want, Some(&have("KEY `IDX_AT` (`at`, `ID`)"))).is_satisfied());
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
    have.indexes[1] = index("UNIQUE KEY `idx_at` (`At`, `Id`)");
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
        index: index("KEY `At` (`At`)"),
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
    // Inspection's stand-in for a view: no CREATE TABLE text declares one.
    let view = Table::not_a_table("T".into(), "VIEW");
    let d = diff_table(&want, Some(&view));
    assert_eq!(kinds(&d), vec![ProblemKind::NotATable]);
    assert_eq!(d.drift().count(), 1);
    assert!(d.changes.is_empty() && d.exists());
}

/// [`table`] with the foreign key `constraint` declares.
fn with_fk(constraint: &str) -> Table {
    crate::dump::table(&sql("", &format!(", {constraint}")))
}

/// Each attribute of a same-named foreign key is its own drift kind; a
/// missing one is refused as not online (no change); an undeclared live
/// one is unmanaged; names compare case-insensitively.
#[test]
fn foreign_key_drift_kinds() {
    let want = with_fk(
        "CONSTRAINT `fk_t_p` FOREIGN KEY (`Id`) REFERENCES `P` (`Id`) \
         ON DELETE CASCADE ON UPDATE RESTRICT",
    );
    let cases = [
        (
            "CONSTRAINT `fk_t_p` FOREIGN KEY (`Key`) REFERENCES `P` (`Id`) \
             ON DELETE CASCADE ON UPDATE RESTRICT",
            vec![ProblemKind::ForeignKeyColumns],
        ),
        (
            "CONSTRAINT `fk_t_p` FOREIGN KEY (`Id`) REFERENCES `Q` (`Id`) \
             ON DELETE CASCADE ON UPDATE RESTRICT",
            vec![ProblemKind::ForeignKeyReference],
        ),
        (
            "CONSTRAINT `fk_t_p` FOREIGN KEY (`Id`) REFERENCES `other`.`P` (`Id`) \
             ON DELETE CASCADE ON UPDATE RESTRICT",
            vec![ProblemKind::ForeignKeyReference],
        ),
        (
            "CONSTRAINT `fk_t_p` FOREIGN KEY (`Id`) REFERENCES `P` (`Code`) \
             ON DELETE CASCADE ON UPDATE CASCADE",
            vec![
                ProblemKind::ForeignKeyReference,
                ProblemKind::ForeignKeyAction,
            ],
        ),
    ];
    for (live, expected) in cases {
        let d = diff_table(&want, Some(&with_fk(live)));
        assert_eq!(kinds(&d), expected, "{live}");
        assert!(d.changes.is_empty());
    }
    // NO ACTION is RESTRICT on InnoDB and TiDB: the same action.
    let have = with_fk(
        "CONSTRAINT `fk_t_p` FOREIGN KEY (`Id`) REFERENCES `P` (`Id`) \
         ON DELETE CASCADE ON UPDATE NO ACTION",
    );
    assert!(diff_table(&want, Some(&have)).is_satisfied());
    let have = with_fk(
        "CONSTRAINT `FK_T_P` FOREIGN KEY (`ID`) REFERENCES `p` (`Id`) \
         ON DELETE CASCADE ON UPDATE RESTRICT",
    );
    assert!(diff_table(&want, Some(&have)).is_satisfied());
    let have = with_fk(
        "CONSTRAINT `fk_extra` FOREIGN KEY (`Id`) REFERENCES `P` (`Id`) \
         ON DELETE CASCADE ON UPDATE RESTRICT",
    );
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
    let have = crate::dump::table(
        &sql(", `Extra` text", ", KEY `idx_extra` (`Key`)")
            .replace("PRIMARY KEY (`Id`)", "PRIMARY KEY (`Id`, `Key`)"),
    );
    let d = diff_table(&want, Some(&have));
    assert_eq!(kinds(&d), vec![ProblemKind::PrimaryKey]);
    assert_eq!(d.unmanaged.len(), 2);
}
