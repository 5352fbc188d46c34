//! One canonical text for a SQL expression (an expression default, a
//! generation expression), so that the catalog's spelling, MariaDB's and
//! MySQL's compare equal: parsed with sqlparser's MySQL dialect and rendered
//! from the AST, with charset introducers (`_utf8mb4'a'`, as MySQL reports
//! string literals in expressions) dropped and redundant outer parentheses
//! removed. Text that does not parse as one expression is kept with its
//! whitespace collapsed, so it still compares by its own spelling.

use sqlparser::ast::Expr;
use sqlparser::dialect::MySqlDialect;
use sqlparser::parser::Parser;
use sqlparser::tokenizer::{Token, Tokenizer};

/// The canonical text of `text` as one expression (case kept).
pub fn canonical(text: &str) -> String {
    rendered(text).unwrap_or_else(|| text.split_whitespace().collect::<Vec<_>>().join(" "))
}

fn rendered(text: &str) -> Option<String> {
    let dialect = MySqlDialect {};
    let tokens = Tokenizer::new(&dialect, text).tokenize().ok()?;
    // A default that is only an introduced string (`(_utf8mb4'{}')`) keeps
    // its introducer: without it, it would read as a literal default, which
    // is another thing (refused on json, for one).
    let tokens = if is_one_introduced_string(&tokens) {
        tokens
    } else {
        without_introducers(tokens)
    };
    let mut parser = Parser::new(&dialect).with_tokens(tokens);
    let mut expr = parser.parse_expr().ok()?;
    if parser.peek_token().token != Token::EOF {
        return None;
    }
    while let Expr::Nested(inner) = expr {
        expr = *inner;
    }
    Some(expr.to_string())
}

fn is_introducer(t: &Token) -> bool {
    matches!(t, Token::Word(w) if w.quote_style.is_none() && w.value.starts_with('_') && w.value.len() > 1)
}

fn is_string(t: &Token) -> bool {
    matches!(
        t,
        Token::SingleQuotedString(_) | Token::DoubleQuotedString(_) | Token::HexStringLiteral(_)
    )
}

/// `_charset'text'`, possibly in parentheses, and nothing else.
fn is_one_introduced_string(tokens: &[Token]) -> bool {
    let core: Vec<&Token> = tokens
        .iter()
        .filter(|t| !matches!(t, Token::Whitespace(_) | Token::LParen | Token::RParen))
        .collect();
    matches!(core.as_slice(), [a, b] if is_introducer(a) && is_string(b))
}

/// A structural text of `text` as one expression, for comparing a declared
/// condition with a server's spelling of it: charset introducers dropped;
/// every operator application printed in its own parentheses and every
/// written grouping dropped (the parse tree already holds it), so MySQL's
/// fully parenthesised `((a <> 'x') or (b is null))` and `a <> 'x' OR b IS
/// NULL` agree while `(a or b) and c` and `a or b and c` do not; names,
/// keywords and function names lowercased and unquoted; literals kept as
/// written. Text that does not parse falls back to [`canonical`], lowercased.
pub fn structural(text: &str) -> String {
    let dialect = MySqlDialect {};
    let parsed = Tokenizer::new(&dialect, text)
        .tokenize()
        .ok()
        .and_then(|tokens| {
            let mut parser = Parser::new(&dialect).with_tokens(without_introducers(tokens));
            let expr = parser.parse_expr().ok()?;
            (parser.peek_token().token == Token::EOF).then_some(expr)
        });
    match parsed {
        Some(expr) => tree(&expr),
        None => canonical(text).to_lowercase(),
    }
}

fn tree(expr: &Expr) -> String {
    use sqlparser::ast::{FunctionArg, FunctionArgExpr, FunctionArguments, InTarget};
    let not = |negated: bool| if negated { "not " } else { "" };
    match expr {
        Expr::Nested(inner) => tree(inner),
        Expr::Identifier(i) => i.value.to_lowercase(),
        Expr::CompoundIdentifier(parts) => parts
            .iter()
            .map(|i| i.value.to_lowercase())
            .collect::<Vec<_>>()
            .join("."),
        Expr::BinaryOp { left, op, right } => format!(
            "({} {} {})",
            tree(left),
            op.to_string().to_lowercase(),
            tree(right)
        ),
        Expr::UnaryOp { op, expr } => format!("({} {})", op.to_string().to_lowercase(), tree(expr)),
        Expr::IsNull(e) => format!("({} is null)", tree(e)),
        Expr::IsNotNull(e) => format!("({} is not null)", tree(e)),
        Expr::Between {
            expr,
            negated,
            low,
            high,
        } => format!(
            "({} {}between {} and {})",
            tree(expr),
            not(*negated),
            tree(low),
            tree(high)
        ),
        Expr::In {
            expr,
            target: InTarget::List(list),
            negated,
            ..
        } => format!(
            "({} {}in ({}))",
            tree(expr),
            not(*negated),
            list.iter().map(tree).collect::<Vec<_>>().join(", ")
        ),
        Expr::Like {
            negated,
            expr,
            pattern,
            escape_char: None,
            ..
        } => format!("({} {}like {})", tree(expr), not(*negated), tree(pattern)),
        Expr::Function(f) => {
            let args = match &f.args {
                FunctionArguments::List(list) if list.clauses.is_empty() => list
                    .args
                    .iter()
                    .map(|a| match a {
                        FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => tree(e),
                        other => other.to_string().to_lowercase(),
                    })
                    .collect::<Vec<_>>()
                    .join(", "),
                FunctionArguments::None => return f.name.to_string().to_lowercase(),
                other => other.to_string().to_lowercase(),
            };
            format!("{}({args})", f.name.to_string().to_lowercase())
        }
        other => other.to_string(),
    }
}

/// Drops a `_charset` word written right before a string literal (spaces
/// between them allowed, as MySQL allows and sqlparser prints them).
fn without_introducers(tokens: Vec<Token>) -> Vec<Token> {
    let mut out = Vec::with_capacity(tokens.len());
    for (i, t) in tokens.iter().enumerate() {
        let next = tokens[i + 1..]
            .iter()
            .find(|t| !matches!(t, Token::Whitespace(_)));
        if !(is_introducer(t) && next.is_some_and(is_string)) {
            out.push(t.clone());
        }
    }
    out
}

/// MySQL's `information_schema` text of an expression default: the
/// expression with `'` and `\` backslash-escaped (`concat(_utf8mb4\'a\')`).
pub fn unescape_mysql_default(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.extend(chars.next()),
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalog_mariadb_and_mysql_spellings_agree() {
        let want = canonical("concat('a', 'b')");
        assert_eq!(want, "concat('a', 'b')");
        for spelling in [
            "concat('a','b')",
            "(concat('a' , 'b'))",
            "concat(_utf8mb4'a',_utf8mb4'b')",
            &unescape_mysql_default(r"concat(_utf8mb4\'a\',_utf8mb4\'b\')"),
        ] {
            assert_eq!(canonical(spelling), want, "{spelling}");
        }
        assert_eq!(
            canonical(&unescape_mysql_default(r"concat(_utf8mb4\'it\\\'s\')")),
            canonical("concat('it''s')")
        );
        assert_eq!(canonical("(`d` + 1)"), canonical("`d` + 1"));
        assert_eq!(canonical("(1) + (2)"), "(1) + (2)");
        assert_eq!(canonical("json_array()"), "json_array()");
        // Only an introduced string: kept, or it would read as a literal.
        assert_eq!(
            canonical(&unescape_mysql_default(r"_utf8mb4\'{}\'")),
            canonical("(_utf8mb4'{}')")
        );
        assert!(canonical("(_utf8mb4'{}')").contains("_utf8mb4"));
    }

    #[test]
    fn structure_compares_servers_spellings_of_a_condition() {
        let declared = structural("`State` <> 'done' OR `FinishedAt` IS NOT NULL");
        let mysql = unescape_mysql_default(
            r"((`State` <> _utf8mb4\'done\') or (`FinishedAt` is not null))",
        );
        assert_eq!(structural(&mysql), declared);
        assert_eq!(
            structural("(`State` in (_utf8mb4'a',_utf8mb4'b'))"),
            structural("State IN ('a', 'b')")
        );
        assert_eq!(structural("(lower(`Queue`))"), structural("LOWER(Queue)"));
        assert_ne!(structural("(a or b) and c"), structural("a or b and c"));
        assert_ne!(structural("a = 'X'"), structural("a = 'x'"));
    }

    #[test]
    fn unparsable_text_keeps_its_spelling() {
        assert_eq!(canonical("not  an ) expression"), "not an ) expression");
        assert_eq!(canonical("a b"), "a b");
    }
}
