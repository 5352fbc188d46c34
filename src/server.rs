//! Who the server is: read right after connecting and carried by every
//! report, so a pipeline log shows where the statements went (a tunnel or a
//! misrouted URL reaching another server shows up as another hostname, port
//! or server_uuid).

use mysql_async::prelude::*;

use crate::db::Session;
use crate::error::Result;
use crate::flavor::Flavor;

/// The server's own account of itself.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct ServerIdentity {
    /// `@@hostname`: the host the server runs on.
    pub hostname: String,
    /// `@@port`: the TCP port the server listens on (as the server sees it,
    /// which differs from the URL's behind a tunnel or proxy).
    pub port: u64,
    /// `VERSION()`.
    pub version: String,
    /// `@@server_uuid` (MySQL; MariaDB and TiDB have none).
    pub server_uuid: Option<String>,
}

impl std::fmt::Display for ServerIdentity {
    /// `host:port, version[, uuid]`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}, {}", self.hostname, self.port, self.version)?;
        if let Some(uuid) = &self.server_uuid {
            write!(f, ", server_uuid {uuid}")?;
        }
        Ok(())
    }
}

/// Reads the identity on `session`, the server's version with it: one
/// constant text-protocol statement (a round trip; a prepared one would
/// take two), and on MySQL a second one for `@@server_uuid` (MariaDB and
/// TiDB have no such variable, and which server it is is known only now).
/// Values are decoded explicitly: the text protocol sends them as bytes.
pub(crate) async fn read_identity(session: &mut Session<'_>) -> Result<ServerIdentity> {
    let row: Option<(Option<String>, Option<String>, Option<String>)> = session
        .run("reading the server version and identity", |c| {
            c.query_first("SELECT VERSION(), @@hostname, @@port")
        })
        .await?;
    let (version, hostname, port) = row.unwrap_or_default();
    let version = version.unwrap_or_default();
    let port = port.and_then(|p| p.trim().parse::<u64>().ok()).unwrap_or(0);
    let server_uuid = match Flavor::detect(&version) {
        Flavor::MySql => {
            session
                .run("reading the server uuid", |c| {
                    c.query_first::<String, _>("SELECT @@server_uuid")
                })
                .await?
        }
        Flavor::MariaDb | Flavor::TiDb => None,
    };
    Ok(ServerIdentity {
        hostname: hostname.unwrap_or_default(),
        port,
        version,
        server_uuid,
    })
}
