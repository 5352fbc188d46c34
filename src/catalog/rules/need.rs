//! What a feature needs of the servers: [`Need`] names the object, the
//! flavors that lack the feature and the fix. The flavor, engine and
//! refusal rules (`flavored`, `engines`, `refused`) all produce them; a
//! leaf so they do not import one another for it.

use crate::server::Flavor;

/// One use of a feature some flavors lack.
pub(in crate::catalog) struct Need {
    /// `column \`X\``, `index \`Y\``, `check \`Z\``, `foreign key \`F\``.
    pub(in crate::catalog) object: String,
    /// The flavors that lack it ([`NONE`]: every server refuses it).
    pub(in crate::catalog) lacking: &'static [Flavor],
    /// The message when a lacking flavor is targeted (names the fix).
    pub(in crate::catalog) message: String,
}

pub(in crate::catalog) const NOT_MARIADB: &[Flavor] = &[Flavor::MariaDb];
pub(in crate::catalog) const NOT_MYSQL_TIDB: &[Flavor] = &[Flavor::TiDb, Flavor::MySql];
/// No flavor can hold it.
pub(in crate::catalog) const NONE: &[Flavor] = &Flavor::ALL;
