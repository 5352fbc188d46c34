//! A catalog compiled into the binary ([`crate::embed_catalog!`]) and the
//! one catalog type verify and apply take ([`AsCatalog`]: a loaded
//! [`Catalog`] or an [`Embedded`] one).

use std::sync::OnceLock;

use super::{check_files, from_files, Catalog, CheckReport};
use crate::error::Result;

/// The files of a catalog directory, compiled in by
/// [`crate::embed_catalog!`]: `static CATALOG: Embedded = embed_catalog!("catalog");`.
/// Linted and loaded on first use; an invalid one is
/// [`crate::Error::InvalidCatalog`] on every use, naming each file.
/// [`Embedded::check`] lints it in a test, so a bad edit fails `cargo test`
/// before it ships.
pub struct Embedded {
    dir: &'static str,
    files: &'static [(&'static str, &'static str)],
    loaded: OnceLock<Catalog>,
}

impl Embedded {
    /// The catalog of `files` (name, text), shown as directory `dir` in
    /// findings. [`crate::embed_catalog!`] writes this call; by hand it is
    /// the way to embed files listed explicitly.
    pub const fn from_static(
        dir: &'static str,
        files: &'static [(&'static str, &'static str)],
    ) -> Embedded {
        Embedded {
            dir,
            files,
            loaded: OnceLock::new(),
        }
    }

    /// The directory as given to the macro.
    pub fn dir(&self) -> &'static str {
        self.dir
    }

    /// The embedded files (name, text), sorted by name.
    pub fn files(&self) -> &'static [(&'static str, &'static str)] {
        self.files
    }

    /// Lints the embedded files: every finding, and the catalog when valid.
    /// `assert!(CATALOG.check().is_valid())` in a test keeps an invalid
    /// catalog from being built into a release.
    pub fn check(&self) -> CheckReport {
        check_files(self.dir, self.files)
    }
}

impl std::fmt::Debug for Embedded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.files.iter().map(|(n, _)| *n).collect();
        f.debug_struct("Embedded")
            .field("dir", &self.dir)
            .field("files", &names)
            .finish_non_exhaustive()
    }
}

/// What verify and apply take as the catalog: a loaded [`Catalog`] or an
/// [`Embedded`] one (linted and loaded once, on first use).
pub trait AsCatalog: Sync {
    /// The catalog, or [`crate::Error::InvalidCatalog`] with every finding.
    fn as_catalog(&self) -> Result<&Catalog>;
}

impl AsCatalog for Catalog {
    fn as_catalog(&self) -> Result<&Catalog> {
        Ok(self)
    }
}

impl AsCatalog for Embedded {
    fn as_catalog(&self) -> Result<&Catalog> {
        if let Some(c) = self.loaded.get() {
            return Ok(c);
        }
        let catalog = from_files(self.dir, self.files)?;
        Ok(self.loaded.get_or_init(|| catalog))
    }
}
