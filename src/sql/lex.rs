//! The one lexer: sqlparser's MySQL tokenizer with byte ranges, plus the
//! small pass over the two comment hints it does not keep apart.
//!
//! - `/*!NNNNN content */`, a version comment: MySQL executes `content`. It
//!   is lexed as [`Kind::VersionOpen`], the content's own tokens, and
//!   [`Kind::VersionClose`], so a caller can unwrap it or refuse it.
//! - `/*T![feature] content */`, a TiDB feature comment: lexed as
//!   [`Kind::TidbOpen`] with its feature id, the content's own tokens, and
//!   [`Kind::TidbClose`], so a caller can unwrap it, drop it or keep it.
//!
//! sqlparser's MySQL dialect expands `/*! ... */` itself, without marking
//! where it was and with the content's locations off by the opener, so the
//! tokenizer runs here with that one switch off ([`LexDialect`]) and the
//! hint is read by this module.
//!
//! [`lex`] never fails: a character the tokenizer cannot read (the quote of
//! an unterminated string) becomes [`Kind::Unreadable`] and lexing resumes
//! after it, so a dump splits as far as it can be read. [`tokens`] is the
//! strict reading for generated or declared SQL: any comment (hints
//! included) or unreadable text is an error.
//!
//! A dump is lexed once ([`lex_pieces`]: a piece at a time, the same
//! lexemes as the whole text's): its statements are runs of its lexemes, and every
//! later reading of a statement (what it is, the pre-pass, sqlparser) works
//! on those, never on text lexed again.

use std::ops::Range;

use sqlparser::dialect::{Dialect, MySqlDialect};
use sqlparser::tokenizer::{Location, TokenWithSpan, Tokenizer};

pub use sqlparser::tokenizer::{Token, Whitespace};

/// One piece of SQL text and its byte range. Consecutive lexemes cover the
/// text exactly.
#[derive(Debug, Clone, PartialEq)]
pub struct Lexeme {
    /// What it is.
    pub kind: Kind,
    /// Its bytes in the text.
    pub range: Range<usize>,
}

/// What a [`Lexeme`] is.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// A token of sqlparser's MySQL tokenizer (whitespace and plain
    /// comments included).
    Token(Token),
    /// `/*!` or `/*!NNNNN`, opening a version comment.
    VersionOpen,
    /// The `*/` closing a version comment.
    VersionClose,
    /// `/*T![feature]` or `/*T!`, opening a TiDB feature comment; the
    /// content's lexemes follow, then [`Kind::TidbClose`].
    TidbOpen {
        /// The feature id, lowercase; empty for `/*T! content */`.
        feature: String,
    },
    /// The `*/` closing a TiDB feature comment.
    TidbClose,
    /// One character the tokenizer cannot read.
    Unreadable,
}

/// The whitespace token the hint markers read as.
static SPACE: Token = Token::Whitespace(Whitespace::Space);

impl Lexeme {
    /// The token; a hint marker or unreadable character reads as whitespace.
    pub fn token(&self) -> &Token {
        match &self.kind {
            Kind::Token(t) => t,
            _ => &SPACE,
        }
    }

    /// The value of an unquoted word (keyword or name), as written.
    pub fn word(&self) -> Option<&str> {
        match self.token() {
            Token::Word(w) if w.quote_style.is_none() => Some(&w.value),
            _ => None,
        }
    }

    /// Whether it is a string literal (`'..'`, `"..."`, `N'..'`, `X'..'`,
    /// `B'..'`).
    pub fn is_string(&self) -> bool {
        matches!(
            self.token(),
            Token::SingleQuotedString(_)
                | Token::DoubleQuotedString(_)
                | Token::NationalStringLiteral(_)
                | Token::HexStringLiteral(_)
                | Token::SingleQuotedByteStringLiteral(_)
                | Token::DoubleQuotedByteStringLiteral(_)
        )
    }

    /// Whether it is whitespace or a plain comment.
    pub fn is_space(&self) -> bool {
        matches!(self.kind, Kind::Token(Token::Whitespace(_)))
    }
}

/// sqlparser's MySQL dialect for tokenizing, with comment hints left as
/// comments (this module reads them). Every other tokenizer rule is
/// MySqlDialect's (each method the tokenizer asks that MySqlDialect
/// answers differently from the default is passed on), and it is a
/// MySqlDialect to the tokenizer's dialect checks.
#[derive(Debug)]
pub struct LexDialect;

impl Dialect for LexDialect {
    fn dialect(&self) -> std::any::TypeId {
        std::any::TypeId::of::<MySqlDialect>()
    }
    fn is_identifier_start(&self, ch: char) -> bool {
        MySqlDialect {}.is_identifier_start(ch)
    }
    fn is_identifier_part(&self, ch: char) -> bool {
        MySqlDialect {}.is_identifier_part(ch)
    }
    fn is_delimited_identifier_start(&self, ch: char) -> bool {
        MySqlDialect {}.is_delimited_identifier_start(ch)
    }
    fn supports_string_literal_backslash_escape(&self) -> bool {
        MySqlDialect {}.supports_string_literal_backslash_escape()
    }
    fn ignores_wildcard_escapes(&self) -> bool {
        MySqlDialect {}.ignores_wildcard_escapes()
    }
    fn supports_numeric_prefix(&self) -> bool {
        MySqlDialect {}.supports_numeric_prefix()
    }
    fn supports_literal_prefix_in_qualified_name(&self) -> bool {
        MySqlDialect {}.supports_literal_prefix_in_qualified_name()
    }
    fn requires_single_line_comment_whitespace(&self) -> bool {
        MySqlDialect {}.requires_single_line_comment_whitespace()
    }
    fn supports_hash_comment(&self) -> bool {
        MySqlDialect {}.supports_hash_comment()
    }
    fn supports_multiline_comment_hints(&self) -> bool {
        false
    }
}

/// Tokens of `sql` in MySQL's lexical rules (backslash escapes in strings,
/// backtick identifiers), refusing comments: generated and declared SQL
/// never carries one, and MySQL executes the body of a `/*! ... */`.
pub fn tokens(sql: &str) -> Result<Vec<Token>, String> {
    let tokens = Tokenizer::new(&LexDialect, sql)
        .tokenize()
        .map_err(|e| format!("cannot be read as SQL: {e}"))?;
    if tokens.iter().any(|t| {
        matches!(
            t,
            Token::Whitespace(
                Whitespace::SingleLineComment { .. } | Whitespace::MultiLineComment(_)
            )
        )
    }) {
        return Err("contains an SQL comment".into());
    }
    Ok(tokens)
}

/// Tokens of `sql` in MySQL's lexical rules as the server reads them: a
/// version comment's content is tokens (MySQL executes it), any other
/// comment is whitespace. For text read back from a server or a dump.
pub fn all_tokens(sql: &str) -> Result<Vec<Token>, String> {
    lex(sql)
        .into_iter()
        .map(|l| match l.kind {
            Kind::Token(t) => Ok(t),
            Kind::Unreadable => Err(format!(
                "cannot be read as SQL: `{}` at byte {}",
                sql[l.range.clone()].escape_debug(),
                l.range.start
            )),
            _ => Ok(SPACE.clone()),
        })
        .collect()
}

/// Tokens of `sql` as sqlparser's MySQL dialect reads a text on its own
/// (comment hints as tokens), with locations: for a dump statement some of
/// whose lexemes are unreadable, so that parsing it gives the tokenizer's
/// own error (or reads what it can).
pub fn hinted_tokens(
    sql: &str,
) -> Result<Vec<TokenWithSpan>, sqlparser::tokenizer::TokenizerError> {
    Tokenizer::new(&MySqlDialect {}, sql).tokenize_with_location()
}

/// The lexemes of `sql` (see the module docs); they cover it exactly.
pub fn lex(sql: &str) -> Vec<Lexeme> {
    let mut out = Vec::with_capacity(sql.len() / 4);
    let _ = lex_into(sql, 0..sql.len(), &mut out);
    out
}

/// The lexemes of `sql`, the same as [`lex`] gives, read a piece at a time
/// so that a large dump never holds all of its lexemes (and the
/// tokenizer's buffer of them) at once (docs/scale.md: that was most of the
/// memory of `plan --against` and `diff` at 8,192 tables).
pub fn lex_pieces(sql: &str) -> Pieces<'_> {
    Pieces::new(sql, PIECE)
}

/// About how many bytes [`lex_pieces`] lexes at a time.
const PIECE: usize = 64 * 1024;

/// How many `;` past the piece size a piece may try before the rest is
/// lexed whole (a run of `;` inside literals or comments).
const PIECE_TRIES: usize = 8;

/// The iterator of [`lex_pieces`].
///
/// A piece ends just after a `;` found past the piece size. It is kept
/// only when lexing it alone ends in that `;` as a token of its own, with
/// no version comment left open and no unreadable character: the tokenizer
/// reads left to right and a `;` neither extends nor is extended, so the
/// piece's lexemes are then the whole text's, and the next piece starts at
/// a token boundary. A cut that is not clean (inside a literal or a
/// comment) is given up for the next `;`, and after [`PIECE_TRIES`] the
/// rest of the text is lexed whole.
pub struct Pieces<'a> {
    sql: &'a str,
    size: usize,
    /// Where the next piece starts.
    from: usize,
    piece: std::vec::IntoIter<Lexeme>,
}

impl<'a> Pieces<'a> {
    fn new(sql: &'a str, size: usize) -> Self {
        Pieces {
            sql,
            size: size.max(1),
            from: 0,
            piece: Vec::new().into_iter(),
        }
    }

    fn next_piece(&mut self) -> Vec<Lexeme> {
        let (sql, start) = (self.sql, self.from);
        let mut out = Vec::new();
        let mut probe = start + self.size;
        for _ in 0..PIECE_TRIES {
            let Some(cut) = sql
                .as_bytes()
                .get(probe..)
                .and_then(|rest| rest.iter().position(|b| *b == b';'))
                .map(|p| probe + p + 1)
            else {
                break;
            };
            out.clear();
            let open = lex_into(sql, start..cut, &mut out);
            let clean = open == 0
                && out
                    .last()
                    .is_some_and(|l| l.range.end == cut && l.kind == Kind::Token(Token::SemiColon))
                && !out.iter().any(|l| l.kind == Kind::Unreadable);
            if clean {
                self.from = cut;
                return out;
            }
            probe = cut;
        }
        out.clear();
        lex_into(sql, start..sql.len(), &mut out);
        self.from = sql.len();
        out
    }
}

impl Iterator for Pieces<'_> {
    type Item = Lexeme;

    fn next(&mut self) -> Option<Lexeme> {
        loop {
            if let Some(l) = self.piece.next() {
                return Some(l);
            }
            if self.from >= self.sql.len() {
                return None;
            }
            self.piece = self.next_piece().into_iter();
        }
    }
}

/// Lexes `sql[part]` into `out` (ranges in `sql`), never failing; returns
/// how many version comments are left open at its end (lexed on as SQL,
/// their `*/` not yet seen).
fn lex_into(sql: &str, part: Range<usize>, out: &mut Vec<Lexeme>) -> usize {
    let mut from = part.start;
    // Version comments opened whose close is still to come in this run.
    let mut open = 0usize;
    let mut buf = Vec::new();
    while from < part.end {
        let rest = &sql[from..part.end];
        buf.clear();
        let failed = Tokenizer::new(&LexDialect, rest)
            .tokenize_with_location_into_buf(&mut buf)
            .is_err();
        let mut at = Cursor::new(rest);
        let mut restart = None;
        let mut i = 0;
        while i < buf.len() {
            let start = from + at.byte_of(buf[i].span.start);
            let end = from + at.byte_of(buf[i].span.end);
            let token = std::mem::replace(&mut buf[i].token, Token::EOF);
            i += 1;
            match token {
                Token::Whitespace(Whitespace::MultiLineComment(c)) if c.starts_with('!') => {
                    let digits = c[1..].bytes().take_while(u8::is_ascii_digit).count();
                    let open_end = start + 3 + digits;
                    let content_end = end.saturating_sub(2).max(open_end);
                    out.push(Lexeme {
                        kind: Kind::VersionOpen,
                        range: start..open_end,
                    });
                    if lex_content(sql, open_end..content_end, out) {
                        out.push(Lexeme {
                            kind: Kind::VersionClose,
                            range: content_end..end,
                        });
                    } else {
                        // The first `*/` is inside a literal of the
                        // content: lex on from the content as SQL, where
                        // the comment closes at a `*/` outside a literal.
                        open += 1;
                        restart = Some(open_end);
                        break;
                    }
                }
                Token::Whitespace(Whitespace::MultiLineComment(c)) if c.starts_with("T!") => {
                    let inner = &c[2..];
                    let (feature, skip) =
                        match inner.strip_prefix('[').and_then(|r| r.split_once(']')) {
                            Some((id, _)) => (id.trim().to_ascii_lowercase(), id.len() + 2),
                            None => (String::new(), 0),
                        };
                    let content_start = (start + 4 + skip).min(end);
                    let content_end = end.saturating_sub(2).max(content_start);
                    out.push(Lexeme {
                        kind: Kind::TidbOpen { feature },
                        range: start..content_start,
                    });
                    let _ = lex_into(sql, content_start..content_end, out);
                    out.push(Lexeme {
                        kind: Kind::TidbClose,
                        range: content_end..end,
                    });
                }
                Token::Mul
                    if open > 0 && matches!(buf.get(i).map(|t| &t.token), Some(Token::Div)) =>
                {
                    let close_end = from + at.byte_of(buf[i].span.end);
                    if close_end == end + 1 {
                        i += 1;
                        open -= 1;
                        out.push(Lexeme {
                            kind: Kind::VersionClose,
                            range: start..close_end,
                        });
                    } else {
                        out.push(token_lexeme(token, start..end));
                    }
                }
                token => out.push(token_lexeme(token, start..end)),
            }
        }
        from = match restart {
            Some(at) => at,
            None if failed => {
                // The tokens read cover up to the unreadable character.
                let stop = out.last().map_or(from, |l| l.range.end.max(from));
                let len = sql[stop..].chars().next().map_or(1, char::len_utf8);
                if stop < part.end {
                    out.push(Lexeme {
                        kind: Kind::Unreadable,
                        range: stop..stop + len,
                    });
                }
                stop + len
            }
            None => part.end,
        };
    }
    open
}

fn token_lexeme(token: Token, range: Range<usize>) -> Lexeme {
    Lexeme {
        kind: Kind::Token(token),
        range,
    }
}

/// Lexes a version comment's content on its own into `out`; `false`
/// (nothing added) when it does not tokenize on its own.
fn lex_content(sql: &str, content: Range<usize>, out: &mut Vec<Lexeme>) -> bool {
    let text = &sql[content.clone()];
    let mut buf = Vec::new();
    if Tokenizer::new(&LexDialect, text)
        .tokenize_with_location_into_buf(&mut buf)
        .is_err()
    {
        return false;
    }
    let mut at = Cursor::new(text);
    for t in buf {
        let start = content.start + at.byte_of(t.span.start);
        let end = content.start + at.byte_of(t.span.end);
        out.push(token_lexeme(t.token, start..end));
    }
    true
}

/// Turns the tokenizer's (line, column) locations, asked in increasing
/// order, into byte offsets (columns count characters, as the tokenizer does).
struct Cursor<'a> {
    text: &'a str,
    byte: usize,
    line: u64,
    column: u64,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Self {
        Cursor {
            text,
            byte: 0,
            line: 1,
            column: 1,
        }
    }

    fn byte_of(&mut self, to: Location) -> usize {
        while (self.line, self.column) < (to.line, to.column) {
            let Some(c) = self.text[self.byte..].chars().next() else {
                break;
            };
            self.byte += c.len_utf8();
            if c == '\n' {
                self.line += 1;
                self.column = 1;
            } else {
                self.column += 1;
            }
        }
        self.byte
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(sql: &str) -> Vec<&str> {
        lex(sql).iter().map(|l| &sql[l.range.clone()]).collect()
    }

    #[test]
    fn lexing_in_pieces_gives_the_whole_text_lexemes() {
        // Every piece size, on texts whose `;` sit inside literals,
        // comments, version and TiDB comments, a restarted version comment
        // and an unterminated string, as well as between statements.
        for sql in [
            "CREATE TABLE a (x int COMMENT 'p;q');\nCREATE TABLE b (y int);\n",
            "SET @a = 1; /* c; d */ SELECT 'x;y', \"z;\"; -- e;\n# f;\nSELECT 2;",
            "/*!40101 SET x=1; */; /*!50100 COMMENT='x */ y;' */ z; w;",
            "a; /*!50100 COMMENT='x */ y'; SELECT 1; */ z; w;",
            "CREATE TABLE t (a int) /*T![ttl] TTL=`a` + INTERVAL 1 DAY; */; x;",
            "DELIMITER ;;\nCREATE TRIGGER t BEFORE INSERT ON a FOR EACH ROW BEGIN SET @x = 1; END;;\nDELIMITER ;\nSELECT 1;",
            "SELECT `a;b`; SELECT 'open; SELECT 2; SELECT 3;",
            "SELECT 1; SELECT x.1e2; SELECT é; SELECT '\\';'; SELECT 4;",
        ] {
            let whole = lex(sql);
            for size in 1..=sql.len() + 1 {
                let pieces: Vec<Lexeme> = Pieces::new(sql, size).collect();
                assert_eq!(pieces, whole, "piece size {size}: {sql}");
            }
        }
    }

    #[test]
    fn lexemes_cover_the_text_with_their_ranges() {
        for sql in [
            "CREATE TABLE `é` (\n  `a``b` int COMMENT 'x\\'y', KEY i (a)) -- c\n# d\n",
            "'abc\\",
            "'\\é' `é` é /*!",
            "\"x\\\"é\" -- é",
            "a /* x */ b /*!50100 c */ d /*T![ttl] TTL=`a` + INTERVAL 1 DAY */",
            "x /*!50100 COMMENT='x */ y' */ z",
        ] {
            let l = lex(sql);
            assert_eq!(texts(sql).concat(), sql, "{sql}");
            for w in l.windows(2) {
                assert_eq!(w[0].range.end, w[1].range.start, "{sql}");
            }
        }
    }

    #[test]
    fn hints_are_marked_and_their_content_lexed() {
        let sql = "x /*!50100 COMMENT='x */ y' */ z /*!*/ /*T![clustered_index] CLUSTERED */ /*T! SHARD_ROW_ID_BITS=4 */";
        let l = lex(sql);
        let kinds: Vec<&Kind> = l.iter().map(|l| &l.kind).collect();
        assert_eq!(
            kinds.iter().filter(|k| ***k == Kind::VersionOpen).count(),
            2
        );
        assert_eq!(
            kinds.iter().filter(|k| ***k == Kind::VersionClose).count(),
            2
        );
        assert!(l
            .iter()
            .any(|l| l.kind == Kind::Token(Token::SingleQuotedString("x */ y".into()))));
        // A TiDB comment: its opener with the feature, the content's
        // tokens, its close.
        let tidb: Vec<(String, &str)> = l
            .iter()
            .enumerate()
            .filter_map(|(n, o)| match &o.kind {
                Kind::TidbOpen { feature } => {
                    let close = n + l[n..].iter().position(|c| c.kind == Kind::TidbClose)?;
                    Some((feature.clone(), &sql[o.range.end..l[close].range.start]))
                }
                _ => None,
            })
            .collect();
        assert_eq!(
            tidb,
            [
                ("clustered_index".to_string(), " CLUSTERED "),
                (String::new(), " SHARD_ROW_ID_BITS=4 ")
            ]
        );
        assert!(l.iter().any(|l| l.word() == Some("SHARD_ROW_ID_BITS")));
    }

    #[test]
    fn the_lex_dialect_tokenizes_as_mysql_outside_hints() {
        let sql = "SELECT `a`, 'x\\'y', \"d\", 0x1F, X'00', b'01', N'n', _utf8mb4'u', 1e5, 5ab, @v, @@g, $d FROM t # c\n-- c\n";
        let theirs = Tokenizer::new(&MySqlDialect {}, sql).tokenize().unwrap();
        assert_eq!(all_tokens(sql).unwrap(), theirs);
        // A version comment's content is tokens, as MySQL executes it.
        let hinted = all_tokens("(1) /*! , x int */").unwrap();
        assert!(hinted.contains(&Token::Comma), "{hinted:?}");
        assert!(tokens("1 /*! , x int */").is_err());
        assert!(tokens("1 -- x").is_err());
        assert_eq!(tokens("1 + 2").unwrap().len(), 5);
    }
}
