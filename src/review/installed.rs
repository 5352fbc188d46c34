//! A catalog table as a server of one flavor holds it after the greenfield
//! `CREATE TABLE`, derived from the model instead of rendered and read back
//! (docs/scale.md: reading OLD back through the SQL lexer and parser once per
//! flavor was about a third of `catalog diff`).
//!
//! Only tables made of parts whose round trip is known are derived: plain
//! base tables of common column types, literal and `CURRENT_TIMESTAMP`
//! defaults, B-tree keys over whole columns, no checks, foreign keys,
//! generated columns or TiDB features, and names and comments of plain
//! characters. Anything else is `None`, and the caller renders and reads
//! the table back as before. The rendered-and-read model stays the oracle:
//! in debug builds [`crate::review::upgrade::old_model`] reads every table
//! back too and asserts that the derived one is the same, so every test
//! that reviews a catalog checks this derivation; the unit tests below
//! check it for the shipped catalog and the fixtures on every flavor.

use crate::coltype::ColumnType;
use crate::model::{Column, DefaultValue, Index, IndexKind, IndexPart, Table, TableKind};
use crate::server::Flavor;

/// `table` as parsing its rendered `CREATE TABLE` for `flavor` gives it,
/// or `None` when the table holds something this derivation does not
/// cover (see the module documentation).
pub(crate) fn installed(table: &Table, flavor: Flavor) -> Option<Table> {
    if !derivable(table, flavor) {
        return None;
    }
    let mut t = table.clone();
    t.row_format = None;
    // The dump reader records TiDB options for a table read as TiDB (none
    // here), and none for the other flavors.
    t.tidb = flavor.has_tidb_table_options().then(Default::default);
    Some(t)
}

fn derivable(table: &Table, flavor: Flavor) -> bool {
    table.kind == TableKind::Base
        && !table.columns.is_empty()
        && table.tidb.is_none()
        && table.checks.is_empty()
        && table.foreign_keys.is_empty()
        && table.row_format.is_none()
        && plain_name(table.name.as_str())
        && table.comment.as_deref().is_none_or(plain_text)
        && table.engine.as_deref().is_none_or(|e| e == "InnoDB")
        && table.columns.iter().all(|c| plain_column(c, flavor))
        && whole_columns(&table.primary_key)
        && table.indexes.iter().all(plain_index)
}

fn plain_column(c: &Column, flavor: Flavor) -> bool {
    plain_name(c.name.as_str())
        && c.generated.is_none()
        && c.on_update.is_none()
        && !c.invisible
        && c.comment.as_deref().is_none_or(plain_text)
        && plain_type(&c.ty, flavor)
        && match &c.default {
            None => true,
            Some(DefaultValue::Literal(v)) => plain_text(v),
            Some(DefaultValue::CurrentTimestamp(_)) => true,
            Some(_) => false,
        }
}

fn plain_type(ty: &ColumnType, flavor: Flavor) -> bool {
    use ColumnType as T;
    match ty {
        T::Int { .. }
        | T::Decimal { .. }
        | T::Char(_)
        | T::Varchar(_)
        | T::Binary(_)
        | T::Varbinary(_)
        | T::Text
        | T::MediumText
        | T::LongText
        | T::Blob
        | T::MediumBlob
        | T::LongBlob
        | T::Date
        | T::DateTime(_)
        | T::Timestamp(_)
        | T::Time(_) => true,
        // MariaDB's json is longtext with a check; left to the reader.
        T::Json => !flavor.json_is_checked_longtext(),
        _ => false,
    }
}

fn plain_index(i: &Index) -> bool {
    plain_name(i.name.as_str())
        && i.kind == IndexKind::BTree
        && i.visible
        && i.comment.as_deref().is_none_or(plain_text)
        && whole_columns(&i.parts)
}

fn whole_columns(parts: &[IndexPart]) -> bool {
    parts.iter().all(|p| {
        matches!(
            p,
            IndexPart::Column {
                prefix: None,
                descending: false,
                ..
            }
        )
    })
}

/// A name of ASCII letters, digits, `_` and `$`, which quoting leaves as
/// it is.
fn plain_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$')
}

/// Text of printable ASCII without quotes or backslashes (comments and
/// literal defaults), which quoting and reading leave as it is.
fn plain_text(text: &str) -> bool {
    text.bytes()
        .all(|b| (b' '..=b'~').contains(&b) && b != b'\'' && b != b'"' && b != b'\\')
}

/// The lines of a derived table's rendered statement (`CREATE TABLE t (`,
/// one per item, `) options;`): no item of a derivable table holds a line
/// break (names and texts are plain).
pub(crate) fn statement_lines(table: &Table) -> usize {
    let items =
        table.columns.len() + usize::from(!table.primary_key.is_empty()) + table.indexes.len();
    items + 2
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::catalog::Catalog;
    use crate::review::upgrade::{old_model, read_back};

    /// The bench's generated table (`benches/scale_bench.sh`): 5 columns, a
    /// primary key, 2 indexes, in revision b a sixth column or third index.
    fn bench_table(i: usize) -> String {
        let mut t = format!("table: t{i:05}\ncolumns:\n");
        for (name, ty) in [
            ("Id", "bigint unsigned"),
            ("TenantId", "bigint unsigned"),
            ("Name", "varchar(128)"),
            ("State", "varchar(32)"),
            ("CreatedAt", "datetime(6)"),
        ] {
            t += &format!("  - name: {name}\n    type: {ty}\n    nullable: false\n");
        }
        if i.is_multiple_of(10) {
            t += "  - name: Note\n    type: varchar(255)\n";
        }
        t += "primary_key: [Id]\nindexes:\n";
        t += "  - name: idx_tenant_name\n    columns: [TenantId, Name]\n";
        t += "  - name: idx_state_created\n    columns: [State, CreatedAt]\n";
        if i % 10 == 5 {
            t += "  - name: idx_created\n    columns: [CreatedAt]\n";
        }
        t
    }

    fn bench_catalog(n: usize) -> Catalog {
        let texts: Vec<(String, String)> = std::iter::once((
            "catalog.yaml".to_string(),
            "defaults:\n  engine: InnoDB\n  charset: utf8mb4\n  collation: utf8mb4_bin\n"
                .to_string(),
        ))
        .chain((1..=n).map(|i| (format!("t{i:05}.yaml"), bench_table(i))))
        .collect();
        let files: Vec<(&str, &str)> = texts
            .iter()
            .map(|(n, t)| (n.as_str(), t.as_str()))
            .collect();
        crate::catalog::from_files("bench", &files).expect("the bench catalog is valid")
    }

    /// Every loadable catalog of the repository: the shipped one and the
    /// fixtures (the invalid ones under `fixtures/bad-catalogs` do not load).
    fn repository_catalogs() -> Vec<(String, Catalog)> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut dirs = vec![root.join("catalog")];
        for group in [
            "fixtures/format-v2",
            "fixtures/revisions",
            "fixtures/bad-catalogs",
        ] {
            for entry in std::fs::read_dir(root.join(group)).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                }
            }
        }
        dirs.sort();
        dirs.into_iter()
            .filter_map(|d| Some((d.display().to_string(), crate::catalog::load(&d).ok()?)))
            .collect()
    }

    #[test]
    fn the_derived_model_is_what_reading_back_gives_for_every_catalog_and_flavor() {
        let mut catalogs = repository_catalogs();
        assert!(catalogs.len() >= 10, "{} catalogs loaded", catalogs.len());
        catalogs.push(("bench".into(), bench_catalog(600)));
        let mut derived = 0;
        for (dir, catalog) in &catalogs {
            for flavor in Flavor::ALL {
                let oracle = read_back(catalog, flavor, dir).unwrap();
                for t in &catalog.tables {
                    if let Some(table) = installed(&t.table, flavor) {
                        derived += 1;
                        assert_eq!(
                            Some(&table),
                            oracle.table(t.table.name.as_str()),
                            "{dir} {flavor}"
                        );
                        assert_eq!(oracle.features_of(t.table.name.as_str()).count(), 0);
                        let text = format!("{};\n", crate::ddl::create_table(&t.table, flavor));
                        assert_eq!(statement_lines(&table), text.matches('\n').count());
                    }
                }
                let model = old_model(catalog, flavor, dir).unwrap();
                assert_eq!(model, oracle, "{dir} {flavor}");
            }
        }
        assert!(derived > 3 * 600, "{derived} tables derived");
    }

    #[test]
    fn every_bench_table_is_derived_and_other_parts_are_read_back() {
        let catalog = bench_catalog(20);
        for flavor in Flavor::ALL {
            assert!(catalog
                .tables
                .iter()
                .all(|t| installed(&t.table, flavor).is_some()));
        }
        let mut table = catalog.tables[0].table.clone();
        assert!(installed(&table, Flavor::MySql).is_some());
        table.comment = Some("it's".into());
        assert_eq!(installed(&table, Flavor::MySql), None);
        table.comment = None;
        table.columns[0].ty = ColumnType::Json;
        assert!(installed(&table, Flavor::MySql).is_some());
        assert_eq!(installed(&table, Flavor::MariaDb), None);
    }
}
