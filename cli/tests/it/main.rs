//! The `catalog` binary's integration tests: one test binary, one module
//! per topic (each was a test binary of its own before). [`cli_support`]
//! runs the binary and holds the fleet and conformance harnesses; [`common`]
//! is the library tests' helper module (the test database), shared.
//!
//! Run one module: `cargo test -p schema-catalog-cli --test it apply_cli::`
//! (docs/development.md).

mod cli_support;
// The library's test helpers; this binary uses part of them (the library's
// own test binary uses, and so dead-code checks, all of them).
#[path = "../../../tests/it/common/mod.rs"]
#[allow(dead_code, unused_imports)]
mod common;

mod apply_busy;
mod apply_cli;
mod apply_load;
mod apply_progress_cli;
mod apply_resilience;
mod apply_stats_cli;
mod check_positions;
mod cli_basics;
mod closed_pipe;
mod conformance_sqldef;
mod conformance_vitess;
mod cost_cli;
mod diff_cli;
mod duplicate_probe_cli;
mod explain_cli;
mod fix_cli;
mod fix_flavors_cli;
mod fleet_cli;
mod fleet_stop_cli;
mod fleet_verify_cli;
mod help_options;
mod hostile_catalog;
mod import_nothing_cli;
mod import_skipped_cli;
mod json_documents;
mod lint_output;
mod net_cli;
mod newcomer_cli;
mod newcomer_fleet;
mod newcomer_live;
mod offline_cli;
mod plan_data_dependent;
mod replicas_blocker_cli;
mod replicas_cli;
mod replicas_fleet_cli;
mod replicas_options_cli;
mod replicas_signals_cli;
mod secrets_cli;
mod verify_capacity_cli;
mod verify_cli;
mod view_under_table_name;
