//! `# catalog: allow RULE` comments: a finding of RULE on the commented
//! node is moved from the report's problems to its suppressed list.
//!
//! A comment covers the line it stands on when it trails a node
//! (`type: float  # catalog: allow has-float`), and the next line that is
//! not blank or a comment when it stands alone on its line. A finding is
//! covered when its own line is, or the line of its object's entry is (a
//! comment above `- name: amount` covers every finding of that column).
//! Several rules: `# catalog: allow has-float, naming`; a reason may
//! follow ` -- `. A warning of any rule may be allowed; an error only of a
//! house rule (`fixes::Allow::Policy`). A comment naming no known rule, or
//! a rule whose error it cannot silence, is itself an `allow-comment` error
//! at the comment.
//!
//! A rule id a comment names that covers no finding of that rule silences
//! nothing: an `allow-comment` warning at the id, so stale comments do not
//! pile up. Only in a catalog without errors: an error (a table file that
//! cannot be read, an unknown type) can keep a rule from running, and the
//! comment would look unused when it is not.
//!
//! saphyr-parser drops comments, so the file's lines are scanned: a `#`
//! at the start of a line or after a space outside quotes begins a
//! comment, as in YAML.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::catalog::fixes::{self, Allow};
use crate::catalog::rule_ids;
use crate::catalog::{Problem, Severity};
use crate::finding::lint::Suppressed;
use crate::yaml_pos::Positions;

/// The words that start an allow comment after `#`.
const MARK: &str = "catalog: allow";

/// One allow comment.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Comment {
    /// 1-based line and column of its `#`.
    line: usize,
    column: usize,
    /// The rule ids it names, each with its 1-based column.
    rules: Vec<(String, usize)>,
    /// The text after ` -- `, if any.
    reason: Option<String>,
    /// The lines it covers.
    covers: Vec<usize>,
}

/// Moves every finding an allow comment covers out of `problems` and
/// returns them; reports each bad comment as an `allow-comment` error, and
/// each rule id a comment names that covers no finding (in a catalog with
/// no error) as an `allow-comment` warning.
/// Scans every file of `names` (read through `read`) for comments; the
/// position index is built only for a file with comments and findings.
pub(in crate::catalog) fn suppress(
    dir: &Path,
    names: &[String],
    read: &dyn Fn(&str) -> std::io::Result<String>,
    problems: &mut Vec<Problem>,
) -> Vec<Suppressed> {
    let mut by_file: BTreeMap<PathBuf, Vec<usize>> = BTreeMap::new();
    for (i, p) in problems.iter().enumerate() {
        by_file.entry(p.file.clone()).or_default().push(i);
    }
    let mut silenced = vec![false; problems.len()];
    let mut suppressed = Vec::new();
    let mut bad = Vec::new();
    // Rule ids that covered nothing: file, comment, id and its column.
    let mut unused: Vec<(PathBuf, Comment, String, usize)> = Vec::new();
    for name in names {
        let file = dir.join(name);
        // Cheap before the scan: most files hold no allow comment.
        let Ok(text) = read(name) else { continue };
        if !text.contains(MARK) {
            continue;
        }
        let comments = comments(&text);
        if comments.is_empty() {
            continue;
        }
        let found = by_file.remove(&file).unwrap_or_default();
        let positions = if found.is_empty() {
            Positions::default()
        } else {
            Positions::of(&text)
        };
        // Which (comment, id) pairs covered a finding.
        let mut used = std::collections::HashSet::new();
        for i in found {
            let p = &problems[i];
            let Some(by) = covering(&comments, &positions, p) else {
                continue;
            };
            used.insert((by, p.rule));
            let c = &comments[by];
            if allowed(p) {
                silenced[i] = true;
                suppressed.push(Suppressed {
                    problem: p.clone(),
                    comment_line: c.line,
                    reason: c.reason.clone(),
                });
            } else {
                bad.push(allow_problem(
                    &file,
                    p.table.clone(),
                    c,
                    c.column,
                    format!(
                        "`# catalog: allow {}` cannot silence an error of `{}`: the table could not be built as declared or a server would refuse it; fix the finding on line {} instead",
                        p.rule,
                        p.rule,
                        p.line.unwrap_or(c.line)
                    ),
                ));
            }
        }
        for (n, c) in comments.iter().enumerate() {
            for (id, column) in &c.rules {
                if rule_ids::find(id).is_some() {
                    if !used.contains(&(n, id.as_str())) {
                        unused.push((file.clone(), c.clone(), id.clone(), *column));
                    }
                } else {
                    bad.push(allow_problem(
                        &file,
                        None,
                        c,
                        *column,
                        format!(
                            "`# catalog: allow` names `{id}`, which is no rule id; use one of the ids `catalog check` reports (docs/catalog-format.md, \"Rule ids\")"
                        ),
                    ));
                }
            }
        }
    }
    let mut i = 0;
    problems.retain(|_| {
        i += 1;
        !silenced[i - 1]
    });
    // An error may have kept a rule from running: then a comment that
    // covered nothing may still be needed.
    if !problems.iter().any(|p| p.severity == Severity::Error) {
        for (file, c, id, column) in unused {
            let mut p = allow_problem(
                &file,
                None,
                &c,
                column,
                format!(
                    "`# catalog: allow {id}` silences nothing here: remove it (no `{id}` finding on the node it marks, line {})",
                    c.covers.first().copied().unwrap_or(c.line)
                ),
            );
            p.severity = Severity::Warning;
            bad.push(p);
        }
    }
    problems.extend(bad);
    suppressed
}

/// Whether a finding may be allowed: any warning, and the errors of
/// house rules.
fn allowed(p: &Problem) -> bool {
    p.severity == Severity::Warning || fixes::allow(p.rule) == Some(Allow::Policy)
}

/// The first comment naming the finding's rule that covers its line or
/// its object's entry.
fn covering(comments: &[Comment], positions: &Positions, p: &Problem) -> Option<usize> {
    let line = p.line?;
    let entry = p
        .object
        .as_deref()
        .and_then(|o| super::locate::entry_line(positions, o));
    comments.iter().position(|c| {
        c.rules.iter().any(|(id, _)| id == p.rule)
            && c.covers.iter().any(|l| *l == line || Some(*l) == entry)
    })
}

fn allow_problem(
    file: &Path,
    table: Option<String>,
    c: &Comment,
    column: usize,
    message: String,
) -> Problem {
    Problem {
        severity: rule_ids::ALLOW_COMMENT.severity,
        rule: rule_ids::ALLOW_COMMENT.id,
        file: file.to_path_buf(),
        line: Some(c.line),
        column: Some(column),
        table,
        object: None,
        message,
        fix: fixes::hint(rule_ids::ALLOW_COMMENT.id),
    }
}

/// The allow comments of a file, with the lines each covers.
fn comments(text: &str) -> Vec<Comment> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(hash) = comment_start(line) else {
            continue;
        };
        let body = line[hash + 1..].trim_start();
        let Some(rest) = body.strip_prefix(MARK) else {
            continue;
        };
        // `# catalog: allowed ...` is not the mark.
        if !rest.is_empty() && !rest.starts_with(char::is_whitespace) {
            continue;
        }
        let rest_at = line.len() - rest.len();
        let (ids, reason) = match rest.split_once(" -- ") {
            Some((ids, reason)) => (ids, Some(reason.trim().to_string())),
            None => (rest, None),
        };
        let mut rules = Vec::new();
        let mut offset = 0;
        for word in ids.split(|c: char| c == ',' || c.is_whitespace()) {
            if !word.is_empty() {
                rules.push((word.to_string(), rest_at + offset + 1));
            }
            offset += word.len() + 1;
        }
        let standalone = line[..hash].trim().is_empty();
        let covers = if standalone {
            // The next line holding a node (not blank, not a comment).
            lines[i + 1..]
                .iter()
                .position(|l| {
                    let t = l.trim_start();
                    !t.is_empty() && !t.starts_with('#')
                })
                .map(|n| vec![i + 2 + n])
                .unwrap_or_default()
        } else {
            vec![i + 1]
        };
        out.push(Comment {
            line: i + 1,
            column: hash + 1,
            rules,
            reason: reason.filter(|r| !r.is_empty()),
            covers,
        });
    }
    out
}

/// The byte offset of the `#` that starts a comment on `line`, if any: at
/// the start or after whitespace, outside single and double quotes.
fn comment_start(line: &str) -> Option<usize> {
    let mut quote: Option<char> = None;
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '#' && prev.is_whitespace() => return Some(i),
            None if (c == '\'' || c == '"') && (prev.is_whitespace() || "[{,:-".contains(prev)) => {
                quote = Some(c)
            }
            None => {}
        }
        prev = c;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_cover_their_line_or_the_next_node() {
        let text = "table: t
columns:
  # catalog: allow has-float, naming -- money is not
  #   exact here anyway

  - name: amount
    type: float  # catalog: allow has-float
  - name: note   # catalog: allowed nothing
    comment: 'a # catalog: allow x'
";
        let c = comments(text);
        assert_eq!(c.len(), 2, "{c:?}");
        assert_eq!(c[0].line, 3);
        assert_eq!(c[0].column, 3);
        assert_eq!(
            c[0].rules,
            vec![("has-float".to_string(), 20), ("naming".to_string(), 31)]
        );
        assert_eq!(&text.lines().nth(2).unwrap()[19..28], "has-float");
        assert_eq!(c[0].reason.as_deref(), Some("money is not"));
        assert_eq!(c[0].covers, vec![6]);
        assert_eq!(c[1].line, 7);
        assert_eq!(c[1].covers, vec![7]);
        assert_eq!(c[1].rules, vec![("has-float".to_string(), 35)]);
    }

    /// The `allow-comment` findings of a one-table catalog.
    fn allow_findings(table: &str) -> Vec<(Severity, Option<usize>, Option<usize>)> {
        crate::catalog::check_files("t", &[("t.yaml", table)])
            .problems
            .iter()
            .filter(|p| p.rule == rule_ids::ALLOW_COMMENT.id)
            .map(|p| (p.severity, p.line, p.column))
            .collect()
    }

    #[test]
    fn a_rule_id_that_silences_nothing_is_a_warning_at_the_id() {
        let t = "table: T
columns:
  - {name: Id, type: bigint, nullable: false}
  - {name: Amount, type: double}  # catalog: allow has-float, pk-type
primary_key: [Id]
";
        // has-float is silenced there; pk-type has no finding on the line.
        assert_eq!(
            allow_findings(t),
            vec![(Severity::Warning, Some(4), Some(63))]
        );
        assert_eq!(&t.lines().nth(3).unwrap()[62..69], "pk-type");
        // Both used: nothing.
        let used = t.replace(", pk-type", "");
        assert_eq!(allow_findings(&used), vec![]);
        // In a catalog with an error, an unused id is not reported.
        let broken = t.replace("bigint,", "bigint_x,");
        assert_eq!(allow_findings(&broken), vec![]);
    }

    #[test]
    fn a_hash_inside_quotes_or_a_word_is_no_comment() {
        assert_eq!(comment_start("a: 'x # y'"), None);
        assert_eq!(comment_start("a: \"x # y\""), None);
        assert_eq!(comment_start("a: x#y"), None);
        assert_eq!(comment_start("a: it's # c"), Some(8));
        assert_eq!(comment_start("# c"), Some(0));
    }
}
