//! The index options of a step's statement that sqlparser does not read,
//! checked against the step and taken out so that the rest parses (see
//! [`super`]): each exactly where the renderer writes it and exactly
//! as many as the step declares.
//!
//! - `INVISIBLE` / `IGNORED` after an index's key parts (or its comment);
//! - `WITH PARSER name` after a FULLTEXT key's parts: the names, in order,
//!   must be the step's parsers (the closed [`FullTextParser`] set);
//! - `COMMENT '...'` of a FULLTEXT or SPATIAL key inside `CREATE TABLE`
//!   (sqlparser reads no option on those keys).

use sqlparser::tokenizer::Token;

use crate::diff::Change;
use crate::model::{FullTextParser, Index};

/// Takes out the step's index options (parsers first: a visibility word
/// may follow the parser name), or says which do not match the step.
pub(super) fn without_index_options(
    tokens: Vec<Token>,
    change: &Change,
) -> Result<Vec<Token>, String> {
    let tokens = without_parsers(tokens, &parsers(change))?;
    let tokens = without_visibility(tokens, invisible_indexes(change))?;
    without_key_comments(tokens, key_comments(change))
}

/// The step's indexes.
fn indexes(change: &Change) -> Vec<&Index> {
    match change {
        Change::AddTable(t) => t.indexes.iter().collect(),
        Change::AddIndex { index, .. } => vec![index],
        Change::AddColumn { .. } | Change::WidenColumn { .. } => Vec::new(),
    }
}

/// The FULLTEXT parsers the step declares, in index order.
fn parsers(change: &Change) -> Vec<FullTextParser> {
    indexes(change)
        .iter()
        .filter_map(|i| i.kind.parser())
        .collect()
}

/// How many FULLTEXT / SPATIAL keys of a new table carry a comment.
fn key_comments(change: &Change) -> usize {
    match change {
        Change::AddTable(t) => t
            .indexes
            .iter()
            .filter(|i| i.kind != crate::model::IndexKind::BTree && i.comment.is_some())
            .count(),
        _ => 0,
    }
}

fn significant(t: &Token) -> bool {
    !matches!(t, Token::Whitespace(_))
}

fn is_word(t: &Token, word: &str) -> bool {
    matches!(t, Token::Word(w) if w.quote_style.is_none() && w.value.eq_ignore_ascii_case(word))
}

/// Takes out each `WITH PARSER name` written right after a key-part list
/// (a `)`), requiring the names, in order, to be exactly `expected`.
fn without_parsers(tokens: Vec<Token>, expected: &[FullTextParser]) -> Result<Vec<Token>, String> {
    let mut out: Vec<Token> = Vec::with_capacity(tokens.len());
    let mut found: Vec<String> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        if is_word(t, "WITH")
            && matches!(
                out.iter().rev().find(|t| significant(t)),
                Some(Token::RParen)
            )
        {
            let mut rest = (i + 1..tokens.len()).filter(|&k| significant(&tokens[k]));
            if let (Some(p), Some(n)) = (rest.next(), rest.next()) {
                if let (true, Token::Word(name)) = (is_word(&tokens[p], "PARSER"), &tokens[n]) {
                    found.push(name.value.clone());
                    i = n + 1;
                    continue;
                }
            }
        }
        out.push(t.clone());
        i += 1;
    }
    let same = found.len() == expected.len()
        && found
            .iter()
            .zip(expected)
            .all(|(f, e)| FullTextParser::parse(f).ok() == Some(*e));
    if !same {
        let want: Vec<&str> = expected.iter().map(|p| p.name()).collect();
        return Err(format!(
            "declares FULLTEXT parsers [{}], not the step's [{}]",
            found.join(", "),
            want.join(", ")
        ));
    }
    Ok(out)
}

/// Takes out `COMMENT '...'` inside the items of a `CREATE TABLE` body that
/// start with `FULLTEXT` or `SPATIAL`, requiring exactly `expected`.
fn without_key_comments(tokens: Vec<Token>, expected: usize) -> Result<Vec<Token>, String> {
    let mut out: Vec<Token> = Vec::with_capacity(tokens.len());
    let mut depth = 0usize;
    let mut item_start = false;
    let mut keyed = false;
    let mut removed = 0;
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        match t {
            Token::LParen => {
                depth += 1;
                item_start = depth == 1;
            }
            Token::RParen => depth = depth.saturating_sub(1),
            Token::Comma if depth == 1 => item_start = true,
            t if depth == 1 && item_start && significant(t) => {
                item_start = false;
                keyed = is_word(t, "FULLTEXT") || is_word(t, "SPATIAL");
            }
            t if depth == 1 && keyed && is_word(t, "COMMENT") => {
                let next = (i + 1..tokens.len()).find(|&k| significant(&tokens[k]));
                if let Some(k) = next.filter(|&k| matches!(tokens[k], Token::SingleQuotedString(_)))
                {
                    removed += 1;
                    i = k + 1;
                    continue;
                }
            }
            _ => {}
        }
        out.push(t.clone());
        i += 1;
    }
    if removed != expected {
        return Err(format!(
            "gives {removed} FULLTEXT / SPATIAL keys a comment, not the step's {expected}"
        ));
    }
    Ok(out)
}

/// How many indexes the step declares invisible / ignored.
fn invisible_indexes(change: &Change) -> usize {
    indexes(change).iter().filter(|i| !i.visible).count()
}

/// sqlparser has no index visibility option: takes out each `INVISIBLE` /
/// `IGNORED` word written right after an index's key-part list (a `)`
/// or its COMMENT literal, followed by `,`, `)` or the end), requiring exactly as many as the step
/// declares, so that the rest parses and is checked as usual.
fn without_visibility(tokens: Vec<Token>, expected: usize) -> Result<Vec<Token>, String> {
    let is_visibility = |t: &Token| {
        matches!(t, Token::Word(w) if w.quote_style.is_none()
            && (w.value.eq_ignore_ascii_case("INVISIBLE") || w.value.eq_ignore_ascii_case("IGNORED")))
    };
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

#[cfg(test)]
mod tests {
    use crate::apply::guard::check_statement;
    use crate::diff::Change;
    use crate::plan::Step;
    use crate::server::Flavor;

    /// A table with an invisible ngram FULLTEXT key with a comment and a
    /// plain commented one: its rendered CREATE passes; the same text with
    /// another parser, an extra or a missing one, or an extra comment, is
    /// refused.
    #[test]
    fn fulltext_parsers_and_key_comments_must_be_the_steps() {
        let t = crate::dump::table(
            "CREATE TABLE `T` (`Id` bigint unsigned NOT NULL, `Body` text, PRIMARY KEY (`Id`), \
             FULLTEXT KEY `ft_ngram` (`Body`) COMMENT 'CJK, bigrams' /*!50100 WITH PARSER `ngram` */ \
             /*!80000 INVISIBLE */, FULLTEXT KEY `ft_plain` (`Body`) COMMENT 'plain'\
             ) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
        );
        let change = Change::AddTable(t);
        let sql = Step::new(change.clone(), Flavor::MySql).sql;
        let good =
            "FULLTEXT KEY `ft_ngram` (`Body`) WITH PARSER `ngram` COMMENT 'CJK, bigrams' INVISIBLE";
        assert!(sql.contains(good), "{sql}");
        check_statement(&change, &sql, Flavor::MySql).unwrap();
        for (from, to) in [
            ("WITH PARSER `ngram`", "WITH PARSER `mecab`"),
            ("WITH PARSER `ngram` ", ""),
            (
                "(`Body`) COMMENT 'plain'",
                "(`Body`) WITH PARSER ngram COMMENT 'plain'",
            ),
            ("(`Body`) COMMENT 'plain'", "(`Body`)"),
            ("COMMENT 'plain'", "COMMENT 'plain' COMMENT 'again'"),
        ] {
            assert!(sql.contains(from), "{from} in {sql}");
            let bad = sql.replacen(from, to, 1);
            assert!(
                check_statement(&change, &bad, Flavor::MySql).is_err(),
                "{bad}"
            );
        }
    }
}
