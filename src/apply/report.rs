//! What apply returns: every step with its status and time, and why it stopped.

use crate::diff::Problem;
use crate::flavor::Flavor;

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
    /// Stopped mid-run (new drift, a failed step, a race lost to another
    /// shape). `ddl_issued` says whether this run had changed anything.
    Stopped {
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
    /// How it ended.
    pub outcome: Outcome,
}

impl ApplyReport {
    /// Whether the schema now satisfies the catalog.
    pub fn converged(&self) -> bool {
        self.outcome == Outcome::Converged
    }
}
