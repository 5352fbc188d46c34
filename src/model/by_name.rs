//! A table's columns, indexes, checks and foreign keys looked up by folded
//! name: one map built for a comparison of two tables, then a map lookup per
//! name, never a scan of the other table's entries per name (docs/scale.md: a
//! comparison that scales with table width stays linear in it).

use std::collections::HashMap;

use super::{Check, Column, ForeignKey, Index};
use crate::ident::Ident;

/// An entry of a table that has a name.
pub trait Named {
    /// Its name.
    fn name(&self) -> &Ident;
}

/// Each entry type's `name` field is its name.
macro_rules! named_by_field {
    ($($t:ty),*) => {$(
        impl Named for $t {
            fn name(&self) -> &Ident {
                &self.name
            }
        }
    )*};
}

named_by_field!(Column, Index, Check, ForeignKey);

/// The entries of one list by folded name. Of two entries of one name the
/// first is found, as a scan from the start finds it.
pub struct ByName<'a, T> {
    items: &'a [T],
    at: HashMap<&'a str, usize>,
}

impl<'a, T: Named> ByName<'a, T> {
    /// The map of `items`.
    pub fn new(items: &'a [T]) -> Self {
        let mut at = HashMap::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            at.entry(item.name().folded()).or_insert(i);
        }
        ByName { items, at }
    }

    /// The entry named `name` (case-insensitively).
    pub fn get(&self, name: &Ident) -> Option<&'a T> {
        self.position(name).map(|i| &self.items[i])
    }

    /// Where the entry named `name` is in the list.
    pub fn position(&self, name: &Ident) -> Option<usize> {
        self.at.get(name.folded()).copied()
    }

    /// Whether an entry is named `name`.
    pub fn contains(&self, name: &Ident) -> bool {
        self.at.contains_key(name.folded())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ColumnType;

    #[test]
    fn finds_by_folded_name_the_first_of_a_name() {
        // Hand-built: no table holds two columns whose names fold alike.
        let mut a = Column::new("Id", ColumnType::Varchar(8));
        a.comment = Some("first".into());
        let mut b = Column::new("ID", ColumnType::Varchar(8));
        b.comment = Some("second".into());
        let cols = vec![Column::new("x", ColumnType::Varchar(8)), a, b];
        let by = ByName::new(&cols);
        assert_eq!(by.position(&Ident::new("iD")), Some(1));
        assert_eq!(
            by.get(&Ident::new("id")).and_then(|c| c.comment.as_deref()),
            Some("first")
        );
        assert!(by.contains(&Ident::new("X")));
        assert!(!by.contains(&Ident::new("y")));
    }
}
