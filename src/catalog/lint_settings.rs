//! `catalog.yaml` `lint:` (naming patterns, per-rule levels, rule options)
//! and `tidb:` (what the catalog declares about its TiDB servers), as read
//! and validated by the loader (`read/load.rs`). A leaf: the reader fills
//! it, the policy rules (`rules/policy/`) read it, `verify` reads the
//! auto-increment share. docs/lint.md describes every key.

use std::collections::BTreeMap;

use crate::coltype::IntKind;
use crate::finding::lint::{Problem, Rule, Severity};

/// What `lint: rules:` sets a rule to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Findings are errors (the catalog is invalid).
    Error,
    /// Findings are warnings.
    Warning,
    /// The rule does not run (its findings are dropped).
    Off,
}

impl Level {
    /// `error`, `warning` or `off`.
    pub fn parse(text: &str) -> Option<Level> {
        match text {
            "error" => Some(Level::Error),
            "warning" => Some(Level::Warning),
            "off" => Some(Level::Off),
            _ => None,
        }
    }

    /// The level of a rule's default severity.
    pub fn of(severity: Severity) -> Level {
        match severity {
            Severity::Error => Level::Error,
            Severity::Warning => Level::Warning,
        }
    }

    /// The severity findings get, `None` when off.
    pub fn severity(self) -> Option<Severity> {
        match self {
            Level::Error => Some(Severity::Error),
            Level::Warning => Some(Severity::Warning),
            Level::Off => None,
        }
    }
}

/// `lint: naming:` regexes per object kind (validated at load; anchors are
/// the user's: `^idx_` matches a prefix, `^idx_[a-z]+$` the whole name).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Naming {
    /// Table names.
    pub table: Option<String>,
    /// Column names.
    pub column: Option<String>,
    /// Index names (not the primary key).
    pub index: Option<String>,
    /// Foreign key names.
    pub foreign_key: Option<String>,
    /// CHECK constraint names.
    pub check: Option<String>,
}

/// The catalog's lint settings: `lint:` and `tidb:` of `catalog.yaml`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LintSettings {
    /// Naming patterns.
    pub naming: Naming,
    /// Levels set by `lint: rules:`, by rule id.
    pub levels: BTreeMap<&'static str, Level>,
    /// `lint: min_pk_type:` the narrowest integer an auto_increment
    /// primary-key column may be (`pk-type`; default bigint).
    pub min_pk_type: IntKind,
    /// `lint: allowed_charsets:` (`allowed-charset`; empty: any).
    pub allowed_charsets: Vec<String>,
    /// `lint: allowed_collations:` (`allowed-collation`; empty: any).
    pub allowed_collations: Vec<String>,
    /// `lint: auto_increment_max_share:` the percentage of an
    /// auto_increment column's range past which `verify` reports
    /// `auto-increment-capacity` (default 80).
    pub auto_increment_max_share: u8,
    /// `tidb: { check_constraints: enforced }`: the catalog's TiDB servers
    /// run with `tidb_enable_check_constraint = ON`, so CHECK constraints
    /// are allowed on a TiDB-targeting catalog (`tidb-check`).
    pub tidb_check_constraints_enforced: bool,
}

impl Default for LintSettings {
    fn default() -> Self {
        LintSettings {
            naming: Naming::default(),
            levels: BTreeMap::new(),
            min_pk_type: IntKind::Big,
            allowed_charsets: Vec::new(),
            allowed_collations: Vec::new(),
            auto_increment_max_share: 80,
            tidb_check_constraints_enforced: false,
        }
    }
}

impl LintSettings {
    /// The level `rule` runs at: the catalog's setting, else its default.
    pub fn level(&self, rule: &Rule) -> Level {
        self.levels
            .get(rule.id)
            .copied()
            .unwrap_or(Level::of(rule.severity))
    }

    /// Gives each finding the severity its rule is set to, and drops the
    /// findings of rules set to `off`.
    pub(in crate::catalog) fn apply(&self, problems: &mut Vec<Problem>) {
        if self.levels.is_empty() {
            return;
        }
        problems.retain_mut(|p| match self.levels.get(p.rule).map(|l| l.severity()) {
            None => true,
            Some(None) => false,
            Some(Some(severity)) => {
                p.severity = severity;
                true
            }
        });
    }
}
