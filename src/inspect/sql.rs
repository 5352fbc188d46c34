//! The inspection statement: one `UNION ALL` of five branches per catalog
//! table (its TABLES row, its COLUMNS rows, its index rows, and for its
//! foreign keys its KEY_COLUMN_USAGE and REFERENTIAL_CONSTRAINTS rows), each
//! branch
//! filtered by `TABLE_SCHEMA = ? AND TABLE_NAME = ?`. Every branch has the
//! same shape: `src` (which source), `branch` (the table's position),
//! `ord` (row order within the source) and ten text slots `a`..`j` whose
//! meaning per source is given by [`TABLE_FIELDS`], [`COLUMN_FIELDS`] and
//! [`INDEX_FIELDS`]. Every slot is converted to `utf8mb4_bin` text, so the
//! branches union whatever the servers' own column types and collations.

use crate::server::Flavor;
use crate::server::Server;

mod fields;
pub(crate) use fields::*;

/// How a group of branches names its tables: one table by equality, or
/// a list of `n` tables of the schema by `IN` or by a lateral join (rows
/// then name their table in `tbl`, and the client files them by it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Filter {
    /// `TABLE_NAME = ?`.
    One,
    /// `TABLE_NAME IN (?, ...)`, `n` names.
    List(usize),
    /// MySQL 8.0.14+ ([`Server::has_lateral_json_table`]): the names as
    /// one JSON array parameter, each joined `LATERAL` to the view by
    /// `TABLE_NAME = names.n`. Each name is then one equality lookup of
    /// the data dictionary's tables row by schema and name, and each
    /// view's other dictionary tables are reached from it. With `IN`
    /// MySQL's optimizer may instead scan a dictionary table of the
    /// whole server (`mysql.indexes` under STATISTICS, measured), so the
    /// read's work would grow with every other schema's tables.
    Joined,
    /// MySQL 8.0.14+, several schemas' [`Filter::Joined`] groups as one:
    /// this group and the `n - 1` groups after it (each
    /// [`Filter::Covered`]) take their (schema, table) pairs as one JSON
    /// array parameter of `[group, schema, name]` triples, each joined
    /// `LATERAL` by `schema_column = names.s AND TABLE_NAME = names.n`:
    /// one equality lookup of the schema row and one of the tables row per
    /// pair (EXPLAIN: single-row lookups of `sch` and `tbl`), so flat in
    /// other schemas as [`Filter::Joined`] is; a row's `branch` is the
    /// pair's group. Five or six branches for all of them instead of five
    /// or six per schema.
    Pairs(usize),
    /// A group read by the [`Filter::Pairs`] group before it: no branches
    /// of its own.
    Covered,
}

/// The JSON array of names a [`Filter::Joined`] branch takes, as rows:
/// `utf8mb3`, the data dictionary's character set for names, so the
/// equality is an index lookup on the tables row.
const JOINED_NAMES: &str =
    "JSON_TABLE(?, '$[*]' COLUMNS (n VARCHAR(64) CHARACTER SET utf8mb3 PATH '$')) AS names";

/// The JSON array of `[group, schema, name]` triples a [`Filter::Pairs`]
/// branch takes, as rows (names in `utf8mb3`, as [`JOINED_NAMES`]).
const JOINED_PAIRS: &str = "JSON_TABLE(?, '$[*]' COLUMNS (b INT UNSIGNED PATH '$[0]', \
     s VARCHAR(64) CHARACTER SET utf8mb3 PATH '$[1]', \
     n VARCHAR(64) CHARACTER SET utf8mb3 PATH '$[2]')) AS names";

impl Filter {
    fn sql(self, schema_column: &str) -> String {
        self.sql_on(schema_column, "TABLE_NAME")
    }

    /// The filter on the view's `schema_column` and `table_column`.
    fn sql_on(self, schema_column: &str, table_column: &str) -> String {
        match self {
            Filter::One => format!("{schema_column} = ? AND {table_column} = ?"),
            Filter::List(n) => format!(
                "{schema_column} = ? AND {table_column} IN ({})",
                vec!["?"; n].join(", ")
            ),
            Filter::Joined => format!("{schema_column} = ? AND {table_column} = names.n"),
            Filter::Pairs(_) | Filter::Covered => {
                format!("{schema_column} = names.s AND {table_column} = names.n")
            }
        }
    }

    /// The group's parameters for one branch, in order: the schema and
    /// the `names` one by one, or for [`Filter::Joined`] the `names` as
    /// one JSON array, then the schema; for [`Filter::Pairs`] the pairs
    /// as one JSON array.
    fn params(self, group: usize, names: NameSet) -> Vec<(usize, Param)> {
        match self {
            Filter::Joined => vec![(group, Param::Json(names)), (group, Param::Schema)],
            Filter::Pairs(_) | Filter::Covered => vec![(group, Param::Pairs(names))],
            Filter::One | Filter::List(_) => {
                vec![(group, Param::Schema), (group, Param::Names(names))]
            }
        }
    }
}

/// One branch: `src`, `branch`, `tbl` and `ord` (numbers and column names
/// generated here, never input), then every expression as text in its
/// slot, the rest NULL.
fn branch(src: u64, i: usize, ord: &str, exprs: &[&str], from: &str, filter: Filter) -> String {
    branch_on(src, i, ord, exprs, from, "TABLE_SCHEMA", filter, "")
}

/// The condition a KEY_COLUMN_USAGE branch adds to its filter: only
/// foreign-key rows (a primary or unique key's rows have no referenced
/// table, and the reader skips them). On MySQL the view is a `UNION` of
/// index columns and foreign-key columns, and the condition leaves the
/// index half out: a 1,024-table listed branch examined 16,386 rows
/// before and 2,050 with it (performance_schema, MySQL 9.7), and sent
/// 1,024 rows fewer.
const FOREIGN_KEY_ROWS: &str = " AND REFERENCED_TABLE_NAME IS NOT NULL";

/// [`branch`] for a view whose schema column is `schema_column`, with a
/// constant condition (`also`, generated here, never input; empty for
/// none) after the filter.
#[allow(clippy::too_many_arguments)]
fn branch_on(
    src: u64,
    i: usize,
    ord: &str,
    exprs: &[&str],
    from: &str,
    schema_column: &str,
    filter: Filter,
    also: &str,
) -> String {
    let slots: Vec<String> = SLOTS
        .iter()
        .enumerate()
        .map(|(k, alias)| match exprs.get(k) {
            Some(e) => format!("CONVERT({e} USING utf8mb4) COLLATE utf8mb4_bin AS {alias}"),
            None => format!("NULL AS {alias}"),
        })
        .collect();
    // A pairs group's rows are numbered by their pair's group.
    let number = match filter {
        Filter::Pairs(_) | Filter::Covered => "names.b".to_string(),
        Filter::One | Filter::List(_) | Filter::Joined => i.to_string(),
    };
    let select = format!(
        "SELECT {src} AS src, {number} AS branch, {ord} AS ord, \
         CONVERT(TABLE_NAME USING utf8mb4) COLLATE utf8mb4_bin AS tbl, {} \
         FROM information_schema.{from} WHERE {}{also}",
        slots.join(", "),
        filter.sql(schema_column)
    );
    match filter {
        Filter::Joined => format!("SELECT r.* FROM {JOINED_NAMES}, LATERAL ({select}) AS r"),
        Filter::Pairs(_) | Filter::Covered => {
            format!("SELECT r.* FROM {JOINED_PAIRS}, LATERAL ({select}) AS r")
        }
        Filter::One | Filter::List(_) => select,
    }
}

/// COLUMN_TYPE, on MySQL with the column's SRID (SRS_ID, MySQL 8.0.3+) as
/// [`crate::ColumnType::parse`] reads it: `point srid 4326`. MariaDB and
/// TiDB have no SRS_ID column (MariaDB's REF_SYSTEM_ID is not a column
/// attribute the catalog declares; TiDB has no spatial types).
fn column_type_expr(flavor: Flavor) -> &'static str {
    if flavor.columns_have_srs_id() {
        "CASE WHEN SRS_ID IS NULL THEN COLUMN_TYPE ELSE CONCAT(COLUMN_TYPE, ' srid ', SRS_ID) END"
    } else {
        "COLUMN_TYPE"
    }
}

/// MariaDB's CHECK clauses of a table, as one JSON array (json columns are
/// `longtext` + a `json_valid` check there). Parameters: schema, table.
const MARIADB_CHECKS: &str =
    "(SELECT JSON_ARRAYAGG(CHECK_CLAUSE) FROM information_schema.CHECK_CONSTRAINTS \
     WHERE CONSTRAINT_SCHEMA = ? AND TABLE_NAME = ?)";

/// `src` of a MariaDB CHECK_CONSTRAINTS row of a listed group (its
/// tables' CHECK clauses; a one-table group reads them in its TABLES row).
pub(crate) const SRC_CHECK: u64 = 6;

/// What the slots of a CHECK_CONSTRAINTS row hold.
pub(crate) const CHECK_FIELDS: &[&str] = &["check_clause"];

/// One group of branches of an inspection statement: one table by
/// equality, or a list of tables of one schema by `IN`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Group {
    /// How the group names its tables.
    pub(crate) filter: Filter,
    /// How many of its tables have their CHECK clauses read (MariaDB only;
    /// they tell a json column from a longtext one).
    pub(crate) checks: usize,
    /// How many of its tables have their TABLE_CONSTRAINTS rows read
    /// (a [`Filter::Pairs`] group: of its and its covered groups' tables).
    pub(crate) constraints: usize,
}

/// A parameter of an inspection statement, for the group it belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Param {
    /// The group's schema.
    Schema,
    /// The names of a set of the group's tables, one parameter each.
    Names(NameSet),
    /// The names of a set of the group's tables as one JSON array of
    /// strings ([`Filter::Joined`]).
    Json(NameSet),
    /// The `[group, schema, name]` triples of a set of the tables of this
    /// group and of the groups it covers, as one JSON array
    /// ([`Filter::Pairs`]).
    Pairs(NameSet),
}

/// Which of a group's table names a parameter holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NameSet {
    /// Every table of the group, in order.
    Tables,
    /// The tables whose CHECK clauses are read.
    CheckTables,
    /// The tables whose constraints are read.
    ConstraintTables,
}

/// The statement reading one table per entry of `checks` on this server,
/// rows in `src`, `branch`, `tbl`, `ord` order. `checks[i]`: whether table
/// `i`'s CHECK clauses are read (MariaDB only; they tell a json column
/// from a longtext one, and reading them opens the whole table).
/// Parameters, per table in turn: schema and table name once per pair of
/// `?`.
pub(crate) fn inspection_sql(info: &Server, checks: &[bool]) -> String {
    inspection_sql_with(info, checks, &vec![false; checks.len()])
}

/// [`inspection_sql`], plus for each table whose `constraints[i]` is set a
/// fourth branch: its TABLE_CONSTRAINTS rows with each CHECK's clause.
pub(crate) fn inspection_sql_with(info: &Server, checks: &[bool], constraints: &[bool]) -> String {
    let groups: Vec<Group> = checks
        .iter()
        .enumerate()
        .map(|(i, c)| Group {
            filter: Filter::One,
            checks: usize::from(*c),
            constraints: usize::from(constraints.get(i).copied().unwrap_or(false)),
        })
        .collect();
    statement(info, &groups).0
}

/// The statement reading `groups` (group `i`'s rows have `branch` `i`),
/// rows in `src`, `branch`, `tbl`, `ord` order, and its parameters in
/// order, each with the group it is for.
pub(crate) fn statement(info: &Server, groups: &[Group]) -> (String, Vec<(usize, Param)>) {
    let (index_from, index_exprs) = IndexSource::for_server(info).columns();
    let maria = info.flavor().json_is_checked_longtext();
    let table_exprs = |checks: bool| {
        [
            "TABLE_NAME",
            "TABLE_TYPE",
            "TABLE_COLLATION",
            "ENGINE",
            "TABLE_COMMENT",
            if checks { MARIADB_CHECKS } else { "NULL" },
            // `partitioned` on MySQL and MariaDB (and, a TiDB assumption not
            // runnable here, on TiDB, whose TABLES has the same column).
            "CREATE_OPTIONS",
            // The row format the table is stored in, explicit or the
            // server's default (the widening rule table consults it).
            "ROW_FORMAT",
        ]
    };
    let column_exprs = [
        "COLUMN_NAME",
        column_type_expr(info.flavor()),
        "IS_NULLABLE",
        "COLUMN_DEFAULT",
        "EXTRA",
        "CHARACTER_SET_NAME",
        "COLLATION_NAME",
        "GENERATION_EXPRESSION",
        "COLUMN_COMMENT",
    ];
    let foreign_key_exprs = [
        "CONSTRAINT_NAME",
        "COLUMN_NAME",
        "REFERENCED_TABLE_SCHEMA",
        "REFERENCED_TABLE_NAME",
        "REFERENCED_COLUMN_NAME",
    ];
    let referential_exprs = ["CONSTRAINT_NAME", "UPDATE_RULE", "DELETE_RULE"];
    let mut branches = Vec::new();
    let mut params = Vec::new();
    for (i, g) in groups.iter().enumerate() {
        if g.filter == Filter::Covered {
            continue;
        }
        let listed = g.filter != Filter::One;
        let pair = |params: &mut Vec<(usize, Param)>, names: NameSet| {
            params.extend(g.filter.params(i, names));
        };
        // A one-table group reads its CHECK clauses in its TABLES row (a
        // subquery bound by schema and table); a listed group in a branch
        // of its own.
        let inline_checks = maria && !listed && g.checks > 0;
        if inline_checks {
            pair(&mut params, NameSet::Tables);
        }
        branches.push(branch(
            SRC_TABLE,
            i,
            "0",
            &table_exprs(inline_checks),
            "TABLES",
            g.filter,
        ));
        pair(&mut params, NameSet::Tables);
        branches.push(branch(
            SRC_COLUMN,
            i,
            "ORDINAL_POSITION",
            &column_exprs,
            "COLUMNS",
            g.filter,
        ));
        pair(&mut params, NameSet::Tables);
        branches.push(branch(
            SRC_INDEX,
            i,
            "SEQ_IN_INDEX",
            &index_exprs,
            index_from,
            g.filter,
        ));
        pair(&mut params, NameSet::Tables);
        branches.push(branch_on(
            SRC_FOREIGN_KEY,
            i,
            "ORDINAL_POSITION",
            &foreign_key_exprs,
            "KEY_COLUMN_USAGE",
            "TABLE_SCHEMA",
            g.filter,
            FOREIGN_KEY_ROWS,
        ));
        pair(&mut params, NameSet::Tables);
        // REFERENTIAL_CONSTRAINTS names its schema CONSTRAINT_SCHEMA
        // (MySQL, MariaDB and, a TiDB assumption not runnable here, TiDB
        // v6.6+); a branch of its own keeps both names constant, which a
        // correlated lookup would not (MariaDB would then scan every
        // schema's tables per row).
        branches.push(branch_on(
            SRC_REFERENTIAL,
            i,
            "0",
            &referential_exprs,
            "REFERENTIAL_CONSTRAINTS",
            "CONSTRAINT_SCHEMA",
            g.filter,
            "",
        ));
        pair(&mut params, NameSet::Tables);
        if maria && listed && g.checks > 0 {
            branches.push(branch_on(
                SRC_CHECK,
                i,
                "0",
                &["CHECK_CLAUSE"],
                "CHECK_CONSTRAINTS",
                "CONSTRAINT_SCHEMA",
                Filter::List(g.checks),
                "",
            ));
            pair(&mut params, NameSet::CheckTables);
        }
        if g.constraints > 0 {
            let filter = match g.filter {
                Filter::One | Filter::Joined | Filter::Pairs(_) | Filter::Covered => g.filter,
                Filter::List(_) => Filter::List(g.constraints),
            };
            let (exprs, from, schema_column) = constraint_branch(info.flavor());
            branches.push(branch_on(
                SRC_CONSTRAINT,
                i,
                "0",
                &exprs,
                from,
                schema_column,
                filter,
                "",
            ));
            pair(&mut params, NameSet::ConstraintTables);
        }
    }
    (
        format!(
            "{} ORDER BY src, branch, tbl, ord",
            branches.join(" UNION ALL ")
        ),
        params,
    )
}

/// How many (schema, table) parameter pairs one table takes in
/// [`inspection_sql`]: TABLES (and MariaDB's CHECK subquery when `checks`),
/// COLUMNS, index rows, KEY_COLUMN_USAGE and REFERENTIAL_CONSTRAINTS rows.
#[cfg(test)]
pub(crate) fn pairs_per_table(flavor: Flavor, checks: bool) -> usize {
    if checks && flavor.json_is_checked_longtext() {
        6
    } else {
        5
    }
}

/// [`pairs_per_table`] with the constraint branch when `constraints`
#[cfg(test)]
pub(crate) fn pairs_with(flavor: Flavor, checks: bool, constraints: bool) -> usize {
    pairs_per_table(flavor, checks) + usize::from(constraints)
}

/// The size read: how many tables each of `schemas` schemas holds, with
/// the server's `lower_case_table_names` (how listed rows are filed by
/// name), reading names only (MariaDB lists the schema's directory and
/// opens no table; MySQL counts its data-dictionary rows). A row per
/// schema, `branch` its position.
///
/// - MySQL 8.0.14+ ([`Server::has_lateral_json_table`]): one JSON
///   array parameter of `[position, schema]` pairs, each schema counted by
///   a subquery bound to the pair's schema (EXPLAIN: a single-row lookup
///   of the schema row, then its tables by schema id), so flat in other
///   schemas. The names compare as stored (`utf8mb3_bin`): a listed name
///   in another case on a `lower_case_table_names` server counts 0, which
///   only chooses the listed shape. One `UNION ALL` branch per schema
///   instead cost 600 ms to prepare and 300 ms to run for 128 schemas
///   (MySQL 9.7, 4,000 tables, load 5-9), the JSON form 50-80 ms.
/// - Otherwise: one branch per schema, bounded by `TABLE_SCHEMA = ?`
///   (MariaDB: "Scanned 1 database"; 500 schemas in 84 ms).
///
/// Parameters: the JSON array ([`size_pairs`]), or each schema in turn.
pub(crate) fn size_sql(info: &Server, schemas: usize) -> String {
    if info.has_lateral_json_table() {
        return "SELECT names.b AS branch, (SELECT COUNT(*) FROM information_schema.TABLES t \
                WHERE t.TABLE_SCHEMA = names.s) AS tables, \
                @@lower_case_table_names AS lctn FROM JSON_TABLE(?, '$[*]' COLUMNS \
                (b INT UNSIGNED PATH '$[0]', \
                s VARCHAR(64) CHARACTER SET utf8mb3 COLLATE utf8mb3_bin PATH '$[1]')) AS names"
            .to_string();
    }
    (0..schemas)
        .map(|i| {
            format!(
                "SELECT {i} AS branch, COUNT(*) AS tables, @@lower_case_table_names AS lctn \
                 FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?"
            )
        })
        .collect::<Vec<_>>()
        .join(" UNION ALL ")
}

/// The JSON parameter of [`size_sql`]'s one-statement form: `[position,
/// schema]` for each schema.
pub(crate) fn size_pairs(schemas: &[&str]) -> String {
    serde_json::Value::from(
        schemas
            .iter()
            .enumerate()
            .map(|(i, s)| serde_json::json!([i, s]))
            .collect::<Vec<_>>(),
    )
    .to_string()
}

#[cfg(test)]
mod tests;
