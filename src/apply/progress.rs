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

use crate::diff::Change;
use crate::server::{DdlProgress, Flavor};

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

impl Progress {
    /// The progress of step `step` of `steps`, which makes `change`.
    pub fn of(change: &Change, step: usize, steps: usize, event: ProgressEvent) -> Progress {
        Progress {
            step,
            steps,
            table: change.table().to_string(),
            object: change.object().to_string(),
            kind: change.kind(),
            event,
        }
    }
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
    /// Server-reported stage of the statement (MariaDB PROCESSLIST STATE).
    Stage(String),
    /// The step waits: the table is busy (who holds it, or an empty list
    /// when the metadata-lock wait ran out and the holder had left).
    Waiting {
        /// Who held the table at this look.
        blockers: Vec<super::Blocker>,
        /// How long the step has waited so far.
        waited: Duration,
    },
    /// The step finished with this status.
    Finished(super::StepStatus),
    /// The step waits for named replicas (to answer, to catch up within
    /// the lag budget before it, to execute it after): who and how far.
    Replica(String),
}

/// A progress callback. Called from the apply task; must not block.
pub type ProgressFn = Arc<dyn Fn(&Progress) + Send + Sync>;

/// Polls the server about `ddl_conn_id`'s statement every `every` until
/// aborted, reporting through `emit`. Errors end the polling silently:
/// progress is a display aid, never a reason to fail.
pub(crate) async fn poll(
    mut session: crate::db::Session<'static>,
    watch: Watch,
    every: Duration,
    emit: impl Fn(ProgressEvent),
) {
    // A percent never goes backwards: MySQL's work estimate grows while
    // a stage runs and each stage counts afresh, so a later reading can be
    // lower than an earlier one for the same statement.
    let mut high = 0.0_f64;
    loop {
        tokio::time::sleep(every).await;
        match read(session.conn(), &watch).await {
            Ok(Some(ProgressEvent::Percent(p))) => {
                high = high.max(p);
                emit(ProgressEvent::Percent(high))
            }
            Ok(Some(event)) => emit(event),
            Ok(None) => {}
            Err(_) => return,
        }
    }
}

/// What to watch: the DDL session and the table it alters.
pub(crate) struct Watch {
    pub flavor: Flavor,
    pub ddl_conn_id: u32,
    pub schema: String,
    pub table: String,
}

/// One progress reading, per flavor.
async fn read(
    conn: &mut mysql_async::Conn,
    w: &Watch,
) -> Result<Option<ProgressEvent>, mysql_async::Error> {
    Ok(match w.flavor.ddl_progress() {
        DdlProgress::Processlist => conn
            .exec_first::<(Option<String>, Option<u32>, Option<u32>, Option<f64>), _, _>(
                "SELECT STATE, STAGE, MAX_STAGE, CAST(PROGRESS AS DOUBLE) \
                 FROM information_schema.PROCESSLIST WHERE ID = ?",
                (w.ddl_conn_id,),
            )
            .await?
            .and_then(|(state, stage, max_stage, pct)| {
                mariadb_reading(state, stage.unwrap_or(0), max_stage.unwrap_or(0), pct)
            }),
        DdlProgress::StageEvents => conn
            .exec_first::<(Option<u64>, Option<u64>), _, _>(
                "SELECT WORK_COMPLETED, WORK_ESTIMATED FROM performance_schema.events_stages_current \
                 WHERE THREAD_ID = PS_THREAD_ID(?)",
                (w.ddl_conn_id,),
            )
            .await?
            .and_then(|r| match r {
                (Some(done), Some(total)) if total > 0 => {
                    Some(ProgressEvent::Percent(done as f64 * 100.0 / total as f64))
                }
                _ => None,
            }),
        DdlProgress::DdlJobRows => conn
            .exec_first::<Option<u64>, _, _>(
                "SELECT ROW_COUNT FROM information_schema.DDL_JOBS \
                 WHERE DB_NAME = ? AND TABLE_NAME = ? AND STATE = 'running' LIMIT 1",
                (w.schema.as_str(), w.table.as_str()),
            )
            .await?
            .flatten()
            .map(ProgressEvent::Rows),
    })
}

/// One MariaDB PROCESSLIST reading as an event. MariaDB's progress
/// reporting (KB "Progress Reporting") fills PROGRESS (0-100, over all
/// stages) and STAGE of MAX_STAGE for the statements that report it (a
/// copying ALTER); an InnoDB in-place ADD INDEX on 10.11 reports none of
/// them (STAGE, MAX_STAGE and PROGRESS stay 0 through a 2,097,152-row
/// build, measured here), only its STATE, `altering table`.
fn mariadb_reading(
    state: Option<String>,
    stage: u32,
    max_stage: u32,
    pct: Option<f64>,
) -> Option<ProgressEvent> {
    let state = state.filter(|s| !s.is_empty());
    match pct.filter(|p| *p > 0.0) {
        Some(p) if max_stage > 1 => Some(ProgressEvent::Stage(format!(
            "{}stage {stage} of {max_stage}, {p:.0}%",
            state.map(|s| format!("{s}, ")).unwrap_or_default()
        ))),
        Some(p) => Some(ProgressEvent::Percent(p)),
        None => state.map(ProgressEvent::Stage),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mariadb_readings_show_stage_and_percent_when_the_server_has_them() {
        let state = || Some("copy to tmp table".to_string());
        assert_eq!(
            mariadb_reading(state(), 1, 2, Some(37.4)),
            Some(ProgressEvent::Stage(
                "copy to tmp table, stage 1 of 2, 37%".into()
            ))
        );
        assert_eq!(
            mariadb_reading(state(), 1, 1, Some(37.4)),
            Some(ProgressEvent::Percent(37.4))
        );
        assert_eq!(
            mariadb_reading(Some("altering table".into()), 0, 0, Some(0.0)),
            Some(ProgressEvent::Stage("altering table".into()))
        );
        assert_eq!(mariadb_reading(None, 0, 0, None), None);
    }
}
