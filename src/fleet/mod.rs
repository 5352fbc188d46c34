//! Fleet: one catalog onto many schemas on several servers, in ordered
//! stages, servers in parallel, each target through the single-target
//! engine, with one report per target (docs/fleet.md).
//!
//! [`file`](mod@file) reads and lints `fleet.yaml`; `targets` reads each server
//! (identity, `like` expansion) and gives targets to stages; [`run()`] runs
//! them; [`FleetReport`] is what comes back.

pub mod file;
mod report;
mod run;
mod targets;

pub use file::{load, FleetFile, OnError, Parallel, SchemaSet, ServerSpec, StageSpec};
pub use report::{
    exit_code, FleetCommand, FleetReport, ServerReport, StageReport, Summary, TargetOutcome,
    TargetReport,
};
pub use run::{run, EventFn, FleetEvent, FleetOptions};
