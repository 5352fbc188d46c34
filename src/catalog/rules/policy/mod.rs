//! The policy rules: house rules a team sets in `catalog.yaml` `lint:`
//! (naming, allow-lists) and the ones every peer ships (a primary key, its
//! width, reserved words, redundant indexes, approximate numbers, zero
//! dates), plus what TiDB parses and drops. One file per rule; each is a
//! function over one table that reports through the sink, run once every
//! table is read (`read/load.rs`), skipped when the catalog sets it `off`.
//! They run only on a table whose file has no error yet: a policy finding
//! on a table the reader could not build as written (a primary key naming
//! a missing column reads as no primary key) would only repeat the error.
//! docs/lint.md has a section per rule.

use regex::Regex;

use crate::catalog::lint_settings::{Level, LintSettings};
use crate::catalog::sink::Sink;
use crate::catalog::{CatalogTable, Defaults, Problem};
use crate::finding::lint::Rule;
use crate::model::Table;

pub(in crate::catalog) mod allowed;
pub(in crate::catalog) mod has_float;
pub(in crate::catalog) mod naming;
pub(in crate::catalog) mod pk_type;
pub(in crate::catalog) mod primary_key;
pub(in crate::catalog) mod redundant_index;
pub(in crate::catalog) mod reserved_word;
pub(in crate::catalog) mod tidb_check;
pub(in crate::catalog) mod tidb_ignored;
pub(in crate::catalog) mod zero_date;

/// What a policy rule reads besides the table.
pub(in crate::catalog) struct Context<'a> {
    pub defaults: &'a Defaults,
    pub settings: &'a LintSettings,
    pub naming: naming::Compiled,
}

/// One policy rule: its id and severity, and its check.
type Check = fn(&Table, &Context<'_>, &mut Sink);

/// The policy rules in the order they run.
const CHECKS: &[(&Rule, Check)] = &[
    (&crate::catalog::rule_ids::PRIMARY_KEY, primary_key::check),
    (&crate::catalog::rule_ids::PK_TYPE, pk_type::check),
    (&crate::catalog::rule_ids::NAMING, naming::check),
    (
        &crate::catalog::rule_ids::RESERVED_WORD,
        reserved_word::check,
    ),
    (
        &crate::catalog::rule_ids::REDUNDANT_INDEX,
        redundant_index::check,
    ),
    (
        &crate::catalog::rule_ids::ALLOWED_CHARSET,
        allowed::check_charsets,
    ),
    (
        &crate::catalog::rule_ids::ALLOWED_COLLATION,
        allowed::check_collations,
    ),
    (&crate::catalog::rule_ids::HAS_FLOAT, has_float::check),
    (&crate::catalog::rule_ids::ZERO_DATE, zero_date::check),
    (&crate::catalog::rule_ids::TIDB_CHECK, tidb_check::check),
    (&crate::catalog::rule_ids::TIDB_IGNORED, tidb_ignored::check),
];

/// Runs every policy rule the catalog has not set `off` over every table.
pub(in crate::catalog) fn lint(
    tables: &[CatalogTable],
    defaults: &Defaults,
    settings: &LintSettings,
    problems: &mut Vec<Problem>,
) {
    let active: Vec<Check> = CHECKS
        .iter()
        .filter(|(rule, _)| settings.level(rule) != Level::Off)
        .map(|(_, check)| *check)
        .collect();
    if active.is_empty() {
        return;
    }
    let ctx = Context {
        defaults,
        settings,
        naming: naming::Compiled::of(&settings.naming),
    };
    let broken: std::collections::BTreeSet<std::path::PathBuf> = problems
        .iter()
        .filter(|p| p.severity == crate::catalog::Severity::Error)
        .map(|p| p.file.clone())
        .collect();
    for ct in tables.iter().filter(|t| !broken.contains(&t.file)) {
        let mut sink = Sink::new(&ct.file, problems);
        sink.table = Some(ct.table.name.to_string());
        for check in &active {
            check(&ct.table, &ctx, &mut sink);
        }
    }
}

/// A regex of `lint: naming:`, or why it is not one (for the settings
/// error naming the key).
pub(in crate::catalog) fn compile(pattern: &str) -> Result<Regex, String> {
    Regex::new(pattern).map_err(|e| e.to_string())
}

#[cfg(test)]
pub(in crate::catalog) mod test_support {
    //! Runs `catalog check` over an in-memory catalog and keeps one rule's
    //! findings: each rule's failing and passing tests use it.
    use crate::catalog::{check_files, Problem};

    /// The findings of `rule` for a catalog of `settings` (catalog.yaml,
    /// empty for none) and one table file.
    pub fn findings(rule: &str, settings: &str, table: &str) -> Vec<Problem> {
        let mut files = vec![("t.yaml", table)];
        if !settings.is_empty() {
            files.push(("catalog.yaml", settings));
        }
        check_files("policy", &files)
            .problems
            .into_iter()
            .filter(|p| p.rule == rule)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_policy_rule_has_a_fix_hint() {
        for rule in crate::catalog::rule_ids::POLICY
            .iter()
            .chain([&crate::catalog::rule_ids::TIDB_IGNORED])
        {
            assert!(crate::catalog::fix_hint(rule.id).is_some(), "{}", rule.id);
        }
        assert_eq!(crate::catalog::fix_hint("no-such-rule"), None);
    }
}
