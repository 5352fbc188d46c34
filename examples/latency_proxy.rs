//! A TCP proxy that adds latency, for benches/latency_bench.sh: every byte
//! is delivered half the round-trip time after it was read, in each
//! direction, in order (throughput is not throttled). It counts round trips
//! per connection: each time the client sends after the server has sent
//! (the first client packet after the greeting included), one round trip.
//!
//! `latency_proxy LISTEN_PORT UPSTREAM RTT_MS`: prints `listening on ADDR`,
//! then `accepted <n>` per connection and, when it has closed,
//! `closed <n> round_trips=<r> up=<bytes> down=<bytes>` (with
//! `LATENCY_PROXY_TRACE` set, preceded by one `command <n> ...` line per
//! client packet: the statements behind the count).

use std::sync::Arc;
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};

// The relay the round-trip tests use too, so the bench and the tests count
// the same way (this example uses only part of it).
#[path = "../tests/it/common/relay.rs"]
#[allow(dead_code)]
mod relay;

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
                Ok(server) => {
                    let turns = Arc::new(relay::Turns::default());
                    relay::relay(client, server, one_way, turns.clone()).await;
                    let (up, down) = turns.bytes();
                    if std::env::var_os("LATENCY_PROXY_TRACE").is_some() {
                        for c in turns.commands() {
                            println!("command {n} {c}");
                        }
                    }
                    println!(
                        "closed {n} round_trips={} up={up} down={down}",
                        turns.round_trips()
                    );
                }
                Err(e) => eprintln!("connection {n}: upstream {upstream}: {e}"),
            }
        });
    }
}
