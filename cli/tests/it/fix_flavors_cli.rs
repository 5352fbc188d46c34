//! The fix in every output of `catalog diff`, per flavor (offline, no
//! database):
//!
//! - `--format markdown` has a `fix` column: what makes each refused
//!   change pass (here `widen: true`);
//! - a diff over several flavors whose fixes differ gives each flavor's
//!   (an enum append is `widen: true` on MySQL and MariaDB, a statement by
//!   hand on TiDB), in human, JSON (`fix` and `fixes`) and Markdown, not
//!   the first flavor's alone;
//! - a change refused on only some of the flavors reviewed (no `--flavor`,
//!   a catalog for every flavor) says `--flavor`: review for your servers
//!   alone;
//! - `plan --against` a dump that does not say its server: the JSON error
//!   carries `fix: pass --flavor ...`.

use crate::cli_support;

use std::path::Path;
use std::process::Output;

use crate::fix_cli::{show, write};
use cli_support::{catalog, json};

const JOB_V1: &str = "table: job
columns:
  - {name: Id, type: bigint unsigned, nullable: false}
  - {name: State, type: \"enum('queued','running')\", nullable: false}
primary_key: [Id]
";

/// OLD and NEW (one enum member appended) under `tmp`, each with
/// `catalog_yaml`.
fn revisions(tmp: &Path, catalog_yaml: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let (old, new) = (tmp.join("old"), tmp.join("new"));
    write(
        &old,
        &[("job.yaml", JOB_V1), ("catalog.yaml", catalog_yaml)],
    );
    let appended = JOB_V1.replace("'queued','running'", "'queued','running','done'");
    write(
        &new,
        &[("job.yaml", &appended), ("catalog.yaml", catalog_yaml)],
    );
    (old, new)
}

fn diff(old: &Path, new: &Path, format: &str) -> Output {
    catalog()
        .args(["diff", "--format", format, "--from"])
        .arg(old)
        .arg("--to")
        .arg(new)
        .output()
        .unwrap()
}

/// The `column_type` change of a JSON review.
fn column_type(doc: &serde_json::Value) -> serde_json::Value {
    doc["reviews"][0]["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == "column_type")
        .unwrap_or_else(|| panic!("{doc:#}"))
        .clone()
}

#[test]
fn markdown_has_a_fix_column() {
    let tmp = tempfile::tempdir().unwrap();
    let (old, new) = revisions(tmp.path(), "flavors: [mysql, mariadb]\n");
    let out = diff(&old, &new, "markdown");
    let text = show(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("| class | change | table | object | old | new | reason | fix |"),
        "{text}"
    );
    let row = stdout
        .lines()
        .find(|l| l.starts_with("| not_deployable | column_type |"))
        .unwrap_or_else(|| panic!("{text}"));
    let cells: Vec<&str> = row.trim().trim_matches('|').split(" | ").collect();
    assert!(
        cells
            .last()
            .unwrap()
            .contains("set `widen: true` on column `State`"),
        "{row}"
    );
    assert_eq!(cells.len(), 8, "one cell per header column: {row}");
}

#[test]
fn several_flavors_show_each_flavors_fix() {
    let tmp = tempfile::tempdir().unwrap();
    // A catalog for every flavor (the default), reviewed on each.
    let (old, new) = revisions(tmp.path(), "defaults:\n  engine: InnoDB\n");
    let out = diff(&old, &new, "json");
    let doc = json(&out);
    let change = column_type(&doc);
    assert_eq!(change["only_on"], serde_json::json!([]), "{change:#}");
    let fixes = change["fixes"]
        .as_array()
        .unwrap_or_else(|| panic!("{change:#}"));
    let by: Vec<(&str, &str)> = fixes
        .iter()
        .map(|f| (f["flavor"].as_str().unwrap(), f["fix"].as_str().unwrap()))
        .collect();
    assert_eq!(
        by.iter().map(|(f, _)| *f).collect::<Vec<_>>(),
        ["tidb", "mysql", "mariadb"],
        "{change:#}"
    );
    assert!(by[0].1.starts_with("run by hand"), "{change:#}");
    for (_, fix) in &by[1..] {
        assert!(
            fix.contains("set `widen: true` on column `State`"),
            "{change:#}"
        );
    }
    let fix = change["fix"].as_str().unwrap();
    assert!(
        fix.starts_with("on tidb: run by hand")
            && fix.contains("; on mysql: the change is an online widening"),
        "{fix}"
    );
    assert!(
        fix.contains("; on mariadb: the change is an online widening"),
        "{fix}"
    );
    // Human and Markdown give the same text.
    let human = show(&diff(&old, &new, "human"));
    assert!(human.contains(&format!("    fix: {fix}")), "{human}");
    let markdown = show(&diff(&old, &new, "markdown"));
    assert!(
        markdown.contains("on tidb: run by hand") && markdown.contains("on mysql: the change"),
        "{markdown}"
    );
}

#[test]
fn refused_on_some_flavors_only_names_flavor() {
    let tmp = tempfile::tempdir().unwrap();
    // Opted in to widening: online on MySQL and MariaDB (deployable),
    // refused on TiDB only.
    let (old, new) = revisions(tmp.path(), "defaults:\n  widen: true\n");
    let out = diff(&old, &new, "json");
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let doc = json(&out);
    let change = column_type(&doc);
    assert_eq!(change["only_on"], serde_json::json!(["tidb"]), "{change:#}");
    let fix = change["fix"].as_str().unwrap();
    assert!(
        fix.contains("it is refused only on tidb: if none of your servers is tidb, review for yours alone (`--flavor mysql --flavor mariadb`) or list only theirs under `flavors:` in catalog.yaml"),
        "{fix}"
    );
    let human = show(&diff(&old, &new, "human"));
    assert!(
        human.contains("review for yours alone (`--flavor mysql --flavor mariadb`)"),
        "{human}"
    );
    // Following it: deployable.
    let out = catalog()
        .args(["diff", "--flavor", "mysql", "--flavor", "mariadb", "--from"])
        .arg(&old)
        .arg("--to")
        .arg(&new)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
}

#[test]
fn a_dump_of_unknown_flavor_names_the_flavor_fix_in_json() {
    let tmp = tempfile::tempdir().unwrap();
    let cat = tmp.path().join("cat");
    write(&cat, &[("job.yaml", JOB_V1)]);
    let bare = tmp.path().join("bare.sql");
    std::fs::write(
        &bare,
        "CREATE TABLE `job` (\n  `Id` bigint unsigned NOT NULL,\n  `State` enum('queued','running') NOT NULL,\n  PRIMARY KEY (`Id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;\n",
    )
    .unwrap();
    let plan = |format: &str| {
        catalog()
            .args(["plan", "--format", format, "--catalog"])
            .arg(&cat)
            .arg("--against")
            .arg(&bare)
            .output()
            .unwrap()
    };
    let out = plan("json");
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let doc = json(&out);
    assert_eq!(
        doc["fix"], "pass --flavor mariadb, mysql or tidb",
        "{doc:#}"
    );
    assert!(
        doc["error"]
            .as_str()
            .unwrap()
            .contains("bare.sql: the dump does not say which server it comes from"),
        "{doc:#}"
    );
    let out = plan("human");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("; pass --flavor mariadb, mysql or tidb"),
        "{}",
        show(&out)
    );
    // With it, the plan runs.
    let out = catalog()
        .args(["plan", "--flavor", "mysql", "--catalog"])
        .arg(&cat)
        .arg("--against")
        .arg(&bare)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
}
