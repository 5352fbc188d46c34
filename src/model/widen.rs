//! The widening words diff and the catalog share: a column's opt-in
//! ([`Widen`]), a catalog's opt-ins by table and column ([`Widens`]), and
//! what a widening changes ([`WidenRule`]). Not physical shape: no server
//! or dump has an opt-in; the catalog's policy holds it
//! ([`crate::catalog::TablePolicy`]) and diff is handed it.

use std::collections::HashMap;

use crate::ident::Ident;

/// A column's widening opt-in (docs/catalog-format.md). Without one the contract is
/// strictly additive: a live column of another shape is drift.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Widen {
    /// Strictly additive (the default; every live column).
    #[default]
    Off,
    /// `catalog.yaml` `defaults: { widen: true }`: type widenings from the
    /// rule table ([`crate::diff::widening`]); not a changed default,
    /// which the application may rely on.
    Types,
    /// The column's own `widen: true`: type widenings and a changed default.
    TypesAndDefault,
}

/// What a widening changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WidenRule {
    /// VARCHAR(n) to VARCHAR(m), m > n, within the allowed length-byte classes.
    VarcharLength,
    /// ENUM members appended at the end, storage size unchanged.
    EnumAppend,
    /// SET members appended at the end, storage size unchanged.
    SetAppend,
    /// The default set, changed or dropped.
    Default,
    /// A wider integer of the same signedness (TiDB only).
    IntegerWidth,
}

impl WidenRule {
    /// The rule's name in docs and reasons (`varchar_length` ...).
    pub fn name(self) -> &'static str {
        match self {
            WidenRule::VarcharLength => "varchar_length",
            WidenRule::EnumAppend => "enum_append",
            WidenRule::SetAppend => "set_append",
            WidenRule::Default => "default",
            WidenRule::IntegerWidth => "integer_width",
        }
    }
}

/// The widening opt-ins of a catalog's columns, by table and column
/// (names compared case-insensitively): what diff needs of the catalog's
/// policy ([`crate::catalog::Catalog::widens`]). Empty (the default): no
/// column opted in, strictly additive, as for a diff without a catalog.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Widens {
    by_table: HashMap<String, HashMap<String, Widen>>,
}

impl Widens {
    /// No opt-ins: every column strictly additive.
    pub fn none() -> Widens {
        Widens::default()
    }

    /// Sets column `column` of table `table` to `widen`.
    pub fn set(&mut self, table: &Ident, column: &Ident, widen: Widen) {
        if widen == Widen::Off {
            if let Some(columns) = self.by_table.get_mut(table.folded()) {
                columns.remove(column.folded());
            }
            return;
        }
        self.by_table
            .entry(table.key())
            .or_default()
            .insert(column.key(), widen);
    }

    /// The opt-in of column `column` of table `table` ([`Widen::Off`]
    /// unless set).
    pub fn of(&self, table: &Ident, column: &Ident) -> Widen {
        self.by_table
            .get(table.folded())
            .and_then(|columns| columns.get(column.folded()))
            .copied()
            .unwrap_or_default()
    }

    /// Whether no column opted in.
    pub fn is_empty(&self) -> bool {
        self.by_table.values().all(HashMap::is_empty)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opt_ins_are_looked_up_case_insensitively_and_default_to_off() {
        let mut w = Widens::none();
        assert!(w.is_empty());
        w.set(&Ident::new("Jobs"), &Ident::new("State"), Widen::Types);
        assert_eq!(
            w.of(&Ident::new("JOBS"), &Ident::new("state")),
            Widen::Types
        );
        assert_eq!(w.of(&Ident::new("Jobs"), &Ident::new("Other")), Widen::Off);
        assert_eq!(w.of(&Ident::new("Other"), &Ident::new("State")), Widen::Off);
        w.set(&Ident::new("jobs"), &Ident::new("STATE"), Widen::Off);
        assert!(w.is_empty());
    }
}
