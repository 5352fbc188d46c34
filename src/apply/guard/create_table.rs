//! The CREATE TABLE of an `AddTable` step: a plain CREATE TABLE of the
//! step's table with exactly its columns in order, as many keys and
//! constraints as it declares, and exactly its foreign keys.

use sqlparser::ast::{CreateTable, TableConstraint};

use super::same_table;
use crate::ident::Ident;
use crate::model::Table;

/// The statement creates exactly `table`.
pub(super) fn check(ct: &CreateTable, table: &Table) -> Result<(), String> {
    same_table(&ct.name, &table.name)?;
    let plain = !ct.or_replace
        && !ct.temporary
        && !ct.if_not_exists
        && ct.query.is_none()
        && ct.like.is_none()
        && ct.clone.is_none();
    if !plain {
        return Err("is not a plain CREATE TABLE (TEMPORARY, OR REPLACE, IF NOT EXISTS, AS SELECT, LIKE or CLONE)".into());
    }
    let got: Vec<Ident> = ct
        .columns
        .iter()
        .map(|c| Ident::new(c.name.value.clone()))
        .collect();
    let want: Vec<Ident> = table.columns.iter().map(|c| c.name.clone()).collect();
    if got != want || got.iter().zip(&want).any(|(g, w)| g.as_str() != w.as_str()) {
        return Err(format!(
            "creates columns [{}], not the catalog's [{}]",
            names(&got),
            names(&want)
        ));
    }
    let keys = usize::from(!table.primary_key.is_empty())
        + table.indexes.len()
        + table.checks.len()
        + table.foreign_keys.len();
    // A column-level CHECK (MariaDB) is written in its column's
    // definition: counted with the table's items.
    let column_checks = ct
        .columns
        .iter()
        .flat_map(|c| &c.options)
        .filter(|o| matches!(o.option, sqlparser::ast::ColumnOption::Check(_)))
        .count();
    if ct.constraints.len() + column_checks != keys {
        return Err(format!(
            "declares {} keys or constraints, not the catalog's {keys}",
            ct.constraints.len() + column_checks
        ));
    }
    same_foreign_keys(&ct.constraints, &table.foreign_keys)
}

/// The statement's FOREIGN KEY constraints are exactly `want`, in order:
/// the same name, child columns, unqualified referenced table, referenced
/// columns and both actions (each written out).
fn same_foreign_keys(
    constraints: &[TableConstraint],
    want: &[crate::model::ForeignKey],
) -> Result<(), String> {
    use sqlparser::ast::ReferentialAction as A;
    let got: Vec<&sqlparser::ast::ForeignKeyConstraint> = constraints
        .iter()
        .filter_map(|c| match c {
            TableConstraint::ForeignKey(fk) => Some(fk),
            _ => None,
        })
        .collect();
    if got.len() != want.len() {
        return Err(format!(
            "declares {} foreign keys, not the catalog's {}",
            got.len(),
            want.len()
        ));
    }
    let same_names = |got: &[sqlparser::ast::Ident], want: &[Ident]| {
        got.len() == want.len() && got.iter().zip(want).all(|(g, w)| g.value == w.as_str())
    };
    let action = |a: Option<A>| match a {
        Some(A::Restrict) => Some(crate::model::ReferentialAction::Restrict),
        Some(A::Cascade) => Some(crate::model::ReferentialAction::Cascade),
        Some(A::SetNull) => Some(crate::model::ReferentialAction::SetNull),
        Some(A::NoAction) => Some(crate::model::ReferentialAction::NoAction),
        Some(A::SetDefault) => Some(crate::model::ReferentialAction::SetDefault),
        None => None,
    };
    for (g, w) in got.iter().zip(want) {
        let exact = g.name.as_ref().is_some_and(|n| n.value == w.name.as_str())
            && g.index_name.is_none()
            && g.match_kind.is_none()
            && g.characteristics.is_none()
            && same_names(&g.columns, &w.columns)
            && w.referenced_schema.is_none()
            && same_table(&g.foreign_table, &w.referenced_table).is_ok()
            && same_names(&g.referred_columns, &w.referenced_columns)
            && action(g.on_delete) == Some(w.on_delete)
            && action(g.on_update) == Some(w.on_update);
        if !exact {
            return Err(format!(
                "declares `{}`, not the catalog's foreign key `{}`",
                crate::sql::print::node(*g),
                w.name
            ));
        }
    }
    Ok(())
}

fn names(idents: &[Ident]) -> String {
    idents
        .iter()
        .map(|i| i.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::super::check_statement;
    use super::super::test_tables::{table, table_with_fk, FK};
    use crate::diff::Change;
    use crate::plan::Step;
    use crate::server::Flavor;

    /// A CREATE TABLE with foreign keys passes only with exactly the
    /// catalog's: the same text with any one part changed is refused.
    #[test]
    fn foreign_keys_must_be_exactly_the_catalogs() {
        let change = Change::AddTable(table_with_fk());
        let sql = Step::new(change.clone(), Flavor::MySql).sql;
        check_statement(&change, &sql, Flavor::MySql).unwrap();
        let good = FK;
        assert!(sql.contains(good), "{sql}");
        for bad in [
            "CONSTRAINT `fk_other` FOREIGN KEY (`Id`) REFERENCES `Parent` (`Id`) ON DELETE CASCADE ON UPDATE RESTRICT",
            "CONSTRAINT `fk_t_parent` FOREIGN KEY (`Note`) REFERENCES `Parent` (`Id`) ON DELETE CASCADE ON UPDATE RESTRICT",
            "CONSTRAINT `fk_t_parent` FOREIGN KEY (`Id`) REFERENCES `Other` (`Id`) ON DELETE CASCADE ON UPDATE RESTRICT",
            "CONSTRAINT `fk_t_parent` FOREIGN KEY (`Id`) REFERENCES `db`.`Parent` (`Id`) ON DELETE CASCADE ON UPDATE RESTRICT",
            "CONSTRAINT `fk_t_parent` FOREIGN KEY (`Id`) REFERENCES `Parent` (`Code`) ON DELETE CASCADE ON UPDATE RESTRICT",
            "CONSTRAINT `fk_t_parent` FOREIGN KEY (`Id`) REFERENCES `Parent` (`Id`) ON DELETE SET NULL ON UPDATE RESTRICT",
            "CONSTRAINT `fk_t_parent` FOREIGN KEY (`Id`) REFERENCES `Parent` (`Id`) ON DELETE CASCADE",
            "CONSTRAINT `fk_t_parent` FOREIGN KEY (`Id`) REFERENCES `Parent` (`Id`) ON DELETE CASCADE ON UPDATE CASCADE",
            "UNIQUE KEY `fk_t_parent` (`Id`)",
        ] {
            let sql = sql.replace(good, bad);
            assert!(check_statement(&change, &sql, Flavor::MySql).is_err(), "{sql}");
        }
        // One foreign key more than the catalog's is refused too.
        let plain = Change::AddTable(table());
        let two = Step::new(plain.clone(), Flavor::MySql).sql.replace(
            "PRIMARY KEY (`Id`)",
            &format!("PRIMARY KEY (`Id`),\n  {good}"),
        );
        assert!(
            check_statement(&plain, &two, Flavor::MySql).is_err(),
            "{two}"
        );
    }
}
