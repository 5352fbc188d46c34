//! Cost end to end on the server under test: `catalog stats --out` writes
//! a document `plan --against --stats` and `diff --stats` read; `apply
//! --max-step-duration` exits 4 before any DDL naming the step; a bad
//! duration is a usage error.

use crate::cli_support;
use crate::common::TestDb;

use std::process::Output;

use cli_support::catalog;

fn run(args: &[&str]) -> Output {
    catalog().args(args).output().expect("binary runs")
}

const OLD: &str = "table: orders\ncolumns:\n  - { name: Id, type: bigint unsigned, nullable: false, auto_increment: true }\n  \
                   - { name: CustomerRef, type: varchar(64), nullable: false }\nprimary_key: [Id]\n";
const NEW_INDEX: &str = "indexes:\n  - { name: idx_orders_customer, columns: [CustomerRef] }\n";

/// A catalog directory (OLD, or NEW with the index) in a temp dir.
fn catalog_dir(name: &str, with_index: bool) -> tempfile::TempDir {
    let dir = tempfile::Builder::new().prefix(name).tempdir().unwrap();
    let text = if with_index {
        format!("{OLD}{NEW_INDEX}")
    } else {
        OLD.to_string()
    };
    std::fs::write(dir.path().join("orders.yaml"), text).unwrap();
    dir
}

async fn legacy(db: &TestDb) {
    db.exec(&[
        "CREATE TABLE orders (Id bigint unsigned NOT NULL AUTO_INCREMENT, \
         CustomerRef varchar(64) NOT NULL, PRIMARY KEY (Id)) \
         ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
        "CREATE TABLE digits (i int NOT NULL PRIMARY KEY)",
        "INSERT INTO digits VALUES (0),(1),(2),(3),(4),(5),(6),(7),(8),(9)",
        "INSERT INTO orders (CustomerRef) SELECT SHA2(a.i + 10*b.i + 100*c.i + 1000*d.i, 256) \
         FROM digits a, digits b, digits c, digits d",
        "DROP TABLE digits",
    ])
    .await;
    db.exec_batch("ANALYZE TABLE orders").await;
}

#[tokio::test]
async fn stats_file_feeds_plan_against_and_diff() {
    let db = TestDb::new().await;
    legacy(&db).await;
    let old = catalog_dir("cost-old", false);
    let new = catalog_dir("cost-new", true);
    let stats = new.path().join("stats.json");
    let url = db.url();
    let out = run(&[
        "stats",
        "--catalog",
        new.path().to_str().unwrap(),
        "--database-url",
        &url,
        "--out",
        stats.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("orders: ~"), "{text}");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    assert_eq!(doc["tables"][0]["table"], "orders");
    assert!(doc["tables"][0]["rows"].as_u64().unwrap() > 5_000, "{doc}");

    // A dump of the legacy table planned with the stats: sizes known.
    let dump = new.path().join("dump.sql");
    db.dump_no_data(&dump);
    let flavor = db.flavor.to_string();
    let plan = |extra: &[&str]| -> serde_json::Value {
        let mut args = vec![
            "plan",
            "--catalog",
            new.path().to_str().unwrap(),
            "--against",
            dump.to_str().unwrap(),
            "--flavor",
            &flavor,
            "--format",
            "json",
        ];
        args.extend_from_slice(extra);
        let out = run(&args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let with = plan(&["--stats", stats.to_str().unwrap()]);
    let step = &with["steps"][0];
    assert_eq!(step["kind"], "add_index");
    assert_eq!(step["cost"]["class"], "inplace");
    assert!(step["cost"]["duration_ms"].as_u64().unwrap() > 0, "{step}");
    assert_eq!(with["cost"]["sizes"], "stats_file");
    // Without it: the class, and unknown (null) sizes, never a guess.
    let without = plan(&[]);
    let step = &without["steps"][0];
    assert_eq!(step["cost"]["class"], "inplace");
    assert!(step["cost"]["rows"].is_null() && step["cost"]["duration_ms"].is_null());
    assert_eq!(without["cost"]["sizes"], "none");

    // diff --stats --format markdown: the cost table, the step over a
    // zero budget marked.
    let out = run(&[
        "diff",
        "--catalog",
        new.path().to_str().unwrap(),
        "--from",
        old.path().to_str().unwrap(),
        "--flavor",
        &flavor,
        "--stats",
        stats.to_str().unwrap(),
        "--max-step-duration",
        "0",
        "--format",
        "markdown",
    ]);
    let md = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{md}");
    assert!(
        md.contains(&format!(
            "#### Cost on {flavor} (sizes from the --stats file"
        )),
        "{md}"
    );
    assert!(
        md.contains("| add_index `orders`.`idx_orders_customer` | inplace |"),
        "{md}"
    );
    assert!(md.contains("**over** max_step_duration 0.0 s"), "{md}");
}

#[tokio::test]
async fn apply_over_a_budget_exits_4_before_any_ddl() {
    let db = TestDb::new().await;
    legacy(&db).await;
    let new = catalog_dir("cost-apply", true);
    let before = db.physical().await;
    let url = db.url();
    let args = [
        "apply",
        "--catalog",
        new.path().to_str().unwrap(),
        "--database-url",
        &url,
        "--max-step-duration",
        "1ms",
        "--format",
        "json",
    ];
    let out = run(&args);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(4), "{doc}");
    assert_eq!(doc["stopped"]["kind"], "over_budget", "{doc}");
    assert_eq!(
        doc["stopped"]["steps"][0]["step"],
        "orders.idx_orders_customer"
    );
    assert_eq!(doc["server_ddl_count"], 0, "{doc}");
    assert_eq!(db.physical().await, before);
    // Human: the step, its estimate and the budget on stderr.
    let out = run(&args[..args.len() - 2]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4));
    assert!(
        err.contains("step orders.idx_orders_customer has an estimated build of")
            && err.contains("over the max_step_duration budget of 0.0 s"),
        "{err}"
    );
    // The catalog's own budget (catalog.yaml `limits:`) defers as well.
    let limits = new.path().join("catalog.yaml");
    std::fs::write(&limits, "limits:\n  max_replica_stall: 1ms\n").unwrap();
    let out = run(&args[..5]);
    assert_eq!(
        out.status.code(),
        Some(4),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("max_replica_stall"));
    assert_eq!(db.physical().await, before);
    std::fs::write(&limits, "limits:\n  max_replica_stall: soon\n").unwrap();
    let out = run(&["check", "--catalog", new.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_file(&limits).unwrap();
    // Allowed by name: converges.
    let out = run(&[
        &args[..],
        &["--allow-long-steps", "orders.idx_orders_customer"],
    ]
    .concat());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // A bad duration is a usage error.
    let out = run(&[
        "apply",
        "--catalog",
        new.path().to_str().unwrap(),
        "--database-url",
        &url,
        "--max-step-duration",
        "5 days",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

/// `catalog stats` warns, as `catalog verify` does, when a table's next
/// AUTO_INCREMENT has used more than the catalog's share of its column's
/// range (`auto-increment-capacity`); `off` in `lint: rules:` silences it.
#[tokio::test]
async fn stats_warns_about_auto_increment_capacity() {
    let db = TestDb::new().await;
    let dir = crate::cli_support::tickets_near_their_range(&db, "capacity").await;
    let url = db.url();
    let stats = |format: &str| {
        run(&[
            "stats",
            "--catalog",
            dir.path().to_str().unwrap(),
            "--database-url",
            &url,
            "--format",
            format,
        ])
    };
    let out = stats("json");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let capacity = doc["capacity"].as_array().expect("a capacity list");
    assert_eq!(capacity.len(), 1, "{doc}");
    assert_eq!(capacity[0]["rule"], "auto-increment-capacity");
    assert_eq!(capacity[0]["severity"], "warning");
    assert_eq!(capacity[0]["table"], "tickets");
    assert_eq!(capacity[0]["column"], "Id");
    assert!(capacity[0]["percent"].as_f64().unwrap() > 93.0, "{doc}");
    let human = stats("human");
    assert_eq!(human.status.code(), Some(0), "{human:?}");
    let text = String::from_utf8_lossy(&human.stdout);
    assert!(
        text.contains("warning[auto-increment-capacity]: table `tickets`, column `Id`"),
        "{text}"
    );
    // Off: nothing said.
    std::fs::write(
        dir.path().join("catalog.yaml"),
        "lint:\n  rules: { auto-increment-capacity: off }\n",
    )
    .unwrap();
    let out = stats("json");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(doc.get("capacity").is_none(), "{doc}");
}
