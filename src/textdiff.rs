//! Readable diffs: for a drifted or incomplete table, a unified diff between
//! the table as the catalog declares it and as it is, both rendered as
//! `CREATE TABLE` text by [`crate::ddl::create_table`] for the same flavor.
//!
//! Comments are left out of both sides (they are informational and never
//! compared), so every changed line is a difference that matters or an
//! unmanaged object. The library returns plain text and typed lines; callers
//! decide about color.

use similar::TextDiff;

use crate::ddl;
use crate::model::Table;
use crate::server::Flavor;

/// Which side a line of a [`TableText`] belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LineKind {
    /// A hunk header (`@@ ... @@`) or a file header (`---` / `+++`).
    Header,
    /// Same on both sides.
    Same,
    /// Only in the catalog (`-`).
    Catalog,
    /// Only in the database or dump (`+`).
    Actual,
}

/// One line of a unified diff, without its newline.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct DiffLine {
    /// Its side.
    pub kind: LineKind,
    /// The full line, including its `-`/`+`/` ` marker.
    pub text: String,
}

/// The readable diff of one table.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct TableText {
    /// Table name.
    pub table: String,
    /// The unified diff as plain text (`--- catalog` / `+++ <source>`).
    pub text: String,
    /// The same, line by line.
    pub lines: Vec<DiffLine>,
}

/// `CREATE TABLE` text of `table` without comments, for diffs.
pub fn render_for_diff(table: &Table, flavor: Flavor) -> String {
    let mut t = table.clone();
    t.comment = None;
    for c in &mut t.columns {
        c.comment = None;
    }
    for i in &mut t.indexes {
        i.comment = None;
    }
    let mut text = ddl::create_table(&t, flavor);
    text.push('\n');
    text
}

/// The unified diff between `want` (catalog) and `have` (as it is, read from
/// `source`: a database or a dump file). `None` when both render the same.
/// A name that is not a base table (a view) gets no diff: its problem says it all.
pub fn table_text(want: &Table, have: &Table, flavor: Flavor, source: &str) -> Option<TableText> {
    if have.kind != crate::model::TableKind::Base {
        return None;
    }
    revision_text(want, have, flavor, "catalog", source)
}

/// The unified diff from `old` (labelled `old_label`) to `new`: the same
/// rendering as [`table_text`], for two catalog revisions (`catalog diff`).
pub fn revision_text(
    old: &Table,
    new: &Table,
    flavor: Flavor,
    old_label: &str,
    new_label: &str,
) -> Option<TableText> {
    // An unchanged table renders the same on both sides: no rendering
    // (docs/scale.md: two renders of every table of a large catalog).
    if old == new {
        return None;
    }
    let want = old;
    let old = render_for_diff(want, flavor);
    let new = render_for_diff(&align_indexes(want, new), flavor);
    if old == new {
        return None;
    }
    let diff = TextDiff::from_lines(&old, &new);
    let text = diff
        .unified_diff()
        .context_radius(3)
        .header(old_label, new_label)
        .to_string();
    let lines = text
        .lines()
        .map(|l| DiffLine {
            kind: classify(l),
            text: l.to_string(),
        })
        .collect();
    Some(TableText {
        table: want.name.as_str().to_string(),
        text,
        lines,
    })
}

/// `have` with its indexes in the catalog's order, then the others by name:
/// index order carries no meaning (live inspection reads them by name, a dump
/// in declaration order), so it must not show up as a difference.
fn align_indexes(want: &Table, have: &Table) -> Table {
    let mut t = have.clone();
    let wanted = crate::model::ByName::new(&want.indexes);
    let pos = |i: &crate::model::Index| wanted.position(&i.name);
    t.indexes.sort_by(|a, b| match (pos(a), pos(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => a.name.cmp(&b.name),
    });
    t
}

fn classify(line: &str) -> LineKind {
    if line.starts_with("@@") || line.starts_with("--- ") || line.starts_with("+++ ") {
        LineKind::Header
    } else if line.starts_with('-') {
        LineKind::Catalog
    } else if line.starts_with('+') {
        LineKind::Actual
    } else {
        LineKind::Same
    }
}

/// Diffs of the live tables `haves` (as a plan or verify report keeps them:
/// the existing tables that are incomplete or drifted) against their catalog
/// shapes in `wants`. Sorted by table name.
pub fn table_texts<'a>(
    wants: impl IntoIterator<Item = &'a Table>,
    haves: &[Table],
    flavor: Flavor,
    source: &str,
) -> Vec<TableText> {
    // Looked up by folded name, not searched (docs/scale.md: a scan of every
    // catalog table per changed table).
    let mut by_name: std::collections::HashMap<&str, &Table> = std::collections::HashMap::new();
    for w in wants {
        by_name.entry(w.name.folded()).or_insert(w);
    }
    let mut out: Vec<TableText> = haves
        .iter()
        .filter_map(|h| {
            let w = *by_name.get(h.name.folded())?;
            table_text(w, h, flavor, source)
        })
        .collect();
    out.sort_by(|a, b| {
        crate::Ident::new(a.table.as_str()).cmp(&crate::Ident::new(b.table.as_str()))
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Table `t`: `Id` and its primary key, then `items` (each led by `, `).
    fn table(items: &str) -> Table {
        crate::dump::table(&format!(
            "CREATE TABLE `t` (`Id` bigint unsigned NOT NULL, PRIMARY KEY (`Id`){items}) \
             ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin COMMENT='c'"
        ))
    }

    #[test]
    fn only_real_differences_show() {
        let want = table("");
        let mut have = table("");
        have.comment = None;
        assert_eq!(table_text(&want, &have, Flavor::MariaDb, "db"), None);
        let want2 = table(", KEY `i` (`Id`)");
        let d = table_text(&want2, &have, Flavor::MariaDb, "db").unwrap();
        assert!(d.text.starts_with("--- catalog\n+++ db\n"), "{}", d.text);
        let removed: Vec<&str> = d
            .lines
            .iter()
            .filter(|l| l.kind == LineKind::Catalog)
            .map(|l| l.text.as_str())
            .collect();
        assert_eq!(removed, ["-  PRIMARY KEY (`Id`),", "-  KEY `i` (`Id`)"]);
    }
}
