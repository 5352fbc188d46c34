//! What apply returns: every step with its status and time, and why it stopped.

use super::busy::Blocker;
use super::replica::{Behind, Loaded, ReplicaCheck, StepReplica, TwoPhase};
use crate::diff::Problem;
use crate::server::Flavor;

/// What happened to one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StepStatus {
    /// This run executed the DDL and read the object back exact.
    Applied,
    /// Re-read before the step: the object was already there, exact.
    AlreadyPresent,
    /// The server said it already exists (1050/1060/1061, a concurrent
    /// applier); read back exact, so accepted.
    AcceptedRace,
    /// Dry run: would run.
    Planned,
    /// The step failed; nothing after it ran.
    Failed,
    /// The table stayed busy: the step was not started (the run is deferred).
    Deferred,
    /// A cancel request stopped the step (its DDL cancelled, or left to the
    /// server with `detach`).
    Interrupted,
}

/// One step of the run.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct StepReport {
    /// Table.
    pub table: String,
    /// `create_table`, `add_column`, `add_index`.
    pub kind: &'static str,
    /// Object added.
    pub object: String,
    /// The statement (as executed; after an INSTANT fallback, the fallback).
    pub sql: String,
    /// Outcome.
    pub status: StepStatus,
    /// Wall time in milliseconds.
    pub ms: u64,
    /// Of that, milliseconds spent waiting for a busy table (0: none).
    pub waited_ms: u64,
    /// Who held the table at the last look while the step waited (empty
    /// when it did not wait, or only a lock wait ran out).
    pub blocked_by: Vec<Blocker>,
    /// Milliseconds waited before the step for sessions holding the table
    /// on the named replicas (0: none; the holders are in `replicas`).
    pub replica_blocker_waited_ms: u64,
    /// Each named replica around this step: lag waited before it, the wait
    /// for the step's GTID position after it, the read-back (empty
    /// without `--replica`).
    pub replicas: Vec<StepReplica>,
    /// Whether the step's ALTER ran with `binlog_alter_two_phase` on
    /// (MariaDB 10.8.1+, `--two-phase-alter`).
    pub two_phase: bool,
}

/// How the run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Every step done and the final verify passed.
    Converged,
    /// Drift found in preflight: no DDL issued.
    RefusedDrift,
    /// Dry run: preflight passed; the steps are what a real run would do.
    DryRun,
    /// A UNIQUE index to be added to an existing table was probed before
    /// any DDL and found duplicate keys, or its probe timed out: no DDL
    /// issued (exit 1). The report's `duplicate_probes` say which.
    RefusedDuplicates {
        /// What was found, naming table and index (never the values), and
        /// what to do.
        message: String,
    },
    /// Stopped mid-run (new drift, a failed step, a race lost to another
    /// shape). `ddl_issued` says whether this run had changed anything.
    Stopped {
        /// What happened, naming table and object.
        message: String,
        /// Whether this run executed any DDL before stopping.
        ddl_issued: bool,
    },
    /// Deferred: the table stayed busy (a blocker was seen, or the
    /// metadata lock could not be had) for the whole busy budget. The step
    /// was not started; steps before it stay applied; rerun later.
    Deferred {
        /// The busy table.
        table: String,
        /// Who held it at the last look (may be empty when only the lock
        /// wait timed out and the holder had left by the next look).
        blockers: Vec<Blocker>,
        /// How long this step waited, in milliseconds.
        waited_ms: u64,
    },
    /// A named replica cannot be guarded, or a connected replica was not
    /// named with `require_replicas`: refused before any DDL; a rerun
    /// cannot fix it (the CLI exits 2).
    RefusedReplica {
        /// The replica concerned (`host:port`); `None` for the unnamed ones.
        replica: Option<String>,
        /// What is wrong, naming the replica and the source it replicates from.
        message: String,
    },
    /// Replicas did not answer, had stopped threads or stayed behind the
    /// lag budget for the whole busy budget: the step was not started;
    /// steps before it stay applied (exit 4).
    ReplicaDeferred {
        /// The step that waited (`None`: before the first DDL).
        step: Option<String>,
        /// Each replica not ready at the last look.
        replicas: Vec<Behind>,
        /// How long it waited, in milliseconds.
        waited_ms: u64,
    },
    /// A step ran on the primary but not every replica executed it within
    /// the replica budget (exit 4); a rerun issues no DDL for what the
    /// primary has, waits, reads back and converges.
    ReplicasPending {
        /// The step (`None`: the final check of the whole catalog).
        step: Option<String>,
        /// Each replica still behind, with the position it has to execute.
        replicas: Vec<Behind>,
    },
    /// A server's `Threads_running` stayed above `max_threads_running` for
    /// the whole busy budget: the step was not started; steps before it
    /// stay applied (exit 4).
    Overloaded {
        /// The step that waited.
        step: Option<String>,
        /// Each server above the limit at the last look (which, its
        /// `Threads_running`, the limit).
        servers: Vec<Loaded>,
        /// How long it waited, in milliseconds.
        waited_ms: u64,
    },
    /// A step's estimated build or replica stall exceeds a budget
    /// (`Budgets`, `--max-step-duration`, `--max-replica-stall`): refused
    /// before the first DDL of the run (exit 4); rerun in a window with a
    /// larger budget, or allow the step by name.
    OverBudget {
        /// Every step over a budget, with its estimate and the budget.
        steps: Vec<crate::cost::OverBudget>,
    },
    /// Interrupted (a cancel request: SIGINT/SIGTERM in the CLI).
    Interrupted {
        /// The step that was running or about to run, `table`.`object`.
        step: Option<String>,
        /// Whether a running DDL was cancelled on the server (KILL QUERY);
        /// false when none ran or with `detach`.
        ddl_cancelled: bool,
        /// With `detach`: the running DDL was left to the server.
        detached: bool,
        /// What happened, for people.
        message: String,
    },
}

/// Why a run stopped, as the JSON report's `stopped` shows it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Stopped {
    /// The table stayed busy for the whole budget (exit 4).
    Busy {
        /// The busy table.
        table: String,
        /// Who held it at the last look.
        blockers: Vec<Blocker>,
        /// How long the step waited, in milliseconds.
        waited_ms: u64,
        /// What to do.
        message: String,
    },
    /// A cancel request ended the run (exit 130/143 in the CLI).
    Interrupted {
        /// The step that was running or about to run.
        step: Option<String>,
        /// Whether a running DDL was cancelled on the server.
        ddl_cancelled: bool,
        /// Whether the running DDL was left to the server (`--detach`).
        detached: bool,
        /// What happened.
        message: String,
    },
    /// A named replica cannot be guarded (not a replica, not of this
    /// primary, no GTIDs), or a connected replica was not named under
    /// `--require-replicas`: refused before any DDL (exit 2).
    ReplicaRefused {
        /// The replica (`host:port`), when one is concerned.
        replica: Option<String>,
        /// What is wrong.
        message: String,
    },
    /// Replicas not ready (no answer, threads stopped, behind the lag
    /// budget) for the whole busy budget; the step was not started (exit 4).
    ReplicaBusy {
        /// The step that waited (`None`: before the first DDL).
        step: Option<String>,
        /// Each replica not ready.
        replicas: Vec<Behind>,
        /// How long it waited, in milliseconds.
        waited_ms: u64,
        /// What to do.
        message: String,
    },
    /// A server's `Threads_running` stayed above `--max-threads-running`
    /// for the whole budget; the step was not started (exit 4).
    Overloaded {
        /// The step that waited.
        step: Option<String>,
        /// Each server above the limit at the last look.
        servers: Vec<Loaded>,
        /// How long it waited, in milliseconds.
        waited_ms: u64,
        /// What to do.
        message: String,
    },
    /// A step ran on the primary; not every replica executed it in time
    /// (exit 4, `replicas_pending`).
    ReplicasPending {
        /// The step (`None`: the final check).
        step: Option<String>,
        /// Each replica still behind.
        replicas: Vec<Behind>,
        /// What to do.
        message: String,
    },
    /// A UNIQUE index's duplicate probe found duplicates or timed out:
    /// refused before any DDL (exit 1).
    Duplicates {
        /// What was found (never the values) and what to do.
        message: String,
    },
    /// A step's estimate exceeds a budget: no DDL was sent (exit 4).
    OverBudget {
        /// Every step over a budget.
        steps: Vec<crate::cost::OverBudget>,
        /// What to do.
        message: String,
    },
    /// A step failed, drift appeared, or the connection was lost.
    Failed {
        /// What happened, naming table and object.
        message: String,
        /// Whether this run executed any DDL before stopping.
        ddl_issued: bool,
    },
}

/// The report of an apply run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApplyReport {
    /// Server flavor.
    pub flavor: Flavor,
    /// The server the statements went to (its own hostname, port, version, uuid).
    pub server: crate::server::ServerIdentity,
    /// The advisory lock held for the run.
    pub lock: String,
    /// Steps, in order.
    pub steps: Vec<StepReport>,
    /// Drift that blocked the run (preflight or mid-run).
    pub drift: Vec<Problem>,
    /// Unmanaged objects seen (informational).
    pub unmanaged: Vec<Problem>,
    /// DDL statements this run's session executed, as counted by the server
    /// (`Com_create_table` + `Com_alter_table` session deltas; not on TiDB).
    pub server_ddl_count: Option<u64>,
    /// Reads the server cut short at the read budget (`--timeout`) and apply
    /// tried again within the busy budget: non-zero on a busy server.
    pub read_retries: u32,
    /// How it ended.
    pub outcome: Outcome,
    /// Each named replica as checked before any DDL.
    pub replicas: Vec<ReplicaCheck>,
    /// Replicas the primary lists as connected that were not named.
    pub unguarded: Vec<String>,
    /// Why the primary's connected replicas could not be listed, if so.
    pub discovery: Option<String>,
    /// What the run does with two-phase ALTER, and why (`None` when it
    /// stopped before deciding).
    pub two_phase: Option<TwoPhase>,
    /// Each UNIQUE index added to an existing table, probed for duplicate
    /// keys before the first DDL.
    pub duplicate_probes: Vec<super::probe::DuplicateProbe>,
}

impl ApplyReport {
    /// Whether the schema now satisfies the catalog.
    pub fn converged(&self) -> bool {
        self.outcome == Outcome::Converged
    }

    /// Why the run stopped early, if it did.
    pub fn stopped(&self) -> Option<Stopped> {
        match &self.outcome {
            Outcome::Converged | Outcome::RefusedDrift | Outcome::DryRun => None,
            Outcome::RefusedDuplicates { message } => Some(Stopped::Duplicates {
                message: message.clone(),
            }),
            Outcome::Stopped {
                message,
                ddl_issued,
            } => Some(Stopped::Failed {
                message: message.clone(),
                ddl_issued: *ddl_issued,
            }),
            Outcome::Deferred {
                table,
                blockers,
                waited_ms,
            } => Some(Stopped::Busy {
                table: table.clone(),
                blockers: blockers.clone(),
                waited_ms: *waited_ms,
                message: format!(
                    "deferred: table `{table}` stayed busy for {} s; the step was not started, \
                     nothing is half-done, earlier steps stay applied; rerun later",
                    waited_ms / 1000
                ),
            }),
            Outcome::RefusedReplica { replica, message } => Some(Stopped::ReplicaRefused {
                replica: replica.clone(),
                message: message.clone(),
            }),
            Outcome::ReplicaDeferred {
                step,
                replicas,
                waited_ms,
            } => Some(Stopped::ReplicaBusy {
                step: step.clone(),
                replicas: replicas.clone(),
                waited_ms: *waited_ms,
                message: format!(
                    "deferred: {} not ready for {} s{}; no DDL was sent for it, nothing is \
                     half-done, earlier steps stay applied; rerun later",
                    names(replicas),
                    waited_ms / 1000,
                    step.as_deref()
                        .map(|s| format!(" before step {s}"))
                        .unwrap_or_default()
                ),
            }),
            Outcome::Overloaded {
                step,
                servers,
                waited_ms,
            } => Some(Stopped::Overloaded {
                step: step.clone(),
                servers: servers.clone(),
                waited_ms: *waited_ms,
                message: format!(
                    "deferred: {} for {} s{}; no DDL was sent for it, nothing is half-done, \
                     earlier steps stay applied; rerun later",
                    servers
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join("; "),
                    waited_ms / 1000,
                    step.as_deref()
                        .map(|s| format!(" before step {s}"))
                        .unwrap_or_default()
                ),
            }),
            Outcome::ReplicasPending { step, replicas } => Some(Stopped::ReplicasPending {
                step: step.clone(),
                replicas: replicas.clone(),
                message: format!(
                    "replicas_pending: {} had not executed {} in time; the primary has it. \
                     Rerun apply: it issues no DDL for what the primary has, waits for the \
                     replicas and reads back",
                    names(replicas),
                    step.as_deref()
                        .map(|s| format!("step {s}"))
                        .unwrap_or_else(|| "the primary's position".into())
                ),
            }),
            Outcome::OverBudget { steps } => Some(Stopped::OverBudget {
                steps: steps.clone(),
                message: over_budget_message(steps),
            }),
            Outcome::Interrupted {
                step,
                ddl_cancelled,
                detached,
                message,
            } => Some(Stopped::Interrupted {
                step: step.clone(),
                ddl_cancelled: *ddl_cancelled,
                detached: *detached,
                message: message.clone(),
            }),
        }
    }
}

/// What an over-budget refusal says: each step, its estimate and the
/// budget, and what to do.
pub fn over_budget_message(steps: &[crate::cost::OverBudget]) -> String {
    let each: Vec<String> = steps.iter().map(|o| o.to_string()).collect();
    format!(
        "deferred before any DDL: {}; no DDL was sent. Run it in a window with a larger budget,          or allow the step by name (--allow-long-steps TABLE.OBJECT)",
        each.join("; ")
    )
}

/// `replica a, replica b`.
fn names(replicas: &[Behind]) -> String {
    let names: Vec<&str> = replicas.iter().map(|b| b.replica.as_str()).collect();
    format!(
        "replica{} {}",
        if names.len() == 1 { "" } else { "s" },
        names.join(", ")
    )
}
