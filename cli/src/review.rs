//! `catalog diff`: the release review, printed as human text, JSON or Markdown.

use anyhow::Result;
use schema_catalog::review::{self, Class, DiffReport, Review, Source};
use schema_catalog::{Flavor, Server};

use crate::args::{Cli, FlavorArg, Format};
use crate::exit;
use crate::print::{self, paint, style};

/// Runs the review of NEW (`to`, default `--catalog`) against every OLD.
pub fn diff(
    cli: &Cli,
    from: &[String],
    to: Option<&str>,
    flavors: &[FlavorArg],
    version: Option<schema_catalog::Version>,
    max_warnings: Option<usize>,
    cost: &schema_catalog::cost::CostOptions,
) -> Result<u8> {
    let flavors: Vec<Flavor> = if flavors.is_empty() {
        // Every flavor's SQL, said so: a reader must not take the first
        // (TiDB's) for the SQL their own servers get.
        if matches!(cli.format, Format::Human | Format::Markdown) {
            errln!(
                "note: no --flavor: the upgrade SQL is shown for each of {}; pass --flavor mariadb, mysql or tidb (repeatable) to see only your servers' SQL",
                Flavor::ALL
                    .iter()
                    .map(|f| f.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        Flavor::ALL.to_vec()
    } else {
        flavors.iter().map(|f| (*f).into()).collect()
    };
    if version.is_some() && flavors.len() != 1 {
        return Err(schema_catalog::Error::Usage(
            "--server-version is one flavor's release: give exactly one --flavor with it".into(),
        )
        .into());
    }
    let servers: Vec<Server> = flavors
        .iter()
        .map(|f| Server::offline(*f, version))
        .collect();
    if !matches!(cli.format, Format::Json | Format::Sarif) {
        for server in &servers {
            print::offline_server(cli.format, server, version.is_some());
        }
    }
    let to_label = to
        .map(str::to_string)
        .unwrap_or_else(|| cli.catalog.display().to_string());
    let new = Source::parse(&to_label, &cli.catalog)?.read(&to_label)?;
    let mut reviews = Vec::new();
    for f in from {
        let old = Source::parse(f, &cli.catalog)?.read(f)?;
        if !matches!(cli.format, Format::Json | Format::Sarif) {
            if let Err(schema_catalog::Error::InvalidCatalog { problems, .. }) = old.catalog() {
                print::problems_to_stderr(&problems);
            }
        }
        reviews.push(review::review_costed(&old, &new, &servers, cost)?);
    }
    let report = DiffReport::new(to_label, reviews).for_servers(&servers);
    // Warnings: divergent changes (warm and greenfield differ), summed
    // over the reviews, as the SARIF log's warning results.
    let warnings: usize = report
        .reviews
        .iter()
        .map(|r| r.count(Class::Divergent))
        .sum();
    let too_many = max_warnings.filter(|max| warnings > *max);
    match cli.format {
        Format::Json => print::emit_json(&report),
        Format::Sarif => print::emit_json(&schema_catalog::sarif::diff(
            &report,
            new.report.catalog.as_ref(),
        )),
        Format::Markdown => {
            use std::io::Write as _;
            let _ = write!(std::io::stdout(), "{}", review::markdown::render(&report));
        }
        Format::Human | Format::Jsonl => human(&report),
    }
    if let Some(max) = too_many {
        if matches!(cli.format, Format::Human | Format::Markdown) {
            errln!("{warnings} divergent change(s): more than --max-warnings {max}");
        }
    }
    Ok(if report.deployable && too_many.is_none() {
        exit::OK
    } else {
        exit::DRIFT
    })
}

fn human(report: &DiffReport) {
    let color = print::color();
    for r in &report.reviews {
        review_human(r, &report.to, color);
    }
    let verdict = if report.deployable {
        paint(color, style::GREEN, "deployable")
    } else {
        paint(color, style::RED_BOLD, "NOT deployable")
    };
    outln!("\n{}: {verdict}", report.to);
}

fn review_human(r: &Review, to: &str, color: bool) {
    outln!(
        "{}",
        paint(color, style::BOLD, &format!("{} -> {to}", r.from))
    );
    let groups = [
        (
            Class::NotDeployable,
            "not deployable to warm installations",
            style::RED,
        ),
        (
            Class::Divergent,
            "divergent (warm and greenfield differ)",
            style::YELLOW,
        ),
        (Class::Deployable, "deployable", style::GREEN),
    ];
    if !r.new_lint_errors.is_empty() {
        outln!("{}", paint(color, style::RED, "new lint errors:"));
        for l in &r.new_lint_errors {
            outln!("  {l}");
        }
    }
    for (class, title, st) in groups {
        let items: Vec<_> = r.changes.iter().filter(|c| c.class == class).collect();
        if items.is_empty() {
            continue;
        }
        outln!("{}", paint(color, st, &format!("{title}:")));
        for c in items {
            let object = c
                .object
                .as_deref()
                .map(|o| format!(".`{o}`"))
                .unwrap_or_default();
            let shapes = match (&c.old, &c.new) {
                (Some(o), Some(n)) => format!(": {o} -> {n}"),
                (None, Some(n)) => format!(": {n}"),
                (Some(o), None) => format!(": was {o}"),
                (None, None) => String::new(),
            };
            outln!("  {} `{}`{object}{shapes}", c.kind_text(), c.table);
            outln!("    {}", c.reason);
            if let Some(fix) = c.fix.as_deref().filter(|_| c.class != Class::Deployable) {
                outln!("    fix: {fix}");
            }
        }
    }
    if r.changes.is_empty() && r.new_lint_errors.is_empty() {
        outln!("no changes");
    }
    outln!("rollout: {}", r.rollout.advice);
    for l in &r.rollout.losses {
        outln!("  {l}");
    }
    for u in &r.upgrades {
        outln!(
            "upgrade on {} from {}: {} step(s){}",
            u.flavor,
            r.from,
            u.steps.len(),
            if u.refused.is_empty() {
                String::new()
            } else {
                paint(color, style::RED, " — apply refuses:")
            }
        );
        for p in &u.refused {
            outln!("  {p}");
        }
        for s in &u.steps {
            outln!("  {};", s.sql);
        }
        if !u.held_back.is_empty() {
            outln!("  held back while refused:");
            for s in &u.held_back {
                outln!("    {};", s.sql);
            }
        }
    }
    print::print_diffs(
        &format!(
            "diff of CREATE TABLE ({} -> {to}; comments left out)",
            r.from
        ),
        &r.table_diffs,
    );
    outln!();
}
