//! The judgement of one query's plan (docs/explain.md): the declared index
//! is the access path of every read of the declared table; no full table
//! scan, full index scan, skip scan or index merge of it; rows examined
//! within the bound; and a plan that never reads the table is not proof.

use super::plan::{Access, Method, PlanFacts};
use crate::ident::Ident;

/// Why a query failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// The plan never reads the table: it proves nothing.
    NotProof,
    /// Every row of the table is read.
    FullTableScan,
    /// Every entry of an index is read.
    FullIndexScan,
    /// A skip scan: the index's leading column is unconstrained.
    SkipScan,
    /// The server merged index scans (an OR across columns).
    IndexMerge,
    /// The table is read through another index than declared.
    OtherIndex,
    /// A declared index is not used by any read.
    IndexUnused,
    /// More rows examined than the bound.
    RowsExamined,
}

/// One reason a query failed, with the plan excerpt it rests on.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct Failure {
    /// Kind.
    pub kind: FailureKind,
    /// What the server chose instead and why that matters.
    pub message: String,
    /// The plan line(s) it rests on.
    pub excerpt: String,
}

/// The inputs of the judgement besides the plan.
pub struct Expectation<'a> {
    /// The declared table.
    pub table: &'a Ident,
    /// The declared index(es).
    pub uses: &'a [Ident],
    /// Bound on rows examined, where one applies.
    pub bound: Option<u64>,
    /// On fixture rows: how many were generated to match the query. A
    /// plan that then examines no row of the table matched none of them:
    /// it ran on nothing and proves nothing.
    pub matching: Option<u32>,
}

/// Rows actually examined on the table (sum over its reads), when every
/// read has an actual count.
pub fn rows_examined(facts: &PlanFacts, table: &Ident) -> Option<f64> {
    let reads: Vec<&Access> = reads_of(facts, table);
    if reads.is_empty() {
        return None;
    }
    reads.iter().map(|a| a.rows_actual).sum()
}

fn reads_of<'a>(facts: &'a PlanFacts, table: &Ident) -> Vec<&'a Access> {
    facts
        .accesses
        .iter()
        .filter(|a| Ident::new(a.table.clone()) == *table)
        .collect()
}

/// The plan lines of the table's reads, for a failure about all of them.
fn excerpts(reads: &[&Access]) -> String {
    reads
        .iter()
        .map(|a| a.excerpt.as_str())
        .collect::<Vec<_>>()
        .join("; ")
}

/// `, N rows examined` (actual) or `, about N rows estimated`, as the
/// server reported them for this read; empty when it reported neither.
fn rows_said(a: &Access) -> String {
    match (a.rows_actual, a.rows_estimate) {
        (Some(n), _) => format!(", {} rows examined", count(n)),
        (None, Some(n)) => format!(", about {} rows estimated", count(n)),
        (None, None) => String::new(),
    }
}

/// A row count as a whole number when it is one (servers report floats).
fn count(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n:.1}")
    }
}

fn declared(uses: &[Ident]) -> String {
    uses.iter()
        .map(|u| format!("`{u}`"))
        .collect::<Vec<_>>()
        .join(" / ")
}

/// Judges a plan; an empty list means the query passes.
pub fn judge(facts: &PlanFacts, want: &Expectation<'_>) -> Vec<Failure> {
    let reads = reads_of(facts, want.table);
    let uses = declared(want.uses);
    let mut out = Vec::new();
    if reads.is_empty() {
        let said = if facts.messages.is_empty() {
            "no read of it at all".to_string()
        } else {
            format!("\"{}\"", facts.messages.join("\", \""))
        };
        out.push(Failure {
            kind: FailureKind::NotProof,
            message: format!(
                "the plan never reads `{}` (the server says {said}): a constant or impossible WHERE, or a value resolved while planning, proves nothing about {uses}; give parameters that match rows and a WHERE the index can serve",
                want.table
            ),
            excerpt: said,
        });
        return out;
    }
    for a in &reads {
        let index = a.index.as_deref().unwrap_or("none");
        let declared_index = a
            .index
            .as_deref()
            .is_some_and(|i| want.uses.iter().any(|u| *u == Ident::new(i)));
        let rows = rows_said(a);
        let failure = match &a.method {
            Method::FullTableScan => Some((
                FailureKind::FullTableScan,
                format!(
                    "the server's plan is a full table scan of `{}`{rows}, not a seek of {uses}: every row is read, so the cost grows with the table, not with the rows the query wants; give the WHERE a condition on {uses}'s leading column(s) as they are (no function or cast on them)",
                    want.table
                ),
            )),
            Method::FullIndexScan if declared_index => Some((
                FailureKind::FullIndexScan,
                format!(
                    "the server's plan is a full index scan of `{index}`{rows}: it walks the declared index from one end instead of seeking it (stopping only at a LIMIT), because the WHERE as written gives it nothing to seek with (a function or cast on the column such as `BINARY col = BINARY ?`, an OR across columns, or no condition on the index's leading column)"
                ),
            )),
            Method::FullIndexScan => Some((
                FailureKind::FullIndexScan,
                format!(
                    "the server's plan is a full index scan of `{index}`{rows}, not a seek of {uses}: it walks `{index}` from one end and filters each row (typically to return rows in its order for an ORDER BY ... LIMIT), so the rows read depend on where the matches lie, not on an index; the WHERE as written cannot seek {uses} (a function or cast on a column, an OR across columns, or no condition on its leading column)"
                ),
            )),
            Method::SkipScan => Some((
                FailureKind::SkipScan,
                format!(
                    "the server's plan is a skip scan of `{index}`{rows}: the query does not constrain the index's leading column, so it probes every distinct leading value; constrain the leading column (e.g. the State the index begins with) or declare an index that begins with the filtered column"
                ),
            )),
            Method::IndexMerge => Some((
                FailureKind::IndexMerge,
                format!(
                    "the server's plan is an index merge{}{rows} for an OR across columns: the merge is not the declared access path and is not chosen reliably (on TiDB the same OR scanned 20,002 rows); write a UNION ALL of branches that each read through one index",
                    a.index.as_deref().map(|i| format!(" of `{i}`")).unwrap_or_default()
                ),
            )),
            Method::Lookup | Method::Range => (!declared_index).then(|| {
                (
                    FailureKind::OtherIndex,
                    format!(
                        "the server's plan reads `{}` through `{index}`{rows}, not {uses}: the declared index does not serve this query as written, or another index looks cheaper on these statistics",
                        want.table
                    ),
                )
            }),
            Method::Other(how) => Some((
                FailureKind::OtherIndex,
                format!(
                    "the server's plan reads `{}` by `{how}` (index `{index}`){rows}, which is not a seek of {uses}",
                    want.table
                ),
            )),
        };
        if let Some((kind, message)) = failure {
            out.push(Failure {
                kind,
                message,
                excerpt: a.excerpt.clone(),
            });
        }
    }
    if out.is_empty() {
        for u in want.uses {
            let used = reads
                .iter()
                .any(|a| a.index.as_deref().is_some_and(|i| Ident::new(i) == *u));
            if !used {
                out.push(Failure {
                    kind: FailureKind::IndexUnused,
                    message: format!(
                        "no read of `{}` goes through `{u}`, which the query declares",
                        want.table
                    ),
                    excerpt: excerpts(&reads),
                });
            }
        }
    }
    if let (Some(m), Some(rows)) = (want.matching, rows_examined(facts, want.table)) {
        if m > 0 && rows == 0.0 {
            out.push(Failure {
                kind: FailureKind::NotProof,
                message: format!(
                    "unproven: 0 rows of `{}` examined although the fixture holds {m} rows meant to match: none of them matched the query's predicates, so the plan ran on nothing and says nothing about {uses}; declare `fixture.values` for the columns the fixture does not cover (the value each predicate needs, `null` for `col IS NULL`), or check that the parameters can match",
                    want.table
                ),
                excerpt: excerpts(&reads),
            });
        }
    }
    if let (Some(bound), Some(rows)) = (want.bound, rows_examined(facts, want.table)) {
        if rows > bound as f64 {
            // After a scan the scan is the reason; "narrows too little"
            // only fits a read that did seek.
            let scanned = out.iter().any(|f| {
                matches!(
                    f.kind,
                    FailureKind::FullTableScan | FailureKind::FullIndexScan | FailureKind::SkipScan
                )
            });
            let why = if scanned {
                "the scan above reads them"
            } else {
                "the seek narrows too little for this query (an ORDER BY the index does not deliver, or a filter after the seek)"
            };
            out.push(Failure {
                kind: FailureKind::RowsExamined,
                message: format!(
                    "{} rows of `{}` examined, over the bound of {bound}: {why}",
                    count(rows),
                    want.table
                ),
                excerpt: excerpts(&reads),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn access(method: Method, index: &str, actual: f64) -> Access {
        Access {
            table: "t".into(),
            index: Some(index.into()),
            method,
            rows_estimate: None,
            rows_actual: Some(actual),
            excerpt: "x".into(),
        }
    }

    #[test]
    fn judgement() {
        let t = Ident::new("T");
        let uses = [Ident::new("ia")];
        let want = Expectation {
            table: &t,
            uses: &uses,
            bound: Some(10),
            matching: Some(5),
        };
        let good = PlanFacts {
            accesses: vec![access(Method::Lookup, "IA", 1.0)],
            messages: vec![],
        };
        assert!(judge(&good, &want).is_empty());
        let kinds = |f: &PlanFacts| judge(f, &want).iter().map(|x| x.kind).collect::<Vec<_>>();
        let scan = PlanFacts {
            accesses: vec![access(Method::FullIndexScan, "ia", 10000.0)],
            messages: vec![],
        };
        assert_eq!(
            kinds(&scan),
            vec![FailureKind::FullIndexScan, FailureKind::RowsExamined]
        );
        let other = PlanFacts {
            accesses: vec![access(Method::Range, "ib", 5.0)],
            messages: vec![],
        };
        assert_eq!(kinds(&other), vec![FailureKind::OtherIndex]);
        let messages: Vec<String> = judge(&scan, &want).into_iter().map(|f| f.message).collect();
        assert!(
            messages[0].starts_with("the server's plan is a full index scan of `ia`, 10000 rows examined: it walks the declared index from one end instead of seeking it"),
            "{messages:?}"
        );
        assert_eq!(
            messages[1],
            "10000 rows of `T` examined, over the bound of 10: the scan above reads them"
        );
        let primary = PlanFacts {
            accesses: vec![access(Method::FullIndexScan, "PRIMARY", 10001.0)],
            messages: vec![],
        };
        let message = &judge(&primary, &want)[0].message;
        assert!(
            message.starts_with("the server's plan is a full index scan of `PRIMARY`, 10001 rows examined, not a seek of `ia`"),
            "{message}"
        );
        let none = PlanFacts {
            accesses: vec![],
            messages: vec!["Impossible WHERE".into()],
        };
        assert_eq!(kinds(&none), vec![FailureKind::NotProof]);
        // Read through the index, but no fixture row matched: unproven.
        let nothing = PlanFacts {
            accesses: vec![access(Method::Range, "ia", 0.0)],
            messages: vec![],
        };
        assert_eq!(kinds(&nothing), vec![FailureKind::NotProof]);
        let f = &judge(&nothing, &want)[0];
        assert!(f.message.starts_with("unproven"), "{}", f.message);
    }
}
