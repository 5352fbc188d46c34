//! What apply itself finds on a database at OLD's shape: each typed
//! [`ProblemKind`] of the ordinary diff ([`crate::diff::diff_table`], NEW
//! against OLD's rendered model) as a finding, with its class and reason.
//!
//! The class is never decided here: it is the problem's
//! [`crate::diff::Severity`] (missing: apply adds it; drift: apply
//! refuses it; unmanaged: left alone). Only the words are, in one
//! exhaustive match: a new problem kind does not compile until it is given
//! its reason (and, in `diff.rs`, its severity).

use super::{Class, Finding, FindingKind};
use crate::diff::{column_not_online_reason, not_online_reason, Problem, ProblemKind, Severity};
use crate::model::Table;
use crate::server::Flavor;

/// The class of what apply finds: missing is added (deployable), drift is
/// refused (not deployable), unmanaged is kept on warm installations only
/// (divergent).
pub fn class(kind: ProblemKind) -> Class {
    match kind.severity() {
        Severity::Missing => Class::Deployable,
        Severity::Drift => Class::NotDeployable,
        Severity::Unmanaged => Class::Divergent,
    }
}

/// What a warm installation has where apply finds nothing to keep.
const ABSENT: Option<String> = None;

/// Apply refuses an existing column or key of another shape.
pub(super) const REFUSED: &str = "apply never alters an existing object: a warm installation keeps OLD's shape, apply refuses it as drift and every verify fails there";

/// Why a missing object is not added, when the diff named no reason.
const NOT_ONLINE: &str = "it cannot be added to an existing table online";

const INDEX_REFUSED: &str = "apply never rebuilds an index of the same name: a warm installation keeps OLD's key, apply refuses it as drift and every verify fails there";

/// `p` (found on the flavors `on`), about NEW's table `n`, as a finding.
pub(super) fn finding(p: &Problem, n: &Table, on: Vec<Flavor>) -> Finding {
    use ProblemKind::*;
    let was = Some(p.actual.to_string());
    let want = Some(p.expected.to_string());
    let (old, new, reason): (Option<String>, Option<String>, String) = match p.kind {
        MissingTable => (
            ABSENT,
            Some(format!(
                "{} column(s), {} index(es)",
                n.columns.len(),
                n.indexes.len()
            )),
            "apply creates it on every installation".into(),
        ),
        MissingColumn => (
            ABSENT,
            want,
            "apply adds it in place; retained rows read NULL or the default".into(),
        ),
        MissingIndex if unique_index(p, n) => (
            ABSENT,
            want,
            crate::plan::UNIQUE_ON_EXISTING.into(),
        ),
        MissingIndex => (
            ABSENT,
            want,
            "apply builds it online on every installation".into(),
        ),
        MissingWidening => (
            was,
            want,
            "the catalog opts in to widening it (`widen`) and the rule table allows it online: apply runs one ALTER with ALGORITHM=INSTANT (MySQL VARCHAR: INPLACE, LOCK=NONE), no row is rewritten".into(),
        ),
        MissingNotNullColumn => (
            ABSENT,
            want,
            "retained rows have no value for a NOT NULL column without a default (or an AUTO_INCREMENT one): apply refuses to add it on a warm installation; make it nullable or give it a default".into(),
        ),
        IndexNotOnline => {
            let why = n
                .indexes
                .iter()
                .find(|i| i.name.as_str().eq_ignore_ascii_case(&p.object))
                .and_then(not_online_reason)
                .map_or(NOT_ONLINE.into(), |why| why.to_string());
            (
                ABSENT,
                want,
                format!("{why}: apply refuses it on a warm installation (a new table gets it in its CREATE TABLE)"),
            )
        }
        ColumnNotOnline => {
            // The diff's own reason (it knows the column's position among
            // the live table's virtual columns), else the column's.
            let why = match &p.actual {
                crate::diff::Value::AbsentNotOnline(why) => Some(*why),
                _ => n
                    .columns
                    .iter()
                    .find(|c| c.name.as_str().eq_ignore_ascii_case(&p.object))
                    .and_then(column_not_online_reason),
            }
            .map_or(NOT_ONLINE.into(), |why| why.to_string());
            (
                ABSENT,
                want,
                format!("{why}: apply refuses it on a warm installation (a new table gets it in its CREATE TABLE)"),
            )
        }
        CheckNotOnline => (
            ABSENT,
            want,
            "adding a CHECK constraint to an existing table validates every row with a table copy (MySQL ALGORITHM=COPY, MariaDB likewise), which is not online: apply refuses it on a warm installation (a new table gets it in its CREATE TABLE)".into(),
        ),
        CheckExpression => (
            was,
            want,
            "apply never alters an existing CHECK constraint: a warm installation keeps OLD's condition, apply refuses it as drift and every verify fails there".into(),
        ),
        CheckLevel => (
            was,
            want,
            "apply never alters an existing CHECK constraint: a warm installation keeps OLD's level (column or table, which MariaDB keeps apart), apply refuses it as drift there and every verify fails there".into(),
        ),
        CheckEnforcement => (
            was,
            want,
            "apply never alters an existing CHECK constraint: a warm installation keeps OLD's enforcement (ENFORCED or NOT ENFORCED), apply refuses it as drift and every verify fails there".into(),
        ),
        TableEngine => (
            was,
            want,
            "apply never changes a table's engine (it rebuilds the table): a warm installation keeps OLD's engine, apply refuses it as drift and every verify fails there".into(),
        ),
        TableCollation => (
            was,
            want,
            "apply never changes a table's default charset or collation: a warm installation keeps OLD's, apply refuses it as drift and every verify fails there".into(),
        ),
        ColumnCollationStated => (
            was,
            want,
            "the column is exact (same collation) and apply leaves it as it is; only its SHOW CREATE TABLE text differs, which `verify --strict` reports (MySQL)".into(),
        ),
        ColumnType | ColumnNullability | ColumnCollation | ColumnDefault
        | ColumnAutoIncrement | ColumnInvisible | ColumnGenerated | ColumnGeneratedExpression
        | ColumnGeneratedStored | ColumnOnUpdate | PrimaryKey => (was, want, REFUSED.into()),
        IndexColumns | IndexOrder | IndexUniqueness | IndexPrefix | IndexInvisible
        | IndexExpression | IndexKind => (was, want, INDEX_REFUSED.into()),
        IndexParser => (
            was,
            want,
            "a FULLTEXT index's parser is fixed when the index is built (changing it means dropping and rebuilding the index, which rebuilds the table): a warm installation keeps OLD's parser, apply refuses it as drift and every verify fails there".into(),
        ),
        TidbClustered | TidbAutoRandom => (
            was,
            want,
            "TiDB sets a primary key's clustering and AUTO_RANDOM when the table is created: a warm TiDB installation keeps OLD's, apply refuses it as drift and every verify fails there".into(),
        ),
        TidbAutoRandomPending => (
            was,
            want,
            "AUTO_RANDOM is chosen when a TiDB table is created: warm TiDB installations keep their AUTO_INCREMENT key (still assigning unique ids; convert it by hand with ALTER TABLE ... MODIFY COLUMN ... AUTO_RANDOM), greenfield ones get AUTO_RANDOM".into(),
        ),
        TidbShardRowIdBits | TidbPreSplitRegions => (
            was,
            want,
            "apply never alters TiDB's row sharding of an existing table: a warm TiDB installation keeps OLD's, apply refuses it as drift and every verify fails there".into(),
        ),
        TidbTtl => (
            was,
            want,
            "a TTL change deletes (or keeps) rows once TiDB's TTL job runs, so apply never alters it: a warm TiDB installation keeps OLD's TTL, apply refuses it as drift (ALTER TABLE ... TTL by hand)".into(),
        ),
        // Not found at OLD's shape (a catalog renders base tables only);
        // kept for a complete mapping.
        NotATable | Partitioned | Unrecognised => (was, want, format!("apply refuses it: {}", p.actual)),
        UnmanagedColumn => (
            was,
            None,
            "removed from the catalog: warm installations keep the column and its values (unmanaged, never dropped); greenfield ones will not have it".into(),
        ),
        UnmanagedIndex => (
            was,
            None,
            "removed from the catalog: warm installations keep the index (unmanaged, never dropped); greenfield ones will not have it".into(),
        ),
        ForeignKeyNotOnline => (
            ABSENT,
            want,
            "adding a foreign key to an existing table validates every row with a table copy (MySQL and MariaDB refuse ALGORITHM=INPLACE unless foreign_key_checks=0, which the tool never sets), which is not online: apply refuses it on a warm installation (a new table gets it in its CREATE TABLE)".into(),
        ),
        ForeignKeyColumns | ForeignKeyReference | ForeignKeyAction => (
            was,
            want,
            "apply never alters an existing foreign key: a warm installation keeps OLD's, apply refuses it as drift and every verify fails there".into(),
        ),
        UnmanagedForeignKey => (
            was,
            None,
            "removed from the catalog: warm installations keep the foreign key and keep enforcing it (unmanaged, never dropped); greenfield ones will not have it".into(),
        ),
    };
    let object = (p.kind != MissingTable).then(|| p.object.clone());
    let data_dependent = p.kind == MissingIndex && unique_index(p, n);
    Finding {
        class: class(p.kind),
        kind: FindingKind::Apply(p.kind),
        table: n.name.as_str().to_string(),
        object,
        old,
        new,
        reason,
        only_on: on,
        fix: p.fix.clone(),
        data_dependent,
        fixes: Vec::new(),
    }
}

/// Whether the index `p` names on NEW's table `n` is UNIQUE.
fn unique_index(p: &Problem, n: &Table) -> bool {
    n.indexes
        .iter()
        .any(|i| i.unique && i.name.as_str().eq_ignore_ascii_case(&p.object))
}
