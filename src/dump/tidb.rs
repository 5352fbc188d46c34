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

use crate::sql::lex::{lex, Kind, Lexeme};
use crate::tidb::scan;
use crate::tidb::TidbOptions;

/// Feature ids whose comments hold clauses the model reads.
const READ: &[&str] = &["", "clustered_index", "auto_rand", "ttl"];
/// Feature ids whose comments hold data or allocator settings, not shape:
/// the next AUTO_RANDOM value, and the id allocator's cache
/// (<https://docs.pingcap.com/tidb/stable/auto-increment/#auto_id_cache>),
/// like the AUTO_INCREMENT counter the model leaves out.
const DATA: &[&str] = &["auto_rand_base", "auto_id_cache"];

/// What the TiDB pass found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct TidbPass {
    /// The text with the TiDB comments and clauses taken out.
    pub sql: String,
    /// The options, when the text holds any TiDB comment or clause.
    pub options: Option<TidbOptions>,
    /// Comments of features the model does not read: (feature id, comment).
    pub unknown: Vec<(String, String)>,
}

/// Runs the pass over `sql` (version comments already unwrapped).
pub(super) fn read(sql: &str) -> Result<TidbPass, String> {
    let mut unwrapped = String::with_capacity(sql.len());
    let mut pass = TidbPass::default();
    let mut seen = false;
    for l in lex(sql) {
        let Kind::Tidb { feature, content } = &l.kind else {
            unwrapped.push_str(&sql[l.range]);
            continue;
        };
        seen = true;
        unwrapped.push(' ');
        if READ.contains(&feature.as_str()) {
            unwrapped.push_str(&sql[content.clone()]);
            unwrapped.push(' ');
        } else if !DATA.contains(&feature.as_str()) {
            pass.unknown
                .push((feature.clone(), sql[l.range].to_string()));
        }
    }
    let tokens = lex(&unwrapped);
    let toks: Vec<_> = tokens.iter().map(Lexeme::token).collect();
    let found = scan::scan(toks.as_slice())?;
    let mut cut = vec![false; tokens.len()];
    for f in &found {
        cut[f.range.clone()].iter_mut().for_each(|c| *c = true);
    }
    pass.sql = tokens
        .iter()
        .zip(&cut)
        .map(|(l, cut)| {
            if *cut {
                " "
            } else {
                &unwrapped[l.range.clone()]
            }
        })
        .collect();
    if seen || !found.is_empty() {
        pass.options = Some(scan::fold(&found)?);
    }
    Ok(pass)
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
        let pass = read(sql).unwrap();
        let o = pass.options.unwrap();
        assert_eq!(o.clustered, Some(true));
        assert_eq!(o.auto_random.unwrap().shard_bits, 5);
        let ttl = o.ttl.unwrap();
        assert_eq!((ttl.interval.amount, ttl.enabled), (7, true));
        assert_eq!(pass.unknown.len(), 1);
        assert_eq!(pass.unknown[0].0, "placement");
        for gone in ["/*", "AUTO_RANDOM", "CLUSTERED", "TTL", "PLACEMENT"] {
            assert!(!pass.sql.contains(gone), "{gone}: {}", pass.sql);
        }
        let bare =
            read("CREATE TABLE t (a int) /*T! SHARD_ROW_ID_BITS=4 PRE_SPLIT_REGIONS=2 */").unwrap();
        let o = bare.options.unwrap();
        assert_eq!(
            (o.shard_row_id_bits, o.pre_split_regions),
            (Some(4), Some(2))
        );
        assert_eq!(read("CREATE TABLE t (a int)").unwrap().options, None);
    }
}
