//! One canonical text for a SQL expression (an expression default, a
//! generation expression), so that the catalog's spelling, MariaDB's and
//! MySQL's compare equal: parsed with sqlparser's MySQL dialect and rendered
//! from the AST, with charset introducers (`_utf8mb4'a'`, as MySQL reports
//! string literals in expressions) dropped and redundant outer parentheses
//! removed. Text that does not parse as one expression is kept with its
//! whitespace collapsed, so it still compares by its own spelling.
//!
//! String literals are printed through the one escaping helper
//! ([`crate::ident::quote_str`]), never by sqlparser's `Display` (which puts
//! the unescaped value between quotes, so the string `a\b` would come out
//! as `'a\b'` and read back as `a` + backspace). A rendering that would not
//! parse back into the same tree is not used: the text is kept as written.
//! Literals keep their case; only names (functions, columns) are folded.

use sqlparser::ast::Expr;

use crate::ident::quote_str;
use crate::sql::lex::{all_tokens, Token};
use crate::sql::print;
use crate::sql::walk::{normalise, walk};

/// The canonical text of `text` as one expression (case kept).
pub fn canonical(text: &str) -> String {
    rendered(text, false).unwrap_or_else(|| collapsed(text))
}

/// The canonical text of a generation expression. Unlike a default, a
/// generated column has no literal reading to keep apart from an expression,
/// so charset introducers are dropped even on a lone string: MySQL reports
/// `AS ('test')` as `_utf8mb4'test'`, which is the same expression.
pub fn generation(text: &str) -> String {
    let Ok(tokens) = all_tokens(text) else {
        return canonical(text);
    };
    if !is_one_introduced_string(&tokens) {
        return canonical(text);
    }
    match without_introducers(tokens).iter().find(|t| is_string(t)) {
        Some(Token::SingleQuotedString(value) | Token::DoubleQuotedString(value)) => {
            canonical(&quote_str(value))
        }
        _ => canonical(text),
    }
}

/// The canonical text of `text` with names folded: function and column
/// names lowercased (the server compares them case-insensitively), string
/// literals exactly as they are (`concat('Abc')` is not `concat('abc')`).
/// The text the model keeps for an expression default.
pub fn folded(text: &str) -> String {
    rendered(text, true).unwrap_or_else(|| collapsed(text))
}

fn collapsed(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn rendered(text: &str, fold: bool) -> Option<String> {
    let mut expr = parsed(text)?;
    walk(&mut expr, &mut |e| normalise(e, fold));
    let out = print::exact(&expr);
    // The guard: what is printed reads back as the same tree, or it is not used.
    (parsed(&out).as_ref() == Some(&expr)).then_some(out)
}

/// `text` as one expression, outer parentheses removed.
fn parsed(text: &str) -> Option<Expr> {
    let tokens = all_tokens(text).ok()?;
    // A default that is only an introduced string (`(_utf8mb4'{}')`) keeps
    // its introducer: without it, it would read as a literal default, which
    // is another thing (refused on json, for one).
    let tokens = if is_one_introduced_string(&tokens) {
        tokens
    } else {
        without_introducers(tokens)
    };
    let mut expr = print::parse_tokens(tokens).ok()?;
    while let Expr::Nested(inner) = expr {
        expr = *inner;
    }
    Some(expr)
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
/// keywords and function names lowercased and unquoted; string literals
/// kept exactly (`'Open'` is not `'open'`), printed by [`quote_str`]. Text
/// that does not parse falls back to [`canonical`].
pub fn structural(text: &str) -> String {
    let parsed = all_tokens(text)
        .ok()
        .and_then(|tokens| print::parse_tokens(without_introducers(tokens)).ok());
    match parsed {
        Some(expr) => print::structural(&expr),
        None => canonical(text),
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

/// MySQL's `information_schema` text of an expression (an expression
/// default, GENERATION_EXPRESSION, CHECK_CLAUSE, STATISTICS.EXPRESSION):
/// [`unescape_mysql_default`] of [`undouble_utf8`].
pub fn mysql_expression(raw: &str) -> String {
    unescape_mysql_default(&undouble_utf8(raw))
}

/// MySQL 9.7 encodes the UTF-8 of an expression's text twice in
/// information_schema (probed, found by
/// tests/it/meaning_property.rs): `'é'` (`C3 A9`) reads as `'Ã©'`, each byte
/// taken as a Latin-1 character. This undoes it: a text whose characters
/// are all Latin-1, one at least outside ASCII, and whose bytes are valid
/// UTF-8 is those bytes; any other text is returned as it is (the
/// regenerate-and-compare net then finds what it does not explain).
pub fn undouble_utf8(raw: &str) -> String {
    if raw.is_ascii() || raw.chars().any(|c| u32::from(c) > 0xFF) {
        return raw.to_string();
    }
    let bytes: Vec<u8> = raw.chars().map(|c| u32::from(c) as u8).collect();
    String::from_utf8(bytes).unwrap_or_else(|_| raw.to_string())
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
    use sqlparser::ast::{FunctionArg, FunctionArgExpr, FunctionArguments, Value};

    /// The minimal case tests/it/meaning_property.rs found on MySQL 9.7:
    /// `concat(`Note`, 'é')` read back as `concat(`Note`,_utf8mb4\'Ã©\')`.
    #[test]
    fn mysql_expression_text_is_decoded_once() {
        assert_eq!(
            mysql_expression("concat(`Note`,_utf8mb4\\'\u{c3}\u{a9}\\')"),
            "concat(`Note`,_utf8mb4'é')"
        );
        assert_eq!(undouble_utf8("ascii"), "ascii");
        // Not Latin-1 throughout, or not UTF-8 bytes: kept.
        assert_eq!(undouble_utf8("é€"), "é€");
        assert_eq!(undouble_utf8("\u{e9}x"), "\u{e9}x");
        // A four-byte character, as CHECK_CLAUSE shows it.
        assert_eq!(undouble_utf8("\u{f0}\u{9f}\u{98}\u{80}"), "😀");
    }

    #[test]
    fn a_generated_lone_string_drops_its_introducer() {
        // MySQL's COLUMNS.GENERATION_EXPRESSION for `AS ('test')`.
        assert_eq!(generation("_utf8mb4'test'"), canonical("'test'"));
        assert_eq!(generation("(_utf8mb4'it''s')"), canonical("'it''s'"));
        assert_eq!(
            generation("concat(_utf8mb4'a', x)"),
            canonical("concat('a', x)")
        );
        // A default keeps it: there the introduced string is an expression.
        assert_eq!(canonical("_utf8mb4'test'"), "_utf8mb4 'test'");
    }

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
        // Rows, CASE and typed literals as MariaDB and MySQL print them.
        assert_eq!(
            structural("((`col_a`,`col_b`) in ((1,3),(2,4)))"),
            structural("(col_a, col_b) IN ((1, 3), (2, 4))")
        );
        assert_eq!(
            structural("(case when (`deleted` = 0) then `name` else NULL end)"),
            structural("CASE WHEN deleted = 0 THEN name ELSE NULL END")
        );
        assert_eq!(
            structural("((`d` >= DATE'2020-01-01') and (`d` <= DATE'2030-12-31'))"),
            structural("d >= DATE '2020-01-01' AND d <= DATE '2030-12-31'")
        );
        assert_ne!(
            structural("(a, b) in ((1, 3), (2, 4))"),
            structural("(a, b) in ((3, 1), (2, 4))")
        );
        // MariaDB's stored spellings of the same functions.
        assert_eq!(structural("lcase(`Queue`)"), structural("lower(Queue)"));
        assert_eq!(
            structural("ucase(`a`) = octet_length(`b`)"),
            structural("upper(a) = length(b)")
        );
        assert_ne!(structural("(a or b) and c"), structural("a or b and c"));
        assert_ne!(structural("a = 'X'"), structural("a = 'x'"));
    }

    #[test]
    fn unparsable_text_keeps_its_spelling() {
        assert_eq!(canonical("not  an ) expression"), "not an ) expression");
        assert_eq!(canonical("a b"), "a b");
    }

    /// The one string literal of `text` (parsed as MySQL reads it).
    fn literal(text: &str) -> String {
        fn find(e: &Expr) -> Option<String> {
            match e {
                Expr::Value(v) => match &v.value {
                    Value::SingleQuotedString(s) => Some(s.clone()),
                    _ => None,
                },
                Expr::Function(f) => match &f.args {
                    FunctionArguments::List(l) => l.args.iter().find_map(|a| match a {
                        FunctionArg::Unnamed(FunctionArgExpr::Expr(x)) => find(x),
                        _ => None,
                    }),
                    _ => None,
                },
                Expr::In {
                    target: sqlparser::ast::InTarget::List(list),
                    ..
                } => list.iter().find_map(find),
                Expr::BinaryOp { right, .. } => find(right),
                Expr::Like { pattern, .. } => find(pattern),
                _ => None,
            }
        }
        find(&parsed(text).unwrap_or_else(|| panic!("`{text}` parses"))).expect("a literal")
    }

    #[test]
    fn literals_keep_their_case_names_fold() {
        assert_eq!(folded("CONCAT('Abc', 'x')"), "concat('Abc', 'x')");
        assert_ne!(folded("concat('Abc')"), folded("concat('abc')"));
        assert_eq!(folded("Lower(`Note`)"), folded("lower(`note`)"));
        assert_eq!(canonical("CONCAT('Abc')"), "CONCAT('Abc')");
        assert_eq!(folded("concat(\"Abc\")"), folded("concat('Abc')"));
        assert_ne!(
            structural("`Status` IN ('Open')"),
            structural("`Status` IN ('open')")
        );
        assert_eq!(
            structural(&unescape_mysql_default(r"(`Status` in (_utf8mb4\'Open\'))")),
            structural("Status IN ('Open')")
        );
    }

    #[test]
    fn backslashes_are_escaped_again() {
        // The string `x\y` (MariaDB reports `'x\\y'`, MySQL `\'x\\\\y\'`).
        let want = folded(r"concat('Abc', 'x\\y')");
        assert_eq!(want, r"concat('Abc', 'x\\y')");
        assert_eq!(literal(&want), "Abc");
        assert_eq!(folded(r"concat('Abc','x\\y')"), want);
        assert_eq!(
            folded(&unescape_mysql_default(
                r"concat(_utf8mb4\'Abc\',_utf8mb4\'x\\\\y\')"
            )),
            want
        );
        assert_eq!(literal(&canonical(r"lower('a\\b')")), r"a\b");
        assert_ne!(structural(r"a = 'a\\b'"), structural(r"a = 'a\b'"));
        assert_eq!(literal(&canonical(r"a LIKE 'x\%'")), r"x\%");
    }

    proptest::proptest! {
        /// Rendering then parsing gives back the same literal value, for
        /// any string (quotes, backslashes, NUL, newlines, `%`, `_`).
        #[test]
        fn rendering_keeps_any_literal(
            s in proptest::string::string_regex("([a-zA-Z%_'\"\\\\\n\r\t\u{0}\u{1a} é]){0,12}").unwrap()
        ) {
            let q = quote_str(&s);
            // Rendered (not kept as written): the spacing is the printer's.
            proptest::prop_assert_eq!(canonical(&format!("concat({q},'x')")), format!("concat({q}, 'x')"));
            for text in [format!("concat({q}, 'x')"), format!("`a` IN ({q})"), format!("a LIKE {q}")] {
                proptest::prop_assert_eq!(literal(&canonical(&text)), s.clone(), "{}", text);
                proptest::prop_assert_eq!(literal(&folded(&text)), s.clone(), "{}", text);
            }
            let d = format!("concat({q})");
            let double = format!("concat(\"{}\")", s.replace('\\', "\\\\").replace('"', "\"\""));
            proptest::prop_assert_eq!(folded(&double), folded(&d));
        }
    }
}
