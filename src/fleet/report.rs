//! What a fleet run returns: one report per target, the servers, the
//! stages and a summary. Typed and `Serialize`; `catalog ... --fleet
//! --format json` prints exactly this (docs/schemas/fleet.schema.json).

use serde::Serialize;

use crate::apply::{Blocker, StepReport};
use crate::diff::Problem;
use crate::server::ServerIdentity;

/// Which command the fleet ran on every target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FleetCommand {
    /// `catalog plan --fleet`: inspect and plan, no DDL.
    Plan,
    /// `catalog apply --fleet`: the single-target apply on each target.
    Apply,
    /// `catalog verify --fleet`: the startup gate on each target.
    Verify,
}

/// How one target ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TargetOutcome {
    /// apply ran steps and the final verify passed.
    Converged,
    /// Nothing to do: the schema already satisfied the catalog (verify:
    /// satisfied).
    AlreadyConverged,
    /// plan: steps planned, no drift.
    Planned,
    /// Drift (`drift` lists it): apply refused before any DDL; plan
    /// blocked; verify not satisfied.
    Refused,
    /// A table stayed busy (`blockers`): the step was not started; rerun later.
    Deferred,
    /// A database error or a failed step (`error`).
    Failed,
    /// SIGINT/SIGTERM stopped it (its running DDL cancelled).
    Interrupted,
    /// `on_error: stop` halted it at a step boundary after another target
    /// did not succeed: the step it was running finished and was read
    /// back, no later step started (`error` says which); rerun resumes.
    Halted,
    /// Not started (`error` says why: an earlier failure, an interrupt, or
    /// no stage takes it).
    NotStarted,
}

impl TargetOutcome {
    /// Whether the target satisfies the catalog now (or, for plan, can).
    pub fn is_success(self) -> bool {
        matches!(
            self,
            TargetOutcome::Converged | TargetOutcome::AlreadyConverged | TargetOutcome::Planned
        )
    }
}

/// One target: a schema on a server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct TargetReport {
    /// `host:port/schema` (the URL without user or password, and the schema).
    pub name: String,
    /// The server's name in the fleet file.
    pub server: String,
    /// The server's group, if any.
    pub group: Option<String>,
    /// The schema.
    pub schema: String,
    /// The stage that took it.
    pub stage: String,
    /// Who the server said it is (hostname, port, version, uuid), when reached.
    pub identity: Option<ServerIdentity>,
    /// How it ended.
    pub outcome: TargetOutcome,
    /// The drift that refused it (outcome `refused`).
    pub drift: Vec<Problem>,
    /// Who held the busy table (outcome `deferred`).
    pub blockers: Vec<Blocker>,
    /// What went wrong (failed, interrupted, halted, not_started), one line, never a password.
    pub error: Option<String>,
    /// Its steps, with status and milliseconds (plan: the planned steps).
    pub steps: Vec<StepReport>,
    /// Whether the final verify found the schema exact (apply and verify;
    /// `None` when it did not run).
    pub verified: Option<bool>,
    /// DDL statements its session executed, as the server counts them (apply; not on TiDB).
    pub server_ddl_count: Option<u64>,
    /// Milliseconds from the start of the fleet run to this target's start.
    pub started_ms: Option<u64>,
    /// Wall time of this target in milliseconds.
    pub ms: u64,
    /// The server's replicas (fleet.yaml `replicas:`) as apply checked them
    /// before any DDL (each step's wait and read-back are in `steps`); plan:
    /// as it surveyed them (the replicas apply would guard).
    pub replicas: Vec<crate::apply::replica::ReplicaCheck>,
    /// Replicas the server lists as connected that were not named.
    pub unguarded: Vec<String>,
    /// plan: named replicas not ready now (no answer, threads stopped, or
    /// behind): apply would wait for them within its busy budget.
    #[serde(default)]
    pub replicas_not_ready: Vec<crate::apply::replica::Behind>,
    /// verify: the schema verified on each of the server's replicas; the
    /// target is satisfied only when every one is.
    #[serde(default)]
    pub replica_verify: Vec<crate::verify::ReplicaVerify>,
}

/// One server of the fleet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ServerReport {
    /// Its name in the fleet file.
    pub name: String,
    /// `host:port` (never user or password).
    pub address: String,
    /// Its group, if any.
    pub group: Option<String>,
    /// Who it said it is, when reached.
    pub identity: Option<ServerIdentity>,
    /// Targets it holds (after `like` expansion).
    pub targets: usize,
    /// Its replicas as fleet.yaml names them (`host:port`): guarded by
    /// apply, surveyed by plan, the schema verified on each by verify.
    pub replicas: Vec<String>,
    /// Why it could not be read (connect or SCHEMATA read), never a password.
    pub error: Option<String>,
}

/// One stage, in run order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct StageReport {
    /// Its name.
    pub name: String,
    /// Targets it took.
    pub targets: usize,
    /// Whether it ran (false: an earlier stage failed or the run was interrupted).
    pub ran: bool,
    /// Whether every target of it succeeded.
    pub ok: bool,
    /// Wall time in milliseconds.
    pub ms: u64,
}

/// Targets per outcome.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Summary {
    /// All targets.
    pub targets: usize,
    /// `converged`.
    pub converged: usize,
    /// `already_converged`.
    pub already_converged: usize,
    /// `planned`.
    pub planned: usize,
    /// `refused`.
    pub refused: usize,
    /// `deferred`.
    pub deferred: usize,
    /// `failed`.
    pub failed: usize,
    /// `interrupted`.
    pub interrupted: usize,
    /// `halted`.
    pub halted: usize,
    /// `not_started`.
    pub not_started: usize,
    /// Servers that could not be read (their targets are failed, or unknown for `like`).
    pub servers_failed: usize,
}

impl Summary {
    /// Counts `targets` and the unreadable `servers`.
    pub fn of(targets: &[TargetReport], servers: &[ServerReport]) -> Summary {
        let mut s = Summary {
            targets: targets.len(),
            servers_failed: servers.iter().filter(|s| s.error.is_some()).count(),
            ..Summary::default()
        };
        for t in targets {
            *match t.outcome {
                TargetOutcome::Converged => &mut s.converged,
                TargetOutcome::AlreadyConverged => &mut s.already_converged,
                TargetOutcome::Planned => &mut s.planned,
                TargetOutcome::Refused => &mut s.refused,
                TargetOutcome::Deferred => &mut s.deferred,
                TargetOutcome::Failed => &mut s.failed,
                TargetOutcome::Interrupted => &mut s.interrupted,
                TargetOutcome::Halted => &mut s.halted,
                TargetOutcome::NotStarted => &mut s.not_started,
            } += 1;
        }
        s
    }
}

/// The whole run (`--format json` prints it; `jsonl` prints each target,
/// then this without `targets`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct FleetReport {
    /// The command run on each target.
    pub command: FleetCommand,
    /// The fleet file.
    pub file: String,
    /// `stop` or `continue`.
    pub on_error: String,
    /// Server lanes at once.
    pub parallel_servers: usize,
    /// Targets at once per server.
    pub parallel_per_server: usize,
    /// Whether SIGINT/SIGTERM interrupted the run.
    pub interrupted: bool,
    /// The servers, in file order.
    pub servers: Vec<ServerReport>,
    /// The stages, in run order.
    pub stages: Vec<StageReport>,
    /// Every target, in stage then file order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<TargetReport>,
    /// Targets per outcome.
    pub summary: Summary,
    /// Wall time of the run in milliseconds.
    pub ms: u64,
    /// The exit code (docs/fleet.md "Exit codes": interrupted 130/143,
    /// else failed 3, refused 1, deferred, halted or not started 4, else 0).
    pub exit_code: u8,
}

/// Exit code of a run (docs/fleet.md): 0 when every target succeeded and
/// every server was read; else the most severe present of interrupted
/// (`interrupt`, 130 or 143), failed 3, refused 1, deferred/halted/not
/// started 4 (halted and not started always follow one of the others).
pub fn exit_code(summary: &Summary, interrupt: Option<u8>) -> u8 {
    if summary.interrupted > 0 {
        return interrupt.unwrap_or(130);
    }
    if let Some(code) = interrupt {
        return code;
    }
    if summary.failed > 0 || summary.servers_failed > 0 {
        3
    } else if summary.refused > 0 {
        1
    } else if summary.deferred > 0 || summary.halted > 0 || summary.not_started > 0 {
        4
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(f: impl Fn(&mut Summary)) -> Summary {
        let mut s = Summary {
            targets: 10,
            converged: 10,
            ..Summary::default()
        };
        f(&mut s);
        s
    }

    /// docs/fleet.md "Exit codes": interrupted > failed/unreadable >
    /// refused > deferred; halted and not_started follow one of them.
    #[test]
    fn the_exit_code_is_the_most_severe_outcome() {
        assert_eq!(exit_code(&with(|_| {}), None), 0);
        assert_eq!(exit_code(&with(|s| s.deferred = 1), None), 4);
        assert_eq!(exit_code(&with(|s| s.halted = 1), None), 4);
        assert_eq!(exit_code(&with(|s| s.not_started = 1), None), 4);
        let refused = |s: &mut Summary| {
            s.deferred = 2;
            s.halted = 1;
            s.not_started = 3;
            s.refused = 1;
        };
        assert_eq!(exit_code(&with(refused), None), 1);
        let failed = |s: &mut Summary| {
            refused(s);
            s.failed = 1;
        };
        assert_eq!(exit_code(&with(failed), None), 3);
        assert_eq!(exit_code(&with(|s| s.servers_failed = 1), None), 3);
        assert_eq!(exit_code(&with(failed), Some(143)), 143);
        assert_eq!(exit_code(&with(|s| s.interrupted = 1), None), 130);
        assert_eq!(exit_code(&with(|s| s.interrupted = 1), Some(143)), 143);
    }
}
