//! TiDB keeps a CHECK constraint only while the GLOBAL variable
//! `tidb_enable_check_constraint` is ON (v7.2+, default OFF). With it OFF,
//! `CREATE TABLE … CHECK (…)` succeeds and drops the clause with warning
//! 1105 "the switch of check constraint is off" (pingcap/docs
//! constraints.md; pingcap/tidb `TestCheckConstraintSwitch`), so apply
//! would create a table without the catalog's CHECK and only the read-back
//! would notice, after DDL. Apply reads the variable first and refuses
//! before any DDL instead. Not yet run against a live TiDB (see
//! docs/tidb-assumptions.md).

use mysql_async::prelude::*;

use crate::db::Session;
use crate::diff::Change;
use crate::error::{Error, Result};
use crate::plan::Step;
use crate::server::Flavor;

/// The variable's read. One constant statement, no input.
const READ_SWITCH: &str = "SELECT @@GLOBAL.tidb_enable_check_constraint";

/// The first step whose table brings a CHECK: `(table, check)`.
fn first_check(steps: &[Step]) -> Option<(&str, &str)> {
    steps.iter().find_map(|s| match &s.change {
        Change::AddTable(t) => t.checks.first().map(|c| (t.name.as_str(), c.name.as_str())),
        _ => None,
    })
}

/// Whether TiDB's answer for a boolean system variable means ON.
fn is_on(value: &str) -> bool {
    value.eq_ignore_ascii_case("ON") || value == "1"
}

/// On TiDB, when a step creates a table with a CHECK, refuses unless
/// `tidb_enable_check_constraint` is ON. Other flavors: no statement.
pub(super) async fn require_switch(
    session: &mut Session<'_>,
    flavor: Flavor,
    steps: &[Step],
) -> Result<()> {
    if flavor.check_needs_setting().is_none() {
        return Ok(());
    }
    let Some((table, check)) = first_check(steps) else {
        return Ok(());
    };
    let value: Option<String> = session
        .run("reading tidb_enable_check_constraint", |c| {
            c.query_first(READ_SWITCH)
        })
        .await?;
    let value = value.unwrap_or_default();
    if is_on(&value) {
        return Ok(());
    }
    Err(Error::ServerSetting {
        table: table.to_string(),
        object: format!("check `{check}`"),
        setting: "tidb_enable_check_constraint",
        value,
        why: "TiDB would create the table and drop its CHECK (warning 1105); \
              set it with `SET GLOBAL tidb_enable_check_constraint = ON`",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_created_table_with_a_check_needs_the_switch() {
        let create = |sql| Step::new(Change::AddTable(crate::dump::table(sql)), Flavor::TiDb);
        let plain = create(
            "CREATE TABLE `Plain` (`Id` int NOT NULL, PRIMARY KEY (`Id`)) \
             DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
        );
        assert_eq!(first_check(std::slice::from_ref(&plain)), None);
        let checked = create(
            "CREATE TABLE `Checked` (`Id` int NOT NULL, PRIMARY KEY (`Id`), \
             CONSTRAINT `chk_positive` CHECK (`Id` > 0)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
        );
        assert_eq!(
            first_check(&[plain, checked]),
            Some(("Checked", "chk_positive"))
        );
    }

    #[test]
    fn on_is_on_and_off_or_missing_is_not() {
        assert!(is_on("ON") && is_on("on") && is_on("1"));
        assert!(!is_on("OFF") && !is_on("0") && !is_on(""));
    }
}
