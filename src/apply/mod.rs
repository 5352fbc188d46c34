//! `apply`: reconcile the live schema to the catalog, additively, exactly,
//! resumably, under an advisory lock (SPEC "Apply").
//!
//! Physical state is the authority: every run re-reads the tables and does
//! what is still missing, so a run killed at any point is finished by the next.

mod busy;
mod cancel;
// The execution chokepoint's statement check: public only for the
// workspace's own property test (tests/it/ddl_property.rs checks every DDL the
// renderer makes against it); not the library's API.
#[doc(hidden)]
pub mod guard;
mod lock;
/// The duplicate probe run before the first DDL (docs/apply.md).
pub mod probe;
mod progress;
/// Guarding named replicas: checked before any DDL, waited for and read
/// back after each step (docs/replicas.md).
pub mod replica;
mod replicas;
mod report;
mod step;
mod tidb_checks;

use std::time::{Duration, Instant};

use mysql_async::prelude::*;

pub use busy::Blocker;
pub(crate) use busy::{backoff, cut};
pub use lock::lock_name;
pub use progress::{Progress, ProgressEvent, ProgressFn};
pub use report::{over_budget_message, ApplyReport, Outcome, StepReport, StepStatus, Stopped};
pub use tokio_util::sync::CancellationToken;

use crate::acquire::{Connector, Opener};
use crate::db::Session;
use crate::diff;
use crate::error::{Error, Result};
use crate::live::diff_schema;
use crate::model::Table;
use crate::plan;
use crate::server::Flavor;
use replica::{ReadBack, StepReplica};
pub use replicas::survey as survey_replicas;
use replicas::{BlockerWait, Guard, GuardError};
use step::{run_step, Reads, StepCtx, StepError, StepFailure, Waits};

/// The [`ApplyOptions::on_plan`] callback.
pub type PlanFn = std::sync::Arc<dyn Fn(&ApplyReport) + Send + Sync>;

/// How apply runs: `ApplyOptions::default()` and the builder methods
/// below (one per field, same name). The fields stay readable; new ones
/// may be added, so a struct literal does not compile outside this crate:
///
/// ```
/// use std::time::Duration;
/// use schema_catalog::apply::ApplyOptions;
/// let opts = ApplyOptions::default()
///     .lock_timeout(Duration::from_secs(20))
///     .dry_run(true);
/// assert!(opts.dry_run);
/// ```
///
/// ```compile_fail,E0639
/// use schema_catalog::apply::ApplyOptions;
/// let opts = ApplyOptions { dry_run: true, ..ApplyOptions::default() };
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub struct ApplyOptions {
    /// How long to wait for the advisory lock (default 60 s).
    pub lock_timeout: Duration,
    /// Deadline for each bounded read (inspection), default 5 s.
    pub read_timeout: Duration,
    /// TiDB: how long to wait for another client's background ADD INDEX job.
    pub job_wait: Duration,
    /// Plan and preflight under the lock, but issue no DDL.
    pub dry_run: bool,
    /// Progress callback for long steps (none: no polling).
    pub progress: Option<ProgressFn>,
    /// Called once, after the preflight and before the first step's DDL is
    /// sent (not on a dry run, a refusal or a run with nothing to do), with
    /// the report as it stands: flavor, server, lock, no steps yet. A
    /// printer says what it applies to before the steps' progress.
    pub on_plan: Option<PlanFn>,
    /// How often a long step's progress is read from the server (default 500 ms).
    pub progress_interval: Duration,
    /// Metadata-lock wait of each DDL attempt (`lock_wait_timeout`), default 2 s.
    pub lock_wait: Duration,
    /// Total time one step may wait for a busy table before the run is
    /// deferred (default 300 s).
    pub busy_timeout: Duration,
    /// A session holding the table counts as a blocker once its transaction
    /// (or statement) is this old (default 1 s).
    pub blocker_age: Duration,
    /// Cancels the run: a running DDL is cancelled on the server (unless
    /// `detach`), the advisory lock released, the report says what was done.
    pub cancel: Option<CancellationToken>,
    /// On cancel, leave a running DDL to the server instead of cancelling it.
    pub detach: bool,
    /// Stops the run at the next step boundary (the fleet's `on_error:
    /// stop`): a step already sent runs to its read-back, no later step
    /// starts, a step waiting for a busy table stops waiting (its DDL was
    /// not sent). The report is [`Outcome::Interrupted`] with
    /// `ddl_cancelled: false` and a message saying it was halted.
    pub halt: Option<CancellationToken>,
    /// Replicas of the target server that must execute and read back every
    /// step before the run is converged (`--replica URL`; docs/replicas.md).
    /// Their URLs' database, if any, is ignored: the target's schema is read.
    pub replicas: Vec<crate::db::Target>,
    /// Before each step every replica must execute the primary's current
    /// GTID position within this (default 2 s); while one does not, the
    /// step waits within `busy_timeout`, then the run is deferred.
    pub max_replica_lag: Duration,
    /// After each step, how long the replicas may take to execute it before
    /// the run ends `replicas_pending` (default: `busy_timeout`).
    pub replica_timeout: Option<Duration>,
    /// Refuse before any DDL when the primary lists connected replicas that
    /// are not among `replicas`.
    pub require_replicas: bool,
    /// Before each step, the primary's and each named replica's
    /// `Threads_running` must be at most this (`--max-threads-running`;
    /// `None`, the default: not checked); waited for within
    /// `busy_timeout`, then the run is deferred.
    pub max_threads_running: Option<u64>,
    /// Two-phase ALTER (`--two-phase-alter`, MariaDB 10.8.1+; default
    /// `auto`; docs/replicas.md).
    pub two_phase_alter: replica::TwoPhaseAlter,
    /// The statement time limit of each duplicate probe (a UNIQUE index
    /// added to an existing table is probed for duplicate keys before the
    /// first DDL), as given (`--probe-timeout`). `None`, the default: scaled
    /// per table, the larger of 30 s and twice the table's estimated scan
    /// time ([`probe::scaled_limit`]). A probe the server ends at it
    /// refuses the run before any DDL, unless `skip_duplicate_probe`.
    pub probe_timeout: Option<Duration>,
    /// Do not probe for duplicates (`--skip-duplicate-probe`): each
    /// UNIQUE index is listed as skipped in the report.
    pub skip_duplicate_probe: bool,
    /// A probe that finds duplicates reports their key values too
    /// (`--show-duplicates`); by default only the number of groups, as the
    /// values may be personal data.
    pub show_duplicates: bool,
    /// Budgets on each step's estimated build and replica stall
    /// (docs/cost.md): a step over one is refused before the first DDL
    /// (`Outcome::OverBudget`). Default: none.
    pub budgets: crate::cost::Budgets,
    /// The index build rate (MB of DATA_LENGTH per second) the estimates
    /// assume; `None`: the calibration of `stats`, else the flavor's
    /// default.
    pub build_rate: Option<f64>,
    /// A `catalog stats` file (`--stats`): its calibration (rate and fixed
    /// overhead, when measured on the server's flavor) replaces the
    /// flavor's default rate in the estimates (budgets, the duplicate
    /// probe's scaled limit). Sizes are always read live.
    pub stats: Option<crate::cost::StatsReport>,
    /// The catalog's widening opt-ins ([`crate::catalog::Catalog::widens`]):
    /// a column that opted in and differs from the live one only as the
    /// rule table allows is widened online. Default: none, strictly
    /// additive. [`crate::apply()`] takes them from its catalog.
    pub widens: crate::model::Widens,
}

impl Default for ApplyOptions {
    fn default() -> Self {
        ApplyOptions {
            lock_timeout: Duration::from_secs(60),
            read_timeout: Duration::from_secs(5),
            job_wait: Duration::from_secs(3600),
            dry_run: false,
            progress: None,
            on_plan: None,
            progress_interval: Duration::from_millis(500),
            lock_wait: Duration::from_secs(2),
            busy_timeout: Duration::from_secs(300),
            blocker_age: Duration::from_secs(1),
            cancel: None,
            detach: false,
            halt: None,
            replicas: Vec::new(),
            max_replica_lag: Duration::from_secs(2),
            replica_timeout: None,
            require_replicas: false,
            max_threads_running: None,
            two_phase_alter: replica::TwoPhaseAlter::Auto,
            probe_timeout: None,
            skip_duplicate_probe: false,
            show_duplicates: false,
            budgets: crate::cost::Budgets::default(),
            build_rate: None,
            stats: None,
            widens: crate::model::Widens::none(),
        }
    }
}

/// Builder methods: each sets the field of the same name.
impl ApplyOptions {
    /// Sets [`ApplyOptions::lock_timeout`].
    pub fn lock_timeout(mut self, d: Duration) -> Self {
        self.lock_timeout = d;
        self
    }
    /// Sets [`ApplyOptions::read_timeout`].
    pub fn read_timeout(mut self, d: Duration) -> Self {
        self.read_timeout = d;
        self
    }
    /// Sets [`ApplyOptions::job_wait`].
    pub fn job_wait(mut self, d: Duration) -> Self {
        self.job_wait = d;
        self
    }
    /// Sets [`ApplyOptions::dry_run`].
    pub fn dry_run(mut self, yes: bool) -> Self {
        self.dry_run = yes;
        self
    }
    /// Sets [`ApplyOptions::progress`].
    pub fn progress(mut self, f: ProgressFn) -> Self {
        self.progress = Some(f);
        self
    }
    /// Sets [`ApplyOptions::on_plan`].
    pub fn on_plan(mut self, f: PlanFn) -> Self {
        self.on_plan = Some(f);
        self
    }
    /// Sets [`ApplyOptions::progress_interval`].
    pub fn progress_interval(mut self, d: Duration) -> Self {
        self.progress_interval = d;
        self
    }
    /// Sets [`ApplyOptions::lock_wait`].
    pub fn lock_wait(mut self, d: Duration) -> Self {
        self.lock_wait = d;
        self
    }
    /// Sets [`ApplyOptions::busy_timeout`].
    pub fn busy_timeout(mut self, d: Duration) -> Self {
        self.busy_timeout = d;
        self
    }
    /// Sets [`ApplyOptions::blocker_age`].
    pub fn blocker_age(mut self, d: Duration) -> Self {
        self.blocker_age = d;
        self
    }
    /// Sets [`ApplyOptions::cancel`].
    pub fn cancel(mut self, token: CancellationToken) -> Self {
        self.cancel = Some(token);
        self
    }
    /// Sets [`ApplyOptions::detach`].
    pub fn detach(mut self, yes: bool) -> Self {
        self.detach = yes;
        self
    }
    /// Sets [`ApplyOptions::halt`].
    pub fn halt(mut self, token: CancellationToken) -> Self {
        self.halt = Some(token);
        self
    }
    /// Sets [`ApplyOptions::replicas`].
    pub fn replicas(mut self, replicas: Vec<crate::db::Target>) -> Self {
        self.replicas = replicas;
        self
    }
    /// Sets [`ApplyOptions::max_replica_lag`].
    pub fn max_replica_lag(mut self, d: Duration) -> Self {
        self.max_replica_lag = d;
        self
    }
    /// Sets [`ApplyOptions::replica_timeout`] (`None`: `busy_timeout`).
    pub fn replica_timeout(mut self, d: impl Into<Option<Duration>>) -> Self {
        self.replica_timeout = d.into();
        self
    }
    /// Sets [`ApplyOptions::require_replicas`].
    pub fn require_replicas(mut self, yes: bool) -> Self {
        self.require_replicas = yes;
        self
    }
    /// Sets [`ApplyOptions::max_threads_running`] (`None`: no load guard).
    pub fn max_threads_running(mut self, n: impl Into<Option<u64>>) -> Self {
        self.max_threads_running = n.into();
        self
    }
    /// Sets [`ApplyOptions::probe_timeout`] (`None`: scaled by the
    /// estimate).
    pub fn probe_timeout(mut self, d: impl Into<Option<Duration>>) -> Self {
        self.probe_timeout = d.into();
        self
    }
    /// Sets [`ApplyOptions::skip_duplicate_probe`].
    pub fn skip_duplicate_probe(mut self, yes: bool) -> Self {
        self.skip_duplicate_probe = yes;
        self
    }
    /// Sets [`ApplyOptions::show_duplicates`].
    pub fn show_duplicates(mut self, yes: bool) -> Self {
        self.show_duplicates = yes;
        self
    }
    /// Sets [`ApplyOptions::two_phase_alter`].
    pub fn two_phase_alter(mut self, mode: replica::TwoPhaseAlter) -> Self {
        self.two_phase_alter = mode;
        self
    }
    /// Sets [`ApplyOptions::budgets`].
    pub fn budgets(mut self, budgets: crate::cost::Budgets) -> Self {
        self.budgets = budgets;
        self
    }
    /// Sets [`ApplyOptions::stats`].
    pub fn stats(mut self, stats: impl Into<Option<crate::cost::StatsReport>>) -> Self {
        self.stats = stats.into();
        self
    }
    /// Sets [`ApplyOptions::widens`].
    pub fn widens(mut self, widens: crate::model::Widens) -> Self {
        self.widens = widens;
        self
    }
    /// The cost options apply's estimates use: `build_rate`, else the
    /// calibration of `stats`, else the flavor's default.
    pub(crate) fn cost_options(&self) -> crate::cost::CostOptions {
        crate::cost::CostOptions {
            stats: self.stats.clone(),
            build_rate: self.build_rate,
            ..Default::default()
        }
    }
    /// Sets [`ApplyOptions::build_rate`] (`None`: the flavor's default).
    pub fn build_rate(mut self, mb_per_s: impl Into<Option<f64>>) -> Self {
        self.build_rate = mb_per_s.into();
        self
    }
}

impl std::fmt::Debug for ApplyOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ApplyOptions")
            .field("lock_timeout", &self.lock_timeout)
            .field("read_timeout", &self.read_timeout)
            .field("job_wait", &self.job_wait)
            .field("dry_run", &self.dry_run)
            .field("progress", &self.progress.is_some())
            .field("on_plan", &self.on_plan.is_some())
            .field("progress_interval", &self.progress_interval)
            .field("lock_wait", &self.lock_wait)
            .field("busy_timeout", &self.busy_timeout)
            .field("blocker_age", &self.blocker_age)
            .field("cancel", &self.cancel.is_some())
            .field("detach", &self.detach)
            .field("halt", &self.halt.is_some())
            .field(
                "replicas",
                &self
                    .replicas
                    .iter()
                    .map(|t| t.host_port())
                    .collect::<Vec<_>>(),
            )
            .field("max_replica_lag", &self.max_replica_lag)
            .field("replica_timeout", &self.replica_timeout)
            .field("require_replicas", &self.require_replicas)
            .field("max_threads_running", &self.max_threads_running)
            .field("two_phase_alter", &self.two_phase_alter)
            .field("probe_timeout", &self.probe_timeout)
            .field("skip_duplicate_probe", &self.skip_duplicate_probe)
            .field("show_duplicates", &self.show_duplicates)
            .field("budgets", &self.budgets)
            .field("build_rate", &self.build_rate)
            .field("stats", &self.stats.as_ref().map(|s| &s.calibration))
            .field("widens", &self.widens)
            .finish()
    }
}

/// Reconciles `schema` on `db` to `tables` (the catalog's tables).
///
/// `db` is a [`Connector`]: a [`crate::db::Target`] (it connects) or a
/// [`mysql_async::Pool`] (it takes connections from it; the pool needs room
/// for two at once). Apply opens connections of its own (the lock/DDL
/// session and, while a step runs, a side connection for progress reads and
/// for KILL QUERY on cancel), so a single [`mysql_async::Conn`] does not
/// compile here.
///
/// Holds the advisory lock [`lock_name`] for the whole run; refuses before
/// any DDL on drift; re-reads before and after each step; ends with a full
/// verify. Database errors (unreachable, lock held, timeout) are `Err`;
/// everything else is in the report's [`Outcome`].
pub async fn run(
    db: impl Connector,
    schema: &str,
    tables: &[Table],
    opts: &ApplyOptions,
) -> Result<ApplyReport> {
    let opener = db.opener();
    let session = db.acquire(opts.read_timeout).await?;
    let (result, session, _) = apply_on(session, &opener, schema, tables, opts).await;
    let _ = session.disconnect().await;
    result
}

/// [`run`] on `session`, whose current database is `schema` (DDL names
/// its table only). Gives the session back, and whether another target
/// may run on it: the run ended cleanly (converged, refused, dry run: no
/// statement was cut short, the session's DDL limits are back) and the
/// advisory lock was released, so the session holds nothing of this run
/// but its budgets (which the next run sets again). The fleet keeps such
/// a session for its lane's next target: no new connection, and its
/// prepared reads are prepared once per lane, not once per target.
pub(crate) async fn apply_on(
    mut session: Session<'static>,
    opener: &Opener,
    schema: &str,
    tables: &[Table],
    opts: &ApplyOptions,
) -> (Result<ApplyReport>, Session<'static>, bool) {
    // The lock is held by the session that inspects and runs the DDL: it
    // cannot be lost while the run goes on (a dead session ends the run
    // too), and it is released when the session ends, also on a kill. A
    // user-level lock survives the implicit commits of DDL.
    let retries_before = session.read_retries();
    let name = lock_name(schema);
    let acquire = lock::acquire(&mut session, &name, opts.lock_timeout);
    // An interrupt while waiting for another applier ends the wait.
    let acquired = match &opts.cancel {
        Some(token) => tokio::select! {
            r = acquire => Some(r),
            () = token.cancelled() => None,
        },
        None => Some(acquire.await),
    };
    match acquired {
        Some(Ok(())) => {}
        // Not taken: the session holds nothing, but a GET_LOCK cut short
        // by its deadline may still wait on the server.
        Some(Err(e)) => return (Err(e), session, false),
        None => {
            let flavor = session.flavor();
            let server = session.identity().clone();
            let report = ApplyReport {
                flavor,
                server,
                lock: name,
                steps: Vec::new(),
                drift: Vec::new(),
                unmanaged: Vec::new(),
                server_ddl_count: flavor.counts_session_ddl().then_some(0),
                read_retries: 0,
                outcome: Outcome::Interrupted {
                    step: None,
                    ddl_cancelled: false,
                    detached: false,
                    message: "interrupted while waiting for the advisory lock; nothing was done"
                        .into(),
                },
                replicas: Vec::new(),
                unguarded: Vec::new(),
                discovery: None,
                two_phase: None,
                duplicate_probes: Vec::new(),
            };
            // The GET_LOCK was abandoned mid-statement: not reusable.
            return (Ok(report), session, false);
        }
    }
    // After the advisory lock: GET_LOCK's own wait is a SELECT that the
    // read budget would cut short.
    let result = match start(&mut session, opts).await {
        Ok(counter_before) => {
            run_locked(
                &mut session,
                opener,
                schema,
                tables,
                opts,
                &name,
                counter_before,
            )
            .await
        }
        Err(e) => Err(e),
    };
    let result = result.map(|mut report| {
        report.read_retries = session.read_retries() - retries_before;
        report
    });
    let released = lock::release(&mut session, &name).await;
    let clean = released
        && matches!(
            &result,
            Ok(r) if matches!(r.outcome, Outcome::Converged | Outcome::RefusedDrift | Outcome::RefusedDuplicates { .. } | Outcome::DryRun)
        );
    (result, session, clean)
}

async fn run_locked(
    session: &mut Session<'_>,
    opener: &Opener,
    schema: &str,
    tables: &[Table],
    opts: &ApplyOptions,
    lock: &str,
    counter_before: Option<u64>,
) -> Result<ApplyReport> {
    let flavor = session.flavor();
    // The preflight read is netted: each existing table's SHOW CREATE
    // TABLE is compared with its inspected model, so a table with an
    // attribute the model does not read is refused (`unrecognised`), never
    // altered as if it matched.
    let diffs = diff_schema(session, schema, tables, &opts.widens, true).await?;
    let plan = plan::plan(&diffs, flavor);
    let mut report = ApplyReport {
        flavor,
        server: session.identity().clone(),
        lock: lock.to_string(),
        steps: Vec::new(),
        drift: plan.drift.clone(),
        unmanaged: plan.unmanaged.clone(),
        server_ddl_count: None,
        read_retries: 0,
        outcome: Outcome::Converged,
        replicas: Vec::new(),
        unguarded: Vec::new(),
        discovery: None,
        two_phase: None,
        duplicate_probes: Vec::new(),
    };
    if plan.is_refused() {
        report.outcome = Outcome::RefusedDrift;
        report.server_ddl_count = count_since(session, flavor, counter_before).await?;
        return Ok(report);
    }
    // Duplicates before a UNIQUE index: known before the first DDL, so
    // refused before it (also in a dry run: it is part of the preflight).
    report.duplicate_probes = probe::probe_all(session, schema, &plan, &diffs, opts).await?;
    let refusing: Vec<String> = report
        .duplicate_probes
        .iter()
        .filter(|p| p.refuses())
        .map(probe::DuplicateProbe::describe)
        .collect();
    if !refusing.is_empty() {
        let timed_out = report
            .duplicate_probes
            .iter()
            .any(|p| p.status == probe::ProbeStatus::TimedOut);
        report.outcome = Outcome::RefusedDuplicates {
            message: format!(
                "{}; no DDL was issued. {}",
                refusing.join("; "),
                if timed_out {
                    "Rerun with a longer --probe-timeout, or with --skip-duplicate-probe to \
                     build without knowing (a duplicate fails the build with error 1062)"
                } else {
                    "Remove the duplicate rows (--show-duplicates lists their keys), then rerun"
                }
            ),
        };
        report.server_ddl_count = count_since(session, flavor, counter_before).await?;
        return Ok(report);
    }
    if let Some(over) = over_budget(session, schema, tables, &plan, opts).await? {
        report.outcome = Outcome::OverBudget { steps: over };
        report.server_ddl_count = count_since(session, flavor, counter_before).await?;
        return Ok(report);
    }
    // Replicas: checked before any DDL (and in a dry run); waits are told
    // to the first step's progress.
    let first = plan.steps.first();
    let total_steps = plan.steps.len();
    let tell_first = |text: String| {
        if let (Some(step), Some(cb)) = (first, &opts.progress) {
            cb(&Progress::of(
                &step.change,
                1,
                total_steps,
                ProgressEvent::Replica(text),
            ));
        }
    };
    // Options the server cannot honour are refused before any replica is
    // connected and before any DDL.
    let server = session.server().clone();
    if opts.two_phase_alter == replica::TwoPhaseAlter::On && !server.has_binlog_alter_two_phase() {
        return Err(Error::Usage(
            replica::two_phase(opts.two_phase_alter, &server, &[])
                .expect_err("`on` without the capability is refused"),
        ));
    }
    if opts.max_threads_running.is_some() && server.threads_running_statement().is_none() {
        return Err(Error::Usage(format!(
            "--max-threads-running: the server is {server}, which has no Threads_running \
             status variable to read; leave the option out"
        )));
    }
    let mut guard = match Guard::start(session, opts, &tell_first).await {
        Ok(g) => g,
        Err(e) => {
            report.outcome = guard_outcome(e, None)?;
            report.server_ddl_count = count_since(session, flavor, counter_before)
                .await
                .ok()
                .flatten();
            return Ok(report);
        }
    };
    report.replicas = guard.checks.clone();
    report.unguarded = guard.unguarded.clone();
    report.discovery = guard.discovery.clone();
    report.two_phase = replica::two_phase(opts.two_phase_alter, &server, &guard.checks).ok();
    let result = run_steps(
        session,
        opener,
        schema,
        tables,
        opts,
        &plan,
        diffs,
        &mut guard,
        &mut report,
        counter_before,
    )
    .await;
    guard.close().await;
    result.map(|()| report)
}

/// The steps whose estimate exceeds a budget (`None`: no budget set, or
/// none over). The sizes are read live, bounded by the tables the plan
/// alters, before the first DDL.
async fn over_budget(
    session: &mut Session<'_>,
    schema: &str,
    tables: &[Table],
    plan: &plan::Plan,
    opts: &ApplyOptions,
) -> Result<Option<Vec<crate::cost::OverBudget>>> {
    if !opts.budgets.any() || plan.steps.is_empty() {
        return Ok(None);
    }
    let cost = crate::cost::plan_cost(session, schema, tables, plan, &opts.cost_options()).await?;
    let over: Vec<crate::cost::OverBudget> = plan
        .steps
        .iter()
        .zip(&cost.steps)
        .filter_map(|(s, c)| opts.budgets.check(&crate::cost::step_name(&s.change), c))
        .collect();
    Ok((!over.is_empty()).then_some(over))
}

/// The run's outcome when the replica guard stopped it (`step`: the step
/// it stopped before); a database error of the primary stays an error.
fn guard_outcome(e: GuardError, step: Option<String>) -> Result<Outcome> {
    Ok(match e {
        GuardError::Refused { replica, message } => Outcome::RefusedReplica { replica, message },
        GuardError::Behind { replicas, waited } => Outcome::ReplicaDeferred {
            step,
            replicas,
            waited_ms: waited.as_millis() as u64,
        },
        GuardError::Overloaded { servers, waited } => Outcome::Overloaded {
            step,
            servers,
            waited_ms: waited.as_millis() as u64,
        },
        GuardError::Interrupted(message) => Outcome::Interrupted {
            step,
            ddl_cancelled: false,
            detached: false,
            message,
        },
        GuardError::Db(e) => return Err(e),
    })
}

/// The steps of a run that passed its preflight and replica checks, and
/// the final verify (on the primary and on every named replica).
#[allow(clippy::too_many_arguments)]
async fn run_steps(
    session: &mut Session<'_>,
    opener: &Opener,
    schema: &str,
    tables: &[Table],
    opts: &ApplyOptions,
    plan: &plan::Plan,
    diffs: Vec<diff::TableDiff>,
    guard: &mut Guard,
    report: &mut ApplyReport,
    counter_before: Option<u64>,
) -> Result<()> {
    let flavor = session.flavor();
    tidb_checks::require_switch(session, flavor, &plan.steps).await?;
    if opts.dry_run {
        report.steps = plan
            .steps
            .iter()
            .map(|s| step_report(s, s.sql.clone(), StepStatus::Planned, 0, Waits::default()))
            .collect();
        report.outcome = Outcome::DryRun;
        report.server_ddl_count = count_since(session, flavor, counter_before).await?;
        return Ok(());
    }
    let total = plan.steps.len();
    if let (Some(on_plan), true) = (&opts.on_plan, total > 0) {
        on_plan(report);
    }
    // Each step's table by folded name, not searched per step (docs/scale.md).
    let by_name: std::collections::HashMap<&str, &Table> =
        tables.iter().map(|t| (t.name.folded(), t)).collect();
    // Reads taken under the lock with no DDL sent since, by folded table
    // name: a step decides on its table's without reading it again (the
    // preflight's for the first step, a step's read-back for the next step
    // on the same table). A DDL sent or a wait empties it.
    let mut fresh: std::collections::HashMap<String, diff::TableDiff> = diffs
        .iter()
        .map(|d| (d.table.folded().to_string(), d.clone()))
        .collect();
    // The last step's read-back, when its DDL ran: the whole catalog's,
    // which is the final verify too.
    let mut final_read: Option<Vec<diff::TableDiff>> = None;
    for (i, step) in plan.steps.iter().enumerate() {
        if let Some(stop) = cancel::requested(opts) {
            report.outcome = Outcome::Interrupted {
                step: Some(step_name(step)),
                ddl_cancelled: false,
                detached: false,
                message: format!(
                    "{} before step {} of {total} ({}); it was not started",
                    stop.verb(),
                    i + 1,
                    step_name(step)
                ),
            };
            report.server_ddl_count = count_since(session, flavor, counter_before)
                .await
                .ok()
                .flatten();
            return Ok(());
        }
        let want = by_name
            .get(step.change.table().folded())
            .copied()
            .expect("a plan step's table comes from the catalog");
        let ctx = StepCtx {
            opener,
            schema,
            flavor,
            opts,
            number: i + 1,
            total,
        };
        let started = Instant::now();
        // Replicas first: each must have executed the primary's position
        // within the lag budget before the step may send its DDL.
        let tell = |text: String| ctx.emit(step, ProgressEvent::Replica(text));
        let lag = match guard.before_step(session, opts, &tell).await {
            Ok(lag) => lag,
            Err(e) => {
                return stop_before_step(report, session, counter_before, step, started, e).await;
            }
        };
        // A new table has no holders and a new column is INSTANT (no
        // metadata-lock wait of note on the replica): the other steps look
        // for the replicas' blockers as for the primary's.
        let replayed_long = !matches!(
            step.change,
            diff::Change::AddTable(_) | diff::Change::AddColumn { .. }
        );
        let held = if replayed_long && !guard.is_empty() {
            match guard
                .blockers(schema, step.change.table().as_str(), opts, &tell)
                .await
            {
                Ok(held) => held,
                Err(e) => {
                    return stop_before_step(report, session, counter_before, step, started, e)
                        .await;
                }
            }
        } else {
            BlockerWait::default()
        };
        // The load guard: the primary's and every replica's Threads_running
        // at most the limit, waited for like a busy table.
        let loaded_ms = match opts.max_threads_running {
            Some(limit) => match guard.load(session, limit, opts, &tell).await {
                Ok(ms) => ms,
                Err(e) => {
                    return stop_before_step(report, session, counter_before, step, started, e)
                        .await;
                }
            },
            None => 0,
        };
        if held.waited_ms > 0 || loaded_ms > 0 || lag.iter().any(|ms| *ms > 0) {
            fresh.clear();
        }
        // Two-phase ALTER: set for every ALTER on a server that has it, so a
        // reused session never carries an earlier step's setting.
        let two_phase = report.two_phase.as_ref().is_some_and(|t| t.on) && inplace_alter(step);
        if session.server().has_binlog_alter_two_phase()
            && !matches!(step.change, diff::Change::AddTable(_))
            && opts.two_phase_alter != replica::TwoPhaseAlter::Off
        {
            let sql = crate::server::replica::two_phase_statement(two_phase);
            session
                .run("setting binlog_alter_two_phase", |c| c.query_drop(sql))
                .await?;
        }
        let mut waits = Waits::default();
        let reads = Reads {
            known: fresh.remove(want.name.folded()),
            after_all: (i + 1 == total).then_some(tables),
        };
        let result = run_step(&ctx, session, want, step, reads, &mut waits).await;
        let ms = started.elapsed().as_millis() as u64;
        let earlier_ddl = report.steps.iter().any(|s| s.status == StepStatus::Applied);
        match result {
            Ok(done) => {
                if done.status != StepStatus::AlreadyPresent || !waits.waited.is_zero() {
                    fresh.clear();
                }
                fresh.insert(want.name.folded().to_string(), done.last);
                final_read = done.all;
                let mut step_rep = step_report(step, done.sql, done.status, ms, waits);
                step_rep.two_phase = two_phase && done.status == StepStatus::Applied;
                step_rep.replica_blocker_waited_ms = held.waited_ms;
                let before = Before {
                    lag: &lag,
                    held: &held,
                };
                let after =
                    on_replicas(session, schema, want, step, opts, guard, &before, &tell).await;
                let (replicas, stop) = match after {
                    Ok(after) => after,
                    Err(e) => {
                        report.steps.push(step_rep);
                        report.outcome = guard_outcome(e, Some(step_name(step)))?;
                        report.server_ddl_count = count_since(session, flavor, counter_before)
                            .await
                            .ok()
                            .flatten();
                        return Ok(());
                    }
                };
                step_rep.replicas = replicas;
                step_rep.ms = started.elapsed().as_millis() as u64;
                report.steps.push(step_rep);
                if let Some(outcome) = stop {
                    report.outcome = outcome;
                    report.server_ddl_count = count_since(session, flavor, counter_before)
                        .await
                        .ok()
                        .flatten();
                    return Ok(());
                }
                ctx.emit(step, ProgressEvent::Finished(done.status));
            }
            Err(StepFailure { error, ddl_ran }) => {
                let ddl_issued = earlier_ddl || ddl_ran;
                let status = match &error {
                    // Not started: the step is not a failure of its own.
                    StepError::Busy { .. } => StepStatus::Deferred,
                    StepError::Interrupted { .. } => StepStatus::Interrupted,
                    _ => StepStatus::Failed,
                };
                let mut step_rep = step_report(step, step.sql.clone(), status, ms, waits);
                // What was waited on the replicas before it, still told.
                step_rep.replica_blocker_waited_ms = held.waited_ms;
                step_rep.replicas = guard
                    .sessions()
                    .enumerate()
                    .map(|(i, (name, _))| step_replica(name, i, &lag, &held))
                    .collect();
                report.steps.push(step_rep);
                report.outcome = match error {
                    StepError::Drift(problems) => {
                        let message = format!(
                            "table `{}` drifted during the run: {}",
                            step.change.table(),
                            problems
                                .iter()
                                .map(ToString::to_string)
                                .collect::<Vec<_>>()
                                .join("; ")
                        );
                        report.drift = problems;
                        Outcome::Stopped {
                            message,
                            ddl_issued,
                        }
                    }
                    StepError::Failed(message) => Outcome::Stopped {
                        message,
                        ddl_issued,
                    },
                    StepError::Busy { blockers, waited } => Outcome::Deferred {
                        table: step.change.table().to_string(),
                        blockers,
                        waited_ms: waited.as_millis() as u64,
                    },
                    StepError::Interrupted {
                        ddl_cancelled,
                        detached,
                        message,
                    } => Outcome::Interrupted {
                        step: Some(step_name(step)),
                        ddl_cancelled,
                        detached,
                        message,
                    },
                    // The connection failed mid-run: the report still says
                    // what was done; the counter may be unreadable now.
                    StepError::Db(e) => Outcome::Stopped {
                        message: e.to_string(),
                        ddl_issued,
                    },
                };
                report.server_ddl_count = count_since(session, flavor, counter_before)
                    .await
                    .ok()
                    .flatten();
                return Ok(());
            }
        }
    }
    // With no step, nothing was sent since the preflight read: it is the
    // final verify (the same statements would read the same thing again).
    // When the last step's DDL ran, its read-back was the whole catalog's,
    // taken after it: that read is the final verify. Otherwise the final
    // verify is read now. Either way it is netted as the preflight is, so
    // apply says `converged` only of tables `plan` and `verify --strict`
    // accept.
    let final_diffs = if plan.steps.is_empty() {
        diffs
    } else if let Some(read) = final_read {
        read
    } else {
        diff_schema(session, schema, tables, &opts.widens, true).await?
    };
    let left: Vec<String> = final_diffs
        .iter()
        .flat_map(|d| d.problems.iter().map(ToString::to_string))
        .collect();
    if !left.is_empty() {
        report.outcome = Outcome::Stopped {
            message: format!("final verify failed: {}", left.join("; ")),
            ddl_issued: report.steps.iter().any(|s| s.status == StepStatus::Applied),
        };
    }
    if left.is_empty() && !guard.is_empty() {
        final_on_replicas(session, schema, tables, opts, guard, report).await?;
    }
    report.server_ddl_count = count_since(session, flavor, counter_before).await?;
    Ok(())
}

/// After a step: waits for every named replica to execute the primary's
/// position (read right after the step) and reads the step's object back
/// on each, exactly as on the primary. Gives each replica's record and
/// the outcome that ends the run, if one does (`replicas_pending`, or a
/// replica that executed the step and does not read back exact).
#[allow(clippy::too_many_arguments)]
async fn on_replicas(
    session: &mut Session<'_>,
    schema: &str,
    want: &Table,
    step: &plan::Step,
    opts: &ApplyOptions,
    guard: &mut Guard,
    before: &Before<'_>,
    tell: &(dyn Fn(String) + Sync),
) -> std::result::Result<(Vec<StepReplica>, Option<Outcome>), GuardError> {
    if guard.is_empty() {
        return Ok((Vec::new(), None));
    }
    let (position, caught, behind) = guard.after_step(session, opts, tell).await?;
    let mut records = Vec::new();
    let mut wrong = Vec::new();
    for (i, (name, replica)) in guard.sessions().enumerate() {
        let caught_up = caught.get(i).copied().flatten();
        let read_back = if caught_up.is_none() {
            ReadBack::Pending
        } else {
            match step::read_diff(replica, schema, want, &opts.widens).await {
                Ok(d) => match step::require_exact(&d, &step.change, StepStatus::Applied) {
                    Ok(()) => ReadBack::Exact,
                    Err(e) => {
                        wrong.push(format!("replica {name}: {}", step::describe(&e)));
                        ReadBack::NotExact
                    }
                },
                Err(e) => {
                    wrong.push(format!("replica {name}: the read-back failed: {e}"));
                    ReadBack::NotExact
                }
            }
        };
        records.push(StepReplica {
            caught_up_ms: caught_up,
            position: position.clone(),
            read_back,
            ..step_replica(name, i, before.lag, before.held)
        });
    }
    let outcome = if !wrong.is_empty() {
        Some(Outcome::Stopped {
            message: format!(
                "step {} executed on the replica but does not read back exact: {}",
                step_name(step),
                wrong.join("; ")
            ),
            ddl_issued: true,
        })
    } else if !behind.is_empty() {
        Some(Outcome::ReplicasPending {
            step: Some(step_name(step)),
            replicas: behind,
        })
    } else {
        None
    };
    Ok((records, outcome))
}

/// What a step waited on the replicas before its DDL: the lag per replica
/// (milliseconds) and the sessions holding its table.
struct Before<'a> {
    lag: &'a [u64],
    held: &'a BlockerWait,
}

/// Replica `i` (`name`) around a step, as known before the step's DDL: its
/// lag and blocker waits; not read back (yet).
fn step_replica(name: &str, i: usize, lag: &[u64], held: &BlockerWait) -> StepReplica {
    let (blocker_waited_ms, blocked_by) = held.per_replica.get(i).cloned().unwrap_or_default();
    StepReplica {
        replica: name.to_string(),
        lag_waited_ms: lag.get(i).copied().unwrap_or(0),
        blocker_waited_ms,
        blocked_by,
        caught_up_ms: None,
        position: String::new(),
        read_back: ReadBack::NotRead,
    }
}

/// The final verify on every named replica: once each has executed the
/// primary's position, the whole catalog is read on it, netted, as on the
/// primary. Sets the report's outcome when a replica is behind or does not
/// satisfy the catalog. A rerun with nothing left to do on the primary
/// converges here.
async fn final_on_replicas(
    session: &mut Session<'_>,
    schema: &str,
    tables: &[Table],
    opts: &ApplyOptions,
    guard: &mut Guard,
    report: &mut ApplyReport,
) -> Result<()> {
    let first = report
        .steps
        .last()
        .map(|s| (s.table.clone(), s.kind, s.object.clone()));
    let progress = opts.progress.clone();
    let total = report.steps.len();
    let tell = move |text: String| {
        if let (Some(cb), Some((table, kind, object))) = (&progress, &first) {
            cb(&Progress {
                step: total,
                steps: total,
                table: table.clone(),
                object: object.clone(),
                kind,
                event: ProgressEvent::Replica(text),
            });
        }
    };
    let (_, _, behind) = match guard.after_step(session, opts, &tell).await {
        Ok(r) => r,
        Err(e) => {
            report.outcome = guard_outcome(e, None)?;
            return Ok(());
        }
    };
    if !behind.is_empty() {
        report.outcome = Outcome::ReplicasPending {
            step: None,
            replicas: behind,
        };
        return Ok(());
    }
    let mut left = Vec::new();
    for (name, replica) in guard.sessions() {
        let diffs = diff_schema(replica, schema, tables, &opts.widens, true)
            .await
            .map_err(|e| e.with_context(&format!(" (on replica {name})")))?;
        for p in diffs.iter().flat_map(|d| d.problems.iter()) {
            left.push(format!("replica {name}: {p}"));
        }
    }
    if !left.is_empty() {
        report.outcome = Outcome::Stopped {
            message: format!("final verify failed on a replica: {}", left.join("; ")),
            ddl_issued: report.steps.iter().any(|s| s.status == StepStatus::Applied),
        };
    }
    Ok(())
}

/// `interrupted` or `halted` when the run was asked to stop.
pub(crate) fn stop_requested(opts: &ApplyOptions) -> Option<&'static str> {
    cancel::requested(opts).map(cancel::Stop::verb)
}

/// Sleeps `pause`; `interrupted` or `halted` when a stop came first.
pub(crate) async fn sleep_unless_stopped(
    opts: &ApplyOptions,
    pause: Duration,
) -> Option<&'static str> {
    cancel::sleep(opts, pause).await.map(cancel::Stop::verb)
}

/// Ends the run before `step` sent its DDL because a replica held it up
/// (behind, holding the table, gone) or the run was interrupted while
/// waiting: the step is reported deferred or interrupted, not failed.
async fn stop_before_step(
    report: &mut ApplyReport,
    session: &mut Session<'_>,
    counter_before: Option<u64>,
    step: &plan::Step,
    started: Instant,
    e: GuardError,
) -> Result<()> {
    let status = match e {
        GuardError::Interrupted(_) => StepStatus::Interrupted,
        _ => StepStatus::Deferred,
    };
    let ms = started.elapsed().as_millis() as u64;
    report.steps.push(step_report(
        step,
        step.sql.clone(),
        status,
        ms,
        Waits::default(),
    ));
    report.outcome = guard_outcome(e, Some(step_name(step)))?;
    report.server_ddl_count = count_since(session, report.flavor, counter_before)
        .await
        .ok()
        .flatten();
    Ok(())
}

/// Whether the step is an ALTER the server builds INPLACE, not INSTANT (an
/// index, an INPLACE widening): the ones a replica replays for about as
/// long as the primary built them. A new column is tried INSTANT first.
fn inplace_alter(step: &plan::Step) -> bool {
    match &step.change {
        diff::Change::AddIndex { .. } => true,
        diff::Change::WidenColumn { how, .. } => {
            how.algorithm == crate::diff::WidenAlgorithm::InplaceNoLock
        }
        diff::Change::AddTable(_) | diff::Change::AddColumn { .. } => false,
    }
}

/// `table`.`object` (just `table` for a new table), for messages.
fn step_name(step: &plan::Step) -> String {
    let table = crate::ident::quote_ident(step.change.table().as_str());
    if step.change.kind() == "create_table" {
        table
    } else {
        format!(
            "{table}.{}",
            crate::ident::quote_ident(step.change.object().as_str())
        )
    }
}

fn step_report(
    step: &plan::Step,
    sql: String,
    status: StepStatus,
    ms: u64,
    waits: Waits,
) -> StepReport {
    StepReport {
        waited_ms: waits.waited.as_millis() as u64,
        blocked_by: waits.blockers,
        replica_blocker_waited_ms: 0,
        replicas: Vec::new(),
        two_phase: false,
        table: step.change.table().to_string(),
        kind: step.change.kind(),
        object: step.change.object().to_string(),
        sql,
        status,
        ms,
    }
}

/// The session's DDL counters (`Com_create_table` + `Com_alter_table`).
const DDL_COUNTERS: &str =
    "SHOW SESSION STATUS WHERE Variable_name IN ('Com_create_table', 'Com_alter_table')";

fn counter_sum(rows: &[(String, String)]) -> u64 {
    rows.iter().filter_map(|(_, v)| v.parse::<u64>().ok()).sum()
}

/// Sets the session's lock and statement budgets and reads its DDL
/// counters, in one round trip: one text-protocol query of the two
/// constant statements (the SET's result is empty, the SHOW's rows follow).
/// TiDB keeps no per-session DDL counters: the budgets only, `None`.
///
/// From then on the server itself ends a read at the read budget, which
/// leaves the connection clean, so apply's reads are tried again within the
/// busy budget ([`Session::retry_reads_within`]); the client's deadline is
/// a backstop [`CLIENT_GRACE`] past the server's.
async fn start(session: &mut Session<'_>, opts: &ApplyOptions) -> Result<Option<u64>> {
    let counters = set_budgets(session, opts).await?;
    session.set_timeout(opts.read_timeout.max(Duration::from_secs(1)) + CLIENT_GRACE);
    session.retry_reads_within(Some(opts.busy_timeout));
    Ok(counters)
}

/// Gives a read-only session (fleet verify's) apply's read budgets: the
/// server ends a read at `opts.read_timeout`, and such a read is tried
/// again within `opts.busy_timeout`, as apply's own reads are; the
/// client's deadline is a backstop [`CLIENT_GRACE`] past the server's.
/// One round trip (one text-protocol statement of constant settings).
pub(crate) async fn read_budgets(session: &mut Session<'_>, opts: &ApplyOptions) -> Result<()> {
    let budgets = busy::budgets_statement(session.flavor(), opts.lock_wait, opts.read_timeout);
    session
        .run("setting the session's lock and statement budgets", |c| {
            c.query_drop(budgets)
        })
        .await?;
    session.set_timeout(opts.read_timeout.max(Duration::from_secs(1)) + CLIENT_GRACE);
    session.retry_reads_within(Some(opts.busy_timeout));
    Ok(())
}

/// How far past the server's read budget the client's own deadline lies:
/// long enough for the server's error to arrive on a busy machine.
const CLIENT_GRACE: Duration = Duration::from_secs(2);

async fn set_budgets(session: &mut Session<'_>, opts: &ApplyOptions) -> Result<Option<u64>> {
    let flavor = session.flavor();
    let budgets = busy::budgets_statement(flavor, opts.lock_wait, opts.read_timeout);
    if !flavor.counts_session_ddl() {
        session
            .run("setting the session's lock and statement budgets", |c| {
                c.query_drop(budgets)
            })
            .await?;
        return Ok(None);
    }
    let sql = format!("{budgets}; {DDL_COUNTERS}");
    let rows: Vec<(String, String)> = session
        .run(
            "setting the session's lock and statement budgets and reading its DDL counters",
            |c| async move {
                let mut result = c.query_iter(sql).await?;
                let _: Vec<mysql_async::Row> = result.collect().await?;
                let rows = result.collect().await?;
                result.drop_result().await?;
                Ok(rows)
            },
        )
        .await?;
    Ok(Some(counter_sum(&rows)))
}

/// The session's DDL counters now. TiDB does not keep these per session:
/// `None` there.
async fn ddl_counter(session: &mut Session<'_>, flavor: Flavor) -> Result<Option<u64>> {
    if !flavor.counts_session_ddl() {
        return Ok(None);
    }
    let rows: Vec<(String, String)> = session
        .run("reading session DDL counters", |c| c.query(DDL_COUNTERS))
        .await?;
    Ok(Some(counter_sum(&rows)))
}

async fn count_since(
    session: &mut Session<'_>,
    flavor: Flavor,
    before: Option<u64>,
) -> Result<Option<u64>> {
    let after = ddl_counter(session, flavor).await?;
    Ok(before.zip(after).map(|(b, a)| a.saturating_sub(b)))
}
