//! `replicas:` under a server in fleet.yaml and `replicas: required` in
//! catalog.yaml, through the binary on a real pair
//! (`CATALOG_TEST_REPLICA_PAIR`; one replica test at a time, the lock of
//! `replicas_cli`).

use crate::cli_support;
use crate::replicas_cli::{text, Setup, SERIAL};

use cli_support::{json, run};

/// A fleet file naming the pair's primary with `schema`, and `replicas`.
fn fleet_file(dir: &tempfile::TempDir, primary: &str, schema: &str, replicas: &[&str]) -> String {
    let mut text = format!("servers:\n  - url: {primary}\n    schemas: [{schema}]\n");
    if !replicas.is_empty() {
        text.push_str("    replicas:\n");
        for r in replicas {
            text.push_str(&format!("      - {r}\n"));
        }
    }
    let path = dir.path().join("fleet.yaml");
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

async fn fleet(s: &Setup, file: &str, args: &[&str]) -> std::process::Output {
    let mut list = vec![
        "apply".to_string(),
        "--catalog".to_string(),
        s.catalog.path().display().to_string(),
        "--fleet".to_string(),
        file.to_string(),
    ];
    list.extend(args.iter().map(|a| a.to_string()));
    run(list).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fleet_servers_replicas_are_guarded_and_reported_per_target() {
    let _serial = SERIAL.lock().await;
    let s = Setup::new("fleet").await;
    let dir = tempfile::tempdir().unwrap();
    let file = fleet_file(&dir, &s.primary, &s.name, &[&s.replica]);
    let out = fleet(&s, &file, &["--format", "json"]).await;
    let doc = json(&out);
    assert_eq!(out.status.code(), Some(0), "{doc:#}");
    let target = &doc["targets"][0];
    assert_eq!(target["outcome"], "converged", "{doc:#}");
    assert_eq!(
        target["replicas"][0]["replica"],
        s.replica_host_port(),
        "{doc:#}"
    );
    assert_eq!(
        target["steps"][0]["replicas"][0]["read_back"], "exact",
        "{doc:#}"
    );
    assert_eq!(
        doc["servers"][0]["replicas"][0],
        s.replica_host_port(),
        "{doc:#}"
    );
    // Right after: verify on the replica passes.
    let out = s.cli(&s.replica, &["verify"]).await;
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    // Human: the rerun (nothing to do on the primary) still reads the
    // replica back, and the line names it.
    let out = fleet(&s, &file, &[]).await;
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(
        text(&out).contains(&format!("replicas {}", s.replica_host_port())),
        "{}",
        text(&out)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn catalog_yaml_replicas_required_refuses_an_unnamed_replica_with_and_without_fleet() {
    let _serial = SERIAL.lock().await;
    let s = Setup::new("required").await;
    std::fs::write(
        s.catalog.path().join("catalog.yaml"),
        "replicas: required\n",
    )
    .unwrap();
    let port = s
        .replica_host_port()
        .rsplit(':')
        .next()
        .unwrap()
        .to_string();
    // Without the fleet: exit 2 before any DDL, as --require-replicas.
    let out = s.cli(&s.primary, &["apply", "--format", "json"]).await;
    let doc = json(&out);
    assert_eq!(out.status.code(), Some(2), "{doc:#}");
    assert_eq!(doc["stopped"]["kind"], "replica_refused", "{doc:#}");
    assert_eq!(doc["server_ddl_count"], 0, "{doc:#}");
    let out = s.cli(&s.primary, &["plan"]).await;
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    // A fleet whose server names no replica: the target is refused,
    // naming the unguarded one.
    let dir = tempfile::tempdir().unwrap();
    let file = fleet_file(&dir, &s.primary, &s.name, &[]);
    let out = fleet(&s, &file, &["--format", "json"]).await;
    let doc = json(&out);
    assert_ne!(out.status.code(), Some(0), "{doc:#}");
    let target = &doc["targets"][0];
    assert_eq!(target["outcome"], "refused", "{doc:#}");
    let error = target["error"].as_str().unwrap_or_default();
    assert!(error.contains("connected and not guarded"), "{doc:#}");
    assert!(error.contains(&port), "{doc:#}");
    assert_eq!(target["server_ddl_count"], 0, "{doc:#}");
    // Named under the server: guarded, and the run converges.
    let file = fleet_file(&dir, &s.primary, &s.name, &[&s.replica]);
    let out = fleet(&s, &file, &["--format", "json"]).await;
    let doc = json(&out);
    assert_eq!(out.status.code(), Some(0), "{doc:#}");
    assert_eq!(doc["targets"][0]["unguarded"], serde_json::json!([]));
}

/// `plan|verify --fleet FILE` (no `--catalog` ordering constraint: the
/// same arguments as [`fleet`], another command).
async fn fleet_cmd(s: &Setup, command: &str, file: &str, args: &[&str]) -> std::process::Output {
    let mut list = vec![
        command.to_string(),
        "--catalog".to_string(),
        s.catalog.path().display().to_string(),
        "--fleet".to_string(),
        file.to_string(),
    ];
    list.extend(args.iter().map(|a| a.to_string()));
    run(list).await
}

/// Runs `sql` on `url` with the session's binary log off (`sql_log_bin =
/// 0`, a session variable): the change stays on that server, no GTID.
async fn unlogged(url: &str, sql: &str) {
    use mysql_async::prelude::*;
    let mut c = mysql_async::Conn::from_url(url).await.unwrap();
    c.query_drop("SET SESSION sql_log_bin = 0").await.unwrap();
    c.query_drop(sql).await.unwrap();
    c.disconnect().await.ok();
}

/// Waits (deadline 30 s) until the replica has the `Jobs` table of `s`.
async fn replicated(s: &Setup) {
    use mysql_async::prelude::*;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let mut c = mysql_async::Conn::from_url(s.replica.as_str())
        .await
        .unwrap();
    loop {
        let n: Option<u64> = c
            .exec_first(
                "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = 'Jobs'",
                (s.name.as_str(),),
            )
            .await
            .unwrap();
        if n == Some(1) {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the replica did not get `{}`.`Jobs` within 30 s",
            s.name
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    c.disconnect().await.ok();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plan_and_verify_fleet_survey_and_verify_a_servers_replicas() {
    let _serial = SERIAL.lock().await;
    let s = Setup::new("fpv").await;
    replicated(&s).await;
    let dir = tempfile::tempdir().unwrap();
    let file = fleet_file(&dir, &s.primary, &s.name, &[&s.replica]);
    let host_port = s.replica_host_port();
    // plan: the replica surveyed (guarded, its identity), per target.
    let out = fleet_cmd(&s, "plan", &file, &["--format", "json"]).await;
    let doc = json(&out);
    assert_eq!(out.status.code(), Some(0), "{doc:#}");
    let target = &doc["targets"][0];
    assert_eq!(target["outcome"], "planned", "{doc:#}");
    assert_eq!(target["replicas"][0]["replica"], host_port, "{doc:#}");
    assert!(
        target["replicas"][0]["server"]["version"].is_string(),
        "{doc:#}"
    );
    assert_eq!(target["unguarded"], serde_json::json!([]), "{doc:#}");
    assert_eq!(
        target["replicas_not_ready"],
        serde_json::json!([]),
        "{doc:#}"
    );
    let out = fleet_cmd(&s, "plan", &file, &[]).await;
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(
        text(&out).contains(&format!("replicas {host_port}")),
        "{}",
        text(&out)
    );
    // The index on the primary only (not binlogged): the server satisfies
    // the catalog, its replica does not.
    unlogged(
        &format!("{}/{}", s.primary, s.name),
        "CREATE INDEX `idx_jobs_state_created` ON `Jobs` (`State`, `CreatedAt`, `Id`)",
    )
    .await;
    let out = fleet_cmd(&s, "verify", &file, &["--format", "json"]).await;
    let doc = json(&out);
    assert_eq!(out.status.code(), Some(1), "{doc:#}");
    let target = &doc["targets"][0];
    assert_eq!(target["outcome"], "refused", "{doc:#}");
    assert_eq!(target["drift"], serde_json::json!([]), "{doc:#}");
    assert_eq!(target["replica_verify"][0]["replica"], host_port, "{doc:#}");
    assert_eq!(target["replica_verify"][0]["ok"], false, "{doc:#}");
    let problems = target["replica_verify"][0]["problems"].to_string();
    assert!(problems.contains("idx_jobs_state_created"), "{doc:#}");
    let error = target["error"].as_str().unwrap_or_default();
    assert!(error.contains(&host_port), "{doc:#}");
    let out = fleet_cmd(&s, "verify", &file, &[]).await;
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains(&format!("replicas {host_port} problem")),
        "{}",
        text(&out)
    );
    // Without `replicas:` the same fleet verifies the server only.
    let bare = tempfile::tempdir().unwrap();
    let bare = fleet_file(&bare, &s.primary, &s.name, &[]);
    let out = fleet_cmd(&s, "verify", &bare, &[]).await;
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    // The index on the replica too (not binlogged): satisfied on both.
    unlogged(
        &format!("{}/{}", s.replica, s.name),
        "CREATE INDEX `idx_jobs_state_created` ON `Jobs` (`State`, `CreatedAt`, `Id`)",
    )
    .await;
    let out = fleet_cmd(&s, "verify", &file, &["--format", "json"]).await;
    let doc = json(&out);
    assert_eq!(out.status.code(), Some(0), "{doc:#}");
    assert_eq!(doc["targets"][0]["outcome"], "already_converged", "{doc:#}");
    assert_eq!(
        doc["targets"][0]["replica_verify"][0]["ok"], true,
        "{doc:#}"
    );
    // plan: nothing to do on the server; the replica is still surveyed.
    let out = fleet_cmd(&s, "plan", &file, &["--format", "json"]).await;
    let doc = json(&out);
    assert_eq!(out.status.code(), Some(0), "{doc:#}");
    assert_eq!(doc["targets"][0]["outcome"], "already_converged", "{doc:#}");
    assert_eq!(
        doc["targets"][0]["replicas"][0]["replica"], host_port,
        "{doc:#}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plan_fleet_refuses_a_replica_apply_would_refuse_and_verify_fleet_names_an_unreachable_one()
{
    let _serial = SERIAL.lock().await;
    let s = Setup::new("fpr").await;
    replicated(&s).await;
    // Not a replica at all: the test server of this run (3306 or 3307).
    let other = crate::common::server_url();
    let other_host = other
        .trim_start_matches("mysql://")
        .rsplit('@')
        .next()
        .unwrap()
        .trim_end_matches('/')
        .to_string();
    let dir = tempfile::tempdir().unwrap();
    let file = fleet_file(&dir, &s.primary, &s.name, &[&other]);
    let out = fleet_cmd(&s, "plan", &file, &["--format", "json"]).await;
    let doc = json(&out);
    assert_eq!(out.status.code(), Some(1), "{doc:#}");
    let target = &doc["targets"][0];
    assert_eq!(target["outcome"], "refused", "{doc:#}");
    let error = target["error"].as_str().unwrap_or_default();
    assert!(error.contains(&other_host), "{doc:#}");
    let out = fleet_cmd(&s, "plan", &file, &[]).await;
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains(&other_host), "{}", text(&out));
    // A replica that does not answer: verify fails the target, naming it.
    let file = fleet_file(&dir, &s.primary, &s.name, &["mysql://root@127.0.0.1:1"]);
    let out = fleet_cmd(&s, "verify", &file, &["--format", "json", "--timeout", "3"]).await;
    let doc = json(&out);
    assert_eq!(out.status.code(), Some(3), "{doc:#}");
    assert_eq!(doc["targets"][0]["outcome"], "failed", "{doc:#}");
    let error = doc["targets"][0]["error"].as_str().unwrap_or_default();
    assert!(error.contains("127.0.0.1:1"), "{doc:#}");
    // `replicas: required` and no replica named: plan refuses the target,
    // naming the unguarded one.
    std::fs::write(
        s.catalog.path().join("catalog.yaml"),
        "replicas: required\n",
    )
    .unwrap();
    let file = fleet_file(&dir, &s.primary, &s.name, &[]);
    let out = fleet_cmd(&s, "plan", &file, &["--format", "json"]).await;
    let doc = json(&out);
    assert_eq!(out.status.code(), Some(1), "{doc:#}");
    let target = &doc["targets"][0];
    assert_eq!(target["outcome"], "refused", "{doc:#}");
    assert!(
        target["error"]
            .as_str()
            .unwrap_or_default()
            .contains("connected and not guarded"),
        "{doc:#}"
    );
}
