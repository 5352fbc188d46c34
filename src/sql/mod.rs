//! The SQL-text layer, at the bottom of the house: it depends on nothing
//! above [`crate::ident`] (the one quoting and escaping helper).
//!
//! - `lex` (internal): the one lexer, sqlparser's MySQL tokenizer with byte ranges
//!   and the `/*!NNNNN */` and `/*T![...] */` comment hints marked.
//! - `print` (internal): the one printer of expressions (the closed catalog style,
//!   the structural style for comparing, the exact one for dumps), every
//!   literal through [`crate::ident::quote_str`].
//! - `walk` (internal): the one walk over an expression's nodes.
//! - [`query`]: the closed subset of declared queries (SELECT, UPDATE,
//!   DELETE), parsed and re-rendered from the AST; the catalog lints with
//!   it and `explain` runs it.

pub(crate) mod lex;
pub(crate) mod print;
pub mod query;
pub(crate) mod walk;
