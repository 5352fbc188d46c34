//! Replicas: a run is converged only when every named replica has executed
//! every step and reads it back exact (SPEC "Replicas", docs/replicas.md).
//!
//! Before any DDL each named replica must answer, replicate from this
//! primary, by GTID, with both threads running (the guard in `apply::replicas`). Before
//! each step every replica must have executed the primary's current GTID
//! position within `max_replica_lag`; after it,
//! the position read right after the DDL within `replica_timeout`
//! and then apply reads the object back on the
//! replica. Lag is a GTID position, never `Seconds_Behind_Master` (which
//! reads 0 and then too low during a replayed DDL on MariaDB, about twice
//! the real lag on MySQL). The primary's list of connected replicas is a
//! hint: a replica without `report_host` is not
//! listed with a host, so discovery is never trusted to be complete.
//!
//! What each vendor says and how is in the server seam
//! (`server::replica`); this module holds what the reports say.

use crate::server::ServerIdentity;

/// A named replica as checked before any DDL.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct ReplicaCheck {
    /// The replica as named (`host:port`, never the password).
    pub replica: String,
    /// Who the replica says it is.
    pub server: ServerIdentity,
    /// Its `@@server_id`.
    pub server_id: u64,
    /// The source it replicates from, as its replication status names it
    /// (`host:port`).
    pub source: String,
}

/// What `catalog plan` says of replicas: the named ones as checked, the
/// connected ones not named, and what keeps a named one from being guarded.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct Survey {
    /// The named replicas that answer, replicate from the primary by GTID
    /// with both threads running.
    pub guarded: Vec<ReplicaCheck>,
    /// Replicas the primary lists as connected that were not named.
    pub unguarded: Vec<String>,
    /// Why the primary's connected replicas could not be listed, if so.
    pub discovery: Option<String>,
    /// Named replicas not ready now (no answer, threads stopped): apply
    /// would wait for them within its busy budget.
    pub not_ready: Vec<Behind>,
    /// Why apply would refuse before any DDL (a named replica that is not
    /// this primary's, or `require_replicas` with unnamed ones).
    pub refused: Option<String>,
}

/// A replica behind the position a step waits for.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct Behind {
    /// The replica (`host:port`).
    pub replica: String,
    /// The primary's GTID position it has to execute.
    pub position: String,
    /// What the replica has executed, as last read (empty when it did not
    /// answer).
    pub replica_position: String,
    /// Why: the transactions it lacks, its threads stopped, or no answer.
    pub reason: String,
}

impl std::fmt::Display for Behind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "replica {}: {}", self.replica, self.reason)?;
        if !self.position.is_empty() {
            write!(
                f,
                " (primary at `{}`, replica at `{}`)",
                self.position, self.replica_position
            )?;
        }
        Ok(())
    }
}

/// How a step's object read back on one replica.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReadBack {
    /// Executed the step's position and read back exact.
    Exact,
    /// Executed the position, but the object is not as declared.
    NotExact,
    /// Did not execute the position in time: not read.
    Pending,
    /// Not reached (the run stopped before).
    NotRead,
}

/// One replica around one step: the lag waited before it, the wait for the
/// step's position after it, and the read-back.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct StepReplica {
    /// The replica (`host:port`).
    pub replica: String,
    /// Milliseconds waited before the step for it to execute the primary's
    /// position within the lag budget.
    pub lag_waited_ms: u64,
    /// Milliseconds after the step until it had executed the step's
    /// position (`None`: it did not in time, or the run stopped first).
    pub caught_up_ms: Option<u64>,
    /// The primary's GTID position right after the step.
    pub position: String,
    /// The step's object on the replica.
    pub read_back: ReadBack,
}
