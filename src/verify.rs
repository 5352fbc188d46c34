//! `verify`: the startup gate. Bounded reads of the catalog's tables only,
//! no locks, no writes; exact shapes; scoped to a consumer when asked.
//!
//! ```no_run
//! # async fn gate(pool: mysql_async::Pool) -> Result<(), Box<dyn std::error::Error>> {
//! use std::time::Duration;
//! use schema_catalog::{catalog, verify};
//! let catalog = catalog::load(std::path::Path::new("catalog"))?;
//! // The service's own pool; the whole gate within a 5-second startup budget.
//! let report = verify::within(&pool, "app", &catalog, Some("runtime-upload-lifecycle"), Duration::from_secs(5)).await?;
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

use crate::acquire::Acquire;
use crate::catalog::Catalog;
use crate::db::{bounded, Session};
use crate::diff::{Problem, ProblemKind};
use crate::error::{Error, Result};
use crate::live::diff_all_schemas;
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
/// same reads and options as [`verify_with`], each connection and its
/// reads bounded by `timeout`. Marks `report` not ok when a replica is not
/// satisfied. A replica that cannot be reached is an error naming it.
pub async fn verify_replicas(
    report: &mut VerifyReport,
    replicas: &[crate::db::Target],
    schema: &str,
    catalog: &Catalog,
    consumer: Option<&str>,
    opts: &VerifyOptions,
    timeout: Duration,
) -> Result<()> {
    for target in replicas {
        let mut session = crate::db::connect(target, timeout).await?;
        let on = verify_with(&mut session, schema, catalog, consumer, opts)
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

/// Verifies the live schema against the catalog (or `consumer`'s part of it).
pub async fn verify(
    session: &mut Session<'_>,
    schema: &str,
    catalog: &Catalog,
    consumer: Option<&str>,
) -> Result<VerifyReport> {
    let mut out = verify_schemas(session, &[schema], catalog, consumer).await?;
    out.pop()
        .unwrap_or_else(|| Err(Error::Usage("no schema to verify".into())))
}

/// How verify reads: `VerifyOptions::default()` and the builder methods
/// (one per field, same name); new fields may be added.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct VerifyOptions {
    /// Also run the regenerate-and-compare net (`catalog verify --strict`):
    /// each existing table's `SHOW CREATE TABLE` is compared with its
    /// inspected model, and a table showing an attribute the model does
    /// not explain is `unrecognised` drift. One more round trip per 64
    /// tables (one bounded statement per table): for CI, not for a
    /// service's startup (default off).
    pub strict: bool,
}

impl VerifyOptions {
    /// Sets [`VerifyOptions::strict`].
    pub fn strict(mut self, yes: bool) -> Self {
        self.strict = yes;
        self
    }
}

/// [`verify`] with options ([`VerifyOptions::strict`]: the net).
pub async fn verify_with(
    session: &mut Session<'_>,
    schema: &str,
    catalog: &Catalog,
    consumer: Option<&str>,
    opts: &VerifyOptions,
) -> Result<VerifyReport> {
    if !opts.strict {
        return verify(session, schema, catalog, consumer).await;
    }
    let tables = scope(catalog, consumer)?;
    let diffs = crate::live::diff_all_with(session, schema, &tables, true).await?;
    Ok(report(session, schema, catalog, consumer, diffs))
}

/// [`verify`] of each of `schemas` on one server, their tables read
/// together (statements grow with the tables read, not with the schemas:
/// [`crate::inspect::inspect_catalog_schemas`]): the report per schema, in
/// order, each the one [`verify`] of that schema alone gives. A schema
/// whose tables cannot be read (an unknown shape) has its own error; a
/// failed statement fails the call.
pub async fn verify_schemas(
    session: &mut Session<'_>,
    schemas: &[&str],
    catalog: &Catalog,
    consumer: Option<&str>,
) -> Result<Vec<Result<VerifyReport>>> {
    let tables = scope(catalog, consumer)?;
    let diffs = diff_all_schemas(session, schemas, &tables).await?;
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

/// The startup gate on the caller's target, pool or connection
/// ([`Acquire`]): connect (or take, or borrow) and verify, the whole run
/// within `deadline` ([`Error::Timeout`] past it). The report says whether
/// the schema is ready; [`VerifyReport::into_result`] turns "not ready"
/// into [`Error::Drift`].
pub async fn within<'c>(
    db: impl Acquire<'c>,
    schema: &str,
    catalog: &Catalog,
    consumer: Option<&str>,
    deadline: Duration,
) -> Result<VerifyReport> {
    bounded(deadline, "verify", async {
        let mut session = db.acquire(deadline).await?;
        verify(&mut session, schema, catalog, consumer).await
    })
    .await?
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
