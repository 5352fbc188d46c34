//! One heavy test at a time per server, across test binaries and across
//! suites running beside each other: the tests that build million-row
//! tables, kill appliers at timed points or measure an application's
//! latencies take an exclusive lock on a file named by the server's
//! `host:port` before they start. Everything else runs in parallel.
//!
//! The lock is the operating system's file lock (`File::lock`): it is
//! released when the guard drops, and when the process dies.

use std::fs::{File, OpenOptions};

/// Holds the server's heavy-test lock until dropped.
pub struct Heavy {
    _file: File,
}

fn lock_file() -> File {
    let name = format!(
        "schema-catalog-heavy-{}.lock",
        super::host_port().replace([':', '/'], "-")
    );
    OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(std::env::temp_dir().join(name))
        .expect("open the heavy-test lock file")
}

/// Waits for the server's heavy-test lock (blocking: for plain `#[test]`s).
pub fn heavy() -> Heavy {
    let file = lock_file();
    file.lock().expect("take the heavy-test lock");
    Heavy { _file: file }
}

/// [`heavy`] for async tests: waits on a blocking thread.
pub async fn heavy_async() -> Heavy {
    tokio::task::spawn_blocking(heavy)
        .await
        .expect("the lock waiter ran")
}
