//! Key parts as a table file writes them (the raw layer): a column name,
//! a mapping `{column, order, length}` (a descending part, an explicit
//! prefix) or `{expression}` (a functional key part). Read here from the
//! YAML value; the catalog's key lint ([`super::super::keys`]) checks them
//! against the table.

use serde_yaml::Value;

use crate::ident::Ident;

/// The keys of a key-part mapping: the fields of `super::RawKeyPart`, which
/// only serializes (a test holds the two together).
const PART_KEYS: &[&str] = &["column", "expression", "order", "length"];

/// One key part as written.
pub(crate) enum Entry {
    /// `Name` or `{column: Name, order: desc, length: 20}`.
    Column {
        name: String,
        length: Option<u32>,
        descending: bool,
    },
    /// `{expression: "lower(Note)"}`.
    Expression(String),
}

/// `Name(10)` -> `Some(("Name", "10"))`.
fn split_prefix(entry: &str) -> Option<(&str, &str)> {
    let open = entry.find('(')?;
    let len = entry[open + 1..].strip_suffix(')')?;
    Some((entry[..open].trim(), len.trim()))
}

/// The column a key list starts with, as written (for the auto_increment rule).
pub(crate) fn leading_column(values: &[Value]) -> Option<Ident> {
    let name = match values.first()? {
        Value::String(s) => split_prefix(s).map_or(s.trim(), |(name, _)| name),
        Value::Mapping(m) => m.get("column").and_then(Value::as_str)?,
        _ => return None,
    };
    Some(Ident::new(name))
}

/// One key part from its YAML value; the error says what form it must take.
pub(crate) fn parse_entry(value: &Value) -> Result<Entry, String> {
    const FORM: &str = "a key part is a column name, `{column: Name}` with optional `order: asc|desc` and `length: N`, or `{expression: \"...\"}`";
    let map = match value {
        Value::String(s) => {
            if let Some((name, len)) = split_prefix(s) {
                return Err(format!("`{s}` has a prefix length ({len}); the catalog declares exact indexes only: index the whole column `{name}` (if the key is too wide, key a short digest column instead), or declare the prefix on purpose as `{{column: {name}, length: {len}}}`"));
            }
            return Ok(Entry::Column {
                name: s.trim().to_string(),
                length: None,
                descending: false,
            });
        }
        Value::Mapping(m) => m,
        _ => return Err(format!("key part is not a name or a mapping: {FORM}")),
    };
    for key in map.keys() {
        if !key.as_str().is_some_and(|k| PART_KEYS.contains(&k)) {
            let shown = key
                .as_str()
                .map_or_else(|| format!("{key:?}"), str::to_string);
            return Err(format!("key part has the unknown key `{shown}`: {FORM}"));
        }
    }
    let text = |key: &str| -> Result<Option<String>, String> {
        match map.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(format!("key part `{key}` must be a string: {FORM}")),
        }
    };
    let descending = match text("order")?.map(|o| o.to_ascii_lowercase()).as_deref() {
        None | Some("asc") => false,
        Some("desc") => true,
        Some(other) => {
            return Err(format!(
                "key part `order: {}` is not `asc` or `desc`",
                other.escape_debug()
            ))
        }
    };
    let length = match map.get("length") {
        None => None,
        Some(v) => match v.as_u64().and_then(|n| u32::try_from(n).ok()) {
            Some(n) if n > 0 => Some(n),
            _ => return Err("key part `length` must be a positive whole number of characters (bytes for binary columns)".into()),
        },
    };
    match (text("column")?, text("expression")?) {
        (Some(name), None) => Ok(Entry::Column {
            name: name.trim().to_string(),
            length,
            descending,
        }),
        (None, Some(expression)) if length.is_none() && !descending => {
            Ok(Entry::Expression(expression))
        }
        (None, Some(_)) => Err("an expression key part takes no `length` or `order`: put the whole computation in `expression`".into()),
        (Some(_), Some(_)) => Err(format!("key part has both `column` and `expression`: {FORM}")),
        (None, None) => Err(format!("key part has neither `column` nor `expression`: {FORM}")),
    }
}

#[cfg(test)]
mod part_key_tests {
    use super::*;

    #[test]
    fn part_keys_are_the_written_fields() {
        let full = super::super::RawKeyPart {
            column: Some("c".into()),
            expression: Some("e".into()),
            order: Some("desc"),
            length: Some(1),
        };
        let Value::Mapping(m) = serde_yaml::to_value(&full).unwrap() else {
            panic!("a mapping");
        };
        let written: Vec<&str> = m.keys().filter_map(Value::as_str).collect();
        assert_eq!(written, PART_KEYS);
    }
}
