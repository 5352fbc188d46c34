//! Collects problems for one file, stamping each with its rule, the file
//! and the table.

use std::path::{Path, PathBuf};

use super::{Problem, Severity};
use crate::finding::lint::Rule;

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

    /// A finding of `rule` (at its severity) about `object`; its line and
    /// column are found from the object and the rule's keys once the file's
    /// findings are all in (`super::locate`).
    pub fn report(&mut self, rule: &Rule, object: Option<String>, message: impl Into<String>) {
        self.push(rule, object, None, None, message.into());
    }

    /// A finding at a line and column the reader already knows.
    pub fn report_at(
        &mut self,
        rule: &Rule,
        object: Option<String>,
        line: Option<usize>,
        column: Option<usize>,
        message: String,
    ) {
        self.push(rule, object, line, column, message);
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
        rule: &Rule,
        object: Option<String>,
        line: Option<usize>,
        column: Option<usize>,
        message: String,
    ) {
        self.problems.push(Problem {
            severity: rule.severity,
            rule: rule.id,
            file: self.file.clone(),
            line,
            column,
            table: self.table.clone(),
            object,
            message,
            fix: super::fixes::hint(rule.id),
        });
    }
}
