//! Compare a catalog table with the live one: typed changes (what apply may
//! add) and typed problems (what is missing, what drifted, what is unmanaged).
//!
//! Drift is never turned into a change: the reconciler is additive-only.

use std::fmt;

use crate::ddl::key_parts;
use crate::ident::quote_ident;
use crate::model::{Column, Index, IndexKind, IndexPart, Table, TableKind};
use crate::readiness::{self, IndexProblem, IndexReadiness};
use crate::Ident;

/// What a [`Problem`] is about.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum ProblemKind {
    /// The table does not exist.
    MissingTable,
    /// The name is taken by a view (or another non-table object).
    NotATable,
    /// The live table is partitioned: partitioned tables are not supported yet.
    Partitioned,
    /// A catalog column does not exist (nullable or defaulted: apply adds it).
    MissingColumn,
    /// A catalog index does not exist (apply adds it).
    MissingIndex,
    /// A NOT NULL column without a default is missing: retained rows have
    /// no value for it, so apply refuses.
    MissingNotNullColumn,
    /// Column type differs.
    ColumnType,
    /// NULL / NOT NULL differs.
    ColumnNullability,
    /// Character set or collation differs.
    ColumnCollation,
    /// Default differs.
    ColumnDefault,
    /// AUTO_INCREMENT differs.
    ColumnAutoIncrement,
    /// Column visibility (`INVISIBLE`) differs.
    ColumnInvisible,
    /// The live column is generated.
    ColumnGenerated,
    /// The live column has an `ON UPDATE` clause the catalog does not declare.
    ColumnOnUpdate,
    /// Primary key columns differ.
    PrimaryKey,
    /// Same-named index holds other columns.
    IndexColumns,
    /// Same-named index holds the same columns in another order (or direction).
    IndexOrder,
    /// UNIQUE differs.
    IndexUniqueness,
    /// A key part has a prefix length.
    IndexPrefix,
    /// The index's visibility differs: invisible (MySQL/TiDB) or IGNORED
    /// (MariaDB) where a visible one is declared, or the other way round.
    IndexInvisible,
    /// A key part is an expression.
    IndexExpression,
    /// Another index kind (B-tree, FULLTEXT, SPATIAL) than the declared one.
    IndexKind,
    /// A missing index that cannot be added online to the existing table
    /// (a FULLTEXT index: InnoDB rebuilds the table for the first one and
    /// never adds one with `LOCK=NONE`); apply refuses it.
    IndexNotOnline,
    /// A CHECK constraint of the catalog's name holds another condition.
    CheckExpression,
    /// A catalog CHECK constraint is missing from an existing table: adding
    /// one validates every row (MySQL and MariaDB copy the table), so apply
    /// refuses it.
    CheckNotOnline,
    /// A live column the catalog does not name (informational).
    UnmanagedColumn,
    /// A live index the catalog does not name (informational).
    UnmanagedIndex,
}

/// How a problem affects verify and apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// Something is missing that apply can add; verify fails.
    Missing,
    /// Drift: refused by apply, never rewritten; verify fails.
    Drift,
    /// Not managed by the catalog: reported, never touched, never fails.
    Unmanaged,
}

/// What kind of object a problem is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subject {
    /// The table itself (or its primary key).
    Table,
    /// A column.
    Column,
    /// A secondary index.
    Index,
}

impl ProblemKind {
    /// The kind of object the problem is about.
    pub fn subject(self) -> Subject {
        use ProblemKind::*;
        match self {
            MissingTable | NotATable | Partitioned | PrimaryKey | CheckExpression
            | CheckNotOnline => Subject::Table,
            MissingColumn | MissingNotNullColumn | ColumnType | ColumnNullability
            | ColumnCollation | ColumnDefault | ColumnAutoIncrement | ColumnGenerated
            | ColumnOnUpdate | ColumnInvisible | UnmanagedColumn => Subject::Column,
            MissingIndex | IndexColumns | IndexOrder | IndexUniqueness | IndexPrefix
            | IndexInvisible | IndexExpression | IndexKind | IndexNotOnline | UnmanagedIndex => {
                Subject::Index
            }
        }
    }

    /// Missing, drift or unmanaged.
    pub fn severity(self) -> Severity {
        use ProblemKind::*;
        match self {
            MissingTable | MissingColumn | MissingIndex => Severity::Missing,
            UnmanagedColumn | UnmanagedIndex => Severity::Unmanaged,
            // Every other kind is refused by apply. Listed, not a wildcard:
            // a new kind must be given its severity (the release review
            // classifies by it).
            NotATable | Partitioned | MissingNotNullColumn | ColumnType | ColumnNullability
            | ColumnCollation | ColumnDefault | ColumnAutoIncrement | ColumnInvisible
            | ColumnGenerated | ColumnOnUpdate | PrimaryKey | IndexColumns | IndexOrder
            | IndexUniqueness | IndexPrefix | IndexInvisible | IndexExpression | IndexKind
            | IndexNotOnline | CheckExpression | CheckNotOnline => Severity::Drift,
        }
    }

    /// The snake_case name used in JSON and human output.
    pub fn name(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    }
}

/// One difference between the catalog and the live schema.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, schemars::JsonSchema)]
pub struct Problem {
    /// Table name.
    pub table: String,
    /// Object name: the column or index (`PRIMARY` for the primary key), or the table.
    pub object: String,
    /// What kind of difference.
    pub kind: ProblemKind,
    /// The catalog's shape.
    pub expected: String,
    /// The live shape.
    pub actual: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "table {}: {} {}: expected {}, found {}",
            quote_ident(&self.table),
            self.kind.name(),
            quote_ident(&self.object),
            self.expected,
            self.actual
        )
    }
}

/// An additive change apply may make. Each keeps the catalog object it comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// CREATE TABLE with all columns and indexes.
    AddTable(Table),
    /// ALTER TABLE ... ADD COLUMN.
    AddColumn {
        /// Table.
        table: Ident,
        /// The catalog column.
        column: Column,
        /// The column before it in the catalog (`None`: it is the first), so
        /// the column is placed `AFTER` it (or `FIRST`) and a warm table gets
        /// the greenfield column order.
        after: Option<Ident>,
    },
    /// ALTER TABLE ... ADD [UNIQUE] INDEX.
    AddIndex {
        /// Table.
        table: Ident,
        /// The catalog index.
        index: Index,
    },
}

impl Change {
    /// Whether the change leaves every existing row's bytes as they are and
    /// drops nothing. Apply accepts nothing else. A NOT NULL column with no
    /// default on an existing table would need values for retained rows: not additive.
    pub fn is_additive(&self) -> bool {
        match self {
            Change::AddTable(_) | Change::AddIndex { .. } => true,
            Change::AddColumn { column, .. } => {
                !column.auto_increment && (column.nullable || column.default.is_some())
            }
        }
    }

    /// `create_table`, `add_column` or `add_index`.
    pub fn kind(&self) -> &'static str {
        match self {
            Change::AddTable(_) => "create_table",
            Change::AddColumn { .. } => "add_column",
            Change::AddIndex { .. } => "add_index",
        }
    }

    /// The table the change is on.
    pub fn table(&self) -> &Ident {
        match self {
            Change::AddTable(t) => &t.name,
            Change::AddColumn { table, .. } | Change::AddIndex { table, .. } => table,
        }
    }

    /// The kind of object it adds.
    pub fn subject(&self) -> Subject {
        match self {
            Change::AddTable(_) => Subject::Table,
            Change::AddColumn { .. } => Subject::Column,
            Change::AddIndex { .. } => Subject::Index,
        }
    }

    /// Whether `p` is about the object this change adds (for a new table:
    /// anything on it).
    pub fn concerns(&self, p: &Problem) -> bool {
        matches!(self, Change::AddTable(_))
            || (p.kind.subject() == self.subject()
                && p.object.eq_ignore_ascii_case(self.object().as_str()))
    }

    /// The object it adds (table, column or index name).
    pub fn object(&self) -> &Ident {
        match self {
            Change::AddTable(t) => &t.name,
            Change::AddColumn { column, .. } => &column.name,
            Change::AddIndex { index, .. } => &index.name,
        }
    }
}

/// The differences for one catalog table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableDiff {
    /// Table name.
    pub table: Ident,
    /// The live table as read (absent: `None`), kept for readable diffs.
    pub live: Option<Table>,
    /// Additive changes, in apply order (columns before indexes).
    pub changes: Vec<Change>,
    /// Missing and drift problems (verify fails on any).
    pub problems: Vec<Problem>,
    /// Unmanaged objects (informational).
    pub unmanaged: Vec<Problem>,
}

impl TableDiff {
    /// Whether something exists under the table's name.
    pub fn exists(&self) -> bool {
        self.live.is_some()
    }

    /// Whether the table exists and is incomplete or drifted: worth a diff.
    pub fn needs_diff(&self) -> bool {
        self.exists() && !self.problems.is_empty()
    }

    /// Drift only (excludes what is merely missing).
    pub fn drift(&self) -> impl Iterator<Item = &Problem> {
        self.problems
            .iter()
            .filter(|p| p.kind.severity() == Severity::Drift)
    }

    /// Whether the live table has exactly what the catalog declares.
    pub fn is_satisfied(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Diffs one catalog table (`want`) against its live shape (`have`, `None` when absent).
pub fn diff_table(want: &Table, have: Option<&Table>) -> TableDiff {
    let mut d = TableDiff {
        table: want.name.clone(),
        live: have.cloned(),
        changes: Vec::new(),
        problems: Vec::new(),
        unmanaged: Vec::new(),
    };
    if let Some(TableKind::NotATable(table_type)) = have.map(|h| &h.kind) {
        d.problems.push(problem(
            want,
            want.name.as_str(),
            ProblemKind::NotATable,
            "BASE TABLE",
            table_type,
        ));
        return d;
    }
    if let Some(TableKind::Partitioned(how)) = have.map(|h| &h.kind) {
        d.problems.push(problem(
            want,
            want.name.as_str(),
            ProblemKind::Partitioned,
            "a table without partitioning",
            &format!("partitioned ({how}): partitioned tables are not supported yet"),
        ));
        return d;
    }
    let Some(have) = have else {
        d.problems.push(problem(
            want,
            want.name.as_str(),
            ProblemKind::MissingTable,
            "table",
            "absent",
        ));
        d.changes.push(Change::AddTable(want.clone()));
        return d;
    };
    for (i, col) in want.columns.iter().enumerate() {
        match have.column(&col.name) {
            Some(live) => d.problems.extend(column_drift(want, col, live)),
            None => {
                let change = Change::AddColumn {
                    table: want.name.clone(),
                    column: col.clone(),
                    after: i.checked_sub(1).map(|p| want.columns[p].name.clone()),
                };
                let kind = if change.is_additive() {
                    d.changes.push(change);
                    ProblemKind::MissingColumn
                } else {
                    ProblemKind::MissingNotNullColumn
                };
                d.problems.push(problem(
                    want,
                    col.name.as_str(),
                    kind,
                    &describe_column(col),
                    "absent",
                ));
            }
        }
    }
    if !want.primary_key.is_empty() && want.primary_key != have.primary_key {
        d.problems.push(problem(
            want,
            "PRIMARY",
            ProblemKind::PrimaryKey,
            &key_parts(&want.primary_key),
            &if have.primary_key.is_empty() {
                "none".to_string()
            } else {
                key_parts(&have.primary_key)
            },
        ));
    }
    for idx in &want.indexes {
        match have.index(&idx.name) {
            Some(live) => d.problems.extend(index_drift(want, idx, live)),
            None if not_online_reason(idx).is_some() => d.problems.push(problem(
                want,
                idx.name.as_str(),
                ProblemKind::IndexNotOnline,
                &describe_index(idx),
                &format!(
                    "absent; {}: add it in a maintenance window, or declare it when the table is created",
                    not_online_reason(idx).unwrap_or_default()
                ),
            )),
            None => {
                d.problems.push(problem(
                    want,
                    idx.name.as_str(),
                    ProblemKind::MissingIndex,
                    &describe_index(idx),
                    "absent",
                ));
                d.changes.push(Change::AddIndex {
                    table: want.name.clone(),
                    index: idx.clone(),
                });
            }
        }
    }
    d.problems.extend(check_drift(want, have));
    for col in have
        .columns
        .iter()
        .filter(|c| want.column(&c.name).is_none())
    {
        d.unmanaged.push(problem(
            want,
            col.name.as_str(),
            ProblemKind::UnmanagedColumn,
            "not in catalog",
            &describe_column(col),
        ));
    }
    for idx in have
        .indexes
        .iter()
        .filter(|i| want.index(&i.name).is_none())
    {
        d.unmanaged.push(problem(
            want,
            idx.name.as_str(),
            ProblemKind::UnmanagedIndex,
            "not in catalog",
            &describe_index(idx),
        ));
    }
    d
}

fn problem(t: &Table, object: &str, kind: ProblemKind, expected: &str, actual: &str) -> Problem {
    Problem {
        table: t.name.to_string(),
        object: object.to_string(),
        kind,
        expected: expected.to_string(),
        actual: actual.to_string(),
    }
}

fn column_drift(t: &Table, want: &Column, have: &Column) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut push =
        |kind, e: String, a: String| out.push(problem(t, want.name.as_str(), kind, &e, &a));
    if !want.ty.same_storage(&have.ty) {
        push(
            ProblemKind::ColumnType,
            want.ty.to_string(),
            have.ty.to_string(),
        );
    }
    if want.nullable != have.nullable {
        push(
            ProblemKind::ColumnNullability,
            null_text(want.nullable),
            null_text(have.nullable),
        );
    }
    if want.ty.is_textual() && (want.charset != have.charset || want.collation != have.collation) {
        push(
            ProblemKind::ColumnCollation,
            charset_text(want),
            charset_text(have),
        );
    }
    if want.default != have.default {
        push(
            ProblemKind::ColumnDefault,
            default_text(want),
            default_text(have),
        );
    }
    if want.auto_increment != have.auto_increment {
        push(
            ProblemKind::ColumnAutoIncrement,
            ai_text(want.auto_increment),
            ai_text(have.auto_increment),
        );
    }
    if want.on_update != have.on_update {
        push(
            ProblemKind::ColumnOnUpdate,
            on_update_text(want),
            on_update_text(have),
        );
    }
    if want.invisible != have.invisible {
        let text = |c: &Column| if c.invisible { "INVISIBLE" } else { "VISIBLE" }.to_string();
        push(ProblemKind::ColumnInvisible, text(want), text(have));
    }
    if let Some(expr) = &have.generated {
        push(
            ProblemKind::ColumnGenerated,
            "a stored column".into(),
            format!("GENERATED ALWAYS AS ({expr})"),
        );
    }
    out
}

fn on_update_text(c: &Column) -> String {
    match &c.on_update {
        Some(v) => format!("ON UPDATE {}", v.to_sql(false)),
        None => "no ON UPDATE".into(),
    }
}

fn null_text(nullable: bool) -> String {
    if nullable { "NULL" } else { "NOT NULL" }.to_string()
}

fn ai_text(ai: bool) -> String {
    if ai {
        "AUTO_INCREMENT"
    } else {
        "no AUTO_INCREMENT"
    }
    .to_string()
}

fn charset_text(c: &Column) -> String {
    match (&c.charset, &c.collation) {
        (Some(cs), Some(co)) => format!("CHARACTER SET {cs} COLLATE {co}"),
        (None, Some(co)) => format!("COLLATE {co}"),
        (Some(cs), None) => format!("CHARACTER SET {cs}"),
        (None, None) => "no collation".into(),
    }
}

/// `DEFAULT x` or `no default`: a column's default as text.
pub fn default_text(c: &Column) -> String {
    match &c.default {
        Some(d) => format!("DEFAULT {}", d.to_sql(c.ty.is_numeric())),
        None => "no default".into(),
    }
}

/// `varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL DEFAULT 'x'`: a column's shape.
pub fn describe_column(c: &Column) -> String {
    let mut s = c.ty.to_string();
    if c.ty.is_textual() {
        s.push(' ');
        s.push_str(&charset_text(c));
    }
    s.push(' ');
    s.push_str(&null_text(c.nullable));
    if c.default.is_some() {
        s.push(' ');
        s.push_str(&default_text(c));
    }
    if c.on_update.is_some() {
        s.push(' ');
        s.push_str(&on_update_text(c));
    }
    if c.auto_increment {
        s.push_str(" AUTO_INCREMENT");
    }
    if c.invisible {
        s.push_str(" INVISIBLE");
    }
    s
}

/// `` UNIQUE KEY (`a`, `b`) ``, with `FULLTEXT`, `IGNORED/INVISIBLE` where they apply.
pub fn describe_index(i: &Index) -> String {
    let kind = match (i.kind, i.unique) {
        (IndexKind::FullText, _) => "FULLTEXT KEY",
        (IndexKind::Spatial, _) => "SPATIAL KEY",
        (IndexKind::BTree, true) => "UNIQUE KEY",
        (IndexKind::BTree, false) => "KEY",
    };
    let vis = if i.visible { "" } else { " INVISIBLE" };
    format!("{kind} {}{vis}", key_parts(&i.parts))
}

/// The catalog's CHECK constraints against the live table's (by name, case
/// -insensitively; conditions after normalisation). A missing one is not
/// added: validating the rows copies the table.
fn check_drift(want: &Table, have: &Table) -> Vec<Problem> {
    let mut out = Vec::new();
    for c in &want.checks {
        let expected = format!("CHECK ({})", c.expression);
        match have.checks.iter().find(|h| h.name == c.name) {
            Some(h) if readiness::same_expression(&h.expression, &c.expression) => {}
            Some(h) => out.push(problem(
                want,
                c.name.as_str(),
                ProblemKind::CheckExpression,
                &expected,
                &format!("CHECK ({})", h.expression),
            )),
            None => out.push(problem(
                want,
                c.name.as_str(),
                ProblemKind::CheckNotOnline,
                &expected,
                "absent; adding a CHECK constraint to an existing table validates every row with a table copy (MySQL ALGORITHM=COPY, MariaDB likewise), which is not online: add it in a maintenance window, or declare it when the table is created",
            )),
        }
    }
    out
}

/// Why a missing index cannot be added to an existing table online, if it
/// cannot: InnoDB rebuilds the table for the first FULLTEXT index and takes
/// a shared lock for any; MySQL adds a functional key part as a hidden
/// virtual column, which `LOCK=NONE` refuses (error 1846).
pub fn not_online_reason(index: &Index) -> Option<&'static str> {
    if index.kind == IndexKind::FullText {
        return Some("a FULLTEXT index cannot be added to an existing table online (InnoDB rebuilds the table for the first one and takes a shared lock for any)");
    }
    if index
        .parts
        .iter()
        .any(|p| matches!(p, IndexPart::Expression(_)))
    {
        return Some("an index with an expression key part cannot be added to an existing table online (MySQL adds it through a hidden virtual column and refuses LOCK=NONE)");
    }
    None
}

/// A same-named index's drift, by the one exact-index rule
/// ([`readiness::check_index`]), each finding as its problem kind.
fn index_drift(t: &Table, want: &Index, have: &Index) -> Vec<Problem> {
    let IndexReadiness::NotReady(found) = readiness::check_index(Some(have), want) else {
        return Vec::new();
    };
    let expression = found
        .iter()
        .any(|p| matches!(p, IndexProblem::Expression { .. }));
    let mut kinds: Vec<ProblemKind> = Vec::new();
    for p in &found {
        let kind = match p {
            IndexProblem::Missing => ProblemKind::MissingIndex,
            IndexProblem::Uniqueness { .. } => ProblemKind::IndexUniqueness,
            // With an expression part the column list differs anyway: the
            // expression is the finding.
            IndexProblem::Columns { .. } if expression => continue,
            IndexProblem::Columns { .. } if same_columns_reordered(want, have) => {
                ProblemKind::IndexOrder
            }
            IndexProblem::Columns { .. } => ProblemKind::IndexColumns,
            IndexProblem::Prefix { .. } => ProblemKind::IndexPrefix,
            IndexProblem::Descending { .. } => ProblemKind::IndexOrder,
            IndexProblem::Expression { .. } => ProblemKind::IndexExpression,
            IndexProblem::NotVisible | IndexProblem::Visible => ProblemKind::IndexInvisible,
            IndexProblem::Kind { .. } => ProblemKind::IndexKind,
        };
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    let (e, a) = (describe_index(want), describe_index(have));
    kinds
        .into_iter()
        .map(|kind| problem(t, want.name.as_str(), kind, &e, &a))
        .collect()
}

/// The same column names (case-insensitive), in another order.
fn same_columns_reordered(want: &Index, have: &Index) -> bool {
    let names = |i: &Index| -> Vec<String> {
        let mut v: Vec<String> = i
            .parts
            .iter()
            .filter_map(IndexPart::column_name)
            .map(Ident::key)
            .collect();
        v.sort();
        v
    };
    want.parts.len() == have.parts.len() && names(want) == names(have)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coltype::ColumnType;
    use crate::model::DefaultValue;

    fn table() -> Table {
        let mut id = Column::new("Id", ColumnType::parse("bigint unsigned").unwrap());
        id.nullable = false;
        id.auto_increment = true;
        let mut key = Column::new("Key", ColumnType::Varchar(64));
        key.nullable = false;
        key.charset = Some("utf8mb4".into());
        key.collation = Some("utf8mb4_bin".into());
        let at = Column::new("At", ColumnType::DateTime(6));
        Table {
            name: "T".into(),
            kind: crate::model::TableKind::Base,
            comment: None,
            engine: Some("InnoDB".into()),
            charset: "utf8mb4".into(),
            collation: "utf8mb4_bin".into(),
            columns: vec![id, key, at],
            primary_key: vec![IndexPart::column("Id")],
            indexes: vec![
                Index::new("uq_key", true, &["Key"]),
                Index::new("idx_at", false, &["At", "Id"]),
            ],
            checks: Vec::new(),
            required_by: vec![],
        }
    }

    fn kinds(d: &TableDiff) -> Vec<ProblemKind> {
        d.problems.iter().map(|p| p.kind).collect()
    }

    #[test]
    fn identical_is_satisfied() {
        let t = table();
        let d = diff_table(&t, Some(&t));
        assert!(d.is_satisfied() && d.changes.is_empty() && d.unmanaged.is_empty());
    }

    #[test]
    fn absent_table_is_one_create() {
        let d = diff_table(&table(), None);
        assert_eq!(kinds(&d), vec![ProblemKind::MissingTable]);
        assert!(matches!(d.changes.as_slice(), [Change::AddTable(_)]));
    }

    #[test]
    fn missing_nullable_column_and_index_are_changes() {
        let want = table();
        let mut have = want.clone();
        have.columns.pop();
        have.indexes.pop();
        let d = diff_table(&want, Some(&have));
        assert_eq!(
            kinds(&d),
            vec![ProblemKind::MissingColumn, ProblemKind::MissingIndex]
        );
        assert_eq!(
            d.changes.iter().map(Change::kind).collect::<Vec<_>>(),
            ["add_column", "add_index"]
        );
        assert!(d.changes.iter().all(Change::is_additive));
    }

    #[test]
    fn missing_not_null_column_is_refused() {
        let mut want = table();
        want.columns[2].nullable = false;
        let mut have = want.clone();
        have.columns.pop();
        let d = diff_table(&want, Some(&have));
        assert_eq!(d.drift().count(), 1);
        assert!(d.changes.is_empty());
        want.columns[2].default = Some(DefaultValue::CurrentTimestamp(6));
        let d = diff_table(&want, Some(&have));
        assert_eq!(d.drift().count(), 0);
        assert_eq!(d.changes.len(), 1);
    }

    #[test]
    fn column_drift_kinds() {
        let want = table();
        let mut have = want.clone();
        have.columns[1].collation = Some("utf8mb4_general_ci".into());
        have.columns[1].nullable = true;
        have.columns[2].ty = ColumnType::DateTime(0);
        have.columns[2].default = Some(DefaultValue::CurrentTimestamp(0));
        let d = diff_table(&want, Some(&have));
        assert_eq!(
            kinds(&d),
            vec![
                ProblemKind::ColumnNullability,
                ProblemKind::ColumnCollation,
                ProblemKind::ColumnType,
                ProblemKind::ColumnDefault
            ]
        );
        assert!(d.changes.is_empty());
    }

    #[test]
    fn index_drift_kinds() {
        let want = table();
        let cases: Vec<(Index, ProblemKind)> = vec![
            (
                Index::new("idx_at", false, &["Id", "At"]),
                ProblemKind::IndexOrder,
            ),
            (
                Index::new("idx_at", true, &["At", "Id"]),
                ProblemKind::IndexUniqueness,
            ),
            (
                Index::new("idx_at", false, &["At"]),
                ProblemKind::IndexColumns,
            ),
            (
                Index::new("idx_at", false, &["At", "Id", "Key"]),
                ProblemKind::IndexColumns,
            ),
            (
                Index {
                    parts: vec![
                        IndexPart::column("At"),
                        IndexPart::Column {
                            name: "Id".into(),
                            prefix: Some(4),
                            descending: false,
                        },
                    ],
                    ..Index::new("idx_at", false, &[])
                },
                ProblemKind::IndexPrefix,
            ),
            (
                Index {
                    visible: false,
                    ..Index::new("idx_at", false, &["At", "Id"])
                },
                ProblemKind::IndexInvisible,
            ),
        ];
        for (live, kind) in cases {
            let mut have = want.clone();
            have.indexes[1] = live.clone();
            let d = diff_table(&want, Some(&have));
            assert_eq!(kinds(&d), vec![kind], "{live:?}");
            assert!(d.changes.is_empty());
        }
        let mut have = want.clone();
        have.indexes[1] = Index::new("IDX_AT", false, &["at", "ID"]);
        assert!(diff_table(&want, Some(&have)).is_satisfied());
    }

    #[test]
    fn live_on_update_is_drift() {
        let want = table();
        let mut have = want.clone();
        have.columns[2].on_update = Some(DefaultValue::CurrentTimestamp(6));
        let d = diff_table(&want, Some(&have));
        assert_eq!(kinds(&d), vec![ProblemKind::ColumnOnUpdate]);
        assert!(d.changes.is_empty());
    }

    #[test]
    fn a_change_concerns_only_problems_about_its_own_object() {
        let want = table();
        let mut have = want.clone();
        have.columns[2].nullable = false;
        have.indexes[1] = Index::new("idx_at", true, &["At", "Id"]);
        let d = diff_table(&want, Some(&have));
        let add_col = Change::AddColumn {
            table: "T".into(),
            column: want.columns[2].clone(),
            after: None,
        };
        let add_idx = Change::AddIndex {
            table: "T".into(),
            index: want.indexes[1].clone(),
        };
        let add_other = Change::AddIndex {
            table: "T".into(),
            index: Index::new("At", false, &["At"]),
        };
        let kinds = |c: &Change| {
            d.problems
                .iter()
                .filter(|p| c.concerns(p))
                .map(|p| p.kind)
                .collect::<Vec<_>>()
        };
        assert_eq!(kinds(&add_col), [ProblemKind::ColumnNullability]);
        assert_eq!(kinds(&add_idx), [ProblemKind::IndexUniqueness]);
        assert!(
            kinds(&add_other).is_empty(),
            "an index named like a column is another object"
        );
        assert_eq!(kinds(&Change::AddTable(want.clone())).len(), 2);
    }

    #[test]
    fn a_view_under_the_name_is_drift_with_no_change() {
        let want = table();
        let view = Table::not_a_table("T".into(), "VIEW");
        let d = diff_table(&want, Some(&view));
        assert_eq!(kinds(&d), vec![ProblemKind::NotATable]);
        assert_eq!(d.drift().count(), 1);
        assert!(d.changes.is_empty() && d.exists());
    }

    #[test]
    fn primary_key_drift_and_unmanaged() {
        let want = table();
        let mut have = want.clone();
        have.primary_key = vec![IndexPart::column("Id"), IndexPart::column("Key")];
        have.columns.push(Column::new("Extra", ColumnType::Text));
        have.indexes.push(Index::new("idx_extra", false, &["Key"]));
        let d = diff_table(&want, Some(&have));
        assert_eq!(kinds(&d), vec![ProblemKind::PrimaryKey]);
        assert_eq!(d.unmanaged.len(), 2);
    }
}
