//! Conformance against a peer's public corpus (sqldef's mysqldef cases, MIT,
//! in `../shared/corpus/sqldef/`; `CATALOG_SQLDEF_CORPUS` overrides).
//!
//! On each server (`scripts/test` runs it on MariaDB and on MySQL), for every
//! case sqldef marks for that flavor and version: load `desired` into a scratch schema,
//! `catalog import` a catalog from it, load `current` into another scratch
//! schema, `catalog apply` the catalog there, and judge the outcome with this
//! test's own information_schema comparison:
//! - desired reachable from current by online additions only (new tables,
//!   new nullable or defaulted columns and nullable VIRTUAL generated ones,
//!   new B-tree indexes; not a STORED generated column, a FULLTEXT, SPATIAL
//!   or functional index, a CHECK or a FOREIGN KEY on an existing table):
//!   apply must converge and every desired column, index, check and
//!   foreign key must exist exactly;
//! - otherwise apply must refuse (exit 1) and leave current byte-identical.
//!
//! Import or apply declining with exit 2/3 is "unsupported", never a pass.
//! The per-file table is printed and written to
//! `target/conformance-sqldef-<flavor>.md`.

#[path = "../../tests/common/mod.rs"]
mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use common::TestDb;
use mysql_async::prelude::*;
use schema_catalog::Flavor;

fn corpus_dir() -> PathBuf {
    std::env::var_os("CATALOG_SQLDEF_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/sqldef"))
}

#[derive(Debug, serde::Deserialize)]
struct Case {
    current: Option<String>,
    desired: Option<String>,
    flavor: Option<String>,
    min_version: Option<String>,
    max_version: Option<String>,
}

/// How one case ended.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Verdict {
    Converged,
    Refused,
    Unsupported(String),
    Skipped(String),
    Wrong(String),
}

fn version(text: &str) -> Vec<u32> {
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|p| !p.is_empty())
        .filter_map(|p| p.parse().ok())
        .take(2)
        .collect()
}

/// Why a case does not run on this server (flavor, major.minor version), if
/// it does not. sqldef's `flavor` is `mysql`, `mariadb`, `tidb` or a negation.
fn not_for(case: &Case, flavor: Flavor, server_version: &[u32]) -> Option<String> {
    let ours = flavor.name();
    if let Some(f) = case.flavor.as_deref() {
        let runs = match f.strip_prefix('!') {
            Some(not) => not != ours,
            None => f == ours,
        };
        if !runs {
            return Some(format!("flavor {f}"));
        }
    }
    if let Some(min) = &case.min_version {
        if version(min).as_slice() > server_version {
            return Some(format!("min_version {min}"));
        }
    }
    if let Some(max) = &case.max_version {
        if version(max).as_slice() < server_version {
            return Some(format!("max_version {max}"));
        }
    }
    // A case sqldef expects an error from still runs: `error` is sqldef's
    // own verdict on its migration (RenameColumnConflictingNames: a
    // `@renamed` annotation it cannot follow), not on the SQL; this test
    // judges the outcome by its own shape comparison, as for any case, and
    // SQL a server refuses is skipped as such.
    None
}

/// (table, lowercase name): the key of a column or index.
type Key = (String, String);
/// Column type (MySQL: with its SRID), IS_NULLABLE, COLUMN_DEFAULT, COLLATION_NAME,
/// lowercase EXTRA followed by GENERATION_EXPRESSION.
type ColumnShape = (String, String, Option<String>, Option<String>, String);
/// NON_UNIQUE, ordered (lowercase column or expression, SUB_PART, COLLATION),
/// hidden (MariaDB IGNORED / MySQL IS_VISIBLE), INDEX_TYPE.
type IndexShape = (
    i64,
    Vec<(String, Option<i64>, Option<String>)>,
    String,
    String,
);

/// Columns, referenced table (its schema left out: the scratch schemas
/// differ) and columns, UPDATE_RULE, DELETE_RULE.
type ForeignKeyShape = (Vec<String>, String, Vec<String>, String, String);

/// Columns, indexes and CHECK constraints (clause as the server prints it;
/// MariaDB's json_valid checks left out: they are the json type) of a
/// schema, as this test compares them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Shape {
    columns: BTreeMap<Key, ColumnShape>,
    indexes: BTreeMap<Key, IndexShape>,
    checks: BTreeMap<Key, String>,
    foreign_keys: BTreeMap<Key, ForeignKeyShape>,
    tables: BTreeSet<String>,
}

async fn shape(db: &TestDb) -> Shape {
    let mut conn = db.pool.get_conn().await.expect("connect");
    let mut s = Shape::default();
    let tables: Vec<String> = conn
        .exec(
            "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE'",
            (db.name.as_str(),),
        )
        .await
        .unwrap();
    s.tables.extend(tables);
    type ColRow = (
        String,
        String,
        String,
        String,
        Option<String>,
        Option<String>,
        String,
    );
    // A generated column's expression is compared with its EXTRA; MySQL's
    // column SRID with its type.
    let ty = match db.flavor {
        Flavor::MySql => {
            "CASE WHEN c.SRS_ID IS NULL THEN c.COLUMN_TYPE ELSE CONCAT(c.COLUMN_TYPE, ' srid ', c.SRS_ID) END"
        }
        _ => "c.COLUMN_TYPE",
    };
    let cols: Vec<ColRow> = conn
        .exec(
            format!("SELECT c.TABLE_NAME, c.COLUMN_NAME, {ty}, c.IS_NULLABLE, c.COLUMN_DEFAULT, c.COLLATION_NAME, \
             CONCAT(c.EXTRA, ' ', IFNULL(c.GENERATION_EXPRESSION, '')) \
             FROM information_schema.COLUMNS c JOIN information_schema.TABLES t \
             ON t.TABLE_SCHEMA = c.TABLE_SCHEMA AND t.TABLE_NAME = c.TABLE_NAME AND t.TABLE_TYPE = 'BASE TABLE' \
             WHERE c.TABLE_SCHEMA = ?"),
            (db.name.as_str(),),
        )
        .await
        .unwrap();
    for (t, c, ty, null, def, coll, extra) in cols {
        let extra = extra.trim().to_string();
        s.columns.insert(
            (t, c.to_lowercase()),
            (
                without_display_width(&ty),
                null,
                def,
                coll,
                extra.to_lowercase(),
            ),
        );
    }
    type IdxRow = (
        String,
        String,
        i64,
        Option<String>,
        Option<i64>,
        Option<String>,
        String,
        String,
    );
    // A functional key part has no COLUMN_NAME; MySQL gives its EXPRESSION.
    let (part, hidden) = match db.flavor {
        Flavor::MariaDb => ("COLUMN_NAME", "IGNORED"),
        _ => ("IFNULL(COLUMN_NAME, EXPRESSION)", "IS_VISIBLE"),
    };
    let rows: Vec<IdxRow> = conn
        .exec(
            format!(
                "SELECT TABLE_NAME, INDEX_NAME, NON_UNIQUE, {part}, SUB_PART, COLLATION, {hidden}, INDEX_TYPE \
                 FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX"
            ),
            (db.name.as_str(),),
        )
        .await
        .unwrap();
    for (t, i, non_unique, col, sub, order, hidden, kind) in rows {
        let e = s.indexes.entry((t, i.to_lowercase())).or_insert((
            non_unique,
            Vec::new(),
            hidden,
            kind,
        ));
        e.1.push((col.unwrap_or_default().to_lowercase(), sub, order));
    }
    let checks: Vec<(String, String, String)> = conn
        .exec(
            "SELECT tc.TABLE_NAME, tc.CONSTRAINT_NAME, cc.CHECK_CLAUSE \
             FROM information_schema.TABLE_CONSTRAINTS tc JOIN information_schema.CHECK_CONSTRAINTS cc \
             ON cc.CONSTRAINT_SCHEMA = tc.TABLE_SCHEMA AND cc.CONSTRAINT_NAME = tc.CONSTRAINT_NAME \
             WHERE tc.TABLE_SCHEMA = ? AND tc.CONSTRAINT_TYPE = 'CHECK'",
            (db.name.as_str(),),
        )
        .await
        .unwrap();
    for (t, name, clause) in checks {
        if !clause.to_lowercase().starts_with("json_valid(") {
            s.checks.insert((t, name.to_lowercase()), clause);
        }
    }
    // Two reads, each narrowed by a constant schema: joined, MariaDB scans
    // REFERENTIAL_CONSTRAINTS of every database ("Scanned all databases"),
    // opening every table on the server once per case.
    type KeyRow = (String, String, String, String, String);
    let keys: Vec<KeyRow> = conn
        .exec(
            "SELECT TABLE_NAME, CONSTRAINT_NAME, COLUMN_NAME, REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME \
             FROM information_schema.KEY_COLUMN_USAGE \
             WHERE TABLE_SCHEMA = ? AND REFERENCED_TABLE_NAME IS NOT NULL \
             ORDER BY TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION",
            (db.name.as_str(),),
        )
        .await
        .unwrap();
    let rules: Vec<(String, String, String, String)> = conn
        .exec(
            "SELECT TABLE_NAME, CONSTRAINT_NAME, UPDATE_RULE, DELETE_RULE \
             FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = ?",
            (db.name.as_str(),),
        )
        .await
        .unwrap();
    for (t, name, col, ref_table, ref_col) in keys {
        let (update, delete) = rules
            .iter()
            .find(|(rt, rn, _, _)| *rt == t && *rn == name)
            .map(|(_, _, u, d)| (u.clone(), d.clone()))
            .unwrap_or_else(|| panic!("foreign key {t}.{name} has no REFERENTIAL_CONSTRAINTS row"));
        let e = s.foreign_keys.entry((t, name.to_lowercase())).or_insert((
            Vec::new(),
            ref_table,
            Vec::new(),
            update,
            delete,
        ));
        e.0.push(col.to_lowercase());
        e.2.push(ref_col.to_lowercase());
    }
    s
}

/// Integer display widths are not part of a type (SPEC "Inspection":
/// `int(11)` is `int`; only `tinyint(1)`, the boolean, keeps its width).
fn without_display_width(ty: &str) -> String {
    if ty.starts_with("tinyint(1)") {
        return ty.to_string();
    }
    for int in ["tinyint", "smallint", "mediumint", "int", "bigint"] {
        if let Some(rest) = ty.strip_prefix(int).and_then(|r| r.strip_prefix('(')) {
            if let Some(close) = rest.find(')') {
                return format!("{int}{}", &rest[close + 1..]);
            }
        }
    }
    ty.to_string()
}

/// Whether `desired` is reachable from `current` by online additions only,
/// and if not, why. Not online, so refused by design (docs/catalog-format.md):
/// a FULLTEXT index or an index with an expression part, a CHECK
/// constraint or a foreign key, added to an existing table.
fn reachable(current: &Shape, desired: &Shape) -> Result<(), String> {
    for ((t, name), want) in &desired.foreign_keys {
        match current.foreign_keys.get(&(t.clone(), name.clone())) {
            Some(have) if have == want => {}
            Some(have) => return Err(format!("foreign key {t}.{name}: {have:?} -> {want:?}")),
            None if !current.tables.contains(t) => {}
            None => {
                return Err(format!(
                    "foreign key {t}.{name} added to an existing table (not online)"
                ))
            }
        }
    }
    for ((t, name), want) in &desired.checks {
        match current.checks.get(&(t.clone(), name.clone())) {
            Some(have) if have == want => {}
            Some(have) => return Err(format!("check {t}.{name}: {have} -> {want}")),
            None if !current.tables.contains(t) => {}
            None => {
                return Err(format!(
                    "check {t}.{name} added to an existing table (not online)"
                ))
            }
        }
    }
    for ((t, c), want) in &desired.columns {
        match current.columns.get(&(t.clone(), c.clone())) {
            Some(have) if have == want => {}
            Some(have) => return Err(format!("column {t}.{c}: {have:?} -> {want:?}")),
            None if !current.tables.contains(t) => {}
            None => {
                let (_, nullable, default, _, extra) = want;
                let fillable =
                    nullable == "YES" || (default.is_some() && default.as_deref() != Some("NULL"));
                // `VIRTUAL GENERATED` / `STORED GENERATED` is a generated
                // column; MySQL's `DEFAULT_GENERATED` (an expression or
                // CURRENT_TIMESTAMP default) is not. A nullable VIRTUAL one
                // is added online (metadata only); a STORED one rewrites
                // every row (docs/catalog-format.md: not online).
                let generated = extra.split_whitespace().any(|w| w == "generated");
                let stored = extra.contains("stored generated");
                if stored {
                    return Err(format!(
                        "STORED generated column {t}.{c} added to an existing table (not online)"
                    ));
                }
                let fillable = fillable || (generated && nullable == "YES");
                if !fillable || extra.contains("auto_increment") {
                    return Err(format!(
                        "column {t}.{c} cannot be added to retained rows (NOT NULL without default, or auto_increment)"
                    ));
                }
            }
        }
    }
    for ((t, i), want) in &desired.indexes {
        match current.indexes.get(&(t.clone(), i.clone())) {
            Some(have) if have == want => {}
            Some(have) => return Err(format!("index {t}.{i}: {have:?} -> {want:?}")),
            None if i == "primary" && current.tables.contains(t) => {
                return Err(format!("primary key of {t} added"))
            }
            None if current.tables.contains(t)
                && (want.3 == "FULLTEXT"
                    || want.3 == "SPATIAL"
                    || want.1.iter().any(|(part, _, _)| part.contains('('))) =>
            {
                return Err(format!(
                    "{} index {t}.{i} added to an existing table (not online)",
                    want.3
                ))
            }
            None => {}
        }
    }
    Ok(())
}

/// After a converged apply: every desired column and index exists exactly.
fn contains_exactly(after: &Shape, desired: &Shape) -> Result<(), String> {
    for (k, want) in &desired.columns {
        if after.columns.get(k) != Some(want) {
            return Err(format!(
                "column {k:?}: want {want:?}, have {:?}",
                after.columns.get(k)
            ));
        }
    }
    for (k, want) in &desired.indexes {
        if after.indexes.get(k) != Some(want) {
            return Err(format!(
                "index {k:?}: want {want:?}, have {:?}",
                after.indexes.get(k)
            ));
        }
    }
    for (k, want) in &desired.foreign_keys {
        if after.foreign_keys.get(k) != Some(want) {
            return Err(format!(
                "foreign key {k:?}: want {want:?}, have {:?}",
                after.foreign_keys.get(k)
            ));
        }
    }
    for (k, want) in &desired.checks {
        if after.checks.get(k) != Some(want) {
            return Err(format!(
                "check {k:?}: want {want}, have {:?}",
                after.checks.get(k)
            ));
        }
    }
    Ok(())
}

fn catalog_bin() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_catalog"));
    cmd.env_remove("DATABASE_URL").env_remove("CATALOG_DIR");
    cmd
}

fn first_line(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    text.lines()
        .find(|l| l.starts_with("error"))
        .unwrap_or_else(|| text.lines().next().unwrap_or(""))
        .to_string()
}

/// Runs corpus SQL in the scratch schema; sqldef's own database name
/// (`mysqldef_test`, used in qualified names) maps to the scratch schema.
/// A `USE <db>;` line (UseStatement) selects the database the case means:
/// here that is the scratch schema the connection already uses, so it is
/// dropped rather than run against a database that does not exist.
async fn run_sql(db: &TestDb, sql: &str) -> Result<(), String> {
    let sql = sql
        .lines()
        .filter(|l| !is_use_statement(l))
        .collect::<Vec<_>>()
        .join("\n")
        .replace("mysqldef_test", &db.name);
    let mut conn = db.pool.get_conn().await.map_err(|e| e.to_string())?;
    conn.query_drop(sql).await.map_err(|e| e.to_string())
}

fn is_use_statement(line: &str) -> bool {
    let words: Vec<&str> = line
        .trim()
        .trim_end_matches(';')
        .split_whitespace()
        .collect();
    matches!(words.as_slice(), [u, _] if u.eq_ignore_ascii_case("use"))
}

/// The reason class of an unsupported or skipped case, for the report's
/// reason table: the first class of a fixed, ordered list whose needle the
/// reason contains (so classes stay stable between runs); anything else is
/// its own text, names left out.
fn reason_class(why: &str) -> String {
    const NOT_RUN: &[(&str, &str)] = &[
        ("auto_random", "TiDB AUTO_RANDOM"),
        ("shard_row_id_bits", "TiDB SHARD_ROW_ID_BITS"),
        ("auto_id_cache", "TiDB AUTO_ID_CACHE"),
        ("'vector'", "no VECTOR type"),
        (
            "foreign key constraint",
            "foreign key to a table of another letter case",
        ),
        (
            "failed to open the referenced table",
            "foreign key to a table of another letter case",
        ),
        (
            "invalid default value",
            "typed-literal default refused by the server",
        ),
    ];
    const CLASSES: &[(&str, &str)] = &[
        ("partitioned", "partitioning"),
        ("foreign key", "foreign key"),
        ("generated column", "generated column"),
        ("srid", "spatial type"),
        (
            "outside the catalog's types",
            "type outside the catalog's types",
        ),
        ("literal default on a json", "json literal default"),
        ("table option row_format", "table option ROW_FORMAT"),
        ("table option key_block_size", "table option KEY_BLOCK_SIZE"),
        (" array)", "multi-valued index (CAST ... ARRAY)"),
        (
            "expression key part",
            "expression key part the catalog cannot express",
        ),
        ("check", "CHECK the catalog cannot express"),
        (
            "default cannot be declared",
            "default the catalog cannot express",
        ),
        ("cannot parse", "definition the dump parser cannot read"),
        (
            "cannot do this online",
            "apply: the server cannot do it online",
        ),
        ("long unique", "long unique (HASH) key"),
        ("has no table", "desired has no table (events, drops only)"),
        (
            "has no base table",
            "desired has no table (events, drops only)",
        ),
        ("flavor ", "sqldef marks it for another flavor"),
        ("max_version", "sqldef marks it for an older server"),
        ("min_version", "sqldef marks it for a newer server"),
    ];
    let lower = why.to_lowercase();
    if lower.contains("does not run on") {
        let hint = NOT_RUN
            .iter()
            .find(|(needle, _)| lower.contains(needle))
            .map(|(_, hint)| (*hint).to_string())
            .unwrap_or_else(|| {
                let code = lower.split("error ").nth(1);
                format!(
                    "error {}",
                    code.and_then(|r| r.split_whitespace().next())
                        .unwrap_or("?")
                )
            });
        return format!("corpus SQL does not run on this server ({hint})");
    }
    if let Some((_, class)) = CLASSES.iter().find(|(needle, _)| lower.contains(needle)) {
        return (*class).to_string();
    }
    let mut out = String::new();
    for (i, part) in why.split('`').enumerate() {
        out.push_str(if i % 2 == 0 { part } else { "X" });
    }
    out.chars().take(100).collect()
}

async fn run_case(case: &Case, out_dir: &Path, flavor: Flavor, server_version: &[u32]) -> Verdict {
    if let Some(why) = not_for(case, flavor, server_version) {
        return Verdict::Skipped(why);
    }
    let Some(desired_sql) = case
        .desired
        .as_deref()
        .filter(|d| d.to_uppercase().contains("CREATE TABLE"))
    else {
        return Verdict::Skipped("desired has no table".into());
    };
    let desired_db = TestDb::new().await;
    if let Err(e) = run_sql(&desired_db, desired_sql).await {
        return Verdict::Skipped(format!(
            "desired does not run on {flavor}: {}",
            e.lines().next().unwrap_or("")
        ));
    }
    let desired = shape(&desired_db).await;
    if desired.tables.is_empty() {
        return Verdict::Skipped("desired has no base table".into());
    }
    let current_db = TestDb::new().await;
    if let Some(current_sql) = case.current.as_deref().filter(|c| !c.trim().is_empty()) {
        if let Err(e) = run_sql(&current_db, current_sql).await {
            return Verdict::Skipped(format!(
                "current does not run on {flavor}: {}",
                e.lines().next().unwrap_or("")
            ));
        }
    }
    let _ = std::fs::remove_dir_all(out_dir);
    let import = catalog_bin()
        .args(["--database-url", &desired_db.url(), "import", "--out"])
        .arg(out_dir)
        .output()
        .expect("run catalog import");
    let import_stderr = String::from_utf8_lossy(&import.stderr);
    if import_stderr.contains("would not pass `catalog check`") {
        return Verdict::Wrong(format!("import refused its own output: {import_stderr}"));
    }
    match import.status.code() {
        Some(0) => {
            // Import never writes a catalog its own check refuses.
            let check = catalog_bin()
                .arg("--catalog")
                .arg(out_dir)
                .arg("check")
                .output()
                .expect("run catalog check");
            if check.status.code() != Some(0) {
                return Verdict::Wrong(format!(
                    "import wrote a catalog that check rejects: {}",
                    String::from_utf8_lossy(&check.stderr)
                ));
            }
        }
        Some(2) | Some(3) => {
            return Verdict::Unsupported(format!("import: {}", first_line(&import.stderr)))
        }
        other => {
            return Verdict::Wrong(format!(
                "import exited {other:?}: {}",
                first_line(&import.stderr)
            ))
        }
    }
    let before = current_db.snapshot().await;
    let current = shape(&current_db).await;
    let expect = reachable(&current, &desired);
    let apply = catalog_bin()
        .arg("--catalog")
        .arg(out_dir)
        .args([
            "--database-url",
            &current_db.url(),
            "--format",
            "json",
            "apply",
            "--lock-timeout",
            "10",
        ])
        .output()
        .expect("run catalog apply");
    let code = apply.status.code();
    match (&expect, code) {
        (Ok(()), Some(0)) => {
            let after = shape(&current_db).await;
            match contains_exactly(&after, &desired) {
                Ok(()) => Verdict::Converged,
                Err(e) => Verdict::Wrong(format!("apply said converged but {e}")),
            }
        }
        (Err(_), Some(1)) => {
            if current_db.snapshot().await == before {
                Verdict::Refused
            } else {
                Verdict::Wrong("refused but the current schema changed".into())
            }
        }
        (_, Some(2)) | (_, Some(3)) => {
            let doc: serde_json::Value = serde_json::from_slice(&apply.stdout).unwrap_or_default();
            let why = doc["error"]
                .as_str()
                .or(doc["stopped"]["message"].as_str())
                .map(str::to_string);
            Verdict::Unsupported(format!(
                "apply exit {code:?}: {}",
                why.unwrap_or_else(|| first_line(&apply.stderr))
            ))
        }
        (Ok(()), other) => Verdict::Wrong(format!(
            "reachable by additions but apply exited {other:?}: {}",
            String::from_utf8_lossy(&apply.stdout)
                .chars()
                .take(600)
                .collect::<String>()
        )),
        (Err(why), other) => {
            Verdict::Wrong(format!("not reachable ({why}) but apply exited {other:?}"))
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqldef_corpus_conformance() {
    let dir = corpus_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("corpus {} not readable: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yml"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no corpus files in {}", dir.display());
    let probe = TestDb::new().await;
    let (flavor, server_version) = (probe.flavor, version(&probe.version));
    drop(probe);
    // One catalog directory per case, under a directory named by the
    // flavor and the server's port (`conformance-mariadb-3306`): runs
    // against MariaDB and MySQL from one worktree go at once without
    // removing each other's case directories.
    let work = common::scratch_dir(&format!("conformance-{flavor}"));
    let mut table = String::from("| file | converged | correctly refused | unsupported | skipped | wrong |\n|---|---|---|---|---|---|\n");
    let mut details = String::new();
    let mut totals = [0usize; 5];
    let mut reasons: BTreeMap<(&str, String), usize> = BTreeMap::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let cases: BTreeMap<String, Case> =
            serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let mut counts = [0usize; 5];
        let fname = file.file_name().unwrap().to_string_lossy().to_string();
        for (name, case) in &cases {
            let verdict = run_case(case, &work.join(name), flavor, &server_version).await;
            let slot = match &verdict {
                Verdict::Converged => 0,
                Verdict::Refused => 1,
                Verdict::Unsupported(_) => 2,
                Verdict::Skipped(_) => 3,
                Verdict::Wrong(_) => 4,
            };
            counts[slot] += 1;
            let (outcome, why) = match &verdict {
                Verdict::Unsupported(why) => ("unsupported", why),
                Verdict::Skipped(why) => ("skipped", why),
                Verdict::Wrong(why) => ("WRONG", why),
                Verdict::Converged | Verdict::Refused => continue,
            };
            details.push_str(&format!("- {outcome} {fname} {name}: {why}\n"));
            if outcome != "WRONG" {
                *reasons.entry((outcome, reason_class(why))).or_default() += 1;
            }
        }
        for (t, c) in totals.iter_mut().zip(counts) {
            *t += c;
        }
        table.push_str(&format!(
            "| {fname} | {} | {} | {} | {} | {} |\n",
            counts[0], counts[1], counts[2], counts[3], counts[4]
        ));
    }
    table.push_str(&format!(
        "| **total** | {} | {} | {} | {} | {} |\n",
        totals[0], totals[1], totals[2], totals[3], totals[4]
    ));
    // Unsupported and skipped cases by reason, most cases first.
    let mut by_count: Vec<_> = reasons.into_iter().collect();
    by_count.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let mut reason_table = String::from("| outcome | reason | cases |\n|---|---|---|\n");
    for ((outcome, class), n) in by_count {
        reason_table.push_str(&format!("| {outcome} | {class} | {n} |\n"));
    }
    let report = format!(
        "{flavor} {}\n\n{table}\n{reason_table}\n{details}",
        server_version
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(".")
    );
    let out = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../target/conformance-sqldef-{flavor}.md"));
    let _ = std::fs::write(&out, &report);
    eprintln!("{report}");
    assert_eq!(totals[4], 0, "wrong outcomes:\n{report}");
    assert!(
        totals[0] + totals[1] > 0,
        "nothing converged or refused:\n{report}"
    );
}

#[test]
fn reasons_are_classed_by_what_declined() {
    for (why, class) in [
        (
            "import: error: nothing to import from h/s: every table was left out as unsupported (table `t`: table: partitioned (PARTITION BY HASH (`id`)): partitioned tables are not supported",
            "partitioning",
        ),
        (
            "import: error: table `t`: table option ROW_FORMAT cannot be expressed in a catalog: ROW_FORMAT = DYNAMIC is not part of the catalog format",
            "table option ROW_FORMAT",
        ),
        (
            "import: error: table `posts`: foreign key `posts_ibfk_1` cannot be expressed in a catalog: CONSTRAINT `posts_ibfk_1` FOREIGN KEY (`user_id`) REFERENCES `users`(`id`)",
            "foreign key",
        ),
        (
            "desired does not run on mariadb: Server error: `ERROR 1911 (HY000): Unknown option 'SHARD_ROW_ID_BITS''",
            "corpus SQL does not run on this server (TiDB SHARD_ROW_ID_BITS)",
        ),
        (
            "desired does not run on mysql: Server error: `ERROR 1049 (42000): Unknown database 'x''",
            "corpus SQL does not run on this server (error 1049)",
        ),
        ("flavor !mariadb", "sqldef marks it for another flavor"),
        ("max_version 5.7", "sqldef marks it for an older server"),
    ] {
        assert_eq!(reason_class(why), class, "{why}");
    }
    assert!(is_use_statement("use test_db;"));
    assert!(!is_use_statement("  used_by int,"));
}
