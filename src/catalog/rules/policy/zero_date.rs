//! `zero-date`: a date, datetime or timestamp default with a zero month or
//! day ('0000-00-00'). MySQL and TiDB refuse it under their default
//! sql_mode (NO_ZERO_DATE, NO_ZERO_IN_DATE; error 1067), which the
//! `flavor` rule reports when the catalog targets them; this rule covers a
//! MariaDB-only catalog, where it is accepted but is not a date: it sorts
//! before every real one, most drivers cannot read it, and the catalog
//! stops being portable.

use crate::catalog::rule_ids::ZERO_DATE;
use crate::catalog::sink::Sink;
use crate::coltype::ColumnType;
use crate::model::{DefaultValue, Table};
use crate::server::Flavor;

use super::Context;

use crate::catalog::fixes::ZERO_DATE_FIX as FIX;

pub(in crate::catalog) fn check(table: &Table, ctx: &Context<'_>, sink: &mut Sink) {
    // Where `flavor` already refuses it, one finding is enough.
    let refused = ctx
        .defaults
        .flavors
        .iter()
        .any(|f: &Flavor| !f.accepts_zero_dates());
    if refused {
        return;
    }
    for c in &table.columns {
        let dated = matches!(
            c.ty,
            ColumnType::Date | ColumnType::DateTime(_) | ColumnType::Timestamp(_)
        );
        if let (true, Some(DefaultValue::Literal(v))) = (dated, &c.default) {
            if crate::catalog::rules::flavored::has_zero_date_part(v) {
                sink.report(
                    &ZERO_DATE,
                    Some(format!("column `{}`", c.name)),
                    format!("default '{v}' has a zero month or day: it is no date (MySQL and TiDB refuse it, error 1067); {FIX}"),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::findings;

    const T: &str = "table: T\ncolumns:\n  - {name: Id, type: bigint, nullable: false}\n  - {name: At, type: datetime, nullable: false, default: \"'0000-00-00 00:00:00'\"}\nprimary_key: [Id]\n";

    #[test]
    fn a_zero_date_default_fails_on_a_mariadb_catalog() {
        let found = findings("zero-date", "flavors: [mariadb]\n", T);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!((found[0].line, found[0].column), (Some(4), Some(49)));
        let fixed = T.replace("0000-00-00 00:00:00", "1970-01-02 00:00:00");
        assert!(findings("zero-date", "flavors: [mariadb]\n", &fixed).is_empty());
    }

    #[test]
    fn where_flavor_refuses_it_there_is_one_finding() {
        assert!(findings("zero-date", "", T).is_empty());
        assert_eq!(findings("flavor", "", T).len(), 1);
    }
}
