//! The two-pass reader of catalog files: a walk over a `serde_yaml::Value`
//! reports every unknown key in a file (not only the first), with the
//! nearest known key and its line and column; then the typed structs are
//! deserialized with `deny_unknown_fields` from the text, so that type
//! errors carry a line and column.
//!
//! The unknown keys' positions come from a scan of the text: serde_yaml
//! (the YAML crate the catalog is read with) stops at the first unknown
//! field, and its `Value` carries no positions; [`locate_key`] finds the
//! n-th occurrence of each in the text. Findings made later, on the typed
//! structs, are placed by `crate::catalog::locate` from `saphyr-parser`'s
//! event spans. The known keys are the structs' own fields
//! (`super::fields`). The edit distance of the suggestion is `strsim`'s.

use serde::de::DeserializeOwned;
use serde_yaml::{Mapping, Value};

use super::*;
use crate::catalog::rule_ids;
use crate::catalog::sink::Sink;

/// Which kind of file is being read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::catalog) enum FileKind {
    /// `catalog.yaml`.
    Defaults,
    /// A table file.
    Table,
}

/// An unknown key found by the walk, already removed from the value.
struct UnknownKey {
    key: String,
    /// `column \`X\``, `index \`Y\``, `defaults`; `None` at the top level.
    object: Option<String>,
    known: &'static [&'static str],
}

/// Reads one file: reports malformed YAML, every unknown key and type errors
/// to `sink`, and returns the typed value when it could be read at all.
/// Sets the sink's table from the file's `table` key, when there is one.
pub(in crate::catalog) fn read<T: DeserializeOwned>(
    text: &str,
    kind: FileKind,
    sink: &mut Sink,
) -> Option<T> {
    let mut value: Value = match serde_yaml::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            let (message, line, column) = split_location(&e);
            let hint = indent_hint(&message);
            sink.report_at(
                &rule_ids::YAML_SYNTAX,
                None,
                line,
                column,
                format!("malformed YAML: {message}; {hint}fix the syntax"),
            );
            return None;
        }
    };
    if let Some(name) = value.get("table").and_then(Value::as_str) {
        sink.table = Some(name.to_string());
    }
    if value.is_null() {
        value = Value::Mapping(Mapping::new());
    }
    let unknown = match kind {
        FileKind::Defaults => strip_catalog_keys(&mut value),
        FileKind::Table => strip_table_keys(&mut value),
    };
    report_unknown(text, &unknown, sink);
    let typed = if unknown.is_empty() && !text.trim().is_empty() {
        // The value already read, not a second parse of the text (issue
        // 22: the second parse was a quarter of `check`); the text again
        // only when that fails, so a type error keeps its line and column
        // and whatever the text reading accepts is still accepted.
        T::deserialize(&value).or_else(|_| serde_yaml::from_str::<T>(text))
    } else {
        serde_yaml::from_value::<T>(value)
    };
    match typed {
        Ok(t) => Some(t),
        Err(e) => {
            let (message, line, column) = split_location(&e);
            sink.report_at(
                &rule_ids::YAML_SHAPE,
                None,
                line,
                column,
                format!("{message}; see docs/catalog-format.md for the expected shape"),
            );
            None
        }
    }
}

/// The message without serde_yaml's ` at line L column C` fragments (the
/// position is reported separately), and the position.
fn split_location(e: &serde_yaml::Error) -> (String, Option<usize>, Option<usize>) {
    let loc = e.location();
    (
        strip_positions(&e.to_string()),
        loc.as_ref().map(|l| l.line()),
        loc.as_ref().map(|l| l.column()),
    )
}

/// Removes every ` at line <n> column <n>` from a message.
fn strip_positions(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(" at line ") {
        out.push_str(&rest[..i]);
        let after = &rest[i + " at line ".len()..];
        let digits = |s: &str| s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let line_len = digits(after);
        let tail = &after[line_len..];
        match tail.strip_prefix(" column ") {
            Some(col) if line_len > 0 && digits(col) > 0 => rest = &col[digits(col)..],
            _ => {
                out.push_str(" at line ");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn report_unknown(text: &str, unknown: &[UnknownKey], sink: &mut Sink) {
    for (i, u) in unknown.iter().enumerate() {
        let nth = unknown[..i].iter().filter(|o| o.key == u.key).count();
        let total = unknown.iter().filter(|o| o.key == u.key).count();
        let (line, column) = locate_key(text, &u.key, nth, total);
        let hint = match closest(&u.key, u.known) {
            Some(k) => format!("did you mean `{k}`? "),
            None => String::new(),
        };
        let message = format!(
            "unknown key `{}`; {hint}known keys here: {}{}",
            u.key,
            u.known.join(", "),
            misplaced_hint(&u.key, u.known)
        );
        sink.report_at(
            &rule_ids::UNKNOWN_KEY,
            u.object.clone(),
            line,
            column,
            message,
        );
    }
}

/// Line and column of the `nth` `key:` in the text, when the text holds
/// exactly `total` such keys (so the n-th textual one is the n-th unknown one).
fn locate_key(text: &str, key: &str, nth: usize, total: usize) -> (Option<usize>, Option<usize>) {
    let hits: Vec<(usize, usize)> = text
        .lines()
        .enumerate()
        .filter_map(|(i, line)| key_column(line, key).map(|c| (i + 1, c)))
        .collect();
    match hits.get(nth) {
        Some(&(l, c)) if hits.len() == total => (Some(l), Some(c)),
        _ => (None, None),
    }
}

/// 1-based column of `key:` on a line such as `  - key: v` or `key:`.
fn key_column(line: &str, key: &str) -> Option<usize> {
    let mut rest = line;
    loop {
        let trimmed = rest.trim_start();
        match trimmed.strip_prefix("- ") {
            Some(after) => rest = after,
            None => {
                rest = trimmed;
                break;
            }
        }
    }
    let after = rest.strip_prefix(key)?;
    after
        .trim_start()
        .starts_with(':')
        .then(|| line.len() - rest.len() + 1)
}

/// A hint for a syntax error that a wrong indentation typically causes
/// (libyaml's messages for a key or list item out of line), else empty.
pub(crate) fn indent_hint(message: &str) -> &'static str {
    const CAUSED_BY_INDENT: &[&str] = &[
        "mapping values are not allowed",
        "did not find expected key",
        "did not find expected '-' indicator",
        "block sequence entries are not allowed",
        "could not find expected ':'",
        "did not find expected node content",
    ];
    if CAUSED_BY_INDENT.iter().any(|m| message.contains(m)) {
        "check the indentation (the keys of one mapping start in the same column, a list's `- ` items are indented under its key, and tabs are not indentation); "
    } else {
        ""
    }
}

/// For an unknown key that is known one level down (a column's `type` at
/// the top of a table file): a hint that its indentation put it out of
/// its entry. Empty otherwise.
fn misplaced_hint(key: &str, known_here: &[&str]) -> String {
    let elsewhere = [
        ("column", column_keys()),
        ("index", index_keys()),
        ("foreign key", foreign_key_keys()),
        ("check", check_keys()),
    ];
    if known_here.contains(&key) {
        return String::new();
    }
    match elsewhere.iter().find(|(_, keys)| keys.contains(&key)) {
        Some((what, _)) => format!(
            " (`{key}` is a key of a {what} entry: if it belongs to one, indent it as far as that entry's other keys)"
        ),
        None => String::new(),
    }
}

/// The known key nearest to `key` by edit distance, if it is close.
fn closest(key: &str, known: &[&'static str]) -> Option<&'static str> {
    known
        .iter()
        .map(|k| (strsim::levenshtein(key, k), *k))
        .filter(|(d, k)| *d <= 2.max(k.len() / 3))
        .min()
        .map(|(_, k)| k)
}

fn strip_catalog_keys(value: &mut Value) -> Vec<UnknownKey> {
    let mut out = Vec::new();
    if let Value::Mapping(map) = value {
        retain_known(map, catalog_keys(), None, &mut out);
        for (key, known) in [
            ("defaults", defaults_keys()),
            ("limits", limits_keys()),
            ("lint", lint_keys()),
            ("tidb", tidb_settings_keys()),
        ] {
            if let Some(Value::Mapping(sub)) = map.get_mut(key) {
                retain_known(sub, known, Some(key.to_string()), &mut out);
            }
        }
        if let Some(Value::Mapping(lint)) = map.get_mut("lint") {
            if let Some(Value::Mapping(sub)) = lint.get_mut("naming") {
                retain_known(
                    sub,
                    naming_keys(),
                    Some("lint.naming".to_string()),
                    &mut out,
                );
            }
        }
    }
    out
}

fn strip_table_keys(value: &mut Value) -> Vec<UnknownKey> {
    let mut out = Vec::new();
    if let Value::Mapping(map) = value {
        retain_known(map, table_keys(), None, &mut out);
        for (key, object, known) in [
            ("primary_key", "primary key", primary_key_keys()),
            ("ttl", "ttl", ttl_keys()),
        ] {
            if let Some(Value::Mapping(sub)) = map.get_mut(key) {
                retain_known(sub, known, Some(object.to_string()), &mut out);
            }
        }
        if let Some(Value::Sequence(columns)) = map.get_mut("columns") {
            for (pos, item) in columns.iter_mut().enumerate() {
                if let Value::Mapping(column) = item {
                    let object = item_object("column", column, pos);
                    if let Some(Value::Mapping(sub)) = column.get_mut("auto_random") {
                        retain_known(sub, auto_random_keys(), Some(object), &mut out);
                    }
                }
            }
        }
        for (key, what, known) in [
            ("columns", "column", column_keys()),
            ("indexes", "index", index_keys()),
            ("checks", "check", check_keys()),
            ("foreign_keys", "foreign key", foreign_key_keys()),
            ("queries", "query", query_keys()),
        ] {
            if let Some(Value::Sequence(items)) = map.get_mut(key) {
                for (pos, item) in items.iter_mut().enumerate() {
                    if let Value::Mapping(sub) = item {
                        let object = item_object(what, sub, pos);
                        retain_known(sub, known, Some(object.clone()), &mut out);
                        if let Some(Value::Mapping(refs)) = sub.get_mut("references") {
                            retain_known(refs, reference_keys(), Some(object), &mut out);
                        }
                    }
                }
            }
        }
    }
    out
}

/// `column \`Name\`` or, when the entry has no usable name, `column #3`.
fn item_object(what: &str, map: &Mapping, pos: usize) -> String {
    match map.get("name").and_then(Value::as_str) {
        Some(name) if !name.is_empty() => format!("{what} `{name}`"),
        _ => format!("{what} #{}", pos + 1),
    }
}

fn retain_known(
    map: &mut Mapping,
    known: &'static [&'static str],
    object: Option<String>,
    out: &mut Vec<UnknownKey>,
) {
    let unknown: Vec<Value> = map
        .keys()
        .filter(|k| !k.as_str().is_some_and(|s| known.contains(&s)))
        .cloned()
        .collect();
    for key in unknown {
        map.remove(&key);
        let key = match key {
            Value::String(s) => s,
            other => serde_yaml::to_string(&other)
                .unwrap_or_default()
                .trim()
                .to_string(),
        };
        out.push(UnknownKey {
            key,
            object: object.clone(),
            known,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_columns() {
        assert_eq!(key_column("  - nulable: true", "nulable"), Some(5));
        assert_eq!(key_column("nulable : x", "nulable"), Some(1));
        assert_eq!(key_column("  nulablex: x", "nulable"), None);
    }

    #[test]
    fn positions_are_stripped() {
        assert_eq!(
            strip_positions("did not find x at line 6 column 4, while parsing at line 2 column 3"),
            "did not find x, while parsing"
        );
        assert_eq!(strip_positions("keep at line x"), "keep at line x");
    }

    /// The known keys are the structs' fields: renames applied (`type`),
    /// every list non-empty, so a new field is a new known key at once.
    #[test]
    fn known_keys_are_the_struct_fields() {
        assert_eq!(&column_keys()[..2], ["name", "type"]);
        assert!(column_keys().contains(&"widen"));
        assert!(table_keys().contains(&"queries"));
        assert!(query_keys().contains(&"max_rows_examined"));
        for keys in [
            catalog_keys(),
            defaults_keys(),
            limits_keys(),
            primary_key_keys(),
            ttl_keys(),
            auto_random_keys(),
            check_keys(),
            foreign_key_keys(),
            reference_keys(),
            index_keys(),
        ] {
            assert!(!keys.is_empty());
        }
    }

    #[test]
    fn suggestions() {
        assert_eq!(closest("nulable", column_keys()), Some("nullable"));
        assert_eq!(closest("primary", table_keys()), None);
        assert_eq!(closest("index", table_keys()), Some("indexes"));
    }
}
