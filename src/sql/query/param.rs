//! The bound values of a declared query and their literals, which go
//! through [`quote_str`], the one escaping helper.

use crate::ident::quote_str;

/// A bound value of a declared query.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(untagged)]
pub enum Param {
    /// SQL NULL.
    Null,
    /// A number, kept as its decimal text.
    Number(String),
    /// A string.
    Text(String),
}

impl Param {
    /// The literal for statement text, through the one escaping helper.
    pub(super) fn literal(&self) -> String {
        match self {
            Param::Null => "NULL".into(),
            Param::Number(n) => n.clone(),
            Param::Text(s) => quote_str(s),
        }
    }

    /// The value as text (for fixture rows), `None` for NULL.
    pub fn text(&self) -> Option<&str> {
        match self {
            Param::Null => None,
            Param::Number(s) | Param::Text(s) => Some(s),
        }
    }
}

/// Whether `n` is a plain decimal number (optional `-`, digits, one `.`).
pub fn is_number(n: &str) -> bool {
    let digits = n.strip_prefix('-').unwrap_or(n);
    !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_digit() || c == '.')
        && digits.chars().filter(|c| *c == '.').count() <= 1
        && !digits.starts_with('.')
        && !digits.ends_with('.')
}
