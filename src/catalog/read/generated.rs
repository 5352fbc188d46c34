//! A column's `generated: {expression, stored}`: the expression parsed into
//! exactly one expression and re-rendered by the closed renderer
//! ([`crate::sqltext::render_generated_expression`]), naming only the
//! table's declared columns, and the rules the servers enforce on it.
//!
//! Verified live on MariaDB 10.11 and MySQL 9.7: a generated column has no
//! default, AUTO_INCREMENT or ON UPDATE; it may name only generated columns
//! declared before it (MariaDB 4029, MySQL 3107) and not itself; MariaDB
//! refuses NULL / NOT NULL on it (its generated columns are always
//! nullable). What its expression may call or name per flavor (an
//! AUTO_INCREMENT column, NOW(), a variable) is `catalog::rules::refused`'s.

use crate::ident::Ident;
use crate::model::Generated;
use crate::sqltext;

use crate::catalog::read::declared::Declared;
use crate::catalog::read::raw::RawGenerated;
use crate::catalog::rule_ids;
use crate::catalog::sink::Sink;

/// Lints every declared `generated` (`raw[i]` belongs to `declared[i]`) and
/// sets the sound ones on their columns.
pub(in crate::catalog) fn lint_generated(
    raw: Vec<Option<RawGenerated>>,
    declared: &mut [Declared],
    sink: &mut Sink,
) {
    let names: Vec<Ident> = declared.iter().map(|d| d.ident.clone()).collect();
    let is_generated: Vec<bool> = raw.iter().map(Option::is_some).collect();
    for (pos, rg) in raw.into_iter().enumerate() {
        let Some(rg) = rg else { continue };
        let object = Some(format!("column `{}`", declared[pos].ident));
        let mut error =
            |message: String| sink.report(&rule_ids::GENERATED, object.clone(), message);
        let Some(text) = rg.expression.as_deref() else {
            error("`generated` has no `expression`: add the computation, e.g. `generated: {expression: \"lower(Email)\"}`".into());
            continue;
        };
        let expression = match sqltext::render_generated_expression(text, &names) {
            Ok(e) => e,
            Err(reason) => {
                error(format!(
                    "generated expression `{}` {reason}",
                    text.escape_debug()
                ));
                continue;
            }
        };
        let Some(column) = declared[pos].column.as_ref() else {
            continue; // its type is unknown, reported on the column
        };
        if column.default.is_some() {
            error(
                "a generated column has no default (the servers refuse one): remove `default`"
                    .into(),
            );
        }
        if column.auto_increment {
            error("a generated column cannot be auto_increment: remove `auto_increment`".into());
        }
        if column.on_update.is_some() {
            error("a generated column has no ON UPDATE (its value is its expression): remove `on_update`".into());
        }
        for name in crate::catalog::rules::expr_facts::columns(&expression) {
            let Some(at) = names.iter().position(|n| *n == name) else {
                continue;
            };
            if declared[at].column.is_none() {
                continue;
            }
            if at == pos {
                error(format!("generated expression names the column itself (`{name}`): compute it from other columns"));
            } else if at > pos && is_generated[at] {
                error(format!("generated expression names `{name}`, a generated column declared after this one: the servers refuse that (declare `{name}` first)"));
            }
        }
        if let Some(column) = declared[pos].column.as_mut() {
            column.generated = Some(Generated {
                expression,
                stored: rg.stored,
            });
        }
    }
}
