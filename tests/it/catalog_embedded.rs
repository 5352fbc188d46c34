//! A catalog built from in-memory files (`catalog::from_files`, as a service
//! embeds it with `include_str!`) is linted by the same rules as a directory.

use std::path::Path;

use schema_catalog::catalog::{self, check_files, from_files};
use schema_catalog::{embed_catalog, AsCatalog, Embedded, Error};

/// The shipped catalog, every file of it, as a service embeds it.
static SHIPPED: Embedded = embed_catalog!("catalog");
/// A catalog that fails lint (a nullable primary key column).
static INVALID: Embedded = embed_catalog!("fixtures/bad-catalogs/nullable-pk");

#[test]
fn the_macro_embeds_every_file_of_the_directory_and_it_lints_clean() {
    let names: Vec<&str> = SHIPPED.files().iter().map(|(n, _)| *n).collect();
    let on_disk = shipped_files();
    let want: Vec<&str> = on_disk.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, want);
    let report = SHIPPED.check();
    assert!(report.is_valid(), "{}", report.render_human());
    let from_dir = catalog::load(Path::new(DIR)).unwrap();
    let tables =
        |c: &catalog::Catalog| c.tables.iter().map(|t| t.table.clone()).collect::<Vec<_>>();
    assert!(tables(SHIPPED.as_catalog().unwrap()) == tables(&from_dir));
    // Loaded once: the second use is the same catalog.
    assert!(std::ptr::eq(
        SHIPPED.as_catalog().unwrap(),
        SHIPPED.as_catalog().unwrap()
    ));
}

#[test]
fn an_embedded_catalog_that_fails_lint_is_refused_on_every_use() {
    assert!(!INVALID.check().is_valid());
    for _ in 0..2 {
        let Err(Error::InvalidCatalog {
            errors, problems, ..
        }) = INVALID.as_catalog()
        else {
            panic!("not refused");
        };
        assert_eq!(errors, 2);
        assert!(problems
            .iter()
            .all(|p| p.file.starts_with("fixtures/bad-catalogs/nullable-pk")));
    }
}

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/catalog");

/// Every file of the shipped catalog as `(name, text)`.
fn shipped_files() -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = std::fs::read_dir(DIR)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(e.path()).unwrap();
            (name, text)
        })
        .collect();
    files.sort();
    files
}

fn pairs(files: &[(String, String)]) -> Vec<(&str, &str)> {
    files
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect()
}

#[test]
fn embedded_files_give_the_directory_catalog() {
    let from_dir = catalog::load(Path::new(DIR)).unwrap();
    let files = shipped_files();
    let embedded = from_files(DIR, &pairs(&files)).unwrap();
    assert_eq!(embedded.tables, from_dir.tables);
    assert_eq!(embedded.defaults, from_dir.defaults);
    assert_eq!(embedded.limits, from_dir.limits);
    assert_eq!(embedded.warnings, from_dir.warnings);
}

#[test]
fn an_invalid_embedded_file_is_named_and_nothing_is_loaded() {
    let mut files = shipped_files();
    let work = files
        .iter_mut()
        .find(|(n, _)| n == "work_item.yaml")
        .unwrap();
    work.1 = work
        .1
        .replace("type: bigint unsigned", "type: bigint unsinged");
    let err = from_files("embedded", &pairs(&files)).unwrap_err();
    let Error::InvalidCatalog {
        problems, errors, ..
    } = err
    else {
        panic!("not InvalidCatalog: {err}");
    };
    assert!(errors >= 1);
    let p = problems
        .iter()
        .find(|p| p.severity == catalog::Severity::Error)
        .expect("an error");
    assert_eq!(p.file, Path::new("embedded/work_item.yaml"));
    assert_eq!(p.table.as_deref(), Some("_System_WorkItem"));
    assert!(p.message.contains("unsinged"), "{p}");
}

#[test]
fn bad_file_names_and_duplicates_are_errors() {
    let table =
        "table: t\ncolumns:\n  - name: id\n    type: int\n    nullable: false\nprimary_key: [id]\n";
    let report = check_files(
        "embedded",
        &[
            ("t.yaml", table),
            ("t.yaml", table),
            ("sub/u.yaml", table),
            ("notes.txt", "hello"),
        ],
    );
    let files: Vec<String> = report
        .problems
        .iter()
        .map(|p| p.file.display().to_string())
        .collect();
    assert_eq!(
        files,
        [
            "embedded/notes.txt",
            "embedded/sub/u.yaml",
            "embedded/t.yaml"
        ],
        "{:#?}",
        report.problems
    );
    assert!(report.catalog.is_none());
    assert!(check_files("embedded", &[("t.yaml", table)]).is_valid());
}

#[test]
fn no_table_files_is_the_same_error_as_an_empty_directory() {
    let report = check_files(
        "embedded",
        &[("catalog.yaml", "defaults:\n  engine: InnoDB\n")],
    );
    assert!(!report.is_valid());
    assert!(
        report.problems[0].message.contains("declares no tables"),
        "{:#?}",
        report.problems
    );
}
