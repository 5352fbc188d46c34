//! `catalog stats` and the cost lines of `plan` (docs/cost.md).

use std::path::Path;

use anyhow::{Context, Result};
use schema_catalog::cost::{self, text, PlanCost, StatsReport};
use schema_catalog::db;

use crate::args::{Cli, Format};
use crate::exit;
use crate::shared::{load, target, timeout, NO_DATABASE};

/// `catalog stats [--out FILE] [--calibrate [--rows N]]`.
pub async fn stats(
    cli: &Cli,
    out: Option<&Path>,
    calibrate: bool,
    rows: Option<u64>,
) -> Result<u8> {
    let catalog = load(cli)?;
    let target = target(cli, NO_DATABASE)?;
    let tables: Vec<_> = catalog.tables.iter().map(|t| t.table.clone()).collect();
    let mut session = db::connect(&target, timeout(cli)).await?;
    let mut report = cost::read_stats(&mut session, &target.schema, &tables)
        .await
        .with_context(|| format!("reading table sizes on {}", target.display))?;
    if calibrate {
        let rows = rows.unwrap_or(cost::calibrate::DEFAULT_ROWS);
        if cli.format == Format::Human {
            errln!("calibrating: building an index on {rows} generated rows in a scratch schema");
        }
        report.calibration = Some(
            cost::calibrate(&mut session, rows)
                .await
                .with_context(|| format!("calibrating on {}", target.display))?,
        );
    }
    let _ = session.disconnect().await;
    report.add_capacity(&catalog);
    if let Some(out) = out {
        cost::stats::save(&report, out)?;
    }
    match cli.format {
        Format::Json => crate::print::emit_json(&report),
        _ => human(&target.display, &report, out),
    }
    Ok(exit::OK)
}

fn human(target: &str, r: &StatsReport, out: Option<&Path>) {
    outln!(
        "stats for {target} ({} {}): {} table(s)",
        r.flavor,
        r.version,
        r.tables.len()
    );
    outln!("server: {}", r.server);
    for t in &r.tables {
        let auto = match (t.auto_increment, t.auto_increment_max) {
            (Some(next), Some(max)) => format!(
                ", AUTO_INCREMENT {} of {} ({:.2}% used)",
                text::count(next),
                text::count(max),
                next as f64 * 100.0 / max as f64
            ),
            (Some(next), None) => format!(", AUTO_INCREMENT {}", text::count(next)),
            _ => String::new(),
        };
        outln!(
            "  {}: ~{} rows, data {}, indexes {}, {} {}{auto}",
            t.table,
            text::count(t.rows),
            text::bytes(t.data_length),
            text::bytes(t.index_length),
            t.engine.as_deref().unwrap_or("?"),
            t.row_format.as_deref().unwrap_or("?"),
        );
    }
    for m in &r.missing {
        outln!("  {m}: missing (apply would create it)");
    }
    for c in &r.capacity {
        outln!(
            "{}[{}]: table `{}`, column `{}`: {}",
            c.severity,
            c.rule,
            c.table,
            c.column,
            c.message
        );
    }
    if let Some(c) = &r.calibration {
        outln!(
            "calibration: {:.1} MB/s (an index on {} rows, {} of data, built in {:.2} s)",
            c.mb_per_s,
            text::count(c.rows),
            text::bytes(c.data_length),
            c.seconds
        );
    }
    if let Some(out) = out {
        outln!("written to {}", out.display());
    }
}

/// Reads a `--stats` file.
pub fn load_stats(path: Option<&Path>) -> Result<Option<StatsReport>> {
    Ok(path.map(cost::stats::load).transpose()?)
}

/// The cost options of `--stats FILE` and `--build-rate`.
pub fn cost_options(stats: Option<&Path>, build_rate: Option<f64>) -> Result<cost::CostOptions> {
    Ok(cost::CostOptions::default()
        .stats(load_stats(stats)?)
        .build_rate(build_rate))
}

/// The cost lines of a human plan: one after each step, then the totals.
pub fn step_line(c: &cost::StepCost) -> String {
    let mut parts = vec![format!("class {}", c.class)];
    parts.push(format!("rows {}", text::rows(c)));
    parts.push(format!("table {}", text::table_size(c)));
    if c.key_bytes.is_some() {
        parts.push(format!("index {}", text::index_size(c)));
    }
    parts.push(format!("build {}", text::duration(c)));
    parts.push(format!("replica stall {}", text::stall(c)));
    parts.push(format!("temp space {}", text::temp(c)));
    format!("-- cost: {}", parts.join(", "))
}

/// The totals of a human plan.
pub fn summary_lines(cost: &PlanCost) -> Vec<String> {
    let s = &cost.summary;
    let sizes = match s.sizes {
        cost::SizeSource::Live => "sizes read live",
        cost::SizeSource::StatsFile => "sizes from the --stats file",
        cost::SizeSource::None => "no sizes: pass --stats FILE (catalog stats)",
    };
    let mut lines = vec![format!(
        "cost ({sizes}; build rate {:.1} MB/s, {}):",
        s.rate.mb_per_s,
        match s.rate.source {
            cost::RateSource::Default => "the flavor's default",
            cost::RateSource::Calibrated => "calibrated",
            cost::RateSource::Option => "--build-rate",
        }
    )];
    for t in &s.tables {
        lines.push(format!(
            "  {}: {} step(s), build {}, replica stall {}, temp space {}",
            t.table.as_deref().unwrap_or(""),
            t.steps,
            text::total_ms(t.duration_ms),
            text::total_ms(t.replica_stall_ms),
            text::total_bytes(t.temp_bytes)
        ));
    }
    lines.push(format!(
        "  total: {} step(s), build {}, replica stall {}, peak temp space {}",
        s.total.steps,
        text::total_ms(s.total.duration_ms),
        text::total_ms(s.total.replica_stall_ms),
        text::total_bytes(s.total.temp_bytes)
    ));
    lines
}

/// The budgets of `apply` and `diff`: the command line's, else the
/// catalog's (`limits:` in catalog.yaml); `--allow-long-steps` from the
/// command line. A catalog that does not load is left to the command,
/// which reports it.
pub fn budgets(cli: &Cli, opts: &crate::args::BudgetOpts) -> Result<cost::Budgets> {
    let limits = if opts.max_step_duration.is_none() || opts.max_replica_stall.is_none() {
        schema_catalog::catalog::load(&cli.catalog)
            .ok()
            .map(|c| c.limits)
    } else {
        None
    };
    Ok(cost::Budgets::default()
        .max_step_duration(
            opts.max_step_duration
                .or(limits.and_then(|l| l.max_step_duration)),
        )
        .max_replica_stall(
            opts.max_replica_stall
                .or(limits.and_then(|l| l.max_replica_stall)),
        )
        .allow(opts.allow_long_steps.clone()))
}
