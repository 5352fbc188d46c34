//! Index changes: added (the first FULLTEXT apart), removed, renamed, and
//! each attribute of a same-named index.

use super::{FindingKind, Out};
use crate::diff::describe_index;
use crate::ident::Ident;
use crate::model::{Index, IndexKind, IndexPart, Table};

pub(super) fn table_indexes(o: &Table, n: &Table, indexes: &[Index], out: &mut Out) {
    let mut removed: Vec<&Index> = o
        .indexes
        .iter()
        .filter(|i| n.index(&i.name).is_none())
        .collect();
    let mut fulltext_before = o.indexes.iter().any(|i| i.kind == IndexKind::FullText);
    for i in indexes {
        if let Some(old) = o.index(&i.name) {
            index(&n.name, old, i, out);
            continue;
        }
        if let Some(k) = removed.iter().position(|r| r.same_shape(i)) {
            let r = removed.remove(k);
            out.push(
                FindingKind::IndexRenamed,
                &n.name,
                Some(i.name.as_str()),
                Some(r.name.as_str().to_string()),
                Some(i.name.as_str().to_string()),
                format!(
                    "looks like a rename of `{}` (same shape): apply renames nothing, so a warm installation keeps `{}` and builds `{}` beside it, a second copy of the same key",
                    r.name, r.name, i.name
                ),
            );
        } else if i.kind == IndexKind::FullText && !fulltext_before {
            fulltext_before = true;
            out.push(
                FindingKind::FirstFulltext,
                &n.name,
                Some(i.name.as_str()),
                None,
                Some(describe_index(i)),
                "the first FULLTEXT index on a populated InnoDB table rebuilds it and cannot be added with LOCK=NONE: apply refuses to lock the table",
            );
        } else {
            out.push(
                FindingKind::IndexAdded,
                &n.name,
                Some(i.name.as_str()),
                None,
                Some(describe_index(i)),
                "apply builds it online on every installation",
            );
        }
    }
    for r in removed {
        out.push(
            FindingKind::IndexRemoved,
            &n.name,
            Some(r.name.as_str()),
            Some(describe_index(r)),
            None,
            "warm installations keep the index (unmanaged, never dropped); greenfield ones will not have it",
        );
    }
}

fn index(table: &Ident, o: &Index, n: &Index, out: &mut Out) {
    let Index {
        name,
        unique,
        parts,
        kind,
        visible,
        comment,
        required_by,
    } = n;
    let obj = Some(name.as_str());
    let (old_text, new_text) = (describe_index(o), describe_index(n));
    let mut refused = |k: FindingKind| {
        out.push(
            k,
            table,
            obj,
            Some(old_text.clone()),
            Some(new_text.clone()),
            "apply never rebuilds an index of the same name: a warm installation keeps OLD's key, apply refuses it as drift and every verify fails there",
        );
    };
    if parts != &o.parts {
        refused(parts_change(&o.parts, parts));
    }
    if unique != &o.unique {
        refused(FindingKind::IndexUniqueness);
    }
    if kind != &o.kind {
        refused(FindingKind::IndexKind);
    }
    if visible != &o.visible {
        refused(FindingKind::IndexVisibility);
    }
    out.informational(
        table,
        obj,
        (&o.comment, comment),
        (&o.required_by, required_by),
    );
}

/// Which way key parts changed: order or direction of the same columns,
/// a prefix length, or other columns.
fn parts_change(old: &[IndexPart], new: &[IndexPart]) -> FindingKind {
    let bare = |p: &IndexPart| match p {
        IndexPart::Column { name, .. } => Some(name.key()),
        IndexPart::Expression(_) => None,
    };
    let prefix = |p: &IndexPart| match p {
        IndexPart::Column { prefix, .. } => *prefix,
        IndexPart::Expression(_) => None,
    };
    let names = |ps: &[IndexPart]| ps.iter().map(bare).collect::<Vec<_>>();
    if names(old) == names(new) && old.iter().map(prefix).ne(new.iter().map(prefix)) {
        return FindingKind::IndexPrefix;
    }
    let mut a = names(old);
    let mut b = names(new);
    a.sort();
    b.sort();
    if a == b {
        FindingKind::IndexOrder
    } else {
        FindingKind::IndexColumns
    }
}
