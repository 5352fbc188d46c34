//! `tidb-check`: a CHECK constraint in a catalog that targets TiDB is an
//! error unless catalog.yaml declares `tidb: { check_constraints: enforced }`.
//! TiDB 7.2+ keeps a CHECK only while the GLOBAL variable
//! `tidb_enable_check_constraint` is ON (default OFF); with it OFF, CREATE
//! TABLE succeeds and drops the clause with warning 1105 (TiDB docs,
//! "Constraints", CHECK: <https://docs.pingcap.com/tidb/stable/constraints#check>).
//! The declaration is the catalog's promise that its TiDB servers run with
//! it ON; `catalog apply` on TiDB reads the variable before any DDL and
//! refuses when it is OFF (`apply/tidb_checks.rs`). Written from TiDB's
//! documentation: no TiDB server can be run here, so it is unit-tested
//! only.

use crate::catalog::rule_ids::TIDB_CHECK;
use crate::catalog::sink::Sink;
use crate::model::Table;

use super::Context;

use crate::catalog::fixes::TIDB_CHECK_FIX as FIX;

pub(in crate::catalog) fn check(table: &Table, ctx: &Context<'_>, sink: &mut Sink) {
    if ctx.settings.tidb_check_constraints_enforced {
        return;
    }
    let Some(setting) = ctx
        .defaults
        .flavors
        .iter()
        .find_map(|f| f.check_needs_setting())
    else {
        return;
    };
    for c in &table.checks {
        sink.report(
            &TIDB_CHECK,
            Some(format!("check `{}`", c.name)),
            format!("TiDB drops a CHECK while `{setting}` is OFF (its default; warning 1105), so the table would not hold it: {FIX}"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::findings;

    const T: &str = "table: T\ncolumns:\n  - {name: Id, type: bigint, nullable: false}\nprimary_key: [Id]\nchecks:\n  - {name: chk_id, expression: Id > 0}\n";

    #[test]
    fn a_check_on_a_tidb_catalog_fails_unless_declared_enforced() {
        let found = findings("tidb-check", "", T);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].severity, crate::catalog::Severity::Error);
        assert_eq!((found[0].line, found[0].column), (Some(6), Some(20)));
        assert!(findings("tidb-check", "tidb: {check_constraints: enforced}\n", T).is_empty());
        assert!(findings("tidb-check", "flavors: [mysql, mariadb]\n", T).is_empty());
    }

    #[test]
    fn only_enforced_is_a_declaration() {
        let found = findings("settings", "tidb: {check_constraints: on}\n", T);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].object.as_deref(), Some("tidb.check_constraints"));
    }
}
