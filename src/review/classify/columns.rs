//! Column changes: added, removed, renamed, moved, and each attribute of a
//! column on both sides.

use super::{FindingKind, Out, REFUSED};
use crate::diff::describe_column;
use crate::ident::Ident;
use crate::model::{Column, Table};

pub(super) fn table_columns(o: &Table, n: &Table, columns: &[Column], out: &mut Out) {
    let mut added: Vec<(usize, &Column)> = columns
        .iter()
        .enumerate()
        .filter(|(_, c)| o.column(&c.name).is_none())
        .collect();
    let removed: Vec<(usize, &Column)> = o
        .columns
        .iter()
        .enumerate()
        .filter(|(_, c)| n.column(&c.name).is_none())
        .collect();
    let mut removed_left = Vec::new();
    for (i, r) in removed {
        let same = added
            .iter()
            .position(|(j, a)| *j == i && describe_column(a) == describe_column(r));
        match same {
            Some(k) => {
                let (_, a) = added.remove(k);
                out.push(
                    FindingKind::ColumnRenamed,
                    &n.name,
                    Some(a.name.as_str()),
                    Some(r.name.as_str().to_string()),
                    Some(a.name.as_str().to_string()),
                    format!(
                        "looks like a rename of `{}` (same shape, same place): apply renames nothing, so a warm installation keeps `{}` with its values and gets a new, empty `{}`",
                        r.name, r.name, a.name
                    ),
                );
            }
            None => removed_left.push(r),
        }
    }
    for c in columns {
        match o.column(&c.name) {
            Some(old) => column(&n.name, old, c, out),
            None if added.iter().any(|(_, a)| a.name == c.name) => added_column(n, c, out),
            None => {} // reported as a rename
        }
    }
    for r in removed_left {
        out.push(
            FindingKind::ColumnRemoved,
            &n.name,
            Some(r.name.as_str()),
            Some(describe_column(r)),
            None,
            "warm installations keep the column and its values (unmanaged); greenfield ones will not have it",
        );
    }
    for moved in moved_columns(o, n) {
        out.push(
            FindingKind::ColumnMoved,
            &n.name,
            Some(moved.as_str()),
            None,
            None,
            "apply never moves a column: warm installations keep OLD's column order, greenfield ones get NEW's",
        );
    }
}

fn added_column(n: &Table, c: &Column, out: &mut Out) {
    let change = crate::diff::Change::AddColumn {
        table: n.name.clone(),
        column: c.clone(),
        after: None,
    };
    if change.is_additive() {
        out.push(
            FindingKind::ColumnAdded,
            &n.name,
            Some(c.name.as_str()),
            None,
            Some(describe_column(c)),
            "apply adds it in place; retained rows read NULL or the default",
        );
    } else {
        out.push(
            FindingKind::NotNullColumnAdded,
            &n.name,
            Some(c.name.as_str()),
            None,
            Some(describe_column(c)),
            "retained rows have no value for a NOT NULL column without a default (or an AUTO_INCREMENT one): apply refuses to add it on a warm installation; make it nullable or give it a default",
        );
    }
}

/// The columns present on both sides whose relative order changed: those
/// outside the longest run kept in order.
fn moved_columns(o: &Table, n: &Table) -> Vec<Ident> {
    let common: Vec<(&Ident, usize)> = n
        .columns
        .iter()
        .filter_map(|c| {
            o.columns
                .iter()
                .position(|x| x.name == c.name)
                .map(|p| (&c.name, p))
        })
        .collect();
    // Longest increasing subsequence of OLD positions, O(n^2) (tables are small).
    let len = common.len();
    let mut best = vec![1usize; len];
    let mut prev = vec![usize::MAX; len];
    for i in 0..len {
        for j in 0..i {
            if common[j].1 < common[i].1 && best[j] + 1 > best[i] {
                best[i] = best[j] + 1;
                prev[i] = j;
            }
        }
    }
    let mut keep = vec![false; len];
    let mut at = (0..len).max_by_key(|i| (best[*i], usize::MAX - *i));
    while let Some(i) = at {
        keep[i] = true;
        at = (prev[i] != usize::MAX).then(|| prev[i]);
    }
    common
        .iter()
        .zip(keep)
        .filter(|(_, k)| !k)
        .map(|((name, _), _)| (*name).clone())
        .collect()
}

fn column(table: &Ident, o: &Column, n: &Column, out: &mut Out) {
    let Column {
        name,
        ty,
        nullable,
        auto_increment,
        default,
        charset,
        collation,
        generated,
        on_update,
        invisible,
        comment,
        required_by,
    } = n;
    let obj = Some(name.as_str());
    let mut refused = |kind: FindingKind, old: String, new: String| {
        out.push(kind, table, obj, Some(old), Some(new), REFUSED);
    };
    if ty != &o.ty {
        refused(FindingKind::ColumnType, o.ty.to_string(), ty.to_string());
    }
    if nullable != &o.nullable {
        let t = |n: bool| if n { "NULL" } else { "NOT NULL" }.to_string();
        refused(FindingKind::ColumnNullability, t(o.nullable), t(*nullable));
    }
    if default != &o.default {
        refused(
            FindingKind::ColumnDefault,
            crate::diff::default_text(o),
            crate::diff::default_text(n),
        );
    }
    if charset != &o.charset || collation != &o.collation {
        let t = |c: &Column| {
            format!(
                "{} / {}",
                c.charset.as_deref().unwrap_or("-"),
                c.collation.as_deref().unwrap_or("-")
            )
        };
        refused(FindingKind::ColumnCollation, t(o), t(n));
    }
    if auto_increment != &o.auto_increment {
        refused(
            FindingKind::ColumnAutoIncrement,
            o.auto_increment.to_string(),
            auto_increment.to_string(),
        );
    }
    if generated != &o.generated {
        let t = |g: &Option<String>| g.clone().unwrap_or_else(|| "not generated".into());
        refused(FindingKind::ColumnGenerated, t(&o.generated), t(generated));
    }
    if on_update != &o.on_update {
        let t = |d: &Option<crate::model::DefaultValue>| {
            d.as_ref()
                .map(|d| format!("ON UPDATE {}", d.to_sql(false)))
                .unwrap_or_else(|| "no ON UPDATE".into())
        };
        refused(FindingKind::ColumnOnUpdate, t(&o.on_update), t(on_update));
    }
    if invisible != &o.invisible {
        let t = |i: bool| if i { "INVISIBLE" } else { "VISIBLE" }.to_string();
        refused(FindingKind::ColumnInvisible, t(o.invisible), t(*invisible));
    }
    out.informational(
        table,
        obj,
        (&o.comment, comment),
        (&o.required_by, required_by),
    );
}
