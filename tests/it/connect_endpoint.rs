//! Traffic stays on the TCP endpoint the URL names. A counting TCP proxy in
//! front of the test server stands for a tunnel (`ssh -L`): the URL names
//! the proxy. mysql_async's `prefer_socket` would ask the server for
//! `@@socket` and reconnect through that local Unix socket, bypassing the
//! proxy; with it off, every byte of every statement goes through the proxy,
//! and the reported identity is the server's own (its port, not the proxy's).

use crate::common;

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use common::TestDb;
use mysql_async::prelude::*;
use schema_catalog::apply::{self, ApplyOptions};
use schema_catalog::db;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// Counts connections and bytes relayed from the server to the client.
#[derive(Default)]
struct Counters {
    connections: AtomicUsize,
    server_bytes: AtomicU64,
}

/// Starts the proxy on 127.0.0.1 (any free port) in front of `upstream`.
async fn proxy(upstream: String) -> (u16, Arc<Counters>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let counters = Arc::new(Counters::default());
    let c = counters.clone();
    tokio::spawn(async move {
        loop {
            let Ok((client, _)) = listener.accept().await else {
                return;
            };
            c.connections.fetch_add(1, Ordering::SeqCst);
            let server = TcpStream::connect(&upstream)
                .await
                .expect("upstream reachable");
            let c = c.clone();
            tokio::spawn(relay(client, server, c));
        }
    });
    (port, counters)
}

async fn relay(client: TcpStream, server: TcpStream, c: Arc<Counters>) {
    let (mut cr, mut cw) = client.into_split();
    let (mut sr, mut sw) = server.into_split();
    let up = tokio::spawn(async move { tokio::io::copy(&mut cr, &mut sw).await });
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match sr.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                c.server_bytes.fetch_add(n as u64, Ordering::SeqCst);
                if cw.write_all(&buf[..n]).await.is_err() {
                    break;
                }
            }
        }
    }
    up.abort();
}

/// The test server's `host:port` and the URL of `db` through the proxy.
fn endpoints(db: &TestDb, proxy_port: u16) -> (String, u16, String) {
    let mut url = url::Url::parse(&db.url()).unwrap();
    let host = url.host_str().unwrap().to_string();
    let port = url.port().unwrap_or(3306);
    url.set_host(Some("127.0.0.1")).unwrap();
    url.set_port(Some(proxy_port)).unwrap();
    (format!("{host}:{port}"), port, url.to_string())
}

#[tokio::test]
async fn every_statement_goes_through_the_url_endpoint() {
    let db = TestDb::new().await;
    let real_port = url::Url::parse(&db.url()).unwrap().port().unwrap_or(3306);
    let (proxy_port, counters) = {
        let upstream = endpoints(&db, 0).0;
        proxy(upstream).await
    };
    let (_, _, via_proxy) = endpoints(&db, proxy_port);
    let target = db::parse_url(&via_proxy).unwrap();
    assert!(!target.url.prefer_socket());
    let mut session = db::connect(&target, Duration::from_secs(10)).await.unwrap();

    // The identity is the server's own: its port, not the proxy's.
    let identity = session.identity().clone();
    assert_eq!(identity.port, u64::from(real_port), "{identity:?}");
    assert_ne!(identity.port, u64::from(proxy_port));
    assert!(!identity.hostname.is_empty() && !identity.version.is_empty());
    assert_eq!(
        identity.server_uuid.is_some(),
        session.flavor() == schema_catalog::Flavor::MySql,
        "{identity:?}"
    );

    // A 200 kB result reaches us through the proxy (not through @@socket).
    let before = counters.server_bytes.load(Ordering::SeqCst);
    let big: Option<String> = session
        .run("a large read", |c| {
            c.query_first("SELECT REPEAT('x', 200000)")
        })
        .await
        .unwrap();
    assert_eq!(big.map(|s| s.len()), Some(200_000));
    let relayed = counters.server_bytes.load(Ordering::SeqCst) - before;
    assert!(
        relayed >= 200_000,
        "only {relayed} bytes went through the proxy"
    );
    session.disconnect().await.unwrap();
    assert_eq!(counters.connections.load(Ordering::SeqCst), 1);

    // apply: its DDL lands on the server behind the proxy, over the proxy.
    let catalog = schema_catalog::catalog::load(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/catalog"
    )))
    .unwrap();
    let tables: Vec<_> = catalog.tables.iter().map(|t| t.table.clone()).collect();
    let before = counters.connections.load(Ordering::SeqCst);
    let report = apply::run(&target, &target.schema, &tables, &ApplyOptions::default())
        .await
        .unwrap();
    assert!(report.converged(), "{report:?}");
    assert_eq!(report.server, identity);
    assert!(counters.connections.load(Ordering::SeqCst) > before);
    let mut c = db.pool.get_conn().await.unwrap();
    let n: Option<u64> = c
        .exec_first(
            "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?",
            (db.name.as_str(),),
        )
        .await
        .unwrap();
    assert_eq!(n, Some(tables.len() as u64));
}

#[test]
fn a_socket_is_used_only_when_the_url_asks() {
    let t = db::parse_url("mysql://root@localhost/db").unwrap();
    assert_eq!(t.url.socket(), None);
    assert!(!t.url.prefer_socket());
    let t = db::parse_url("mysql://root@localhost/db?socket=/run/mysqld/mysqld.sock").unwrap();
    assert_eq!(t.url.socket(), Some("/run/mysqld/mysqld.sock"));
    assert!(
        t.display.contains("/run/mysqld/mysqld.sock"),
        "{}",
        t.display
    );
}
