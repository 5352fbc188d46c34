//! `import`: bootstrap a catalog from an existing schema, read live
//! ([`read_live`], through [`crate::inspect`]) or from a dump ([`crate::dump`]).
//!
//! The output is a catalog directory: `catalog.yaml` with defaults taken from
//! the most common table engine / collation, and one YAML file per table in
//! stable key order, holding only non-default keys (no `nullable: true`, no
//! column collation equal to the table's). Comments are kept. The files are
//! the loader's own serde types (`catalog::raw`) built from the model
//! ([`to_yaml`]) and serialized (`yaml`), so what import writes is what
//! `catalog::load` reads.
//!
//! Anything the catalog format cannot express is *unsupported*
//! ([`unsupported()`]): a type outside the catalog's types, a prefix,
//! descending or expression key part in the primary key, a generation
//! expression, expression key part or CHECK condition the catalog's
//! renderers refuse, a SPATIAL index not over one NOT NULL spatial column, a
//! foreign key, partitioning, a table option other than
//! engine/charset/collation/comment, a charset or collation the catalog does
//! not know. Import refuses them ([`Error::Unsupported`]) unless asked to
//! skip them, in which case each is left out and listed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::collation::charset_of;
use crate::dump::{Dump, Feature};
use crate::error::{Error, Result};
use crate::ident::{quote_ident, Ident};
use crate::model::{IndexPart, Table};

mod emit;
mod foreign_keys;
mod live;
mod unsupported;
mod yaml;

pub use emit::to_yaml;
pub use live::{read_live, LIST_TABLES_SQL};
pub use unsupported::unsupported;

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

/// Something import accepted and the user should know: an explicit table
/// option that only says what the server does anyway (InnoDB's
/// `ROW_FORMAT=DYNAMIC`), left out of the catalog.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, schemars::JsonSchema)]
pub struct ImportNote {
    /// Table.
    pub table: String,
    /// Object: `table option ROW_FORMAT`.
    pub object: String,
    /// What was accepted, and why.
    pub note: String,
}

impl std::fmt::Display for ImportNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "table {}: {}: {}",
            quote_ident(&self.table),
            self.object,
            self.note
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
    /// Tables the imported foreign keys reference that are not imported
    /// (`catalog.yaml` `external_tables`), sorted.
    pub external_tables: Vec<String>,
    /// What was accepted as the server's default and left out (see
    /// [`ImportNote`]), sorted.
    pub notes: Vec<ImportNote>,
}

/// A table read from the source and what it declares beyond the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceTable {
    /// The table as live inspection / the dump reader produces it.
    pub table: Table,
    /// Declarations the model does not carry.
    pub features: Vec<Feature>,
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
    let mut notes = Vec::new();
    for st in tables
        .into_iter()
        .filter(|t| wanted.is_empty() || wanted.contains(&t.table.name.key()))
    {
        notes.extend(
            st.features
                .iter()
                .filter(|f| unsupported::is_server_default(&st.table, f))
                .map(|f| ImportNote {
                    table: st.table.name.as_str().to_string(),
                    object: f.object.clone(),
                    note: format!(
                        "`{}` is what InnoDB uses anyway (innodb_default_row_format); the table is the one the catalog creates without it, so it is imported and verified without the option",
                        f.what
                    ),
                }),
        );
        let problems = unsupported(&st);
        if let Some(first) = problems.first().filter(|_| !opts.skip_unsupported) {
            return Err(first.to_error());
        }
        if let Some(table) = strip(st.table, &problems) {
            out.push(table);
        }
        skipped.extend(problems);
    }
    // Foreign keys are checked across the kept tables, as `check` will.
    let (refused, _) = foreign_keys::reconcile(&out);
    for (table, fk, reason) in refused {
        let u = Unsupported {
            table: table.to_string(),
            object: foreign_keys::object(&fk),
            reason,
        };
        if !opts.skip_unsupported {
            return Err(u.to_error());
        }
        if let Some(t) = out.iter_mut().find(|t| t.name == table) {
            t.foreign_keys.retain(|f| f.name != fk);
        }
        skipped.push(u);
    }
    let external_tables = foreign_keys::reconcile(&out)
        .1
        .into_iter()
        .map(|n| n.to_string())
        .collect();
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
        external_tables,
        notes: {
            notes.sort();
            notes
        },
    })
}

/// The table without its unsupported objects (`None`: the whole table is
/// left out, as it is for a table option the catalog cannot declare: the
/// table without its `ROW_FORMAT` is another table). Indexes over a
/// left-out column go too, as does a primary key with an unsupported part.
fn strip(mut t: Table, problems: &[Unsupported]) -> Option<Table> {
    if problems
        .iter()
        .any(|p| p.object == "table" || p.object.starts_with("table option"))
    {
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
    // One over a left-out column or index is refused across the tables
    // (`foreign_keys::reconcile`).
    t.foreign_keys
        .retain(|f| !bad(foreign_keys::object(&f.name)));
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

/// Writes the catalog into `dir` (created if needed). Refuses a directory
/// that already holds YAML files, so nothing is overwritten. Returns the
/// files written, `catalog.yaml` first.
pub fn write(imported: &Imported, dir: &Path) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).map_err(io_error(dir))?;
    refuse_existing_yaml(dir)?;
    let (catalog_yaml, files) = to_yaml(imported);
    write_texts(dir, &catalog_yaml, &files)
}

/// Writes `catalog.yaml` and the table files ([`to_yaml`]'s texts) into
/// `dir`, which exists; returns the files written, `catalog.yaml` first.
pub(crate) fn write_texts(
    dir: &Path,
    catalog_yaml: &str,
    files: &[(String, String)],
) -> Result<Vec<PathBuf>> {
    let mut written = Vec::with_capacity(files.len() + 1);
    let path = dir.join("catalog.yaml");
    std::fs::write(&path, catalog_yaml).map_err(io_error(&path))?;
    written.push(path);
    // On up to one thread per core: most of a file's cost is the kernel's
    // (issue 22: 8,192 files).
    for run in crate::parallel::runs(files, |run| {
        run.iter()
            .map(|(name, text)| {
                let path = dir.join(name);
                std::fs::write(&path, text).map_err(io_error(&path))?;
                Ok(path)
            })
            .collect::<Result<Vec<_>>>()
    }) {
        written.extend(run?);
    }
    Ok(written)
}

/// The [`Error::Io`] of an operation on `path`.
pub(crate) fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> Error {
    let path = path.to_path_buf();
    move |source| Error::Io { path, source }
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
    use crate::dump;
    use crate::model::DefaultValue;
    use crate::ColumnType;

    #[test]
    fn unsupported_objects_are_named_and_stripped() {
        let text = "CREATE TABLE t (a int NOT NULL, e decimal(10,2) unsigned DEFAULT NULL, b varchar(20), PRIMARY KEY (a), KEY ie (e), KEY ip (b(5)), KEY ok (b), SPATIAL KEY sp (a)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";
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
        let text = "CREATE TABLE t (a int NOT NULL, p point NULL DEFAULT 'x', PRIMARY KEY (a)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";
        let dump =
            dump::parse_dump(text, Path::new("d.sql"), Some(crate::Flavor::MariaDb)).unwrap();
        let err = from_dump(&dump, &ImportOptions::default()).unwrap_err();
        assert!(err.to_string().contains("column `p`"), "{err}");
    }

    #[test]
    fn a_mariadb_json_literal_default_imports_for_mariadb_only() {
        let text = "CREATE TABLE t (a int NOT NULL, j longtext CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT '[]' CHECK (json_valid(`j`)), PRIMARY KEY (a)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";
        let dump =
            dump::parse_dump(text, Path::new("d.sql"), Some(crate::Flavor::MariaDb)).unwrap();
        let imported = from_dump(&dump, &ImportOptions::default()).unwrap();
        assert_eq!(
            imported.tables[0].columns[1].default,
            Some(DefaultValue::Literal("[]".into()))
        );
        let (catalog_yaml, _) = to_yaml(&imported);
        assert!(
            catalog_yaml.contains("flavors:\n- mariadb\n"),
            "{catalog_yaml}"
        );
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
