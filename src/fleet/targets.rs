//! From the fleet file to the targets: each server read once (its identity,
//! and for `{like: ...}` one bounded read of `information_schema.SCHEMATA`
//! that lists names only and opens no schema), then each target given to
//! the first stage that takes it.

use std::collections::BTreeSet;
use std::time::Duration;

use mysql_async::prelude::*;

use super::file::{like, FleetFile, SchemaSet, ServerSpec, StageSpec};
use crate::db::{self, Session};
use crate::error::{Error, Result};
use crate::server::ServerIdentity;

/// Most schemas one `like` may expand to on one server.
pub const MAX_SCHEMAS_PER_SERVER: usize = 100_000;

/// The one read a `like` expands by: schema names only, bounded by `LIMIT`.
/// `SCHEMATA` lists databases from the data dictionary (MySQL) or the data
/// directory (MariaDB) without opening any of them or their tables.
pub const SCHEMATA_LIKE: &str = "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA \
     WHERE SCHEMA_NAME LIKE ? ORDER BY SCHEMA_NAME LIMIT ?";

/// One server as read before the run.
#[derive(Debug, Clone)]
pub struct ServerState {
    /// Who it said it is.
    pub identity: Option<ServerIdentity>,
    /// Why it could not be read (never a password).
    pub error: Option<String>,
    /// Its schemas (the list, or the `like` expansion).
    pub schemas: Vec<String>,
    /// Listed schemas the server does not have, folded to lower case.
    pub missing: BTreeSet<String>,
}

/// One schema on one server, in its stage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// Index into [`FleetFile::servers`].
    pub server: usize,
    /// The schema.
    pub schema: String,
    /// Index into the stages [`assign`] returns.
    pub stage: usize,
}

/// Reads every server (at most `parallel.servers` at once): identity, and
/// the expansion of a `like`.
pub async fn read_servers(fleet: &FleetFile, timeout: Duration) -> Vec<ServerState> {
    use futures_util::stream::{self, StreamExt};
    let lanes = fleet.parallel.servers;
    stream::iter(fleet.servers.iter())
        .map(|s| async move {
            match read_server(s, timeout).await {
                Ok((identity, schemas, missing)) => ServerState {
                    identity: Some(identity),
                    error: None,
                    schemas,
                    missing,
                },
                Err(e) => ServerState {
                    identity: None,
                    error: Some(e.to_string()),
                    schemas: match &s.schemas {
                        SchemaSet::List(list) => list.clone(),
                        SchemaSet::Like(_) => Vec::new(),
                    },
                    missing: BTreeSet::new(),
                },
            }
        })
        .buffered(lanes)
        .collect()
        .await
}

type Read = (ServerIdentity, Vec<String>, BTreeSet<String>);

async fn read_server(s: &ServerSpec, timeout: Duration) -> Result<Read> {
    let mut session = db::connect(&s.target, timeout).await?;
    let (schemas, missing) = match &s.schemas {
        SchemaSet::List(list) => {
            let have = existing(&mut session, list).await?;
            let missing = list
                .iter()
                .map(|n| n.to_lowercase())
                .filter(|n| !have.contains(n))
                .collect();
            (list.clone(), missing)
        }
        SchemaSet::Like(pattern) => (expand_like(&mut session, pattern).await?, BTreeSet::new()),
    };
    let identity = session.identity().clone();
    let _ = session.disconnect().await;
    Ok((identity, schemas, missing))
}

/// Which of the listed schemas exist (folded to lower case): one bounded
/// SCHEMATA read per 1,000 names, the names bound as parameters.
async fn existing(session: &mut Session<'_>, list: &[String]) -> Result<BTreeSet<String>> {
    let mut have = BTreeSet::new();
    for chunk in list.chunks(1000) {
        let sql = format!(
            "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME IN ({})",
            vec!["?"; chunk.len()].join(", ")
        );
        let params: Vec<mysql_async::Value> = chunk
            .iter()
            .map(|n| mysql_async::Value::from(n.as_str()))
            .collect();
        let names: Vec<String> = session
            .run("reading which of the fleet's schemas exist", |c| {
                c.exec(sql.as_str(), params)
            })
            .await?;
        have.extend(names.into_iter().map(|n| n.to_lowercase()));
    }
    Ok(have)
}

/// The schemas `LIKE pattern` on the session's server, sorted; more than
/// [`MAX_SCHEMAS_PER_SERVER`] is an error, not a silent cut.
pub async fn expand_like(session: &mut Session<'_>, pattern: &str) -> Result<Vec<String>> {
    let limit = (MAX_SCHEMAS_PER_SERVER + 1) as u64;
    let names: Vec<String> = session
        .run("listing the schemas the fleet's `like` matches", |c| {
            c.exec(SCHEMATA_LIKE, (pattern, limit))
        })
        .await?;
    if names.len() > MAX_SCHEMAS_PER_SERVER {
        return Err(Error::Usage(format!(
            "`like: '{pattern}'` matches more than {MAX_SCHEMAS_PER_SERVER} schemas on {}; \
             narrow the pattern",
            session.display()
        )));
    }
    Ok(names)
}

/// The stages a run takes, in order: the file's, or one stage `all` when it
/// names none.
pub fn stages(fleet: &FleetFile) -> Vec<StageSpec> {
    if fleet.stages.is_empty() {
        vec![StageSpec {
            name: "all".into(),
            group: None,
            server: None,
            schema: None,
            limit: None,
        }]
    } else {
        fleet.stages.clone()
    }
}

/// Gives each (server, schema) to the first stage that matches it and has
/// room under its `limit`, in file order. Returns the targets (stage
/// order, then file order) and those no stage takes.
pub fn assign(
    fleet: &FleetFile,
    stages: &[StageSpec],
    servers: &[ServerState],
) -> (Vec<Target>, Vec<(usize, String)>) {
    let all: Vec<(usize, String)> = servers
        .iter()
        .enumerate()
        .flat_map(|(i, s)| s.schemas.iter().map(move |schema| (i, schema.clone())))
        .collect();
    let mut taken = vec![false; all.len()];
    let mut targets = Vec::new();
    for (stage_index, stage) in stages.iter().enumerate() {
        let mut count = 0;
        for (k, (server, schema)) in all.iter().enumerate() {
            if taken[k] || stage.limit.is_some_and(|l| count >= l) {
                continue;
            }
            if matches(stage, &fleet.servers[*server], schema) {
                taken[k] = true;
                count += 1;
                targets.push(Target {
                    server: *server,
                    schema: schema.clone(),
                    stage: stage_index,
                });
            }
        }
    }
    let left = all
        .into_iter()
        .zip(taken)
        .filter(|(_, t)| !t)
        .map(|(a, _)| a)
        .collect();
    (targets, left)
}

fn matches(stage: &StageSpec, server: &ServerSpec, schema: &str) -> bool {
    stage
        .group
        .as_ref()
        .is_none_or(|g| server.group.as_ref() == Some(g))
        && stage.server.as_ref().is_none_or(|n| *n == server.name)
        && stage.schema.as_ref().is_none_or(|p| like(p, schema))
}
