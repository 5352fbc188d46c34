use super::*;

fn info(version: &str) -> Server {
    Server::from_version_text(version).unwrap()
}

const VERSIONS: [&str; 6] = [
    "10.11.19-MariaDB",
    "10.5.1-MariaDB",
    "8.0.36",
    "9.7.0",
    "8.0.11-TiDB-v8.5.3",
    "8.0.11-TiDB-v7.5.1",
];

/// Every branch filters by schema and table equality; nothing else is
/// unbounded: no join, no anti-join, no IN list.
#[test]
fn every_branch_is_bounded_by_equality() {
    for v in VERSIONS {
        let info = info(v);
        let sql = inspection_sql(&info, &[true; 50]);
        let upper = sql.to_uppercase();
        assert!(
            !upper.contains(" JOIN ") && !upper.contains("NOT EXISTS"),
            "{v}"
        );
        assert!(!upper.contains(" IN ("), "{v}");
        assert_eq!(sql.matches(" UNION ALL ").count(), 5 * 50 - 1, "{v}");
        assert_eq!(
            sql.matches("WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")
                .count(),
            4 * 50,
            "{v}"
        );
        assert_eq!(
            sql.matches("FROM information_schema.KEY_COLUMN_USAGE WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND REFERENCED_TABLE_NAME IS NOT NULL")
                .count(),
            50,
            "{v}"
        );
        assert_eq!(
            sql.matches("FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = ? AND TABLE_NAME = ?")
                .count(),
            50,
            "{v}"
        );
        assert_eq!(
            sql.matches('?').count(),
            2 * 50 * pairs_per_table(info.flavor(), true),
            "{v}"
        );
        assert!(sql.contains("SELECT 2 AS src, 49 AS branch, SEQ_IN_INDEX AS ord"));
        assert!(sql.ends_with(" ORDER BY src, branch, tbl, ord"));
        let single = IndexSource::for_server(&info).sql();
        assert!(
            single.contains("WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND "),
            "{single}"
        );
    }
    let maria = info("10.11.19-MariaDB");
    assert!(
        inspection_sql(&maria, &[true]).contains("WHERE CONSTRAINT_SCHEMA = ? AND TABLE_NAME = ?")
    );
    assert!(!inspection_sql(&info("9.7.0"), &[true]).contains("CHECK_CONSTRAINTS"));
    // CHECK clauses only for the tables that ask for them.
    let some = inspection_sql(&maria, &[false, true, false]);
    assert_eq!(some.matches("CHECK_CONSTRAINTS").count(), 1);
    assert!(some.contains("SELECT 0 AS src, 1 AS branch, 0 AS ord, CONVERT(TABLE_NAME USING utf8mb4) COLLATE utf8mb4_bin AS tbl, \
        CONVERT(TABLE_NAME USING utf8mb4) COLLATE utf8mb4_bin AS a, \
        CONVERT(TABLE_TYPE USING utf8mb4) COLLATE utf8mb4_bin AS b, CONVERT(TABLE_COLLATION USING utf8mb4) COLLATE utf8mb4_bin AS c, \
        CONVERT(ENGINE USING utf8mb4) COLLATE utf8mb4_bin AS d, CONVERT(TABLE_COMMENT USING utf8mb4) COLLATE utf8mb4_bin AS e, \
        CONVERT((SELECT JSON_ARRAYAGG"));
    assert_eq!(some.matches('?').count(), 2 * (5 + 6 + 5));
}

/// The constraint branch, for tables with catalog checks only, bounded
/// like every other branch; the clause lookup by equality, no join.
#[test]
fn constraint_branch_only_where_asked() {
    for v in VERSIONS {
        let info = info(v);
        let sql = inspection_sql_with(&info, &[false, false], &[false, true]);
        let maria = info.flavor() == Flavor::MariaDb;
        let bounded = if maria {
            "FROM information_schema.CHECK_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = ? AND TABLE_NAME = ?"
        } else {
            "FROM information_schema.TABLE_CONSTRAINTS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"
        };
        assert_eq!(sql.matches(bounded).count(), 1, "{v}");
        assert!(sql.contains("SELECT 3 AS src, 1 AS branch"), "{v}");
        assert!(!sql.to_uppercase().contains(" JOIN "), "{v}");
        // MariaDB reads CHECK_CONSTRAINTS' rows, no lookup per row (a
        // dependent subquery there, run per row); MySQL's lookup is by
        // the row's schema and constraint name.
        assert_eq!(sql.contains("TABLE_CONSTRAINTS"), !maria, "{v}");
        assert_eq!(
            sql.contains("cc.CONSTRAINT_SCHEMA = TABLE_CONSTRAINTS.TABLE_SCHEMA"),
            !maria,
            "{v}"
        );
        assert_eq!(
            sql.matches('?').count(),
            2 * (pairs_with(info.flavor(), false, false) + pairs_with(info.flavor(), false, true)),
            "{v}"
        );
    }
}

/// A listed group: every branch bounded by the schema and one IN list
/// of the group's names (CHECK clauses and constraints of the tables
/// that ask for them only), its parameters the schema then the names;
/// groups of one table and listed groups share a statement.
#[test]
fn listed_groups_are_bounded_by_schema_and_names() {
    for v in VERSIONS {
        let info = info(v);
        let groups = [
            Group {
                filter: Filter::List(3),
                checks: 1,
                constraints: 2,
            },
            Group {
                filter: Filter::One,
                checks: 0,
                constraints: 0,
            },
        ];
        let (sql, params) = statement(&info, &groups);
        let upper = sql.to_uppercase();
        assert!(
            !upper.contains(" JOIN ") && !upper.contains("NOT EXISTS"),
            "{v}"
        );
        let in3 = "TABLE_NAME IN (?, ?, ?)";
        assert_eq!(sql.matches(in3).count(), 5, "{v}: {sql}");
        let maria = info.flavor() == Flavor::MariaDb;
        let constraints = if maria {
            "FROM information_schema.CHECK_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = ? AND TABLE_NAME IN (?, ?)"
        } else {
            "FROM information_schema.TABLE_CONSTRAINTS WHERE TABLE_SCHEMA = ? AND TABLE_NAME IN (?, ?)"
        };
        assert_eq!(
            sql.matches(constraints).count(),
            1,
            "{v}: the constraint branch lists its 2 tables"
        );
        assert_eq!(
            sql.matches("FROM information_schema.CHECK_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = ? AND TABLE_NAME IN (?)")
                .count(),
            usize::from(maria),
            "{v}"
        );
        assert_eq!(
            sql.matches('?').count(),
            {
                let listed = 5 * 4 + 3 + if maria { 2 } else { 0 };
                listed + 2 * 5
            },
            "{v}"
        );
        let expanded: usize = params
            .iter()
            .map(|(g, p)| match (g, p) {
                (_, Param::Schema) => 1,
                (0, Param::Names(NameSet::Tables)) => 3,
                (0, Param::Names(NameSet::CheckTables)) => 1,
                (0, Param::Names(NameSet::ConstraintTables)) => 2,
                (_, _) => 1,
            })
            .sum();
        assert_eq!(expanded, sql.matches('?').count(), "{v}");
        assert!(sql.contains("SELECT 0 AS src, 1 AS branch"), "{v}");
        assert!(sql.ends_with(" ORDER BY src, branch, tbl, ord"), "{v}");
    }
    let maria = info("10.11.19-MariaDB");
    assert_eq!(
        size_sql(&maria, 2)
            .matches("WHERE TABLE_SCHEMA = ?")
            .count(),
        2
    );
    assert!(size_sql(&maria, 2).contains("SELECT 1 AS branch, COUNT(*) AS tables"));
    // MySQL: one statement whatever the count, one JSON parameter.
    let mysql = info("9.7.0");
    assert_eq!(size_sql(&mysql, 2), size_sql(&mysql, 500));
    assert_eq!(size_sql(&mysql, 2).matches('?').count(), 1);
    assert!(!size_sql(&mysql, 2).contains("UNION"));
    assert_eq!(size_pairs(&["a", "b\"\\"]), r#"[[0,"a"],[1,"b\"\\"]]"#);
}

/// A joined group (MySQL 8.0.14+): every branch takes its names as one
/// JSON array joined laterally by equality, then the schema; no `IN`.
#[test]
fn joined_groups_take_one_json_array_per_branch() {
    let info = info("9.7.0");
    let groups = [Group {
        filter: Filter::Joined,
        checks: 0,
        constraints: 1,
    }];
    let (sql, params) = statement(&info, &groups);
    assert!(!sql.contains(" IN ("), "{sql}");
    let lateral = format!("SELECT r.* FROM {JOINED_NAMES}, LATERAL (SELECT ");
    assert_eq!(sql.matches(&lateral).count(), 6, "{sql}");
    assert_eq!(sql.matches("AND TABLE_NAME = names.n) AS r").count(), 5);
    assert_eq!(
        sql.matches("AND TABLE_NAME = names.n AND REFERENCED_TABLE_NAME IS NOT NULL) AS r")
            .count(),
        1,
        "the KEY_COLUMN_USAGE branch reads foreign-key rows only"
    );
    assert_eq!(
        params,
        [
            NameSet::Tables,
            NameSet::Tables,
            NameSet::Tables,
            NameSet::Tables,
            NameSet::Tables,
            NameSet::ConstraintTables
        ]
        .iter()
        .flat_map(|set| [(0, Param::Json(*set)), (0, Param::Schema)])
        .collect::<Vec<_>>()
    );
    assert_eq!(sql.matches('?').count(), params.len());
}

/// A pairs group (several schemas' joined groups, MySQL): each branch
/// once for all of them, its rows numbered by their pair's group, one
/// JSON array of triples per branch; covered groups add nothing.
#[test]
fn pairs_groups_read_several_schemas_in_one_branch_each() {
    let info = info("9.7.0");
    let pairs = |constraints: usize| {
        let mut groups = vec![
            Group {
                filter: Filter::Pairs(3),
                checks: 0,
                constraints,
            },
            Group {
                filter: Filter::Covered,
                checks: 0,
                constraints: 0,
            },
            Group {
                filter: Filter::Covered,
                checks: 0,
                constraints: 0,
            },
        ];
        groups.push(Group {
            filter: Filter::One,
            checks: 0,
            constraints: 0,
        });
        statement(&info, &groups)
    };
    let (sql, params) = pairs(0);
    let lateral = format!("SELECT r.* FROM {JOINED_PAIRS}, LATERAL (SELECT ");
    assert_eq!(sql.matches(&lateral).count(), 5, "{sql}");
    assert_eq!(sql.matches("AS src, names.b AS branch").count(), 5);
    assert_eq!(
        sql.matches("WHERE TABLE_SCHEMA = names.s AND TABLE_NAME = names.n")
            .count(),
        4
    );
    assert_eq!(
        sql.matches("WHERE CONSTRAINT_SCHEMA = names.s AND TABLE_NAME = names.n")
            .count(),
        1,
        "REFERENTIAL_CONSTRAINTS"
    );
    // The one-table group after the pairs keeps its own number.
    assert!(sql.contains("SELECT 0 AS src, 3 AS branch"), "{sql}");
    assert!(!sql.contains(" IN ("), "{sql}");
    assert_eq!(
        params[..5],
        [(0, Param::Pairs(NameSet::Tables)); 5],
        "one JSON parameter per branch"
    );
    assert_eq!(
        sql.matches('?').count(),
        5 + 5 * 2,
        "5 arrays, 5 (schema, table) pairs"
    );
    let (with, params) = pairs(2);
    assert_eq!(with.matches(&lateral).count(), 6);
    assert_eq!(params[5], (0, Param::Pairs(NameSet::ConstraintTables)));
}

#[test]
fn flavor_specific_index_columns() {
    let maria = inspection_sql(&info("10.11.19-MariaDB"), &[true]);
    assert!(maria.contains("CONVERT(IGNORED USING utf8mb4) COLLATE utf8mb4_bin AS i"));
    assert!(!maria.contains("IS_VISIBLE"));
    let old_maria = inspection_sql(&info("10.5.9-MariaDB"), &[true]);
    assert!(!old_maria.contains("IGNORED"));
    let mysql = inspection_sql(&info("8.0.36"), &[true]);
    assert!(
        mysql.contains("CONVERT(IS_VISIBLE USING utf8mb4)")
            && mysql.contains("CONVERT(EXPRESSION USING utf8mb4)")
    );
    assert_eq!(
        IndexSource::for_server(&info("8.0.11-TiDB-v8.5.3")),
        IndexSource::MySql
    );
}

#[test]
fn old_tidb_reads_public_indexes_only() {
    let source = IndexSource::for_server(&info("8.0.11-TiDB-v8.5.1"));
    assert_eq!(source, IndexSource::TidbIndexes);
    assert_eq!(
        source.sql(),
        "SELECT KEY_NAME AS index_name, NON_UNIQUE AS non_unique, SEQ_IN_INDEX AS seq_in_index, \
         COLUMN_NAME AS col_name, SUB_PART AS sub_part, NULL AS key_order, NULL AS index_type, \
         IS_VISIBLE AS is_visible, NULL AS is_ignored, EXPRESSION AS expr \
         FROM information_schema.TIDB_INDEXES \
         WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND KEY_NAME = ? \
         ORDER BY SEQ_IN_INDEX"
    );
    let batch = inspection_sql(&info("8.0.11-TiDB-v7.5.1"), &[true, true]);
    let conv =
        |e: &str, slot: &str| format!("CONVERT({e} USING utf8mb4) COLLATE utf8mb4_bin AS {slot}");
    let index_branch = |i: usize| {
        format!(
            "SELECT 2 AS src, {i} AS branch, SEQ_IN_INDEX AS ord, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} \
             FROM information_schema.TIDB_INDEXES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?",
            conv("TABLE_NAME", "tbl"),
            conv("KEY_NAME", "a"),
            conv("NON_UNIQUE", "b"),
            conv("SEQ_IN_INDEX", "c"),
            conv("COLUMN_NAME", "d"),
            conv("SUB_PART", "e"),
            conv("NULL", "f"),
            conv("NULL", "g"),
            conv("IS_VISIBLE", "h"),
            conv("NULL", "i"),
            conv("EXPRESSION", "j"),
        )
    };
    assert!(batch.contains(&index_branch(0)), "{batch}");
    assert!(batch.contains(&index_branch(1)), "{batch}");
    assert!(!batch.contains("information_schema.STATISTICS"));
    let new = inspection_sql(&info("8.0.11-TiDB-v8.5.3"), &[true]);
    assert!(new.contains("FROM information_schema.STATISTICS") && !new.contains("TIDB_INDEXES"));
}
