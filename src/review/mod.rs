//! Release review (`catalog diff`): what a catalog change does to every
//! installation still at an older revision, with no database.
//!
//! [`review`] compares an OLD catalog with a NEW one and returns a typed
//! [`Review`]: every change classified with its reason ([`Class`]), the
//! upgrade `catalog apply` would run on a database at OLD's shape per flavor
//! ([`Upgrade`]: the ordinary offline planner run against OLD's rendered
//! model), and the consumer rollout order ([`Rollout`]). Revisions are read
//! from directories or git ([`Source`]). [`markdown`] renders a report for a
//! pull-request comment. The library never prints.

mod classify;
mod installed;
mod lint;
pub mod markdown;
mod rollout;
mod source;
mod upgrade;

use schemars::JsonSchema;
use serde::Serialize;

use crate::server::{Flavor, Server, Version};
use crate::textdiff::TableText;

pub use classify::{Class, Finding, FindingKind, FlavorFix, ReviewKind};
pub use rollout::{Loss, Rollout};
pub use source::{GitPath, Revision, Source};
pub use upgrade::{Upgrade, UpgradeStep};

// `OfflineServer` is declared below, beside the report that carries it.

/// The whole `catalog diff` document: NEW judged against each OLD.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct DiffReport {
    /// NEW, as given (`catalog`, `git:v2:catalog`).
    pub to: String,
    /// One review per `--from`, in the order given.
    pub reviews: Vec<Review>,
    /// Whether every review is deployable (exit 0).
    pub deployable: bool,
    /// The release each flavor's upgrade SQL is written for
    /// (`--server-version`, or the flavor's oldest supported one).
    pub servers: Vec<OfflineServer>,
}

/// A server no one connected to: the flavor and the release assumed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct OfflineServer {
    /// Flavor.
    pub flavor: Flavor,
    /// Release.
    pub version: Version,
}

impl From<&Server> for OfflineServer {
    fn from(s: &Server) -> OfflineServer {
        OfflineServer {
            flavor: s.flavor(),
            version: s.version(),
        }
    }
}

impl DiffReport {
    /// Builds the document from its reviews.
    pub fn new(to: String, reviews: Vec<Review>) -> DiffReport {
        let deployable = reviews.iter().all(|r| r.deployable);
        DiffReport {
            to,
            reviews,
            deployable,
            servers: Vec::new(),
        }
    }

    /// The document, stating the servers its upgrade SQL is written for.
    pub fn for_servers(mut self, servers: &[Server]) -> DiffReport {
        self.servers = servers.iter().map(OfflineServer::from).collect();
        self
    }
}

/// NEW judged against one OLD.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Review {
    /// OLD, as given.
    pub from: String,
    /// No change is classed not deployable and NEW has no new lint error.
    pub deployable: bool,
    /// Every change, classified, in table order.
    pub changes: Vec<Finding>,
    /// Lint errors of NEW that OLD did not have.
    pub new_lint_errors: Vec<crate::catalog::Problem>,
    /// What `catalog apply` would run on a database at OLD's shape, per flavor.
    pub upgrades: Vec<Upgrade>,
    /// Which consumers must wait for apply, and which lose an item.
    pub rollout: Rollout,
    /// OLD -> NEW unified diff of each changed table's CREATE TABLE
    /// (first flavor asked for; comments left out).
    pub table_diffs: Vec<TableText>,
}

impl Review {
    /// Number of changes of `class`.
    pub fn count(&self, class: Class) -> usize {
        self.changes.iter().filter(|c| c.class == class).count()
    }
}

/// Reviews NEW against OLD on each of `flavors` that NEW targets (an error
/// when it targets none of them). OLD must load (a revision that shipped);
/// NEW may fail its lint: the review then holds the errors OLD did not have
/// and nothing else (there is no model to compare).
pub fn review(old: &Revision, new: &Revision, flavors: &[Flavor]) -> crate::Result<Review> {
    let servers: Vec<Server> = flavors.iter().map(|f| Server::offline(*f, None)).collect();
    review_costed(old, new, &servers, &crate::cost::CostOptions::default())
}

/// [`review`] on `servers` (each flavor at its release), each upgrade step
/// costed with `cost` (a stats file's sizes, a build rate, budgets that
/// mark steps; docs/cost.md).
pub fn review_costed(
    old: &Revision,
    new: &Revision,
    servers: &[Server],
    cost: &crate::cost::CostOptions,
) -> crate::Result<Review> {
    let flavors: Vec<Flavor> = servers.iter().map(Server::flavor).collect();
    let flavors = &flavors[..];
    let old_catalog = old.catalog()?;
    let new_lint_errors = lint::new_errors(&old.report, &new.report);
    let from = old.label.clone();
    let to = new.label.clone();
    let Some(new) = new.report.catalog.as_ref() else {
        return Ok(Review {
            from,
            deployable: false,
            changes: Vec::new(),
            new_lint_errors,
            upgrades: Vec::new(),
            rollout: Rollout {
                advice: "do not deploy: NEW does not pass `catalog check`".into(),
                ..Rollout::default()
            },
            table_diffs: Vec::new(),
        });
    };
    // Only the flavors NEW targets (catalog.yaml `flavors`) can run it.
    let flavors: Vec<Flavor> = flavors
        .iter()
        .copied()
        .filter(|f| new.defaults.flavors.contains(f))
        .collect();
    if flavors.is_empty() {
        let names = |fs: &[Flavor]| {
            fs.iter()
                .map(|f| f.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        return Err(crate::Error::Usage(format!(
            "{to} targets {} (catalog.yaml `flavors`): none of the flavors to review",
            names(&new.defaults.flavors)
        )));
    }
    // One flavor's installed model at a time: its diffs give the upgrade,
    // the classification's problems and (first flavor) the rollout.
    let mut installed: Vec<classify::Installed> = Vec::new();
    let mut upgrades: Vec<Upgrade> = Vec::new();
    let mut rollout = Rollout::default();
    for (i, f) in flavors.iter().enumerate() {
        let model = upgrade::old_model(old_catalog, *f, &from)?;
        let consumers = (i == 0).then(|| rollout::consumer_gates(new, &model, *f));
        let diffs = upgrade::diffs(model, new, *f);
        if let Some(consumers) = consumers {
            rollout = rollout::rollout(old_catalog, new, consumers, &diffs);
        }
        let server = servers
            .iter()
            .find(|s| s.flavor() == *f)
            .cloned()
            .unwrap_or_else(|| Server::offline(*f, None));
        upgrades.push(upgrade::upgrade(&diffs, &server, new, cost));
        installed.push(classify::installed(*f, diffs));
    }
    let changes = classify::classify(old_catalog, new, &installed);
    let flavor = flavors.first().copied().unwrap_or(Flavor::ALL[0]);
    let table_diffs = upgrade::table_diffs(old_catalog, new, flavor, &from, &to);
    let deployable =
        new_lint_errors.is_empty() && !changes.iter().any(|c| c.class == Class::NotDeployable);
    Ok(Review {
        from,
        deployable,
        changes,
        new_lint_errors,
        upgrades,
        rollout,
        table_diffs,
    })
}

/// The snake_case name a unit enum value serialises to.
pub(crate) fn snake_name<T: Serialize>(v: &T) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}
