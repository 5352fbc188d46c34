//! SIGINT/SIGTERM during apply: cancel the run (the library cancels a
//! running DDL on the server and releases the advisory lock), then exit
//! 130 or 143 after printing what was done.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;

use anyhow::{Context, Result};
use schema_catalog::apply::CancellationToken;
use tokio::signal::unix::{signal, SignalKind};

use crate::exit;

/// Which signal cancelled the run (0 while none did).
#[derive(Clone)]
pub struct Received(Arc<AtomicU8>);

impl Received {
    /// The exit code for an interrupted run: 143 after SIGTERM, else 130.
    pub fn exit_code(&self) -> u8 {
        match self.0.load(Ordering::SeqCst) {
            exit::SIGTERM => exit::SIGTERM,
            _ => exit::SIGINT,
        }
    }
}

/// Cancels `token` on the first SIGINT or SIGTERM; a second signal ends the
/// process at once with the same code (the server still cancels a DDL whose
/// client is gone only when it notices).
pub fn watch(token: CancellationToken) -> Result<Received> {
    let mut int = signal(SignalKind::interrupt()).context("installing the SIGINT handler")?;
    let mut term = signal(SignalKind::terminate()).context("installing the SIGTERM handler")?;
    let received = Received(Arc::new(AtomicU8::new(0)));
    let seen = received.clone();
    tokio::spawn(async move {
        loop {
            let code = tokio::select! {
                _ = int.recv() => exit::SIGINT,
                _ = term.recv() => exit::SIGTERM,
            };
            if seen.0.swap(code, Ordering::SeqCst) != 0 {
                std::process::exit(i32::from(code));
            }
            token.cancel();
        }
    });
    Ok(received)
}
