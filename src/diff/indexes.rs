//! Index drift, by the one index rule ([`crate::model::shape`]), and why a
//! missing index is not added online.

use crate::model::shape::{self, IndexProblem};
use crate::model::{Index, IndexKind, IndexPart, NotOnline, Table};

use super::{problem, Problem, ProblemKind, Value};

/// Why a missing index cannot be added to an existing table online, if it
/// cannot: InnoDB rebuilds the table for the first FULLTEXT index and takes
/// a shared lock for any; MySQL adds a functional key part as a hidden
/// virtual column, which `LOCK=NONE` refuses (error 1846).
pub fn not_online_reason(index: &Index) -> Option<NotOnline> {
    if index.kind.is_fulltext() {
        return Some(NotOnline::FullTextIndex);
    }
    // Verified live on MySQL 9.7 and MariaDB 10.11: LOCK=NONE is refused
    // with 1846 "Do not support online operation on table with GIS index".
    if index.kind == IndexKind::Spatial {
        return Some(NotOnline::SpatialIndex);
    }
    if index
        .parts
        .iter()
        .any(|p| matches!(p, IndexPart::Expression(_)))
    {
        return Some(NotOnline::ExpressionIndex);
    }
    None
}

/// A same-named index's drift, by the one index rule
/// ([`shape::index_differences`]), each difference as its problem kind.
pub(super) fn index_drift(t: &Table, want: &Index, have: &Index) -> Vec<Problem> {
    let found = shape::index_differences(have, want);
    let expression = found
        .iter()
        .any(|p| matches!(p, IndexProblem::Expression { .. }));
    let mut kinds: Vec<ProblemKind> = Vec::new();
    for p in &found {
        let kind = match p {
            IndexProblem::Missing => ProblemKind::MissingIndex,
            IndexProblem::Uniqueness { .. } => ProblemKind::IndexUniqueness,
            // With an expression part the column list differs anyway: the
            // expression is the finding.
            IndexProblem::Columns { .. } if expression => continue,
            IndexProblem::Columns {
                reordered: true, ..
            } => ProblemKind::IndexOrder,
            IndexProblem::Columns { .. } => ProblemKind::IndexColumns,
            IndexProblem::Prefix { .. } => ProblemKind::IndexPrefix,
            IndexProblem::Descending { .. } => ProblemKind::IndexOrder,
            IndexProblem::Expression { .. } => ProblemKind::IndexExpression,
            IndexProblem::NotVisible | IndexProblem::Visible => ProblemKind::IndexInvisible,
            IndexProblem::Kind { .. } => ProblemKind::IndexKind,
            IndexProblem::Parser { .. } => ProblemKind::IndexParser,
        };
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    kinds
        .into_iter()
        .map(|kind| {
            let (e, a) = (Value::index(want), Value::index(have));
            problem(t, want.name.as_str(), kind, e, a)
        })
        .collect()
}

/// Whether a live primary key (`have`) differs from the declared one, by
/// the same index rule (a primary key is a unique index named `PRIMARY`).
pub(super) fn primary_key_differs(have: &[IndexPart], want: &[IndexPart]) -> bool {
    let key = |parts: &[IndexPart]| Index {
        parts: parts.to_vec(),
        ..Index::new("PRIMARY", true, &[])
    };
    !shape::index_differences(&key(have), &key(want)).is_empty()
}
