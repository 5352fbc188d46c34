//! `catalog.yaml` `lint:` and `tidb:`: validated into
//! [`LintSettings`]. A bad value is a `settings` error on its key (`lint.naming.index`,
//! `lint.rules.<id>`), placed on its line by `locate`.

use crate::catalog::lint_settings::{Level, LintSettings, Naming};
use crate::catalog::read::raw::{RawLint, RawTidbSettings};
use crate::catalog::rule_ids;
use crate::catalog::sink::Sink;

/// The settings `lint` and `tidb` declare; every bad value reported.
pub(in crate::catalog) fn read(
    sink: &mut Sink,
    lint: &RawLint,
    tidb: &RawTidbSettings,
) -> LintSettings {
    let mut out = LintSettings::default();
    let mut pattern = |key: &str, value: &Option<String>| -> Option<String> {
        let p = value.as_ref()?;
        match crate::catalog::rules::policy::compile(p) {
            Ok(_) => Some(p.clone()),
            Err(e) => {
                sink.report(
                    &rule_ids::SETTINGS,
                    Some(format!("lint.naming.{key}")),
                    format!("`{p}` is not a valid regex ({}): fix the pattern (Rust regex syntax, docs/lint.md)", e.lines().last().unwrap_or("").trim()),
                );
                None
            }
        }
    };
    let n = &lint.naming;
    out.naming = Naming {
        table: pattern("table", &n.table),
        column: pattern("column", &n.column),
        index: pattern("index", &n.index),
        foreign_key: pattern("foreign_key", &n.foreign_key),
        check: pattern("check", &n.check),
    };
    for (id, level) in &lint.rules {
        let object = Some(format!("lint.rules.{id}"));
        let Some(rule) = rule_ids::find(id) else {
            let hint = rule_ids::RULES
                .iter()
                .map(|r| r.id)
                .min_by_key(|known| strsim::levenshtein(known, id))
                .filter(|known| strsim::levenshtein(known, id) <= 3)
                .map(|k| format!("did you mean `{k}`? "))
                .unwrap_or_default();
            sink.report(
                &rule_ids::SETTINGS,
                object,
                format!("`{id}` is not a rule id: {hint}docs/catalog-format.md lists the rules"),
            );
            continue;
        };
        let Some(level) = Level::parse(level) else {
            sink.report(
                &rule_ids::SETTINGS,
                object,
                format!("`{level}` is not a level: write `error`, `warning` or `off`"),
            );
            continue;
        };
        if level != Level::Error && !rule_ids::may_lower(rule) {
            sink.report(
                &rule_ids::SETTINGS,
                object,
                format!("`{id}` cannot be lowered: its findings are what the server refuses or a catalog the tool cannot read (docs/lint.md, \"Levels\"); remove the line"),
            );
            continue;
        }
        out.levels.insert(rule.id, level);
    }
    if let Some(text) = &lint.min_pk_type {
        match crate::catalog::rules::policy::pk_type::parse_min(text) {
            Some(kind) => out.min_pk_type = kind,
            None => sink.report(
                &rule_ids::SETTINGS,
                Some("lint.min_pk_type".into()),
                format!("`{text}` is not an integer type: write tinyint, smallint, mediumint, int or bigint"),
            ),
        }
    }
    out.allowed_charsets = lint.allowed_charsets.clone();
    out.allowed_collations = lint.allowed_collations.clone();
    match lint.auto_increment_max_share {
        Some(share) if share == 0 || share > 100 => sink.report(
            &rule_ids::SETTINGS,
            Some("lint.auto_increment_max_share".into()),
            format!("`{share}` is not a percentage of the range: write 1 to 100 (default 80)"),
        ),
        Some(share) => out.auto_increment_max_share = share,
        None => {}
    }
    match tidb.check_constraints.as_deref() {
        None => {}
        Some("enforced") => out.tidb_check_constraints_enforced = true,
        Some(other) => sink.report(
            &rule_ids::SETTINGS,
            Some("tidb.check_constraints".into()),
            format!("`{other}` is not a declaration: write `check_constraints: enforced` when the TiDB servers run with tidb_enable_check_constraint = ON, or leave it out"),
        ),
    }
    out
}
