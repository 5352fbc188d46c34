//! `catalog explain`: prove that each declared query (`queries:` in a table
//! file) reads its table through the index it names, from the server's own
//! plan. See docs/explain.md for the judgement.
//!
//! Two modes: [`explain_live`] reads only (EXPLAIN of each statement; the
//! statement itself runs only for a SELECT when asked to analyze), and
//! [`explain_scratch`] builds a uniquely named scratch schema from the
//! catalog, fills the queried table per query with synthetic rows, runs
//! ANALYZE TABLE and the server's analyzing EXPLAIN, and drops the schema.

use std::time::Duration;

use mysql_async::prelude::Queryable;

use crate::catalog::{Catalog, CatalogTable, Query};
use crate::db::{self, Session, Target};
use crate::error::{Error, Result};
use crate::ident::quote_ident;
use crate::server::PlanReading;

mod fixture;
mod judge;
mod plan;
mod report;

mod tidb;

pub use judge::{Failure, FailureKind};
pub use plan::{Access, Method};
pub use report::{ExplainReport, Mode, QueryResult};

use crate::sql::query::{self as sql, StatementKind};
use judge::Expectation;
use plan::PlanFacts;

/// Options of `catalog explain`: `ExplainOptions::default()` and the
/// builder methods (one per field, same name); new fields may be added.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ExplainOptions {
    /// Only the queries this consumer's gate checks (and the base ones).
    pub consumer: Option<String>,
    /// Live mode: also run SELECTs (ANALYZE) for actual row counts.
    pub analyze: bool,
    /// Seed of the scratch fixture rows.
    pub seed: u64,
    /// Deadline of each statement.
    pub timeout: Duration,
}

impl Default for ExplainOptions {
    fn default() -> Self {
        ExplainOptions {
            consumer: None,
            analyze: false,
            seed: 1,
            timeout: Duration::from_secs(30),
        }
    }
}

impl ExplainOptions {
    /// Sets [`ExplainOptions::consumer`].
    pub fn consumer(mut self, consumer: Option<String>) -> Self {
        self.consumer = consumer;
        self
    }
    /// Sets [`ExplainOptions::analyze`].
    pub fn analyze(mut self, yes: bool) -> Self {
        self.analyze = yes;
        self
    }
    /// Sets [`ExplainOptions::seed`].
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }
    /// Sets [`ExplainOptions::timeout`].
    pub fn timeout(mut self, d: Duration) -> Self {
        self.timeout = d;
        self
    }
}

/// The declared queries in scope for `consumer`, with their tables:
/// a query counts when its table is in the consumer's scope and its
/// `required_by` is empty or names the consumer. An unknown consumer is
/// a usage error.
pub fn scoped_queries<'a>(
    catalog: &'a Catalog,
    consumer: Option<&str>,
) -> Result<Vec<(&'a CatalogTable, &'a Query)>> {
    let wanted = |required_by: &[String]| match consumer {
        None => true,
        Some(name) => required_by.is_empty() || required_by.iter().any(|r| r == name),
    };
    if let Some(name) = consumer {
        if !catalog.consumers().contains(name) {
            return Err(Error::Usage(format!(
                "unknown consumer `{name}`: no table, column, index or query of the catalog names it in `required_by`"
            )));
        }
    }
    Ok(catalog
        .tables
        .iter()
        .filter(|t| wanted(&t.policy.required_by))
        .flat_map(|t| {
            t.queries
                .iter()
                .filter(|q| wanted(&q.required_by))
                .map(move |q| (t, q))
        })
        .collect())
}

/// Judges the declared queries on the live schema of `session`: EXPLAIN
/// only, never running an UPDATE or DELETE; with `opts.analyze`, a SELECT
/// is run by the server's analyzing EXPLAIN for actual row counts.
pub async fn explain_live(
    session: &mut Session<'_>,
    catalog: &Catalog,
    opts: &ExplainOptions,
) -> Result<ExplainReport> {
    let queries = scoped_queries(catalog, opts.consumer.as_deref())?;
    // The session may be the caller's (a pooled or lent connection): what
    // explain changes on it is put back, also when judging fails.
    let previous = json_format_v1(session).await?;
    let judged = judge_live(session, &queries, opts).await;
    let restored = restore_json_format(session, previous).await;
    let results = judged?;
    restored?;
    Ok(ExplainReport::new(Mode::Live, session, None, results))
}

async fn judge_live(
    session: &mut Session<'_>,
    queries: &[(&CatalogTable, &Query)],
    opts: &ExplainOptions,
) -> Result<Vec<QueryResult>> {
    let mut results = Vec::new();
    for (table, query) in queries {
        let run = RunKind {
            analyze: opts.analyze && query.shape.kind == StatementKind::Select,
            scratch: false,
        };
        results.push(judge_query(session, table, query, run, None).await?);
    }
    Ok(results)
}

/// MySQL: sets the session's `explain_json_format_version` to 1 and
/// returns the value it had. Version 1 of the JSON names const reads (a
/// point read through a unique key) that version 2, MySQL 9's default,
/// folds into "Rows fetched before execution". MySQL before 8.3 has only
/// version 1 and no such variable (error 1193): `None`, nothing set.
/// Other flavors: `None`, nothing set.
async fn json_format_v1(session: &mut Session<'_>) -> Result<Option<u64>> {
    if !session.flavor().may_have_explain_json_format_version() {
        return Ok(None);
    }
    let what = "reading explain_json_format_version";
    let read = "SELECT @@SESSION.explain_json_format_version";
    let previous: Option<u64> = match session.run(what, |c| c.query_first(read)).await {
        Ok(v) => v,
        Err(Error::Database { code: Some(c), .. }) if crate::server::code::unknown_variable(c) => {
            return Ok(None)
        }
        Err(e) => return Err(e),
    };
    let set = "SET SESSION explain_json_format_version = 1";
    session
        .run("setting explain_json_format_version", |c| c.query_drop(set))
        .await?;
    Ok(previous)
}

/// Puts back the value [`json_format_v1`] found (a number the server
/// reported, never other text).
async fn restore_json_format(session: &mut Session<'_>, previous: Option<u64>) -> Result<()> {
    let Some(v) = previous else {
        return Ok(());
    };
    let set = format!("SET SESSION explain_json_format_version = {v}");
    session
        .run("restoring explain_json_format_version", |c| {
            c.query_drop(set)
        })
        .await
}

/// Builds a scratch schema on the server of `server` (its database, if
/// any, is not touched), judges every query in scope on fixture rows, and
/// drops the schema, also when judging fails.
pub async fn explain_scratch(
    server: &Target,
    catalog: &Catalog,
    opts: &ExplainOptions,
) -> Result<ExplainReport> {
    let queries = scoped_queries(catalog, opts.consumer.as_deref())?;
    let name = scratch_name();
    let admin_target = with_schema(server, None);
    let mut admin = db::connect(&admin_target, opts.timeout).await?;
    let create = format!(
        "CREATE DATABASE {} CHARACTER SET {} COLLATE {}",
        quote_ident(&name),
        crate::collation::canonical_charset(&catalog.defaults.charset),
        crate::collation::canonical_collation(&catalog.defaults.collation)
    );
    admin
        .run("creating the scratch schema", |c| c.query_drop(create))
        .await?;
    let scratch = with_schema(server, Some(&name));
    let result = run_scratch(&scratch, catalog, &queries, opts).await;
    let drop = format!("DROP DATABASE IF EXISTS {}", quote_ident(&name));
    let dropped = admin
        .run("dropping the scratch schema", |c| c.query_drop(drop))
        .await;
    let _ = admin.disconnect().await;
    let mut report = result.map_err(|e| on_scratch(e, &name, dropped.is_ok()))?;
    dropped?;
    report.scratch_schema = Some(name);
    Ok(report)
}

async fn run_scratch(
    scratch: &Target,
    catalog: &Catalog,
    queries: &[(&CatalogTable, &Query)],
    opts: &ExplainOptions,
) -> Result<ExplainReport> {
    let tables: Vec<_> = catalog.tables.iter().map(|t| t.table.clone()).collect();
    let apply_opts = crate::apply::ApplyOptions {
        read_timeout: opts.timeout,
        widens: catalog.widens(),
        ..crate::apply::ApplyOptions::default()
    };
    let applied = crate::apply::run(scratch, &scratch.schema, &tables, &apply_opts).await?;
    if !matches!(applied.outcome, crate::apply::Outcome::Converged) {
        return Err(Error::Usage(format!(
            "the scratch schema {} did not converge to the catalog: {:?}",
            scratch.display, applied.outcome
        )));
    }
    let mut session = db::connect(scratch, opts.timeout).await?;
    // A connection of its own, closed after the run: nothing to put back.
    json_format_v1(&mut session).await?;
    // Each query's table is filled on its own, so a child's fixture rows
    // name parents that are not there (error 1452) and a parent cannot be
    // emptied under its children (1451). The scratch schema is the tool's
    // own and dropped afterwards, and a plan of one table's query does not
    // depend on another table's rows, so this session (only) does not
    // check foreign keys (MySQL manual "foreign_key_checks"; a session
    // variable on MySQL, MariaDB and TiDB).
    session
        .run(
            "turning off foreign key checks in the scratch session",
            |c| c.query_drop("SET SESSION foreign_key_checks = 0"),
        )
        .await?;
    let mut results = Vec::new();
    for (table, query) in queries {
        let fix =
            fixture::generate(&table.table, query, seed_for(opts.seed, query)).map_err(|e| {
                Error::Usage(format!(
                    "{}: table `{}`, query `{}`: {e}",
                    table.file.display(),
                    table.table.name,
                    query.name
                ))
            })?;
        fill(&mut session, &table.table.name, &fix).await?;
        let run = RunKind {
            analyze: true,
            scratch: true,
        };
        results.push(judge_query(&mut session, table, query, run, Some(fix.matching)).await?);
    }
    let report = ExplainReport::new(Mode::Scratch, &session, None, results);
    let _ = session.disconnect().await;
    Ok(report)
}

/// Names the scratch schema (and whether it was dropped) in an error of a scratch run.
fn on_scratch(e: Error, name: &str, dropped: bool) -> Error {
    let state = if dropped {
        "dropped"
    } else {
        "NOT dropped: drop it by hand"
    };
    match e {
        Error::Usage(m) => Error::Usage(format!("{m} (scratch schema {name}, {state})")),
        other => other.with_context(&format!("(scratch schema {name}, {state})")),
    }
}

/// A per-query seed, so each query's rows are its own but reproducible.
fn seed_for(seed: u64, query: &Query) -> u64 {
    query
        .name
        .bytes()
        .fold(seed ^ 0xcbf2_9ce4_8422_2325, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        })
}

fn scratch_name() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() % 1_000_000_000_000)
        .unwrap_or(0);
    format!("catalog_explain_{}_{nanos}", std::process::id())
}

/// `server` with another (or no) database.
fn with_schema(server: &Target, schema: Option<&str>) -> Target {
    let opts =
        mysql_async::OptsBuilder::from_opts(server.url.clone()).db_name(schema.map(str::to_string));
    let url = mysql_async::Opts::from(opts);
    let schema = schema.unwrap_or_default().to_string();
    let display = match url.socket() {
        Some(socket) => format!("{socket} (Unix socket)/{schema}"),
        None => format!("{}:{}/{schema}", url.ip_or_hostname(), url.tcp_port()),
    };
    Target {
        url,
        schema,
        display,
    }
}

/// Replaces the table's rows with the fixture (bound parameters, batches),
/// then ANALYZE TABLE so the plan sees real statistics.
async fn fill(
    session: &mut Session<'_>,
    table: &crate::ident::Ident,
    fix: &fixture::Fixture,
) -> Result<()> {
    let t = quote_ident(table.as_str());
    let what = format!("filling `{table}` with fixture rows");
    let delete = format!("DELETE FROM {t}");
    session.run(&what, |c| c.query_drop(delete)).await?;
    let cols: Vec<String> = fix
        .columns
        .iter()
        .map(|c| quote_ident(c.as_str()))
        .collect();
    let one = format!("({})", vec!["?"; cols.len()].join(", "));
    for batch in fix.rows.chunks(500) {
        let sql = format!(
            "INSERT INTO {t} ({}) VALUES {}",
            cols.join(", "),
            vec![one.as_str(); batch.len()].join(", ")
        );
        let params: Vec<mysql_async::Value> = batch
            .iter()
            .flatten()
            .map(|v| match v {
                Some(s) => mysql_async::Value::Bytes(s.clone().into_bytes()),
                None => mysql_async::Value::NULL,
            })
            .collect();
        session
            .run_within(Some(session.timeout() * 4), &what, |c| {
                c.exec_drop(sql, params)
            })
            .await?;
    }
    let analyze = format!("ANALYZE TABLE {t}");
    session
        .run(&format!("ANALYZE TABLE `{table}`"), |c| {
            c.query_drop(analyze)
        })
        .await
}

/// How a statement's plan is read.
#[derive(Clone, Copy)]
struct RunKind {
    /// Run the statement for actual counts (ANALYZE / EXPLAIN ANALYZE).
    analyze: bool,
    /// On a scratch schema: an UPDATE/DELETE may run, inside a rolled-back transaction.
    scratch: bool,
}

async fn judge_query(
    session: &mut Session<'_>,
    table: &CatalogTable,
    query: &Query,
    run: RunKind,
    matching: Option<u32>,
) -> Result<QueryResult> {
    // Rendered from the parsed statement; parameters become literals only
    // through the one escaping helper (see sql::render).
    let statement = sql::render(&query.sql, &query.params).map_err(|e| {
        Error::Usage(format!(
            "{}: table `{}`, query `{}`: the SQL {e}",
            table.file.display(),
            table.table.name,
            query.name
        ))
    })?;
    let (facts, plan_statement) = read_plan(session, &statement, query.shape.kind, run).await?;
    let bound = query
        .max_rows_examined
        .or_else(|| match (query.shape.limit, matching) {
            (Some(limit), _) => Some(limit.max(1) * 10),
            (None, Some(m)) => Some(u64::from(m) * 2 + 10),
            (None, None) => None,
        });
    let want = Expectation {
        table: &table.table.name,
        uses: &query.uses,
        bound,
        matching: matching.filter(|_| run.scratch),
    };
    let failures = judge::judge(&facts, &want);
    Ok(QueryResult {
        table: table.table.name.to_string(),
        file: table.file.display().to_string(),
        query: query.name.clone(),
        ok: failures.is_empty(),
        uses: query.uses.iter().map(|u| u.to_string()).collect(),
        statement,
        plan_statement,
        rows_examined: judge::rows_examined(&facts, &table.table.name),
        bound,
        accesses: facts.accesses,
        messages: facts.messages,
        failures,
    })
}

/// Runs the flavor's plan statement and reads it. Never runs an UPDATE or
/// DELETE outside a scratch schema, and there only in a rolled-back transaction.
async fn read_plan(
    session: &mut Session<'_>,
    statement: &str,
    kind: StatementKind,
    run: RunKind,
) -> Result<(PlanFacts, String)> {
    let select = kind == StatementKind::Select;
    let execute = run.analyze && (select || run.scratch);
    let what = "reading the query plan";
    match session.flavor().plan_reading() {
        PlanReading::AnalyzeFormatJson => {
            let (prefix, wrap) = match (execute, select) {
                (true, true) => ("ANALYZE FORMAT=JSON", false),
                (true, false) => ("ANALYZE FORMAT=JSON", true),
                (false, _) => ("EXPLAIN FORMAT=JSON", false),
            };
            let sql = format!("{prefix} {statement}");
            if wrap {
                session
                    .run(what, |c| c.query_drop("START TRANSACTION"))
                    .await?;
            }
            let text: Result<Option<String>> = session.run(what, |c| c.query_first(sql)).await;
            let text = match text {
                Ok(t) => t,
                Err(e) => {
                    if wrap {
                        let _ = session.run(what, |c| c.query_drop("ROLLBACK")).await;
                    }
                    return Err(e);
                }
            };
            if wrap {
                session.run(what, |c| c.query_drop("ROLLBACK")).await?;
            }
            let facts = plan::from_json(&text.unwrap_or_default()).map_err(|e| plan_error(&e))?;
            Ok((facts, prefix.to_string()))
        }
        PlanReading::ExplainJsonAndAnalyzeTree => {
            // JSON format version 1: set for the whole run (json_format_v1).
            let sql = format!("EXPLAIN FORMAT=JSON {statement}");
            let text: Option<String> = session.run(what, |c| c.query_first(sql)).await?;
            let mut facts =
                plan::from_json(&text.unwrap_or_default()).map_err(|e| plan_error(&e))?;
            // EXPLAIN ANALYZE runs the statement: SELECTs only.
            if execute && select {
                let sql = format!("EXPLAIN ANALYZE {statement}");
                let tree: Option<String> = session.run(what, |c| c.query_first(sql)).await?;
                plan::add_mysql_analyze(&mut facts, &tree.unwrap_or_default());
                return Ok((facts, "EXPLAIN FORMAT=JSON + EXPLAIN ANALYZE".into()));
            }
            Ok((facts, "EXPLAIN FORMAT=JSON".into()))
        }
        PlanReading::ExplainRows => {
            // Not runnable in this project's tests (no TiDB server here);
            // coded from TiDB's documented EXPLAIN ANALYZE output.
            let prefix = if execute && select {
                "EXPLAIN ANALYZE"
            } else {
                "EXPLAIN"
            };
            let sql = format!("{prefix} {statement}");
            let rows: Vec<mysql_async::Row> = session.run(what, |c| c.query(sql)).await?;
            Ok((tidb_facts(&rows), prefix.to_string()))
        }
    }
}

fn tidb_facts(rows: &[mysql_async::Row]) -> PlanFacts {
    let text = |row: &mysql_async::Row, name: &str| -> String {
        let columns = row.columns_ref();
        columns
            .iter()
            .position(|c| c.name_ref().eq_ignore_ascii_case(name.as_bytes()))
            .and_then(|i| row.as_ref(i))
            .and_then(|v| match v {
                mysql_async::Value::Bytes(b) => Some(String::from_utf8_lossy(b).into_owned()),
                _ => None,
            })
            .unwrap_or_default()
    };
    let owned: Vec<[String; 5]> = rows
        .iter()
        .map(|r| {
            [
                text(r, "id"),
                text(r, "estRows"),
                text(r, "actRows"),
                text(r, "access object"),
                text(r, "operator info"),
            ]
        })
        .collect();
    let rows: Vec<tidb::Row<'_>> = owned
        .iter()
        .map(|r| tidb::Row {
            id: &r[0],
            est_rows: &r[1],
            act_rows: &r[2],
            access_object: &r[3],
            operator_info: &r[4],
        })
        .collect();
    tidb::from_rows(&rows)
}

fn plan_error(e: &str) -> Error {
    Error::Database {
        context: "reading the query plan".into(),
        code: None,
        message: e.to_string(),
        source: None,
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::catalog;
    use crate::sql::query::Param;

    /// A declared query's statement is re-rendered with its parameters as
    /// literals, each through the one escaping helper (moved here from
    /// tests/it/queries_lint.rs when `sql` stopped being public).
    #[test]
    fn statements_are_rerendered_with_escaped_literals() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("catalog");
        let catalog = catalog::load(&dir).unwrap();
        let (_, claim) = scoped_queries(&catalog, None)
            .unwrap()
            .into_iter()
            .find(|(_, q)| q.name == "claim_next")
            .unwrap();
        let mut params = claim.params.clone();
        params[1] = Param::Text("x' OR '1'='1".into());
        let sql = sql::render(&claim.sql, &params).unwrap();
        assert!(sql.contains("State = 'x'' OR ''1''=''1'"), "{sql}");
        assert!(sql.ends_with("LIMIT 1 FOR UPDATE SKIP LOCKED"), "{sql}");
    }
}
