//! `reserved-word`: no table, column, index, foreign key or CHECK name is
//! a reserved word of a flavor the catalog targets (`flavors`). The tool
//! quotes every identifier, so its own DDL works; a hand-written query
//! (`SELECT order FROM ...`) fails with a syntax error (1064) on that
//! server. The word lists are the vendors' own, kept with their sources
//! in `src/server/keywords/` (`Flavor::reserves`).

use crate::catalog::rule_ids::RESERVED_WORD;
use crate::catalog::sink::Sink;
use crate::model::Table;
use crate::server::Flavor;

use super::Context;

use crate::catalog::fixes::RESERVED_WORD_FIX as FIX;

pub(in crate::catalog) fn check(table: &Table, ctx: &Context<'_>, sink: &mut Sink) {
    let flavors = &ctx.defaults.flavors;
    let mut test = |object: Option<String>, name: &str| {
        let on: Vec<String> = flavors
            .iter()
            .filter(|f| f.reserves(name))
            .map(|f: &Flavor| f.to_string())
            .collect();
        if !on.is_empty() {
            sink.report(
                &RESERVED_WORD,
                object,
                format!(
                    "`{name}` is a reserved word on {}: the tool quotes it, but a hand-written query that leaves it unquoted fails (error 1064); {FIX}",
                    on.join(", ")
                ),
            );
        }
    };
    test(None, table.name.as_str());
    for c in &table.columns {
        test(Some(format!("column `{}`", c.name)), c.name.as_str());
    }
    for i in &table.indexes {
        test(Some(format!("index `{}`", i.name)), i.name.as_str());
    }
    for fk in &table.foreign_keys {
        test(Some(format!("foreign key `{}`", fk.name)), fk.name.as_str());
    }
    for c in &table.checks {
        test(Some(format!("check `{}`", c.name)), c.name.as_str());
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::findings;

    const TABLE: &str = "table: Orders\ncolumns:\n  - {name: Id, type: bigint, nullable: false}\n  - {name: Rank, type: int}\n  - {name: Returning, type: int}\nprimary_key: [Id]\n";

    #[test]
    fn a_word_reserved_on_a_targeted_flavor_fails() {
        let found = findings("reserved-word", "", TABLE);
        let named: Vec<_> = found
            .iter()
            .map(|p| (p.object.clone().unwrap(), p.line))
            .collect();
        assert_eq!(
            named,
            [
                ("column `Rank`".to_string(), Some(4)),
                ("column `Returning`".to_string(), Some(5)),
            ]
        );
        // RANK is reserved on MySQL (8.0.2+) and TiDB, not MariaDB.
        assert!(
            found[0].message.contains("on tidb, mysql"),
            "{}",
            found[0].message
        );
        assert!(
            found[1].message.contains("on mariadb:"),
            "{}",
            found[1].message
        );
    }

    #[test]
    fn only_the_targeted_flavors_count() {
        // MariaDB alone: RANK is not reserved there, RETURNING is.
        let found = findings("reserved-word", "flavors: [mariadb]\n", TABLE);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].object.as_deref(), Some("column `Returning`"));
        let fine = TABLE
            .replace("Rank", "Position")
            .replace("Returning", "Returned");
        assert!(findings("reserved-word", "", &fine).is_empty());
    }
}
