//! The SQL-text layer, at the bottom of the house: it depends on nothing
//! above [`crate::ident`] (the one quoting and escaping helper).
//!
//! - [`lex`]: the one lexer, sqlparser's MySQL tokenizer with byte ranges
//!   and the `/*!NNNNN */` and `/*T![...] */` comment hints marked.
//! - [`query`]: the closed subset of declared queries (SELECT, UPDATE,
//!   DELETE), parsed and re-rendered from the AST; the catalog lints with
//!   it and `explain` runs it.

pub mod lex;
pub mod query;
