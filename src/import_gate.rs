//! Import never writes a catalog its own `check` refuses: the files' texts
//! are checked with [`crate::catalog::check_files`] (the rules of `catalog
//! check`, on the very texts written, sorted by file name as `check` reads
//! a directory; issue 22: reading 8,193 files back cost their opens), then
//! written to a staging directory inside the output directory and only then
//! moved into place. A refused catalog leaves the output directory as it
//! was and is [`Error::ImportFailsCheck`].

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
    let io = import::io_error;
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    import::refuse_existing_yaml(dir)?;
    let staging = dir.join(STAGING);
    if staging.exists() {
        std::fs::remove_dir_all(&staging).map_err(io(&staging))?;
    }
    let (catalog_yaml, files) = import::to_yaml(imported);
    let texts: Vec<(&str, &str)> = std::iter::once(("catalog.yaml", catalog_yaml.as_str()))
        .chain(files.iter().map(|(n, t)| (n.as_str(), t.as_str())))
        .collect();
    let report = catalog::check_files(&staging, &texts);
    if !report.is_valid() {
        let problems = report
            .errors()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n");
        return Err(Error::ImportFailsCheck {
            dir: dir.to_path_buf(),
            problems,
        });
    }
    std::fs::create_dir_all(&staging).map_err(io(&staging))?;
    let staged = import::write_texts(&staging, &catalog_yaml, &files)?;
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
