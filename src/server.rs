//! Who the server is: read right after connecting and carried by every
//! report, so a pipeline log shows where the statements went (a tunnel or a
//! misrouted URL reaching another server shows up as another hostname, port
//! or server_uuid).

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
