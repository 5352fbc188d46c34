//! `verify`: the startup gate. Bounded reads of the catalog's tables only,
//! no locks, no writes; exact shapes; scoped to a consumer when asked.
//!
//! ```no_run
//! # async fn gate(pool: mysql_async::Pool) -> Result<(), Box<dyn std::error::Error>> {
//! use std::time::Duration;
//! use schema_catalog::{catalog, verify::{verify, VerifyOptions}};
//! let catalog = catalog::load(std::path::Path::new("catalog"))?;
//! // The service's own pool; the whole gate within a 5-second startup budget.
//! let opts = VerifyOptions::default()
//!     .schema("app")
//!     .consumer("runtime-upload-lifecycle")
//!     .deadline(Duration::from_secs(5));
//! let report = verify(&pool, &catalog, &opts).await?;
//! if !report.ok {
//!     for p in &report.problems {
//!         eprintln!("schema not ready: {p}");
//!     }
//!     std::process::exit(1);
//! }
//! # Ok(())
//! # }
//! ```

use std::time::Duration;

mod capacity;

use crate::acquire::Acquire;
use crate::catalog::{AsCatalog, Catalog};
use crate::db::{bounded, Session};
use crate::diff::{Problem, ProblemKind};
use crate::error::{Error, Result};
use crate::model::Table;
use crate::server::Flavor;

/// The outcome of verify.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct VerifyReport {
    /// Whether the schema satisfies the (scoped) catalog.
    pub ok: bool,
    /// Server flavor.
    pub flavor: Flavor,
    /// The server that was read (its own hostname, port, version, uuid).
    pub server: crate::server::ServerIdentity,
    /// The schema (database) verified on that server.
    pub schema: String,
    /// The consumer checked for, if any.
    pub consumer: Option<String>,
    /// Missing objects and drift, sorted.
    pub problems: Vec<Problem>,
    /// Objects the catalog does not name (informational; never fail verify).
    pub unmanaged: Vec<Problem>,
    /// The existing tables with problems, as read, for readable diffs.
    #[serde(skip)]
    pub live: Vec<Table>,
    /// Each named replica's own verify (`catalog verify --replica URL`);
    /// `ok` holds only when every one of them is satisfied too. Left out
    /// of the JSON when no replica was named.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replicas: Vec<ReplicaVerify>,
    /// `auto-increment-capacity`: tables whose AUTO_INCREMENT has used more
    /// than the catalog's share of its column's range (read by
    /// [`VerifyOptions::capacity`]). A warning leaves
    /// `ok` alone; set to `error` in `lint: rules:`, it makes `ok` false.
    /// Left out of the JSON when there is none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub capacity: Vec<CapacityFinding>,
}

/// One table whose auto_increment column has used more than the catalog's
/// share of its range (`lint: auto_increment_max_share`, default 80%).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct CapacityFinding {
    /// `auto-increment-capacity`.
    pub rule: &'static str,
    /// The level the catalog sets the rule to.
    pub severity: crate::catalog::Severity,
    /// The table.
    pub table: String,
    /// Its auto_increment column.
    pub column: String,
    /// The column's type.
    #[serde(rename = "type")]
    pub column_type: String,
    /// The use of the column's range.
    pub usage: crate::coltype::AutoIncrementUse,
    /// The share (percent) the catalog allows.
    pub max_share: u8,
    /// What it means and what to do.
    pub message: String,
}

impl std::fmt::Display for CapacityFinding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}[{}]: table `{}`, column `{}`: {}",
            self.severity, self.rule, self.table, self.column, self.message
        )
    }
}

/// The verify of one replica: the same schema read on it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ReplicaVerify {
    /// The replica as named (`host:port`, never the password).
    pub replica: String,
    /// Who the replica says it is.
    pub server: crate::server::ServerIdentity,
    /// Whether the schema on the replica satisfies the (scoped) catalog.
    pub ok: bool,
    /// Missing objects and drift on the replica, sorted.
    pub problems: Vec<Problem>,
}

/// Verifies `schema` on each of `replicas` (their URLs' database, if
/// any, is ignored: `schema` is read, as it is on the primary), with the
/// same reads and options as on the primary, each connection and its
/// reads bounded by `timeout`. Marks `report` not ok when a replica is not
/// satisfied. A replica that cannot be reached is an error naming it.
async fn verify_replicas(
    report: &mut VerifyReport,
    schema: &str,
    catalog: &Catalog,
    opts: &VerifyOptions,
) -> Result<()> {
    for target in &opts.replicas {
        let mut session = crate::db::connect(target, opts.timeout).await?;
        let on = verify_on(&mut session, schema, catalog, opts)
            .await
            .map_err(|e| e.with_context(&format!(" (on replica {})", target.host_port())))?;
        let _ = session.disconnect().await;
        report.ok &= on.ok;
        report.replicas.push(ReplicaVerify {
            replica: target.host_port(),
            server: on.server,
            ok: on.ok,
            problems: on.problems,
        });
    }
    Ok(())
}

/// The fleet's [`verify_replicas`]: `schemas` read together on `replica`
/// (as [`verify_schemas`] reads them on the primary), each one's result
/// added to `reports` (the primary's, in the same order): not ok when the
/// replica is not satisfied; an error naming the replica when it cannot be
/// reached or read. A schema whose primary read failed stays failed.
pub(crate) async fn verify_schemas_on_replica(
    replica: &crate::db::Target,
    reports: &mut [Result<VerifyReport>],
    schemas: &[&str],
    catalog: &Catalog,
    consumer: Option<&str>,
    timeout: Duration,
    budget: Duration,
) {
    let host = replica.host_port();
    let on = |e: Error| e.with_context(&format!("(on replica {host})"));
    let read = async {
        let mut session = crate::db::connect(replica, timeout).await?;
        let found = verify_schemas(&mut session, schemas, catalog, consumer).await;
        let _ = session.disconnect().await;
        found
    };
    let found = match bounded(budget, &format!("verify on replica {host}"), read)
        .await
        .and_then(|r| r)
    {
        Ok(found) => found,
        Err(e) => {
            // Every schema the primary read fails with it, naming the replica.
            let message = e.to_string();
            for r in reports.iter_mut().filter(|r| r.is_ok()) {
                *r = Err(Error::Database {
                    context: format!("verify on replica {host}"),
                    code: None,
                    message: message.clone(),
                    source: None,
                });
            }
            return;
        }
    };
    for (report, found) in reports.iter_mut().zip(found) {
        let Ok(primary) = report else { continue };
        match found {
            Ok(v) => {
                primary.ok &= v.ok;
                primary.replicas.push(ReplicaVerify {
                    replica: replica.host_port(),
                    server: v.server,
                    ok: v.ok,
                    problems: v.problems,
                });
            }
            Err(e) => *report = Err(on(e)),
        }
    }
}

/// The catalog's tables as `consumer` needs them: the base contract plus the
/// items whose `required_by` lists it (everything when `None`). An unknown
/// consumer is a usage error listing the known ones.
pub fn scope(catalog: &Catalog, consumer: Option<&str>) -> Result<Vec<Table>> {
    if let Some(name) = consumer {
        let known = catalog.consumers();
        if !known.contains(name) {
            let list: Vec<&str> = known.iter().map(String::as_str).collect();
            return Err(Error::Usage(format!(
                "unknown consumer `{name}`; the catalog's consumers are: {}",
                if list.is_empty() {
                    "(none)".to_string()
                } else {
                    list.join(", ")
                }
            )));
        }
    }
    Ok(catalog.scoped(consumer))
}

/// Whose part of the catalog verify checks.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Consumer {
    /// The whole catalog.
    #[default]
    All,
    /// The base contract plus what `required_by` lists for this consumer.
    Named(String),
}

impl Consumer {
    /// The consumer of this name (`Consumer::named("worker")`).
    pub fn named(name: impl Into<String>) -> Consumer {
        Consumer::Named(name.into())
    }

    /// The name, `None` for [`Consumer::All`].
    pub fn name(&self) -> Option<&str> {
        match self {
            Consumer::All => None,
            Consumer::Named(n) => Some(n),
        }
    }
}

impl From<&str> for Consumer {
    fn from(name: &str) -> Consumer {
        Consumer::named(name)
    }
}

impl From<String> for Consumer {
    fn from(name: String) -> Consumer {
        Consumer::Named(name)
    }
}

impl From<Option<&str>> for Consumer {
    /// `None`: [`Consumer::All`].
    fn from(name: Option<&str>) -> Consumer {
        name.map_or(Consumer::All, Consumer::named)
    }
}

/// How verify runs: `VerifyOptions::default()` and the builder methods
/// (one per field, same name); new fields may be added.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct VerifyOptions {
    /// Whose part of the catalog is checked (default: all of it).
    pub consumer: Consumer,
    /// The schema verified; `None` (default): the database the target's,
    /// pool's or connection's URL names.
    pub schema: Option<String>,
    /// Also run the regenerate-and-compare net (`catalog verify --strict`):
    /// each existing table's `SHOW CREATE TABLE` is compared with its
    /// inspected model, and a table showing an attribute the model does
    /// not explain is `unrecognised` drift. One more round trip per 64
    /// tables (one bounded statement per table): for CI, not for a
    /// service's startup (default off).
    pub strict: bool,
    /// Deadline for connecting (or taking a pool's connection) and for
    /// each read, default 5 s, at most `deadline`. A lent [`Session`] keeps
    /// its own.
    pub timeout: Duration,
    /// The whole run (connecting and every read, replicas included)
    /// within this ([`Error::Timeout`] past it); `None` (default): only
    /// each step is bounded, by `timeout`.
    pub deadline: Option<Duration>,
    /// Replicas of the server that must satisfy the catalog too
    /// (`catalog verify --replica URL`): the same schema is read on each
    /// (their URLs' database, if any, is ignored), each in
    /// [`VerifyReport::replicas`]; the report is ok only when every one is.
    /// A replica that cannot be reached is an error naming it.
    pub replicas: Vec<crate::db::Target>,
    /// Also read each catalog table's next AUTO_INCREMENT value for the
    /// `auto-increment-capacity` rule ([`VerifyReport::capacity`]): one
    /// more bounded read of `information_schema.TABLES`. `catalog verify`
    /// sets it; default false, so a startup gate reads nothing more.
    pub capacity: bool,
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions {
            consumer: Consumer::All,
            schema: None,
            strict: false,
            timeout: Duration::from_secs(5),
            deadline: None,
            replicas: Vec::new(),
            capacity: false,
        }
    }
}

impl VerifyOptions {
    /// Sets [`VerifyOptions::consumer`] (a name, `Option<&str>` or a
    /// [`Consumer`]).
    pub fn consumer(mut self, consumer: impl Into<Consumer>) -> Self {
        self.consumer = consumer.into();
        self
    }
    /// Sets [`VerifyOptions::schema`].
    pub fn schema(mut self, schema: impl Into<String>) -> Self {
        self.schema = Some(schema.into());
        self
    }
    /// Sets [`VerifyOptions::capacity`].
    pub fn capacity(mut self, yes: bool) -> Self {
        self.capacity = yes;
        self
    }
    /// Sets [`VerifyOptions::strict`].
    pub fn strict(mut self, yes: bool) -> Self {
        self.strict = yes;
        self
    }
    /// Sets [`VerifyOptions::timeout`].
    pub fn timeout(mut self, d: Duration) -> Self {
        self.timeout = d;
        self
    }
    /// Sets [`VerifyOptions::deadline`].
    pub fn deadline(mut self, d: impl Into<Option<Duration>>) -> Self {
        self.deadline = d.into();
        self
    }
    /// Sets [`VerifyOptions::replicas`].
    pub fn replicas(mut self, replicas: Vec<crate::db::Target>) -> Self {
        self.replicas = replicas;
        self
    }
}

/// The startup gate: verifies a schema on `db` (a target, the caller's
/// pool, or a connection or [`Session`], owned or lent: [`Acquire`])
/// against `catalog` (or the consumer's part of it), as `opts` says. The
/// report says whether the schema is ready; [`VerifyReport::into_result`]
/// turns "not ready" into [`Error::Drift`]. An invalid catalog
/// ([`Error::InvalidCatalog`]) or an unknown consumer ([`Error::Usage`])
/// is refused before anything is read. Reads only: no lock, no write.
pub async fn verify<'c>(
    db: impl Acquire<'c>,
    catalog: &impl AsCatalog,
    opts: &VerifyOptions,
) -> Result<VerifyReport> {
    let catalog = catalog.as_catalog()?;
    scope(catalog, opts.consumer.name())?;
    let run = async {
        let timeout = opts.deadline.map_or(opts.timeout, |d| d.min(opts.timeout));
        let mut session = db.acquire(timeout).await?;
        let schema = match &opts.schema {
            Some(schema) => schema.clone(),
            None => session.schema()?,
        };
        let mut report = verify_on(&mut session, &schema, catalog, opts).await?;
        if opts.capacity {
            capacity::add(
                &mut session,
                &schema,
                catalog,
                opts.consumer.name(),
                &mut report,
            )
            .await?;
        }
        verify_replicas(&mut report, &schema, catalog, opts).await?;
        Ok(report)
    };
    match opts.deadline {
        Some(deadline) => bounded(deadline, "verify", run).await?,
        None => run.await,
    }
}

/// [`verify`] of `schema` on `session`, the replicas aside.
async fn verify_on(
    session: &mut Session<'_>,
    schema: &str,
    catalog: &Catalog,
    opts: &VerifyOptions,
) -> Result<VerifyReport> {
    let consumer = opts.consumer.name();
    let tables = scope(catalog, consumer)?;
    let diffs = if opts.strict {
        crate::live::diff_all_strict(session, schema, &tables, &catalog.widens()).await?
    } else {
        crate::live::diff_schema(session, schema, &tables, &catalog.widens(), false).await?
    };
    Ok(report(session, schema, catalog, consumer, diffs))
}

/// [`verify`] of each of `schemas` on one server, their tables read
/// together (statements grow with the tables read, not with the schemas:
/// [`crate::inspect::Read::schemas`]): the report per schema, in order,
/// each the one [`verify`] of that schema alone gives. A schema whose
/// tables cannot be read (an unknown shape) has its own error; a failed
/// statement fails the call. The fleet's read.
pub(crate) async fn verify_schemas(
    session: &mut Session<'_>,
    schemas: &[&str],
    catalog: &Catalog,
    consumer: Option<&str>,
) -> Result<Vec<Result<VerifyReport>>> {
    let tables = scope(catalog, consumer)?;
    let request = crate::inspect::Read::default()
        .schemas(schemas)
        .tables(&tables);
    let diffs = crate::live::diff_all(session, &request, &catalog.widens()).await?;
    Ok(diffs
        .into_iter()
        .zip(schemas)
        .map(|(d, schema)| d.map(|d| report(session, schema, catalog, consumer, d)))
        .collect())
}

/// The report of one schema's diffs.
fn report(
    session: &Session<'_>,
    schema: &str,
    catalog: &Catalog,
    consumer: Option<&str>,
    diffs: Vec<crate::diff::TableDiff>,
) -> VerifyReport {
    let mut problems: Vec<Problem> = diffs
        .iter()
        .flat_map(|d| d.problems.iter().cloned())
        .collect();
    let mut unmanaged: Vec<Problem> = diffs
        .iter()
        .flat_map(|d| d.unmanaged.iter().cloned())
        .collect();
    // A scoped verify leaves out items only other consumers require; they
    // are still the catalog's, so they are not reported as unmanaged.
    unmanaged.retain(|p| !catalog_names(catalog, p));
    problems.sort();
    unmanaged.sort();
    VerifyReport {
        ok: problems.is_empty(),
        flavor: session.flavor(),
        server: session.identity().clone(),
        schema: schema.to_string(),
        consumer: consumer.map(str::to_string),
        problems,
        unmanaged,
        live: diffs
            .into_iter()
            .filter(|d| d.needs_diff())
            .filter_map(|d| d.live)
            .collect(),
        replicas: Vec::new(),
        capacity: Vec::new(),
    }
}

/// Whether an unmanaged finding names a column or index the full catalog declares.
fn catalog_names(catalog: &Catalog, p: &Problem) -> bool {
    let Some(t) = catalog.table(&p.table) else {
        return false;
    };
    let object = crate::Ident::new(p.object.as_str());
    match p.kind {
        ProblemKind::UnmanagedColumn => t.table.column(&object).is_some(),
        ProblemKind::UnmanagedIndex => t.table.index(&object).is_some(),
        _ => false,
    }
}

impl VerifyReport {
    /// `Ok(self)` when the schema is ready, [`Error::Drift`] carrying the
    /// problems otherwise.
    pub fn into_result(self) -> Result<VerifyReport> {
        if self.ok {
            Ok(self)
        } else {
            Err(Error::Drift {
                problems: self.problems,
            })
        }
    }
}
