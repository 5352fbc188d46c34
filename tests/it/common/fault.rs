//! A TCP relay between a MySQL client and its server that answers some of
//! the client's prepared-statement executions itself, with the error a
//! server sends when its own statement time limit ends a statement
//! (MariaDB `max_statement_time`: 1969; MySQL and TiDB
//! `max_execution_time`: 3024), instead of passing them on.
//!
//! The server never sees an execution answered this way, so its state is
//! exactly that of a read the server cut short: nothing was changed, the
//! statement stays prepared, the connection is clean. Everything else is
//! relayed unchanged. Tests use it to make a busy server's slow read happen
//! on demand.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::TcpStream;
use tokio::sync::mpsc;

use schema_catalog::Flavor;

/// Which executions fail, and how many have so far.
pub struct Faults {
    /// Executions of statements whose text contains this are answered.
    marker: String,
    /// How many more to answer (`u32::MAX`: all of them).
    left: AtomicU32,
    /// How many were answered.
    answered: AtomicU32,
    /// The error packet's code and message.
    code: u16,
    message: &'static str,
}

impl Faults {
    /// Executions answered so far.
    pub fn answered(&self) -> u32 {
        self.answered.load(Ordering::SeqCst)
    }

    fn take(&self) -> bool {
        self.left
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| match n {
                0 => None,
                u32::MAX => Some(u32::MAX),
                n => Some(n - 1),
            })
            .is_ok()
    }

    /// The ERR packet answering a command (sequence number 1).
    fn packet(&self) -> Vec<u8> {
        let mut payload = vec![0xff];
        payload.extend_from_slice(&self.code.to_le_bytes());
        payload.extend_from_slice(b"#HY000");
        payload.extend_from_slice(self.message.as_bytes());
        let len = payload.len() as u32;
        let mut out = len.to_le_bytes()[..3].to_vec();
        out.push(1);
        out.extend(payload);
        out
    }
}

/// A relay on 127.0.0.1 (any free port) to `upstream` that answers the
/// first `count` executions of statements containing `marker` (every one
/// with `u32::MAX`) with `flavor`'s statement-time-limit error.
pub struct FaultProxy {
    /// The port it listens on.
    pub port: u16,
    /// What it answered.
    pub faults: Arc<Faults>,
    accept: tokio::task::JoinHandle<()>,
}

impl FaultProxy {
    /// Listens and relays every connection it accepts.
    pub async fn start(upstream: String, flavor: Flavor, marker: &str, count: u32) -> FaultProxy {
        let (code, message) = match flavor {
            Flavor::MariaDb => (
                1969,
                "Query execution was interrupted (max_statement_time exceeded)",
            ),
            _ => (
                3024,
                "Query execution was interrupted, maximum statement execution time exceeded",
            ),
        };
        let faults = Arc::new(Faults {
            marker: marker.to_string(),
            left: AtomicU32::new(count),
            answered: AtomicU32::new(0),
            code,
            message,
        });
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
            .await
            .expect("bind the proxy");
        let port = listener.local_addr().expect("proxy address").port();
        let shared = faults.clone();
        let accept = tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let server = TcpStream::connect(&upstream)
                    .await
                    .expect("proxy reaches the server");
                tokio::spawn(relay(client, server, shared.clone()));
            }
        });
        FaultProxy {
            port,
            faults,
            accept,
        }
    }
}

impl Drop for FaultProxy {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

/// One connection's prepared statements: the text of the last prepare not
/// yet answered, and each statement id's text.
#[derive(Default)]
struct Statements {
    preparing: Option<String>,
    by_id: HashMap<u32, String>,
}

async fn relay(client: TcpStream, server: TcpStream, faults: Arc<Faults>) {
    let _ = (client.set_nodelay(true), server.set_nodelay(true));
    let (client_read, client_write) = client.into_split();
    let (server_read, server_write) = server.into_split();
    let statements = Arc::new(Mutex::new(Statements::default()));
    // Everything the client receives goes through one channel: the server's
    // bytes and the relay's own answers, in order.
    let (to_client, rx) = mpsc::unbounded_channel::<Vec<u8>>();
    let up = client_to_server(
        client_read,
        server_write,
        to_client.clone(),
        statements.clone(),
        faults,
    );
    let down = server_to_client(server_read, to_client, statements);
    let write = write_client(client_write, rx);
    tokio::join!(up, down, write);
}

/// Splits the client's bytes into packets; answers a faulted execution, and
/// passes everything else on.
async fn client_to_server(
    mut from: OwnedReadHalf,
    mut to: OwnedWriteHalf,
    to_client: mpsc::UnboundedSender<Vec<u8>>,
    statements: Arc<Mutex<Statements>>,
    faults: Arc<Faults>,
) {
    let mut pending = Vec::new();
    let mut buf = vec![0u8; 64 * 1024];
    while let Ok(read @ 1..) = from.read(&mut buf).await {
        pending.extend_from_slice(&buf[..read]);
        let mut forward = Vec::new();
        while let Some(packet) = super::relay::next_packet(&mut pending) {
            let (seq, payload) = (packet[3], &packet[4..]);
            if seq == 0 && payload.first() == Some(&0x16) {
                statements.lock().unwrap().preparing =
                    Some(String::from_utf8_lossy(&payload[1..]).into_owned());
            }
            if seq == 0 && payload.first() == Some(&0x17) && payload.len() >= 5 {
                let id = u32::from_le_bytes([payload[1], payload[2], payload[3], payload[4]]);
                let marked = statements
                    .lock()
                    .unwrap()
                    .by_id
                    .get(&id)
                    .is_some_and(|sql| sql.contains(&faults.marker));
                if marked && faults.take() {
                    faults.answered.fetch_add(1, Ordering::SeqCst);
                    if to_client.send(faults.packet()).is_err() {
                        return;
                    }
                    continue;
                }
            }
            forward.extend_from_slice(&packet);
        }
        if !forward.is_empty() && to.write_all(&forward).await.is_err() {
            break;
        }
    }
    let _ = to.shutdown().await;
}

/// Passes the server's bytes on, noting the statement id of each answered
/// prepare (`COM_STMT_PREPARE_OK`: 0x00 and the id, first in the answer).
async fn server_to_client(
    mut from: OwnedReadHalf,
    to_client: mpsc::UnboundedSender<Vec<u8>>,
    statements: Arc<Mutex<Statements>>,
) {
    let mut buf = vec![0u8; 64 * 1024];
    while let Ok(read @ 1..) = from.read(&mut buf).await {
        let chunk = &buf[..read];
        {
            let mut s = statements.lock().unwrap();
            if let Some(sql) = s.preparing.take() {
                if chunk.len() >= 9 && chunk[4] == 0x00 {
                    let id = u32::from_le_bytes([chunk[5], chunk[6], chunk[7], chunk[8]]);
                    s.by_id.insert(id, sql);
                }
            }
        }
        if to_client.send(chunk.to_vec()).is_err() {
            break;
        }
    }
}

async fn write_client(mut to: OwnedWriteHalf, mut rx: mpsc::UnboundedReceiver<Vec<u8>>) {
    while let Some(bytes) = rx.recv().await {
        if to.write_all(&bytes).await.is_err() {
            break;
        }
    }
    let _ = to.shutdown().await;
}
