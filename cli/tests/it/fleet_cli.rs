//! `catalog plan|apply|verify --fleet` on real servers: every fleet here
//! spans MariaDB (3306) and MySQL (3307) at once, whatever
//! CATALOG_TEST_DATABASE_URL says (schema names are unique per run, so the
//! suite run once per server never collides).
//!
//! - 200 schemas (100 per server) converge in one run, the JSON validates,
//!   verify --fleet and a rerun find every target converged with no DDL;
//! - a canary stage refusing for drift stops everything after it, no DDL elsewhere;
//! - `on_error: continue` converges every other target; `stop` starts no new one;
//! - a busy target is deferred while the others converge;
//! - kill -9 halfway, then a rerun converges every target, rows unchanged;
//! - SIGTERM leaves no running ALTER on either server;
//! - a wrong password from the environment is reported without the password.

use crate::cli_support;

use std::io::{BufRead, BufReader};
use std::process::Child;
use std::time::{Duration, Instant};

use cli_support::fleet::{
    conn, count, hold_jobs, outcome_of, validator, Schemas, Setup, DRIFTED, LEGACY, SERVERS,
};
use mysql_async::prelude::*;
use serde_json::Value;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_schemas_on_both_servers_converge_then_verify_and_rerun_idle() {
    let schemas = Schemas::create(100).await;
    let setup = Setup::new(&schemas.fleet_yaml("parallel: {servers: 2, per_server: 4}\n"));
    let (code, doc) = setup.json("apply", &[]).await;
    assert_eq!(code, 0, "{doc:#}");
    assert_eq!(doc["summary"]["targets"], 200, "{}", doc["summary"]);
    assert_eq!(count(&doc, "converged"), 200, "{}", doc["summary"]);
    let ports: std::collections::BTreeSet<u64> = doc["targets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["identity"]["port"].as_u64().unwrap())
        .collect();
    assert_eq!(
        ports,
        [3306, 3307].into(),
        "both servers, by their own identity"
    );
    for t in doc["targets"].as_array().unwrap() {
        assert_eq!(t["verified"], true, "{t}");
        assert_eq!(t["steps"][0]["status"], "applied", "{t}");
        assert!(
            t["name"].as_str().unwrap().starts_with("127.0.0.1:330"),
            "{t}"
        );
    }
    for port in SERVERS {
        let counts = schemas.table_counts(port).await;
        assert_eq!(counts.len(), 100, "{port}");
        assert!(counts.iter().all(|(_, n)| *n == 1), "{port}: {counts:?}");
    }
    // verify --fleet: every target satisfied.
    let (code, doc) = setup.json("verify", &[]).await;
    assert_eq!(code, 0, "{doc:#}");
    assert_eq!(count(&doc, "already_converged"), 200, "{}", doc["summary"]);
    // A rerun resumes: nothing to do anywhere, no DDL.
    let (code, doc) = setup.json("apply", &[]).await;
    assert_eq!(code, 0, "{doc:#}");
    assert_eq!(count(&doc, "already_converged"), 200, "{}", doc["summary"]);
    for t in doc["targets"].as_array().unwrap() {
        assert_eq!(t["server_ddl_count"], 0, "{t}");
        assert!(t["steps"].as_array().unwrap().is_empty(), "{t}");
    }
    // jsonl: one document per target, then the summary.
    let out = cli_support::run(setup.args("plan", "jsonl")).await;
    assert_eq!(out.status.code(), Some(0));
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is one JSON document"))
        .collect();
    assert_eq!(lines.len(), 201);
    assert!(lines[..200]
        .iter()
        .all(|l| l["outcome"] == "already_converged"));
    assert_eq!(lines[200]["summary"]["already_converged"], 200);
    // markdown: the summary table and a row per target.
    let out = cli_support::run(setup.args("verify", "markdown")).await;
    let md = String::from_utf8_lossy(&out.stdout);
    assert!(md.starts_with("## Fleet verify of"), "{md}");
    // A read-only run's wording: the single target's `satisfied`.
    assert_eq!(md.matches("| satisfied | 0 |").count(), 200, "{md}");
    assert!(!md.contains("already_converged"), "{md}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_canary_refusing_for_drift_stops_everything_after_it_with_no_ddl_elsewhere() {
    let schemas = Schemas::create(5).await;
    let canary = schemas.name(1);
    schemas.exec(3306, &canary, DRIFTED).await;
    let setup = Setup::new(&schemas.fleet_yaml(&format!(
        "stages:\n  - name: canary\n    match: {{server: s3306, schema: '{canary}'}}\n  - name: rest\n\
         parallel: {{servers: 2, per_server: 2}}\non_error: continue\n"
    )));
    let (code, doc) = setup.json("apply", &[]).await;
    assert_eq!(code, 1, "{doc:#}");
    assert_eq!(outcome_of(&doc, 3306, &canary), "refused");
    let canary_report = &doc["targets"][0];
    assert_eq!(canary_report["stage"], "canary");
    assert!(
        canary_report["drift"][0]["table"] == "Jobs",
        "{canary_report}"
    );
    assert_eq!(canary_report["server_ddl_count"], 0, "{canary_report}");
    assert_eq!(count(&doc, "not_started"), 9, "{}", doc["summary"]);
    assert_eq!(doc["stages"][1]["ran"], false);
    for port in SERVERS {
        for (schema, n) in schemas.table_counts(port).await {
            let want = u64::from(port == 3306 && schema == canary);
            assert_eq!(n, want, "{port}/{schema}: no DDL outside the canary");
        }
    }
    // The human summary names the refusal and the drift.
    let out = cli_support::run(setup.args("apply", "human")).await;
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("refused") && text.contains(&canary), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn continue_converges_every_other_target_and_stop_starts_no_new_one() {
    let schemas = Schemas::create(4).await;
    let bad = schemas.name(1);
    schemas.exec(3307, &bad, DRIFTED).await;
    // stop, one at a time: the drifted target is the first on its lane, so
    // its lane starts nothing after it; the other lane stops too once it hears.
    let stop = Setup::new(&schemas.fleet_yaml("parallel: {servers: 1, per_server: 1}\n"));
    let (code, doc) = stop.json("apply", &[]).await;
    assert_eq!(code, 1, "{doc:#}");
    assert_eq!(outcome_of(&doc, 3307, &bad), "refused");
    // Server 3306 ran first (file order): its 4 converged; 3307 stopped at its first.
    assert_eq!(count(&doc, "converged"), 4, "{}", doc["summary"]);
    assert_eq!(count(&doc, "not_started"), 3, "{}", doc["summary"]);
    for (schema, n) in schemas.table_counts(3307).await {
        assert_eq!(
            n,
            u64::from(schema == bad),
            "3307/{schema}: only the drifted one has a table"
        );
    }
    let cont = Setup::new(
        &schemas.fleet_yaml("parallel: {servers: 2, per_server: 2}\non_error: continue\n"),
    );
    let (code, doc) = cont.json("apply", &[]).await;
    assert_eq!(code, 1, "{doc:#}");
    assert_eq!(outcome_of(&doc, 3307, &bad), "refused");
    assert_eq!(count(&doc, "converged"), 3, "{}", doc["summary"]);
    assert_eq!(count(&doc, "already_converged"), 4, "{}", doc["summary"]);
    assert_eq!(count(&doc, "not_started"), 0, "{}", doc["summary"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_busy_target_is_deferred_while_the_others_converge() {
    let schemas = Schemas::create(3).await;
    for port in SERVERS {
        for s in schemas.names() {
            schemas.exec(port, &s, LEGACY).await;
        }
    }
    let busy = schemas.name(2);
    // An open transaction that read the table holds its metadata lock.
    let holder = hold_jobs(3306, &busy).await;
    let setup = Setup::new(
        &schemas.fleet_yaml("parallel: {servers: 2, per_server: 1}\non_error: continue\n"),
    );
    let (code, doc) = setup.apply_while_held(holder).await;
    assert_eq!(code, 4, "{doc:#}");
    assert_eq!(outcome_of(&doc, 3306, &busy), "deferred", "{doc:#}");
    assert_eq!(count(&doc, "converged"), 5, "{}", doc["summary"]);
    let t = doc["targets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["outcome"] == "deferred")
        .unwrap();
    assert!(t["error"].as_str().unwrap().contains("stayed busy"), "{t}");
    // Rerun once the holder is gone: converges.
    let (code, doc) = setup.json("apply", &[]).await;
    assert_eq!(code, 0, "{doc:#}");
    assert_eq!(outcome_of(&doc, 3306, &busy), "converged");
}

/// Rows of `Jobs` in every schema on `port`: (count, checksum) per schema.
async fn checksums(schemas: &Schemas, port: u16) -> Vec<(u64, String)> {
    let mut c = conn(port, None).await;
    let mut out = Vec::new();
    for s in schemas.names() {
        let row: (u64, Option<String>) = c
            .query_first(format!(
                "SELECT COUNT(*), CAST(SUM(CRC32(CONCAT_WS('|', Id, State, Payload))) AS CHAR) \
                 FROM `{s}`.Jobs"
            ))
            .await
            .unwrap()
            .unwrap();
        out.push((row.0, row.1.unwrap_or_default()));
    }
    let _ = c.disconnect().await;
    out
}

/// Reads `child`'s stdout lines until `n` of them start with `converged`.
fn wait_converged(child: &mut Child, n: usize, within: Duration) -> Vec<String> {
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let deadline = Instant::now() + within;
    let mut lines = Vec::new();
    while lines
        .iter()
        .filter(|l: &&String| l.starts_with("converged"))
        .count()
        < n
    {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(l) => lines.push(l),
            Err(_) => panic!("{n} targets did not converge within {within:?}: {lines:?}"),
        }
    }
    lines
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_halfway_then_a_rerun_converges_every_target_with_rows_unchanged() {
    let schemas = Schemas::create(10).await;
    let rows = "INSERT INTO Jobs (State, Payload) VALUES ('new','a'),('done','b'),('new',NULL);\
                INSERT INTO Jobs (State, Payload) SELECT State, Payload FROM Jobs;\
                INSERT INTO Jobs (State, Payload) SELECT State, Payload FROM Jobs";
    for port in SERVERS {
        for s in schemas.names() {
            schemas.exec(port, &s, &format!("{LEGACY};{rows}")).await;
        }
    }
    let before = [
        checksums(&schemas, 3306).await,
        checksums(&schemas, 3307).await,
    ];
    let setup = Setup::new(&schemas.fleet_yaml("parallel: {servers: 2, per_server: 1}\n"));
    let mut child = setup.spawn("apply", "human", &[]);
    let seen = wait_converged(&mut child, 5, Duration::from_secs(120));
    child.kill().expect("SIGKILL");
    let _ = child.wait();
    assert!(seen.len() < 20, "killed before the end: {seen:?}");
    let (code, doc) = setup.json("apply", &[]).await;
    assert_eq!(code, 0, "{doc:#}");
    assert_eq!(
        count(&doc, "converged") + count(&doc, "already_converged"),
        20,
        "{}",
        doc["summary"]
    );
    assert!(count(&doc, "already_converged") >= 5, "{}", doc["summary"]);
    let (code, doc) = setup.json("verify", &[]).await;
    assert_eq!(code, 0, "{doc:#}");
    let after = [
        checksums(&schemas, 3306).await,
        checksums(&schemas, 3307).await,
    ];
    assert_eq!(before, after, "rows unchanged");
}

/// ALTER statements running in the fleet's schemas on `port`.
async fn running_alters(schemas: &Schemas, port: u16) -> u64 {
    let mut c = conn(port, None).await;
    let n: Option<u64> = c
        .exec_first(
            "SELECT COUNT(*) FROM information_schema.PROCESSLIST \
             WHERE DB LIKE ? AND INFO LIKE 'ALTER TABLE%'",
            (schemas.like(),),
        )
        .await
        .unwrap();
    let _ = c.disconnect().await;
    n.unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_leaves_no_running_alter_on_any_server() {
    let schemas = Schemas::create(1).await;
    let s = schemas.name(1);
    for port in SERVERS {
        let mut sql =
            format!("{LEGACY};INSERT INTO Jobs (State, Payload) VALUES ('new', REPEAT('x', 200))");
        for _ in 0..17 {
            sql.push_str(";INSERT INTO Jobs (State, Payload) SELECT State, Payload FROM Jobs");
        }
        schemas.exec(port, &s, &sql).await;
    }
    let setup = Setup::new(&schemas.fleet_yaml("parallel: {servers: 2, per_server: 1}\n"));
    let child = setup.spawn("apply", "json", &[]);
    // Wait for an ALTER on a server, then SIGTERM.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let running = running_alters(&schemas, 3306).await + running_alters(&schemas, 3307).await;
        if running > 0 {
            break;
        }
        assert!(Instant::now() < deadline, "no ALTER started within 60 s");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let pid = child.id().to_string();
    let status = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap();
    assert!(status.success());
    let out = tokio::task::spawn_blocking(move || child.wait_with_output().unwrap())
        .await
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(143),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc = cli_support::json(&out);
    assert!(validator().is_valid(&doc), "{doc:#}");
    assert_eq!(doc["interrupted"], true);
    assert!(count(&doc, "interrupted") >= 1, "{}", doc["summary"]);
    // The process is gone; the server ends a killed ALTER when it notices:
    // wait for that, with a deadline.
    let deadline = Instant::now() + Duration::from_secs(20);
    for port in SERVERS {
        while running_alters(&schemas, port).await > 0 {
            assert!(Instant::now() < deadline, "an ALTER still runs on {port}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_password_from_the_environment_is_reported_without_the_password() {
    let schemas = Schemas::create(1).await;
    let mut text = String::from("servers:\n");
    for port in SERVERS {
        text.push_str(&format!(
            "  - url: mysql://root@127.0.0.1:{port}\n    password_env: FLEET_TEST_PASSWORD\n    \
             schemas: ['{}']\n",
            schemas.name(1)
        ));
    }
    let setup = Setup::new(&text);
    let secret = "Wr0ng-fleet-pw-7731";
    for format in ["json", "human", "jsonl", "markdown"] {
        let out = cli_support::catalog()
            .args(setup.args("apply", format))
            .env("FLEET_TEST_PASSWORD", secret)
            .output()
            .unwrap();
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(out.status.code(), Some(3), "{format}: {all}");
        assert!(!all.contains(secret), "{format} shows the password: {all}");
        assert!(all.contains("login refused"), "{format}: {all}");
        if format == "json" {
            let doc = cli_support::json(&out);
            assert!(validator().is_valid(&doc), "{doc:#}");
            assert_eq!(doc["summary"]["servers_failed"], 2, "{doc:#}");
            assert_eq!(count(&doc, "failed"), 2, "{doc:#}");
        }
    }
    // Unset: a lint error naming the variable and its line, nothing connected.
    let out = cli_support::run(setup.args("apply", "human")).await;
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(":3:")
            && err.contains(
                ": error[fleet-server]: server `127.0.0.1:3306`: environment variable `FLEET_TEST_PASSWORD`"
            ),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_listed_schema_the_server_lacks_fails_naming_it_in_every_command() {
    let schemas = Schemas::create(1).await;
    let missing = format!("{}absent", schemas.prefix);
    let mut text = String::from("servers:\n");
    for port in SERVERS {
        text.push_str(&format!(
            "  - url: mysql://root@127.0.0.1:{port}\n    schemas: ['{}', '{missing}']\n",
            schemas.name(1)
        ));
    }
    text.push_str("on_error: continue\n");
    let setup = Setup::new(&text);
    for command in ["verify", "plan", "apply"] {
        let (code, doc) = setup.json(command, &[]).await;
        assert_eq!(code, 3, "{command}: {doc:#}");
        assert_eq!(count(&doc, "failed"), 2, "{command}: {doc:#}");
        for t in doc["targets"].as_array().unwrap() {
            if t["schema"] == missing.as_str() {
                assert!(
                    t["error"]
                        .as_str()
                        .unwrap()
                        .contains(&format!("schema `{missing}` does not exist")),
                    "{command}: {t}"
                );
            }
        }
    }
    for port in SERVERS {
        let mut c = conn(port, None).await;
        let n: Option<u64> = c
            .exec_first(
                "SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?",
                (missing.as_str(),),
            )
            .await
            .unwrap();
        assert_eq!(n, Some(0), "nothing created on {port}");
        let _ = c.disconnect().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_terminal_shows_a_lane_per_server_then_the_summary_table() {
    let schemas = Schemas::create(2).await;
    let setup = Setup::new(&schemas.fleet_yaml("parallel: {servers: 2, per_server: 1}\n"));
    let mut args = vec![env!("CARGO_BIN_EXE_catalog").to_string()];
    args.extend(setup.args("apply", "human"));
    let (code, screen) = tokio::task::spawn_blocking(move || cli_support::on_a_terminal(&args))
        .await
        .unwrap();
    assert_eq!(code, Some(0), "{screen}");
    for lane in ["s3306", "s3307"] {
        assert!(
            screen.contains(lane) && screen.contains("2/2"),
            "{lane}: {screen}"
        );
    }
    assert!(screen.contains("fleet apply of"), "{screen}");
    let total = screen
        .lines()
        .find(|l| l.starts_with("total"))
        .unwrap_or_else(|| panic!("a total row: {screen}"));
    let counts: Vec<&str> = total.split_whitespace().collect();
    assert_eq!(&counts[1..3], ["4", "4"], "4 targets, 4 converged: {total}");
}
