//! `catalog verify --fleet` reads the schemas of one server together: the
//! statements each server receives stay the same as its tenants grow (10
//! and 40 schemas of the shipped catalog on each of MariaDB 3306 and MySQL
//! 3307, counted by a relay in front of each server), and each target's
//! report is the one `catalog verify` of that schema alone gives, drift
//! included.

use crate::cli_support;

use crate::common::relay;

use cli_support::fleet::{server, Schemas, SERVERS};
use serde_json::Value;

/// The shipped catalog.
fn catalog_dir() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/../catalog").to_string()
}

/// A fleet file of `servers` (url, name) each with `schemas` listed,
/// `per_server` targets at once on each.
fn fleet_yaml(servers: &[(String, String)], schemas: &[String], per_server: usize) -> String {
    let mut text = String::from("servers:\n");
    for (url, name) in servers {
        text.push_str(&format!("  - url: {url}\n    name: {name}\n    schemas:\n"));
        for s in schemas {
            text.push_str(&format!("      - {s}\n"));
        }
    }
    text + &format!("parallel: {{servers: 2, per_server: {per_server}}}\n")
}

/// Runs the binary with `args`.
async fn run(args: &[&str]) -> std::process::Output {
    cli_support::run(args.iter().map(|s| s.to_string()).collect()).await
}

/// Runs `command --fleet` with the shipped catalog on the fleet `yaml`:
/// (exit code, the JSON report).
async fn fleet(command: &str, yaml: &str) -> (i32, Value) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("fleet.yaml");
    std::fs::write(&file, yaml).unwrap();
    let file = file.display().to_string();
    let out = run(&[
        command,
        "--catalog",
        &catalog_dir(),
        "--fleet",
        &file,
        "--format",
        "json",
        "--timeout",
        "60",
    ])
    .await;
    (out.status.code().unwrap_or(-1), cli_support::json(&out))
}

/// `catalog verify --format json` of one schema: its problems.
async fn verify_alone(port: u16, schema: &str) -> Value {
    let url = format!("{}/{schema}", server(port));
    let out = run(&[
        "--catalog",
        &catalog_dir(),
        "--database-url",
        &url,
        "--format",
        "json",
        "verify",
    ])
    .await;
    cli_support::json(&out)["problems"].clone()
}

/// `command --fleet` over `schemas` through a relay in front of each
/// server: (exit code, report, each server's connections).
async fn through_relays(
    command: &str,
    schemas: &[String],
) -> (i32, Value, Vec<Vec<std::sync::Arc<relay::Turns>>>) {
    let mut relays = Vec::new();
    for port in SERVERS {
        relays.push(relay::Proxy::start(format!("127.0.0.1:{port}")).await);
    }
    let servers: Vec<(String, String)> = relays
        .iter()
        .zip(SERVERS)
        .map(|(r, port)| {
            (
                format!("mysql://root@127.0.0.1:{}", r.port),
                format!("s{port}"),
            )
        })
        .collect();
    let (code, doc) = fleet(command, &fleet_yaml(&servers, schemas, 1)).await;
    let mut connections = Vec::new();
    for r in relays {
        connections.push(r.finish().await);
    }
    (code, doc, connections)
}

/// The commands of each server's connections that start with `prefix`.
fn commands(connections: &[Vec<std::sync::Arc<relay::Turns>>], prefix: &str) -> Vec<usize> {
    connections
        .iter()
        .map(|server| {
            server
                .iter()
                .flat_map(|c| c.commands())
                .filter(|c| c.starts_with(prefix))
                .count()
        })
        .collect()
}

/// A fleet read's connections: the schema list and one session per server,
/// not one per target, and the net's one text query per schema (`n` per
/// server).
fn assert_reads_per_server(connections: &[Vec<std::sync::Arc<relay::Turns>>], n: usize) {
    let sessions: Vec<usize> = connections.iter().map(Vec::len).collect();
    assert!(
        sessions.iter().all(|c| *c <= 2),
        "the schema list and one session per server, not one per target: {sessions:?}"
    );
    assert_eq!(
        commands(connections, "query: SHOW CREATE TABLE"),
        [n, n],
        "the net: one text query per schema"
    );
}

/// The prepared executions each server received, through its relay.
async fn verify_through_relays(schemas: &[String]) -> (i32, Value, Vec<usize>) {
    let (code, doc, connections) = through_relays("verify", schemas).await;
    (code, doc, commands(&connections, "execute"))
}

/// `n` schemas on each server holding the shipped catalog (applied by
/// `apply --fleet` straight to the servers).
async fn converged(n: usize) -> (Schemas, Vec<String>) {
    let schemas = Schemas::create(n).await;
    let names = schemas.names();
    let direct: Vec<(String, String)> = SERVERS
        .iter()
        .map(|p| (server(*p), format!("s{p}")))
        .collect();
    let (code, doc) = fleet("apply", &fleet_yaml(&direct, &names, 4)).await;
    assert_eq!(code, 0, "{doc:#}");
    (schemas, names)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn statements_per_server_stay_constant_as_tenants_grow_and_reports_match_verify() {
    let (schemas, names) = converged(40).await;
    // Drift in the 7th schema on each server: the shipped _System_WorkItem dropped.
    let drifted = schemas.name(7);
    for port in SERVERS {
        schemas
            .exec(port, &drifted, "DROP TABLE IF EXISTS _System_WorkItem")
            .await;
    }
    let (code10, doc10, ten) = verify_through_relays(&names[..10]).await;
    let (code40, doc40, forty) = verify_through_relays(&names).await;
    eprintln!("prepared executions per server: 10 schemas {ten:?}, 40 schemas {forty:?}");
    assert_eq!((code10, code40), (1, 1), "{doc40:#}");
    assert_eq!(ten, forty, "statements per server grew with the tenants");
    assert!(
        forty.iter().all(|n| *n <= 4),
        "the schema list, the size read, one inspection statement: {forty:?}"
    );
    for (doc, n) in [(&doc10, 10), (&doc40, 40)] {
        let targets = doc["targets"].as_array().unwrap();
        assert_eq!(targets.len(), 2 * n);
        for t in targets {
            let schema = t["schema"].as_str().unwrap();
            let want = if schema == drifted {
                "refused"
            } else {
                "already_converged"
            };
            assert_eq!(t["outcome"], want, "{t}");
        }
    }
    // The drifted targets' drift is what `catalog verify` of each reports.
    for port in SERVERS {
        let alone = verify_alone(port, &drifted).await;
        assert!(!alone.as_array().unwrap().is_empty(), "{alone}");
        let t = doc40["targets"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["schema"] == drifted.as_str() && t["identity"]["port"] == port)
            .unwrap();
        assert_eq!(t["drift"], alone, "{port}");
    }
}

/// A no-op `apply --fleet` costs each converged target its share of one
/// read: apply's preflight read (the inspection and the net) of a chunk of
/// schemas on one session, no advisory lock, no DDL, no connection per
/// target. The inspection statements stay the same as tenants grow; the
/// net is one text query (8 `SHOW CREATE TABLE`) per schema.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_no_op_apply_costs_one_inspection_per_converged_target_and_no_lock() {
    let (_schemas, names) = converged(40).await;
    let mut seen = Vec::new();
    for n in [10, 40] {
        let (code, doc, connections) = through_relays("apply", &names[..n]).await;
        assert_eq!(code, 0, "{doc:#}");
        let targets = doc["targets"].as_array().unwrap();
        assert_eq!(targets.len(), 2 * n);
        for t in targets {
            assert_eq!(t["outcome"], "already_converged", "{t}");
            assert_eq!(t["verified"], true, "{t}");
            assert_eq!(t["server_ddl_count"], 0, "{t}");
        }
        let all: Vec<String> = connections
            .iter()
            .flatten()
            .flat_map(|c| c.commands())
            .collect();
        assert!(
            !all.iter().any(|c| {
                let ddl = ["query: ", "prepare: "].iter().any(|kind| {
                    ["CREATE", "ALTER", "DROP"]
                        .iter()
                        .any(|verb| c.starts_with(&format!("{kind}{verb}")))
                });
                ddl || c.contains("GET_LOCK")
            }),
            "no lock, no DDL: {all:?}"
        );
        assert_reads_per_server(&connections, n);
        seen.push(commands(&connections, "execute"));
    }
    eprintln!(
        "prepared executions per server: 10 schemas {:?}, 40 schemas {:?}",
        seen[0], seen[1]
    );
    assert_eq!(
        seen[0], seen[1],
        "inspection statements grew with the tenants"
    );
}

/// `plan --fleet` reads a chunk of schemas together as verify does
/// (`catalog plan`'s read: the inspection and the net, then the plan): the
/// prepared executions per server stay the same for 10 and 40 tenants, on
/// one session per server beside the schema list, and each target's plan
/// is the one `catalog plan` of that schema alone gives.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plan_reads_each_servers_schemas_together() {
    let (schemas, names) = converged(40).await;
    // One schema per server lacks a table: a step to plan there.
    let behind = schemas.name(5);
    for port in SERVERS {
        schemas
            .exec(port, &behind, "DROP TABLE IF EXISTS _System_WorkItem")
            .await;
    }
    let mut seen = Vec::new();
    let mut docs = Vec::new();
    for n in [10, 40] {
        let (code, doc, connections) = through_relays("plan", &names[..n]).await;
        assert_eq!(code, 0, "{doc:#}");
        let targets = doc["targets"].as_array().unwrap();
        assert_eq!(targets.len(), 2 * n);
        for t in targets {
            let want = if t["schema"] == behind.as_str() {
                "planned"
            } else {
                "already_converged"
            };
            assert_eq!(t["outcome"], want, "{t}");
        }
        assert_reads_per_server(&connections, n);
        seen.push(commands(&connections, "execute"));
        docs.push(doc);
    }
    eprintln!(
        "plan --fleet, prepared executions per server: 10 schemas {:?}, 40 schemas {:?}",
        seen[0], seen[1]
    );
    assert_eq!(seen[0], seen[1], "plan's statements grew with the tenants");
    // The planned target's steps are those `catalog plan` of it alone gives.
    for port in SERVERS {
        let url = format!("{}/{behind}", server(port));
        let out = run(&[
            "--catalog",
            &catalog_dir(),
            "--database-url",
            &url,
            "--format",
            "json",
            "plan",
        ])
        .await;
        let alone = cli_support::json(&out);
        let t = docs[1]["targets"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["schema"] == behind.as_str() && t["identity"]["port"] == port)
            .unwrap();
        let sqls = |steps: &Value| -> Vec<Value> {
            steps
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["sql"].clone())
                .collect()
        };
        assert!(!sqls(&t["steps"]).is_empty(), "{t}");
        assert_eq!(
            sqls(&t["steps"]),
            sqls(&alone["steps"]),
            "{port}: {alone:#}"
        );
    }
}
