//! One apply step: re-read, skip or execute, accept races only when exact,
//! read back exact.

use std::time::{Duration, Instant};

use mysql_async::prelude::*;

use super::busy::{self, Blocker};
use super::cancel;
use super::progress::{self, Progress, ProgressEvent};
use super::{ApplyOptions, StepStatus};
use crate::acquire::Opener;
use crate::db::Session;
use crate::ddl::ColumnAlgorithm;
use crate::diff::{diff_table_on, Change, Problem, TableDiff};
use crate::error::Error;
use crate::inspect;
use crate::live::diff_schema;
use crate::model::Table;
use crate::plan::{step_sql, Step};
use crate::server::code;
use crate::server::Flavor;

/// Why a step did not complete.
pub(crate) enum StepError {
    /// The table drifted since preflight (or a race left another shape).
    Drift(Vec<Problem>),
    /// The step failed; message names table and object.
    Failed(String),
    /// The database failed (connection lost, timeout).
    Db(Error),
    /// The table stayed busy for the whole budget; the DDL was not started
    /// (or the server refused it with a lock wait timeout, 1205).
    Busy {
        /// Who held the table at the last look.
        blockers: Vec<Blocker>,
        /// How long the step waited.
        waited: Duration,
    },
    /// A cancel request stopped the step.
    Interrupted {
        /// A running DDL was cancelled on the server (KILL QUERY).
        ddl_cancelled: bool,
        /// A running DDL was left to the server (`detach`).
        detached: bool,
        /// What happened.
        message: String,
    },
}

impl From<Error> for StepError {
    fn from(e: Error) -> Self {
        StepError::Db(e)
    }
}

/// A step that did not complete, and whether its own DDL had already
/// changed the schema (it ran, but the read-back failed or was not exact).
pub(crate) struct StepFailure {
    /// What went wrong.
    pub error: StepError,
    /// Whether this step's DDL was executed successfully before the failure,
    /// or was sent and its outcome is unknown (the connection failed).
    pub ddl_ran: bool,
}

impl<E: Into<StepError>> From<E> for StepFailure {
    fn from(e: E) -> Self {
        StepFailure {
            error: e.into(),
            ddl_ran: false,
        }
    }
}

/// How long a step waited for a busy table, and who held it last.
#[derive(Default)]
pub(crate) struct Waits {
    /// Time spent waiting.
    pub waited: Duration,
    /// The blockers of the last look that found any.
    pub blockers: Vec<Blocker>,
}

/// Context shared by the steps of one run.
pub(crate) struct StepCtx<'a> {
    pub opener: &'a Opener,
    pub schema: &'a str,
    pub flavor: Flavor,
    pub opts: &'a ApplyOptions,
    pub number: usize,
    pub total: usize,
}

impl StepCtx<'_> {
    /// Reports `event` for `step` to the progress callback, if any.
    pub fn emit(&self, step: &Step, event: ProgressEvent) {
        if let Some(cb) = &self.opts.progress {
            cb(&Progress::of(&step.change, self.number, self.total, event));
        }
    }
}

/// What a completed step leaves: its status, the SQL that was (or would
/// have been) executed, and the last read of its table (after the DDL, or
/// the read that found it already present).
pub(crate) struct StepDone {
    pub status: StepStatus,
    pub sql: String,
    /// The table's diff as last read, for the next step on it.
    pub last: TableDiff,
    /// With [`Reads::after_all`]: the read-back was the whole catalog's
    /// (the run's final verify), each table's diff in catalog order.
    pub all: Option<Vec<TableDiff>>,
}

/// Which reads a step takes beyond the ones it must.
pub(crate) struct Reads<'a> {
    /// The table as read under the lock with no statement sent since (the
    /// preflight's, or the previous step's read-back of the same table):
    /// the first attempt decides on it instead of reading again. Any
    /// later attempt (after a wait) reads again.
    pub known: Option<TableDiff>,
    /// The read-back is the whole catalog (these tables), netted, as the
    /// final verify reads it: the last step's read-back and the final
    /// verify are one read.
    pub after_all: Option<&'a [Table]>,
}

/// Runs `step` for the catalog table `want`.
pub(crate) async fn run_step(
    ctx: &StepCtx<'_>,
    session: &mut Session<'_>,
    want: &Table,
    step: &Step,
    reads: Reads<'_>,
    waits: &mut Waits,
) -> Result<StepDone, StepFailure> {
    let started = Instant::now();
    let deadline = started + ctx.opts.busy_timeout;
    let mut attempt = 0u32;
    let mut announced = false;
    let mut known = reads.known;
    // Each attempt after a wait re-reads the table: a wait may have let
    // anything happen.
    let (result, sql) = loop {
        let before = match known.take() {
            Some(d) => d,
            None => read_diff(session, ctx.schema, want, &ctx.opts.widens).await?,
        };
        check_no_drift(&before)?;
        if !needs(&before, &step.change)? {
            return Ok(StepDone {
                status: StepStatus::AlreadyPresent,
                sql: step.sql.clone(),
                last: before,
                all: None,
            });
        }
        if !announced {
            ctx.emit(step, ProgressEvent::Started);
            announced = true;
        }
        // A new table has no holders: there is nothing to look at.
        let blockers = if matches!(step.change, Change::AddTable(_)) {
            Vec::new()
        } else {
            busy::blockers(
                session,
                ctx.schema,
                step.change.table().as_str(),
                ctx.opts.blocker_age,
            )
            .await?
        };
        if blockers.is_empty() {
            // A transport error after the statement was sent leaves its fate
            // unknown (it may have committed, or still run server-side): count it.
            let (result, sql) = execute(ctx, session, step)
                .await
                .map_err(|error| StepFailure {
                    error,
                    ddl_ran: true,
                })?;
            if !matches!(result, Err((c, _)) if code::lock_wait_timeout(c)) {
                break (result, sql);
            }
        }
        // Busy: seen before sending, or the lock wait ran out (1205; the
        // ALTER never started, so nothing is half-done). Look again to say
        // who holds it, and wait with backoff within the budget.
        let blockers = if blockers.is_empty() {
            busy::blockers(
                session,
                ctx.schema,
                step.change.table().as_str(),
                Duration::ZERO,
            )
            .await?
        } else {
            blockers
        };
        let now = Instant::now();
        waits.waited = now - started;
        if !blockers.is_empty() {
            waits.blockers.clone_from(&blockers);
        }
        if now >= deadline {
            return Err(StepError::Busy {
                blockers,
                waited: now - started,
            }
            .into());
        }
        ctx.emit(
            step,
            ProgressEvent::Waiting {
                blockers,
                waited: now - started,
            },
        );
        let pause = busy::backoff(attempt, deadline - now);
        attempt += 1;
        if let Some(stop) = cancel::sleep(ctx.opts, pause).await {
            return Err(StepError::Interrupted {
                ddl_cancelled: false,
                detached: false,
                message: format!(
                    "{} while waiting for busy table `{}`; the step was not started",
                    stop.verb(),
                    step.change.table()
                ),
            }
            .into());
        }
    };
    let status = match result {
        Ok(()) => StepStatus::Applied,
        Err((code, message)) if code::already_exists(code) => {
            if ctx.flavor.builds_indexes_in_background_jobs()
                && code::duplicate_key_name(code)
                && message.contains("background job")
            {
                wait_for_tidb_job(ctx, session, want, step).await?;
            }
            StepStatus::AcceptedRace
        }
        Err((c, message)) if code::not_online(c) => {
            return Err(StepError::Failed(format!(
                "the server cannot do this online (error {c}: {message}); refusing to take a \
                 blocking table lock. Run `{}` without the ALGORITHM/LOCK clause in a maintenance \
                 window, then rerun apply",
                shown(&sql)
            ))
            .into())
        }
        Err((c, message)) => {
            if let Some(failure) = code::build_failure(c) {
                return Err(mid_build(ctx, session, want, step, c, &message, failure).await);
            }
            return Err(StepError::Failed(format!(
                "`{}` failed: error {c}: {message}",
                shown(&sql)
            ))
            .into());
        }
    };
    let ddl_ran = status == StepStatus::Applied;
    let failed = |e: Error| StepFailure {
        error: e.into(),
        ddl_ran,
    };
    let (after, all) = match reads.after_all {
        None => (
            read_diff(session, ctx.schema, want, &ctx.opts.widens)
                .await
                .map_err(failed)?,
            None,
        ),
        Some(tables) => {
            let all = diff_schema(session, ctx.schema, tables, &ctx.opts.widens, true)
                .await
                .map_err(failed)?;
            let after = all
                .iter()
                .find(|d| d.table.folded() == want.name.folded())
                .cloned()
                .expect("the whole catalog's read holds the step's table");
            (after, Some(all))
        }
    };
    require_exact(&after, &step.change, status).map_err(|error| StepFailure { error, ddl_ran })?;
    Ok(StepDone {
        status,
        sql,
        last: after,
        all,
    })
}

/// A step the server failed in the middle of its build (1062, 1878, 1799,
/// 1114: `code::build_failure`): the message names the step, the cause
/// and the server setting involved, and says whether the object is absent
/// afterwards, as InnoDB's rollback leaves it (read back to be sure). The
/// server's own message is shown unless it carries row values (1062's
/// duplicate key).
async fn mid_build(
    ctx: &StepCtx<'_>,
    session: &mut Session<'_>,
    want: &Table,
    step: &Step,
    c: u16,
    message: &str,
    failure: code::BuildFailure,
) -> StepFailure {
    let server_said = if failure.message_has_values {
        "the server's message is not shown: it holds the key's value".to_string()
    } else {
        format!("the server said: {message}")
    };
    let (left, ddl_ran) = match read_diff(session, ctx.schema, want, &ctx.opts.widens).await {
        Ok(after) if matches!(needs(&after, &step.change), Ok(true)) => (
            format!(
                "nothing of it is left: `{}` has no {} `{}`",
                step.change.table(),
                subject_word(&step.change),
                step.change.object()
            ),
            false,
        ),
        Ok(_) => (
            format!(
                "`{}` {} `{}` is present or changed after the failure; rerun apply to read it \
                 back",
                step.change.table(),
                subject_word(&step.change),
                step.change.object()
            ),
            true,
        ),
        Err(e) => (
            format!("the table could not be read back after the failure ({e})"),
            true,
        ),
    };
    StepFailure {
        error: StepError::Failed(format!(
            "step {}/{} {} `{}`.`{}` failed mid-build: error {c} ({}): {}. Setting: {}. {left}; \
             {server_said}",
            ctx.number,
            ctx.total,
            step.change.kind(),
            step.change.table(),
            step.change.object(),
            failure.name,
            failure.cause,
            failure.setting,
        )),
        ddl_ran,
    }
}

/// `table`, `column` or `index`.
fn subject_word(change: &Change) -> &'static str {
    match change.subject() {
        crate::diff::Subject::Table => "table",
        crate::diff::Subject::Column => "column",
        crate::diff::Subject::Index => "index",
    }
}

/// Longest statement text an error message carries (characters).
const SHOWN_SQL_CHARS: usize = 300;

/// A statement as error messages show it: cut to a readable length.
fn shown(sql: &str) -> String {
    busy::cut(sql, SHOWN_SQL_CHARS)
}

pub(crate) async fn read_diff(
    session: &mut Session<'_>,
    schema: &str,
    want: &Table,
    widens: &crate::model::Widens,
) -> Result<TableDiff, Error> {
    // Netted as the preflight is: a table that gained an attribute the
    // model does not read since then is `unrecognised` drift here too.
    let have = inspect::inspect_table_with(session, schema, want.name.as_str(), true).await?;
    Ok(diff_table_on(
        want,
        have.as_ref(),
        Some(session.flavor()),
        widens,
    ))
}

fn check_no_drift(d: &TableDiff) -> Result<(), StepError> {
    let drift: Vec<Problem> = d.drift().cloned().collect();
    if drift.is_empty() {
        Ok(())
    } else {
        Err(StepError::Drift(drift))
    }
}

/// Whether the change is still needed. A table that appeared since preflight
/// is fine only when it is complete and exact (otherwise the rest of its
/// shape is not in this run's plan: stop, and let a rerun plan it).
fn needs(d: &TableDiff, change: &Change) -> Result<bool, StepError> {
    if let Change::AddTable(t) = change {
        if d.exists() && !d.is_satisfied() {
            return Err(StepError::Failed(format!(
                "table `{}` appeared during the run without its full shape; rerun apply to add the rest",
                t.name
            )));
        }
        return Ok(!d.exists());
    }
    Ok(d.changes.contains(change))
}

/// After the step, the target object must be exactly as declared, in a
/// table the net recognises (an `unrecognised` table concerns every step).
pub(crate) fn require_exact(
    d: &TableDiff,
    change: &Change,
    status: StepStatus,
) -> Result<(), StepError> {
    let wrong: Vec<Problem> = d
        .problems
        .iter()
        .filter(|p| change.concerns(p) || p.kind == crate::diff::ProblemKind::Unrecognised)
        .cloned()
        .collect();
    if wrong.is_empty() {
        return Ok(());
    }
    if status == StepStatus::AcceptedRace
        && wrong
            .iter()
            .all(|p| p.kind.severity() == crate::diff::Severity::Drift)
    {
        return Err(StepError::Drift(wrong));
    }
    Err(StepError::Failed(format!(
        "`{}` {} is not exact after the step: {}",
        change.table(),
        change.object(),
        wrong
            .iter()
            .map(Problem::to_string)
            .collect::<Vec<_>>()
            .join("; ")
    )))
}

/// A step error as one line (for a replica's read-back).
pub(crate) fn describe(e: &StepError) -> String {
    match e {
        StepError::Drift(problems) => problems
            .iter()
            .map(Problem::to_string)
            .collect::<Vec<_>>()
            .join("; "),
        StepError::Failed(message) => message.clone(),
        StepError::Db(e) => e.to_string(),
        StepError::Busy { .. } => "busy".into(),
        StepError::Interrupted { message, .. } => message.clone(),
    }
}

type Outcome = Result<(), (u16, String)>;

/// Executes the step's DDL (not bounded by the read timeout: DDL may be long),
/// with progress polling when a callback is set. MySQL/MariaDB ADD COLUMN
/// falls back from INSTANT to INPLACE/LOCK=NONE only when the server says
/// INSTANT is unsupported; never to a locking algorithm.
async fn execute(
    ctx: &StepCtx<'_>,
    session: &mut Session<'_>,
    step: &Step,
) -> Result<(Outcome, String), StepError> {
    let first = run_ddl(ctx, session, step, &step.sql).await?;
    let online_column =
        matches!(step.change, Change::AddColumn { .. }) && ctx.flavor.takes_online_clauses();
    match first {
        Err((c, _)) if online_column && code::not_online(c) => {
            let sql = step_sql(&step.change, ctx.flavor, ColumnAlgorithm::InplaceNoLock);
            let second = run_ddl(ctx, session, step, &sql).await?;
            Ok((second, sql))
        }
        other => Ok((other, step.sql.clone())),
    }
}

async fn run_ddl(
    ctx: &StepCtx<'_>,
    session: &mut Session<'_>,
    step: &Step,
    sql: &str,
) -> Result<Outcome, StepError> {
    // The chokepoint: nothing but the one statement this step calls for is sent.
    super::guard::check_statement(&step.change, sql, ctx.flavor)?;
    let conn_id = session.conn().id();
    let poller = ctx.opts.progress.as_ref().map(|cb| {
        let cb = cb.clone();
        let (number, total, change) = (ctx.number, ctx.total, step.change.clone());
        let opener = ctx.opener.clone();
        let (timeout, every) = (ctx.opts.read_timeout, ctx.opts.progress_interval);
        let watch = progress::Watch {
            flavor: ctx.flavor,
            ddl_conn_id: conn_id,
            schema: ctx.schema.to_string(),
            table: step.change.table().to_string(),
        };
        tokio::spawn(async move {
            let Ok(poll_session) = opener.open(timeout).await else {
                return;
            };
            progress::poll(poll_session, watch, every, |event| {
                cb(&Progress::of(&change, number, total, event))
            })
            .await
        })
    });
    // No deadline: DDL on a large table rightly takes long (its metadata
    // lock wait is bounded by the session's lock_wait_timeout).
    let what = format!("running `{}`", shown(sql));
    busy::ddl_limits(session, true, ctx.opts.read_timeout).await?;
    // Sent as a prepared statement (COM_STMT_PREPARE + EXECUTE, the binary
    // protocol), not as a text query: mysql_async always negotiates
    // CLIENT_MULTI_STATEMENTS, so a text query could carry a second
    // statement after a `;`, while the server prepares exactly one statement
    // and refuses anything after it. CREATE TABLE and ALTER TABLE are
    // preparable on MySQL, MariaDB and TiDB.
    //
    // The prepared DDL is closed after it ran, not kept in the
    // connection's statement cache: its table is unqualified, and the
    // server binds it to the database current at PREPARE, so a cached
    // statement executed again after the fleet moved the session to
    // another schema (`USE`) would alter the first schema's table.
    let result = {
        let ddl = session.run_within(None, &what, |c| async move {
            let stmt = c.prep(sql).await?;
            let ran = c.exec_drop(&stmt, ()).await;
            let closed = c.close(stmt).await;
            ran.and(closed)
        });
        let canceller = cancel::Canceller {
            opener: ctx.opener,
            schema: ctx.schema,
            flavor: ctx.flavor,
            read_timeout: ctx.opts.read_timeout,
            token: ctx.opts.cancel.as_ref(),
            detach: ctx.opts.detach,
        };
        cancel::run_cancellable(&canceller, conn_id, step.change.table().as_str(), ddl).await
    };
    if let Some(p) = poller {
        p.abort();
    }
    let result = match result {
        cancel::Ran::Finished(r) => r,
        cancel::Ran::Cancelled {
            result,
            ddl_cancelled,
        } => {
            let detached = result.is_none();
            let fate = match &result {
                None => {
                    "it was left running on the server (--detach); rerun apply to verify it".into()
                }
                Some(Ok(())) => "it had finished; rerun apply to verify it and go on".to_string(),
                Some(Err(Error::Database {
                    code: Some(code), ..
                })) if code::query_interrupted(*code) => {
                    "the server cancelled it; nothing of it is left; rerun apply".into()
                }
                Some(Err(e)) => format!("its outcome is unknown ({e}); rerun apply to resolve it"),
            };
            return Err(StepError::Interrupted {
                ddl_cancelled,
                detached,
                message: format!("interrupted during `{}`: {fate}", shown(sql)),
            });
        }
    };
    if result.is_ok() || matches!(&result, Err(Error::Database { code: Some(_), .. })) {
        busy::ddl_limits(session, false, ctx.opts.read_timeout).await?;
    }
    match result {
        Ok(()) => Ok(Ok(())),
        Err(Error::Database {
            code: Some(code),
            message,
            ..
        }) if !code::connection_ended(code) => Ok(Err((code, message))),
        Err(e) => Err(StepError::Failed(format!(
            "the connection was lost while `{}` ran ({e}): the step's DDL may or may not have \
             run on the server; rerun apply: it re-reads the table and resolves it",
            shown(sql)
        ))),
    }
}

/// TiDB: another client's ADD INDEX job for the same index is still running
/// (error 1061 "a background job is trying to add the same index"). The job
/// goes on server-side even when its client is gone; wait until the index
/// is public, bounded by `opts.job_wait`, then the caller verifies it exact.
/// TiDB-only path: not runnable here (no TiDB server); covered by the
/// readiness unit tests and written from TiDB's documented behaviour.
async fn wait_for_tidb_job(
    ctx: &StepCtx<'_>,
    session: &mut Session<'_>,
    want: &Table,
    step: &Step,
) -> Result<(), StepError> {
    let Change::AddIndex { index, .. } = &step.change else {
        return Ok(());
    };
    let deadline = Instant::now() + ctx.opts.job_wait;
    loop {
        let have = inspect::inspect_table(session, ctx.schema, want.name.as_str()).await?;
        if have.as_ref().and_then(|t| t.index(&index.name)).is_some() {
            return Ok(());
        }
        if Instant::now() >= deadline {
            return Err(StepError::Failed(format!(
                "TiDB's background job adding index `{}` on `{}` did not finish within {} s; \
                 check `ADMIN SHOW DDL JOBS` and rerun apply",
                index.name,
                want.name,
                ctx.opts.job_wait.as_secs()
            )));
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}
