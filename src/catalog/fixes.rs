//! The fix hint of every catalog rule: what a user does about one of its
//! findings, in one line. Each finding carries its rule's hint (`fix` in
//! JSON and SARIF, a `help:` line in the human report); the finding's
//! message says what is wrong in the case at hand.
//!
//! Also which rules a `# catalog: allow RULE` comment may silence at error
//! severity ([`Allow`]). A leaf beside `rule_ids`: a test fails when a rule
//! of [`super::RULES`] has no row here (or a row names no rule).

use super::rule_ids as ids;
use crate::finding::lint::Rule;

/// Whether `# catalog: allow RULE` may silence an error of the rule.
/// A warning of any rule may be allowed: it never made the catalog invalid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Allow {
    /// A house rule: the server would accept the catalog, so an error of
    /// it may be allowed where the team decides so.
    Policy,
    /// The table could not be built as declared, or a server would refuse
    /// its DDL: an error stays an error (a warning may still be allowed).
    WarningsOnly,
}

/// The fix hints of the policy rules, quoted in their messages too.
/// The fix a finding of this rule suggests.
pub(in crate::catalog) const PRIMARY_KEY_FIX: &str =
    "declare `primary_key: [Id]` (a NOT NULL column, e.g. `{name: Id, type: bigint unsigned, nullable: false, auto_increment: true}`)";

/// The fix a finding of this rule suggests.
pub(in crate::catalog) const PK_TYPE_FIX: &str =
    "widen the column (e.g. `type: bigint unsigned`), or set `lint: { min_pk_type: int }` in catalog.yaml";

/// The fix a finding of this rule suggests.
pub(in crate::catalog) const NAMING_FIX: &str =
    "rename the object to match the pattern, or change `lint: naming:` in catalog.yaml";

/// The fix a finding of this rule suggests.
pub(in crate::catalog) const RESERVED_WORD_FIX: &str =
    "rename it (e.g. `OrderNo` for `Order`), or quote it with backticks in every hand-written query";

/// The fix a finding of this rule suggests.
pub(in crate::catalog) const REDUNDANT_INDEX_FIX: &str =
    "remove the shorter index (queries on its columns use the longer one), or set `redundant-index: off`";

/// The fix a finding of these rules suggests.
pub(in crate::catalog) const ALLOWED_FIX: &str =
    "use one the catalog allows, or add it to the list in catalog.yaml `lint:`";

/// The fix a finding of this rule suggests.
pub(in crate::catalog) const HAS_FLOAT_FIX: &str =
    "use `decimal(p,s)` for exact values (e.g. `decimal(12,2)` for money), or set `has-float: off` when approximate values are meant";

/// The fix a finding of this rule suggests.
pub(in crate::catalog) const ZERO_DATE_FIX: &str =
    "make the column nullable and default to NULL, or default to a real date";

/// The fix a finding of this rule suggests.
pub(in crate::catalog) const TIDB_CHECK_FIX: &str =
    "declare `tidb: { check_constraints: enforced }` in catalog.yaml (and `SET GLOBAL tidb_enable_check_constraint = ON` on the servers), or list only `flavors: [mysql, mariadb]`";

/// The fix a finding of this rule suggests.
pub(in crate::catalog) const TIDB_IGNORED_FIX: &str =
    "remove `order: desc` (TiDB scans an ascending index backwards), or list only `flavors: [mysql, mariadb]` in catalog.yaml";

/// The fix of an `auto-increment-capacity` finding (`catalog verify`).
pub(crate) const AUTO_INCREMENT_CAPACITY_FIX: &str =
    "widen the column (e.g. `type: bigint unsigned`) before it runs out, or raise `lint: auto_increment_max_share`";

/// Rule id, fix hint, whether its errors may be allowed.
const FIXES: &[(&Rule, &str, Allow)] = &[
    (&ids::CATALOG_FILES, "keep one `<table>.yaml` per table and at most one catalog.yaml in the directory given by --catalog, each readable", Allow::WarningsOnly),
    (&ids::YAML_SYNTAX, "fix the YAML at the line shown (indentation is two spaces per level; quote a value holding `: ` or `#`)", Allow::WarningsOnly),
    (&ids::UNKNOWN_KEY, "rename the key to the one the message suggests, or remove it (docs/catalog-format.md lists the keys of each place)", Allow::WarningsOnly),
    (&ids::YAML_SHAPE, "give the value the shape the message names (a mapping, a list, a string, a number or true/false)", Allow::WarningsOnly),
    (&ids::SETTINGS, "in catalog.yaml list each flavor (tidb, mysql, mariadb) and each external table once, and give `max_index_bytes` a positive number", Allow::WarningsOnly),
    (&ids::IDENTIFIER, "rename the object: 1 to 64 characters, without a backtick or NUL", Allow::WarningsOnly),
    (&ids::DUPLICATE_NAME, "rename one of the two objects, or merge them (names compare case-insensitively)", Allow::WarningsOnly),
    (&ids::REQUIRED_BY, "list consumer names in `required_by` (letters, digits, `-`, `_`, `.`), each once", Allow::WarningsOnly),
    (&ids::UNKNOWN_TYPE, "write one of the types docs/catalog-format.md lists (`srid` only on a spatial type)", Allow::WarningsOnly),
    (&ids::MEMBERS, "list each enum/set member once, without a trailing space (and without a comma in a set), within the server's count", Allow::WarningsOnly),
    (&ids::CHARSET, "name a known charset and a collation of that charset, on a textual column only", Allow::WarningsOnly),
    (&ids::ENGINE, "use one of the engines the catalog knows (InnoDB unless the table needs another)", Allow::WarningsOnly),
    (&ids::DEFAULT, "give a default the column's type accepts (NULL only on a nullable column), or remove `default`", Allow::WarningsOnly),
    (&ids::ON_UPDATE, "use `on_update: CURRENT_TIMESTAMP(p)` at the column's precision, on a datetime or timestamp column", Allow::WarningsOnly),
    (&ids::AUTO_INCREMENT, "keep one integer auto_increment column, without a default, as the first column of a key", Allow::WarningsOnly),
    (&ids::INVISIBLE, "make at least one column visible (remove `invisible: true` from one)", Allow::WarningsOnly),
    (&ids::GENERATED, "write the generation expression over columns declared before it, without auto_increment or on_update", Allow::WarningsOnly),
    (&ids::CHECK, "write the CHECK expression as one SQL expression over the table's columns", Allow::WarningsOnly),
    (&ids::KEY_COLUMNS, "name declared columns, each once, NOT NULL in the primary key, with a kind and prefix the column allows", Allow::WarningsOnly),
    (&ids::KEY_WIDTH, "narrow the key: fewer or shorter columns, or a fixed-width digest column (e.g. binary(32)) in place of long text", Allow::WarningsOnly),
    (&ids::KEY_SCOPE, "give the key's columns the key's `required_by` scope (or widen it), or scope the key to its columns' consumers", Allow::WarningsOnly),
    (&ids::PREFIX_KEY, "index whole columns (a digest column for long text), or keep the prefix and allow the finding", Allow::Policy),
    (&ids::DUPLICATE_INDEX, "drop the index that repeats the other, or change its columns", Allow::Policy),
    (&ids::LIMITS, "stay within the server's limit the message names: split the table, shorten the comment or drop columns", Allow::WarningsOnly),
    (&ids::FOREIGN_KEY, "reference a declared table and key with columns of matching types, and index the referencing columns first", Allow::WarningsOnly),
    (&ids::FK_SCOPE, "give the foreign key the `required_by` scope of its columns and referenced table", Allow::WarningsOnly),
    (&ids::FLAVOR, "drop the feature, or remove the flavor that lacks it from catalog.yaml `flavors`", Allow::WarningsOnly),
    (&ids::SPATIAL_SRID, "declare `srid` (e.g. 4326) on the SPATIAL index's column, so MySQL uses the index", Allow::Policy),
    (&ids::STORABLE, "keep comments, defaults and expressions to characters of the Basic Multilingual Plane (no emoji)", Allow::WarningsOnly),
    (&ids::TIDB_OPTION, "write the TiDB option as docs/catalog-format.md shows, in a catalog whose `flavors` include tidb", Allow::WarningsOnly),
    (&ids::TIDB_ONLY, "keep the option if TiDB is the reason for it (MySQL and MariaDB ignore it), or remove it", Allow::Policy),
    (&ids::QUERY, "name each query once and write SQL over catalog tables and columns, with parameters and fixtures that fit", Allow::WarningsOnly),
    (&ids::ALLOW_COMMENT, "name a rule id of `catalog check`'s list after `# catalog: allow` (a rule whose errors may be allowed, with a finding on the node it marks), or remove the comment", Allow::WarningsOnly),
    (&ids::PRIMARY_KEY, PRIMARY_KEY_FIX, Allow::Policy),
    (&ids::PK_TYPE, PK_TYPE_FIX, Allow::Policy),
    (&ids::NAMING, NAMING_FIX, Allow::Policy),
    (&ids::RESERVED_WORD, RESERVED_WORD_FIX, Allow::Policy),
    (&ids::REDUNDANT_INDEX, REDUNDANT_INDEX_FIX, Allow::Policy),
    (&ids::ALLOWED_CHARSET, ALLOWED_FIX, Allow::Policy),
    (&ids::ALLOWED_COLLATION, ALLOWED_FIX, Allow::Policy),
    (&ids::HAS_FLOAT, HAS_FLOAT_FIX, Allow::Policy),
    (&ids::ZERO_DATE, ZERO_DATE_FIX, Allow::Policy),
    (&ids::TIDB_CHECK, TIDB_CHECK_FIX, Allow::Policy),
    (&ids::TIDB_IGNORED, TIDB_IGNORED_FIX, Allow::WarningsOnly),
    (&ids::AUTO_INCREMENT_CAPACITY, AUTO_INCREMENT_CAPACITY_FIX, Allow::Policy),
];

/// The fix hint of the rule `id` (empty for an id that is no catalog rule).
pub(crate) fn hint(id: &str) -> &'static str {
    row(id).map_or("", |(_, fix, _)| fix)
}

/// Whether errors of the rule `id` may be allowed by a comment.
pub(crate) fn allow(id: &str) -> Option<Allow> {
    row(id).map(|(_, _, allow)| *allow)
}

fn row(id: &str) -> Option<&'static (&'static Rule, &'static str, Allow)> {
    FIXES.iter().find(|(r, _, _)| r.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_has_one_fix_hint() {
        for r in super::super::RULES {
            let rows = FIXES.iter().filter(|(f, _, _)| f.id == r.id).count();
            assert_eq!(
                rows, 1,
                "rule `{}` needs exactly one row in src/catalog/fixes.rs (has {rows})",
                r.id
            );
            assert!(!hint(r.id).is_empty(), "rule `{}` has an empty hint", r.id);
        }
        for (r, _, _) in FIXES {
            assert!(
                super::super::rule_ids::find(r.id).is_some(),
                "src/catalog/fixes.rs has a row for `{}`, which RULES does not list",
                r.id
            );
        }
    }

    #[test]
    fn hints_are_one_line() {
        for (r, fix, _) in FIXES {
            assert!(!fix.contains('\n') && !fix.ends_with('.'), "{}", r.id);
        }
    }
}
