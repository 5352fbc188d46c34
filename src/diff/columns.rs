//! Column drift: a same-named column compared field by field (the texts
//! that describe a column are the model's, [`crate::model::describe`]).

use crate::model::{ByName, Column, IndexPart, NotOnline, Table};
use crate::server::Flavor;

use super::{problem, Problem, ProblemKind, Value};

pub(super) fn column_drift(t: &Table, want: &Column, have: &Column) -> Vec<Problem> {
    column_differences(want, have)
        .into_iter()
        .map(|(kind, e, a)| problem(t, want.name.as_str(), kind, e, a))
        .collect()
}

/// Whether two columns have the same shape: the one column-match rule,
/// used by apply's diff (a same-named column with any difference is
/// drift) and by the release review (a rename candidate keeps its shape).
/// Names, comments, consumers and the widening opt-in are not shape.
pub fn same_column_shape(a: &Column, b: &Column) -> bool {
    column_differences(a, b).is_empty()
}

/// The kinds of attribute in which `have` differs from `want`.
pub(super) fn differences(want: &Column, have: &Column) -> Vec<ProblemKind> {
    column_differences(want, have)
        .into_iter()
        .map(|(k, _, _)| k)
        .collect()
}

/// Each attribute in which `have` differs from `want`: its kind, the
/// expected and the actual value.
fn column_differences(want: &Column, have: &Column) -> Vec<(ProblemKind, Value, Value)> {
    let mut out = Vec::new();
    let mut push = |kind, e: Value, a: Value| out.push((kind, e, a));
    // Exact: `boolean` (tinyint(1)) and `tinyint` are told apart by
    // import, so apply and verify tell them apart too.
    if want.ty != have.ty {
        push(
            ProblemKind::ColumnType,
            Value::Type(want.ty.clone()),
            Value::Type(have.ty.clone()),
        );
    }
    if want.nullable != have.nullable {
        push(
            ProblemKind::ColumnNullability,
            Value::Nullable(want.nullable),
            Value::Nullable(have.nullable),
        );
    }
    if want.ty.is_textual() && (want.charset != have.charset || want.collation != have.collation) {
        let collation = |c: &Column| Value::Collation {
            charset: c.charset.clone(),
            collation: c.collation.clone(),
        };
        push(
            ProblemKind::ColumnCollation,
            collation(want),
            collation(have),
        );
    }
    if want.default != have.default {
        let default = |c: &Column| Value::Default {
            default: c.default.clone(),
            numeric: c.ty.is_numeric(),
        };
        push(ProblemKind::ColumnDefault, default(want), default(have));
    }
    if want.auto_increment != have.auto_increment {
        push(
            ProblemKind::ColumnAutoIncrement,
            Value::AutoIncrement(want.auto_increment),
            Value::AutoIncrement(have.auto_increment),
        );
    }
    if want.on_update != have.on_update {
        push(
            ProblemKind::ColumnOnUpdate,
            Value::OnUpdate(want.on_update.clone()),
            Value::OnUpdate(have.on_update.clone()),
        );
    }
    if want.invisible != have.invisible {
        push(
            ProblemKind::ColumnInvisible,
            Value::Invisible(want.invisible),
            Value::Invisible(have.invisible),
        );
    }
    match (&want.generated, &have.generated) {
        (None, None) => {}
        (Some(w), Some(h)) => {
            if w.stored != h.stored {
                push(
                    ProblemKind::ColumnGeneratedStored,
                    Value::GeneratedStorage(w.clone()),
                    Value::GeneratedStorage(h.clone()),
                );
            }
            if !crate::model::shape::same_expression(&w.expression, &h.expression) {
                push(
                    ProblemKind::ColumnGeneratedExpression,
                    Value::GeneratedExpression(w.clone()),
                    Value::GeneratedExpression(h.clone()),
                );
            }
        }
        (w, h) => push(
            ProblemKind::ColumnGenerated,
            Value::Generated(w.clone()),
            Value::Generated(h.clone()),
        ),
    }
    out
}

/// Why the missing column `want.columns[i]` cannot be added online to the
/// live table `have` at its catalog position, if it cannot: the reasons of
/// [`column_not_online_reason`], and the server's rule for a column placed
/// before an existing VIRTUAL generated column
/// ([`Flavor::refuses_column_added_before_virtual`]). Columns are added in
/// catalog order, so the live columns after it are the catalog's later
/// columns the table has; on MySQL a functional index's hidden virtual
/// column is always last.
pub fn column_not_online_reason_at(
    want: &Table,
    i: usize,
    have: &Table,
    flavor: Option<Flavor>,
) -> Option<NotOnline> {
    let col = &want.columns[i];
    if let Some(why) = column_not_online_reason(col) {
        return Some(why);
    }
    let virtual_column = col.generated.as_ref().is_some_and(|g| !g.stored);
    if !Flavor::refuses_column_added_before_virtual(flavor, virtual_column) {
        return None;
    }
    let is_virtual = |c: &Column| c.generated.as_ref().is_some_and(|g| !g.stored);
    let have_columns = ByName::new(&have.columns);
    let virtual_after = want.columns[i + 1..]
        .iter()
        .filter_map(|c| have_columns.get(&c.name))
        .any(is_virtual);
    let hidden_after = Flavor::hides_functional_key_columns(flavor)
        && have.indexes.iter().any(|x| {
            x.parts
                .iter()
                .any(|p| matches!(p, IndexPart::Expression(_)))
        });
    (virtual_after || hidden_after).then_some(NotOnline::ColumnBeforeVirtual)
}

/// Why a missing column cannot be added to an existing table online, if it
/// cannot: a STORED generated column is computed into every row, which
/// MySQL 9.7 and MariaDB 10.11 do only with ALGORITHM=COPY (both refuse
/// INSTANT and INPLACE with error 1845, verified live); TiDB cannot add one
/// with ALTER TABLE at all ("You cannot add a stored generated column using
/// ALTER TABLE", <https://docs.pingcap.com/tidb/stable/generated-columns#limitations>).
/// A VIRTUAL one is metadata only (ALGORITHM=INSTANT on both servers).
pub fn column_not_online_reason(column: &Column) -> Option<NotOnline> {
    column
        .generated
        .as_ref()
        .filter(|g| g.stored)
        .map(|_| NotOnline::StoredGeneratedColumn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dump::column;
    use crate::model::describe::describe_column;

    /// The one column-match rule: a rename candidate (review) has the same
    /// shape exactly when apply's diff finds no column drift between the two.
    /// `describe_column` text is for output, not matching: it differs for
    /// generated expressions the diff normalises as the same.
    #[test]
    fn same_shape_is_exactly_no_drift() {
        let gen = |e: &str| {
            column(&format!(
                "`L` varchar(64) GENERATED ALWAYS AS ({e}) VIRTUAL"
            ))
        };
        let pairs = [
            (column("`B` tinyint(1)"), column("`B` tinyint"), false),
            (gen("lower(`Key`)"), gen("lcase(`Key`)"), true),
            (gen("lower(`Key`)"), gen("upper(`Key`)"), false),
        ];
        for (a, b, same) in pairs {
            assert_eq!(same_column_shape(&a, &b), same, "{a:?} {b:?}");
            assert_eq!(column_differences(&a, &b).is_empty(), same);
        }
        assert_ne!(
            describe_column(&gen("lower(`Key`)")),
            describe_column(&gen("lcase(`Key`)"))
        );
    }
}
