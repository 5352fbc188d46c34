//! `catalog verify --format json` carries `auto-increment-capacity` (a
//! finding of the live AUTO_INCREMENT, never `check`'s): the `capacity`
//! list, exit 0 for a warning and 1 when the catalog sets it to error.
//! Verify has no SARIF output (docs/lint.md). Live, once per server.

use crate::cli_support::catalog;
use crate::common::TestDb;

#[tokio::test]
async fn verify_json_carries_auto_increment_capacity() {
    let db = TestDb::new().await;
    let dir = crate::cli_support::tickets_near_their_range(&db, "verify-capacity").await;
    let url = db.url();
    let verify = |format: &str| {
        catalog()
            .args(["verify", "--catalog"])
            .arg(dir.path())
            .args(["--database-url", &url, "--format", format])
            .output()
            .expect("binary runs")
    };
    let out = verify("json");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["ok"], true, "{doc}");
    let capacity = doc["capacity"].as_array().expect("a capacity list");
    assert_eq!(capacity.len(), 1, "{doc}");
    let c = &capacity[0];
    assert_eq!(c["rule"], "auto-increment-capacity", "{doc}");
    assert_eq!(c["severity"], "warning", "{doc}");
    assert_eq!(c["table"], "tickets", "{doc}");
    assert_eq!(c["column"], "Id", "{doc}");
    assert_eq!(c["usage"]["next"], 4_000_000_000u64, "{doc}");
    assert_eq!(c["usage"]["max"], 4_294_967_295u64, "{doc}");
    assert_eq!(c["max_share"], 80, "{doc}");
    // Human: the warning line.
    let human = verify("human");
    assert_eq!(human.status.code(), Some(0), "{human:?}");
    let text = String::from_utf8_lossy(&human.stdout);
    assert!(
        text.contains("warning[auto-increment-capacity]: table `tickets`, column `Id`"),
        "{text}"
    );
    // Set to error: the gate fails (exit 1), the finding an error.
    std::fs::write(
        dir.path().join("catalog.yaml"),
        "lint:\n  rules: { auto-increment-capacity: error }\n",
    )
    .unwrap();
    let out = verify("json");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["ok"], false, "{doc}");
    assert_eq!(doc["capacity"][0]["severity"], "error", "{doc}");
    // --format sarif is not verify's: a usage error (exit 2).
    assert_eq!(verify("sarif").status.code(), Some(2));
}
