//! The TiDB table features of one table file (see [`crate::tidb`]):
//! `primary_key: {columns, clustered}`, a column's `auto_random`,
//! `shard_row_id_bits`, `pre_split_regions` and `ttl`, linted against
//! TiDB's documented rules (each rule cites its page) and against the
//! catalog's `flavors`: a TiDB feature in a catalog that does not target
//! TiDB is an error; in one that also targets MySQL or MariaDB it is a
//! warning (those servers create the table without it).

use crate::coltype::{ColumnType, IntKind};
use crate::ident::Ident;
use crate::model::Column;
use crate::server::Flavor;
use crate::tidb::{
    valid_job_interval, AutoRandom, TidbOptions, Ttl, TtlInterval, TtlUnit, DEFAULT_RANGE,
    DEFAULT_SHARD_BITS,
};

use crate::catalog::read::raw::{RawAutoRandom, RawTable, RawTtl};
use crate::catalog::rule_ids;
use crate::catalog::sink::Sink;

/// Largest `SHARD_ROW_ID_BITS` / `PRE_SPLIT_REGIONS` / `AUTO_RANDOM` shard
/// bits TiDB accepts (<https://docs.pingcap.com/tidb/stable/shard-row-id-bits/>,
/// <https://docs.pingcap.com/tidb/stable/auto-random/>: shard bits 1 to 15).
const MAX_SHARD_BITS: u8 = 15;
/// `AUTO_RANDOM` range bounds (<https://docs.pingcap.com/tidb/stable/auto-random/>:
/// the range is 32 to 64).
const RANGE_BOUNDS: (u8, u8) = (32, 64);

/// What the lint needs of the table besides its TiDB keys.
pub(in crate::catalog) struct TableShape<'a> {
    /// The declared columns (those whose type is known).
    pub columns: &'a [&'a Column],
    /// The primary-key columns as written.
    pub primary_key: &'a [String],
    /// The column of each `auto_random`, as written.
    pub auto_random: &'a [(String, RawAutoRandom)],
}

/// Lints the TiDB keys of `raw`; the declared options (`None` when the
/// file declares none).
pub(in crate::catalog) fn lint(
    raw: &RawTable,
    shape: &TableShape<'_>,
    flavors: &[Flavor],
    sink: &mut Sink,
) -> Option<TidbOptions> {
    let clustered = raw.primary_key.as_ref().and_then(|pk| pk.clustered());
    let mut options = TidbOptions {
        clustered,
        auto_random: auto_random(shape, clustered, flavors, sink),
        shard_row_id_bits: raw.shard_row_id_bits,
        pre_split_regions: raw.pre_split_regions,
        ttl: raw.ttl.as_ref().and_then(|t| ttl(t, shape.columns, sink)),
    };
    if clustered.is_some() && shape.primary_key.is_empty() {
        sink.report(&rule_ids::TIDB_OPTION,
            Some("primary key".into()),
            "`clustered` without primary key columns: list them in `primary_key: {columns: [...], clustered: ...}`",
        );
    }
    shard_row_id_bits(&options, shape, sink);
    pre_split_regions(&options, sink);
    options.normalize();
    if options.is_empty() {
        return None;
    }
    check_flavors(&options, flavors, sink);
    Some(options)
}

/// A TiDB feature needs TiDB among the catalog's flavors; with MySQL or
/// MariaDB too, those create the table without it: a warning for each
/// feature that makes the table behave otherwise there ([`differs_on_innodb`]).
fn check_flavors(options: &TidbOptions, flavors: &[Flavor], sink: &mut Sink) {
    let others: Vec<&str> = flavors
        .iter()
        .filter(|f| !f.has_tidb_table_options())
        .map(|f| f.name())
        .collect();
    let declared = options.declared();
    if !flavors.iter().any(|f| f.has_tidb_table_options()) {
        for feature in &declared {
            sink.report(&rule_ids::TIDB_OPTION,
                None,
                format!(
                    "`{feature}` is a TiDB table feature and the catalog targets only {} (catalog.yaml `flavors`): remove `{feature}`, or add tidb to `flavors`",
                    others.join(", ")
                ),
            );
        }
    } else if !others.is_empty() {
        let list: Vec<String> = declared
            .iter()
            .filter(|f| differs_on_innodb(options, f))
            .map(|f| format!("`{f}`"))
            .collect();
        if list.is_empty() {
            return;
        }
        sink.report(&rule_ids::TIDB_ONLY,
            None,
            format!(
                "TiDB table features {} apply on TiDB only: on {} the table is created and verified without them",
                list.join(", "),
                others.join(" and ")
            ),
        );
    }
}

/// Whether TiDB feature `feature` makes the table behave otherwise on
/// MySQL and MariaDB (InnoDB), where it is left out. `clustered: true` does
/// not: InnoDB always clusters a table by its primary key (MySQL manual
/// "Clustered and Secondary Indexes"; MariaDB KB "InnoDB": the same), so
/// only `clustered: false` asks for what InnoDB cannot do. `auto_random`
/// does not: with MySQL or MariaDB targeted the lint requires
/// `auto_increment: true` beside it, and those servers assign increasing
/// ids as declared. `shard_row_id_bits` and `pre_split_regions` (region
/// layout) and `ttl` (rows expire on TiDB only) do.
fn differs_on_innodb(options: &TidbOptions, feature: &str) -> bool {
    match feature {
        "clustered" => options.clustered == Some(false),
        "auto_random" => false,
        _ => true,
    }
}

/// The one `auto_random` column, checked against
/// <https://docs.pingcap.com/tidb/stable/auto-random/>: a `BIGINT` column,
/// the first column of a clustered primary key, without a default, not
/// AUTO_INCREMENT on TiDB; shard bits 1..=15, range 32..=64.
fn auto_random(
    shape: &TableShape<'_>,
    clustered: Option<bool>,
    flavors: &[Flavor],
    sink: &mut Sink,
) -> Option<AutoRandom> {
    let others = flavors.iter().any(|f| !f.has_tidb_table_options());
    let mut out: Option<AutoRandom> = None;
    let mut first_declared: Option<String> = None;
    for (name, raw) in shape.auto_random {
        let object = Some(format!("column `{name}`"));
        let (shard_bits, range) = match *raw {
            RawAutoRandom::Bits(b) => (b, DEFAULT_RANGE),
            RawAutoRandom::Mapping(m) => (
                m.shard_bits.unwrap_or(DEFAULT_SHARD_BITS),
                m.range.unwrap_or(DEFAULT_RANGE),
            ),
        };
        let mut errors: Vec<String> = Vec::new();
        if !(1..=MAX_SHARD_BITS).contains(&shard_bits) {
            errors.push(format!(
                "`auto_random` shard bits {shard_bits}: TiDB accepts 1 to {MAX_SHARD_BITS}"
            ));
        }
        if !(RANGE_BOUNDS.0..=RANGE_BOUNDS.1).contains(&range) {
            errors.push(format!(
                "`auto_random` range {range}: TiDB accepts {} to {}",
                RANGE_BOUNDS.0, RANGE_BOUNDS.1
            ));
        }
        let ident = Ident::new(name.clone());
        match shape.columns.iter().find(|c| c.name == ident) {
            Some(c) => {
                if !matches!(
                    c.ty,
                    ColumnType::Int {
                        kind: IntKind::Big,
                        ..
                    }
                ) {
                    errors.push(format!("`auto_random` on type {}: TiDB assigns AUTO_RANDOM values to BIGINT columns only; make it bigint", c.ty));
                }
                // TiDB refuses both on one column; on TiDB AUTO_RANDOM takes
                // AUTO_INCREMENT's place (`crate::tidb::on_tidb`), so both are
                // declared exactly when MySQL / MariaDB must assign ids too.
                match (c.auto_increment, others) {
                    (true, false) => errors.push("`auto_random` with `auto_increment` on a catalog that targets only TiDB, which refuses both on one column: remove `auto_increment`".into()),
                    (false, true) => errors.push("`auto_random` without `auto_increment` on a catalog that also targets MySQL or MariaDB: those servers would not assign ids; add `auto_increment: true` (TiDB writes AUTO_RANDOM in its place)".into()),
                    _ => {}
                }
                if c.default.is_some() {
                    errors.push("`auto_random` with a `default`: TiDB refuses an explicit default on an AUTO_RANDOM column; remove `default`".into());
                }
            }
            None => errors.push(String::new()),
        }
        let first = shape.primary_key.first().map(|c| Ident::new(c.clone()));
        if first.as_ref() != Some(&ident) {
            errors.push(format!("`auto_random` needs `{name}` to be the first column of the primary key: put it first in `primary_key`"));
        }
        if clustered != Some(true) {
            errors.push("`auto_random` needs a clustered primary key: declare `primary_key: {columns: [...], clustered: true}`".into());
        }
        if let Some(other) = &first_declared {
            errors.push(format!(
                "a table can have only one auto_random column and `{other}` already is one"
            ));
        }
        first_declared.get_or_insert_with(|| name.clone());
        let sound = errors.is_empty();
        for e in errors.into_iter().filter(|e| !e.is_empty()) {
            sink.report(&rule_ids::TIDB_OPTION, object.clone(), e);
        }
        if sound {
            out = Some(AutoRandom {
                column: ident,
                shard_bits,
                range,
            });
        }
    }
    out
}

/// `SHARD_ROW_ID_BITS` only shards the implicit `_tidb_rowid`: a table
/// whose clustered primary key is the row handle has none
/// (<https://docs.pingcap.com/tidb/stable/shard-row-id-bits/>; TiDB refuses
/// it on a clustered primary key and with AUTO_RANDOM). A primary key
/// without `clustered` is clustered or not by the server's
/// `tidb_enable_clustered_index` (`ON`: every key, `INT_ONLY`: a single
/// integer one; <https://docs.pingcap.com/tidb/stable/clustered-indexes/>),
/// so it must say `clustered: false`.
fn shard_row_id_bits(options: &TidbOptions, shape: &TableShape<'_>, sink: &mut Sink) {
    let Some(bits) = options.shard_row_id_bits.filter(|b| *b > 0) else {
        return;
    };
    if bits > MAX_SHARD_BITS {
        sink.report(
            &rule_ids::TIDB_OPTION,
            None,
            format!("`shard_row_id_bits: {bits}`: TiDB accepts 0 to {MAX_SHARD_BITS}"),
        );
    }
    let reason = match options.clustered {
        Some(true) => Some("the primary key is clustered (it is the row handle; there is no _tidb_rowid to shard): remove `shard_row_id_bits` or declare `clustered: false`"),
        None if !shape.primary_key.is_empty() => Some("a primary key without `clustered` may be clustered by the server's tidb_enable_clustered_index; declare `clustered: false` to shard _tidb_rowid"),
        _ if options.auto_random.is_some() => Some("the table has an auto_random primary key, which already spreads the rows: remove `shard_row_id_bits`"),
        _ => None,
    };
    if let Some(reason) = reason {
        sink.report(
            &rule_ids::TIDB_OPTION,
            None,
            format!("`shard_row_id_bits` on this table: {reason}"),
        );
    }
}

/// `PRE_SPLIT_REGIONS` splits the regions of a sharded row id or
/// AUTO_RANDOM key and may not exceed its shard bits
/// (<https://docs.pingcap.com/tidb/stable/sql-statement-split-region/#pre_split_regions>).
fn pre_split_regions(options: &TidbOptions, sink: &mut Sink) {
    let Some(regions) = options.pre_split_regions.filter(|r| *r > 0) else {
        return;
    };
    let bits = options
        .shard_row_id_bits
        .filter(|b| *b > 0)
        .or(options.auto_random.as_ref().map(|a| a.shard_bits));
    match bits {
        None => sink.report(&rule_ids::TIDB_OPTION,
            None,
            "`pre_split_regions` needs `shard_row_id_bits` or an `auto_random` column: TiDB pre-splits the regions of a sharded key only",
        ),
        Some(bits) if regions > bits => sink.report(&rule_ids::TIDB_OPTION,
            None,
            format!("`pre_split_regions: {regions}` exceeds the {bits} shard bits: use at most {bits}"),
        ),
        Some(_) => {}
    }
}

/// `ttl`, checked against <https://docs.pingcap.com/tidb/stable/time-to-live/>:
/// the column is a declared DATE, DATETIME or TIMESTAMP column; the interval is `n UNIT` of the closed units; the job
/// interval `<n>m` or `<n>h`.
fn ttl(raw: &RawTtl, columns: &[&Column], sink: &mut Sink) -> Option<Ttl> {
    let object = Some("ttl".to_string());
    let mut sound = true;
    let column = match raw.column.as_deref() {
        None => {
            sink.report(
                &rule_ids::TIDB_OPTION,
                object.clone(),
                "missing `column`: name the date, datetime or timestamp column rows expire by",
            );
            None
        }
        Some(name) => match columns.iter().find(|c| c.name == Ident::new(name)) {
            None => {
                sink.report(&rule_ids::TIDB_OPTION,
                    object.clone(),
                    format!("`column: {name}` is not a column of the table: name a declared date, datetime or timestamp column"),
                );
                None
            }
            Some(c)
                if !matches!(
                    c.ty,
                    ColumnType::Date | ColumnType::DateTime(_) | ColumnType::Timestamp(_)
                ) =>
            {
                sink.report(&rule_ids::TIDB_OPTION,
                    object.clone(),
                    format!("`column: {name}` is a {} column: TiDB's TTL column is a date, datetime or timestamp column", c.ty),
                );
                None
            }
            Some(c) => Some(c.name.clone()),
        },
    };
    let units: Vec<&str> = TtlUnit::ALL.iter().map(|u| u.keyword()).collect();
    let interval = match raw.interval.as_deref() {
        None => {
            sink.report(
                &rule_ids::TIDB_OPTION,
                object.clone(),
                "missing `interval`: how long a row lives, e.g. `interval: 30 DAY`",
            );
            None
        }
        Some(text) => {
            let parsed = TtlInterval::parse(text);
            if parsed.is_none() {
                sink.report(&rule_ids::TIDB_OPTION,
                    object.clone(),
                    format!("`interval: {}` is not `<n> <unit>` with n at least 1 and the unit one of {}", text.escape_debug(), units.join(", ")),
                );
            }
            parsed
        }
    };
    if let Some(j) = raw
        .job_interval
        .as_deref()
        .filter(|j| !valid_job_interval(j))
    {
        sound = false;
        sink.report(&rule_ids::TIDB_OPTION,
            object,
            format!("`job_interval: {}` is not a whole number of minutes or hours such as `30m`, `1h` or `24h`", j.escape_debug()),
        );
    }
    match (column, interval) {
        (Some(column), Some(interval)) if sound => Some(Ttl {
            column,
            interval,
            enabled: raw.enabled.unwrap_or(true),
            job_interval: raw.job_interval.clone(),
        }),
        _ => None,
    }
}
