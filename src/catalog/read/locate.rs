//! Places each finding on the YAML node it is about: a finding made after
//! parsing names its object (`column \`dedupe_key\``) and its rule names the
//! keys it is about (`type`), so `columns.N.type` of the file is its line
//! and column. A file is read and indexed again only when it has a finding
//! without a position (see `crate::yaml_pos`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::catalog::rule_ids;
use crate::catalog::Problem;
use crate::yaml_pos::Positions;

/// Which list of a file an object's kind is an entry of, or which key it is.
const OBJECTS: &[(&str, &str)] = &[
    ("column", "columns"),
    ("index", "indexes"),
    ("check", "checks"),
    ("foreign key", "foreign_keys"),
    ("query", "queries"),
];

/// Objects that are one key of the file.
const KEYS: &[(&str, &str)] = &[
    ("primary key", "primary_key"),
    ("ttl", "ttl"),
    ("defaults", "defaults"),
    ("limits", "limits"),
    ("flavors", "flavors"),
    ("external_tables", "external_tables"),
    ("replicas", "replicas"),
];

/// Gives every finding of `problems` without a line the line and column of
/// its node, reading each such file once through `read` (by its name in
/// `dir`).
pub(in crate::catalog) fn locate(
    dir: &Path,
    read: &dyn Fn(&str) -> std::io::Result<String>,
    problems: &mut [Problem],
) {
    let mut by_file: BTreeMap<PathBuf, Vec<usize>> = BTreeMap::new();
    for (i, p) in problems.iter().enumerate() {
        if p.line.is_none() {
            by_file.entry(p.file.clone()).or_default().push(i);
        }
    }
    for (file, found) in by_file {
        let Some(name) = file
            .strip_prefix(dir)
            .ok()
            .and_then(Path::to_str)
            .filter(|n| !n.is_empty())
        else {
            continue;
        };
        let Ok(text) = read(name) else { continue };
        let positions = Positions::of(&text);
        for i in found {
            let p = &mut problems[i];
            let keys = rule_ids::find(p.rule).map_or(&[][..], |r| r.keys);
            if let Some(pos) = node(&positions, p.object.as_deref(), keys) {
                p.line = Some(pos.line);
                p.column = Some(pos.column);
            }
        }
    }
}

/// The line of the entry or key an object names (`- name: X` of `column
/// \`X\``), if the file has it.
pub(in crate::catalog) fn entry_line(positions: &Positions, object: &str) -> Option<usize> {
    base_path(positions, object)
        .and_then(|path| positions.get(&path))
        .map(|pos| pos.line)
}

/// The 1-based line and column, in a table file's `text`, of the first of
/// `objects` (in the catalog's form: `column \`x\``, `index \`y\``,
/// `primary key`) the file declares: its first key of `keys`, else its
/// entry; of the file's `table:` key when `objects` is empty or none is
/// found.
pub(crate) fn object_position(
    text: &str,
    objects: &[String],
    keys: &[&str],
) -> Option<(usize, usize)> {
    let positions = Positions::of(text);
    objects
        .iter()
        .find_map(|o| {
            let base = base_path(&positions, o)?;
            keys.iter()
                .find_map(|k| positions.get(&format!("{base}.{k}")))
                .or_else(|| positions.get(&base))
        })
        .or_else(|| positions.get("table"))
        .map(|pos| (pos.line, pos.column))
}

/// The position of the node a finding about `object` points at: the first
/// of `keys` its entry has, else the entry; for a finding about the whole
/// file, the first of `keys` at the top, else `table:`; else the file's
/// first node.
fn node(
    positions: &Positions,
    object: Option<&str>,
    keys: &[&str],
) -> Option<crate::yaml_pos::Pos> {
    let base = object.and_then(|o| base_path(positions, o));
    let within = |base: &str| {
        keys.iter().find_map(|k| {
            let path = if base.is_empty() {
                k.to_string()
            } else {
                format!("{base}.{k}")
            };
            positions.get(&path)
        })
    };
    match base {
        Some(base) => within(&base).or_else(|| positions.get(&base)),
        None => within("")
            .or_else(|| positions.get("table"))
            .or_else(|| positions.first()),
    }
}

/// The path of the entry or key an object names: `column \`X\`` is the
/// entry of `columns` named X, `column #3` the third, `primary key` the
/// key `primary_key`.
fn base_path(positions: &Positions, object: &str) -> Option<String> {
    // A key of catalog.yaml's `lint` or `tidb` (`lint.naming.index`).
    if object.starts_with("lint.") || object.starts_with("tidb.") {
        return positions.get(object).map(|_| object.to_string());
    }
    if let Some((_, key)) = KEYS.iter().find(|(o, _)| *o == object) {
        return positions.get(key).map(|_| key.to_string());
    }
    let (what, name) = match object.split_once(" `") {
        Some((what, rest)) => (what, rest.strip_suffix('`')?.to_string()),
        None => {
            let (what, n) = object.rsplit_once(" #")?;
            (what, format!("#{n}"))
        }
    };
    let (_, list) = OBJECTS.iter().find(|(o, _)| *o == what)?;
    positions.entry(list, &name)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "table: job
columns:
  - name: id
    type: bigint
  - name: dedupe_key
    type: varchr(190)
primary_key: [id]
indexes:
  - {name: by_key, columns: [dedupe_key]}
";

    fn at(object: Option<&str>, keys: &[&str]) -> Option<(usize, usize)> {
        node(&Positions::of(TEXT), object, keys).map(|p| (p.line, p.column))
    }

    #[test]
    fn objects_and_keys_find_their_nodes() {
        assert_eq!(at(Some("column `dedupe_key`"), &["type"]), Some((6, 5)));
        assert_eq!(at(Some("column `DEDUPE_KEY`"), &["default"]), Some((5, 5)));
        assert_eq!(at(Some("column #1"), &["type"]), Some((4, 5)));
        assert_eq!(at(Some("index `by_key`"), &["columns"]), Some((9, 20)));
        assert_eq!(at(Some("primary key"), &["columns"]), Some((7, 1)));
        assert_eq!(at(None, &["engine"]), Some((1, 1)));
        assert_eq!(at(None, &["columns"]), Some((2, 1)));
    }
}
