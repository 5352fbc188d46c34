//! The execution chokepoint's check: before a step's statement is sent, it
//! is parsed and must be exactly one statement of the kind the step says.
//!
//! - `AddTable(t)`: one `CREATE TABLE t (...)` (not temporary, no `OR
//!   REPLACE`, `IF NOT EXISTS`, `AS SELECT`, `LIKE` or `CLONE`) whose
//!   columns are exactly the catalog table's columns in order, whose keys
//!   and constraints are as many as the catalog's, and whose foreign keys
//!   are exactly the catalog's (name, columns, referenced table and
//!   columns, both actions).
//! - `AddColumn`: one `ALTER TABLE t ADD COLUMN c ...` plus only the online
//!   clauses (`ALGORITHM=...`, `LOCK=...`).
//! - `AddIndex`: one `ALTER TABLE t ADD [UNIQUE] INDEX i (...)` plus only the
//!   online clauses.
//! - `WidenColumn`: one `ALTER TABLE t MODIFY COLUMN c ...` (no position)
//!   plus only the online clauses.
//!
//! On TiDB a `CREATE TABLE` also carries the table's TiDB features in
//! TiDB's plain syntax (`AUTO_RANDOM(n)`, `CLUSTERED`, `SHARD_ROW_ID_BITS=n`,
//! `PRE_SPLIT_REGIONS=n`, `TTL=...`, `TTL_ENABLE=...`, `TTL_JOB_INTERVAL=...`;
//! see [`crate::model::TidbOptions`]): they are read by the one clause scanner and must
//! say exactly what the step's table declares (nothing for MySQL / MariaDB,
//! and nothing in an `ALTER TABLE`), then are taken out so that sqlparser,
//! which knows none of them, parses the rest.
//!
//! The statement is tokenized with MySQL's lexical rules first: a comment
//! (which MySQL may execute, `/*! ... */`, or TiDB, `/*T! ... */`) or a `;`
//! outside a literal is refused before parsing. Anything else is [`Error::UnsafeStatement`]: an
//! internal error that stops the run before the statement is sent.
//!
//! The parts: `create_table` checks a CREATE TABLE against the catalog
//! table (columns, key count, foreign keys), `alter_table` an ALTER TABLE's
//! one addition, `tidb_clauses` and `index_options` (index visibility, a FULLTEXT
//! parser, a FULLTEXT / SPATIAL key's comment) take out what sqlparser
//! cannot read after checking it against the step.

use crate::sql::lex::Token;
use sqlparser::ast::{ObjectName, Statement};
use sqlparser::dialect::MySqlDialect;
use sqlparser::parser::Parser;

use crate::diff::Change;
use crate::error::Error;
use crate::ident::Ident;
use crate::server::Flavor;

mod alter_table;
mod create_table;
mod index_options;
#[cfg(test)]
mod test_tables;
mod tidb_clauses;

use tidb_clauses::{expected_tidb, without_tidb_clauses};

/// Checks that `sql` is exactly the one statement `change` calls for on `flavor`.
pub fn check_statement(change: &Change, sql: &str, flavor: Flavor) -> Result<(), Error> {
    statement_problem(change, sql, flavor).map_err(|reason| Error::UnsafeStatement {
        table: change.table().to_string(),
        object: change.object().to_string(),
        reason,
    })
}

fn statement_problem(change: &Change, sql: &str, flavor: Flavor) -> Result<(), String> {
    let tokens = crate::sql::lex::tokens(sql)?;
    if tokens.iter().any(|t| matches!(t, Token::SemiColon)) {
        return Err("contains `;` outside a literal: more than one statement".into());
    }
    let tokens = without_tidb_clauses(tokens, &expected_tidb(change, flavor))?;
    let tokens = index_options::without_index_options(tokens, change)?;
    let mut statements = Parser::new(&MySqlDialect {})
        .with_tokens(tokens)
        .parse_statements()
        .map_err(|e| format!("does not parse as SQL: {e}"))?;
    if statements.len() != 1 {
        return Err(format!("is {} statements, not one", statements.len()));
    }
    let statement = statements.remove(0);
    match (change, statement) {
        (Change::AddTable(table), Statement::CreateTable(ct)) => create_table::check(&ct, table),
        (Change::AddColumn { table, column, .. }, Statement::AlterTable(at)) => {
            alter_table::adds_column(&at, table, column)
        }
        (Change::AddIndex { table, index }, Statement::AlterTable(at)) => {
            alter_table::adds_index(&at, table, index)
        }
        (Change::WidenColumn { table, column, .. }, Statement::AlterTable(at)) => {
            alter_table::modifies_column(&at, table, column)
        }
        (_, other) => Err(format!(
            "is a `{}` statement, not the step's {}",
            first_words(&crate::sql::print::node(&other)),
            change.kind()
        )),
    }
}

/// The name is exactly the step's table, unqualified (the session's schema).
fn same_table(name: &ObjectName, table: &Ident) -> Result<(), String> {
    match name.0.as_slice() {
        [part] if part.as_ident().is_some_and(|i| i.value == table.as_str()) => Ok(()),
        _ => Err(format!(
            "names table `{}`, not `{table}`",
            crate::sql::print::node(name)
        )),
    }
}

fn first_words(sql: &str) -> String {
    sql.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::test_tables::{index, table, v2_index, v2_table};
    use super::*;
    use crate::plan::Step;

    #[test]
    fn rendered_steps_pass() {
        let t = table();
        let changes = [
            Change::AddTable(t.clone()),
            Change::AddColumn {
                table: t.name.clone(),
                column: t.columns[1].clone(),
                after: Some(t.columns[0].name.clone()),
                defaults: t.defaults(),
            },
            Change::AddIndex {
                table: t.name.clone(),
                index: index("UNIQUE KEY `ix` (`Note`)"),
            },
            Change::AddIndex {
                table: t.name.clone(),
                index: index("KEY `ix2` (`Note`, `Id`)"),
            },
            Change::AddIndex {
                table: t.name.clone(),
                index: v2_index(false),
            },
            Change::AddIndex {
                table: t.name.clone(),
                index: v2_index(true),
            },
            Change::AddTable(v2_table()),
        ];
        for flavor in [Flavor::MariaDb, Flavor::MySql, Flavor::TiDb] {
            for change in &changes {
                let step = Step::new(change.clone(), flavor);
                check_statement(change, &step.sql, flavor)
                    .unwrap_or_else(|e| panic!("{}: {e}", step.sql));
            }
        }
    }

    /// A widening step is one MODIFY COLUMN of its column, in place, with
    /// only the online clauses.
    #[test]
    fn widen_steps_pass_and_nothing_else_does() {
        use crate::diff::{WidenAlgorithm, WidenRule, Widening};
        let t = table();
        for algorithm in [
            WidenAlgorithm::Instant,
            WidenAlgorithm::InplaceNoLock,
            WidenAlgorithm::TiDb,
        ] {
            let change = Change::WidenColumn {
                table: t.name.clone(),
                defaults: t.defaults(),
                column: t.columns[1].clone(),
                from: t.columns[1].clone(),
                how: Widening {
                    rule: WidenRule::VarcharLength,
                    algorithm,
                },
            };
            let step = Step::new(change.clone(), Flavor::MySql);
            assert!(step.sql.contains(" MODIFY COLUMN `Note` "), "{}", step.sql);
            check_statement(&change, &step.sql, Flavor::MySql)
                .unwrap_or_else(|e| panic!("{}: {e}", step.sql));
            for sql in [
                "ALTER TABLE `T` MODIFY COLUMN `Note` int FIRST, ALGORITHM=INSTANT",
                "ALTER TABLE `T` MODIFY COLUMN `Id` int, ALGORITHM=INSTANT",
                "ALTER TABLE `T` MODIFY COLUMN `Note` int, DROP COLUMN `Id`",
                "ALTER TABLE `T` ADD COLUMN `Note` int",
                "ALTER TABLE `U` MODIFY COLUMN `Note` int",
            ] {
                assert!(
                    check_statement(&change, sql, Flavor::MySql).is_err(),
                    "{sql}"
                );
            }
        }
    }

    #[test]
    fn anything_else_is_refused() {
        let t = table();
        let create = Change::AddTable(t.clone());
        let add_col = Change::AddColumn {
            table: t.name.clone(),
            column: t.columns[1].clone(),
            after: None,
            defaults: t.defaults(),
        };
        let add_idx = Change::AddIndex {
            table: t.name.clone(),
            index: index("KEY `ix` (`Note`)"),
        };
        for (change, sql) in [
            (
                &create,
                "CREATE TABLE `T` (`Id` int, `Note` int) ENGINE=InnoDB; DROP TABLE keepme",
            ),
            (
                &create,
                "CREATE TABLE `T` (`Id` int, `Note` int) /*! , x int */",
            ),
            (&create, "CREATE TABLE `T` (`Id` int, `Note` int, `x` int)"),
            (
                &create,
                "CREATE TABLE `T` (`Id` int, `Note` int, PRIMARY KEY (`Id`), CHECK (1 = 0))",
            ),
            (&create, "CREATE TABLE `U` (`Id` int, `Note` int)"),
            (&create, "CREATE TABLE `other`.`T` (`Id` int, `Note` int)"),
            (
                &create,
                "CREATE TABLE IF NOT EXISTS `T` (`Id` int, `Note` int)",
            ),
            (&create, "CREATE TEMPORARY TABLE `T` (`Id` int, `Note` int)"),
            (&create, "CREATE TABLE `T` AS SELECT 1 AS `Id`, 2 AS `Note`"),
            (&create, "DROP TABLE `T`"),
            (
                &add_col,
                "ALTER TABLE `T` ADD COLUMN `Note` int, DROP COLUMN `Id`",
            ),
            (&add_col, "ALTER TABLE `T` ADD COLUMN `Other` int"),
            (&add_col, "ALTER TABLE `T` ADD COLUMN `Note` int -- x"),
            (&add_col, "ALTER TABLE `T` DROP COLUMN `Note`"),
            (
                &add_idx,
                "ALTER TABLE `T` ADD INDEX `ix` (`Note`), ADD INDEX `iy` (`Note`)",
            ),
            (&add_idx, "ALTER TABLE `T` ADD UNIQUE INDEX `ix` (`Note`)"),
            (&add_idx, "ALTER TABLE `T` ADD INDEX `iz` (`Note`)"),
            (&add_idx, "ALTER TABLE `T` DROP INDEX `ix`"),
            (
                &add_idx,
                "ALTER TABLE `T` ADD INDEX `ix` (`Note`) INVISIBLE",
            ),
            (&add_idx, ""),
        ] {
            assert!(
                check_statement(change, sql, Flavor::MySql).is_err(),
                "{sql}"
            );
        }
    }
}
