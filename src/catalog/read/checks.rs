//! The `checks` of one table file: named CHECK constraints, each condition
//! parsed into exactly one expression and re-rendered by the closed
//! renderer ([`crate::sqltext::render_check_expression`]), naming only the
//! table's declared columns.

use crate::ident::Ident;
use crate::model::{Check, CheckLevel};

use crate::catalog::read::declared::{check_ident, object_name, Declared};
use crate::catalog::read::raw::RawCheck;
use crate::catalog::rule_ids;
use crate::catalog::sink::Sink;

/// Lints every `checks` entry; the sound ones as model checks.
pub(in crate::catalog) fn lint_checks(
    raw: &[RawCheck],
    declared: &[Declared],
    sink: &mut Sink,
) -> Vec<Check> {
    let columns: Vec<Ident> = declared.iter().map(|d| d.ident.clone()).collect();
    let mut out: Vec<Check> = Vec::new();
    let mut names: Vec<Ident> = Vec::new();
    for (pos, rc) in raw.iter().enumerate() {
        let object = object_name("check", &rc.name, pos);
        check_ident(sink, Some(object.clone()), "check", &rc.name);
        let name = Ident::new(rc.name.clone());
        if names.contains(&name) {
            sink.report(&rule_ids::DUPLICATE_NAME,
                Some(object.clone()),
                format!("duplicate check name: `{name}` is already declared (names compare case-insensitively); rename or remove one"),
            );
        }
        names.push(name.clone());
        let Some(text) = rc.expression.as_deref() else {
            sink.report(
                &rule_ids::CHECK,
                Some(object),
                "missing `expression`: add the condition, e.g. `expression: \"Attempts >= 0\"`",
            );
            continue;
        };
        let level = match rc.level.as_deref().map(|l| (l, CheckLevel::parse(l))) {
            None => CheckLevel::Table,
            Some((_, Some(level))) => level,
            Some((l, None)) => {
                sink.report(
                    &rule_ids::CHECK,
                    Some(object),
                    format!(
                        "unknown level `{}`: write `table` (a table constraint, the default) or `column` (declared in the definition of the column the check is named after)",
                        l.escape_debug()
                    ),
                );
                continue;
            }
        };
        if level == CheckLevel::Column && !columns.contains(&name) {
            sink.report(
                &rule_ids::CHECK,
                Some(object),
                format!("a column-level check is named after its column (MariaDB names it so), and no column `{name}` is declared: name the check after one of the table's columns, or make it `level: table`"),
            );
            continue;
        }
        match crate::sqltext::render_check_expression(text, &columns) {
            Ok(expression) => out.push(Check {
                name,
                expression,
                enforced: rc.enforced.unwrap_or(true),
                level,
            }),
            Err(reason) => sink.report(
                &rule_ids::CHECK,
                Some(object),
                format!("expression `{}` {reason}", text.escape_debug()),
            ),
        }
    }
    out
}
