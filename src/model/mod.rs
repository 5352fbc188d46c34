//! The one typed model of tables, columns and indexes, produced alike by the
//! catalog loader, live inspection and the dump parser, and compared by `diff`.
//!
//! Values are kept normalised (canonical collation names, typed column types,
//! typed defaults) so that equal physical shapes compare equal across flavors.
//!
//! One file per part: `default` (column defaults), `column` (columns,
//! generated columns), `index` (indexes, key parts, FULLTEXT parsers),
//! `constraint` (CHECK constraints, foreign keys), `table` (tables and
//! what a live name is), `online` (why a missing object is not added
//! online). Everything is re-exported here, but `describe`: the texts that
//! describe each part in DDL and findings.

mod by_name;
mod column;
mod constraint;
mod default;
pub(crate) mod describe;
mod index;
mod online;
pub(crate) mod shape;
mod table;
pub(crate) mod tidb;
mod widen;

pub use by_name::{ByName, Named};
pub use column::*;
pub use constraint::*;
pub use default::*;
pub use index::*;
pub use online::NotOnline;
pub use table::*;
pub use tidb::{on_tidb, AutoRandom, TidbOptions, Ttl, TtlInterval, TtlUnit};
pub use widen::{Widen, WidenRule, Widens};

use crate::ident::Ident;

impl From<String> for Ident {
    fn from(s: String) -> Self {
        Ident::new(s)
    }
}
