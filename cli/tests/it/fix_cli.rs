//! Every refusal says what would make it pass, in human output (`fix:`
//! lines) and in JSON (`fix` on each finding and problem):
//!
//! - `catalog diff` after appending an enum member without `widen`: not
//!   deployable, and the fix says `widen: true`; with it, deployable.
//! - a renamed column in `catalog diff`: keep the old name or rename by hand.
//! - `verify` / `plan` / `apply` drift on a live table (each server): the
//!   `ALTER TABLE ... MODIFY COLUMN` to run by hand, rendered from the
//!   catalog; a drifted index: a new name or the DROP/ADD by hand.
//! - import of a table with another row format: the `ALTER TABLE` that
//!   clears the option.

use crate::cli_support;
use crate::common;

use std::path::Path;
use std::process::Output;

use cli_support::{catalog, json};

pub(crate) fn write(dir: &Path, files: &[(&str, &str)]) {
    std::fs::create_dir_all(dir).unwrap();
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
}

pub(crate) fn show(out: &Output) -> String {
    format!(
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

const JOB_V1: &str = "table: job
columns:
  - {name: Id, type: bigint unsigned, nullable: false}
  - {name: State, type: \"enum('queued','running')\", nullable: false}
  - {name: Note, type: varchar(16)}
primary_key: [Id]
indexes:
  - {name: idx_job_state, columns: [State, Id]}
";

#[test]
fn diff_of_an_enum_append_names_widen_true() {
    let tmp = tempfile::tempdir().unwrap();
    let (old, new, widened) = (
        tmp.path().join("old"),
        tmp.path().join("new"),
        tmp.path().join("widened"),
    );
    // A MySQL/MariaDB fleet (the servers the widening rule table is
    // proven on here).
    let flavors = "flavors: [mysql, mariadb]\n";
    write(&old, &[("job.yaml", JOB_V1), ("catalog.yaml", flavors)]);
    let appended = JOB_V1.replace("'queued','running'", "'queued','running','done'");
    write(&new, &[("job.yaml", &appended), ("catalog.yaml", flavors)]);
    write(
        &widened,
        &[
            ("job.yaml", &appended),
            (
                "catalog.yaml",
                "flavors: [mysql, mariadb]\ndefaults:\n  widen: true\n",
            ),
        ],
    );
    let diff = |to: &Path, json_out: bool| {
        let mut c = catalog();
        c.args(["diff", "--from"]).arg(&old).arg("--to").arg(to);
        if json_out {
            c.args(["--format", "json"]);
        }
        c.output().unwrap()
    };
    let out = diff(&new, false);
    let text = show(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("apply never alters an existing object"),
        "{text}"
    );
    assert!(
        text.contains("fix: the change is an online widening on this server: set `widen: true` on column `State`"),
        "{text}"
    );
    let out = diff(&new, true);
    let doc = json(&out);
    let change = doc["reviews"][0]["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == "column_type")
        .unwrap_or_else(|| panic!("{doc:#}"));
    assert!(
        change["fix"].as_str().unwrap().contains("widen: true"),
        "{change:#}"
    );
    // Following the fix makes it deployable.
    let out = diff(&widened, false);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
}

#[test]
fn diff_of_a_rename_says_to_keep_the_name_or_rename_by_hand() {
    let tmp = tempfile::tempdir().unwrap();
    let (old, new) = (tmp.path().join("old"), tmp.path().join("new"));
    write(&old, &[("job.yaml", JOB_V1)]);
    write(&new, &[("job.yaml", &JOB_V1.replace("Note", "Remark"))]);
    let out = catalog()
        .args(["diff", "--format", "json", "--from"])
        .arg(&old)
        .arg("--to")
        .arg(&new)
        .output()
        .unwrap();
    let doc = json(&out);
    let renamed = doc["reviews"][0]["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == "column_renamed")
        .unwrap_or_else(|| panic!("{doc:#}"));
    assert!(
        renamed["fix"].as_str().unwrap().contains("RENAME COLUMN"),
        "{renamed:#}"
    );
}

#[tokio::test]
async fn drift_names_the_statement_to_run_by_hand() {
    let db = common::TestDb::new().await;
    db.exec(&["CREATE TABLE `job` (`Id` bigint unsigned NOT NULL,
          `State` enum('queued','running') CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
          `Note` varchar(8) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL,
          PRIMARY KEY (`Id`), KEY `idx_job_state` (`Id`, `State`))
          ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"])
        .await;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("catalog");
    // Note: varchar(8) live, varchar(16) in the catalog, no widen: drift.
    write(&dir, &[("job.yaml", JOB_V1)]);
    let run = |command: &str, json_out: bool| {
        let mut c = catalog();
        c.arg("--catalog")
            .arg(&dir)
            .args(["--database-url", &db.url()]);
        if json_out {
            c.args(["--format", "json"]);
        }
        c.arg(command).output().unwrap()
    };
    let modify = "ALTER TABLE `job` MODIFY COLUMN `Note` varchar(16)";
    for command in ["verify", "plan", "apply"] {
        let out = run(command, false);
        let text = show(&out);
        assert_eq!(out.status.code(), Some(1), "{command}: {text}");
        assert!(text.contains("    fix: "), "{command}: {text}");
        assert!(text.contains(modify), "{command}: {text}");
        assert!(text.contains("widen: true"), "{command}: {text}");
        let out = run(command, true);
        let doc = json(&out);
        let list = if command == "verify" {
            "problems"
        } else {
            "drift"
        };
        let problems = doc[list].as_array().unwrap_or_else(|| panic!("{doc:#}"));
        let note = problems
            .iter()
            .find(|p| p["object"] == "Note")
            .unwrap_or_else(|| panic!("{doc:#}"));
        assert!(
            note["fix"].as_str().unwrap().contains("widen: true"),
            "{note:#}"
        );
        let index = problems
            .iter()
            .find(|p| p["object"] == "idx_job_state")
            .unwrap_or_else(|| panic!("{doc:#}"));
        let fix = index["fix"].as_str().unwrap();
        assert!(
            fix.contains("new name")
                && fix.contains(
                    "DROP INDEX `idx_job_state`, ADD INDEX `idx_job_state` (`State`, `Id`)"
                ),
            "{fix}"
        );
    }
}
