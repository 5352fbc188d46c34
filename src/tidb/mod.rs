//! TiDB's part of reading and comparing tables: [`scan`] reads the TiDB
//! clauses of `SHOW CREATE TABLE` text, [`drift`] compares the declared
//! features with the live ones. The typed values themselves
//! ([`crate::model::tidb`]) live in the model, beside the table that holds
//! them; they are re-exported here.

mod drift;
pub(crate) mod scan;

pub use drift::{auto_random_pending, drift};

pub use crate::model::tidb::*;
