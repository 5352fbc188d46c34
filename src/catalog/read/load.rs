//! Reading a catalog: from a directory ([`load`], [`check`]) or from
//! in-memory files ([`from_files`], [`check_files`]), through one reader and
//! one lint.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use crate::catalog::read::queries::RawQuery;
use crate::catalog::read::raw::{self, FileKind, RawCatalogFile, RawTable};
use crate::catalog::read::table;
use crate::catalog::rule_ids;
use crate::catalog::sink::Sink;
use crate::catalog::Catalog;
use crate::catalog::CheckReport;
use crate::catalog::Defaults;
use crate::catalog::Limits;
use crate::catalog::Problem;
use crate::catalog::Severity;
use crate::catalog::{CatalogTable, TablePolicy};
use crate::error::{Error, Result};
use crate::finding::lint::Suppressed;
use crate::model::Table;

/// Loads and lints the catalog in `dir`, reporting every problem found.
/// File paths in problems are `dir` joined with the file name, as given.
pub fn check(dir: &Path) -> CheckReport {
    let mut problems = Vec::new();
    let (catalog, suppressed) = match yaml_files(dir) {
        Ok(names) => {
            let read = |name: &str| std::fs::read_to_string(dir.join(name));
            let catalog = read_catalog(dir, names.clone(), &read, &mut problems);
            crate::catalog::read::locate::locate(dir, &read, &mut problems);
            let suppressed =
                crate::catalog::read::allow::suppress(dir, &names, &read, &mut problems);
            (catalog, suppressed)
        }
        Err(e) => {
            Sink::new(dir, &mut problems).report(&rule_ids::CATALOG_FILES,
                None,
                format!("cannot read the catalog directory: {e}; pass the directory holding catalog.yaml and the table files (--catalog DIR)"),
            );
            (None, Vec::new())
        }
    };
    finish(problems, suppressed, catalog)
}

/// Lints a catalog held in memory: `files` are `(file name, text)` pairs,
/// as `include_str!` gives them (`catalog.yaml` for the settings, one
/// `<table>.yaml` per table), checked by the same rules as [`check`].
/// `dir` only names the catalog in problems and errors (file paths are `dir`
/// joined with the file name). A name that is not a `.yaml`/`.yml` file
/// name, or that is given twice, is an error.
pub fn check_files(dir: impl AsRef<Path>, files: &[(&str, &str)]) -> CheckReport {
    let dir = dir.as_ref();
    let mut problems = Vec::new();
    // The texts by file name: the first of a name (a map, not a search of
    // the list per file: docs/scale.md, a git revision of 8,192 files).
    let mut texts: HashMap<&str, &str> = HashMap::with_capacity(files.len());
    for (name, text) in files {
        let mut sink = Sink::new(&dir.join(name), &mut problems);
        let yaml = name.ends_with(".yaml") || name.ends_with(".yml");
        if !yaml || name.contains(['/', '\\']) || name.starts_with('.') {
            sink.report(
                &rule_ids::CATALOG_FILES,
                None,
                "not a catalog file name: give each file as `<name>.yaml` without a directory",
            );
        } else if texts.contains_key(name) {
            sink.report(
                &rule_ids::CATALOG_FILES,
                None,
                "the file is given twice: pass each catalog file once",
            );
        } else {
            texts.insert(name, text);
        }
    }
    let mut names: Vec<String> = texts.keys().map(|n| n.to_string()).collect();
    names.sort();
    let read = |name: &str| {
        texts
            .get(name)
            .map(|text| text.to_string())
            .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::NotFound))
    };
    let catalog = read_catalog(dir, names.clone(), &read, &mut problems);
    crate::catalog::read::locate::locate(dir, &read, &mut problems);
    let suppressed = crate::catalog::read::allow::suppress(dir, &names, &read, &mut problems);
    finish(problems, suppressed, catalog)
}

/// A catalog built from in-memory files (see [`check_files`]):
/// `Err(Error::InvalidCatalog)` carrying the full report when there is any
/// error, as [`load`].
///
/// ```
/// let catalog = schema_catalog::catalog::from_files(
///     "embedded",
///     &[
///         ("catalog.yaml", "defaults:\n  collation: utf8mb4_bin\n"),
///         ("jobs.yaml", "table: jobs\ncolumns:\n  - name: id\n    type: bigint\n    nullable: false\nprimary_key: [id]\n"),
///     ],
/// )
/// .unwrap();
/// assert_eq!(catalog.tables.len(), 1);
/// ```
pub fn from_files(dir: impl AsRef<Path>, files: &[(&str, &str)]) -> Result<Catalog> {
    let dir = dir.as_ref();
    into_catalog(dir, check_files(dir, files))
}

/// Sorts the problems and keeps the catalog only when there is no error.
fn finish(
    mut problems: Vec<Problem>,
    suppressed: Vec<Suppressed>,
    catalog: Option<Catalog>,
) -> CheckReport {
    // In file order (every finding in a file that has its node is placed by
    // `locate`), so a cause (an unknown type) comes before its consequences
    // (the index naming that column); stable, so findings on one node keep
    // the order they were found in.
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
    CheckReport {
        problems,
        suppressed,
        catalog,
    }
}

/// Loads the catalog in `dir`: `Err(Error::InvalidCatalog)` carrying the full
/// report when there is any error; the catalog's `warnings` otherwise.
pub fn load(dir: &Path) -> Result<Catalog> {
    into_catalog(dir, check(dir))
}

fn into_catalog(dir: &Path, report: CheckReport) -> Result<Catalog> {
    let errors = report.error_count();
    match report.catalog {
        Some(catalog) => Ok(catalog),
        None => Err(Error::InvalidCatalog {
            dir: dir.to_path_buf(),
            errors,
            problems: report.problems,
        }),
    }
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

/// Reads a file of the catalog by name (from the reader threads too).
type ReadFile<'a> = &'a (dyn Fn(&str) -> std::io::Result<String> + Sync);

/// A table file read and built: its path, the table it names (for its
/// problems), the table when it could be read (with its policy, its raw
/// queries and its columns not built), and the problems found in it.
type ReadTable = (PathBuf, Option<String>, Option<BuiltTable>, Vec<Problem>);

/// A table file built: the table, its policy (`required_by`, `widen`), its
/// raw queries, and the columns declared but not built.
type BuiltTable = (Table, TablePolicy, Vec<RawQuery>, Vec<String>);

/// Reads and builds every table file, in order. Each file is independent
/// of the others until they are all read (duplicates, CHECK names, queries
/// and foreign keys are linted after), so a large catalog is read on up to
/// one thread per core (at most 4, [`crate::parallel::runs`]), each taking
/// a contiguous run of the files and keeping its own problems: the result
/// is the same, in the same order, as one thread reading them one after
/// the other.
fn read_tables(
    dir: &Path,
    names: &[String],
    read: ReadFile<'_>,
    defaults: &Defaults,
    limits: Limits,
) -> Vec<ReadTable> {
    let one = |name: &String| {
        let file = dir.join(name);
        let mut problems = Vec::new();
        let mut sink = Sink::new(&file, &mut problems);
        let table = read_table(name, read, defaults, limits, &mut sink);
        let named = sink.table.take();
        (file, named, table, problems)
    };
    crate::parallel::runs(names, |run| run.iter().map(one).collect::<Vec<_>>())
        .into_iter()
        .flatten()
        .collect()
}

fn read_catalog(
    dir: &Path,
    names: Vec<String>,
    read: ReadFile<'_>,
    problems: &mut Vec<Problem>,
) -> Option<Catalog> {
    let (settings, tables): (Vec<String>, Vec<String>) =
        names.into_iter().partition(|n| is_settings_file(n));
    let (defaults, limits, require_replicas, lint) = read_settings(dir, &settings, read, problems);
    if tables.is_empty() {
        Sink::new(dir, problems).report(
            &rule_ids::CATALOG_FILES,
            None,
            "the catalog declares no tables: add one `<table>.yaml` file per table",
        );
    }
    let mut seen: BTreeMap<String, PathBuf> = BTreeMap::new();
    // MySQL names CHECK constraints per schema, not per table.
    // (check name key) -> (table key, table name)
    let mut check_names: BTreeMap<String, (String, String)> = BTreeMap::new();
    let mut out = Vec::new();
    let mut raw_queries = Vec::new();
    let mut unbuilt_by_name: HashMap<String, Vec<String>> = HashMap::new();
    for (file, named, table, found) in read_tables(dir, &tables, read, &defaults, limits) {
        problems.extend(found);
        let mut sink = Sink::new(&file, problems);
        sink.table = named;
        let Some((table, policy, queries, unbuilt)) = table else {
            continue;
        };
        if let Some(first) = seen.get(&table.name.key()) {
            sink.report(&rule_ids::DUPLICATE_NAME,
                None,
                format!(
                    "duplicate table name: {} already declares it (table names compare case-insensitively); merge the files or rename one",
                    first.display()
                ),
            );
            continue;
        }
        seen.insert(table.name.key(), file.clone());
        for c in &table.checks {
            match check_names.get(&c.name.key()) {
                // A duplicate within the table is reported by its own lint.
                Some((key, _)) if *key == table.name.key() => {}
                Some((_, other)) => sink.report(&rule_ids::DUPLICATE_NAME,
                    Some(format!("check `{}`", c.name)),
                    format!(
                        "check name `{}` is also used by table `{other}`; MySQL check names are unique per schema (the CREATE TABLE would fail): rename one",
                        c.name
                    ),
                ),
                None => {
                    check_names.insert(c.name.key(), (table.name.key(), table.name.to_string()));
                }
            }
        }
        raw_queries.push(queries);
        unbuilt_by_name.insert(table.name.folded().to_string(), unbuilt);
        out.push(CatalogTable {
            file,
            table,
            queries: Vec::new(),
            policy,
        });
    }
    // Queries may name any catalog table, so they are linted once all are
    // read, looking the tables up by folded name.
    let by_name: HashMap<&str, &Table> = out
        .iter()
        .map(|t| (t.table.name.folded(), &t.table))
        .collect();
    let linted: Vec<_> = out
        .iter()
        .zip(raw_queries)
        .map(|(t, raw)| {
            if raw.is_empty() {
                return Vec::new();
            }
            let mut sink = Sink::new(&t.file, problems);
            sink.table = Some(t.table.name.to_string());
            crate::catalog::read::queries::lint_queries(
                raw,
                &t.table,
                &by_name,
                &unbuilt_by_name,
                &mut sink,
            )
        })
        .collect();
    for (t, queries) in out.iter_mut().zip(linted) {
        t.queries = queries;
    }
    // Foreign keys may reference any catalog table: checked once all are read.
    crate::catalog::read::foreign_keys::lint_references(
        &out,
        &defaults.external_tables,
        &defaults.flavors,
        problems,
    );
    crate::catalog::rules::fk_scope::lint_consumer_scopes(&out, problems);
    crate::catalog::rules::policy::lint(&out, &defaults, &lint, problems);
    // `lint: rules:` levels, over every finding (a rule set `off` drops them).
    lint.apply(problems);
    out.sort_by(|a, b| a.table.name.cmp(&b.table.name));
    Some(Catalog {
        dir: dir.to_path_buf(),
        defaults,
        limits,
        require_replicas,
        tables: out,
        lint,
        warnings: Vec::new(),
    })
}

fn read_text(name: &str, read: ReadFile<'_>, sink: &mut Sink) -> Option<String> {
    match read(name) {
        Ok(text) => Some(text),
        Err(e) => {
            sink.report(
                &rule_ids::CATALOG_FILES,
                None,
                format!("cannot read the file: {e}"),
            );
            None
        }
    }
}

fn read_table(
    name: &str,
    read: ReadFile<'_>,
    defaults: &Defaults,
    limits: Limits,
    sink: &mut Sink,
) -> Option<BuiltTable> {
    let text = read_text(name, read, sink)?;
    let mut raw: RawTable = raw::read(&text, FileKind::Table, sink)?;
    let queries = std::mem::take(&mut raw.queries);
    let declared: Vec<String> = raw
        .columns
        .iter()
        .flatten()
        .map(|c| c.name.clone())
        .collect();
    let (table, policy) = table::build_table(raw, defaults, limits, sink)?;
    // Columns declared but not built (an unknown type, reported on the
    // column): a query naming one is a consequence, not a second error.
    let unbuilt = declared
        .into_iter()
        .filter(|n| table.column(&crate::ident::Ident::new(n.clone())).is_none())
        .collect();
    Some((table, policy, queries, unbuilt))
}

/// Reads `catalog.yaml` (optional): defaults, limits and whether replicas
/// are required, validated.
fn read_settings(
    dir: &Path,
    files: &[String],
    read: ReadFile<'_>,
    problems: &mut Vec<Problem>,
) -> (Defaults, Limits, bool, crate::catalog::LintSettings) {
    let builtin = Defaults::default();
    let mut defaults = builtin.clone();
    let mut limits = Limits::default();
    let mut require_replicas = false;
    let mut lint = crate::catalog::LintSettings::default();
    for (i, name) in files.iter().enumerate() {
        let mut sink = Sink::new(&dir.join(name), problems);
        if i > 0 {
            sink.report(&rule_ids::CATALOG_FILES, None, format!("`{}` already holds the catalog settings: keep one of catalog.yaml / catalog.yml", files[0]));
            continue;
        }
        let Some(text) = read_text(name, read, &mut sink) else {
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
            engine: table::resolve_engine(
                &mut sink,
                Some("defaults".into()),
                d.engine.as_deref(),
                &builtin.engine,
            ),
            charset,
            collation,
            flavors: crate::catalog::rules::columns::flavors(&mut sink, raw.flavors.as_deref()),
            external_tables: external_tables(&mut sink, &raw.external_tables),
            widen: d.widen.unwrap_or(false),
        };
        lint = crate::catalog::read::lint::read(&mut sink, &raw.lint, &raw.tidb);
        match raw.limits.max_index_bytes {
            Some(0) => sink.report(
                &rule_ids::SETTINGS,
                Some("limits".into()),
                "`max_index_bytes` must be positive (3072 for TiDB and InnoDB DYNAMIC)",
            ),
            Some(n) => limits.max_index_bytes = n,
            None => {}
        }
        match raw.replicas.as_deref() {
            Some("required") => require_replicas = true,
            Some(other) => sink.report(
                &rule_ids::SETTINGS,
                Some("replicas".into()),
                format!(
                    "`replicas: {other}` is not a setting; the one value is `required` (apply \
                     and plan refuse when the server lists connected replicas that are not \
                     named with --replica or under `replicas:` in fleet.yaml); leave the key \
                     out otherwise"
                ),
            ),
            None => {}
        }
        limits.max_step_duration = budget(
            &mut sink,
            "max_step_duration",
            raw.limits.max_step_duration.as_ref(),
        );
        limits.max_replica_stall = budget(
            &mut sink,
            "max_replica_stall",
            raw.limits.max_replica_stall.as_ref(),
        );
    }
    (defaults, limits, require_replicas, lint)
}

/// `catalog.yaml` `external_tables`: valid table names, each once.
fn external_tables(sink: &mut Sink, names: &[String]) -> Vec<crate::ident::Ident> {
    let mut out: Vec<crate::ident::Ident> = Vec::new();
    for name in names {
        crate::catalog::read::declared::check_ident(
            sink,
            Some("external_tables".into()),
            "table",
            name,
        );
        let ident = crate::ident::Ident::new(name.clone());
        if out.contains(&ident) {
            sink.report(
                &rule_ids::SETTINGS,
                Some("external_tables".into()),
                format!("`{name}` is listed twice: list each external table once"),
            );
            continue;
        }
        out.push(ident);
    }
    out
}

/// A budget of `limits:` (`max_step_duration`, `max_replica_stall`): a
/// number of seconds or text with a unit (`0.5`, `500ms`, `10m`); anything
/// else is an error naming the key.
fn budget(
    sink: &mut Sink,
    key: &str,
    value: Option<&serde_yaml::Value>,
) -> Option<std::time::Duration> {
    let text = match value? {
        serde_yaml::Value::Number(n) => n.to_string(),
        serde_yaml::Value::String(s) => s.clone(),
        other => format!("{other:?}"),
    };
    match crate::duration::parse_duration(&text) {
        Ok(d) => Some(d),
        Err(e) => {
            sink.report(
                &rule_ids::SETTINGS,
                Some("limits".into()),
                format!("`{key}`: {e}"),
            );
            None
        }
    }
}
