//! The text lexemes stand for once the dump's passes have rewritten them:
//! a removed piece is one blank. Shared by the pre-pass (`prepass`) and
//! the TiDB comment pass (`tidb`), a leaf so neither imports the other for
//! it.

use crate::sql::lex::{Kind, Lexeme, Token, Whitespace};

/// One space of text standing for what a step removed.
pub(super) fn blank(range: std::ops::Range<usize>) -> Lexeme {
    Lexeme {
        kind: Kind::Token(Token::Whitespace(Whitespace::Space)),
        range,
    }
}

/// The text a lexeme stands for after the steps: a blank, a space token
/// or a comment marker is one space, anything else its bytes.
pub(super) fn piece<'s>(sql: &'s str, l: &Lexeme) -> &'s str {
    match &l.kind {
        Kind::Token(Token::Whitespace(Whitespace::Space))
        | Kind::VersionOpen
        | Kind::VersionClose
        | Kind::TidbOpen { .. }
        | Kind::TidbClose => " ",
        _ => &sql[l.range.clone()],
    }
}

/// The text the lexemes stand for.
pub(super) fn text(sql: &str, lexemes: &[Lexeme]) -> String {
    lexemes.iter().map(|l| piece(sql, l)).collect()
}
