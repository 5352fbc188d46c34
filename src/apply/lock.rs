//! The advisory lock that serialises appliers on one schema (`GET_LOCK`).
//!
//! TiDB assumption (checked against pingcap/docs, not run): `GET_LOCK` /
//! `RELEASE_LOCK` are real cluster-wide locks since TiDB v6.1 (before it
//! they failed with 1235 unless `tidb_enable_noop_functions` made them
//! no-ops); the timeout is clamped to 1-3600 s and names to 64 characters;
//! a lock is released when its session ends.

use std::time::Duration;

use mysql_async::prelude::*;

use crate::db::Session;
use crate::error::{Error, Result};

/// The lock name for a schema: `schema-catalog:<schema>`, shortened with a
/// digest when over MySQL's 64-character lock-name limit.
pub fn lock_name(schema: &str) -> String {
    let name = format!("schema-catalog:{schema}");
    if name.chars().count() <= 64 {
        return name;
    }
    let digest = fnv1a(schema.as_bytes());
    let head: String = schema.chars().take(30).collect();
    format!("schema-catalog:{head}:{digest:016x}")
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Takes the lock on `conn`, waiting at most `wait`. The lock lives as long
/// as the connection's session (a killed applier releases it).
pub async fn acquire(session: &mut Session<'_>, name: &str, wait: Duration) -> Result<()> {
    let what = format!("taking advisory lock `{name}`");
    let deadline = wait + session.timeout();
    let got: Option<Option<i64>> = session
        .run_within(Some(deadline), &what, |c| {
            c.exec_first("SELECT GET_LOCK(?, ?)", (name, wait.as_secs()))
        })
        .await?;
    match got.flatten() {
        Some(1) => Ok(()),
        _ => Err(Error::LockHeld {
            name: name.to_string(),
            seconds: wait.as_secs(),
        }),
    }
}

/// Releases the lock (best effort; the session's end releases it anyway).
/// Whether the server said it released it (`RELEASE_LOCK` returned 1):
/// only then may the session be used for another schema.
pub async fn release(session: &mut Session<'_>, name: &str) -> bool {
    let released: Result<Option<Option<i64>>> = session
        .run("releasing the advisory lock", |c| {
            c.exec_first("SELECT RELEASE_LOCK(?)", (name,))
        })
        .await;
    matches!(released, Ok(Some(Some(1))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_fit_the_limit() {
        assert_eq!(lock_name("app"), "schema-catalog:app");
        let long = "s".repeat(64);
        let n = lock_name(&long);
        assert!(n.len() <= 64, "{n}");
        assert_ne!(lock_name(&"s".repeat(63)), n);
    }
}
