//! Collects problems for one file, stamping each with the file and table.

use std::path::{Path, PathBuf};

use super::{Problem, Severity};

/// Problem collector for one file.
pub(super) struct Sink<'a> {
    file: PathBuf,
    /// The table the file declares, once known.
    pub table: Option<String>,
    problems: &'a mut Vec<Problem>,
}

impl<'a> Sink<'a> {
    /// A collector for `file`, appending to `problems`.
    pub fn new(file: &Path, problems: &'a mut Vec<Problem>) -> Sink<'a> {
        Sink {
            file: file.to_path_buf(),
            table: None,
            problems,
        }
    }

    /// An error with no position.
    pub fn error(&mut self, object: Option<String>, message: impl Into<String>) {
        self.push(Severity::Error, object, None, None, message.into());
    }

    /// A warning with no position.
    pub fn warning(&mut self, object: Option<String>, message: impl Into<String>) {
        self.push(Severity::Warning, object, None, None, message.into());
    }

    /// An error at a line and column, where known.
    pub fn error_at(
        &mut self,
        object: Option<String>,
        line: Option<usize>,
        column: Option<usize>,
        message: String,
    ) {
        self.push(Severity::Error, object, line, column, message);
    }

    /// Errors recorded so far for this file.
    pub fn error_count(&self) -> usize {
        self.problems
            .iter()
            .filter(|p| p.severity == Severity::Error && p.file == self.file)
            .count()
    }

    fn push(
        &mut self,
        severity: Severity,
        object: Option<String>,
        line: Option<usize>,
        column: Option<usize>,
        message: String,
    ) {
        self.problems.push(Problem {
            severity,
            file: self.file.clone(),
            line,
            column,
            table: self.table.clone(),
            object,
            message,
        });
    }
}
