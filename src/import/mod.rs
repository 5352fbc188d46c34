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
mod gate;
mod live;
mod unsupported;
mod yaml;

pub use emit::to_yaml;
pub use gate::write_checked;
pub use live::{read_live, LIST_TABLES_SQL};
pub use unsupported::unsupported;

/// What to import: `ImportOptions::default()` and the builder methods
/// (one per field, same name); new fields may be added.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ImportOptions {
    /// Only these tables (case-insensitive); empty: every base table.
    pub tables: Vec<String>,
    /// Leave unsupported objects out (and list them) instead of failing.
    pub skip_unsupported: bool,
}

impl ImportOptions {
    /// Sets [`ImportOptions::tables`].
    pub fn tables(mut self, tables: Vec<String>) -> Self {
        self.tables = tables;
        self
    }
    /// Sets [`ImportOptions::skip_unsupported`].
    pub fn skip_unsupported(mut self, yes: bool) -> Self {
        self.skip_unsupported = yes;
        self
    }
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
        let (table, also) = strip(st.table, &problems);
        out.extend(table);
        skipped.extend(problems);
        skipped.extend(also);
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
/// table without its `ROW_FORMAT` is another table), and every object it
/// leaves out that `problems` does not name already, each with its reason:
/// what depends on a left-out column (a key part over it, a generated
/// column, a key expression or a CHECK naming it: the import's own check
/// would refuse them), a primary key with an unsupported part, and the
/// table when no column is left. Foreign keys over a left-out column are
/// refused across the tables (`foreign_keys::reconcile`), which lists them.
fn strip(mut t: Table, problems: &[Unsupported]) -> (Option<Table>, Vec<Unsupported>) {
    let table = t.name.as_str().to_string();
    let mut also = Vec::new();
    let mut leave = |object: String, reason: String| {
        also.push(Unsupported {
            table: table.clone(),
            object,
            reason,
        })
    };
    if problems
        .iter()
        .any(|p| p.object == "table" || p.object.starts_with("table option"))
    {
        return (None, also);
    }
    let bad = |object: &str| problems.iter().any(|p| p.object == object);
    let column_object = |c: &Ident| format!("column {}", quote_ident(c.as_str()));
    let mut gone: Vec<Ident> = t
        .columns
        .iter()
        .filter(|c| bad(&column_object(&c.name)))
        .map(|c| c.name.clone())
        .collect();
    // A generated column naming a left-out column goes too, and so on
    // (one generated column may name another).
    loop {
        let kept: Vec<Ident> = t
            .columns
            .iter()
            .filter(|c| !gone.contains(&c.name))
            .map(|c| c.name.clone())
            .collect();
        let next = t.columns.iter().find(|c| {
            !gone.contains(&c.name)
                && c.generated.as_ref().is_some_and(|g| {
                    crate::sqltext::render_generated_expression(
                        &crate::expr::canonical(&g.expression),
                        &kept,
                    )
                    .is_err()
                })
        });
        let Some(c) = next else { break };
        leave(
            column_object(&c.name),
            format!(
                "generated column whose expression ({}) names a column that was left out",
                c.generated.as_ref().map_or("", |g| g.expression.as_str())
            ),
        );
        gone.push(c.name.clone());
    }
    t.columns.retain(|c| !gone.contains(&c.name));
    let kept: Vec<Ident> = t.columns.iter().map(|c| c.name.clone()).collect();
    let names = |list: &[Ident]| {
        list.iter()
            .map(|n| quote_ident(n.as_str()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    // Why a key's parts cannot stay: a part over a left-out column, or an
    // expression part naming one (the renderer knows only declared columns).
    let uncovered = |parts: &[IndexPart]| -> Option<String> {
        let over: Vec<Ident> = parts
            .iter()
            .filter_map(|p| match p {
                IndexPart::Column { name, .. } if !kept.contains(name) => Some(name.clone()),
                _ => None,
            })
            .collect();
        if !over.is_empty() {
            return Some(format!(
                "a key part over {}, which was left out",
                names(&over)
            ));
        }
        parts.iter().find_map(|p| match p {
            IndexPart::Expression(e) => {
                crate::sqltext::render_key_expression(&crate::expr::canonical(e), &kept)
                    .err()
                    .map(|_| {
                        format!("the expression key part ({e}) names a column that was left out")
                    })
            }
            IndexPart::Column { .. } => None,
        })
    };
    if !t.primary_key.is_empty() {
        if bad("primary key") {
            t.primary_key.clear();
        } else if let Some(why) = uncovered(&t.primary_key) {
            leave("primary key".into(), why);
            t.primary_key.clear();
        }
    }
    let mut indexes = std::mem::take(&mut t.indexes);
    indexes.retain(|i| {
        let object = format!("index {}", quote_ident(i.name.as_str()));
        if bad(&object) {
            return false;
        }
        match uncovered(&i.parts) {
            Some(why) => {
                leave(object, why);
                false
            }
            None => true,
        }
    });
    t.indexes = indexes;
    let mut checks = std::mem::take(&mut t.checks);
    checks.retain(|c| {
        let object = format!("check {}", quote_ident(c.name.as_str()));
        if bad(&object) {
            return false;
        }
        let text = crate::expr::canonical(&c.expression);
        if crate::sqltext::render_check_expression(&text, &kept).is_err() {
            leave(
                object,
                format!("CHECK ({}) names a column that was left out", c.expression),
            );
            return false;
        }
        true
    });
    t.checks = checks;
    t.foreign_keys
        .retain(|f| !bad(&foreign_keys::object(&f.name)));
    if t.columns.is_empty() {
        leave(
            "table".into(),
            "every column was left out, so the whole table is".into(),
        );
        return (None, also);
    }
    (Some(t), also)
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
    // (docs/scale.md: 8,192 files).
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
        // `ie` covers the left-out `e`: it goes too, and is named.
        assert_eq!(objects, ["column `e`", "index `sp`", "index `ie`"]);
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
        let mut t =
            dump::table("CREATE TABLE `t` (`j` json) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin");
        // Inspection's reading (introducer undone): no CREATE TABLE text parses to it.
        t.columns[0].default = Some(DefaultValue::Expression("'{}'".into()));
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
