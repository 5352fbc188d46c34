//! Dependency order of tables by their foreign keys: a table is created
//! after every table it references (InnoDB and TiDB refuse a foreign key
//! to a table that does not exist yet while `foreign_key_checks` is on,
//! and the tool never turns it off). A table referencing itself needs
//! nothing first. Catalog lint refuses cycles among distinct tables
//! ([`cycles`]), so an order always exists for a valid catalog.

use std::collections::{HashMap, VecDeque};

use crate::ident::Ident;
use crate::model::Table;

/// For each table, the positions (in `tables`) of the other tables its
/// foreign keys reference, in foreign-key order, each once. Referenced
/// tables are looked up by folded name (the first table of that name).
fn edges(tables: &[&Table]) -> Vec<Vec<usize>> {
    let mut by_name: HashMap<&str, usize> = HashMap::with_capacity(tables.len());
    for (i, t) in tables.iter().enumerate() {
        by_name.entry(t.name.folded()).or_insert(i);
    }
    tables
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let mut out: Vec<usize> = Vec::new();
            for fk in t
                .foreign_keys
                .iter()
                .filter(|f| f.referenced_schema.is_none())
            {
                if let Some(&j) = by_name.get(fk.referenced_table.folded()) {
                    if j != i && !out.contains(&j) {
                        out.push(j);
                    }
                }
            }
            out
        })
        .collect()
}

/// The positions of `tables` in creation order: referenced tables first,
/// otherwise the given order (a table is moved only as far as a table that
/// needs it). A cycle (which lint refuses) is broken at the table met
/// again, so every table is listed exactly once.
pub fn creation_order(tables: &[&Table]) -> Vec<usize> {
    fn visit(i: usize, edges: &[Vec<usize>], state: &mut [u8], out: &mut Vec<usize>) {
        if state[i] != 0 {
            return;
        }
        state[i] = 1;
        for &j in &edges[i] {
            visit(j, edges, state, out);
        }
        state[i] = 2;
        out.push(i);
    }
    let edges = edges(tables);
    let mut state = vec![0u8; tables.len()];
    let mut out = Vec::with_capacity(tables.len());
    for i in 0..tables.len() {
        visit(i, &edges, &mut state, &mut out);
    }
    out
}

/// Every cycle among distinct tables, one per strongly connected group:
/// the table names along one shortest cycle, starting from the group's
/// first table by name. Groups come in name order of their first table.
pub fn cycles(tables: &[&Table]) -> Vec<Vec<Ident>> {
    let edges = edges(tables);
    let group = strongly_connected(&edges);
    // A group of two or more tables holds a cycle (self references are
    // not edges). Its start: its first table by name.
    let mut size = vec![0usize; tables.len()];
    for &g in &group {
        size[g] += 1;
    }
    let mut start: Vec<Option<usize>> = vec![None; tables.len()];
    for (i, &g) in group.iter().enumerate() {
        if size[g] > 1 && start[g].is_none_or(|s| tables[i].name < tables[s].name) {
            start[g] = Some(i);
        }
    }
    let mut starts: Vec<usize> = start.into_iter().flatten().collect();
    starts.sort_by(|a, b| tables[*a].name.cmp(&tables[*b].name));
    starts
        .into_iter()
        .map(|s| {
            // Breadth-first from s's successors back to s, within its group
            // (no table outside it leads back to s).
            let mut parent: HashMap<usize, usize> = HashMap::new();
            let mut queue: VecDeque<usize> = VecDeque::new();
            for &v in edges[s].iter().filter(|v| group[**v] == group[s]) {
                if let std::collections::hash_map::Entry::Vacant(e) = parent.entry(v) {
                    e.insert(s);
                    queue.push_back(v);
                }
            }
            while let Some(v) = queue.pop_front() {
                if v == s {
                    break;
                }
                for &w in edges[v].iter().filter(|w| group[**w] == group[s]) {
                    if let std::collections::hash_map::Entry::Vacant(e) = parent.entry(w) {
                        e.insert(v);
                        queue.push_back(w);
                    }
                }
            }
            let mut path = Vec::new();
            let mut v = parent.get(&s).copied();
            while let Some(p) = v {
                if p == s {
                    break;
                }
                path.push(p);
                v = parent.get(&p).copied();
            }
            path.push(s);
            path.reverse();
            path.into_iter().map(|i| tables[i].name.clone()).collect()
        })
        .collect()
}

/// The strongly connected group of each node (Tarjan's algorithm, without
/// recursion, so a long chain of foreign keys cannot exhaust the stack):
/// linear in tables and foreign keys.
fn strongly_connected(edges: &[Vec<usize>]) -> Vec<usize> {
    const UNSEEN: usize = usize::MAX;
    let n = edges.len();
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut group = vec![UNSEEN; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut next = 0;
    let mut groups = 0;
    // (node, position of the next edge to follow)
    let mut calls: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        calls.push((root, 0));
        while let Some(&mut (v, ref mut e)) = calls.last_mut() {
            if *e == 0 && index[v] == UNSEEN {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = edges[v].get(*e) {
                *e += 1;
                if index[w] == UNSEEN {
                    calls.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    group[w] = groups;
                    if w == v {
                        break;
                    }
                }
                groups += 1;
            }
        }
    }
    group
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Table `name` whose column `a` references `b` of each of `refs`.
    fn table(name: &str, refs: &[&str]) -> Table {
        let fks: String = refs
            .iter()
            .enumerate()
            .map(|(i, r)| {
                format!(
                    ", CONSTRAINT `fk_{name}_{i}` FOREIGN KEY (`a`) REFERENCES `{r}` (`b`) \
                     ON DELETE RESTRICT ON UPDATE RESTRICT"
                )
            })
            .collect();
        crate::dump::table(&format!(
            "CREATE TABLE `{name}` (`a` int{fks}) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
        ))
    }

    fn names(tables: &[Table]) -> Vec<String> {
        let refs: Vec<&Table> = tables.iter().collect();
        creation_order(&refs)
            .into_iter()
            .map(|i| tables[i].name.to_string())
            .collect()
    }

    #[test]
    fn referenced_tables_come_first() {
        let tables = vec![
            table("Attempt", &["Item"]),
            table("Item", &["Queue", "Item"]),
            table("Other", &[]),
            table("Queue", &["External"]),
        ];
        assert_eq!(names(&tables), ["Queue", "Item", "Attempt", "Other"]);
        let refs: Vec<&Table> = tables.iter().collect();
        assert!(cycles(&refs).is_empty(), "a self reference is no cycle");
    }

    #[test]
    fn cycles_are_named_once_each() {
        let tables = [
            table("A", &["B"]),
            table("B", &["C"]),
            table("C", &["A"]),
            table("D", &["E"]),
            table("E", &["D"]),
            table("F", &["A"]),
        ];
        let refs: Vec<&Table> = tables.iter().collect();
        let found: Vec<Vec<String>> = cycles(&refs)
            .into_iter()
            .map(|c| c.into_iter().map(|i| i.to_string()).collect())
            .collect();
        assert_eq!(found, vec![vec!["A", "B", "C"], vec!["D", "E"]]);
        assert_eq!(creation_order(&refs).len(), 6, "every table once");
    }

    /// A cycle through many tables is found without recursion (no stack to
    /// exhaust) and named from its first table by name; a table outside the
    /// group that references into it is not on the cycle; names fold.
    #[test]
    fn a_long_cycle_is_found_from_its_first_table() {
        let n = 20_000;
        let name = |i: usize| format!("T{:05}", i % n);
        let mut tables: Vec<Table> = (0..n)
            .rev()
            .map(|i| table(&name(i), &[&name(i + 1).to_lowercase()]))
            .collect();
        tables.push(table("A_outside", &["t00007"]));
        let refs: Vec<&Table> = tables.iter().collect();
        let found = cycles(&refs);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].len(), n);
        assert_eq!(found[0][0].as_str(), "T00000");
        assert_eq!(found[0][1].as_str(), "T00001");
        assert_eq!(found[0][n - 1].as_str(), "T19999");
    }
}
