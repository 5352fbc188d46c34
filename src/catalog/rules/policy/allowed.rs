//! `allowed-charset` and `allowed-collation`: the table's and each
//! column's charset and collation are in `lint: allowed_charsets` and
//! `lint: allowed_collations` (empty lists, the default: anything the
//! `charset` rule accepts). A column is reported only where it differs
//! from its table, so one table-wide choice is one finding.

use crate::catalog::rule_ids::{ALLOWED_CHARSET, ALLOWED_COLLATION};
use crate::catalog::sink::Sink;
use crate::finding::lint::Rule;
use crate::model::Table;

use super::Context;

use crate::catalog::fixes::ALLOWED_FIX as FIX;

fn check_one(
    table: &Table,
    sink: &mut Sink,
    rule: &Rule,
    allowed: &[String],
    key: &str,
    get: fn(Option<&String>, Option<&String>) -> Option<String>,
) {
    if allowed.is_empty() {
        return;
    }
    let ok = |v: &str| allowed.iter().any(|a| a.eq_ignore_ascii_case(v));
    let list = allowed.join(", ");
    let table_value = get(Some(&table.charset), Some(&table.collation)).unwrap_or_default();
    if !ok(&table_value) {
        sink.report(
            rule,
            None,
            format!("the table's {key} `{table_value}` is not in `lint: allowed_{key}s` ({list}): {FIX}"),
        );
    }
    for c in &table.columns {
        let Some(value) = get(c.charset.as_ref(), c.collation.as_ref()) else {
            continue;
        };
        if !value.eq_ignore_ascii_case(&table_value) && !ok(&value) {
            sink.report(
                rule,
                Some(format!("column `{}`", c.name)),
                format!("{key} `{value}` is not in `lint: allowed_{key}s` ({list}): {FIX}"),
            );
        }
    }
}

pub(in crate::catalog) fn check_charsets(table: &Table, ctx: &Context<'_>, sink: &mut Sink) {
    check_one(
        table,
        sink,
        &ALLOWED_CHARSET,
        &ctx.settings.allowed_charsets,
        "charset",
        |cs, _| cs.cloned(),
    );
}

pub(in crate::catalog) fn check_collations(table: &Table, ctx: &Context<'_>, sink: &mut Sink) {
    check_one(
        table,
        sink,
        &ALLOWED_COLLATION,
        &ctx.settings.allowed_collations,
        "collation",
        |_, co| co.cloned(),
    );
}

#[cfg(test)]
mod tests {
    use super::super::test_support::findings;

    const TABLE: &str = "table: T\ncolumns:\n  - {name: Id, type: bigint, nullable: false}\n  - {name: Name, type: varchar(64)}\n  - {name: Code, type: char(8), collation: ascii_bin}\nprimary_key: [Id]\n";

    #[test]
    fn a_charset_outside_the_list_fails() {
        let found = findings(
            "allowed-charset",
            "lint: {allowed_charsets: [utf8mb4]}\n",
            TABLE,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].object.as_deref(), Some("column `Code`"));
        assert_eq!((found[0].line, found[0].column), (Some(5), Some(33)));
        assert!(findings(
            "allowed-charset",
            "lint: {allowed_charsets: [utf8mb4, ascii]}\n",
            TABLE
        )
        .is_empty());
        assert!(findings("allowed-charset", "", TABLE).is_empty());
        // The table's own charset is reported once, at the top.
        let found = findings(
            "allowed-charset",
            "lint: {allowed_charsets: [ascii]}\n",
            TABLE,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].object, None);
    }

    #[test]
    fn a_collation_outside_the_list_fails() {
        let found = findings(
            "allowed-collation",
            "lint: {allowed_collations: [utf8mb4_bin]}\n",
            TABLE,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].object.as_deref(), Some("column `Code`"));
        assert!(findings(
            "allowed-collation",
            "lint: {allowed_collations: [utf8mb4_bin, ascii_bin]}\n",
            TABLE
        )
        .is_empty());
    }
}
