//! The exact single-index check: reads only the target index's rows
//! (`TABLE_SCHEMA = ? AND TABLE_NAME = ? AND INDEX_NAME = ?`, with SUB_PART)
//! and says whether the index is there with exactly the declared shape.

use std::fmt;

use crate::db::{ServerInfo, Session};
use crate::error::Result;
use crate::ident::{quote_ident, Ident};
use crate::inspect::{params, raw_index_row, IndexSource, RowReader};
use crate::model::{Index, IndexKind, IndexPart};
use crate::normalize;

/// Why a live index is not the declared one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IndexProblem {
    /// No index of that name on the table.
    Missing,
    /// UNIQUE where a plain index is declared, or the other way round.
    Uniqueness {
        /// Declared uniqueness.
        want: bool,
        /// Live uniqueness.
        have: bool,
    },
    /// The ordered key columns differ (other columns, count or order).
    Columns {
        /// Declared columns.
        want: Vec<Ident>,
        /// Live key parts, expressions shown as `(expr)`.
        have: Vec<String>,
    },
    /// A key part indexes only a prefix of the column.
    Prefix {
        /// Column.
        column: Ident,
        /// SUB_PART.
        length: u32,
    },
    /// A key part is descending where the catalog declares ascending.
    Descending {
        /// Column.
        column: Ident,
    },
    /// A key part is an expression, not a column.
    Expression {
        /// The expression text.
        expression: String,
    },
    /// The index is invisible (MySQL / TiDB) or IGNORED (MariaDB).
    NotVisible,
    /// FULLTEXT or SPATIAL where a B-tree index is declared.
    Kind {
        /// Live kind.
        have: IndexKind,
    },
}

impl fmt::Display for IndexProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unique = |u: bool| if u { "unique" } else { "non-unique" };
        match self {
            IndexProblem::Missing => f.write_str("index does not exist"),
            IndexProblem::Uniqueness { want, have } => {
                write!(
                    f,
                    "index is {} but {} is declared",
                    unique(*have),
                    unique(*want)
                )
            }
            IndexProblem::Columns { want, have } => {
                let want: Vec<String> = want.iter().map(|c| quote_ident(c.as_str())).collect();
                write!(
                    f,
                    "key columns are ({}) but ({}) are declared",
                    have.join(", "),
                    want.join(", ")
                )
            }
            IndexProblem::Prefix { column, length } => {
                write!(
                    f,
                    "column {} is indexed by a {length}-character prefix",
                    quote_ident(column.as_str())
                )
            }
            IndexProblem::Descending { column } => {
                write!(
                    f,
                    "column {} is a descending key part",
                    quote_ident(column.as_str())
                )
            }
            IndexProblem::Expression { expression } => {
                write!(f, "key part is the expression ({expression})")
            }
            IndexProblem::NotVisible => f.write_str("index is invisible / ignored"),
            IndexProblem::Kind { have } => write!(f, "index is {have:?}, not a B-tree index"),
        }
    }
}

/// The outcome of an exact index check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IndexReadiness {
    /// The index exists with exactly the declared shape.
    Ready,
    /// Everything that differs, in a fixed order.
    NotReady(Vec<IndexProblem>),
}

impl IndexReadiness {
    /// Whether the index is ready.
    pub fn is_ready(&self) -> bool {
        matches!(self, IndexReadiness::Ready)
    }
}

/// The statement [`index_ready`] runs on this server. Parameters: schema,
/// table, index name.
pub fn index_statement(info: &ServerInfo) -> String {
    IndexSource::for_server(info).sql()
}

/// Checks one index on the live database, reading only its own rows: one
/// prepared statement with schema, table and index name as equality predicates.
pub async fn index_ready(
    session: &mut Session<'_>,
    schema: &str,
    table: &str,
    want: &Index,
) -> Result<IndexReadiness> {
    let context = format!(
        "reading index {} of {}.{}",
        quote_ident(want.name.as_str()),
        quote_ident(schema),
        quote_ident(table)
    );
    let sql = index_statement(session.info());
    let rows = session
        .exec_rows(&context, &sql, params(&[schema, table, want.name.as_str()]))
        .await?;
    let raw = rows
        .iter()
        .map(|r| raw_index_row(&RowReader::new(r, &context)))
        .collect::<Result<Vec<_>>>()?;
    let (primary, mut found) = normalize::indexes(&raw);
    // Asking for `PRIMARY` reads the primary key rows.
    let have = if primary.is_empty() {
        found.pop()
    } else {
        Some(Index {
            name: want.name.clone(),
            unique: true,
            parts: primary,
            ..Index::new("PRIMARY", true, &[])
        })
    };
    Ok(check_index(have.as_ref(), want))
}

/// Compares a live index (`None` when absent) with the declared one:
/// uniqueness, ordered column names (case-insensitive), no prefix, ascending,
/// no expression part, visible, B-tree.
pub fn check_index(have: Option<&Index>, want: &Index) -> IndexReadiness {
    let Some(have) = have else {
        return IndexReadiness::NotReady(vec![IndexProblem::Missing]);
    };
    let mut problems = Vec::new();
    if have.unique != want.unique {
        problems.push(IndexProblem::Uniqueness {
            want: want.unique,
            have: have.unique,
        });
    }
    let want_cols: Vec<Ident> = want
        .parts
        .iter()
        .filter_map(IndexPart::column_name)
        .cloned()
        .collect();
    let have_cols: Vec<Option<&Ident>> = have.parts.iter().map(IndexPart::column_name).collect();
    let same_columns = have_cols.len() == want_cols.len()
        && have_cols.iter().zip(&want_cols).all(|(h, w)| *h == Some(w));
    if !same_columns {
        problems.push(IndexProblem::Columns {
            want: want_cols,
            have: have.parts.iter().map(part_label).collect(),
        });
    }
    for part in &have.parts {
        match part {
            IndexPart::Column {
                name,
                prefix: Some(length),
                ..
            } => problems.push(IndexProblem::Prefix {
                column: name.clone(),
                length: *length,
            }),
            IndexPart::Column {
                name,
                descending: true,
                ..
            } => problems.push(IndexProblem::Descending {
                column: name.clone(),
            }),
            IndexPart::Column { .. } => {}
            IndexPart::Expression(e) => problems.push(IndexProblem::Expression {
                expression: e.clone(),
            }),
        }
    }
    if !have.visible {
        problems.push(IndexProblem::NotVisible);
    }
    if have.kind != want.kind {
        problems.push(IndexProblem::Kind { have: have.kind });
    }
    if problems.is_empty() {
        IndexReadiness::Ready
    } else {
        IndexReadiness::NotReady(problems)
    }
}

fn part_label(part: &IndexPart) -> String {
    match part {
        IndexPart::Column { name, .. } => quote_ident(name.as_str()),
        IndexPart::Expression(e) => format!("({e})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(have: &Index, want: &Index) -> Vec<IndexProblem> {
        match check_index(Some(have), want) {
            IndexReadiness::Ready => Vec::new(),
            IndexReadiness::NotReady(p) => p,
        }
    }

    #[test]
    fn exact_and_case_insensitive_is_ready() {
        let want = Index::new("ix", false, &["State", "Id"]);
        assert!(check_index(Some(&Index::new("IX", false, &["state", "ID"])), &want).is_ready());
    }

    #[test]
    fn absent_is_missing() {
        let want = Index::new("ix", false, &["a"]);
        assert_eq!(
            check_index(None, &want),
            IndexReadiness::NotReady(vec![IndexProblem::Missing])
        );
    }

    #[test]
    fn every_difference_is_reported() {
        let want = Index::new("ix", false, &["a", "b"]);
        let mut have = Index::new("ix", true, &["b", "a"]);
        have.parts[1] = IndexPart::Column {
            name: "a".into(),
            prefix: Some(4),
            descending: false,
        };
        have.visible = false;
        let got = problems(&have, &want);
        assert!(got.contains(&IndexProblem::Uniqueness {
            want: false,
            have: true
        }));
        assert!(got
            .iter()
            .any(|p| matches!(p, IndexProblem::Columns { .. })));
        assert!(got.contains(&IndexProblem::Prefix {
            column: "a".into(),
            length: 4
        }));
        assert!(got.contains(&IndexProblem::NotVisible));
    }

    #[test]
    fn expression_parts_are_refused() {
        let want = Index::new("ix", false, &["a"]);
        let mut have = Index::new("ix", false, &[]);
        have.parts.push(IndexPart::Expression("lower(`a`)".into()));
        let got = problems(&have, &want);
        assert!(got.contains(&IndexProblem::Expression {
            expression: "lower(`a`)".into()
        }));
        assert!(got[0].to_string().contains("(lower(`a`))"), "{}", got[0]);
    }
}
