//! `--two-phase-alter` and `--max-threads-running` through the binary on a
//! real pair (`CATALOG_TEST_REPLICA_PAIR`; one replica test at a time, the
//! lock of `replicas_cli`).

use crate::replicas_cli::{text, Setup, SERIAL};

use std::time::{Duration, Instant};

use cli_support::json;
use mysql_async::prelude::*;

use crate::cli_support;

async fn is_mariadb(url: &str) -> bool {
    let mut c = mysql_async::Conn::from_url(url).await.unwrap();
    let v: String = c.query_first("SELECT VERSION()").await.unwrap().unwrap();
    c.disconnect().await.ok();
    v.contains("MariaDB")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_phase_alter_is_planned_with_its_reason_and_on_is_refused_where_the_server_has_none() {
    let _serial = SERIAL.lock().await;
    let s = Setup::new("twophase").await;
    let replica = s.replica.clone();
    let mariadb = is_mariadb(&s.primary).await;
    let out = s.cli(&s.primary, &["plan", "--replica", &replica]).await;
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(
        text(&out).contains("two-phase ALTER: "),
        "the plan says which and why: {}",
        text(&out)
    );
    let out = s
        .cli(
            &s.primary,
            &[
                "apply",
                "--replica",
                &replica,
                "--two-phase-alter",
                "on",
                "--format",
                "json",
            ],
        )
        .await;
    if mariadb {
        let doc = json(&out);
        assert_eq!(out.status.code(), Some(0), "{doc:#}");
        assert_eq!(doc["two_phase"]["on"], true, "{doc:#}");
        assert_eq!(doc["steps"][0]["two_phase"], true, "{doc:#}");
    } else {
        // Refused before any DDL (and before any replica is connected).
        assert_eq!(out.status.code(), Some(2), "{}", text(&out));
        assert!(
            text(&out).contains("--two-phase-alter on"),
            "{}",
            text(&out)
        );
        assert!(text(&out).contains("MariaDB 10.8.1+"), "{}", text(&out));
        let out = s.cli(&s.primary, &["plan"]).await;
        assert!(
            text(&out).contains("1 step"),
            "still planned: {}",
            text(&out)
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn max_threads_running_defers_with_exit_4_naming_the_server_and_the_value() {
    let _serial = SERIAL.lock().await;
    let s = Setup::new("load").await;
    // Two sessions held in SLEEP on the primary, and a limit of 1: the
    // primary has at least 3 running threads (the two and the reader).
    let mut sleepers = Vec::new();
    let mut ids = Vec::new();
    for _ in 0..2 {
        let mut c = mysql_async::Conn::from_url(s.primary.as_str())
            .await
            .unwrap();
        ids.push(c.id());
        sleepers.push(tokio::spawn(async move {
            let _ = c.query_drop("SELECT SLEEP(30)").await;
            let _ = c.disconnect().await;
        }));
    }
    let mut p = mysql_async::Conn::from_url(s.primary.as_str())
        .await
        .unwrap();
    let list = ids
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let n: Option<u64> = p
            .query_first(format!(
                "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID IN ({list}) \
                 AND INFO LIKE 'SELECT SLEEP%'"
            ))
            .await
            .unwrap();
        if n == Some(2) {
            break;
        }
        assert!(Instant::now() < deadline, "the sleepers did not start");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let out = s
        .cli(
            &s.primary,
            &[
                "apply",
                "--max-threads-running",
                "1",
                "--busy-timeout",
                "2",
                "--format",
                "json",
            ],
        )
        .await;
    let human = s
        .cli(
            &s.primary,
            &["apply", "--max-threads-running", "1", "--busy-timeout", "1"],
        )
        .await;
    for id in &ids {
        let _ = p.query_drop(format!("KILL QUERY {id}")).await;
    }
    p.disconnect().await.ok();
    for t in sleepers {
        let _ = t.await;
    }
    let doc = json(&out);
    assert_eq!(out.status.code(), Some(4), "{doc:#}");
    assert_eq!(doc["stopped"]["kind"], "overloaded", "{doc:#}");
    let server = &doc["stopped"]["servers"][0];
    assert_eq!(server["role"], "primary", "{doc:#}");
    assert_eq!(server["limit"], 1, "{doc:#}");
    assert!(server["threads_running"].as_u64().unwrap() >= 3, "{doc:#}");
    assert_eq!(doc["server_ddl_count"], 0, "{doc:#}");
    assert_eq!(doc["steps"][0]["status"], "deferred", "{doc:#}");
    assert_eq!(human.status.code(), Some(4), "{}", text(&human));
    assert!(
        text(&human).contains("Threads_running") && text(&human).contains("> 1"),
        "{}",
        text(&human)
    );
}
