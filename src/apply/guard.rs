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
//!
//! On TiDB a `CREATE TABLE` also carries the table's TiDB features in
//! TiDB's plain syntax (`AUTO_RANDOM(n)`, `CLUSTERED`, `SHARD_ROW_ID_BITS=n`,
//! `PRE_SPLIT_REGIONS=n`, `TTL=...`, `TTL_ENABLE=...`, `TTL_JOB_INTERVAL=...`;
//! see [`crate::tidb`]): they are read by the one clause scanner and must
//! say exactly what the step's table declares (nothing for MySQL / MariaDB,
//! and nothing in an `ALTER TABLE`), then are taken out so that sqlparser,
//! which knows none of them, parses the rest.
//!
//! The statement is tokenized with MySQL's lexical rules first: a comment
//! (which MySQL may execute, `/*! ... */`, or TiDB, `/*T! ... */`) or a `;`
//! outside a literal is refused before parsing. Anything else is [`Error::UnsafeStatement`]: an
//! internal error that stops the run before the statement is sent.

use sqlparser::ast::{AlterTableOperation, ObjectName, Statement, TableConstraint};
use sqlparser::dialect::MySqlDialect;
use sqlparser::parser::Parser;
use sqlparser::tokenizer::Token;

use crate::diff::Change;
use crate::error::Error;
use crate::flavor::Flavor;
use crate::ident::Ident;
use crate::sqltext;
use crate::tidb::scan::{self, Tok};
use crate::tidb::TidbOptions;

/// Checks that `sql` is exactly the one statement `change` calls for on `flavor`.
pub fn check_statement(change: &Change, sql: &str, flavor: Flavor) -> Result<(), Error> {
    statement_problem(change, sql, flavor).map_err(|reason| Error::UnsafeStatement {
        table: change.table().to_string(),
        object: change.object().to_string(),
        reason,
    })
}

fn statement_problem(change: &Change, sql: &str, flavor: Flavor) -> Result<(), String> {
    let tokens = sqltext::tokens(sql)?;
    if tokens.iter().any(|t| matches!(t, Token::SemiColon)) {
        return Err("contains `;` outside a literal: more than one statement".into());
    }
    let tokens = without_tidb_clauses(tokens, &expected_tidb(change, flavor))?;
    let tokens = without_visibility(tokens, invisible_indexes(change))?;
    let mut statements = Parser::new(&MySqlDialect {})
        .with_tokens(tokens)
        .parse_statements()
        .map_err(|e| format!("does not parse as SQL: {e}"))?;
    if statements.len() != 1 {
        return Err(format!("is {} statements, not one", statements.len()));
    }
    let statement = statements.remove(0);
    match (change, statement) {
        (Change::AddTable(table), Statement::CreateTable(ct)) => {
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
            if ct.constraints.len() != keys {
                return Err(format!(
                    "declares {} keys or constraints, not the catalog's {keys}",
                    ct.constraints.len()
                ));
            }
            same_foreign_keys(&ct.constraints, &table.foreign_keys)
        }
        (Change::AddColumn { table, column, .. }, Statement::AlterTable(at)) => {
            same_table(&at.name, table)?;
            let added = one_addition(at.if_exists, &at.operations)?;
            match added {
                AlterTableOperation::AddColumn {
                    if_not_exists: false,
                    column_def,
                    ..
                } if column_def.name.value == column.name.as_str() => Ok(()),
                other => Err(format!("adds `{other}`, not column `{}`", column.name)),
            }
        }
        (Change::AddIndex { table, index }, Statement::AlterTable(at)) => {
            same_table(&at.name, table)?;
            let added = one_addition(at.if_exists, &at.operations)?;
            let name = match added {
                AlterTableOperation::AddConstraint {
                    constraint: TableConstraint::Unique(u),
                    ..
                } if index.unique && u.name.is_none() => u.index_name.as_ref(),
                AlterTableOperation::AddConstraint {
                    constraint: TableConstraint::Index(i),
                    ..
                } if !index.unique => i.name.as_ref(),
                _ => None,
            };
            match name {
                Some(n) if n.value == index.name.as_str() => Ok(()),
                _ => Err(format!("adds `{added}`, not index `{}`", index.name)),
            }
        }
        (_, other) => Err(format!(
            "is a `{}` statement, not the step's {}",
            first_words(&other.to_string()),
            change.kind()
        )),
    }
}

/// The TiDB features the statement must carry: the new table's on TiDB,
/// none otherwise.
fn expected_tidb(change: &Change, flavor: Flavor) -> TidbOptions {
    match change {
        Change::AddTable(t) if flavor == Flavor::TiDb => t.tidb.clone().unwrap_or_default(),
        _ => TidbOptions::default(),
    }
}

/// Reads the TiDB clauses with the one scanner, requires that they declare
/// exactly `expected`, and takes them out.
fn without_tidb_clauses(tokens: Vec<Token>, expected: &TidbOptions) -> Result<Vec<Token>, String> {
    let toks: Vec<Tok<'_>> = tokens.iter().map(scan_tok).collect();
    let found = scan::scan(&toks)?;
    let got = scan::fold(&found)?;
    let mut want = expected.clone();
    want.normalize();
    if got != want {
        return Err(format!(
            "declares TiDB features [{}], not the step's [{}]",
            got.declared().join(", "),
            want.declared().join(", ")
        ));
    }
    let mut cut = vec![false; tokens.len()];
    for f in &found {
        cut[f.range.clone()].iter_mut().for_each(|c| *c = true);
    }
    Ok(tokens
        .into_iter()
        .zip(cut)
        .filter(|(_, cut)| !cut)
        .map(|(t, _)| t)
        .collect())
}

/// A MySQL token as the TiDB clause scanner sees it.
fn scan_tok(t: &Token) -> Tok<'_> {
    match t {
        Token::Word(w) if w.quote_style == Some('`') => Tok::Ident(&w.value),
        Token::Word(w) if w.quote_style.is_none() => Tok::Word(&w.value),
        Token::Number(n, _) => Tok::Word(n),
        Token::SingleQuotedString(s) => Tok::Str(s),
        Token::Whitespace(_) => Tok::Space,
        Token::LParen => Tok::Punct('('),
        Token::RParen => Tok::Punct(')'),
        Token::Comma => Tok::Punct(','),
        Token::Eq => Tok::Punct('='),
        Token::Plus => Tok::Punct('+'),
        _ => Tok::Punct('#'),
    }
}

/// How many indexes the step declares invisible / ignored.
fn invisible_indexes(change: &Change) -> usize {
    match change {
        Change::AddTable(t) => t.indexes.iter().filter(|i| !i.visible).count(),
        Change::AddIndex { index, .. } => usize::from(!index.visible),
        Change::AddColumn { .. } => 0,
    }
}

/// sqlparser has no index visibility option: takes out each `INVISIBLE` /
/// `IGNORED` word written right after an index's key-part list (a `)`
/// or its COMMENT literal, followed by `,`, `)` or the end), requiring exactly as many as the step
/// declares, so that the rest parses and is checked as usual.
fn without_visibility(tokens: Vec<Token>, expected: usize) -> Result<Vec<Token>, String> {
    let is_visibility = |t: &Token| {
        matches!(t, Token::Word(w) if w.quote_style.is_none()
            && (w.value.eq_ignore_ascii_case("INVISIBLE") || w.value.eq_ignore_ascii_case("IGNORED")))
    };
    let significant = |t: &Token| !matches!(t, Token::Whitespace(_));
    let mut out: Vec<Token> = Vec::with_capacity(tokens.len());
    let mut removed = 0;
    for (i, t) in tokens.iter().enumerate() {
        if is_visibility(t) {
            let before = out.iter().rev().find(|t| significant(t));
            let after = tokens[i + 1..].iter().find(|t| significant(t));
            // After the key parts, or after the index's COMMENT '...'.
            let placed = matches!(before, Some(Token::RParen | Token::SingleQuotedString(_)))
                && matches!(
                    after,
                    None | Some(Token::Comma | Token::RParen | Token::EOF)
                );
            if placed {
                removed += 1;
                continue;
            }
        }
        out.push(t.clone());
    }
    if removed != expected {
        return Err(format!(
            "marks {removed} indexes invisible / ignored, not the step's {expected}"
        ));
    }
    Ok(out)
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
                "declares `{g}`, not the catalog's foreign key `{}`",
                w.name
            ));
        }
    }
    Ok(())
}

/// The name is exactly the step's table, unqualified (the session's schema).
fn same_table(name: &ObjectName, table: &Ident) -> Result<(), String> {
    match name.0.as_slice() {
        [part] if part.as_ident().is_some_and(|i| i.value == table.as_str()) => Ok(()),
        _ => Err(format!("names table `{name}`, not `{table}`")),
    }
}

/// The one ADD of an ALTER TABLE whose other operations are online clauses.
fn one_addition(
    if_exists: bool,
    operations: &[AlterTableOperation],
) -> Result<&AlterTableOperation, String> {
    if if_exists {
        return Err("uses ALTER TABLE IF EXISTS".into());
    }
    let mut additions = operations.iter().filter(|op| {
        !matches!(
            op,
            AlterTableOperation::Algorithm { .. } | AlterTableOperation::Lock { .. }
        )
    });
    match (additions.next(), additions.next()) {
        (Some(op), None) => Ok(op),
        (None, _) => Err("adds nothing".into()),
        (Some(_), Some(second)) => Err(format!("does more than one thing: also `{second}`")),
    }
}

fn names(idents: &[Ident]) -> String {
    idents
        .iter()
        .map(|i| i.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn first_words(sql: &str) -> String {
    sql.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coltype::ColumnType;
    use crate::flavor::Flavor;
    use crate::model::{Column, Index, Table};
    use crate::plan::Step;

    fn table() -> Table {
        let mut t = Table::not_a_table("T".into(), "");
        t.kind = crate::model::TableKind::Base;
        let mut id = Column::new("Id", ColumnType::parse("bigint unsigned").unwrap());
        id.nullable = false;
        t.columns = vec![id, Column::new("Note", ColumnType::Varchar(8))];
        t.primary_key = vec![crate::model::IndexPart::column("Id")];
        t.charset = "utf8mb4".into();
        t.collation = "utf8mb4_bin".into();
        t.engine = Some("InnoDB".into());
        t
    }

    /// Format v2 shapes: a descending part, a declared prefix, an expression,
    /// invisible.
    fn v2_index(unique: bool) -> Index {
        let mut i = Index::new(if unique { "uq_v2" } else { "ix_v2" }, unique, &[]);
        i.parts = vec![
            crate::model::IndexPart::Column {
                name: "Note".into(),
                prefix: Some(4),
                descending: true,
            },
            crate::model::IndexPart::Expression("lower(`Note`)".into()),
        ];
        i.visible = false;
        i
    }

    fn v2_table() -> Table {
        let mut t = table();
        t.checks = vec![crate::model::Check {
            name: "chk_note".into(),
            expression: "`Note` <> ''".into(),
        }];
        t.indexes = vec![v2_index(false), v2_index(true), {
            let mut ft = Index::new("ft", false, &["Note"]);
            ft.kind = crate::model::IndexKind::FullText;
            ft
        }];
        t.foreign_keys = vec![fk()];
        t
    }

    fn fk() -> crate::model::ForeignKey {
        crate::model::ForeignKey {
            name: "fk_t_parent".into(),
            columns: vec!["Id".into()],
            referenced_schema: None,
            referenced_table: "Parent".into(),
            referenced_columns: vec!["Id".into()],
            on_delete: crate::model::ReferentialAction::Cascade,
            on_update: crate::model::ReferentialAction::Restrict,
        }
    }

    /// A CREATE TABLE with foreign keys passes only with exactly the
    /// catalog's: the same text with any one part changed is refused.
    #[test]
    fn foreign_keys_must_be_exactly_the_catalogs() {
        let mut t = table();
        t.foreign_keys = vec![fk()];
        let change = Change::AddTable(t.clone());
        let sql = Step::new(change.clone(), Flavor::MySql).sql;
        check_statement(&change, &sql, Flavor::MySql).unwrap();
        let good = "CONSTRAINT `fk_t_parent` FOREIGN KEY (`Id`) REFERENCES `Parent` (`Id`) ON DELETE CASCADE ON UPDATE RESTRICT";
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

    #[test]
    fn rendered_steps_pass() {
        let t = table();
        let changes = [
            Change::AddTable(t.clone()),
            Change::AddColumn {
                table: t.name.clone(),
                column: t.columns[1].clone(),
                after: Some(t.columns[0].name.clone()),
            },
            Change::AddIndex {
                table: t.name.clone(),
                index: Index::new("ix", true, &["Note"]),
            },
            Change::AddIndex {
                table: t.name.clone(),
                index: Index::new("ix2", false, &["Note", "Id"]),
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

    #[test]
    fn anything_else_is_refused() {
        let t = table();
        let create = Change::AddTable(t.clone());
        let add_col = Change::AddColumn {
            table: t.name.clone(),
            column: t.columns[1].clone(),
            after: None,
        };
        let add_idx = Change::AddIndex {
            table: t.name.clone(),
            index: Index::new("ix", false, &["Note"]),
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

    /// A table with every TiDB feature: `Id` auto_random on a clustered
    /// key, a TTL on `At`.
    fn tidb_table() -> Table {
        let mut t = table();
        t.columns[0].ty = ColumnType::parse("bigint").unwrap();
        t.columns.push(Column::new("At", ColumnType::DateTime(6)));
        t.tidb = Some(crate::tidb::TidbOptions {
            clustered: Some(true),
            auto_random: Some(crate::tidb::AutoRandom {
                column: "Id".into(),
                shard_bits: 5,
                range: 54,
            }),
            pre_split_regions: Some(3),
            ttl: Some(crate::tidb::Ttl {
                column: "At".into(),
                interval: crate::tidb::TtlInterval::parse("30 DAY").unwrap(),
                enabled: true,
                job_interval: Some("1h".into()),
            }),
            ..Default::default()
        });
        t
    }

    #[test]
    fn tidb_clauses_are_exactly_the_tables_on_tidb_only() {
        let t = tidb_table();
        let create = Change::AddTable(t.clone());
        let tidb_sql = Step::new(create.clone(), Flavor::TiDb).sql;
        assert!(tidb_sql.contains("AUTO_RANDOM(5, 54)"), "{tidb_sql}");
        check_statement(&create, &tidb_sql, Flavor::TiDb).unwrap();
        for flavor in [Flavor::MySql, Flavor::MariaDb] {
            let sql = Step::new(create.clone(), flavor).sql;
            assert!(
                !sql.contains("AUTO_RANDOM") && !sql.contains("TTL"),
                "{sql}"
            );
            check_statement(&create, &sql, flavor).unwrap();
            // The TiDB statement is refused for the other flavors.
            assert!(check_statement(&create, &tidb_sql, flavor).is_err());
        }
        for (from, to) in [
            ("AUTO_RANDOM(5, 54)", "AUTO_RANDOM(6, 54)"),
            ("AUTO_RANDOM(5, 54)", ""),
            (") CLUSTERED", ") NONCLUSTERED"),
            ("INTERVAL 30 DAY", "INTERVAL 3 DAY"),
            ("TTL_ENABLE='ON'", "TTL_ENABLE='OFF'"),
            (
                "PRE_SPLIT_REGIONS=3",
                "PRE_SPLIT_REGIONS=3 SHARD_ROW_ID_BITS=2",
            ),
            ("TTL_JOB_INTERVAL='1h'", "/*T! TTL_JOB_INTERVAL='1h' */"),
        ] {
            let sql = tidb_sql.replace(from, to);
            assert_ne!(sql, tidb_sql, "{from}");
            assert!(
                check_statement(&create, &sql, Flavor::TiDb).is_err(),
                "{sql}"
            );
        }
        let add_col = Change::AddColumn {
            table: t.name.clone(),
            column: t.columns[1].clone(),
            after: None,
        };
        let sql = "ALTER TABLE `T` ADD COLUMN `Note` varchar(8) NULL TTL=`At` + INTERVAL 1 DAY";
        assert!(check_statement(&add_col, sql, Flavor::TiDb).is_err());
    }
}
