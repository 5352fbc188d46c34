//! The TiDB table features a CREATE TABLE carries on TiDB: read by the one
//! clause scanner ([`crate::tidb::scan`]), required to be exactly the
//! step's, and taken out so that sqlparser parses the rest.

use sqlparser::tokenizer::Token;

use crate::diff::Change;
use crate::server::Flavor;
use crate::tidb::scan;
use crate::tidb::TidbOptions;

/// The TiDB features the statement must carry: the new table's on TiDB,
/// none otherwise.
pub(super) fn expected_tidb(change: &Change, flavor: Flavor) -> TidbOptions {
    match change {
        Change::AddTable(t) if flavor.has_tidb_table_options() => {
            t.tidb.clone().unwrap_or_default()
        }
        _ => TidbOptions::default(),
    }
}

/// Reads the TiDB clauses with the one scanner, requires that they declare
/// exactly `expected`, and takes them out.
pub(super) fn without_tidb_clauses(
    tokens: Vec<Token>,
    expected: &TidbOptions,
) -> Result<Vec<Token>, String> {
    let found = scan::scan(tokens.as_slice())?;
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

#[cfg(test)]
mod tests {
    use super::super::check_statement;
    use crate::diff::Change;
    use crate::model::Table;
    use crate::plan::Step;
    use crate::server::Flavor;

    /// A table with every TiDB feature: `Id` auto_random on a clustered
    /// key, a TTL on `At`, as TiDB's SHOW CREATE TABLE prints them.
    fn tidb_table() -> Table {
        crate::dump::table(
            "CREATE TABLE `T` (`Id` bigint NOT NULL /*T![auto_rand] AUTO_RANDOM(5, 54) */, \
             `Note` varchar(8), `At` datetime(6), \
             PRIMARY KEY (`Id`) /*T![clustered_index] CLUSTERED */\
             ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin \
             /*T! PRE_SPLIT_REGIONS=3 */ /*T![ttl] TTL=`At` + INTERVAL 30 DAY */ \
             /*T![ttl] TTL_ENABLE='ON' */ /*T![ttl] TTL_JOB_INTERVAL='1h' */",
        )
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
            defaults: t.defaults(),
        };
        let sql = "ALTER TABLE `T` ADD COLUMN `Note` varchar(8) NULL TTL=`At` + INTERVAL 1 DAY";
        assert!(check_statement(&add_col, sql, Flavor::TiDb).is_err());
    }
}
