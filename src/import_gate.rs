//! Import never writes a catalog its own `check` refuses: the catalog is
//! written to a staging directory inside the output directory, checked with
//! [`crate::catalog::check`] (the same code as `catalog check`), and only
//! then moved into place. A refused catalog leaves the output directory as
//! it was and is [`Error::ImportFailsCheck`].

use std::path::{Path, PathBuf};

use crate::catalog;
use crate::error::{Error, Result};
use crate::import::{self, Imported};

/// Staging directory name (hidden, and not a `*.yaml` file, so never read
/// as part of a catalog).
const STAGING: &str = ".catalog-import-staging";

/// Writes `imported` into `dir` (which must hold no YAML files) only if the
/// written catalog passes `check`; returns the files written.
pub fn write_checked(imported: &Imported, dir: &Path) -> Result<Vec<PathBuf>> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| Error::Io { path, source }
    };
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    import::refuse_existing_yaml(dir)?;
    let staging = dir.join(STAGING);
    if staging.exists() {
        std::fs::remove_dir_all(&staging).map_err(io(&staging))?;
    }
    let staged = import::write(imported, &staging)?;
    let report = catalog::check(&staging);
    if !report.is_valid() {
        let problems = report
            .errors()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n");
        std::fs::remove_dir_all(&staging).map_err(io(&staging))?;
        return Err(Error::ImportFailsCheck {
            dir: dir.to_path_buf(),
            problems,
        });
    }
    let mut written = Vec::new();
    for file in staged {
        let name = file.file_name().expect("written files have names");
        let path = dir.join(name);
        std::fs::rename(&file, &path).map_err(io(&path))?;
        written.push(path);
    }
    std::fs::remove_dir(&staging).map_err(io(&staging))?;
    Ok(written)
}
