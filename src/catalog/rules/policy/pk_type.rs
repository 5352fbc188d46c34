//! `pk-type`: an auto_increment primary-key column is an integer at least
//! as wide as `lint: min_pk_type` (default `bigint`). An `int` key runs out
//! at 2,147,483,647 (4,294,967,295 unsigned) and widening it later is a
//! table rebuild; Spirit's lint asks for BIGINT for the same reason. Keys
//! the application assigns (a lookup table's tinyint) are its own choice
//! and not checked.

use crate::catalog::rule_ids::PK_TYPE;
use crate::catalog::sink::Sink;
use crate::coltype::{ColumnType, IntKind};
use crate::model::Table;

use super::Context;

use crate::catalog::fixes::PK_TYPE_FIX as FIX;

/// The type name `min_pk_type` is written with.
pub(in crate::catalog) fn parse_min(text: &str) -> Option<IntKind> {
    match text.trim().to_ascii_lowercase().as_str() {
        "tinyint" => Some(IntKind::Tiny),
        "smallint" => Some(IntKind::Small),
        "mediumint" => Some(IntKind::Medium),
        "int" | "integer" => Some(IntKind::Int),
        "bigint" => Some(IntKind::Big),
        _ => None,
    }
}

pub(in crate::catalog) fn check(table: &Table, ctx: &Context<'_>, sink: &mut Sink) {
    let min = ctx.settings.min_pk_type;
    for name in table.primary_key.iter().filter_map(|p| p.column_name()) {
        let Some(column) = table.column(name) else {
            continue;
        };
        let ColumnType::Int { kind, .. } = column.ty else {
            continue;
        };
        if column.auto_increment && kind < min {
            let (_, max) = kind.range(matches!(column.ty, ColumnType::Int { unsigned: true, .. }));
            sink.report(
                &PK_TYPE,
                Some(format!("column `{}`", column.name)),
                format!(
                    "the auto_increment primary key is {}, which runs out at {max}; the catalog asks for at least {}: {FIX}",
                    column.ty,
                    ColumnType::Int { kind: min, unsigned: false }
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::findings;

    const INT_KEY: &str = "table: T\ncolumns:\n  - {name: Id, type: int unsigned, nullable: false, auto_increment: true}\nprimary_key: [Id]\n";

    #[test]
    fn a_narrow_auto_increment_key_fails_a_wide_one_passes() {
        let found = findings("pk-type", "", INT_KEY);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].message.contains("4294967295"),
            "{}",
            found[0].message
        );
        assert_eq!((found[0].line, found[0].column), (Some(3), Some(16)));
        assert!(findings(
            "pk-type",
            "",
            &INT_KEY.replace("int unsigned", "bigint unsigned")
        )
        .is_empty());
        // The option lowers the bar.
        assert!(findings("pk-type", "lint: {min_pk_type: int}\n", INT_KEY).is_empty());
        // A key the application assigns is not checked.
        let assigned = INT_KEY.replace(", auto_increment: true", "");
        assert!(findings("pk-type", "", &assigned).is_empty());
    }

    #[test]
    fn an_unknown_min_pk_type_is_a_settings_error() {
        let found = findings("settings", "lint:\n  min_pk_type: huge\n", INT_KEY);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!((found[0].line, found[0].column), (Some(2), Some(3)));
        assert_eq!(found[0].object.as_deref(), Some("lint.min_pk_type"));
    }
}
