//! The exact single-index check: reads only the target index's rows
//! (`TABLE_SCHEMA = ? AND TABLE_NAME = ? AND INDEX_NAME = ?`, with SUB_PART)
//! and says whether the index is there with exactly the declared shape.
//! A FULLTEXT index's parser is not in STATISTICS: for a live FULLTEXT
//! index (only then) the table's `SHOW CREATE TABLE` is read as well.

use crate::db::Session;
use crate::error::Result;
use crate::ident::quote_ident;
use crate::inspect::normalize;
use crate::inspect::{
    fill_parsers, has_fulltext, params, raw_index_row, IndexSource, RowReader, ShowCreate,
};
use crate::model::shape::index_differences;
pub use crate::model::shape::{canonical_expression, same_expression, IndexProblem};
use crate::model::Index;
use crate::server::Server;

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
pub fn index_statement(info: &Server) -> String {
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
    let sql = index_statement(session.server());
    let rows = session
        .exec_rows(&context, &sql, params(&[schema, table, want.name.as_str()]))
        .await?;
    let raw = rows
        .iter()
        .map(|r| raw_index_row(&RowReader::new(r, &context)))
        .collect::<Result<Vec<_>>>()?;
    let (primary, mut found) = normalize::indexes(&raw);
    if has_fulltext(&found) {
        let text = ShowCreate::default()
            .text(session, schema, &crate::ident::Ident::new(table))
            .await?;
        fill_parsers(table, &mut found, &text, session.server().flavor())?;
    }
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

/// Compares a live index (`None` when absent) with the declared one by the
/// one index rule (`index_differences`).
pub(crate) fn check_index(have: Option<&Index>, want: &Index) -> IndexReadiness {
    let Some(have) = have else {
        return IndexReadiness::NotReady(vec![IndexProblem::Missing]);
    };
    let problems = index_differences(have, want);
    if problems.is_empty() {
        IndexReadiness::Ready
    } else {
        IndexReadiness::NotReady(problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absent_is_missing_and_present_is_compared() {
        let want = crate::dump::index("`a` int, KEY `ix` (`a`)");
        assert_eq!(
            check_index(None, &want),
            IndexReadiness::NotReady(vec![IndexProblem::Missing])
        );
        let have = crate::dump::index("`A` int, KEY `IX` (`A`)");
        assert!(check_index(Some(&have), &want).is_ready());
    }
}
