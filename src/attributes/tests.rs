//! Each SHOW CREATE TABLE attribute of [`ATTRIBUTES`] does what its row
//! says (a template table per attribute, parsed per flavor), an unknown one
//! refuses the table, docs/apply.md holds the table, no attribute is listed
//! twice.

use super::*;
use crate::dump::{parse_create_table_with, ParseOptions};
use crate::model::Table;
use crate::server::Flavor;

/// Where an example goes in [`TEMPLATE`].
#[derive(Clone, Copy)]
enum Slot {
    /// After column `a`'s definition.
    Column(&'static str),
    /// After key `k`'s definition.
    Index(&'static str),
    /// After FULLTEXT key `f`'s definition.
    FullText(&'static str),
    /// A table element after the keys.
    Body(&'static str),
    /// After the table options.
    Options(&'static str),
    /// In place of the first occurrence of `.0`.
    Replace(&'static str, &'static str),
}

/// A `SHOW CREATE TABLE` text of both servers' spelling, with the
/// places of [`Slot`].
const TEMPLATE: &str = "CREATE TABLE `t` (\n  `id` int NOT NULL,\n  \
    `a` varchar(20) DEFAULT NULL{C},\n  `s` date NOT NULL,\n  `e` date NOT NULL,\n  \
    PRIMARY KEY (`id`),\n  KEY `k` (`a`){K},\n  FULLTEXT KEY `f` (`a`){F}{B}\n\
    ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin{O}";

fn text(slot: Option<Slot>) -> String {
    let mut t = TEMPLATE.to_string();
    let (at, with) = match slot {
        Some(Slot::Column(x)) => ("{C}", x),
        Some(Slot::Index(x)) => ("{K}", x),
        Some(Slot::FullText(x)) => ("{F}", x),
        Some(Slot::Body(x)) => ("{B}", x),
        Some(Slot::Options(x)) => ("{O}", x),
        Some(Slot::Replace(from, to)) => (from, to),
        None => ("", ""),
    };
    if !at.is_empty() {
        t = t.replacen(at, with, 1);
    }
    for at in ["{C}", "{K}", "{F}", "{B}", "{O}"] {
        t = t.replace(at, "");
    }
    t
}

/// Each `SHOW CREATE TABLE` attribute of [`ATTRIBUTES`] as the server
/// that has it prints it.
const EXAMPLES: &[(Source, &str, Flavor, Slot)] = {
    use Flavor::{MariaDb as Maria, MySql as My};
    use Slot::*;
    &[
        (Opt, "ENGINE", My, Replace("ENGINE=InnoDB", "ENGINE=MyISAM")),
        (
            Opt,
            "DEFAULT CHARSET",
            My,
            Replace(
                "DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
                "DEFAULT CHARSET=latin1",
            ),
        ),
        (
            Opt,
            "COLLATE",
            My,
            Replace("COLLATE=utf8mb4_bin", "COLLATE=utf8mb4_0900_ai_ci"),
        ),
        (Opt, "COMMENT", My, Options(" COMMENT='a table'")),
        (
            Opt,
            "AUTO_INCREMENT",
            My,
            Replace(") ENGINE=InnoDB", ") ENGINE=InnoDB AUTO_INCREMENT=7"),
        ),
        (Opt, "ROW_FORMAT", My, Options(" ROW_FORMAT=COMPRESSED")),
        (Opt, "KEY_BLOCK_SIZE", My, Options(" KEY_BLOCK_SIZE=8")),
        (Opt, "COMPRESSION", My, Options(" COMPRESSION='zlib'")),
        (
            Opt,
            "PAGE_COMPRESSED",
            Maria,
            Options(" `PAGE_COMPRESSED`=1"),
        ),
        (
            Opt,
            "PAGE_COMPRESSION_LEVEL",
            Maria,
            Options(" `PAGE_COMPRESSION_LEVEL`=3"),
        ),
        (Opt, "STATS_PERSISTENT", My, Options(" STATS_PERSISTENT=0")),
        (
            Opt,
            "STATS_AUTO_RECALC",
            My,
            Options(" STATS_AUTO_RECALC=1"),
        ),
        (
            Opt,
            "STATS_SAMPLE_PAGES",
            My,
            Options(" STATS_SAMPLE_PAGES=10"),
        ),
        (Opt, "CHECKSUM", My, Options(" CHECKSUM=1")),
        (Opt, "DELAY_KEY_WRITE", My, Options(" DELAY_KEY_WRITE=1")),
        (Opt, "PACK_KEYS", My, Options(" PACK_KEYS=1")),
        (Opt, "MAX_ROWS", My, Options(" MAX_ROWS=100")),
        (Opt, "MIN_ROWS", My, Options(" MIN_ROWS=1")),
        (Opt, "AVG_ROW_LENGTH", My, Options(" AVG_ROW_LENGTH=10")),
        (Opt, "ENCRYPTION", My, Options(" ENCRYPTION='Y'")),
        (Opt, "ENCRYPTED", Maria, Options(" `ENCRYPTED`=YES")),
        (
            Opt,
            "ENCRYPTION_KEY_ID",
            Maria,
            Options(" `ENCRYPTION_KEY_ID`=2"),
        ),
        (Opt, "PAGE_CHECKSUM", Maria, Options(" PAGE_CHECKSUM=1")),
        (Opt, "TRANSACTIONAL", Maria, Options(" TRANSACTIONAL=1")),
        (
            Opt,
            "PARTITION BY",
            My,
            Options("\n/*!50100 PARTITION BY HASH (`id`)\nPARTITIONS 2 */"),
        ),
        (
            Opt,
            "AUTOEXTEND_SIZE",
            My,
            Options(" /*!80023 AUTOEXTEND_SIZE=4194304 */"),
        ),
        (
            Opt,
            "TABLESPACE",
            My,
            Options(" /*!50100 TABLESPACE `innodb_system` */"),
        ),
        (
            Opt,
            "ENGINE_ATTRIBUTE",
            My,
            Options(" /*!80021 ENGINE_ATTRIBUTE='{}' */"),
        ),
        (
            Opt,
            "SECONDARY_ENGINE",
            My,
            Options(" SECONDARY_ENGINE=rapid"),
        ),
        (
            Opt,
            "SECONDARY_ENGINE_ATTRIBUTE",
            My,
            Options(" /*!80021 SECONDARY_ENGINE_ATTRIBUTE='{}' */"),
        ),
        (
            Opt,
            "DATA DIRECTORY",
            My,
            Options(" DATA DIRECTORY='/srv/data/'"),
        ),
        (
            Opt,
            "INDEX DIRECTORY",
            My,
            Options(" INDEX DIRECTORY='/srv/index/'"),
        ),
        (Opt, "INSERT_METHOD", My, Options(" INSERT_METHOD=LAST")),
        (Opt, "UNION", My, Options(" UNION=(`t1`,`t2`)")),
        (
            Opt,
            "CONNECTION",
            My,
            Options(" CONNECTION='mysql://u@h:3306/db/t'"),
        ),
        (Opt, "IETF_QUOTES", Maria, Options(" IETF_QUOTES=YES")),
        (
            Clause,
            "WITH SYSTEM VERSIONING",
            Maria,
            Options(" WITH SYSTEM VERSIONING"),
        ),
        (
            Clause,
            "PERIOD FOR",
            Maria,
            Body(",\n  PERIOD FOR `p` (`s`, `e`)"),
        ),
        (
            Col,
            "COLUMN_FORMAT",
            My,
            Column(" /*!50606 COLUMN_FORMAT DYNAMIC */"),
        ),
        (Col, "STORAGE", My, Column(" /*!50606 STORAGE DISK */")),
        (
            Col,
            "ENGINE_ATTRIBUTE",
            My,
            Column(" /*!80021 ENGINE_ATTRIBUTE '{}' */"),
        ),
        (
            Col,
            "SECONDARY_ENGINE_ATTRIBUTE",
            My,
            Column(" /*!80021 SECONDARY_ENGINE_ATTRIBUTE '{}' */"),
        ),
        (Key, "KEY_BLOCK_SIZE", Maria, Index(" KEY_BLOCK_SIZE=8")),
        (
            Key,
            "ENGINE_ATTRIBUTE",
            My,
            Index(" /*!80021 ENGINE_ATTRIBUTE '{}' */"),
        ),
        (
            Key,
            "SECONDARY_ENGINE_ATTRIBUTE",
            My,
            Index(" /*!80021 SECONDARY_ENGINE_ATTRIBUTE '{}' */"),
        ),
        (
            Key,
            "WITH PARSER",
            My,
            FullText(" /*!50100 WITH PARSER `ngram` */"),
        ),
        (Key, "USING", My, Index(" USING BTREE")),
    ]
};

fn parse(text: &str, flavor: Flavor) -> Table {
    let options = ParseOptions {
        flavor: Some(flavor),
        keep_other_types: true,
    };
    parse_create_table_with(text, options)
        .unwrap_or_else(|e| panic!("{e}: {text}"))
        .table
}

/// Folded for a loose "names it": upper case, no spaces, `_` or quotes.
fn fold(s: &str) -> String {
    s.to_uppercase().replace([' ', '_', '`'], "")
}

/// Every attribute only `SHOW CREATE TABLE` can show (table options,
/// table clauses, column clauses, key options) has an example, and
/// the net does with it what its row says: a row that refuses the
/// table makes a table read without it `unrecognised`, naming it; any
/// other row is read into the inspection's model (a compared one
/// changes the model), so the net agrees. A row added without an
/// example, or an example of no row, fails here.
#[test]
fn each_show_create_attribute_does_what_its_row_says() {
    for at in ATTRIBUTES.iter().filter(|a| a.source.is_show_create()) {
        let n = EXAMPLES
            .iter()
            .filter(|e| (e.0, e.1) == (at.source, at.name))
            .count();
        assert_eq!(n, 1, "{at:?}: {n} examples");
    }
    for (source, name, flavor, slot) in EXAMPLES {
        let at = ATTRIBUTES
            .iter()
            .find(|a| (a.source, a.name) == (*source, *name))
            .unwrap_or_else(|| panic!("example of no row: {source:?} {name}"));
        let with = text(Some(*slot));
        let plain = parse(&text(None), *flavor);
        let what = format!("{source:?} {name} ({flavor}): {with}");
        if at.refuses_the_table() {
            let d = crate::inspect::show_create_difference(&plain, &with, *flavor)
                .unwrap_or_else(|| panic!("{what}: not refused"));
            assert!(fold(&d).contains(&fold(name)), "{what}: {d}");
            continue;
        }
        let read = parse(&with, *flavor);
        if let Rule::Compared(_) = at.rule {
            assert_ne!(read, plain, "{what}: the model does not carry it");
        }
        if read.kind == crate::model::TableKind::Base {
            assert_eq!(
                crate::inspect::show_create_difference(&read, &with, *flavor),
                None,
                "{what}"
            );
        }
    }
}

/// What no row lists fails closed: an invented attribute in each place
/// of the text makes the table `unrecognised`, naming it.
#[test]
fn an_unknown_show_create_attribute_refuses_the_table() {
    use Slot::*;
    for flavor in [Flavor::MySql, Flavor::MariaDb] {
        let plain = parse(&text(None), flavor);
        for slot in [
            Options(" FROBNICATE=1"),
            Options(" /*!80099 FROBNICATE=1 */"),
            Column(" FROBNICATE 1"),
            Column(" /*!80099 FROBNICATE */"),
            Index(" FROBNICATE=1"),
            FullText(" /*!80099 FROBNICATE=1 */"),
            Body(",\n  FROBNICATE (`a`)"),
        ] {
            let with = text(Some(slot));
            let d = crate::inspect::show_create_difference(&plain, &with, flavor)
                .unwrap_or_else(|| panic!("{flavor}: not refused: {with}"));
            assert!(d.contains("FROBNICATE"), "{flavor}: {d}");
        }
    }
}

#[test]
fn docs_apply_md_holds_the_attribute_table() {
    let docs = include_str!("../../docs/apply.md");
    assert!(
        docs.contains(&markdown()),
        "docs/apply.md \"What counts as drift\" must hold attributes::markdown():\n{}",
        markdown()
    );
}

#[test]
fn each_attribute_is_listed_once() {
    for (i, x) in ATTRIBUTES.iter().enumerate() {
        assert!(
            ATTRIBUTES[..i]
                .iter()
                .all(|y| (y.source, y.name) != (x.source, x.name)),
            "{x:?} twice"
        );
    }
    assert!(information_schema("TABLES", "ENGINE").is_some());
    assert!(information_schema("tables", "ENGINE").is_some());
    assert!(information_schema("TABLES", "NOPE").is_none());
}
