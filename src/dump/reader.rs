//! Reading whole schema dumps (`mysqldump --no-data`, `mariadb-dump
//! --no-data`, TiDB `SHOW CREATE TABLE` collections, hand-written files).
//!
//! The file is split into statements ([`super::split`]). Every `CREATE
//! TABLE` is parsed with [`parse_create_table_with`]; everything else
//! (`SET`, `DROP TABLE IF EXISTS`, `LOCK TABLES`, `INSERT`, `USE`, `CREATE
//! DATABASE`, views, triggers, routines, and mysqldump's `/*!50001 ...*/`
//! view stand-in tables) is skipped and counted.

use std::path::{Path, PathBuf};

use super::{parse_lexed, Feature, ParseOptions};
use crate::error::{Error, Result};
use crate::ident::Ident;
use crate::model::Table;
use crate::server::Flavor;
use crate::sql::lex::Lexeme;

use super::split::{classify, split_statements, Class};

/// A parsed schema dump.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dump {
    /// The file it was read from (as given).
    pub file: PathBuf,
    /// The flavor used to read it: the one asked for, else the one detected
    /// ([`detect_flavor`]), else `None` (bare charsets mean `*_bin`).
    pub flavor: Option<Flavor>,
    /// Every table, normalised like live inspection, sorted by name.
    pub tables: Vec<Table>,
    /// What the tables declare beyond the model, sorted by table.
    pub features: Vec<TableFeature>,
    /// Statements that are not tables (SET, DROP TABLE IF EXISTS, LOCK
    /// TABLES, INSERT, USE, CREATE DATABASE, views, triggers, routines).
    pub skipped: usize,
}

impl Dump {
    /// A table by name (case-insensitive): a binary search on the folded
    /// name, as the tables are sorted by it.
    pub fn table(&self, name: &str) -> Option<&Table> {
        let key = crate::ident::fold(name);
        self.tables
            .binary_search_by(|t| t.name.folded().cmp(&key))
            .ok()
            .map(|i| &self.tables[i])
    }

    /// The features of one table: the run of them sorted under its folded
    /// name, found by binary search.
    pub fn features_of<'a>(&'a self, table: &'a str) -> impl Iterator<Item = &'a TableFeature> {
        let key = crate::ident::fold(table);
        let start = self
            .features
            .partition_point(|f| *crate::ident::fold(&f.table) < *key);
        self.features[start..]
            .iter()
            .take_while(move |f| crate::ident::fold(&f.table) == key)
    }
}

/// A [`Feature`] of one table of a dump.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct TableFeature {
    /// Table name.
    pub table: String,
    /// 1-based line of its CREATE TABLE.
    pub line: usize,
    /// The feature.
    pub feature: Feature,
}

/// Reads and parses a dump file. `flavor`: the server the dump comes from
/// (`None`: detect it from the text).
pub fn read_dump(path: &Path, flavor: Option<Flavor>) -> Result<Dump> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse_dump(&text, path, flavor)
}

/// Guesses the server a dump comes from: its `-- Server version` line
/// (mysqldump and mariadb-dump both write it), else the vendors' marks in
/// the text ([`Flavor::from_dump_text`]). `None` when nothing tells.
pub fn detect_flavor(text: &str) -> Option<Flavor> {
    Flavor::from_dump_text(server_version(text), text)
}

/// The version on a dump header's `-- Server version` line (among the
/// first lines, where mysqldump and mariadb-dump write it), if any.
fn server_version(text: &str) -> Option<&str> {
    text.lines().take(40).find_map(|line| {
        let rest = line.strip_prefix("-- Server version")?;
        let version = rest.trim();
        (!version.is_empty()).then_some(version)
    })
}

/// Parses dump text; `file` names it in errors.
pub fn parse_dump(text: &str, file: &Path, flavor: Option<Flavor>) -> Result<Dump> {
    parse_dump_on(text, file, flavor, text.len() >= STREAMED_BYTES)
}

/// From this size on, [`parse_dump`] parses a dump's tables on up to one
/// thread per core while the calling thread splits the text
/// ([`crate::parallel::streamed`]; docs/scale.md: the parse was most of reading
/// an 8,192-table dump, all on one thread). About 1,500 bench tables.
const STREAMED_BYTES: usize = 512 * 1024;

/// [`parse_dump`], its tables parsed on other threads when `streamed`
/// (the same dump: the statements are taken in text order, so the first
/// error, the lines and the "created again" check are the same). A caller
/// already reading parts on several threads passes `false`.
pub(crate) fn parse_dump_on(
    text: &str,
    file: &Path,
    flavor: Option<Flavor>,
    streamed: bool,
) -> Result<Dump> {
    let flavor = flavor.or_else(|| detect_flavor(text));
    let options = ParseOptions {
        flavor,
        keep_other_types: true,
    };
    // Each statement classified on this thread, each table parsed by
    // `read`, in text order.
    let read = |item: Read| match item {
        Read::Table(line, lexemes) => {
            Read::Parsed(line, Box::new(parse_lexed(text, lexemes, options)))
        }
        other => other,
    };
    let statements = split_statements(text).map(|stmt| match classify(&stmt) {
        Class::Empty => Read::Empty,
        Class::Other => Read::Other,
        Class::View(name) => Read::View(stmt.line, name),
        Class::Table => Read::Table(stmt.line, stmt.lexemes),
    });
    let read: Vec<Read> = if streamed {
        crate::parallel::streamed(statements, read)
    } else {
        statements.map(read).collect()
    };
    let mut tables: Vec<(usize, Table)> = Vec::new();
    // The line of each table (or view) kept, by folded name.
    let mut lines: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut features = Vec::new();
    let mut skipped = 0;
    for item in read {
        match item {
            Read::Empty => {}
            Read::Other => skipped += 1,
            Read::View(line, name) => {
                // Kept by name only, so a catalog table of that name is
                // reported as `not_a_table`, as a live plan reports it.
                skipped += 1;
                if !lines.contains_key(name.folded()) {
                    lines.insert(name.key(), line);
                    tables.push((line, Table::not_a_table(name, "VIEW")));
                }
            }
            Read::Table(..) => unreachable!("every table statement is parsed"),
            Read::Parsed(line, parsed) => {
                let parsed = (*parsed).map_err(|e| Error::Dump {
                    file: file.to_path_buf(),
                    line,
                    message: e.to_string(),
                })?;
                if let Some(first) = lines.get(parsed.table.name.folded()) {
                    return Err(Error::Dump {
                        file: file.to_path_buf(),
                        line,
                        message: format!(
                            "table `{}` is created again (first at line {first})",
                            parsed.table.name
                        ),
                    });
                }
                features.extend(parsed.features.into_iter().map(|feature| TableFeature {
                    table: parsed.table.name.as_str().to_string(),
                    line,
                    feature,
                }));
                lines.insert(parsed.table.name.key(), line);
                tables.push((line, parsed.table));
            }
        }
    }
    let mut dump = Dump {
        file: file.to_path_buf(),
        flavor,
        tables: tables.into_iter().map(|(_, t)| t).collect(),
        features,
        skipped,
    };
    dump.sort();
    Ok(dump)
}

impl Dump {
    /// Tables by name, features by table (stable: a table's in the order
    /// read), the orders [`Dump::table`] and [`Dump::features_of`] search.
    fn sort(&mut self) {
        self.tables.sort_by(|a, b| a.name.cmp(&b.name));
        self.features.sort_by(|a, b| {
            crate::ident::fold(&a.table)
                .cmp(&crate::ident::fold(&b.table))
                .then_with(|| a.cmp(b))
        });
    }
}

/// The dump of one text read in consecutive parts, each part's text ending
/// at a statement's terminator (`;` and the default delimiter): `parts`
/// holds, in text order, each part's line count and its [`parse_dump`]. It
/// is what [`parse_dump`] gives for the whole text (feature and error lines
/// counted from its start; the first error in text order) when no table
/// name is created in two parts, as in a valid catalog rendered a table per
/// statement (`review::upgrade::old_model`, which reads its parts on
/// several threads: docs/scale.md).
pub(crate) fn joined(parts: Vec<(usize, Result<Dump>)>) -> Result<Dump> {
    let mut whole: Option<Dump> = None;
    let mut offset = 0;
    for (lines, part) in parts {
        let mut part = part.map_err(|e| match e {
            Error::Dump {
                file,
                line,
                message,
            } => Error::Dump {
                file,
                line: line + offset,
                message,
            },
            other => other,
        })?;
        for f in &mut part.features {
            f.line += offset;
        }
        offset += lines;
        match &mut whole {
            None => whole = Some(part),
            Some(w) => {
                w.tables.append(&mut part.tables);
                w.features.append(&mut part.features);
                w.skipped += part.skipped;
            }
        }
    }
    let mut whole = whole.unwrap_or_else(|| Dump {
        file: PathBuf::new(),
        flavor: None,
        tables: Vec::new(),
        features: Vec::new(),
        skipped: 0,
    });
    // Sorted again as a whole: with every table name once, the same order
    // as sorting the whole text's.
    whole.sort();
    debug_assert!(
        whole.tables.windows(2).all(|w| w[0].name != w[1].name),
        "a table created in two parts"
    );
    Ok(whole)
}

/// A statement of a dump on its way through [`parse_dump_on`].
enum Read {
    Empty,
    Other,
    View(usize, Ident),
    /// A `CREATE TABLE` at its line, to parse.
    Table(usize, Vec<Lexeme>),
    /// It parsed.
    Parsed(
        usize,
        Box<std::result::Result<super::ParsedTable, super::DumpParseError>>,
    ),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_streamed_read_is_the_sequential_one() {
        let mut text =
            String::from("SET NAMES utf8mb4;\n/*!50001 CREATE VIEW `v` AS SELECT 1 AS `a` */;\n");
        for i in 0..600 {
            text += &format!(
                "CREATE TABLE `t{i}` (\n  `a` int NOT NULL,\n  `b` int,\n  PRIMARY KEY (`a`),\n  CONSTRAINT `f{i}` FOREIGN KEY (`b`) REFERENCES `t0` (`a`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;\n"
            );
        }
        let created_again = format!("{text}CREATE TABLE `T7` (`a` int);\n");
        let bad = "CREATE TABLE `u` (`a` int,\n junk junk junk);\n";
        for text in [
            text.clone(),
            created_again.clone(),
            format!("{created_again}{bad}"),
            format!("{bad}{created_again}"),
            format!("{text}CREATE VIEW `t3` AS SELECT 1;\n"),
        ] {
            let read = |streamed| {
                format!(
                    "{:?}",
                    parse_dump_on(&text, Path::new("x.sql"), None, streamed)
                )
            };
            assert_eq!(read(true), read(false));
        }
        let whole = parse_dump_on(&text, Path::new("x.sql"), None, true).unwrap();
        assert_eq!((whole.tables.len(), whole.skipped), (601, 2));
        assert_eq!(whole.tables[1].foreign_keys.len(), 1);
    }

    #[test]
    fn counts_what_is_not_a_table_and_names_the_failing_line() {
        let text = "SET NAMES utf8mb4;\nDROP TABLE IF EXISTS `t`;\nCREATE TABLE `t` (`a` int) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;\n/*!50001 CREATE VIEW `v` AS SELECT 1 AS `a` */;\nCREATE TABLE `u` (`a` int,\n junk junk junk) DEFAULT CHARSET=utf8mb4;\n";
        let e = parse_dump(text, Path::new("x.sql"), None).unwrap_err();
        assert!(e.to_string().starts_with("x.sql:5: "), "{e}");
        let ok = parse_dump(
            &text[..text.find("CREATE TABLE `u`").unwrap()],
            Path::new("x.sql"),
            None,
        )
        .unwrap();
        assert_eq!(ok.tables.len(), 2);
        assert_eq!(ok.table("t").unwrap().kind, crate::model::TableKind::Base);
        assert_eq!(
            ok.table("v").unwrap().kind,
            crate::model::TableKind::NotATable("VIEW".into())
        );
        assert_eq!(ok.skipped, 3);
    }

    #[test]
    fn bare_charsets_follow_the_flavor() {
        let text = "CREATE TABLE t (a varchar(5), b varchar(5) CHARACTER SET latin1) DEFAULT CHARSET=utf8mb4;";
        let read = |f| parse_dump(text, Path::new("x"), Some(f)).unwrap().tables[0].clone();
        let m = read(Flavor::MariaDb);
        assert_eq!(m.collation, "utf8mb4_general_ci");
        assert_eq!(
            m.columns[0].collation.as_deref(),
            Some("utf8mb4_general_ci")
        );
        assert_eq!(m.columns[1].collation.as_deref(), Some("latin1_swedish_ci"));
        assert_eq!(read(Flavor::MySql).collation, "utf8mb4_0900_ai_ci");
        assert_eq!(
            read(Flavor::TiDb).columns[1].collation.as_deref(),
            Some("latin1_bin")
        );
    }

    #[test]
    fn a_text_read_in_parts_and_joined_is_the_whole_texts_dump() {
        use super::{joined, parse_dump, Path};
        // Tables out of name order across the parts, features (an unnamed
        // foreign key) in two of them, a statement on two lines.
        let parts = [
            "CREATE TABLE `zz` (a int, b int,\n FOREIGN KEY (a) REFERENCES y (a)) DEFAULT CHARSET=utf8mb4;\nCREATE TABLE `B` (a int) DEFAULT CHARSET=utf8mb4;\n",
            "SET NAMES utf8mb4;\nCREATE TABLE a (a int) DEFAULT CHARSET=utf8mb4;\n",
            "CREATE TABLE `c` (a int,\n FOREIGN KEY (a) REFERENCES zz (a)) DEFAULT CHARSET=utf8mb4;\n",
        ];
        let read = |text: &str| parse_dump(text, Path::new("d.sql"), None);
        let lines = |text: &str| text.matches('\n').count();
        let whole = read(&parts.concat()).unwrap();
        let got = joined(parts.iter().map(|p| (lines(p), read(p))).collect()).unwrap();
        assert_eq!(got, whole);
        let at: Vec<(&str, usize)> = got
            .features
            .iter()
            .map(|f| (f.table.as_str(), f.line))
            .collect();
        assert_eq!(at, [("c", 6), ("zz", 1)]);
        // The first error in text order, at its line in the whole text.
        let bad = [
            "CREATE TABLE a (a int) DEFAULT CHARSET=utf8mb4;\n",
            "CREATE TABLE b (a int,) DEFAULT CHARSET=utf8mb4;\n",
            "CREATE TABLE c (;\n",
        ];
        let err = joined(bad.iter().map(|p| (lines(p), read(p))).collect()).unwrap_err();
        assert_eq!(
            err.to_string(),
            read(&bad.concat()).unwrap_err().to_string()
        );
        assert!(err.to_string().starts_with("d.sql:2: "), "{err}");
    }

    #[test]
    fn features_and_partitions_are_recorded() {
        let text = "CREATE TABLE t (a int, b timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, e enum('x','y'), PRIMARY KEY (a), CONSTRAINT fk FOREIGN KEY (a) REFERENCES u (a) ON DELETE CASCADE, FOREIGN KEY (a) REFERENCES v (a)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC\n/*!50100 PARTITION BY HASH (`a`)\nPARTITIONS 2 */;";
        let d = parse_dump(text, Path::new("x"), None).unwrap();
        let objects: Vec<&str> = d
            .features
            .iter()
            .map(|f| f.feature.object.as_str())
            .collect();
        assert!(
            matches!(&d.tables[0].kind, crate::model::TableKind::Partitioned(p) if p.starts_with("PARTITION BY HASH")),
            "{:?}",
            d.tables[0].kind
        );
        // A named foreign key is format v2 (an omitted action is the
        // unknown server's NO ACTION); an unnamed one is still a feature.
        assert!(!objects.contains(&"foreign key `fk`"), "{objects:?}");
        assert!(objects.contains(&"foreign key"), "{objects:?}");
        let fk = &d.tables[0].foreign_keys[0];
        assert_eq!(
            crate::ddl::foreign_key_definition(fk),
            "CONSTRAINT `fk` FOREIGN KEY (`a`) REFERENCES `u` (`a`) ON DELETE CASCADE ON UPDATE NO ACTION"
        );
        // ON UPDATE CURRENT_TIMESTAMP and enum are part of the format (v2).
        assert!(!objects.contains(&"column `b`"), "{objects:?}");
        assert!(!objects.contains(&"column `e`"), "{objects:?}");
        assert!(
            objects.iter().any(|o| o.starts_with("table option")),
            "{objects:?}"
        );
        assert_eq!(
            d.tables[0].columns[2].ty,
            crate::ColumnType::Enum(vec!["x".into(), "y".into()])
        );
    }

    #[test]
    fn mysqldump_routines_view_stand_ins_and_tidb_markers() {
        let text = r#"-- MySQL dump 10.13  Distrib 8.0.36
/*!40101 SET NAMES utf8mb4 */;
LOCK TABLES `t` WRITE;
UNLOCK TABLES;
/*!50001 DROP VIEW IF EXISTS `v`*/;
/*!50001 CREATE TABLE `v` (
  `a` tinyint NOT NULL
) ENGINE=MyISAM */;
CREATE TABLE `t` (
  `id` bigint NOT NULL /*T![auto_rand] AUTO_RANDOM(5) */,
  `secret` int DEFAULT NULL /*!80023 INVISIBLE */,
  `k` varchar(10) COLLATE utf8mb4_bin DEFAULT NULL,
  PRIMARY KEY (`id`) /*T![clustered_index] CLUSTERED */,
  KEY `i` (`k`) USING BTREE COMMENT 'c' /*!80000 INVISIBLE */
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci;
DELIMITER ;;
/*!50003 CREATE*/ /*!50017 DEFINER=`root`@`%`*/ /*!50003 TRIGGER `tr` BEFORE INSERT ON `t` FOR EACH ROW BEGIN
  SET NEW.k = 'a;b';
END */;;
DELIMITER ;
"#;
        let d = parse_dump(text, Path::new("m.sql"), None).unwrap();
        assert_eq!(d.flavor, Some(Flavor::TiDb), "TiDB markers win");
        assert_eq!(d.tables.len(), 1, "{:?}", d.tables);
        assert_eq!(d.skipped, 6);
        let t = &d.tables[0];
        assert!(!t.indexes[0].visible);
        assert_eq!(t.indexes[0].comment.as_deref(), Some("c"));
        assert_eq!(t.columns[2].collation.as_deref(), Some("utf8mb4_bin"));
        let objects: Vec<&str> = d
            .features
            .iter()
            .map(|f| f.feature.object.as_str())
            .collect();
        // INVISIBLE columns are part of the format (v2).
        assert!(objects.is_empty(), "{objects:?}");
        assert!(t.columns[1].invisible && !t.columns[2].invisible);
    }

    #[test]
    fn the_flavor_is_what_the_dump_says() {
        let mariadb_client_on_mysql =
            "-- MariaDB dump 10.19  Distrib 10.11.19-MariaDB, for debian-linux-gnu (x86_64)\n--\n-- Host: 127.0.0.1    Database: app\n-- Server version\t9.7.0\n";
        let cases = [
            (mariadb_client_on_mysql, Some(Flavor::MySql)),
            (
                "-- Server version\t10.11.19-MariaDB-0+deb12u1\n",
                Some(Flavor::MariaDb),
            ),
            (
                "-- Server version\t8.0.11-TiDB-v8.5.1\n",
                Some(Flavor::TiDb),
            ),
            // MariaDB's SHOW CREATE TABLE, no header.
            (
                "  `d` datetime(6) NOT NULL DEFAULT current_timestamp(6),\n",
                Some(Flavor::MariaDb),
            ),
            (
                "  `p` longtext DEFAULT NULL CHECK (json_valid(`p`)),\n",
                Some(Flavor::MariaDb),
            ),
            (
                "  `d` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),\n",
                None,
            ),
            ("CREATE TABLE `t` (`a` int NOT NULL) ENGINE=InnoDB;\n", None),
        ];
        for (text, want) in cases {
            assert_eq!(detect_flavor(text), want, "{text}");
        }
    }
}
