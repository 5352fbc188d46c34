//! Progress of a long DDL step, read from the server on a second connection.
//!
//! MariaDB: `information_schema.PROCESSLIST.PROGRESS` of the DDL session.
//! MySQL 8: `performance_schema.events_stages_current` work counters, where
//! stage instruments are enabled (otherwise no progress is shown).
//! TiDB (assumption, not runnable here): `information_schema.DDL_JOBS`
//! `ROW_COUNT` of the running job on the table (rows backfilled, no percent).

use std::sync::Arc;
use std::time::Duration;

use mysql_async::prelude::*;

use crate::flavor::Flavor;

/// What a progress callback receives.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    /// 1-based step number.
    pub step: usize,
    /// Number of steps in the run.
    pub steps: usize,
    /// Table.
    pub table: String,
    /// Object being added.
    pub object: String,
    /// `create_table`, `add_column`, `add_index`.
    pub kind: &'static str,
    /// What happened.
    pub event: ProgressEvent,
}

/// One progress event.
#[derive(Debug, Clone, PartialEq)]
pub enum ProgressEvent {
    /// The step's DDL was sent.
    Started,
    /// Server-reported completion, 0..=100.
    Percent(f64),
    /// Server-reported rows processed (TiDB backfill).
    Rows(u64),
    /// The step finished with this status.
    Finished(super::StepStatus),
}

/// A progress callback. Called from the apply task; must not block.
pub type ProgressFn = Arc<dyn Fn(&Progress) + Send + Sync>;

/// Polls the server about `ddl_conn_id`'s statement every `every` until
/// aborted, reporting through `emit`. Errors end the polling silently:
/// progress is a display aid, never a reason to fail.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn poll(
    mut session: crate::db::Session,
    flavor: Flavor,
    ddl_conn_id: u32,
    schema: String,
    table: String,
    every: Duration,
    emit: impl Fn(ProgressEvent),
) {
    let conn = session.conn();
    loop {
        tokio::time::sleep(every).await;
        let event = match flavor {
            Flavor::MariaDb => conn
                .exec_first::<Option<f64>, _, _>(
                    "SELECT CAST(PROGRESS AS DOUBLE) FROM information_schema.PROCESSLIST WHERE ID = ?",
                    (ddl_conn_id,),
                )
                .await
                .map(|r| r.flatten().filter(|p| *p > 0.0).map(ProgressEvent::Percent)),
            Flavor::MySql => conn
                .exec_first::<(Option<u64>, Option<u64>), _, _>(
                    "SELECT WORK_COMPLETED, WORK_ESTIMATED FROM performance_schema.events_stages_current \
                     WHERE THREAD_ID = PS_THREAD_ID(?)",
                    (ddl_conn_id,),
                )
                .await
                .map(|r| match r {
                    Some((Some(done), Some(total))) if total > 0 => {
                        Some(ProgressEvent::Percent(done as f64 * 100.0 / total as f64))
                    }
                    _ => None,
                }),
            Flavor::TiDb => conn
                .exec_first::<Option<u64>, _, _>(
                    "SELECT ROW_COUNT FROM information_schema.DDL_JOBS \
                     WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND STATE = 'running' LIMIT 1",
                    (schema.as_str(), table.as_str()),
                )
                .await
                .map(|r| r.flatten().map(ProgressEvent::Rows)),
        };
        match event {
            Ok(Some(e)) => emit(e),
            Ok(None) => {}
            Err(_) => return,
        }
    }
}
