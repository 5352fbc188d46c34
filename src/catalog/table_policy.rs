//! The catalog's policy on a table: which consumers require it and each of
//! its columns and indexes (`required_by`), and which columns apply may
//! widen online (`widen`). Not physical shape: the model ([`crate::model`])
//! never carries it, a server or a dump never has it. The reader fills it
//! beside the table ([`super::CatalogTable::policy`]); scoping, the lint
//! rules on scopes, the review and explain read it here, and diff gets the
//! widening opt-ins as a [`Widens`] ([`super::Catalog::widens`]).

use std::collections::BTreeMap;

use crate::ident::Ident;
use crate::model::{Widen, Widens};

/// What the catalog says of one table beyond its shape.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TablePolicy {
    /// Consumers that require the table; empty: the base contract.
    pub required_by: Vec<String>,
    /// Per declared column (by name, case-insensitive).
    pub columns: BTreeMap<Ident, ColumnPolicy>,
    /// Per declared index (by name, case-insensitive): the consumers that
    /// require it; empty: the base contract.
    pub indexes: BTreeMap<Ident, Vec<String>>,
}

/// What the catalog says of one column beyond its shape.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ColumnPolicy {
    /// Consumers that require the column; empty: the base contract.
    pub required_by: Vec<String>,
    /// Whether apply may widen the live column to the catalog's shape
    /// online (the column's `widen`, else `defaults: { widen: true }`).
    pub widen: Widen,
}

impl TablePolicy {
    /// The consumers that require column `name` (empty: the base
    /// contract, also for a column the policy does not list).
    pub fn column_required_by(&self, name: &Ident) -> &[String] {
        self.columns
            .get(name)
            .map_or(&[], |c| c.required_by.as_slice())
    }

    /// The consumers that require index `name` (empty: the base contract).
    pub fn index_required_by(&self, name: &Ident) -> &[String] {
        self.indexes.get(name).map_or(&[], Vec::as_slice)
    }

    /// Column `name`'s widening opt-in ([`Widen::Off`] when not listed).
    pub fn widen(&self, name: &Ident) -> Widen {
        self.columns.get(name).map_or(Widen::Off, |c| c.widen)
    }

    /// Adds this table's (`table`) opt-ins to `widens`.
    pub(super) fn add_widens(&self, table: &Ident, widens: &mut Widens) {
        for (column, policy) in &self.columns {
            widens.set(table, column, policy.widen);
        }
    }
}
