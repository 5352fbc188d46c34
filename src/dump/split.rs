//! A dump's text as statements, and what each statement is.
//!
//! The text is split with the pre-pass lexer, lexed once, so quotes,
//! backticks and comments never end a statement; `DELIMITER` lines
//! (routines and triggers) change the statement terminator. Each statement
//! is then classified: a `CREATE TABLE` to parse, a view (named), nothing
//! but comments, or anything else ([`super::reader`] skips and counts it).

use crate::ident::Ident;
use crate::sql::lex::{lex_pieces, Kind as LexKind, Lexeme, Pieces, Token};

/// One statement of a dump, without its terminator.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Statement<'t> {
    /// 1-based line where its first significant token starts.
    pub line: usize,
    /// Its text.
    pub text: &'t str,
    /// Its lexemes (ranges in the dump's text), from the dump's one lexing.
    pub lexemes: Vec<Lexeme>,
}

/// Splits dump text into statements (see the module docs), lexing it once,
/// a piece at a time ([`lex_pieces`]).
pub(crate) fn split_statements(text: &str) -> Split<'_> {
    Split {
        text,
        line_starts: std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect(),
        lexemes: lex_pieces(text),
        delimiter: ";".to_string(),
        start: None,
        current: Vec::new(),
        skip_until: 0,
    }
}

/// The statements of a dump, one at a time (their lexemes move out of the
/// dump's as they are reached; only the current piece's are held).
pub(crate) struct Split<'t> {
    text: &'t str,
    line_starts: Vec<usize>,
    lexemes: Pieces<'t>,
    delimiter: String,
    /// Where the statement being read starts.
    start: Option<usize>,
    /// Its lexemes so far.
    current: Vec<Lexeme>,
    skip_until: usize,
}

impl<'t> Split<'t> {
    fn statement(&mut self, start: usize, end: usize) -> Statement<'t> {
        Statement {
            line: self.line_starts.partition_point(|s| *s <= start),
            text: &self.text[start..end],
            lexemes: std::mem::take(&mut self.current),
        }
    }
}

impl<'t> Iterator for Split<'t> {
    type Item = Statement<'t>;

    fn next(&mut self) -> Option<Statement<'t>> {
        let text = self.text;
        while let Some(l) = self.lexemes.next() {
            let range = l.range.clone();
            if range.start < self.skip_until {
                continue;
            }
            if self.start.is_none()
                && l.word()
                    .is_some_and(|w| w.eq_ignore_ascii_case("DELIMITER"))
                && text[range.end..]
                    .chars()
                    .next()
                    .is_none_or(char::is_whitespace)
                && text[..range.start]
                    .chars()
                    .rev()
                    .take_while(|c| *c != '\n')
                    .all(char::is_whitespace)
            {
                let line_end = text[range.start..]
                    .find('\n')
                    .map_or(text.len(), |p| range.start + p);
                if let Some(d) = text[range.start..line_end].split_whitespace().nth(1) {
                    self.delimiter = d.to_string();
                }
                self.skip_until = line_end;
                continue;
            }
            if self.start.is_none() && l.is_space() {
                continue;
            }
            // `$$` lexes as a word, `;` and `//` as punctuation.
            let plain =
                l.word().is_some() || !matches!(l.token(), Token::Word(_)) && !l.is_string();
            if plain && text[range.start..].starts_with(self.delimiter.as_str()) {
                let end = range.start;
                // Skip the rest of a multi-character delimiter.
                self.skip_until = end + self.delimiter.len();
                if let Some(s) = self.start.take() {
                    return Some(self.statement(s, end));
                }
            } else {
                if self.start.is_none() {
                    self.start = Some(range.start);
                }
                self.current.push(l);
            }
        }
        let s = self.start.take()?;
        if text[s..].trim().is_empty() {
            return None;
        }
        Some(self.statement(s, text.len()))
    }
}

/// What a statement is.
pub(super) enum Class {
    Empty,
    Table,
    /// `CREATE ... VIEW name` (mysqldump wraps it in `/*!50001 ... */`).
    View(Ident),
    Other,
}

/// What the server reads of a statement: its lexemes without whitespace
/// and version-comment markers, a TiDB comment as one (word-less) lexeme.
fn significant(lexemes: &[Lexeme]) -> impl Iterator<Item = &Lexeme> {
    let mut in_tidb = false;
    lexemes.iter().filter(move |l| match l.kind {
        LexKind::TidbOpen { .. } => {
            in_tidb = true;
            true
        }
        LexKind::TidbClose => {
            in_tidb = false;
            false
        }
        LexKind::VersionOpen | LexKind::VersionClose => false,
        _ => !in_tidb && !l.is_space(),
    })
}

/// A `CREATE [OR REPLACE] [TEMPORARY] TABLE` outside a `/*!50001` view
/// stand-in is a table; comments only is empty; anything else is other.
pub(super) fn classify(statement: &Statement) -> Class {
    let tokens: Vec<&Lexeme> = significant(&statement.lexemes).collect();
    if let Some(name) = view_name(&tokens) {
        return Class::View(name);
    }
    if statement.text.trim_start().starts_with("/*!50001") {
        return Class::Other;
    }
    if tokens.is_empty() {
        return Class::Empty;
    }
    let mut words = tokens.iter().filter_map(|l| l.word()).take(5);
    if !words
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case("CREATE"))
    {
        return Class::Other;
    }
    for word in words {
        match word.to_ascii_uppercase().as_str() {
            "OR" | "REPLACE" | "TEMPORARY" => continue,
            "TABLE" => return Class::Table,
            _ => return Class::Other,
        }
    }
    Class::Other
}

/// The name in `CREATE [OR REPLACE] [ALGORITHM=..] [DEFINER=..] [SQL
/// SECURITY ..] VIEW [db.]name AS ...`, unquoted; `tokens` are the
/// statement's [`significant`] lexemes.
fn view_name(tokens: &[&Lexeme]) -> Option<Ident> {
    let is = |i: usize, w: &str| {
        tokens
            .get(i)
            .and_then(|l| l.word())
            .is_some_and(|v| v.eq_ignore_ascii_case(w))
    };
    if !is(0, "CREATE") {
        return None;
    }
    let at = (1..tokens.len())
        .take_while(|i| !is(*i, "AS") && !is(*i, "TABLE"))
        .find(|i| is(*i, "VIEW"))?;
    let ident = |i: usize| -> Option<String> {
        match tokens.get(i)?.token() {
            Token::Word(w) if matches!(w.quote_style, None | Some('`')) => Some(w.value.clone()),
            _ => None,
        }
    };
    let mut name = ident(at + 1)?;
    if tokens.get(at + 2).map(|l| l.token()) == Some(&Token::Period) {
        name = ident(at + 3)?;
    }
    Some(Ident::new(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_are_recognised_by_name() {
        use crate::sql::lex::lex;
        let view_name = |sql: &str| {
            let lexemes = lex(sql);
            let tokens: Vec<_> = significant(&lexemes).collect();
            super::view_name(&tokens)
        };
        for sql in [
            "CREATE VIEW `v` AS SELECT 1",
            "CREATE OR REPLACE ALGORITHM=UNDEFINED DEFINER=`root`@`localhost` SQL SECURITY DEFINER VIEW `db`.`v` AS select 1",
            " CREATE VIEW v AS SELECT 1 AS `a` ",
        ] {
            assert_eq!(view_name(sql), Some(Ident::new("v")), "{sql}");
        }
        assert_eq!(view_name("CREATE TABLE `view` (a int)"), None);
    }

    #[test]
    fn splits_on_delimiters_outside_quotes_and_comments() {
        let text = "-- a; comment\nSET a = ';';\n/*!40101 SET x=1 */;\n\nCREATE TABLE `t;` (\n  a int COMMENT 'x;y'\n) DEFAULT CHARSET=utf8mb4;\nDELIMITER ;;\nCREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW BEGIN SET @a = 1; SET @b = 2; END ;;\nDELIMITER ;\nINSERT INTO t VALUES (1)";
        let s: Vec<_> = split_statements(text).collect();
        let lines: Vec<usize> = s.iter().map(|s| s.line).collect();
        assert_eq!(lines, [2, 3, 5, 9, 11], "{s:#?}");
        assert!(s[2].text.contains("'x;y'"));
        assert!(s[3].text.contains("SET @b = 2; END"));
    }
}
