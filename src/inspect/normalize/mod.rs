//! Per-flavor normalisation of raw `information_schema` values into the typed
//! model: one small pure function per rule, so that equal physical shapes on
//! TiDB, MySQL 8 and MariaDB read back as equal [`Column`]s and [`Index`]es.
//!
//! `columns`: COLUMNS rows to [`Column`](crate::model::Column)s; `indexes`:
//! STATISTICS rows to [`Index`](crate::model::Index)es.

mod columns;
mod indexes;

pub use columns::*;
pub use indexes::*;
