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
    /// Its parallel applier threads (MariaDB `slave_parallel_threads`,
    /// MySQL `replica_parallel_workers`; 0: single-threaded), when read.
    pub parallel_workers: Option<u64>,
}

/// `--two-phase-alter`: whether an INPLACE ALTER is binlogged in two phases
/// (MariaDB 10.8.1+ `binlog_alter_two_phase`, MDEV-11675), so a replica with
/// parallel applier threads builds it alongside the primary.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TwoPhaseAlter {
    /// On for INPLACE (not INSTANT) ALTER steps on MariaDB 10.8.1+ when
    /// every named replica has parallel applier threads; off otherwise.
    #[default]
    Auto,
    /// On for every INPLACE ALTER step; refused before any DDL where the
    /// server has no two-phase ALTER (MySQL, TiDB, MariaDB before 10.8.1).
    On,
    /// Never set (the server's own setting is left alone).
    Off,
}

/// What a run does with two-phase ALTER, and why.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct TwoPhase {
    /// The mode asked for.
    pub mode: TwoPhaseAlter,
    /// Whether INPLACE ALTER steps run with `binlog_alter_two_phase` on.
    pub on: bool,
    /// Why, for people.
    pub reason: String,
}

/// A server whose `Threads_running` was above `--max-threads-running` at
/// the last look.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct Loaded {
    /// `primary` or `replica`.
    pub role: String,
    /// The server (`host:port`, never the password).
    pub server: String,
    /// Its `Threads_running`.
    pub threads_running: u64,
    /// The limit (`--max-threads-running`).
    pub limit: u64,
}

impl std::fmt::Display for Loaded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {}: Threads_running {} > {}",
            self.role, self.server, self.threads_running, self.limit
        )
    }
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
    /// What apply would do with two-phase ALTER, and why.
    pub two_phase: Option<TwoPhase>,
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
    /// Milliseconds waited before the step until no session on it held the
    /// step's table (0: none seen; not looked for a new table or column).
    pub blocker_waited_ms: u64,
    /// Each session seen holding the table on it while the step waited, as
    /// last seen (connection id, age in seconds; empty when none).
    pub blocked_by: Vec<super::busy::Blocker>,
    /// Milliseconds after the step until it had executed the step's
    /// position (`None`: it did not in time, or the run stopped first).
    pub caught_up_ms: Option<u64>,
    /// The primary's GTID position right after the step.
    pub position: String,
    /// The step's object on the replica.
    pub read_back: ReadBack,
}

/// Decides what the run does with two-phase ALTER on `server` with the
/// named replicas as `checks` read them; `Err` is the refusal of `on`
/// where the server has none (before any DDL).
pub(crate) fn two_phase(
    mode: TwoPhaseAlter,
    server: &crate::server::Server,
    checks: &[ReplicaCheck],
) -> Result<TwoPhase, String> {
    let capable = server.has_binlog_alter_two_phase();
    let done = |on: bool, reason: String| Ok(TwoPhase { mode, on, reason });
    match mode {
        TwoPhaseAlter::Off => done(false, "off: --two-phase-alter off".into()),
        TwoPhaseAlter::On if !capable => Err(format!(
            "--two-phase-alter on: the server is {server}, which has no two-phase ALTER \
             (binlog_alter_two_phase is MariaDB 10.8.1+, MDEV-11675); use auto or off"
        )),
        TwoPhaseAlter::On => done(
            true,
            "on for INPLACE ALTER steps: --two-phase-alter on".into(),
        ),
        TwoPhaseAlter::Auto if !capable => done(
            false,
            format!("off: the server is {server}; binlog_alter_two_phase is MariaDB 10.8.1+ only"),
        ),
        TwoPhaseAlter::Auto if checks.is_empty() => done(
            false,
            "off: no replica is named (--replica), so none is known to apply in parallel".into(),
        ),
        TwoPhaseAlter::Auto => {
            let single: Vec<String> = checks
                .iter()
                .filter(|c| c.parallel_workers.unwrap_or(0) == 0)
                .map(|c| c.replica.clone())
                .collect();
            let var = crate::server::replica::parallel_variable(server.flavor());
            if single.is_empty() {
                let each: Vec<String> = checks
                    .iter()
                    .map(|c| format!("{} {var} = {}", c.replica, c.parallel_workers.unwrap_or(0)))
                    .collect();
                done(
                    true,
                    format!(
                        "on for INPLACE ALTER steps: every named replica applies in parallel ({})",
                        each.join(", ")
                    ),
                )
            } else {
                done(
                    false,
                    format!(
                        "off: {} single-threaded ({var} = 0): it replays a two-phase ALTER \
                         serially all the same, so it would not help",
                        if single.len() == 1 {
                            format!("replica {} is", single[0])
                        } else {
                            format!("replicas {} are", single.join(", "))
                        }
                    ),
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::Server;

    fn check(name: &str, workers: Option<u64>) -> ReplicaCheck {
        ReplicaCheck {
            replica: name.into(),
            server: crate::server::ServerIdentity::default(),
            server_id: 2,
            source: "p:1".into(),
            parallel_workers: workers,
        }
    }

    #[test]
    fn two_phase_auto_needs_mariadb_10_8_and_parallel_replicas() {
        let maria = Server::from_version_text("10.11.19-MariaDB").unwrap();
        let old = Server::from_version_text("10.6.20-MariaDB").unwrap();
        let mysql = Server::from_version_text("9.7.0").unwrap();
        let auto = TwoPhaseAlter::Auto;
        let par = [check("r1:3306", Some(4)), check("r2:3306", Some(2))];
        let one_single = [check("r1:3306", Some(4)), check("r2:3306", Some(0))];
        assert!(two_phase(auto, &maria, &par).unwrap().on);
        let off = two_phase(auto, &maria, &one_single).unwrap();
        assert!(!off.on);
        assert!(off.reason.contains("r2:3306"), "{}", off.reason);
        assert!(
            off.reason.contains("slave_parallel_threads = 0"),
            "{}",
            off.reason
        );
        assert!(!two_phase(auto, &maria, &[]).unwrap().on);
        assert!(!two_phase(auto, &old, &par).unwrap().on);
        assert!(!two_phase(auto, &mysql, &par).unwrap().on);
        assert!(two_phase(TwoPhaseAlter::On, &maria, &[]).unwrap().on);
        let refused = two_phase(TwoPhaseAlter::On, &mysql, &par).unwrap_err();
        assert!(refused.contains("mysql 9.7.0"), "{refused}");
        assert!(two_phase(TwoPhaseAlter::On, &old, &par).is_err());
        assert!(!two_phase(TwoPhaseAlter::Off, &maria, &par).unwrap().on);
    }
}
