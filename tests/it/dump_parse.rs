//! `parse_create_table` against rendered DDL (round trip per flavor and per
//! SPEC type) and against real `SHOW CREATE TABLE` texts.

use crate::tables;

use schema_catalog::ddl::create_table;
use schema_catalog::{
    parse_create_table, ColumnType, DefaultValue, Flavor, FullTextParser, Index, IndexKind,
    IndexPart,
};

#[test]
fn rendered_tables_round_trip_for_every_flavor() {
    for flavor in Flavor::ALL {
        for t in tables::all() {
            let sql = create_table(&t, flavor);
            let parsed = parse_create_table(&sql).unwrap_or_else(|e| panic!("{e}\n{sql}"));
            assert_eq!(parsed, t, "{flavor}:\n{sql}");
        }
    }
}

#[test]
fn every_spec_type_round_trips_alone() {
    for ty in tables::SPEC_TYPES {
        for nullable in [true, false] {
            let mut t = tables::table("t", None);
            let mut c = tables::col("c", ty);
            c.nullable = nullable;
            t.columns = vec![c];
            let sql = create_table(&t, Flavor::TiDb);
            assert_eq!(parse_create_table(&sql).unwrap(), t, "{sql}");
        }
    }
}

#[test]
fn invisible_and_prefixed_indexes_round_trip() {
    let mut t = tables::table("t", None);
    t.columns = vec![tables::col("a", "varchar(200)"), tables::col("b", "int")];
    let mut hidden = Index::new("hidden", false, &["b"]);
    hidden.visible = false;
    let mut prefixed = Index::new("prefixed", false, &[]);
    prefixed.parts = vec![
        IndexPart::Column {
            name: "a".into(),
            prefix: Some(10),
            descending: false,
        },
        IndexPart::Column {
            name: "b".into(),
            prefix: None,
            descending: true,
        },
    ];
    t.indexes = vec![hidden, prefixed];
    for flavor in Flavor::ALL {
        let sql = create_table(&t, flavor);
        assert_eq!(parse_create_table(&sql).unwrap(), t, "{sql}");
    }
}

/// Verbatim `SHOW CREATE TABLE` output of MariaDB 10.11.
const MARIADB_SAMPLE: &str = "CREATE TABLE `job` (
  `Id` bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  `Key` varchar(128) NOT NULL,
  `Name` varchar(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci DEFAULT NULL,
  `Code` char(2) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT 'xx',
  `Payload` longtext CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL CHECK (json_valid(`Payload`)),
  `Attempts` int(11) NOT NULL DEFAULT 0,
  `Price` decimal(10,2) NOT NULL DEFAULT 0.00,
  `Flag` tinyint(1) NOT NULL DEFAULT 1,
  `CreatedAt` datetime(6) NOT NULL DEFAULT current_timestamp(6),
  `Token` varchar(36) NOT NULL DEFAULT uuid(),
  PRIMARY KEY (`Id`),
  UNIQUE KEY `uq_key` (`Key`),
  KEY `idx_name` (`Name`(10)),
  KEY `idx_ignored` (`Attempts`) IGNORED
) ENGINE=InnoDB AUTO_INCREMENT=7 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin COMMENT='jobs'";

#[test]
fn parses_mariadb_show_create_table() {
    let t = parse_create_table(MARIADB_SAMPLE).unwrap();
    assert_eq!(t.name.as_str(), "job");
    assert_eq!(
        (t.charset.as_str(), t.collation.as_str()),
        ("utf8mb4", "utf8mb4_bin")
    );
    assert_eq!(
        (t.engine.as_deref(), t.comment.as_deref()),
        (Some("InnoDB"), Some("jobs"))
    );
    let col = |n: &str| t.column(&n.into()).unwrap().clone();
    assert_eq!(col("Id").ty.to_string(), "bigint unsigned");
    assert!(col("Id").auto_increment && !col("Id").nullable);
    assert_eq!(
        col("Key").collation.as_deref(),
        Some("utf8mb4_bin"),
        "inherits the table collation"
    );
    assert_eq!(col("Name").collation.as_deref(), Some("utf8mb4_general_ci"));
    assert_eq!(col("Code").charset.as_deref(), Some("ascii"));
    assert_eq!(
        col("Code").default,
        Some(DefaultValue::Literal("xx".into()))
    );
    assert_eq!(col("Payload").ty, ColumnType::Json);
    assert_eq!(col("Payload").charset, None);
    assert_eq!(col("Attempts").ty.to_string(), "int");
    assert_eq!(
        col("Price").default,
        Some(DefaultValue::Literal("0".into()))
    );
    assert_eq!(col("Flag").ty, ColumnType::Boolean);
    assert_eq!(
        col("CreatedAt").default,
        Some(DefaultValue::CurrentTimestamp(6))
    );
    assert_eq!(
        col("Token").default,
        Some(DefaultValue::Expression("uuid()".into()))
    );
    assert_eq!(t.primary_key, vec![IndexPart::column("Id")]);
    assert_eq!(t.indexes.len(), 3);
    assert!(t.indexes[0].unique && t.indexes[0].parts == vec![IndexPart::column("Key")]);
    assert_eq!(
        t.indexes[1].parts,
        vec![IndexPart::Column {
            name: "Name".into(),
            prefix: Some(10),
            descending: false
        }]
    );
    assert!(!t.indexes[2].visible && t.indexes[1].visible);
}

/// MySQL 8 `SHOW CREATE TABLE` / mysqldump shape, with version comments.
const MYSQL_SAMPLE: &str = "CREATE TABLE `m` (
  `id` int NOT NULL,
  `s` varchar(10) COLLATE utf8mb4_0900_ai_ci DEFAULT 'a\\\\b''c',
  `doc` json DEFAULT NULL,
  `t` text,
  PRIMARY KEY (`id`),
  KEY `d` (`id` DESC) /*!80000 INVISIBLE */,
  KEY `e` ((lower(`s`))),
  FULLTEXT KEY `ft` (`t`),
  FULLTEXT KEY `ft_ngram` (`t`) /*!50100 WITH PARSER `ngram` */ 
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci /*!50100 COMMENT='x' */;";

#[test]
fn parses_mysql_show_create_table() {
    let t = parse_create_table(MYSQL_SAMPLE).unwrap();
    let s = t.column(&"s".into()).unwrap();
    assert_eq!(s.default, Some(DefaultValue::Literal("a\\b'c".into())));
    assert_eq!(s.collation.as_deref(), Some("utf8mb4_0900_ai_ci"));
    assert_eq!(t.column(&"doc".into()).unwrap().ty, ColumnType::Json);
    assert_eq!(
        t.column(&"t".into()).unwrap().collation.as_deref(),
        Some("utf8mb4_0900_ai_ci")
    );
    assert!(!t.index(&"d".into()).unwrap().visible);
    assert_eq!(
        t.index(&"d".into()).unwrap().parts,
        vec![IndexPart::Column {
            name: "id".into(),
            prefix: None,
            descending: true
        }]
    );
    assert_eq!(
        t.index(&"e".into()).unwrap().parts,
        vec![IndexPart::Expression("lower(`s`)".into())]
    );
    assert_eq!(
        t.index(&"ft".into()).unwrap().kind,
        IndexKind::FullText(None)
    );
    assert_eq!(
        t.index(&"ft_ngram".into()).unwrap().kind,
        IndexKind::FullText(Some(FullTextParser::Ngram))
    );
    assert_eq!(t.comment.as_deref(), Some("x"));
}

/// TiDB `SHOW CREATE TABLE`, with its clustered-index marker.
const TIDB_SAMPLE: &str = "CREATE TABLE `t` (
  `id` bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  `k` varbinary(64) NOT NULL,
  PRIMARY KEY (`id`) /*T![clustered_index] CLUSTERED */,
  UNIQUE KEY `uq_k` (`k`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin AUTO_INCREMENT=30001";

#[test]
fn parses_tidb_show_create_table() {
    let t = parse_create_table(TIDB_SAMPLE).unwrap();
    assert_eq!(t.primary_key, vec![IndexPart::column("id")]);
    assert_eq!(t.indexes, vec![Index::new("uq_k", true, &["k"])]);
}

#[test]
fn unnamed_and_inline_keys_get_mysql_names() {
    let t = parse_create_table(
        "CREATE TABLE t (a int PRIMARY KEY, b int UNIQUE, KEY (b), UNIQUE (b)) DEFAULT CHARSET=latin1",
    )
    .unwrap();
    assert_eq!(t.primary_key, vec![IndexPart::column("a")]);
    assert!(!t.columns[0].nullable, "primary-key columns are NOT NULL");
    let names: Vec<&str> = t.indexes.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names, ["b", "b_2", "b_3"]);
    assert_eq!(t.collation, "latin1_bin");
}

/// A parser outside the closed set, or on an index that is not FULLTEXT,
/// fails closed with a message naming the table and the index.
#[test]
fn refuses_an_unknown_or_misplaced_parser() {
    let err = |sql: &str| parse_create_table(sql).unwrap_err().to_string();
    assert_eq!(
        err("CREATE TABLE t (b text, FULLTEXT KEY ft (b) /*!50100 WITH PARSER `mecab` */) DEFAULT CHARSET=utf8mb4"),
        "table `t`: index `ft`: unknown FULLTEXT parser `mecab`: the catalog knows `ngram` (MySQL's built-in parser) (MySQL's mecab plugin is not supported: it needs the plugin and a MeCab dictionary installed on every server)"
    );
    assert_eq!(
        err("CREATE TABLE t (b text, FULLTEXT KEY ft (b) WITH PARSER MULTILINGUAL) DEFAULT CHARSET=utf8mb4"),
        "table `t`: index `ft`: unknown FULLTEXT parser `MULTILINGUAL`: the catalog knows `ngram` (MySQL's built-in parser)"
    );
    assert_eq!(
        err("CREATE TABLE t (b varchar(9), KEY ix (b) WITH PARSER ngram) DEFAULT CHARSET=utf8mb4"),
        "table `t`: index `ix`: WITH PARSER `ngram` on an index that is not FULLTEXT"
    );
}

#[test]
fn refuses_what_the_model_cannot_hold() {
    for bad in [
        "CREATE TABLE t (a decimal(10,2) unsigned) DEFAULT CHARSET=utf8mb4",
        "CREATE TABLE t (a int SRID 4326) DEFAULT CHARSET=utf8mb4",
        "CREATE TABLE t (a int)",
        "CREATE TABLE t (a int); CREATE TABLE u (a int)",
        "not sql at all",
    ] {
        assert!(parse_create_table(bad).is_err(), "{bad}");
    }
}
