//! TiDB table features (issue #12 point 4) offline: `clustered`,
//! `auto_random`, `shard_row_id_bits`, `pre_split_regions` and `ttl`
//! (fixtures/format-v2/tidb). No TiDB server exists here: TiDB's side is
//! proven on TiDB's documented `SHOW CREATE TABLE` text and on the DDL the
//! tool writes for TiDB, read back by the dump parser.
//!
//! - Round trip: the TiDB DDL reads back as the same options and the table
//!   satisfies its catalog (AUTO_RANDOM in AUTO_INCREMENT's place); the
//!   MySQL / MariaDB DDL has none of them and satisfies it too.
//! - `SHOW CREATE TABLE` markers read into the model; an unknown
//!   `/*T![feature]` is never dropped: import refuses it by name.
//! - Drift: each differing feature is a typed problem and the plan is refused.
//! - Import from a TiDB dump writes the options, which load back the same.

use std::path::Path;

use schema_catalog::catalog::{self, Catalog};
use schema_catalog::ddl::create_table;
use schema_catalog::diff::{diff_table, ProblemKind};
use schema_catalog::dump::{self, ParseOptions};
use schema_catalog::import::{self, ImportOptions};
use schema_catalog::{plan, Flavor, Table};

fn fixture() -> Catalog {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/format-v2/tidb");
    catalog::load(&dir).expect("the TiDB fixture loads")
}

fn journal(cat: &Catalog) -> &Table {
    &cat.table("Journal").expect("Journal").table
}

fn parse(sql: &str, flavor: Flavor) -> Table {
    let options = ParseOptions::default()
        .flavor(flavor)
        .keep_other_types(false);
    dump::parse_create_table_with(sql, options)
        .unwrap_or_else(|e| panic!("{e}\n{sql}"))
        .table
}

fn kinds(want: &Table, have: &Table) -> Vec<ProblemKind> {
    diff_table(want, Some(have))
        .problems
        .iter()
        .map(|p| p.kind)
        .collect()
}

#[test]
fn rendered_ddl_reads_back_and_satisfies_the_catalog_on_every_flavor() {
    let cat = fixture();
    for ct in &cat.tables {
        let want = &ct.table;
        let tidb = parse(&create_table(want, Flavor::TiDb), Flavor::TiDb);
        assert_eq!(tidb.tidb, want.tidb, "{}", want.name);
        assert!(kinds(want, &tidb).is_empty(), "{:?}", kinds(want, &tidb));
        for flavor in [Flavor::MySql, Flavor::MariaDb] {
            let plain = parse(&create_table(want, flavor), flavor);
            assert_eq!(plain.tidb, None, "{flavor}");
            assert!(kinds(want, &plain).is_empty(), "{flavor}");
        }
    }
    let j = parse(&create_table(journal(&cat), Flavor::TiDb), Flavor::TiDb);
    assert!(
        !j.columns[0].auto_increment,
        "on TiDB AUTO_RANDOM replaces AUTO_INCREMENT"
    );
}

/// As TiDB prints `Journal` (<https://docs.pingcap.com/tidb/stable/auto-random/>,
/// <https://docs.pingcap.com/tidb/stable/time-to-live/>), with `{ttl}` and
/// `{pk}` to vary.
fn shown(pk: &str, ttl: &str) -> String {
    format!(
        "CREATE TABLE `Journal` (\n  `Id` bigint unsigned NOT NULL /*T![auto_rand] AUTO_RANDOM(5, 54) */,\n  \
         `Entry` varchar(255) NOT NULL,\n  `CreatedAt` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),\n  \
         PRIMARY KEY (`Id`) /*T![clustered_index] {pk} */\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 \
         COLLATE=utf8mb4_bin /*T![auto_rand_base] AUTO_RANDOM_BASE=90001 */ /*T! PRE_SPLIT_REGIONS=2 */ \
         /*T![ttl] TTL=`CreatedAt` + INTERVAL {ttl} */ /*T![ttl] TTL_ENABLE='ON' */ /*T![ttl] TTL_JOB_INTERVAL='24h' */"
    )
}

#[test]
fn show_create_markers_are_the_model_and_differences_are_drift() {
    let cat = fixture();
    let want = journal(&cat);
    let same = parse(&shown("CLUSTERED", "90 DAY"), Flavor::TiDb);
    assert!(kinds(want, &same).is_empty(), "{:?}", kinds(want, &same));
    for (live, kind) in [
        (shown("NONCLUSTERED", "90 DAY"), ProblemKind::TidbClustered),
        (shown("CLUSTERED", "30 DAY"), ProblemKind::TidbTtl),
        (
            shown("CLUSTERED", "90 DAY").replace("AUTO_RANDOM(5, 54)", "AUTO_RANDOM(5)"),
            ProblemKind::TidbAutoRandom,
        ),
        (
            shown("CLUSTERED", "90 DAY").replace("PRE_SPLIT_REGIONS=2", "PRE_SPLIT_REGIONS=1"),
            ProblemKind::TidbPreSplitRegions,
        ),
        (
            shown("CLUSTERED", "90 DAY").replace("TTL_ENABLE='ON'", "TTL_ENABLE='OFF'"),
            ProblemKind::TidbTtl,
        ),
    ] {
        let have = parse(&live, Flavor::TiDb);
        assert_eq!(kinds(want, &have), vec![kind], "{live}");
        let p = plan::plan(&[diff_table(want, Some(&have))], Flavor::TiDb);
        assert!(p.is_refused() && p.steps.is_empty(), "{p:#?}");
    }
    // A TiDB table without the TTL the catalog declares, and a live TTL
    // the catalog does not declare, are both drift.
    let full = shown("CLUSTERED", "90 DAY");
    let no_ttl = parse(full.split(" /*T![ttl]").next().unwrap(), Flavor::TiDb);
    assert_eq!(kinds(want, &no_ttl), vec![ProblemKind::TidbTtl]);
    let mut undeclared = want.clone();
    undeclared.tidb.as_mut().unwrap().ttl = None;
    assert_eq!(kinds(&undeclared, &same), vec![ProblemKind::TidbTtl]);
    // A table created before the catalog declared AUTO_RANDOM keeps its
    // AUTO_INCREMENT key: a note (the remedy by hand), not drift.
    let predates = parse(
        &shown("CLUSTERED", "90 DAY")
            .replace("/*T![auto_rand] AUTO_RANDOM(5, 54) */", "AUTO_INCREMENT"),
        Flavor::TiDb,
    );
    let d = diff_table(want, Some(&predates));
    assert!(d.problems.is_empty(), "{:?}", d.problems);
    let notes: Vec<ProblemKind> = d.unmanaged.iter().map(|p| p.kind).collect();
    assert_eq!(notes, vec![ProblemKind::TidbAutoRandomPending]);
    assert!(
        d.unmanaged[0]
            .actual
            .to_string()
            .contains("MODIFY COLUMN `Id`"),
        "{:?}",
        d.unmanaged
    );
    // Read from MySQL (no TiDB options at all), nothing TiDB is compared.
    let mysql = parse(&create_table(want, Flavor::MySql), Flavor::MySql);
    assert!(kinds(want, &mysql).is_empty());
}

#[test]
fn malformed_clauses_and_unknown_features_are_never_dropped() {
    let bad = shown("CLUSTERED", "3 FORTNIGHT");
    let e = dump::parse_create_table_with(&bad, ParseOptions::default()).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("table `Journal`: TTL on `CreatedAt`"),
        "{e}"
    );
    let placed = shown("CLUSTERED", "90 DAY") + " /*T![placement] PLACEMENT POLICY=`fast` */";
    let parsed = dump::parse_create_table_with(&placed, ParseOptions::default()).unwrap();
    assert_eq!(parsed.features.len(), 1, "{:?}", parsed.features);
    assert_eq!(parsed.features[0].object, "TiDB feature `placement`");
    let d = dump::parse_dump(&format!("{placed};\n"), Path::new("placed.sql"), None).unwrap();
    assert_eq!(d.flavor, Some(Flavor::TiDb));
    let e = import::from_dump(&d, &ImportOptions::default()).unwrap_err();
    assert!(e.to_string().contains("placement"), "{e}");
}

#[test]
fn import_from_a_tidb_dump_writes_the_options_and_loads_back_the_same() {
    let cat = fixture();
    let text: String = cat
        .tables
        .iter()
        .map(|t| {
            let sql = create_table(&t.table, Flavor::TiDb);
            format!("{sql};\n")
        })
        .collect();
    let d = dump::parse_dump(&text, Path::new("tidb.sql"), Some(Flavor::TiDb)).unwrap();
    let imported = import::from_dump(&d, &ImportOptions::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    import::write(&imported, dir.path()).unwrap();
    let journal_yaml = std::fs::read_to_string(dir.path().join("journal.yaml")).unwrap();
    for line in [
        "  auto_increment: true\n  auto_random:\n    shard_bits: 5\n    range: 54\n",
        "primary_key:\n  columns:\n  - Id\n  clustered: true",
        "pre_split_regions: 2",
        "ttl:\n  column: CreatedAt\n  interval: 90 DAY\n  job_interval: 24h",
    ] {
        assert!(journal_yaml.contains(line), "{line} not in\n{journal_yaml}");
    }
    let again = catalog::load(dir.path()).expect("the imported catalog loads");
    for ct in &cat.tables {
        let back = &again.table(ct.table.name.as_str()).unwrap().table;
        assert_eq!(back.tidb, ct.table.tidb, "{}", ct.table.name);
        assert_eq!(back.columns, ct.table.columns, "{}", ct.table.name);
    }
}
