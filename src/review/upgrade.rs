//! The upgrade an installation at OLD gets: OLD's tables rendered for the
//! flavor, parsed back as a dump (the model `plan --against` plans against),
//! then the ordinary diff and planner with NEW as the catalog. No second
//! planner: these are the steps and SQL `catalog apply` would run. The
//! review holds one flavor's model at a time ([`diffs`] consumes it).

use std::path::Path;

use schemars::JsonSchema;
use serde::Serialize;

use crate::catalog::Catalog;
use crate::diff::{diff_tables_taking, Problem, TableDiff};
use crate::dump::{self, Dump};
use crate::error::Result;
use crate::model::Table;
use crate::server::Flavor;
use crate::textdiff::{self, TableText};

/// What apply would do on a database at OLD's shape, for one flavor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Upgrade {
    /// Flavor the SQL is written for.
    pub flavor: Flavor,
    /// The statements apply runs, in order (none when it refuses).
    pub steps: Vec<UpgradeStep>,
    /// What apply refuses as drift there, before any DDL.
    pub refused: Vec<Problem>,
    /// The additive steps apply holds back while it refuses (what it would
    /// run once the refused changes are taken out of NEW).
    pub held_back: Vec<UpgradeStep>,
    /// What the steps cost (docs/cost.md): the rate, where the sizes came
    /// from (a `--stats` file, or none: unknown), totals per table and for
    /// the release.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<crate::cost::CostSummary>,
}

/// One step of an upgrade.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct UpgradeStep {
    /// Table.
    pub table: String,
    /// `create_table`, `add_column`, `add_index` or `widen_column`.
    pub kind: String,
    /// The object added or widened.
    pub object: String,
    /// `widen_column`: the type (or default) at OLD.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// `widen_column`: the type (or default) in NEW.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// The statement (MySQL/MariaDB ADD COLUMN as first tried: INSTANT).
    pub sql: String,
    /// What the step costs: its class always; sizes and estimates when a
    /// `--stats` file gives the table's size, else null (unknown).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<crate::cost::StepCost>,
    /// The budgets the estimate exceeds (`--max-step-duration`,
    /// `--max-replica-stall`): apply would defer this step.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub over_budget: Vec<crate::cost::OverBudget>,
}

/// OLD's tables as a server of `flavor` would hold them: what the
/// greenfield renderer's text parsed back by the dump reader gives. A table
/// of plain parts is derived from the model instead
/// ([`super::installed::installed`]; docs/scale.md: reading every table back was
/// a third of `catalog diff`); its statement is left out of the text read,
/// as blank lines, so the lines of what is read (features, errors) stay
/// those of the whole text. A large catalog is read in contiguous runs of
/// its tables on up to one thread per core ([`crate::parallel::runs`]),
/// joined into the dump the whole text reads as (a valid catalog names each
/// table once). Debug builds also read the whole text back and assert the
/// same dump ([`read_back`], the oracle).
pub fn old_model(old: &Catalog, flavor: Flavor, label: &str) -> Result<Dump> {
    let tables = old.in_creation_order();
    let parts = crate::parallel::runs(&tables, |run| {
        let mut text = String::new();
        let mut derived = Vec::new();
        for t in run {
            match super::installed::installed(&t.table, flavor) {
                Some(table) => {
                    let lines = super::installed::statement_lines(&table);
                    text.extend(std::iter::repeat_n('\n', lines));
                    derived.push(table);
                }
                None => {
                    text.push_str(&crate::ddl::create_table(&t.table, flavor));
                    text.push_str(";\n");
                }
            }
        }
        let lines = text.bytes().filter(|b| *b == b'\n').count();
        let dump =
            dump::parse_dump_on(&text, Path::new(label), Some(flavor), false).map(|mut d| {
                d.tables.append(&mut derived);
                d
            });
        (lines, dump)
    });
    let model = dump::joined(parts);
    #[cfg(debug_assertions)]
    {
        let oracle = read_back(old, flavor, label);
        assert_eq!(
            format!("{model:?}"),
            format!("{oracle:?}"),
            "the derived installed model of {label} on {flavor} is not what reading it back gives"
        );
    }
    model
}

/// OLD's tables rendered for `flavor` and every one parsed back by the dump
/// reader: what [`old_model`] must give (its oracle).
#[cfg(any(test, debug_assertions))]
pub(crate) fn read_back(old: &Catalog, flavor: Flavor, label: &str) -> Result<Dump> {
    let text: String = old
        .in_creation_order()
        .iter()
        .map(|t| format!("{};\n", crate::ddl::create_table(&t.table, flavor)))
        .collect();
    dump::parse_dump(&text, Path::new(label), Some(flavor))
}

/// NEW's tables diffed, in NEW's order, against a database holding `model`
/// (OLD's [`old_model`] for `flavor`); the model's tables move into the
/// diffs (no clone of each, and no second diff of a table per flavor: the
/// upgrade and the classification read the same diffs).
pub fn diffs(model: Dump, new: &Catalog, flavor: Flavor) -> Vec<TableDiff> {
    diff_tables_taking(
        new.tables.iter().map(|t| &t.table),
        model.tables,
        Some(flavor),
        &new.widens(),
    )
}

/// The upgrade to NEW on `server` from NEW's [`diffs`] there, each step
/// costed ([`crate::cost`]; `new` gives the key widths).
pub fn upgrade(
    diffs: &[TableDiff],
    server: &crate::server::Server,
    new: &Catalog,
    cost: &crate::cost::CostOptions,
) -> Upgrade {
    let flavor = server.flavor();
    let plan = crate::plan::plan(diffs, flavor);
    let tables: Vec<Table> = new.tables.iter().map(|t| t.table.clone()).collect();
    let sizes = cost.sizes();
    let costed = crate::cost::estimate(
        &plan.steps,
        &tables,
        server,
        sizes.as_ref(),
        cost.rate(server),
    );
    let steps: Vec<UpgradeStep> = plan
        .steps
        .iter()
        .zip(&costed.steps)
        .map(|(s, c)| {
            let (from, to) = s.change.widened().unzip();
            let name = crate::cost::step_name(&s.change);
            UpgradeStep {
                table: s.change.table().as_str().to_string(),
                kind: s.change.kind().to_string(),
                object: s.change.object().as_str().to_string(),
                from,
                to,
                sql: s.sql.clone(),
                cost: Some(c.clone()),
                over_budget: cost.budgets.check_all(&name, c),
            }
        })
        .collect();
    let (steps, held_back) = if plan.is_refused() {
        (Vec::new(), steps)
    } else {
        (steps, Vec::new())
    };
    Upgrade {
        flavor,
        steps,
        refused: plan.drift,
        held_back,
        cost: Some(costed.summary),
    }
}

/// OLD -> NEW diff of every table on both sides whose CREATE TABLE changed.
pub fn table_diffs(
    old: &Catalog,
    new: &Catalog,
    flavor: Flavor,
    from: &str,
    to: &str,
) -> Vec<TableText> {
    new.tables
        .iter()
        .filter_map(|n| {
            let o: &Table = &old.table(n.table.name.as_str())?.table;
            textdiff::revision_text(o, &n.table, flavor, from, to)
        })
        .collect()
}
