//! The SQL-text layer, at the bottom of the house: it depends on nothing
//! above [`crate::ident`] (the one quoting and escaping helper).
//!
//! - [`query`]: the closed subset of declared queries (SELECT, UPDATE,
//!   DELETE), parsed and re-rendered from the AST; the catalog lints with
//!   it and `explain` runs it.

pub mod query;
