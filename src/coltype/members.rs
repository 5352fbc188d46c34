//! The member lists of `enum(...)` and `set(...)`: quoted strings in declared
//! order, read from catalog text, COLUMN_TYPE or dumps, and written back with
//! the one string-escaping helper.

use std::fmt;

use super::ColumnType;

/// `Some(Some(t))` for a well-formed `enum(...)` / `set(...)`, `Some(None)`
/// for a malformed one, `None` when the text is neither.
pub(super) fn parse_enum_or_set(text: &str) -> Option<Option<ColumnType>> {
    let t = text.trim();
    let open = t.find('(')?;
    let head = t[..open].trim().to_ascii_lowercase();
    let make: fn(Vec<String>) -> ColumnType = match head.as_str() {
        "enum" => ColumnType::Enum,
        "set" => ColumnType::Set,
        _ => return None,
    };
    let inner = t[open + 1..].trim_end().strip_suffix(')');
    Some(inner.and_then(parse_members).map(make))
}

/// `'a','it''s', 'b'` to `["a", "it's", "b"]`; `None` unless every member is
/// a single-quoted string and there is at least one.
pub fn parse_members(inner: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut chars = inner.trim().chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.next()? != '\'' {
            return None;
        }
        let mut member = String::new();
        loop {
            match chars.next()? {
                '\'' if chars.peek() == Some(&'\'') => {
                    chars.next();
                    member.push('\'');
                }
                '\'' => break,
                '\\' => member.push(match chars.next()? {
                    'n' => '\n',
                    'r' => '\r',
                    't' => '\t',
                    '0' => '\0',
                    other => other,
                }),
                c => member.push(c),
            }
        }
        out.push(member);
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        match chars.next() {
            None => return Some(out),
            Some(',') => continue,
            Some(_) => return None,
        }
    }
}

/// `enum('a','b')`.
pub(super) fn write(keyword: &str, members: &[String], f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let list: Vec<String> = members.iter().map(|m| crate::ident::quote_str(m)).collect();
    write!(f, "{keyword}({})", list.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_keep_order_case_and_quotes() {
        assert_eq!(
            parse_members("'B', 'a','it''s','x\\'y'").unwrap(),
            ["B", "a", "it's", "x'y"]
        );
        for bad in ["", "a", "'a',", "'a' 'b'", "'a"] {
            assert_eq!(parse_members(bad), None, "{bad}");
        }
    }
}
