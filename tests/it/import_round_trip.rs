//! Property: what `catalog import` writes loads back as the model it was
//! written from. For every dump fixture (each flavor's legacy revisions and
//! the legacy shapes) and for generated tables with hostile names, comments
//! and string defaults, numeric and timestamp defaults, prefix / descending /
//! FULLTEXT / invisible keys and invisible columns: `import::to_yaml`, then
//! `catalog::check_files` on those files, gives a clean catalog whose tables
//! equal the imported ones (after the loader's own normalisation). The files
//! are the loader's serde types, so nothing is hand-built to go wrong.

use crate::common;

use std::path::Path;

use proptest::prelude::*;
use schema_catalog::import::{self, ImportOptions, Imported};
use schema_catalog::model::{Check, TableKind};
use schema_catalog::{catalog, Column, ColumnType, DefaultValue, Ident, Index, IndexPart, Table};

/// Writes `imported`, loads the files back and requires the same tables.
fn assert_round_trips(imported: &Imported) -> Result<(), TestCaseError> {
    let (catalog_yaml, files) = import::to_yaml(imported);
    let mut all: Vec<(&str, &str)> = vec![("catalog.yaml", catalog_yaml.as_str())];
    all.extend(files.iter().map(|(n, t)| (n.as_str(), t.as_str())));
    let report = catalog::check_files("imported", &all);
    let texts = || {
        all.iter()
            .map(|(n, t)| format!("--- {n}\n{t}"))
            .collect::<String>()
    };
    // Warnings (a lint's advice on a shape the source has) are allowed.
    prop_assert!(
        report.catalog.is_some(),
        "{}\n{}",
        report.render_human(),
        texts()
    );
    let loaded: Vec<Table> = report
        .catalog
        .expect("no problems: a catalog")
        .tables
        .into_iter()
        .map(|t| t.table)
        .collect();
    let want: Vec<Table> = imported
        .tables
        .iter()
        .map(|t| expected(t, imported))
        .collect();
    prop_assert_eq!(loaded.len(), want.len());
    for (got, want) in loaded.into_iter().zip(want) {
        prop_assert_eq!(got.clone(), want.clone(), "{}", texts());
    }
    Ok(())
}

/// The table as the loader builds it from an import: normalized, the
/// catalog's default engine where the source named none, checks in name
/// order (import writes them sorted).
fn expected(t: &Table, imported: &Imported) -> Table {
    let mut t = t.clone();
    if t.engine.is_none() {
        t.engine = Some(
            imported
                .defaults
                .engine
                .clone()
                .unwrap_or_else(|| "InnoDB".into()),
        );
    }
    t.checks.sort_by_key(|c| c.name.key());
    t.normalize();
    t
}

fn dump_fixtures() -> Vec<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut out = Vec::new();
    for dir in ["legacy", "legacy-shapes"] {
        for e in std::fs::read_dir(root.join(dir)).expect("fixture directory") {
            let p = e.expect("entry").path();
            if p.extension().is_some_and(|x| x == "sql") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_dump_fixture_round_trips() {
    let fixtures = dump_fixtures();
    assert!(fixtures.len() >= 10, "{fixtures:?}");
    for path in fixtures {
        let dump = schema_catalog::read_dump(&path, None).expect("fixture parses");
        let opts = ImportOptions::default().skip_unsupported(true);
        let imported = import::from_dump(&dump, &opts).expect("fixture imports");
        assert!(!imported.tables.is_empty(), "{}", path.display());
        if let Err(e) = assert_round_trips(&imported) {
            panic!("{}: {e}", path.display());
        }
    }
}

/// Text a catalog accepts in a comment or a string default: anything
/// printable or whitespace in the Basic Multilingual Plane (a character
/// above it is refused: `catalog::storable`, tests/it/meaning_property.rs),
/// biased towards YAML's and SQL's special characters.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9_ `'\"\\\\;#/*\\-\n\t()!,.=:\\[\\]{}&*?|>%@~]{0,24}",
        "\\PC{0,16}".prop_map(|s: String| s
            .chars()
            .map(|c| if u32::from(c) > 0xFFFF { '\u{FFFD}' } else { c })
            .collect()),
        Just("'".to_string()),
        Just("null".to_string()),
        Just("0".to_string()),
        Just("yes".to_string()),
    ]
}

/// Identifiers the catalog accepts, with characters YAML treats specially.
fn ident() -> impl Strategy<Value = String> {
    "[A-Za-z_][A-Za-z0-9_ $'\"#:\\-]{0,12}[A-Za-z0-9_]"
}

const COLLATIONS: &[&str] = &["utf8mb4_bin", "utf8mb4_general_ci", "latin1_swedish_ci"];

#[allow(clippy::too_many_arguments)]
fn table(
    name: String,
    comment: Option<String>,
    literal: String,
    number: &'static str,
    collation: usize,
    column_collation: usize,
    index: (bool, bool, Option<u32>, bool, Option<String>),
    invisible: bool,
    on_update: bool,
) -> Table {
    let mut id = Column::new("Id", ColumnType::parse("bigint unsigned").expect("type"));
    id.nullable = false;
    id.auto_increment = true;
    let mut note = Column::new("Note", ColumnType::Varchar(255));
    note.comment = comment.clone();
    note.default = Some(DefaultValue::Literal(literal));
    let charset_of = |collation: &str| collation.split('_').next().expect("charset").to_string();
    note.charset = Some(charset_of(COLLATIONS[column_collation]));
    note.collation = Some(COLLATIONS[column_collation].to_string());
    let mut amount = Column::new("Amount", ColumnType::parse("decimal(12,4)").expect("type"));
    amount.nullable = false;
    amount.default = Some(DefaultValue::Literal(number.to_string()));
    amount.invisible = invisible;
    let mut at = Column::new("At", ColumnType::parse("datetime(6)").expect("type"));
    at.nullable = false;
    at.default = Some(DefaultValue::CurrentTimestamp(6));
    at.on_update = on_update.then_some(DefaultValue::CurrentTimestamp(6));
    let collation = COLLATIONS[collation];
    let mut body = Column::new("Body", ColumnType::parse("text").expect("type"));
    body.charset = Some(charset_of(collation));
    body.collation = Some(collation.to_string());
    let (unique, descending, prefix, visible, index_comment) = index;
    let mut idx = Index::new("idx_note", unique, &["Note"]);
    idx.parts = vec![
        IndexPart::Column {
            name: Ident::new("Note"),
            prefix,
            descending,
        },
        IndexPart::column("Id"),
    ];
    idx.visible = visible;
    idx.comment = index_comment;
    let mut full = Index::new("ft_body", false, &["Body"]);
    full.kind = schema_catalog::IndexKind::FullText(None);
    Table {
        name: Ident::new(name),
        kind: TableKind::Base,
        comment,
        engine: Some("InnoDB".into()),
        row_format: None,
        charset: charset_of(collation),
        collation: collation.to_string(),
        columns: vec![id, note, amount, at, body],
        primary_key: vec![IndexPart::column("Id")],
        indexes: vec![idx, full],
        checks: vec![Check {
            name: Ident::new("amount_positive"),
            expression: "`Amount` >= 0".into(),
            enforced: true,
            level: Default::default(),
        }],
        foreign_keys: Vec::new(),
        tidb: None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn generated_tables_round_trip(
        name in ident(),
        comment in proptest::option::of(text()),
        literal in text(),
        number in prop::sample::select(&["0", "-1", "42", "0.5", "-3.25", "1234.5678", "99999999.9999"][..]),
        collation in 0..COLLATIONS.len(),
        column_collation in 0..COLLATIONS.len(),
        index in (any::<bool>(), any::<bool>(), proptest::option::of(1u32..100), any::<bool>(), proptest::option::of(text())),
        invisible in any::<bool>(),
        on_update in any::<bool>(),
    ) {
        let t = table(name, comment, literal, number, collation, column_collation, index, invisible, on_update);
        let imported = common::generated_import(vec![t]);
        assert_round_trips(&imported)?;
    }
}

/// `import::write_checked`: a catalog `check` refuses changes
/// nothing (a new output directory is not created, an existing one keeps
/// what it held, no staging directory is left anywhere); a valid one is
/// moved in whole, into a new directory or an existing empty one, and
/// loads.
#[test]
fn a_refused_import_writes_nothing_and_a_valid_one_is_moved_in() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let entries = |p: &std::path::Path| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(p)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    // A table without columns: `check` refuses it.
    let refused = common::generated_import(vec![Table::new("t", Vec::new())]);
    let id = Column::new(
        "id",
        ColumnType::Int {
            kind: schema_catalog::IntKind::Big,
            unsigned: false,
        },
    );
    let valid = common::generated_import(vec![Table::new("t", vec![id])]);

    // A new directory (nested: its parent is created too).
    let out = dir.path().join("new").join("out");
    let e = schema_catalog::import::write_checked(&refused, &out).unwrap_err();
    assert!(
        matches!(e, schema_catalog::Error::ImportFailsCheck { .. }),
        "{e}"
    );
    assert!(e.to_string().contains("t.yaml"), "{e}");
    assert!(!dir.path().join("new").exists(), "nothing is created");
    let written = schema_catalog::import::write_checked(&valid, &out).unwrap();
    assert_eq!(entries(&out), ["catalog.yaml", "t.yaml"]);
    assert_eq!(entries(&dir.path().join("new")), ["out"], "no staging left");
    assert_eq!(written, [out.join("catalog.yaml"), out.join("t.yaml")]);
    assert!(catalog::load(&out).is_ok());

    // An existing directory holding another file, which stays.
    let out = dir.path().join("existing");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("README"), "kept").unwrap();
    schema_catalog::import::write_checked(&refused, &out).unwrap_err();
    assert_eq!(entries(&out), ["README"]);
    let written = schema_catalog::import::write_checked(&valid, &out).unwrap();
    assert_eq!(entries(&out), ["README", "catalog.yaml", "t.yaml"]);
    assert_eq!(written, [out.join("catalog.yaml"), out.join("t.yaml")]);
    assert!(catalog::load(&out).is_ok());
    assert_eq!(std::fs::read_to_string(out.join("README")).unwrap(), "kept");
}
