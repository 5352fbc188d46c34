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

use crate::db::ServerInfo;
use crate::flavor::Flavor;

/// The slot aliases, in order.
pub(crate) const SLOTS: [&str; 10] = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];

/// `src` of a TABLES row.
pub(crate) const SRC_TABLE: u64 = 0;
/// `src` of a COLUMNS row.
pub(crate) const SRC_COLUMN: u64 = 1;
/// `src` of an index row.
pub(crate) const SRC_INDEX: u64 = 2;

/// What the slots of a TABLES row hold.
pub(crate) const TABLE_FIELDS: &[&str] = &[
    "table_name",
    "table_type",
    "table_collation",
    "engine",
    "table_comment",
    "check_clauses",
    "create_options",
    "row_format",
];

/// What the slots of a COLUMNS row hold.
pub(crate) const COLUMN_FIELDS: &[&str] = &[
    "col_name",
    "col_type",
    "is_nullable",
    "col_default",
    "extra",
    "charset_name",
    "collation_name",
    "gen_expr",
    "col_comment",
];

/// `src` of a table-constraint row (read for tables with catalog checks).
pub(crate) const SRC_CONSTRAINT: u64 = 3;

/// What the slots of a table-constraint row hold: the constraint's name
/// and type, and for a CHECK its clause and whether it is enforced (see
/// [`constraint_branch`]).
pub(crate) const CONSTRAINT_FIELDS: &[&str] = &[
    "constraint_name",
    "constraint_type",
    "check_clause",
    "enforced",
];

/// The constraint branch on this server: its expressions (the slots of
/// [`CONSTRAINT_FIELDS`]), its view and that view's schema column.
///
/// - MariaDB: CHECK_CONSTRAINTS' own rows (name, `CHECK`, clause, `YES`:
///   MariaDB enforces every constraint), filtered by constant schema and
///   table(s) like every other branch. It lists exactly the CHECK rows of
///   TABLE_CONSTRAINTS, column-level ones included, and those are the only
///   rows the reader keeps. A clause looked up per TABLE_CONSTRAINTS row is
///   a DEPENDENT SUBQUERY there, run once per row: correlated on the row's
///   schema it scanned every database ("Scanned all databases": 183 tables
///   opened for one table's three rows beside 40 other schemas), and bound
///   to the group's list it still read the whole list's checks per row,
///   so a listed group cost its tables squared (a live import of 1,024
///   tables: 28.9 s and 10.6 s; one branch of its own: 0.66 s; issue 22).
/// - MySQL/TiDB: TABLE_CONSTRAINTS, with its `ENFORCED` column (TiDB read
///   as MySQL, an assumption not runnable here: TiDB 7.2+ takes `NOT
///   ENFORCED`) and the CHECK clause by a lookup of CHECK_CONSTRAINTS,
///   which has no table column there: by schema and constraint name
///   (unique per schema there), no parameters. MySQL 9.7 reaches it either
///   from the schema's tables (the data dictionary's tables by schema, then
///   each one's check by name) or, as its statistics make it cheaper, by a
///   scan of the server's `mysql.check_constraints` hashed against the
///   schema: not flat in other schemas' checks (one CHECK table beside 40
///   schemas of 2: rows examined 111 -> 433). Binding the schema to a
///   constant gives the same plans, and optimizer hints (`JOIN_ORDER`,
///   `NO_BNL`) are ignored inside information_schema's system views; a
///   known limit.
fn constraint_branch(flavor: Flavor) -> ([&'static str; 4], &'static str, &'static str) {
    match flavor {
        Flavor::MariaDb => (
            ["CONSTRAINT_NAME", "'CHECK'", "CHECK_CLAUSE", "'YES'"],
            "CHECK_CONSTRAINTS",
            "CONSTRAINT_SCHEMA",
        ),
        Flavor::MySql | Flavor::TiDb => (
            [
                "CONSTRAINT_NAME",
                "CONSTRAINT_TYPE",
                "(SELECT cc.CHECK_CLAUSE FROM information_schema.CHECK_CONSTRAINTS cc \
                 WHERE cc.CONSTRAINT_SCHEMA = TABLE_CONSTRAINTS.TABLE_SCHEMA \
                 AND cc.CONSTRAINT_NAME = TABLE_CONSTRAINTS.CONSTRAINT_NAME)",
                "ENFORCED",
            ],
            "TABLE_CONSTRAINTS",
            "TABLE_SCHEMA",
        ),
    }
}

/// `src` of a KEY_COLUMN_USAGE row (every table: a live foreign key the
/// catalog does not declare is reported).
pub(crate) const SRC_FOREIGN_KEY: u64 = 4;

/// What the slots of a KEY_COLUMN_USAGE row hold: the constraint and
/// column, the referenced schema, table and column (NULL for a primary or
/// unique key's row).
pub(crate) const FOREIGN_KEY_FIELDS: &[&str] = &[
    "constraint_name",
    "col_name",
    "ref_schema",
    "ref_table",
    "ref_col",
];

/// `src` of a REFERENTIAL_CONSTRAINTS row: one per foreign key.
pub(crate) const SRC_REFERENTIAL: u64 = 5;

/// What the slots of a REFERENTIAL_CONSTRAINTS row hold.
pub(crate) const REFERENTIAL_FIELDS: &[&str] = &["constraint_name", "update_rule", "delete_rule"];

/// What the slots of an index row hold (also the aliases of the
/// single-index statement of [`IndexSource::sql`]).
pub(crate) const INDEX_FIELDS: &[&str] = &[
    "index_name",
    "non_unique",
    "seq_in_index",
    "col_name",
    "sub_part",
    "key_order",
    "index_type",
    "is_visible",
    "is_ignored",
    "expr",
];

/// Where a server's index rows are read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IndexSource {
    /// MariaDB STATISTICS; `IGNORED` exists on 10.6+.
    MariaDb {
        /// Whether the `IGNORED` column exists.
        ignored: bool,
    },
    /// MySQL 8 / TiDB v8.5.3+ STATISTICS, with `IS_VISIBLE` and `EXPRESSION`.
    MySql,
    /// TiDB before v8.5.3: STATISTICS also lists indexes still being built,
    /// so `information_schema.TIDB_INDEXES` (public indexes only) is read.
    /// Assumptions (not runnable here, no TiDB): its columns are `KEY_NAME`,
    /// `NON_UNIQUE`, `SEQ_IN_INDEX`, `COLUMN_NAME`, `SUB_PART`, `Expression`,
    /// `IS_VISIBLE`; it has no `INDEX_TYPE` or `COLLATION` — such TiDB
    /// releases have no FULLTEXT/SPATIAL indexes and store `DESC` key parts
    /// ascending, so every part reads as an ascending B-tree part.
    TidbIndexes,
}

impl IndexSource {
    /// The source for a server.
    pub(crate) fn for_server(info: &ServerInfo) -> IndexSource {
        match info.flavor {
            Flavor::MariaDb => IndexSource::MariaDb {
                ignored: info.has_ignored_indexes(),
            },
            Flavor::TiDb if info.statistics_lists_building_indexes() => IndexSource::TidbIndexes,
            Flavor::TiDb | Flavor::MySql => IndexSource::MySql,
        }
    }

    /// The table and the server's expressions for [`INDEX_FIELDS`].
    fn columns(self) -> (&'static str, [&'static str; 10]) {
        let (from, name, order, kind, visible, ignored, expr) = match self {
            IndexSource::MariaDb { ignored } => (
                "STATISTICS",
                "INDEX_NAME",
                "COLLATION",
                "INDEX_TYPE",
                "NULL",
                if ignored { "IGNORED" } else { "NULL" },
                "NULL",
            ),
            IndexSource::MySql => (
                "STATISTICS",
                "INDEX_NAME",
                "COLLATION",
                "INDEX_TYPE",
                "IS_VISIBLE",
                "NULL",
                "EXPRESSION",
            ),
            IndexSource::TidbIndexes => (
                "TIDB_INDEXES",
                "KEY_NAME",
                "NULL",
                "NULL",
                "IS_VISIBLE",
                "NULL",
                "EXPRESSION",
            ),
        };
        (
            from,
            [
                name,
                "NON_UNIQUE",
                "SEQ_IN_INDEX",
                "COLUMN_NAME",
                "SUB_PART",
                order,
                kind,
                visible,
                ignored,
                expr,
            ],
        )
    }

    /// The single-index statement (the exact-index check): the rows of the
    /// index named by the third parameter. Parameters: schema, table,
    /// index. Rows come in key-part order, aliased by [`INDEX_FIELDS`].
    pub(crate) fn sql(self) -> String {
        let (from, exprs) = self.columns();
        let select: Vec<String> = exprs
            .iter()
            .zip(INDEX_FIELDS)
            .map(|(e, alias)| format!("{e} AS {alias}"))
            .collect();
        format!(
            "SELECT {} FROM information_schema.{from} \
             WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND {} = ? ORDER BY SEQ_IN_INDEX",
            select.join(", "),
            exprs[0]
        )
    }
}

/// How a group of branches names its tables: one table by equality, or
/// a list of `n` tables of the schema by `IN` or by a lateral join (rows
/// then name their table in `tbl`, and the client files them by it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Filter {
    /// `TABLE_NAME = ?`.
    One,
    /// `TABLE_NAME IN (?, ...)`, `n` names.
    List(usize),
    /// MySQL 8.0.14+ ([`ServerInfo::has_lateral_json_table`]): the names as
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
    match flavor {
        Flavor::MySql => {
            "CASE WHEN SRS_ID IS NULL THEN COLUMN_TYPE ELSE CONCAT(COLUMN_TYPE, ' srid ', SRS_ID) END"
        }
        Flavor::MariaDb | Flavor::TiDb => "COLUMN_TYPE",
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
pub(crate) fn inspection_sql(info: &ServerInfo, checks: &[bool]) -> String {
    inspection_sql_with(info, checks, &vec![false; checks.len()])
}

/// [`inspection_sql`], plus for each table whose `constraints[i]` is set a
/// fourth branch: its TABLE_CONSTRAINTS rows with each CHECK's clause.
pub(crate) fn inspection_sql_with(
    info: &ServerInfo,
    checks: &[bool],
    constraints: &[bool],
) -> String {
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
pub(crate) fn statement(info: &ServerInfo, groups: &[Group]) -> (String, Vec<(usize, Param)>) {
    let (index_from, index_exprs) = IndexSource::for_server(info).columns();
    let maria = info.flavor == Flavor::MariaDb;
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
        column_type_expr(info.flavor),
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
            let (exprs, from, schema_column) = constraint_branch(info.flavor);
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
    if checks && flavor == Flavor::MariaDb {
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
/// - MySQL 8.0.14+ ([`ServerInfo::has_lateral_json_table`]): one JSON
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
pub(crate) fn size_sql(info: &ServerInfo, schemas: usize) -> String {
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
mod tests {
    use super::*;

    fn info(version: &str) -> ServerInfo {
        ServerInfo::from_version(version)
    }

    const VERSIONS: [&str; 6] = [
        "10.11.19-MariaDB",
        "10.5.1-MariaDB",
        "8.0.36",
        "9.7.0",
        "8.0.11-TiDB-v8.5.3",
        "8.0.11-TiDB-v7.5.1",
    ];

    /// Every branch filters by schema and table equality; nothing else is
    /// unbounded: no join, no anti-join, no IN list.
    #[test]
    fn every_branch_is_bounded_by_equality() {
        for v in VERSIONS {
            let info = info(v);
            let sql = inspection_sql(&info, &[true; 50]);
            let upper = sql.to_uppercase();
            assert!(
                !upper.contains(" JOIN ") && !upper.contains("NOT EXISTS"),
                "{v}"
            );
            assert!(!upper.contains(" IN ("), "{v}");
            assert_eq!(sql.matches(" UNION ALL ").count(), 5 * 50 - 1, "{v}");
            assert_eq!(
                sql.matches("WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")
                    .count(),
                4 * 50,
                "{v}"
            );
            assert_eq!(
                sql.matches("FROM information_schema.KEY_COLUMN_USAGE WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND REFERENCED_TABLE_NAME IS NOT NULL")
                    .count(),
                50,
                "{v}"
            );
            assert_eq!(
                sql.matches("FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = ? AND TABLE_NAME = ?")
                    .count(),
                50,
                "{v}"
            );
            assert_eq!(
                sql.matches('?').count(),
                2 * 50 * pairs_per_table(info.flavor, true),
                "{v}"
            );
            assert!(sql.contains("SELECT 2 AS src, 49 AS branch, SEQ_IN_INDEX AS ord"));
            assert!(sql.ends_with(" ORDER BY src, branch, tbl, ord"));
            let single = IndexSource::for_server(&info).sql();
            assert!(
                single.contains("WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND "),
                "{single}"
            );
        }
        let maria = info("10.11.19-MariaDB");
        assert!(inspection_sql(&maria, &[true])
            .contains("WHERE CONSTRAINT_SCHEMA = ? AND TABLE_NAME = ?"));
        assert!(!inspection_sql(&info("9.7.0"), &[true]).contains("CHECK_CONSTRAINTS"));
        // CHECK clauses only for the tables that ask for them.
        let some = inspection_sql(&maria, &[false, true, false]);
        assert_eq!(some.matches("CHECK_CONSTRAINTS").count(), 1);
        assert!(some.contains("SELECT 0 AS src, 1 AS branch, 0 AS ord, CONVERT(TABLE_NAME USING utf8mb4) COLLATE utf8mb4_bin AS tbl, \
            CONVERT(TABLE_NAME USING utf8mb4) COLLATE utf8mb4_bin AS a, \
            CONVERT(TABLE_TYPE USING utf8mb4) COLLATE utf8mb4_bin AS b, CONVERT(TABLE_COLLATION USING utf8mb4) COLLATE utf8mb4_bin AS c, \
            CONVERT(ENGINE USING utf8mb4) COLLATE utf8mb4_bin AS d, CONVERT(TABLE_COMMENT USING utf8mb4) COLLATE utf8mb4_bin AS e, \
            CONVERT((SELECT JSON_ARRAYAGG"));
        assert_eq!(some.matches('?').count(), 2 * (5 + 6 + 5));
    }

    /// The constraint branch, for tables with catalog checks only, bounded
    /// like every other branch; the clause lookup by equality, no join.
    #[test]
    fn constraint_branch_only_where_asked() {
        for v in VERSIONS {
            let info = info(v);
            let sql = inspection_sql_with(&info, &[false, false], &[false, true]);
            let maria = info.flavor == Flavor::MariaDb;
            let bounded = if maria {
                "FROM information_schema.CHECK_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = ? AND TABLE_NAME = ?"
            } else {
                "FROM information_schema.TABLE_CONSTRAINTS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"
            };
            assert_eq!(sql.matches(bounded).count(), 1, "{v}");
            assert!(sql.contains("SELECT 3 AS src, 1 AS branch"), "{v}");
            assert!(!sql.to_uppercase().contains(" JOIN "), "{v}");
            // MariaDB reads CHECK_CONSTRAINTS' rows, no lookup per row (a
            // dependent subquery there, run per row); MySQL's lookup is by
            // the row's schema and constraint name.
            assert_eq!(sql.contains("TABLE_CONSTRAINTS"), !maria, "{v}");
            assert_eq!(
                sql.contains("cc.CONSTRAINT_SCHEMA = TABLE_CONSTRAINTS.TABLE_SCHEMA"),
                !maria,
                "{v}"
            );
            assert_eq!(
                sql.matches('?').count(),
                2 * (pairs_with(info.flavor, false, false) + pairs_with(info.flavor, false, true)),
                "{v}"
            );
        }
    }

    /// A listed group: every branch bounded by the schema and one IN list
    /// of the group's names (CHECK clauses and constraints of the tables
    /// that ask for them only), its parameters the schema then the names;
    /// groups of one table and listed groups share a statement.
    #[test]
    fn listed_groups_are_bounded_by_schema_and_names() {
        for v in VERSIONS {
            let info = info(v);
            let groups = [
                Group {
                    filter: Filter::List(3),
                    checks: 1,
                    constraints: 2,
                },
                Group {
                    filter: Filter::One,
                    checks: 0,
                    constraints: 0,
                },
            ];
            let (sql, params) = statement(&info, &groups);
            let upper = sql.to_uppercase();
            assert!(
                !upper.contains(" JOIN ") && !upper.contains("NOT EXISTS"),
                "{v}"
            );
            let in3 = "TABLE_NAME IN (?, ?, ?)";
            assert_eq!(sql.matches(in3).count(), 5, "{v}: {sql}");
            let maria = info.flavor == Flavor::MariaDb;
            let constraints = if maria {
                "FROM information_schema.CHECK_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = ? AND TABLE_NAME IN (?, ?)"
            } else {
                "FROM information_schema.TABLE_CONSTRAINTS WHERE TABLE_SCHEMA = ? AND TABLE_NAME IN (?, ?)"
            };
            assert_eq!(
                sql.matches(constraints).count(),
                1,
                "{v}: the constraint branch lists its 2 tables"
            );
            assert_eq!(
                sql.matches("FROM information_schema.CHECK_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = ? AND TABLE_NAME IN (?)")
                    .count(),
                usize::from(maria),
                "{v}"
            );
            assert_eq!(
                sql.matches('?').count(),
                {
                    let listed = 5 * 4 + 3 + if maria { 2 } else { 0 };
                    listed + 2 * 5
                },
                "{v}"
            );
            let expanded: usize = params
                .iter()
                .map(|(g, p)| match (g, p) {
                    (_, Param::Schema) => 1,
                    (0, Param::Names(NameSet::Tables)) => 3,
                    (0, Param::Names(NameSet::CheckTables)) => 1,
                    (0, Param::Names(NameSet::ConstraintTables)) => 2,
                    (_, _) => 1,
                })
                .sum();
            assert_eq!(expanded, sql.matches('?').count(), "{v}");
            assert!(sql.contains("SELECT 0 AS src, 1 AS branch"), "{v}");
            assert!(sql.ends_with(" ORDER BY src, branch, tbl, ord"), "{v}");
        }
        let maria = info("10.11.19-MariaDB");
        assert_eq!(
            size_sql(&maria, 2)
                .matches("WHERE TABLE_SCHEMA = ?")
                .count(),
            2
        );
        assert!(size_sql(&maria, 2).contains("SELECT 1 AS branch, COUNT(*) AS tables"));
        // MySQL: one statement whatever the count, one JSON parameter.
        let mysql = info("9.7.0");
        assert_eq!(size_sql(&mysql, 2), size_sql(&mysql, 500));
        assert_eq!(size_sql(&mysql, 2).matches('?').count(), 1);
        assert!(!size_sql(&mysql, 2).contains("UNION"));
        assert_eq!(size_pairs(&["a", "b\"\\"]), r#"[[0,"a"],[1,"b\"\\"]]"#);
    }

    /// A joined group (MySQL 8.0.14+): every branch takes its names as one
    /// JSON array joined laterally by equality, then the schema; no `IN`.
    #[test]
    fn joined_groups_take_one_json_array_per_branch() {
        let info = info("9.7.0");
        let groups = [Group {
            filter: Filter::Joined,
            checks: 0,
            constraints: 1,
        }];
        let (sql, params) = statement(&info, &groups);
        assert!(!sql.contains(" IN ("), "{sql}");
        let lateral = format!("SELECT r.* FROM {JOINED_NAMES}, LATERAL (SELECT ");
        assert_eq!(sql.matches(&lateral).count(), 6, "{sql}");
        assert_eq!(sql.matches("AND TABLE_NAME = names.n) AS r").count(), 5);
        assert_eq!(
            sql.matches("AND TABLE_NAME = names.n AND REFERENCED_TABLE_NAME IS NOT NULL) AS r")
                .count(),
            1,
            "the KEY_COLUMN_USAGE branch reads foreign-key rows only"
        );
        assert_eq!(
            params,
            [
                NameSet::Tables,
                NameSet::Tables,
                NameSet::Tables,
                NameSet::Tables,
                NameSet::Tables,
                NameSet::ConstraintTables
            ]
            .iter()
            .flat_map(|set| [(0, Param::Json(*set)), (0, Param::Schema)])
            .collect::<Vec<_>>()
        );
        assert_eq!(sql.matches('?').count(), params.len());
    }

    /// A pairs group (several schemas' joined groups, MySQL): each branch
    /// once for all of them, its rows numbered by their pair's group, one
    /// JSON array of triples per branch; covered groups add nothing.
    #[test]
    fn pairs_groups_read_several_schemas_in_one_branch_each() {
        let info = info("9.7.0");
        let pairs = |constraints: usize| {
            let mut groups = vec![
                Group {
                    filter: Filter::Pairs(3),
                    checks: 0,
                    constraints,
                },
                Group {
                    filter: Filter::Covered,
                    checks: 0,
                    constraints: 0,
                },
                Group {
                    filter: Filter::Covered,
                    checks: 0,
                    constraints: 0,
                },
            ];
            groups.push(Group {
                filter: Filter::One,
                checks: 0,
                constraints: 0,
            });
            statement(&info, &groups)
        };
        let (sql, params) = pairs(0);
        let lateral = format!("SELECT r.* FROM {JOINED_PAIRS}, LATERAL (SELECT ");
        assert_eq!(sql.matches(&lateral).count(), 5, "{sql}");
        assert_eq!(sql.matches("AS src, names.b AS branch").count(), 5);
        assert_eq!(
            sql.matches("WHERE TABLE_SCHEMA = names.s AND TABLE_NAME = names.n")
                .count(),
            4
        );
        assert_eq!(
            sql.matches("WHERE CONSTRAINT_SCHEMA = names.s AND TABLE_NAME = names.n")
                .count(),
            1,
            "REFERENTIAL_CONSTRAINTS"
        );
        // The one-table group after the pairs keeps its own number.
        assert!(sql.contains("SELECT 0 AS src, 3 AS branch"), "{sql}");
        assert!(!sql.contains(" IN ("), "{sql}");
        assert_eq!(
            params[..5],
            [(0, Param::Pairs(NameSet::Tables)); 5],
            "one JSON parameter per branch"
        );
        assert_eq!(
            sql.matches('?').count(),
            5 + 5 * 2,
            "5 arrays, 5 (schema, table) pairs"
        );
        let (with, params) = pairs(2);
        assert_eq!(with.matches(&lateral).count(), 6);
        assert_eq!(params[5], (0, Param::Pairs(NameSet::ConstraintTables)));
    }

    #[test]
    fn flavor_specific_index_columns() {
        let maria = inspection_sql(&info("10.11.19-MariaDB"), &[true]);
        assert!(maria.contains("CONVERT(IGNORED USING utf8mb4) COLLATE utf8mb4_bin AS i"));
        assert!(!maria.contains("IS_VISIBLE"));
        let old_maria = inspection_sql(&info("10.5.9-MariaDB"), &[true]);
        assert!(!old_maria.contains("IGNORED"));
        let mysql = inspection_sql(&info("8.0.36"), &[true]);
        assert!(
            mysql.contains("CONVERT(IS_VISIBLE USING utf8mb4)")
                && mysql.contains("CONVERT(EXPRESSION USING utf8mb4)")
        );
        assert_eq!(
            IndexSource::for_server(&info("8.0.11-TiDB-v8.5.3")),
            IndexSource::MySql
        );
    }

    #[test]
    fn old_tidb_reads_public_indexes_only() {
        let source = IndexSource::for_server(&info("8.0.11-TiDB-v8.5.1"));
        assert_eq!(source, IndexSource::TidbIndexes);
        assert_eq!(
            source.sql(),
            "SELECT KEY_NAME AS index_name, NON_UNIQUE AS non_unique, SEQ_IN_INDEX AS seq_in_index, \
             COLUMN_NAME AS col_name, SUB_PART AS sub_part, NULL AS key_order, NULL AS index_type, \
             IS_VISIBLE AS is_visible, NULL AS is_ignored, EXPRESSION AS expr \
             FROM information_schema.TIDB_INDEXES \
             WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND KEY_NAME = ? \
             ORDER BY SEQ_IN_INDEX"
        );
        let batch = inspection_sql(&info("8.0.11-TiDB-v7.5.1"), &[true, true]);
        let conv = |e: &str, slot: &str| {
            format!("CONVERT({e} USING utf8mb4) COLLATE utf8mb4_bin AS {slot}")
        };
        let index_branch = |i: usize| {
            format!(
                "SELECT 2 AS src, {i} AS branch, SEQ_IN_INDEX AS ord, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} \
                 FROM information_schema.TIDB_INDEXES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?",
                conv("TABLE_NAME", "tbl"),
                conv("KEY_NAME", "a"),
                conv("NON_UNIQUE", "b"),
                conv("SEQ_IN_INDEX", "c"),
                conv("COLUMN_NAME", "d"),
                conv("SUB_PART", "e"),
                conv("NULL", "f"),
                conv("NULL", "g"),
                conv("IS_VISIBLE", "h"),
                conv("NULL", "i"),
                conv("EXPRESSION", "j"),
            )
        };
        assert!(batch.contains(&index_branch(0)), "{batch}");
        assert!(batch.contains(&index_branch(1)), "{batch}");
        assert!(!batch.contains("information_schema.STATISTICS"));
        let new = inspection_sql(&info("8.0.11-TiDB-v8.5.3"), &[true]);
        assert!(
            new.contains("FROM information_schema.STATISTICS") && !new.contains("TIDB_INDEXES")
        );
    }
}
