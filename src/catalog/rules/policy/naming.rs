//! `naming`: table, column, index, foreign key and CHECK names match the
//! regexes of `lint: naming:` (Rust `regex` syntax; a kind without a
//! pattern is not checked). An invalid pattern is a `settings` error
//! naming its key, reported when catalog.yaml is read.

use regex::Regex;

use crate::catalog::lint_settings::Naming;
use crate::catalog::rule_ids::NAMING;
use crate::catalog::sink::Sink;
use crate::model::Table;

use super::Context;

use crate::catalog::fixes::NAMING_FIX as FIX;

/// The patterns, compiled once per catalog.
#[derive(Default)]
pub(in crate::catalog) struct Compiled {
    table: Option<Regex>,
    column: Option<Regex>,
    index: Option<Regex>,
    foreign_key: Option<Regex>,
    check: Option<Regex>,
}

impl Compiled {
    /// The valid patterns of `naming` (an invalid one was reported at load).
    pub fn of(naming: &Naming) -> Compiled {
        let re = |p: &Option<String>| p.as_deref().and_then(|p| super::compile(p).ok());
        Compiled {
            table: re(&naming.table),
            column: re(&naming.column),
            index: re(&naming.index),
            foreign_key: re(&naming.foreign_key),
            check: re(&naming.check),
        }
    }
}

pub(in crate::catalog) fn check(table: &Table, ctx: &Context<'_>, sink: &mut Sink) {
    let n = &ctx.naming;
    let mut test = |re: &Option<Regex>, key: &str, object: Option<String>, name: &str| {
        if let Some(re) = re {
            if !re.is_match(name) {
                sink.report(
                    &NAMING,
                    object,
                    format!(
                        "`{name}` does not match `lint: naming: {key}` (`{}`): {FIX}",
                        re.as_str()
                    ),
                );
            }
        }
    };
    test(&n.table, "table", None, table.name.as_str());
    for c in &table.columns {
        test(
            &n.column,
            "column",
            Some(format!("column `{}`", c.name)),
            c.name.as_str(),
        );
    }
    for i in &table.indexes {
        test(
            &n.index,
            "index",
            Some(format!("index `{}`", i.name)),
            i.name.as_str(),
        );
    }
    for fk in &table.foreign_keys {
        test(
            &n.foreign_key,
            "foreign_key",
            Some(format!("foreign key `{}`", fk.name)),
            fk.name.as_str(),
        );
    }
    for c in &table.checks {
        test(
            &n.check,
            "check",
            Some(format!("check `{}`", c.name)),
            c.name.as_str(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::findings;

    const SETTINGS: &str = "lint:\n  naming: { table: '^_?[A-Z][A-Za-z0-9]*$', column: '^[A-Z][A-Za-z0-9]*$', index: '^(idx|uq)_[a-z0-9_]+$' }\n";
    const TABLE: &str = "table: Job\ncolumns:\n  - {name: Id, type: bigint, nullable: false}\n  - {name: State, type: varchar(16)}\nprimary_key: [Id]\nindexes:\n  - {name: idx_state, columns: [State]}\n";

    #[test]
    fn names_that_match_pass_and_others_fail_on_their_line() {
        assert!(findings("naming", SETTINGS, TABLE).is_empty());
        let bad = TABLE
            .replace("table: Job", "table: job")
            .replace("name: State", "name: state")
            .replace("idx_state, columns: [State]", "ByState, columns: [state]");
        let found = findings("naming", SETTINGS, &bad);
        let at: Vec<_> = found
            .iter()
            .map(|p| (p.object.clone(), p.line, p.column))
            .collect();
        assert_eq!(
            at,
            [
                (None, Some(1), Some(1)),
                (Some("column `state`".to_string()), Some(4), Some(6)),
                (Some("index `ByState`".to_string()), Some(7), Some(6)),
            ]
        );
        assert!(
            found[2].message.contains("lint: naming: index"),
            "{}",
            found[2].message
        );
        // Without patterns nothing is checked.
        assert!(findings("naming", "", &bad).is_empty());
    }

    #[test]
    fn an_invalid_regex_is_a_settings_error_naming_the_key() {
        let found = findings("settings", "lint:\n  naming:\n    index: '^(idx_'\n", TABLE);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].object.as_deref(), Some("lint.naming.index"));
        assert_eq!((found[0].line, found[0].column), (Some(3), Some(5)));
        assert!(
            found[0].message.contains("not a valid regex"),
            "{}",
            found[0].message
        );
    }
}
