//! Rollout advice from consumers (`required_by`): whose `verify` fails on an
//! installation at OLD until apply runs, and who loses an item it required.
//!
//! "Fails at OLD" is the verify rule itself: NEW scoped to the consumer,
//! diffed against OLD's tables as a server holds them; any problem fails
//! the gate.

use schemars::JsonSchema;
use serde::Serialize;

use crate::catalog::Catalog;
use crate::diff::{diff_table_on, Problem, Severity, TableDiff};
use crate::dump::Dump;
use crate::model::Table;
use crate::server::Flavor;

/// The rollout of one OLD -> NEW upgrade.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Rollout {
    /// Consumers whose `verify --consumer NAME` fails at OLD until apply
    /// runs, in name order: deploy them after the schema.
    pub apply_first: Vec<String>,
    /// Whether a plain `verify` (no `--consumer`: the whole catalog) fails at OLD.
    pub whole_catalog_waits: bool,
    /// Consumers whose verify fails even after apply: NEW asks for a shape
    /// apply refuses (a not-deployable change in their scope).
    pub blocked: Vec<String>,
    /// Consumers that pass at OLD already: deploy in any order.
    pub unaffected: Vec<String>,
    /// Items a consumer required at OLD that NEW removes or gives to others.
    pub losses: Vec<Loss>,
    /// The order, in words: `apply the schema, then deploy: A, B`.
    pub advice: String,
}

/// An item a consumer loses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Loss {
    /// Consumer (`*` for every consumer: a base-contract item).
    pub consumer: String,
    /// Table.
    pub table: String,
    /// Column or index; `None` for the table.
    pub object: Option<String>,
    /// `removed`, or the consumers NEW requires it for.
    pub now_required_by: Vec<String>,
    /// Whether NEW removes the item altogether.
    pub removed: bool,
}

impl std::fmt::Display for Loss {
    /// `` every consumer loses `T`.`c` (removed) `` / `` A loses `T` (now required by B) ``.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.consumer == "*" {
            f.write_str("every consumer")?;
        } else {
            f.write_str(&self.consumer)?;
        }
        write!(f, " loses `{}`", self.table)?;
        if let Some(o) = &self.object {
            write!(f, ".`{o}`")?;
        }
        if self.removed {
            f.write_str(" (removed)")
        } else {
            write!(f, " (now required by {})", self.now_required_by.join(", "))
        }
    }
}

/// Whether a verify at OLD finds any problem, and any drift among them.
pub type Gate = (bool, bool);

/// The gate of a verify finding `problems`.
fn gate<'a>(problems: impl IntoIterator<Item = &'a Problem>) -> Gate {
    let mut found = (false, false);
    for p in problems {
        found = (true, found.1 || p.kind.severity() == Severity::Drift);
    }
    found
}

/// Each consumer's gate at OLD, in name order: NEW scoped to the consumer
/// diffed against `installed`, OLD as a server holds it (its rendered model
/// for the first flavor reviewed), which `verify --consumer` reads.
pub fn consumer_gates(new: &Catalog, installed: &Dump, flavor: Flavor) -> Vec<(String, Gate)> {
    let widens = new.widens();
    new.consumers()
        .into_iter()
        .map(|c| {
            let diffs: Vec<_> = new
                .scoped(Some(&c))
                .iter()
                .map(|t| {
                    let have = installed.table(t.name.as_str());
                    diff_table_on(t, have, Some(flavor), &widens)
                })
                .collect();
            let found = gate(diffs.iter().flat_map(|d| &d.problems));
            (c, found)
        })
        .collect()
}

/// The rollout from OLD to NEW, from each consumer's gate
/// ([`consumer_gates`]) and the whole catalog's diffs against the same
/// installation (the upgrade's, [`crate::review::upgrade::diffs`], which a
/// plain `verify` finds: not diffed a second time, docs/scale.md).
pub fn rollout(
    old: &Catalog,
    new: &Catalog,
    consumers: Vec<(String, Gate)>,
    whole_catalog: &[TableDiff],
) -> Rollout {
    let mut r = Rollout::default();
    for (c, found) in consumers {
        match found {
            (_, true) => r.blocked.push(c),
            (true, false) => r.apply_first.push(c),
            (false, false) => r.unaffected.push(c),
        }
    }
    let (whole, whole_drift) = gate(whole_catalog.iter().flat_map(|d| &d.problems));
    r.whole_catalog_waits = whole;
    r.losses = losses(old, new);
    r.advice = match (r.apply_first.is_empty(), whole) {
        _ if whole_drift || !r.blocked.is_empty() => format!(
            "do not deploy: apply refuses part of NEW on an installation at OLD{}",
            if r.blocked.is_empty() {
                String::new()
            } else {
                format!(" (verify stays failing for: {})", r.blocked.join(", "))
            }
        ),
        (true, false) => "no ordering needed: every consumer's verify passes at OLD".into(),
        (true, true) => {
            "apply the schema, then deploy services that verify the whole catalog".into()
        }
        (false, _) => format!(
            "apply the schema, then deploy: {}",
            r.apply_first.join(", ")
        ),
    };
    r
}

/// What each consumer of OLD loses in NEW.
fn losses(old: &Catalog, new: &Catalog) -> Vec<Loss> {
    let mut out = Vec::new();
    let old_consumers = old.consumers();
    let mut lose = |table: &Table, object: Option<&str>, was: &[String], now: Option<&[String]>| {
        let removed = now.is_none();
        let now = now.unwrap_or_default();
        // An item now in the base contract is required by everyone: nobody loses it.
        if !removed && now.is_empty() {
            return;
        }
        let who: Vec<String> = if was.is_empty() {
            if removed {
                vec!["*".into()]
            } else {
                old_consumers
                    .iter()
                    .filter(|c| !now.contains(c))
                    .cloned()
                    .collect()
            }
        } else {
            was.iter()
                .filter(|c| removed || !now.contains(c))
                .cloned()
                .collect()
        };
        for consumer in who {
            out.push(Loss {
                consumer,
                table: table.name.as_str().to_string(),
                object: object.map(str::to_string),
                now_required_by: now.to_vec(),
                removed,
            });
        }
    };
    for ot in &old.tables {
        let o = &ot.table;
        let nt = new.table(o.name.as_str());
        let now = nt.map(|n| n.policy.required_by.as_slice());
        lose(o, None, &ot.policy.required_by, now);
        let Some(nt) = nt else { continue };
        let n = &nt.table;
        for c in &o.columns {
            let now = n
                .column(&c.name)
                .map(|c| nt.policy.column_required_by(&c.name));
            lose(
                o,
                Some(c.name.as_str()),
                ot.policy.column_required_by(&c.name),
                now,
            );
        }
        for i in &o.indexes {
            let now = n
                .index(&i.name)
                .map(|i| nt.policy.index_required_by(&i.name));
            lose(
                o,
                Some(i.name.as_str()),
                ot.policy.index_required_by(&i.name),
                now,
            );
        }
    }
    out
}
