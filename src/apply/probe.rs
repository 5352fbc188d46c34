//! The duplicate probe: before the first DDL of a run, every UNIQUE index
//! to be added to an existing table is looked for duplicates with one
//! bounded read, so a release is refused before any DDL instead of failing
//! with 1062 after the server has scanned the table.
//!
//! The read groups the table's rows the way the index would compare them:
//! - by each key part as the index stores it: the column (so with the
//!   column's collation: `'a'` and `'A'` fall in one group under a `_ci`
//!   collation, exactly as they collide in the index), `LEFT(col, n)` for a
//!   prefix part (characters for a text column, bytes for a binary one, as
//!   the index's prefix counts them), `(expr)` for an expression part;
//! - leaving out rows with a NULL in any key part: a UNIQUE index lets any
//!   number of them in (MySQL Reference Manual, "CREATE INDEX", Unique
//!   Indexes; MariaDB KB "Getting Started with Indexes", Unique Index).
//!
//! It reads the count per duplicate group only, never the key values,
//! unless the caller asks for them (`show_duplicates`): they may be
//! personal data. It runs under a statement time limit of its own
//! (`Flavor::select_within`), and stops at `GROUPS_SEEN` groups. The limit
//! is `--probe-timeout` as given or, by default, scaled by the cost
//! estimate (`scaled_limit`): a probe reads the whole table, so a fixed
//! limit would refuse every large table.

use std::time::{Duration, Instant};

use mysql_async::prelude::*;

use super::ApplyOptions;
use crate::db::Session;
use crate::diff::{Change, TableDiff};
use crate::error::{Error, Result};
use crate::ident::quote_ident;
use crate::model::{DefaultValue, Index, IndexPart, Table};
use crate::plan::Plan;
use crate::server::code;

/// How many duplicate groups one probe reads at most: the count it reports
/// is "at least this many" when it reaches it.
pub const GROUPS_SEEN: u64 = 100;

/// How far past the server's limit the client's own deadline lies.
const CLIENT_GRACE: Duration = Duration::from_secs(2);

/// The default probe limit's floor: a small table's probe gets this much.
pub const PROBE_FLOOR: Duration = Duration::from_secs(30);

/// The default probe limit is this many times the table's estimated scan.
pub const PROBE_SCALE: u32 = 2;

/// The default limit of a probe of a table of `data_length` bytes: the
/// larger of [`PROBE_FLOOR`] and [`PROBE_SCALE`] times the estimated scan
/// (the cost model's build time over DATA_LENGTH at `rate`, with its fixed
/// overhead: docs/cost.md). A GROUP BY over every row reads what an index
/// build reads; twice that leaves room for the sort and a busy server.
pub fn scaled_limit(rate: crate::cost::BuildRate, data_length: u64) -> Duration {
    let scan = Duration::from_millis(rate.millis(data_length));
    PROBE_FLOOR.max(scan * PROBE_SCALE)
}

/// Text for a limit: `1 ms`, `30 s`, `61.2 s`.
fn seconds_text(ms: u64) -> String {
    if ms < 1000 {
        format!("{ms} ms")
    } else if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{:.1} s", ms as f64 / 1000.0)
    }
}

/// What one probe found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ProbeStatus {
    /// No two rows share a key: the index can be built.
    Clean,
    /// Rows share a key: the index cannot be built; the run is refused
    /// before any DDL.
    Duplicates,
    /// The server ended the probe at its time limit (`--probe-timeout`):
    /// the run is refused before any DDL unless the probe is skipped.
    TimedOut,
    /// Not run: `--skip-duplicate-probe`.
    Skipped,
    /// Not run: a key part is a column this run adds with a default the
    /// probe cannot know before the column exists (an expression or a
    /// generated column); `note` says which.
    NotProbed,
}

/// One duplicate group, with `--show-duplicates` only.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct DuplicateGroup {
    /// The key's value in each key part probed, as the server returned it
    /// (UTF-8 text, or `0x`-hex for other bytes).
    pub key: Vec<String>,
    /// How many rows share it.
    pub rows: u64,
}

/// One UNIQUE index probed before the first DDL.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct DuplicateProbe {
    /// Table.
    pub table: String,
    /// The UNIQUE index to be added.
    pub index: String,
    /// What the probe found.
    pub status: ProbeStatus,
    /// Duplicate groups seen (0 unless `duplicates`); at most `limit`.
    pub groups: u64,
    /// The most groups the probe reads: `groups == limit` means at least
    /// that many.
    pub limit: u64,
    /// The probe's statement time limit, in milliseconds.
    pub timeout_ms: u64,
    /// Whether that limit is the default scaled by the estimate (no
    /// `--probe-timeout`): the larger of 30 s and twice the table's
    /// estimated scan time.
    #[serde(default)]
    pub timeout_scaled: bool,
    /// How long it ran, in milliseconds.
    pub ms: u64,
    /// The duplicate keys, with `--show-duplicates` only (empty otherwise:
    /// the values may be personal data).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub values: Vec<DuplicateGroup>,
    /// Why a probe was not run, or what it could not look at.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub note: Option<String>,
}

impl DuplicateProbe {
    /// Whether this probe stops the run before any DDL.
    pub fn refuses(&self) -> bool {
        matches!(self.status, ProbeStatus::Duplicates | ProbeStatus::TimedOut)
    }

    /// The limit, said for people: `30 s (--probe-timeout)` or `61.2 s
    /// (default: the larger of 30 s and 2 x the table's estimated scan)`.
    pub fn limit_text(&self) -> String {
        if self.timeout_scaled {
            format!(
                "{} (default: the larger of {} and {PROBE_SCALE} x the table's estimated scan \
                 time; --probe-timeout sets it)",
                seconds_text(self.timeout_ms),
                seconds_text(PROBE_FLOOR.as_millis() as u64)
            )
        } else {
            format!("{} (--probe-timeout)", seconds_text(self.timeout_ms))
        }
    }

    /// One line for people, never with values.
    pub fn describe(&self) -> String {
        let at = format!("`{}`.`{}`", self.table, self.index);
        match self.status {
            ProbeStatus::Clean => format!(
                "unique index {at}: no duplicate keys ({} ms, limit {})",
                self.ms,
                self.limit_text()
            ),
            ProbeStatus::Duplicates => format!(
                "unique index {at} cannot be built: {}{} group(s) of rows share a key",
                if self.groups >= self.limit {
                    "at least "
                } else {
                    ""
                },
                self.groups
            ),
            ProbeStatus::TimedOut => format!(
                "unique index {at}: the duplicate probe did not finish within {}; whether \
                 the rows hold duplicates is unknown",
                self.limit_text()
            ),
            ProbeStatus::Skipped => format!(
                "unique index {at}: duplicate probe skipped (--skip-duplicate-probe); a \
                 duplicate would fail the build with error 1062 after the table is scanned"
            ),
            ProbeStatus::NotProbed => format!(
                "unique index {at}: not probed: {}",
                self.note.as_deref().unwrap_or("")
            ),
        }
    }
}

/// The UNIQUE indexes `plan` adds to existing tables, with each table's
/// diff (its live shape).
fn targets<'a>(plan: &'a Plan, diffs: &'a [TableDiff]) -> Vec<(&'a TableDiff, &'a Index)> {
    plan.steps
        .iter()
        .filter_map(|s| match &s.change {
            Change::AddIndex { table, index } if index.unique => diffs
                .iter()
                .find(|d| d.table.folded() == table.folded() && d.exists())
                .map(|d| (d, index)),
            _ => None,
        })
        .collect()
}

/// Probes every UNIQUE index the plan adds to an existing table (in plan
/// order), or lists them as skipped. Every one is probed, also after one
/// found duplicates, so that one run names all of them.
pub(crate) async fn probe_all(
    session: &mut Session<'_>,
    schema: &str,
    plan: &Plan,
    diffs: &[TableDiff],
    opts: &ApplyOptions,
) -> Result<Vec<DuplicateProbe>> {
    let mut out = Vec::new();
    let targets = targets(plan, diffs);
    let limits = limits(session, schema, &targets, opts).await?;
    for (diff, index) in targets {
        let live = diff.live.as_ref().expect("targets are existing tables");
        let limit = opts.probe_timeout.unwrap_or_else(|| {
            limits
                .get(diff.table.folded())
                .copied()
                .unwrap_or(PROBE_FLOOR)
        });
        let mut p = DuplicateProbe {
            table: diff.table.to_string(),
            index: index.name.to_string(),
            status: ProbeStatus::Skipped,
            groups: 0,
            limit: GROUPS_SEEN,
            timeout_ms: limit.as_millis() as u64,
            timeout_scaled: opts.probe_timeout.is_none(),
            ms: 0,
            values: Vec::new(),
            note: None,
        };
        if opts.skip_duplicate_probe {
            out.push(p);
            continue;
        }
        let keys = match key_exprs(index, live, diff) {
            Ok(keys) => keys,
            Err(Unprobed::NeverCollides(note)) => {
                p.status = ProbeStatus::Clean;
                p.note = Some(note);
                out.push(p);
                continue;
            }
            Err(Unprobed::Unknown(note)) => {
                p.status = ProbeStatus::NotProbed;
                p.note = Some(note);
                out.push(p);
                continue;
            }
        };
        let started = Instant::now();
        let found = run_probe(
            session,
            schema,
            &diff.table.to_string(),
            &keys,
            limit,
            opts.show_duplicates,
        )
        .await?;
        p.ms = started.elapsed().as_millis() as u64;
        match found {
            None => p.status = ProbeStatus::TimedOut,
            Some(groups) => {
                p.groups = groups.len() as u64;
                p.status = if groups.is_empty() {
                    ProbeStatus::Clean
                } else {
                    ProbeStatus::Duplicates
                };
                if opts.show_duplicates {
                    p.values = groups;
                }
            }
        }
        out.push(p);
    }
    Ok(out)
}

/// The default (scaled) limit of each probed table, by folded name: its
/// size read live (the bounded read of `catalog stats`, only these
/// tables), the rate apply's estimates use (`--build-rate`, a `--stats`
/// calibration, else the flavor's default). Empty when `--probe-timeout`
/// is given, the probes are skipped, or there is none.
async fn limits(
    session: &mut Session<'_>,
    schema: &str,
    targets: &[(&TableDiff, &Index)],
    opts: &ApplyOptions,
) -> Result<std::collections::HashMap<String, Duration>> {
    if opts.probe_timeout.is_some() || opts.skip_duplicate_probe || targets.is_empty() {
        return Ok(Default::default());
    }
    let mut tables: Vec<Table> = Vec::new();
    for (d, _) in targets {
        let live = d.live.as_ref().expect("targets are existing tables");
        if !tables.iter().any(|t| t.name.folded() == live.name.folded()) {
            tables.push(live.clone());
        }
    }
    let rate = opts.cost_options().rate(session.server());
    let stats = crate::cost::read_stats(session, schema, &tables).await?;
    Ok(stats
        .tables
        .iter()
        .map(|t| {
            (
                crate::Ident::new(&t.table).folded().to_string(),
                scaled_limit(rate, t.data_length),
            )
        })
        .collect())
}

/// Why an index is not probed with a query.
enum Unprobed {
    /// No two rows can collide (a key column this run adds, NULL in every
    /// existing row).
    NeverCollides(String),
    /// The probe cannot know before the column exists.
    Unknown(String),
}

/// The key parts as the probe groups by them. A key column this run adds
/// (absent from the live table) holds, in every existing row, NULL (a
/// nullable column without a default: no row collides) or one constant
/// default (left out of the grouping: it is equal in every row).
fn key_exprs(index: &Index, live: &Table, diff: &TableDiff) -> Result<Vec<String>, Unprobed> {
    let mut keys = Vec::new();
    for part in &index.parts {
        match part {
            IndexPart::Column { name, prefix, .. } => {
                if live.column(name).is_none() {
                    let added = diff.changes.iter().find_map(|c| match c {
                        Change::AddColumn { column, .. } if &column.name == name => Some(column),
                        _ => None,
                    });
                    match added {
                        Some(c) if c.generated.is_some() => {
                            return Err(Unprobed::Unknown(format!(
                                "its key column `{name}` is a generated column this run adds"
                            )))
                        }
                        Some(c) if c.default.is_none() => {
                            return Err(Unprobed::NeverCollides(format!(
                                "its key column `{name}` is added by this run and is NULL in \
                                 every existing row"
                            )))
                        }
                        Some(c) if matches!(c.default, Some(DefaultValue::Expression(_))) => {
                            return Err(Unprobed::Unknown(format!(
                                "its key column `{name}` is added by this run with a default \
                                 expression"
                            )))
                        }
                        // A constant default: equal in every row.
                        Some(_) => continue,
                        None => {
                            return Err(Unprobed::Unknown(format!(
                                "its key column `{name}` is not in the table"
                            )))
                        }
                    }
                }
                let col = quote_ident(name.as_str());
                keys.push(match prefix {
                    Some(n) => format!("LEFT({col}, {n})"),
                    None => col,
                });
            }
            IndexPart::Expression(e) => keys.push(format!("({e})")),
        }
    }
    Ok(keys)
}

/// The probe's statement: the count of each duplicate group (and, with
/// `values`, the key), rows with a NULL key part left out, at most
/// [`GROUPS_SEEN`] groups. `rest` follows `SELECT`. With no key left (every
/// key part a new constant column) every row is one group.
fn probe_select(schema: &str, table: &str, keys: &[String], values: bool) -> String {
    let from = format!("{}.{}", quote_ident(schema), quote_ident(table));
    let mut cols = vec!["COUNT(*)".to_string()];
    if values {
        cols.extend(keys.iter().cloned());
    }
    let filter = if keys.is_empty() {
        String::new()
    } else {
        format!(
            " WHERE {}",
            keys.iter()
                .map(|k| format!("{k} IS NOT NULL"))
                .collect::<Vec<_>>()
                .join(" AND ")
        )
    };
    let group = if keys.is_empty() {
        String::new()
    } else {
        format!(" GROUP BY {}", keys.join(", "))
    };
    format!(
        "{} FROM {from}{filter}{group} HAVING COUNT(*) > 1 LIMIT {GROUPS_SEEN}",
        cols.join(", ")
    )
}

/// Runs one probe: the duplicate groups (keys only with
/// `opts.show_duplicates`), or `None` when the server ended it at the
/// probe's time limit.
async fn run_probe(
    session: &mut Session<'_>,
    schema: &str,
    table: &str,
    keys: &[String],
    limit: Duration,
    show_duplicates: bool,
) -> Result<Option<Vec<DuplicateGroup>>> {
    let ms = limit.as_millis() as u64;
    let sql = session
        .flavor()
        .select_within(ms, &probe_select(schema, table, keys, show_duplicates));
    let what = format!("probing `{table}` for duplicate keys");
    // Text protocol: MariaDB's SET STATEMENT ... FOR is one statement,
    // with no parameter; every name in it went through the quoting helper.
    let rows: Result<Vec<mysql_async::Row>> = session
        .run_within(Some(limit + CLIENT_GRACE), &what, |c| c.query(sql))
        .await;
    let rows = match rows {
        Ok(rows) => rows,
        Err(Error::Database { code: Some(c), .. }) if code::statement_timeout(c) => {
            return Ok(None)
        }
        Err(e) => return Err(e),
    };
    Ok(Some(
        rows.into_iter()
            .map(|row| {
                let values = row.unwrap();
                let mut it = values.into_iter();
                let rows = it.next().map(count).unwrap_or(0);
                DuplicateGroup {
                    key: it.map(text).collect(),
                    rows,
                }
            })
            .collect(),
    ))
}

fn count(v: mysql_async::Value) -> u64 {
    mysql_async::from_value_opt::<u64>(v).unwrap_or(0)
}

/// A key value as text: UTF-8 as is, other bytes as `0x`-hex.
fn text(v: mysql_async::Value) -> String {
    use mysql_async::Value;
    match v {
        Value::NULL => "NULL".into(),
        Value::Bytes(b) => match String::from_utf8(b) {
            Ok(s) => s,
            Err(e) => {
                let hex: String = e.into_bytes().iter().map(|b| format!("{b:02X}")).collect();
                format!("0x{hex}")
            }
        },
        other => other.as_sql(true),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probe_groups_by_each_part_and_leaves_nulls_out() {
        let keys = vec!["`a`".to_string(), "LEFT(`b`, 10)".to_string()];
        assert_eq!(
            probe_select("s", "t`x", &keys, false),
            "COUNT(*) FROM `s`.`t``x` WHERE `a` IS NOT NULL AND LEFT(`b`, 10) IS NOT NULL \
             GROUP BY `a`, LEFT(`b`, 10) HAVING COUNT(*) > 1 LIMIT 100"
        );
        assert_eq!(
            probe_select("s", "t", &keys[..1], true),
            "COUNT(*), `a` FROM `s`.`t` WHERE `a` IS NOT NULL GROUP BY `a` \
             HAVING COUNT(*) > 1 LIMIT 100"
        );
        assert_eq!(
            probe_select("s", "t", &[], false),
            "COUNT(*) FROM `s`.`t` HAVING COUNT(*) > 1 LIMIT 100"
        );
    }

    #[test]
    fn default_limit_scales_with_the_estimated_scan() {
        use crate::cost::{BuildRate, RateSource};
        let rate = BuildRate {
            mb_per_s: 10.0,
            overhead_ms: 0,
            source: RateSource::Default,
        };
        // A small table: the floor.
        assert_eq!(scaled_limit(rate, 1_000_000), PROBE_FLOOR);
        assert_eq!(scaled_limit(rate, 0), PROBE_FLOOR);
        // 1 GB at 10 MB/s: a 100 s scan, so 200 s.
        assert_eq!(scaled_limit(rate, 1_000_000_000), Duration::from_secs(200));
        // A calibration's fixed overhead counts: (20 s + 5 s) x 2.
        let calibrated = BuildRate {
            mb_per_s: 10.0,
            overhead_ms: 5_000,
            source: RateSource::Calibrated,
        };
        assert_eq!(
            scaled_limit(calibrated, 200_000_000),
            Duration::from_secs(50)
        );
    }

    #[test]
    fn limit_is_said() {
        let mut p = DuplicateProbe {
            table: "t".into(),
            index: "u".into(),
            status: ProbeStatus::TimedOut,
            groups: 0,
            limit: GROUPS_SEEN,
            timeout_ms: 61_200,
            timeout_scaled: true,
            ms: 61_200,
            values: Vec::new(),
            note: None,
        };
        assert!(p.describe().contains(
            "within 61.2 s (default: the larger of 30 s and 2 x the table's estimated scan time"
        ));
        p.timeout_scaled = false;
        p.timeout_ms = 30_000;
        assert!(p.describe().contains("within 30 s (--probe-timeout)"));
    }

    #[test]
    fn values_read_as_text_or_hex() {
        assert_eq!(text(mysql_async::Value::Bytes(b"abc".to_vec())), "abc");
        assert_eq!(text(mysql_async::Value::Bytes(vec![0xff, 0x00])), "0xFF00");
    }
}
