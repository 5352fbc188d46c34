//! Index visibility (`INVISIBLE` / `IGNORED`), which sqlparser cannot
//! read: counted against the step's invisible indexes and taken out.

use sqlparser::tokenizer::Token;

use crate::diff::Change;

/// How many indexes the step declares invisible / ignored.
pub(super) fn invisible_indexes(change: &Change) -> usize {
    match change {
        Change::AddTable(t) => t.indexes.iter().filter(|i| !i.visible).count(),
        Change::AddIndex { index, .. } => usize::from(!index.visible),
        Change::AddColumn { .. } => 0,
    }
}

/// sqlparser has no index visibility option: takes out each `INVISIBLE` /
/// `IGNORED` word written right after an index's key-part list (a `)`
/// or its COMMENT literal, followed by `,`, `)` or the end), requiring exactly as many as the step
/// declares, so that the rest parses and is checked as usual.
pub(super) fn without_visibility(
    tokens: Vec<Token>,
    expected: usize,
) -> Result<Vec<Token>, String> {
    let is_visibility = |t: &Token| {
        matches!(t, Token::Word(w) if w.quote_style.is_none()
            && (w.value.eq_ignore_ascii_case("INVISIBLE") || w.value.eq_ignore_ascii_case("IGNORED")))
    };
    let significant = |t: &Token| !matches!(t, Token::Whitespace(_));
    let mut out: Vec<Token> = Vec::with_capacity(tokens.len());
    let mut removed = 0;
    for (i, t) in tokens.iter().enumerate() {
        if is_visibility(t) {
            let before = out.iter().rev().find(|t| significant(t));
            let after = tokens[i + 1..].iter().find(|t| significant(t));
            // After the key parts, or after the index's COMMENT '...'.
            let placed = matches!(before, Some(Token::RParen | Token::SingleQuotedString(_)))
                && matches!(
                    after,
                    None | Some(Token::Comma | Token::RParen | Token::EOF)
                );
            if placed {
                removed += 1;
                continue;
            }
        }
        out.push(t.clone());
    }
    if removed != expected {
        return Err(format!(
            "marks {removed} indexes invisible / ignored, not the step's {expected}"
        ));
    }
    Ok(out)
}
