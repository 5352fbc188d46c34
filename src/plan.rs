//! The planner: from per-table diffs to ordered, typed, additive steps.
//!
//! Order (SPEC "Apply" 4): missing tables first, one CREATE TABLE each with
//! all their columns, indexes and foreign keys, each after the tables its
//! foreign keys reference (otherwise by name, see `crate::dependency`); then, per existing table in name order,
//! each missing column in its own ALTER, then each opted-in widening in its
//! own ALTER (`MODIFY COLUMN` with the rule's online clause, never a
//! fallback), then each missing index in its own
//! ALTER (columns first: TiDB does not resolve a column added earlier in the
//! same statement for an index declared later in it).

use crate::ddl::{self, ColumnAlgorithm};
use crate::diff::{Change, Problem, TableDiff};
use crate::model::Table;
use crate::server::Flavor;

/// One step: the change it comes from and the SQL that makes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The additive change.
    pub change: Change,
    /// The statement, for the plan's flavor (MySQL/MariaDB ADD COLUMN as
    /// first tried: `ALGORITHM=INSTANT`).
    pub sql: String,
}

/// Why a UNIQUE index on an existing table is data-dependent (`catalog
/// diff`'s finding and `catalog plan`'s step say it alike).
pub const UNIQUE_ON_EXISTING: &str = "data-dependent: a unique index on an existing table; apply builds it online where no two retained rows share its key, and refuses the run before any DDL where they do (its duplicate probe; docs/apply.md)";

impl Step {
    /// Builds the step for `change` on `flavor`.
    pub fn new(change: Change, flavor: Flavor) -> Step {
        let sql = step_sql(&change, flavor, ColumnAlgorithm::Instant);
        Step { change, sql }
    }

    /// Why the step's success depends on the table's rows, if it does: a
    /// UNIQUE index added to an existing table (a plan adds a new table's
    /// indexes in its CREATE TABLE, so every `add_index` step is on an
    /// existing one).
    pub fn data_dependent(&self) -> Option<&'static str> {
        match &self.change {
            Change::AddIndex { index, .. } if index.unique => Some(UNIQUE_ON_EXISTING),
            _ => None,
        }
    }
}

/// The SQL for a change, with the given ADD COLUMN algorithm.
pub(crate) fn step_sql(change: &Change, flavor: Flavor, algo: ColumnAlgorithm) -> String {
    match change {
        Change::AddTable(t) => ddl::create_table(t, flavor),
        Change::AddColumn {
            table,
            column,
            after,
            defaults,
        } => ddl::add_column_at(table, column, defaults, after.as_ref(), flavor, algo),
        Change::AddIndex { table, index } => ddl::add_index(table, index, flavor),
        Change::WidenColumn {
            table,
            column,
            how,
            defaults,
            ..
        } => ddl::widen_column(table, column, defaults, how.algorithm.column_algorithm()),
    }
}

/// An ordered plan and everything that blocks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Flavor the SQL is written for.
    pub flavor: Flavor,
    /// The server inspected (`None` for a plan against a dump).
    pub server: Option<crate::server::ServerIdentity>,
    /// The schema inspected on that server (`None` for a plan against a dump).
    pub schema: Option<String>,
    /// With no server read (a plan against a dump): the release the plan
    /// assumes, `--server-version` or the flavor's oldest supported one
    /// ([`crate::Flavor::oldest_supported`]).
    pub server_version: Option<crate::server::Version>,
    /// Steps in apply order.
    pub steps: Vec<Step>,
    /// Drift anywhere in the catalog; any makes the plan refused.
    pub drift: Vec<Problem>,
    /// Objects the catalog does not name (informational).
    pub unmanaged: Vec<Problem>,
    /// The existing tables that are incomplete or drifted, as read, for
    /// readable diffs (sorted by name).
    pub live: Vec<Table>,
}

impl Plan {
    /// Whether drift blocks the plan (apply would refuse before any DDL).
    pub fn is_refused(&self) -> bool {
        !self.drift.is_empty()
    }
}

/// Orders the additive changes of `diffs` into a plan for `flavor`. Every
/// change is checked additive; the planner has no other kind of step.
pub fn plan(diffs: &[TableDiff], flavor: Flavor) -> Plan {
    let mut sorted: Vec<&TableDiff> = diffs.iter().collect();
    sorted.sort_by(|a, b| a.table.cmp(&b.table));
    let mut steps = Vec::new();
    let missing: Vec<&TableDiff> = sorted.iter().copied().filter(|d| !d.exists()).collect();
    let new_tables: Vec<&Table> = missing
        .iter()
        .flat_map(|d| d.changes.iter())
        .filter_map(|c| match c {
            Change::AddTable(t) => Some(t),
            _ => None,
        })
        .collect();
    for i in crate::dependency::creation_order(&new_tables) {
        steps.push(Change::AddTable(new_tables[i].clone()));
    }
    for d in &missing {
        steps.extend(
            d.changes
                .iter()
                .filter(|c| !matches!(c, Change::AddTable(_)))
                .cloned(),
        );
    }
    for d in sorted.iter().filter(|d| d.exists()) {
        let (cols, idxs): (Vec<&Change>, Vec<&Change>) = d
            .changes
            .iter()
            .partition(|c| matches!(c, Change::AddColumn { .. }));
        steps.extend(cols.into_iter().cloned());
        steps.extend(idxs.into_iter().cloned());
    }
    debug_assert!(steps.iter().all(Change::is_additive));
    let mut drift: Vec<Problem> = sorted.iter().flat_map(|d| d.drift().cloned()).collect();
    drift.sort();
    let mut unmanaged: Vec<Problem> = sorted
        .iter()
        .flat_map(|d| d.unmanaged.iter().cloned())
        .collect();
    unmanaged.sort();
    Plan {
        flavor,
        server: None,
        schema: None,
        server_version: None,
        steps: steps
            .into_iter()
            .filter(Change::is_additive)
            .map(|c| Step::new(c, flavor))
            .collect(),
        drift,
        unmanaged,
        live: sorted
            .iter()
            .filter(|d| d.needs_diff())
            .filter_map(|d| d.live.clone())
            .collect(),
    }
}
