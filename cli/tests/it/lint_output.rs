//! The lint report's outputs: the fix hint on every finding (human and
//! JSON), `--format sarif` validated against the published SARIF 2.1.0
//! schema with each rule's line and column, `--max-warnings`, and
//! `# catalog: allow RULE` suppressions.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::cli_support::catalog;

/// The repository root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The catalog with a finding of every rule, relative to the root (as a
/// CI job gives it, so SARIF URIs are relative to the repository).
const ONE_PER_RULE: &str = "fixtures/lint-output/one-per-rule";

/// Where each rule's finding is: rule, file, line, column (1-based),
/// read off the files by hand.
const EXPECTED: &[(&str, &str, usize, usize)] = &[
    ("catalog-files", "catalog.yml", 1, 1),
    ("yaml-syntax", "broken.yaml", 4, 4),
    ("unknown-key", "unknown_key.yaml", 6, 5),
    ("yaml-shape", "yaml_shape.yaml", 7, 10),
    ("settings", "catalog.yaml", 2, 3),
    ("identifier", "identifier.yaml", 6, 5),
    ("duplicate-name", "duplicate_name.yaml", 6, 5),
    ("required-by", "required_by.yaml", 8, 5),
    ("unknown-type", "unknown_type.yaml", 7, 5),
    ("members", "members.yaml", 7, 5),
    ("charset", "charset.yaml", 8, 5),
    ("engine", "engine.yaml", 2, 1),
    ("default", "default.yaml", 8, 5),
    ("on-update", "on_update.yaml", 8, 5),
    ("auto-increment", "auto_increment.yaml", 9, 5),
    ("invisible", "invisible.yaml", 2, 1),
    ("generated", "generated.yaml", 8, 5),
    ("check", "check.yaml", 9, 5),
    ("key-columns", "key_columns.yaml", 9, 5),
    ("key-width", "key_width.yaml", 13, 5),
    ("key-scope", "key_scope.yaml", 12, 5),
    ("prefix-key", "prefix_key.yaml", 11, 5),
    ("duplicate-index", "duplicate_index.yaml", 13, 5),
    ("limits", "limits.yaml", 2, 1),
    ("foreign-key", "foreign_key.yaml", 15, 5),
    ("fk-scope", "fk_scope_child.yaml", 17, 5),
    ("flavor", "flavor.yaml", 10, 5),
    ("spatial-srid", "spatial_srid.yaml", 13, 5),
    ("storable", "storable.yaml", 2, 1),
    ("tidb-option", "tidb_option.yaml", 7, 1),
    ("tidb-only", "tidb_only.yaml", 10, 1),
    ("query", "query.yaml", 9, 5),
    ("allow-comment", "allow_comment.yaml", 3, 20),
    ("primary-key", "primary_key.yaml", 1, 1),
    ("pk-type", "pk_type.yaml", 4, 5),
    ("naming", "naming.yaml", 8, 5),
    ("reserved-word", "reserved_word.yaml", 6, 5),
    ("redundant-index", "redundant_index.yaml", 13, 5),
    ("allowed-charset", "allowed_charset.yaml", 8, 5),
    ("allowed-collation", "allowed_collation.yaml", 8, 5),
    ("has-float", "has_float.yaml", 7, 5),
    ("tidb-check", "tidb_check.yaml", 9, 5),
    ("tidb-ignored", "tidb_ignored.yaml", 11, 5),
];

/// The MariaDB-only catalog (`flavors: [mariadb]`), for the rule that
/// fires only where every flavor accepts the value: `zero-date` (elsewhere
/// `flavor` reports it, and ONE_PER_RULE targets TiDB for `tidb-check`).
const MARIADB_ONLY: &str = "fixtures/lint-output/mariadb-only";

/// Where its findings are: rule, file, line, column (1-based).
const EXPECTED_MARIADB: &[(&str, &str, usize, usize)] = &[("zero-date", "zero_date.yaml", 9, 5)];

/// Rules neither catalog can show, and why.
const NOT_HERE: &[(&str, &str)] = &[
    // A `catalog verify` (and `stats`) finding, from the live
    // AUTO_INCREMENT, never `check`'s: verify's JSON `capacity` list
    // (verify_capacity_cli.rs), no SARIF output (docs/lint.md).
    ("auto-increment-capacity", "catalog verify"),
];

/// `catalog check` on `dir` (from the repository root) with `args`.
fn check_in_root(dir: &str, args: &[&str]) -> Output {
    catalog()
        .current_dir(root())
        .args(["check", "--catalog", dir])
        .args(args)
        .output()
        .unwrap()
}

/// The published SARIF 2.1.0 schema (tests/data/sarif/README.md says
/// where it comes from), as a validator.
fn sarif_validator() -> jsonschema::Validator {
    let file = root().join("tests/data/sarif/sarif-schema-2.1.0.json");
    let text = std::fs::read_to_string(file).unwrap();
    // The published `language` pattern ends `[a-zA-Z]{2}]?$`: a bare `]`,
    // which ECMA-262 reads as a literal only outside Unicode mode, so the
    // `regex` format check of the meta-schema refuses it. Escaping it
    // keeps its meaning (this run sets no `language`).
    let bare = r#"[a-zA-Z]{2}]?$"#;
    assert_eq!(text.matches(bare).count(), 2, "the stored schema changed");
    let text = text.replace(bare, r#"[a-zA-Z]{2}\\]?$"#);
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
    jsonschema::validator_for(&schema).expect("the SARIF schema compiles")
}

/// Asserts `doc` is a SARIF 2.1.0 log the published schema accepts.
fn assert_valid_sarif(doc: &serde_json::Value) {
    let errors: Vec<String> = sarif_validator()
        .iter_errors(doc)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}\n{doc:#}");
    assert_eq!(doc["version"], "2.1.0");
}

/// The catalog directory holding `files`.
fn catalog_dir(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

fn check(dir: &tempfile::TempDir, args: &[&str]) -> Output {
    catalog()
        .args(["check", "--catalog", dir.path().to_str().unwrap()])
        .args(args)
        .output()
        .unwrap()
}

/// A valid table with one prefix-key warning (line 11, the index's
/// `columns`), and `comment` put above the index entry.
fn prefixed(comment: &str) -> String {
    format!(
        "table: Doc
columns:
  - name: Id
    type: bigint unsigned
    nullable: false
  - name: Body
    type: varchar(200)
primary_key: [Id]
indexes:
{comment}  - name: idx_body
    columns: [{{column: Body, length: 10}}]
"
    )
}

/// Asserts each `(rule, file, line, column)` of `expected` has its result
/// in `results`, at `dir/file`.
fn assert_results_placed(
    dir: &str,
    expected: &[(&str, &str, usize, usize)],
    results: &[serde_json::Value],
) {
    for (rule, file, line, column) in expected {
        let uri = format!("{dir}/{file}");
        let found = results.iter().any(|r| {
            let at = &r["locations"][0]["physicalLocation"];
            r["ruleId"] == *rule
                && at["artifactLocation"]["uri"] == uri.as_str()
                && at["region"]["startLine"] == *line
                && at["region"]["startColumn"] == *column
        });
        assert!(
            found,
            "no {rule} result at {uri}:{line}:{column}:\n{results:#?}"
        );
    }
}

/// Asserts every result of the log names its rule by index, carries its
/// level, message and fix hint, and starts on a node of its file.
fn assert_results_well_formed(doc: &serde_json::Value) {
    let run = &doc["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    for r in run["results"].as_array().unwrap() {
        let index = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], r["ruleId"], "{r}");
        assert!(
            matches!(r["level"].as_str(), Some("error" | "warning")),
            "{r}"
        );
        assert!(!r["message"]["text"].as_str().unwrap().is_empty(), "{r}");
        assert!(!r["properties"]["fix"].as_str().unwrap().is_empty(), "{r}");
        // Each region starts on a node: a character that is not blank.
        let at = &r["locations"][0]["physicalLocation"];
        let uri = at["artifactLocation"]["uri"].as_str().unwrap();
        if let (Some(line), Some(column)) = (
            at["region"]["startLine"].as_u64(),
            at["region"]["startColumn"].as_u64(),
        ) {
            let text = std::fs::read_to_string(root().join(uri)).unwrap();
            let l = text.lines().nth(line as usize - 1).unwrap();
            let c = l.chars().nth(column as usize - 1);
            assert!(
                c.is_some_and(|c| !c.is_whitespace()),
                "{uri}:{line}:{column}: {l:?}"
            );
        }
    }
}

#[test]
fn sarif_of_a_finding_per_rule_is_valid_with_each_line_and_column() {
    // Every rule of the catalog has its expected finding in one of the two.
    for r in schema_catalog::catalog::RULES {
        assert!(
            EXPECTED.iter().chain(EXPECTED_MARIADB).any(|(id, ..)| *id == r.id)
                || NOT_HERE.iter().any(|(id, _)| *id == r.id),
            "rule `{}` has no finding in {ONE_PER_RULE} or {MARIADB_ONLY}: add a file for it and a row to EXPECTED",
            r.id
        );
    }
    // The MariaDB-only catalog: valid (warnings only), its log valid, each
    // finding on its line and column.
    let out = check_in_root(MARIADB_ONLY, &["--format", "sarif"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_valid_sarif(&doc);
    let results = doc["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), EXPECTED_MARIADB.len(), "{results:#?}");
    assert_results_placed(MARIADB_ONLY, EXPECTED_MARIADB, results);
    assert_results_well_formed(&doc);

    let out = check_in_root(ONE_PER_RULE, &["--format", "sarif"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_valid_sarif(&doc);
    let run = &doc["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "catalog");
    let results = run["results"].as_array().unwrap();
    assert_results_placed(ONE_PER_RULE, EXPECTED, results);
    assert_results_well_formed(&doc);
    // The silenced finding is there, with its in-source suppression.
    let silenced: Vec<_> = results
        .iter()
        .filter(|r| r["suppressions"].is_array())
        .collect();
    assert_eq!(silenced.len(), 1, "{silenced:#?}");
    assert_eq!(silenced[0]["ruleId"], "prefix-key");
    assert_eq!(silenced[0]["suppressions"][0]["kind"], "inSource");
    assert_eq!(
        silenced[0]["suppressions"][0]["justification"],
        "lookups compare the first 10 characters only"
    );
    assert_eq!(
        silenced[0]["suppressions"][0]["location"]["physicalLocation"]["region"]["startLine"],
        10
    );
}

#[test]
fn sarif_and_json_place_each_finding_alike() {
    let sarif = check_in_root(ONE_PER_RULE, &["--format", "sarif"]);
    let json = check_in_root(ONE_PER_RULE, &["--format", "json"]);
    let sarif: serde_json::Value = serde_json::from_slice(&sarif.stdout).unwrap();
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let problems = json["problems"].as_array().unwrap();
    let suppressions = json["suppressions"].as_array().unwrap();
    assert_eq!(results.len(), problems.len() + suppressions.len());
    for (r, p) in results.iter().zip(problems.iter().chain(suppressions)) {
        let at = &r["locations"][0]["physicalLocation"];
        assert_eq!(r["ruleId"], p["rule"]);
        assert_eq!(r["level"], p["severity"]);
        assert_eq!(at["region"]["startLine"], p["line"], "{r}\n{p}");
        assert_eq!(at["region"]["startColumn"], p["column"], "{r}\n{p}");
        assert_eq!(r["properties"]["fix"], p["fix"]);
    }
}

#[test]
fn a_valid_catalog_gives_an_empty_valid_sarif_log_exit_0() {
    let out = check_in_root("catalog", &["--format", "sarif"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_valid_sarif(&doc);
    assert_eq!(doc["runs"][0]["results"], serde_json::json!([]));
}

#[test]
fn every_finding_prints_its_fix_hint() {
    let dir = catalog_dir(&[("doc.yaml", &prefixed(""))]);
    let out = check(&dir, &[]);
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(lines[0].contains(":11:5: warning[prefix-key]:"), "{stderr}");
    assert!(
        lines[1].starts_with("  help: index whole columns"),
        "{stderr}"
    );
    let out = check(&dir, &["--format", "json"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(doc["problems"][0]["fix"]
        .as_str()
        .unwrap()
        .starts_with("index whole columns"));
}

#[test]
fn max_warnings_fails_only_above_the_limit() {
    let dir = catalog_dir(&[("doc.yaml", &prefixed(""))]);
    // Warnings alone exit 0.
    assert_eq!(check(&dir, &[]).status.code(), Some(0));
    assert_eq!(check(&dir, &["--max-warnings", "1"]).status.code(), Some(0));
    let out = check(&dir, &["--max-warnings", "0"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("catalog fails --max-warnings 0: 1 warning(s)"),
        "{stderr}"
    );
    // The JSON and SARIF documents are still printed; the exit code fails.
    let out = check(&dir, &["--max-warnings", "0", "--format", "json"]);
    assert_eq!(out.status.code(), Some(2));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["warnings"], 1);
    let out = check(&dir, &["--max-warnings", "0", "--format", "sarif"]);
    assert_eq!(out.status.code(), Some(2));
    assert_valid_sarif(&serde_json::from_slice(&out.stdout).unwrap());
    // A silenced warning does not count.
    let allowed = catalog_dir(&[("doc.yaml", &prefixed("  # catalog: allow prefix-key\n"))]);
    assert_eq!(
        check(&allowed, &["--max-warnings", "0"]).status.code(),
        Some(0)
    );
}

#[test]
fn an_allow_comment_silences_its_rule_on_its_node_and_is_counted() {
    for comment in [
        // Above the entry, and trailing the entry's line.
        "  # catalog: allow prefix-key -- only the first 10 characters matter\n",
        "",
    ] {
        let text = if comment.is_empty() {
            prefixed("").replace(
                "  - name: idx_body\n",
                "  - name: idx_body  # catalog: allow prefix-key\n",
            )
        } else {
            prefixed(comment)
        };
        let dir = catalog_dir(&[("doc.yaml", &text)]);
        let out = check(&dir, &[]);
        assert_eq!(out.status.code(), Some(0));
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stdout.contains("0 warning(s), 1 suppressed"),
            "{stdout}{stderr}"
        );
        assert!(
            stderr.contains("suppressed warning[prefix-key]"),
            "{stderr}"
        );
        let doc: serde_json::Value =
            serde_json::from_slice(&check(&dir, &["--format", "json"]).stdout).unwrap();
        assert_eq!(doc["warnings"], 0);
        assert_eq!(doc["suppressed"], 1);
        assert_eq!(doc["problems"], serde_json::json!([]));
        let s = &doc["suppressions"][0];
        assert_eq!(s["rule"], "prefix-key");
        // Trailing the entry's line 10, or standing on line 10 above it.
        assert_eq!(s["line"], if comment.is_empty() { 11 } else { 12 });
        assert_eq!(s["comment_line"], 10);
    }
}

#[test]
fn an_allow_comment_elsewhere_or_for_another_rule_silences_nothing() {
    for comment in [
        // Another rule.
        "  # catalog: allow duplicate-index\n",
        // Two lines above the entry, with a node between.
        "",
    ] {
        let text = if comment.is_empty() {
            prefixed("").replace(
                "primary_key: [Id]\n",
                "# catalog: allow prefix-key\nprimary_key: [Id]\n",
            )
        } else {
            prefixed(comment)
        };
        let dir = catalog_dir(&[("doc.yaml", &text)]);
        let doc: serde_json::Value =
            serde_json::from_slice(&check(&dir, &["--format", "json"]).stdout).unwrap();
        // The prefix-key warning stays, and the comment is itself a
        // warning: it silences nothing.
        let rules: Vec<&str> = doc["problems"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["rule"].as_str().unwrap())
            .collect();
        assert_eq!(rules, ["allow-comment", "prefix-key"], "{doc:#}");
        assert_eq!(doc["warnings"], 2, "{doc:#}");
        assert_eq!(doc["suppressed"], 0, "{doc:#}");
    }
}

/// A valid table with no float column; `comment` trails its `Body` column's
/// `type` (line 7).
fn no_float(comment: &str) -> String {
    prefixed("").replace(
        "type: varchar(200)\n",
        &format!("type: varchar(200){comment}\n"),
    )
}

#[test]
fn an_allow_comment_that_silences_nothing_is_a_warning_and_counted() {
    let dir = catalog_dir(&[("doc.yaml", &no_float("  # catalog: allow has-float"))]);
    // Human: the warning at the comment's rule id, its help line, counted.
    let out = check(&dir, &[]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stderr.contains(":7:42: warning[allow-comment]: `# catalog: allow has-float` silences nothing here: remove it"),
        "{stderr}"
    );
    assert!(stdout.contains("2 warning(s)"), "{stdout}{stderr}");
    // JSON: a warning of rule allow-comment, at the id's line and column.
    let out = check(&dir, &["--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["ok"], true, "{doc:#}");
    assert_eq!(doc["errors"], 0, "{doc:#}");
    assert_eq!(doc["warnings"], 2, "{doc:#}");
    let unused: Vec<_> = doc["problems"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["rule"] == "allow-comment")
        .collect();
    assert_eq!(unused.len(), 1, "{doc:#}");
    assert_eq!(unused[0]["severity"], "warning");
    assert_eq!(
        (&unused[0]["line"], &unused[0]["column"]),
        (&7.into(), &42.into())
    );
    assert_eq!(
        &no_float("  # catalog: allow has-float")
            .lines()
            .nth(6)
            .unwrap()[41..50],
        "has-float"
    );
    // It counts toward --max-warnings (1: the prefix-key warning alone passes).
    assert_eq!(check(&dir, &["--max-warnings", "1"]).status.code(), Some(2));
    // SARIF: a valid log with the warning result.
    let out = check(&dir, &["--format", "sarif"]);
    let sarif: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_valid_sarif(&sarif);
    assert!(
        sarif["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["ruleId"] == "allow-comment" && r["level"] == "warning"),
        "{sarif:#}"
    );

    // Two ids, one used: only the unused one is reported, at its column.
    let both = prefixed("  # catalog: allow prefix-key, has-float\n");
    let dir = catalog_dir(&[("doc.yaml", &both)]);
    let doc: serde_json::Value =
        serde_json::from_slice(&check(&dir, &["--format", "json"]).stdout).unwrap();
    assert_eq!(doc["suppressed"], 1, "{doc:#}");
    assert_eq!(doc["warnings"], 1, "{doc:#}");
    let p = &doc["problems"][0];
    assert_eq!(p["rule"], "allow-comment", "{doc:#}");
    assert_eq!(
        (&p["line"], &p["column"]),
        (&10.into(), &32.into()),
        "{doc:#}"
    );
    assert!(p["message"]
        .as_str()
        .unwrap()
        .contains("allow has-float` silences nothing"));

    // A comment that silences something is no finding.
    let used = catalog_dir(&[("doc.yaml", &prefixed("  # catalog: allow prefix-key\n"))]);
    let doc: serde_json::Value =
        serde_json::from_slice(&check(&used, &["--format", "json"]).stdout).unwrap();
    assert_eq!(doc["problems"], serde_json::json!([]), "{doc:#}");
}

#[test]
fn an_allow_comment_in_a_catalog_with_errors_is_not_called_unused() {
    // The unknown type is an error: rules may not have run on the column,
    // so the comment is not reported.
    let text = no_float("  # catalog: allow has-float").replace("varchar(200)", "varchr(200)");
    let dir = catalog_dir(&[("doc.yaml", &text)]);
    let out = check(&dir, &["--format", "json"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        doc["problems"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["rule"] != "allow-comment"),
        "{doc:#}"
    );
}

#[test]
fn an_allow_comment_naming_no_rule_is_an_error_at_the_comment() {
    let dir = catalog_dir(&[("doc.yaml", &prefixed("  # catalog: allow prefix-kee\n"))]);
    let out = check(&dir, &["--format", "json"]);
    assert_eq!(out.status.code(), Some(2));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let bad: Vec<_> = doc["problems"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["rule"] == "allow-comment")
        .collect();
    assert_eq!(bad.len(), 1, "{doc:#}");
    assert_eq!(bad[0]["severity"], "error");
    assert_eq!(bad[0]["line"], 10);
    assert_eq!(bad[0]["column"], 20);
    assert!(
        bad[0]["message"].as_str().unwrap().contains("`prefix-kee`"),
        "{doc:#}"
    );
}

#[test]
fn an_allow_comment_cannot_silence_an_error_the_server_would_refuse() {
    let text = "table: Wide
columns:
  - name: Id
    type: bigint unsigned
    nullable: false
  - name: A
    type: varchar(1000)
primary_key: [Id]
indexes:
  # catalog: allow key-width
  - name: idx_a
    columns: [A]
";
    let dir = catalog_dir(&[("wide.yaml", text)]);
    let out = check(&dir, &["--format", "json"]);
    assert_eq!(out.status.code(), Some(2));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rules: Vec<&str> = doc["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["rule"].as_str().unwrap())
        .collect();
    assert_eq!(rules, ["allow-comment", "key-width"], "{doc:#}");
    assert_eq!(doc["suppressed"], 0);
    assert!(doc["problems"][0]["message"]
        .as_str()
        .unwrap()
        .contains("cannot silence an error of `key-width`"));
}

/// `catalog diff` from the repository root.
fn diff_in_root(args: &[&str]) -> Output {
    catalog()
        .current_dir(root())
        .arg("diff")
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn diff_sarif_places_changes_and_refusals_on_new_catalog_lines() {
    let out = diff_in_root(&[
        "--from",
        "fixtures/revisions/r2",
        "--to",
        "fixtures/revisions/r3",
        "--format",
        "sarif",
    ]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(out.stderr.is_empty(), "no note on stderr for sarif");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_valid_sarif(&doc);
    let results = doc["runs"][0]["results"].as_array().unwrap();
    let summary: Vec<(String, String, String, u64, u64)> = results
        .iter()
        .map(|r| {
            let at = &r["locations"][0]["physicalLocation"];
            (
                r["ruleId"].as_str().unwrap().to_string(),
                r["level"].as_str().unwrap().to_string(),
                at["artifactLocation"]["uri"].as_str().unwrap().to_string(),
                at["region"]["startLine"].as_u64().unwrap(),
                at["region"]["startColumn"].as_u64().unwrap(),
            )
        })
        .collect();
    let at = |rule: &str, level: &str, file: &str, line: u64, column: u64| {
        (
            rule.to_string(),
            level.to_string(),
            format!("fixtures/revisions/r3/{file}"),
            line,
            column,
        )
    };
    // The removed index is not in NEW: its table's `table:` key. The
    // changed column's `type` (work_item.yaml line 22), the new column's
    // entry (line 42); apply refuses the type change on each flavor.
    let refused = at("refused/column_type", "error", "work_item.yaml", 22, 5);
    assert_eq!(
        summary,
        vec![
            at(
                "change/unmanaged_index",
                "warning",
                "connector_remote_link.yaml",
                1,
                1
            ),
            at("change/column_type", "error", "work_item.yaml", 22, 5),
            at("change/missing_column", "note", "work_item.yaml", 42, 5),
            refused.clone(),
            refused.clone(),
            refused,
        ]
    );
    let flavors: Vec<&str> = results[3..]
        .iter()
        .map(|r| r["properties"]["flavor"].as_str().unwrap())
        .collect();
    assert_eq!(flavors, ["tidb", "mysql", "mariadb"]);
    assert_eq!(results[1]["properties"]["class"], "not_deployable");
}

#[test]
fn diff_sarif_carries_new_lint_errors_with_their_rule() {
    let new = catalog_dir(&[(
        "doc.yaml",
        "table: Doc\ncolumns:\n  - name: Id\n    type: bigint\n    nullable: false\n  - name: Body\n    type: varchr(10)\nprimary_key: [Id]\n",
    )]);
    let old = catalog_dir(&[(
        "doc.yaml",
        "table: Doc\ncolumns:\n  - name: Id\n    type: bigint\n    nullable: false\nprimary_key: [Id]\n",
    )]);
    let out = catalog()
        .args(["diff", "--format", "sarif", "--from"])
        .arg(old.path())
        .arg("--to")
        .arg(new.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_valid_sarif(&doc);
    let r = &doc["runs"][0]["results"][0];
    assert_eq!(r["ruleId"], "unknown-type");
    assert_eq!(r["level"], "error");
    let at = &r["locations"][0]["physicalLocation"];
    // An absolute path is a file URI.
    assert!(
        at["artifactLocation"]["uri"]
            .as_str()
            .unwrap()
            .starts_with("file:///"),
        "{r}"
    );
    assert_eq!(at["region"]["startLine"], 7);
    assert_eq!(at["region"]["startColumn"], 5);
}

#[test]
fn diff_max_warnings_counts_divergent_changes() {
    // NEW drops an index: divergent (installations keep it), deployable.
    let table = |index: &str| {
        format!(
            "table: Doc\ncolumns:\n  - name: Id\n    type: bigint\n    nullable: false\n  - name: Code\n    type: int\nprimary_key: [Id]\n{index}"
        )
    };
    let old = catalog_dir(&[(
        "doc.yaml",
        &table("indexes:\n  - name: idx_code\n    columns: [Code]\n"),
    )]);
    let new = catalog_dir(&[("doc.yaml", &table(""))]);
    let diff = |extra: &[&str]| {
        catalog()
            .args(["diff", "--flavor", "mysql", "--format", "json", "--from"])
            .arg(old.path())
            .arg("--to")
            .arg(new.path())
            .args(extra)
            .output()
            .unwrap()
    };
    let out = diff(&[]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        doc["reviews"][0]["changes"][0]["class"], "divergent",
        "{doc:#}"
    );
    assert_eq!(diff(&["--max-warnings", "1"]).status.code(), Some(0));
    assert_eq!(diff(&["--max-warnings", "0"]).status.code(), Some(1));
    // SARIF: the divergent change is the one warning result.
    let out = catalog()
        .args(["diff", "--flavor", "mysql", "--format", "sarif", "--from"])
        .arg(old.path())
        .arg("--to")
        .arg(new.path())
        .output()
        .unwrap();
    let sarif: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_valid_sarif(&sarif);
    assert_eq!(sarif["runs"][0]["results"][0]["level"], "warning");
}
