//! How each vendor spells what `information_schema` returns, so the
//! normaliser (`inspect/normalize/columns.rs`) reads every server to one model
//! without naming the vendor.

use super::Flavor;

/// How an expression (a generated column's GENERATION_EXPRESSION, an
/// expression default's COLUMN_DEFAULT) is escaped in `information_schema`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ExpressionText {
    /// As written: MariaDB.
    Plain,
    /// MySQL: `'` and `\` backslash-escaped, and charset introducers on
    /// its strings (`concat(_utf8mb4\'a\')`).
    MySqlEscaped,
    /// TiDB: backslash-escaped quotes only (it follows MySQL's escaping
    /// without the introducers).
    Backslashed,
}

/// How COLUMN_DEFAULT spells a default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DefaultText {
    /// SQL text: `'pending'`, `0`, `NULL` (no default),
    /// `current_timestamp(6)` (MariaDB 10.2.7+, KB "Information Schema
    /// COLUMNS Table").
    Sql,
    /// The raw value: `pending`, SQL NULL for no default, and
    /// `CURRENT_TIMESTAMP(6)` or an expression with `DEFAULT_GENERATED` in
    /// EXTRA (MySQL Reference Manual "The INFORMATION_SCHEMA COLUMNS
    /// Table"; TiDB follows it).
    Raw,
}

impl Flavor {
    /// How this vendor escapes expressions in `information_schema`.
    /// MySQL (and TiDB, which follows it) backslash-escapes quotes in
    /// GENERATION_EXPRESSION as in an expression default
    /// (`concat(`n`,_utf8mb3\'x\')`); MariaDB does not.
    pub(crate) fn expression_text(self) -> ExpressionText {
        match self {
            Flavor::MariaDb => ExpressionText::Plain,
            Flavor::MySql => ExpressionText::MySqlEscaped,
            Flavor::TiDb => ExpressionText::Backslashed,
        }
    }

    /// The collation this vendor gives character set `charset` (canonical
    /// name) when no collation is named: MariaDB 10.11 `utf8mb4_general_ci`,
    /// MySQL 8 `utf8mb4_0900_ai_ci`, TiDB `utf8mb4_bin` (and `*_general_ci`
    /// / `latin1_swedish_ci` / `*_bin` for the other charsets); `binary` is
    /// its own collation everywhere.
    pub(crate) fn default_collation(self, charset: &str) -> String {
        match (self, charset) {
            (_, "binary") => charset.to_string(),
            (Flavor::TiDb, _) => format!("{charset}_bin"),
            (Flavor::MySql, "utf8mb4") => "utf8mb4_0900_ai_ci".into(),
            (Flavor::MySql | Flavor::MariaDb, "latin1") => "latin1_swedish_ci".into(),
            (Flavor::MySql | Flavor::MariaDb, _) => format!("{charset}_general_ci"),
        }
    }

    /// Which of `CHARACTER SET` and `COLLATE` this vendor's `SHOW CREATE
    /// TABLE` writes on a textual column of `collation` (of `charset`) in a
    /// table whose default collation is `table_collation`, when the DDL
    /// that made the column stated them (`stated`) or not: (CHARACTER SET
    /// written, COLLATE written).
    ///
    /// MySQL 8.0+ (`store_create_info` in sql/sql_show.cc; probed on 9.7):
    /// CHARACTER SET where the collation is not the table's or one was
    /// stated; COLLATE where the collation is not its charset's primary one
    /// (`utf8mb4_bin` in a `utf8mb4_bin` table prints `COLLATE utf8mb4_bin`),
    /// is `utf8mb4_0900_ai_ci` in a table of another, or one was stated. It
    /// keeps the stated fact in its data dictionary (`is_explicit_collation`),
    /// which information_schema does not show. MariaDB (probed on 10.11):
    /// both where the collation is not the table's, neither otherwise,
    /// stated or not. TiDB: not compared (the net does not run there); as
    /// MariaDB.
    pub(crate) fn shown_collation_clauses(
        self,
        charset: &str,
        collation: &str,
        table_collation: &str,
        stated: bool,
    ) -> (bool, bool) {
        let own = collation.eq_ignore_ascii_case(table_collation);
        match self {
            Flavor::MySql => {
                let primary = collation.eq_ignore_ascii_case(&self.default_collation(charset));
                let ai = collation.eq_ignore_ascii_case("utf8mb4_0900_ai_ci");
                (stated || !own, stated || !primary || (ai && !own))
            }
            Flavor::MariaDb | Flavor::TiDb => (!own, !own),
        }
    }

    /// How this vendor's COLUMN_DEFAULT spells a default.
    pub(crate) fn default_text(self) -> DefaultText {
        match self {
            Flavor::MariaDb => DefaultText::Sql,
            Flavor::MySql | Flavor::TiDb => DefaultText::Raw,
        }
    }
}
