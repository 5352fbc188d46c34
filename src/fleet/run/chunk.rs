//! Reading one server's schemas together: a lane's targets a chunk at a
//! time ([`Ctx::schemas_per_read`]), each chunk one read on one session of
//! that server, reused from chunk to chunk (each read names its schemas).
//!
//! `verify --fleet` and `plan --fleet` are such reads only (plan's is
//! `catalog plan`'s read: the inspection and the net, then the plan, and
//! the survey of the server's replicas; verify's is read again on each of
//! the server's replicas).
//! `apply --fleet` reads first, with
//! apply's own preflight read (the inspection and the net,
//! [`crate::live::diff_all`] with [`crate::inspect::Read::net`]): a target whose plan from that
//! read has no step and no drift is `already_converged` (what apply would
//! find under its lock; one inspection, no lock, no DDL), every other
//! target goes through apply.

use std::time::Instant;

use super::{Ctx, Done, Target};
use crate::apply;
use crate::db;
use crate::fleet::report::TargetReport;
use crate::fleet::FleetEvent;

/// What a chunk read finds for one schema.
pub(super) enum Found {
    /// verify: its report.
    Verify(Box<crate::verify::VerifyReport>),
    /// plan: its plan, and the survey of its server's replicas.
    Plan(
        Box<crate::plan::Plan>,
        Option<Box<crate::apply::replica::Survey>>,
    ),
    /// apply: nothing to do (no step, no drift), on this server.
    Converged(Box<crate::server::ServerIdentity>),
    /// apply: apply runs on it (steps, drift, or a read that failed).
    Work,
    /// The run was interrupted during the read.
    Interrupted,
}

/// What the read is for.
#[derive(Clone, Copy)]
pub(super) enum Purpose {
    Verify,
    Plan,
    Apply,
}

impl Ctx<'_> {
    /// Runs `purpose`'s read on `chunk` (one server's targets): the
    /// targets that do not run are reported as [`Ctx::skipped`] says, the
    /// others by what the read found. `Work` comes back as `None`: those
    /// targets are for apply.
    pub(super) async fn read_chunk(
        &self,
        chunk: &[&Target],
        purpose: Purpose,
    ) -> Vec<Option<TargetReport>> {
        let mut out: Vec<Option<TargetReport>> = chunk.iter().map(|t| self.skipped(t)).collect();
        let run: Vec<&Target> = chunk
            .iter()
            .zip(&out)
            .filter(|(_, r)| r.is_none())
            .map(|(t, _)| *t)
            .collect();
        let mut work = vec![false; chunk.len()];
        if let Some(first) = run.first() {
            let offset = self.t0.elapsed().as_millis() as u64;
            if !matches!(purpose, Purpose::Apply) {
                for t in &run {
                    let name = self.name(t);
                    self.emit(&FleetEvent::Started {
                        server: t.server,
                        name: &name,
                    });
                }
            }
            let started = Instant::now();
            let schemas: Vec<&str> = run.iter().map(|t| t.schema.as_str()).collect();
            let mut results = self
                .read_on(first.server, &schemas, purpose)
                .await
                .into_iter();
            for ((slot, t), work) in out.iter_mut().zip(chunk).zip(&mut work) {
                if slot.is_some() {
                    continue;
                }
                let result = results
                    .next()
                    .unwrap_or_else(|| Err("no result of the read".into()));
                let done = match result {
                    Ok(Found::Work) => {
                        *work = true;
                        continue;
                    }
                    // apply: a read that failed is apply's to report, an
                    // interrupted one is `not_started` as apply says.
                    Err(_) | Ok(Found::Interrupted) if matches!(purpose, Purpose::Apply) => {
                        *work = true;
                        continue;
                    }
                    Err(e) => Err(e),
                    Ok(Found::Verify(v)) => Ok(Done::Verify(v)),
                    Ok(Found::Plan(p, survey)) => Ok(Done::Plan(*p, survey)),
                    Ok(Found::Converged(identity)) => Ok(Done::Converged(identity)),
                    Ok(Found::Interrupted) => Ok(Done::Interrupted),
                };
                if let Ok(Done::Converged(_)) = &done {
                    let name = self.name(t);
                    self.emit(&FleetEvent::Started {
                        server: t.server,
                        name: &name,
                    });
                }
                *slot = Some(self.finish(t, Some(offset), started, done));
            }
        }
        for ((t, r), work) in chunk.iter().zip(&out).zip(work) {
            if let Some(r) = r {
                self.done(t, r);
            } else {
                debug_assert!(work, "a target without a report is apply's");
            }
        }
        out
    }

    /// One read of `schemas` on server `server` for `purpose`, on an idle
    /// session of it (or a new one, given apply's read budgets: a read the
    /// busy server ends at its statement time limit is tried again within
    /// the busy budget, as apply's reads are). Every schema gets its
    /// result; a statement that fails fails them all.
    async fn read_on(
        &self,
        server: usize,
        schemas: &[&str],
        purpose: Purpose,
    ) -> Vec<std::result::Result<Found, String>> {
        let fail = |e: String| schemas.iter().map(|_| Err(e.clone())).collect();
        let mut session = match self.session(server).await {
            Ok(s) => s,
            Err(e) => return fail(e.to_string()),
        };
        let host = self.fleet.servers[server].target.host_port();
        let what = match (purpose, schemas) {
            (Purpose::Verify, [one]) => format!("verify of {host}/{one}"),
            (Purpose::Verify, _) => format!("verify of {} schemas of {host}", schemas.len()),
            (Purpose::Plan, [one]) => format!("plan of {host}/{one}"),
            (Purpose::Plan, _) => format!("plan of {} schemas of {host}", schemas.len()),
            (Purpose::Apply, _) => format!("preflight read of {} schemas of {host}", schemas.len()),
        };
        let budget = self.opts.timeout + self.opts.apply.busy_timeout;
        let catalog = self.catalog;
        let consumer = self.opts.consumer.as_deref();
        let work = async {
            match purpose {
                Purpose::Verify => {
                    let mut reports =
                        crate::verify::verify_schemas(&mut session, schemas, catalog, consumer)
                            .await?;
                    // The same read on each of the server's replicas.
                    for replica in &self.fleet.servers[server].replicas {
                        crate::verify::verify_schemas_on_replica(
                            replica,
                            &mut reports,
                            schemas,
                            catalog,
                            consumer,
                            self.opts.timeout,
                            budget,
                        )
                        .await;
                    }
                    Ok(reports
                        .into_iter()
                        .map(|r| r.map(|v| Found::Verify(Box::new(v))))
                        .collect::<Vec<_>>())
                }
                Purpose::Plan => {
                    let plans = plans(&mut session, schemas, &self.tables, &self.widens).await?;
                    let survey = self.survey(server, &mut session).await?;
                    Ok(plans
                        .into_iter()
                        .map(|p| p.map(|p| Found::Plan(Box::new(p), survey.clone())))
                        .collect())
                }
                Purpose::Apply => {
                    converged(&mut session, schemas, &self.tables, &self.widens).await
                }
            }
        };
        let results = tokio::select! {
            r = db::bounded(budget, &what, work) => r,
            () = self.opts.cancel.cancelled() => {
                return schemas.iter().map(|_| Ok(Found::Interrupted)).collect();
            }
        };
        match results {
            Ok(Ok(found)) => {
                self.park(server, session);
                found
                    .into_iter()
                    .map(|r| r.map_err(|e| e.to_string()))
                    .collect()
            }
            Ok(Err(e)) | Err(e) => fail(e.to_string()),
        }
    }

    /// `catalog plan`'s survey of `server`'s replicas (fleet.yaml
    /// `replicas:`), as apply checks them before any DDL, without waiting:
    /// when the server names some or the catalog requires them.
    async fn survey(
        &self,
        server: usize,
        session: &mut db::Session<'static>,
    ) -> crate::Result<Option<Box<crate::apply::replica::Survey>>> {
        let replicas = &self.fleet.servers[server].replicas;
        if replicas.is_empty() && !self.catalog.require_replicas {
            return Ok(None);
        }
        apply::survey_replicas(
            session,
            replicas,
            self.opts.apply.require_replicas || self.catalog.require_replicas,
            self.opts.apply.two_phase_alter,
            self.opts.timeout,
        )
        .await
        .map(|s| Some(Box::new(s)))
    }

    /// An idle session of `server`, or a new one with apply's read budgets.
    async fn session(&self, server: usize) -> crate::Result<db::Session<'static>> {
        let idle = self.idle[server]
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop();
        if let Some(s) = idle {
            return Ok(s);
        }
        let mut s = db::connect(&self.fleet.servers[server].target, self.opts.timeout).await?;
        apply::read_budgets(&mut s, &self.opts.apply).await?;
        Ok(s)
    }

    /// Keeps `session` for the next chunk of `server` (after a read that
    /// succeeded; a failed one's session is dropped).
    fn park(&self, server: usize, session: db::Session<'static>) {
        self.idle[server]
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(session);
    }
}

/// `catalog plan`'s read of each of `schemas` (the inspection and the
/// net, read together, as [`crate::live::plan_live`] reads one) and each
/// one's plan, naming this server.
async fn plans(
    session: &mut db::Session<'_>,
    schemas: &[&str],
    tables: &[crate::model::Table],
    widens: &crate::model::Widens,
) -> crate::Result<Vec<crate::Result<crate::plan::Plan>>> {
    let request = crate::inspect::Read::default()
        .schemas(schemas)
        .tables(tables)
        .net(true);
    let diffs = crate::live::diff_all(session, &request, widens).await?;
    let flavor = session.flavor();
    let identity = session.identity().clone();
    Ok(diffs
        .into_iter()
        .zip(schemas)
        .map(|(d, schema)| {
            d.map(|diffs| {
                let mut plan = crate::plan::plan(&diffs, flavor);
                plan.server = Some(identity.clone());
                plan.schema = Some(schema.to_string());
                plan
            })
        })
        .collect())
}

/// apply's preflight read of each of `schemas` (the same read as
/// [`plans`]) and its plan: `Converged` when there is nothing to do,
/// `Work` otherwise (a schema whose read failed too: apply reports it).
async fn converged(
    session: &mut db::Session<'_>,
    schemas: &[&str],
    tables: &[crate::model::Table],
    widens: &crate::model::Widens,
) -> crate::Result<Vec<crate::Result<Found>>> {
    let identity = session.identity().clone();
    Ok(plans(session, schemas, tables, widens)
        .await?
        .into_iter()
        .map(|p| {
            Ok(match p {
                Ok(plan) if plan.steps.is_empty() && !plan.is_refused() => {
                    Found::Converged(Box::new(identity.clone()))
                }
                Ok(_) | Err(_) => Found::Work,
            })
        })
        .collect())
}
