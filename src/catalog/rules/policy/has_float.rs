//! `has-float`: FLOAT and DOUBLE hold approximate values (MySQL 8.4
//! manual, 13.1.4 "Floating-Point Types (Approximate Value)": "comparisons
//! may lead to problems"); money, counts and quantities belong in DECIMAL.
//! A warning: scientific values are fine as floats; set it `off` then.

use crate::catalog::rule_ids::HAS_FLOAT;
use crate::catalog::sink::Sink;
use crate::coltype::ColumnType;
use crate::model::Table;

use super::Context;

use crate::catalog::fixes::HAS_FLOAT_FIX as FIX;

pub(in crate::catalog) fn check(table: &Table, _: &Context<'_>, sink: &mut Sink) {
    for c in &table.columns {
        if matches!(c.ty, ColumnType::Float | ColumnType::Double) {
            sink.report(
                &HAS_FLOAT,
                Some(format!("column `{}`", c.name)),
                format!(
                    "{} stores approximate values: equality and sums drift; {FIX}",
                    c.ty
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::findings;

    #[test]
    fn float_and_double_fail_decimal_passes() {
        let t = "table: T\ncolumns:\n  - {name: Id, type: bigint, nullable: false}\n  - {name: Price, type: double}\n  - {name: Ratio, type: float}\nprimary_key: [Id]\n";
        let found = findings("has-float", "", t);
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!((found[0].line, found[0].column), (Some(4), Some(19)));
        let fixed = t
            .replace("double", "decimal(12,2)")
            .replace("float", "decimal(5,4)");
        assert!(findings("has-float", "", &fixed).is_empty());
    }
}
