//! `queries:` in a table file: the hot queries a consumer runs against the
//! table, each naming the index that must be its access path. This module
//! reads and lints them; `catalog explain` (src/explain/) judges their plans.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};
use serde_yaml::Value;

use crate::ident::Ident;
use crate::model::Table;
use crate::sql::query::{self as sql, Param, Shape};

use crate::catalog::rule_ids;
use crate::catalog::sink::Sink;

/// One entry of `queries`, as written (serialized like the other raw
/// types, see `crate::catalog::read::raw`).
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "a query: a mapping with `name`, `sql`, `params` and `uses`")]
pub(crate) struct RawQuery {
    #[serde(default)]
    name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    required_by: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sql: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    params: Vec<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    uses: Option<OneOrMany>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_rows_examined: Option<u64>,
    #[serde(default, skip_serializing_if = "RawFixture::is_unset")]
    fixture: RawFixture,
}

/// `uses: idx` or `uses: [idx_a, idx_b]`.
#[derive(Debug, Deserialize, Serialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

/// `fixture:` of a query: how `--scratch` populates its table.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "a fixture: a mapping with `matching`, `unrelated`, `values`")]
struct RawFixture {
    #[serde(skip_serializing_if = "Option::is_none")]
    matching: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    unrelated: Option<u32>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    values: BTreeMap<String, Value>,
}

impl RawFixture {
    /// Nothing declared (the key is then left out when written).
    fn is_unset(&self) -> bool {
        self.matching.is_none() && self.unrelated.is_none() && self.values.is_empty()
    }
}

/// A declared query, linted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    /// Name, unique within the table (case-insensitive).
    pub name: String,
    /// Consumers whose gate checks it (empty: everyone's).
    pub required_by: Vec<String>,
    /// The SQL as declared (parsed and re-rendered before it is sent).
    pub sql: String,
    /// One value per `?`, in order.
    pub params: Vec<Param>,
    /// The index (or, for a UNION ALL, indexes) of this table that must be
    /// the access path of every read of it.
    pub uses: Vec<Ident>,
    /// Bound on rows examined; `None`: the default (see docs/explain.md).
    pub max_rows_examined: Option<u64>,
    /// How `--scratch` populates the table for this query.
    pub fixture: FixtureSpec,
    /// What the statement names and how its placeholders bind.
    pub shape: Shape,
}

/// Fixture rows for one query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixtureSpec {
    /// Rows matching the parameters; `None`: 1,000 (1 when an equality
    /// parameter binds every column of a unique key).
    pub matching: Option<u32>,
    /// Rows matching nothing (default 10,000).
    pub unrelated: u32,
    /// Values for columns of the matching rows, over the generated ones.
    pub values: BTreeMap<Ident, Param>,
}

/// The object name of a query in problems.
fn object(name: &str, pos: usize) -> String {
    if name.is_empty() {
        format!("query #{}", pos + 1)
    } else {
        format!("query `{name}`")
    }
}

/// A YAML scalar as a parameter; `None` for a sequence or mapping.
fn param(v: &Value) -> Option<Param> {
    Some(match v {
        Value::Null => Param::Null,
        Value::Bool(b) => Param::Number(u8::from(*b).to_string()),
        Value::Number(n) => Param::Number(n.to_string()),
        Value::String(s) => Param::Text(s.clone()),
        _ => return None,
    })
}

/// Lints the queries of `table` against the whole catalog (`all`, by folded
/// table name), reporting
/// to `sink`, and returns the valid ones.
pub(in crate::catalog) fn lint_queries(
    raw: Vec<RawQuery>,
    table: &Table,
    all: &HashMap<&str, &Table>,
    unbuilt: &HashMap<String, Vec<String>>,
    sink: &mut Sink,
) -> Vec<Query> {
    let mut out: Vec<Query> = Vec::new();
    for (pos, q) in raw.into_iter().enumerate() {
        let obj = object(&q.name, pos);
        let before = sink.error_count();
        if q.name.trim().is_empty() {
            sink.report(
                &rule_ids::QUERY,
                Some(obj.clone()),
                "missing `name`: name the query",
            );
        } else if out.iter().any(|o| o.name.eq_ignore_ascii_case(&q.name)) {
            sink.report(
                &rule_ids::QUERY,
                Some(obj.clone()),
                "duplicate query name in this table (names compare case-insensitively); rename one",
            );
        }
        crate::catalog::read::declared::check_consumers(sink, Some(obj.clone()), &q.required_by);
        let params: Vec<Param> = q
            .params
            .iter()
            .enumerate()
            .filter_map(|(i, v)| {
                let p = param(v);
                if p.is_none() {
                    sink.report(
                        &rule_ids::QUERY,
                        Some(obj.clone()),
                        format!("parameter #{} is a list or mapping; give a scalar", i + 1),
                    );
                }
                p
            })
            .collect();
        let uses: Vec<Ident> = match &q.uses {
            None => Vec::new(),
            Some(OneOrMany::One(s)) => vec![Ident::new(s.clone())],
            Some(OneOrMany::Many(v)) => v.iter().map(|s| Ident::new(s.clone())).collect(),
        };
        if uses.is_empty() {
            sink.report(
                &rule_ids::QUERY,
                Some(obj.clone()),
                format!(
                    "missing `uses`: name the index of `{}` the query must read through",
                    table.name
                ),
            );
        }
        for idx in &uses {
            if table.index(idx).is_none() && !idx.as_str().eq_ignore_ascii_case("PRIMARY") {
                let names: Vec<&str> = table.indexes.iter().map(|i| i.name.as_str()).collect();
                sink.report(
                    &rule_ids::QUERY,
                    Some(obj.clone()),
                    format!(
                        "`uses: {idx}` names no index of `{}`; its indexes: PRIMARY, {}",
                        table.name,
                        names.join(", ")
                    ),
                );
            }
        }
        if q.max_rows_examined == Some(0) {
            sink.report(
                &rule_ids::QUERY,
                Some(obj.clone()),
                "`max_rows_examined` must be positive",
            );
        }
        let mut values = BTreeMap::new();
        for (col, v) in &q.fixture.values {
            let ident = Ident::new(col.clone());
            if table.column(&ident).is_none() {
                sink.report(
                    &rule_ids::QUERY,
                    Some(obj.clone()),
                    format!(
                        "`fixture.values` names `{col}`, which is not a column of `{}`",
                        table.name
                    ),
                );
            }
            match param(v) {
                Some(p) => {
                    values.insert(ident, p);
                }
                None => sink.report(
                    &rule_ids::QUERY,
                    Some(obj.clone()),
                    format!("`fixture.values.{col}` is a list or mapping; give a scalar"),
                ),
            }
        }
        let shape = match q.sql.as_deref() {
            None => {
                sink.report(
                    &rule_ids::QUERY,
                    Some(obj.clone()),
                    "missing `sql`: give the query's text",
                );
                None
            }
            Some(text) => match sql::analyze(text) {
                Err(e) => {
                    sink.report(&rule_ids::QUERY, Some(obj.clone()), format!("the SQL {e}"));
                    None
                }
                Ok(shape) => {
                    lint_shape(&shape, params.len(), table, all, unbuilt, &obj, sink);
                    Some(shape)
                }
            },
        };
        if sink.error_count() > before {
            continue;
        }
        let Some(shape) = shape else { continue };
        out.push(Query {
            name: q.name,
            required_by: q.required_by,
            sql: q.sql.unwrap_or_default(),
            params,
            uses,
            max_rows_examined: q.max_rows_examined,
            fixture: FixtureSpec {
                matching: q.fixture.matching,
                unrelated: q.fixture.unrelated.unwrap_or(10_000),
                values,
            },
            shape,
        });
    }
    out
}

/// Tables, columns and placeholders of a parsed query against the catalog.
fn lint_shape(
    shape: &Shape,
    params: usize,
    table: &Table,
    all: &HashMap<&str, &Table>,
    unbuilt: &HashMap<String, Vec<String>>,
    obj: &str,
    sink: &mut Sink,
) {
    let mut named: Vec<&Table> = Vec::new();
    for t in &shape.tables {
        match all.get(t.folded()) {
            Some(c) => named.push(c),
            None => sink.report(
                &rule_ids::QUERY,
                Some(obj.to_string()),
                format!("the SQL names the table `{t}`, which the catalog does not declare"),
            ),
        }
    }
    if !shape.tables.contains(&table.name) {
        sink.report(
            &rule_ids::QUERY,
            Some(obj.to_string()),
            format!(
                "the SQL does not read `{}`: declare a query in the file of the table it reads",
                table.name
            ),
        );
    }
    // Columns are checked against the tables the query names (when any is known).
    let columns = if named.is_empty() {
        &[][..]
    } else {
        &shape.columns[..]
    };
    for (qualifier, col) in columns {
        let scope: Vec<&&Table> = match qualifier {
            Some(q) => named.iter().filter(|t| t.name == *q).collect(),
            None => named.iter().collect(),
        };
        if let Some(q) = qualifier {
            if scope.is_empty() {
                sink.report(
                    &rule_ids::QUERY,
                    Some(obj.to_string()),
                    format!(
                        "the SQL qualifies `{col}` with `{q}`, which is not a table of the query"
                    ),
                );
                continue;
            }
        }
        let unbuilt_here = |t: &Table| {
            unbuilt
                .get(t.name.folded())
                .is_some_and(|names| names.iter().any(|n| n.eq_ignore_ascii_case(col.as_str())))
        };
        if scope.iter().any(|t| unbuilt_here(t)) {
            continue; // its column entry is already reported (an unknown type)
        }
        if !scope.iter().any(|t| t.column(col).is_some()) {
            sink.report(
                &rule_ids::QUERY,
                Some(obj.to_string()),
                format!(
                    "the SQL names the column `{col}`, which `{}` does not declare",
                    scope
                        .iter()
                        .map(|t| t.name.as_str())
                        .collect::<Vec<_>>()
                        .join("`, `")
                ),
            );
        }
    }
    if shape.bindings.len() != params {
        sink.report(&rule_ids::QUERY,
            Some(obj.to_string()),
            format!(
                "the SQL has {} `?` placeholder(s) but `params` gives {params} value(s); give one value per placeholder",
                shape.bindings.len()
            ),
        );
    }
}
