//! The YAML shapes of catalog files and the two-pass reader: a walk over a
//! `serde_yaml::Value` reports every unknown key in a file (not only the
//! first), then the typed structs are deserialized with `deny_unknown_fields`
//! from the text, so that type errors carry a line and column.
//!
//! The same types are what `catalog import` writes (`crate::import::emit`
//! builds them from the model): each serializes in field order, leaving out
//! what is absent, empty or the default, so that a written file holds only
//! what it declares. A new key is a new field here, read and written alike.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_yaml::{Mapping, Value};

use super::sink::Sink;

/// Keys of `catalog.yaml`.
const CATALOG_KEYS: &[&str] = &["flavors", "external_tables", "defaults", "limits"];
/// Keys of `catalog.yaml` `defaults`.
const DEFAULTS_KEYS: &[&str] = &["engine", "charset", "collation"];
/// Keys of `catalog.yaml` `limits`.
const LIMITS_KEYS: &[&str] = &["max_index_bytes"];
/// Keys of a table file.
const TABLE_KEYS: &[&str] = &[
    "table",
    "comment",
    "engine",
    "charset",
    "collation",
    "columns",
    "primary_key",
    "indexes",
    "checks",
    "foreign_keys",
    "shard_row_id_bits",
    "pre_split_regions",
    "ttl",
    "required_by",
    "queries",
];
/// Keys of the mapping form of `primary_key`.
const PRIMARY_KEY_KEYS: &[&str] = &["columns", "clustered"];
/// Keys of `ttl`.
const TTL_KEYS: &[&str] = &["column", "interval", "enabled", "job_interval"];
/// Keys of the mapping form of a column's `auto_random`.
const AUTO_RANDOM_KEYS: &[&str] = &["shard_bits", "range"];
/// Keys of one entry of `checks`.
const CHECK_KEYS: &[&str] = &["name", "expression"];
/// Keys of one entry of `foreign_keys`.
const FOREIGN_KEY_KEYS: &[&str] = &["name", "columns", "references", "on_delete", "on_update"];
/// Keys of a foreign key's `references`.
const REFERENCE_KEYS: &[&str] = &["table", "columns"];
/// Keys of one entry of `columns`.
const COLUMN_KEYS: &[&str] = &[
    "name",
    "type",
    "srid",
    "nullable",
    "auto_increment",
    "charset",
    "collation",
    "default",
    "on_update",
    "invisible",
    "generated",
    "auto_random",
    "comment",
    "required_by",
];
/// Keys of one entry of `indexes`.
const INDEX_KEYS: &[&str] = &[
    "name",
    "columns",
    "unique",
    "kind",
    "parser",
    "visible",
    "comment",
    "required_by",
];

/// `catalog.yaml`.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "a mapping with `flavors`, `defaults` and `limits`")]
pub(crate) struct RawCatalogFile {
    /// The flavors the catalog targets (`tidb`, `mysql`, `mariadb`); absent = all three.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flavors: Option<Vec<String>>,
    /// Tables of the schema the catalog does not manage that its foreign
    /// keys may reference.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub external_tables: Vec<String>,
    #[serde(default)]
    pub defaults: RawDefaults,
    #[serde(default, skip_serializing_if = "RawLimits::is_unset")]
    pub limits: RawLimits,
}

/// `catalog.yaml` `defaults`.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "a mapping with `engine`, `charset` and `collation`")]
pub(crate) struct RawDefaults {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub charset: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub collation: Option<String>,
}

/// `catalog.yaml` `limits`.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "a mapping with `max_index_bytes`")]
pub(crate) struct RawLimits {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_index_bytes: Option<u32>,
}

impl RawLimits {
    /// No limit declared (the key is then left out when written).
    fn is_unset(&self) -> bool {
        self.max_index_bytes.is_none()
    }
}

/// One table file.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(
    expecting = "a table: a mapping with `table`, `columns` and optionally `primary_key`, `indexes`"
)]
pub(crate) struct RawTable {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub charset: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub collation: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub columns: Option<Vec<RawColumn>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub primary_key: Option<RawPrimaryKey>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub indexes: Vec<RawIndex>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<RawCheck>,
    /// TiDB `SHARD_ROW_ID_BITS` (linted in `catalog::tidb`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard_row_id_bits: Option<u8>,
    /// TiDB `PRE_SPLIT_REGIONS`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pre_split_regions: Option<u8>,
    /// TiDB row TTL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttl: Option<RawTtl>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub foreign_keys: Vec<RawForeignKey>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub required_by: Vec<String>,
    /// `queries:`, linted in [`super::queries`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub queries: Vec<super::queries::RawQuery>,
}

/// `primary_key`: a list of columns, or `{columns: [...], clustered: bool}`.
#[derive(Debug, Deserialize, Serialize)]
#[serde(untagged)]
#[serde(
    expecting = "`primary_key`: a list of column names, or a mapping with `columns` and `clustered`"
)]
pub(crate) enum RawPrimaryKey {
    /// `[Id]`.
    Columns(Vec<String>),
    /// `{columns: [Id], clustered: true}`.
    Mapping(RawPrimaryKeyMap),
}

/// The mapping form of `primary_key`.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawPrimaryKeyMap {
    #[serde(default)]
    pub columns: Vec<String>,
    /// TiDB CLUSTERED / NONCLUSTERED.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clustered: Option<bool>,
}

impl RawPrimaryKey {
    /// The key columns as written.
    pub fn columns(&self) -> &[String] {
        match self {
            RawPrimaryKey::Columns(c) => c,
            RawPrimaryKey::Mapping(m) => &m.columns,
        }
    }

    /// `clustered`, when declared.
    pub fn clustered(&self) -> Option<bool> {
        match self {
            RawPrimaryKey::Columns(_) => None,
            RawPrimaryKey::Mapping(m) => m.clustered,
        }
    }
}

/// `ttl`.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(
    expecting = "`ttl`: a mapping with `column`, `interval` and optionally `enabled`, `job_interval`"
)]
pub(crate) struct RawTtl {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<String>,
    /// `30 DAY`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interval: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// `1h`, `30m`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub job_interval: Option<String>,
}

/// A column's `auto_random`: shard bits, or `{shard_bits, range}`.
#[derive(Debug, Clone, Copy, Deserialize, Serialize)]
#[serde(untagged)]
#[serde(
    expecting = "`auto_random`: the shard bits (e.g. 5), or a mapping with `shard_bits` and `range`"
)]
pub(crate) enum RawAutoRandom {
    /// `auto_random: 5`.
    Bits(u8),
    /// `auto_random: {shard_bits: 5, range: 54}`.
    Mapping(RawAutoRandomMap),
}

/// The mapping form of `auto_random`.
#[derive(Debug, Clone, Copy, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawAutoRandomMap {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard_bits: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<u8>,
}

/// One entry of `checks`.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "a check: a mapping with `name` and `expression`")]
pub(crate) struct RawCheck {
    #[serde(default)]
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expression: Option<String>,
}

/// One entry of `foreign_keys`.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(
    expecting = "a foreign key: a mapping with `name`, `columns`, `references` and optionally `on_delete`, `on_update`"
)]
pub(crate) struct RawForeignKey {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub columns: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub references: Option<RawReference>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on_delete: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on_update: Option<String>,
}

/// A foreign key's `references`.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "the referenced table: a mapping with `table` and `columns`")]
pub(crate) struct RawReference {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<String>,
    #[serde(default)]
    pub columns: Vec<String>,
}

/// One entry of `columns`.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(
    expecting = "a column: a mapping with `name`, `type` and optionally `nullable`, `default`, ..."
)]
pub(crate) struct RawColumn {
    #[serde(default)]
    pub name: String,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub ty: Option<String>,
    /// The SRID a spatial column is restricted to (MySQL 8.0.3+).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub srid: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub charset: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub collation: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nullable: Option<bool>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub auto_increment: bool,
    /// Raw SQL default; a YAML number or bool is accepted too. `default:
    /// null` (or `NULL`, `~`) is kept as `Some(Value::Null)`, apart from absent.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub default: Option<Value>,
    /// `CURRENT_TIMESTAMP(p)`: the value written on every UPDATE of the row.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on_update: Option<String>,
    /// `INVISIBLE` (MySQL 8.0.23+, MariaDB 10.3+): left out of `SELECT *`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub invisible: bool,
    /// `{expression, stored}`: a generated column (linted in `catalog::generated`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generated: Option<RawGenerated>,
    /// TiDB `AUTO_RANDOM` (linted in `catalog::tidb`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auto_random: Option<RawAutoRandom>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub required_by: Vec<String>,
}

/// A column's `generated`.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "a generated column: a mapping with `expression` and optionally `stored`")]
pub(crate) struct RawGenerated {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expression: Option<String>,
    /// STORED (MariaDB PERSISTENT) rather than VIRTUAL.
    #[serde(default, skip_serializing_if = "is_false")]
    pub stored: bool,
}

/// One entry of `indexes`.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "an index: a mapping with `name`, `columns` and optionally `unique`")]
pub(crate) struct RawIndex {
    #[serde(default)]
    pub name: String,
    /// Key parts: a column name, or a mapping `{column, order, length}` /
    /// `{expression, order}` (read by `catalog::keys`, which names any
    /// unknown key of a part; written from [`RawKeyPart`]).
    #[serde(default)]
    pub columns: Vec<Value>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub unique: bool,
    /// `btree` (the default), `fulltext` or `spatial`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// A FULLTEXT index's parser plugin (`ngram`); only with `kind: fulltext`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parser: Option<String>,
    /// `false` declares the index invisible (MySQL, TiDB) / IGNORED (MariaDB).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visible: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub required_by: Vec<String>,
}

/// The mapping form of one key part, as `catalog::keys` reads it (its
/// `PART_KEYS`); a plain ascending whole column is written as its name.
#[derive(Debug, Default, Serialize)]
pub(crate) struct RawKeyPart {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expression: Option<String>,
    /// `desc`; ascending is the default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order: Option<&'static str>,
    /// A prefix length.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub length: Option<u32>,
}

/// For `skip_serializing_if`: a `false` flag is the default, left out.
fn is_false(flag: &bool) -> bool {
    !*flag
}

/// Which kind of file is being read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum FileKind {
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
pub(super) fn read<T: DeserializeOwned>(text: &str, kind: FileKind, sink: &mut Sink) -> Option<T> {
    let mut value: Value = match serde_yaml::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            let (message, line, column) = split_location(&e);
            sink.error_at(
                None,
                line,
                column,
                format!("malformed YAML: {message}; fix the syntax"),
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
        serde_yaml::from_str::<T>(text)
    } else {
        serde_yaml::from_value::<T>(value)
    };
    match typed {
        Ok(t) => Some(t),
        Err(e) => {
            let (message, line, column) = split_location(&e);
            sink.error_at(
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
            "unknown key `{}`; {hint}known keys here: {}",
            u.key,
            u.known.join(", ")
        );
        sink.error_at(u.object.clone(), line, column, message);
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

/// The known key nearest to `key` by edit distance, if it is close.
fn closest(key: &str, known: &[&'static str]) -> Option<&'static str> {
    known
        .iter()
        .map(|k| (edit_distance(key, k), *k))
        .filter(|(d, k)| *d <= 2.max(k.len() / 3))
        .min()
        .map(|(_, k)| k)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

fn strip_catalog_keys(value: &mut Value) -> Vec<UnknownKey> {
    let mut out = Vec::new();
    if let Value::Mapping(map) = value {
        retain_known(map, CATALOG_KEYS, None, &mut out);
        for (key, known) in [("defaults", DEFAULTS_KEYS), ("limits", LIMITS_KEYS)] {
            if let Some(Value::Mapping(sub)) = map.get_mut(key) {
                retain_known(sub, known, Some(key.to_string()), &mut out);
            }
        }
    }
    out
}

fn strip_table_keys(value: &mut Value) -> Vec<UnknownKey> {
    let mut out = Vec::new();
    if let Value::Mapping(map) = value {
        retain_known(map, TABLE_KEYS, None, &mut out);
        for (key, object, known) in [
            ("primary_key", "primary key", PRIMARY_KEY_KEYS),
            ("ttl", "ttl", TTL_KEYS),
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
                        retain_known(sub, AUTO_RANDOM_KEYS, Some(object), &mut out);
                    }
                }
            }
        }
        for (key, what, known) in [
            ("columns", "column", COLUMN_KEYS),
            ("indexes", "index", INDEX_KEYS),
            ("checks", "check", CHECK_KEYS),
            ("foreign_keys", "foreign key", FOREIGN_KEY_KEYS),
            ("queries", "query", super::queries::QUERY_KEYS),
        ] {
            if let Some(Value::Sequence(items)) = map.get_mut(key) {
                for (pos, item) in items.iter_mut().enumerate() {
                    if let Value::Mapping(sub) = item {
                        let object = item_object(what, sub, pos);
                        retain_known(sub, known, Some(object.clone()), &mut out);
                        if let Some(Value::Mapping(refs)) = sub.get_mut("references") {
                            retain_known(refs, REFERENCE_KEYS, Some(object), &mut out);
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

/// Deserializes a present key as `Some`, even when its value is YAML null.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
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

    #[test]
    fn suggestions() {
        assert_eq!(closest("nulable", COLUMN_KEYS), Some("nullable"));
        assert_eq!(closest("primary", TABLE_KEYS), None);
        assert_eq!(closest("index", TABLE_KEYS), Some("indexes"));
    }
}
