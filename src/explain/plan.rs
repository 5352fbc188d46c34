//! Reading a server's plan into the facts the judgement needs: for every
//! read of a table, how it was read (lookup, range, full index scan, full
//! table scan, ...), through which index, and how many rows (estimated, and
//! actually examined where the server ran the statement); and any message
//! saying the plan reads nothing.
//!
//! Formats: MariaDB `EXPLAIN`/`ANALYZE FORMAT=JSON`; MySQL `EXPLAIN
//! FORMAT=JSON` in both its JSON formats (version 1 of MySQL 8.0, version 2
//! the default of MySQL 9) and the tree of `EXPLAIN ANALYZE`; TiDB in
//! [`super::tidb`].

use serde_json::Value;

/// How a table was read.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Equality lookup (ref, eq_ref, const, point get).
    Lookup,
    /// Index range scan.
    Range,
    /// Every entry of an index.
    FullIndexScan,
    /// Every row of the table.
    FullTableScan,
    /// Skip scan: the index's leading column is not constrained.
    SkipScan,
    /// Index merge (OR across indexes).
    IndexMerge,
    /// Something else, as the server names it.
    Other(String),
}

/// One read of a table in a plan.
#[derive(Debug, Clone, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct Access {
    /// Table name as the plan gives it.
    pub table: String,
    /// Index, when one is used (`PRIMARY` for the primary key).
    pub index: Option<String>,
    /// How.
    pub method: Method,
    /// The server's estimate of rows examined per scan.
    pub rows_estimate: Option<f64>,
    /// Rows actually examined (all loops), where the statement was run.
    pub rows_actual: Option<f64>,
    /// The plan line, as the server wrote it (for reports).
    pub excerpt: String,
}

/// What a plan says.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct PlanFacts {
    /// Every table read.
    pub accesses: Vec<Access>,
    /// Messages saying the plan reads nothing (`Impossible WHERE`,
    /// `no matching row in const table`, `TableDual`, ...).
    pub messages: Vec<String>,
}

/// Reads a JSON plan (MariaDB or MySQL, either format version).
pub fn from_json(text: &str) -> Result<PlanFacts, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("the plan is not JSON ({e})"))?;
    let mut facts = PlanFacts::default();
    walk(&v, &mut facts);
    Ok(facts)
}

fn walk(v: &Value, facts: &mut PlanFacts) {
    match v {
        Value::Object(map) => {
            for key in ["message", "zero_rows_cause"] {
                if let Some(m) = map.get(key).and_then(Value::as_str) {
                    facts.messages.push(m.to_string());
                }
            }
            if let Some(table) = map.get("table_name").and_then(Value::as_str) {
                facts.accesses.push(access(map, table));
            }
            for (key, child) in map {
                // MySQL v1's `attached_subqueries` etc. are walked like the rest.
                if key != "table_name" {
                    walk(child, facts);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|i| walk(i, facts)),
        _ => {}
    }
}

fn num(map: &serde_json::Map<String, Value>, key: &str) -> Option<f64> {
    map.get(key).and_then(|v| match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.parse().ok(),
        _ => None,
    })
}

fn access(map: &serde_json::Map<String, Value>, table: &str) -> Access {
    let s = |k: &str| map.get(k).and_then(Value::as_str).map(str::to_string);
    let access_type = s("access_type").unwrap_or_default();
    // Version 2 (MySQL 9): `index_access_type` and `operation`.
    let method = if let Some(kind) = s("index_access_type") {
        match kind.as_str() {
            "index_lookup" | "single_row_index_lookup" | "index_lookup_or_null" => Method::Lookup,
            "index_range_scan" => Method::Range,
            "index_scan" => Method::FullIndexScan,
            "index_skip_scan" | "group_index_skip_scan" => Method::SkipScan,
            other => Method::Other(other.to_string()),
        }
    } else if s("operation").is_some() {
        match access_type.as_str() {
            "table" => Method::FullTableScan,
            "index_merge" | "sort_union" | "union" | "intersect" => Method::IndexMerge,
            "constant_row" | "rows_fetched_before_execution" => Method::Lookup,
            other => Method::Other(other.to_string()),
        }
    } else {
        let skip = map
            .get("using_index_for_skip_scan")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        match access_type.as_str() {
            _ if skip => Method::SkipScan,
            "ref" | "eq_ref" | "const" | "system" | "ref_or_null" => Method::Lookup,
            "range" => Method::Range,
            "index" => Method::FullIndexScan,
            "ALL" => Method::FullTableScan,
            "index_merge" => Method::IndexMerge,
            other => Method::Other(other.to_string()),
        }
    };
    let index = s("key").or_else(|| s("index_name"));
    let rows_estimate = num(map, "rows_examined_per_scan")
        .or_else(|| num(map, "rows"))
        .or_else(|| num(map, "estimated_rows"));
    // MariaDB ANALYZE: r_rows is per loop.
    let rows_actual = num(map, "r_rows").map(|r| r * num(map, "r_loops").unwrap_or(1.0));
    let excerpt = match s("operation") {
        Some(op) => op,
        None => format!(
            "table {table}: access_type {access_type}, key {}, rows {}{}",
            index.as_deref().unwrap_or("none"),
            rows_estimate.map_or("?".into(), |r| r.to_string()),
            rows_actual.map_or(String::new(), |r| format!(", r_rows {r}")),
        ),
    };
    Access {
        table: table.to_string(),
        index,
        method,
        rows_estimate,
        rows_actual,
        excerpt,
    }
}

/// Adds MySQL `EXPLAIN ANALYZE` actual row counts to the accesses of
/// `facts` (read from version-1 JSON): each tree line reading a table
/// (`... on <table> [using <index>] ...`) with `(actual time=.. rows=N
/// loops=L)` adds N x L examined rows to the access of that table and index
/// (`Table scan on <table>` to the access without an index).
pub fn add_mysql_analyze(facts: &mut PlanFacts, tree: &str) {
    let mut totals: Vec<(String, Option<String>, f64)> = Vec::new();
    for line in tree.lines() {
        let line = line.trim().trim_start_matches("-> ");
        let Some(at) = line.find("(actual time=") else {
            continue;
        };
        let actual = &line[at..];
        let field = |name: &str| -> Option<f64> {
            let i = actual.find(name)? + name.len();
            let rest = &actual[i..];
            let end = rest
                .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == 'e' || c == '-'))
                .unwrap_or(rest.len());
            rest[..end].parse().ok()
        };
        let (Some(rows), Some(loops)) = (field(" rows="), field(" loops=")) else {
            continue;
        };
        let operation = &line[..at];
        let word_after = |marker: &str| -> Option<String> {
            let i = operation.find(marker)? + marker.len();
            operation[i..]
                .split_whitespace()
                .next()
                .map(|w| w.trim_matches('`').to_string())
        };
        let scans = ["scan on ", "lookup on "];
        if !scans.iter().any(|s| operation.contains(s)) {
            continue;
        }
        let Some(table) = word_after(" on ") else {
            continue;
        };
        let index = word_after(" using ");
        match totals
            .iter_mut()
            .find(|(t, i, _)| *t == table && *i == index)
        {
            Some(entry) => entry.2 += rows * loops,
            None => totals.push((table, index, rows * loops)),
        }
    }
    for a in &mut facts.accesses {
        let key = match a.method {
            Method::FullTableScan => None,
            _ => a.index.clone(),
        };
        if let Some((_, _, rows)) = totals.iter().find(|(t, i, _)| *t == a.table && *i == key) {
            a.rows_actual = Some(*rows);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mariadb_analyze_json() {
        let plan = r#"{"query_block": {"select_id": 1, "nested_loop": [{"table": {
            "table_name": "t", "access_type": "index", "key": "uk", "r_loops": 1,
            "rows": 10111, "r_rows": 10000, "attached_condition": "cast(t.K as char charset binary) = 'k5'"}}]}}"#;
        let f = from_json(plan).unwrap();
        assert_eq!(f.accesses.len(), 1);
        assert_eq!(f.accesses[0].method, Method::FullIndexScan);
        assert_eq!(f.accesses[0].index.as_deref(), Some("uk"));
        assert_eq!(f.accesses[0].rows_actual, Some(10000.0));
        let none = from_json(
            r#"{"query_block": {"select_id": 1, "table": {"message": "Impossible WHERE"}}}"#,
        )
        .unwrap();
        assert!(none.accesses.is_empty());
        assert_eq!(none.messages, vec!["Impossible WHERE".to_string()]);
    }

    #[test]
    fn mysql_v2_json_and_analyze_tree() {
        let plan = r#"{"query_plan": {"limit": 1, "inputs": [{"operation": "Covering index lookup on t using ia (A = 'a1', S = 's1')",
            "index_name": "ia", "table_name": "t", "access_type": "index", "estimated_rows": 200.0,
            "index_access_type": "index_lookup"}], "operation": "Limit: 1 row(s)", "access_type": "limit"}}"#;
        let f = from_json(plan).unwrap();
        assert_eq!(f.accesses[0].method, Method::Lookup);
        let v1 = r#"{"query_block": {"select_id": 1, "table": {"table_name": "t", "access_type": "ref",
            "key": "ia", "rows_examined_per_scan": 200}}}"#;
        let mut f = from_json(v1).unwrap();
        let tree = "-> Limit: 1 row(s)  (cost=21.5 rows=1) (actual time=0.0206..0.0207 rows=1 loops=1)\n    -> Covering index lookup on t using ia (A = 'a1', S = 's1')  (cost=21.5 rows=200) (actual time=0.0194..0.0194 rows=1 loops=1)";
        add_mysql_analyze(&mut f, tree);
        assert_eq!(f.accesses[0].rows_actual, Some(1.0));
        let scan = r#"{"query_plan": {"operation": "Table scan on t", "table_name": "t", "access_type": "table", "estimated_rows": 10000}}"#;
        assert_eq!(
            from_json(scan).unwrap().accesses[0].method,
            Method::FullTableScan
        );
        let zero = r#"{"query_plan": {"operation": "Zero rows (Impossible WHERE)", "access_type": "zero_rows", "zero_rows_cause": "Impossible WHERE"}}"#;
        assert_eq!(
            from_json(zero).unwrap().messages,
            vec!["Impossible WHERE".to_string()]
        );
    }

    #[test]
    fn mysql_v1_json() {
        let plan = r#"{"query_block": {"select_id": 1, "table": {"table_name": "t", "access_type": "range",
            "key": "ise", "rows_examined_per_scan": 3234, "using_index_for_skip_scan": true}}}"#;
        assert_eq!(
            from_json(plan).unwrap().accesses[0].method,
            Method::SkipScan
        );
    }
}
