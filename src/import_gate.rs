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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::ImportDefaults;
    use crate::model::{Column, Table};
    use crate::ColumnType;

    fn imported(tables: Vec<Table>) -> Imported {
        Imported {
            source: "test".into(),
            server: None,
            defaults: ImportDefaults {
                engine: Some("InnoDB".into()),
                charset: "utf8mb4".into(),
                collation: "utf8mb4_bin".into(),
            },
            tables,
            skipped: Vec::new(),
            external_tables: Vec::new(),
        }
    }

    #[test]
    fn a_refused_catalog_leaves_the_directory_as_it_was_and_a_valid_one_is_moved_in() {
        let dir = std::env::temp_dir().join(format!("import-gate-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        // A table without columns: `check` refuses it.
        let e = write_checked(&imported(vec![Table::new("t", Vec::new())]), &dir).unwrap_err();
        assert!(matches!(e, Error::ImportFailsCheck { .. }), "{e}");
        assert!(e.to_string().contains("t.yaml"), "{e}");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        let id = Column::new(
            "id",
            ColumnType::Int {
                kind: crate::coltype::IntKind::Big,
                unsigned: false,
            },
        );
        let written = write_checked(&imported(vec![Table::new("t", vec![id])]), &dir).unwrap();
        let names: Vec<_> = written
            .iter()
            .map(|p| p.file_name().unwrap().to_owned())
            .collect();
        assert_eq!(names, ["catalog.yaml", "t.yaml"]);
        assert!(catalog::load(&dir).is_ok());
        assert!(!dir.join(STAGING).exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
