//! The server seam: everything that differs between MySQL, MariaDB and TiDB
//! (and between their releases) lives here, so callers ask the server
//! instead of matching on its flavor.
//!
//! - [`Server`]: the flavor, the [`Version`] parsed once from `VERSION()`,
//!   and (on a live connection) the [`ServerIdentity`] every report carries,
//!   so a pipeline log shows where the statements went (a tunnel or a
//!   misrouted URL reaching another server shows up as another hostname,
//!   port or server_uuid).
//! - `capabilities`: named questions ("does it have ignored indexes?"),
//!   each citing the manual page, MDEV or bug that answers it.
//! - `alter` (what each vendor changes online), `busy` (session budgets and
//!   the reads that find a table's holders), `spelling` (how each vendor
//!   spells what `information_schema` returns): neutral questions, each
//!   dispatched once to the vendor.
//! - `holds`: what each vendor can hold, every catalog feature some flavor
//!   refuses (`Feature`) with its source.
//! - `mysql`, `mariadb`, `tidb`: one file per vendor with that vendor's
//!   rules; `code`: the server error codes by meaning.
//!
//! This module imports nothing else of the crate: every other module may
//! ask it, and its questions take neutral values.

mod alter;
mod busy;
mod capabilities;
pub(crate) mod code;
mod flavor;
mod holds;
mod keywords;
mod mariadb;
mod mysql;
pub(crate) mod replica;
mod spelling;
mod tidb;
mod version;
mod vocab;

pub use alter::StepClass;
pub(crate) use alter::{ColumnChange, DdlWork, Online};
pub(crate) use busy::{BlockerParam, BlockerRead, SnapshotProbe};
pub(crate) use capabilities::IndexView;
pub use capabilities::{CheckEnforcement, DdlCancel, DdlProgress, InstantAddColumn, PlanReading};
pub use flavor::Flavor;
pub(crate) use holds::Feature;
pub(crate) use spelling::{DefaultText, ExpressionText};
pub use version::{Version, VersionError};

/// A server the catalog is applied to (or, offline, rendered for): its
/// vendor, its release, and who it said it is when it was read live.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Server {
    flavor: Flavor,
    version: Version,
    identity: Option<ServerIdentity>,
}

impl Server {
    /// The server that sent `identity` (its `VERSION()` text is parsed
    /// here, once); an unreadable version is an error naming the text.
    pub fn from_identity(identity: ServerIdentity) -> Result<Server, VersionError> {
        let flavor = Flavor::detect(&identity.version);
        let version = Version::from_server_text(flavor, &identity.version)?;
        Ok(Server {
            flavor,
            version,
            identity: Some(identity),
        })
    }

    /// A server described by its `VERSION()` text alone (tests, dumps).
    pub fn from_version_text(text: &str) -> Result<Server, VersionError> {
        let flavor = Flavor::detect(text);
        let version = Version::from_server_text(flavor, text)?;
        Ok(Server {
            flavor,
            version,
            identity: None,
        })
    }

    /// A server no one connected to (`render`, `plan --against`, `diff`):
    /// `flavor` at `version`, or at the oldest release this tool supports
    /// for that flavor ([`Flavor::oldest_supported`]) when none is given.
    pub fn offline(flavor: Flavor, version: Option<Version>) -> Server {
        Server {
            flavor,
            version: version.unwrap_or_else(|| flavor.oldest_supported()),
            identity: None,
        }
    }

    /// The vendor.
    pub fn flavor(&self) -> Flavor {
        self.flavor
    }

    /// The release.
    pub fn version(&self) -> Version {
        self.version
    }

    /// Who the server said it is; `None` for an offline server.
    pub fn identity(&self) -> Option<&ServerIdentity> {
        self.identity.as_ref()
    }

    /// Whether the server is `flavor` at `version` or later.
    pub(crate) fn at_least(&self, flavor: Flavor, version: Version) -> bool {
        self.flavor == flavor && self.version >= version
    }
}

impl std::fmt::Display for Server {
    /// `mariadb 10.11.19`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.flavor, self.version)
    }
}

/// The server's own account of itself.
#[derive(
    Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
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
