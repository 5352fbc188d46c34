//! A TCP relay between a MySQL client and its server that delays every
//! chunk and counts what the client says: round trips (each time the client
//! sends after the server has; the first packet after the greeting
//! included) and the client's commands, decoded from its packets.
//!
//! Shared by `examples/latency_proxy.rs` (the latency bench) and the tests
//! that pin round trips (`tests/it/inspect_round_trips.rs`), so both count the
//! same way.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio::time::Instant;

/// What one connection's client said.
#[derive(Default)]
pub struct Turns {
    /// Whether the server has sent since the client last did.
    server_spoke: AtomicBool,
    round_trips: AtomicU64,
    up: AtomicU64,
    down: AtomicU64,
    /// The client's bytes not yet decoded into packets.
    pending: Mutex<Vec<u8>>,
    commands: Mutex<Vec<String>>,
}

impl Turns {
    /// Round trips so far.
    pub fn round_trips(&self) -> u64 {
        self.round_trips.load(Ordering::SeqCst)
    }

    /// Bytes from the client, bytes from the server (examples/latency_proxy.rs
    /// prints them).
    pub fn bytes(&self) -> (u64, u64) {
        (
            self.up.load(Ordering::SeqCst),
            self.down.load(Ordering::SeqCst),
        )
    }

    /// The client's packets in order: `handshake` (login packets, sequence
    /// number not 0), or the command with its text (`query: ...`,
    /// `prepare: ...`, `execute`, `quit`, ...), the text cut to 200 characters.
    pub fn commands(&self) -> Vec<String> {
        self.commands.lock().unwrap().clone()
    }

    fn client_sent(&self, bytes: &[u8]) {
        let mut pending = self.pending.lock().unwrap();
        pending.extend_from_slice(bytes);
        let mut commands = self.commands.lock().unwrap();
        while let Some(packet) = next_packet(&mut pending) {
            commands.push(describe(packet[3], &packet[4..]));
        }
    }
}

/// Takes the first whole MySQL packet (4-byte header: 3-byte length and
/// the sequence number, then the payload) off `pending`, if it holds one.
pub fn next_packet(pending: &mut Vec<u8>) -> Option<Vec<u8>> {
    if pending.len() < 4 {
        return None;
    }
    let len =
        usize::from(pending[0]) | usize::from(pending[1]) << 8 | usize::from(pending[2]) << 16;
    (pending.len() >= 4 + len).then(|| pending.drain(..4 + len).collect())
}

/// One client packet: a command (sequence number 0) or a login packet.
fn describe(seq: u8, payload: &[u8]) -> String {
    let Some((&command, rest)) = payload.split_first().filter(|_| seq == 0) else {
        return "handshake".to_string();
    };
    let text = |name: &str| {
        let sql: String = String::from_utf8_lossy(rest).chars().take(200).collect();
        format!("{name}: {sql}")
    };
    match command {
        0x01 => "quit".to_string(),
        0x03 => text("query"),
        0x0e => "ping".to_string(),
        0x11 => "change_user".to_string(),
        0x16 => text("prepare"),
        0x17 => "execute".to_string(),
        0x19 => "close_statement".to_string(),
        0x1a => "reset_statement".to_string(),
        0x1f => "reset_connection".to_string(),
        other => format!("command 0x{other:02x}"),
    }
}

/// Relays both directions until both are closed, each chunk delivered
/// `one_way` after it was read, counting into `turns`.
pub async fn relay(client: TcpStream, server: TcpStream, one_way: Duration, turns: Arc<Turns>) {
    let _ = (client.set_nodelay(true), server.set_nodelay(true));
    let (client_read, client_write) = client.into_split();
    let (server_read, server_write) = server.into_split();
    let up = pump(client_read, server_write, one_way, turns.clone(), true);
    let down = pump(server_read, client_write, one_way, turns, false);
    tokio::join!(up, down);
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
                turns.client_sent(&buf[..read]);
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

/// Every connection a [`Proxy`] accepted: its counts and its relay task.
type Connections = Arc<Mutex<Vec<(Arc<Turns>, tokio::task::JoinHandle<()>)>>>;

/// A relay on 127.0.0.1 (any free port) to `upstream`, without delay, that
/// keeps every connection's counts (for tests).
pub struct Proxy {
    /// The port it listens on.
    pub port: u16,
    connections: Connections,
    accept: tokio::task::JoinHandle<()>,
}

impl Proxy {
    /// Listens; each connection is registered before any of its bytes are
    /// relayed, so a client that got its greeting is counted.
    pub async fn start(upstream: String) -> Proxy {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
            .await
            .expect("bind the proxy");
        let port = listener.local_addr().expect("proxy address").port();
        let connections: Connections = Arc::default();
        let registry = connections.clone();
        let accept = tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let server = TcpStream::connect(&upstream)
                    .await
                    .expect("proxy reaches the server");
                let turns = Arc::new(Turns::default());
                let task = tokio::spawn(relay(client, server, Duration::ZERO, turns.clone()));
                registry.lock().unwrap().push((turns, task));
            }
        });
        Proxy {
            port,
            connections,
            accept,
        }
    }

    /// Stops accepting, waits (at most 10 s) until every connection so far
    /// has closed, and returns their counts in the order they were opened.
    pub async fn finish(self) -> Vec<Arc<Turns>> {
        self.accept.abort();
        let connections = std::mem::take(&mut *self.connections.lock().unwrap());
        let mut out = Vec::new();
        for (turns, task) in connections {
            tokio::time::timeout(Duration::from_secs(10), task)
                .await
                .expect("the client closed its connection")
                .expect("the relay task ran");
            out.push(turns);
        }
        out
    }
}
