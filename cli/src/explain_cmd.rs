//! `catalog explain`: judge the declared queries' plans, live or on a scratch schema.

use anyhow::Result;
use schema_catalog::db;
use schema_catalog::explain::{self, ExplainOptions, ExplainReport};

use crate::args::{Cli, Format};
use crate::exit;
use crate::print::emit_json;
use crate::shared::load;

/// Runs `explain` and returns its exit code.
pub async fn run(cli: &Cli, scratch: bool, opts: &ExplainOptions) -> Result<u8> {
    let catalog = load(cli)?;
    explain::scoped_queries(&catalog, opts.consumer.as_deref())?;
    let url = cli.database_url.as_deref().ok_or_else(|| {
        schema_catalog::Error::Usage(
            "no database: pass --database-url (with --scratch, the server to build the scratch schema on)"
                .into(),
        )
    })?;
    let report = if scratch {
        let server = db::parse_server_url(url)?;
        explain::explain_scratch(&server, &catalog, opts).await?
    } else {
        let target = db::parse_url(url)?;
        let mut session = db::connect(&target, opts.timeout).await?;
        let report = explain::explain_live(&mut session, &catalog, opts).await;
        let _ = session.disconnect().await;
        report?
    };
    print(cli.format, &report);
    Ok(if report.ok { exit::OK } else { exit::DRIFT })
}

/// `verify --plans` output and exit code: the verify report with the plan
/// judgement (JSON: one `VerifyPlansDoc`).
pub fn verify_with_plans(
    cli: &Cli,
    target: &str,
    report: &schema_catalog::verify::VerifyReport,
    plans: &ExplainReport,
) -> u8 {
    let ok = report.ok && plans.ok;
    match cli.format {
        Format::Json => emit_json(&schema_catalog::report::VerifyPlansDoc {
            ok,
            verify: report.clone(),
            plans: plans.clone(),
        }),
        // Markdown reaches only `catalog diff` (the parser refuses it for the
        // other commands); it would print as human text here.
        Format::Human | Format::Markdown | Format::Jsonl | Format::Sarif => {
            crate::print::verify(cli.format, target, report);
            print!("plans: {}", plans.render_human());
        }
    }
    if ok {
        exit::OK
    } else {
        exit::DRIFT
    }
}

/// Prints the report: one JSON document, or the human lines on stdout.
pub fn print(format: Format, report: &ExplainReport) {
    match format {
        Format::Json => emit_json(report),
        Format::Human | Format::Markdown | Format::Jsonl | Format::Sarif => {
            print!("{}", report.render_human())
        }
    }
}
