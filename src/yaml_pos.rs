//! Where each node of a YAML file is: a path such as `columns.3.type` to the
//! 1-based line and column of that key (or of the list item), so a finding
//! made after parsing can name `file:line:col`.
//!
//! serde_yaml, which reads the catalog, keeps no positions once a value is
//! parsed; `saphyr-parser` (the YAML 1.2 event parser of the saphyr project)
//! reports each event with its span. The index is built only for a file that
//! has a finding to place, from the same text. A leaf: it imports nothing
//! from the crate.

use std::collections::HashMap;

use saphyr_parser::{Event, Parser};

/// A 1-based line and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pos {
    pub line: usize,
    pub column: usize,
}

/// The positions of one file's keys and list items, by dotted path
/// (`columns.3.type`: the key `type` of the fourth column; `columns.3`:
/// that list item). List entries' `name` values are kept to find an entry
/// by name.
#[derive(Debug, Default)]
pub(crate) struct Positions {
    at: HashMap<String, Pos>,
    /// `columns` -> the `name` of each entry, as written, in order.
    names: HashMap<String, Vec<Option<String>>>,
    /// The first node of the file.
    first: Option<Pos>,
}

/// One open container while walking the events.
enum Frame {
    /// A mapping: its path, and the key just read (awaiting its value).
    Map { path: String, key: Option<String> },
    /// A sequence: its path and the index of the next item.
    Seq { path: String, next: usize },
}

fn join(path: &str, part: &str) -> String {
    if path.is_empty() {
        part.to_string()
    } else {
        format!("{path}.{part}")
    }
}

impl Positions {
    /// Indexes `text`; a file the parser cannot read yields what was read
    /// before the error (its syntax error is reported with its own position).
    pub fn of(text: &str) -> Positions {
        let mut out = Positions::default();
        let mut stack: Vec<Frame> = Vec::new();
        for event in Parser::new_from_str(text) {
            let Ok((event, span)) = event else { break };
            let pos = Pos {
                line: span.start.line(),
                column: span.start.col() + 1,
            };
            let starts_node = matches!(
                event,
                Event::Scalar(..)
                    | Event::MappingStart(..)
                    | Event::SequenceStart(..)
                    | Event::Alias(_)
            );
            // The path of the node this event starts (or the scalar it is).
            let node_path = match stack.last_mut() {
                _ if !starts_node => None,
                Some(Frame::Map { path, key: Some(k) }) => Some(join(path, k)),
                Some(Frame::Seq { path, next }) => {
                    let p = join(path, &next.to_string());
                    *next += 1;
                    Some(p)
                }
                _ => None,
            };
            let is_value = node_path.is_some();
            if starts_node && out.first.is_none() && !matches!(event, Event::MappingStart(..)) {
                out.first = Some(pos);
            }
            if let (Some(p), true) = (&node_path, matches!(stack.last(), Some(Frame::Seq { .. }))) {
                out.at.entry(p.clone()).or_insert(pos);
            }
            match event {
                Event::Scalar(value, ..) => match stack.last_mut() {
                    Some(Frame::Map { path, key }) if key.is_none() => {
                        let p = join(path, &value);
                        out.at.entry(p).or_insert(pos);
                        *key = Some(value.into_owned());
                    }
                    Some(Frame::Map { path, key }) => {
                        if key.as_deref() == Some("name") {
                            out.record_name(path, &value);
                        }
                        *key = None;
                    }
                    _ => {}
                },
                Event::MappingStart(..) => stack.push(Frame::Map {
                    path: node_path.unwrap_or_default(),
                    key: None,
                }),
                Event::SequenceStart(..) => stack.push(Frame::Seq {
                    path: node_path.unwrap_or_default(),
                    next: 0,
                }),
                Event::MappingEnd | Event::SequenceEnd => {
                    stack.pop();
                    if let Some(Frame::Map { key, .. }) = stack.last_mut() {
                        *key = None;
                    }
                }
                Event::Alias(_) => {
                    if let Some(Frame::Map { key, .. }) = stack.last_mut() {
                        if is_value {
                            *key = None;
                        }
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// Notes the `name` of the list entry at `entry` (`columns.3`).
    fn record_name(&mut self, entry: &str, name: &str) {
        let Some((list, index)) = entry.rsplit_once('.') else {
            return;
        };
        let Ok(index) = index.parse::<usize>() else {
            return;
        };
        let names = self.names.entry(list.to_string()).or_default();
        if names.len() <= index {
            names.resize(index + 1, None);
        }
        names[index] = Some(name.to_string());
    }

    /// The position of a path (`columns.3.type`), if the file has it.
    pub fn get(&self, path: &str) -> Option<Pos> {
        self.at.get(path).copied()
    }

    /// The file's first key or value.
    pub fn first(&self) -> Option<Pos> {
        self.first
    }

    /// The path of the entry of `list` named `name`: the first spelled
    /// exactly so, else the first equal case-insensitively (so a duplicate
    /// `id` beside `Id` is placed on its own entry); or the `n`-th entry
    /// when `name` is `#n`.
    pub fn entry(&self, list: &str, name: &str) -> Option<String> {
        if let Some(n) = name.strip_prefix('#').and_then(|n| n.parse::<usize>().ok()) {
            let path = join(list, &(n.max(1) - 1).to_string());
            return self.at.contains_key(&path).then_some(path);
        }
        let names = self.names.get(list)?;
        let folded = name.to_lowercase();
        let index = names
            .iter()
            .position(|n| n.as_deref() == Some(name))
            .or_else(|| {
                names
                    .iter()
                    .position(|n| n.as_deref().map(str::to_lowercase).as_deref() == Some(&folded))
            })?;
        Some(join(list, &index.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "table: job
columns:
  - name: id
    type: bigint
  - {name: Dedupe_Key, type: varchr(190)}
primary_key: [id]
indexes:
  - name: by_key
    columns:
      - dedupe_key
";

    #[test]
    fn keys_and_items_have_positions() {
        let p = Positions::of(TEXT);
        let at = |path: &str| p.get(path).map(|p| (p.line, p.column));
        assert_eq!(at("table"), Some((1, 1)));
        assert_eq!(at("columns.0"), Some((3, 5)));
        assert_eq!(at("columns.0.type"), Some((4, 5)));
        assert_eq!(at("columns.1.type"), Some((5, 24)));
        assert_eq!(at("primary_key"), Some((6, 1)));
        assert_eq!(at("primary_key.0"), Some((6, 15)));
        assert_eq!(at("indexes.0.columns.0"), Some((10, 9)));
        assert_eq!(at("columns.2"), None);
    }

    #[test]
    fn entries_are_found_by_name_or_number() {
        let p = Positions::of(TEXT);
        assert_eq!(
            p.entry("columns", "dedupe_key").as_deref(),
            Some("columns.1")
        );
        assert_eq!(p.entry("columns", "#1").as_deref(), Some("columns.0"));
        assert_eq!(p.entry("indexes", "by_key").as_deref(), Some("indexes.0"));
        assert_eq!(p.entry("indexes", "nope"), None);
        let dup = Positions::of("columns:\n  - name: Id\n  - name: id\n");
        assert_eq!(dup.entry("columns", "id").as_deref(), Some("columns.1"));
        assert_eq!(dup.entry("columns", "ID").as_deref(), Some("columns.0"));
    }

    #[test]
    fn a_syntax_error_keeps_what_came_before() {
        let p = Positions::of("table: t\ncolumns:\n  - name: a\n   bad: [\n");
        assert_eq!(p.get("table").map(|p| p.line), Some(1));
    }
}
