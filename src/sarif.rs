//! SARIF 2.1.0 logs of `catalog check` and `catalog diff`, for code
//! scanning (GitHub's `upload-sarif` reads them): one run whose tool
//! lists the rules it reports, one result per finding with its level,
//! message, fix hint and location (the catalog file, line and column), and
//! the findings a `# catalog: allow` comment silenced as results carrying
//! an `inSource` suppression.
//!
//! Typed structs of the few SARIF objects written, rather than a crate
//! generating all of them at build time: `cli/tests/it/lint_output.rs` validates the
//! output against the published schema (`tests/data/sarif/sarif-schema-2.1.0.json`).
//! Standard: OASIS SARIF 2.1.0, sections 3.13 (sarifLog) to 3.35
//! (suppression).

use std::collections::BTreeMap;
use std::path::{Component, Path};

use serde::Serialize;

use crate::catalog::{self, Catalog, CheckReport, Problem, Severity, Suppressed};
use crate::review::{Class, DiffReport};

/// The schema a log names (SARIF 2.1.0, OASIS errata 01).
const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// A SARIF log: one run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Log {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: Vec<Run>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
struct Run {
    tool: Tool,
    results: Vec<SarifResult>,
    column_kind: &'static str,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    semantic_version: &'static str,
    rules: Vec<RuleDescriptor>,
}

/// SARIF `reportingDescriptor`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
struct RuleDescriptor {
    id: String,
    short_description: Text,
    #[serde(skip_serializing_if = "Option::is_none")]
    help: Option<Text>,
    default_configuration: Configuration,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
struct Text {
    text: String,
}

/// SARIF `result`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    rule_id: String,
    rule_index: usize,
    level: &'static str,
    message: Text,
    locations: Vec<Location>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    suppressions: Vec<Suppression>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    properties: BTreeMap<&'static str, String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    physical_location: PhysicalLocation,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    logical_locations: Vec<LogicalLocation>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<Region>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
struct ArtifactLocation {
    uri: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    start_column: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
struct LogicalLocation {
    fully_qualified_name: String,
    kind: &'static str,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
struct Suppression {
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    justification: Option<String>,
    location: Location,
}

/// The rules of a run, each once, by id, and its results.
#[derive(Default)]
struct Builder {
    rules: Vec<RuleDescriptor>,
    index: BTreeMap<String, usize>,
    results: Vec<SarifResult>,
}

impl Builder {
    /// The index of rule `id`, adding its descriptor on first use.
    fn rule(&mut self, id: &str, describe: impl FnOnce() -> RuleDescriptor) -> usize {
        if let Some(i) = self.index.get(id) {
            return *i;
        }
        let i = self.rules.len();
        self.rules.push(describe());
        self.index.insert(id.to_string(), i);
        i
    }

    /// A catalog lint finding as a result (suppressed when `comment` is).
    fn problem(&mut self, p: &Problem, comment: Option<(usize, Option<&str>)>) {
        let rule_index = self.rule(p.rule, || lint_rule(p));
        let location = problem_location(p);
        let suppressions = comment
            .map(|(line, reason)| Suppression {
                kind: "inSource",
                justification: reason.map(str::to_string),
                location: Location {
                    physical_location: PhysicalLocation {
                        artifact_location: ArtifactLocation { uri: uri(&p.file) },
                        region: Some(Region {
                            start_line: line,
                            start_column: None,
                        }),
                    },
                    logical_locations: Vec::new(),
                },
            })
            .into_iter()
            .collect();
        let mut properties = BTreeMap::new();
        if !p.fix.is_empty() {
            properties.insert("fix", p.fix.to_string());
        }
        self.results.push(SarifResult {
            rule_id: p.rule.to_string(),
            rule_index,
            level: level(p.severity),
            message: Text {
                text: problem_text(p),
            },
            locations: vec![location],
            suppressions,
            properties,
        });
    }

    fn finish(self) -> Log {
        Log {
            schema: SCHEMA,
            version: "2.1.0",
            runs: vec![Run {
                tool: Tool {
                    driver: Driver {
                        name: "catalog",
                        semantic_version: env!("CARGO_PKG_VERSION"),
                        rules: self.rules,
                    },
                },
                results: self.results,
                // Columns count characters of the line, as saphyr-parser's.
                column_kind: "unicodeCodePoints",
            }],
        }
    }
}

/// The SARIF log of `catalog check`: every finding, and every silenced
/// one with its suppression.
pub fn check(report: &CheckReport) -> Log {
    let mut b = Builder::default();
    for p in &report.problems {
        b.problem(p, None);
    }
    for Suppressed {
        problem,
        comment_line,
        reason,
    } in &report.suppressed
    {
        b.problem(problem, Some((*comment_line, reason.as_deref())));
    }
    b.finish()
}

/// The SARIF log of `catalog diff`: NEW's new lint errors, every change
/// (level by class: not deployable is an error, divergent a warning,
/// deployable a note) and what apply refuses per flavor, each placed on
/// NEW's file of its table and the object's line there when NEW is a
/// directory (a revision read from git has no file to point at but its
/// label).
pub fn diff(report: &DiffReport, new: Option<&Catalog>) -> Log {
    let mut b = Builder::default();
    let mut texts = Texts::default();
    for r in &report.reviews {
        for p in &r.new_lint_errors {
            b.problem(p, None);
        }
        for c in &r.changes {
            let kind = c.kind.name();
            let id = format!("change/{kind}");
            let level = match c.class {
                Class::NotDeployable => "error",
                Class::Divergent => "warning",
                Class::Deployable => "note",
            };
            let rule_index = b.rule(&id, || RuleDescriptor {
                id: id.clone(),
                short_description: Text {
                    text: format!("a `{kind}` change between catalog revisions"),
                },
                help: None,
                default_configuration: Configuration { level },
            });
            let mut text = format!(
                "{} -> {}: {} `{}`{}: {}",
                r.from,
                report.to,
                c.kind_text(),
                c.table,
                c.object
                    .as_deref()
                    .map(|o| format!(".`{o}`"))
                    .unwrap_or_default(),
                c.reason
            );
            if let (Some(o), Some(n)) = (&c.old, &c.new) {
                text.push_str(&format!(" ({o} -> {n})"));
            }
            let mut properties = BTreeMap::new();
            properties.insert("class", c.class.name());
            if let Some(fix) = &c.fix {
                properties.insert("fix", fix.clone());
            }
            let location = texts.place(new, &report.to, &c.table, c.object.as_deref(), &kind);
            b.results.push(SarifResult {
                rule_id: id,
                rule_index,
                level,
                message: Text { text },
                locations: vec![location],
                suppressions: Vec::new(),
                properties,
            });
        }
        for u in &r.upgrades {
            for p in &u.refused {
                let kind = p.kind.name();
                let id = format!("refused/{kind}");
                let rule_index = b.rule(&id, || RuleDescriptor {
                    id: id.clone(),
                    short_description: Text {
                        text: format!("apply refuses a `{kind}` difference before any DDL"),
                    },
                    help: None,
                    default_configuration: Configuration { level: "error" },
                });
                let mut properties = BTreeMap::new();
                properties.insert("flavor", u.flavor.to_string());
                if let Some(fix) = &p.fix {
                    properties.insert("fix", fix.clone());
                }
                let object = (p.object != p.table).then_some(p.object.as_str());
                let location = texts.place(new, &report.to, &p.table, object, &kind);
                b.results.push(SarifResult {
                    rule_id: id,
                    rule_index,
                    level: "error",
                    message: Text {
                        text: format!(
                            "upgrade from {} on {}: apply refuses: {p}",
                            r.from, u.flavor
                        ),
                    },
                    locations: vec![location],
                    suppressions: Vec::new(),
                    properties,
                });
            }
        }
    }
    b.finish()
}

/// NEW's table files, read once each to place objects on their lines.
#[derive(Default)]
struct Texts {
    read: BTreeMap<std::path::PathBuf, Option<String>>,
}

impl Texts {
    /// Where a change to `table`'s `object` is: NEW's file of the table,
    /// on the object's node (the table's `table:` key without an object),
    /// when the file can be read; else NEW's label.
    fn place(
        &mut self,
        new: Option<&Catalog>,
        label: &str,
        table: &str,
        object: Option<&str>,
        kind: &str,
    ) -> Location {
        let logical = LogicalLocation {
            fully_qualified_name: match object {
                Some(o) => format!("{table}.{o}"),
                None => table.to_string(),
            },
            kind: if object.is_some() { "member" } else { "type" },
        };
        let Some(ct) = new.and_then(|c| c.table(table)) else {
            return Location {
                physical_location: PhysicalLocation {
                    artifact_location: ArtifactLocation {
                        uri: uri(Path::new(label)),
                    },
                    region: None,
                },
                logical_locations: vec![logical],
            };
        };
        let text = self
            .read
            .entry(ct.file.clone())
            .or_insert_with(|| std::fs::read_to_string(&ct.file).ok());
        let region = text.as_deref().and_then(|text| {
            catalog::object_position(text, &catalog_objects(object, kind), change_keys(kind)).map(
                |(line, column)| Region {
                    start_line: line,
                    start_column: Some(column),
                },
            )
        });
        Location {
            physical_location: PhysicalLocation {
                artifact_location: ArtifactLocation { uri: uri(&ct.file) },
                region,
            },
            logical_locations: vec![logical],
        }
    }
}

/// The catalog's names for a change's object, most likely first (a
/// column and an index may share a name): by the change's kind.
fn catalog_objects(object: Option<&str>, kind: &str) -> Vec<String> {
    let Some(o) = object else {
        return Vec::new();
    };
    if o == "PRIMARY" {
        return vec!["primary key".into()];
    }
    let mut kinds = vec!["column", "index", "check", "foreign key"];
    let first = if kind.contains("foreign") {
        "foreign key"
    } else if kind.contains("index") || kind.contains("key") {
        "index"
    } else if kind.contains("check") {
        "check"
    } else {
        "column"
    };
    kinds.retain(|k| *k != first);
    kinds.insert(0, first);
    kinds.iter().map(|k| format!("{k} `{o}`")).collect()
}

/// The key of an object's entry a change of `kind` is about (`type` for a
/// `column_type` change); none: the entry itself.
fn change_keys(kind: &str) -> &'static [&'static str] {
    match kind {
        "column_type" | "missing_widening" => &["type"],
        "column_nullability" => &["nullable"],
        "column_default" => &["default"],
        "column_collation" => &["collation", "charset"],
        "column_auto_increment" => &["auto_increment"],
        "column_invisible" => &["invisible"],
        "column_on_update" => &["on_update"],
        "column_generated" | "column_generated_expression" | "column_generated_stored" => {
            &["generated"]
        }
        "comment_changed" => &["comment"],
        "consumer_scope_changed" => &["required_by"],
        _ if kind.contains("index") => &["columns"],
        _ => &[],
    }
}

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

fn lint_rule(p: &Problem) -> RuleDescriptor {
    let rule = catalog::RULES.iter().find(|r| r.id == p.rule);
    RuleDescriptor {
        id: p.rule.to_string(),
        short_description: Text {
            text: rule.map_or_else(|| p.rule.to_string(), |r| r.checks.to_string()),
        },
        help: (!p.fix.is_empty()).then(|| Text {
            text: p.fix.to_string(),
        }),
        default_configuration: Configuration {
            level: level(rule.map_or(p.severity, |r| r.severity)),
        },
    }
}

/// The message of a lint finding: the table and object, what is wrong.
fn problem_text(p: &Problem) -> String {
    let mut text = String::new();
    match (&p.table, &p.object) {
        (Some(t), Some(o)) => text.push_str(&format!("table `{t}`, {o}: ")),
        (Some(t), None) => text.push_str(&format!("table `{t}`: ")),
        (None, Some(o)) => text.push_str(&format!("{o}: ")),
        (None, None) => {}
    }
    text.push_str(&p.message);
    text
}

fn problem_location(p: &Problem) -> Location {
    let logical = match (&p.table, &p.object) {
        (Some(t), Some(o)) => vec![LogicalLocation {
            // `index \`x\`` is `T.x`; `primary key` is `T.primary key`.
            fully_qualified_name: match o.split_once(" `") {
                Some((_, name)) => format!("{t}.{}", name.strip_suffix('`').unwrap_or(name)),
                None => format!("{t}.{o}"),
            },
            kind: "member",
        }],
        (Some(t), None) => vec![LogicalLocation {
            fully_qualified_name: t.clone(),
            kind: "type",
        }],
        _ => Vec::new(),
    };
    Location {
        physical_location: PhysicalLocation {
            artifact_location: ArtifactLocation { uri: uri(&p.file) },
            region: p.line.map(|line| Region {
                start_line: line,
                start_column: p.column,
            }),
        },
        logical_locations: logical,
    }
}

/// A file path as a URI reference: relative paths stay relative (code
/// scanning resolves them against the repository's root, so run `catalog`
/// from there), absolute ones become `file://` URIs; separators are `/`
/// and what a URI cannot hold is percent-encoded.
fn uri(path: &Path) -> String {
    let mut parts = Vec::new();
    let mut absolute = false;
    for c in path.components() {
        match c {
            Component::Prefix(p) => parts.push(p.as_os_str().to_string_lossy().replace('\\', "/")),
            Component::RootDir => absolute = true,
            Component::CurDir => {}
            Component::ParentDir => parts.push("..".into()),
            Component::Normal(n) => parts.push(n.to_string_lossy().into_owned()),
        }
    }
    let joined = parts
        .iter()
        .map(|p| encode(p))
        .collect::<Vec<_>>()
        .join("/");
    if absolute {
        format!("file:///{joined}")
    } else {
        joined
    }
}

/// Percent-encodes all but RFC 3986's unreserved characters (and `:` in a
/// drive letter).
fn encode(segment: &str) -> String {
    let mut out = String::new();
    for b in segment.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b':' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_uri_references() {
        assert_eq!(uri(Path::new("catalog/job.yaml")), "catalog/job.yaml");
        assert_eq!(uri(Path::new("./catalog/a b.yaml")), "catalog/a%20b.yaml");
        assert_eq!(uri(Path::new("/tmp/x/job.yaml")), "file:///tmp/x/job.yaml");
        assert_eq!(uri(Path::new("../c/é.yaml")), "../c/%C3%A9.yaml");
    }

    #[test]
    fn a_change_looks_for_its_kind_of_object_first() {
        assert_eq!(catalog_objects(Some("x"), "missing_index")[0], "index `x`");
        assert_eq!(catalog_objects(Some("x"), "column_type")[0], "column `x`");
        assert_eq!(
            catalog_objects(Some("PRIMARY"), "primary_key"),
            vec!["primary key"]
        );
        assert!(catalog_objects(None, "missing_table").is_empty());
        assert_eq!(
            catalog_objects(Some("fk"), "foreign_key_columns")[0],
            "foreign key `fk`"
        );
    }
}
