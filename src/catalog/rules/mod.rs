//! The catalog's lint rules over the model: server limits and key widths,
//! defaults, storable text, what a flavor lacks or refuses, engines, key
//! and foreign-key scope rules, column rules. Each finding names its rule
//! (`catalog::rule_ids`). Imports only the catalog's leaves (types, sink,
//! rule ids), never `catalog::read`.

pub(in crate::catalog) mod columns;
pub(in crate::catalog) mod defaults;
pub(in crate::catalog) mod engines;
pub(in crate::catalog) mod expr_facts;
pub(in crate::catalog) mod fk_scope;
pub(in crate::catalog) mod flavored;
pub(in crate::catalog) mod key_rules;
pub(in crate::catalog) mod limits;
pub(in crate::catalog) mod need;
pub(in crate::catalog) mod policy;
pub(in crate::catalog) mod refused;
pub(in crate::catalog) mod storable;
pub(in crate::catalog) mod widths;
