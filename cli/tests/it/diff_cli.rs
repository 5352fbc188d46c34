//! `catalog diff` end to end: exit codes, one JSON document, Markdown,
//! repeated --from, --flavor, usage errors, and git revisions read from a
//! temporary repository built here (its work tree left as it was).

use crate::cli_support;

use std::path::Path;
use std::process::{Command, Output};

use cli_support::{catalog, json};
use serde_json::Value;

fn run(args: &[&str]) -> Output {
    catalog().args(args).output().expect("binary runs")
}

fn kinds(review: &Value) -> Vec<String> {
    review["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["kind"].as_str().unwrap().to_string())
        .collect()
}

const R1: &str = "fixtures/revisions/r1";
const R2: &str = "fixtures/revisions/r2";
const R3: &str = "fixtures/revisions/r3";

#[test]
fn deployable_is_exit_0_with_the_rollout_order() {
    let out = run(&["diff", "--from", R1, "--to", R2]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("rollout: apply the schema, then deploy: integration-reconciler, runtime-upload-lifecycle"),
        "{text}"
    );
    assert!(
        text.contains("missing_table `_System_RollupDelta`"),
        "{text}"
    );
    assert!(
        text.contains("upgrade on mariadb from fixtures/revisions/r1: 3 step(s)"),
        "{text}"
    );
    assert!(!text.contains('\x1b'), "no colour on a pipe");
}

#[test]
fn not_deployable_is_exit_1_and_json_is_one_document() {
    let out = run(&["diff", "--from", R2, "--to", R3, "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let doc = json(&out);
    assert_eq!(doc["deployable"], false);
    let review = &doc["reviews"][0];
    assert_eq!(
        kinds(review),
        ["unmanaged_index", "column_type", "missing_column"]
    );
    assert_eq!(review["changes"][1]["class"], "not_deployable");
    let flavors: Vec<&str> = review["upgrades"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["flavor"].as_str().unwrap())
        .collect();
    assert_eq!(flavors, ["tidb", "mysql", "mariadb"]);
}

#[test]
fn each_from_is_judged_separately_and_flavor_filters() {
    let out = run(&[
        "diff", "--from", R1, "--from", R2, "--to", R2, "--flavor", "mysql", "--format", "json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let doc = json(&out);
    let reviews = doc["reviews"].as_array().unwrap();
    assert_eq!(reviews.len(), 2);
    assert_eq!(reviews[0]["from"], R1);
    assert_eq!(
        kinds(&reviews[1]),
        Vec::<String>::new(),
        "r2 -> r2: nothing"
    );
    assert_eq!(reviews[0]["upgrades"].as_array().unwrap().len(), 1);
    assert_eq!(reviews[0]["upgrades"][0]["flavor"], "mysql");
    let sql = reviews[0]["upgrades"][0]["steps"][0]["sql"]
        .as_str()
        .unwrap();
    assert!(
        sql.starts_with("CREATE TABLE `_System_RollupDelta`"),
        "{sql}"
    );
}

#[test]
fn markdown_for_a_pull_request_comment() {
    let out = run(&["diff", "--from", R2, "--to", R3, "--format", "markdown"]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with(
            "## Catalog release review: `fixtures/revisions/r3` is **not deployable**"
        ),
        "{text}"
    );
    assert!(
        text.contains("| not_deployable | column_type | `_System_WorkItem` | `State` |"),
        "{text}"
    );
}

#[test]
fn usage_and_catalog_errors_are_exit_2() {
    let out = run(&["diff", "--from", "no/such/dir", "--to", R2]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no/such/dir"));
    let out = run(&[
        "diff",
        "--from",
        "git:--output=x",
        "--to",
        R2,
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(json(&out)["error"]
        .as_str()
        .unwrap()
        .contains("git revision"));
    let out = run(&["check", "--format", "markdown"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["diff"]);
    assert_eq!(out.status.code(), Some(2), "--from is required");
}

fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args(["-c", "user.name=test", "-c", "user.email=test@example.com"])
        .args(args)
        .current_dir(dir)
        .status()
        .expect("git runs");
    assert!(status.success(), "git {args:?}");
}

fn copy_catalog(from: &Path, to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

#[test]
fn git_revisions_of_a_temporary_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let repo = tempfile::tempdir().unwrap();
    let dir = repo.path();
    let cat = dir.join("catalog");
    git(dir, &["init", "-q"]);
    copy_catalog(&root.join(R1), &cat);
    git(dir, &["add", "catalog"]);
    git(dir, &["commit", "-qm", "r1"]);
    git(dir, &["tag", "v1"]);
    copy_catalog(&root.join(R2), &cat);
    git(dir, &["add", "catalog"]);
    git(dir, &["commit", "-qm", "r2"]);
    git(dir, &["tag", "v2"]);
    // The work tree holds r3, uncommitted: NEW by default.
    copy_catalog(&root.join(R3), &cat);
    let before = snapshot(&cat);
    let diff = |args: &[&str]| {
        catalog()
            .current_dir(dir)
            .args(["diff", "--format", "json"])
            .args(args)
            .output()
            .expect("binary runs")
    };
    let out = diff(&["--from", "git:v1", "--to", "git:v2"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc = json(&out);
    assert_eq!(doc["to"], "git:v2");
    assert_eq!(
        kinds(&doc["reviews"][0]),
        ["missing_index", "missing_table", "missing_column"]
    );
    // NEW defaults to --catalog (the work tree); the path form names the directory.
    let out = diff(&["--from", "git:v2:catalog"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        kinds(&json(&out)["reviews"][0]),
        ["unmanaged_index", "column_type", "missing_column"]
    );
    let out = diff(&["--from", "git:v1", "--from", "git:HEAD"]);
    assert_eq!(json(&out)["reviews"].as_array().unwrap().len(), 2);
    let absolute = cat.display().to_string();
    let out = diff(&["--catalog", &absolute, "--from", "git:v2", "--to", "git:v2"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "an absolute --catalog inside the repository"
    );
    let out = diff(&["--from", "git:v9"]);
    assert_eq!(out.status.code(), Some(2));
    let error = json(&out)["error"].as_str().unwrap().to_string();
    assert!(
        error.contains("git:v9") && error.contains("revision `v9` not found"),
        "{error}"
    );
    // A revision that exists, a directory that does not: said apart.
    let out = diff(&["--from", "git:v1:nodir"]);
    assert_eq!(out.status.code(), Some(2));
    let error = json(&out)["error"].as_str().unwrap().to_string();
    assert!(error.contains("has no directory `nodir`"), "{error}");
    assert_eq!(snapshot(&cat), before, "the work tree is untouched");
}

#[test]
fn a_new_lint_error_is_exit_1_naming_file_table_and_object() {
    let out = run(&[
        "diff",
        "--from",
        R2,
        "--to",
        "fixtures/bad-catalogs/index-too-wide",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("index-too-wide/t.yaml:")
            && text.contains(": error[key-width]: table `_System_Wide`, index `idx_wide_claim`: key is 3204 bytes"),
        "{text}"
    );
    assert!(text.contains("rollout: do not deploy"), "{text}");
}

#[test]
fn colour_on_a_terminal_only() {
    let bin = env!("CARGO_BIN_EXE_catalog").to_string();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let r = |x: &str| root.join(x).display().to_string();
    let args = [
        bin,
        "diff".into(),
        "--from".into(),
        r(R2),
        "--to".into(),
        r(R3),
    ];
    let (code, screen) = cli_support::on_a_terminal(&args);
    assert_eq!(code, Some(1), "{screen}");
    assert!(
        screen.contains("\x1b[31mnot deployable to warm installations:\x1b[0m"),
        "{screen}"
    );
    assert!(
        screen.contains("\x1b[32m+  `State` varchar(64)"),
        "{screen}"
    );
    assert!(
        screen.contains("\x1b[1m\x1b[31mNOT deployable\x1b[0m"),
        "the verdict, bold red: {screen}"
    );
    // NO_COLOR on a terminal: the same text, no escapes.
    let (code, plain) = cli_support::on_a_terminal_with(&args, &[("NO_COLOR", "1")]);
    assert_eq!(code, Some(1), "{plain}");
    assert!(!plain.contains('\x1b'), "{plain}");
    assert!(
        plain.contains("not deployable to warm installations:"),
        "{plain}"
    );
    // Grouped: not deployable first, then divergent, then deployable.
    let at = |s: &str| plain.find(s).unwrap_or_else(|| panic!("{s}: {plain}"));
    assert!(
        at("not deployable to warm installations:") < at("divergent (warm and greenfield differ):")
    );
    assert!(at("divergent (warm and greenfield differ):") < at("\ndeployable:"));
    // A unified diff of each changed table's CREATE TABLE.
    assert!(plain.contains("table `_System_WorkItem`:"), "{plain}");
    assert!(plain.contains("-  `State` varchar(32)"), "{plain}");
    assert!(plain.contains("+  `State` varchar(64)"), "{plain}");
}

/// The upgrade `catalog diff` shows is what `catalog plan --against` plans
/// offline against OLD rendered for the flavor (`catalog render`): the same
/// steps and SQL, the same refusals; when refused, plan's steps are the
/// review's held-back ones.
#[test]
fn upgrade_equals_the_offline_plan_against_old_rendered() {
    let dir = tempfile::tempdir().unwrap();
    for (old, new) in [(R1, R2), (R2, R3), (R1, R3)] {
        let out = run(&["diff", "--from", old, "--to", new, "--format", "json"]);
        let doc = json(&out);
        let upgrades = doc["reviews"][0]["upgrades"].as_array().unwrap();
        assert_eq!(upgrades.len(), 3, "every flavor");
        for u in upgrades {
            let flavor = u["flavor"].as_str().unwrap();
            let at = format!("{old} -> {new} on {flavor}");
            let rendered = run(&["render", "--catalog", old, "--flavor", flavor]);
            assert_eq!(rendered.status.code(), Some(0), "{at}");
            let sql = dir.path().join(format!("{flavor}.sql"));
            std::fs::write(&sql, &rendered.stdout).unwrap();
            let sql = sql.display().to_string();
            let plan = run(&[
                "plan",
                "--catalog",
                new,
                "--against",
                &sql,
                "--flavor",
                flavor,
                "--format",
                "json",
            ]);
            let plan = json(&plan);
            let refused = !u["refused"].as_array().unwrap().is_empty();
            assert_eq!(plan["refused"], refused, "{at}");
            let shown = if refused {
                &u["held_back"]
            } else {
                &u["steps"]
            };
            assert_eq!(&plan["steps"], shown, "{at}");
            assert_eq!(plan["drift"], u["refused"], "{at}");
        }
    }
}
