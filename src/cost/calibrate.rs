//! `catalog stats --calibrate`: the server's own index build rate, timed
//! on a generated table in a scratch schema the run creates and drops
//! (also when a step fails): `rows` rows of a key, a 64-character
//! hexadecimal text, a number and a time; ANALYZE TABLE; then one online
//! ADD INDEX on the text column, timed. The rate is the table's
//! DATA_LENGTH over that time: the unit estimates divide by
//! (docs/cost.md).

use std::time::{Duration, Instant};

use mysql_async::prelude::Queryable;

use crate::db::Session;
use crate::error::{Error, Result};
use crate::ident::quote_ident;

use super::stats::Calibration;

/// The rows `--calibrate` generates unless `--rows` says otherwise.
pub const DEFAULT_ROWS: u64 = 500_000;

/// The largest `--rows`.
pub const MAX_ROWS: u64 = 100_000_000;

/// Times an index build on a generated table of `rows` rows in a scratch
/// schema on `session`'s server, and drops the schema.
pub async fn calibrate(session: &mut Session<'_>, rows: u64) -> Result<Calibration> {
    if rows == 0 || rows > MAX_ROWS {
        return Err(Error::Usage(format!(
            "--rows {rows}: give between 1 and {MAX_ROWS} rows to calibrate on"
        )));
    }
    let schema = scratch_name();
    let create = format!("CREATE DATABASE {}", quote_ident(&schema));
    session
        .run("creating the calibration schema", |c| c.query_drop(create))
        .await?;
    let result = measure(session, &schema, rows).await;
    let drop = format!("DROP DATABASE IF EXISTS {}", quote_ident(&schema));
    let dropped = session
        .run_within(
            Some(Duration::from_secs(600)),
            "dropping the calibration schema",
            |c| c.query_drop(drop),
        )
        .await;
    let calibration = result.map_err(|e| match &dropped {
        Ok(()) => e,
        Err(_) => e.with_context(&format!(
            "(the calibration schema `{schema}` could not be dropped: drop it by hand)"
        )),
    })?;
    dropped?;
    Ok(calibration)
}

/// A uniquely named scratch schema.
fn scratch_name() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() % 1_000_000_000_000)
        .unwrap_or(0);
    format!("catalog_calibrate_{}_{nanos}", std::process::id())
}

async fn measure(session: &mut Session<'_>, schema: &str, rows: u64) -> Result<Calibration> {
    let q = |name: &str| format!("{}.{}", quote_ident(schema), quote_ident(name));
    let (digits, table) = (q("digits"), q("t"));
    let setup = [
        format!("CREATE TABLE {digits} (i INT NOT NULL PRIMARY KEY) ENGINE=InnoDB"),
        format!("INSERT INTO {digits} VALUES (0),(1),(2),(3),(4),(5),(6),(7),(8),(9)"),
        format!(
            "CREATE TABLE {table} (id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, \
             k VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL, \
             n INT NOT NULL, at DATETIME(6) NOT NULL) ENGINE=InnoDB"
        ),
    ];
    for sql in setup {
        session
            .run("creating the calibration table", |c| c.query_drop(sql))
            .await?;
    }
    // The numbers 0..rows from a cross join of enough copies of 0-9; the
    // key is AUTO_INCREMENT so rows go in in key order (pages filled as
    // an application's appends fill them, not split at random).
    let mut copies = 1u32;
    while 10u64.pow(copies) < rows {
        copies += 1;
    }
    let from: Vec<String> = (0..copies).map(|i| format!("{digits} d{i}")).collect();
    let seq: Vec<String> = (0..copies)
        .map(|i| format!("d{i}.i * {}", 10u64.pow(i)))
        .collect();
    let seq = seq.join(" + ");
    let fill = format!(
        "INSERT INTO {table} (k, n, at) SELECT SHA2(s, 256), (s * 7919) % 1000003, \
         TIMESTAMP('2020-01-01') + INTERVAL (s % 86400) SECOND \
         FROM (SELECT {seq} AS s FROM {}) x WHERE s < {rows}",
        from.join(" CROSS JOIN ")
    );
    session
        .run_within(None, "filling the calibration table", |c| {
            c.query_drop(fill)
        })
        .await?;
    let analyze = format!("ANALYZE TABLE {table}");
    session
        .run_within(None, "analyzing the calibration table", |c| {
            c.query_drop(analyze)
        })
        .await?;
    let data_length = data_length(session, schema).await?;
    let flavor = session.flavor();
    let clause = if flavor.takes_online_clauses() {
        ", ALGORITHM=INPLACE, LOCK=NONE"
    } else {
        ""
    };
    // The fixed part of any online ALTER (opening, the dictionary
    // update, the commit), timed on the 10-row table: what a build costs
    // beyond its bytes.
    let fixed = format!("ALTER TABLE {digits} ADD INDEX `ik` (`i`){clause}");
    let started = Instant::now();
    session
        .run_within(None, "timing an index build on 10 rows", |c| {
            c.query_drop(fixed)
        })
        .await?;
    let overhead = started.elapsed().as_secs_f64();
    let build = format!("ALTER TABLE {table} ADD INDEX `ik` (`k`){clause}");
    let started = Instant::now();
    session
        .run_within(None, "timing the calibration index build", |c| {
            c.query_drop(build)
        })
        .await?;
    let seconds = started.elapsed().as_secs_f64().max(0.001);
    // The bytes' share of the time; never less than a tenth of it.
    let per_bytes = (seconds - overhead).max(seconds / 10.0);
    Ok(Calibration {
        rows,
        data_length,
        seconds,
        overhead_seconds: overhead.min(seconds),
        mb_per_s: data_length as f64 / 1e6 / per_bytes,
    })
}

async fn data_length(session: &mut Session<'_>, schema: &str) -> Result<u64> {
    if let Some(sql) = session.flavor().fresh_table_stats_statement() {
        session
            .run("asking for fresh table statistics", |c| c.query_drop(sql))
            .await?;
    }
    let rows = session
        .exec_rows(
            "reading the calibration table's size",
            "SELECT DATA_LENGTH FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?",
            mysql_async::Params::Positional(vec![schema.into(), "t".into()]),
        )
        .await?;
    rows.first()
        .and_then(|r| r.get_opt::<u64, usize>(0).and_then(|v| v.ok()))
        .ok_or_else(|| Error::Database {
            context: "reading the calibration table's size".into(),
            code: None,
            message: "information_schema.TABLES has no row for it".into(),
            source: None,
        })
}
