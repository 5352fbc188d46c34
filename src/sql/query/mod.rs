//! The closed SQL surface of declared queries: a query's text is parsed with
//! sqlparser into exactly one SELECT (UNION ALL of SELECTs allowed), UPDATE
//! or DELETE of a small, checked subset, and re-rendered from the AST with
//! every literal produced by [`crate::ident::quote_str`], the one escaping
//! helper. Nothing of the text is pasted.
//!
//! The walk also reports what the catalog lint and the fixture generator
//! need: the tables and columns named, the number of `?` placeholders, and
//! for each placeholder the column it is compared with and how.
//!
//! The module's parts: `shape` is what the walk reports, `param` the
//! bound values and their literals; the walk itself is split between
//! `statement` (statements, query bodies, clauses and the FROM table) and
//! `expr` (expressions, literals, placeholders and function calls), both
//! methods of the one `Walker` defined here.

use super::lex::Token;
use sqlparser::ast::Statement;
use sqlparser::dialect::MySqlDialect;
use sqlparser::parser::Parser;

mod expr;
mod param;
mod shape;
mod statement;

pub use param::{is_number, Param};
pub use shape::{Binding, Cmp, Shape, StatementKind};

/// Parses `sql` into one statement of the allowed subset and describes it.
pub fn analyze(sql: &str) -> Result<Shape, String> {
    let mut stmt = parse(sql)?;
    let mut walker = Walker::new(None);
    walker.statement(&mut stmt)?;
    Ok(walker.shape)
}

/// Parses `sql` and renders it with each `?` replaced by its parameter's
/// literal. EXPLAIN cannot take bound parameters through the binary protocol
/// on every server (MariaDB's ANALYZE and TiDB's EXPLAIN ANALYZE are text
/// only), so the values become literals here, and only through
/// [`crate::ident::quote_str`]; the statement itself is re-rendered from the AST.
pub fn render(sql: &str, params: &[Param]) -> Result<String, String> {
    let mut stmt = parse(sql)?;
    let literals: Vec<String> = params.iter().map(Param::literal).collect();
    let mut walker = Walker::new(Some(literals));
    walker.statement(&mut stmt)?;
    if walker.shape.bindings.len() != params.len() {
        return Err(format!(
            "has {} placeholder(s) but {} parameter(s)",
            walker.shape.bindings.len(),
            params.len()
        ));
    }
    let text = stmt.to_string();
    // The rendered text must again be exactly one statement without comments.
    let tokens = super::lex::tokens(&text)?;
    if tokens.iter().any(|t| matches!(t, Token::SemiColon)) {
        return Err("renders with `;`".into());
    }
    Ok(text)
}

fn parse(sql: &str) -> Result<Statement, String> {
    let tokens = super::lex::tokens(sql)?;
    if tokens.iter().any(|t| matches!(t, Token::SemiColon)) {
        return Err("contains `;`: a query is one statement".into());
    }
    let mut statements = Parser::new(&MySqlDialect {})
        .with_tokens(tokens)
        .parse_statements()
        .map_err(|e| format!("does not parse: {e}"))?;
    match statements.len() {
        1 => Ok(statements.remove(0)),
        n => Err(format!("is {n} statements; declare exactly one")),
    }
}

/// The walk over one statement (its methods are in `statement` and `expr`):
/// what it found so far and, when rendering, the literals to substitute.
struct Walker {
    shape: Shape,
    /// Literals to substitute for the placeholders, in order (render only).
    literals: Option<Vec<String>>,
}

/// The error for a part of SQL outside the declared-query subset.
fn refuse<T>(what: impl std::fmt::Display) -> Result<T, String> {
    Err(format!(
        "uses {what}, which declared queries do not allow (see docs/explain.md)"
    ))
}

impl Walker {
    fn new(literals: Option<Vec<String>>) -> Walker {
        Walker {
            shape: Shape {
                kind: StatementKind::Select,
                tables: Vec::new(),
                columns: Vec::new(),
                bindings: Vec::new(),
                null_columns: Vec::new(),
                limit: None,
            },
            literals,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ident::Ident;

    fn p(s: &str) -> Param {
        Param::Text(s.into())
    }

    #[test]
    fn placeholders_become_escaped_literals() {
        let sql = "SELECT Id FROM T WHERE A = ? AND B <= ? ORDER BY B, Id LIMIT 1";
        let out = render(sql, &[p("it's \\"), Param::Number("3".into())]).unwrap();
        assert_eq!(
            out,
            "SELECT Id FROM T WHERE A = 'it''s \\\\' AND B <= 3 ORDER BY B, Id LIMIT 1"
        );
        let shape = analyze(sql).unwrap();
        assert_eq!(shape.limit, Some(1));
        assert_eq!(shape.bindings[1].column, Some((Ident::new("B"), Cmp::Le)));
    }

    #[test]
    fn text_literals_go_through_the_escaping_helper() {
        let out = render("SELECT Id FROM T WHERE A = 'a\\\\b'", &[]).unwrap();
        assert_eq!(out, "SELECT Id FROM T WHERE A = 'a\\\\b'");
        assert!(render("SELECT Id FROM T WHERE A = ?", &[]).is_err());
    }

    #[test]
    fn more_than_one_statement_or_a_comment_is_refused() {
        for sql in ["SELECT 1; DROP TABLE x", "SELECT Id FROM T -- c"] {
            assert!(analyze(sql).is_err(), "{sql}");
        }
    }
}
