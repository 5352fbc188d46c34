//! Online widenings: the rule table that says when a live column may be
//! changed to the catalog's shape without the server touching a row, and
//! with which online clause. The checks every vendor shares are here; each
//! vendor's row (with its manual's citation) is in `crate::server`
//! (`mysql.rs`, `mariadb.rs`, `tidb.rs`), asked through
//! `Flavor::online_change`.
//!
//! A widening is considered only for a column that opted in (catalog
//! `widen`, [`Widen`]: the catalog's policy, handed to diff as a
//! [`crate::model::Widens`]) and whose only difference from the live column is
//! its type (or, with the column's own opt-in, its default). Everything
//! outside the table stays drift, refused before any DDL: narrowing, a
//! change of length class, a reordered or removed member, a charset or
//! collation change, integer widening on MySQL/MariaDB (both copy the
//! table), and any second difference. The server is the last judge: the
//! step names its algorithm, so a server that would copy or lock refuses
//! it (error 1845/1846) and apply stops with nothing changed.
//!
//! On MySQL and MariaDB the rule table holds for InnoDB tables in each of
//! InnoDB's four row formats, which the rule reads from the live table
//! ([`Table::row_format`], TABLES.ROW_FORMAT): an engine or row format it
//! was not proven on is refused before any DDL, naming it.

use crate::coltype::{ColumnType, IntKind};
use crate::model::{Column, RowFormat, Table, Widen, WidenRule};
use crate::server::{ColumnChange, Flavor, Online};

use super::ProblemKind;

/// The online clause a widening step carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WidenAlgorithm {
    /// `ALGORITHM=INSTANT`: a metadata-only change.
    Instant,
    /// `ALGORITHM=INPLACE, LOCK=NONE`: what MySQL does without a rebuild
    /// for a VARCHAR lengthening (its online DDL table: "Only Modifies
    /// Metadata: Yes", INSTANT: No).
    InplaceNoLock,
    /// TiDB: no clause (its lossless type changes are metadata-only).
    TiDb,
}

impl WidenAlgorithm {
    /// The clause [`crate::ddl::widen_column`] appends (`None`: TiDB, none).
    pub fn column_algorithm(self) -> Option<crate::ddl::ColumnAlgorithm> {
        match self {
            WidenAlgorithm::Instant => Some(crate::ddl::ColumnAlgorithm::Instant),
            WidenAlgorithm::InplaceNoLock => Some(crate::ddl::ColumnAlgorithm::InplaceNoLock),
            WidenAlgorithm::TiDb => None,
        }
    }
}

/// An allowed widening: the rule and the clause its step carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Widening {
    /// Which row of the table.
    pub rule: WidenRule,
    /// The online clause.
    pub algorithm: WidenAlgorithm,
}

/// Whether the live column `from` of the live table `live` may be widened
/// online to the catalog column `to` on `flavor`, the column's opt-in
/// being `widen`: the widening, or why not (`None` when the column did not
/// opt in, or nothing but the opt-in could allow it).
pub fn widening(
    flavor: Flavor,
    live: &Table,
    from: &Column,
    to: &Column,
    widen: Widen,
) -> Result<Widening, Option<String>> {
    if widen == Widen::Off {
        return Err(None);
    }
    let kinds: Vec<ProblemKind> = super::columns::differences(to, from);
    if !kinds.is_empty() {
        storage(flavor, live).map_err(Some)?;
    }
    match kinds.as_slice() {
        [ProblemKind::ColumnType] => type_widening(flavor, from, to).map_err(Some),
        [ProblemKind::ColumnDefault] if widen == Widen::TypesAndDefault => {
            default_change(flavor).map_err(Some)
        }
        [ProblemKind::ColumnDefault] => Err(Some(
            "a changed default is a widening only with the column's own `widen: true` (the application may rely on the old one)".into(),
        )),
        [] => Err(None),
        _ => Err(Some(
            "a widening changes one thing (the type, or the default), nothing else".into(),
        )),
    }
}

/// Whether the rule table holds for the live table's storage: on MySQL and
/// MariaDB an InnoDB table in one of InnoDB's row formats. `None` (not
/// read: a catalog revision in `catalog diff`, which declares InnoDB by
/// default) is judged by what is known.
///
/// - Engine. MyISAM and Aria lengthen a VARCHAR only by a copy: MySQL 9.7
///   and MariaDB 10.11 refuse `MODIFY ... varchar(60)` on a varchar(16)
///   with ALGORITHM=INSTANT and with INPLACE, LOCK=NONE (error 1845,
///   verified live, tests/it/widen_storage_live.rs). Their ENUM append and
///   default change are accepted INSTANT, but no row of the table is
///   proven on them through apply, so every widening is refused there.
/// - Row format. The table's VARCHAR classes hold on all four InnoDB
///   formats (verified live on each, tests/it/widen_storage_live.rs):
///   - MySQL decides VARCHAR lengthening in the server layer by the
///     column's length bytes (online DDL table, "Extending VARCHAR column
///     size": "the number of length bytes required by a VARCHAR column
///     must remain the same"; it names no row format), and 9.7 does the
///     same on REDUNDANT as on DYNAMIC: in class INPLACE, 124 -> 256 bytes
///     refused with either clause (1846).
///   - MariaDB: COMPACT/DYNAMIC/COMPRESSED as in the table. REDUNDANT
///     stores no length bytes per column (only field end offsets), so
///     MariaDB lengthens any VARCHAR INSTANT there (MDEV-15563; 10.11
///     does 128 -> 256 bytes INSTANT with the table id unchanged,
///     verified live). The rule does not use that extra row: a REDUNDANT
///     table apply could widen has it only from the server's
///     `innodb_default_row_format` (an explicit one is refused as
///     `unrecognised`), which no test can set without changing a global
///     of the shared server; the COMPACT/DYNAMIC classes, which 10.11
///     also runs INSTANT on REDUNDANT, apply unchanged.
///   - Any other format (not InnoDB's) is refused.
fn storage(flavor: Flavor, live: &Table) -> Result<(), String> {
    if !flavor.online_rules_depend_on_storage() || live.tidb.is_some() {
        return Ok(());
    }
    if let Some(engine) = live.engine.as_deref() {
        if !engine.eq_ignore_ascii_case("InnoDB") {
            return Err(format!(
                "table `{}` is ENGINE={engine}: online widenings hold for InnoDB tables only ({engine} lengthens a VARCHAR only by a table copy)",
                live.name
            ));
        }
    }
    match &live.row_format {
        None
        | Some(RowFormat::Dynamic | RowFormat::Compact | RowFormat::Compressed)
        | Some(RowFormat::Redundant) => Ok(()),
        Some(RowFormat::Other(other)) => Err(format!(
            "table `{}` has ROW_FORMAT={other}, not one of InnoDB's (DYNAMIC, COMPACT, COMPRESSED, REDUNDANT) the rule table is proven on",
            live.name
        )),
    }
}

/// SET / DROP DEFAULT: as the vendor's rule says (`crate::server`).
fn default_change(flavor: Flavor) -> Result<Widening, String> {
    let algorithm = algorithm(flavor.online_change(ColumnChange::Default)?);
    Ok(Widening {
        rule: WidenRule::Default,
        algorithm,
    })
}

/// The clause a widening step carries for the vendor's answer.
fn algorithm(online: Online) -> WidenAlgorithm {
    match online {
        Online::Instant => WidenAlgorithm::Instant,
        Online::InplaceNoLock => WidenAlgorithm::InplaceNoLock,
        Online::Metadata => WidenAlgorithm::TiDb,
    }
}

/// A type change: the checks every vendor shares here (narrowing, sign,
/// storage size), then the vendor's rule (`crate::server`, one file per
/// vendor, each citing its manual).
fn type_widening(flavor: Flavor, from: &Column, to: &Column) -> Result<Widening, String> {
    let ok = |rule, change| {
        let algorithm = algorithm(flavor.online_change(change)?);
        Ok(Widening { rule, algorithm })
    };
    match (&from.ty, &to.ty) {
        (ColumnType::Varchar(a), ColumnType::Varchar(b)) => {
            if b < a {
                return Err(format!("varchar({a}) -> varchar({b}) narrows the column"));
            }
            let per_char = to
                .charset
                .as_deref()
                .and_then(crate::collation::charset)
                .map(|c| c.max_bytes)
                .ok_or("the column's character set is not one the catalog knows the width of")?;
            let change = ColumnChange::VarcharLength {
                from_chars: *a,
                to_chars: *b,
                from_bytes: a * per_char,
                to_bytes: b * per_char,
                charset: to.charset.as_deref().unwrap_or_default(),
            };
            ok(WidenRule::VarcharLength, change)
        }
        (ColumnType::Enum(a), ColumnType::Enum(b)) | (ColumnType::Set(a), ColumnType::Set(b)) => {
            let set = matches!(to.ty, ColumnType::Set(_));
            if b.len() < a.len() || !b.starts_with(a) {
                return Err(
                    "members are removed or reordered: only members appended at the end keep every stored value".into(),
                );
            }
            // Storage: ENUM 1 byte up to 255 members, else 2; SET (n + 7) / 8
            // bytes (Vitess capability.go compares exactly these).
            let size = |n: usize| {
                if set {
                    n.div_ceil(8)
                } else if n <= 255 {
                    1
                } else {
                    2
                }
            };
            if size(a.len()) != size(b.len()) {
                return Err(format!(
                    "{} -> {} members changes the {} storage size, which needs a table copy",
                    a.len(),
                    b.len(),
                    if set { "SET" } else { "ENUM" }
                ));
            }
            let rule = if set {
                WidenRule::SetAppend
            } else {
                WidenRule::EnumAppend
            };
            ok(rule, ColumnChange::MembersAppended { set })
        }
        (
            ColumnType::Int {
                kind: k1,
                unsigned: u1,
            },
            ColumnType::Int {
                kind: k2,
                unsigned: u2,
            },
        ) => {
            if u1 != u2 {
                return Err("the sign changes: stored values may not fit".into());
            }
            if k2 < k1 {
                return Err("the integer narrows".into());
            }
            let (from, to) = (int_name(*k1), int_name(*k2));
            ok(
                WidenRule::IntegerWidth,
                ColumnChange::IntegerWidth {
                    from: &from,
                    to: &to,
                },
            )
        }
        (a, b) => Err(format!(
            "{a} -> {b} is not in the rule table ({})",
            flavor.widenable_types()
        )),
    }
}

fn int_name(k: IntKind) -> String {
    ColumnType::Int {
        kind: k,
        unsigned: false,
    }
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dump::column;
    use crate::model::Widens;

    fn varchar(n: u32, charset: &str) -> Column {
        column(&format!(
            "c varchar({n}) CHARACTER SET {charset} COLLATE {charset}_bin"
        ))
    }

    /// A live InnoDB table in the server's default row format (a dump
    /// does not know the row format: the server's TABLES.ROW_FORMAT).
    fn live() -> Table {
        let mut t = crate::dump::table(
            "CREATE TABLE T (c int) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
        );
        t.row_format = Some(RowFormat::Dynamic);
        t
    }

    fn rule(
        f: Flavor,
        from: &Column,
        to: &Column,
        w: Widen,
    ) -> Option<(WidenRule, WidenAlgorithm)> {
        widening(f, &live(), from, to, w)
            .ok()
            .map(|w| (w.rule, w.algorithm))
    }

    #[test]
    fn without_opt_in_nothing_is_a_widening() {
        let to = varchar(64, "utf8mb4");
        assert_eq!(
            widening(
                Flavor::MySql,
                &live(),
                &varchar(32, "utf8mb4"),
                &to,
                Widen::Off
            ),
            Err(None)
        );
    }

    #[test]
    fn varchar_classes_per_flavor() {
        use WidenAlgorithm::*;
        let v = WidenRule::VarcharLength;
        let types = Widen::Types;
        // utf8mb4: 4 bytes a character. 32 -> 63: 128 -> 252 bytes.
        for (from, to, cs, mysql, mariadb) in [
            (32, 63, "utf8mb4", Some(InplaceNoLock), Some(Instant)),
            (32, 64, "utf8mb4", None, None),          // 128 -> 256
            (31, 64, "utf8mb4", None, Some(Instant)), // 124 -> 256
            (64, 128, "utf8mb4", Some(InplaceNoLock), Some(Instant)),
            (100, 255, "latin1", Some(InplaceNoLock), Some(Instant)),
            (200, 256, "latin1", None, None),
            (64, 32, "utf8mb4", None, None),
        ] {
            let (a, b) = (varchar(from, cs), varchar(to, cs));
            assert_eq!(
                rule(Flavor::MySql, &a, &b, types),
                mysql.map(|x| (v, x)),
                "{from}->{to} {cs}"
            );
            assert_eq!(
                rule(Flavor::MariaDb, &a, &b, types),
                mariadb.map(|x| (v, x)),
                "{from}->{to} {cs}"
            );
        }
        assert_eq!(
            rule(
                Flavor::TiDb,
                &varchar(32, "utf8mb4"),
                &varchar(64, "utf8mb4"),
                types
            ),
            Some((v, TiDb))
        );
        // A charset change is two differences: refused everywhere.
        let other = varchar(64, "latin1");
        for f in Flavor::ALL {
            assert!(widening(f, &live(), &varchar(32, "utf8mb4"), &other, types).is_err());
        }
    }

    /// The classes hold on every InnoDB row format (the same answer on
    /// REDUNDANT as on DYNAMIC, on both servers); another engine or row
    /// format is refused, naming the table and what it is.
    #[test]
    fn the_live_tables_storage_is_consulted() {
        let types = Widen::Types;
        let (from, to) = (varchar(31, "utf8mb4"), varchar(64, "utf8mb4"));
        let enum_from = column("e enum('a')");
        let enum_to = column("e enum('a','b')");
        let on = |engine: &str, format: Option<RowFormat>| {
            let mut t = live();
            t.engine = Some(engine.into());
            t.row_format = format;
            t
        };
        for format in [
            None,
            Some(RowFormat::Dynamic),
            Some(RowFormat::Compact),
            Some(RowFormat::Compressed),
            Some(RowFormat::Redundant),
        ] {
            let t = on("InnoDB", format.clone());
            let mariadb = widening(Flavor::MariaDb, &t, &from, &to, types);
            assert_eq!(
                mariadb.map(|w| w.algorithm),
                Ok(WidenAlgorithm::Instant),
                "{format:?}"
            );
            // 124 -> 256 bytes stays refused on MySQL in every format.
            assert!(
                widening(Flavor::MySql, &t, &from, &to, types).is_err(),
                "{format:?}"
            );
            // 128 -> 256 bytes: refused on MariaDB in every format (its
            // REDUNDANT extra row is not used, see `storage`).
            let narrow = varchar(32, "utf8mb4");
            assert!(widening(Flavor::MariaDb, &t, &narrow, &to, types).is_err());
        }
        for (engine, format) in [
            ("MyISAM", Some(RowFormat::Dynamic)),
            ("Aria", Some(RowFormat::Other("Page".into()))),
            ("InnoDB", Some(RowFormat::Other("Fixed".into()))),
        ] {
            let t = on(engine, format);
            for f in [Flavor::MySql, Flavor::MariaDb] {
                for (a, b) in [(&from, &to), (&enum_from, &enum_to)] {
                    let why = widening(f, &t, a, b, types).unwrap_err().unwrap();
                    assert!(why.contains("table `T`"), "{why}");
                    assert!(why.contains(engine) || why.contains("ROW_FORMAT"), "{why}");
                }
            }
        }
        // Not opted in: no reason at all, whatever the storage.
        assert_eq!(
            widening(Flavor::MySql, &on("MyISAM", None), &from, &to, Widen::Off),
            Err(None)
        );
    }

    #[test]
    fn members_appended_within_storage() {
        let types = Widen::Types;
        let members = |m: Vec<String>| {
            m.iter()
                .map(|m| format!("'{m}'"))
                .collect::<Vec<_>>()
                .join(",")
        };
        let e = |m: &[&str]| {
            column(&format!(
                "e enum({})",
                members(m.iter().map(|s| s.to_string()).collect())
            ))
        };
        let many = |n: usize| {
            column(&format!(
                "e enum({})",
                members((0..n).map(|i| format!("m{i}")).collect())
            ))
        };
        let s = |n: usize| {
            column(&format!(
                "s set({})",
                members((0..n).map(|i| format!("m{i}")).collect())
            ))
        };
        let to = e(&["a", "b", "c"]);
        assert_eq!(
            rule(Flavor::MySql, &e(&["a", "b"]), &to, types),
            Some((WidenRule::EnumAppend, WidenAlgorithm::Instant))
        );
        assert!(
            widening(Flavor::MariaDb, &live(), &e(&["b", "a"]), &to, types).is_err(),
            "reordered"
        );
        assert!(
            widening(
                Flavor::MariaDb,
                &live(),
                &e(&["a", "b", "c", "d"]),
                &to,
                types
            )
            .is_err(),
            "removed"
        );
        assert!(widening(Flavor::TiDb, &live(), &e(&["a", "b"]), &to, types).is_err());
        assert!(widening(Flavor::MySql, &live(), &many(255), &many(256), types).is_err());
        assert_eq!(
            rule(Flavor::MariaDb, &s(3), &s(8), types),
            Some((WidenRule::SetAppend, WidenAlgorithm::Instant))
        );
        assert!(widening(Flavor::MySql, &live(), &s(8), &s(9), types).is_err());
    }

    #[test]
    fn defaults_need_the_columns_own_opt_in() {
        let from = column("d varchar(8)");
        let to = column("d varchar(8) DEFAULT 'x'");
        assert!(widening(Flavor::MySql, &live(), &from, &to, Widen::Types).is_err());
        let own = Widen::TypesAndDefault;
        assert_eq!(
            rule(Flavor::MariaDb, &from, &to, own),
            Some((WidenRule::Default, WidenAlgorithm::Instant))
        );
        assert!(widening(Flavor::TiDb, &live(), &from, &to, own).is_err());
        // Back: dropping it is the same rule.
        assert!(widening(Flavor::MySql, &live(), &to, &from, own).is_ok());
    }

    /// In the diff: without opt-in a longer catalog VARCHAR is drift, as
    /// before widening existed; with it, a change and a missing widening (verify
    /// still fails), or drift with the refusal's reason.
    #[test]
    fn the_diff_classes_a_widening_only_when_opted_in() {
        use crate::diff::{diff_table, diff_table_on, Change, Severity};
        let table = |n: u32| {
            crate::dump::table(&format!(
                "CREATE TABLE T (c varchar({n}) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
            ))
        };
        let (want, have) = (table(64), table(31));
        let kinds =
            |d: &crate::diff::TableDiff| d.problems.iter().map(|p| p.kind).collect::<Vec<_>>();
        let none = Widens::none();
        for f in [None, Some(Flavor::MySql), Some(Flavor::MariaDb)] {
            let d = diff_table_on(&want, Some(&have), f, &none);
            assert_eq!(kinds(&d), [ProblemKind::ColumnType]);
            assert!(d.changes.is_empty());
        }
        let mut opted = Widens::none();
        opted.set(&want.name, &want.columns[0].name, Widen::Types);
        assert_eq!(
            diff_table(&want, Some(&have)),
            diff_table_on(&want, Some(&have), None, &opted)
        );
        let d = diff_table_on(&want, Some(&have), Some(Flavor::MariaDb), &opted);
        assert_eq!(kinds(&d), [ProblemKind::MissingWidening]);
        assert_eq!(d.problems[0].kind.severity(), Severity::Missing);
        assert!(!d.is_satisfied());
        assert!(matches!(d.changes.as_slice(), [Change::WidenColumn { .. }]));
        // 124 -> 256 bytes: MariaDB only; refused on MySQL, with the reason.
        let d = diff_table_on(&want, Some(&have), Some(Flavor::MySql), &opted);
        assert_eq!(kinds(&d), [ProblemKind::ColumnType]);
        assert!(
            d.problems[0]
                .actual
                .to_string()
                .contains("not an online widening on mysql"),
            "{}",
            d.problems[0]
        );
        assert!(d.changes.is_empty());
        // Opted in under another table's name: nothing.
        let mut elsewhere = Widens::none();
        elsewhere.set(&"U".into(), &want.columns[0].name, Widen::Types);
        let d = diff_table_on(&want, Some(&have), Some(Flavor::MariaDb), &elsewhere);
        assert_eq!(kinds(&d), [ProblemKind::ColumnType]);
    }

    #[test]
    fn integers_widen_on_tidb_only() {
        let types = Widen::Types;
        let to = column("i bigint");
        assert_eq!(
            rule(Flavor::TiDb, &column("i int"), &to, types),
            Some((WidenRule::IntegerWidth, WidenAlgorithm::TiDb))
        );
        let unsigned = column("i int unsigned");
        assert!(widening(Flavor::TiDb, &live(), &unsigned, &to, types).is_err());
        assert!(widening(Flavor::MySql, &live(), &column("i int"), &to, types).is_err());
        assert!(widening(Flavor::MariaDb, &live(), &column("i int"), &to, types).is_err());
    }
}
