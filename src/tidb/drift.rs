//! Comparing a catalog table's TiDB features with a table read from TiDB.
//!
//! Compared only when the live table was read from TiDB (its `tidb` is
//! `Some`): MySQL and MariaDB have none of these, and the catalog lint has
//! warned that they are omitted there. Every difference is drift, which
//! apply refuses and never rewrites:
//! - `clustered` and `auto_random` are not changed on an existing table
//!   (TiDB cannot alter a primary key's clustering; it converts only an
//!   AUTO_INCREMENT key to AUTO_RANDOM, which is left to the operator):
//!   <https://docs.pingcap.com/tidb/stable/clustered-indexes/>,
//!   <https://docs.pingcap.com/tidb/stable/auto-random/>;
//! - `shard_row_id_bits` / `pre_split_regions` change how new rows and
//!   regions are laid out: an operator's decision, not an additive step;
//! - a TTL change (`ALTER TABLE ... TTL = ...`, metadata-only in TiDB)
//!   deletes rows once the job runs: the opposite of additive
//!   (<https://docs.pingcap.com/tidb/stable/time-to-live/>).
//!
//! `clustered` and `job_interval` are compared only when the catalog
//! declares them; everything else is compared exactly (an undeclared TTL
//! on the live table is drift: it deletes rows the catalog keeps). One
//! exception: a declared AUTO_RANDOM whose key column is still the
//! AUTO_INCREMENT one (a table created before the declaration) is a note,
//! not drift ([`auto_random_pending`]).

use crate::finding::drift::{Problem, ProblemKind, Value};
use crate::model::describe::{clustered_text, ttl_text};
use crate::model::tidb::{TidbOptions, Ttl};
use crate::model::Table;

/// Whether `want`'s AUTO_RANDOM is pending on `have` (read from TiDB): the
/// live key column is the AUTO_INCREMENT one the catalog also declares, with
/// no AUTO_RANDOM. AUTO_RANDOM is a creation-time choice of how ids are
/// spread; a table created before the catalog declared it keeps
/// AUTO_INCREMENT, still assigning unique ids, and is reported, not refused.
/// TiDB converts it with `ALTER TABLE t MODIFY COLUMN id BIGINT
/// AUTO_RANDOM(n)` (<https://docs.pingcap.com/tidb/stable/auto-random/>).
pub fn auto_random_pending(want: &Table, have: &Table) -> bool {
    let Some(a) = want.tidb.as_ref().and_then(|t| t.auto_random.as_ref()) else {
        return false;
    };
    let live_has_none = have.tidb.as_ref().is_some_and(|t| t.auto_random.is_none());
    let increments = |t: &Table| t.column(&a.column).is_some_and(|c| c.auto_increment);
    live_has_none && increments(want) && increments(have)
}

/// The TiDB drift of `have` against `want` (see the module docs), and the
/// informational notes (a pending AUTO_RANDOM, see [`auto_random_pending`]).
pub fn drift(want: &Table, have: &Table) -> (Vec<Problem>, Vec<Problem>) {
    let Some(h) = &have.tidb else {
        return (Vec::new(), Vec::new());
    };
    let pending = auto_random_pending(want, have);
    let w = want.tidb.clone().unwrap_or_default();
    let mut notes = Vec::new();
    let mut out = Vec::new();
    let mut push = |kind, object: &str, expected: Value, actual: Value| {
        out.push(Problem {
            table: want.name.to_string(),
            object: object.to_string(),
            kind,
            expected,
            actual,
            fix: Some("TiDB fixes this when the table is created: declare the live value in the catalog, or recreate the table by hand".into()),
        })
    };
    let live_clustered = h.clustered.or_else(|| default_clustered(have));
    if let Some(c) = w.clustered.filter(|c| live_clustered != Some(*c)) {
        let primary_key = !have.primary_key.is_empty();
        push(
            ProblemKind::TidbClustered,
            "PRIMARY",
            Value::Clustered {
                clustered: Some(c),
                primary_key: true,
            },
            Value::Unchangeable(Box::new(Value::Clustered {
                clustered: live_clustered,
                primary_key,
            })),
        );
    }
    if let Some(a) = w.auto_random.as_ref().filter(|_| pending) {
        notes.push(Problem {
            table: want.name.to_string(),
            object: a.column.to_string(),
            kind: ProblemKind::TidbAutoRandomPending,
            expected: Value::AutoRandom(Some(a.clone())),
            actual: Value::AutoRandomPending {
                table: want.name.to_string(),
                auto_random: a.clone(),
            },
            fix: None,
        });
    } else if w.auto_random != h.auto_random {
        let object = w
            .auto_random
            .as_ref()
            .or(h.auto_random.as_ref())
            .map(|a| a.column.to_string())
            .unwrap_or_default();
        push(
            ProblemKind::TidbAutoRandom,
            &object,
            Value::AutoRandom(w.auto_random.clone()),
            Value::Unchangeable(Box::new(Value::AutoRandom(h.auto_random.clone()))),
        );
    }
    let table = want.name.to_string();
    if w.shard_row_id_bits != h.shard_row_id_bits {
        push(
            ProblemKind::TidbShardRowIdBits,
            &table,
            Value::ShardRowIdBits(w.shard_row_id_bits),
            Value::ShardRowIdBits(h.shard_row_id_bits),
        );
    }
    if w.pre_split_regions != h.pre_split_regions {
        push(
            ProblemKind::TidbPreSplitRegions,
            &table,
            Value::PreSplitRegions(w.pre_split_regions),
            Value::PreSplitRegions(h.pre_split_regions),
        );
    }
    if !same_ttl(w.ttl.as_ref(), h.ttl.as_ref()) {
        push(
            ProblemKind::TidbTtl,
            &table,
            Value::Ttl(w.ttl.clone()),
            Value::Unchangeable(Box::new(Value::Ttl(h.ttl.clone()))),
        );
    }
    (out, notes)
}

/// The clustering TiDB gives a primary key created without CLUSTERED /
/// NONCLUSTERED, where it does not depend on the server: a single integer
/// key is clustered under both `tidb_enable_clustered_index` defaults (`ON`
/// and `INT_ONLY`, <https://docs.pingcap.com/tidb/stable/clustered-indexes/>).
/// Only a text this tool rendered lacks the marker (the release review's
/// model of an installation): TiDB's own `SHOW CREATE TABLE` and
/// `TIDB_PK_TYPE` always say it. `None`: it depends on the server.
fn default_clustered(t: &Table) -> Option<bool> {
    match t.primary_key.as_slice() {
        [only] => only
            .column_name()
            .and_then(|n| t.column(n))
            .filter(|c| c.ty.is_integer())
            .map(|_| true),
        _ => None,
    }
}

/// Same TTL: column, interval and enablement; the job interval when the
/// catalog declares one.
fn same_ttl(want: Option<&Ttl>, have: Option<&Ttl>) -> bool {
    match (want, have) {
        (None, None) => true,
        (Some(w), Some(h)) => {
            w.column == h.column
                && w.interval == h.interval
                && w.enabled == h.enabled
                && (w.job_interval.is_none() || w.job_interval == h.job_interval)
        }
        _ => false,
    }
}

impl TidbOptions {
    /// The features as one line for reports (`CLUSTERED, AUTO_RANDOM(5), ...`).
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.clustered.is_some() {
            parts.push(clustered_text(self.clustered));
        }
        if let Some(a) = &self.auto_random {
            parts.push(format!("`{}` {}", a.column, a.clause()));
        }
        parts.extend(
            self.table_clauses()
                .into_iter()
                .filter(|c| !c.starts_with("TTL")),
        );
        if let Some(t) = &self.ttl {
            parts.push(ttl_text(Some(t)));
        }
        if parts.is_empty() {
            "none".to_string()
        } else {
            parts.join(", ")
        }
    }
}
