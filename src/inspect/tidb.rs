//! Reading a live TiDB table's table features (see [`crate::tidb`]).
//!
//! Two reads, both bounded by the catalog's own tables:
//! - one statement over `information_schema.TABLES` (a `UNION ALL` of one
//!   equality-filtered branch per table, like the main inspection) for TiDB's
//!   own columns `TIDB_PK_TYPE` (`CLUSTERED` / `NONCLUSTERED`),
//!   `TIDB_ROW_ID_SHARDING_INFO` (`NOT_SHARDED`, `NOT_SHARDED(PK_IS_HANDLE)`,
//!   `SHARD_BITS=n`, `PK_AUTO_RANDOM_BITS=n`) and `TIDB_TABLE_ID`
//!   (<https://docs.pingcap.com/tidb/stable/information-schema-tables/>);
//! - `SHOW CREATE TABLE` of each existing table, whose `/*T![...] */`
//!   comments are the only place TiDB shows the AUTO_RANDOM column and
//!   range, `PRE_SPLIT_REGIONS` and the TTL options
//!   (<https://docs.pingcap.com/tidb/stable/time-to-live/>); read by the dump
//!   parser's TiDB pass, so live and dump read the same text the same way.
//!
//! The two must agree (clustering, sharding); a disagreement is a shape the
//! model does not understand and fails the read (fail closed). TiDB-only
//! assumptions: no TiDB server exists in this project's test setup, so the
//! statements and the decoding are unit-tested from the documented forms.

use crate::db::Session;
use crate::error::{Error, Result};
use crate::ident::{quote_ident, Ident};
use crate::model::{Table, TableKind};
use crate::tidb::TidbOptions;

use super::row::{params, RowReader};
use super::show_create::ShowCreate;

/// Fields of the TABLES read, in order.
pub(crate) const FIELDS: [&str; 5] = ["branch", "table_name", "pk_type", "sharding", "table_id"];

/// The TABLES statement for `tables` tables: parameters are the schema and
/// each table name in turn.
pub(crate) fn tables_sql(tables: usize) -> String {
    (0..tables)
        .map(|i| {
            format!(
                "SELECT {i} AS branch, TABLE_NAME AS table_name, TIDB_PK_TYPE AS pk_type, \
                 TIDB_ROW_ID_SHARDING_INFO AS sharding, TIDB_TABLE_ID AS table_id \
                 FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"
            )
        })
        .collect::<Vec<_>>()
        .join(" UNION ALL ")
}

/// `TIDB_ROW_ID_SHARDING_INFO`, decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sharding {
    /// `NOT_SHARDED`: an implicit `_tidb_rowid`, not sharded.
    NotSharded,
    /// `NOT_SHARDED(PK_IS_HANDLE)`: the clustered integer primary key is the row id.
    PkIsHandle,
    /// `SHARD_BITS=n`: `SHARD_ROW_ID_BITS = n`.
    ShardBits(u8),
    /// `PK_AUTO_RANDOM_BITS=n` (optionally `, RANGE BITS=m`): AUTO_RANDOM(n).
    AutoRandomBits(u8),
}

/// Decodes `TIDB_ROW_ID_SHARDING_INFO`.
pub(crate) fn sharding(text: &str) -> Result<Sharding, String> {
    let t = text.trim();
    let number = |rest: &str| {
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        digits.parse::<u8>().ok()
    };
    let parsed = if t.eq_ignore_ascii_case("NOT_SHARDED") {
        Some(Sharding::NotSharded)
    } else if t.eq_ignore_ascii_case("NOT_SHARDED(PK_IS_HANDLE)") {
        Some(Sharding::PkIsHandle)
    } else if let Some(rest) = t.strip_prefix("SHARD_BITS=") {
        number(rest).map(Sharding::ShardBits)
    } else if let Some(rest) = t.strip_prefix("PK_AUTO_RANDOM_BITS=") {
        number(rest).map(Sharding::AutoRandomBits)
    } else {
        None
    };
    parsed.ok_or_else(|| format!("TIDB_ROW_ID_SHARDING_INFO `{t}` is not a form the model reads"))
}

/// Decodes `TIDB_PK_TYPE`: `Some(true)` for `CLUSTERED`.
pub(crate) fn pk_type(text: &str) -> Result<bool, String> {
    match text.trim().to_ascii_uppercase().as_str() {
        "CLUSTERED" => Ok(true),
        "NONCLUSTERED" => Ok(false),
        other => Err(format!(
            "TIDB_PK_TYPE `{other}` is neither CLUSTERED nor NONCLUSTERED"
        )),
    }
}

/// The table's options from its `SHOW CREATE TABLE` text, checked against
/// the TABLES row (`has_primary_key`: whether the live table has one, as
/// the index read found).
pub(crate) fn options(
    show_create: &str,
    has_primary_key: bool,
    pk_type: Option<&str>,
    sharding_info: Option<&str>,
) -> Result<TidbOptions, String> {
    let mut out = crate::dump::tidb_options(show_create)?;
    // SHOW CREATE always marks a primary key's clustering on TiDB 5+; the
    // TABLES column says it for every table (NONCLUSTERED without a key).
    let clustered = pk_type.map(self::pk_type).transpose()?;
    if has_primary_key {
        match (out.clustered, clustered) {
            (Some(a), Some(b)) if a != b => {
                return Err(format!(
                    "SHOW CREATE TABLE says {} and TIDB_PK_TYPE says {}",
                    if a { "CLUSTERED" } else { "NONCLUSTERED" },
                    if b { "CLUSTERED" } else { "NONCLUSTERED" }
                ))
            }
            (None, b) => out.clustered = b,
            _ => {}
        }
    } else {
        out.clustered = None;
    }
    if let Some(info) = sharding_info {
        let agrees = match sharding(info)? {
            Sharding::NotSharded | Sharding::PkIsHandle => {
                out.shard_row_id_bits.is_none() && out.auto_random.is_none()
            }
            Sharding::ShardBits(n) => out.shard_row_id_bits == Some(n).filter(|n| *n > 0),
            Sharding::AutoRandomBits(n) => {
                out.auto_random.as_ref().is_some_and(|a| a.shard_bits == n)
            }
        };
        if !agrees {
            return Err(format!(
                "TIDB_ROW_ID_SHARDING_INFO `{info}` disagrees with SHOW CREATE TABLE ({})",
                out.describe()
            ));
        }
    }
    Ok(out)
}

/// Fills in the TiDB options of every existing base table of `tables`
/// (read from TiDB): one TABLES statement, then `SHOW CREATE TABLE` of each
/// (kept in `shown` for the rest of the inspection).
pub(crate) async fn fill(
    session: &mut Session<'_>,
    schema: &str,
    tables: &mut [(Ident, Option<Table>)],
    shown: &mut ShowCreate,
) -> Result<()> {
    let mut live: Vec<&mut Table> = tables
        .iter_mut()
        .filter_map(|(_, t)| t.as_mut())
        .filter(|t| t.kind == TableKind::Base)
        .collect();
    if live.is_empty() {
        return Ok(());
    }
    let what = format!("reading TiDB table options of {}", quote_ident(schema));
    let values: Vec<&str> = live
        .iter()
        .flat_map(|t| [schema, t.name.as_str()])
        .collect();
    let rows = session
        .exec_rows(&what, &tables_sql(live.len()), params(&values))
        .await?;
    let mut heads: Vec<(Option<String>, Option<String>)> = vec![(None, None); live.len()];
    for row in &rows {
        let r = RowReader::slotted(row, &what, &FIELDS);
        let i = r.branch(live.len())?;
        heads[i] = (r.opt_text("pk_type")?, r.opt_text("sharding")?);
    }
    for (t, (pk, sharding)) in live.iter_mut().zip(heads) {
        let text = shown.text(session, schema, &t.name).await?;
        let has_pk = !t.primary_key.is_empty();
        let options =
            options(&text, has_pk, pk.as_deref(), sharding.as_deref()).map_err(|what| {
                Error::UnknownShape {
                    table: t.name.to_string(),
                    object: "TiDB table options".into(),
                    what,
                }
            })?;
        t.tidb = Some(options);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_statement_is_one_bounded_branch_per_table() {
        let sql = tables_sql(2);
        assert_eq!(
            sql.matches("TABLE_SCHEMA = ? AND TABLE_NAME = ?").count(),
            2
        );
        assert!(sql
            .starts_with("SELECT 0 AS branch, TABLE_NAME AS table_name, TIDB_PK_TYPE AS pk_type"));
        assert!(sql.contains(" UNION ALL SELECT 1 AS branch"));
        assert!(!sql.contains(" IN "));
        assert_eq!(
            super::super::show_create::show_create_sql("s", &"we`ird".into()),
            "SHOW CREATE TABLE `s`.`we``ird`"
        );
    }

    /// The documented `TIDB_ROW_ID_SHARDING_INFO` forms
    /// (<https://docs.pingcap.com/tidb/stable/information-schema-tables/>).
    #[test]
    fn sharding_info_decodes() {
        assert_eq!(sharding("NOT_SHARDED"), Ok(Sharding::NotSharded));
        assert_eq!(
            sharding("NOT_SHARDED(PK_IS_HANDLE)"),
            Ok(Sharding::PkIsHandle)
        );
        assert_eq!(sharding("SHARD_BITS=4"), Ok(Sharding::ShardBits(4)));
        assert_eq!(
            sharding("PK_AUTO_RANDOM_BITS=5"),
            Ok(Sharding::AutoRandomBits(5))
        );
        assert_eq!(
            sharding("PK_AUTO_RANDOM_BITS=5, RANGE BITS=54"),
            Ok(Sharding::AutoRandomBits(5))
        );
        assert!(sharding("SOMETHING_NEW").is_err());
        assert_eq!(pk_type("CLUSTERED"), Ok(true));
        assert!(pk_type("HEAP").is_err());
    }

    /// `SHOW CREATE TABLE` as TiDB prints an AUTO_RANDOM table with a TTL
    /// (<https://docs.pingcap.com/tidb/stable/auto-random/>,
    /// <https://docs.pingcap.com/tidb/stable/time-to-live/>).
    const SHOWN: &str = "CREATE TABLE `t` (\n  `id` bigint NOT NULL /*T![auto_rand] AUTO_RANDOM(5) */,\n  \
        `created_at` datetime DEFAULT NULL,\n  PRIMARY KEY (`id`) /*T![clustered_index] CLUSTERED */\n) \
        ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin /*T![auto_rand_base] AUTO_RANDOM_BASE=30001 */ \
        /*T![ttl] TTL=`created_at` + INTERVAL 3 MONTH */ /*T![ttl] TTL_ENABLE='ON' */ /*T![ttl] TTL_JOB_INTERVAL='1h' */";

    #[test]
    fn show_create_and_tables_row_decode_and_must_agree() {
        let o = options(
            SHOWN,
            true,
            Some("CLUSTERED"),
            Some("PK_AUTO_RANDOM_BITS=5"),
        )
        .unwrap();
        assert_eq!(o.clustered, Some(true));
        assert_eq!(o.auto_random.as_ref().map(|a| a.shard_bits), Some(5));
        let ttl = o.ttl.unwrap();
        assert_eq!(ttl.interval.to_string(), "3 MONTH");
        assert_eq!(ttl.job_interval.as_deref(), Some("1h"));
        assert!(options(SHOWN, true, Some("NONCLUSTERED"), None).is_err());
        assert!(options(SHOWN, true, None, Some("SHARD_BITS=4")).is_err());
        assert!(options(SHOWN, true, None, Some("NOT_SHARDED")).is_err());
        let sharded =
            "CREATE TABLE `j` (`a` int DEFAULT NULL) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 \
                       COLLATE=utf8mb4_bin /*T! SHARD_ROW_ID_BITS=4 PRE_SPLIT_REGIONS=2 */";
        let o = options(sharded, false, Some("NONCLUSTERED"), Some("SHARD_BITS=4")).unwrap();
        assert_eq!(
            (o.clustered, o.shard_row_id_bits, o.pre_split_regions),
            (None, Some(4), Some(2))
        );
        let unknown = "CREATE TABLE `p` (`a` int) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 /*T![placement] PLACEMENT POLICY=`p1` */";
        assert!(options(unknown, false, None, Some("NOT_SHARDED"))
            .unwrap_err()
            .contains("placement"));
    }
}
