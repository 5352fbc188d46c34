//! A read-only fleet run (`plan`/`verify --fleet`) reads every stage: a
//! failing canary does not hide the rest; its wording is the single
//! target's (`problem`, `satisfied`); on a pipe no line is printed twice;
//! a schema the fleet file names that does not exist points at `schemas:`.

use crate::cli_support;

use cli_support::fleet::{count, outcome_of, Schemas, Setup, DRIFTED, LEGACY};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_canary_does_not_hide_the_rest_of_a_read_only_run() {
    let schemas = Schemas::create(3).await;
    let canary = schemas.name(1);
    schemas.exec(3306, &canary, DRIFTED).await;
    for n in 2..=3 {
        for port in [3306, 3307] {
            schemas.exec(port, &schemas.name(n), LEGACY).await;
        }
    }
    let setup = Setup::new(&schemas.fleet_yaml(&format!(
        "stages:\n  - name: canary\n    match: {{server: s3306, schema: '{canary}'}}\n  - name: rest\n\
         on_error: stop\n"
    )));
    for command in ["plan", "verify"] {
        let (code, doc) = setup.json(command, &[]).await;
        assert_eq!(code, 1, "{command}: {doc:#}");
        assert_eq!(outcome_of(&doc, 3306, &canary), "refused", "{doc:#}");
        assert_eq!(
            count(&doc, "not_started"),
            0,
            "{command}: {}",
            doc["summary"]
        );
        assert_eq!(doc["stages"][1]["ran"], true, "{command}: {doc:#}");
        assert_eq!(doc["targets"].as_array().unwrap().len(), 6);

        // Human on a pipe: the single-target wording, each line once.
        let out = cli_support::run(setup.args(command, "human")).await;
        assert_eq!(out.status.code(), Some(1));
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let canary_lines = text
            .lines()
            .filter(|l| l.contains(&format!(":3306/{canary} ")))
            .filter(|l| l.starts_with("problem"))
            .count();
        assert_eq!(
            canary_lines, 1,
            "{command}: the canary's line once:\n{text}"
        );
        for word in ["refused", "already_converged", "not_started  "] {
            assert!(!text.contains(word), "{command}: `{word}` in\n{text}");
        }
        assert!(
            text.contains(" problem "),
            "{command}: the summary's column:\n{text}"
        );
    }
    // The apply run still stops after the failing canary.
    let (code, doc) = setup.json("apply", &[]).await;
    assert_eq!(code, 1, "{doc:#}");
    assert_eq!(doc["stages"][1]["ran"], false, "{doc:#}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_schema_points_at_the_fleet_files_schemas() {
    let schemas = Schemas::create(1).await;
    let real = schemas.name(1);
    let missing = format!("{}nosuch", schemas.prefix);
    let yaml = format!(
        "servers:\n  - url: {}\n    name: s3306\n    schemas: [{real}, {missing}]\n",
        cli_support::fleet::server(3306)
    );
    let setup = Setup::new(&yaml);
    let (_, doc) = setup.json("verify", &[]).await;
    let target = doc["targets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["schema"] == missing.as_str())
        .unwrap_or_else(|| panic!("{doc:#}"))
        .clone();
    let error = target["error"].as_str().unwrap_or_default().to_string();
    assert!(
        error.contains(&format!("schema `{missing}` does not exist"))
            && error.contains("fix `schemas:` of server `s3306`")
            && !error.contains("URL"),
        "{error}"
    );
}
