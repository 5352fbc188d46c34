//! Running a fleet: stages in order, server lanes in parallel, each target
//! through the same single-target engine as `catalog apply` / `plan` /
//! `verify` (the same lock, busy rules, interrupts and exactness).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::stream::{self, StreamExt};

use super::file::{FleetFile, OnError};
use super::report::{
    exit_code, FleetCommand, FleetReport, ServerReport, StageReport, Summary, TargetOutcome,
    TargetReport,
};
use super::targets::{self, ServerState, Target};
use crate::apply::{self, ApplyOptions, ApplyReport, CancellationToken, Outcome, StepStatus};
use crate::catalog::Catalog;
use crate::db;
use crate::error::Result;
use chunk::Purpose;

mod chunk;

/// What the caller hears while the run goes on.
#[derive(Debug)]
pub enum FleetEvent<'a> {
    /// The servers were read; the run starts.
    Planned {
        /// Each server with its target count.
        servers: &'a [ServerReport],
    },
    /// A target started.
    Started {
        /// Index of its server.
        server: usize,
        /// `host:port/schema`.
        name: &'a str,
    },
    /// A target finished (or was not started).
    Finished {
        /// Index of its server.
        server: usize,
        /// Its report.
        report: &'a TargetReport,
    },
}

/// The event callback.
pub type EventFn = Arc<dyn Fn(&FleetEvent<'_>) + Send + Sync>;

/// How a fleet runs: `FleetOptions::default()` (plan, no DDL) and the
/// builder methods (one per field, same name); new fields may be added.
#[derive(Clone)]
#[non_exhaustive]
pub struct FleetOptions {
    /// What runs on each target.
    pub command: FleetCommand,
    /// apply's options for each target (its `cancel` is ignored: the fleet
    /// passes [`FleetOptions::cancel`] to every target).
    pub apply: ApplyOptions,
    /// Deadline for connecting and each read.
    pub timeout: Duration,
    /// verify: only this consumer's part of the catalog.
    pub consumer: Option<String>,
    /// Cancels the run: running DDL is cancelled on every target, nothing
    /// new starts, the report says what was done.
    pub cancel: CancellationToken,
    /// Progress events.
    pub events: Option<EventFn>,
}

impl Default for FleetOptions {
    fn default() -> Self {
        FleetOptions {
            command: FleetCommand::Plan,
            apply: ApplyOptions::default(),
            timeout: Duration::from_secs(5),
            consumer: None,
            cancel: CancellationToken::new(),
            events: None,
        }
    }
}

impl FleetOptions {
    /// Sets [`FleetOptions::command`].
    pub fn command(mut self, command: FleetCommand) -> Self {
        self.command = command;
        self
    }
    /// Sets [`FleetOptions::apply`].
    pub fn apply(mut self, apply: ApplyOptions) -> Self {
        self.apply = apply;
        self
    }
    /// Sets [`FleetOptions::timeout`].
    pub fn timeout(mut self, d: Duration) -> Self {
        self.timeout = d;
        self
    }
    /// Sets [`FleetOptions::consumer`].
    pub fn consumer(mut self, consumer: Option<String>) -> Self {
        self.consumer = consumer;
        self
    }
    /// Sets [`FleetOptions::cancel`].
    pub fn cancel(mut self, token: CancellationToken) -> Self {
        self.cancel = token;
        self
    }
    /// Sets [`FleetOptions::events`].
    pub fn events(mut self, f: Option<EventFn>) -> Self {
        self.events = f;
        self
    }
}

impl std::fmt::Debug for FleetOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FleetOptions")
            .field("command", &self.command)
            .field("apply", &self.apply)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

struct Ctx<'a> {
    fleet: &'a FleetFile,
    catalog: &'a Catalog,
    opts: &'a FleetOptions,
    states: &'a [ServerState],
    stage_names: Vec<String>,
    /// Fired by a refusal, deferral or failure under `on_error: stop`: no
    /// target starts after it, a running apply stops at its next step
    /// boundary ([`ApplyOptions::halt`]).
    halt: CancellationToken,
    t0: Instant,
    /// verify: idle sessions per server, reused from one schema to the next
    /// (each read names its schema), so a target costs its inspection only.
    idle: Vec<Mutex<Vec<db::Session<'static>>>>,
    /// The catalog's tables, for apply and plan.
    tables: Vec<crate::model::Table>,
    /// Their widening opt-ins (the catalog's policy), for apply and plan.
    widens: crate::model::Widens,
}

impl Ctx<'_> {
    fn emit(&self, e: &FleetEvent<'_>) {
        if let Some(f) = &self.opts.events {
            f(e);
        }
    }
}

/// Runs `opts.command` on every target of `fleet`, stage by stage.
pub async fn run(fleet: &FleetFile, catalog: &Catalog, opts: &FleetOptions) -> FleetReport {
    let t0 = Instant::now();
    let stage_specs = targets::stages(fleet);
    let states = targets::read_servers(fleet, opts.timeout).await;
    let (targets, left) = targets::assign(fleet, &stage_specs, &states);
    let servers: Vec<ServerReport> = fleet
        .servers
        .iter()
        .zip(&states)
        .map(|(s, st)| ServerReport {
            name: s.name.clone(),
            address: s.target.host_port(),
            group: s.group.clone(),
            identity: st.identity.clone(),
            targets: st.schemas.len(),
            replicas: s.replicas.iter().map(|r| r.host_port()).collect(),
            error: st.error.clone(),
        })
        .collect();
    let ctx = Ctx {
        fleet,
        catalog,
        opts,
        states: &states,
        stage_names: stage_specs.iter().map(|s| s.name.clone()).collect(),
        halt: CancellationToken::new(),
        t0,
        idle: fleet
            .servers
            .iter()
            .map(|_| Mutex::new(Vec::new()))
            .collect(),
        tables: catalog.tables.iter().map(|t| t.table.clone()).collect(),
        widens: catalog.widens(),
    };
    ctx.emit(&FleetEvent::Planned { servers: &servers });
    let mut reports: Vec<TargetReport> = Vec::new();
    let mut stages = Vec::new();
    let mut stop = false;
    for (i, spec) in stage_specs.iter().enumerate() {
        let mine: Vec<&Target> = targets.iter().filter(|t| t.stage == i).collect();
        let started = Instant::now();
        if stop || opts.cancel.is_cancelled() {
            let why = if opts.cancel.is_cancelled() {
                "the run was interrupted before this stage".to_string()
            } else {
                "an earlier stage did not succeed; later stages do not start".to_string()
            };
            for t in &mine {
                let r = ctx.not_started(t, why.clone());
                ctx.emit(&FleetEvent::Finished {
                    server: t.server,
                    report: &r,
                });
                reports.push(r);
            }
            stages.push(StageReport {
                name: spec.name.clone(),
                targets: mine.len(),
                ran: false,
                ok: false,
                ms: 0,
            });
            continue;
        }
        let done = ctx.run_stage(&mine).await;
        let ok = done.iter().all(|r| r.outcome.is_success());
        // Stages guard changes: a read-only run (plan, verify) reads every
        // stage, so a failing canary does not hide the rest of its report.
        stop = !ok && opts.command == FleetCommand::Apply;
        stages.push(StageReport {
            name: spec.name.clone(),
            targets: mine.len(),
            ran: true,
            ok,
            ms: started.elapsed().as_millis() as u64,
        });
        reports.extend(done);
    }
    for (server, schema) in left {
        let t = Target {
            server,
            schema,
            stage: usize::MAX,
        };
        let r = ctx.not_started(&t, "no stage of the fleet file takes this target".into());
        ctx.emit(&FleetEvent::Finished { server, report: &r });
        reports.push(r);
    }
    for idle in &ctx.idle {
        let sessions = std::mem::take(&mut *idle.lock().unwrap_or_else(|e| e.into_inner()));
        for session in sessions {
            let _ = session.disconnect().await;
        }
    }
    let summary = Summary::of(&reports, &servers);
    let interrupted = opts.cancel.is_cancelled();
    FleetReport {
        command: opts.command,
        file: fleet.path.display().to_string(),
        on_error: match fleet.on_error {
            OnError::Stop => "stop",
            OnError::Continue => "continue",
        }
        .into(),
        parallel_servers: fleet.parallel.servers,
        parallel_per_server: fleet.parallel.per_server,
        interrupted,
        servers,
        stages,
        exit_code: exit_code(&summary, interrupted.then_some(130)),
        targets: reports,
        summary,
        ms: t0.elapsed().as_millis() as u64,
    }
}

impl Ctx<'_> {
    /// One stage: the servers' lanes at once (up to `parallel.servers`),
    /// each lane its targets `parallel.per_server` at a time.
    async fn run_stage(&self, mine: &[&Target]) -> Vec<TargetReport> {
        let mut lanes: Vec<Vec<&Target>> = vec![Vec::new(); self.fleet.servers.len()];
        for t in mine {
            lanes[t.server].push(t);
        }
        let lanes: Vec<Vec<TargetReport>> =
            stream::iter(lanes.into_iter().filter(|l| !l.is_empty()))
                .map(|lane| async move { self.run_lane(&lane).await })
                .buffered(self.fleet.parallel.servers)
                .collect()
                .await;
        lanes.into_iter().flatten().collect()
    }

    /// One server's targets of a stage: verify and plan read them a chunk
    /// at a time, each chunk together on one session; apply reads them so
    /// first and runs apply on the targets that read did not find
    /// converged (`chunk`). `per_server` at a time.
    async fn run_lane(&self, lane: &[&Target]) -> Vec<TargetReport> {
        let per_server = self.fleet.parallel.per_server;
        let purpose = match self.opts.command {
            FleetCommand::Verify => Some(Purpose::Verify),
            FleetCommand::Plan => Some(Purpose::Plan),
            // A dry run reports apply's planned steps: every target runs.
            // With replicas (or replicas required) every target runs apply:
            // converged on the server is not converged on its replicas, and
            // only apply checks them.
            FleetCommand::Apply if !self.opts.apply.dry_run && !self.guards_replicas(lane) => {
                Some(Purpose::Apply)
            }
            _ => None,
        };
        let read: Vec<Option<TargetReport>> = match purpose {
            Some(p) => stream::iter(lane.chunks(self.schemas_per_read()))
                .map(|c| self.read_chunk(c, p))
                .buffered(per_server)
                .collect::<Vec<_>>()
                .await
                .into_iter()
                .flatten()
                .collect(),
            None => vec![None; lane.len()],
        };
        let rest: Vec<&Target> = lane
            .iter()
            .zip(&read)
            .filter(|(_, r)| r.is_none())
            .map(|(t, _)| *t)
            .collect();
        let mut ran = stream::iter(rest)
            .map(|t| self.run_target(t))
            .buffered(per_server)
            .collect::<Vec<_>>()
            .await
            .into_iter();
        read.into_iter()
            .map(|r| r.unwrap_or_else(|| ran.next().expect("a report per target")))
            .collect()
    }

    /// Whether apply on the lane's server guards replicas: it names some,
    /// or the catalog requires them.
    fn guards_replicas(&self, lane: &[&Target]) -> bool {
        self.catalog.require_replicas
            || lane
                .first()
                .is_some_and(|t| !self.fleet.servers[t.server].replicas.is_empty())
    }

    /// Schemas verified together: as many as one inspection statement
    /// holds with the (scoped) catalog's tables of each.
    fn schemas_per_read(&self) -> usize {
        let tables = crate::verify::scope(self.catalog, self.opts.consumer.as_deref())
            .map_or(self.catalog.tables.len(), |t| t.len());
        crate::inspect::schemas_per_statement(tables)
    }

    /// The report of a target that does not run: its server could not be
    /// read, its schema is missing, the run was interrupted or halted.
    fn skipped(&self, t: &Target) -> Option<TargetReport> {
        // A server that could not be read fails its targets without a try.
        if let Some(e) = &self.states[t.server].error {
            return Some(self.finish(t, None, Instant::now(), Err(e.clone())));
        }
        if self.states[t.server]
            .missing
            .contains(&t.schema.to_lowercase())
        {
            // The fleet file named it, not a URL: say where to fix it.
            let server = &self.fleet.servers[t.server];
            let e = format!(
                "schema `{}` does not exist on {}; create it, or fix `schemas:` of server `{}` in {} (line {})",
                t.schema,
                server.target.host_port(),
                server.name,
                self.fleet.path.display(),
                server.line
            );
            return Some(self.finish(t, None, Instant::now(), Err(e)));
        }
        if self.opts.cancel.is_cancelled() {
            return Some(self.not_started(
                t,
                "the run was interrupted before this target started".into(),
            ));
        }
        if self.halt.is_cancelled() {
            return Some(
                self.not_started(
                    t,
                    "another target did not succeed and on_error is stop; this one was not started"
                        .into(),
                ),
            );
        }
        None
    }

    /// Records a finished target: halts the run under `on_error: stop`
    /// when it did not succeed, tells the caller.
    fn done(&self, t: &Target, report: &TargetReport) {
        if !report.outcome.is_success()
            && report.outcome != TargetOutcome::NotStarted
            && self.fleet.on_error == OnError::Stop
            && self.opts.command == FleetCommand::Apply
        {
            self.halt.cancel();
        }
        self.emit(&FleetEvent::Finished {
            server: t.server,
            report,
        });
    }

    async fn run_target(&self, t: &Target) -> TargetReport {
        let report = match self.skipped(t) {
            Some(r) => r,
            None => {
                let name = self.name(t);
                self.emit(&FleetEvent::Started {
                    server: t.server,
                    name: &name,
                });
                let started = Instant::now();
                let offset = self.t0.elapsed().as_millis() as u64;
                let result = self.execute(t).await.map_err(|e| e.to_string());
                self.finish(t, Some(offset), started, result)
            }
        };
        self.done(t, &report);
        report
    }

    fn name(&self, t: &Target) -> String {
        format!(
            "{}/{}",
            self.fleet.servers[t.server].target.host_port(),
            t.schema
        )
    }

    fn target(&self, t: &Target) -> db::Target {
        let server = &self.fleet.servers[t.server].target;
        db::Target::from_opts(
            mysql_async::OptsBuilder::from_opts(server.url.clone())
                .db_name(Some(t.schema.clone()))
                .into(),
        )
    }

    async fn execute(&self, t: &Target) -> Result<Done> {
        let target = self.target(t);
        let tables = &self.tables;
        let cancel = self.opts.cancel.clone();
        match self.opts.command {
            FleetCommand::Apply => {
                let mut opts = self.opts.apply.clone();
                // The server's replicas (fleet.yaml `replicas:`) are guarded
                // on each of its targets; `replicas: required` in
                // catalog.yaml is `require_replicas`.
                opts.replicas = self.fleet.servers[t.server].replicas.clone();
                opts.require_replicas |= self.catalog.require_replicas;
                opts.cancel = Some(cancel);
                opts.halt = Some(self.halt.clone());
                opts.progress = None;
                opts.widens = self.widens.clone();
                let session = self.apply_session(t, &target, &opts).await?;
                let opener = crate::acquire::Connector::opener(&&target);
                let (report, session, clean) =
                    apply::apply_on(session, &opener, &target.schema, tables, &opts).await;
                if clean {
                    self.idle[t.server]
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(session);
                } else {
                    let _ = session.disconnect().await;
                }
                Ok(Done::Apply(report?))
            }
            // Verify and plan run a chunk of targets at a time (`read_chunk`).
            FleetCommand::Verify | FleetCommand::Plan => Err(crate::Error::Usage(
                "fleet verify and plan run their targets in chunks, not one by one".into(),
            )),
        }
    }

    /// The session apply runs `t` on: one of the lane's idle sessions of
    /// its server (kept from a chunk read or from a target whose apply
    /// ended clean, `apply::apply_on`), switched to `t`'s schema, or else a
    /// new connection to it.
    async fn apply_session(
        &self,
        t: &Target,
        target: &db::Target,
        opts: &ApplyOptions,
    ) -> Result<db::Session<'static>> {
        let idle = self.idle[t.server]
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop();
        if let Some(mut session) = idle {
            session.set_timeout(opts.read_timeout);
            match session.use_schema(&t.schema).await {
                Ok(()) => return Ok(session),
                Err(_) => {
                    let _ = session.disconnect().await;
                }
            }
        }
        db::connect(target, opts.read_timeout).await
    }

    fn blank(&self, t: &Target, outcome: TargetOutcome) -> TargetReport {
        let server = &self.fleet.servers[t.server];
        TargetReport {
            name: self.name(t),
            server: server.name.clone(),
            group: server.group.clone(),
            schema: t.schema.clone(),
            stage: self
                .stage_names
                .get(t.stage)
                .cloned()
                .unwrap_or_else(|| "(none)".into()),
            identity: self.states[t.server].identity.clone(),
            outcome,
            drift: Vec::new(),
            blockers: Vec::new(),
            error: None,
            steps: Vec::new(),
            verified: None,
            server_ddl_count: None,
            started_ms: None,
            ms: 0,
            replicas: Vec::new(),
            unguarded: Vec::new(),
            replicas_not_ready: Vec::new(),
            replica_verify: Vec::new(),
        }
    }

    fn not_started(&self, t: &Target, why: String) -> TargetReport {
        let mut r = self.blank(t, TargetOutcome::NotStarted);
        r.error = Some(why);
        r
    }

    fn finish(
        &self,
        t: &Target,
        offset: Option<u64>,
        started: Instant,
        result: std::result::Result<Done, String>,
    ) -> TargetReport {
        let mut r = self.blank(t, TargetOutcome::Failed);
        r.started_ms = offset;
        r.ms = started.elapsed().as_millis() as u64;
        match result {
            Err(e) => r.error = Some(e),
            Ok(Done::Apply(a)) => from_apply(&mut r, a, self.opts.cancel.is_cancelled()),
            Ok(Done::Plan(p, survey)) => {
                r.identity = p.server.clone().or(r.identity);
                r.drift = p.drift.clone();
                // What apply would find on the server's replicas: a refusal
                // (a replica not this primary's, or unnamed ones required)
                // refuses the target as apply would, before any DDL.
                let refused = survey.as_ref().and_then(|s| s.refused.clone());
                if let Some(s) = survey {
                    r.replicas = s.guarded;
                    r.unguarded = s.unguarded;
                    r.replicas_not_ready = s.not_ready;
                }
                r.outcome = if p.is_refused() {
                    TargetOutcome::Refused
                } else if let Some(message) = refused {
                    r.error = Some(message);
                    TargetOutcome::Refused
                } else if p.steps.is_empty() {
                    TargetOutcome::AlreadyConverged
                } else {
                    TargetOutcome::Planned
                };
                r.steps = p
                    .steps
                    .iter()
                    .map(|s| apply::StepReport {
                        table: s.change.table().to_string(),
                        kind: s.change.kind(),
                        object: s.change.object().to_string(),
                        sql: s.sql.clone(),
                        status: StepStatus::Planned,
                        ms: 0,
                        waited_ms: 0,
                        blocked_by: Vec::new(),
                        replica_blocker_waited_ms: 0,
                        replicas: Vec::new(),
                        two_phase: false,
                    })
                    .collect();
            }
            Ok(Done::Verify(v)) => {
                r.identity = Some(v.server.clone());
                r.verified = Some(v.ok);
                r.replica_verify = v.replicas.clone();
                // A replica not satisfied: name it and its first problem.
                if let Some(bad) = v.replicas.iter().find(|rv| !rv.ok) {
                    r.error = Some(match bad.problems.split_first() {
                        Some((first, [])) => {
                            format!("not satisfied on replica {}: {first}", bad.replica)
                        }
                        Some((first, rest)) => format!(
                            "not satisfied on replica {}: {first} (+{} more)",
                            bad.replica,
                            rest.len()
                        ),
                        None => format!("not satisfied on replica {}", bad.replica),
                    });
                }
                r.outcome = if v.ok {
                    TargetOutcome::AlreadyConverged
                } else {
                    TargetOutcome::Refused
                };
                r.drift = v.problems.clone();
            }
            Ok(Done::Converged(identity)) => {
                // The fleet's preflight read found nothing to do: no lock,
                // no statement but reads.
                r.identity = Some(*identity);
                r.outcome = TargetOutcome::AlreadyConverged;
                r.verified = Some(true);
                r.server_ddl_count = Some(0);
            }
            Ok(Done::Interrupted) => {
                r.outcome = TargetOutcome::Interrupted;
                r.error = Some("interrupted; nothing was changed".into());
            }
        }
        r
    }
}

enum Done {
    Apply(ApplyReport),
    /// plan: the plan, and the survey of the server's replicas (when it
    /// names some, or the catalog requires them).
    Plan(
        crate::plan::Plan,
        Option<Box<crate::apply::replica::Survey>>,
    ),
    Verify(Box<crate::verify::VerifyReport>),
    /// apply: the fleet's preflight read found nothing to do.
    Converged(Box<crate::server::ServerIdentity>),
    Interrupted,
}

/// The target's report from its apply's; `interrupted`: the fleet was
/// interrupted (else an interrupted apply was halted by `on_error: stop`).
fn from_apply(r: &mut TargetReport, a: ApplyReport, interrupted: bool) {
    r.identity = Some(a.server.clone());
    r.replicas = a.replicas.clone();
    r.unguarded = a.unguarded.clone();
    r.server_ddl_count = a.server_ddl_count;
    r.drift = a.drift.clone();
    let applied = a.steps.iter().any(|s| s.status == StepStatus::Applied);
    r.outcome = match &a.outcome {
        Outcome::Converged if applied => TargetOutcome::Converged,
        Outcome::Converged => TargetOutcome::AlreadyConverged,
        Outcome::DryRun => TargetOutcome::Planned,
        Outcome::RefusedDrift => TargetOutcome::Refused,
        Outcome::RefusedDuplicates { message } => {
            r.error = Some(message.clone());
            TargetOutcome::Refused
        }
        // As `catalog apply` exits 1 for drift found mid-run before any DDL.
        Outcome::Stopped {
            ddl_issued: false, ..
        } if !a.drift.is_empty() => TargetOutcome::Refused,
        Outcome::Stopped { message, .. } => {
            r.error = Some(message.clone());
            TargetOutcome::Failed
        }
        Outcome::Deferred {
            table, blockers, ..
        } => {
            r.blockers = blockers.clone();
            r.error = a.stopped().map(|s| match s {
                apply::Stopped::Busy { message, .. } => message,
                _ => format!("table `{table}` stayed busy"),
            });
            TargetOutcome::Deferred
        }
        Outcome::RefusedReplica { message, .. } => {
            r.error = Some(message.clone());
            TargetOutcome::Refused
        }
        Outcome::OverBudget { steps } => {
            r.error = Some(apply::over_budget_message(steps));
            TargetOutcome::Deferred
        }
        Outcome::ReplicaDeferred { .. }
        | Outcome::ReplicasPending { .. }
        | Outcome::Overloaded { .. } => {
            r.error = a.stopped().map(|s| match s {
                apply::Stopped::ReplicaBusy { message, .. }
                | apply::Stopped::ReplicasPending { message, .. }
                | apply::Stopped::Overloaded { message, .. } => message,
                _ => "replicas not ready".into(),
            });
            TargetOutcome::Deferred
        }
        Outcome::Interrupted { message, .. } => {
            r.error = Some(message.clone());
            if interrupted {
                TargetOutcome::Interrupted
            } else {
                TargetOutcome::Halted
            }
        }
    };
    r.verified = match r.outcome {
        TargetOutcome::Converged | TargetOutcome::AlreadyConverged => Some(true),
        TargetOutcome::Failed
            if r.error
                .as_deref()
                .is_some_and(|e| e.starts_with("final verify failed")) =>
        {
            Some(false)
        }
        _ => None,
    };
    r.steps = a.steps;
}
