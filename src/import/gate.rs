//! Import never writes a catalog its own `check` refuses: the files' texts
//! are checked with [`crate::catalog::check_files`] (the rules of `catalog
//! check`, on the very texts written, sorted by file name as `check` reads
//! a directory; docs/scale.md: reading 8,193 files back cost their opens), then
//! written to a staging directory (beside a new output directory, renamed
//! into place whole; inside an existing one, each file moved into place).
//! A refused catalog leaves the output directory as it was (a new one is
//! not created) and is [`Error::ImportFailsCheck`].

use std::path::{Path, PathBuf};

use super::{self as import, Imported};
use crate::catalog;
use crate::error::{Error, Result};

/// Staging directory name (hidden, and not a `*.yaml` file, so never read
/// as part of a catalog).
const STAGING: &str = ".catalog-import-staging";

/// Writes `imported` into `dir` (which must hold no YAML files; created
/// with its parents when missing) only if the written catalog passes
/// `check`; returns the files written. A refused catalog changes nothing:
/// a missing `dir` is not created.
pub fn write_checked(imported: &Imported, dir: &Path) -> Result<Vec<PathBuf>> {
    let io = import::io_error;
    let new_dir = std::fs::symlink_metadata(dir).is_err();
    if !new_dir {
        import::refuse_existing_yaml(dir)?;
    }
    let (catalog_yaml, files) = import::to_yaml(imported);
    let texts: Vec<(&str, &str)> = std::iter::once(("catalog.yaml", catalog_yaml.as_str()))
        .chain(files.iter().map(|(n, t)| (n.as_str(), t.as_str())))
        .collect();
    let report = catalog::check_files(dir, &texts);
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
    if new_dir {
        if let Some(written) = write_new(dir, &catalog_yaml, &files)? {
            return Ok(written);
        }
        if std::fs::symlink_metadata(dir).is_ok() {
            // Made by someone else meanwhile: the same rule as for any
            // existing directory.
            import::refuse_existing_yaml(dir)?;
        }
    }
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let staging = dir.join(STAGING);
    if staging.exists() {
        std::fs::remove_dir_all(&staging).map_err(io(&staging))?;
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

/// A directory that does not exist yet is written whole beside it (a
/// hidden sibling) and then renamed into place: one rename, not one per
/// file, and no moment at which it holds part of the catalog (docs/scale.md: at
/// 8,192 tables the per-file renames were a tenth of `import --from`).
/// `None` (nothing left behind) when that cannot be done here (no parent
/// to write in, or the path appeared meanwhile): the caller stages inside
/// the directory instead.
fn write_new(
    dir: &Path,
    catalog_yaml: &str,
    files: &[(String, String)],
) -> Result<Option<Vec<PathBuf>>> {
    let io = import::io_error;
    let Some(name) = dir.file_name() else {
        return Ok(None);
    };
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(parent).map_err(io(parent))?;
    let mut hidden = std::ffi::OsString::from(".");
    hidden.push(name);
    hidden.push(STAGING);
    let staging = parent.join(hidden);
    if std::fs::symlink_metadata(&staging).is_ok() {
        std::fs::remove_dir_all(&staging).map_err(io(&staging))?;
    }
    if std::fs::create_dir(&staging).is_err() {
        return Ok(None);
    }
    let moved = import::write_texts(&staging, catalog_yaml, files).and_then(|staged| {
        std::fs::rename(&staging, dir).map_err(io(dir))?;
        Ok(staged)
    });
    match moved {
        Ok(staged) => Ok(Some(
            staged
                .iter()
                .map(|f| dir.join(f.file_name().expect("written files have names")))
                .collect(),
        )),
        Err(e) => {
            let _ = std::fs::remove_dir_all(&staging);
            if std::fs::symlink_metadata(dir).is_ok() {
                // Created meanwhile by someone else: stage inside it.
                return Ok(None);
            }
            Err(e)
        }
    }
}
