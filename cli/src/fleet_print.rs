//! Printing a fleet run: live lanes on a terminal, one line per target on a
//! pipe, a summary table, Markdown, JSON lines.

use std::sync::{Arc, Mutex};

use schema_catalog::fleet::{FleetCommand, FleetEvent, FleetReport, TargetOutcome, TargetReport};

/// The outcome as the reports spell it, in the single-target wording of a
/// read-only run (`plan` and `verify` refuse nothing and converge nothing:
/// a target with drift has a `problem`, one with nothing to do is
/// `satisfied`). The JSON documents keep the enum's names.
fn outcome_name(o: TargetOutcome, command: FleetCommand) -> &'static str {
    let read_only = command != FleetCommand::Apply;
    match o {
        TargetOutcome::Converged => "converged",
        TargetOutcome::AlreadyConverged if read_only => "satisfied",
        TargetOutcome::AlreadyConverged => "already_converged",
        TargetOutcome::Planned => "planned",
        TargetOutcome::Refused if read_only => "problem",
        TargetOutcome::Refused => "refused",
        TargetOutcome::Deferred => "deferred",
        TargetOutcome::Failed => "failed",
        TargetOutcome::Interrupted => "interrupted",
        TargetOutcome::Halted => "halted",
        TargetOutcome::NotStarted => "not_started",
    }
}

/// Why a target did not succeed, one line (empty when it did).
fn detail(t: &TargetReport) -> String {
    match t.outcome {
        TargetOutcome::Refused => match (t.drift.split_first(), &t.error) {
            (Some((first, [])), _) => format!("drift: {first}"),
            (Some((first, rest)), _) => format!("drift: {first} (+{} more)", rest.len()),
            // A replica refused it (plan) or is not satisfied (verify).
            (None, Some(e)) => e.clone(),
            (None, None) => "drift".into(),
        },
        TargetOutcome::Deferred => {
            let who: Vec<String> = t.blockers.iter().map(ToString::to_string).collect();
            let base = t.error.clone().unwrap_or_else(|| "deferred".into());
            if who.is_empty() {
                base
            } else {
                format!("{base}; blocked by {}", who.join("; "))
            }
        }
        _ => t.error.clone().unwrap_or_default(),
    }
}

/// One line for a finished target: outcome, name, stage, steps, time, why.
pub fn target_line(t: &TargetReport, command: FleetCommand) -> String {
    let why = detail(t);
    // The replicas checked: guarded (apply, plan) or verified (verify,
    // each with its result).
    let mut names: Vec<String> = t.replicas.iter().map(|r| r.replica.clone()).collect();
    names.extend(t.replica_verify.iter().map(|r| {
        format!(
            "{} {}",
            r.replica,
            if r.ok { "satisfied" } else { "problem" }
        )
    }));
    let replicas = if names.is_empty() {
        String::new()
    } else {
        format!(", replicas {}", names.join(" "))
    };
    let mut line = format!(
        "{:<17} {}  (stage {}, {} step(s){replicas}, {} ms)",
        outcome_name(t.outcome, command),
        t.name,
        t.stage,
        t.steps.len(),
        t.ms
    );
    if !t.unguarded.is_empty() {
        line.push_str(&format!(
            "; {} connected and not guarded: {}",
            t.unguarded.len(),
            t.unguarded.join(", ")
        ));
    }
    if !t.replicas_not_ready.is_empty() {
        let who: Vec<String> = t
            .replicas_not_ready
            .iter()
            .map(|b| format!("{} ({})", b.replica, b.reason))
            .collect();
        line.push_str(&format!(
            "; replicas not ready (apply would wait): {}",
            who.join(", ")
        ));
    }
    if !why.is_empty() {
        line.push_str(": ");
        line.push_str(&why);
    }
    line
}

/// `--format jsonl`: one compact document for a finished target.
pub fn jsonl_target(t: &TargetReport) {
    crate::print::stream_line(&serde_json::to_string(t).expect("reports serialise"));
}

/// `--format jsonl`: the last line, the report without its targets.
pub fn jsonl_summary(r: &FleetReport) {
    let mut last = r.clone();
    last.targets.clear();
    crate::print::stream_line(&serde_json::to_string(&last).expect("reports serialise"));
}

const COLUMNS: [&str; 10] = [
    "targets",
    "converged",
    "already",
    "planned",
    "refused",
    "deferred",
    "failed",
    "interrupted",
    "halted",
    "not_started",
];

/// The summary's column heads for `command` (a read-only run's wording
/// for `already` and `refused`).
fn columns(command: FleetCommand) -> [&'static str; 10] {
    let mut c = COLUMNS;
    if command != FleetCommand::Apply {
        c[2] = "satisfied";
        c[4] = "problem";
    }
    c
}

/// Per server (then total): the count of each outcome.
fn rows(r: &FleetReport) -> Vec<(String, [usize; 10])> {
    let count = |name: Option<&str>| {
        let mut c = [0usize; 10];
        for t in r
            .targets
            .iter()
            .filter(|t| name.is_none_or(|n| t.server == n))
        {
            c[0] += 1;
            c[1 + t.outcome as usize] += 1;
        }
        c
    };
    let mut out: Vec<(String, [usize; 10])> = r
        .servers
        .iter()
        .map(|s| {
            let label = match &s.error {
                Some(_) => format!("{} (unreadable)", s.name),
                None => s.name.clone(),
            };
            (label, count(Some(&s.name)))
        })
        .collect();
    out.push(("total".into(), count(None)));
    out
}

/// The human summary: the table, then each target that did not succeed,
/// then each unreadable server, on stdout.
pub fn summary(r: &FleetReport, streamed: bool) {
    let rows = rows(r);
    let width = rows.iter().map(|(n, _)| n.len()).max().unwrap_or(5).max(6);
    outln!(
        "fleet {} of {}: {} target(s) in {:.1} s, exit {}",
        command_name(r),
        r.file,
        r.summary.targets,
        r.ms as f64 / 1000.0,
        r.exit_code
    );
    let mut head = format!("{:<width$}", "server");
    for c in columns(r.command) {
        head.push_str(&format!(" {c:>11}"));
    }
    outln!("{head}");
    for (name, counts) in &rows {
        let mut line = format!("{name:<width$}");
        for n in counts {
            line.push_str(&format!(" {n:>11}"));
        }
        outln!("{line}");
    }
    for s in r.servers.iter().filter(|s| s.error.is_some()) {
        outln!(
            "server {} ({}): {}",
            s.name,
            s.address,
            s.error.as_deref().unwrap_or_default()
        );
    }
    let bad: Vec<&TargetReport> = r
        .targets
        .iter()
        .filter(|t| !t.outcome.is_success())
        .collect();
    if streamed {
        // On a pipe each target's line was printed as it finished.
        if !bad.is_empty() {
            outln!(
                "{} target(s) did not succeed: their lines are above",
                bad.len()
            );
        }
        return;
    }
    for t in bad.iter().take(50) {
        outln!("{}", target_line(t, r.command));
    }
    if bad.len() > 50 {
        outln!(
            "... and {} more (--format json lists every target)",
            bad.len() - 50
        );
    }
}

fn command_name(r: &FleetReport) -> &'static str {
    match r.command {
        schema_catalog::fleet::FleetCommand::Plan => "plan",
        schema_catalog::fleet::FleetCommand::Apply => "apply",
        schema_catalog::fleet::FleetCommand::Verify => "verify",
    }
}

/// A Markdown cell: no pipes or newlines.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// `--format markdown`: the summary and every target, for a pull request
/// or a change ticket.
pub fn markdown(r: &FleetReport) {
    outln!("## Fleet {} of `{}`\n", command_name(r), cell(&r.file));
    outln!(
        "{} target(s), exit code {}, {:.1} s, on_error `{}`, parallel {} server(s) x {}\n",
        r.summary.targets,
        r.exit_code,
        r.ms as f64 / 1000.0,
        r.on_error,
        r.parallel_servers,
        r.parallel_per_server
    );
    let mut head = "| server |".to_string();
    let mut rule = "|---|".to_string();
    for c in columns(r.command) {
        head.push_str(&format!(" {c} |"));
        rule.push_str("---:|");
    }
    outln!("{head}\n{rule}");
    for (name, counts) in rows(r) {
        let cells: Vec<String> = counts.iter().map(ToString::to_string).collect();
        outln!("| {} | {} |", cell(&name), cells.join(" | "));
    }
    outln!("\n| target | stage | outcome | steps | ms | detail |\n|---|---|---|---:|---:|---|");
    for t in &r.targets {
        outln!(
            "| `{}` | {} | {} | {} | {} | {} |",
            cell(&t.name),
            cell(&t.stage),
            outcome_name(t.outcome, r.command),
            t.steps.len(),
            t.ms,
            cell(&detail(t))
        );
    }
}

/// Live progress on a terminal: one line per server lane (done of total,
/// what runs now).
#[derive(Clone)]
pub struct Lanes(Arc<Mutex<LaneState>>);

struct LaneState {
    command: FleetCommand,
    multi: indicatif::MultiProgress,
    bars: Vec<(indicatif::ProgressBar, String)>,
}

impl Lanes {
    /// No lanes yet (they appear when the servers are read).
    pub fn new(command: FleetCommand) -> Lanes {
        Lanes(Arc::new(Mutex::new(LaneState {
            command,
            multi: indicatif::MultiProgress::with_draw_target(
                indicatif::ProgressDrawTarget::stderr(),
            ),
            bars: Vec::new(),
        })))
    }

    /// Updates the lanes for one event.
    pub fn event(&self, e: &FleetEvent<'_>) {
        let Ok(mut state) = self.0.lock() else {
            return;
        };
        match e {
            FleetEvent::Planned { servers } => {
                let style = indicatif::ProgressStyle::with_template(
                    "{prefix:<24} [{bar:30}] {pos}/{len} {msg}",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
                .progress_chars("=> ");
                for s in servers.iter() {
                    let bar = state
                        .multi
                        .add(indicatif::ProgressBar::new(s.targets as u64));
                    bar.set_style(style.clone());
                    bar.set_prefix(s.name.clone());
                    if let Some(err) = &s.error {
                        bar.set_message(err.clone());
                    }
                    state.bars.push((bar, s.name.clone()));
                }
            }
            FleetEvent::Started { server, name } => {
                if let Some((bar, _)) = state.bars.get(*server) {
                    bar.set_message(format!("running {name}"));
                }
            }
            FleetEvent::Finished { server, report } => {
                if let Some((bar, _)) = state.bars.get(*server) {
                    bar.inc(1);
                    if !report.outcome.is_success() {
                        bar.set_message(format!(
                            "{} {}",
                            outcome_name(report.outcome, state.command),
                            report.schema
                        ));
                    }
                }
            }
        }
    }

    /// Ends the lanes (left on screen).
    pub fn finish(&self) {
        if let Ok(state) = self.0.lock() {
            for (bar, _) in &state.bars {
                bar.finish();
            }
        }
    }
}
