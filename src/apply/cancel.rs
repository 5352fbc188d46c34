//! Cancelling a running DDL on the server when the run is interrupted.
//!
//! The DDL runs on the apply session; the cancel comes from a second
//! connection: `KILL QUERY <id>` of the DDL's connection (MySQL, MariaDB:
//! the server rolls the ALTER back; the connection, and with it the
//! advisory lock, survives). TiDB (assumption, not runnable here): the DDL
//! is a job that goes on without its client, so the job on the table is
//! cancelled with `ADMIN CANCEL DDL JOBS <job id>`, found in
//! `information_schema.DDL_JOBS`, and the statement with `KILL TIDB QUERY`.

use std::future::Future;
use std::time::Duration;

use mysql_async::prelude::*;
use tokio_util::sync::CancellationToken;

use crate::acquire::Opener;
use crate::db;
use crate::error::Result;
use crate::server::{DdlCancel, Flavor};

/// What cancelling a DDL needs: where to open the side connection, the
/// server kind and schema (TiDB cancels the table's job), the cancel
/// request and whether to leave the DDL to the server instead.
pub(crate) struct Canceller<'a> {
    /// Opens the side connection that sends the cancel.
    pub opener: &'a Opener,
    /// The schema the DDL runs in.
    pub schema: &'a str,
    /// The server kind.
    pub flavor: Flavor,
    /// Read timeout of the side connection.
    pub read_timeout: Duration,
    /// The run's cancel request, if it can be cancelled.
    pub token: Option<&'a CancellationToken>,
    /// On cancel, leave the DDL to the server (`--detach`).
    pub detach: bool,
}

/// How a cancellable DDL ended.
pub(crate) enum Ran<T> {
    /// It finished (well or not) without a cancel request.
    Finished(T),
    /// A cancel request came while it ran; `result` is how it ended after.
    Cancelled {
        /// The DDL's own result once cancelled; `None` when it was left to
        /// the server (`detach`) and not awaited.
        result: Option<T>,
        /// Whether the cancel reached the server.
        ddl_cancelled: bool,
    },
}

/// Why a run stops between steps: a cancel request, or a halt (the run
/// stops at the next step boundary; [`super::ApplyOptions::halt`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    Cancel,
    Halt,
}

impl Stop {
    /// How a message says it: "interrupted" or "halted".
    pub(crate) fn verb(self) -> &'static str {
        match self {
            Stop::Cancel => "interrupted",
            Stop::Halt => "halted",
        }
    }
}

/// Whether the run was asked to stop (a cancel wins over a halt).
pub(crate) fn requested(opts: &super::ApplyOptions) -> Option<Stop> {
    let fired = |t: &Option<CancellationToken>| t.as_ref().is_some_and(|t| t.is_cancelled());
    if fired(&opts.cancel) {
        Some(Stop::Cancel)
    } else if fired(&opts.halt) {
        Some(Stop::Halt)
    } else {
        None
    }
}

/// Sleeps `pause`; says why when a cancel or a halt came first.
pub(crate) async fn sleep(opts: &super::ApplyOptions, pause: Duration) -> Option<Stop> {
    let fired = |t: &Option<CancellationToken>| {
        let t = t.clone();
        async move {
            match t {
                Some(t) => t.cancelled_owned().await,
                None => std::future::pending().await,
            }
        }
    };
    tokio::select! {
        () = fired(&opts.cancel) => Some(Stop::Cancel),
        () = fired(&opts.halt) => Some(Stop::Halt),
        () = tokio::time::sleep(pause) => None,
    }
}

/// Awaits `ddl` (running on connection `conn_id`); on a cancel request,
/// cancels it on the server from a second connection (unless `detach`) and
/// awaits its end. With `detach` the DDL is not awaited: it is left to the
/// server and the run ends.
pub(crate) async fn run_cancellable<F>(
    ctx: &Canceller<'_>,
    conn_id: u32,
    table: &str,
    ddl: F,
) -> Ran<Result<()>>
where
    F: Future<Output = Result<()>>,
{
    let Some(token) = ctx.token else {
        return Ran::Finished(ddl.await);
    };
    tokio::pin!(ddl);
    tokio::select! {
        r = &mut ddl => return Ran::Finished(r),
        () = token.cancelled() => {}
    }
    if ctx.detach {
        return Ran::Cancelled {
            result: None,
            ddl_cancelled: false,
        };
    }
    let ddl_cancelled = kill(ctx, conn_id, table).await.is_ok();
    let result = ddl.await;
    Ran::Cancelled {
        result: Some(result),
        ddl_cancelled,
    }
}

/// Cancels the statement running on `conn_id` from a new connection.
async fn kill(ctx: &Canceller<'_>, conn_id: u32, table: &str) -> Result<()> {
    let mut session = ctx.opener.open(ctx.read_timeout).await?;
    // The id is this run's own connection id (a number), never catalog text.
    let result = match ctx.flavor.ddl_cancel() {
        DdlCancel::KillQuery => {
            session
                .run("cancelling the running DDL (KILL QUERY)", |c| {
                    c.query_drop(format!("KILL QUERY {conn_id}"))
                })
                .await
        }
        DdlCancel::CancelDdlJobs => tidb_cancel(&mut session, ctx.schema, table, conn_id).await,
    };
    let _ = session.disconnect().await;
    result
}

/// TiDB assumption (not runnable here): cancel the table's running or
/// queued DDL job, then the statement waiting for it.
async fn tidb_cancel(
    session: &mut db::Session<'_>,
    schema: &str,
    table: &str,
    conn_id: u32,
) -> Result<()> {
    let jobs: Vec<u64> = session
        .run("finding the table's DDL job", |c| {
            c.exec(
                "SELECT JOB_ID FROM information_schema.DDL_JOBS WHERE DB_NAME = ? \
                 AND TABLE_NAME = ? AND STATE IN ('none', 'queueing', 'running', 'pausing', 'paused')",
                (schema, table),
            )
        })
        .await?;
    for job in jobs {
        session
            .run("cancelling the DDL job (ADMIN CANCEL DDL JOBS)", |c| {
                c.query_drop(format!("ADMIN CANCEL DDL JOBS {job}"))
            })
            .await?;
    }
    session
        .run("cancelling the running DDL (KILL TIDB QUERY)", |c| {
            c.query_drop(format!("KILL TIDB QUERY {conn_id}"))
        })
        .await
}
