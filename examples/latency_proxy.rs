//! A TCP proxy that adds latency, for benches/latency_bench.sh: every byte
//! is delivered half the round-trip time after it was read, in each
//! direction, in order (throughput is not throttled). It counts round trips
//! per connection: each time the client sends after the server has sent
//! (the first client packet after the greeting included), one round trip.
//!
//! `latency_proxy LISTEN_PORT UPSTREAM RTT_MS`: prints `listening on ADDR`,
//! then `accepted <n>` per connection and, when it has closed,
//! `closed <n> round_trips=<r> up=<bytes> down=<bytes>`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio::time::Instant;

/// Per-connection counters.
#[derive(Default)]
struct Turns {
    /// Whether the server has sent since the client last did.
    server_spoke: AtomicBool,
    round_trips: AtomicU64,
    up: AtomicU64,
    down: AtomicU64,
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let [_, port, upstream, rtt] = args.as_slice() else {
        eprintln!("usage: latency_proxy LISTEN_PORT UPSTREAM_HOST:PORT RTT_MS");
        std::process::exit(2);
    };
    let one_way = Duration::from_micros(rtt.parse::<u64>().expect("RTT_MS is a number") * 500);
    let listener = TcpListener::bind(("127.0.0.1", port.parse::<u16>().expect("a port"))).await?;
    println!("listening on {}", listener.local_addr()?);
    let mut n = 0u64;
    loop {
        let (client, _) = listener.accept().await?;
        n += 1;
        println!("accepted {n}");
        let upstream = upstream.clone();
        tokio::spawn(async move {
            match TcpStream::connect(&upstream).await {
                Ok(server) => relay(n, client, server, one_way).await,
                Err(e) => eprintln!("connection {n}: upstream {upstream}: {e}"),
            }
        });
    }
}

/// Relays both directions until both are closed, then prints the counts.
async fn relay(n: u64, client: TcpStream, server: TcpStream, one_way: Duration) {
    let _ = (client.set_nodelay(true), server.set_nodelay(true));
    let turns = Arc::new(Turns::default());
    let (client_read, client_write) = client.into_split();
    let (server_read, server_write) = server.into_split();
    let up = pump(client_read, server_write, one_way, turns.clone(), true);
    let down = pump(server_read, client_write, one_way, turns.clone(), false);
    tokio::join!(up, down);
    println!(
        "closed {n} round_trips={} up={} down={}",
        turns.round_trips.load(Ordering::SeqCst),
        turns.up.load(Ordering::SeqCst),
        turns.down.load(Ordering::SeqCst)
    );
}

/// Copies `from` to `to`, each chunk delivered `delay` after it was read.
async fn pump(
    mut from: OwnedReadHalf,
    mut to: OwnedWriteHalf,
    delay: Duration,
    turns: Arc<Turns>,
    client_side: bool,
) {
    let (tx, mut rx) = mpsc::unbounded_channel::<(Instant, Vec<u8>)>();
    let reader = async move {
        let mut buf = vec![0u8; 64 * 1024];
        while let Ok(read @ 1..) = from.read(&mut buf).await {
            if client_side {
                if turns.server_spoke.swap(false, Ordering::SeqCst) {
                    turns.round_trips.fetch_add(1, Ordering::SeqCst);
                }
                turns.up.fetch_add(read as u64, Ordering::SeqCst);
            } else {
                turns.server_spoke.store(true, Ordering::SeqCst);
                turns.down.fetch_add(read as u64, Ordering::SeqCst);
            }
            if tx
                .send((Instant::now() + delay, buf[..read].to_vec()))
                .is_err()
            {
                break;
            }
        }
    };
    let writer = async move {
        while let Some((due, bytes)) = rx.recv().await {
            tokio::time::sleep_until(due).await;
            if to.write_all(&bytes).await.is_err() {
                break;
            }
        }
        let _ = to.shutdown().await;
    };
    tokio::join!(reader, writer);
}
