//! The keys of one table file: the primary key and the `indexes` entries.
//! Key parts are read in the raw layer ([`crate::catalog::read::raw::key_parts`]); an
//! expression part is parsed and re-rendered by
//! [`crate::sqltext::render_key_expression`]; an index has a kind (B-tree,
//! FULLTEXT, SPATIAL) and a visibility. The key checks: columns exist and
//! are indexable, parts are listed once, the key fits the byte limit
//! ([`crate::catalog::rules::widths`]), a prefix is declared on purpose (and warned about).
//! The rules across keys (auto_increment, duplicates) are
//! [`crate::catalog::rules::key_rules`].

use std::collections::BTreeMap;

use serde_yaml::Value;

use crate::coltype::ColumnType;
use crate::ident::Ident;
use crate::model::{Column, Index, IndexKind, IndexPart};

use crate::catalog::read::declared::{check_consumers, check_ident, object_name, Declared};
use crate::catalog::read::raw::key_parts::{parse_entry, Entry};
use crate::catalog::read::raw::RawIndex;
use crate::catalog::rule_ids;
use crate::catalog::sink::Sink;
use crate::catalog::Limits;

/// Primary key or secondary index.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(in crate::catalog) enum KeyKind {
    Primary,
    Index,
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
pub(in crate::catalog) fn lint_primary_key(
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

/// Lints every `indexes` entry; the sound ones as model indexes, with
/// the consumers that require each (its `required_by`: the catalog's
/// policy, not the model's).
pub(in crate::catalog) fn lint_indexes(
    raw: &[RawIndex],
    declared: &[Declared],
    limits: Limits,
    sink: &mut Sink,
) -> (Vec<Index>, BTreeMap<Ident, Vec<String>>) {
    let mut indexes: Vec<Index> = Vec::new();
    let mut scopes = BTreeMap::new();
    let mut names: Vec<Ident> = Vec::new();
    for (pos, ri) in raw.iter().enumerate() {
        let object = object_name("index", &ri.name, pos);
        let ident = Ident::new(ri.name.clone());
        check_ident(sink, Some(object.clone()), "index", &ri.name);
        if ident == Ident::new("PRIMARY") {
            sink.report(&rule_ids::KEY_COLUMNS, Some(object.clone()), "`PRIMARY` is reserved for the primary key: declare it with `primary_key`, or rename the index");
        }
        if let Some(first) = names.iter().find(|n| **n == ident) {
            sink.report(&rule_ids::DUPLICATE_NAME,
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
            scopes.insert(ident.clone(), ri.required_by.clone());
            indexes.push(Index {
                name: ident,
                unique: ri.unique,
                parts,
                kind: index_kind,
                visible: ri.visible.unwrap_or(true),
                comment: ri.comment.clone(),
            });
        }
    }
    (indexes, scopes)
}

/// The declared `kind`, checked against uniqueness.
fn index_kind(ri: &RawIndex, object: &str, sink: &mut Sink) -> Option<IndexKind> {
    let kind = match ri.kind.as_deref().map(str::to_ascii_lowercase).as_deref() {
        None | Some("btree") => IndexKind::BTree,
        Some("fulltext") => IndexKind::FullText(None),
        Some("spatial") => IndexKind::Spatial,
        Some(_) => {
            sink.report(
                &rule_ids::KEY_COLUMNS,
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
        sink.report(
            &rule_ids::KEY_COLUMNS,
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
                sink.report(&rule_ids::KEY_COLUMNS, Some(object.to_string()), message);
                return None;
            }
        },
        (_, Some(_)) => {
            sink.report(&rule_ids::KEY_COLUMNS,
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
        sink.report(&rule_ids::KEY_COLUMNS,
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

/// Reads the written key parts; reports every malformed one.
fn parse_entries(values: &[Value], object: &str, sink: &mut Sink) -> Option<Vec<Entry>> {
    let mut out = Vec::new();
    let mut sound = true;
    for value in values {
        match parse_entry(value) {
            Ok(entry) => out.push(entry),
            Err(message) => {
                sink.report(&rule_ids::KEY_COLUMNS, Some(object.to_string()), message);
                sound = false;
            }
        }
    }
    sound.then_some(out)
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
        sink.report(&rule_ids::KEY_COLUMNS, object, message);
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
                    sink.report(&rule_ids::KEY_COLUMNS, object.clone(), message);
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
            sink.report(
                &rule_ids::KEY_COLUMNS,
                object.clone(),
                format!("column `{ident}` appears twice in the key: list each column once"),
            );
            sound = false;
            continue;
        }
        seen.push(ident.clone());
        let Some(found) = declared.iter().find(|d| d.ident == ident) else {
            sink.report(&rule_ids::KEY_COLUMNS,
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
    // One multi-valued key part per index (MySQL 8.4 manual, CREATE INDEX,
    // "Multi-Valued Indexes"): the server refuses a second one at apply.
    let multi_valued = parts
        .iter()
        .filter(|p| matches!(p, IndexPart::Expression(e) if crate::sqltext::is_multi_valued_key(e)))
        .count();
    if multi_valued > 1 {
        sink.report(
            &rule_ids::KEY_COLUMNS,
            object.clone(),
            format!("has {multi_valued} multi-valued key parts (`CAST(... AS type ARRAY)`): an index may have one; split it into one index each"),
        );
        sound = false;
    }
    if !sound {
        return None;
    }
    if spec.index_kind == IndexKind::BTree {
        crate::catalog::rules::widths::check_width(&spec.object, &widths, limits, sink);
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
        sink.report(&rule_ids::KEY_COLUMNS,
            Some(format!("column `{name}`")),
            format!("is in the primary key but {why}; primary-key columns are NOT NULL: set `nullable: false`"),
        );
    }
    if spec.kind == KeyKind::Primary && column.generated.is_some() {
        sink.report(&rule_ids::KEY_COLUMNS,
            Some(format!("column `{name}`")),
            "is in the primary key but generated: MariaDB refuses a primary key on any generated column (error 1903), MySQL on a VIRTUAL one (3106); key a stored column",
        );
    }
    check_consumer_scope(spec, column, &found.policy.required_by, sink);
    let object = Some(spec.object.clone());
    if spec.index_kind.is_fulltext() {
        if length.is_some() || descending {
            sink.report(&rule_ids::KEY_COLUMNS, object, format!("a FULLTEXT index keys whole columns: remove `length` and `order` from `{name}`"));
            return false;
        }
        if !column.ty.is_textual() {
            sink.report(
                &rule_ids::KEY_COLUMNS,
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
        sink.report(&rule_ids::KEY_COLUMNS, object, problem);
        return false;
    }
    let prefix = if column.ty == ColumnType::Json {
        String::new()
    } else {
        format!(", or declare a prefix on purpose as `{{column: {name}, length: N}}`")
    };
    sink.report(&rule_ids::KEY_COLUMNS,
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
    sink.report(&rule_ids::KEY_COLUMNS, object, problem);
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
        ColumnType::TinyText
        | ColumnType::Text
        | ColumnType::MediumText
        | ColumnType::LongText
        | ColumnType::TinyBlob
        | ColumnType::Blob
        | ColumnType::MediumBlob
        | ColumnType::LongBlob => None,
        _ => {
            sink.report(
                &rule_ids::KEY_COLUMNS,
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
        sink.report(&rule_ids::KEY_COLUMNS,
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
    sink.report(&rule_ids::PREFIX_KEY,
        object,
        format!("key part `{name}` is a {n}-{one} prefix: the index sees only the first {n} {unit}, so it cannot make an equality lookup exact{unique}"),
    );
    true
}

/// A key may only use columns that every consumer of the key gets
/// (`scope`: the column's `required_by`).
fn check_consumer_scope(spec: &KeySpec, column: &Column, scope: &[String], sink: &mut Sink) {
    if scope.is_empty() {
        return;
    }
    let only = scope.join(", ");
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
                .filter(|c| !scope.contains(c))
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
    sink.report(&rule_ids::KEY_SCOPE, Some(spec.object.clone()), message);
}
