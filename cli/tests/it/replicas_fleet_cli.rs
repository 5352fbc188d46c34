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
