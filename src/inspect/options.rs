//! A table's `information_schema.TABLES.CREATE_OPTIONS`: the table options
//! given explicitly (`row_format=COMPRESSED KEY_BLOCK_SIZE=8`,
//! `stats_persistent=0`, MariaDB's `` `page_compressed`='1' ``,
//! MySQL's `COMPRESSION="zlib"`), and `partitioned`.
//!
//! The catalog declares none of these, so a table that has one is not the
//! catalog's table: it is refused as `unrecognised`, naming the options
//! (an explicit ROW_FORMAT or KEY_BLOCK_SIZE changes which indexes fit and
//! how rows are stored; page compression how they are written). Two
//! exceptions, the engine's own defaults: MariaDB reports `transactional=1`
//! for every Aria table (verified on 10.11), which is what `engine: Aria`
//! creates; and `row_format=DYNAMIC` on InnoDB, what the server uses
//! anyway ([`crate::model::is_innodb_default_option`]).
//!
//! Not applied to TiDB: its table options are read from `SHOW CREATE
//! TABLE` ([`super::tidb`]), which fails closed on a feature the model does
//! not carry, and whether its CREATE_OPTIONS echoes them is an assumption
//! not runnable here.

use crate::model::TableKind;
use crate::server::Flavor;

/// The kind of a base table from its CREATE_OPTIONS and engine.
pub(super) fn table_kind(
    flavor: Flavor,
    table: &str,
    create_options: &str,
    engine: Option<&str>,
) -> TableKind {
    let words: Vec<&str> = create_options.split_whitespace().collect();
    if words.iter().any(|w| w.eq_ignore_ascii_case("partitioned")) {
        return TableKind::Partitioned("partitioned".into());
    }
    // TiDB's CREATE_OPTIONS carry its own table options, read elsewhere.
    if flavor.has_tidb_table_options() {
        return TableKind::Base;
    }
    let aria = engine.is_some_and(|e| e.eq_ignore_ascii_case("Aria"));
    let explicit: Vec<&str> = words
        .into_iter()
        .filter(|w| !(aria && w.eq_ignore_ascii_case("transactional=1")))
        .filter(|w| !crate::model::is_innodb_default_option_text(engine, w))
        .collect();
    if explicit.is_empty() {
        TableKind::Base
    } else {
        TableKind::Unrecognised(format!(
            "table options {} (CREATE_OPTIONS), which the catalog cannot declare; {}",
            explicit.join(" "),
            crate::model::table_option_fix(table, explicit[0])
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_options_are_unrecognised() {
        let kind = |o: &str, e: &str| table_kind(Flavor::MySql, "t", o, Some(e));
        assert_eq!(kind("", "InnoDB"), TableKind::Base);
        assert_eq!(
            kind("partitioned", "InnoDB"),
            TableKind::Partitioned("partitioned".into())
        );
        assert!(matches!(
            kind("row_format=COMPRESSED KEY_BLOCK_SIZE=8", "InnoDB"),
            TableKind::Unrecognised(s) if s.contains("row_format=COMPRESSED KEY_BLOCK_SIZE=8")
        ));
        // InnoDB's default row format, explicit, is the default; no other.
        assert_eq!(kind("row_format=DYNAMIC", "InnoDB"), TableKind::Base);
        for other in [
            "row_format=COMPACT",
            "row_format=DYNAMIC KEY_BLOCK_SIZE=8",
            "row_format=COMPRESSED",
        ] {
            assert!(
                matches!(kind(other, "InnoDB"), TableKind::Unrecognised(_)),
                "{other}"
            );
        }
        assert!(matches!(
            kind("row_format=DYNAMIC", "MyISAM"),
            TableKind::Unrecognised(_)
        ));
        assert!(matches!(
            kind("stats_persistent=0", "InnoDB"),
            TableKind::Unrecognised(_)
        ));
        assert_eq!(
            table_kind(Flavor::MariaDb, "t", "transactional=1", Some("Aria")),
            TableKind::Base
        );
        assert!(matches!(
            table_kind(Flavor::MariaDb, "t", "transactional=1", Some("InnoDB")),
            TableKind::Unrecognised(_)
        ));
        assert!(matches!(
            table_kind(Flavor::MariaDb, "t", "transactional=0", Some("Aria")),
            TableKind::Unrecognised(_)
        ));
    }
}
