//! What each branch of the inspection statement reads: the sources, their
//! slot meanings and the information_schema expressions that fill them.

use crate::server::Flavor;
use crate::server::Server;

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
/// and type, and for a CHECK its clause, whether it is enforced and its
/// level (see [`constraint_branch`]).
pub(crate) const CONSTRAINT_FIELDS: &[&str] = &[
    "constraint_name",
    "constraint_type",
    "check_clause",
    "enforced",
    "check_level",
];

/// The constraint branch on this server: its expressions (the slots of
/// [`CONSTRAINT_FIELDS`]), its view and that view's schema column.
///
/// - MariaDB: CHECK_CONSTRAINTS' own rows (name, `CHECK`, clause, `YES`:
///   MariaDB enforces every constraint, and LEVEL: `Column` for a CHECK
///   declared in a column's definition), filtered by constant schema and
///   table(s) like every other branch. It lists exactly the CHECK rows of
///   TABLE_CONSTRAINTS, column-level ones included, and those are the only
///   rows the reader keeps. A clause looked up per TABLE_CONSTRAINTS row is
///   a DEPENDENT SUBQUERY there, run once per row: correlated on the row's
///   schema it scanned every database ("Scanned all databases": 183 tables
///   opened for one table's three rows beside 40 other schemas), and bound
///   to the group's list it still read the whole list's checks per row,
///   so a listed group cost its tables squared (a live import of 1,024
///   tables: 28.9 s and 10.6 s; one branch of its own: 0.66 s; docs/scale.md).
/// - MySQL/TiDB: TABLE_CONSTRAINTS, with its `ENFORCED` column (TiDB read
///   as MySQL, an assumption not runnable here: TiDB 7.2+ takes `NOT
///   ENFORCED`; level `Table`: MySQL keeps none) and the CHECK clause by a lookup of CHECK_CONSTRAINTS,
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
pub(super) fn constraint_branch(flavor: Flavor) -> ([&'static str; 5], &'static str, &'static str) {
    if flavor.check_constraints_view_names_tables() {
        (
            [
                "CONSTRAINT_NAME",
                "'CHECK'",
                "CHECK_CLAUSE",
                "'YES'",
                "LEVEL",
            ],
            "CHECK_CONSTRAINTS",
            "CONSTRAINT_SCHEMA",
        )
    } else {
        (
            [
                "CONSTRAINT_NAME",
                "CONSTRAINT_TYPE",
                "(SELECT cc.CHECK_CLAUSE FROM information_schema.CHECK_CONSTRAINTS cc \
                 WHERE cc.CONSTRAINT_SCHEMA = TABLE_CONSTRAINTS.TABLE_SCHEMA \
                 AND cc.CONSTRAINT_NAME = TABLE_CONSTRAINTS.CONSTRAINT_NAME)",
                "ENFORCED",
                "'Table'",
            ],
            "TABLE_CONSTRAINTS",
            "TABLE_SCHEMA",
        )
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

/// Where a server's index rows are read from: the server says which
/// ([`Server::index_view`], `crate::server`), this module what each holds.
pub(crate) use crate::server::IndexView as IndexSource;

impl IndexSource {
    /// The source for a server.
    pub(crate) fn for_server(info: &Server) -> IndexSource {
        info.index_view()
    }

    /// The table and the server's expressions for [`INDEX_FIELDS`].
    pub(super) fn columns(self) -> (&'static str, [&'static str; 10]) {
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
