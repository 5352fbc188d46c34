//! Built-in table of real MySQL / MariaDB / TiDB character sets and collations.

/// A character set the catalog knows, with its widest character in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Charset {
    /// Canonical name (`utf8` is spelled `utf8mb3`).
    pub name: &'static str,
    /// Maximum bytes per character, used for index key width.
    pub max_bytes: u32,
}

/// Character sets, canonical names.
pub const CHARSETS: &[Charset] = &[
    Charset {
        name: "utf8mb4",
        max_bytes: 4,
    },
    Charset {
        name: "utf8mb3",
        max_bytes: 3,
    },
    Charset {
        name: "ascii",
        max_bytes: 1,
    },
    Charset {
        name: "latin1",
        max_bytes: 1,
    },
    Charset {
        name: "binary",
        max_bytes: 1,
    },
];

/// Collation names (canonical spelling) and their character set.
const COLLATIONS: &[(&str, &str)] = &[
    ("utf8mb4_bin", "utf8mb4"),
    ("utf8mb4_general_ci", "utf8mb4"),
    ("utf8mb4_unicode_ci", "utf8mb4"),
    ("utf8mb4_unicode_520_ci", "utf8mb4"),
    ("utf8mb4_0900_ai_ci", "utf8mb4"),
    ("utf8mb4_0900_as_ci", "utf8mb4"),
    ("utf8mb4_0900_as_cs", "utf8mb4"),
    ("utf8mb4_0900_bin", "utf8mb4"),
    ("utf8mb4_nopad_bin", "utf8mb4"),
    ("utf8mb4_general_nopad_ci", "utf8mb4"),
    ("utf8mb4_unicode_nopad_ci", "utf8mb4"),
    ("utf8mb4_unicode_520_nopad_ci", "utf8mb4"),
    ("utf8mb4_uca1400_ai_ci", "utf8mb4"),
    ("utf8mb4_uca1400_as_cs", "utf8mb4"),
    ("utf8mb4_zh_pinyin_tidb_as_cs", "utf8mb4"),
    ("utf8mb4_german2_ci", "utf8mb4"),
    ("utf8mb4_swedish_ci", "utf8mb4"),
    ("utf8mb4_spanish_ci", "utf8mb4"),
    ("utf8mb4_turkish_ci", "utf8mb4"),
    ("utf8mb3_bin", "utf8mb3"),
    ("utf8mb3_general_ci", "utf8mb3"),
    ("utf8mb3_unicode_ci", "utf8mb3"),
    ("utf8mb3_unicode_520_ci", "utf8mb3"),
    ("utf8mb3_general_nopad_ci", "utf8mb3"),
    ("utf8mb3_nopad_bin", "utf8mb3"),
    ("utf8mb3_unicode_nopad_ci", "utf8mb3"),
    ("ascii_bin", "ascii"),
    ("ascii_general_ci", "ascii"),
    ("ascii_nopad_bin", "ascii"),
    ("ascii_general_nopad_ci", "ascii"),
    ("latin1_bin", "latin1"),
    ("latin1_swedish_ci", "latin1"),
    ("latin1_general_ci", "latin1"),
    ("latin1_general_cs", "latin1"),
    ("latin1_german1_ci", "latin1"),
    ("latin1_german2_ci", "latin1"),
    ("latin1_danish_ci", "latin1"),
    ("latin1_spanish_ci", "latin1"),
    ("latin1_nopad_bin", "latin1"),
    ("latin1_swedish_nopad_ci", "latin1"),
    ("binary", "binary"),
];

/// Canonical spelling of a charset name (`utf8` -> `utf8mb3`, lowercase).
pub fn canonical_charset(name: &str) -> String {
    let lower = name.trim().to_ascii_lowercase();
    if lower == "utf8" {
        "utf8mb3".into()
    } else {
        lower
    }
}

/// Canonical spelling of a collation name (`utf8_bin` -> `utf8mb3_bin`, lowercase).
pub fn canonical_collation(name: &str) -> String {
    let lower = name.trim().to_ascii_lowercase();
    match lower.strip_prefix("utf8_") {
        Some(rest) => format!("utf8mb3_{rest}"),
        None => lower,
    }
}

/// The character set a known collation belongs to.
pub fn charset_of(collation: &str) -> Option<&'static str> {
    let c = canonical_collation(collation);
    COLLATIONS.iter().find(|(n, _)| *n == c).map(|(_, cs)| *cs)
}

/// The character set a collation names: from the table when known, else the
/// text before its first `_` (canonical), so unknown collations still read.
pub fn charset_named_by(collation: &str) -> String {
    charset_of(collation)
        .map(str::to_string)
        .unwrap_or_else(|| canonical_charset(collation.split('_').next().unwrap_or(collation)))
}

/// A known character set by name.
pub fn charset(name: &str) -> Option<Charset> {
    let n = canonical_charset(name);
    CHARSETS.iter().copied().find(|c| c.name == n)
}

/// The collation used when only a character set is declared: the charset's
/// binary collation (`utf8mb4` -> `utf8mb4_bin`), exact and flavor-independent.
pub fn default_collation(charset: &str) -> String {
    let cs = canonical_charset(charset);
    if cs == "binary" {
        cs
    } else {
        format!("{cs}_bin")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_are_canonical() {
        assert_eq!(canonical_collation("UTF8_bin"), "utf8mb3_bin");
        assert_eq!(charset_of("utf8_general_ci"), Some("utf8mb3"));
        assert_eq!(charset("utf8").unwrap().max_bytes, 3);
        assert_eq!(charset_of("utf8mb4_nonsense"), None);
        assert_eq!(default_collation("utf8mb4"), "utf8mb4_bin");
        assert_eq!(charset_named_by("utf8_general_ci"), "utf8mb3");
        assert_eq!(charset_named_by("utf8mb4_bin"), "utf8mb4");
        assert_eq!(charset_named_by("utf16_unknown_ci"), "utf16");
    }

    #[test]
    fn every_collation_has_a_known_charset() {
        for (c, cs) in COLLATIONS {
            assert!(charset(cs).is_some(), "{c}");
        }
    }
}
