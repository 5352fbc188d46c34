//! `catalog stats`: the size of each catalog table as the server estimates
//! it, read with the startup gate's rules: one statement per 64 catalog
//! tables, a UNION ALL of one branch per table bounded by `TABLE_SCHEMA = ?
//! AND TABLE_NAME = ?`, never a schema-wide read, so its cost does not grow
//! with the tables outside the catalog. (MySQL answers `TABLE_NAME IN
//! (...)` by reading every table of the schema through the dictionary's
//! schema index and filtering the names, measured in
//! tests/it/cost_live.rs; an equality per name is a point lookup on both
//! servers.) No row data: estimated rows, DATA_LENGTH,
//! INDEX_LENGTH, AUTO_INCREMENT, row format and engine, and the server's
//! flavor and version. The document is JSON ([`StatsReport`], schema in
//! docs/schemas/stats.schema.json), fit to commit or to fetch in CI, and
//! read back by `plan --against DUMP --stats FILE` and `diff --stats FILE`.

use std::path::Path;

use mysql_async::Row;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::db::Session;
use crate::error::{Error, Result};
use crate::model::Table;
use crate::server::{Flavor, ServerIdentity, Version};

/// Catalog tables per read (one UNION ALL branch each; a statement of a
/// thousand branches takes MySQL seconds to plan, CONTEXT.md).
const NAMES_PER_READ: usize = 64;

/// One table's row of information_schema.TABLES, by its two names.
const BRANCH: &str = "SELECT TABLE_NAME, TABLE_ROWS, DATA_LENGTH, INDEX_LENGTH, AUTO_INCREMENT, \
     ROW_FORMAT, ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?";

/// `catalog stats --format json`, and the file `--out` writes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StatsReport {
    /// The server read.
    pub server: ServerIdentity,
    /// Its flavor.
    pub flavor: Flavor,
    /// Its release.
    pub version: Version,
    /// The schema read.
    pub schema: String,
    /// Each catalog table the server holds, in name order.
    pub tables: Vec<TableStats>,
    /// Catalog tables the schema does not hold (they would be created).
    pub missing: Vec<String>,
    /// The server's measured index build rate (`--calibrate`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calibration: Option<Calibration>,
    /// `auto-increment-capacity` (docs/lint.md): tables whose next
    /// AUTO_INCREMENT value has used more than the catalog's share of its
    /// column's range ([`StatsReport::add_capacity`]). Left out when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub capacity: Vec<CapacityWarning>,
}

/// One table past the catalog's `auto_increment_max_share`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CapacityWarning {
    /// The rule id, `auto-increment-capacity`.
    pub rule: String,
    /// `warning`, or `error` where the catalog sets the rule so.
    pub severity: String,
    /// The table.
    pub table: String,
    /// Its auto_increment column.
    pub column: String,
    /// The share of the column's range used, in percent.
    pub percent: f64,
    /// The catalog's share (`lint: auto_increment_max_share`, default 80).
    pub max_share: u8,
    /// What is wrong and what to do.
    pub message: String,
}

impl StatsReport {
    /// Adds the `auto-increment-capacity` warnings of `catalog` (its level
    /// and share) over the tables read; nothing when the rule is `off`.
    /// `catalog stats` runs it, as `catalog verify` does
    /// ([`crate::verify::VerifyOptions::capacity`]).
    pub fn add_capacity(&mut self, catalog: &crate::catalog::Catalog) {
        let rule = &crate::catalog::AUTO_INCREMENT_CAPACITY;
        let Some(severity) = catalog.lint.level(rule).severity() else {
            return;
        };
        let share = catalog.lint.auto_increment_max_share;
        for t in &self.tables {
            let key = crate::Ident::new(&t.table).folded().to_string();
            let Some(want) = catalog.tables.iter().find(|c| c.table.name.folded() == key) else {
                continue;
            };
            let (Some(next), Some(c)) = (
                t.auto_increment,
                want.table.columns.iter().find(|c| c.auto_increment),
            ) else {
                continue;
            };
            let Some(usage) = crate::coltype::auto_increment_use(&c.ty, next) else {
                continue;
            };
            if usage.over(share) {
                self.capacity.push(CapacityWarning {
                    rule: rule.id.to_string(),
                    severity: severity.to_string(),
                    table: t.table.clone(),
                    column: c.name.to_string(),
                    percent: usage.percent,
                    max_share: share,
                    message: format!(
                        "{}: {}",
                        usage.describe(&c.ty, share),
                        crate::catalog::fix_hint(rule.id).unwrap_or_default()
                    ),
                });
            }
        }
    }
}

/// One table as the server estimates it (information_schema.TABLES; on
/// InnoDB the persistent statistics, refreshed by ANALYZE TABLE and by the
/// server after enough changed rows).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableStats {
    /// Table name, as the server spells it.
    pub table: String,
    /// TABLE_ROWS: the estimated number of rows.
    pub rows: u64,
    /// DATA_LENGTH: bytes of the clustered index (the rows).
    pub data_length: u64,
    /// INDEX_LENGTH: bytes of the secondary indexes.
    pub index_length: u64,
    /// AUTO_INCREMENT: the next value (`None`: no auto-increment column).
    pub auto_increment: Option<u64>,
    /// The catalog's auto-increment column, if the table has one.
    #[serde(default)]
    pub auto_increment_column: Option<String>,
    /// The largest value that column's type holds (with
    /// `auto_increment`, how much of the range is used).
    #[serde(default)]
    pub auto_increment_max: Option<u64>,
    /// ROW_FORMAT as the server reports it.
    pub row_format: Option<String>,
    /// ENGINE.
    pub engine: Option<String>,
}

/// A measured index build rate (`catalog stats --calibrate`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Calibration {
    /// Rows of the generated table.
    pub rows: u64,
    /// Its DATA_LENGTH in bytes after ANALYZE TABLE.
    pub data_length: u64,
    /// Seconds the index build took.
    pub seconds: f64,
    /// Seconds an index build on a 10-row table took: the fixed part of
    /// every online ALTER, added to each estimate of a step that reads
    /// rows.
    pub overhead_seconds: f64,
    /// DATA_LENGTH / (seconds - overhead_seconds), in MB (10^6 bytes) per
    /// second.
    pub mb_per_s: f64,
}

/// Reads the sizes of `tables` in `schema` on `session`'s server.
pub async fn read_stats(
    session: &mut Session<'_>,
    schema: &str,
    tables: &[Table],
) -> Result<StatsReport> {
    let server = session.server().clone();
    if let Some(sql) = server.flavor().fresh_table_stats_statement() {
        session
            .run("asking for fresh table statistics", |c| {
                mysql_async::prelude::Queryable::query_drop(c, sql)
            })
            .await?;
    }
    let mut found: Vec<TableStats> = Vec::new();
    for chunk in tables.chunks(NAMES_PER_READ) {
        let sql = vec![BRANCH; chunk.len()].join(" UNION ALL ");
        let params: Vec<mysql_async::Value> = chunk
            .iter()
            .flat_map(|t| [schema.into(), t.name.as_str().into()])
            .collect();
        let what = format!(
            "reading the sizes of {} table(s) in `{schema}`",
            chunk.len()
        );
        let rows = session
            .exec_rows(&what, &sql, mysql_async::Params::Positional(params))
            .await?;
        for row in rows {
            found.push(decode(row, &what)?);
        }
    }
    let by_name: std::collections::HashMap<String, &Table> = tables
        .iter()
        .map(|t| (t.name.folded().to_string(), t))
        .collect();
    for t in &mut found {
        let key = crate::Ident::new(&t.table).folded().to_string();
        if let Some(catalog) = by_name.get(&key) {
            if let Some(c) = catalog.columns.iter().find(|c| c.auto_increment) {
                t.auto_increment_column = Some(c.name.to_string());
                t.auto_increment_max = max_value(&c.ty);
            }
        }
    }
    found.sort_by(|a, b| a.table.cmp(&b.table));
    let have: std::collections::HashSet<String> = found
        .iter()
        .map(|t| crate::Ident::new(&t.table).folded().to_string())
        .collect();
    let mut missing: Vec<String> = tables
        .iter()
        .filter(|t| !have.contains(t.name.folded()))
        .map(|t| t.name.to_string())
        .collect();
    missing.sort();
    Ok(StatsReport {
        capacity: Vec::new(),
        server: server.identity().cloned().unwrap_or_default(),
        flavor: server.flavor(),
        version: server.version(),
        schema: schema.to_string(),
        tables: found,
        missing,
        calibration: None,
    })
}

/// The largest value an integer column holds (`None` for other types).
/// The largest value an auto_increment column of type `ty` holds (the
/// capacity rule's own range, [`crate::coltype::auto_increment_use`]).
fn max_value(ty: &crate::ColumnType) -> Option<u64> {
    crate::coltype::auto_increment_use(ty, 1).map(|u| u.max)
}

fn decode(row: Row, what: &str) -> Result<TableStats> {
    let bad = |col: &str| Error::Database {
        context: what.to_string(),
        code: None,
        message: format!("information_schema.TABLES returned an unreadable {col}"),
        source: None,
    };
    let text = |row: &Row, i: usize, col: &str| -> Result<Option<String>> {
        match row.get_opt::<Option<Vec<u8>>, usize>(i) {
            Some(Ok(v)) => Ok(v.map(|b| String::from_utf8_lossy(&b).into_owned())),
            _ => Err(bad(col)),
        }
    };
    let number = |row: &Row, i: usize, col: &str| -> Result<Option<u64>> {
        match row.get_opt::<Option<u64>, usize>(i) {
            Some(Ok(v)) => Ok(v),
            _ => Err(bad(col)),
        }
    };
    Ok(TableStats {
        table: text(&row, 0, "TABLE_NAME")?.ok_or_else(|| bad("TABLE_NAME"))?,
        rows: number(&row, 1, "TABLE_ROWS")?.unwrap_or(0),
        data_length: number(&row, 2, "DATA_LENGTH")?.unwrap_or(0),
        index_length: number(&row, 3, "INDEX_LENGTH")?.unwrap_or(0),
        auto_increment: number(&row, 4, "AUTO_INCREMENT")?,
        auto_increment_column: None,
        auto_increment_max: None,
        row_format: text(&row, 5, "ROW_FORMAT")?,
        engine: text(&row, 6, "ENGINE")?,
    })
}

/// Reads a stats file (`--stats FILE`); a file that is not one is a
/// usage error naming it.
pub fn load(path: &Path) -> Result<StatsReport> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    serde_json::from_str(&text).map_err(|e| {
        Error::Usage(format!(
            "{} is not a `catalog stats` file (line {}, column {}: {e}); write one with `catalog stats --out FILE`",
            path.display(),
            e.line(),
            e.column()
        ))
    })
}

/// Writes the report as pretty JSON to `path`.
pub fn save(report: &StatsReport, path: &Path) -> Result<()> {
    let text = serde_json::to_string_pretty(report).expect("a stats report serialises");
    std::fs::write(path, text + "\n").map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })
}
