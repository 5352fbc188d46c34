//! Dependency order of tables by their foreign keys: a table is created
//! after every table it references (InnoDB and TiDB refuse a foreign key
//! to a table that does not exist yet while `foreign_key_checks` is on,
//! and the tool never turns it off). A table referencing itself needs
//! nothing first. Catalog lint refuses cycles among distinct tables
//! ([`cycles`]), so an order always exists for a valid catalog.

use std::collections::VecDeque;

use crate::ident::Ident;
use crate::model::Table;

/// For each table, the positions (in `tables`) of the other tables its
/// foreign keys reference, in foreign-key order, each once.
fn edges(tables: &[&Table]) -> Vec<Vec<usize>> {
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
                if let Some(j) = tables.iter().position(|p| p.name == fk.referenced_table) {
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
    let n = tables.len();
    let reach: Vec<Vec<bool>> = (0..n)
        .map(|s| {
            let mut seen = vec![false; n];
            let mut stack = edges[s].clone();
            while let Some(v) = stack.pop() {
                if !seen[v] {
                    seen[v] = true;
                    stack.extend(edges[v].iter().copied());
                }
            }
            seen
        })
        .collect();
    let mut done = vec![false; n];
    let mut starts: Vec<usize> = Vec::new();
    let mut by_name: Vec<usize> = (0..n).collect();
    by_name.sort_by(|a, b| tables[*a].name.cmp(&tables[*b].name));
    for &i in &by_name {
        if done[i] || !reach[i][i] {
            continue;
        }
        for j in 0..n {
            if reach[i][j] && reach[j][i] {
                done[j] = true;
            }
        }
        starts.push(i);
    }
    starts
        .into_iter()
        .map(|s| {
            // Breadth-first from s's successors back to s.
            let mut parent: Vec<Option<usize>> = vec![None; n];
            let mut queue: VecDeque<usize> = VecDeque::new();
            for &v in &edges[s] {
                if parent[v].is_none() {
                    parent[v] = Some(s);
                    queue.push_back(v);
                }
            }
            while let Some(v) = queue.pop_front() {
                if v == s {
                    break;
                }
                for &w in &edges[v] {
                    if parent[w].is_none() {
                        parent[w] = Some(v);
                        queue.push_back(w);
                    }
                }
            }
            let mut path = Vec::new();
            let mut v = parent[s];
            while let Some(p) = v {
                if p == s {
                    break;
                }
                path.push(p);
                v = parent[p];
            }
            path.push(s);
            path.reverse();
            path.into_iter().map(|i| tables[i].name.clone()).collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ForeignKey, ReferentialAction};

    fn table(name: &str, refs: &[&str]) -> Table {
        let mut t = Table::not_a_table(name.into(), "BASE TABLE");
        t.kind = crate::model::TableKind::Base;
        t.foreign_keys = refs
            .iter()
            .enumerate()
            .map(|(i, r)| ForeignKey {
                name: format!("fk_{name}_{i}").into(),
                columns: vec!["a".into()],
                referenced_schema: None,
                referenced_table: (*r).into(),
                referenced_columns: vec!["b".into()],
                on_delete: ReferentialAction::Restrict,
                on_update: ReferentialAction::Restrict,
            })
            .collect();
        t
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
}
