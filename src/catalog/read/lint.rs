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

#[cfg(test)]
mod tests {
    use crate::catalog::check_files;

    const TABLE: &str =
        "table: T\ncolumns:\n  - {name: Id, type: bigint, nullable: false}\nprimary_key: [Id]\n";

    fn settings_findings(settings: &str) -> Vec<(String, Option<usize>, Option<usize>, String)> {
        check_files("settings", &[("catalog.yaml", settings), ("t.yaml", TABLE)])
            .problems
            .into_iter()
            .filter(|p| p.rule == "settings")
            .map(|p| (p.object.unwrap_or_default(), p.line, p.column, p.message))
            .collect()
    }

    #[test]
    fn an_unknown_rule_id_or_level_is_an_error_on_its_key() {
        let found =
            settings_findings("lint:\n  rules:\n    reserved-words: error\n    has-float: loud\n");
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(
            (found[0].0.as_str(), found[0].1, found[0].2),
            ("lint.rules.reserved-words", Some(3), Some(5))
        );
        assert!(
            found[0].3.contains("did you mean `reserved-word`"),
            "{}",
            found[0].3
        );
        assert_eq!(
            (found[1].0.as_str(), found[1].1),
            ("lint.rules.has-float", Some(4))
        );
        assert!(found[1].3.contains("`error`, `warning` or `off`"));
    }

    #[test]
    fn a_hard_rule_cannot_be_lowered_but_may_be_named_as_error() {
        let found = settings_findings("lint:\n  rules: {key-width: warning}\n");
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].3.contains("cannot be lowered"));
        assert!(settings_findings(
            "lint:\n  rules: {key-width: error, prefix-key: off, duplicate-index: error}\n"
        )
        .is_empty());
        // A default-warning rule raised to error makes its findings errors.
        let t = "table: T\ncolumns:\n  - {name: Id, type: bigint, nullable: false}\n  - {name: P, type: double}\nprimary_key: [Id]\n";
        let report = check_files(
            "raise",
            &[
                ("catalog.yaml", "lint: {rules: {has-float: error}}\n"),
                ("t.yaml", t),
            ],
        );
        assert!(!report.is_valid());
        assert_eq!(report.errors().next().map(|p| p.rule), Some("has-float"));
    }

    #[test]
    fn the_share_is_a_percentage() {
        let found = settings_findings("lint: {auto_increment_max_share: 0}\n");
        assert_eq!(found[0].0, "lint.auto_increment_max_share");
        let ok = check_files(
            "share",
            &[
                ("catalog.yaml", "lint: {auto_increment_max_share: 95}\n"),
                ("t.yaml", TABLE),
            ],
        );
        assert_eq!(ok.catalog.unwrap().lint.auto_increment_max_share, 95);
    }
}
