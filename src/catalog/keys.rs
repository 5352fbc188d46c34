//! The keys of one table file: the primary key and the `indexes` entries.
//! A key part is a column name, a mapping `{column, order, length}` (a
//! descending part, an explicit prefix) or `{expression}` (a functional key
//! part, parsed and re-rendered by [`crate::sqltext::render_key_expression`]);
//! an index has a kind (B-tree, FULLTEXT, SPATIAL) and a visibility. The key
//! checks: columns exist and are indexable, parts are listed once, the key
//! fits the byte limit, a prefix is declared on purpose (and warned about).

use serde_yaml::Value;

use crate::collation;
use crate::coltype::ColumnType;
use crate::ident::Ident;
use crate::model::{Column, Index, IndexKind, IndexPart};

use super::raw::RawIndex;
use super::sink::Sink;
use super::table::{check_consumers, check_ident, object_name, Declared};
use super::Limits;

/// The keys of a key-part mapping.
const PART_KEYS: &[&str] = &["column", "expression", "order", "length"];

/// Primary key or secondary index.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum KeyKind {
    Primary,
    Index,
}

/// One key part as written.
enum Entry {
    /// `Name` or `{column: Name, order: desc, length: 20}`.
    Column {
        name: String,
        length: Option<u32>,
        descending: bool,
    },
    /// `{expression: "lower(Note)"}`.
    Expression(String),
}

/// A key (primary key or index) as declared, for the key checks.
struct KeySpec<'a> {
    kind: KeyKind,
    object: String,
    index_kind: IndexKind,
    unique: bool,
    entries: Vec<Entry>,
    required_by: &'a [String],
}

/// Lints `primary_key`; its parts when they are all sound.
pub(super) fn lint_primary_key(
    columns: &[String],
    declared: &[Declared],
    limits: Limits,
    sink: &mut Sink,
) -> Option<Vec<IndexPart>> {
    let object = "primary key".to_string();
    let values: Vec<Value> = columns.iter().cloned().map(Value::String).collect();
    let entries = parse_entries(&values, &object, sink)?;
    let spec = KeySpec {
        kind: KeyKind::Primary,
        object,
        index_kind: IndexKind::BTree,
        unique: true,
        entries,
        required_by: &[],
    };
    lint_key(&spec, declared, limits, sink)
}

/// Lints every `indexes` entry; the sound ones as model indexes.
pub(super) fn lint_indexes(
    raw: &[RawIndex],
    declared: &[Declared],
    limits: Limits,
    sink: &mut Sink,
) -> Vec<Index> {
    let mut indexes: Vec<Index> = Vec::new();
    let mut names: Vec<Ident> = Vec::new();
    for (pos, ri) in raw.iter().enumerate() {
        let object = object_name("index", &ri.name, pos);
        let ident = Ident::new(ri.name.clone());
        check_ident(sink, Some(object.clone()), "index", &ri.name);
        if ident == Ident::new("PRIMARY") {
            sink.error(Some(object.clone()), "`PRIMARY` is reserved for the primary key: declare it with `primary_key`, or rename the index");
        }
        if let Some(first) = names.iter().find(|n| **n == ident) {
            sink.error(
                Some(object.clone()),
                format!("duplicate index name: `{first}` is already declared (index names compare case-insensitively); rename or remove one"),
            );
        }
        names.push(ident.clone());
        check_consumers(sink, Some(object.clone()), &ri.required_by);
        let Some(index_kind) = index_kind(ri, &object, sink) else {
            continue;
        };
        let Some(entries) = parse_entries(&ri.columns, &object, sink) else {
            continue;
        };
        let spec = KeySpec {
            kind: KeyKind::Index,
            object,
            index_kind,
            unique: ri.unique,
            entries,
            required_by: &ri.required_by,
        };
        if let Some(parts) = lint_key(&spec, declared, limits, sink) {
            indexes.push(Index {
                name: ident,
                unique: ri.unique,
                parts,
                kind: index_kind,
                visible: ri.visible.unwrap_or(true),
                comment: ri.comment.clone(),
                required_by: ri.required_by.clone(),
            });
        }
    }
    indexes
}

/// The declared `kind`, checked against uniqueness.
fn index_kind(ri: &RawIndex, object: &str, sink: &mut Sink) -> Option<IndexKind> {
    let kind = match ri.kind.as_deref().map(str::to_ascii_lowercase).as_deref() {
        None | Some("btree") => IndexKind::BTree,
        Some("fulltext") => IndexKind::FullText(None),
        Some("spatial") => IndexKind::Spatial,
        Some(_) => {
            sink.error(
                Some(object.to_string()),
                format!(
                    "unknown index kind `{}`: use `btree` (the default), `fulltext` or `spatial`",
                    ri.kind.as_deref().unwrap_or_default().escape_debug()
                ),
            );
            return None;
        }
    };
    if kind != IndexKind::BTree && ri.unique {
        sink.error(
            Some(object.to_string()),
            format!(
                "a {} index cannot be unique: remove `unique: true` or use a B-tree index",
                kind_name(kind)
            ),
        );
        return None;
    }
    let kind = match (kind, &ri.parser) {
        (_, None) => kind,
        (IndexKind::FullText(_), Some(name)) => match crate::model::FullTextParser::parse(name) {
            Ok(parser) => IndexKind::FullText(Some(parser)),
            Err(message) => {
                sink.error(Some(object.to_string()), message);
                return None;
            }
        },
        (_, Some(_)) => {
            sink.error(
                Some(object.to_string()),
                format!(
                    "`parser` belongs to a FULLTEXT index, this one is {}: remove `parser` or declare `kind: fulltext`",
                    kind_name(kind)
                ),
            );
            return None;
        }
    };
    // MySQL: "Too many key parts specified; max 1 parts allowed" (1070);
    // MariaDB: "Incorrect arguments to SPATIAL INDEX" (1210).
    if kind == IndexKind::Spatial && ri.columns.len() != 1 {
        sink.error(
            Some(object.to_string()),
            format!("a SPATIAL index has exactly one key part, this one has {}: index one spatial column", ri.columns.len()),
        );
        return None;
    }
    Some(kind)
}

fn kind_name(kind: IndexKind) -> &'static str {
    match kind {
        IndexKind::BTree => "B-tree",
        IndexKind::FullText(_) => "FULLTEXT",
        IndexKind::Spatial => "SPATIAL",
    }
}

/// `Name(10)` -> `Some(("Name", "10"))`.
fn split_prefix(entry: &str) -> Option<(&str, &str)> {
    let open = entry.find('(')?;
    let len = entry[open + 1..].strip_suffix(')')?;
    Some((entry[..open].trim(), len.trim()))
}

/// The column a key list starts with, as written (for the auto_increment rule).
pub(super) fn leading_column(values: &[Value]) -> Option<Ident> {
    let name = match values.first()? {
        Value::String(s) => split_prefix(s).map_or(s.trim(), |(name, _)| name),
        Value::Mapping(m) => m.get("column").and_then(Value::as_str)?,
        _ => return None,
    };
    Some(Ident::new(name))
}

/// Reads the written key parts; reports every malformed one.
fn parse_entries(values: &[Value], object: &str, sink: &mut Sink) -> Option<Vec<Entry>> {
    let mut out = Vec::new();
    let mut sound = true;
    for value in values {
        match parse_entry(value) {
            Ok(entry) => out.push(entry),
            Err(message) => {
                sink.error(Some(object.to_string()), message);
                sound = false;
            }
        }
    }
    sound.then_some(out)
}

fn parse_entry(value: &Value) -> Result<Entry, String> {
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

/// Checks every part of a key; returns its parts when all of them are sound.
fn lint_key(
    spec: &KeySpec,
    declared: &[Declared],
    limits: Limits,
    sink: &mut Sink,
) -> Option<Vec<IndexPart>> {
    let object = Some(spec.object.clone());
    if spec.entries.is_empty() {
        let message = match spec.kind {
            KeyKind::Primary => "`primary_key` is an empty list: name the key columns (e.g. `primary_key: [Id]`) or remove it",
            KeyKind::Index => "empty index: list its columns under `columns`, or remove the index",
        };
        sink.error(object, message);
        return None;
    }
    let mut sound = true;
    let mut widths: Vec<(&Column, Option<u32>)> = Vec::new();
    let mut parts: Vec<IndexPart> = Vec::new();
    let mut seen: Vec<Ident> = Vec::new();
    for entry in &spec.entries {
        let (name, length, descending) = match entry {
            Entry::Expression(text) => match expression_part(spec, text, declared) {
                Ok(part) => {
                    parts.push(part);
                    continue;
                }
                Err(message) => {
                    sink.error(object.clone(), message);
                    sound = false;
                    continue;
                }
            },
            Entry::Column {
                name,
                length,
                descending,
            } => (name, *length, *descending),
        };
        let ident = Ident::new(name.clone());
        if seen.contains(&ident) {
            sink.error(
                object.clone(),
                format!("column `{ident}` appears twice in the key: list each column once"),
            );
            sound = false;
            continue;
        }
        seen.push(ident.clone());
        let Some(found) = declared.iter().find(|d| d.ident == ident) else {
            sink.error(
                object.clone(),
                format!("names column `{ident}`, which the table does not declare: declare it under `columns` or fix the spelling"),
            );
            sound = false;
            continue;
        };
        let Some(column) = found.column.as_ref() else {
            sound = false; // its type is unknown, reported on the column
            continue;
        };
        sound &= check_key_column(spec, found, column, length, descending, sink);
        widths.push((column, length));
        parts.push(IndexPart::Column {
            name: ident,
            prefix: length,
            descending,
        });
    }
    if !sound {
        return None;
    }
    if spec.index_kind == IndexKind::BTree {
        check_width(spec, &widths, limits, sink);
    }
    Some(parts)
}

/// A functional key part, rendered from its parsed form.
fn expression_part(spec: &KeySpec, text: &str, declared: &[Declared]) -> Result<IndexPart, String> {
    if spec.kind == KeyKind::Primary || spec.index_kind != IndexKind::BTree {
        return Err("an expression key part belongs to a B-tree index (not the primary key, FULLTEXT or SPATIAL)".into());
    }
    let columns: Vec<Ident> = declared.iter().map(|d| d.ident.clone()).collect();
    crate::sqltext::render_key_expression(text, &columns)
        .map(IndexPart::Expression)
        .map_err(|reason| format!("expression key part `{}` {reason}", text.escape_debug()))
}

/// Checks one key column: NOT NULL in a primary key, available to every
/// consumer of the key, of a type the index kind can key (whole or by a
/// declared prefix). Returns whether it can be a key part.
fn check_key_column(
    spec: &KeySpec,
    found: &Declared,
    column: &Column,
    length: Option<u32>,
    descending: bool,
    sink: &mut Sink,
) -> bool {
    let name = &column.name;
    if spec.kind == KeyKind::Primary && column.nullable {
        let why = if found.nullable_explicit {
            "is declared `nullable: true`"
        } else {
            "is nullable because `nullable` defaults to true"
        };
        sink.error(
            Some(format!("column `{name}`")),
            format!("is in the primary key but {why}; primary-key columns are NOT NULL: set `nullable: false`"),
        );
    }
    if spec.kind == KeyKind::Primary && column.generated.is_some() {
        sink.error(
            Some(format!("column `{name}`")),
            "is in the primary key but generated: MariaDB refuses a primary key on any generated column (error 1903), MySQL on a VIRTUAL one (3106); key a stored column",
        );
    }
    check_consumer_scope(spec, column, sink);
    let object = Some(spec.object.clone());
    if spec.index_kind.is_fulltext() {
        if length.is_some() || descending {
            sink.error(object, format!("a FULLTEXT index keys whole columns: remove `length` and `order` from `{name}`"));
            return false;
        }
        if !column.ty.is_textual() {
            sink.error(
                object,
                format!(
                    "a FULLTEXT index keys char, varchar and text columns; `{name}` is {}",
                    column.ty
                ),
            );
            return false;
        }
        return true;
    }
    if spec.index_kind == IndexKind::Spatial {
        return check_spatial_part(spec, column, length.is_some() || descending, sink);
    }
    if let Some(n) = length {
        return check_prefix(spec, column, n, sink);
    }
    if column.ty.is_indexable_whole() {
        return true;
    }
    let kind_problem = match column.ty {
        ColumnType::Spatial { .. } => Some(format!("column `{name}` is {}: a B-tree index cannot key a spatial column; declare the index `kind: spatial`", column.ty)),
        ColumnType::Vector(_) => Some(format!("column `{name}` is {}: a vector column cannot be a key part (the servers have no B-tree key over vectors)", column.ty)),
        _ => None,
    };
    if let Some(problem) = kind_problem {
        sink.error(object, problem);
        return false;
    }
    let prefix = if column.ty == ColumnType::Json {
        String::new()
    } else {
        format!(", or declare a prefix on purpose as `{{column: {name}, length: N}}`")
    };
    sink.error(
        object,
        format!(
            "column `{name}` is {}: text, blob and json columns cannot be indexed whole; key a varchar/varbinary column (or a digest of the value) instead{prefix}",
            column.ty
        ),
    );
    false
}

/// A SPATIAL key part: a whole NOT NULL spatial column (both servers refuse
/// a nullable one, error 1252).
fn check_spatial_part(spec: &KeySpec, column: &Column, shaped: bool, sink: &mut Sink) -> bool {
    let name = &column.name;
    let object = Some(spec.object.clone());
    let problem = if !matches!(column.ty, ColumnType::Spatial { .. }) {
        format!(
            "a SPATIAL index keys a spatial column (geometry, point, ...); `{name}` is {}",
            column.ty
        )
    } else if shaped {
        format!("a SPATIAL index keys whole columns: remove `length` and `order` from `{name}`")
    } else if column.nullable {
        format!("every part of a SPATIAL index is NOT NULL (the servers refuse a nullable one, error 1252): set `nullable: false` on `{name}`")
    } else {
        return true;
    };
    sink.error(object, problem);
    false
}

/// A declared prefix: on a string or blob column, shorter than the column;
/// always warned about, since the key no longer sees the whole value.
fn check_prefix(spec: &KeySpec, column: &Column, n: u32, sink: &mut Sink) -> bool {
    let name = &column.name;
    let object = Some(spec.object.clone());
    let size = match column.ty {
        ColumnType::Char(s)
        | ColumnType::Varchar(s)
        | ColumnType::Binary(s)
        | ColumnType::Varbinary(s) => Some(s),
        ColumnType::Text
        | ColumnType::MediumText
        | ColumnType::LongText
        | ColumnType::Blob
        | ColumnType::MediumBlob
        | ColumnType::LongBlob => None,
        _ => {
            sink.error(
                object,
                format!(
                    "`{name}` is {}, which takes no prefix length: remove `length`",
                    column.ty
                ),
            );
            return false;
        }
    };
    if size.is_some_and(|s| n >= s) {
        sink.error(
            object,
            format!("prefix length {n} is not shorter than `{name}` {}: the server keys such a part whole; remove `length`", column.ty),
        );
        return false;
    }
    let (unit, one) = if column.ty.is_textual() {
        ("characters", "character")
    } else {
        ("bytes", "byte")
    };
    let unique = if spec.unique {
        format!(", and uniqueness holds for the first {n} {unit} only (two values sharing them collide)")
    } else {
        String::new()
    };
    sink.warning(
        object,
        format!("key part `{name}` is a {n}-{one} prefix: the index sees only the first {n} {unit}, so it cannot make an equality lookup exact{unique}"),
    );
    true
}

/// A key may only use columns that every consumer of the key gets.
fn check_consumer_scope(spec: &KeySpec, column: &Column, sink: &mut Sink) {
    if column.required_by.is_empty() {
        return;
    }
    let only = column.required_by.join(", ");
    let name = &column.name;
    let message = match spec.kind {
        KeyKind::Primary => format!(
            "uses column `{name}`, which only [{only}] require; the base contract would depend on a consumer-only column: remove `required_by` from the column"
        ),
        KeyKind::Index if spec.required_by.is_empty() => format!(
            "this base-contract index uses column `{name}`, which only [{only}] require; the base contract would depend on a consumer-only column: add `required_by: [{only}]` to the index, or remove `required_by` from the column"
        ),
        KeyKind::Index => {
            let missing: Vec<&str> = spec
                .required_by
                .iter()
                .filter(|c| !column.required_by.contains(c))
                .map(String::as_str)
                .collect();
            if missing.is_empty() {
                return;
            }
            format!(
                "uses column `{name}`, which only [{only}] require; [{}] would need a column they do not get: add them to the column's `required_by`",
                missing.join(", ")
            )
        }
    };
    sink.error(Some(spec.object.clone()), message);
}

/// Bytes of one key part (a whole column, or its declared prefix), with its
/// description (`Scope varchar(255) utf8mb4`).
fn key_part_bytes(column: &Column, prefix: Option<u32>) -> Option<(String, u32)> {
    let max = match column.charset.as_deref() {
        Some(cs) => collation::charset(cs)?.max_bytes,
        None => 1,
    };
    let bytes = match prefix {
        Some(n) => n * max,
        None => column.ty.key_bytes(max)?,
    };
    let charset = column
        .charset
        .as_deref()
        .map(|cs| format!(" {cs}"))
        .unwrap_or_default();
    let prefix = prefix.map(|n| format!(" prefix {n}")).unwrap_or_default();
    Some((
        format!("{} {}{charset}{prefix}", column.name, column.ty),
        bytes,
    ))
}

/// Total key bytes of whole `columns`, when every one is known.
pub(super) fn key_bytes(columns: &[&Column]) -> Option<(u32, Vec<(String, u32)>)> {
    let parts: Vec<(&Column, Option<u32>)> = columns.iter().map(|c| (*c, None)).collect();
    part_bytes(&parts)
}

fn part_bytes(parts: &[(&Column, Option<u32>)]) -> Option<(u32, Vec<(String, u32)>)> {
    let parts: Option<Vec<(String, u32)>> =
        parts.iter().map(|(c, p)| key_part_bytes(c, *p)).collect();
    let parts = parts?;
    Some((parts.iter().map(|(_, b)| b).sum(), parts))
}

fn check_width(spec: &KeySpec, parts: &[(&Column, Option<u32>)], limits: Limits, sink: &mut Sink) {
    let Some((total, parts)) = part_bytes(parts) else {
        return;
    };
    if total <= limits.max_index_bytes {
        return;
    }
    let detail: Vec<String> = parts.iter().map(|(d, b)| format!("{d} = {b}")).collect();
    sink.error(
        Some(spec.object.clone()),
        format!(
            "key is {total} bytes, over the {}-byte limit: {}; narrow the widest columns or key a short digest column (e.g. char(64)) instead",
            limits.max_index_bytes,
            detail.join(", ")
        ),
    );
}

/// An auto_increment column must lead the primary key or some index.
pub(super) fn check_auto_increment_keys(
    declared: &[Declared],
    primary_key: &[String],
    indexes: &[RawIndex],
    sink: &mut Sink,
) {
    let pk: Vec<Value> = primary_key.iter().cloned().map(Value::String).collect();
    let leads: Vec<Ident> = std::iter::once(pk.as_slice())
        .chain(indexes.iter().map(|i| i.columns.as_slice()))
        .filter_map(leading_column)
        .collect();
    for column in declared
        .iter()
        .filter_map(|d| d.column.as_ref())
        .filter(|c| c.auto_increment)
    {
        if !leads.contains(&column.name) {
            sink.error(
                Some(format!("column `{}`", column.name)),
                "an auto_increment column must be the first column of the primary key or of an index: put it first in `primary_key` (e.g. `primary_key: [Id]`)",
            );
        }
    }
}

/// Warns about an index with the same kind, ordered parts and uniqueness as
/// an earlier one, or the same parts as the primary key.
pub(super) fn warn_duplicate_indexes(
    indexes: &[Index],
    primary_key: &[IndexPart],
    sink: &mut Sink,
) {
    for (i, index) in indexes.iter().enumerate() {
        let object = Some(format!("index `{}`", index.name));
        let columns = || {
            index
                .parts
                .iter()
                .map(|p| match p {
                    IndexPart::Column { name, .. } => name.to_string(),
                    IndexPart::Expression(e) => format!("({e})"),
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        if !primary_key.is_empty() && index.kind == IndexKind::BTree && index.parts == primary_key {
            sink.warning(
                object,
                format!("has the same columns ({}) as the primary key, which is already unique: remove the index", columns()),
            );
        } else if let Some(earlier) = indexes[..i]
            .iter()
            .find(|e| e.unique == index.unique && e.kind == index.kind && e.parts == index.parts)
        {
            sink.warning(
                object,
                format!(
                    "duplicates index `{}`: same ordered columns ({}) and uniqueness; remove one of them",
                    earlier.name,
                    columns()
                ),
            );
        }
    }
}
