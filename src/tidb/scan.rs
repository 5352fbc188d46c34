//! Finding TiDB's table-feature clauses in a `CREATE TABLE` token stream
//! (the one lexer's tokens, `sql::lex`): one scanner for the apply
//! chokepoint and the dump parser (after TiDB's `/*T![feature] ... */`
//! comments are unwrapped). The scanner returns where each clause is, so
//! the caller can take it out before sqlparser (which knows none of them)
//! parses the rest, and [`fold`] turns the clauses into [`TidbOptions`].
//!
//! Clauses and where they are accepted (TiDB grammar: see the parent module):
//! - `CLUSTERED` / `NONCLUSTERED` in the `PRIMARY KEY` item of the body;
//! - `AUTO_RANDOM[(n[, m])]` in a column item of the body;
//! - after the body: `SHARD_ROW_ID_BITS[=]n`, `PRE_SPLIT_REGIONS[=]n`,
//!   ``TTL[=]`col` + INTERVAL n UNIT``, `TTL_ENABLE[=]'ON'|'OFF'`,
//!   `TTL_JOB_INTERVAL[=]'...'`.

use std::borrow::Borrow;
use std::ops::Range;

use crate::ident::Ident;
use crate::model::tidb::{
    AutoRandom, TidbOptions, Ttl, TtlInterval, DEFAULT_RANGE, DEFAULT_SHARD_BITS,
};
use crate::sql::lex::Token;

/// A token as the scanner reads it: words and numbers, backquoted names,
/// string values (unquoted), the few punctuation marks of the grammar,
/// space (whitespace and comments); anything else is other punctuation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tok<'a> {
    Word(&'a str),
    Ident(&'a str),
    Str(&'a str),
    Punct(char),
    Space,
}

fn tok(t: &Token) -> Tok<'_> {
    match t {
        Token::Word(w) if w.quote_style == Some('`') => Tok::Ident(&w.value),
        Token::Word(w) if w.quote_style.is_none() => Tok::Word(&w.value),
        Token::Number(n, _) => Tok::Word(n),
        Token::SingleQuotedString(s) | Token::DoubleQuotedString(s) => Tok::Str(s),
        Token::Whitespace(_) => Tok::Space,
        Token::LParen => Tok::Punct('('),
        Token::RParen => Tok::Punct(')'),
        Token::Comma => Tok::Punct(','),
        Token::Eq => Tok::Punct('='),
        Token::Plus => Tok::Punct('+'),
        _ => Tok::Punct('#'),
    }
}

/// One clause found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Clause {
    /// `CLUSTERED` (`true`) / `NONCLUSTERED`.
    Clustered(bool),
    /// `AUTO_RANDOM(shard_bits, range)` on a column.
    AutoRandom(AutoRandom),
    /// `SHARD_ROW_ID_BITS=n`.
    ShardRowIdBits(u8),
    /// `PRE_SPLIT_REGIONS=n`.
    PreSplitRegions(u8),
    /// `` TTL=`col` + INTERVAL n UNIT ``.
    Ttl(Ident, TtlInterval),
    /// `TTL_ENABLE='ON'|'OFF'`.
    TtlEnable(bool),
    /// `TTL_JOB_INTERVAL='...'`.
    TtlJobInterval(String),
}

/// A clause and the token range it spans.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The clause.
    pub clause: Clause,
    /// Its tokens.
    pub range: Range<usize>,
}

/// The clauses of `tokens`, in order (ranges are token positions); an
/// error for a TiDB clause keyword in its place whose arguments are not
/// the documented ones.
pub fn scan<T: Borrow<Token>>(tokens: &[T]) -> Result<Vec<Found>, String> {
    let toks: Vec<Tok<'_>> = tokens.iter().map(|t| tok(t.borrow())).collect();
    let toks = toks.as_slice();
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut body_done = false;
    let mut item_first: Option<&str> = None;
    let mut item_column = false;
    let mut item_primary = false;
    let mut i = 0;
    while i < toks.len() {
        let t = toks[i];
        match t {
            Tok::Punct('(') => {
                depth += 1;
                if depth == 1 && !body_done {
                    item_first = None;
                }
            }
            Tok::Punct(')') => {
                depth = depth.saturating_sub(1);
                body_done |= depth == 0;
            }
            Tok::Punct(',') if depth == 1 && !body_done => item_first = None,
            Tok::Word(w) if depth == 1 && !body_done && item_first.is_some() => {
                let first = item_first.unwrap_or_default();
                let upper = w.to_ascii_uppercase();
                let clause = match upper.as_str() {
                    "CLUSTERED" | "NONCLUSTERED" if item_primary => {
                        Some((Clause::Clustered(upper == "CLUSTERED"), i + 1))
                    }
                    "AUTO_RANDOM" if item_column => {
                        let (shard_bits, range, end) = auto_random_args(toks, i + 1)?;
                        let clause = Clause::AutoRandom(AutoRandom {
                            column: Ident::new(first),
                            shard_bits,
                            range,
                        });
                        Some((clause, end))
                    }
                    _ => None,
                };
                if let Some((clause, end)) = clause {
                    out.push(Found {
                        clause,
                        range: i..end,
                    });
                    i = end;
                    continue;
                }
            }
            Tok::Word(w) | Tok::Ident(w) if depth == 1 && !body_done && item_first.is_none() => {
                item_first = Some(w);
                item_column = matches!(t, Tok::Ident(_)) || !is_constraint_word(w);
                item_primary = matches!(t, Tok::Word(p) if p.eq_ignore_ascii_case("PRIMARY"));
            }
            Tok::Word(w) if depth == 0 && body_done => {
                if let Some((clause, end)) = table_option(toks, i, w)? {
                    out.push(Found {
                        clause,
                        range: i..end,
                    });
                    i = end;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    Ok(out)
}

/// Whether a body item starting with `word` is a key or constraint (an
/// index, key, check or foreign key) rather than a column.
pub(crate) fn is_constraint_word(word: &str) -> bool {
    [
        "KEY",
        "INDEX",
        "UNIQUE",
        "PRIMARY",
        "FULLTEXT",
        "SPATIAL",
        "CONSTRAINT",
        "CHECK",
        "FOREIGN",
    ]
    .iter()
    .any(|k| word.eq_ignore_ascii_case(k))
}

/// The next significant token at or after `i`: (index, token).
fn next<'a>(toks: &[Tok<'a>], mut i: usize) -> Option<(usize, Tok<'a>)> {
    while let Some(t) = toks.get(i) {
        if *t != Tok::Space {
            return Some((i, *t));
        }
        i += 1;
    }
    None
}

/// After an optional `=`: the next significant token.
fn after_eq<'a>(toks: &[Tok<'a>], i: usize) -> Option<(usize, Tok<'a>)> {
    match next(toks, i) {
        Some((j, Tok::Punct('='))) => next(toks, j + 1),
        other => other,
    }
}

fn small_number(text: &str, what: &str) -> Result<u8, String> {
    text.parse::<u8>()
        .map_err(|_| format!("{what} `{text}` is not a small whole number"))
}

/// `(n)`, `(n, m)` or nothing after `AUTO_RANDOM`: (shard bits, range, end).
fn auto_random_args(toks: &[Tok<'_>], i: usize) -> Result<(u8, u8, usize), String> {
    let Some((open, Tok::Punct('('))) = next(toks, i) else {
        return Ok((DEFAULT_SHARD_BITS, DEFAULT_RANGE, i));
    };
    let bad = || "AUTO_RANDOM takes `(shard_bits)` or `(shard_bits, range)`".to_string();
    let Some((a, Tok::Word(bits))) = next(toks, open + 1) else {
        return Err(bad());
    };
    let shard_bits = small_number(bits, "AUTO_RANDOM shard bits")?;
    match next(toks, a + 1) {
        Some((close, Tok::Punct(')'))) => Ok((shard_bits, DEFAULT_RANGE, close + 1)),
        Some((comma, Tok::Punct(','))) => {
            let Some((b, Tok::Word(range))) = next(toks, comma + 1) else {
                return Err(bad());
            };
            let range = small_number(range, "AUTO_RANDOM range")?;
            match next(toks, b + 1) {
                Some((close, Tok::Punct(')'))) => Ok((shard_bits, range, close + 1)),
                _ => Err(bad()),
            }
        }
        _ => Err(bad()),
    }
}

/// A table option clause starting at `i` (the word `w`), if it is one.
fn table_option<'a>(
    toks: &[Tok<'a>],
    i: usize,
    w: &str,
) -> Result<Option<(Clause, usize)>, String> {
    let upper = w.to_ascii_uppercase();
    let value = after_eq(toks, i + 1);
    let clause = match (upper.as_str(), value) {
        ("SHARD_ROW_ID_BITS", Some((j, Tok::Word(n)))) => (
            Clause::ShardRowIdBits(small_number(n, "SHARD_ROW_ID_BITS")?),
            j + 1,
        ),
        ("PRE_SPLIT_REGIONS", Some((j, Tok::Word(n)))) => (
            Clause::PreSplitRegions(small_number(n, "PRE_SPLIT_REGIONS")?),
            j + 1,
        ),
        ("TTL_ENABLE", Some((j, Tok::Str(v)))) => match v.to_ascii_uppercase().as_str() {
            "ON" => (Clause::TtlEnable(true), j + 1),
            "OFF" => (Clause::TtlEnable(false), j + 1),
            _ => return Err(format!("TTL_ENABLE '{v}' is neither 'ON' nor 'OFF'")),
        },
        ("TTL_JOB_INTERVAL", Some((j, Tok::Str(v)))) => {
            (Clause::TtlJobInterval(v.to_string()), j + 1)
        }
        ("TTL", Some((j, Tok::Ident(col) | Tok::Word(col)))) => ttl_rest(toks, j + 1, col)?,
        (
            "SHARD_ROW_ID_BITS" | "PRE_SPLIT_REGIONS" | "TTL_ENABLE" | "TTL_JOB_INTERVAL" | "TTL",
            _,
        ) => return Err(format!("{upper} without the value TiDB's grammar requires")),
        _ => return Ok(None),
    };
    Ok(Some(clause))
}

/// `+ INTERVAL n UNIT` after the TTL column.
fn ttl_rest(toks: &[Tok<'_>], i: usize, column: &str) -> Result<(Clause, usize), String> {
    let bad = || {
        format!("TTL on `{column}` is not `col + INTERVAL n UNIT` with a unit the catalog knows")
    };
    let Some((plus, Tok::Punct('+'))) = next(toks, i) else {
        return Err(bad());
    };
    let Some((kw, Tok::Word(interval))) = next(toks, plus + 1) else {
        return Err(bad());
    };
    if !interval.eq_ignore_ascii_case("INTERVAL") {
        return Err(bad());
    }
    let (n_at, amount) = match next(toks, kw + 1) {
        Some((j, Tok::Word(n) | Tok::Str(n))) => (j, n),
        _ => return Err(bad()),
    };
    let Some((u, Tok::Word(unit))) = next(toks, n_at + 1) else {
        return Err(bad());
    };
    let parsed = TtlInterval::parse(&format!("{amount} {unit}")).ok_or_else(bad)?;
    Ok((Clause::Ttl(Ident::new(column), parsed), u + 1))
}

/// The options the clauses declare; an error for a clause given twice or
/// TTL options without `TTL`.
pub fn fold(clauses: &[Found]) -> Result<TidbOptions, String> {
    let mut out = TidbOptions::default();
    let mut ttl: Option<(Ident, TtlInterval)> = None;
    let mut enable: Option<bool> = None;
    let mut job: Option<String> = None;
    fn once<T>(slot: &mut Option<T>, value: T, what: &str) -> Result<(), String> {
        match slot.replace(value) {
            Some(_) => Err(format!("{what} is given twice")),
            None => Ok(()),
        }
    }
    for f in clauses {
        match &f.clause {
            Clause::Clustered(c) => once(&mut out.clustered, *c, "CLUSTERED / NONCLUSTERED")?,
            Clause::AutoRandom(a) => once(&mut out.auto_random, a.clone(), "AUTO_RANDOM")?,
            Clause::ShardRowIdBits(n) => once(&mut out.shard_row_id_bits, *n, "SHARD_ROW_ID_BITS")?,
            Clause::PreSplitRegions(n) => {
                once(&mut out.pre_split_regions, *n, "PRE_SPLIT_REGIONS")?
            }
            Clause::Ttl(c, i) => once(&mut ttl, (c.clone(), *i), "TTL")?,
            Clause::TtlEnable(e) => once(&mut enable, *e, "TTL_ENABLE")?,
            Clause::TtlJobInterval(j) => once(&mut job, j.clone(), "TTL_JOB_INTERVAL")?,
        }
    }
    match ttl {
        Some((column, interval)) => {
            out.ttl = Some(Ttl {
                column,
                interval,
                enabled: enable.unwrap_or(true),
                job_interval: job,
            })
        }
        None if enable.is_some() || job.is_some() => {
            return Err("TTL_ENABLE / TTL_JOB_INTERVAL without TTL".into())
        }
        None => {}
    }
    out.normalize();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tidb::TtlUnit;

    fn toks(sql: &str) -> Vec<Token> {
        crate::sql::lex::tokens(sql).unwrap()
    }

    #[test]
    fn finds_every_clause_in_its_place() {
        let sql = "CREATE TABLE `t` (`Id` bigint NOT NULL AUTO_RANDOM(5, 54), `CLUSTERED` int, \
                   `At` datetime, PRIMARY KEY (`Id`) CLUSTERED) ENGINE=InnoDB SHARD_ROW_ID_BITS=4 \
                   PRE_SPLIT_REGIONS 2 TTL=`At` + INTERVAL 30 DAY TTL_ENABLE='OFF' TTL_JOB_INTERVAL='1h'";
        let t = toks(sql);
        let found = scan(&t).unwrap();
        let options = fold(&found).unwrap();
        assert_eq!(options.clustered, Some(true));
        assert_eq!(
            options.auto_random,
            Some(AutoRandom {
                column: "Id".into(),
                shard_bits: 5,
                range: 54
            })
        );
        assert_eq!(options.shard_row_id_bits, Some(4));
        assert_eq!(options.pre_split_regions, Some(2));
        let ttl = options.ttl.unwrap();
        assert_eq!(ttl.column, Ident::new("At"));
        assert_eq!(ttl.interval.unit, TtlUnit::Day);
        assert!(!ttl.enabled);
        assert_eq!(ttl.job_interval.as_deref(), Some("1h"));
        // A column named CLUSTERED (backquoted) is not a clause; a default
        // AUTO_RANDOM is (5, 64).
        let plain =
            toks("CREATE TABLE t (a bigint AUTO_RANDOM, KEY k (a), PRIMARY KEY (a) NONCLUSTERED)");
        let o = fold(&scan(&plain).unwrap()).unwrap();
        assert_eq!(o.auto_random.unwrap().shard_bits, 5);
        assert_eq!(o.clustered, Some(false));
    }

    #[test]
    fn malformed_or_repeated_clauses_are_errors() {
        for sql in [
            "CREATE TABLE t (a bigint AUTO_RANDOM(x))",
            "CREATE TABLE t (a int) SHARD_ROW_ID_BITS='4'",
            "CREATE TABLE t (a int) TTL=`a` + INTERVAL 3 FORTNIGHT",
            "CREATE TABLE t (a int) TTL_ENABLE='MAYBE'",
        ] {
            assert!(scan(&toks(sql)).is_err(), "{sql}");
        }
        for sql in [
            "CREATE TABLE t (a int) SHARD_ROW_ID_BITS=4 SHARD_ROW_ID_BITS=5",
            "CREATE TABLE t (a int) TTL_ENABLE='ON'",
        ] {
            assert!(fold(&scan(&toks(sql)).unwrap()).is_err(), "{sql}");
        }
    }
}
