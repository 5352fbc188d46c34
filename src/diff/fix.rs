//! What would make a problem go away (`Problem::fix`): the catalog change
//! or the statement to run by hand, in one exhaustive match so a new
//! problem kind does not compile until it is given its fix.
//!
//! Apply never alters an existing object, so every drift fix is either a
//! change to the catalog (declare what the table has) or DDL the user runs
//! by hand, at a time of their choosing, after checking its cost: the
//! statements are rendered by the same renderers apply uses (identifiers
//! quoted, expressions re-printed), without online clauses (the server
//! picks the algorithm; many of these copy the table).

use crate::ddl::{column_definition_in, index_definition};
use crate::ident::quote_ident;
use crate::model::{describe::foreign_key_definition, ByName, Table};
use crate::server::Flavor;

use super::ProblemKind;

/// The fix of a `kind` problem on `object` of the catalog table `want`;
/// `None` for what needs nothing (an unmanaged object, informational).
pub(super) fn fix(want: &Table, object: &str, kind: ProblemKind) -> Option<String> {
    use ProblemKind::*;
    let t = quote_ident(want.name.as_str());
    let column = || {
        want.columns
            .iter()
            .find(|c| c.name.as_str().eq_ignore_ascii_case(object))
    };
    let index = || {
        want.indexes
            .iter()
            .find(|i| i.name.as_str().eq_ignore_ascii_case(object))
    };
    let by_hand = |sql: String| {
        format!("run by hand, after checking its cost (it may copy the table): `{sql}`; or declare the live shape in the catalog")
    };
    Some(match kind {
        MissingTable | MissingColumn | MissingIndex | MissingWidening => {
            "run `catalog apply`: it adds this online".to_string()
        }
        UnmanagedColumn | UnmanagedIndex | UnmanagedForeignKey | TidbAutoRandomPending => {
            return None
        }
        NotATable => format!(
            "the name {t} is taken by another kind of object: rename or drop that object by hand, or give the catalog table another name"
        ),
        Partitioned => format!(
            "remove the partitioning by hand (`ALTER TABLE {t} REMOVE PARTITIONING`, a table copy), or leave the table out of the catalog"
        ),
        Unrecognised => format!(
            "make {t} what the catalog declares by hand (the clause is named above; SHOW CREATE TABLE {t} shows it), or leave the table out of the catalog"
        ),
        TableEngine => match &want.engine {
            Some(e) => format!(
                "declare the live engine (`engine:` in the table file), or run by hand, after checking its cost (a table copy): `ALTER TABLE {t} ENGINE={e}`"
            ),
            None => "declare the live engine (`engine:` in the table file)".to_string(),
        },
        TableCollation => format!(
            "declare the live default (`charset:` / `collation:` in the table file), or run by hand: `ALTER TABLE {t} DEFAULT CHARACTER SET {} COLLATE {}` (changes the default for new columns only)",
            want.charset, want.collation
        ),
        MissingNotNullColumn => format!(
            "give the column a `default:` or declare it `nullable: true` (retained rows need a value), or add it by hand with a backfill: `ALTER TABLE {t} ADD COLUMN ...`"
        ),
        ColumnType | ColumnNullability | ColumnCollation | ColumnDefault
        | ColumnAutoIncrement | ColumnInvisible | ColumnGenerated | ColumnGeneratedExpression
        | ColumnGeneratedStored | ColumnOnUpdate => match column() {
            Some(c) => by_hand(format!(
                "ALTER TABLE {t} MODIFY COLUMN {}",
                column_definition_in(c, &want.defaults())
            )),
            None => "declare the live shape in the catalog".to_string(),
        },
        ColumnCollationStated => match column() {
            Some(c) => format!(
                "restate the column as the catalog writes it; on MySQL this changes only the column's text (no table rebuild, rows unchanged; ALGORITHM=INSTANT makes the server refuse rather than copy): `{}`",
                crate::ddl::widen_column(
                    &want.name,
                    c,
                    &want.defaults(),
                    Some(crate::ddl::ColumnAlgorithm::Instant)
                )
            ),
            None => "declare the column in the catalog".to_string(),
        },
        ColumnNotOnline => match column() {
            Some(c) => format!(
                "add it by hand at a quiet time (a table copy): `ALTER TABLE {t} ADD COLUMN {}`; or declare it VIRTUAL",
                column_definition_in(c, &want.defaults())
            ),
            None => "add it by hand at a quiet time".to_string(),
        },
        PrimaryKey => format!(
            "change the primary key by hand (a table rebuild): `ALTER TABLE {t} DROP PRIMARY KEY, ADD PRIMARY KEY ...`; or declare the live primary key"
        ),
        IndexColumns | IndexOrder | IndexUniqueness | IndexPrefix | IndexInvisible
        | IndexExpression | IndexKind | IndexParser => match index() {
            Some(i) => format!(
                "give the catalog's index a new name (apply adds a new index online and leaves this one unmanaged), or rebuild it by hand: `ALTER TABLE {t} DROP INDEX {}, ADD {}`",
                quote_ident(i.name.as_str()),
                index_definition(i, "INDEX", Flavor::HINT_SPELLING)
            ),
            None => "declare the live index, or give the catalog's index a new name".to_string(),
        },
        IndexNotOnline => match index() {
            Some(i) => format!(
                "add it by hand at a quiet time (not online: it rebuilds the table): `ALTER TABLE {t} ADD {}`",
                index_definition(i, "INDEX", Flavor::HINT_SPELLING)
            ),
            None => "add it by hand at a quiet time".to_string(),
        },
        CheckLevel => format!(
            "declare the level the server has (`level: column` or `level: table` on check `{object}`); or, at a quiet time, recreate the check by hand at the catalog's level (MariaDB: a column-level CHECK is written in its column's definition, `ALTER TABLE {t} MODIFY COLUMN ... CHECK (...)`; a table-level one is `ALTER TABLE {t} DROP CONSTRAINT ..., ADD CONSTRAINT ... CHECK (...)`)"
        ),
        CheckExpression | CheckEnforcement | CheckNotOnline => {
            match ByName::new(&want.checks).get(&crate::ident::Ident::new(object)) {
                Some(c) => format!(
                    "run by hand at a quiet time (adding a CHECK validates every row): `ALTER TABLE {t} ADD CONSTRAINT {} CHECK ({})` (drop the live one first if it exists: MySQL `DROP CHECK`, MariaDB `DROP CONSTRAINT`); or declare the live condition",
                    quote_ident(c.name.as_str()),
                    c.expression
                ),
                None => "declare the live CHECK constraint".to_string(),
            }
        }
        ForeignKeyColumns | ForeignKeyReference | ForeignKeyAction | ForeignKeyNotOnline => {
            match ByName::new(&want.foreign_keys).get(&crate::ident::Ident::new(object)) {
                Some(fk) => format!(
                    "run by hand at a quiet time (a table copy that validates every row): `ALTER TABLE {t} {}ADD {}`; or declare the live foreign key",
                    if kind == ForeignKeyNotOnline {
                        String::new()
                    } else {
                        format!("DROP FOREIGN KEY {}, ", quote_ident(fk.name.as_str()))
                    },
                    foreign_key_definition(fk)
                ),
                None => "declare the live foreign key".to_string(),
            }
        }
        TidbClustered | TidbAutoRandom | TidbShardRowIdBits | TidbPreSplitRegions => {
            "TiDB fixes this when the table is created: declare the live value, or recreate the table by hand".to_string()
        }
        TidbTtl => format!(
            "declare the live TTL, or change it by hand (`ALTER TABLE {t} TTL = ...`; rows are deleted by TiDB's TTL job)"
        ),
    })
}

/// The fix of a column whose type differs where the catalog has not opted
/// in to widening, but the rule table would allow the change online.
pub(super) fn widen_instead(want: &Table, column: &crate::model::Column) -> String {
    format!(
        "the change is an online widening on this server: set `widen: true` on column `{}` (or `widen: true` under `defaults:` in catalog.yaml) and `catalog apply` runs it; or run by hand: `ALTER TABLE {} MODIFY COLUMN {}`",
        column.name,
        quote_ident(want.name.as_str()),
        column_definition_in(column, &want.defaults())
    )
}
