//! `catalog apply --replica` waiting for a transaction on the replica that
//! holds the step's table: the human output says how long and names the
//! holder (the JSON fields are asserted in the library's
//! `replicas_wait_live`). Uses the pair, setup and lock of `replicas_cli`.

use std::time::{Duration, Instant};

use mysql_async::prelude::*;

use crate::replicas_cli::{text, Setup, SERIAL};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replica_holder_is_waited_for_and_named_in_the_human_output() {
    let _serial = SERIAL.lock().await;
    let s = Setup::new("blk").await;
    let replica = s.replica.clone();
    // The schema reaches the replica, then a read transaction there holds
    // `Jobs`.
    let on_replica = format!("{replica}/{}", s.name);
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut holder = loop {
        if let Ok(mut c) = mysql_async::Conn::from_url(on_replica.as_str()).await {
            if c.query_drop("SELECT 1 FROM `Jobs` LIMIT 1").await.is_ok() {
                break c;
            }
        }
        assert!(
            Instant::now() < deadline,
            "`Jobs` never reached the replica"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    holder.query_drop("START TRANSACTION").await.unwrap();
    let _: Vec<u64> = holder.query("SELECT COUNT(*) FROM `Jobs`").await.unwrap();
    let holder_id = holder.id();
    let opened = Instant::now();
    // The holder lives 5 s; apply starts once it is older than the blocker
    // age (1 s).
    let release = tokio::spawn(async move {
        tokio::time::sleep_until((opened + Duration::from_secs(5)).into()).await;
        holder.query_drop("COMMIT").await.unwrap();
        holder.disconnect().await.ok();
    });
    tokio::time::sleep_until((opened + Duration::from_millis(1200)).into()).await;
    let out = s
        .cli(
            &s.primary,
            &["apply", "--replica", &replica, "--busy-timeout", "60"],
        )
        .await;
    release.await.unwrap();
    let all = text(&out);
    assert_eq!(out.status.code(), Some(0), "{all}");
    let line = all
        .lines()
        .find(|l| l.contains("for sessions holding the table"))
        .unwrap_or_else(|| panic!("no replica blocker line: {all}"));
    assert!(line.contains(&s.replica_host_port()), "{line}");
    assert!(
        line.contains(&format!("connection {holder_id} ")),
        "names the holder {holder_id}: {line}"
    );
    let ms: u64 = line
        .split("waited ")
        .nth(1)
        .and_then(|t| t.split(" ms").next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no waited ms: {line}"));
    assert!(ms >= 2_000, "waited for the holder: {line}");
}
