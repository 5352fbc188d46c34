//! The binary with no database: `plan --against` every legacy fixture in
//! every dialect (insta snapshots, exit codes), `import --from` dumps, and
//! their errors.

use crate::cli_support;
use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// [`cli_support::catalog`] with `NO_COLOR` set.
fn catalog() -> Command {
    let mut cmd = cli_support::catalog();
    cmd.env("NO_COLOR", "1");
    cmd
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out: Output = catalog().args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("catalog-offline-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn plan_against_every_legacy_fixture() {
    for release in ["r1", "r2", "r2-drifted"] {
        for flavor in ["mariadb", "mysql", "tidb"] {
            let file = format!("fixtures/legacy/{release}-{flavor}.sql");
            let (code, stdout, stderr) = run(&["plan", "--against", &file, "--flavor", flavor]);
            let want = if release.contains("drifted") { 1 } else { 0 };
            assert_eq!(code, Some(want), "{file}: {stderr}\n{stdout}");
            // stdout is the plan alone; the server it assumes is on stderr.
            let oldest = match flavor {
                "mariadb" => "10.11.2",
                "mysql" => "8.0.11",
                _ => "8.5.0",
            };
            assert_eq!(
                stderr,
                format!("server: {flavor} {oldest} (assumed: the oldest supported release; --server-version sets it)\n"),
                "{file}"
            );
            insta::assert_snapshot!(format!("plan_against_{release}_{flavor}"), stdout);
        }
    }
}

/// A human plan without its cost lines (`-- cost:` after each step and
/// the `cost (...)` block of totals), which depend on the sizes known and
/// the release assumed.
pub(crate) fn without_cost(text: &str) -> String {
    let mut out = String::new();
    let mut in_totals = false;
    for line in text.lines() {
        if line.starts_with("cost (") {
            in_totals = true;
        }
        if in_totals {
            if line.is_empty() {
                in_totals = false;
            }
            continue;
        }
        if !line.starts_with("-- cost:") {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// An offline run states the server it writes SQL for: `--server-version`
/// when given (stdout unchanged), in JSON as `server_version`; a version
/// that is not X.Y.Z is a usage error naming it.
#[test]
fn offline_runs_state_their_server_version() {
    let file = "fixtures/legacy/r1-mysql.sql";
    let base = ["plan", "--against", file, "--flavor", "mysql"];
    let (_, assumed, _) = run(&base);
    let (code, given, stderr) = run(&[&base[..], &["--server-version", "8.0.36"]].concat());
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(
        without_cost(&given),
        without_cost(&assumed),
        "the steps do not depend on the version"
    );
    // Their cost class does: MySQL adds a column instantly from 8.0.12
    // (8.0.11, the oldest supported, rebuilds the table).
    assert!(
        assumed.contains("-- cost: class rebuild") && !given.contains("class rebuild"),
        "{assumed}\n{given}"
    );
    assert_eq!(stderr, "server: mysql 8.0.36 (--server-version)\n");
    let (code, json, _) = run(&[
        &base[..],
        &["--server-version", "8.0.36", "--format", "json"],
    ]
    .concat());
    assert_eq!(code, Some(0));
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["server_version"], "8.0.36");
    assert_eq!(doc["server"], serde_json::Value::Null);

    let (code, json, stderr) = run(&["render", "--flavor", "mariadb", "--format", "json"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.is_empty(),
        "JSON runs say it in the document: {stderr}"
    );
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["server_version"], "10.11.2");

    let (code, _, stderr) = run(&["render", "--server-version", "10.11"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("`10.11`"), "names the text: {stderr}");
    let (code, _, stderr) = run(&["diff", "--from", ".", "--server-version", "8.0.36"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("exactly one --flavor"), "{stderr}");
}

#[test]
fn the_readme_first_command_needs_no_database() {
    let (code, stdout, _) = run(&[
        "plan",
        "--against",
        "fixtures/legacy/r1-mariadb.sql",
        "--flavor",
        "mariadb",
    ]);
    assert_eq!(code, Some(0));
    assert!(stdout.contains("5 step(s)"), "{stdout}");
    assert!(stdout.contains("ADD COLUMN `DependencyKey`"), "{stdout}");
    assert!(
        stdout.contains("+++ fixtures/legacy/r1-mariadb.sql"),
        "{stdout}"
    );
}

#[test]
fn the_flavor_is_detected_from_the_dump() {
    for (flavor, file) in [
        ("mariadb", "r1-mariadb"),
        ("mysql", "r1-mysql"),
        ("tidb", "r1-tidb"),
    ] {
        let path = format!("fixtures/legacy/{file}.sql");
        let (code, stdout, _) = run(&["plan", "--against", &path]);
        assert_eq!(code, Some(0));
        assert!(
            stdout.starts_with(&format!("plan for {path} ({flavor})")),
            "{stdout}"
        );
    }
}

#[test]
fn plan_against_json_is_one_document_with_steps_and_drift() {
    let (code, stdout, _) = run(&[
        "--format",
        "json",
        "plan",
        "--against",
        "fixtures/legacy/r2-drifted-tidb.sql",
    ]);
    assert_eq!(code, Some(1));
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(doc["refused"], true);
    let kinds: Vec<&str> = doc["drift"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["index_prefix", "column_collation"]);
}

#[test]
fn unreadable_dumps_and_misuse_are_usage_errors() {
    let dir = scratch("bad");
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.sql");
    std::fs::write(
        &bad,
        "SET NAMES utf8mb4;\n\nCREATE TABLE `t` (\n  `a` int,\n  what is this\n) DEFAULT CHARSET=utf8mb4;\n",
    )
    .unwrap();
    let (code, _, stderr) = run(&["plan", "--against", bad.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("bad.sql:3:"),
        "names file and line: {stderr}"
    );
    let (code, _, stderr) = run(&["plan", "--against", "fixtures/legacy/none.sql"]);
    assert_eq!(code, Some(2), "{stderr}");
    let (code, _, stderr) = run(&["plan", "--flavor", "mysql"]);
    assert_eq!(code, Some(2), "--flavor needs --against: {stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn import_from_a_dump_round_trips_through_check_and_plan() {
    let out = scratch("import");
    let (code, stdout, stderr) = run(&[
        "import",
        "--from",
        "fixtures/legacy/r2-mysql.sql",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("imported 8 table(s)"), "{stdout}");
    let (code, stdout, stderr) = run(&["--catalog", out.to_str().unwrap(), "check"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("8 table(s), 0 warning(s)"), "{stdout}");
    let (code, stdout, stderr) = run(&[
        "--catalog",
        out.to_str().unwrap(),
        "plan",
        "--against",
        "fixtures/legacy/r2-mysql.sql",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains(": 0 step(s)"), "{stdout}");
    assert!(!stdout.contains("diff"), "{stdout}");
    // The table created before the catalog pinned collations keeps its own.
    let work_item = std::fs::read_to_string(out.join("system_work_item.yaml")).unwrap();
    insta::assert_snapshot!("import_r2_mysql_work_item", work_item);
    let defaults = std::fs::read_to_string(out.join("catalog.yaml")).unwrap();
    assert!(defaults.contains("collation: utf8mb4_bin"), "{defaults}");
    // Never overwrites.
    let (code, _, stderr) = run(&[
        "import",
        "--from",
        "fixtures/legacy/r2-mysql.sql",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(2), "{stderr}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn import_declines_what_the_format_cannot_express() {
    let dir = scratch("unsupported");
    std::fs::create_dir_all(&dir).unwrap();
    let dump = dir.join("dump.sql");
    std::fs::write(
        &dump,
        "CREATE TABLE `t` (\n  `Id` int NOT NULL,\n  `Kind` decimal(10,2) unsigned DEFAULT NULL,\n  `Name` varchar(200) DEFAULT NULL,\n  PRIMARY KEY (`Id`),\n  KEY `idx_name` (`Name`(10))\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;\n",
    )
    .unwrap();
    let out = dir.join("out");
    let (code, _, stderr) = run(&[
        "import",
        "--from",
        dump.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("table `t`: column `Kind`"), "{stderr}");
    // A prefix index is format v2: declared, not declined.
    assert!(!stderr.contains("index `idx_name`"), "{stderr}");
    assert!(
        stderr.contains("(use --skip-unsupported to leave it out)"),
        "the CLI adds its advice: {stderr}"
    );
    assert!(!out.exists(), "nothing written");
    let (code, stdout, stderr) = run(&[
        "import",
        "--from",
        dump.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--skip-unsupported",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stdout.contains("left out (--skip-unsupported):"),
        "{stdout}"
    );
    assert!(
        stdout.contains("column `Kind`: type `decimal(10,2) unsigned`"),
        "{stdout}"
    );
    let t = std::fs::read_to_string(out.join("t.yaml")).unwrap();
    assert!(!t.contains("Kind"), "{t}");
    assert!(
        t.contains("idx_name") && t.contains("length: 10"),
        "the prefix is declared: {t}"
    );
    let (code, _, stderr) = run(&["--catalog", out.to_str().unwrap(), "check"]);
    assert_eq!(code, Some(0), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Live counterparts, on the real test server (`CATALOG_TEST_DATABASE_URL`,
/// each flavor with its own fixture): a live plan prints what the
/// offline plan of the same schema prints, diffs included; verify shows the
/// diff; live import refuses what the format cannot express.
mod live {
    use super::*;
    use common::TestDb;

    /// A scratch schema loaded with the flavor's drifted r2 fixture; returns
    /// the schema and the fixture's path (relative to the repository).
    async fn load_drifted() -> (TestDb, String) {
        let db = TestDb::new().await;
        let fixture = format!("fixtures/legacy/r2-drifted-{}.sql", db.flavor);
        db.exec_batch(&std::fs::read_to_string(root().join(&fixture)).unwrap())
            .await;
        (db, fixture)
    }

    #[tokio::test]
    async fn live_plan_prints_what_the_offline_plan_prints() {
        let (db, fixture) = load_drifted().await;
        let fixture = fixture.as_str();
        let url = db.url();
        let (code, live, stderr) = run(&["--database-url", &url, "plan"]);
        assert_eq!(code, Some(1), "{stderr}");
        let display = live
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("plan for "))
            .and_then(|l| l.split(" (").next())
            .unwrap()
            .to_string();
        assert!(display.ends_with(&db.name), "{display}");
        let (_, offline, _) = run(&["plan", "--against", fixture]);
        // A live plan also names the server it read; a dump has none.
        let (server, rest): (Vec<&str>, Vec<&str>) =
            live.lines().partition(|l| l.starts_with("server: "));
        assert_eq!(server.len(), 1, "{live}");
        let live_body: String = rest.iter().map(|l| format!("{l}\n")).collect();
        assert_eq!(
            without_cost(&live_body.replace(&display, fixture)),
            without_cost(&offline)
        );
        assert!(
            live.contains(
                "-  `DependencyKey` varchar(255) NULL,\n\
                 +  `DependencyKey` varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NULL,"
            ),
            "{live}"
        );

        let (code, verify, _) = run(&["--database-url", &url, "verify"]);
        assert_eq!(code, Some(1));
        assert!(verify.contains(&format!("+++ {display}")), "{verify}");
        assert!(
            verify.contains("+  KEY `idx_file_upload_lifecycle` (`State`(8), `ExpiresAt`, `Id`)"),
            "{verify}"
        );
    }

    #[tokio::test]
    async fn live_import_declares_a_prefix_index() {
        let (db, _) = load_drifted().await;
        let url = db.url();
        let out = scratch("live-import");
        let (code, stdout, stderr) = run(&[
            "--database-url",
            &url,
            "import",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, Some(0), "{stderr}");
        let upload =
            std::fs::read_to_string(out.join("system_file_upload_operation.yaml")).unwrap();
        assert!(
            upload.contains("column: State") && upload.contains("length: 8"),
            "the live prefix is declared as such: {upload}"
        );
        assert!(stdout.contains("imported 8 table(s)"), "{stdout}");
        let (code, _, stderr) = run(&[
            "--catalog",
            out.to_str().unwrap(),
            "--database-url",
            &url,
            "verify",
        ]);
        assert_eq!(code, Some(0), "the source satisfies its import: {stderr}");
        let _ = std::fs::remove_dir_all(&out);
    }
}

/// `render` writes new tables in dependency order: the parent before the
/// child whose name sorts first, on every flavor.
#[test]
fn render_creates_referenced_tables_first() {
    for flavor in ["mariadb", "mysql", "tidb"] {
        let (code, stdout, stderr) = run(&[
            "--catalog",
            "fixtures/format-v2/foreign-keys",
            "render",
            "--flavor",
            flavor,
        ]);
        assert_eq!(code, Some(0), "{stderr}");
        let parent = stdout.find("CREATE TABLE `_System_Queue`").expect("parent");
        let child = stdout.find("CREATE TABLE `_System_Item`").expect("child");
        assert!(parent < child, "{stdout}");
        assert!(
            stdout.contains("CONSTRAINT `fk_item_queue` FOREIGN KEY (`QueueId`) REFERENCES `_System_Queue` (`Id`) ON DELETE CASCADE ON UPDATE RESTRICT"),
            "{stdout}"
        );
    }
}
