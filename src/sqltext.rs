//! The closed SQL surface for catalog values that are not identifiers or
//! plain literals: storage-engine names from a closed set, and expression
//! defaults parsed with sqlparser into exactly one expression of an allowed
//! kind and re-rendered from the AST by this module's own printer.
//!
//! The printer is ours, not sqlparser's `Display`: sqlparser prints a string
//! literal without re-escaping backslashes, so `'a\\'` (the string `a\`)
//! would come out as `'a\'`, which MySQL reads as an escaped quote. Every
//! literal here goes through [`crate::ident::quote_str`], the one escaping
//! helper; function names are checked to be plain words; operators come from
//! a closed list. Anything else is refused with the offending text.

use crate::sql::lex::{tokens, Token};
use sqlparser::ast::{
    BinaryOperator, Expr, FunctionArg, FunctionArgExpr, FunctionArguments, InTarget, UnaryOperator,
    Value,
};
use sqlparser::dialect::MySqlDialect;
use sqlparser::parser::Parser;

use crate::ident::{quote_ident, quote_str, Ident};

/// Storage engines a catalog may name, in their canonical spelling (the
/// one `information_schema.TABLES.ENGINE` reports). Matched case-insensitively.
pub const ENGINES: &[&str] = &[
    "InnoDB",
    "MyISAM",
    "MEMORY",
    "Aria",
    "ARCHIVE",
    "CSV",
    "BLACKHOLE",
    "ROCKSDB",
];

/// The canonical spelling of a known storage engine, or `None`.
pub fn canonical_engine(name: &str) -> Option<&'static str> {
    ENGINES
        .iter()
        .copied()
        .find(|e| e.eq_ignore_ascii_case(name))
}

/// Why `engine` is not a known storage engine, if it is not (for lint messages).
pub fn engine_problem(engine: &str) -> Option<String> {
    canonical_engine(engine).is_none().then(|| {
        format!(
            "unknown engine `{}`; use one of: {}",
            engine.escape_debug(),
            ENGINES.join(", ")
        )
    })
}

/// Parses an expression default (the text inside `DEFAULT (...)`) into
/// exactly one expression of an allowed kind and renders it from the AST:
/// literals, calls of plainly named functions (no subqueries, windows or
/// column references), unary `-`/`+`/`NOT` and arithmetic, comparison and
/// logical operators, and parentheses. Errors name what is wrong.
pub fn render_default_expression(text: &str) -> Result<String, String> {
    render_one_expression(text, &[])
}

/// Parses a functional key part (`{expression: ...}` of an index) the same
/// way as an expression default, where an unquoted or backquoted name may
/// also be one of `columns` (the table's declared columns): it is rendered
/// with the declared spelling through the one quoting helper. Anything else
/// (another name, a qualified name, a subquery) is refused.
pub fn render_key_expression(text: &str, columns: &[Ident]) -> Result<String, String> {
    render_one_expression(text, columns)
}

/// Parses a CHECK constraint's condition like [`render_key_expression`]
/// (the table's declared columns may be named), where `IN (...)`,
/// `BETWEEN`, `IS [NOT] NULL` and `LIKE` are also allowed.
pub fn render_check_expression(text: &str, columns: &[Ident]) -> Result<String, String> {
    render_one_expression(text, columns)
}

/// Parses a generated column's expression like [`render_key_expression`]
/// (the table's declared columns may be named).
pub fn render_generated_expression(text: &str, columns: &[Ident]) -> Result<String, String> {
    render_one_expression(text, columns)
}

fn render_one_expression(text: &str, columns: &[Ident]) -> Result<String, String> {
    let tokens = tokens(text)?;
    if tokens.iter().any(|t| matches!(t, Token::SemiColon)) {
        return Err("contains `;`: an expression is one expression".into());
    }
    let mut parser = Parser::new(&MySqlDialect {}).with_tokens(tokens);
    let expr = parser
        .parse_expr()
        .map_err(|e| format!("is not an SQL expression: {e}"))?;
    if parser.peek_token().token != Token::EOF {
        return Err(format!(
            "is more than one expression: `{}` follows it",
            parser.peek_token().token
        ));
    }
    render_expr(&expr, columns)
}

fn render_expr(expr: &Expr, columns: &[Ident]) -> Result<String, String> {
    match expr {
        Expr::Value(v) => render_value(&v.value),
        Expr::Nested(inner) => Ok(format!("({})", render_expr(inner, columns)?)),
        Expr::UnaryOp { op, expr } => {
            let op = match op {
                UnaryOperator::Minus => "-",
                UnaryOperator::Plus => "+",
                UnaryOperator::Not => "NOT ",
                other => return Err(format!("uses the operator `{other}`, which is not allowed")),
            };
            Ok(format!("{op}{}", render_expr(expr, columns)?))
        }
        Expr::BinaryOp { left, op, right } => {
            let op = binary_operator(op)?;
            Ok(format!(
                "{} {op} {}",
                render_operand(left, columns)?,
                render_operand(right, columns)?
            ))
        }
        Expr::Function(f) => render_function(f, columns),
        Expr::IsNull(e) => Ok(format!("{} IS NULL", render_expr(e, columns)?)),
        Expr::IsNotNull(e) => Ok(format!("{} IS NOT NULL", render_expr(e, columns)?)),
        Expr::In {
            expr,
            target: InTarget::List(list),
            negated,
            global: false,
        } => {
            let not = if *negated { "NOT " } else { "" };
            Ok(format!(
                "{} {not}IN ({})",
                render_operand(expr, columns)?,
                render_list(list, columns)?
            ))
        }
        Expr::Between {
            expr,
            negated,
            low,
            high,
        } => {
            let not = if *negated { "NOT " } else { "" };
            Ok(format!(
                "{} {not}BETWEEN {} AND {}",
                render_expr(expr, columns)?,
                render_expr(low, columns)?,
                render_expr(high, columns)?
            ))
        }
        Expr::Like {
            negated,
            any: false,
            expr,
            pattern,
            escape_char: None,
        } => {
            let not = if *negated { "NOT " } else { "" };
            Ok(format!(
                "{} {not}LIKE {}",
                render_expr(expr, columns)?,
                render_expr(pattern, columns)?
            ))
        }
        Expr::Tuple(_) => Err(format!(
            "is the row `{expr}`, which is allowed only where it is compared (`(a, b) IN ((1, 2))`)"
        )),
        Expr::TypedString(t) if !t.uses_odbc_syntax => {
            let keyword = temporal_keyword(&t.data_type).ok_or_else(|| {
                format!("uses the typed literal `{t}`, which is not allowed (DATE, TIME, TIMESTAMP are)")
            })?;
            match &t.value.value {
                Value::SingleQuotedString(s) => Ok(format!("{keyword} {}", quote_str(s))),
                _ => Err(format!("uses the typed literal `{t}`, which is not allowed")),
            }
        }
        Expr::Case {
            operand,
            conditions,
            else_result,
            ..
        } => {
            let mut out = String::from("CASE");
            if let Some(operand) = operand {
                out.push_str(&format!(" {}", render_expr(operand, columns)?));
            }
            for when in conditions {
                out.push_str(&format!(
                    " WHEN {} THEN {}",
                    render_expr(&when.condition, columns)?,
                    render_expr(&when.result, columns)?
                ));
            }
            if let Some(other) = else_result {
                out.push_str(&format!(" ELSE {}", render_expr(other, columns)?));
            }
            Ok(format!("{out} END"))
        }
        Expr::Identifier(i) if matches!(i.quote_style, None | Some('`')) => {
            let name = Ident::new(i.value.clone());
            match columns.iter().find(|c| **c == name) {
                Some(c) => Ok(quote_ident(c.as_str())),
                None if columns.is_empty() => Err(format!(
                    "names `{}`, a column or keyword: an expression default may use only literals and function calls",
                    i.value.escape_debug()
                )),
                None => Err(format!(
                    "names `{}`, which is not a column of the table",
                    i.value.escape_debug()
                )),
            }
        }
        Expr::Identifier(i) => Err(format!(
            "names `{}`, a column or keyword: an expression default may use only literals and function calls",
            i.value.escape_debug()
        )),
        other => Err(format!(
            "is `{other}`, which is not an allowed default expression (literals, function calls, arithmetic)"
        )),
    }
}

/// An operand of a comparison or `IN`, where a row constructor
/// (`(a, b) IN ((1, 3), (2, 4))`) is also allowed; the server refuses a row
/// anywhere else ("Operand should contain 1 column").
fn render_operand(expr: &Expr, columns: &[Ident]) -> Result<String, String> {
    match expr {
        Expr::Tuple(items) => Ok(format!("({})", render_list(items, columns)?)),
        other => render_expr(other, columns),
    }
}

fn render_list(list: &[Expr], columns: &[Ident]) -> Result<String, String> {
    let items = list
        .iter()
        .map(|e| render_operand(e, columns))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(items.join(", "))
}

/// The keyword of a typed temporal literal (`DATE '2020-01-01'`), from a
/// closed set; a precision or time zone clause is not one of them.
fn temporal_keyword(data_type: &sqlparser::ast::DataType) -> Option<&'static str> {
    use sqlparser::ast::{DataType as D, TimezoneInfo};
    match data_type {
        D::Date => Some("DATE"),
        D::Time(None, TimezoneInfo::None) => Some("TIME"),
        D::Timestamp(None, TimezoneInfo::None) => Some("TIMESTAMP"),
        _ => None,
    }
}

fn binary_operator(op: &BinaryOperator) -> Result<&'static str, String> {
    use BinaryOperator as B;
    Ok(match op {
        B::Plus => "+",
        B::Minus => "-",
        B::Multiply => "*",
        B::Divide => "/",
        B::Modulo => "%",
        B::Eq => "=",
        B::NotEq => "<>",
        B::Lt => "<",
        B::LtEq => "<=",
        B::Gt => ">",
        B::GtEq => ">=",
        B::And => "AND",
        B::Or => "OR",
        other => return Err(format!("uses the operator `{other}`, which is not allowed")),
    })
}

fn render_value(v: &Value) -> Result<String, String> {
    match v {
        Value::Number(n, false) if is_plain_number(&n.to_string()) => Ok(n.to_string()),
        Value::SingleQuotedString(s) | Value::DoubleQuotedString(s) => Ok(quote_str(s)),
        Value::Boolean(b) => Ok(if *b { "TRUE" } else { "FALSE" }.into()),
        Value::Null => Ok("NULL".into()),
        other => Err(format!("uses the literal `{other}`, which is not allowed")),
    }
}

fn is_plain_number(n: &str) -> bool {
    !n.is_empty()
        && n.chars().all(|c| c.is_ascii_digit() || c == '.')
        && n.chars().filter(|c| *c == '.').count() <= 1
}

fn render_function(f: &sqlparser::ast::Function, columns: &[Ident]) -> Result<String, String> {
    let name = match f.name.0.as_slice() {
        [part] => part
            .as_ident()
            .filter(|i| i.quote_style.is_none())
            .map(|i| i.value.clone()),
        _ => None,
    }
    .filter(|n| {
        n.starts_with(|c: char| c.is_ascii_alphabetic())
            && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
    .ok_or_else(|| format!("calls `{}`, which is not a plain function name", f.name))?;
    let plain = !f.uses_odbc_syntax
        && matches!(f.parameters, FunctionArguments::None)
        && f.within_group.is_empty()
        && f.filter.is_none()
        && f.null_treatment.is_none()
        && f.over.is_none();
    if !plain {
        return Err(format!(
            "calls `{name}` with clauses (window, filter, ...), which are not allowed"
        ));
    }
    let args = match &f.args {
        FunctionArguments::None => return Ok(name),
        FunctionArguments::Subquery(_) => return Err(format!("passes a subquery to `{name}`")),
        FunctionArguments::List(list) => {
            if list.duplicate_treatment.is_some() || !list.clauses.is_empty() {
                return Err(format!(
                    "calls `{name}` with DISTINCT/ORDER BY-style clauses"
                ));
            }
            list.args
                .iter()
                .map(|a| match a {
                    FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => render_expr(e, columns),
                    other => Err(format!(
                        "passes `{other}` to `{name}`, which is not allowed"
                    )),
                })
                .collect::<Result<Vec<_>, _>>()?
        }
    };
    Ok(format!("{name}({})", args.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engines_are_a_closed_set() {
        assert_eq!(canonical_engine("innodb"), Some("InnoDB"));
        assert_eq!(canonical_engine("Aria"), Some("Aria"));
        assert!(engine_problem("InnoDB; DROP TABLE keepme; --").is_some());
        assert!(engine_problem("InnoDB ").is_some());
        assert!(engine_problem("").is_some());
    }

    #[test]
    fn allowed_expressions_render_from_the_ast() {
        for (text, want) in [
            ("uuid_to_bin(uuid())", "uuid_to_bin(uuid())"),
            ("concat('a','b')", "concat('a', 'b')"),
            ("concat('a\\\\', 'b')", "concat('a\\\\', 'b')"),
            ("1 + 2 * 3", "1 + 2 * 3"),
            ("-(1)", "-(1)"),
            ("curdate()", "curdate()"),
            ("'it''s'", "'it''s'"),
        ] {
            assert_eq!(
                render_default_expression(text).as_deref(),
                Ok(want),
                "{text}"
            );
        }
    }

    #[test]
    fn key_expressions_may_name_declared_columns_only() {
        let cols = [Ident::new("Note"), Ident::new("Id")];
        assert_eq!(
            render_key_expression("lower(note)", &cols).as_deref(),
            Ok("lower(`Note`)")
        );
        assert_eq!(
            render_key_expression("`Id` + 1", &cols).as_deref(),
            Ok("`Id` + 1")
        );
        for text in [
            "lower(Other)",
            "t.Note",
            "(select Note)",
            "Note; drop",
            "Note -- x",
        ] {
            assert!(render_key_expression(text, &cols).is_err(), "{text}");
        }
    }

    #[test]
    fn check_conditions_render_from_the_ast() {
        let cols = [Ident::new("State"), Ident::new("Attempts")];
        for (text, want) in [
            ("Attempts >= 0", "`Attempts` >= 0"),
            ("state in ('a','b')", "`State` IN ('a', 'b')"),
            ("Attempts between 0 and 9", "`Attempts` BETWEEN 0 AND 9"),
            (
                "State is not null or Attempts is null",
                "`State` IS NOT NULL OR `Attempts` IS NULL",
            ),
            ("State not like 'x%'", "`State` NOT LIKE 'x%'"),
            (
                "(state, attempts) in ((1,3),(2,4))",
                "(`State`, `Attempts`) IN ((1, 3), (2, 4))",
            ),
            (
                "(State, Attempts) = ('a', 1)",
                "(`State`, `Attempts`) = ('a', 1)",
            ),
            (
                "State >= DATE'2020-01-01' and State < timestamp '2030-01-01 00:00:00'",
                "`State` >= DATE '2020-01-01' AND `State` < TIMESTAMP '2030-01-01 00:00:00'",
            ),
            (
                "case when attempts = 0 then state else null end is not null",
                "CASE WHEN `Attempts` = 0 THEN `State` ELSE NULL END IS NOT NULL",
            ),
            (
                "case state when 'a' then 1 end = 1",
                "CASE `State` WHEN 'a' THEN 1 END = 1",
            ),
        ] {
            assert_eq!(
                render_check_expression(text, &cols).as_deref(),
                Ok(want),
                "{text}"
            );
        }
        assert!(render_check_expression("State in (select 1)", &cols).is_err());
        for text in [
            // A row is compared, never a value of its own.
            "(State, Attempts)",
            "lower((State, Attempts)) = 'a'",
            // Typed literals of a closed set, a plain string value only.
            "State = INTERVAL '1' DAY",
            "State = TIME(3) '12:00:00'",
            "State = DATE '2020' || x",
        ] {
            assert!(render_check_expression(text, &cols).is_err(), "{text}");
        }
    }

    #[test]
    fn hostile_expressions_are_refused() {
        for text in [
            "(concat(1,2)) , x int",
            "1; DROP TABLE keepme",
            "1 -- x",
            "1 /*! , x int */",
            "(select 1)",
            "other_column",
            "`f`(1)",
            "a.b(1)",
            "count(*) over ()",
            "x'00'",
            "concat('a\\', ') , x int -- ')",
            "",
        ] {
            assert!(render_default_expression(text).is_err(), "{text}");
        }
    }
}
