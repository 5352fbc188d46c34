//! `apply --stats FILE` on the server under test: the file's calibration
//! (rate and fixed overhead) drives apply's estimates (a budget, the
//! duplicate probe's scaled limit) instead of the flavor's default; an
//! explicit `--probe-timeout` is used as given.

use crate::cli_support;
use crate::common::TestDb;

use std::process::Output;

use cli_support::catalog;

fn run(args: &[&str]) -> Output {
    catalog().args(args).output().expect("binary runs")
}

const TABLE: &str = "table: orders\ncolumns:\n  - { name: Id, type: bigint unsigned, nullable: false, auto_increment: true }\n  \
                     - { name: CustomerRef, type: varchar(64), nullable: false }\nprimary_key: [Id]\n\
                     indexes:\n  - { name: uq_orders_customer, columns: [CustomerRef], unique: true }\n";

/// Runs apply (JSON, dry run) with `extra`; its exit code and document.
fn apply(dir: &std::path::Path, url: &str, extra: &[&str]) -> (Option<i32>, serde_json::Value) {
    let mut args = vec![
        "apply",
        "--catalog",
        dir.to_str().unwrap(),
        "--database-url",
        url,
        "--dry-run",
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    let out = run(&args);
    let doc = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code(), doc)
}

#[tokio::test]
async fn apply_estimates_with_the_stats_files_calibration() {
    let db = TestDb::new().await;
    db.exec(&[
        "CREATE TABLE orders (Id bigint unsigned NOT NULL AUTO_INCREMENT, \
         CustomerRef varchar(64) NOT NULL, PRIMARY KEY (Id)) \
         ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
        "INSERT INTO orders (CustomerRef) VALUES ('a'), ('b'), ('c')",
    ])
    .await;
    let dir = tempfile::Builder::new()
        .prefix("apply-stats")
        .tempdir()
        .unwrap();
    std::fs::write(dir.path().join("orders.yaml"), TABLE).unwrap();
    let url = db.url();
    let stats = dir.path().join("stats.json");
    let out = run(&[
        "stats",
        "--catalog",
        dir.path().to_str().unwrap(),
        "--database-url",
        &url,
        "--out",
        stats.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A calibration as `stats --calibrate` writes it, of a very slow
    // server: 900 s of fixed overhead per step.
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    doc["calibration"] = serde_json::json!({
        "rows": 1000, "data_length": 100000, "seconds": 1000.0,
        "overhead_seconds": 900.0, "mb_per_s": 0.001
    });
    std::fs::write(&stats, doc.to_string()).unwrap();
    let before = db.physical().await;

    // Without the file: the flavor's default rate, a step well under a
    // 10-minute budget, and the probe's default limit is its 30 s floor.
    let (code, doc) = apply(dir.path(), &url, &["--max-step-duration", "10m"]);
    assert_eq!(code, Some(0), "{doc}");
    let probe = &doc["duplicate_probes"][0];
    assert_eq!(probe["status"], "clean", "{doc}");
    assert_eq!(probe["timeout_ms"], 30_000, "{doc}");
    assert_eq!(probe["timeout_scaled"], true, "{doc}");

    // With it: the calibration's overhead puts the step over the budget,
    // before any DDL.
    let s = stats.to_str().unwrap();
    let (code, doc) = apply(
        dir.path(),
        &url,
        &["--stats", s, "--max-step-duration", "10m"],
    );
    assert_eq!(code, Some(4), "{doc}");
    assert_eq!(doc["stopped"]["kind"], "over_budget", "{doc}");
    let over = &doc["stopped"]["steps"][0];
    assert_eq!(over["step"], "orders.uq_orders_customer", "{doc}");
    assert!(over["estimate_ms"].as_u64().unwrap() >= 900_000, "{doc}");
    assert_eq!(doc["server_ddl_count"], 0, "{doc}");

    // No budget: the probe's scaled limit follows the calibrated estimate
    // (twice the scan, which includes the 900 s overhead).
    let (code, doc) = apply(dir.path(), &url, &["--stats", s]);
    assert_eq!(code, Some(0), "{doc}");
    let probe = &doc["duplicate_probes"][0];
    assert!(probe["timeout_ms"].as_u64().unwrap() >= 1_800_000, "{doc}");
    assert_eq!(probe["timeout_scaled"], true, "{doc}");

    // An explicit --probe-timeout is used as given, and said so.
    let (code, doc) = apply(dir.path(), &url, &["--stats", s, "--probe-timeout", "5"]);
    assert_eq!(code, Some(0), "{doc}");
    let probe = &doc["duplicate_probes"][0];
    assert_eq!(probe["timeout_ms"], 5_000, "{doc}");
    assert_eq!(probe["timeout_scaled"], false, "{doc}");

    // Human: the limit used is said.
    let out = run(&[
        "apply",
        "--catalog",
        dir.path().to_str().unwrap(),
        "--database-url",
        &url,
        "--dry-run",
    ]);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("limit 30 s (default: the larger of 30 s and 2 x the table's"),
        "{text}"
    );
    assert_eq!(db.physical().await, before);
}
