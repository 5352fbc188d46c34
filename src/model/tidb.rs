//! TiDB table features (catalog format v2): the primary
//! key's CLUSTERED / NONCLUSTERED, `AUTO_RANDOM` on the primary key's bigint
//! column, `SHARD_ROW_ID_BITS`, `PRE_SPLIT_REGIONS` and row TTL. The typed
//! values ([`TidbOptions`], part of [`crate::model::Table`]) and their one
//! SQL spelling, shared by DDL rendering and the apply chokepoint.
//!
//! Only TiDB has these. DDL for TiDB writes them in TiDB's plain syntax
//! (never the `/*T![...] */` comment form: the apply chokepoint refuses
//! comments, and the plain clauses are only ever sent to TiDB); DDL for
//! MySQL / MariaDB omits them (the catalog lint warns, see
//! docs/catalog-format.md).
//!
//! Grammar, as documented by TiDB:
//! - `PRIMARY KEY (...) CLUSTERED | NONCLUSTERED`:
//!   <https://docs.pingcap.com/tidb/stable/clustered-indexes/>
//! - column attribute `AUTO_RANDOM[(shard_bits[, range])]`:
//!   <https://docs.pingcap.com/tidb/stable/auto-random/>
//! - table options `SHARD_ROW_ID_BITS = n`, `PRE_SPLIT_REGIONS = n`:
//!   <https://docs.pingcap.com/tidb/stable/shard-row-id-bits/>,
//!   <https://docs.pingcap.com/tidb/stable/sql-statement-split-region/#pre_split_regions>
//! - `TTL = col + INTERVAL n unit`, `TTL_ENABLE = 'ON'|'OFF'`,
//!   `TTL_JOB_INTERVAL = '1h'`: <https://docs.pingcap.com/tidb/stable/time-to-live/>

use std::fmt;

use crate::ident::{quote_ident, quote_str, Ident};
use crate::model::Table;

/// The table as TiDB holds it: the `auto_random` column is not
/// AUTO_INCREMENT there (TiDB refuses both on one column; a catalog that
/// also targets MySQL / MariaDB declares both, so those servers assign ids
/// too, and on TiDB AUTO_RANDOM takes AUTO_INCREMENT's place). Rendering for
/// TiDB and comparing with a table read from TiDB both go through this.
pub fn on_tidb(table: &Table) -> std::borrow::Cow<'_, Table> {
    let Some(a) = table.tidb.as_ref().and_then(|t| t.auto_random.as_ref()) else {
        return std::borrow::Cow::Borrowed(table);
    };
    let mut t = table.clone();
    for c in t.columns.iter_mut().filter(|c| c.name == a.column) {
        c.auto_increment = false;
    }
    std::borrow::Cow::Owned(t)
}

/// The TiDB features of one table.
///
/// On a catalog table: what the catalog declares (`None` on the table when
/// it declares nothing). On a table read from TiDB (live, or a dump from
/// TiDB): what the server has; `None` on the table when it was read from
/// MySQL or MariaDB, which have none of these.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TidbOptions {
    /// `CLUSTERED` (`true`) or `NONCLUSTERED` primary key. `None`: not
    /// declared (the server's `tidb_enable_clustered_index` decides; not
    /// compared), or no primary key.
    pub clustered: Option<bool>,
    /// `AUTO_RANDOM` on a primary-key column.
    pub auto_random: Option<AutoRandom>,
    /// `SHARD_ROW_ID_BITS`; `None` is 0 (not sharded).
    pub shard_row_id_bits: Option<u8>,
    /// `PRE_SPLIT_REGIONS`; `None` is 0.
    pub pre_split_regions: Option<u8>,
    /// Row TTL.
    pub ttl: Option<Ttl>,
}

/// `AUTO_RANDOM(shard_bits, range)` on one column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AutoRandom {
    /// The primary-key column.
    pub column: Ident,
    /// Shard bits, 1..=15 (TiDB's default 5).
    pub shard_bits: u8,
    /// Total bits of the generated value, 32..=64 (TiDB's default 64).
    pub range: u8,
}

/// TiDB's default `AUTO_RANDOM` shard bits.
pub const DEFAULT_SHARD_BITS: u8 = 5;
/// TiDB's default `AUTO_RANDOM` range.
pub const DEFAULT_RANGE: u8 = 64;

/// Row TTL: rows whose `column` is older than `interval` are deleted by
/// TiDB's background TTL jobs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ttl {
    /// The date / datetime / timestamp column rows expire by.
    pub column: Ident,
    /// How long a row lives.
    pub interval: TtlInterval,
    /// `TTL_ENABLE` (TiDB's default `'ON'`).
    pub enabled: bool,
    /// `TTL_JOB_INTERVAL` (`'1h'`, `'24h'`, `'30m'`); `None`: not declared
    /// (the server's default; not compared).
    pub job_interval: Option<String>,
}

/// `INTERVAL n UNIT`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TtlInterval {
    /// The amount, at least 1.
    pub amount: u32,
    /// The unit.
    pub unit: TtlUnit,
}

/// The interval units a catalog may use for TTL: the MySQL temporal
/// interval units of whole time (TiDB takes the TTL expression as
/// `col + INTERVAL n unit`); a closed set, rendered as keywords.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum TtlUnit {
    /// `MINUTE`.
    Minute,
    /// `HOUR`.
    Hour,
    /// `DAY`.
    Day,
    /// `WEEK`.
    Week,
    /// `MONTH`.
    Month,
    /// `QUARTER`.
    Quarter,
    /// `YEAR`.
    Year,
}

impl TtlUnit {
    /// Every unit, in order.
    pub const ALL: [TtlUnit; 7] = [
        TtlUnit::Minute,
        TtlUnit::Hour,
        TtlUnit::Day,
        TtlUnit::Week,
        TtlUnit::Month,
        TtlUnit::Quarter,
        TtlUnit::Year,
    ];

    /// The SQL keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            TtlUnit::Minute => "MINUTE",
            TtlUnit::Hour => "HOUR",
            TtlUnit::Day => "DAY",
            TtlUnit::Week => "WEEK",
            TtlUnit::Month => "MONTH",
            TtlUnit::Quarter => "QUARTER",
            TtlUnit::Year => "YEAR",
        }
    }

    /// A keyword of the closed set, case-insensitively.
    pub fn parse(word: &str) -> Option<TtlUnit> {
        TtlUnit::ALL
            .into_iter()
            .find(|u| u.keyword().eq_ignore_ascii_case(word))
    }
}

impl TtlInterval {
    /// `30 DAY` (also `30 day`, and TiDB's `INTERVAL 30 DAY`).
    pub fn parse(text: &str) -> Option<TtlInterval> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let words = match words.as_slice() {
            [i, rest @ ..] if i.eq_ignore_ascii_case("INTERVAL") => rest,
            all => all,
        };
        match words {
            [n, unit] => {
                let amount = n
                    .trim_matches('\'')
                    .parse::<u32>()
                    .ok()
                    .filter(|n| *n > 0)?;
                Some(TtlInterval {
                    amount,
                    unit: TtlUnit::parse(unit)?,
                })
            }
            _ => None,
        }
    }
}

impl fmt::Display for TtlInterval {
    /// `30 DAY`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.amount, self.unit.keyword())
    }
}

/// Whether `text` is a `TTL_JOB_INTERVAL` the catalog accepts: a whole
/// number of minutes or hours, `<n>m` or `<n>h` (a Go duration TiDB parses;
/// the closed subset keeps the literal free of anything else).
pub fn valid_job_interval(text: &str) -> bool {
    let Some(digits) = text.strip_suffix(['m', 'h']) else {
        return false;
    };
    !digits.is_empty()
        && digits.len() <= 6
        && digits.bytes().all(|b| b.is_ascii_digit())
        && digits.bytes().any(|b| b != b'0')
}

impl AutoRandom {
    /// `AUTO_RANDOM(5)`, or `AUTO_RANDOM(5, 54)` when the range is not the default.
    pub fn clause(&self) -> String {
        if self.range == DEFAULT_RANGE {
            format!("AUTO_RANDOM({})", self.shard_bits)
        } else {
            format!("AUTO_RANDOM({}, {})", self.shard_bits, self.range)
        }
    }
}

impl Ttl {
    /// `` TTL=`col` + INTERVAL n UNIT ``.
    pub fn clause(&self) -> String {
        format!(
            "TTL={} + INTERVAL {}",
            quote_ident(self.column.as_str()),
            self.interval
        )
    }

    /// `TTL_ENABLE='ON'` / `'OFF'`.
    pub fn enable_clause(&self) -> String {
        format!("TTL_ENABLE={}", quote_str(on_off(self.enabled)))
    }

    /// `TTL_JOB_INTERVAL='1h'`, when declared.
    pub fn job_interval_clause(&self) -> Option<String> {
        self.job_interval
            .as_ref()
            .map(|j| format!("TTL_JOB_INTERVAL={}", quote_str(j)))
    }

    /// `` `col` + INTERVAL 30 DAY, TTL_ENABLE 'ON' [, TTL_JOB_INTERVAL '1h'] ``: for reports.
    pub fn describe(&self) -> String {
        let mut s = format!(
            "{} + INTERVAL {}, TTL_ENABLE '{}'",
            quote_ident(self.column.as_str()),
            self.interval,
            on_off(self.enabled)
        );
        if let Some(j) = &self.job_interval {
            s.push_str(&format!(", TTL_JOB_INTERVAL '{j}'"));
        }
        s
    }
}

fn on_off(b: bool) -> &'static str {
    if b {
        "ON"
    } else {
        "OFF"
    }
}

impl TidbOptions {
    /// Whether nothing is declared / present.
    pub fn is_empty(&self) -> bool {
        *self == TidbOptions::default()
    }

    /// The table options in TiDB's plain syntax, in a fixed order:
    /// `SHARD_ROW_ID_BITS=n PRE_SPLIT_REGIONS=n TTL=... TTL_ENABLE=... TTL_JOB_INTERVAL=...`.
    pub fn table_clauses(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(n) = self.shard_row_id_bits.filter(|n| *n > 0) {
            out.push(format!("SHARD_ROW_ID_BITS={n}"));
        }
        if let Some(n) = self.pre_split_regions.filter(|n| *n > 0) {
            out.push(format!("PRE_SPLIT_REGIONS={n}"));
        }
        if let Some(ttl) = &self.ttl {
            out.push(ttl.clause());
            out.push(ttl.enable_clause());
            out.extend(ttl.job_interval_clause());
        }
        out
    }

    /// `CLUSTERED` / `NONCLUSTERED` after the primary key, when declared.
    pub fn primary_key_clause(&self) -> Option<&'static str> {
        self.clustered
            .map(|c| if c { "CLUSTERED" } else { "NONCLUSTERED" })
    }

    /// The `AUTO_RANDOM` clause of `column`, if it is the auto-random one.
    pub fn auto_random_clause(&self, column: &Ident) -> Option<String> {
        self.auto_random
            .as_ref()
            .filter(|a| &a.column == column)
            .map(AutoRandom::clause)
    }

    /// The names of the declared features, for messages (`clustered`,
    /// `auto_random`, `shard_row_id_bits`, `pre_split_regions`, `ttl`).
    pub fn declared(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        if self.clustered.is_some() {
            out.push("clustered");
        }
        if self.auto_random.is_some() {
            out.push("auto_random");
        }
        if self.shard_row_id_bits.is_some_and(|n| n > 0) {
            out.push("shard_row_id_bits");
        }
        if self.pre_split_regions.is_some_and(|n| n > 0) {
            out.push("pre_split_regions");
        }
        if self.ttl.is_some() {
            out.push("ttl");
        }
        out
    }

    /// Zero counts as absent, so `SHARD_ROW_ID_BITS=0` and no option compare equal.
    pub fn normalize(&mut self) {
        self.shard_row_id_bits = self.shard_row_id_bits.filter(|n| *n > 0);
        self.pre_split_regions = self.pre_split_regions.filter(|n| *n > 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clauses_render_tidb_syntax() {
        let t = TidbOptions {
            clustered: Some(false),
            auto_random: Some(AutoRandom {
                column: "Id".into(),
                shard_bits: 5,
                range: 54,
            }),
            shard_row_id_bits: Some(4),
            pre_split_regions: Some(2),
            ttl: Some(Ttl {
                column: "Created`At".into(),
                interval: TtlInterval::parse("30 day").unwrap(),
                enabled: false,
                job_interval: Some("1h".into()),
            }),
        };
        assert_eq!(t.primary_key_clause(), Some("NONCLUSTERED"));
        assert_eq!(
            t.auto_random_clause(&"ID".into()).as_deref(),
            Some("AUTO_RANDOM(5, 54)")
        );
        assert_eq!(
            t.table_clauses(),
            [
                "SHARD_ROW_ID_BITS=4",
                "PRE_SPLIT_REGIONS=2",
                "TTL=`Created``At` + INTERVAL 30 DAY",
                "TTL_ENABLE='OFF'",
                "TTL_JOB_INTERVAL='1h'"
            ]
        );
    }

    #[test]
    fn intervals_and_job_intervals_are_closed() {
        assert_eq!(
            TtlInterval::parse("INTERVAL 3 MONTH"),
            Some(TtlInterval {
                amount: 3,
                unit: TtlUnit::Month
            })
        );
        for bad in [
            "0 DAY",
            "3 FORTNIGHT",
            "DAY",
            "-1 DAY",
            "1 DAY + 1",
            "1.5 DAY",
        ] {
            assert_eq!(TtlInterval::parse(bad), None, "{bad}");
        }
        assert!(valid_job_interval("1h") && valid_job_interval("30m"));
        for bad in ["", "h", "0h", "1d", "1h30m", "1h'; DROP", "1H"] {
            assert!(!valid_job_interval(bad), "{bad}");
        }
    }
}
