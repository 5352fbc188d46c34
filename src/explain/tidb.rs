//! TiDB's `EXPLAIN ANALYZE` result read into [`PlanFacts`], coded from its
//! documented output (docs.pingcap.com, "EXPLAIN ANALYZE" and "Understand
//! the query execution plan"): one row per operator with the columns `id`,
//! `estRows`, `actRows`, `task`, `access object`, `execution info`,
//! `operator info`, `memory`, `disk`; `id` is the operator name with a
//! numeric suffix and a tree prefix (`└─IndexRangeScan_8`), `access object`
//! reads `table:t, index:idx(a, b)`. Not run against a TiDB server here (no
//! TiDB in this project's test setup); its unit tests use documented rows.

use super::plan::{Access, Method, PlanFacts};

/// One row of `EXPLAIN ANALYZE`: id, estRows, actRows, access object, operator info.
pub struct Row<'a> {
    /// `id`.
    pub id: &'a str,
    /// `estRows`.
    pub est_rows: &'a str,
    /// `actRows` (empty for plain EXPLAIN).
    pub act_rows: &'a str,
    /// `access object`.
    pub access_object: &'a str,
    /// `operator info`.
    pub operator_info: &'a str,
}

/// Reads TiDB plan rows.
pub fn from_rows(rows: &[Row<'_>]) -> PlanFacts {
    let mut facts = PlanFacts::default();
    for row in rows {
        let op = operator(row.id);
        if op == "TableDual" {
            facts
                .messages
                .push(format!("TableDual ({})", row.operator_info.trim()));
            continue;
        }
        let Some(table) = field(row.access_object, "table:") else {
            continue;
        };
        let index = field(row.access_object, "index:")
            .map(|i| i.split('(').next().unwrap_or(&i).trim().to_string());
        let method = match op.as_str() {
            "TableFullScan" => Method::FullTableScan,
            "IndexFullScan" => Method::FullIndexScan,
            "IndexRangeScan" => Method::Range,
            "TableRangeScan" => Method::Range,
            "Point_Get" | "Batch_Point_Get" => Method::Lookup,
            // The row fetch of an IndexLookUp: judged by its index side.
            "TableRowIDScan" => continue,
            "IndexMerge" => Method::IndexMerge,
            other => Method::Other(other.to_string()),
        };
        let index = match (&method, index) {
            (Method::Lookup | Method::Range, None) => Some("PRIMARY".to_string()),
            (_, i) => i,
        };
        facts.accesses.push(Access {
            table,
            index,
            method,
            rows_estimate: row.est_rows.trim().parse().ok(),
            rows_actual: row.act_rows.trim().parse().ok(),
            excerpt: format!(
                "{} {} {}",
                row.id.trim(),
                row.access_object.trim(),
                row.operator_info.trim()
            ),
        });
    }
    facts
}

/// `└─IndexRangeScan_8(Build)` -> `IndexRangeScan`; `Point_Get_1` -> `Point_Get`.
fn operator(id: &str) -> String {
    let name = id
        .trim_start_matches(|c: char| !c.is_ascii_alphabetic())
        .split('(')
        .next()
        .unwrap_or("");
    match name.rsplit_once('_') {
        Some((head, tail)) if tail.chars().all(|c| c.is_ascii_digit()) => head.to_string(),
        _ => name.to_string(),
    }
}

/// The value of `key` in `table:t, index:idx(a, b)`.
fn field(access_object: &str, key: &str) -> Option<String> {
    let at = access_object.find(key)? + key.len();
    let rest = &access_object[at..];
    let mut depth = 0usize;
    let end = rest
        .char_indices()
        .find(|&(_, c)| {
            match c {
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                _ => {}
            }
            c == ',' && depth == 0
        })
        .map_or(rest.len(), |(i, _)| i);
    Some(rest[..end].trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row<'a>(id: &'a str, est: &'a str, act: &'a str, obj: &'a str, info: &'a str) -> Row<'a> {
        Row {
            id,
            est_rows: est,
            act_rows: act,
            access_object: obj,
            operator_info: info,
        }
    }

    #[test]
    fn documented_plans() {
        let lookup = [
            row("IndexLookUp_10", "10.00", "1", "", ""),
            row(
                "├─IndexRangeScan_8(Build)",
                "10.00",
                "1",
                "table:t, index:idx_a(a, b)",
                "range:[1,1], keep order:false",
            ),
            row(
                "└─TableRowIDScan_9(Probe)",
                "10.00",
                "1",
                "table:t",
                "keep order:false",
            ),
        ];
        let f = from_rows(&lookup);
        assert_eq!(f.accesses.len(), 1);
        assert_eq!(f.accesses[0].method, Method::Range);
        assert_eq!(f.accesses[0].index.as_deref(), Some("idx_a"));
        assert_eq!(f.accesses[0].rows_actual, Some(1.0));
        let full = [row(
            "└─IndexFullScan_5",
            "10000.00",
            "10000",
            "table:l, index:uq_link(LinkKey)",
            "keep order:false",
        )];
        assert_eq!(from_rows(&full).accesses[0].method, Method::FullIndexScan);
        let point = [row("Point_Get_1", "1.00", "1", "table:t1", "handle:1")];
        let f = from_rows(&point);
        assert_eq!(
            (f.accesses[0].method.clone(), f.accesses[0].index.as_deref()),
            (Method::Lookup, Some("PRIMARY"))
        );
        let dual = [row("TableDual_6", "1.00", "1", "", "rows:1")];
        let f = from_rows(&dual);
        assert!(f.accesses.is_empty());
        assert_eq!(f.messages, vec!["TableDual (rows:1)".to_string()]);
    }
}
