//! Every catalog lint rule: its stable id, the severity of its findings,
//! what it checks and the YAML keys a finding points at. Each finding the
//! catalog reader or a rule reports names one of these (`Sink::report`).
//!
//! A new rule: a `Rule` constant here, listed in [`RULES`], a line in
//! docs/catalog-format.md ("Lint rules"; a test holds the two together),
//! and its check in the file of its family. A leaf: the reader and the
//! rules both import it, it imports neither.

use crate::finding::lint::{Rule, Severity};

const fn error(id: &'static str, checks: &'static str, keys: &'static [&'static str]) -> Rule {
    Rule {
        id,
        severity: Severity::Error,
        checks,
        keys,
    }
}

const fn warning(id: &'static str, checks: &'static str, keys: &'static [&'static str]) -> Rule {
    Rule {
        id,
        severity: Severity::Warning,
        checks,
        keys,
    }
}

/// The file set: names, a file given twice, unreadable files, a catalog
/// with no tables, two settings files.
pub const CATALOG_FILES: Rule = error(
    "catalog-files",
    "the catalog's files: `.yaml` names, each file once, readable, at least one table, one settings file",
    &[],
);
/// Malformed YAML.
pub const YAML_SYNTAX: Rule = error("yaml-syntax", "the file is well-formed YAML", &[]);
/// A key the place does not know.
pub const UNKNOWN_KEY: Rule = error(
    "unknown-key",
    "every key is one the place knows (with the nearest known key as a hint)",
    &[],
);
/// A value of the wrong shape (a list where a mapping belongs, ...).
pub const YAML_SHAPE: Rule = error(
    "yaml-shape",
    "every value has the expected shape (mapping, list, string, number, boolean)",
    &[],
);
/// `catalog.yaml`: `flavors`, `external_tables`, `limits`.
pub const SETTINGS: Rule = error(
    "settings",
    "catalog.yaml: known flavors each once, external tables each once, a positive `max_index_bytes`, `replicas` only `required`",
    &["flavors", "external_tables", "max_index_bytes", "replicas"],
);
/// Identifiers.
pub const IDENTIFIER: Rule = error(
    "identifier",
    "table, column, index, check and foreign key names are valid identifiers (1 to 64 characters, no backtick or NUL)",
    &["name", "table"],
);
/// Names declared twice.
pub const DUPLICATE_NAME: Rule = error(
    "duplicate-name",
    "table, column, index, check and foreign key names are unique where the server needs them to be",
    &["name", "table"],
);
/// `required_by` entries.
pub const REQUIRED_BY: Rule = error(
    "required-by",
    "`required_by` entries are consumer names",
    &["required_by"],
);
/// Column types.
pub const UNKNOWN_TYPE: Rule = error(
    "unknown-type",
    "every column has a type the catalog knows, and `srid` only on spatial types",
    &["type", "srid"],
);
/// ENUM and SET members.
pub const MEMBERS: Rule = error(
    "members",
    "enum and set members: within the server's count, no trailing space, no comma in a set, each once",
    &["type"],
);
/// Charsets and collations.
pub const CHARSET: Rule = error(
    "charset",
    "charsets and collations are known, belong together, and stand on textual columns only",
    &["collation", "charset"],
);
/// Storage engines.
pub const ENGINE: Rule = error(
    "engine",
    "the engine is one of the closed set the catalog knows (what an engine cannot hold is `flavor`)",
    &["engine"],
);
/// Column defaults.
pub const DEFAULT: Rule = error(
    "default",
    "a default is a value the column's type and nullability accept",
    &["default"],
);
/// `on_update`.
pub const ON_UPDATE: Rule = error(
    "on-update",
    "`on_update` is the current time, at the column's precision, on a datetime or timestamp column",
    &["on_update"],
);
/// `auto_increment`.
pub const AUTO_INCREMENT: Rule = error(
    "auto-increment",
    "one integer auto_increment column, without a default, first in a key",
    &["auto_increment"],
);
/// Invisible columns.
pub const INVISIBLE: Rule = error("invisible", "at least one column is visible", &["columns"]);
/// Generated columns.
pub const GENERATED: Rule = error(
    "generated",
    "generated columns: an expression the printer accepts, naming earlier columns, no auto_increment or on_update",
    &["generated"],
);
/// CHECK constraints.
pub const CHECK: Rule = error(
    "check",
    "CHECK constraints have an expression the printer accepts",
    &["expression"],
);
/// Key definitions.
pub const KEY_COLUMNS: Rule = error(
    "key-columns",
    "primary key and index parts: declared columns, each once, NOT NULL in the primary key, a kind and prefix the column allows",
    &["columns"],
);
/// Key byte width.
pub const KEY_WIDTH: Rule = error(
    "key-width",
    "the key's bytes fit `limits.max_index_bytes` (3072 for InnoDB DYNAMIC and TiDB)",
    &["columns"],
);
/// Keys against `required_by` scopes.
pub const KEY_SCOPE: Rule = error(
    "key-scope",
    "a primary key or index uses only columns every consumer of the key gets",
    &["columns", "required_by"],
);
/// Prefix key parts.
pub const PREFIX_KEY: Rule = warning(
    "prefix-key",
    "a prefix key part cannot make an equality lookup (or uniqueness) exact",
    &["columns"],
);
/// Indexes the primary key or another index already covers.
pub const DUPLICATE_INDEX: Rule = warning(
    "duplicate-index",
    "an index does not repeat the primary key or another index",
    &["columns"],
);
/// Server limits.
pub const LIMITS: Rule = error(
    "limits",
    "the server's limits: columns and indexes per table, key parts, row size, comment lengths",
    &["comment", "columns"],
);
/// Foreign keys.
pub const FOREIGN_KEY: Rule = error(
    "foreign-key",
    "foreign keys: declared columns, a referenced table and key of matching types, known actions, an index leading with the columns, no cycle",
    &["references", "columns", "on_delete", "on_update"],
);
/// Foreign keys against `required_by` scopes.
pub const FK_SCOPE: Rule = error(
    "fk-scope",
    "a foreign key is in every consumer scope its columns and referenced table are in",
    &["references"],
);
/// What a targeted flavor lacks.
pub const FLAVOR: Rule = error(
    "flavor",
    "every feature the table uses exists on each flavor of `flavors`",
    &[],
);
/// SPATIAL index without an SRID on MySQL.
pub const SPATIAL_SRID: Rule = warning(
    "spatial-srid",
    "a SPATIAL index's column declares `srid` when the catalog targets MySQL",
    &["columns"],
);
/// Characters the servers do not store.
pub const STORABLE: Rule = error(
    "storable",
    "comments, string defaults and expressions hold only characters MariaDB and MySQL store",
    &["comment", "default", "expression"],
);
/// TiDB table options.
pub const TIDB_OPTION: Rule = error(
    "tidb-option",
    "TiDB table options (`clustered`, `shard_row_id_bits`, `pre_split_regions`, `ttl`, `auto_random`) are well-formed and the catalog targets TiDB",
    &["auto_random", "clustered", "shard_row_id_bits", "pre_split_regions", "ttl", "primary_key"],
);
/// TiDB options that other flavors ignore.
pub const TIDB_ONLY: Rule = warning(
    "tidb-only",
    "TiDB table options in a catalog that also targets MySQL or MariaDB, where they do not apply",
    &[
        "shard_row_id_bits",
        "pre_split_regions",
        "ttl",
        "primary_key",
    ],
);
/// Declared queries.
pub const QUERY: Rule = error(
    "query",
    "declared queries: named once, SQL the reader accepts over catalog tables and columns, parameters and fixtures that fit",
    &["sql", "name"],
);
/// `# catalog: allow RULE` comments.
pub const ALLOW_COMMENT: Rule = error(
    "allow-comment",
    "a `# catalog: allow RULE` comment names a known rule whose finding may be allowed there, and silences one",
    &[],
);

/// Policy rules (`rules/policy/`, docs/lint.md): house rules a catalog
/// may set to any level in `lint: rules:`.
/// Every table has a primary key.
pub const PRIMARY_KEY: Rule = error(
    "primary-key",
    "every table declares a primary key",
    &["primary_key", "table"],
);
/// Auto-increment primary keys wide enough.
pub const PK_TYPE: Rule = warning(
    "pk-type",
    "an auto_increment primary-key column is at least `lint: min_pk_type` wide (default bigint)",
    &["type"],
);
/// `lint: naming:` patterns.
pub const NAMING: Rule = error(
    "naming",
    "table, column, index, foreign key and check names match `lint: naming:` (when set)",
    &["name", "table"],
);
/// Reserved words of a targeted flavor.
pub const RESERVED_WORD: Rule = warning(
    "reserved-word",
    "no name is a reserved word of a flavor the catalog targets (MySQL 8.4/9.x, MariaDB 10.11, TiDB 8.5 lists)",
    &["name", "table"],
);
/// Left-prefix indexes.
pub const REDUNDANT_INDEX: Rule = warning(
    "redundant-index",
    "a non-unique index is not a left prefix of another index of its kind or of the primary key (never a UNIQUE key, the primary key, or a foreign key's index)",
    &["columns"],
);
/// `lint: allowed_charsets:`.
pub const ALLOWED_CHARSET: Rule = error(
    "allowed-charset",
    "table and column charsets are in `lint: allowed_charsets` (when set)",
    &["charset", "collation"],
);
/// `lint: allowed_collations:`.
pub const ALLOWED_COLLATION: Rule = error(
    "allowed-collation",
    "table and column collations are in `lint: allowed_collations` (when set)",
    &["collation", "charset"],
);
/// FLOAT and DOUBLE columns.
pub const HAS_FLOAT: Rule = warning(
    "has-float",
    "no FLOAT or DOUBLE column (approximate values where DECIMAL was likely meant)",
    &["type"],
);
/// Zero-date defaults.
pub const ZERO_DATE: Rule = warning(
    "zero-date",
    "no date default with a zero month or day on a catalog whose servers accept one (MariaDB; elsewhere `flavor` refuses it)",
    &["default"],
);
/// CHECK constraints on TiDB.
pub const TIDB_CHECK: Rule = error(
    "tidb-check",
    "a catalog that targets TiDB has CHECK constraints only with `tidb: { check_constraints: enforced }`",
    &["expression", "name"],
);
/// What TiDB parses and ignores.
pub const TIDB_IGNORED: Rule = error(
    "tidb-ignored",
    "a catalog that targets TiDB uses nothing TiDB parses and ignores (descending key parts; FULLTEXT and SPATIAL are `flavor`)",
    &["columns"],
);
/// Auto-increment use, read by `catalog verify`.
pub const AUTO_INCREMENT_CAPACITY: Rule = warning(
    "auto-increment-capacity",
    "`catalog verify`: a table's next AUTO_INCREMENT value is within `lint: auto_increment_max_share` (default 80%) of its column's range",
    &["auto_increment", "type"],
);

/// The rules a catalog may set to any level (`lint: rules:`): the policy
/// rules except `tidb-ignored`, and every rule whose default is a warning.
/// Every other rule stands for something the server refuses or a catalog
/// that cannot be read, and may only be set to `error`.
pub const POLICY: &[Rule] = &[
    PRIMARY_KEY,
    PK_TYPE,
    NAMING,
    RESERVED_WORD,
    REDUNDANT_INDEX,
    ALLOWED_CHARSET,
    ALLOWED_COLLATION,
    HAS_FLOAT,
    ZERO_DATE,
    TIDB_CHECK,
    AUTO_INCREMENT_CAPACITY,
];

/// Whether a catalog may lower `rule` below error (or turn it off).
pub(crate) fn may_lower(rule: &Rule) -> bool {
    rule.severity == Severity::Warning || POLICY.iter().any(|p| p.id == rule.id)
}

/// Every catalog rule, in the order docs/catalog-format.md lists them.
pub const RULES: &[Rule] = &[
    CATALOG_FILES,
    YAML_SYNTAX,
    UNKNOWN_KEY,
    YAML_SHAPE,
    SETTINGS,
    IDENTIFIER,
    DUPLICATE_NAME,
    REQUIRED_BY,
    UNKNOWN_TYPE,
    MEMBERS,
    CHARSET,
    ENGINE,
    DEFAULT,
    ON_UPDATE,
    AUTO_INCREMENT,
    INVISIBLE,
    GENERATED,
    CHECK,
    KEY_COLUMNS,
    KEY_WIDTH,
    KEY_SCOPE,
    PREFIX_KEY,
    DUPLICATE_INDEX,
    LIMITS,
    FOREIGN_KEY,
    FK_SCOPE,
    FLAVOR,
    SPATIAL_SRID,
    STORABLE,
    TIDB_OPTION,
    TIDB_ONLY,
    QUERY,
    PRIMARY_KEY,
    PK_TYPE,
    NAMING,
    RESERVED_WORD,
    REDUNDANT_INDEX,
    ALLOWED_CHARSET,
    ALLOWED_COLLATION,
    HAS_FLOAT,
    ZERO_DATE,
    TIDB_CHECK,
    TIDB_IGNORED,
    AUTO_INCREMENT_CAPACITY,
    ALLOW_COMMENT,
];

/// The rule of an id, if it is a catalog rule.
pub(crate) fn find(id: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_kebab_case() {
        let mut seen = std::collections::BTreeSet::new();
        for r in RULES {
            assert!(seen.insert(r.id), "{} listed twice", r.id);
            assert!(
                r.id.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
                "{}",
                r.id
            );
        }
    }

    #[test]
    fn every_rule_is_documented() {
        let doc = include_str!("../../docs/catalog-format.md");
        for r in RULES {
            assert!(
                doc.contains(&format!("| `{}` |", r.id)),
                "docs/catalog-format.md lists no rule `{}`: add it to the \"Lint rules\" table",
                r.id
            );
        }
    }
}
