//! The typed report of `catalog explain` (serialized as its JSON) and its
//! human rendering: one line per query, the plan excerpt on failure.

use super::judge::Failure;
use super::plan::Access;
use crate::db::Session;
use crate::server::Flavor;
use crate::server::ServerIdentity;

/// Where the plans were read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The live schema of the URL, read only.
    Live,
    /// A scratch schema filled with fixture rows, dropped after.
    Scratch,
}

/// The outcome of one query.
#[derive(Debug, Clone, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct QueryResult {
    /// The declared table.
    pub table: String,
    /// The table file.
    pub file: String,
    /// Query name.
    pub query: String,
    /// Whether it passed.
    pub ok: bool,
    /// The index(es) it must read through.
    pub uses: Vec<String>,
    /// The statement as sent (re-rendered, parameters as escaped literals).
    pub statement: String,
    /// The plan statement used (`ANALYZE FORMAT=JSON`, `EXPLAIN FORMAT=JSON`, ...).
    pub plan_statement: String,
    /// Rows actually examined on the table, where the statement was run.
    pub rows_examined: Option<f64>,
    /// The bound on rows examined, where one applies.
    pub bound: Option<u64>,
    /// Every read of a table in the plan.
    pub accesses: Vec<Access>,
    /// Server messages saying the plan reads nothing.
    pub messages: Vec<String>,
    /// Why it failed (empty when it passed).
    pub failures: Vec<Failure>,
}

/// The report of `catalog explain`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct ExplainReport {
    /// Every query passed.
    pub ok: bool,
    /// Live or scratch.
    pub mode: Mode,
    /// The server's flavor.
    pub flavor: Flavor,
    /// The server it talked to.
    pub server: ServerIdentity,
    /// The scratch schema used (and dropped), in scratch mode.
    pub scratch_schema: Option<String>,
    /// One entry per query in scope.
    pub queries: Vec<QueryResult>,
}

impl ExplainReport {
    pub(super) fn new(
        mode: Mode,
        session: &Session<'_>,
        scratch_schema: Option<String>,
        queries: Vec<QueryResult>,
    ) -> ExplainReport {
        ExplainReport {
            ok: queries.iter().all(|q| q.ok),
            mode,
            flavor: session.flavor(),
            server: session.identity().clone(),
            scratch_schema,
            queries,
        }
    }

    /// Number of failed queries.
    pub fn failed(&self) -> usize {
        self.queries.iter().filter(|q| !q.ok).count()
    }

    /// Human report: a line per query; under a failure, each reason and its plan excerpt.
    pub fn render_human(&self) -> String {
        let mut out = String::new();
        for q in &self.queries {
            let rows = match (q.rows_examined, q.bound) {
                (Some(r), Some(b)) => format!(", {r} rows examined (bound {b})"),
                (Some(r), None) => format!(", {r} rows examined"),
                (None, _) => ", rows not counted (plan only)".to_string(),
            };
            let status = if q.ok { "ok  " } else { "FAIL" };
            out.push_str(&format!(
                "{status} {}.{} uses {}{rows}\n",
                q.table,
                q.query,
                q.uses.join(", ")
            ));
            for f in &q.failures {
                out.push_str(&format!("     {}\n       plan: {}\n", f.message, f.excerpt));
            }
        }
        let where_ = match (&self.mode, &self.scratch_schema) {
            (Mode::Scratch, Some(s)) => format!("scratch schema {s} (dropped)"),
            _ => "live schema (read only)".to_string(),
        };
        out.push_str(&format!(
            "{} of {} quer{} passed on {} ({where_})\n",
            self.queries.len() - self.failed(),
            self.queries.len(),
            if self.queries.len() == 1 { "y" } else { "ies" },
            self.server
        ));
        out
    }
}
