//! Apply's replica guard (SPEC "Replicas", docs/replicas.md): connects and
//! checks the named replicas before any DDL ([`Guard::start`]), holds each
//! step until every replica has executed the primary's position within the
//! lag budget ([`Guard::before_step`]), and waits for each to execute the
//! step after it ([`Guard::after_step`]). What each vendor says and how is
//! in `crate::server::replica`; what reports say in `crate::apply::replica`.

use std::time::{Duration, Instant};

use mysql_async::prelude::*;
use mysql_async::Row;

use super::replica::{Behind, Loaded, ReplicaCheck, Survey};
use super::ApplyOptions;
use crate::db::{Session, Target};
use crate::error::{Error, Result};
use crate::server::replica as vendor;
use crate::server::Flavor;
use crate::server::ServerIdentity;

/// What a step waited for sessions holding its table on the replicas
/// ([`Guard::blockers`]).
#[derive(Debug, Clone, Default)]
pub(crate) struct BlockerWait {
    /// Milliseconds the step waited before every replica was clear (0: the
    /// first look was).
    pub waited_ms: u64,
    /// Per replica, in the guard's order: milliseconds until its holders
    /// were gone (0: none seen), and each holder seen, as last seen.
    pub per_replica: Vec<(u64, Vec<super::Blocker>)>,
}

/// Checks `replicas` of the server `primary` is connected to, as apply
/// does before any DDL, without waiting, and says what apply would do
/// with two-phase ALTER under `two_phase_alter`: for `catalog plan`.
/// `timeout` bounds each connection and read.
pub async fn survey(
    primary: &mut Session<'_>,
    replicas: &[Target],
    require_replicas: bool,
    two_phase_alter: super::replica::TwoPhaseAlter,
    timeout: Duration,
) -> Result<Survey> {
    let opts = ApplyOptions {
        replicas: replicas.to_vec(),
        require_replicas,
        busy_timeout: Duration::ZERO,
        read_timeout: timeout,
        ..ApplyOptions::default()
    };
    let mut survey = Survey::default();
    match Guard::start(primary, &opts, &|_| {}).await {
        Ok(guard) => {
            survey.guarded = guard.checks.clone();
            survey.unguarded = guard.unguarded.clone();
            survey.discovery = guard.discovery.clone();
            match super::replica::two_phase(two_phase_alter, primary.server(), &guard.checks) {
                Ok(t) => survey.two_phase = Some(t),
                Err(refused) => survey.refused = Some(refused),
            }
            guard.close().await;
        }
        Err(GuardError::Refused { message, .. }) => survey.refused = Some(message),
        Err(GuardError::Behind { replicas, .. }) => survey.not_ready = replicas,
        Err(GuardError::Interrupted(_) | GuardError::Overloaded { .. }) => {}
        Err(GuardError::Db(e)) => return Err(e),
    }
    Ok(survey)
}

/// Why the replica guard stopped a run.
#[derive(Debug)]
pub(crate) enum GuardError {
    /// A rerun cannot fix it: not a replica, not of this primary, no GTIDs,
    /// the primary itself, or a connected replica not named with
    /// `require_replicas`. Before any DDL.
    Refused {
        /// The replica concerned (`None`: the unnamed ones).
        replica: Option<String>,
        /// What is wrong, naming both identities.
        message: String,
    },
    /// Replicas did not answer, had stopped threads or stayed behind for the
    /// whole budget (exit 4: a rerun later may pass).
    Behind {
        /// Each replica that was not ready at the last look.
        replicas: Vec<Behind>,
        /// How long it was waited for.
        waited: Duration,
    },
    /// A server's `Threads_running` stayed above `max_threads_running` for
    /// the whole budget (exit 4; the step not started).
    Overloaded {
        /// Each server above the limit at the last look.
        servers: Vec<super::replica::Loaded>,
        /// How long it was waited for.
        waited: Duration,
    },
    /// A cancel or halt came while waiting.
    Interrupted(String),
    /// The primary failed.
    Db(Error),
}

impl From<Error> for GuardError {
    fn from(e: Error) -> Self {
        GuardError::Db(e)
    }
}

/// A named replica, connected and checked.
struct Linked {
    display: String,
    session: Session<'static>,
    server_id: u64,
}

/// The primary's own replication identity.
struct Primary {
    server_id: u64,
    server_uuid: Option<String>,
    gtid_on: bool,
}

/// The named replicas of one run, connected and checked, and the connected
/// replicas that were not named.
pub(crate) struct Guard {
    flavor: Flavor,
    linked: Vec<Linked>,
    /// Each named replica as checked.
    pub checks: Vec<ReplicaCheck>,
    /// Replicas the primary lists as connected that were not named
    /// (`host:port (server_id N)`).
    pub unguarded: Vec<String>,
    /// Why the primary's list could not be read (a hint only: no privilege).
    pub discovery: Option<String>,
}

/// Extra time the client waits past a server-side wait's own timeout.
const GRACE: Duration = Duration::from_secs(3);

/// Longest single server-side wait after a step: the run looks for a
/// cancel and reports progress between waits.
const WAIT_SLICE: Duration = Duration::from_secs(1);

impl Guard {
    /// Connects and checks every named replica before any DDL; lists the
    /// connected replicas that were not named. A replica that does not
    /// answer or whose threads are stopped is waited for within
    /// `opts.busy_timeout` (`waiting` is told each time), then
    /// [`GuardError::Behind`].
    pub(crate) async fn start(
        primary: &mut Session<'_>,
        opts: &ApplyOptions,
        waiting: &(dyn Fn(String) + Sync),
    ) -> std::result::Result<Guard, GuardError> {
        let flavor = primary.flavor();
        let mut guard = Guard {
            flavor,
            linked: Vec::new(),
            checks: Vec::new(),
            unguarded: Vec::new(),
            discovery: None,
        };
        // TiDB has no MySQL-protocol replicas (no replica status statement).
        if vendor::status_statement(flavor).is_none() {
            if let Some(r) = opts.replicas.first() {
                return Err(GuardError::Refused {
                    replica: Some(r.host_port()),
                    message: format!(
                        "replica {} named for a TiDB primary: TiDB has no MySQL-protocol \
                         replicas to guard; leave out --replica",
                        r.host_port()
                    ),
                });
            }
            return Ok(guard);
        }
        // Without named replicas only the hint is read: one statement.
        let own_id = if opts.replicas.is_empty() {
            0
        } else {
            guard.link_all(primary, opts, waiting).await?
        };
        guard.discover(primary, own_id).await?;
        if opts.require_replicas && !guard.unguarded.is_empty() {
            return Err(GuardError::Refused {
                replica: None,
                message: format!(
                    "{}: {}; name each with --replica (or leave out --require-replicas)",
                    are_connected(guard.unguarded.len()),
                    guard.unguarded.join(", ")
                ),
            });
        }
        Ok(guard)
    }

    /// Connects and checks every named replica (see [`Guard::start`]);
    /// the primary's `server_id`.
    async fn link_all(
        &mut self,
        primary: &mut Session<'_>,
        opts: &ApplyOptions,
        waiting: &(dyn Fn(String) + Sync),
    ) -> std::result::Result<u64, GuardError> {
        let flavor = self.flavor;
        let me = self_of(primary).await?;
        let identity = primary.identity().clone();
        if !opts.replicas.is_empty() && !me.gtid_on {
            return Err(GuardError::Refused {
                replica: None,
                message: format!(
                    "the primary {identity} does not have GTIDs on (gtid_mode): replica lag is \
                     measured by GTID position only; turn GTIDs on or leave out --replica"
                ),
            });
        }
        let mut hosts = vec![identity.hostname.clone()];
        hosts.push(primary.conn().opts().ip_or_hostname().to_string());
        let started = Instant::now();
        let deadline = started + opts.busy_timeout;
        let mut pending: Vec<&Target> = opts.replicas.iter().collect();
        let mut attempt = 0u32;
        loop {
            let mut behind = Vec::new();
            let mut still = Vec::new();
            for target in pending {
                let source = vendor::PrimarySelf {
                    server_id: me.server_id,
                    server_uuid: me.server_uuid.as_deref(),
                    port: identity.port,
                    hosts: &hosts,
                };
                match link(target, flavor, &identity, &source, opts).await? {
                    Linking::Ready(ready) => {
                        let (linked, check) = *ready;
                        self.linked.push(linked);
                        self.checks.push(check);
                    }
                    Linking::NotReady(reason) => {
                        behind.push(Behind {
                            replica: target.host_port(),
                            position: String::new(),
                            replica_position: String::new(),
                            reason,
                        });
                        still.push(target);
                    }
                }
            }
            if behind.is_empty() {
                break;
            }
            pending = still;
            let now = Instant::now();
            if now >= deadline {
                return Err(GuardError::Behind {
                    replicas: behind,
                    waited: now - started,
                });
            }
            waiting(format!(
                "waiting ({} s) for {}",
                (now - started).as_secs(),
                list(&behind)
            ));
            pause(opts, &mut attempt, deadline - now, "waiting for a replica").await?;
        }
        // The checks in the order the replicas were named.
        let order = |name: &str| {
            opts.replicas
                .iter()
                .position(|t| t.host_port() == name)
                .unwrap_or(usize::MAX)
        };
        self.checks.sort_by_key(|c| order(&c.replica));
        self.linked.sort_by_key(|l| order(&l.display));
        Ok(me.server_id)
    }

    /// Whether any replica is named.
    pub(crate) fn is_empty(&self) -> bool {
        self.linked.is_empty()
    }

    /// The named replicas' sessions, with their names.
    pub(crate) fn sessions(&mut self) -> impl Iterator<Item = (&str, &mut Session<'static>)> {
        self.linked
            .iter_mut()
            .map(|l| (l.display.as_str(), &mut l.session))
    }

    /// Lists the connected replicas the primary reports that were not named
    /// (by server id). Without the privilege to list them, says so in
    /// [`Guard::discovery`] (a hint; not an error).
    async fn discover(&mut self, primary: &mut Session<'_>, own_id: u64) -> Result<()> {
        let Some(sql) = vendor::hosts_statement(self.flavor) else {
            return Ok(());
        };
        let rows: std::result::Result<Vec<Row>, Error> = primary
            .run("listing the primary's connected replicas", |c| c.query(sql))
            .await;
        let rows = match rows {
            Ok(rows) => rows,
            Err(Error::Database {
                code: Some(code),
                message,
                ..
            }) if code != 0 => {
                self.discovery = Some(format!(
                    "the primary's connected replicas could not be listed ({sql}: error \
                     {code}: {message})"
                ));
                return Ok(());
            }
            Err(e) => return Err(e),
        };
        let named: Vec<u64> = self.linked.iter().map(|l| l.server_id).collect();
        for row in &rows {
            let r = vendor::listed(row);
            if r.server_id == own_id || named.contains(&r.server_id) {
                continue;
            }
            let host = if r.host.is_empty() {
                "(host not reported)".to_string()
            } else {
                format!("{}:{}", r.host, r.port)
            };
            self.unguarded
                .push(format!("{host} (server_id {})", r.server_id));
        }
        Ok(())
    }

    /// Before a step: every replica must execute the primary's current
    /// position within `opts.max_replica_lag`; while one does not, waits
    /// with backoff within `opts.busy_timeout`. Returns the milliseconds
    /// waited per replica.
    pub(crate) async fn before_step(
        &mut self,
        primary: &mut Session<'_>,
        opts: &ApplyOptions,
        waiting: &(dyn Fn(String) + Sync),
    ) -> std::result::Result<Vec<u64>, GuardError> {
        let started = Instant::now();
        let deadline = started + opts.busy_timeout;
        let mut waited = vec![0u64; self.linked.len()];
        if self.linked.is_empty() {
            return Ok(waited);
        }
        let mut done = vec![false; self.linked.len()];
        let mut attempt = 0u32;
        loop {
            let position = position(primary).await?;
            let mut behind = Vec::new();
            for (i, l) in self.linked.iter_mut().enumerate() {
                if done[i] {
                    continue;
                }
                let t = Instant::now();
                if wait_for(&mut l.session, &position, opts.max_replica_lag).await? {
                    done[i] = true;
                    waited[i] = (t - started).as_millis() as u64;
                } else {
                    behind.push(describe(l, &position).await);
                }
            }
            if behind.is_empty() {
                return Ok(waited);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(GuardError::Behind {
                    replicas: behind,
                    waited: now - started,
                });
            }
            waiting(format!(
                "waiting ({} s) for {} to catch up within {} s: {}",
                (now - started).as_secs(),
                count_replicas(behind.len()),
                opts.max_replica_lag.as_secs_f64(),
                list(&behind)
            ));
            pause(
                opts,
                &mut attempt,
                deadline - now,
                "waiting for a lagging replica",
            )
            .await?;
        }
    }

    /// Before a step that is not INSTANT: the same look for sessions that
    /// hold the table the primary gets ([`super::busy::blockers`]), on every
    /// replica: the replayed ALTER would wait for their metadata lock and
    /// queue the replica's reads behind it (the replica applier's lock wait
    /// is the server default, a day or a year). While one is seen, waits
    /// with backoff within `opts.busy_timeout`, naming replica and holder.
    /// Returns what was waited, per replica in the guard's order.
    pub(crate) async fn blockers(
        &mut self,
        schema: &str,
        table: &str,
        opts: &ApplyOptions,
        waiting: &(dyn Fn(String) + Sync),
    ) -> std::result::Result<BlockerWait, GuardError> {
        let started = Instant::now();
        let deadline = started + opts.busy_timeout;
        let mut attempt = 0u32;
        let mut wait = BlockerWait {
            waited_ms: 0,
            per_replica: vec![(0, Vec::new()); self.linked.len()],
        };
        // Per replica: whether its last look saw a holder.
        let mut held_last = vec![false; self.linked.len()];
        loop {
            let mut held = Vec::new();
            for (i, l) in self.linked.iter_mut().enumerate() {
                let seen = super::busy::blockers(&mut l.session, schema, table, opts.blocker_age)
                    .await
                    .map_err(|e| e.with_context(&format!(" (on replica {})", l.display)))?;
                if seen.is_empty() {
                    // Its wait ends at the first clean look after a holder.
                    if held_last[i] {
                        wait.per_replica[i].0 = started.elapsed().as_millis() as u64;
                    }
                    held_last[i] = false;
                    continue;
                }
                held_last[i] = true;
                let holders = &mut wait.per_replica[i].1;
                for b in &seen {
                    // Each holder once, as last seen (its age grows).
                    match holders
                        .iter_mut()
                        .find(|h| h.connection_id == b.connection_id)
                    {
                        Some(h) => *h = b.clone(),
                        None => holders.push(b.clone()),
                    }
                }
                held.push(Behind {
                    replica: l.display.clone(),
                    position: String::new(),
                    replica_position: String::new(),
                    reason: format!(
                        "table `{table}` is held by {}",
                        seen.iter()
                            .map(ToString::to_string)
                            .collect::<Vec<_>>()
                            .join("; ")
                    ),
                });
            }
            if held.is_empty() {
                // Time spent only when it waited: a first clean look is 0.
                if attempt > 0 {
                    wait.waited_ms = started.elapsed().as_millis() as u64;
                }
                return Ok(wait);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(GuardError::Behind {
                    replicas: held,
                    waited: now - started,
                });
            }
            waiting(format!(
                "waiting ({} s) for a replica's blocker: {}",
                (now - started).as_secs(),
                list(&held)
            ));
            pause(
                opts,
                &mut attempt,
                deadline - now,
                "waiting for a replica's blocker",
            )
            .await?;
        }
    }

    /// After a step: reads the primary's position now (right after the DDL)
    /// and waits, within `opts.replica_timeout` (default the busy budget),
    /// until each replica has executed it. Returns the position, each
    /// replica's wait in milliseconds (`None`: not in time) and the
    /// replicas still behind.
    pub(crate) async fn after_step(
        &mut self,
        primary: &mut Session<'_>,
        opts: &ApplyOptions,
        waiting: &(dyn Fn(String) + Sync),
    ) -> std::result::Result<(String, Vec<Option<u64>>, Vec<Behind>), GuardError> {
        if self.linked.is_empty() {
            return Ok((String::new(), Vec::new(), Vec::new()));
        }
        let position = position(primary).await?;
        let started = Instant::now();
        let budget = opts.replica_timeout.unwrap_or(opts.busy_timeout);
        let deadline = started + budget;
        let mut caught = vec![None; self.linked.len()];
        loop {
            let mut left_behind = 0;
            for (i, l) in self.linked.iter_mut().enumerate() {
                if caught[i].is_some() {
                    continue;
                }
                let slice = deadline
                    .saturating_duration_since(Instant::now())
                    .min(WAIT_SLICE);
                if wait_for(&mut l.session, &position, slice).await? {
                    caught[i] = Some(started.elapsed().as_millis() as u64);
                } else {
                    left_behind += 1;
                }
            }
            if left_behind == 0 {
                return Ok((position, caught, Vec::new()));
            }
            if Instant::now() >= deadline {
                let mut behind = Vec::new();
                for (i, l) in self.linked.iter_mut().enumerate() {
                    if caught[i].is_none() {
                        behind.push(describe(l, &position).await);
                    }
                }
                return Ok((position, caught, behind));
            }
            let names: Vec<&str> = self
                .linked
                .iter()
                .zip(&caught)
                .filter(|(_, c)| c.is_none())
                .map(|(l, _)| l.display.as_str())
                .collect();
            waiting(format!(
                "waiting ({} s of {} s) for {} to execute the step: {}",
                started.elapsed().as_secs(),
                budget.as_secs(),
                count_replicas(names.len()),
                names.join(", ")
            ));
            if let Some(stop) = super::stop_requested(opts) {
                return Err(GuardError::Interrupted(format!(
                    "{stop} while waiting for replicas to execute the step"
                )));
            }
        }
    }

    /// Before a step, with `--max-threads-running`: the primary's and each
    /// named replica's `Threads_running` must be at most `limit`; while one
    /// is above, waits with backoff within `opts.busy_timeout`, naming the
    /// server, its value and the limit, then [`GuardError::Overloaded`].
    /// The reading session counts itself (it runs the statement). Returns
    /// the milliseconds waited (0 when the first look passed).
    pub(crate) async fn load(
        &mut self,
        primary: &mut Session<'_>,
        limit: u64,
        opts: &ApplyOptions,
        waiting: &(dyn Fn(String) + Sync),
    ) -> std::result::Result<u64, GuardError> {
        let started = Instant::now();
        let deadline = started + opts.busy_timeout;
        let mut attempt = 0u32;
        let primary_name = {
            let id = primary.identity();
            format!("{}:{}", id.hostname, id.port)
        };
        loop {
            let mut over = Vec::new();
            let n = threads_running(primary).await?;
            if n > limit {
                over.push(Loaded {
                    role: "primary".into(),
                    server: primary_name.clone(),
                    threads_running: n,
                    limit,
                });
            }
            for l in &mut self.linked {
                let n = threads_running(&mut l.session)
                    .await
                    .map_err(|e| e.with_context(&format!(" (on replica {})", l.display)))?;
                if n > limit {
                    over.push(Loaded {
                        role: "replica".into(),
                        server: l.display.clone(),
                        threads_running: n,
                        limit,
                    });
                }
            }
            if over.is_empty() {
                return Ok(if attempt == 0 {
                    0
                } else {
                    started.elapsed().as_millis() as u64
                });
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(GuardError::Overloaded {
                    servers: over,
                    waited: now - started,
                });
            }
            waiting(format!(
                "waiting ({} s) for the load to drop to --max-threads-running {limit}: {}",
                (now - started).as_secs(),
                over.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; ")
            ));
            pause(
                opts,
                &mut attempt,
                deadline - now,
                "waiting for the load to drop",
            )
            .await?;
        }
    }

    /// Closes the replicas' connections.
    pub(crate) async fn close(self) {
        for l in self.linked {
            let _ = l.session.disconnect().await;
        }
    }
}

/// Pauses with backoff (cancellable) between two looks.
async fn pause(
    opts: &ApplyOptions,
    attempt: &mut u32,
    left: Duration,
    what: &str,
) -> std::result::Result<(), GuardError> {
    let pause = super::backoff(*attempt, left);
    *attempt += 1;
    match super::sleep_unless_stopped(opts, pause).await {
        Some(stop) => Err(GuardError::Interrupted(format!(
            "{stop} while {what}; no DDL was sent for the step"
        ))),
        None => Ok(()),
    }
}

/// `1 replica` / `N replicas`.
fn count_replicas(n: usize) -> String {
    if n == 1 {
        "1 replica".to_string()
    } else {
        format!("{n} replicas")
    }
}

/// `1 replica is` / `N replicas are`, as the plan and apply say of the
/// unguarded ones.
pub(crate) fn are_connected(n: usize) -> String {
    let verb = if n == 1 { "is" } else { "are" };
    format!("{} {verb} connected and not guarded", count_replicas(n))
}

fn list(behind: &[Behind]) -> String {
    behind
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

enum Linking {
    Ready(Box<(Linked, ReplicaCheck)>),
    NotReady(String),
}

/// Connects to `target` and checks it replicates from `primary` by GTID
/// with both threads running. A refusal is an error; not answering or
/// stopped threads are [`Linking::NotReady`] (waited for).
async fn link(
    target: &Target,
    flavor: Flavor,
    identity: &ServerIdentity,
    primary: &vendor::PrimarySelf<'_>,
    opts: &ApplyOptions,
) -> std::result::Result<Linking, GuardError> {
    let name = target.host_port();
    let refuse = |message: String| GuardError::Refused {
        replica: Some(name.clone()),
        message,
    };
    let mut session = match crate::db::connect(target, opts.read_timeout).await {
        Ok(s) => s,
        // A refused login is an answer: the URL is wrong, waiting cannot
        // fix it.
        Err(e) if login_refused(&e) => {
            return Err(refuse(format!("replica {name} refused the login: {e}")));
        }
        Err(e) => return Ok(Linking::NotReady(format!("does not answer ({e})"))),
    };
    session.set_timeout(opts.read_timeout.max(Duration::from_secs(1)) + GRACE);
    let server = session.identity().clone();
    if session.flavor() != flavor {
        return Err(refuse(format!(
            "replica {name} ({server}) is {}, the primary ({identity}) is {flavor}: it cannot \
             be this primary's replica",
            session.flavor()
        )));
    }
    let me = match self_of(&mut session).await {
        Ok(me) => me,
        Err(e) => return Ok(Linking::NotReady(format!("cannot be read ({e})"))),
    };
    if me.server_id == primary.server_id
        && (me.server_uuid.is_none() || me.server_uuid.as_deref() == primary.server_uuid)
    {
        return Err(refuse(format!(
            "replica {name} ({server}, server_id {}) is the primary itself",
            me.server_id
        )));
    }
    if !me.gtid_on {
        return Err(refuse(format!(
            "replica {name} ({server}) does not have GTIDs on (gtid_mode): its lag is measured \
             by GTID position only"
        )));
    }
    let Some(sql) = vendor::status_statement(flavor) else {
        return Err(refuse(format!("replica {name}: {flavor} has no replicas")));
    };
    let rows: Vec<Row> = match session
        .run("reading the replica's replication status", |c| c.query(sql))
        .await
    {
        Ok(rows) => rows,
        Err(e) => return Ok(Linking::NotReady(format!("status cannot be read ({e})"))),
    };
    let links: Vec<vendor::Link> = rows.iter().map(vendor::link).collect();
    // The identity's Display already carries the server_uuid (MySQL).
    let primary_name = format!("{identity}, server_id {}", primary.server_id);
    if links.is_empty() {
        return Err(refuse(format!(
            "{name} ({server}, server_id {}) is not a replica ({sql} shows no source); the \
             primary is {primary_name}",
            me.server_id
        )));
    }
    let Some(link) = links
        .iter()
        .find(|l| vendor::same_source(flavor, l, primary))
    else {
        let sources: Vec<String> = links
            .iter()
            .map(|l| {
                format!(
                    "{} (server_id {}{})",
                    l.source(),
                    l.source_server_id,
                    l.source_uuid
                        .as_deref()
                        .map(|u| format!(", server_uuid {u}"))
                        .unwrap_or_default()
                )
            })
            .collect();
        return Err(refuse(format!(
            "replica {name} ({server}) replicates from {}, not from this primary ({primary_name})",
            sources.join(" and ")
        )));
    };
    if !link.uses_gtid {
        return Err(refuse(format!(
            "replica {name} ({server}) replicates from {} by binary log file and position, not \
             by GTID: its lag cannot be measured by GTID position (MariaDB: CHANGE MASTER TO \
             MASTER_USE_GTID=slave_pos; MySQL: SOURCE_AUTO_POSITION=1)",
            link.source()
        )));
    }
    if !(link.io_running && link.sql_running) {
        let yes = |b: bool| if b { "Yes" } else { "No" };
        return Ok(Linking::NotReady(format!(
            "replication threads stopped (receiver: {}, applier: {}){}",
            yes(link.io_running),
            yes(link.sql_running),
            link.last_error
                .as_deref()
                .map(|e| format!(", last error: {}", super::cut(e, 200)))
                .unwrap_or_default()
        )));
    }
    let parallel_workers = match vendor::parallel_statement(flavor) {
        Some(sql) => session
            .run("reading the replica's parallel applier threads", |c| {
                c.query_first::<Option<u64>, _>(sql)
            })
            .await
            .ok()
            .flatten()
            .flatten(),
        None => None,
    };
    let check = ReplicaCheck {
        replica: name.clone(),
        server,
        server_id: me.server_id,
        source: link.source(),
        parallel_workers,
    };
    Ok(Linking::Ready(Box::new((
        Linked {
            display: name,
            session,
            server_id: me.server_id,
        },
        check,
    ))))
}

/// Whether a connect error is the server refusing the login (1045/1698).
fn login_refused(e: &Error) -> bool {
    matches!(
        e,
        Error::Connect {
            source: Some(mysql_async::Error::Server(server)),
            ..
        } if crate::server::code::access_denied(server.code)
    )
}

/// The server's `Threads_running` now (the reading session included).
async fn threads_running(session: &mut Session<'_>) -> Result<u64> {
    let Some(sql) = session.server().threads_running_statement() else {
        return Ok(0);
    };
    let row: Option<(String, String)> = session
        .run("reading Threads_running", |c| c.query_first(sql))
        .await?;
    Ok(row.and_then(|(_, v)| v.trim().parse().ok()).unwrap_or(0))
}

/// `@@server_id`, the server uuid and whether GTIDs are on.
async fn self_of(session: &mut Session<'_>) -> Result<Primary> {
    let sql = vendor::self_statement(session.flavor());
    let row: Option<(Option<String>, Option<String>, Option<String>)> = session
        .run("reading the server's replication identity", |c| {
            c.query_first(sql)
        })
        .await?;
    let (id, uuid, mode) = row.unwrap_or_default();
    Ok(Primary {
        server_id: id.and_then(|i| i.trim().parse().ok()).unwrap_or(0),
        server_uuid: uuid,
        gtid_on: mode.is_some_and(|m| m.eq_ignore_ascii_case("ON")),
    })
}

/// The primary's current GTID position.
pub(crate) async fn position(primary: &mut Session<'_>) -> Result<String> {
    let sql = vendor::position_statement(primary.flavor());
    let pos: Option<Option<String>> = primary
        .run("reading the primary's GTID position", |c| {
            c.query_first(sql)
        })
        .await?;
    Ok(pos.flatten().unwrap_or_default())
}

/// Waits on the replica until it has executed `position`, at most
/// `timeout` (the position and the timeout bound as parameters). Whether
/// it did. A replica that fails to answer has not.
async fn wait_for(
    replica: &mut Session<'static>,
    position: &str,
    timeout: Duration,
) -> std::result::Result<bool, GuardError> {
    let sql = vendor::wait_statement(replica.flavor());
    let secs = timeout.as_secs_f64();
    let params = (position.to_string(), secs);
    let result = replica
        .run_within(
            Some(timeout + GRACE),
            "waiting for the replica to execute the primary's GTID position",
            |c| c.exec_first::<Option<i64>, _, _>(sql, params),
        )
        .await;
    Ok(match result {
        Ok(r) => vendor::wait_reached(r.flatten()),
        Err(_) => false,
    })
}

/// What a replica has executed and what it lacks of `position`.
async fn describe(l: &mut Linked, position: &str) -> Behind {
    let flavor = l.session.flavor();
    let have_sql = vendor::replica_position_statement(flavor);
    let have: Option<String> = l
        .session
        .run("reading the replica's GTID position", |c| {
            c.query_first::<Option<String>, _>(have_sql)
        })
        .await
        .ok()
        .flatten()
        .flatten();
    let Some(have) = have else {
        return Behind {
            replica: l.display.clone(),
            position: position.to_string(),
            replica_position: String::new(),
            reason: "does not answer".into(),
        };
    };
    let missing = match vendor::missing_statement(flavor) {
        Some(sql) => l
            .session
            .run("reading the replica's missing transactions", |c| {
                c.exec_first::<Option<String>, _, _>(sql, (position.to_string(),))
            })
            .await
            .ok()
            .flatten()
            .flatten()
            .map(|m| format!("lacks GTIDs {m}"))
            .unwrap_or_default(),
        None => {
            let m = vendor::mariadb_missing(position, &have);
            if m.is_empty() {
                String::new()
            } else {
                format!("lacks {m}")
            }
        }
    };
    let stopped = match vendor::status_statement(flavor) {
        Some(sql) => l
            .session
            .run("reading the replica's replication status", |c| {
                c.query::<Row, _>(sql)
            })
            .await
            .ok()
            .map(|rows| {
                rows.iter()
                    .map(vendor::link)
                    .any(|k| !(k.io_running && k.sql_running))
            })
            .unwrap_or(false),
        None => false,
    };
    let mut reason = if missing.is_empty() {
        "behind".to_string()
    } else {
        missing
    };
    if stopped {
        reason.push_str("; its replication threads are stopped");
    }
    Behind {
        replica: l.display.clone(),
        position: position.to_string(),
        replica_position: have,
        reason,
    }
}
