//! The `checks` of one table file: named CHECK constraints, each condition
//! parsed into exactly one expression and re-rendered by the closed
//! renderer ([`crate::sqltext::render_check_expression`]), naming only the
//! table's declared columns.

use crate::ident::Ident;
use crate::model::Check;

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
        match crate::sqltext::render_check_expression(text, &columns) {
            Ok(expression) => out.push(Check {
                name,
                expression,
                enforced: rc.enforced.unwrap_or(true),
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
