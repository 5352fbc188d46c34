//! The catalog: a directory of YAML files loaded into the typed model, and
//! `check`, which lints it. See docs/catalog-format.md.

use std::collections::BTreeSet;

use std::path::PathBuf;

use crate::ident::Ident;
use crate::model::Table;

mod embedded;
pub use embedded::{AsCatalog, Embedded};
pub(crate) mod read;
pub(crate) mod rules;
/// The declared-query types a [`Query`] holds (its parameters and the
/// shape its statement was read as).
pub use crate::sql::query::{Binding, Cmp, Param, Shape, StatementKind};
pub(crate) use read::foreign_keys::foreign_key_problem;
pub(crate) use read::locate::object_position;
pub use read::queries::{FixtureSpec, Query};
pub(crate) use read::raw;
pub(crate) use read::raw::indent_hint;
pub(crate) use rules::defaults::default_problem;
pub use rules::flavored::flavors_for;
mod lint_settings;
pub use lint_settings::{Level, LintSettings, Naming};
pub(crate) mod fixes;
mod rule_ids;
pub use crate::finding::lint::Rule;
pub use rule_ids::{AUTO_INCREMENT_CAPACITY, RULES};
mod sink;
mod table_policy;
pub use table_policy::{ColumnPolicy, TablePolicy};

pub use read::load::{check, check_files, from_files, load};

pub use crate::finding::lint::{Problem, Severity, Suppressed};

/// Catalog-wide defaults (`catalog.yaml`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Defaults {
    /// Default engine, `InnoDB`.
    pub engine: String,
    /// Default charset, `utf8mb4`.
    pub charset: String,
    /// Default collation, `utf8mb4_bin`.
    pub collation: String,
    /// The flavors the catalog targets (`catalog.yaml` `flavors`), in
    /// `Flavor::ALL` order; all three unless the catalog says otherwise.
    /// A feature one of them lacks is a lint error.
    pub flavors: Vec<crate::server::Flavor>,
    /// Tables of the schema the catalog does not manage that its foreign
    /// keys may reference (`catalog.yaml` `external_tables`).
    pub external_tables: Vec<Ident>,
    /// `catalog.yaml` `defaults: { widen: true }`: apply may widen any
    /// column online by the rule table (types only; a column's own
    /// `widen` overrides it). False: strictly additive.
    pub widen: bool,
}

/// Catalog limits (`catalog.yaml`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Maximum index key bytes (3072).
    pub max_index_bytes: u32,
    /// apply's budget on a step's estimated build (`max_step_duration`;
    /// `None`: no limit; docs/cost.md). The command line's overrides it.
    pub max_step_duration: Option<std::time::Duration>,
    /// apply's budget on a step's estimated replica stall
    /// (`max_replica_stall`; `None`: no limit).
    pub max_replica_stall: Option<std::time::Duration>,
}

/// One table of the catalog with the file that declared it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogTable {
    /// The YAML file.
    pub file: PathBuf,
    /// The table, fully resolved (defaults applied, collations canonical).
    pub table: Table,
    /// The hot queries declared on it (`queries:`), linted.
    pub queries: Vec<Query>,
    /// Its consumers and widening opt-ins (`required_by`, `widen`): the
    /// catalog's policy, which the model does not carry.
    pub policy: TablePolicy,
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
    /// `replicas: required` in `catalog.yaml`: apply and plan refuse before
    /// any DDL when the primary lists connected replicas that are not named
    /// (as `--require-replicas` does).
    pub require_replicas: bool,
    /// Tables, sorted by name.
    pub tables: Vec<CatalogTable>,
    /// Lint settings (`catalog.yaml` `lint:` and `tidb:`).
    pub lint: LintSettings,
    /// Warnings found while loading (the catalog is still valid).
    pub warnings: Vec<Problem>,
}

/// The outcome of `check`: every problem found, and the catalog when valid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckReport {
    /// Findings sorted by file, then position.
    pub problems: Vec<Problem>,
    /// Findings a `# catalog: allow RULE` comment silenced, in file order.
    pub suppressed: Vec<Suppressed>,
    /// The catalog, when there is no error.
    pub catalog: Option<Catalog>,
}

impl Default for Defaults {
    fn default() -> Self {
        Defaults {
            engine: "InnoDB".into(),
            charset: "utf8mb4".into(),
            collation: "utf8mb4_bin".into(),
            flavors: crate::server::Flavor::ALL.to_vec(),
            external_tables: Vec::new(),
            widen: false,
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_index_bytes: 3072,
            max_step_duration: None,
            max_replica_stall: None,
        }
    }
}

impl Catalog {
    /// Every consumer named in any `required_by` (tables, columns, indexes, queries).
    pub fn consumers(&self) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        for ct in &self.tables {
            out.extend(
                ct.queries
                    .iter()
                    .flat_map(|q| q.required_by.iter().cloned()),
            );
            let p = &ct.policy;
            let lists = std::iter::once(&p.required_by)
                .chain(p.columns.values().map(|c| &c.required_by))
                .chain(p.indexes.values());
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
            .filter(|t| wanted(&t.policy.required_by))
            .map(|ct| {
                let mut t = ct.table.clone();
                t.columns
                    .retain(|c| wanted(ct.policy.column_required_by(&c.name)));
                t.indexes
                    .retain(|i| wanted(ct.policy.index_required_by(&i.name)));
                t
            })
            .collect()
    }

    /// The widening opt-ins of every column (`widen`, `defaults: { widen:
    /// true }`), for diff: a column that opted in and differs from the live
    /// one only as the rule table allows is a widening, not drift.
    pub fn widens(&self) -> crate::model::Widens {
        let mut out = crate::model::Widens::none();
        for ct in &self.tables {
            ct.policy.add_widens(&ct.table.name, &mut out);
        }
        out
    }

    /// The tables in creation order: each after the tables its foreign
    /// keys reference, otherwise by name (see `crate::dependency`).
    pub fn in_creation_order(&self) -> Vec<&CatalogTable> {
        let models: Vec<&Table> = self.tables.iter().map(|t| &t.table).collect();
        crate::dependency::creation_order(&models)
            .into_iter()
            .map(|i| &self.tables[i])
            .collect()
    }

    /// Looks a table up by name (case-insensitive): a binary search on the
    /// folded name, as the tables are kept sorted by it.
    pub fn table(&self, name: &str) -> Option<&CatalogTable> {
        let key = crate::ident::fold(name);
        self.tables
            .binary_search_by(|t| t.table.name.folded().cmp(&key))
            .ok()
            .map(|i| &self.tables[i])
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

/// The fix hint of a catalog rule (src/catalog/fixes.rs, docs/lint.md),
/// as each finding carries it; `None` for an id that is no catalog rule.
pub fn fix_hint(rule: &str) -> Option<&'static str> {
    Some(fixes::hint(rule)).filter(|h| !h.is_empty())
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
    rules::widths::key_bytes(&columns?).map(|(total, _)| total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Column, DefaultValue, IndexPart};

    /// Writes a throwaway catalog directory and returns its path.
    fn temp_catalog(name: &str, files: &[(&str, &str)]) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("schema-catalog-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for (file, text) in files {
            std::fs::write(dir.join(file), text).unwrap();
        }
        dir
    }

    fn column<'a>(table: &'a Table, name: &str) -> &'a Column {
        table.column(&Ident::new(name)).unwrap()
    }

    const TABLE: &str = "
table: T
charset: latin1
columns:
  - {name: Id, type: bigint unsigned, nullable: false, auto_increment: true}
  - {name: Name, type: varchar(64)}
  - {name: Code, type: char(8), collation: ascii_bin}
  - {name: Doc, type: json}
  - {name: Count, type: int, default: 0}
  - {name: Flag, type: boolean, default: true}
  - {name: State, type: varchar(16), default: \"'new'\"}
  - {name: At, type: datetime(6), default: current_timestamp(6)}
primary_key: [Id]
";

    #[test]
    fn charset_and_collation_resolve_from_table_then_column() {
        let dir = temp_catalog("resolve", &[("t.yaml", TABLE)]);
        let catalog = load(&dir).unwrap();
        let t = &catalog.tables[0].table;
        assert_eq!(
            (t.charset.as_str(), t.collation.as_str()),
            ("latin1", "latin1_bin")
        );
        let name = column(t, "name");
        assert_eq!(
            (name.charset.as_deref(), name.collation.as_deref()),
            (Some("latin1"), Some("latin1_bin"))
        );
        let code = column(t, "Code");
        assert_eq!(
            (code.charset.as_deref(), code.collation.as_deref()),
            (Some("ascii"), Some("ascii_bin"))
        );
        for non_textual in ["Id", "Doc", "Count", "At"] {
            assert_eq!(column(t, non_textual).collation, None, "{non_textual}");
        }
        assert_eq!(t.engine.as_deref(), Some("InnoDB"));
        assert_eq!(catalog.defaults, Defaults::default());
        assert_eq!(catalog.limits.max_index_bytes, 3072);
    }

    #[test]
    fn defaults_accept_sql_text_and_yaml_scalars() {
        let dir = temp_catalog("defaults", &[("t.yaml", TABLE)]);
        let t = load(&dir).unwrap().tables.remove(0).table;
        assert_eq!(
            column(&t, "Count").default,
            Some(DefaultValue::Literal("0".into()))
        );
        assert_eq!(
            column(&t, "Flag").default,
            Some(DefaultValue::Literal("1".into()))
        );
        assert_eq!(
            column(&t, "State").default,
            Some(DefaultValue::Literal("new".into()))
        );
        assert_eq!(
            column(&t, "At").default,
            Some(DefaultValue::CurrentTimestamp(6))
        );
        assert!(!column(&t, "Id").nullable);
        assert!(column(&t, "Name").nullable, "nullable defaults to true");
    }

    #[test]
    fn catalog_defaults_apply_to_tables() {
        let settings = "defaults: {charset: utf8mb3}\nlimits: {max_index_bytes: 1000}\n";
        let table = "table: U\ncolumns:\n  - {name: Id, type: varchar(10), nullable: false}\nprimary_key: [Id]\n";
        let dir = temp_catalog("settings", &[("catalog.yaml", settings), ("u.yml", table)]);
        let catalog = load(&dir).unwrap();
        assert_eq!(catalog.defaults.collation, "utf8mb3_bin");
        assert_eq!(catalog.limits.max_index_bytes, 1000);
        let t = &catalog.tables[0].table;
        assert_eq!(column(t, "Id").collation.as_deref(), Some("utf8mb3_bin"));
    }

    /// `required_by` on a table, a column and an index is the catalog's
    /// policy, not the model's: `consumers` lists them all, `scoped` keeps
    /// the base contract and what names the consumer.
    #[test]
    fn consumer_scopes_come_from_the_policy() {
        let jobs = "table: Jobs\ncolumns:\n  - {name: Id, type: int, nullable: false}\n  - {name: Lease, type: int, required_by: [worker]}\n  - {name: Note, type: int, required_by: [reporter]}\nprimary_key: [Id]\nindexes:\n  - {name: idx_lease, columns: [Lease], required_by: [worker]}\n";
        let stats = "table: Stats\nrequired_by: [reporter]\ncolumns:\n  - {name: Id, type: int, nullable: false}\nprimary_key: [Id]\n";
        let report = check_files("scopes", &[("jobs.yaml", jobs), ("stats.yaml", stats)]);
        let catalog = report.catalog.expect("loads");
        assert_eq!(
            catalog.consumers().into_iter().collect::<Vec<_>>(),
            ["reporter", "worker"]
        );
        let policy = &catalog.table("jobs").unwrap().policy;
        assert_eq!(policy.column_required_by(&Ident::new("LEASE")), ["worker"]);
        assert!(policy.column_required_by(&Ident::new("Id")).is_empty());
        assert_eq!(
            policy.index_required_by(&Ident::new("idx_lease")),
            ["worker"]
        );
        let shape = |consumer| {
            catalog
                .scoped(consumer)
                .iter()
                .map(|t| {
                    let columns: Vec<&str> = t.columns.iter().map(|c| c.name.as_str()).collect();
                    let indexes: Vec<&str> = t.indexes.iter().map(|i| i.name.as_str()).collect();
                    format!("{} {columns:?} {indexes:?}", t.name)
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(
            shape(None),
            [
                r#"Jobs ["Id", "Lease", "Note"] ["idx_lease"]"#,
                r#"Stats ["Id"] []"#
            ]
        );
        assert_eq!(
            shape(Some("worker")),
            [r#"Jobs ["Id", "Lease"] ["idx_lease"]"#]
        );
        assert_eq!(
            shape(Some("reporter")),
            [r#"Jobs ["Id", "Note"] []"#, r#"Stats ["Id"] []"#]
        );
    }

    /// `defaults: { widen: true }` opts every column in to type widenings,
    /// a column's own `widen` overrides it (true: types and default);
    /// without either the catalog is strictly additive. A misspelt key is
    /// still refused.
    #[test]
    fn widen_opt_in_from_defaults_and_columns() {
        use crate::model::Widen;
        let table = "table: W\ncolumns:\n  - {name: Id, type: int, nullable: false}\n  - {name: A, type: varchar(8)}\n  - {name: B, type: varchar(8), widen: true}\n  - {name: C, type: varchar(8), widen: false}\nprimary_key: [Id]\n";
        let widen_of = |settings: &str| {
            let mut files = vec![("w.yaml", table)];
            if !settings.is_empty() {
                files.push(("catalog.yaml", settings));
            }
            let catalog = check_files("widen", &files).catalog.expect("loads");
            let policy = &catalog.tables[0].policy;
            let widens = catalog.widens();
            ["A", "B", "C"].map(|c| {
                let c = Ident::new(c);
                assert_eq!(widens.of(&Ident::new("w"), &c), policy.widen(&c));
                policy.widen(&c)
            })
        };
        assert_eq!(
            widen_of(""),
            [Widen::Off, Widen::TypesAndDefault, Widen::Off]
        );
        assert_eq!(
            widen_of("defaults: {widen: true}\n"),
            [Widen::Types, Widen::TypesAndDefault, Widen::Off]
        );
        let typo = check_files(
            "typo",
            &[
                ("catalog.yaml", "defaults: {widn: true}\n"),
                ("w.yaml", table),
            ],
        );
        assert!(typo.catalog.is_none());
        assert!(
            typo.problems
                .iter()
                .any(|p| p.message.contains("did you mean `widen`")),
            "{:?}",
            typo.problems
        );
    }

    #[test]
    fn key_width_follows_charset_and_type() {
        let t = crate::dump::table(
            "CREATE TABLE T (Scope varchar(255), Digest char(64) CHARACTER SET ascii, \
             At datetime(6), Id bigint unsigned, Body text) DEFAULT CHARSET=utf8mb4",
        );
        let parts = |names: &[&str]| {
            names
                .iter()
                .map(|n| IndexPart::column(*n))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            key_bytes(&t, &parts(&["Scope", "At", "Id"])),
            Some(1020 + 8 + 8)
        );
        assert_eq!(key_bytes(&t, &parts(&["Digest", "Id"])), Some(64 + 8));
        assert_eq!(key_bytes(&t, &parts(&["Body"])), None);
        assert_eq!(key_bytes(&t, &parts(&["Missing"])), None);
    }
}
