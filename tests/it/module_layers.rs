//! Layers point one way: no import cycle between the top-level modules of
//! `src/`. Every `crate::` path in a module's files (code, not comments or
//! string literals; `use crate::{a, b::c}` groups included; the crate
//! root's re-exports such as `crate::Ident` resolved to the module that owns
//! them) is an edge from that module to the named one. The test fails on a
//! cycle and names it with the file of every edge, so the import to move is
//! in the message. The same holds one level down, inside each room (a
//! top-level directory module): its second-level modules (`catalog::read`,
//! `catalog::rules`, `dump::prepass`, ...) import one another without a
//! cycle; a test plants one to prove the checker finds it.
//!
//! The server seam: per-vendor knowledge lives in `src/server/`. Outside it,
//! library code (not unit tests) names no flavor variant (`Flavor::MySql`,
//! `Flavor::TiDb`, `Flavor::MariaDb`, in a `match` or a comparison): it asks
//! the server or the flavor a named question instead (a capability, a
//! vendor file, or `server/holds.rs` for what each vendor can hold).

use crate::common;

use common::source::{code_only, rs_files, src};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fs;
use std::path::PathBuf;

/// `module -> (module it imports -> a file that does)`.
type Graph = BTreeMap<String, BTreeMap<String, PathBuf>>;

/// The first path segment of every `crate::` path (both `crate::a::b` and
/// each item of `crate::{a::b, c}`).
fn crate_heads(code: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue; // `$crate::` or part of a longer name
        }
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let mut item = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                if depth == 0 || (depth == 1 && c == ',') {
                    out.push(ident(&item));
                    item.clear();
                    if depth == 0 {
                        break;
                    }
                } else if depth >= 1 {
                    item.push(c);
                }
            }
        } else {
            out.push(ident(rest));
        }
    }
    out.retain(|s| !s.is_empty());
    out
}

/// The crate root's re-exports: `pub use module::{A, B}` maps `A` and `B`
/// to `module`.
fn root_reexports(lib: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for stmt in code_only(lib).split(';') {
        let Some(path) = stmt.trim().strip_prefix("pub use ") else {
            continue;
        };
        let Some((module, items)) = path.split_once("::") else {
            continue;
        };
        let items = items.trim().trim_start_matches('{').trim_end_matches('}');
        for item in items.split(',') {
            let name = item.rsplit("::").next().unwrap_or("").trim();
            let name = name.rsplit(" as ").next().unwrap_or(name).trim();
            if !name.is_empty() {
                out.insert(name.to_string(), module.trim().to_string());
            }
        }
    }
    out
}

fn graph() -> Graph {
    let src = src();
    let lib = fs::read_to_string(src.join("lib.rs")).unwrap();
    let reexports = root_reexports(&lib);
    let mut modules = BTreeMap::new();
    for entry in fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if name != "lib" && (path.is_dir() || path.extension().is_some_and(|e| e == "rs")) {
            modules.insert(name, path);
        }
    }
    let mut g = Graph::new();
    for (name, path) in &modules {
        let edges = g.entry(name.clone()).or_default();
        for file in rs_files(path) {
            // Library code only: a unit test (a `tests.rs` file or a
            // `#[cfg(test)]` item) may reach across rooms, e.g. to build its
            // fixture from SQL text with the dump parser.
            if is_test_file(file.strip_prefix(&src).unwrap()) {
                continue;
            }
            let code = without_test_items(&code_only(&fs::read_to_string(&file).unwrap()));
            for head in crate_heads(&code) {
                let target = if modules.contains_key(&head) {
                    head
                } else if let Some(m) = reexports.get(&head) {
                    m.clone()
                } else {
                    continue;
                };
                if &target != name {
                    let rel = file.strip_prefix(&src).unwrap().to_path_buf();
                    edges.entry(target).or_insert(rel);
                }
            }
        }
    }
    g
}

/// The strongly connected components with more than one module (Tarjan).
fn cycles(g: &Graph) -> Vec<BTreeSet<String>> {
    struct Tarjan<'g> {
        g: &'g Graph,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        out: Vec<BTreeSet<String>>,
    }
    impl<'g> Tarjan<'g> {
        fn visit(&mut self, v: &'g str) {
            let i = self.index.len();
            self.index.insert(v, i);
            self.low.insert(v, i);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.g[v].keys() {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let lw = self.low[w];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if self.on_stack.contains(w) {
                    let iw = self.index[w];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut scc = BTreeSet::new();
                loop {
                    let w = self.stack.pop().unwrap();
                    self.on_stack.remove(w);
                    scc.insert(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if scc.len() > 1 {
                    self.out.push(scc);
                }
            }
        }
    }
    let mut t = Tarjan {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in g.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.visit(v);
        }
    }
    t.out
}

/// One shortest cycle through the first module of `scc`, as
/// `a -> b (a/file.rs) -> ... -> a (file)`.
fn name_cycle(g: &Graph, scc: &BTreeSet<String>) -> String {
    let start = scc.iter().next().unwrap();
    let mut prev: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = VecDeque::from([start.as_str()]);
    let mut last = None;
    'search: while let Some(v) = queue.pop_front() {
        for w in g[v].keys().filter(|w| scc.contains(*w)) {
            if w == start {
                last = Some(v);
                break 'search;
            }
            if !prev.contains_key(w.as_str()) {
                prev.insert(w, v);
                queue.push_back(w);
            }
        }
    }
    let mut path = vec![start.as_str()];
    let mut at = last.unwrap();
    while at != start {
        path.push(at);
        at = prev[at];
    }
    path[1..].reverse();
    path.push(start);
    let mut out = start.clone();
    for pair in path.windows(2) {
        let file = &g[pair[0]][pair[1]];
        out.push_str(&format!(" -> {} ({})", pair[1], file.display()));
    }
    out
}

#[test]
fn top_level_modules_import_without_cycles() {
    let g = graph();
    assert!(g.len() > 10, "found the modules of src/: {:?}", g.keys());
    let found: Vec<String> = cycles(&g)
        .iter()
        .map(|scc| {
            format!(
                "{} modules in one cycle ({}), for example: {}",
                scc.len(),
                scc.iter().cloned().collect::<Vec<_>>().join(", "),
                name_cycle(&g, scc)
            )
        })
        .collect();
    assert!(
        found.is_empty(),
        "import cycles between top-level modules of src/ (a low module must not import a high one):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scanner_sees_groups_and_skips_comments_and_strings() {
    let code = code_only(
        "use crate::{a::X, b, c::{d, e}};\n// crate::f\nlet s = \"crate::g\"; /* crate::h */ crate::i::j(); $crate::k; 'x'; fn f<'a>() {}",
    );
    assert_eq!(crate_heads(&code), ["a", "b", "c", "i"]);
    let g = Graph::from([
        ("a".into(), BTreeMap::from([("b".into(), "a.rs".into())])),
        (
            "b".into(),
            BTreeMap::from([("a".into(), "b/mod.rs".into())]),
        ),
        ("c".into(), BTreeMap::from([("a".into(), "c.rs".into())])),
    ]);
    let found = cycles(&g);
    assert_eq!(found.len(), 1);
    assert_eq!(name_cycle(&g, &found[0]), "a -> b (a.rs) -> a (b/mod.rs)");
}

/// `text` (already [`code_only`]) with every `#[cfg(test)]` item blanked:
/// unit tests may name flavors, they build servers of each kind.
fn without_test_items(code: &str) -> String {
    let mut out = code.to_string();
    let mut from = 0;
    while let Some(at) = out[from..].find("#[cfg(test)]").map(|i| i + from) {
        let rest = &out[at..];
        let (Some(brace), semi) = (rest.find('{'), rest.find(';')) else {
            break;
        };
        if semi.is_some_and(|s| s < brace) {
            from = at + semi.unwrap();
            continue; // `#[cfg(test)] mod tests;`: its file is skipped by name
        }
        let mut depth = 0;
        let mut end = rest.len();
        for (i, c) in rest[brace..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = brace + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        let blank: String = rest[..end]
            .chars()
            .map(|c| if c == '\n' { c } else { ' ' })
            .collect();
        out.replace_range(at..at + end, &blank);
        from = at + blank.len();
    }
    out
}

/// How often library code in `code` names a flavor variant.
fn flavor_variants(code: &str) -> usize {
    let code = without_test_items(code);
    ["Flavor::TiDb", "Flavor::MySql", "Flavor::MariaDb"]
        .iter()
        .map(|v| {
            code.match_indices(v)
                .filter(|(i, _)| {
                    let after = code[i + v.len()..].chars().next();
                    let before = code[..*i].chars().next_back();
                    !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
                        && !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                })
                .count()
        })
        .sum()
}

/// Whether `rel` (relative to `src/`) is a unit-test file (`tests.rs`, or
/// under a `tests/` directory), included only under `#[cfg(test)]`.
fn is_test_file(rel: &std::path::Path) -> bool {
    rel.file_name().is_some_and(|n| n == "tests.rs")
        || rel.components().any(|c| c.as_os_str() == "tests")
}

#[test]
fn flavor_variants_are_named_only_in_the_server_seam() {
    let src = src();
    let mut found = BTreeMap::new();
    for file in rs_files(&src) {
        let rel = file.strip_prefix(&src).unwrap();
        if rel.starts_with("server") || is_test_file(rel) {
            continue;
        }
        let n = flavor_variants(&code_only(&fs::read_to_string(&file).unwrap()));
        if n > 0 {
            found.insert(rel.to_string_lossy().replace('\\', "/"), n);
        }
    }
    let wrong: Vec<String> = found
        .iter()
        .map(|(file, n)| {
            format!(
                "{file}: names a flavor variant {n} time(s); ask the server \
                 (src/server/: a capability citing its source, a vendor file, or \
                 server/holds.rs for a feature some flavor cannot hold) instead"
            )
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_flavor_scanner_skips_tests_comments_and_all() {
    let code = code_only(
        "fn f(x: Flavor) -> bool { x == Flavor::TiDb } // Flavor::MySql\n\
         fn g() { for f in Flavor::ALL {} let s = \"Flavor::MariaDb\"; }\n\
         #[cfg(test)]\nmod tests { fn t() { Flavor::MySql; } }\n\
         fn h(f: Flavor) { match f { Flavor::MySql | Flavor::MariaDb => {}, _ => {} } }",
    );
    assert_eq!(flavor_variants(&code), 3);
}

/// Every `crate::` and `super::` path of the code, as its segments (`use
/// super::{a, b::c}` gives `[super, a]` and `[super, b, c]`); a path ends
/// at the first character that is not part of a name or `::`.
fn paths(code: &str) -> Vec<Vec<String>> {
    fn read(rest: &str, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
        let mut segs = prefix;
        let mut rest = rest;
        loop {
            if let Some(group) = rest.strip_prefix('{') {
                let mut depth = 1;
                let mut item = String::new();
                for c in group.chars() {
                    match c {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    if depth == 0 || (depth == 1 && c == ',') {
                        if !item.trim().is_empty() {
                            read(item.trim(), segs.clone(), out);
                        }
                        item.clear();
                        if depth == 0 {
                            break;
                        }
                    } else {
                        item.push(c);
                    }
                }
                return;
            }
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            rest = &rest[name.len()..];
            if !name.is_empty() {
                segs.push(name);
            }
            let trimmed = rest.trim_start();
            if let Some(after) = trimmed.strip_prefix("::") {
                rest = after.trim_start();
                continue;
            }
            break;
        }
        out.push(segs);
    }
    let mut out = Vec::new();
    for start in ["crate::", "super::"] {
        let mut at = 0;
        while let Some(i) = code[at..].find(start) {
            let i = at + i;
            at = i + start.len();
            let before = code[..i].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == ':') {
                continue; // `$crate::`, part of a longer name, or `super::super::`
            }
            let head = start.trim_end_matches("::").to_string();
            read(&code[at..], vec![head], &mut out);
        }
    }
    out
}

/// The second-level graph of one room (a top-level module that is a
/// directory, e.g. `catalog`): its children (`catalog/read`, `catalog/sink.rs`)
/// and, for each, the children it imports, through `crate::room::x`,
/// `super::x` (from a direct child) or `super::super::x` (one level
/// deeper), or an item the room's `mod.rs` re-exports from `x`. The room's
/// own items (its `mod.rs`) are the room's facade, not a node. Test code
/// (from a file's `#[cfg(test)]` on) is left out.
fn room_graph(src: &std::path::Path, room: &str) -> Graph {
    let dir = src.join(room);
    let mut children = BTreeMap::new();
    for entry in fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if name != "mod" && (path.is_dir() || path.extension().is_some_and(|e| e == "rs")) {
            children.insert(name, path);
        }
    }
    let facade = fs::read_to_string(dir.join("mod.rs")).unwrap_or_default();
    let mut reexports: BTreeMap<String, String> = BTreeMap::new();
    for stmt in code_only(&facade).split(';') {
        let stmt = stmt.trim();
        let Some(path) = ["pub use ", "pub(crate) use ", "pub(super) use "]
            .iter()
            .find_map(|p| stmt.strip_prefix(p))
        else {
            continue;
        };
        let Some((child, items)) = path.split_once("::") else {
            continue;
        };
        if !children.contains_key(child.trim()) {
            continue;
        }
        let items = items.trim().trim_start_matches('{').trim_end_matches('}');
        for item in items.split(',') {
            let name = item.rsplit("::").next().unwrap_or("").trim();
            let name = name.rsplit(" as ").next().unwrap_or(name).trim();
            if !name.is_empty() {
                reexports.insert(name.to_string(), child.trim().to_string());
            }
        }
    }
    let mut g = Graph::new();
    for (name, path) in &children {
        let edges = g.entry(name.clone()).or_default();
        for file in rs_files(path) {
            // How deep below the room the file's module is: `room/x.rs` and
            // `room/x/mod.rs` are 1, `room/x/y.rs` 2.
            let rel = file.strip_prefix(&dir).unwrap();
            let mut depth = rel.components().count();
            if rel.file_name().is_some_and(|f| f == "mod.rs") {
                depth -= 1;
            }
            // Code only, without its tests (a file's `#[cfg(test)]` module
            // closes it): a test may reach across the room.
            let text = fs::read_to_string(&file).unwrap();
            let code = code_only(text.split("#[cfg(test)]").next().unwrap_or(""));
            for segs in paths(&code) {
                let supers = segs.iter().take_while(|s| *s == "super").count();
                let head = if segs[0] == "crate" {
                    (segs.get(1).map(String::as_str) == Some(room)).then(|| segs.get(2))
                } else {
                    (supers == depth).then(|| segs.get(supers))
                };
                let Some(Some(head)) = head else { continue };
                let target = if children.contains_key(head) {
                    head.clone()
                } else if let Some(child) = reexports.get(head) {
                    child.clone()
                } else {
                    continue;
                };
                if &target != name {
                    let rel = file.strip_prefix(src).unwrap().to_path_buf();
                    edges.entry(target).or_insert(rel);
                }
            }
        }
    }
    g
}

/// Inside each room, the second-level modules import one another without
/// a circle too (`catalog::read` may import `catalog::rules`, never the
/// other way round), so a new circle inside a room fails here.
#[test]
fn second_level_modules_import_without_cycles() {
    let src = src();
    let mut found = Vec::new();
    let mut rooms = 0;
    for entry in fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        if !path.is_dir() {
            continue;
        }
        rooms += 1;
        let room = path.file_name().unwrap().to_string_lossy().to_string();
        let g = room_graph(&src, &room);
        for scc in cycles(&g) {
            found.push(format!(
                "{room}: {} modules in one cycle ({}), for example: {}",
                scc.len(),
                scc.iter().cloned().collect::<Vec<_>>().join(", "),
                name_cycle(&g, &scc)
            ));
        }
    }
    assert!(rooms > 5, "found the rooms of src/");
    let g = room_graph(&src, "catalog");
    assert!(
        g.contains_key("read") && g["read"].contains_key("rules"),
        "the checker sees catalog::read import catalog::rules: {g:?}"
    );
    assert!(
        found.is_empty(),
        "import cycles between the modules of one room (move what both need to a leaf module):\n{}",
        found.join("\n")
    );
}

/// The checker fails on a planted circle inside a room: `room::a` imports
/// `room::b` through `super::`, and `room::b` (one level deeper) imports
/// `room::a` through `crate::room::` and a re-export of the facade.
#[test]
fn a_planted_circle_inside_a_room_is_found() {
    let src = tempfile::tempdir().unwrap();
    let room = src.path().join("room");
    fs::create_dir_all(room.join("b")).unwrap();
    fs::write(
        room.join("mod.rs"),
        "mod a;\nmod b;\nmod c;\npub use a::Thing;\n",
    )
    .unwrap();
    fs::write(
        room.join("a.rs"),
        "use super::{b::deep::f, c};\npub struct Thing;\n",
    )
    .unwrap();
    fs::write(room.join("b/mod.rs"), "pub mod deep;\n").unwrap();
    fs::write(
        room.join("b/deep.rs"),
        "// crate::room::c is only a comment\npub fn f() -> crate::room::Thing { super::super::a::Thing }\n",
    )
    .unwrap();
    fs::write(room.join("c.rs"), "pub fn g() {}\n").unwrap();
    let g = room_graph(src.path(), "room");
    let found = cycles(&g);
    assert_eq!(found.len(), 1, "{g:?}");
    assert_eq!(found[0], BTreeSet::from(["a".to_string(), "b".to_string()]));
    assert!(
        !g["b"].contains_key("c"),
        "a comment is not an import: {g:?}"
    );
    assert_eq!(
        paths("use super::{a, b::c}; crate::x::y(); super::super::z;"),
        vec![
            vec!["crate", "x", "y"],
            vec!["super", "a"],
            vec!["super", "b", "c"],
            vec!["super", "super", "z"],
        ]
    );
}
