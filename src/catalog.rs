//! The catalog: a directory of YAML files loaded into the typed model, and
//! `check`, which lints it. See docs/catalog-format.md.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::model::Table;

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
