//! The library's integration tests: one test binary, one module per topic
//! (a module was a test binary of its own before; linking the library into
//! each of ~54 binaries dominated a fresh build). Shared helpers live in
//! [`common`] (the test database, relays, counters, the source scanner) and
//! [`tables`] (representative tables).
//!
//! Run one module: `cargo test --test it apply_live::` (docs/development.md).

mod common;
mod tables;

mod apply_live;
mod apply_progress;
mod apply_read_retry;
mod apply_report;
mod attributes_live;
mod auto_increment_capacity;
mod busy_idle_live;
mod busy_live;
mod catalog_check;
mod catalog_embedded;
mod checks_live;
mod collation_stated_live;
mod connect_endpoint;
mod cost_live;
mod ddl_property;
mod ddl_render;
mod dump_file;
mod dump_parse;
mod exact_live;
mod example_service;
mod explain_live;
mod explain_queue_live;
mod fleet_file;
mod fleet_file_named;
mod fleet_replicas;
mod foreign_keys_live;
mod gate_live;
mod gate_outside_crate;
mod import_live;
mod import_round_trip;
mod index_features_live;
mod inspect_live;
mod inspect_round_trips;
mod inspect_shapes;
mod json_schemas;
mod lint_agrees_live;
mod meaning_property;
mod mid_build_live;
mod module_layers;
mod mysql_paths;
mod net_live;
mod one_catalog_live;
mod one_printer;
mod partitioned_live;
mod plan_snapshots;
mod queries_lint;
mod release_review;
mod release_review_live;
mod render_mariadb;
mod replicas_live;
mod replicas_load_live;
mod replicas_wait_live;
mod reserved_words;
mod row_format_live;
mod server_limits_live;
mod session_state_live;
mod shipped_catalog;
mod tidb_features;
mod tidb_features_live;
mod tidb_features_warning;
mod unique_data_dependent;
mod upgrade_features_live;
mod upgrade_show_create;
mod v2_columns_live;
mod v2_generated_live;
mod verify_live;
mod widen_live;
mod widen_storage_live;
