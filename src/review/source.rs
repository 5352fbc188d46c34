//! Where a revision of the catalog comes from: a directory, or a git
//! revision read with the git CLI (`git ls-tree`, `git cat-file`) into
//! memory and linted by [`catalog::check_files`]. Nothing is checked out;
//! the caller's work tree is never touched.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::catalog::{self, Catalog, CheckReport};
use crate::error::{Error, Result};

/// A catalog revision as named on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A catalog directory.
    Dir(PathBuf),
    /// `git:REV` (the catalog directory at REV) or `git:REV:path` (path from
    /// the repository root, as git spells `REV:path`).
    Git {
        /// The revision (tag, branch, commit).
        rev: String,
        /// Catalog directory inside the revision.
        path: GitPath,
    },
}

/// A catalog directory inside a git revision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GitPath {
    /// Relative to the repository root (`git:REV:path`).
    Root(String),
    /// Relative to the current directory (`git:REV`: the `--catalog` directory).
    Cwd(PathBuf),
}

impl Source {
    /// Parses `DIR`, `git:REV` or `git:REV:path`; `git:REV` means the
    /// `default_dir` (the `--catalog` directory) at REV.
    pub fn parse(text: &str, default_dir: &Path) -> Result<Source> {
        let Some(rest) = text.strip_prefix("git:") else {
            return Ok(Source::Dir(PathBuf::from(text)));
        };
        let (rev, path) = match rest.split_once(':') {
            Some((rev, path)) => (rev, GitPath::Root(path.trim_matches('/').to_string())),
            None => (rest, GitPath::Cwd(default_dir.to_path_buf())),
        };
        if rev.is_empty() || rev.starts_with('-') || rev.chars().any(|c| c.is_whitespace()) {
            return Err(Error::Usage(format!(
                "`{text}`: give a git revision as `git:REV` or `git:REV:path/to/catalog` (REV a tag, branch or commit, not starting with `-`)"
            )));
        }
        Ok(Source::Git {
            rev: rev.to_string(),
            path,
        })
    }

    /// Reads and lints the revision.
    pub fn read(&self, label: &str) -> Result<Revision> {
        let report = match self {
            Source::Dir(dir) => catalog::check(dir),
            Source::Git { rev, path } => {
                let files = git_files(rev, path, label)?;
                let pairs: Vec<(&str, &str)> = files
                    .iter()
                    .map(|(n, t)| (n.as_str(), t.as_str()))
                    .collect();
                catalog::check_files(label, &pairs)
            }
        };
        Ok(Revision {
            label: label.to_string(),
            report,
        })
    }
}

/// One revision, read and linted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revision {
    /// As named (`catalog`, `git:v1`).
    pub label: String,
    /// Its lint; `catalog` is set when it is valid.
    pub report: CheckReport,
}

impl Revision {
    /// The catalog, or the lint errors as `Error::InvalidCatalog`.
    pub fn catalog(&self) -> Result<&Catalog> {
        self.report
            .catalog
            .as_ref()
            .ok_or_else(|| Error::InvalidCatalog {
                dir: PathBuf::from(&self.label),
                errors: self.report.error_count(),
                problems: self.report.problems.clone(),
            })
    }
}

/// The `(file name, text)` pairs of the catalog directory at `rev`.
fn git_files(rev: &str, path: &GitPath, label: &str) -> Result<Vec<(String, String)>> {
    let tree = match path {
        GitPath::Root(p) if p.is_empty() => format!("{rev}:"),
        GitPath::Root(p) => format!("{rev}:{p}"),
        GitPath::Cwd(p) => format!("{rev}:./{}", relative_to_cwd(p, label)?.display()),
    };
    check_revision(rev, label)?;
    let listing = git(&["ls-tree", "-z", &tree], label).map_err(|_| {
        Error::Usage(format!(
            "{label}: revision `{rev}` has no directory `{}`; name the catalog directory inside the repository as `git:{rev}:path/to/catalog`",
            tree.split_once(':').map_or("", |(_, p)| p)
        ))
    })?;
    let mut files = Vec::new();
    for entry in listing.split('\0').filter(|e| !e.is_empty()) {
        // `<mode> SP <type> SP <object> TAB <name>`
        let Some((meta, name)) = entry.split_once('\t') else {
            continue;
        };
        let mut meta = meta.split(' ');
        let (_, kind, object) = (meta.next(), meta.next(), meta.next());
        let yaml = name.ends_with(".yaml") || name.ends_with(".yml");
        if kind == Some("blob") && yaml && !name.starts_with('.') {
            if let Some(object) = object {
                files.push((name.to_string(), git(&["cat-file", "blob", object], label)?));
            }
        }
    }
    Ok(files)
}

/// Refuses a revision git does not know, in those words (git's own
/// `Not a valid object name REV:path` does not say which half is wrong).
fn check_revision(rev: &str, label: &str) -> Result<()> {
    let out = Command::new("git")
        .args(["rev-parse", "--verify", "--quiet", "--end-of-options"])
        .arg(format!("{rev}^{{commit}}"))
        .output()
        .map_err(|e| Error::Usage(format!("{label}: cannot run git: {e}")))?;
    if out.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !stderr.trim().is_empty() {
        // Not a repository, or git itself failed: say what git said.
        return Err(Error::Usage(format!(
            "{label}: `git rev-parse {rev}` failed: {}",
            stderr.trim()
        )));
    }
    Err(Error::Usage(format!(
        "{label}: git revision `{rev}` not found in this repository; give a tag, branch or commit that exists (`git tag`, `git branch -a`, `git log --oneline` list them)"
    )))
}

/// `p` relative to the current directory (git's `REV:./path` is relative to it).
fn relative_to_cwd(p: &Path, label: &str) -> Result<PathBuf> {
    if p.is_relative() {
        return Ok(p.to_path_buf());
    }
    let cwd = std::env::current_dir().map_err(|e| Error::Io {
        path: PathBuf::from("."),
        source: e,
    })?;
    p.strip_prefix(&cwd).map(Path::to_path_buf).map_err(|_| {
        Error::Usage(format!(
            "{label}: the catalog directory {} is outside the current directory; run from the repository or name the directory as `git:REV:path`",
            p.display()
        ))
    })
}

/// Runs git in the current directory and returns its stdout.
fn git(args: &[&str], label: &str) -> Result<String> {
    let out = Command::new("git")
        .args(args)
        .output()
        .map_err(|e| Error::Usage(format!("{label}: cannot run git: {e}")))?;
    if !out.status.success() {
        return Err(Error::Usage(format!(
            "{label}: `git {}` failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    String::from_utf8(out.stdout).map_err(|_| {
        Error::Usage(format!(
            "{label}: `git {}` printed non-UTF-8 text",
            args.join(" ")
        ))
    })
}
