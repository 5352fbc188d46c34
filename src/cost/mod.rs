//! What each step costs before it runs: its class (how the server runs
//! it, from `crate::server`), the table's size (a live read or a `catalog
//! stats` file, [`stats`]), and from them the estimated index size, build
//! duration, replica stall and temporary space, with totals per table and
//! per release. Budgets ([`budget`]) turn an estimate into a refusal
//! before the first DDL. docs/cost.md says how each number is made.
//!
//! An estimate is never shown where its input is missing: without a size
//! the class is still known, and every size-derived field is `None`
//! ("unknown").

pub mod budget;
pub mod calibrate;
pub mod stats;

use std::collections::HashMap;

use schemars::JsonSchema;
use serde::Serialize;

use crate::diff::Change;
use crate::model::{Column, IndexPart, Table};
use crate::plan::Step;
pub use crate::server::StepClass;
use crate::server::{DdlWork, Online, Server};

pub use budget::{millis_text, parse_duration, Budgets, OverBudget};
pub use calibrate::calibrate;
pub use stats::{read_stats, Calibration, StatsReport, TableStats};

/// Where an estimate's build rate comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RateSource {
    /// The flavor's default (docs/cost.md, "Default rates").
    Default,
    /// Measured on the server by `catalog stats --calibrate`.
    Calibrated,
    /// Given with `--build-rate`.
    Option,
}

/// The index build rate an estimate assumes.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, JsonSchema)]
pub struct BuildRate {
    /// MB (10^6 bytes) of the table's DATA_LENGTH built per second.
    pub mb_per_s: f64,
    /// Milliseconds every step that reads rows takes beyond its bytes (a
    /// calibration's `overhead_seconds`; 0 without one).
    pub overhead_ms: u64,
    /// Where it comes from.
    pub source: RateSource,
}

// A rate is a finite positive number (`--build-rate` and a calibration
// are checked), never NaN: equality is total.
impl Eq for BuildRate {}

impl BuildRate {
    /// `--build-rate` if given, else a calibration, else the flavor's
    /// default.
    pub fn choose(server: &Server, option: Option<f64>, calibration: Option<&Calibration>) -> Self {
        match (option, calibration) {
            (Some(mb_per_s), c) => BuildRate {
                mb_per_s,
                overhead_ms: c.map_or(0, overhead_ms),
                source: RateSource::Option,
            },
            (None, Some(c)) => BuildRate {
                mb_per_s: c.mb_per_s,
                overhead_ms: overhead_ms(c),
                source: RateSource::Calibrated,
            },
            (None, None) => BuildRate {
                mb_per_s: server.flavor().default_build_rate(),
                overhead_ms: 0,
                source: RateSource::Default,
            },
        }
    }

    /// Milliseconds to build over `bytes` of DATA_LENGTH, with the fixed
    /// part (rounded up: a step that reads rows never shows 0).
    pub fn millis(self, bytes: u64) -> u64 {
        self.overhead_ms + (bytes as f64 / (self.mb_per_s * 1e3)).ceil() as u64
    }
}

fn overhead_ms(c: &Calibration) -> u64 {
    (c.overhead_seconds.max(0.0) * 1000.0).round() as u64
}

/// Where the table sizes came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SizeSource {
    /// Read from the live server (information_schema.TABLES).
    Live,
    /// A `catalog stats` file (`--stats`).
    StatsFile,
    /// None: sizes, durations and space are unknown.
    None,
}

/// The sizes of the tables, by folded name, as the server estimates them.
#[derive(Debug, Clone)]
pub struct Sizes {
    by_name: HashMap<String, TableStats>,
    source: SizeSource,
}

impl Sizes {
    /// The sizes of a stats report, read live or from a file (`source`).
    pub fn from_stats(report: &StatsReport, source: SizeSource) -> Sizes {
        Sizes {
            source,
            by_name: report
                .tables
                .iter()
                .map(|t| (crate::Ident::new(&t.table).folded().to_string(), t.clone()))
                .collect(),
        }
    }

    /// No table's size (the plan alters no existing table), read from
    /// `source`.
    pub fn empty(source: SizeSource) -> Sizes {
        Sizes {
            by_name: HashMap::new(),
            source,
        }
    }

    fn get(&self, table: &crate::Ident) -> Option<&TableStats> {
        self.by_name.get(table.folded())
    }
}

/// One step's cost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct StepCost {
    /// How the server runs it: `instant`, `inplace` (no rebuild),
    /// `rebuild` (in place, with a table rebuild) or `reorg` (TiDB).
    pub class: StepClass,
    /// The table's estimated rows (0 for a new table); `None`: unknown.
    pub rows: Option<u64>,
    /// The table's DATA_LENGTH plus INDEX_LENGTH in bytes; `None`: unknown.
    pub table_bytes: Option<u64>,
    /// An added index: its key bytes per row from the model (the key's
    /// columns at their widest, plus the primary key every entry carries).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_bytes: Option<u32>,
    /// An added index: rows x key bytes (an upper bound: variable-length
    /// columns counted at their widest); `None`: unknown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index_bytes: Option<u64>,
    /// Estimated build time in milliseconds; `None`: unknown.
    pub duration_ms: Option<u64>,
    /// Estimated time a replica's applier stalls replaying it, in
    /// milliseconds; `None`: unknown.
    pub replica_stall_ms: Option<u64>,
    /// Temporary space the server needs for it, in bytes (sort files in
    /// the server's tmpdir, or the rebuilt copy of the table); `None`:
    /// unknown. The online-alter log for concurrent writes comes on top
    /// (bounded by `innodb_online_alter_log_max_size`).
    pub temp_bytes: Option<u64>,
}

/// Totals over some steps (one table's, or a release's).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct CostTotal {
    /// The table (`None`: the whole release).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<String>,
    /// Number of steps.
    pub steps: usize,
    /// Sum of the steps' durations in milliseconds; `None` when any is
    /// unknown.
    pub duration_ms: Option<u64>,
    /// Sum of the steps' replica stalls in milliseconds; `None` when any
    /// is unknown.
    pub replica_stall_ms: Option<u64>,
    /// The largest temporary space one step needs (steps run one at a
    /// time); `None` when any is unknown.
    pub temp_bytes: Option<u64>,
}

/// The cost of a plan: the rate assumed, where the sizes came from, and
/// the totals per table and for the release.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct CostSummary {
    /// The build rate the durations assume.
    pub rate: BuildRate,
    /// Where the table sizes came from.
    pub sizes: SizeSource,
    /// Per table, in the plan's order of first appearance.
    pub tables: Vec<CostTotal>,
    /// The whole release.
    pub total: CostTotal,
}

/// A plan's cost: one [`StepCost`] per step, in the plan's order, and the
/// totals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanCost {
    /// Per step, in order.
    pub steps: Vec<StepCost>,
    /// Totals, the rate and where the sizes came from.
    pub summary: CostSummary,
}

/// Costs `steps` on `server`: one [`StepCost`] per step (in order) and
/// their totals. `tables` are the catalog's (for the key widths of an
/// added index); `sizes` the live tables' (`None`: unknown).
pub fn estimate(
    steps: &[Step],
    tables: &[Table],
    server: &Server,
    sizes: Option<&Sizes>,
    rate: BuildRate,
) -> PlanCost {
    let by_name: HashMap<&str, &Table> = tables.iter().map(|t| (t.name.folded(), t)).collect();
    let costs: Vec<StepCost> = steps
        .iter()
        .map(|s| step_cost(&s.change, &by_name, server, sizes, rate))
        .collect();
    let mut order: Vec<String> = Vec::new();
    let mut per: HashMap<String, Vec<&StepCost>> = HashMap::new();
    for (s, c) in steps.iter().zip(&costs) {
        let name = s.change.table().to_string();
        if !per.contains_key(&name) {
            order.push(name.clone());
        }
        per.entry(name).or_default().push(c);
    }
    let tables = order
        .iter()
        .map(|t| total(Some(t.clone()), &per[t]))
        .collect();
    let all: Vec<&StepCost> = costs.iter().collect();
    let summary = CostSummary {
        rate,
        sizes: sizes.map_or(SizeSource::None, |s| s.source),
        tables,
        total: total(None, &all),
    };
    PlanCost {
        steps: costs,
        summary,
    }
}

fn total(table: Option<String>, steps: &[&StepCost]) -> CostTotal {
    let sum = |f: fn(&StepCost) -> Option<u64>| -> Option<u64> {
        steps.iter().map(|s| f(s)).sum::<Option<u64>>()
    };
    CostTotal {
        table,
        steps: steps.len(),
        duration_ms: sum(|s| s.duration_ms),
        replica_stall_ms: sum(|s| s.replica_stall_ms),
        temp_bytes: steps
            .iter()
            .map(|s| s.temp_bytes)
            .collect::<Option<Vec<u64>>>()
            .map(|v| v.into_iter().max().unwrap_or(0)),
    }
}

/// What `change` does, in the server's neutral words.
fn work(change: &Change, catalog: Option<&&Table>) -> DdlWork {
    match change {
        Change::AddTable(_) => DdlWork::CreateTable,
        Change::AddColumn { column, .. } => DdlWork::AddColumn {
            at_end: catalog
                .and_then(|t| t.columns.last())
                .is_some_and(|last| last.name == column.name),
            stored_generated: column.generated.as_ref().is_some_and(|g| g.stored),
        },
        Change::AddIndex { index, .. } => DdlWork::AddIndex {
            fulltext: index.kind.is_fulltext(),
        },
        Change::WidenColumn { how, .. } => DdlWork::Widen(match how.algorithm {
            crate::diff::WidenAlgorithm::Instant => Online::Instant,
            crate::diff::WidenAlgorithm::InplaceNoLock => Online::InplaceNoLock,
            crate::diff::WidenAlgorithm::TiDb => Online::Metadata,
        }),
    }
}

fn step_cost(
    change: &Change,
    by_name: &HashMap<&str, &Table>,
    server: &Server,
    sizes: Option<&Sizes>,
    rate: BuildRate,
) -> StepCost {
    let table_name = match change {
        Change::AddTable(t) => &t.name,
        Change::AddColumn { table, .. }
        | Change::AddIndex { table, .. }
        | Change::WidenColumn { table, .. } => table,
    };
    let catalog = by_name.get(table_name.folded());
    let work = work(change, catalog);
    let class = server.step_class(work);
    let stats = sizes.and_then(|s| s.get(table_name));
    // A new table is empty: its size is known without a read.
    let (rows, data, index) = match (change, stats) {
        (Change::AddTable(_), _) => (Some(0), Some(0), Some(0)),
        (_, Some(s)) => (Some(s.rows), Some(s.data_length), Some(s.index_length)),
        (_, None) => (None, None, None),
    };
    let key_bytes = match change {
        Change::AddIndex { index, .. } => catalog.and_then(|t| entry_bytes(t, &index.parts)),
        _ => None,
    };
    let index_bytes = match (key_bytes, rows) {
        (Some(k), Some(r)) => Some(r * u64::from(k)),
        _ => None,
    };
    // The bytes the build reads: an index build or reorg scans the
    // clustered index (DATA_LENGTH); a rebuild copies it and rebuilds every
    // index; a metadata change (INSTANT, a VARCHAR lengthening in place)
    // reads no row.
    let metadata_only = matches!(work, DdlWork::Widen(_) | DdlWork::CreateTable);
    let (read, temp) = match class {
        _ if metadata_only => (Some(0), Some(0)),
        StepClass::Instant => (Some(0), Some(0)),
        StepClass::Inplace | StepClass::Reorg => (data, index_bytes.or(data.map(|_| 0))),
        StepClass::Rebuild => {
            let both = data.zip(index).map(|(d, i)| d + i);
            (both, both)
        }
    };
    // Sort files of an index build hold every entry once; unknown key
    // widths (an expression part) leave the space unknown.
    let temp = match (class, key_bytes, &change) {
        (StepClass::Inplace | StepClass::Reorg, None, Change::AddIndex { .. })
            if !metadata_only =>
        {
            None
        }
        _ => temp,
    };
    let reads_rows = !metadata_only && class != StepClass::Instant;
    let duration = read.map(|b| if reads_rows { rate.millis(b) } else { 0 });
    let stall = duration.map(|d| if server.replica_replays_build() { d } else { 0 });
    StepCost {
        class,
        rows,
        table_bytes: data.zip(index).map(|(d, i)| d + i),
        key_bytes,
        index_bytes,
        duration_ms: duration,
        replica_stall_ms: stall,
        temp_bytes: temp,
    }
}

/// Bytes of one entry of an index over `parts` of `table`: its columns at
/// their widest (MySQL/MariaDB/TiDB key accounting) plus the primary key's
/// columns, which every secondary entry carries (6 bytes of InnoDB's
/// hidden row id without one). `None` when a part is an expression or a
/// column's width is unknown.
fn entry_bytes(table: &Table, parts: &[IndexPart]) -> Option<u32> {
    let column = |name: &crate::Ident| table.columns.iter().find(|c| &c.name == name);
    let part = |p: &IndexPart| -> Option<u32> {
        match p {
            IndexPart::Column { name, prefix, .. } => {
                let c = column(name)?;
                let max = char_bytes(c)?;
                match prefix {
                    Some(n) => Some(n * max),
                    None => c.ty.key_bytes(max),
                }
            }
            IndexPart::Expression(_) => None,
        }
    };
    let key: u32 = parts.iter().map(part).sum::<Option<u32>>()?;
    let pk: u32 = if table.primary_key.is_empty() {
        6
    } else {
        table
            .primary_key
            .iter()
            .filter(|p| !parts.contains(p))
            .map(part)
            .sum::<Option<u32>>()?
    };
    Some(key + pk)
}

/// Bytes per character of a column (1 for a column without a charset).
fn char_bytes(c: &Column) -> Option<u32> {
    match c.charset.as_deref() {
        Some(cs) => Some(crate::collation::charset(cs)?.max_bytes),
        None => Some(1),
    }
}

/// What a cost estimate needs besides the steps: the sizes (a stats
/// file's, for an offline review), the rate (`--build-rate`) and the
/// budgets that mark steps (`catalog diff`). Built with `Default` and the
/// setters, so a field added later breaks no caller:
///
/// ```
/// use schema_catalog::cost::{Budgets, CostOptions};
/// use std::time::Duration;
/// let opts = CostOptions::default()
///     .build_rate(40.0)
///     .budgets(Budgets::default().max_step_duration(Duration::from_secs(60)));
/// assert_eq!(opts.build_rate, Some(40.0));
/// ```
///
/// ```compile_fail,E0639
/// use schema_catalog::cost::CostOptions;
/// let opts = CostOptions { build_rate: Some(40.0), ..CostOptions::default() };
/// ```
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct CostOptions {
    /// A `catalog stats` file (`--stats`).
    pub stats: Option<StatsReport>,
    /// `--build-rate`, MB of DATA_LENGTH per second.
    pub build_rate: Option<f64>,
    /// Budgets that mark the steps over them.
    pub budgets: Budgets,
}

impl CostOptions {
    /// Sets [`CostOptions::stats`].
    pub fn stats(mut self, stats: impl Into<Option<StatsReport>>) -> Self {
        self.stats = stats.into();
        self
    }

    /// Sets [`CostOptions::build_rate`] (`None`: the calibration or the
    /// flavor's default).
    pub fn build_rate(mut self, mb_per_s: impl Into<Option<f64>>) -> Self {
        self.build_rate = mb_per_s.into();
        self
    }

    /// Sets [`CostOptions::budgets`].
    pub fn budgets(mut self, budgets: Budgets) -> Self {
        self.budgets = budgets;
        self
    }

    /// The rate for `server`: `--build-rate`, else the stats file's
    /// calibration when it was measured on this flavor, else the
    /// flavor's default.
    pub fn rate(&self, server: &Server) -> BuildRate {
        let calibration = self
            .stats
            .as_ref()
            .filter(|s| s.flavor == server.flavor())
            .and_then(|s| s.calibration.as_ref());
        BuildRate::choose(server, self.build_rate, calibration)
    }

    /// The stats file's sizes, if one was given.
    pub fn sizes(&self) -> Option<Sizes> {
        self.stats
            .as_ref()
            .map(|s| Sizes::from_stats(s, SizeSource::StatsFile))
    }
}

/// A step's name as budgets and `--allow-long-steps` use it:
/// `table.object` (just `table` for a new table), unquoted.
pub fn step_name(change: &Change) -> String {
    if change.kind() == "create_table" {
        change.table().to_string()
    } else {
        format!("{}.{}", change.table(), change.object())
    }
}

/// Plain-text renderings of the estimates, shared by the human output and
/// the Markdown (`unknown` for what is not known, never a guess).
pub mod text {
    use super::{millis_text, StepCost};

    /// `unknown` or the value rendered.
    fn or_unknown<T>(v: Option<T>, f: impl Fn(T) -> String) -> String {
        v.map(f).unwrap_or_else(|| "unknown".into())
    }

    /// `1.2 GB`, `340 MB`, `12 kB`, `512 B` (powers of 10).
    pub fn bytes(b: u64) -> String {
        let f = b as f64;
        if f >= 1e9 {
            format!("{:.1} GB", f / 1e9)
        } else if f >= 1e6 {
            format!("{:.1} MB", f / 1e6)
        } else if f >= 1e3 {
            format!("{:.0} kB", f / 1e3)
        } else {
            format!("{b} B")
        }
    }

    /// `2,000,000`.
    pub fn count(n: u64) -> String {
        let s = n.to_string();
        let mut out = String::new();
        for (i, c) in s.chars().enumerate() {
            if i > 0 && (s.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    }

    /// Rows, or `unknown`.
    pub fn rows(c: &StepCost) -> String {
        or_unknown(c.rows, count)
    }
    /// The table's size, or `unknown`.
    pub fn table_size(c: &StepCost) -> String {
        or_unknown(c.table_bytes, bytes)
    }
    /// An added index's estimated size (`at most`), `unknown`, or `-`
    /// for a step that adds no index.
    pub fn index_size(c: &StepCost) -> String {
        match (c.index_bytes, c.key_bytes) {
            (Some(b), _) => format!("<= {}", bytes(b)),
            (None, Some(_)) => "unknown".into(),
            (None, None) => "-".into(),
        }
    }
    /// The estimated build, or `unknown`.
    pub fn duration(c: &StepCost) -> String {
        or_unknown(c.duration_ms, millis_or_zero)
    }
    /// The estimated replica stall, or `unknown`.
    pub fn stall(c: &StepCost) -> String {
        or_unknown(c.replica_stall_ms, millis_or_zero)
    }
    /// The temporary space, or `unknown`.
    pub fn temp(c: &StepCost) -> String {
        or_unknown(c.temp_bytes, |b| if b == 0 { "0".into() } else { bytes(b) })
    }
    /// `0` for a metadata-only step, else `~12 s`.
    pub fn millis_or_zero(ms: u64) -> String {
        if ms == 0 {
            "0".into()
        } else {
            format!("~{}", millis_text(ms))
        }
    }
    /// A total, or `unknown` when a step's is.
    pub fn total_ms(ms: Option<u64>) -> String {
        or_unknown(ms, millis_or_zero)
    }
    /// A total space, or `unknown`.
    pub fn total_bytes(b: Option<u64>) -> String {
        or_unknown(b, |b| if b == 0 { "0".into() } else { bytes(b) })
    }

    #[cfg(test)]
    mod tests {
        #[test]
        fn renders() {
            assert_eq!(super::count(2_000_000), "2,000,000");
            assert_eq!(super::count(999), "999");
            assert_eq!(super::bytes(1_500_000), "1.5 MB");
            assert_eq!(super::millis_or_zero(0), "0");
            assert_eq!(super::millis_or_zero(1500), "~1.5 s");
        }
    }
}

/// A live plan's cost: the sizes of the tables its steps alter, read on
/// `session` (bounded by those names, [`read_stats`]), and the rate
/// (`--build-rate`, a `--stats` file's calibration, else the flavor's
/// default).
pub async fn plan_cost(
    session: &mut crate::db::Session<'_>,
    schema: &str,
    tables: &[Table],
    plan: &crate::plan::Plan,
    opts: &CostOptions,
) -> crate::Result<PlanCost> {
    let altered: std::collections::HashSet<&str> = plan
        .steps
        .iter()
        .map(|s| s.change.table().folded())
        .collect();
    let read: Vec<Table> = tables
        .iter()
        .filter(|t| altered.contains(t.name.folded()))
        .cloned()
        .collect();
    let server = session.server().clone();
    let sizes = if read.is_empty() {
        Sizes::empty(SizeSource::Live)
    } else {
        Sizes::from_stats(&read_stats(session, schema, &read).await?, SizeSource::Live)
    };
    Ok(estimate(
        &plan.steps,
        tables,
        &server,
        Some(&sizes),
        opts.rate(&server),
    ))
}
