//! The catalog's lint findings: [`Problem`] names the file, the table and
//! the object, with its [`Severity`]. Bottom layer: `check` produces them,
//! [`crate::Error::InvalidCatalog`] carries them.

use std::fmt;
use std::path::PathBuf;

/// How serious a lint finding is.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Makes the catalog invalid (exit 2).
    Error,
    /// Reported; the catalog stays valid.
    Warning,
}

/// One lint finding, naming the file, the table and the object.
///
/// Displays as one line: `error: catalog/foo.yaml:3:5: table `T`, index `i`: message`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, schemars::JsonSchema)]
pub struct Problem {
    /// Error or warning.
    pub severity: Severity,
    /// File the finding is in (relative to the catalog directory's parent as given).
    pub file: PathBuf,
    /// 1-based line and column, where known (malformed YAML).
    pub line: Option<usize>,
    /// Column, where known.
    pub column: Option<usize>,
    /// Table name, where known.
    pub table: Option<String>,
    /// Object: `column X`, `index Y`, `primary key`, `key \`foo\``.
    pub object: Option<String>,
    /// What is wrong and how to fix it.
    pub message: String,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        })
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.severity, self.file.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        f.write_str(": ")?;
        match (&self.table, &self.object) {
            (Some(t), Some(o)) => write!(f, "table `{t}`, {o}: ")?,
            (Some(t), None) => write!(f, "table `{t}`: ")?,
            (None, Some(o)) => write!(f, "{o}: ")?,
            (None, None) => {}
        }
        f.write_str(&self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problem_display_is_one_line() {
        let p = Problem {
            severity: Severity::Error,
            file: PathBuf::from("catalog/foo.yaml"),
            line: Some(3),
            column: Some(5),
            table: Some("T".into()),
            object: Some("index `i`".into()),
            message: "bad".into(),
        };
        assert_eq!(
            p.to_string(),
            "error: catalog/foo.yaml:3:5: table `T`, index `i`: bad"
        );
    }
}
