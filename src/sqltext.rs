//! The closed SQL surface for catalog values that are not identifiers or
//! plain literals: storage-engine names from a closed set, and catalog
//! expressions (defaults, CHECK conditions, generated columns, key parts)
//! read by the one lexer into exactly one expression and re-rendered from
//! the AST by the one printer in its closed style (`sql::print`):
//! every literal through [`crate::ident::quote_str`], function names plain
//! words, operators from a closed list. Anything else is refused with the
//! offending text.

use crate::ident::Ident;
use crate::sql::lex::{tokens, Token};
use crate::sql::print::{self, Context};

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
    render_one_expression(text, &[], Context::Default)
}

/// Parses a functional key part (`{expression: ...}` of an index) the same
/// way as an expression default, where an unquoted or backquoted name may
/// also be one of `columns` (the table's declared columns): it is rendered
/// with the declared spelling through the one quoting helper. Anything else
/// (another name, a qualified name, a subquery) is refused.
pub fn render_key_expression(text: &str, columns: &[Ident]) -> Result<String, String> {
    render_one_expression(text, columns, Context::KeyPart)
}

/// Parses a CHECK constraint's condition like [`render_key_expression`]
/// (the table's declared columns may be named), where `IN (...)`,
/// `BETWEEN`, `IS [NOT] NULL` and `LIKE` are also allowed.
pub fn render_check_expression(text: &str, columns: &[Ident]) -> Result<String, String> {
    render_one_expression(text, columns, Context::Check)
}

/// Parses a generated column's expression like [`render_key_expression`]
/// (the table's declared columns may be named).
pub fn render_generated_expression(text: &str, columns: &[Ident]) -> Result<String, String> {
    render_one_expression(text, columns, Context::Generated)
}

/// Whether a functional key part's text is a multi-valued one: the whole
/// part is `CAST(... AS type ARRAY)` (MySQL 8.0.17+, MySQL 8.4 manual,
/// CREATE INDEX, "Multi-Valued Indexes"; MariaDB has none).
pub fn is_multi_valued_key(text: &str) -> bool {
    use sqlparser::ast::{DataType, Expr};
    let Ok(mut expr) = print::parse_one(text) else {
        return false;
    };
    while let Expr::Nested(inner) = expr {
        expr = *inner;
    }
    matches!(
        expr,
        Expr::Cast {
            data_type: DataType::Array(_),
            ..
        }
    )
}

fn render_one_expression(
    text: &str,
    columns: &[Ident],
    context: Context,
) -> Result<String, String> {
    let tokens = tokens(text)?;
    if tokens.iter().any(|t| matches!(t, Token::SemiColon)) {
        return Err("contains `;`: an expression is one expression".into());
    }
    print::closed(&print::parse_tokens(tokens)?, columns, context)
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
    fn multi_valued_key_parts_are_known_by_their_cast() {
        assert!(is_multi_valued_key(
            "CAST(json_extract(`doc`, '$.a') AS UNSIGNED ARRAY)"
        ));
        assert!(is_multi_valued_key(
            "(cast(json_extract(`doc`,_utf8mb4'$.a') as char(10) array))"
        ));
        assert!(!is_multi_valued_key("CAST(`a` AS DATETIME)"));
        assert!(!is_multi_valued_key("lower(`a`)"));
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
