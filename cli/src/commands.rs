//! One function per subcommand: call the library, print, return the exit code.

use std::io::IsTerminal;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use schema_catalog::apply::{self, ApplyOptions, CancellationToken, Outcome, ProgressEvent};
use schema_catalog::catalog;
use schema_catalog::fleet::FleetCommand;
use schema_catalog::{db, ddl, verify, Flavor};

use crate::args::{Cli, Command, Format};
use crate::exit;
use crate::offline;
use crate::print;
use crate::shared::{load, target, timeout, NO_DATABASE};
use crate::signals;

/// Runs the parsed command.
pub async fn run(cli: &Cli) -> Result<u8> {
    if matches!(cli.format, Format::Jsonl | Format::Markdown)
        && !matches!(cli.command, Command::Diff { .. })
        && !cli.command.fleet()
    {
        return Err(schema_catalog::Error::Usage(
            "--format jsonl and markdown are for a fleet (--fleet FILE) here; use human or json"
                .into(),
        )
        .into());
    }
    match &cli.command {
        Command::Check { max_warnings, .. } => check(cli, *max_warnings),
        Command::Init { dir } => crate::init::run(dir),
        Command::Completions { shell } => {
            let mut command = crate::args::command();
            clap_complete::generate(*shell, &mut command, "catalog", &mut std::io::stdout());
            Ok(exit::OK)
        }
        Command::Render {
            flavor,
            server_version,
            ..
        } => render(cli, (*flavor).into(), *server_version),
        Command::Plan {
            against: Some(_),
            replicas,
            ..
        } if !replicas.replica.is_empty() || replicas.require_replicas => {
            Err(schema_catalog::Error::Usage(
                "--replica and --require-replicas check live replicas; a plan --against a dump \
                 has none: leave them out"
                    .into(),
            )
            .into())
        }
        Command::Plan {
            against: Some(file),
            flavor,
            server_version,
            stats,
            build_rate,
            ..
        } => {
            let cost = crate::cost_cmd::cost_options(stats.as_deref(), *build_rate)?;
            offline::plan_against(cli, file, flavor.map(Into::into), *server_version, &cost)
        }
        Command::Stats {
            out,
            calibrate,
            rows,
            ..
        } => crate::cost_cmd::stats(cli, out.as_deref(), *calibrate, *rows).await,
        Command::Plan {
            fleet: Some(file), ..
        } => crate::fleet::run(cli, file, FleetCommand::Plan, ApplyOptions::default(), None).await,
        Command::Plan {
            against: None,
            replicas,
            two_phase_alter,
            stats,
            build_rate,
            ..
        } => {
            let cost = crate::cost_cmd::cost_options(stats.as_deref(), *build_rate)?;
            plan(
                cli,
                &replica_targets(&replicas.replica)?,
                replicas.require_replicas,
                (*two_phase_alter).into(),
                &cost,
            )
            .await
        }
        Command::Import {
            from,
            flavor,
            out,
            tables,
            skip_unsupported,
            ..
        } => {
            let opts = schema_catalog::import::ImportOptions::default()
                .tables(tables.clone())
                .skip_unsupported(*skip_unsupported);
            offline::import(cli, from.as_deref(), flavor.map(Into::into), out, &opts).await
        }
        Command::Apply {
            lock_timeout,
            lock_wait,
            busy_timeout,
            detach,
            dry_run,
            fleet,
            replicas,
            max_replica_lag,
            replica_timeout,
            max_threads_running,
            two_phase_alter,
            probe_timeout,
            skip_duplicate_probe,
            show_duplicates,
            budgets,
            stats,
            ..
        } => {
            let opts = ApplyOptions::default()
                .max_threads_running(*max_threads_running)
                .two_phase_alter((*two_phase_alter).into())
                .probe_timeout(probe_timeout.map(Duration::from_secs_f64))
                .skip_duplicate_probe(*skip_duplicate_probe)
                .show_duplicates(*show_duplicates)
                .replicas(replica_targets(&replicas.replica)?)
                .require_replicas(replicas.require_replicas)
                .max_replica_lag(Duration::from_secs_f64(*max_replica_lag))
                .replica_timeout(replica_timeout.map(Duration::from_secs))
                .lock_timeout(Duration::from_secs(*lock_timeout))
                .lock_wait(Duration::from_secs(*lock_wait))
                .busy_timeout(Duration::from_secs(*busy_timeout))
                .detach(*detach)
                .dry_run(*dry_run)
                .read_timeout(timeout(cli))
                .budgets(crate::cost_cmd::budgets(cli, budgets)?)
                .build_rate(budgets.build_rate)
                .stats(crate::cost_cmd::load_stats(stats.as_deref())?);
            match fleet {
                Some(file) => crate::fleet::run(cli, file, FleetCommand::Apply, opts, None).await,
                None => apply_cmd(cli, opts).await,
            }
        }
        Command::Verify {
            fleet: Some(file),
            consumer,
            ..
        } => {
            // Each chunk's reads: the server ends one at --timeout, and it
            // is tried again within another --timeout (a busy server).
            let opts = ApplyOptions::default()
                .read_timeout(timeout(cli))
                .busy_timeout(timeout(cli));
            crate::fleet::run(cli, file, FleetCommand::Verify, opts, consumer.as_deref()).await
        }
        Command::Verify {
            consumer,
            plans,
            strict,
            replica,
            ..
        } => {
            let opts = verify::VerifyOptions::default()
                .strict(*strict)
                .consumer(consumer.as_deref())
                .replicas(replica_targets(replica)?)
                .timeout(timeout(cli));
            verify_cmd(cli, consumer.as_deref(), *plans, opts).await
        }
        Command::Diff {
            from,
            to,
            flavor,
            server_version,
            max_warnings,
            stats,
            budgets,
            ..
        } => {
            let cost = crate::cost_cmd::cost_options(stats.as_deref(), budgets.build_rate)?
                .budgets(crate::cost_cmd::budgets(cli, budgets)?);
            crate::review::diff(
                cli,
                from,
                to.as_deref(),
                flavor,
                *server_version,
                *max_warnings,
                &cost,
            )
        }
        Command::Explain {
            consumer,
            scratch,
            analyze,
            seed,
            ..
        } => {
            let opts = schema_catalog::explain::ExplainOptions::default()
                .consumer(consumer.clone())
                .analyze(*analyze)
                .seed(*seed)
                .timeout(Duration::from_secs(cli.timeout.max(30)));
            crate::explain_cmd::run(cli, *scratch, &opts).await
        }
    }
}

fn check(cli: &Cli, max_warnings: Option<usize>) -> Result<u8> {
    let report = catalog::check(&cli.catalog);
    let too_many = max_warnings.filter(|max| report.warnings().count() > *max);
    print::check(cli.format, &report, too_many);
    Ok(if report.is_valid() && too_many.is_none() {
        exit::OK
    } else {
        exit::USAGE
    })
}

fn render(cli: &Cli, flavor: Flavor, version: Option<schema_catalog::Version>) -> Result<u8> {
    let server = schema_catalog::Server::offline(flavor, version);
    let catalog = load(cli)?;
    let statements: Vec<String> = catalog
        .in_creation_order()
        .into_iter()
        .map(|t| ddl::create_table(&t.table, flavor))
        .collect();
    print::offline_server(cli.format, &server, version.is_some());
    print::render(cli.format, &server, &statements);
    Ok(exit::OK)
}

/// The `--replica` URLs as targets (a URL that does not parse is a usage
/// error, without its password).
fn replica_targets(urls: &[String]) -> Result<Vec<db::Target>> {
    Ok(urls
        .iter()
        .map(|u| db::parse_server_url(u))
        .collect::<schema_catalog::Result<_>>()?)
}

async fn plan(
    cli: &Cli,
    replicas: &[db::Target],
    require_replicas: bool,
    two_phase_alter: schema_catalog::replica::TwoPhaseAlter,
    cost: &schema_catalog::cost::CostOptions,
) -> Result<u8> {
    let catalog = load(cli)?;
    let require_replicas = require_replicas || catalog.require_replicas;
    let target = target(cli, NO_DATABASE)?;
    let mut session = db::connect(&target, timeout(cli)).await?;
    let tables: Vec<_> = catalog.tables.iter().map(|t| t.table.clone()).collect();
    let widens = catalog.widens();
    let plan = schema_catalog::live::plan_live(&mut session, &target.schema, &tables, &widens)
        .await
        .with_context(|| format!("planning against {}", target.display))?;
    let survey = if !plan.flavor.has_mysql_replication() && replicas.is_empty() {
        None
    } else {
        Some(
            schema_catalog::apply::survey_replicas(
                &mut session,
                replicas,
                require_replicas,
                two_phase_alter,
                timeout(cli),
            )
            .await
            .with_context(|| format!("checking the replicas of {}", target.display))?,
        )
    };
    // The cost of each step, from the sizes of the tables the plan alters
    // (bounded reads of those tables only).
    let costed =
        schema_catalog::cost::plan_cost(&mut session, &target.schema, &tables, &plan, cost)
            .await
            .with_context(|| format!("reading table sizes on {}", target.display))?;
    let _ = session.disconnect().await;
    let code = crate::shared::report_plan_with(
        cli,
        &tables,
        &plan,
        &target.display,
        survey.as_ref(),
        Some(&costed),
    );
    // A replica apply would refuse is a usage error of the command line
    // (a rerun cannot fix it), as apply's refusal is.
    Ok(match &survey {
        Some(s) if s.refused.is_some() && code == exit::OK => exit::USAGE,
        _ => code,
    })
}

async fn verify_cmd(
    cli: &Cli,
    consumer: Option<&str>,
    plans: bool,
    opts: verify::VerifyOptions,
) -> Result<u8> {
    let catalog = load(cli)?;
    verify::scope(&catalog, consumer)?;
    let explain_opts = plans.then(|| {
        schema_catalog::explain::ExplainOptions::default()
            .consumer(consumer.map(str::to_string))
            .timeout(timeout(cli))
    });
    let target = target(cli, NO_DATABASE)?;
    let opts = opts.schema(target.schema.clone()).capacity(true);
    // The whole gate (connect and every read) fits in one --timeout budget.
    let report = db::bounded(
        timeout(cli),
        &format!("verify of {}", target.display),
        async {
            let mut session = db::connect(&target, timeout(cli)).await?;
            let report = verify::verify(&mut session, &catalog, &opts).await?;
            // --plans: the same judgement as `catalog explain`, EXPLAIN only.
            let plans = match &explain_opts {
                Some(opts) if report.ok => {
                    Some(schema_catalog::explain::explain_live(&mut session, &catalog, opts).await?)
                }
                _ => None,
            };
            let _ = session.disconnect().await;
            Ok::<_, schema_catalog::Error>((report, plans))
        },
    )
    .await??;
    let (report, plans) = report;
    if let Some(plans) = &plans {
        return Ok(crate::explain_cmd::verify_with_plans(
            cli,
            &target.display,
            &report,
            plans,
        ));
    }
    print::verify(cli.format, &target.display, &report);
    let tables = verify::scope(&catalog, consumer)?;
    print::table_diffs(
        cli.format,
        &tables,
        &report.live,
        report.flavor,
        &target.display,
    );
    Ok(if report.ok { exit::OK } else { exit::DRIFT })
}

async fn apply_cmd(cli: &Cli, mut opts: ApplyOptions) -> Result<u8> {
    let catalog = load(cli)?;
    // `replicas: required` in catalog.yaml is --require-replicas.
    opts.require_replicas |= catalog.require_replicas;
    let target = target(cli, NO_DATABASE)?;
    let tables: Vec<_> = catalog.tables.iter().map(|t| t.table.clone()).collect();
    opts.widens = catalog.widens();
    opts.progress = progress_for(cli.format);
    // Human output names the target before the first step's progress line
    // (a log reads top-down), and not again after it.
    let header = Arc::new(std::sync::atomic::AtomicBool::new(false));
    if cli.format == Format::Human {
        let (header, display) = (header.clone(), target.display.clone());
        opts.on_plan = Some(Arc::new(move |report: &apply::ApplyReport| {
            print::apply_header(&display, report);
            header.store(true, std::sync::atomic::Ordering::SeqCst);
        }));
    }
    let cancel = CancellationToken::new();
    let signal = signals::watch(cancel.clone())?;
    opts.cancel = Some(cancel);
    let report = apply::run(&target, &target.schema, &tables, &opts).await?;
    let header_printed = header.load(std::sync::atomic::Ordering::SeqCst);
    print::apply(cli.format, &target.display, &report, header_printed);
    Ok(match &report.outcome {
        Outcome::Converged | Outcome::DryRun => exit::OK,
        Outcome::RefusedDrift | Outcome::RefusedDuplicates { .. } => exit::DRIFT,
        Outcome::Stopped {
            ddl_issued: false, ..
        } if !report.drift.is_empty() => exit::DRIFT,
        Outcome::Stopped { .. } => exit::DATABASE,
        Outcome::Deferred { .. }
        | Outcome::OverBudget { .. }
        | Outcome::ReplicaDeferred { .. }
        | Outcome::ReplicasPending { .. }
        | Outcome::Overloaded { .. } => exit::DEFERRED,
        // A rerun cannot fix it: the command line names a wrong replica,
        // or --require-replicas found unnamed ones.
        Outcome::RefusedReplica { .. } => exit::USAGE,
        Outcome::Interrupted { .. } => signal.exit_code(),
    })
}

/// Human output shows each step as it goes: a spinner on a terminal, one
/// line per event otherwise (a CI log shows progress; a killed run leaves
/// a trace). JSON shows none of it.
fn progress_for(format: Format) -> Option<apply::ProgressFn> {
    if format != Format::Human {
        return None;
    }
    if std::io::stderr().is_terminal() {
        let bar = print::ProgressBar::new();
        return Some(Arc::new(move |p: &apply::Progress| match &p.event {
            ProgressEvent::Started => bar.start(p),
            ProgressEvent::Percent(pct) => bar.message(format!("{pct:.0}%")),
            ProgressEvent::Rows(rows) => bar.message(format!("{rows} rows")),
            ProgressEvent::Stage(stage) => bar.message(stage.clone()),
            ProgressEvent::Waiting { .. } | ProgressEvent::Replica(_) => {
                bar.println(&print::progress_line(p))
            }
            ProgressEvent::Finished(_) => bar.finish(),
        }));
    }
    Some(Arc::new(|p: &apply::Progress| match &p.event {
        ProgressEvent::Started
        | ProgressEvent::Waiting { .. }
        | ProgressEvent::Replica(_)
        | ProgressEvent::Finished(_) => print::stream_line(&print::progress_line(p)),
        ProgressEvent::Percent(_) | ProgressEvent::Rows(_) | ProgressEvent::Stage(_) => {}
    }))
}
