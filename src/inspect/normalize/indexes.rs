//! Indexes: `information_schema.STATISTICS` (or `TIDB_INDEXES`) rows to
//! typed [`Index`]es and primary-key parts.

use crate::ident::Ident;
use crate::model::{Index, IndexKind, IndexPart};

/// One `information_schema.STATISTICS` (or `TIDB_INDEXES`) row, as read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RawIndexRow {
    /// INDEX_NAME (`PRIMARY` for the primary key).
    pub index_name: String,
    /// NON_UNIQUE.
    pub non_unique: bool,
    /// SEQ_IN_INDEX, 1-based.
    pub seq_in_index: u64,
    /// COLUMN_NAME; NULL for an expression part.
    pub column_name: Option<String>,
    /// SUB_PART (prefix length).
    pub sub_part: Option<u64>,
    /// COLLATION (`A`, `D`, NULL).
    pub collation: Option<String>,
    /// INDEX_TYPE (`BTREE`, `FULLTEXT`, `SPATIAL`, ...).
    pub index_type: Option<String>,
    /// IS_VISIBLE (MySQL / TiDB).
    pub is_visible: Option<String>,
    /// IGNORED (MariaDB 10.6+).
    pub ignored: Option<String>,
    /// EXPRESSION (MySQL) / `Expression` (TiDB) of a functional key part.
    pub expression: Option<String>,
}

/// INDEX_TYPE to an index kind.
pub fn index_kind(index_type: Option<&str>) -> IndexKind {
    match index_type.map(|t| t.trim().to_ascii_uppercase()).as_deref() {
        // The parser is not in STATISTICS: inspection reads it from SHOW
        // CREATE TABLE (see `crate::inspect`).
        Some("FULLTEXT") => IndexKind::FullText(None),
        Some("SPATIAL") => IndexKind::Spatial,
        _ => IndexKind::BTree,
    }
}

/// Visible unless IS_VISIBLE is `NO` (MySQL / TiDB) or IGNORED is `YES` (MariaDB).
pub fn index_visible(is_visible: Option<&str>, ignored: Option<&str>) -> bool {
    let no = |v: Option<&str>| v.is_some_and(|v| v.trim().eq_ignore_ascii_case("NO"));
    let yes = |v: Option<&str>| v.is_some_and(|v| v.trim().eq_ignore_ascii_case("YES"));
    !no(is_visible) && !yes(ignored)
}

/// One index row to its key part: a column (prefix from SUB_PART, descending
/// when COLLATION is `D`) or, with no column name, an expression. A SPATIAL
/// index's part is its whole column, though both servers report SUB_PART 32
/// for it (the size of its minimum bounding rectangle).
pub fn index_part(row: &RawIndexRow) -> IndexPart {
    let spatial = index_kind(row.index_type.as_deref()) == IndexKind::Spatial;
    match &row.column_name {
        Some(name) => IndexPart::Column {
            name: Ident::new(name.clone()),
            prefix: row
                .sub_part
                .filter(|_| !spatial)
                .map(|p| u32::try_from(p).unwrap_or(u32::MAX)),
            descending: row
                .collation
                .as_deref()
                .is_some_and(|c| c.eq_ignore_ascii_case("D")),
        },
        None => IndexPart::Expression(
            row.expression
                .clone()
                .unwrap_or_default()
                .trim()
                .to_string(),
        ),
    }
}

/// Groups index rows into the primary key's parts and the secondary indexes.
/// Parts follow SEQ_IN_INDEX; indexes are ordered by name (case-insensitive).
pub fn indexes(rows: &[RawIndexRow]) -> (Vec<IndexPart>, Vec<Index>) {
    let mut rows: Vec<&RawIndexRow> = rows.iter().collect();
    rows.sort_by(|a, b| {
        let (ka, kb) = (
            Ident::new(a.index_name.clone()),
            Ident::new(b.index_name.clone()),
        );
        ka.cmp(&kb).then(a.seq_in_index.cmp(&b.seq_in_index))
    });
    let mut primary = Vec::new();
    let mut out: Vec<Index> = Vec::new();
    for row in rows {
        let part = index_part(row);
        if row.index_name.eq_ignore_ascii_case("PRIMARY") {
            primary.push(part);
            continue;
        }
        let name = Ident::new(row.index_name.clone());
        match out.last_mut() {
            Some(last) if last.name.as_str() == name.as_str() => last.parts.push(part),
            _ => out.push(Index {
                name,
                unique: !row.non_unique,
                parts: vec![part],
                kind: index_kind(row.index_type.as_deref()),
                visible: index_visible(row.is_visible.as_deref(), row.ignored.as_deref()),
                comment: None,
            }),
        }
    }
    (primary, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(index: &str, seq: u64, column: &str) -> RawIndexRow {
        RawIndexRow {
            index_name: index.into(),
            non_unique: true,
            seq_in_index: seq,
            column_name: Some(column.into()),
            collation: Some("A".into()),
            index_type: Some("BTREE".into()),
            ..RawIndexRow::default()
        }
    }

    #[test]
    fn index_rows_group_in_order() {
        let mut pk2 = row("PRIMARY", 2, "B");
        pk2.non_unique = false;
        let mut pk1 = row("PRIMARY", 1, "A");
        pk1.non_unique = false;
        let mut prefix = row("ix", 1, "s");
        prefix.sub_part = Some(5);
        let mut desc = row("dd", 1, "d");
        desc.collation = Some("D".into());
        let mut ignored = row("ig", 1, "n");
        ignored.ignored = Some("YES".into());
        let mut expr = row("ex", 1, "x");
        expr.column_name = None;
        expr.expression = Some("(lower(`s`))".into());
        expr.is_visible = Some("NO".into());
        let mut ft = row("ft", 1, "t");
        ft.index_type = Some("FULLTEXT".into());
        let rows = vec![row("ix", 2, "n"), pk2, prefix, pk1, desc, ignored, expr, ft];
        let (pk, idx) = indexes(&rows);
        assert_eq!(pk, vec![IndexPart::column("A"), IndexPart::column("B")]);
        let names: Vec<&str> = idx.iter().map(|i| i.name.as_str()).collect();
        assert_eq!(names, ["dd", "ex", "ft", "ig", "ix"]);
        assert_eq!(
            idx[4].parts,
            vec![
                IndexPart::Column {
                    name: "s".into(),
                    prefix: Some(5),
                    descending: false
                },
                IndexPart::column("n")
            ]
        );
        assert_eq!(
            idx[0].parts,
            vec![IndexPart::Column {
                name: "d".into(),
                prefix: None,
                descending: true
            }]
        );
        assert_eq!(
            idx[1].parts,
            vec![IndexPart::Expression("(lower(`s`))".into())]
        );
        assert!(!idx[1].visible && !idx[3].visible && idx[4].visible);
        assert_eq!(idx[2].kind, IndexKind::FullText(None));
        assert!(!idx[4].unique);
    }

    #[test]
    fn visibility_rules() {
        assert!(index_visible(None, None));
        assert!(index_visible(Some("YES"), None));
        assert!(!index_visible(Some("NO"), None));
        assert!(index_visible(None, Some("NO")));
        assert!(!index_visible(None, Some("YES")));
    }
}
