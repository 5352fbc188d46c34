//! The pre-pass before sqlparser (see the [module docs](super)), over the
//! one lexer's lexemes ([`crate::sql::lex`]) of a statement, lexed once:
//! executable version comments unwrapped, TiDB feature comments and
//! clauses read and removed ([`super::tidb`]), index visibility markers
//! and FULLTEXT `WITH PARSER` clauses removed and remembered, `PARTITION
//! BY` cut. Each step rewrites the lexemes (what it removes becomes a
//! blank, one space of text), and sqlparser parses the lexemes left
//! ([`parser_tokens`]): no step lexes text again.

use std::collections::{BTreeMap, BTreeSet};

use sqlparser::tokenizer::{Location, Span, TokenWithSpan};

use crate::sql::lex::{Kind, Lexeme, Token, Whitespace};

pub(super) use super::lexeme_text::{blank, piece, text};

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

/// The pre-pass (see the module docs) of one statement's text (the
/// unit tests' entry; the reader goes through [`prepare_lexemes`]).
#[cfg(test)]
fn prepare(sql: &str) -> Prepared {
    let (mut prepared, lexemes) = prepare_lexemes(sql, crate::sql::lex::lex(sql));
    prepared.sql = text(sql, &lexemes);
    prepared
}

/// The pre-pass of one statement given as its lexemes (ranges in `sql`):
/// what it found (`sql` left empty) and the lexemes for sqlparser.
pub(super) fn prepare_lexemes(sql: &str, lexemes: Vec<Lexeme>) -> (Prepared, Vec<Lexeme>) {
    let unwrapped = unwrap_comments(lexemes);
    let (lexemes, tidb, tidb_error) = match super::tidb::read(sql, unwrapped) {
        Ok(pass) => (pass.lexemes, Some(pass.found), None),
        Err((e, unwrapped)) => (super::tidb::whole_comments(sql, unwrapped), None, Some(e)),
    };
    let (lexemes, partitioning) = cut_partitioning(sql, lexemes);
    let (mut prepared, lexemes) = strip_index_markers(sql, lexemes);
    prepared.partitioning = partitioning;
    if let Some(found) = tidb {
        prepared.tidb = found.options;
        prepared.tidb_unknown = found.unknown;
    }
    prepared.tidb_error = tidb_error;
    (prepared, lexemes)
}

/// The tokens sqlparser's tokenizer gives for [`text`] of the lexemes,
/// with the same spans (so its errors name the same line and column). The
/// caller parses the text instead when a lexeme is unreadable (for the
/// tokenizer's own error).
pub(super) fn parser_tokens(sql: &str, lexemes: Vec<Lexeme>) -> Vec<TokenWithSpan> {
    let mut out = Vec::with_capacity(lexemes.len());
    let mut at = Location::new(1, 1);
    for l in lexemes {
        let start = at;
        for c in piece(sql, &l).chars() {
            if c == '\n' {
                at.line += 1;
                at.column = 1;
            } else {
                at.column += 1;
            }
        }
        let token = match l.kind {
            Kind::Token(t) => t,
            _ => Token::Whitespace(Whitespace::Space),
        };
        out.push(TokenWithSpan::new(token, Span::new(start, at)));
    }
    out
}

/// Cuts `PARTITION BY ...` (at nesting depth 0, after the table body) off
/// the statement: returns the rest and the clause (whitespace collapsed).
fn cut_partitioning(sql: &str, mut tokens: Vec<Lexeme>) -> (Vec<Lexeme>, Option<String>) {
    let mut depth = 0usize;
    let mut body_seen = false;
    let mut cut = None;
    for (n, l) in tokens.iter().enumerate() {
        match l.token() {
            Token::LParen => depth += 1,
            Token::RParen => {
                depth = depth.saturating_sub(1);
                body_seen |= depth == 0;
            }
            _ => match l.word() {
                Some(w) if depth == 0 && body_seen && w.eq_ignore_ascii_case("PARTITION") => {
                    let next = tokens[n + 1..].iter().find_map(Lexeme::word);
                    if next.is_some_and(|w| w.eq_ignore_ascii_case("BY")) {
                        cut = Some(n);
                        break;
                    }
                }
                _ => {}
            },
        }
    }
    let Some(n) = cut else {
        return (tokens, None);
    };
    let rest = text(sql, &tokens[n..]);
    let rest = rest.trim_end();
    let rest = rest.strip_suffix(';').unwrap_or(rest);
    let clause = rest.split_whitespace().collect::<Vec<_>>().join(" ");
    tokens.truncate(n);
    (tokens, Some(clause))
}

/// Unwraps `/*!NNNNN content */` to ` content ` (its markers become
/// blanks); `/*T![..] .. */` is kept (the TiDB pass reads it).
fn unwrap_comments(mut lexemes: Vec<Lexeme>) -> Vec<Lexeme> {
    for l in &mut lexemes {
        if matches!(l.kind, Kind::VersionOpen | Kind::VersionClose) {
            *l = blank(l.range.clone());
        }
    }
    lexemes
}

/// A word of the pre-pass: an unquoted word or a number, as written.
fn word<'s>(sql: &'s str, l: &Lexeme) -> Option<&'s str> {
    match l.token() {
        Token::Word(w) if w.quote_style.is_none() => Some(&sql[l.range.clone()]),
        Token::Number(..) => Some(&sql[l.range.clone()]),
        _ => None,
    }
}

/// A quoted identifier or string literal.
fn is_quoted(l: &Lexeme) -> bool {
    matches!(l.token(), Token::Word(w) if w.quote_style.is_some()) || l.is_string()
}

/// Removes index visibility markers and `WITH PARSER name` clauses from the
/// constraint items of the first parenthesised group (the table body),
/// remembering which were hidden (`INVISIBLE`, `IGNORED`; `VISIBLE` and `NOT
/// IGNORED` are the default and just removed) and each item's parser name.
/// Column items are not touched: a column-level `INVISIBLE` (an invisible
/// column) is left to sqlparser.
fn strip_index_markers(sql: &str, mut tokens: Vec<Lexeme>) -> (Prepared, Vec<Lexeme>) {
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
    for (n, l) in tokens.iter().enumerate() {
        let text = piece(sql, l);
        let w = word(sql, l);
        match l.token() {
            Token::LParen => {
                depth += 1;
                if depth == 1 {
                    item_started = false;
                }
            }
            Token::RParen => {
                depth = depth.saturating_sub(1);
                body_done |= depth == 0;
            }
            Token::Comma if depth == 1 && !body_done => item_started = false,
            _ if depth == 1 && !body_done && (w.is_some() || is_quoted(l)) => {
                if !item_started {
                    item_started = true;
                    item_is_constraint = w.is_some_and(crate::tidb::scan::is_constraint_word);
                    item_takes_no_options = ["FULLTEXT", "SPATIAL"]
                        .iter()
                        .any(|w| text.eq_ignore_ascii_case(w));
                    constraint_items += usize::from(item_is_constraint);
                } else if let (true, Some(w)) = (item_is_constraint, w) {
                    let item = constraint_items - 1;
                    let upper = w.to_ascii_uppercase();
                    let after_not = last_word
                        .is_some_and(|p| piece(sql, &tokens[p]).eq_ignore_ascii_case("NOT"));
                    match upper.as_str() {
                        _ if drop[n] => {}
                        "COMMENT" if item_takes_no_options => {
                            let literal = next_significant(&tokens, n)
                                .filter(|(_, l)| matches!(l.token(), Token::SingleQuotedString(_)));
                            if let Some((m, l)) = literal {
                                if let Some(text) =
                                    crate::model::unquote_sql_string(&sql[l.range.clone()])
                                {
                                    drop[n] = true;
                                    drop[m] = true;
                                    key_comments.insert(item, text);
                                }
                            }
                        }
                        "WITH" => {
                            if let Some((p, name)) = parser_clause(&tokens, n) {
                                drop[n] = true;
                                drop[p] = true;
                                drop[name.0] = true;
                                parsers.insert(item, name.1);
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
                if w.is_some() {
                    last_word = Some(n);
                }
            }
            _ => {}
        }
    }
    for (l, dropped) in tokens.iter_mut().zip(&drop) {
        if *dropped {
            *l = blank(l.range.clone());
        }
    }
    let prepared = Prepared {
        hidden_constraints,
        parsers,
        key_comments,
        ..Prepared::default()
    };
    (prepared, tokens)
}

/// The first lexeme after `at` that is not whitespace.
fn next_significant(tokens: &[Lexeme], at: usize) -> Option<(usize, &Lexeme)> {
    tokens.iter().enumerate().skip(at + 1).find(|(_, l)| {
        !matches!(
            l.token(),
            Token::Whitespace(Whitespace::Space | Whitespace::Newline | Whitespace::Tab)
        )
    })
}

/// At a `WITH` token (`at`): the position of `PARSER` and the position and
/// value of the name after it (a word or a backticked identifier), when
/// that is what follows.
fn parser_clause(tokens: &[Lexeme], at: usize) -> Option<(usize, (usize, String))> {
    let (p, l) = next_significant(tokens, at)?;
    if !l.word().is_some_and(|w| w.eq_ignore_ascii_case("PARSER")) {
        return None;
    }
    let (name, l) = next_significant(tokens, p)?;
    match l.token() {
        Token::Word(w) if matches!(w.quote_style, None | Some('`')) => {
            Some((p, (name, w.value.clone())))
        }
        _ => None,
    }
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
