//! Compare a catalog table with the live one: typed changes (what apply may
//! add) and typed problems (what is missing, what drifted, what is unmanaged).
//!
//! Drift is never turned into a change: the reconciler is additive-only.
//! Columns compare in `columns.rs`, indexes by the one index rule
//! (`crate::model::shape`) in `indexes.rs`.

use std::collections::HashMap;

use crate::model::shape;
use crate::model::{ByName, NotOnline, Table, TableKind, Widen, Widens};

mod change;
mod columns;
mod fix;
mod foreign_keys;
mod indexes;
mod table;
mod widen;

pub use crate::finding::drift::{Problem, ProblemKind, Severity, Subject, Value};
pub use crate::model::WidenRule;
pub use change::{Change, TableDiff};
use columns::column_drift;
pub use columns::{column_not_online_reason, column_not_online_reason_at, same_column_shape};
use foreign_keys::{foreign_key_drift, unmanaged_foreign_keys};
pub use indexes::not_online_reason;
pub use widen::{widening, WidenAlgorithm, Widening};

use crate::server::Flavor;

/// A same-named column: exact, an allowed widening (a change and a
/// missing widening), or drift (with why it is no widening, when the
/// column opted in to one: `widen`, the catalog's opt-in).
fn column_or_widening(
    d: &mut TableDiff,
    want: &Table,
    have: &Table,
    (col, live): (&crate::model::Column, &crate::model::Column),
    flavor: Option<Flavor>,
    widen: Widen,
) {
    let mut drift = column_drift(want, col, live);
    if drift.is_empty() {
        return;
    }
    let Some(flavor) = flavor else {
        d.problems.extend(drift);
        return;
    };
    match widening(flavor, have, live, col, widen) {
        Ok(how) => {
            let change = Change::WidenColumn {
                table: want.name.clone(),
                column: col.clone(),
                from: live.clone(),
                how,
                defaults: have.defaults(),
            };
            d.problems.push(problem(
                want,
                col.name.as_str(),
                ProblemKind::MissingWidening,
                Value::column(col),
                Value::Widening {
                    from: Box::new(live.clone()),
                    rule: how.rule,
                    flavor,
                },
            ));
            d.changes.push(change);
        }
        Err(why) => {
            // Not opted in: would the rule table allow it if it were?
            if why.is_none() && widening(flavor, have, live, col, Widen::Types).is_ok() {
                for p in drift
                    .iter_mut()
                    .filter(|p| p.kind == ProblemKind::ColumnType)
                {
                    p.fix = Some(fix::widen_instead(want, col));
                }
            }
            if let (Some(why), Some(first)) = (why, drift.first_mut()) {
                let found = std::mem::replace(&mut first.actual, Value::Absent);
                first.actual = Value::NotWidening {
                    found: Box::new(found),
                    flavor,
                    why,
                };
            }
            d.problems.extend(drift);
        }
    }
}
use indexes::{index_drift, primary_key_differs};

/// Diffs one catalog table (`want`) against its live shape (`have`, `None`
/// when absent), strictly additively: no widening (no server flavor to
/// judge one by, and no opt-ins). Verify, plan, apply and the review use
/// [`diff_table_on`].
pub fn diff_table(want: &Table, have: Option<&Table>) -> TableDiff {
    diff_table_on(want, have, None, &Widens::none())
}

/// [`diff_table`] for a server of `flavor`: a column that opted in to
/// widenings (`widens`, the catalog's opt-ins: [`crate::catalog::Catalog::widens`])
/// and differs from the live one only as the rule table ([`widening`])
/// allows is a `widen_column` change and a `missing_widening` problem, not
/// drift.
pub fn diff_table_on(
    want: &Table,
    have: Option<&Table>,
    flavor: Option<Flavor>,
    widens: &Widens,
) -> TableDiff {
    let mut d = diff_shapes(want, have, flavor, widens);
    d.live = have.cloned();
    d
}

/// Each of `wants` diffed ([`diff_table_on`]) against the table of its
/// (folded) name in `haves`, in `wants`' order. The tables of `haves` move
/// into [`TableDiff::live`] instead of being cloned, for a caller that has
/// no other use for them (a dump's, an installed model's: docs/scale.md).
pub fn diff_tables_taking<'a>(
    wants: impl IntoIterator<Item = &'a Table>,
    haves: Vec<Table>,
    flavor: Option<Flavor>,
    widens: &Widens,
) -> Vec<TableDiff> {
    let mut held: HashMap<String, Table> = haves.into_iter().map(|t| (t.name.key(), t)).collect();
    wants
        .into_iter()
        .map(|want| {
            let have = held.remove(want.name.folded());
            let mut d = diff_shapes(want, have.as_ref(), flavor, widens);
            d.live = have;
            d
        })
        .collect()
}

/// The differences of [`diff_table_on`], with `live` left `None`.
fn diff_shapes(
    want: &Table,
    have: Option<&Table>,
    flavor: Option<Flavor>,
    widens: &Widens,
) -> TableDiff {
    // Read from TiDB: compare with the table as TiDB holds it (unless its
    // AUTO_RANDOM is pending: the table predates it and keeps AUTO_INCREMENT).
    let on_tidb;
    let want = match have {
        Some(h) if h.tidb.is_some() && !crate::tidb::auto_random_pending(want, h) => {
            on_tidb = crate::tidb::on_tidb(want);
            &*on_tidb
        }
        _ => want,
    };
    let mut d = TableDiff {
        table: want.name.clone(),
        live: None,
        changes: Vec::new(),
        problems: Vec::new(),
        unmanaged: Vec::new(),
    };
    // Not a table the catalog can describe: one problem, nothing else read.
    let refused = match have.map(|h| &h.kind) {
        Some(TableKind::NotATable(_)) => Some((ProblemKind::NotATable, Value::BaseTable)),
        Some(TableKind::Partitioned(_)) => Some((ProblemKind::Partitioned, Value::Unpartitioned)),
        Some(TableKind::Unrecognised(_)) => {
            Some((ProblemKind::Unrecognised, Value::DescribedTable))
        }
        Some(TableKind::Base) | None => None,
    };
    if let (Some((kind, expected)), Some(have)) = (refused, have) {
        let actual = Value::TableKind(have.kind.clone());
        d.problems
            .push(problem(want, want.name.as_str(), kind, expected, actual));
        return d;
    }
    let Some(have) = have else {
        d.problems.push(problem(
            want,
            want.name.as_str(),
            ProblemKind::MissingTable,
            Value::Table,
            Value::Absent,
        ));
        d.changes.push(Change::AddTable(want.clone()));
        return d;
    };
    d.problems.extend(table::table_drift(want, have));
    let (want_columns, have_columns) = (ByName::new(&want.columns), ByName::new(&have.columns));
    let (want_indexes, have_indexes) = (ByName::new(&want.indexes), ByName::new(&have.indexes));
    for (i, col) in want.columns.iter().enumerate() {
        match have_columns.get(&col.name) {
            Some(live) => {
                let widen = widens.of(&want.name, &col.name);
                column_or_widening(&mut d, want, have, (col, live), flavor, widen)
            }
            None => match column_not_online_reason_at(want, i, have, flavor) {
                Some(why) => d.problems.push(problem(
                    want,
                    col.name.as_str(),
                    ProblemKind::ColumnNotOnline,
                    Value::column(col),
                    Value::AbsentNotOnline(why),
                )),
                None => {
                    let change = Change::AddColumn {
                        table: want.name.clone(),
                        column: col.clone(),
                        after: i.checked_sub(1).map(|p| want.columns[p].name.clone()),
                        defaults: have.defaults(),
                    };
                    let kind = if change.is_additive() {
                        d.changes.push(change);
                        ProblemKind::MissingColumn
                    } else {
                        ProblemKind::MissingNotNullColumn
                    };
                    d.problems.push(problem(
                        want,
                        col.name.as_str(),
                        kind,
                        Value::column(col),
                        Value::Absent,
                    ));
                }
            },
        }
    }
    if !want.primary_key.is_empty() && primary_key_differs(&have.primary_key, &want.primary_key) {
        d.problems.push(problem(
            want,
            "PRIMARY",
            ProblemKind::PrimaryKey,
            Value::KeyParts(want.primary_key.clone()),
            Value::KeyParts(have.primary_key.clone()),
        ));
    }
    for idx in &want.indexes {
        match have_indexes.get(&idx.name) {
            Some(live) => d.problems.extend(index_drift(want, idx, live)),
            None => match not_online_reason(idx) {
                Some(why) => d.problems.push(problem(
                    want,
                    idx.name.as_str(),
                    ProblemKind::IndexNotOnline,
                    Value::index(idx),
                    Value::AbsentNotOnline(why),
                )),
                None => {
                    d.problems.push(problem(
                        want,
                        idx.name.as_str(),
                        ProblemKind::MissingIndex,
                        Value::index(idx),
                        Value::Absent,
                    ));
                    d.changes.push(Change::AddIndex {
                        table: want.name.clone(),
                        index: idx.clone(),
                    });
                }
            },
        }
    }
    d.problems.extend(check_drift(want, have, flavor));
    d.problems.extend(foreign_key_drift(want, have));
    let (tidb_drift, tidb_notes) = crate::tidb::drift(want, have);
    d.problems.extend(tidb_drift);
    d.unmanaged.extend(tidb_notes);
    for col in have
        .columns
        .iter()
        .filter(|c| !want_columns.contains(&c.name))
    {
        d.unmanaged.push(problem(
            want,
            col.name.as_str(),
            ProblemKind::UnmanagedColumn,
            Value::NotInCatalog,
            Value::column(col),
        ));
    }
    for idx in have
        .indexes
        .iter()
        .filter(|i| !want_indexes.contains(&i.name))
    {
        d.unmanaged.push(problem(
            want,
            idx.name.as_str(),
            ProblemKind::UnmanagedIndex,
            Value::NotInCatalog,
            Value::index(idx),
        ));
    }
    d.unmanaged.extend(unmanaged_foreign_keys(want, have));
    d
}

pub(super) fn problem(
    t: &Table,
    object: &str,
    kind: ProblemKind,
    expected: Value,
    actual: Value,
) -> Problem {
    Problem {
        table: t.name.to_string(),
        object: object.to_string(),
        kind,
        expected,
        actual,
        fix: fix::fix(t, object, kind),
    }
}

/// The net's finding that the live column `live` of the catalog table
/// `want` writes the collation clauses `shown` in `SHOW CREATE TABLE`
/// where the server's own text of the catalog's table writes
/// `regenerated` (`verify --strict` only): a
/// [`ProblemKind::ColumnCollationStated`] whose fix restates the column.
pub(crate) fn collation_stated(
    want: &Table,
    live: &crate::model::Column,
    shown: crate::model::CollationClauses,
    regenerated: crate::model::CollationClauses,
) -> Problem {
    let side = |clauses| Value::CollationClauses {
        clauses,
        charset: live.charset.clone().unwrap_or_default(),
        collation: live.collation.clone().unwrap_or_default(),
    };
    problem(
        want,
        live.name.as_str(),
        ProblemKind::ColumnCollationStated,
        side(regenerated),
        side(shown),
    )
}

/// The catalog's CHECK constraints against the live table's (by name, case
/// -insensitively; conditions after normalisation). A missing one is not
/// added: validating the rows copies the table.
///
/// The level (column or table) is compared where the server keeps it
/// ([`Flavor::keeps_check_levels`]); MySQL stores every CHECK as a table
/// constraint, so a catalog's column-level check is no drift there.
fn check_drift(want: &Table, have: &Table, flavor: Option<Flavor>) -> Vec<Problem> {
    let mut out = Vec::new();
    let levels = flavor.is_some_and(Flavor::keeps_check_levels);
    let have_checks = ByName::new(&have.checks);
    for c in &want.checks {
        if let Some(h) = have_checks.get(&c.name) {
            if levels && h.level != c.level {
                out.push(problem(
                    want,
                    c.name.as_str(),
                    ProblemKind::CheckLevel,
                    Value::CheckLevel(c.level),
                    Value::CheckLevel(h.level),
                ));
            }
        }
    }
    let check = |expression: &str, enforced: Option<bool>| Value::Check {
        expression: expression.to_string(),
        enforced,
    };
    for c in &want.checks {
        let expected = check(&c.expression, None);
        match have_checks.get(&c.name) {
            Some(h) if h.enforced != c.enforced => {
                out.push(problem(
                    want,
                    c.name.as_str(),
                    ProblemKind::CheckEnforcement,
                    check(&c.expression, Some(c.enforced)),
                    check(&h.expression, Some(h.enforced)),
                ));
                if !shape::same_expression(&h.expression, &c.expression) {
                    out.push(problem(
                        want,
                        c.name.as_str(),
                        ProblemKind::CheckExpression,
                        expected,
                        check(&h.expression, None),
                    ));
                }
            }
            Some(h) if shape::same_expression(&h.expression, &c.expression) => {}
            Some(h) => out.push(problem(
                want,
                c.name.as_str(),
                ProblemKind::CheckExpression,
                expected,
                check(&h.expression, None),
            )),
            None => out.push(problem(
                want,
                c.name.as_str(),
                ProblemKind::CheckNotOnline,
                expected,
                Value::AbsentNotOnline(NotOnline::Check),
            )),
        }
    }
    out
}

#[cfg(test)]
mod tests;
