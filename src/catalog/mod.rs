//! The catalog: a directory of YAML files loaded into the typed model, and
//! `check`, which lints it. See docs/catalog-format.md.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::ident::Ident;
use crate::model::Table;

mod raw;
mod sink;
mod table;

use raw::{FileKind, RawCatalogFile, RawTable};
use sink::Sink;

/// How serious a lint finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Makes the catalog invalid (exit 2).
    Error,
    /// Reported; the catalog stays valid.
    Warning,
}

/// One lint finding, naming the file, the table and the object.
///
/// Displays as one line: `error: catalog/foo.yaml:3:5: table `T`, index `i`: message`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct Problem {
    /// Error or warning.
    pub severity: Severity,
    /// File the finding is in (relative to the catalog directory's parent as given).
    pub file: PathBuf,
    /// 1-based line and column, where known (malformed YAML).
    pub line: Option<usize>,
    /// Column, where known.
    pub column: Option<usize>,
    /// Table name, where known.
    pub table: Option<String>,
    /// Object: `column X`, `index Y`, `primary key`, `key \`foo\``.
    pub object: Option<String>,
    /// What is wrong and how to fix it.
    pub message: String,
}

/// Catalog-wide defaults (`catalog.yaml`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Defaults {
    /// Default engine, `InnoDB`.
    pub engine: String,
    /// Default charset, `utf8mb4`.
    pub charset: String,
    /// Default collation, `utf8mb4_bin`.
    pub collation: String,
}

/// Catalog limits (`catalog.yaml`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Maximum index key bytes (3072).
    pub max_index_bytes: u32,
}

/// One table of the catalog with the file that declared it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogTable {
    /// The YAML file.
    pub file: PathBuf,
    /// The table, fully resolved (defaults applied, collations canonical).
    pub table: Table,
}

/// A loaded, valid catalog. Tables are sorted by name (case-insensitive).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Catalog {
    /// The directory it was loaded from.
    pub dir: PathBuf,
    /// Defaults.
    pub defaults: Defaults,
    /// Limits.
    pub limits: Limits,
    /// Tables, sorted by name.
    pub tables: Vec<CatalogTable>,
    /// Warnings found while loading (the catalog is still valid).
    pub warnings: Vec<Problem>,
}

/// The outcome of `check`: every problem found, and the catalog when valid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckReport {
    /// Findings sorted by file, then position.
    pub problems: Vec<Problem>,
    /// The catalog, when there is no error.
    pub catalog: Option<Catalog>,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        })
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.severity, self.file.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        f.write_str(": ")?;
        match (&self.table, &self.object) {
            (Some(t), Some(o)) => write!(f, "table `{t}`, {o}: ")?,
            (Some(t), None) => write!(f, "table `{t}`: ")?,
            (None, Some(o)) => write!(f, "{o}: ")?,
            (None, None) => {}
        }
        f.write_str(&self.message)
    }
}

impl Default for Defaults {
    fn default() -> Self {
        Defaults {
            engine: "InnoDB".into(),
            charset: "utf8mb4".into(),
            collation: "utf8mb4_bin".into(),
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_index_bytes: 3072,
        }
    }
}

impl Catalog {
    /// Every consumer named in any `required_by` (tables, columns, indexes).
    pub fn consumers(&self) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        for t in &self.tables {
            let t = &t.table;
            let lists = std::iter::once(&t.required_by)
                .chain(t.columns.iter().map(|c| &c.required_by))
                .chain(t.indexes.iter().map(|i| &i.required_by));
            out.extend(lists.flatten().cloned());
        }
        out
    }

    /// The tables a consumer requires: `None` is everything; `Some(name)`
    /// keeps the tables, columns and indexes whose `required_by` is empty
    /// (base contract) or lists `name`.
    pub fn scoped(&self, consumer: Option<&str>) -> Vec<Table> {
        let wanted = |required_by: &[String]| match consumer {
            None => true,
            Some(name) => required_by.is_empty() || required_by.iter().any(|r| r == name),
        };
        self.tables
            .iter()
            .map(|t| &t.table)
            .filter(|t| wanted(&t.required_by))
            .map(|t| {
                let mut t = t.clone();
                t.columns.retain(|c| wanted(&c.required_by));
                t.indexes.retain(|i| wanted(&i.required_by));
                t
            })
            .collect()
    }

    /// Looks a table up by name (case-insensitive).
    pub fn table(&self, name: &str) -> Option<&CatalogTable> {
        let name = Ident::new(name);
        self.tables.iter().find(|t| t.table.name == name)
    }
}

impl CheckReport {
    /// The errors.
    pub fn errors(&self) -> impl Iterator<Item = &Problem> {
        self.problems
            .iter()
            .filter(|p| p.severity == Severity::Error)
    }

    /// The warnings.
    pub fn warnings(&self) -> impl Iterator<Item = &Problem> {
        self.problems
            .iter()
            .filter(|p| p.severity == Severity::Warning)
    }

    /// Number of errors.
    pub fn error_count(&self) -> usize {
        self.errors().count()
    }

    /// Whether the catalog is valid (no errors; warnings allowed).
    pub fn is_valid(&self) -> bool {
        self.error_count() == 0
    }

    /// Human report: one line per problem, then a summary line.
    pub fn render_human(&self) -> String {
        let mut out = String::new();
        for p in &self.problems {
            out.push_str(&p.to_string());
            out.push('\n');
        }
        let warnings = self.problems.len() - self.error_count();
        let summary = match &self.catalog {
            Some(c) => format!(
                "catalog is valid: {} table(s), {warnings} warning(s)",
                c.tables.len()
            ),
            None => format!(
                "catalog is invalid: {} error(s), {warnings} warning(s)",
                self.error_count()
            ),
        };
        out.push_str(&summary);
        out.push('\n');
        out
    }
}

/// Loads and lints the catalog in `dir`, reporting every problem found.
/// File paths in problems are `dir` joined with the file name, as given.
pub fn check(dir: &Path) -> CheckReport {
    let mut problems = Vec::new();
    let catalog = read_catalog(dir, &mut problems);
    // Stable: positioned problems by position, the rest in declaration order.
    problems.sort_by(|a, b| {
        (&a.file, a.line.is_none(), a.line, a.column).cmp(&(
            &b.file,
            b.line.is_none(),
            b.line,
            b.column,
        ))
    });
    let valid = !problems.iter().any(|p| p.severity == Severity::Error);
    let catalog = catalog.filter(|_| valid).map(|mut c| {
        c.warnings = problems.clone();
        c
    });
    CheckReport { problems, catalog }
}

/// Loads the catalog in `dir`: `Err(Error::InvalidCatalog)` carrying the full
/// report when there is any error; the catalog's `warnings` otherwise.
pub fn load(dir: &Path) -> Result<Catalog> {
    let report = check(dir);
    match report.catalog.clone() {
        Some(catalog) => Ok(catalog),
        None => Err(Error::InvalidCatalog {
            dir: dir.to_path_buf(),
            errors: report.error_count(),
            report: Box::new(report),
        }),
    }
}

/// Index key bytes of `parts` on `table` (InnoDB / TiDB accounting: n x the
/// charset's widest character for char/varchar, n for binary types, storage
/// size otherwise). `None` when a part is not a whole column of a known,
/// indexable type.
pub fn key_bytes(table: &Table, parts: &[crate::model::IndexPart]) -> Option<u32> {
    let columns: Option<Vec<&crate::model::Column>> = parts
        .iter()
        .map(|p| match p {
            crate::model::IndexPart::Column {
                name, prefix: None, ..
            } => table.column(name),
            _ => None,
        })
        .collect();
    table::key_bytes(&columns?).map(|(total, _)| total)
}

/// Whether a file name is the catalog-wide settings file.
fn is_settings_file(name: &str) -> bool {
    matches!(name, "catalog.yaml" | "catalog.yml")
}

/// The `*.yaml` / `*.yml` files of `dir` (not hidden), sorted by name.
fn yaml_files(dir: &Path) -> std::io::Result<Vec<String>> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let yaml = name.ends_with(".yaml") || name.ends_with(".yml");
        if yaml && !name.starts_with('.') && entry.path().is_file() {
            names.push(name);
        }
    }
    names.sort();
    Ok(names)
}

fn read_catalog(dir: &Path, problems: &mut Vec<Problem>) -> Option<Catalog> {
    let names = match yaml_files(dir) {
        Ok(names) => names,
        Err(e) => {
            Sink::new(dir, problems).error(
                None,
                format!("cannot read the catalog directory: {e}; pass the directory holding catalog.yaml and the table files (--catalog DIR)"),
            );
            return None;
        }
    };
    let (settings, tables): (Vec<String>, Vec<String>) =
        names.into_iter().partition(|n| is_settings_file(n));
    let (defaults, limits) = read_settings(dir, &settings, problems);
    if tables.is_empty() {
        Sink::new(dir, problems).error(
            None,
            "the catalog declares no tables: add one `<table>.yaml` file per table",
        );
    }
    let mut seen: BTreeMap<String, PathBuf> = BTreeMap::new();
    let mut out = Vec::new();
    for name in tables {
        let file = dir.join(&name);
        let mut sink = Sink::new(&file, problems);
        let Some(table) = read_table(&file, &defaults, limits, &mut sink) else {
            continue;
        };
        if let Some(first) = seen.get(&table.name.key()) {
            sink.error(
                None,
                format!(
                    "duplicate table name: {} already declares it (table names compare case-insensitively); merge the files or rename one",
                    first.display()
                ),
            );
            continue;
        }
        seen.insert(table.name.key(), file.clone());
        out.push(CatalogTable { file, table });
    }
    out.sort_by(|a, b| a.table.name.cmp(&b.table.name));
    Some(Catalog {
        dir: dir.to_path_buf(),
        defaults,
        limits,
        tables: out,
        warnings: Vec::new(),
    })
}

fn read_text(file: &Path, sink: &mut Sink) -> Option<String> {
    match std::fs::read_to_string(file) {
        Ok(text) => Some(text),
        Err(e) => {
            sink.error(None, format!("cannot read the file: {e}"));
            None
        }
    }
}

fn read_table(file: &Path, defaults: &Defaults, limits: Limits, sink: &mut Sink) -> Option<Table> {
    let text = read_text(file, sink)?;
    let raw: RawTable = raw::read(&text, FileKind::Table, sink)?;
    table::build_table(raw, defaults, limits, sink)
}

/// Reads `catalog.yaml` (optional): defaults and limits, validated.
fn read_settings(dir: &Path, files: &[String], problems: &mut Vec<Problem>) -> (Defaults, Limits) {
    let builtin = Defaults::default();
    let mut defaults = builtin.clone();
    let mut limits = Limits::default();
    for (i, name) in files.iter().enumerate() {
        let mut sink = Sink::new(&dir.join(name), problems);
        if i > 0 {
            sink.error(None, format!("`{}` already holds the catalog settings: keep one of catalog.yaml / catalog.yml", files[0]));
            continue;
        }
        let Some(text) = read_text(&dir.join(name), &mut sink) else {
            continue;
        };
        let Some(raw) = raw::read::<RawCatalogFile>(&text, FileKind::Defaults, &mut sink) else {
            continue;
        };
        let d = raw.defaults;
        let (charset, collation) = table::resolve_charset(
            &mut sink,
            Some("defaults".into()),
            d.charset.as_deref(),
            d.collation.as_deref(),
            (&builtin.charset, &builtin.collation),
        );
        defaults = Defaults {
            engine: d.engine.unwrap_or(builtin.engine.clone()),
            charset,
            collation,
        };
        match raw.limits.max_index_bytes {
            Some(0) => sink.error(
                Some("limits".into()),
                "`max_index_bytes` must be positive (3072 for TiDB and InnoDB DYNAMIC)",
            ),
            Some(n) => limits.max_index_bytes = n,
            None => {}
        }
    }
    (defaults, limits)
}
