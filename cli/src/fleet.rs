//! `catalog plan|apply|verify --fleet FILE`: load the catalog and the fleet
//! file, run the library's fleet (the single-target engine on each target),
//! print progress and the report, return the exit code (docs/fleet.md).

use std::io::IsTerminal;
use std::path::Path;
use std::sync::Arc;

use anyhow::Result;
use schema_catalog::apply::{ApplyOptions, CancellationToken};
use schema_catalog::fleet::{self, FleetCommand, FleetEvent, FleetOptions};

use crate::args::{Cli, Format};
use crate::fleet_print::{self, Lanes};
use crate::print;
use crate::shared::{load, timeout};
use crate::signals;

/// Runs `command` on every target of the fleet file `file`.
pub async fn run(
    cli: &Cli,
    file: &Path,
    command: FleetCommand,
    apply: ApplyOptions,
    consumer: Option<&str>,
) -> Result<u8> {
    let catalog = load(cli)?;
    if let Some(name) = consumer {
        schema_catalog::verify::scope(&catalog, Some(name))?;
    }
    let fleet = fleet::load(file).inspect_err(|err| {
        if let (
            Format::Human | Format::Markdown,
            schema_catalog::Error::InvalidFleet { problems, .. },
        ) = (cli.format, err)
        {
            print::problems_to_stderr(problems);
        }
    })?;
    let cancel = CancellationToken::new();
    let signal = signals::watch(cancel.clone())?;
    let events = events_for(cli.format, command);
    let streamed = cli.format == Format::Human && !std::io::stderr().is_terminal();
    let opts = FleetOptions::default()
        .command(command)
        .apply(apply)
        .timeout(timeout(cli))
        .consumer(consumer.map(str::to_string))
        .cancel(cancel.clone())
        .events(events.as_ref().map(|(f, _)| f.clone()));
    let mut report = fleet::run(&fleet, &catalog, &opts).await;
    if let Some((_, Some(lanes))) = &events {
        lanes.finish();
    }
    report.exit_code = fleet::exit_code(
        &report.summary,
        report.interrupted.then(|| signal.exit_code()),
    );
    match cli.format {
        Format::Json => print::emit_json(&report),
        Format::Jsonl => fleet_print::jsonl_summary(&report),
        Format::Markdown => fleet_print::markdown(&report),
        Format::Human => fleet_print::summary(&report, streamed),
    }
    Ok(report.exit_code)
}

/// Progress while the fleet runs: on a terminal one live line per server
/// lane; on a pipe one line per target as it finishes; jsonl one document
/// per target as it finishes; json and markdown nothing until the end.
fn events_for(format: Format, command: FleetCommand) -> Option<(fleet::EventFn, Option<Lanes>)> {
    match format {
        Format::Jsonl => Some((
            Arc::new(|e: &FleetEvent<'_>| {
                if let FleetEvent::Finished { report, .. } = e {
                    fleet_print::jsonl_target(report);
                }
            }),
            None,
        )),
        Format::Human if std::io::stderr().is_terminal() => {
            let lanes = Lanes::new(command);
            let shared = lanes.clone();
            Some((
                Arc::new(move |e: &FleetEvent<'_>| shared.event(e)),
                Some(lanes),
            ))
        }
        Format::Human => Some((
            Arc::new(move |e: &FleetEvent<'_>| {
                if let FleetEvent::Finished { report, .. } = e {
                    print::stream_line(&fleet_print::target_line(report, command));
                }
            }),
            None,
        )),
        Format::Json | Format::Markdown => None,
    }
}
