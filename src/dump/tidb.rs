//! TiDB's table features in `CREATE TABLE` text: the `/*T![feature] ... */`
//! comments `SHOW CREATE TABLE` prints on TiDB (`clustered_index`,
//! `auto_rand`, `ttl`, and the bare `/*T! SHARD_ROW_ID_BITS=4
//! PRE_SPLIT_REGIONS=2 */`), and the same clauses in TiDB's plain syntax (as
//! `render --flavor tidb` writes them). Known comments are unwrapped, then
//! every clause is read by the one scanner ([`crate::tidb::scan`]) and cut
//! from the text before sqlparser sees it. A comment of any other feature is
//! never dropped silently: it is kept as a [`super::Feature`] naming the
//! feature (import refuses it). `auto_rand_base` (the next AUTO_RANDOM
//! value, data like AUTO_INCREMENT's) and `auto_id_cache` (the id
//! allocator's cache) are dropped.
//!
//! Feature ids: <https://docs.pingcap.com/tidb/stable/comment-syntax/#tidb-specific-comment-syntax>.

use crate::sql::lex::{Kind, Lexeme, Token, Whitespace};
use crate::tidb::scan;
use crate::tidb::TidbOptions;

use super::lexeme_text::blank;

/// Feature ids whose comments hold clauses the model reads.
const READ: &[&str] = &["", "clustered_index", "auto_rand", "ttl"];
/// Feature ids whose comments hold data or allocator settings, not shape:
/// the next AUTO_RANDOM value, and the id allocator's cache
/// (<https://docs.pingcap.com/tidb/stable/auto-increment/#auto_id_cache>),
/// like the AUTO_INCREMENT counter the model leaves out.
const DATA: &[&str] = &["auto_rand_base", "auto_id_cache"];

/// What the TiDB pass found.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct TidbPass {
    /// The lexemes with the TiDB comments and clauses taken out (blanks).
    pub lexemes: Vec<Lexeme>,
    /// What they declare.
    pub found: Found,
}

/// The TiDB features a statement declares.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Found {
    /// The options, when the text holds any TiDB comment or clause.
    pub options: Option<TidbOptions>,
    /// Comments of features the model does not read: (feature id, comment).
    pub unknown: Vec<(String, String)>,
}

/// The lexeme of the `TidbClose` that ends the comment opened at `open`.
fn close_of(lexemes: &[Lexeme], open: usize) -> usize {
    lexemes[open..]
        .iter()
        .position(|l| l.kind == Kind::TidbClose)
        .map_or(lexemes.len() - 1, |p| open + p)
}

fn feature_of(l: &Lexeme) -> Option<&str> {
    match &l.kind {
        Kind::TidbOpen { feature } => Some(feature),
        _ => None,
    }
}

/// Runs the pass over a statement's lexemes (ranges in `sql`; version
/// comments already unwrapped). The comments of the features it reads are
/// unwrapped, the others taken out (one blank each); then every clause is
/// found by the one scanner and cut. On an error the lexemes come back as
/// they were.
pub(super) fn read(sql: &str, lexemes: Vec<Lexeme>) -> Result<TidbPass, (String, Vec<Lexeme>)> {
    let (found, cut) = match read_view(sql, &lexemes) {
        Ok(r) => r,
        Err(e) => return Err((e, lexemes)),
    };
    let mut out = Vec::with_capacity(lexemes.len());
    let mut comment: Option<(usize, bool)> = None;
    for (n, l) in lexemes.into_iter().enumerate() {
        match (&l.kind, comment) {
            (Kind::TidbOpen { feature }, _) => {
                let read = READ.contains(&feature.as_str());
                comment = Some((l.range.start, read));
                if read {
                    out.push(blank(l.range));
                }
            }
            (Kind::TidbClose, Some((start, read))) => {
                comment = None;
                out.push(blank(if read { l.range } else { start..l.range.end }));
            }
            (_, Some((_, false))) => {}
            _ if cut[n] => out.push(blank(l.range)),
            _ => out.push(l),
        }
    }
    Ok(TidbPass {
        lexemes: out,
        found,
    })
}

/// The scan over what the server reads of the lexemes: the content of a
/// comment it reads, one space for one it does not; with the lexemes the
/// clauses found span.
fn read_view(sql: &str, lexemes: &[Lexeme]) -> Result<(Found, Vec<bool>), String> {
    static SPACE: Token = Token::Whitespace(Whitespace::Space);
    let mut found = Found::default();
    let mut seen = false;
    let mut view: Vec<&Token> = Vec::with_capacity(lexemes.len());
    let mut at: Vec<usize> = Vec::with_capacity(lexemes.len());
    let mut n = 0;
    while n < lexemes.len() {
        let l = &lexemes[n];
        if let Some(feature) = feature_of(l) {
            seen = true;
            let close = close_of(lexemes, n);
            if !READ.contains(&feature) {
                view.push(&SPACE);
                at.push(n);
                if !DATA.contains(&feature) {
                    let text = &sql[l.range.start..lexemes[close].range.end];
                    found.unknown.push((feature.to_string(), text.to_string()));
                }
                n = close + 1;
                continue;
            }
        }
        view.push(l.token());
        at.push(n);
        n += 1;
    }
    let clauses = scan::scan(view.as_slice())?;
    let mut cut = vec![false; lexemes.len()];
    for f in &clauses {
        for k in f.range.clone() {
            cut[at[k]] = true;
        }
    }
    if seen || !clauses.is_empty() {
        found.options = Some(scan::fold(&clauses)?);
    }
    Ok((found, cut))
}

/// The lexemes with each TiDB comment whole again (a comment, as the server
/// would read it without the pass): what sqlparser reads when the pass
/// failed.
pub(super) fn whole_comments(sql: &str, lexemes: Vec<Lexeme>) -> Vec<Lexeme> {
    let mut out = Vec::with_capacity(lexemes.len());
    let mut start = None;
    for l in lexemes {
        match (&l.kind, start) {
            (Kind::TidbOpen { .. }, _) => start = Some(l.range.start),
            (Kind::TidbClose, Some(s)) => {
                start = None;
                let range = s..l.range.end;
                let inner = sql[range.clone()]
                    .strip_prefix("/*")
                    .and_then(|c| c.strip_suffix("*/"))
                    .unwrap_or_default()
                    .to_string();
                out.push(Lexeme {
                    kind: Kind::Token(Token::Whitespace(Whitespace::MultiLineComment(inner))),
                    range,
                });
            }
            (_, Some(_)) => {}
            _ => out.push(l),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn show_create_markers_are_read_and_unknown_ones_kept() {
        let sql = "CREATE TABLE `t` (\n  `id` bigint NOT NULL /*T![auto_rand] AUTO_RANDOM(5) */,\n  \
                   `at` datetime DEFAULT NULL,\n  PRIMARY KEY (`id`) /*T![clustered_index] CLUSTERED */\n\
                   ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin /*T![auto_rand_base] AUTO_RANDOM_BASE=30001 */ \
                   /*T![ttl] TTL=`at` + INTERVAL 7 DAY */ /*T![ttl] TTL_ENABLE='ON' */ /*T![ttl] TTL_JOB_INTERVAL='1h' */ \
                   /*T![placement] PLACEMENT POLICY=`p1` */";
        let read = |sql: &str| read(sql, crate::sql::lex::lex(sql)).map_err(|(e, _)| e);
        let text = |pass: &TidbPass| super::super::lexeme_text::text(sql, &pass.lexemes);
        let pass = read(sql).unwrap();
        let pass_sql = text(&pass);
        let (pass, o) = (pass.found.clone(), pass.found.options.unwrap());
        assert_eq!(o.clustered, Some(true));
        assert_eq!(o.auto_random.unwrap().shard_bits, 5);
        let ttl = o.ttl.unwrap();
        assert_eq!((ttl.interval.amount, ttl.enabled), (7, true));
        assert_eq!(pass.unknown.len(), 1);
        assert_eq!(pass.unknown[0].0, "placement");
        for gone in ["/*", "AUTO_RANDOM", "CLUSTERED", "TTL", "PLACEMENT"] {
            assert!(!pass_sql.contains(gone), "{gone}: {pass_sql}");
        }
        let bare =
            read("CREATE TABLE t (a int) /*T! SHARD_ROW_ID_BITS=4 PRE_SPLIT_REGIONS=2 */").unwrap();
        let o = bare.found.options.unwrap();
        assert_eq!(
            (o.shard_row_id_bits, o.pre_split_regions),
            (Some(4), Some(2))
        );
        assert_eq!(read("CREATE TABLE t (a int)").unwrap().found.options, None);
    }
}
