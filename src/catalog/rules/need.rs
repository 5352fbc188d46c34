//! What a feature needs of the servers: [`Need`] names the object, the
//! [`Feature`] it uses (which knows the flavors without it, in
//! `src/server/holds.rs`) and the fix. The flavor, engine and refusal rules
//! (`flavored`, `engines`, `refused`) all produce them; a leaf so they do
//! not import one another for it.

use crate::server::Feature;

/// One use of a feature some flavors lack.
pub(in crate::catalog) struct Need {
    /// `column \`X\``, `index \`Y\``, `check \`Z\``, `foreign key \`F\``.
    pub(in crate::catalog) object: String,
    /// What it uses ([`Feature::held_nowhere`]: every server refuses it).
    pub(in crate::catalog) feature: Feature,
    /// The message when a lacking flavor is targeted (names the fix).
    pub(in crate::catalog) message: String,
}
