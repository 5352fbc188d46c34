//! CHECK constraints and foreign keys.

use crate::ident::Ident;

/// A named CHECK constraint. MariaDB's implicit `json_valid(col)` check
/// of a json column is not one: it belongs to the column's type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// Constraint name (unique per schema on MySQL).
    pub name: Ident,
    /// The condition: from a catalog, rendered by the closed expression
    /// renderer; from a server or dump, its text (compared after
    /// normalisation, see [`crate::model::shape::same_expression`]).
    pub expression: String,
    /// Enforced (the default) or `NOT ENFORCED` (MySQL 8.0.16+ only:
    /// MariaDB enforces every CHECK; catalog `enforced: false`).
    pub enforced: bool,
    /// Table level (`CONSTRAINT name CHECK (...)`) or column level (`CHECK
    /// (...)` in a column's definition, named after the column).
    pub level: CheckLevel,
}

/// Where a CHECK constraint is declared: MariaDB keeps the difference
/// (information_schema.CHECK_CONSTRAINTS.LEVEL `Table` / `Column`, MariaDB
/// 10.5.10+; SHOW CREATE TABLE prints a column-level one inside its
/// column's definition, and DROP COLUMN drops it with its column, while a
/// table-level one naming the column makes the DROP fail). MySQL stores
/// every CHECK as a table constraint (CHECK_CONSTRAINTS has no LEVEL; a
/// column-level one is named `<table>_chk_<n>`), so the level is compared
/// only where [`crate::Flavor::keeps_check_levels`] says so.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum CheckLevel {
    /// `CONSTRAINT name CHECK (...)` among the table's items (the default).
    #[default]
    Table,
    /// `CHECK (...)` in the definition of the column of the check's name.
    Column,
}

impl CheckLevel {
    /// The catalog spelling and information_schema's word, lowercased
    /// (`table`, `column`).
    pub fn name(self) -> &'static str {
        match self {
            CheckLevel::Table => "table",
            CheckLevel::Column => "column",
        }
    }

    /// Reads `table` / `column` (any case, as CHECK_CONSTRAINTS.LEVEL
    /// spells them `Table` / `Column`).
    pub fn parse(text: &str) -> Option<CheckLevel> {
        [CheckLevel::Table, CheckLevel::Column]
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(text.trim()))
    }
}

/// What a foreign key does to the child rows when the referenced row is
/// deleted or its key updated (`ON DELETE` / `ON UPDATE`): a closed set.
/// InnoDB (MySQL, MariaDB) and TiDB treat `NO ACTION` as `RESTRICT` (the
/// check is immediate; MySQL manual "FOREIGN KEY Constraints": "In MySQL,
/// equivalent to RESTRICT"; MariaDB KB "Foreign Keys"). The servers store
/// the word given and report an omitted action differently (MariaDB
/// `RESTRICT`, MySQL `NO ACTION`), so the two are kept apart as read (for
/// messages) and compared by [`ReferentialAction::effect`]: one catalog
/// covers both servers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum ReferentialAction {
    /// `RESTRICT`: refuse the parent change (the catalog's default).
    #[default]
    Restrict,
    /// `CASCADE`: delete / update the child rows too.
    Cascade,
    /// `SET NULL`: set the child's columns to NULL (they must be nullable).
    SetNull,
    /// `NO ACTION`: as RESTRICT on InnoDB and TiDB.
    NoAction,
    /// `SET DEFAULT`: refused by InnoDB (MariaDB 10.11 silently stores
    /// RESTRICT instead); only ever read from a server or a dump.
    SetDefault,
}

impl ReferentialAction {
    /// Every action, in declaration order.
    pub const ALL: [ReferentialAction; 5] = [
        ReferentialAction::Restrict,
        ReferentialAction::Cascade,
        ReferentialAction::SetNull,
        ReferentialAction::NoAction,
        ReferentialAction::SetDefault,
    ];

    /// The SQL keywords (`SET NULL`), as the servers report them in
    /// information_schema.REFERENTIAL_CONSTRAINTS.
    pub fn sql(self) -> &'static str {
        match self {
            ReferentialAction::Restrict => "RESTRICT",
            ReferentialAction::Cascade => "CASCADE",
            ReferentialAction::SetNull => "SET NULL",
            ReferentialAction::NoAction => "NO ACTION",
            ReferentialAction::SetDefault => "SET DEFAULT",
        }
    }

    /// What the action does on InnoDB and TiDB: `NO ACTION` is `RESTRICT`
    /// (both refuse the parent change at once). Every comparison of
    /// actions goes through this, and a catalog (and import) writes the
    /// result: `restrict`, the catalog's default, because it names what
    /// the servers do (the SQL standard's deferred NO ACTION check does
    /// not exist on them).
    pub fn effect(self) -> ReferentialAction {
        match self {
            ReferentialAction::NoAction => ReferentialAction::Restrict,
            other => other,
        }
    }

    /// Whether two actions do the same thing ([`ReferentialAction::effect`]).
    pub fn same_effect(self, other: ReferentialAction) -> bool {
        self.effect() == other.effect()
    }

    /// The catalog spelling (`set null`).
    pub fn yaml(self) -> String {
        self.sql().to_ascii_lowercase()
    }

    /// Reads `restrict`, `SET NULL`, `set_null`, `no action` (any case,
    /// `_` or spaces between the words).
    pub fn parse(text: &str) -> Option<ReferentialAction> {
        let words: Vec<String> = text
            .split(|c: char| c == '_' || c.is_whitespace())
            .filter(|w| !w.is_empty())
            .map(str::to_ascii_uppercase)
            .collect();
        let text = words.join(" ");
        ReferentialAction::ALL.into_iter().find(|a| a.sql() == text)
    }
}

/// A foreign key of a table (format v2 `foreign_keys`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForeignKey {
    /// Constraint name (unique per schema on InnoDB).
    pub name: Ident,
    /// The child's columns, in key order.
    pub columns: Vec<Ident>,
    /// The referenced table's schema when it is not the table's own (live
    /// and dumps only; a catalog references tables of its own schema).
    pub referenced_schema: Option<Ident>,
    /// The referenced (parent) table.
    pub referenced_table: Ident,
    /// The referenced columns, in key order.
    pub referenced_columns: Vec<Ident>,
    /// `ON DELETE`.
    pub on_delete: ReferentialAction,
    /// `ON UPDATE`.
    pub on_update: ReferentialAction,
}

impl ForeignKey {
    /// Whether `self` (live) has exactly the shape of `want` (catalog):
    /// columns, referenced table and columns (names case-insensitive) and
    /// both actions (by effect: `NO ACTION` is `RESTRICT`).
    pub fn same_shape(&self, want: &ForeignKey) -> bool {
        self.columns == want.columns
            && self.referenced_schema == want.referenced_schema
            && self.referenced_table == want.referenced_table
            && self.referenced_columns == want.referenced_columns
            && self.on_delete.same_effect(want.on_delete)
            && self.on_update.same_effect(want.on_update)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_action_and_restrict_are_one_action() {
        use ReferentialAction as A;
        assert!(A::NoAction.same_effect(A::Restrict));
        assert!(A::Restrict.same_effect(A::NoAction));
        assert_eq!(A::NoAction.effect(), A::Restrict);
        for a in [A::Cascade, A::SetNull, A::SetDefault] {
            assert!(!a.same_effect(A::Restrict), "{a:?}");
            assert_eq!(a.effect(), a);
        }
    }

    #[test]
    fn referential_actions_parse_from_a_closed_set() {
        for a in ReferentialAction::ALL {
            assert_eq!(ReferentialAction::parse(a.sql()), Some(a));
            assert_eq!(ReferentialAction::parse(&a.yaml()), Some(a));
        }
        assert_eq!(
            ReferentialAction::parse("set_null"),
            Some(ReferentialAction::SetNull)
        );
        assert_eq!(
            ReferentialAction::parse(" No  Action "),
            Some(ReferentialAction::NoAction)
        );
        for bad in ["", "delete", "set", "cascade;", "restrict cascade"] {
            assert_eq!(ReferentialAction::parse(bad), None, "{bad}");
        }
    }
}
