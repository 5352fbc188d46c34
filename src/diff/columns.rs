//! Column drift: a same-named column compared field by field (the texts
//! that describe a column are the model's, [`crate::model::describe`]).

use crate::model::describe::{
    auto_increment_text, charset_text, default_text, generated_text, null_text, on_update_text,
    visibility_text,
};
use crate::model::{Column, NotOnline, Table};

use super::{problem, Problem, ProblemKind};

pub(super) fn column_drift(t: &Table, want: &Column, have: &Column) -> Vec<Problem> {
    column_differences(want, have)
        .into_iter()
        .map(|(kind, e, a)| problem(t, want.name.as_str(), kind, &e, &a))
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
/// expected and the actual text.
fn column_differences(want: &Column, have: &Column) -> Vec<(ProblemKind, String, String)> {
    let mut out = Vec::new();
    let mut push = |kind, e: String, a: String| out.push((kind, e, a));
    // Exact: `boolean` (tinyint(1)) and `tinyint` are told apart by
    // import, so apply and verify tell them apart too.
    if want.ty != have.ty {
        push(
            ProblemKind::ColumnType,
            want.ty.to_string(),
            have.ty.to_string(),
        );
    }
    if want.nullable != have.nullable {
        push(
            ProblemKind::ColumnNullability,
            null_text(want.nullable).into(),
            null_text(have.nullable).into(),
        );
    }
    if want.ty.is_textual() && (want.charset != have.charset || want.collation != have.collation) {
        push(
            ProblemKind::ColumnCollation,
            charset_text(want.charset.as_deref(), want.collation.as_deref()),
            charset_text(have.charset.as_deref(), have.collation.as_deref()),
        );
    }
    if want.default != have.default {
        push(
            ProblemKind::ColumnDefault,
            default_text(want),
            default_text(have),
        );
    }
    if want.auto_increment != have.auto_increment {
        push(
            ProblemKind::ColumnAutoIncrement,
            auto_increment_text(want.auto_increment).into(),
            auto_increment_text(have.auto_increment).into(),
        );
    }
    if want.on_update != have.on_update {
        push(
            ProblemKind::ColumnOnUpdate,
            on_update_text(want.on_update.as_ref()),
            on_update_text(have.on_update.as_ref()),
        );
    }
    if want.invisible != have.invisible {
        push(
            ProblemKind::ColumnInvisible,
            visibility_text(want.invisible).into(),
            visibility_text(have.invisible).into(),
        );
    }
    match (&want.generated, &have.generated) {
        (None, None) => {}
        (Some(w), Some(h)) => {
            if w.stored != h.stored {
                push(
                    ProblemKind::ColumnGeneratedStored,
                    w.storage().into(),
                    h.storage().into(),
                );
            }
            if !crate::model::shape::same_expression(&w.expression, &h.expression) {
                push(
                    ProblemKind::ColumnGeneratedExpression,
                    format!("AS ({})", w.expression),
                    format!("AS ({})", h.expression),
                );
            }
        }
        (w, h) => push(
            ProblemKind::ColumnGenerated,
            generated_text(w.as_ref()),
            generated_text(h.as_ref()),
        ),
    }
    out
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
    use crate::coltype::{ColumnType, IntKind};
    use crate::model::describe::describe_column;
    use crate::model::Generated;

    /// The one column-match rule: a rename candidate (review) has the same
    /// shape exactly when apply's diff finds no column drift between the two.
    /// `describe_column` text is for output, not matching: it differs for
    /// generated expressions the diff normalises as the same.
    #[test]
    fn same_shape_is_exactly_no_drift() {
        let gen = |e: &str| {
            let mut c = Column::new("L", ColumnType::Varchar(64));
            c.generated = Some(Generated {
                expression: e.into(),
                stored: false,
            });
            c
        };
        let tiny = Column::new(
            "B",
            ColumnType::Int {
                kind: IntKind::Tiny,
                unsigned: false,
            },
        );
        let pairs = [
            (Column::new("B", ColumnType::Boolean), tiny, false),
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
