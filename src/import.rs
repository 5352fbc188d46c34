//! `import`: bootstrap a catalog from an existing schema, read live (through
//! [`crate::inspect::inspect_table`]) or from a dump ([`crate::dump`]).
//!
//! The output is a catalog directory: `catalog.yaml` with defaults taken from
//! the most common table engine / collation, and one YAML file per table in
//! stable key order, holding only non-default keys (no `nullable: true`, no
//! column collation equal to the table's). Comments are kept.
//!
//! Anything the catalog format cannot express is *unsupported*: a type
//! outside SPEC (`enum`, `set`, `bit`, `geometry`, ...), a generated column,
//! a prefix, descending or expression key part in the primary key, an
//! expression key part the catalog's expression renderer refuses, a SPATIAL
//! index, a foreign key, partitioning, `ON UPDATE`, a CHECK
//! constraint (other than MariaDB's json one), an invisible column, a table
//! option other than engine/charset/collation/comment, a charset or collation
//! the catalog does not know. Import refuses them ([`Error::Unsupported`])
//! unless asked to skip them, in which case each is left out and listed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use mysql_async::prelude::*;
use serde_yaml::{Mapping, Value};

use crate::collation::{charset, charset_of};
use crate::db::Session;
use crate::dump::{self, Dump, Feature, ParseOptions};
use crate::error::{Error, Result};
use crate::ident::{quote_ident, Ident};
use crate::inspect;
use crate::model::{DefaultValue, IndexKind, IndexPart, Table, TableKind};
use crate::ColumnType;

/// What to import.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImportOptions {
    /// Only these tables (case-insensitive); empty: every base table.
    pub tables: Vec<String>,
    /// Leave unsupported objects out (and list them) instead of failing.
    pub skip_unsupported: bool,
}

/// One object the catalog format cannot express.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, schemars::JsonSchema)]
pub struct Unsupported {
    /// Table.
    pub table: String,
    /// Object: `column `X``, `index `i``, `primary key`, `foreign key `fk``,
    /// `PARTITION BY`, `table` (the whole table).
    pub object: String,
    /// Why.
    pub reason: String,
}

impl Unsupported {
    /// The same as an [`Error::Unsupported`].
    pub fn to_error(&self) -> Error {
        Error::Unsupported {
            table: self.table.clone(),
            object: self.object.clone(),
            reason: self.reason.clone(),
        }
    }
}

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "table {}: {}: {}",
            quote_ident(&self.table),
            self.object,
            self.reason
        )
    }
}

/// Catalog-wide defaults chosen for the import.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ImportDefaults {
    /// Most common engine, if any table names one.
    pub engine: Option<String>,
    /// Charset of the most common collation.
    pub charset: String,
    /// Most common table collation.
    pub collation: String,
}

/// An imported catalog, ready to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Imported {
    /// Where the schema was read from (a URL without password, or a file).
    pub source: String,
    /// The server read, for a live import (`None` for a dump).
    pub server: Option<crate::server::ServerIdentity>,
    /// Defaults for `catalog.yaml`.
    pub defaults: ImportDefaults,
    /// The tables, as they will be declared, sorted by name.
    pub tables: Vec<Table>,
    /// Unsupported objects. Empty unless skipping was asked for (otherwise
    /// import fails on the first).
    pub skipped: Vec<Unsupported>,
}

/// A table read from the source and what it declares beyond the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceTable {
    /// The table as live inspection / the dump reader produces it.
    pub table: Table,
    /// Declarations the model does not carry.
    pub features: Vec<Feature>,
}

/// Every unsupported object of one table.
pub fn unsupported(source: &SourceTable) -> Vec<Unsupported> {
    let t = &source.table;
    let table = t.name.as_str().to_string();
    let mut out = Vec::new();
    let mut push = |object: String, reason: String| {
        out.push(Unsupported {
            table: table.clone(),
            object,
            reason,
        })
    };
    if charset(&t.charset).is_none() || charset_of(&t.collation).is_none() {
        push(
            "table".into(),
            format!(
                "default collation {} is not one the catalog knows",
                t.collation
            ),
        );
    }
    if let TableKind::Partitioned(how) = &t.kind {
        push(
            "table".into(),
            format!("partitioned ({how}): partitioned tables are not supported yet"),
        );
    }
    for f in &source.features {
        push(
            f.object.clone(),
            format!("{} is not part of the catalog format", f.what),
        );
    }
    for c in &t.columns {
        let object = format!("column {}", quote_ident(c.name.as_str()));
        if let ColumnType::Other(ty) = &c.ty {
            push(
                object.clone(),
                format!("type `{ty}` is outside the catalog's types"),
            );
        }
        if let Some(expr) = &c.generated {
            push(object.clone(), format!("generated column (AS ({expr}))"));
        }
        // The same rule `catalog check` applies: a default the catalog
        // refuses (e.g. a literal on a json column, MariaDB-only) is not
        // imported into a catalog that would then fail its own check.
        if let Some(problem) =
            crate::catalog::default_problem(&c.ty, c.nullable, false, c.default.as_ref())
        {
            push(
                object.clone(),
                format!("its default cannot be declared: {problem}"),
            );
        } else if let Some(def) = &c.default {
            // The default as import writes it must read back as the same
            // default: MySQL's `(_utf8mb4'{}')` on a json column is an
            // expression, but written as `('{}')` it reads back as a literal.
            let numeric = c.ty.is_numeric();
            let written = def.to_sql(numeric);
            let read = DefaultValue::parse_sql(&written).map(|d| d.canonical(numeric));
            if read.as_ref() != Some(&def.canonical(numeric)) {
                push(
                    object.clone(),
                    format!(
                        "its default {written} would read back as another default in a catalog"
                    ),
                );
            }
        }
        if let Some(co) = &c.collation {
            if charset_of(co).is_none() {
                push(
                    object.clone(),
                    format!("collation {co} is not one the catalog knows"),
                );
            }
        }
    }
    let part_problem = |p: &IndexPart| match p {
        IndexPart::Expression(e) => Some(format!("expression key part ({e})")),
        IndexPart::Column {
            name,
            prefix: Some(n),
            ..
        } => Some(format!(
            "prefix key part {}({n})",
            quote_ident(name.as_str())
        )),
        IndexPart::Column {
            name,
            descending: true,
            ..
        } => Some(format!(
            "descending key part {} DESC",
            quote_ident(name.as_str())
        )),
        IndexPart::Column { .. } => None,
    };
    // A whole text/blob key part: MariaDB's long unique key (USING HASH);
    // the catalog cannot declare it (`check` would refuse the import).
    let whole_lob = |p: &IndexPart| match p {
        IndexPart::Column {
            name, prefix: None, ..
        } => t
            .column(name)
            .filter(|c| !c.ty.is_indexable_whole())
            .map(|c| {
                format!(
                    "key part {} over a whole {} column (a long unique / HASH key)",
                    quote_ident(name.as_str()),
                    c.ty
                )
            }),
        _ => None,
    };
    let part_problem = |p: &IndexPart| part_problem(p).or_else(|| whole_lob(p));
    for p in t.primary_key.iter().filter_map(part_problem) {
        push("primary key".into(), p);
    }
    let columns: Vec<Ident> = t.columns.iter().map(|c| c.name.clone()).collect();
    for c in &t.checks {
        let text = crate::expr::canonical(&c.expression);
        if let Err(reason) = crate::sqltext::render_check_expression(&text, &columns) {
            push(
                format!("check {}", quote_ident(c.name.as_str())),
                format!("CHECK ({}), whose condition {reason}", c.expression),
            );
        }
    }
    for i in &t.indexes {
        let object = format!("index {}", quote_ident(i.name.as_str()));
        if i.kind == IndexKind::Spatial {
            push(object.clone(), "SPATIAL index".into());
        }
        // FULLTEXT keys are over whole text columns by nature.
        if i.kind != IndexKind::FullText {
            for p in i.parts.iter().filter_map(whole_lob) {
                push(object.clone(), p);
            }
        }
        for part in &i.parts {
            if let IndexPart::Expression(e) = part {
                if let Err(reason) = crate::sqltext::render_key_expression(e, &columns) {
                    push(
                        object.clone(),
                        format!("expression key part ({e}), which {reason}"),
                    );
                }
            }
        }
    }
    out
}

/// An index's key parts as catalog YAML: a plain name for an ascending
/// whole column, else `{column, order, length}` or `{expression}`.
fn key_parts_yaml(parts: &[IndexPart]) -> Value {
    let part = |p: &IndexPart| -> Value {
        let mut m = Mapping::new();
        match p {
            IndexPart::Column {
                name,
                prefix: None,
                descending: false,
            } => return name.as_str().into(),
            IndexPart::Column {
                name,
                prefix,
                descending,
            } => {
                m.insert("column".into(), name.as_str().into());
                if *descending {
                    m.insert("order".into(), "desc".into());
                }
                if let Some(n) = prefix {
                    m.insert("length".into(), u64::from(*n).into());
                }
            }
            IndexPart::Expression(e) => {
                m.insert("expression".into(), crate::expr::canonical(e).into());
            }
        }
        Value::Mapping(m)
    };
    Value::Sequence(parts.iter().map(part).collect())
}

/// Builds the catalog from source tables: filters by `opts.tables`, checks
/// what is unsupported (fails on the first unless skipping), removes it.
pub fn build(source: &str, tables: Vec<SourceTable>, opts: &ImportOptions) -> Result<Imported> {
    // Keys, not `Ident`s: membership is case-insensitive.
    let wanted: BTreeSet<String> = opts
        .tables
        .iter()
        .map(|t| Ident::new(t.as_str()).key())
        .collect();
    let present: BTreeSet<String> = tables.iter().map(|t| t.table.name.key()).collect();
    if let Some(missing) = opts
        .tables
        .iter()
        .find(|w| !present.contains(&Ident::new(w.as_str()).key()))
    {
        return Err(Error::Usage(format!(
            "table `{missing}` named in --tables is not in {source}"
        )));
    }
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    for st in tables
        .into_iter()
        .filter(|t| wanted.is_empty() || wanted.contains(&t.table.name.key()))
    {
        let problems = unsupported(&st);
        if let Some(first) = problems.first().filter(|_| !opts.skip_unsupported) {
            return Err(first.to_error());
        }
        if let Some(table) = strip(st.table, &problems) {
            out.push(table);
        }
        skipped.extend(problems);
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    if out.is_empty() {
        let why = if present.is_empty() {
            "it has no base tables".to_string()
        } else {
            format!(
                "every table was left out as unsupported ({})",
                skipped
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; ")
            )
        };
        return Err(Error::NothingToImport {
            from: source.to_string(),
            found: why,
        });
    }
    Ok(Imported {
        source: source.to_string(),
        server: None,
        defaults: defaults(&out),
        tables: out,
        skipped,
    })
}

/// The table without its unsupported objects (`None`: the whole table is
/// left out). Indexes over a left-out column go too, as does a primary key
/// with an unsupported part.
fn strip(mut t: Table, problems: &[Unsupported]) -> Option<Table> {
    if problems.iter().any(|p| p.object == "table") {
        return None;
    }
    let bad = |object: String| problems.iter().any(|p| p.object == object);
    t.columns
        .retain(|c| !bad(format!("column {}", quote_ident(c.name.as_str()))));
    let kept: BTreeSet<String> = t.columns.iter().map(|c| c.name.key()).collect();
    // An expression part that names a left-out column fails the import's
    // own check (the expression renderer knows only declared columns).
    let covered = |parts: &[IndexPart]| {
        parts.iter().all(|p| match p {
            IndexPart::Column { name, .. } => kept.contains(&name.key()),
            IndexPart::Expression(_) => true,
        })
    };
    if bad("primary key".into()) || !covered(&t.primary_key) {
        t.primary_key.clear();
    }
    t.indexes
        .retain(|i| !bad(format!("index {}", quote_ident(i.name.as_str()))) && covered(&i.parts));
    // A check naming a left-out column fails the import's own check, like
    // an expression key part.
    t.checks
        .retain(|c| !bad(format!("check {}", quote_ident(c.name.as_str()))));
    if t.columns.is_empty() {
        return None;
    }
    Some(t)
}

/// The most common engine and collation (ties: the smallest name).
fn defaults(tables: &[Table]) -> ImportDefaults {
    fn most_common<'a>(values: impl Iterator<Item = &'a str>) -> Option<String> {
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for v in values {
            *counts.entry(v).or_default() += 1;
        }
        let best = counts.values().copied().max()?;
        counts
            .into_iter()
            .find(|(_, n)| *n == best)
            .map(|(v, _)| v.to_string())
    }
    let collation = most_common(tables.iter().map(|t| t.collation.as_str()))
        .unwrap_or_else(|| "utf8mb4_bin".into());
    ImportDefaults {
        engine: most_common(tables.iter().filter_map(|t| t.engine.as_deref())),
        charset: charset_of(&collation).unwrap_or("utf8mb4").to_string(),
        collation,
    }
}

/// Imports from a parsed dump.
pub fn from_dump(dump: &Dump, opts: &ImportOptions) -> Result<Imported> {
    if !dump.tables.iter().any(|t| t.kind.is_base_table()) {
        let others = dump.tables.len();
        let found = if others == 0 {
            "the file has no CREATE TABLE statement".to_string()
        } else {
            format!("the file has no base table, only {others} view(s) or sequence(s), which are skipped")
        };
        return Err(Error::NothingToImport {
            from: dump.file.display().to_string(),
            found,
        });
    }
    let tables = dump
        .tables
        .iter()
        .filter(|t| t.kind.is_base_table())
        .map(|t| SourceTable {
            table: t.clone(),
            features: dump
                .features_of(t.name.as_str())
                .map(|f| f.feature.clone())
                .collect(),
        })
        .collect();
    build(&dump.file.display().to_string(), tables, opts)
}

/// The statement listing the base tables of a schema (one bounded read,
/// equality on TABLE_SCHEMA). Parameter: the schema.
pub const LIST_TABLES_SQL: &str = "SELECT TABLE_NAME AS table_name FROM information_schema.TABLES \
     WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME";

/// Reads the source tables of a live schema: one listing read, then per
/// table (only those named in `only`, when not empty) the three inspection
/// reads and one `SHOW CREATE TABLE`, whose text supplies what the model
/// does not carry (foreign keys, partitioning, ON UPDATE, checks, options)
/// and the declared index order.
pub async fn read_live(
    session: &mut Session<'_>,
    schema: &str,
    only: &[String],
) -> Result<Vec<SourceTable>> {
    let what = format!("listing the tables of {}", quote_ident(schema));
    let rows = session
        .exec_rows(&what, LIST_TABLES_SQL, inspect::params(&[schema]))
        .await?;
    let names: Vec<String> = rows
        .iter()
        .map(|r| inspect::RowReader::new(r, &what).text("table_name"))
        .collect::<Result<_>>()?;
    let wanted: BTreeSet<String> = only.iter().map(|t| Ident::new(t.as_str()).key()).collect();
    let flavor = session.flavor();
    let mut out = Vec::new();
    for name in names {
        if !wanted.is_empty() && !wanted.contains(&Ident::new(name.as_str()).key()) {
            continue;
        }
        let Some(mut table) = inspect::inspect_table(session, schema, &name).await? else {
            continue; // dropped meanwhile
        };
        let sql = format!(
            "SHOW CREATE TABLE {}.{}",
            quote_ident(schema),
            quote_ident(&name)
        );
        let what = format!("reading the definition of {}", quote_ident(&name));
        let row: Option<(String, String)> =
            session.run(&what, |c| c.query_first(sql.clone())).await?;
        let text = row.map(|(_, ddl)| ddl).unwrap_or_default();
        let options = ParseOptions {
            flavor: Some(flavor),
            keep_other_types: true,
        };
        let features = match dump::parse_create_table_with(&text, options) {
            Ok(parsed) => {
                // The definition names the partitioning; inspection only knows there is one.
                if matches!(parsed.table.kind, TableKind::Partitioned(_)) {
                    table.kind = parsed.table.kind.clone();
                }
                // Keep the server's index order (SHOW CREATE TABLE order).
                let pos = |n: &Ident| parsed.table.indexes.iter().position(|i| &i.name == n);
                table
                    .indexes
                    .sort_by_key(|i| pos(&i.name).unwrap_or(usize::MAX));
                // Inspection does not read index comments; the definition has them.
                for i in &mut table.indexes {
                    if let Some(p) = parsed.table.index(&i.name) {
                        i.comment = p.comment.clone();
                    }
                }
                parsed.features
            }
            Err(e) => vec![Feature {
                object: "table".into(),
                what: format!("a definition this tool cannot read ({e})"),
            }],
        };
        out.push(SourceTable { table, features });
    }
    Ok(out)
}

/// The file name a table is written to: its name in snake case (`_System_FileUpload`
/// -> `system_file_upload.yaml`), made unique.
fn file_stem(name: &str) -> String {
    let mut out = String::new();
    let mut prev: Option<char> = None;
    for c in name.chars() {
        if c.is_ascii_uppercase()
            && prev.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit())
        {
            out.push('_');
        }
        out.push(if c.is_ascii_alphanumeric() {
            c.to_ascii_lowercase()
        } else {
            '_'
        });
        prev = Some(c);
    }
    let collapsed = out
        .split('_')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("_");
    match collapsed.as_str() {
        "" => "table".into(),
        "catalog" => "catalog_table".into(),
        _ => collapsed,
    }
}

/// `catalog.yaml` and one `(file name, YAML text)` per table, in table order.
pub fn to_yaml(imported: &Imported) -> (String, Vec<(String, String)>) {
    let d = &imported.defaults;
    let mut defaults = Mapping::new();
    if let Some(e) = &d.engine {
        defaults.insert("engine".into(), e.as_str().into());
    }
    defaults.insert("charset".into(), d.charset.as_str().into());
    defaults.insert("collation".into(), d.collation.as_str().into());
    let mut root = Mapping::new();
    // An invisible column is a MySQL / MariaDB feature: the catalog then
    // targets those two flavors only (`check` refuses it for TiDB).
    if imported
        .tables
        .iter()
        .any(|t| t.columns.iter().any(|c| c.invisible))
    {
        root.insert(
            "flavors".into(),
            vec![Value::from("mysql"), Value::from("mariadb")].into(),
        );
    }
    root.insert("defaults".into(), Value::Mapping(defaults));
    let header = format!(
        "# Catalog imported from {} by `catalog import`. Review before committing.\n",
        imported.source
    );
    let catalog_yaml = format!("{header}{}", yaml(&Value::Mapping(root)));
    let mut used = BTreeSet::new();
    let files = imported
        .tables
        .iter()
        .map(|t| {
            let stem = file_stem(t.name.as_str());
            let mut name = format!("{stem}.yaml");
            let mut k = 2;
            while !used.insert(name.clone()) {
                name = format!("{stem}_{k}.yaml");
                k += 1;
            }
            (name, readable_defaults(yaml(&table_value(t, d)), t))
        })
        .collect();
    (catalog_yaml, files)
}

/// serde_yaml writes the default `'queued'` as `'''queued'''` and `0` as
/// `'0'`: rewrite them as `"'queued'"` (a JSON string is a YAML
/// double-quoted scalar) and `0`.
fn readable_defaults(mut text: String, t: &Table) -> String {
    for c in &t.columns {
        let Some(def) = &c.default else { continue };
        let sql = def.to_sql(c.ty.is_numeric());
        let written = format!("default: {}", yaml(&Value::from(sql.as_str())).trim_end());
        let plain_number = c.ty.is_numeric()
            && sql.len() <= 15
            && sql.parse::<f64>().is_ok()
            && !sql.starts_with(['+', '.'])
            && !sql.ends_with('.');
        let better = if plain_number {
            format!("default: {sql}")
        } else if sql.starts_with('\'') {
            format!(
                "default: {}",
                serde_json::to_string(&sql).expect("strings serialise")
            )
        } else {
            continue;
        };
        text = text.replace(&format!("{written}\n"), &format!("{better}\n"));
    }
    text
}

fn yaml(v: &Value) -> String {
    serde_yaml::to_string(v).expect("YAML values serialise")
}

fn table_value(t: &Table, d: &ImportDefaults) -> Value {
    let mut m = Mapping::new();
    m.insert("table".into(), t.name.as_str().into());
    if let Some(c) = &t.comment {
        m.insert("comment".into(), c.as_str().into());
    }
    if let Some(e) = &t.engine {
        if d.engine.as_deref() != Some(e.as_str()) {
            m.insert("engine".into(), e.as_str().into());
        }
    }
    if t.collation != d.collation {
        m.insert("collation".into(), t.collation.as_str().into());
    }
    let columns: Vec<Value> = t
        .columns
        .iter()
        .map(|c| {
            let mut cm = Mapping::new();
            cm.insert("name".into(), c.name.as_str().into());
            let ty = match &c.ty {
                ColumnType::Boolean => "boolean".to_string(),
                other => other.to_string(),
            };
            cm.insert("type".into(), ty.into());
            if let Some(co) = &c.collation {
                if co != &t.collation {
                    cm.insert("collation".into(), co.as_str().into());
                }
            }
            if !c.nullable {
                cm.insert("nullable".into(), false.into());
            }
            if c.auto_increment {
                cm.insert("auto_increment".into(), true.into());
            }
            if let Some(def) = &c.default {
                cm.insert("default".into(), def.to_sql(c.ty.is_numeric()).into());
            }
            if let Some(on_update) = &c.on_update {
                cm.insert("on_update".into(), on_update.to_sql(false).into());
            }
            if c.invisible {
                cm.insert("invisible".into(), true.into());
            }
            if let Some(com) = &c.comment {
                cm.insert("comment".into(), com.as_str().into());
            }
            Value::Mapping(cm)
        })
        .collect();
    m.insert("columns".into(), Value::Sequence(columns));
    let names = |parts: &[IndexPart]| -> Value {
        Value::Sequence(
            parts
                .iter()
                .filter_map(|p| p.column_name().map(|n| n.as_str().into()))
                .collect(),
        )
    };
    if !t.primary_key.is_empty() {
        m.insert("primary_key".into(), names(&t.primary_key));
    }
    if !t.indexes.is_empty() {
        let indexes: Vec<Value> = t
            .indexes
            .iter()
            .map(|i| {
                let mut im = Mapping::new();
                im.insert("name".into(), i.name.as_str().into());
                im.insert("columns".into(), key_parts_yaml(&i.parts));
                if i.unique {
                    im.insert("unique".into(), true.into());
                }
                match i.kind {
                    IndexKind::BTree => {}
                    IndexKind::FullText => {
                        im.insert("kind".into(), "fulltext".into());
                    }
                    IndexKind::Spatial => {
                        im.insert("kind".into(), "spatial".into());
                    }
                }
                if !i.visible {
                    im.insert("visible".into(), false.into());
                }
                if let Some(c) = &i.comment {
                    im.insert("comment".into(), c.as_str().into());
                }
                Value::Mapping(im)
            })
            .collect();
        m.insert("indexes".into(), Value::Sequence(indexes));
    }
    if !t.checks.is_empty() {
        let mut sorted: Vec<&crate::model::Check> = t.checks.iter().collect();
        sorted.sort_by_key(|c| c.name.key());
        let checks: Vec<Value> = sorted
            .into_iter()
            .map(|c| {
                let mut cm = Mapping::new();
                cm.insert("name".into(), c.name.as_str().into());
                cm.insert(
                    "expression".into(),
                    crate::expr::canonical(&c.expression).into(),
                );
                Value::Mapping(cm)
            })
            .collect();
        m.insert("checks".into(), Value::Sequence(checks));
    }
    Value::Mapping(m)
}

/// Writes the catalog into `dir` (created if needed). Refuses a directory
/// that already holds YAML files, so nothing is overwritten. Returns the
/// files written, `catalog.yaml` first.
pub fn write(imported: &Imported, dir: &Path) -> Result<Vec<PathBuf>> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| Error::Io { path, source }
    };
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    refuse_existing_yaml(dir)?;
    let (catalog_yaml, files) = to_yaml(imported);
    let mut written = Vec::new();
    let path = dir.join("catalog.yaml");
    std::fs::write(&path, catalog_yaml).map_err(io(&path))?;
    written.push(path);
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(io(&path))?;
        written.push(path);
    }
    Ok(written)
}

/// A usage error when `dir` already holds YAML files.
pub(crate) fn refuse_existing_yaml(dir: &Path) -> Result<()> {
    let existing = std::fs::read_dir(dir)
        .map_err(|source| Error::Io {
            path: dir.to_path_buf(),
            source,
        })?
        .filter_map(|e| e.ok())
        .any(|e| {
            let n = e.file_name().to_string_lossy().to_string();
            n.ends_with(".yaml") || n.ends_with(".yml")
        });
    if existing {
        return Err(Error::Usage(format!(
            "{} already holds YAML files; import into an empty directory",
            dir.display()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_snake_case_and_unique() {
        assert_eq!(
            file_stem("_System_FileUploadOperation"),
            "system_file_upload_operation"
        );
        assert_eq!(file_stem("catalog"), "catalog_table");
        assert_eq!(file_stem("é"), "table");
    }

    #[test]
    fn unsupported_objects_are_named_and_stripped() {
        let text = "CREATE TABLE t (a int NOT NULL, e geometry DEFAULT NULL, b varchar(20), PRIMARY KEY (a), KEY ie (e), KEY ip (b(5)), KEY ok (b), SPATIAL KEY sp (a)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";
        let dump = dump::parse_dump(text, Path::new("d.sql"), None).unwrap();
        let err = from_dump(&dump, &ImportOptions::default()).unwrap_err();
        assert!(matches!(err, Error::Unsupported { .. }), "{err}");
        let got = from_dump(
            &dump,
            &ImportOptions {
                skip_unsupported: true,
                ..Default::default()
            },
        )
        .unwrap();
        let objects: Vec<&str> = got.skipped.iter().map(|s| s.object.as_str()).collect();
        assert_eq!(objects, ["column `e`", "index `sp`"]);
        let t = &got.tables[0];
        assert_eq!(t.columns.len(), 2);
        // A declared prefix is part of format v2: `ip` is kept.
        let idx: Vec<&str> = t.indexes.iter().map(|i| i.name.as_str()).collect();
        assert_eq!(idx, ["ip", "ok"]);
    }

    #[test]
    fn a_whole_blob_key_is_not_imported() {
        // MariaDB's long unique key over a blob (sqldef IndexOptionUsingHash).
        let text = "CREATE TABLE users (id int NOT NULL, credential tinyblob NOT NULL, PRIMARY KEY (id), UNIQUE KEY credential (credential) USING HASH) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";
        let dump = dump::parse_dump(text, Path::new("d.sql"), None).unwrap();
        let err = from_dump(&dump, &ImportOptions::default()).unwrap_err();
        assert!(
            err.to_string()
                .contains("key part `credential` over a whole tinyblob column"),
            "{err}"
        );
    }

    #[test]
    fn defaults_check_would_refuse_are_not_imported() {
        let text = "CREATE TABLE t (a int NOT NULL, j longtext CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT '[]' CHECK (json_valid(`j`)), PRIMARY KEY (a)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";
        let dump =
            dump::parse_dump(text, Path::new("d.sql"), Some(crate::Flavor::MariaDb)).unwrap();
        let err = from_dump(&dump, &ImportOptions::default()).unwrap_err();
        assert!(err.to_string().contains("column `j`"), "{err}");
        assert!(err.to_string().contains("json"), "{err}");
    }

    #[test]
    fn a_default_that_would_read_back_as_another_is_not_imported() {
        // MySQL's `DEFAULT (_utf8mb4'{}')` on json: an expression whose
        // catalog spelling `('{}')` reads back as a literal.
        let mut t = crate::model::Table::not_a_table("t".into(), "");
        t.kind = crate::model::TableKind::Base;
        t.charset = "utf8mb4".into();
        t.collation = "utf8mb4_bin".into();
        let mut j = crate::Column::new("j", ColumnType::Json);
        j.default = Some(DefaultValue::Expression("'{}'".into()));
        t.columns = vec![j];
        let source = SourceTable {
            table: t,
            features: vec![],
        };
        let problems = unsupported(&source);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].reason.contains("would read back"),
            "{problems:?}"
        );
    }
}
