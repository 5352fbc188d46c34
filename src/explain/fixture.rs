//! Synthetic rows for `catalog explain --scratch`, deterministic from a seed:
//! rows matching a query's parameters (default 1,000) and rows matching
//! nothing (default 10,000), generated from the column types and the way
//! each parameter binds (equality or range) and the columns compared
//! `IS NULL` (NULL in the matching rows), with declared example values
//! (`fixture.values`) over the generated ones (in the matching rows, and in
//! every row of a column the query does not constrain).

use std::collections::BTreeMap;

use crate::catalog::Query;
use crate::coltype::{ColumnType, IntKind};
use crate::ident::Ident;
use crate::model::Table;
use crate::sql::query::{Cmp, Param};

/// Default matching rows.
pub const MATCHING: u32 = 1_000;

/// The rows to insert into one table for one query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fixture {
    /// Columns, in insert order (auto-increment and generated ones left out).
    pub columns: Vec<Ident>,
    /// Values (`None` is NULL), one per column.
    pub rows: Vec<Vec<Option<String>>>,
    /// How many of `rows` match the query.
    pub matching: u32,
}

/// A small deterministic generator (splitmix64): the same seed gives the
/// same rows on every machine; no statistical quality is needed here.
struct Seq(u64);

impl Seq {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// Which side of a range parameter a value lies on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Low,
    High,
}

/// How one column is constrained by the query.
enum Bound {
    Eq(Param),
    Range {
        matching: Side,
    },
    /// `col IS NULL`: the matching rows hold NULL, unrelated ones a value.
    Null,
}

/// The rows for `query` on `table`; an error names a column whose type
/// cannot be generated (declare `fixture.values` for it).
pub fn generate(table: &Table, query: &Query, seed: u64) -> Result<Fixture, String> {
    let mut bounds: BTreeMap<Ident, Bound> = BTreeMap::new();
    for (binding, param) in query.shape.bindings.iter().zip(&query.params) {
        let Some((col, cmp)) = &binding.column else {
            continue;
        };
        let bound = match cmp {
            Cmp::Eq => Bound::Eq(param.clone()),
            Cmp::Lt | Cmp::Le => Bound::Range {
                matching: Side::Low,
            },
            Cmp::Gt | Cmp::Ge => Bound::Range {
                matching: Side::High,
            },
        };
        // An equality wins over a range on the same column.
        if !matches!(bounds.get(col), Some(Bound::Eq(_))) {
            bounds.insert(col.clone(), bound);
        }
    }
    // `col IS NULL` (a nullable column not bound by a parameter): without
    // NULLs in the matching rows, no row would match and the plan would be
    // judged on nothing.
    for col in &query.shape.null_columns {
        let nullable = table.column(col).is_some_and(|c| c.nullable);
        if nullable && !bounds.contains_key(col) {
            bounds.insert(col.clone(), Bound::Null);
        }
    }
    let unique_cols: Vec<&Ident> = table
        .indexes
        .iter()
        .filter(|i| i.unique)
        .flat_map(|i| i.parts.iter().filter_map(|p| p.column_name()))
        .chain(table.primary_key.iter().filter_map(|p| p.column_name()))
        .collect();
    // A unique key bound by equality in every column admits one matching row.
    let point = table
        .indexes
        .iter()
        .filter(|i| i.unique)
        .map(|i| {
            i.parts
                .iter()
                .filter_map(|p| p.column_name())
                .collect::<Vec<_>>()
        })
        .chain(std::iter::once(
            table
                .primary_key
                .iter()
                .filter_map(|p| p.column_name())
                .collect(),
        ))
        .any(|cols| {
            !cols.is_empty()
                && cols
                    .iter()
                    .all(|c| matches!(bounds.get(*c), Some(Bound::Eq(_))))
        });
    let matching = query
        .fixture
        .matching
        .unwrap_or(if point { 1 } else { MATCHING });
    let columns: Vec<&crate::model::Column> = table
        .columns
        .iter()
        .filter(|c| !c.auto_increment && c.generated.is_none())
        .collect();
    let mut seq = Seq(seed);
    let total = u64::from(matching) + u64::from(query.fixture.unrelated);
    let mut rows = Vec::with_capacity(total as usize);
    // The bound columns present in the insert; an unrelated row breaks a
    // random non-empty subset of them, so no single column's index sees
    // all the unrelated rows as excluded.
    let bound_cols: Vec<&Ident> = columns
        .iter()
        .map(|c| &c.name)
        .filter(|n| bounds.contains_key(*n))
        .collect();
    let subsets = 1u64 << bound_cols.len().min(16);
    for n in 0..total {
        let row_matches = n < u64::from(matching);
        let broken = if row_matches || subsets < 2 {
            0
        } else {
            1 + seq.below(subsets - 1)
        };
        let mut row = Vec::with_capacity(columns.len());
        for c in &columns {
            let unique = unique_cols.contains(&&c.name);
            // A unique column bound by equality breaks in every unrelated
            // row: the matching row holds the parameter's value.
            let unique_eq = unique && matches!(bounds.get(&c.name), Some(Bound::Eq(_)));
            let breaks = !row_matches
                && (unique_eq
                    || bound_cols
                        .iter()
                        .position(|b| **b == c.name)
                        .is_some_and(|i| broken & (1 << i) != 0));
            let is_match = !breaks;
            let value = match (
                is_match,
                query.fixture.values.get(&c.name),
                bounds.get(&c.name),
            ) {
                (true, Some(v), _) => v.text().map(str::to_string),
                (true, None, Some(Bound::Eq(p))) => p.text().map(str::to_string),
                (true, None, Some(Bound::Null)) => None,
                (false, declared, Some(Bound::Null)) => Some(
                    match (
                        declared.and_then(Param::text),
                        value(&c.ty, n, &mut seq, unique),
                    ) {
                        (_, Some(v)) => v,
                        (Some(v), None) => v.to_string(),
                        (None, None) => return Err(cannot(c)),
                    },
                ),
                // A column the query does not constrain: a declared value
                // serves every row (unless it must be unique per row).
                (false, Some(v), None) if !unique => v.text().map(str::to_string),
                (false, _, Some(Bound::Eq(p))) => Some(other_than(
                    &c.ty,
                    p.text().unwrap_or(""),
                    n,
                    &mut seq,
                    unique,
                )?),
                (_, _, Some(Bound::Range { matching })) => {
                    let side = match (is_match, matching) {
                        (true, s) => *s,
                        (false, Side::Low) => Side::High,
                        (false, Side::High) => Side::Low,
                    };
                    Some(ranged(&c.ty, side, &mut seq).ok_or_else(|| cannot(c))?)
                }
                _ => Some(value(&c.ty, n, &mut seq, unique).ok_or_else(|| cannot(c))?),
            };
            row.push(value);
        }
        rows.push(row);
    }
    Ok(Fixture {
        columns: columns.iter().map(|c| c.name.clone()).collect(),
        rows,
        matching,
    })
}

fn cannot(c: &crate::model::Column) -> String {
    format!(
        "cannot generate values for column `{}` of type {}: declare `fixture.values` for it",
        c.name, c.ty
    )
}

/// A value of `ty` unlike `param` (for rows that must not match).
fn other_than(
    ty: &ColumnType,
    param: &str,
    n: u64,
    seq: &mut Seq,
    unique: bool,
) -> Result<String, String> {
    // A closed set of values: another member, in turn (a random draw from
    // two members would repeat the parameter's now and then).
    let closed: Option<Vec<String>> = match ty {
        ColumnType::Enum(m) | ColumnType::Set(m) => Some(m.clone()),
        ColumnType::Boolean => Some(vec!["0".into(), "1".into()]),
        _ => None,
    };
    if let Some(members) = closed {
        let others: Vec<&String> = members
            .iter()
            .filter(|m| !m.eq_ignore_ascii_case(param))
            .collect();
        if !others.is_empty() {
            return Ok(others[(n % others.len() as u64) as usize].clone());
        }
    }
    for _ in 0..8 {
        if let Some(v) = value(ty, n, seq, unique) {
            if v != param {
                return Ok(v);
            }
        }
    }
    Err(format!(
        "cannot generate a {} value other than `{param}` for the rows that must not match: the type admits no other value; query a value the column can differ from",
        ty
    ))
}

/// A value on one side of any parameter within 2009..2089 (dates) or of
/// moderate numbers: low values lie in 2000..2008 / 0..999, high ones in
/// 2090..2098 / 10^9.., so the parameter must lie between.
fn ranged(ty: &ColumnType, side: Side, seq: &mut Seq) -> Option<String> {
    let year = match side {
        Side::Low => 2000 + seq.below(9),
        Side::High => 2090 + seq.below(9),
    };
    Some(match ty {
        ColumnType::Date => format!("{year}-{:02}-{:02}", 1 + seq.below(12), 1 + seq.below(28)),
        ColumnType::DateTime(_) | ColumnType::Timestamp(_) => {
            // TIMESTAMP ends in 2038: keep its high side inside its range.
            let year = match (ty, side) {
                (ColumnType::Timestamp(_), Side::High) => 2036,
                (ColumnType::Timestamp(_), Side::Low) => 1990 + seq.below(9),
                _ => year,
            };
            datetime(year, seq)
        }
        ColumnType::Int { .. }
        | ColumnType::Decimal { .. }
        | ColumnType::Float
        | ColumnType::Double => match side {
            Side::Low => seq.below(1000).to_string(),
            Side::High => (1_000_000_000 + seq.below(1000)).to_string(),
        },
        _ => return None,
    })
}

fn datetime(year: u64, seq: &mut Seq) -> String {
    format!(
        "{year}-{:02}-{:02} {:02}:{:02}:{:02}",
        1 + seq.below(12),
        1 + seq.below(28),
        seq.below(24),
        seq.below(60),
        seq.below(60)
    )
}

/// A plain value of `ty`: drawn from a small pool (so an index sees
/// repeats), or unique per row (`n`) for a column of a unique key.
fn value(ty: &ColumnType, n: u64, seq: &mut Seq, unique: bool) -> Option<String> {
    let pick = if unique { n } else { seq.below(50) };
    let text = |len: u32| -> String {
        let v = if unique {
            format!("u{n:07}")
        } else {
            format!("v{pick}")
        };
        v.chars().take(len.max(1) as usize).collect()
    };
    Some(match ty {
        ColumnType::Int { kind, unsigned } => {
            let max = match kind {
                IntKind::Tiny => 100,
                _ => 1_000_000,
            };
            let v = if unique { n + 1 } else { seq.below(max) };
            if *unsigned || unique {
                v.to_string()
            } else {
                (v as i64 - (max as i64) / 2).to_string()
            }
        }
        ColumnType::Boolean => (pick % 2).to_string(),
        ColumnType::Decimal { scale, .. } => {
            if *scale > 0 {
                format!("{}.{}", pick % 100, pick % 10)
            } else {
                (pick % 100).to_string()
            }
        }
        ColumnType::Float | ColumnType::Double => (pick % 1000).to_string(),
        ColumnType::Char(len)
        | ColumnType::Varchar(len)
        | ColumnType::Binary(len)
        | ColumnType::Varbinary(len) => text(*len),
        ColumnType::Text
        | ColumnType::MediumText
        | ColumnType::LongText
        | ColumnType::Blob
        | ColumnType::MediumBlob
        | ColumnType::LongBlob => text(64),
        ColumnType::Json => format!("{{\"n\": {pick}}}"),
        ColumnType::TinyText | ColumnType::TinyBlob => text(64),
        // One member per row (a SET value of one member): every member
        // appears, so a parameter's member matches and others do not.
        ColumnType::Enum(members) | ColumnType::Set(members) if !members.is_empty() => {
            let i = if unique {
                n
            } else {
                seq.below(members.len() as u64)
            };
            members[(i % members.len() as u64) as usize].clone()
        }
        ColumnType::Year => (1901 + pick % 250).to_string(),
        ColumnType::Time(_) => {
            format!("{:02}:{:02}:{:02}", pick % 24, seq.below(60), seq.below(60))
        }
        ColumnType::Date => format!("2025-{:02}-{:02}", 1 + seq.below(12), 1 + seq.below(28)),
        ColumnType::DateTime(_) | ColumnType::Timestamp(_) => datetime(2025, seq),
        #[allow(unreachable_patterns)]
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::FixtureSpec;
    use crate::sql::query as sql;

    fn query(sql_text: &str, params: Vec<Param>) -> Query {
        Query {
            name: "q".into(),
            required_by: vec![],
            sql: sql_text.into(),
            params,
            uses: vec![Ident::new("i")],
            max_rows_examined: None,
            fixture: FixtureSpec {
                matching: None,
                unrelated: 100,
                values: BTreeMap::new(),
            },
            shape: sql::analyze(sql_text).unwrap(),
        }
    }

    /// `T`: an AUTO_INCREMENT key, a unique `K`, nullable `S` and `At`,
    /// and `extra` columns after them.
    fn table_with(extra: &str) -> Table {
        crate::dump::table(&format!(
            "CREATE TABLE T (Id bigint unsigned NOT NULL AUTO_INCREMENT, K varchar(16), \
             S varchar(8), At datetime(6){extra}, PRIMARY KEY (Id), UNIQUE KEY uk (K)) \
             DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
        ))
    }

    fn table() -> Table {
        table_with("")
    }

    #[test]
    fn matching_rows_match_and_unrelated_do_not() {
        let q = query(
            "SELECT Id FROM T WHERE S = ? AND At <= ?",
            vec![
                Param::Text("a".into()),
                Param::Text("2026-01-01 00:00:00".into()),
            ],
        );
        let f = generate(&table(), &q, 7).unwrap();
        assert_eq!(f.matching, MATCHING);
        assert_eq!(f.rows.len(), 1_100);
        assert_eq!(f.columns.len(), 3, "auto-increment Id is left out");
        let matches = |r: &Vec<Option<String>>| {
            r[1].as_deref() == Some("a") && r[2].as_deref().unwrap() <= "2026-01-01 00:00:00"
        };
        assert!(f.rows[..1000].iter().all(matches));
        assert!(!f.rows[1000..].iter().any(matches));
        let keys: std::collections::BTreeSet<_> = f.rows.iter().map(|r| r[0].clone()).collect();
        assert_eq!(keys.len(), f.rows.len(), "unique column values are unique");
        assert_eq!(
            f,
            generate(&table(), &q, 7).unwrap(),
            "deterministic from the seed"
        );
    }

    #[test]
    fn enum_columns_and_is_null_predicates_are_covered() {
        let t = table_with(", State enum('queued','running','done'), LeasedAt datetime(6)");
        let q = query(
            "SELECT Id FROM T WHERE State = ? AND LeasedAt IS NULL",
            vec![Param::Text("queued".into())],
        );
        let f = generate(&t, &q, 3).unwrap();
        let (state, leased) = (3, 4);
        assert_eq!(f.columns[state].as_str(), "State");
        let matches =
            |r: &Vec<Option<String>>| r[state].as_deref() == Some("queued") && r[leased].is_none();
        assert!(f.rows[..1000].iter().all(matches));
        assert!(!f.rows[1000..].iter().any(matches));
        assert!(f.rows[1000..]
            .iter()
            .all(|r| ["queued", "running", "done"].contains(&r[state].as_deref().unwrap())));
    }

    #[test]
    fn equality_on_a_unique_key_is_one_matching_row() {
        let q = query(
            "SELECT Id FROM T WHERE K = ?",
            vec![Param::Text("x".into())],
        );
        assert_eq!(generate(&table(), &q, 1).unwrap().matching, 1);
    }
}
