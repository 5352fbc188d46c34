//! Conformance against a peer's public corpus: sqldef's mysqldef cases
//! (MIT, in `../shared/corpus/sqldef/`; `CATALOG_SQLDEF_CORPUS` overrides),
//! on the server under test (`scripts/test` runs it on MariaDB and on
//! MySQL). `current` is the schema as it is, `desired` the schema as
//! declared; the judge is cli_support/conformance (import `desired`, apply
//! it to `current`, judge by physical state). sqldef's `up`/`down` DDL and
//! its `error` marking are its own verdicts on its migrations, not targets.
//! The report goes to `target/conformance/sqldef-<flavor>.md`.

use crate::cli_support::conformance;

use std::collections::BTreeMap;

use conformance::{Case, Corpus};
use schema_catalog::Flavor;

#[derive(Debug, serde::Deserialize)]
struct SqldefCase {
    current: Option<String>,
    desired: Option<String>,
    flavor: Option<String>,
    min_version: Option<String>,
    max_version: Option<String>,
}

/// Why a case does not run on this server (flavor, major.minor version), if
/// it does not. sqldef's `flavor` is `mysql`, `mariadb`, `tidb` or a negation.
fn not_for(case: &SqldefCase, flavor: Flavor, server_version: &[u32]) -> Option<String> {
    let ours = flavor.name();
    if let Some(f) = case.flavor.as_deref() {
        let runs = match f.strip_prefix('!') {
            Some(not) => not != ours,
            None => f == ours,
        };
        if !runs {
            return Some(format!("flavor {f}"));
        }
    }
    if let Some(min) = &case.min_version {
        if conformance::version(min).as_slice() > server_version {
            return Some(format!("min_version {min}"));
        }
    }
    if let Some(max) = &case.max_version {
        if conformance::version(max).as_slice() < server_version {
            return Some(format!("max_version {max}"));
        }
    }
    if !case
        .desired
        .as_deref()
        .is_some_and(|d| d.to_uppercase().contains("CREATE TABLE"))
    {
        return Some("desired has no table".into());
    }
    None
}

/// A `USE <db>;` line (UseStatement) selects the database the case means:
/// here that is the scratch schema the connection already uses, so it is
/// dropped rather than run against a database that does not exist.
fn without_use(sql: &str) -> Vec<String> {
    let sql = sql
        .lines()
        .filter(|l| !is_use_statement(l))
        .collect::<Vec<_>>()
        .join("\n");
    if sql.trim().is_empty() {
        Vec::new()
    } else {
        vec![sql]
    }
}

fn is_use_statement(line: &str) -> bool {
    let words: Vec<&str> = line
        .trim()
        .trim_end_matches(';')
        .split_whitespace()
        .collect();
    matches!(words.as_slice(), [u, _] if u.eq_ignore_ascii_case("use"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqldef_corpus_conformance() {
    let dir = conformance::corpus_dir("CATALOG_SQLDEF_CORPUS", "sqldef");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("corpus {} not readable: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yml"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no corpus files in {}", dir.display());
    let (flavor, server_version) = conformance::server().await;
    let mut cases = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let parsed: BTreeMap<String, SqldefCase> =
            serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let group = file.file_name().unwrap().to_string_lossy().to_string();
        for (name, case) in parsed {
            cases.push(Case {
                group: group.clone(),
                name,
                skip: not_for(&case, flavor, &server_version),
                from: case.current.as_deref().map(without_use).unwrap_or_default(),
                to: case.desired.as_deref().map(without_use).unwrap_or_default(),
            });
        }
    }
    conformance::run_corpus(Corpus {
        name: "sqldef",
        // sqldef's own database name, used in qualified names.
        database: Some("mysqldef_test"),
        cases,
    })
    .await;
}

#[test]
fn use_lines_are_dropped() {
    assert!(is_use_statement("use test_db;"));
    assert!(!is_use_statement("  used_by int,"));
}
