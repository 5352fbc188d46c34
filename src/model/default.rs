//! Column defaults, normalised ([`DefaultValue`]).

/// A column default, normalised.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum DefaultValue {
    /// A literal value, unquoted (`'pending'` and `pending` are both `pending`;
    /// numbers in canonical form, `0.00` is `0`).
    Literal(String),
    /// `CURRENT_TIMESTAMP(p)` / `NOW(p)`, p = fractional digits.
    CurrentTimestamp(u8),
    /// A bit-value literal `b'101'` (a bit(n) column's default, as both
    /// servers show it): the binary digits without leading zeros (`0` for zero).
    Bits(String),
    /// Any other expression, in one canonical text (parsed and re-rendered,
    /// charset introducers dropped, function and column names lowercased,
    /// string literals exactly as written; see `expr::folded`).
    Expression(String),
}

impl DefaultValue {
    /// Parses a default as SQL text: `NULL`, a quoted or numeric literal,
    /// `CURRENT_TIMESTAMP[(p)]` / `NOW([p])`, or an expression (outer
    /// parentheses removed). `Ok(None)` is "no default" (DEFAULT NULL).
    pub fn parse_sql(text: &str) -> Option<DefaultValue> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("null") {
            return None;
        }
        if let Some(bits) = bit_literal(t) {
            return Some(DefaultValue::Bits(bits));
        }
        if let Some(lit) = unquote_sql_string(t) {
            return Some(DefaultValue::Literal(lit));
        }
        if t.eq_ignore_ascii_case("true") {
            return Some(DefaultValue::Literal("1".into()));
        }
        if t.eq_ignore_ascii_case("false") {
            return Some(DefaultValue::Literal("0".into()));
        }
        if is_number(t) {
            return Some(DefaultValue::Literal(t.to_string()));
        }
        if let Some(p) = current_timestamp_precision(t) {
            return Some(DefaultValue::CurrentTimestamp(p));
        }
        let mut inner = t;
        while inner.starts_with('(') && inner.ends_with(')') && inner.len() >= 2 {
            inner = inner[1..inner.len() - 1].trim();
        }
        if inner != t {
            return DefaultValue::parse_sql(inner);
        }
        Some(DefaultValue::Expression(crate::expr::folded(t)))
    }

    /// SQL text for DDL (`DEFAULT <this>`).
    pub fn to_sql(&self, numeric: bool) -> String {
        match self {
            DefaultValue::Literal(v) if numeric && is_number(v) => v.clone(),
            DefaultValue::Literal(v) => crate::ident::quote_str(v),
            DefaultValue::Bits(b) => format!("b'{b}'"),
            DefaultValue::CurrentTimestamp(0) => "CURRENT_TIMESTAMP".into(),
            DefaultValue::CurrentTimestamp(p) => format!("CURRENT_TIMESTAMP({p})"),
            // Re-rendered from the parsed AST, never pasted. The catalog
            // refuses an expression that does not render; one read from a
            // live table is shown as a placeholder the server would refuse.
            DefaultValue::Expression(e) => match crate::sqltext::render_default_expression(e) {
                Ok(sql) => format!("({sql})"),
                Err(_) => "(<expression not rendered>)".into(),
            },
        }
    }

    /// The same default with numeric literals in canonical form.
    pub fn canonical(&self, numeric: bool) -> DefaultValue {
        match self {
            DefaultValue::Literal(v) if numeric && is_number(v) => {
                DefaultValue::Literal(canonical_number(v))
            }
            other => other.clone(),
        }
    }
}

/// `b'0101'`, `B'1'` or `0b101`: the digits without leading zeros.
fn bit_literal(t: &str) -> Option<String> {
    let digits = t
        .strip_prefix(['b', 'B'])
        .and_then(|r| r.strip_prefix('\''))
        .and_then(|r| r.strip_suffix('\''))
        .or_else(|| t.strip_prefix("0b"))?;
    if !digits.chars().all(|c| c == '0' || c == '1') || (digits.is_empty() && t.starts_with('0')) {
        return None;
    }
    let trimmed = digits.trim_start_matches('0');
    Some(if trimmed.is_empty() { "0" } else { trimmed }.to_string())
}

fn is_number(t: &str) -> bool {
    let s = t.strip_prefix(['-', '+']).unwrap_or(t);
    !s.is_empty()
        && s.chars().all(|c| c.is_ascii_digit() || c == '.')
        && s.chars().filter(|c| *c == '.').count() <= 1
        && s.chars().any(|c| c.is_ascii_digit())
}

fn canonical_number(v: &str) -> String {
    let (neg, s) = match v.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, v.strip_prefix('+').unwrap_or(v)),
    };
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    let int = int.trim_start_matches('0');
    let frac = frac.trim_end_matches('0');
    let mut out = if int.is_empty() {
        "0".to_string()
    } else {
        int.to_string()
    };
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    if neg && out != "0" {
        out.insert(0, '-');
    }
    out
}

/// `CURRENT_TIMESTAMP`, `current_timestamp()`, `NOW(6)`, `LOCALTIMESTAMP(3)`: the precision.
fn current_timestamp_precision(t: &str) -> Option<u8> {
    let lower = t.to_ascii_lowercase().replace(' ', "");
    for name in ["current_timestamp", "now", "localtimestamp", "localtime"] {
        if let Some(rest) = lower.strip_prefix(name) {
            if rest.is_empty() || rest == "()" {
                return Some(0);
            }
            if let Some(p) = rest.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
                return p.parse::<u8>().ok().filter(|p| *p <= 6);
            }
        }
    }
    None
}

/// Unquotes a single-quoted SQL string literal (`''` and backslash escapes).
pub(crate) fn unquote_sql_string(t: &str) -> Option<String> {
    let inner = t.strip_prefix('\'')?.strip_suffix('\'')?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                if chars.next() != Some('\'') {
                    return None;
                }
                out.push('\'');
            }
            '\\' => match chars.next()? {
                'n' => out.push('\n'),
                'r' => out.push('\r'),
                't' => out.push('\t'),
                '0' => out.push('\0'),
                other => out.push(other),
            },
            _ => out.push(c),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_normalise() {
        assert_eq!(DefaultValue::parse_sql("NULL"), None);
        assert_eq!(
            DefaultValue::parse_sql("'it''s'"),
            Some(DefaultValue::Literal("it's".into()))
        );
        assert_eq!(
            DefaultValue::parse_sql("current_timestamp(6)"),
            Some(DefaultValue::CurrentTimestamp(6))
        );
        assert_eq!(
            DefaultValue::parse_sql("CURRENT_TIMESTAMP"),
            Some(DefaultValue::CurrentTimestamp(0))
        );
        assert_eq!(
            DefaultValue::parse_sql("now()"),
            Some(DefaultValue::CurrentTimestamp(0))
        );
        assert_eq!(
            DefaultValue::parse_sql("(0)"),
            Some(DefaultValue::Literal("0".into()))
        );
        assert_eq!(
            DefaultValue::parse_sql("0.00").unwrap().canonical(true),
            DefaultValue::Literal("0".into())
        );
        assert_eq!(
            DefaultValue::parse_sql("'-1.50'").unwrap().canonical(true),
            DefaultValue::Literal("-1.5".into())
        );
        for bits in ["b'101'", "B'0101'", "0b101", "(b'101')"] {
            assert_eq!(
                DefaultValue::parse_sql(bits),
                Some(DefaultValue::Bits("101".into())),
                "{bits}"
            );
        }
        assert_eq!(
            DefaultValue::parse_sql("b'000'"),
            Some(DefaultValue::Bits("0".into()))
        );
        assert_eq!(DefaultValue::Bits("101".into()).to_sql(false), "b'101'");
        assert_eq!(
            DefaultValue::parse_sql("UUID( )"),
            Some(DefaultValue::Expression("uuid()".into()))
        );
    }

    proptest::proptest! {
        /// An expression default renders DDL that holds the same value, for
        /// any string (quotes, backslashes, NUL, newlines, `%`, `_`).
        #[test]
        fn expression_defaults_render_ddl_holding_the_value(
            s in proptest::string::string_regex("([a-zA-Z%_'\"\\\\\n\r\t\u{0}\u{1a} é]){0,12}").unwrap()
        ) {
            let d = format!("concat({})", crate::ident::quote_str(&s));
            let ddl = DefaultValue::parse_sql(&format!("({d})")).unwrap().to_sql(false);
            proptest::prop_assert_eq!(crate::expr::folded(&ddl), crate::expr::folded(&d), "{}", ddl);
        }
    }
}
