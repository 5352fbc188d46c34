//! The textual pre-pass before sqlparser (see the [module docs](super)):
//! executable version comments unwrapped, TiDB feature comments and
//! clauses read and removed ([`super::tidb`]), index visibility markers
//! and FULLTEXT `WITH PARSER` clauses removed and remembered, `PARTITION
//! BY` cut.

use std::collections::{BTreeMap, BTreeSet};

/// Text ready for sqlparser, plus what the pre-pass removed from it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Prepared {
    /// The SQL with version comments unwrapped and markers removed.
    pub sql: String,
    /// 0-based positions, among the constraint items of the table body (keys,
    /// indexes, CONSTRAINT / CHECK / FOREIGN KEY, in order: the order of
    /// sqlparser's `CreateTable::constraints`), of indexes marked invisible /
    /// ignored.
    pub hidden_constraints: BTreeSet<usize>,
    /// The `WITH PARSER name` clause of constraint items (positions as in
    /// `hidden_constraints`), the name as written (backticks removed).
    /// sqlparser reads no index options on a FULLTEXT key, so the clause is
    /// cut here, like the visibility markers.
    pub parsers: BTreeMap<usize, String>,
    /// The `COMMENT '...'` of FULLTEXT and SPATIAL items (positions as in
    /// `hidden_constraints`), unquoted: sqlparser reads no index options on
    /// those keys, so the clause is cut here.
    pub key_comments: BTreeMap<usize, String>,
    /// A `PARTITION BY ...` clause after the table options, cut from `sql`
    /// (sqlparser does not read MySQL partitioning).
    pub partitioning: Option<String>,
    /// The TiDB table features the text declares (comments or plain
    /// clauses); `None` when it holds none.
    pub tidb: Option<crate::tidb::TidbOptions>,
    /// TiDB feature comments the model does not read: (feature id, comment).
    pub tidb_unknown: Vec<(String, String)>,
    /// A TiDB clause that is not TiDB's documented grammar.
    pub tidb_error: Option<String>,
}

/// The textual pre-pass (see the module docs).
pub fn prepare(sql: &str) -> Prepared {
    let unwrapped = unwrap_comments(sql);
    let (tidb, tidb_error) = match super::tidb::read(&unwrapped) {
        Ok(pass) => (pass, None),
        Err(e) => (super::tidb::TidbPass::default(), Some(e)),
    };
    let text = if tidb_error.is_some() {
        &unwrapped
    } else {
        &tidb.sql
    };
    let (body, partitioning) = cut_partitioning(text);
    let mut prepared = strip_index_markers(&body);
    prepared.partitioning = partitioning;
    prepared.tidb = tidb.options;
    prepared.tidb_unknown = tidb.unknown;
    prepared.tidb_error = tidb_error;
    prepared
}

/// Cuts `PARTITION BY ...` (at nesting depth 0, after the table body) off
/// the statement: returns the rest and the clause (whitespace collapsed).
fn cut_partitioning(sql: &str) -> (String, Option<String>) {
    let tokens = lex(sql);
    let mut depth = 0usize;
    let mut body_seen = false;
    let words: Vec<(usize, &str)> = tokens
        .iter()
        .enumerate()
        .filter(|(_, (k, _))| *k == Lex::Word)
        .map(|(n, (_, r))| (n, &sql[r.clone()]))
        .collect();
    for (n, (kind, range)) in tokens.iter().enumerate() {
        let text = &sql[range.clone()];
        match (kind, text) {
            (Lex::Char, "(") => depth += 1,
            (Lex::Char, ")") => {
                depth = depth.saturating_sub(1);
                body_seen |= depth == 0;
            }
            (Lex::Word, w) if depth == 0 && body_seen && w.eq_ignore_ascii_case("PARTITION") => {
                let next = words.iter().find(|(m, _)| *m > n).map(|(_, w)| *w);
                if next.is_some_and(|w| w.eq_ignore_ascii_case("BY")) {
                    let rest = sql[range.start..].trim_end();
                    let rest = rest.strip_suffix(';').unwrap_or(rest);
                    let clause = rest.split_whitespace().collect::<Vec<_>>().join(" ");
                    return (sql[..range.start].to_string(), Some(clause));
                }
            }
            _ => {}
        }
    }
    (sql.to_string(), None)
}

/// A lexical token of the pre-pass: enough to skip quoted text and comments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Lex {
    /// A bare word (letters, digits, `_`, `$`).
    Word,
    /// `'...'`, `"..."` or `` `...` ``.
    Quoted,
    /// `/* ... */` (not executable), `-- ...`, `# ...`.
    Comment,
    /// `/*!NNNNN` opener of an executable comment.
    VersionOpen,
    /// `/*T![...] ... */`, whole.
    TidbComment,
    /// `*/`, closing an executable comment.
    CommentClose,
    /// Any other single character (including whitespace).
    Char,
}

/// Splits `sql` into (kind, byte range) tokens.
pub(super) fn lex(sql: &str) -> Vec<(Lex, std::ops::Range<usize>)> {
    let b = sql.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let find = |from: usize, pat: &str| sql[from..].find(pat).map_or(sql.len(), |p| from + p);
    while i < b.len() {
        let start = i;
        let kind = match b[i] {
            q @ (b'\'' | b'"' | b'`') => {
                i += 1;
                while i < b.len() {
                    if b[i] == b'\\' && q != b'`' {
                        // Skip the escaped character whole (it may be multi-byte).
                        i += 1 + sql[i + 1..].chars().next().map_or(0, char::len_utf8);
                    } else if b[i] == q && b.get(i + 1) == Some(&q) {
                        i += 2;
                    } else if b[i] == q {
                        i += 1;
                        break;
                    } else {
                        i += 1;
                    }
                }
                Lex::Quoted
            }
            b'/' if sql[i..].starts_with("/*!") => {
                i += 3;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                Lex::VersionOpen
            }
            b'/' if sql[i..].starts_with("/*T!") => {
                i = (find(i, "*/") + 2).min(b.len());
                Lex::TidbComment
            }
            b'/' if sql[i..].starts_with("/*") => {
                i = (find(i + 2, "*/") + 2).min(b.len());
                Lex::Comment
            }
            b'*' if sql[i..].starts_with("*/") => {
                i += 2;
                Lex::CommentClose
            }
            b'-' if sql[i..].starts_with("-- ") || sql[i..].starts_with("--\n") => {
                i = find(i, "\n");
                Lex::Comment
            }
            b'#' => {
                i = find(i, "\n");
                Lex::Comment
            }
            c if c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80 => {
                while i < b.len()
                    && (b[i].is_ascii_alphanumeric()
                        || b[i] == b'_'
                        || b[i] == b'$'
                        || b[i] >= 0x80)
                {
                    i += 1;
                }
                Lex::Word
            }
            _ => {
                i += sql[i..].chars().next().map_or(1, char::len_utf8);
                Lex::Char
            }
        };
        out.push((kind, start..i));
    }
    out
}

/// Unwraps `/*!NNNNN content */` to ` content `; `/*T![..] .. */` is kept
/// whole (the TiDB pass reads it).
pub(super) fn unwrap_comments(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut open_versions = 0usize;
    for (kind, range) in lex(sql) {
        match kind {
            Lex::VersionOpen => {
                open_versions += 1;
                out.push(' ');
            }
            Lex::CommentClose if open_versions > 0 => {
                open_versions -= 1;
                out.push(' ');
            }
            _ => out.push_str(&sql[range]),
        }
    }
    out
}

/// Removes index visibility markers and `WITH PARSER name` clauses from the
/// constraint items of the first parenthesised group (the table body),
/// remembering which were hidden (`INVISIBLE`, `IGNORED`; `VISIBLE` and `NOT
/// IGNORED` are the default and just removed) and each item's parser name.
/// Column items are not touched: a column-level `INVISIBLE` (an invisible
/// column) is left to sqlparser.
fn strip_index_markers(sql: &str) -> Prepared {
    let tokens = lex(sql);
    let mut hidden_constraints = BTreeSet::new();
    let mut parsers = BTreeMap::new();
    let mut key_comments = BTreeMap::new();
    let mut item_takes_no_options = false;
    let mut drop = vec![false; tokens.len()];
    let mut depth = 0usize;
    let mut body_done = false;
    let mut constraint_items = 0usize;
    let mut item_is_constraint = false;
    let mut item_started = false;
    let mut last_word: Option<usize> = None;
    for (n, (kind, range)) in tokens.iter().enumerate() {
        let text = &sql[range.clone()];
        match (kind, text) {
            (Lex::Char, "(") => {
                depth += 1;
                if depth == 1 {
                    item_started = false;
                }
            }
            (Lex::Char, ")") => {
                depth = depth.saturating_sub(1);
                body_done |= depth == 0;
            }
            (Lex::Char, ",") if depth == 1 && !body_done => item_started = false,
            (Lex::Word | Lex::Quoted, _) if depth == 1 && !body_done => {
                if !item_started {
                    item_started = true;
                    item_is_constraint =
                        *kind == Lex::Word && crate::tidb::scan::is_constraint_word(text);
                    item_takes_no_options = ["FULLTEXT", "SPATIAL"]
                        .iter()
                        .any(|w| text.eq_ignore_ascii_case(w));
                    constraint_items += usize::from(item_is_constraint);
                } else if item_is_constraint && *kind == Lex::Word {
                    let item = constraint_items - 1;
                    let upper = text.to_ascii_uppercase();
                    let after_not = last_word
                        .is_some_and(|w| sql[tokens[w].1.clone()].eq_ignore_ascii_case("NOT"));
                    match upper.as_str() {
                        _ if drop[n] => {}
                        "COMMENT" if item_takes_no_options => {
                            let literal =
                                next_significant(sql, &tokens, n).filter(|(_, (k, r))| {
                                    *k == Lex::Quoted && sql[r.clone()].starts_with('\'')
                                });
                            if let Some((m, (_, r))) = literal {
                                if let Some(text) =
                                    crate::model::unquote_sql_string(&sql[r.clone()])
                                {
                                    drop[n] = true;
                                    drop[m] = true;
                                    key_comments.insert(item, text);
                                }
                            }
                        }
                        "WITH" => {
                            if let Some((p, name)) = parser_clause(sql, &tokens, n) {
                                drop[n] = true;
                                drop[p] = true;
                                drop[name] = true;
                                let text = &sql[tokens[name].1.clone()];
                                let text = text
                                    .strip_prefix('`')
                                    .and_then(|t| t.strip_suffix('`'))
                                    .map_or_else(|| text.to_string(), |t| t.replace("``", "`"));
                                parsers.insert(item, text);
                            }
                        }
                        "INVISIBLE" | "IGNORED" if !(upper == "IGNORED" && after_not) => {
                            drop[n] = true;
                            hidden_constraints.insert(item);
                        }
                        "IGNORED" => {
                            drop[n] = true;
                            if let Some(w) = last_word {
                                drop[w] = true;
                            }
                        }
                        "VISIBLE" => drop[n] = true,
                        _ => {}
                    }
                }
                if *kind == Lex::Word {
                    last_word = Some(n);
                }
            }
            _ => {}
        }
    }
    let sql = tokens
        .iter()
        .zip(&drop)
        .map(|((_, range), dropped)| if *dropped { " " } else { &sql[range.clone()] })
        .collect();
    Prepared {
        sql,
        hidden_constraints,
        parsers,
        key_comments,
        ..Prepared::default()
    }
}

type Tokens = [(Lex, std::ops::Range<usize>)];

/// The first token after `at` that is not whitespace.
fn next_significant<'t>(
    sql: &str,
    tokens: &'t Tokens,
    at: usize,
) -> Option<(usize, &'t (Lex, std::ops::Range<usize>))> {
    tokens
        .iter()
        .enumerate()
        .skip(at + 1)
        .find(|(_, (k, r))| !(*k == Lex::Char && sql[r.clone()].trim().is_empty()))
}

/// At a `WITH` token (`at`): the positions of `PARSER` and of the name after
/// it (a word or a backticked identifier), when that is what follows.
fn parser_clause(sql: &str, tokens: &Tokens, at: usize) -> Option<(usize, usize)> {
    let (p, (kind, range)) = next_significant(sql, tokens, at)?;
    if *kind != Lex::Word || !sql[range.clone()].eq_ignore_ascii_case("PARSER") {
        return None;
    }
    let (name, (kind, range)) = next_significant(sql, tokens, p)?;
    let quoted_name = *kind == Lex::Quoted && sql[range.clone()].starts_with('`');
    (*kind == Lex::Word || quoted_name).then_some((p, name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_comments_are_unwrapped_and_tidb_markers_dropped() {
        let p = prepare("CREATE TABLE t (a int, PRIMARY KEY (a) /*T![clustered_index] CLUSTERED */, KEY i (a) /*!80000 INVISIBLE */) /*!50100 COMMENT='x */ y' */");
        assert_eq!(p.hidden_constraints, BTreeSet::from([1]));
        assert!(!p.sql.contains("CLUSTERED"), "{}", p.sql);
        assert!(p.sql.contains("COMMENT='x */ y'"), "{}", p.sql);
        assert!(!p.sql.contains("/*"), "{}", p.sql);
    }

    #[test]
    fn lexer_survives_escapes_at_the_end_and_multibyte_text() {
        for sql in ["'abc\\", "'\\é' `é` é /*!", "\"x\\\"é\" -- é"] {
            let _ = prepare(sql);
        }
        assert_eq!(
            prepare("CREATE TABLE é (`é` int COMMENT '\\é')").sql,
            "CREATE TABLE é (`é` int COMMENT '\\é')"
        );
    }

    /// MySQL's SHOW CREATE TABLE form (probed on 9.7: a trailing space after
    /// the comment, COMMENT before it) and a plain one; the clause is cut,
    /// the name kept per constraint item.
    #[test]
    fn parser_clauses_are_cut_and_remembered() {
        let p = prepare(
            "CREATE TABLE t (`id` int NOT NULL, `b` text, PRIMARY KEY (`id`), \
            FULLTEXT KEY `ix` (`b`) COMMENT 'x' /*!50100 WITH PARSER `ngram` */ ,\n  \
            FULLTEXT KEY `iy` (`b`) WITH PARSER Mecab INVISIBLE, KEY `with` (`b`(3)))",
        );
        assert_eq!(
            p.parsers,
            BTreeMap::from([(1, "ngram".to_string()), (2, "Mecab".to_string())])
        );
        assert_eq!(p.hidden_constraints, BTreeSet::from([2]));
        assert_eq!(p.key_comments, BTreeMap::from([(1, "x".to_string())]));
        assert!(!p.sql.contains("PARSER"), "{}", p.sql);
        assert!(!p.sql.contains("COMMENT"), "{}", p.sql);
        assert!(p.sql.contains("KEY `with` (`b`(3))"), "{}", p.sql);
    }

    #[test]
    fn visibility_markers_only_touch_indexes() {
        let p = prepare("CREATE TABLE t (`IGNORED` int COMMENT 'INVISIBLE', KEY i (a) NOT IGNORED, KEY j (`IGNORED`) IGNORED)");
        assert_eq!(p.hidden_constraints, BTreeSet::from([1]));
        assert!(
            p.sql.contains("`IGNORED` int COMMENT 'INVISIBLE'"),
            "{}",
            p.sql
        );
        assert!(!p.sql.contains("NOT"), "{}", p.sql);
    }
}
