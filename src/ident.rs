//! Identifiers and SQL literals: the one place that quotes anything into SQL text.

use std::fmt;

/// Maximum identifier length in MySQL, MariaDB and TiDB.
pub const MAX_IDENT_LEN: usize = 64;

/// A table, column or index name. Compares and hashes case-insensitively,
/// as MySQL compares column and index names; keeps the declared spelling.
///
/// The folded form is computed once, when the name is made: comparing,
/// hashing and ordering read it and never allocate (docs/scale.md: lowercasing
/// both sides of every comparison was a third of a large `diff`).
#[derive(Clone)]
pub struct Ident {
    name: String,
    /// `name.to_lowercase()`; `None` when that is `name` itself (the common
    /// case), so a lowercase name costs one string, not two.
    folded: Option<Box<str>>,
}

impl Ident {
    /// Wraps a name as declared.
    pub fn new(name: impl Into<String>) -> Self {
        let name = name.into();
        let folded = if name.chars().any(char::is_uppercase) || !name.is_ascii() {
            let lower = name.to_lowercase();
            (lower != name).then(|| lower.into_boxed_str())
        } else {
            None
        };
        Ident { name, folded }
    }
    /// The name as declared.
    pub fn as_str(&self) -> &str {
        &self.name
    }
    /// The case-folded form used for comparison and lookup, borrowed.
    pub fn folded(&self) -> &str {
        self.folded.as_deref().unwrap_or(&self.name)
    }
    /// The case-folded key used for comparison and lookup, owned (for map
    /// keys that outlive the name; lookups borrow [`Ident::folded`]).
    pub fn key(&self) -> String {
        self.folded().to_string()
    }
    /// Why this name cannot be used as a MySQL identifier, if it cannot.
    pub fn invalid_reason(&self) -> Option<String> {
        invalid_ident_reason(&self.name)
    }
}

/// The case-folded form of a name given as text (what [`Ident::folded`]
/// holds), for looking a `&str` up in a map keyed by folded names.
pub fn fold(name: &str) -> std::borrow::Cow<'_, str> {
    if name.chars().any(|c| c.is_uppercase()) || !name.is_ascii() {
        std::borrow::Cow::Owned(name.to_lowercase())
    } else {
        std::borrow::Cow::Borrowed(name)
    }
}

/// `Ident("Name")`: the declared spelling only (snapshots and messages
/// show names, not the folded form).
impl fmt::Debug for Ident {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Ident").field(&self.name).finish()
    }
}

impl serde::Serialize for Ident {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name)
    }
}

impl<'de> serde::Deserialize<'de> for Ident {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(Ident::new)
    }
}

/// Why `name` cannot be a MySQL identifier: empty, too long, or holding a backtick or NUL.
pub fn invalid_ident_reason(name: &str) -> Option<String> {
    if name.is_empty() {
        Some("identifier is empty".into())
    } else if name.chars().count() > MAX_IDENT_LEN {
        Some(format!(
            "identifier is {} characters long; the limit is {MAX_IDENT_LEN}",
            name.chars().count()
        ))
    } else if name.contains('`') {
        Some("identifier contains a backtick".into())
    } else if name.contains('\0') {
        Some("identifier contains a NUL character".into())
    } else if let Some(c) = name.chars().find(|c| u32::from(*c) > 0xFFFF) {
        // MySQL and MariaDB identifiers are BMP-only (MariaDB: error 1300).
        Some(format!(
            "identifier contains {}, a character outside the Basic Multilingual Plane, which MySQL and MariaDB do not allow in names",
            c.escape_unicode()
        ))
    } else if name.ends_with(' ') {
        Some("identifier ends with a space".into())
    } else {
        None
    }
}

impl PartialEq for Ident {
    fn eq(&self, other: &Self) -> bool {
        self.folded() == other.folded()
    }
}

impl Eq for Ident {}

impl std::hash::Hash for Ident {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.folded().hash(state)
    }
}

impl PartialOrd for Ident {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ident {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        // Consistent with Eq: names equal up to case are equal in order too,
        // so BTreeSet/BTreeMap lookups ignore case as MySQL does.
        self.folded().cmp(other.folded())
    }
}

impl fmt::Display for Ident {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

impl From<&str> for Ident {
    fn from(s: &str) -> Self {
        Ident::new(s)
    }
}

/// Quotes an identifier with backticks, doubling any backtick inside.
/// Every identifier in generated SQL goes through here.
pub fn quote_ident(name: &str) -> String {
    format!("`{}`", name.replace('`', "``"))
}

/// Quotes a string literal for DDL text (comments, literal defaults), where
/// the server offers no bound parameters. Escapes quote, backslash and NUL.
pub fn quote_str(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('\'');
    for c in value.chars() {
        match c {
            '\'' => out.push_str("''"),
            '\\' => out.push_str("\\\\"),
            '\0' => out.push_str("\\0"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            _ => out.push(c),
        }
    }
    out.push('\'');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idents_compare_case_insensitively() {
        assert_eq!(Ident::new("State"), Ident::new("STATE"));
        assert_ne!(Ident::new("State"), Ident::new("Status"));
        let set: std::collections::BTreeSet<Ident> = [Ident::new("State")].into();
        assert!(set.contains(&Ident::new("STATE")));
        // Beyond ASCII too, and the folded form is the one `fold` gives.
        assert_eq!(Ident::new("Straße"), Ident::new("STRAßE"));
        assert_eq!(Ident::new("ÉTAT").folded(), "état");
        assert_eq!(fold("ÉTAT"), "état");
        assert_eq!(Ident::new("state").folded(), "state");
        assert_eq!(Ident::new("State").as_str(), "State");
        let json = serde_json::to_string(&Ident::new("State")).unwrap();
        assert_eq!(json, "\"State\"");
        let back: Ident = serde_json::from_str(&json).unwrap();
        assert_eq!(back.as_str(), "State");
    }

    #[test]
    fn quoting_escapes() {
        assert_eq!(quote_ident("a`b"), "`a``b`");
        assert_eq!(quote_str("it's \\ ok"), "'it''s \\\\ ok'");
    }

    #[test]
    fn invalid_identifiers() {
        assert!(invalid_ident_reason("").is_some());
        assert!(invalid_ident_reason(&"x".repeat(65)).is_some());
        assert!(invalid_ident_reason(&"x".repeat(64)).is_none());
        assert!(invalid_ident_reason("a`b").is_some());
        assert!(invalid_ident_reason("a\0b").is_some());
        assert!(invalid_ident_reason("t\u{1F600}").is_some());
        assert!(invalid_ident_reason("t\u{FFFD}\n;").is_none());
    }
}
