//! The catalog's lint findings: [`Problem`] names the [`Rule`] it breaks,
//! the file, the line and column, the table and the object, with its
//! [`Severity`]. Bottom layer: `check` produces them,
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

/// A lint rule: a stable id a user can grep or (later) configure, the
/// severity of its findings, and the YAML keys its findings are placed on.
/// The catalog's rules are listed in `catalog::rules::RULES`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// Stable id, kebab-case (`key-width`, `unknown-type`).
    pub id: &'static str,
    /// Severity of its findings.
    pub severity: Severity,
    /// What it checks, one line (docs/catalog-format.md lists them).
    pub checks: &'static str,
    /// Keys of the object's YAML entry a finding points at, the first one
    /// the entry has (`type` for an unknown type); the entry itself when
    /// none is there.
    pub keys: &'static [&'static str],
}

/// One lint finding, naming the rule, the file, the table and the object.
///
/// Displays as one line:
/// `catalog/foo.yaml:3:5: error[key-width]: table `T`, index `i`: message`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, schemars::JsonSchema)]
pub struct Problem {
    /// Error or warning.
    pub severity: Severity,
    /// The id of the rule it breaks (`unknown-type`, `key-width`).
    pub rule: &'static str,
    /// File the finding is in (relative to the catalog directory's parent as given).
    pub file: PathBuf,
    /// 1-based line of the YAML node the finding is about, where the file
    /// has one (not for a file that cannot be read).
    pub line: Option<usize>,
    /// 1-based column of that node.
    pub column: Option<usize>,
    /// Table name, where known.
    pub table: Option<String>,
    /// Object: `column X`, `index Y`, `primary key`, `key \`foo\``.
    pub object: Option<String>,
    /// What is wrong, in this case.
    pub message: String,
    /// What to do about a finding of this rule, in one line (the rule's
    /// fix hint; the human report prints it as `help:`).
    pub fix: &'static str,
}

/// A finding a `# catalog: allow RULE` comment silenced: reported apart
/// from the problems, counted, and never making the catalog invalid.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct Suppressed {
    /// The finding.
    #[serde(flatten)]
    pub problem: Problem,
    /// 1-based line of the allow comment.
    pub comment_line: usize,
    /// The reason written after ` -- ` in the comment, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
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
        write!(f, "{}", self.file.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        write!(f, ": {}[{}]: ", self.severity, self.rule)?;
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
            rule: "key-width",
            file: PathBuf::from("catalog/foo.yaml"),
            line: Some(3),
            column: Some(5),
            table: Some("T".into()),
            object: Some("index `i`".into()),
            message: "bad".into(),
            fix: "narrow the key",
        };
        assert_eq!(
            p.to_string(),
            "catalog/foo.yaml:3:5: error[key-width]: table `T`, index `i`: bad"
        );
    }
}
