//! DDL rendering: greenfield `CREATE TABLE`, additive `ADD COLUMN` and
//! `ADD INDEX`, per flavor. Output is deterministic and carries no trailing
//! semicolon (callers join statements with `;\n`).
//!
//! Every identifier goes through [`quote_ident`] and every string literal
//! through [`quote_str`]; nothing else is spliced into SQL text except the
//! typed column type, charset/collation/engine names from closed sets
//! (an unknown one, which only a live table can hold, is quoted as an
//! identifier) and default expressions re-rendered from their parsed AST
//! by the one printer (`sql::print::closed`).
//!
//! Column definitions and index key-part lists each have exactly one renderer
//! ([`column_definition`], [`key_parts`]), shared by `CREATE TABLE` and the
//! `ALTER TABLE` statements, so a column added later is spelled exactly as a
//! greenfield one.

use crate::collation;
use crate::ident::{quote_ident, quote_str, Ident};
use crate::model::{Column, Index, IndexKind, Table, TableDefaults};
use crate::server::Flavor;
use crate::sqltext::canonical_engine;

pub use crate::model::describe::{foreign_key_definition, key_parts, parser_clause};

/// How an `ADD COLUMN` on MySQL / MariaDB asks to stay online.
///
/// Both make the server refuse (error 1845/1846) rather than silently take a
/// blocking table lock. TiDB ignores this: its DDL is always online.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ColumnAlgorithm {
    /// `ALGORITHM=INSTANT`: metadata-only change (MySQL 8.0.12+, MariaDB 10.3+).
    #[default]
    Instant,
    /// `ALGORITHM=INPLACE, LOCK=NONE`: the fallback when INSTANT is refused.
    InplaceNoLock,
}

impl ColumnAlgorithm {
    /// The clause appended after the alter specification.
    fn clause(self) -> &'static str {
        match self {
            ColumnAlgorithm::Instant => "ALGORITHM=INSTANT",
            ColumnAlgorithm::InplaceNoLock => INPLACE_NO_LOCK,
        }
    }
}

const INPLACE_NO_LOCK: &str = "ALGORITHM=INPLACE, LOCK=NONE";

/// Greenfield `CREATE TABLE` with all columns, the primary key, every
/// secondary index and the table options, one item per line.
///
/// The statement is the same for every flavor (the syntax used is common to
/// TiDB, MySQL 8 and MariaDB 10.11) except for the table's TiDB features
/// ([`crate::model::TidbOptions`]): for TiDB they are written in TiDB's plain syntax
/// (`AUTO_RANDOM(5)` on the column, `CLUSTERED` / `NONCLUSTERED` after the
/// primary key, `SHARD_ROW_ID_BITS=4 PRE_SPLIT_REGIONS=2 TTL=... TTL_ENABLE=...`
/// after the other table options), never as `/*T![...] */` comments; for
/// MySQL and MariaDB they are omitted (the catalog lint warns). On TiDB the
/// `auto_random` column is not AUTO_INCREMENT ([`crate::model::tidb::on_tidb`]). A
/// primary key without `clustered` is left to TiDB's `tidb_enable_clustered_index`.
pub fn create_table(table: &Table, flavor: Flavor) -> String {
    let on_tidb;
    let table = if flavor.has_tidb_table_options() {
        on_tidb = crate::tidb::on_tidb(table);
        &*on_tidb
    } else {
        table
    };
    let tidb = table
        .tidb
        .as_ref()
        .filter(|_| flavor.has_tidb_table_options());
    let defaults = table.defaults();
    let mut items: Vec<String> = table
        .columns
        .iter()
        .map(|c| {
            let auto_random = tidb.and_then(|t| t.auto_random_clause(&c.name));
            let mut def = column_definition_with(c, Some(&defaults), auto_random.as_deref());
            if let Some(check) = column_check(table, c, flavor) {
                def.push_str(&format!(" CHECK ({})", check.expression));
            }
            def
        })
        .collect();
    if !table.primary_key.is_empty() {
        let mut pk = format!("PRIMARY KEY {}", key_parts(&table.primary_key));
        if let Some(clause) = tidb.and_then(|t| t.primary_key_clause()) {
            pk.push(' ');
            pk.push_str(clause);
        }
        items.push(pk);
    }
    items.extend(
        table
            .indexes
            .iter()
            .map(|i| index_definition(i, "KEY", flavor)),
    );
    // A catalog check's condition was rendered by the closed renderer at
    // load; it is written inside its own parentheses.
    items.extend(table_level_checks(table, flavor).map(|c| {
        format!(
            "CONSTRAINT {} CHECK ({}){}",
            quote_ident(c.name.as_str()),
            c.expression,
            if c.enforced { "" } else { " NOT ENFORCED" }
        )
    }));
    items.extend(table.foreign_keys.iter().map(foreign_key_definition));
    let body = items
        .iter()
        .map(|i| format!("  {i}"))
        .collect::<Vec<_>>()
        .join(",\n");
    let mut options = table_options(table);
    for clause in tidb.map(|t| t.table_clauses()).unwrap_or_default() {
        options.push(' ');
        options.push_str(&clause);
    }
    format!(
        "CREATE TABLE {} (\n{body}\n) {options}",
        quote_ident(table.name.as_str()),
    )
}

/// The check written inside `column`'s definition on `flavor`: its
/// column-level CHECK where the server keeps levels apart
/// ([`Flavor::keeps_check_levels`]: MariaDB names it after the column and
/// reports LEVEL `Column`); elsewhere none (MySQL would name an inline
/// CHECK `<table>_chk_<n>`, so every check is written as a named table
/// constraint there).
pub(crate) fn column_check<'t>(
    table: &'t Table,
    column: &Column,
    flavor: Flavor,
) -> Option<&'t crate::model::Check> {
    if !flavor.keeps_check_levels() {
        return None;
    }
    table
        .checks
        .iter()
        .find(|c| c.level == crate::model::CheckLevel::Column && c.name == column.name)
}

/// The checks written as `CONSTRAINT name CHECK (...)` table items on
/// `flavor`: all but those [`column_check`] writes in their column.
pub(crate) fn table_level_checks(
    table: &Table,
    flavor: Flavor,
) -> impl Iterator<Item = &crate::model::Check> {
    table.checks.iter().filter(move |c| {
        !(c.level == crate::model::CheckLevel::Column
            && flavor.keeps_check_levels()
            && table.column(&c.name).is_some())
    })
}

/// `ALTER TABLE t ADD COLUMN <definition>`; on MySQL and MariaDB followed by
/// the online clause of `algo`, on TiDB plain.
pub fn add_column(
    table: &Ident,
    column: &Column,
    defaults: &TableDefaults,
    flavor: Flavor,
    algo: ColumnAlgorithm,
) -> String {
    let stmt = format!(
        "ALTER TABLE {} ADD COLUMN {}",
        quote_ident(table.as_str()),
        column_definition_in(column, defaults)
    );
    with_online_clause(stmt, flavor, algo.clause())
}

/// `ALTER TABLE t ADD COLUMN <definition> AFTER `prev`` (`FIRST` when `after`
/// is `None`): the column takes its catalog position, so a table that gets it
/// later has the same physical column order as a greenfield one. Online clause
/// as in [`add_column`]. INSTANT with a position needs MariaDB 10.4+ / MySQL
/// 8.0.29+ (older MySQL refuses INSTANT and apply falls back to INPLACE,
/// LOCK=NONE); TiDB supports `AFTER`/`FIRST` as plain DDL.
pub fn add_column_at(
    table: &Ident,
    column: &Column,
    defaults: &TableDefaults,
    after: Option<&Ident>,
    flavor: Flavor,
    algo: ColumnAlgorithm,
) -> String {
    let position = match after {
        Some(prev) => format!("AFTER {}", quote_ident(prev.as_str())),
        None => "FIRST".to_string(),
    };
    let stmt = format!(
        "ALTER TABLE {} ADD COLUMN {} {position}",
        quote_ident(table.as_str()),
        column_definition_in(column, defaults)
    );
    with_online_clause(stmt, flavor, algo.clause())
}

/// `ALTER TABLE t MODIFY COLUMN <definition>` with a widening's online
/// clause (the diff's `WidenAlgorithm` says which): `ALGORITHM=INSTANT`,
/// or `ALGORITHM=INPLACE, LOCK=NONE` (MySQL VARCHAR lengthening); `None`
/// plain (TiDB). The whole catalog definition is restated, so the step
/// leaves the column exactly as declared; no position clause (the column
/// stays put).
pub fn widen_column(
    table: &Ident,
    column: &Column,
    defaults: &TableDefaults,
    algo: Option<ColumnAlgorithm>,
) -> String {
    let stmt = format!(
        "ALTER TABLE {} MODIFY COLUMN {}",
        quote_ident(table.as_str()),
        column_definition_in(column, defaults)
    );
    match algo {
        Some(algo) => format!("{stmt}, {}", algo.clause()),
        None => stmt,
    }
}

/// `ALTER TABLE t ADD [UNIQUE] INDEX i (parts)`; on MySQL and MariaDB followed
/// by `ALGORITHM=INPLACE, LOCK=NONE`, on TiDB plain.
pub fn add_index(table: &Ident, index: &Index, flavor: Flavor) -> String {
    let stmt = format!(
        "ALTER TABLE {} ADD {}",
        quote_ident(table.as_str()),
        index_definition(index, "INDEX", flavor)
    );
    with_online_clause(stmt, flavor, INPLACE_NO_LOCK)
}

/// Appends `, <clause>` except on TiDB, whose DDL is always online and which
/// does not need (and for some statements rejects) ALGORITHM/LOCK clauses.
fn with_online_clause(stmt: String, flavor: Flavor, clause: &str) -> String {
    if flavor.takes_online_clauses() {
        format!("{stmt}, {clause}")
    } else {
        stmt
    }
}

/// One column definition, as used in `CREATE TABLE` and `ADD COLUMN`:
/// `` `name` type [CHARACTER SET cs COLLATE co] [GENERATED ...] NOT NULL|NULL
/// [AUTO_INCREMENT] [DEFAULT x] [COMMENT '...'] ``.
///
/// This form states a textual column's character set and collation
/// always (for messages naming a column on its own); statements use
/// [`column_definition_in`]. NULL is always stated explicitly (so a MySQL
/// `timestamp` never picks up implicit NOT NULL / DEFAULT
/// CURRENT_TIMESTAMP behaviour).
pub fn column_definition(column: &Column) -> String {
    column_definition_with(column, None, None)
}

/// The column definition inside a table of `defaults`, as `CREATE TABLE`,
/// `ADD COLUMN` and `MODIFY COLUMN` write it: the column's `CHARACTER SET
/// cs COLLATE co` only where they differ from the table's, as the
/// servers' own SHOW CREATE TABLE prints a column. The column takes the
/// same collation either way; the text matters on MySQL, which remembers
/// a stated collation (the data dictionary's explicit-collation flag) and
/// prints it in SHOW CREATE TABLE ever after, so stating the table's own
/// collation on a column would make an upgraded table read otherwise than
/// a fresh one.
pub fn column_definition_in(column: &Column, defaults: &TableDefaults) -> String {
    column_definition_with(column, Some(defaults), None)
}

/// Whether [`column_definition_in`] states `column`'s `CHARACTER SET` /
/// `COLLATE` inside a table of `defaults`: it has them and they are not
/// the table's own. A server's own `SHOW CREATE TABLE` of a column so
/// written states them exactly then (MySQL: also wherever DDL stated
/// them; the net compares that fact).
pub(crate) fn states_collation(column: &Column, defaults: &TableDefaults) -> bool {
    let inherited = column
        .charset
        .as_deref()
        .is_some_and(|cs| cs.eq_ignore_ascii_case(&defaults.charset))
        && column
            .collation
            .as_deref()
            .is_some_and(|co| co.eq_ignore_ascii_case(&defaults.collation));
    !inherited && (column.charset.is_some() || column.collation.is_some())
}

/// [`column_definition`] inside a table of `defaults` (`None`: stating
/// the charset and collation always), with TiDB's `AUTO_RANDOM(..)`
/// clause where AUTO_INCREMENT would be (a new table's auto-random column
/// on TiDB).
fn column_definition_with(
    column: &Column,
    defaults: Option<&TableDefaults>,
    auto_random: Option<&str>,
) -> String {
    let mut out = format!("{} {}", quote_ident(column.name.as_str()), column.ty);
    if defaults.is_none_or(|d| states_collation(column, d)) {
        if let Some(cs) = &column.charset {
            out.push_str(&format!(" CHARACTER SET {}", charset_name(cs)));
        }
        if let Some(co) = &column.collation {
            out.push_str(&format!(" COLLATE {}", collation_name(co)));
        }
    }
    if let Some(generated) = &column.generated {
        // A catalog's expression was rendered by the closed renderer at load.
        // MariaDB refuses NULL / NOT NULL on a generated column (error 1064;
        // its generated columns are always nullable), so a nullable one
        // states nothing (nullable is every server's default for it) and
        // NOT NULL, linted out of catalogs that target MariaDB, is written.
        out.push_str(&format!(" {generated}"));
        if !column.nullable {
            out.push_str(" NOT NULL");
        }
    } else {
        out.push_str(if column.nullable {
            " NULL"
        } else {
            " NOT NULL"
        });
    }
    if column.auto_increment {
        out.push_str(" AUTO_INCREMENT");
    }
    if let Some(clause) = auto_random {
        out.push(' ');
        out.push_str(clause);
    }
    if let Some(default) = &column.default {
        out.push_str(&format!(
            " DEFAULT {}",
            default.to_sql(column.ty.is_numeric())
        ));
    }
    if let Some(on_update) = &column.on_update {
        out.push_str(&format!(" ON UPDATE {}", on_update.to_sql(false)));
    }
    if column.invisible {
        out.push_str(" INVISIBLE");
    }
    if let Some(comment) = &column.comment {
        out.push_str(&format!(" COMMENT {}", quote_str(comment)));
    }
    out
}

/// An index definition after the keyword that introduces it:
/// `[UNIQUE|FULLTEXT|SPATIAL] <keyword> `name` (parts) [WITH PARSER `p`] [COMMENT '...'] [INVISIBLE|IGNORED]`.
/// `keyword` is `KEY` inside `CREATE TABLE` and `INDEX` after `ADD`.
pub(crate) fn index_definition(index: &Index, keyword: &str, flavor: Flavor) -> String {
    let prefix = match (index.kind, index.unique) {
        (IndexKind::FullText(_), _) => "FULLTEXT ",
        (IndexKind::Spatial, _) => "SPATIAL ",
        (IndexKind::BTree, true) => "UNIQUE ",
        (IndexKind::BTree, false) => "",
    };
    let mut out = format!(
        "{prefix}{keyword} {} {}",
        quote_ident(index.name.as_str()),
        key_parts(&index.parts)
    );
    out.push_str(&parser_clause(index.kind));
    if let Some(comment) = &index.comment {
        out.push_str(&format!(" COMMENT {}", quote_str(comment)));
    }
    if !index.visible {
        out.push(' ');
        out.push_str(flavor.hidden_index_keyword());
    }
    out
}

/// A charset name from the closed table as a keyword; anything else (only a
/// live table can hold one) quoted as an identifier, never pasted.
fn charset_name(name: &str) -> String {
    match collation::charset(name) {
        Some(cs) => cs.name.to_string(),
        None => quote_ident(name),
    }
}

/// A collation name from the closed table as a keyword, else quoted.
fn collation_name(name: &str) -> String {
    match collation::charset_of(name) {
        Some(_) if is_word(name) => name.to_string(),
        _ => quote_ident(name),
    }
}

fn is_word(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `ENGINE=... DEFAULT CHARSET=... COLLATE=... COMMENT='...'`.
fn table_options(table: &Table) -> String {
    let mut opts = Vec::new();
    if let Some(engine) = &table.engine {
        let name = canonical_engine(engine).map_or_else(|| quote_ident(engine), str::to_string);
        opts.push(format!("ENGINE={name}"));
    }
    opts.push(format!("DEFAULT CHARSET={}", charset_name(&table.charset)));
    opts.push(format!("COLLATE={}", collation_name(&table.collation)));
    if let Some(comment) = &table.comment {
        opts.push(format!("COMMENT={}", quote_str(comment)));
    }
    opts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dump::column;

    /// [`table`]'s CREATE TABLE.
    const TABLE: &str = "CREATE TABLE `T` (\
         `Id` bigint unsigned NOT NULL AUTO_INCREMENT COMMENT 'it''s the id', \
         `Key` varchar(128) NOT NULL, \
         `CreatedAt` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), \
         PRIMARY KEY (`Id`), UNIQUE KEY `uq` (`Key`), KEY `idx` (`CreatedAt`, `Id`)\
         ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin \
         COMMENT='a ''quoted'' \\\\ comment'";

    fn table() -> Table {
        crate::dump::table(TABLE)
    }

    #[test]
    fn create_table_text() {
        assert_eq!(
            create_table(&table(), Flavor::MySql),
            "CREATE TABLE `T` (\n\
             \x20 `Id` bigint unsigned NOT NULL AUTO_INCREMENT COMMENT 'it''s the id',\n\
             \x20 `Key` varchar(128) NOT NULL,\n\
             \x20 `CreatedAt` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),\n\
             \x20 PRIMARY KEY (`Id`),\n\
             \x20 UNIQUE KEY `uq` (`Key`),\n\
             \x20 KEY `idx` (`CreatedAt`, `Id`)\n\
             ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin COMMENT='a ''quoted'' \\\\ comment'"
        );
        assert_eq!(
            create_table(&table(), Flavor::TiDb),
            create_table(&table(), Flavor::MySql)
        );
    }

    #[test]
    fn hostile_names_are_quoted() {
        let c = column("`we``ird` int DEFAULT '0'");
        assert_eq!(
            add_column(
                &Ident::new("t`x"),
                &c,
                &table().defaults(),
                Flavor::MariaDb,
                ColumnAlgorithm::Instant
            ),
            "ALTER TABLE `t``x` ADD COLUMN `we``ird` int NULL DEFAULT 0, ALGORITHM=INSTANT"
        );
        let i = crate::dump::index("`a``b` int, `c` int, UNIQUE KEY `i``1` (`a``b`, `c`)");
        assert_eq!(
            add_index(&Ident::new("t"), &i, Flavor::MySql),
            "ALTER TABLE `t` ADD UNIQUE INDEX `i``1` (`a``b`, `c`), ALGORITHM=INPLACE, LOCK=NONE"
        );
    }

    #[test]
    fn positioned_add_column() {
        let t = table();
        // A live table of other defaults: the column states its own, so it
        // ends exactly as declared.
        let latin1 = TableDefaults {
            charset: "latin1".into(),
            collation: "latin1_swedish_ci".into(),
        };
        assert_eq!(
            add_column_at(
                &t.name,
                &t.columns[1],
                &latin1,
                Some(&Ident::new("I`d")),
                Flavor::MariaDb,
                ColumnAlgorithm::Instant
            ),
            "ALTER TABLE `T` ADD COLUMN `Key` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin \
             NOT NULL AFTER `I``d`, ALGORITHM=INSTANT"
        );
        assert_eq!(
            add_column_at(
                &t.name,
                &t.columns[2],
                &t.defaults(),
                None,
                Flavor::TiDb,
                ColumnAlgorithm::Instant
            ),
            "ALTER TABLE `T` ADD COLUMN `CreatedAt` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) FIRST"
        );
    }

    #[test]
    fn tidb_has_no_online_clauses() {
        let t = table();
        let col = add_column(
            &t.name,
            &t.columns[1],
            &t.defaults(),
            Flavor::TiDb,
            ColumnAlgorithm::InplaceNoLock,
        );
        let idx = add_index(&t.name, &t.indexes[1], Flavor::TiDb);
        assert_eq!(
            col,
            "ALTER TABLE `T` ADD COLUMN `Key` varchar(128) NOT NULL"
        );
        assert_eq!(idx, "ALTER TABLE `T` ADD INDEX `idx` (`CreatedAt`, `Id`)");
    }

    #[test]
    fn inplace_fallback_and_string_defaults() {
        let c = column("`State` varchar(32) DEFAULT 'it''s'");
        assert_eq!(
            add_column(
                &Ident::new("t"),
                &c,
                &table().defaults(),
                Flavor::MySql,
                ColumnAlgorithm::InplaceNoLock
            ),
            "ALTER TABLE `t` ADD COLUMN `State` varchar(32) NULL \
             DEFAULT 'it''s', ALGORITHM=INPLACE, LOCK=NONE"
        );
    }

    /// A column states its charset and collation only where they differ
    /// from its table's (greenfield and warm alike), as SHOW CREATE TABLE
    /// prints it; the charset-free form for messages states them always.
    #[test]
    fn collation_only_where_it_differs_from_the_tables() {
        let mut t = table();
        t.collation = "utf8mb4_0900_ai_ci".into();
        let sql = create_table(&t, Flavor::MySql);
        assert!(
            sql.contains("`Key` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL"),
            "{sql}"
        );
        let mut ci = t.columns[1].clone();
        ci.collation = Some("utf8mb4_0900_ai_ci".into());
        assert_eq!(
            widen_column(&t.name, &ci, &t.defaults(), Some(ColumnAlgorithm::Instant)),
            "ALTER TABLE `T` MODIFY COLUMN `Key` varchar(128) NOT NULL, ALGORITHM=INSTANT"
        );
        assert_eq!(
            column_definition(&ci),
            "`Key` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_ai_ci NOT NULL"
        );
    }

    /// MariaDB keeps a column-level CHECK in its column; elsewhere every
    /// check is a named table constraint.
    #[test]
    fn column_level_checks() {
        // As MariaDB prints them: the column's in it, `ck` among the keys.
        let t = crate::dump::table_on(
            Flavor::MariaDb,
            &TABLE
                .replace(
                    "`Key` varchar(128) NOT NULL,",
                    "`Key` varchar(128) NOT NULL CHECK (`Key` <> ''),",
                )
                .replace(
                    "KEY `idx` (`CreatedAt`, `Id`)",
                    "KEY `idx` (`CreatedAt`, `Id`), CONSTRAINT `ck` CHECK (`Id` > 0)",
                ),
        );
        let levels = t.checks.iter().map(|c| c.level).collect::<Vec<_>>();
        assert_eq!(
            levels,
            [
                crate::model::CheckLevel::Column,
                crate::model::CheckLevel::Table
            ]
        );
        let maria = create_table(&t, Flavor::MariaDb);
        assert!(
            maria.contains("  `Key` varchar(128) NOT NULL CHECK (`Key` <> ''),\n"),
            "{maria}"
        );
        assert!(!maria.contains("CONSTRAINT `Key`"), "{maria}");
        assert!(
            maria.contains("  CONSTRAINT `ck` CHECK (`Id` > 0)\n"),
            "{maria}"
        );
        let mysql = create_table(&t, Flavor::MySql);
        assert!(
            mysql.contains("  `Key` varchar(128) NOT NULL,\n"),
            "{mysql}"
        );
        assert!(
            mysql.contains("  CONSTRAINT `Key` CHECK (`Key` <> ''),\n  CONSTRAINT `ck`"),
            "{mysql}"
        );
    }
}
