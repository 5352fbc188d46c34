//! The JSON documents the CLI prints, as typed values: each derives
//! `Serialize` (the document) and `JsonSchema` (its published schema,
//! `docs/schemas/<name>.schema.json`, checked up to date by a test). The
//! CLI prints these and nothing hand-built, so the library's reports and
//! the CLI's JSON cannot drift apart.

use schemars::JsonSchema;
use serde::Serialize;

use crate::apply::{ApplyReport, Outcome, StepReport, Stopped};
use crate::catalog::{self, CheckReport};
use crate::diff::Problem;
use crate::import::Unsupported;
use crate::plan::Plan;
pub use crate::server::ServerIdentity;
use crate::server::{Flavor, Version};
use crate::verify::VerifyReport;

/// A document the CLI prints: one of the types of this module.
pub trait Document: Serialize {}

impl Document for CheckDoc {}
impl Document for crate::sarif::Log {}
impl Document for RenderDoc {}
impl Document for PlanDoc {}
impl Document for VerifyReport {}
impl Document for ApplyDoc {}
impl Document for ImportDoc {}
impl Document for ErrorDoc {}
impl Document for crate::review::DiffReport {}
impl Document for crate::explain::ExplainReport {}
impl Document for VerifyPlansDoc {}
impl Document for crate::fleet::FleetReport {}
impl Document for crate::fleet::TargetReport {}
impl Document for crate::cost::StatsReport {}

/// `catalog verify --plans --format json`: the verify report and the plan
/// judgement of the consumer's declared queries (`catalog explain`, live).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct VerifyPlansDoc {
    /// The schema satisfies the catalog and every plan passes.
    pub ok: bool,
    /// The verify report.
    pub verify: VerifyReport,
    /// The plan judgement (EXPLAIN only).
    pub plans: crate::explain::ExplainReport,
}

/// `catalog check --format json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct CheckDoc {
    /// Whether the catalog has no error.
    pub ok: bool,
    /// Number of errors.
    pub errors: usize,
    /// Number of warnings.
    pub warnings: usize,
    /// Number of findings `# catalog: allow RULE` comments silenced.
    pub suppressed: usize,
    /// Every finding, errors and warnings.
    pub problems: Vec<catalog::Problem>,
    /// The silenced findings, each with its comment's line.
    pub suppressions: Vec<catalog::Suppressed>,
}

impl From<&CheckReport> for CheckDoc {
    fn from(r: &CheckReport) -> Self {
        CheckDoc {
            ok: r.is_valid(),
            errors: r.error_count(),
            warnings: r.warnings().count(),
            suppressed: r.suppressed.len(),
            problems: r.problems.clone(),
            suppressions: r.suppressed.clone(),
        }
    }
}

/// `catalog render --format json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct RenderDoc {
    /// The dialect rendered for.
    pub flavor: Flavor,
    /// The release rendered for: `--server-version`, or the flavor's
    /// oldest supported one.
    pub server_version: Version,
    /// One CREATE TABLE per catalog table, in name order.
    pub statements: Vec<String>,
}

/// One step of [`PlanDoc`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct PlanStepDoc {
    /// Table.
    pub table: String,
    /// `create_table`, `add_column`, `add_index` or `widen_column`.
    pub kind: &'static str,
    /// Object added or widened (the table for `create_table`).
    pub object: String,
    /// `widen_column`: the live type (or default) before the step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// `widen_column`: the catalog type (or default) after it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// The statement.
    pub sql: String,
    /// Why the step's success depends on the table's rows (a UNIQUE index
    /// added to an existing table: duplicates refuse it), as `catalog
    /// diff` classes it; left out otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_dependent: Option<&'static str>,
    /// What the step costs: its class, the table's size and the
    /// estimates (docs/cost.md); size-derived fields are null when the
    /// size is unknown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<crate::cost::StepCost>,
}

/// `catalog plan --format json` (live or `--against` a dump).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct PlanDoc {
    /// Flavor the SQL is written for.
    pub flavor: Flavor,
    /// The server read (live plans only).
    pub server: Option<ServerIdentity>,
    /// The schema (database) planned against on that server (live plans
    /// only; a plan against a dump has none).
    pub schema: Option<String>,
    /// A plan against a dump: the release it assumes (`--server-version`,
    /// or the flavor's oldest supported one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_version: Option<Version>,
    /// Whether drift blocks the plan.
    pub refused: bool,
    /// Steps in apply order.
    pub steps: Vec<PlanStepDoc>,
    /// Drift anywhere in the catalog.
    pub drift: Vec<Problem>,
    /// Objects the catalog does not name (informational).
    pub unmanaged: Vec<Problem>,
    /// Replicas (`--replica`): the guarded ones, the connected ones not
    /// named, and what would keep apply from guarding them. `None` for a
    /// plan against a dump.
    pub replicas: Option<crate::apply::replica::Survey>,
    /// The plan's cost: the build rate assumed, where the sizes came
    /// from, totals per table and for the release (docs/cost.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<crate::cost::CostSummary>,
}

impl PlanDoc {
    /// The document with each step's cost and the totals.
    pub fn with_cost(mut self, cost: &crate::cost::PlanCost) -> PlanDoc {
        for (step, c) in self.steps.iter_mut().zip(&cost.steps) {
            step.cost = Some(c.clone());
        }
        self.cost = Some(cost.summary.clone());
        self
    }
}

impl From<&Plan> for PlanDoc {
    fn from(p: &Plan) -> Self {
        PlanDoc {
            flavor: p.flavor,
            server: p.server.clone(),
            schema: p.schema.clone(),
            server_version: p.server_version,
            refused: p.is_refused(),
            steps: p
                .steps
                .iter()
                .map(|s| {
                    let (from, to) = s.change.widened().unzip();
                    PlanStepDoc {
                        table: s.change.table().to_string(),
                        kind: s.change.kind(),
                        object: s.change.object().to_string(),
                        from,
                        to,
                        sql: s.sql.clone(),
                        data_dependent: s.data_dependent(),
                        cost: None,
                    }
                })
                .collect(),
            drift: p.drift.clone(),
            unmanaged: p.unmanaged.clone(),
            replicas: None,
            cost: None,
        }
    }
}

/// `catalog apply --format json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ApplyDoc {
    /// Whether the schema now satisfies the catalog.
    pub converged: bool,
    /// Server flavor.
    pub flavor: Flavor,
    /// The server the run changed.
    pub server: ServerIdentity,
    /// The advisory lock held for the run.
    pub lock: String,
    /// Whether this was a dry run.
    pub dry_run: bool,
    /// Steps, in order, with status and time.
    pub steps: Vec<StepReport>,
    /// Drift that blocked the run.
    pub drift: Vec<Problem>,
    /// Unmanaged objects seen (informational).
    pub unmanaged: Vec<Problem>,
    /// DDL statements the run's session executed, as the server counts them
    /// (not on TiDB).
    pub server_ddl_count: Option<u64>,
    /// Reads the server cut short at the read budget (`--timeout`) that the
    /// run tried again within the busy budget (`--busy-timeout`); non-zero
    /// means the server was busy.
    pub read_retries: u32,
    /// Why the run stopped, when it did: `kind` busy (exit 4: a table
    /// stayed busy; the blockers), interrupted (SIGINT/SIGTERM) or failed.
    pub stopped: Option<Stopped>,
    /// Each named replica (`--replica`) as checked before any DDL.
    pub replicas: Vec<crate::apply::replica::ReplicaCheck>,
    /// Replicas the primary lists as connected that were not named.
    pub unguarded: Vec<String>,
    /// Why the primary's connected replicas could not be listed, if so.
    pub discovery: Option<String>,
    /// What the run does with two-phase ALTER (`--two-phase-alter`), and why.
    pub two_phase: Option<crate::apply::replica::TwoPhase>,
    /// Each UNIQUE index added to an existing table, probed for duplicate
    /// keys before the first DDL (`status`: clean, duplicates, timed_out,
    /// skipped, not_probed); key values only with `--show-duplicates`.
    pub duplicate_probes: Vec<crate::apply::probe::DuplicateProbe>,
}

impl From<&ApplyReport> for ApplyDoc {
    fn from(r: &ApplyReport) -> Self {
        ApplyDoc {
            converged: r.converged(),
            flavor: r.flavor,
            server: r.server.clone(),
            lock: r.lock.clone(),
            dry_run: r.outcome == Outcome::DryRun,
            steps: r.steps.clone(),
            drift: r.drift.clone(),
            unmanaged: r.unmanaged.clone(),
            server_ddl_count: r.server_ddl_count,
            read_retries: r.read_retries,
            stopped: r.stopped(),
            replicas: r.replicas.clone(),
            unguarded: r.unguarded.clone(),
            discovery: r.discovery.clone(),
            two_phase: r.two_phase.clone(),
            duplicate_probes: r.duplicate_probes.clone(),
        }
    }
}

/// `catalog import --format json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ImportDoc {
    /// Where the schema was read from (a URL without password, or a file).
    pub source: String,
    /// The server read (live imports only).
    pub server: Option<ServerIdentity>,
    /// The tables written, in name order.
    pub tables: Vec<String>,
    /// The files written.
    pub files: Vec<String>,
    /// What was left out (`--skip-unsupported`).
    pub skipped: Vec<Unsupported>,
    /// What was accepted as the server's own default and not written (an
    /// explicit InnoDB `ROW_FORMAT=DYNAMIC`).
    pub notes: Vec<crate::import::ImportNote>,
}

/// The one document of a failed command under `--format json` (exit 2, 3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ErrorDoc {
    /// The error, one line, with the CLI's advice.
    pub error: String,
    /// The process exit code.
    pub exit_code: u8,
    /// An invalid catalog's findings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problems: Option<Vec<catalog::Problem>>,
    /// What would make the command pass, where the CLI knows (`pass
    /// --flavor mariadb, mysql or tidb` for a dump that does not say
    /// which server it comes from; `raise --timeout ...`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

/// Every document's name and JSON Schema, in the order the docs list them.
pub fn schemas() -> Vec<(&'static str, serde_json::Value)> {
    fn schema<T: JsonSchema>() -> serde_json::Value {
        serde_json::to_value(schemars::schema_for!(T)).expect("schemas serialise")
    }
    vec![
        ("check", schema::<CheckDoc>()),
        ("render", schema::<RenderDoc>()),
        ("plan", schema::<PlanDoc>()),
        ("verify", schema::<VerifyReport>()),
        ("apply", schema::<ApplyDoc>()),
        ("import", schema::<ImportDoc>()),
        ("diff", schema::<crate::review::DiffReport>()),
        ("error", schema::<ErrorDoc>()),
        ("explain", schema::<crate::explain::ExplainReport>()),
        ("verify-plans", schema::<VerifyPlansDoc>()),
        ("fleet", schema::<crate::fleet::FleetReport>()),
        ("stats", schema::<crate::cost::StatsReport>()),
    ]
}
