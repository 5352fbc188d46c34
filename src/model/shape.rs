//! The one rule for "this index is that index": [`index_differences`]
//! compares a live index with a declared one and returns every typed
//! difference. Readiness ([`crate::readiness::check_index`]), drift
//! ([`crate::diff`]) and rename detection ([`Index::same_shape`]) all use
//! it. Also the expression equality those comparisons (and CHECK drift) rest
//! on ([`same_expression`]).

use std::fmt;

use crate::ident::{quote_ident, Ident};
use crate::model::{FullTextParser, Index, IndexKind, IndexPart};

/// Why a live index is not the declared one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IndexProblem {
    /// No index of that name on the table.
    Missing,
    /// UNIQUE where a plain index is declared, or the other way round.
    Uniqueness {
        /// Declared uniqueness.
        want: bool,
        /// Live uniqueness.
        have: bool,
    },
    /// The ordered key parts differ (other columns, count or order).
    Columns {
        /// Declared key parts, expressions shown as `(expr)`.
        want: Vec<String>,
        /// Live key parts, expressions shown as `(expr)`.
        have: Vec<String>,
        /// The same column names (case-insensitive), only in another order.
        reordered: bool,
    },
    /// A key part's prefix length differs from the declared one (a prefix
    /// where the whole column is declared, or another length).
    Prefix {
        /// Column.
        column: Ident,
        /// Live SUB_PART (`None`: the whole column).
        length: Option<u32>,
        /// Declared prefix length (`None`: the whole column).
        want: Option<u32>,
    },
    /// A key part's direction differs from the declared one.
    Descending {
        /// Column.
        column: Ident,
        /// Whether the live part is descending.
        descending: bool,
    },
    /// A live key part is an expression where the catalog declares a column
    /// or another expression.
    Expression {
        /// The expression text.
        expression: String,
    },
    /// The index is invisible (MySQL / TiDB) or IGNORED (MariaDB) where a
    /// visible one is declared.
    NotVisible,
    /// The index is visible where the catalog declares `visible: false`.
    Visible,
    /// Another index kind (B-tree, FULLTEXT, SPATIAL) than the declared one.
    Kind {
        /// Live kind.
        have: IndexKind,
        /// Declared kind.
        want: IndexKind,
    },
    /// A FULLTEXT index with another parser than the declared one (a parser
    /// where the built-in one is declared, or the reverse).
    Parser {
        /// Live parser (`None`: the built-in one).
        have: Option<FullTextParser>,
        /// Declared parser (`None`: the built-in one).
        want: Option<FullTextParser>,
    },
}

impl fmt::Display for IndexProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unique = |u: bool| if u { "unique" } else { "non-unique" };
        match self {
            IndexProblem::Missing => f.write_str("index does not exist"),
            IndexProblem::Uniqueness { want, have } => {
                write!(
                    f,
                    "index is {} but {} is declared",
                    unique(*have),
                    unique(*want)
                )
            }
            IndexProblem::Columns { want, have, .. } => {
                write!(
                    f,
                    "key columns are ({}) but ({}) are declared",
                    have.join(", "),
                    want.join(", ")
                )
            }
            IndexProblem::Prefix {
                column,
                length,
                want,
            } => {
                let column = quote_ident(column.as_str());
                let declared = match want {
                    Some(n) => format!("a {n}-character prefix is declared"),
                    None => "the whole column is declared".into(),
                };
                match length {
                    Some(n) => write!(
                        f,
                        "column {column} is indexed by a {n}-character prefix but {declared}"
                    ),
                    None => write!(f, "column {column} is indexed whole but {declared}"),
                }
            }
            IndexProblem::Descending { column, descending } => {
                let (have, want) = if *descending {
                    ("descending", "ascending")
                } else {
                    ("ascending", "descending")
                };
                write!(
                    f,
                    "column {} is an {have} key part but {want} is declared",
                    quote_ident(column.as_str())
                )
            }
            IndexProblem::Expression { expression } => {
                write!(f, "key part is the expression ({expression})")
            }
            IndexProblem::NotVisible => f.write_str("index is invisible / ignored"),
            IndexProblem::Visible => f.write_str(
                "index is visible but `visible: false` (invisible / ignored) is declared",
            ),
            IndexProblem::Kind { have, want } => {
                write!(
                    f,
                    "index is {} but {} is declared",
                    have.describe(),
                    want.describe()
                )
            }
            IndexProblem::Parser { have, want } => {
                let parser = |p: &Option<FullTextParser>| match p {
                    Some(p) => format!("parser `{p}`"),
                    None => "the built-in parser".to_string(),
                };
                write!(
                    f,
                    "FULLTEXT index uses {} but {} is declared",
                    parser(have),
                    parser(want)
                )
            }
        }
    }
}

/// Every way a live index `have` differs from the declared `want`, in a
/// fixed order (empty: the same index): uniqueness; ordered key parts, each
/// exactly as declared (column names case-insensitive, the same prefix
/// length or none, the same direction, expressions equal after
/// normalisation); visibility; kind; a FULLTEXT index's parser. Names and
/// comments are not compared.
pub fn index_differences(have: &Index, want: &Index) -> Vec<IndexProblem> {
    let mut problems = Vec::new();
    if have.unique != want.unique {
        problems.push(IndexProblem::Uniqueness {
            want: want.unique,
            have: have.unique,
        });
    }
    let mut same_parts = have.parts.len() == want.parts.len();
    let mut details = Vec::new();
    for (h, w) in have.parts.iter().zip(&want.parts) {
        match (h, w) {
            (
                IndexPart::Column {
                    name,
                    prefix,
                    descending,
                },
                IndexPart::Column {
                    name: want_name,
                    prefix: want_prefix,
                    descending: want_descending,
                },
            ) if name == want_name => {
                if prefix != want_prefix {
                    details.push(IndexProblem::Prefix {
                        column: name.clone(),
                        length: *prefix,
                        want: *want_prefix,
                    });
                }
                if descending != want_descending {
                    details.push(IndexProblem::Descending {
                        column: name.clone(),
                        descending: *descending,
                    });
                }
            }
            (IndexPart::Expression(a), IndexPart::Expression(b)) if same_expression(a, b) => {}
            (IndexPart::Expression(e), _) => details.push(IndexProblem::Expression {
                expression: e.clone(),
            }),
            _ => same_parts = false,
        }
    }
    // A live expression part past the declared ones is a finding of its own.
    for part in have.parts.iter().skip(want.parts.len()) {
        if let IndexPart::Expression(e) = part {
            details.push(IndexProblem::Expression {
                expression: e.clone(),
            });
        }
    }
    if !same_parts {
        problems.push(IndexProblem::Columns {
            want: want.parts.iter().map(part_label).collect(),
            have: have.parts.iter().map(part_label).collect(),
            reordered: same_columns_reordered(want, have),
        });
    }
    problems.extend(details);
    match (have.visible, want.visible) {
        (false, true) => problems.push(IndexProblem::NotVisible),
        (true, false) => problems.push(IndexProblem::Visible),
        _ => {}
    }
    if !have.kind.same_family(want.kind) {
        problems.push(IndexProblem::Kind {
            have: have.kind,
            want: want.kind,
        });
    } else if have.kind.parser() != want.kind.parser() {
        problems.push(IndexProblem::Parser {
            have: have.kind.parser(),
            want: want.kind.parser(),
        });
    }
    problems
}

/// The same column names (case-insensitive), in another order.
fn same_columns_reordered(want: &Index, have: &Index) -> bool {
    let names = |i: &Index| -> Vec<String> {
        let mut v: Vec<String> = i
            .parts
            .iter()
            .filter_map(IndexPart::column_name)
            .map(Ident::key)
            .collect();
        v.sort();
        v
    };
    want.parts.len() == have.parts.len() && names(want) == names(have)
}

/// Two expressions (key parts, CHECK conditions) compare equal after each
/// server's normalisation: parsed, charset introducers and written
/// groupings dropped, names case-insensitive, compared by their parse tree
/// (see `expr::structural`).
pub fn same_expression(a: &str, b: &str) -> bool {
    canonical_expression(a) == canonical_expression(b)
}

/// The text [`same_expression`] compares.
pub fn canonical_expression(e: &str) -> String {
    crate::expr::structural(e)
}

fn part_label(part: &IndexPart) -> String {
    match part {
        IndexPart::Column { name, .. } => quote_ident(name.as_str()),
        IndexPart::Expression(e) => format!("({e})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dump::index;

    fn problems(have: &Index, want: &Index) -> Vec<IndexProblem> {
        index_differences(have, want)
    }

    /// The index `key` declares over columns `a` and `b` (varchar(32)).
    fn ab(key: &str) -> Index {
        index(&format!("`a` varchar(32), `b` varchar(32), {key}"))
    }

    #[test]
    fn exact_and_case_insensitive_is_the_same() {
        let want = index("`State` int, `Id` int, KEY `ix` (`State`, `Id`)");
        let have = index("`state` int, `ID` int, KEY `IX` (`state`, `ID`)");
        assert!(problems(&have, &want).is_empty());
    }

    #[test]
    fn a_reorder_is_told_from_other_columns() {
        let want = ab("KEY `ix` (`a`, `b`)");
        let columns = |have: &str| match problems(&index(have), &want)[..] {
            [IndexProblem::Columns { reordered, .. }] => reordered,
            ref other => panic!("{other:?}"),
        };
        assert!(columns("`a` int, `B` int, KEY `ix` (`B`, `a`)"));
        assert!(!columns("`a` int, `c` int, KEY `ix` (`a`, `c`)"));
        assert!(!columns(
            "`a` int, `b` int, `c` int, KEY `ix` (`a`, `b`, `c`)"
        ));
    }

    #[test]
    fn every_difference_is_reported() {
        let want = ab("KEY `ix` (`a`, `b`)");
        let have = ab("UNIQUE KEY `ix` (`b`, `a`(4)) INVISIBLE");
        let got = problems(&have, &want);
        assert!(got.contains(&IndexProblem::Uniqueness {
            want: false,
            have: true
        }));
        assert!(got
            .iter()
            .any(|p| matches!(p, IndexProblem::Columns { .. })));
        assert!(got.contains(&IndexProblem::NotVisible));
        // Same parts in the declared order: the prefix is its own finding.
        let have = ab("KEY `ix` (`a`, `b`(4) DESC)");
        let got = problems(&have, &want);
        assert!(got.contains(&IndexProblem::Prefix {
            column: "b".into(),
            length: Some(4),
            want: None,
        }));
        assert!(got.contains(&IndexProblem::Descending {
            column: "b".into(),
            descending: true,
        }));
    }

    #[test]
    fn expression_parts_are_refused() {
        let want = ab("KEY `ix` (`a`)");
        let have = ab("KEY `ix` ((lower(`a`)))");
        let got = problems(&have, &want);
        assert!(got.contains(&IndexProblem::Expression {
            expression: "lower(`a`)".into()
        }));
        assert!(got.iter().any(|p| p.to_string().contains("(lower(`a`))")));
    }

    #[test]
    fn declared_shapes_compare_exactly() {
        let want = ab("KEY `ix` (`a`(20) DESC, (lower(`b`))) INVISIBLE");
        // Another spelling of the same expression: more parentheses, a
        // name in another case.
        let upper_b = |key: &str| index(&format!("`A` varchar(32), `B` varchar(32), {key}"));
        let have = upper_b("KEY `ix` (`A`(20) DESC, ((lower(`B`)))) INVISIBLE");
        assert_eq!(have.parts[1], IndexPart::Expression("(lower(`B`))".into()));
        assert!(problems(&have, &want).is_empty());
        let have = upper_b("KEY `ix` (`A`(10) DESC, ((lower(`B`))))");
        let got = problems(&have, &want);
        assert!(got.contains(&IndexProblem::Prefix {
            column: "A".into(),
            length: Some(10),
            want: Some(20),
        }));
        assert!(got.contains(&IndexProblem::Visible));
        let have = upper_b("KEY `ix` (`A`(10) DESC, (upper(`b`)))");
        assert!(problems(&have, &want).contains(&IndexProblem::Expression {
            expression: "upper(`b`)".into()
        }));
        assert_eq!(
            problems(&ab("KEY `ix` (`a`)"), &ab("FULLTEXT KEY `ix` (`a`)")),
            vec![IndexProblem::Kind {
                have: IndexKind::BTree,
                want: IndexKind::FullText(None)
            }]
        );
    }

    /// A parser difference is its own finding, in both directions; a
    /// B-tree live where an ngram FULLTEXT is declared is a kind difference
    /// only.
    #[test]
    fn a_fulltext_parser_difference_is_its_own_finding() {
        let ngram = Some(FullTextParser::Ngram);
        let fulltext = |parser: Option<FullTextParser>| match parser {
            Some(p) => ab(&format!(
                "FULLTEXT KEY `ix` (`a`) /*!50100 WITH PARSER `{}` */",
                p.name()
            )),
            None => ab("FULLTEXT KEY `ix` (`a`)"),
        };
        assert!(problems(&fulltext(ngram), &fulltext(ngram)).is_empty());
        assert_eq!(
            problems(&fulltext(None), &fulltext(ngram)),
            vec![IndexProblem::Parser {
                have: None,
                want: ngram
            }]
        );
        assert_eq!(
            problems(&fulltext(ngram), &fulltext(None)),
            vec![IndexProblem::Parser {
                have: ngram,
                want: None
            }]
        );
        assert_eq!(
            problems(&fulltext(None), &fulltext(ngram))[0].to_string(),
            "FULLTEXT index uses the built-in parser but parser `ngram` is declared"
        );
        let btree = ab("KEY `ix` (`a`)");
        assert!(matches!(
            problems(&btree, &fulltext(ngram))[..],
            [IndexProblem::Kind { .. }]
        ));
    }
}
