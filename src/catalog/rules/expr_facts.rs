//! What the server rules need to know about a generated column's or a
//! CHECK constraint's expression: the columns it names, the functions it
//! calls, whether it reads a variable, whether it is a condition. Works on
//! catalog text (rendered by the closed renderer, columns backquoted) and
//! on the text `catalog import` reads back from a server or a dump (also
//! backquoted), so lint and import narrowing see the same facts.

use sqlparser::ast::{BinaryOperator, Expr, UnaryOperator, Value};
use sqlparser::dialect::MySqlDialect;
use sqlparser::parser::Parser;

use crate::ident::Ident;
use crate::sql::lex::{self, Token};

/// One function call (or niladic keyword such as `CURRENT_TIMESTAMP`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::catalog) struct Call {
    /// Lowercase name.
    pub name: String,
    /// Whether it is passed at least one argument.
    pub has_args: bool,
}

/// Whether an expression is a condition, in MySQL's sense (error 3812
/// refuses a CHECK that is not one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::catalog) enum Truth {
    /// A comparison, logical operator, `IN`, `BETWEEN`, `LIKE`, `IS NULL`,
    /// `TRUE`/`FALSE` or a known predicate function.
    Condition,
    /// A literal, a column, arithmetic, `CASE` or a known value function:
    /// MySQL 9.7 refuses each as a CHECK (probed).
    Value,
    /// Anything else (an unlisted function): not judged.
    Unknown,
}

/// Functions probed on MySQL 9.7 to return a value rather than a condition
/// (each refused as a CHECK with error 3812).
const VALUE_FUNCTIONS: &[&str] = &[
    "abs",
    "char_length",
    "coalesce",
    "concat",
    "greatest",
    "if",
    "ifnull",
    "json_array",
    "json_extract",
    "json_length",
    "json_unquote",
    "least",
    "length",
    "lower",
    "nullif",
    "round",
    "substring",
    "trim",
    "upper",
];

/// The backquoted names in `text` (the columns it reads).
pub(in crate::catalog) fn columns(text: &str) -> Vec<Ident> {
    lex::tokens(text)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|t| match t {
            Token::Word(w) if w.quote_style == Some('`') => Some(Ident::new(w.value)),
            _ => None,
        })
        .collect()
}

/// The calls in `text`: an unquoted word followed by `(`, or one of the
/// niladic keywords the servers also accept without parentheses.
pub(in crate::catalog) fn calls(text: &str) -> Vec<Call> {
    const NILADIC: &[&str] = &[
        "current_timestamp",
        "current_date",
        "current_time",
        "current_user",
        "localtime",
        "localtimestamp",
        "utc_date",
        "utc_time",
        "utc_timestamp",
    ];
    let tokens: Vec<Token> = lex::tokens(text)
        .unwrap_or_default()
        .into_iter()
        .filter(|t| !matches!(t, Token::Whitespace(_)))
        .collect();
    let mut out = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        let Token::Word(w) = t else { continue };
        if w.quote_style.is_some() {
            continue;
        }
        let name = w.value.to_ascii_lowercase();
        let has_args = match (tokens.get(i + 1), tokens.get(i + 2)) {
            (Some(Token::LParen), Some(Token::RParen)) => false,
            (Some(Token::LParen), _) => true,
            _ if NILADIC.contains(&name.as_str()) => false,
            _ => continue,
        };
        out.push(Call { name, has_args });
    }
    out
}

/// Whether `text` reads a user (`@x`) or system (`@@x`) variable.
pub(in crate::catalog) fn reads_variable(text: &str) -> bool {
    lex::tokens(text)
        .unwrap_or_default()
        .iter()
        .any(|t| match t {
            Token::AtSign => true,
            Token::Word(w) => w.quote_style.is_none() && w.value.starts_with('@'),
            _ => false,
        })
}

/// Whether `text` is a condition; [`Truth::Unknown`] when it does not parse.
pub(in crate::catalog) fn truth(text: &str) -> Truth {
    let Ok(tokens) = lex::tokens(text) else {
        return Truth::Unknown;
    };
    let mut parser = Parser::new(&MySqlDialect {}).with_tokens(tokens);
    match parser.parse_expr() {
        Ok(expr) if parser.peek_token().token == Token::EOF => truth_of(&expr),
        _ => Truth::Unknown,
    }
}

fn truth_of(expr: &Expr) -> Truth {
    use BinaryOperator as B;
    match expr {
        Expr::Nested(inner) => truth_of(inner),
        Expr::Value(v) => match v.value {
            Value::Boolean(_) => Truth::Condition,
            _ => Truth::Value,
        },
        Expr::Identifier(_) | Expr::CompoundIdentifier(_) | Expr::TypedString(_) => Truth::Value,
        Expr::Case { .. } => Truth::Value,
        Expr::UnaryOp { op, .. } => match op {
            UnaryOperator::Not => Truth::Condition,
            UnaryOperator::Minus | UnaryOperator::Plus => Truth::Value,
            _ => Truth::Unknown,
        },
        Expr::BinaryOp { op, .. } => match op {
            B::Eq
            | B::NotEq
            | B::Lt
            | B::LtEq
            | B::Gt
            | B::GtEq
            | B::Spaceship
            | B::And
            | B::Or
            | B::Xor => Truth::Condition,
            B::Plus | B::Minus | B::Multiply | B::Divide | B::Modulo | B::MyIntegerDivide => {
                Truth::Value
            }
            _ => Truth::Unknown,
        },
        Expr::IsNull(_)
        | Expr::IsNotNull(_)
        | Expr::IsTrue(_)
        | Expr::IsNotTrue(_)
        | Expr::IsFalse(_)
        | Expr::IsNotFalse(_)
        | Expr::In { .. }
        | Expr::Between { .. }
        | Expr::Like { .. }
        | Expr::RLike { .. } => Truth::Condition,
        Expr::Function(f) => {
            let name = crate::sql::print::name(&f.name).to_ascii_lowercase();
            if VALUE_FUNCTIONS.contains(&name.as_str()) {
                Truth::Value
            } else {
                Truth::Unknown
            }
        }
        _ => Truth::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_are_words_before_a_parenthesis_or_niladic_keywords() {
        let names = |t: &str| -> Vec<(String, bool)> {
            calls(t).into_iter().map(|c| (c.name, c.has_args)).collect()
        };
        assert_eq!(
            names("`At` < NOW() AND unix_timestamp(`At`) > 0"),
            vec![("now".into(), false), ("unix_timestamp".into(), true)]
        );
        assert_eq!(
            names("`At` < CURRENT_TIMESTAMP"),
            vec![("current_timestamp".into(), false)]
        );
        assert_eq!(names("`now` + 1"), vec![]);
    }

    #[test]
    fn variables_and_columns_are_found() {
        assert!(reads_variable("`A` < @x"));
        assert!(reads_variable("`A` < @@max_connections"));
        assert!(!reads_variable("`A` < 'a@b'"));
        assert_eq!(columns("`A` + `b`"), vec![Ident::new("A"), Ident::new("B")]);
    }

    #[test]
    fn conditions_values_and_unknowns() {
        for c in [
            "`A` > 0",
            "NOT `A`",
            "(`A` > 0)",
            "`A` IN (1, 2)",
            "TRUE",
            "`A` IS NULL",
            "`A` > 0 XOR `A` < 5",
        ] {
            assert_eq!(truth(c), Truth::Condition, "{c}");
        }
        for v in [
            "`A`",
            "`A` + 1",
            "1",
            "'x'",
            "NULL",
            "-(`A` > 0)",
            "coalesce(`A` > 0, FALSE)",
            "CASE WHEN `A` > 0 THEN TRUE ELSE FALSE END",
        ] {
            assert_eq!(truth(v), Truth::Value, "{v}");
        }
        for u in ["json_valid(`A`)", "strcmp(`A`, 'a')"] {
            assert_eq!(truth(u), Truth::Unknown, "{u}");
        }
    }
}
