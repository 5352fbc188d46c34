//! Printing reports: human text (errors on stderr) or exactly one JSON
//! document on stdout. Progress only on a terminal, never in JSON.

use std::io::IsTerminal;
use std::sync::{Arc, Mutex};

use schema_catalog::apply::{ApplyReport, Outcome, Progress, ProgressEvent, Stopped};
use schema_catalog::catalog::{CheckReport, Problem as LintProblem};
use schema_catalog::diff::Problem;
use schema_catalog::plan::Plan;
use schema_catalog::report::{ApplyDoc, CheckDoc, ErrorDoc, PlanDoc, RenderDoc};
use schema_catalog::textdiff::{self, LineKind, TableText};
use schema_catalog::verify::VerifyReport;
use schema_catalog::{quote_ident, Flavor, Table};

use crate::args::{ColorChoice, Format};

/// Prints one JSON document (a typed report from `schema_catalog::report`).
pub fn emit_json<T: schema_catalog::report::Document>(doc: &T) {
    outln!(
        "{}",
        serde_json::to_string_pretty(doc).expect("reports serialise")
    );
}

/// Prints an error: human to stderr with its causes; JSON as `{"error": ...}` on stdout.
pub fn error(format: Format, err: &anyhow::Error, code: u8) {
    match format {
        // SARIF has no error document: stdout stays empty, the exit code
        // and stderr say what went wrong.
        Format::Human | Format::Markdown | Format::Sarif => errln!("error: {}", describe(err)),
        Format::Json | Format::Jsonl => {
            let problems = match err.downcast_ref() {
                Some(schema_catalog::Error::InvalidCatalog { problems, .. }) => {
                    Some(problems.clone())
                }
                Some(schema_catalog::Error::InvalidFleet { problems, .. }) => {
                    Some(problems.clone())
                }
                _ => None,
            };
            emit_json(&ErrorDoc {
                error: describe(err),
                exit_code: code,
                problems,
                fix: fix_of(err),
            })
        }
    }
}

/// A command line that cannot go on without knowing the server's flavor
/// (an offline run over a dump that does not say): what to pass is the
/// error's `fix`.
#[derive(Debug)]
pub struct FlavorUnknown(pub String);

/// What to pass, as the fix of a [`FlavorUnknown`].
pub const FLAVOR_FIX: &str = "pass --flavor mariadb, mysql or tidb";

impl std::fmt::Display for FlavorUnknown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}; {FLAVOR_FIX}", self.0)
    }
}

impl std::error::Error for FlavorUnknown {}

/// What would make the command pass, for JSON's `fix`: the flavor to
/// pass, or the command-line advice for a library error.
fn fix_of(err: &anyhow::Error) -> Option<String> {
    err.chain().find_map(|cause| {
        if cause.downcast_ref::<FlavorUnknown>().is_some() {
            return Some(FLAVOR_FIX.to_string());
        }
        cause
            .downcast_ref::<schema_catalog::Error>()
            .and_then(|lib| {
                let a = advice(lib)
                    .trim_start_matches("; ")
                    .trim_start_matches(" (")
                    .trim_end_matches(')');
                (!a.is_empty()).then(|| a.to_string())
            })
    })
}

/// The error as one line: the CLI's contexts, then the library error's own
/// message (which already says what the driver said, so its source chain is
/// not repeated) and the command-line advice for it.
pub fn describe(err: &anyhow::Error) -> String {
    let mut parts = Vec::new();
    for cause in err.chain() {
        if let Some(lib) = cause.downcast_ref::<schema_catalog::Error>() {
            parts.push(format!("{lib}{}", advice(lib)));
            break;
        }
        parts.push(cause.to_string());
    }
    parts.join(": ")
}

/// What the user can do about a library error, in terms of this CLI's
/// commands and options (the library's messages name none).
fn advice(err: &schema_catalog::Error) -> &'static str {
    use schema_catalog::Error as E;
    match err {
        E::InvalidCatalog { .. } => "; run `catalog check` for the full list",
        E::Timeout { .. } => "; raise --timeout or check the server",
        E::LockHeld { .. } => "; rerun when it finishes or raise --lock-timeout",
        E::Unsupported { .. } => " (use --skip-unsupported to leave it out)",
        _ => "",
    }
}

/// Lint findings, one per line, on stderr.
pub fn problems_to_stderr(problems: &[LintProblem]) {
    for p in problems {
        errln!("{p}");
        if !p.fix.is_empty() {
            errln!("  help: {}", p.fix);
        }
    }
}

/// What a step adds: `` `T` `` for a table, `` `T`.`object` `` otherwise.
fn step_object(kind: &str, table: &str, object: &str) -> String {
    if kind == "create_table" {
        quote_ident(table)
    } else {
        format!("{}.{}", quote_ident(table), quote_ident(object))
    }
}

/// `check` output; `too_many` is `--max-warnings` when the warnings
/// exceed it.
pub fn check(format: Format, report: &CheckReport, too_many: Option<usize>) {
    let errors = report.error_count();
    let warnings = report.warnings().count();
    let suppressed = match report.suppressed.len() {
        0 => String::new(),
        n => format!(", {n} suppressed"),
    };
    match format {
        Format::Json => emit_json(&CheckDoc::from(report)),
        Format::Sarif => emit_json(&schema_catalog::sarif::check(report)),
        Format::Human | Format::Markdown | Format::Jsonl => {
            problems_to_stderr(&report.problems);
            for s in &report.suppressed {
                let p = &s.problem;
                let at = match (p.line, p.column) {
                    (Some(l), Some(c)) => format!(":{l}:{c}"),
                    (Some(l), None) => format!(":{l}"),
                    _ => String::new(),
                };
                let what = match (&p.table, &p.object) {
                    (Some(t), Some(o)) => format!(": table `{t}`, {o}"),
                    (Some(t), None) => format!(": table `{t}`"),
                    (None, Some(o)) => format!(": {o}"),
                    (None, None) => String::new(),
                };
                errln!(
                    "{}{at}: suppressed {}[{}] (allow comment on line {}){what}",
                    p.file.display(),
                    p.severity,
                    p.rule,
                    s.comment_line
                );
            }
            match (&report.catalog, too_many) {
                (Some(c), None) => outln!(
                    "catalog {} is valid: {} table(s), {warnings} warning(s){suppressed}",
                    c.dir.display(),
                    c.tables.len()
                ),
                (Some(_), Some(max)) => errln!(
                    "catalog fails --max-warnings {max}: {warnings} warning(s){suppressed}; fix them, or allow one with a `# catalog: allow RULE` comment"
                ),
                (None, _) => errln!(
                    "catalog is invalid: {errors} error(s), {warnings} warning(s){suppressed}"
                ),
            }
        }
    }
}

/// `render` output: statements joined with `;`.
pub fn render(format: Format, server: &schema_catalog::Server, statements: &[String]) {
    match format {
        Format::Json => emit_json(&RenderDoc {
            flavor: server.flavor(),
            server_version: server.version(),
            statements: statements.to_vec(),
        }),
        Format::Human | Format::Markdown | Format::Jsonl | Format::Sarif => {
            for s in statements {
                outln!("{s};\n");
            }
        }
    }
}

fn problem_lines(title: &str, problems: &[Problem]) {
    if problems.is_empty() {
        return;
    }
    outln!("{title}:");
    for p in problems {
        outln!("  {p}");
        if let Some(fix) = &p.fix {
            outln!("    fix: {fix}");
        }
    }
}

/// States the server an offline command writes SQL for, on stderr in
/// human output (stdout stays the SQL alone; JSON carries it as a field):
/// `server: mysql 8.0.11 (assumed: the oldest supported release; --server-version sets it)`.
pub fn offline_server(format: Format, server: &schema_catalog::Server, given: bool) {
    if format == Format::Json {
        return;
    }
    if given {
        errln!("server: {server} (--server-version)");
    } else {
        errln!(
            "server: {server} (assumed: the oldest supported release; --server-version sets it)"
        );
    }
}

/// `plan` output.
pub fn plan(
    format: Format,
    target: &str,
    plan: &Plan,
    replicas: Option<&schema_catalog::replica::Survey>,
    cost: Option<&schema_catalog::cost::PlanCost>,
) {
    match format {
        Format::Json => {
            let mut doc = PlanDoc::from(plan);
            doc.replicas = replicas.cloned();
            if let Some(cost) = cost {
                doc = doc.with_cost(cost);
            }
            emit_json(&doc)
        }
        Format::Human | Format::Markdown | Format::Jsonl | Format::Sarif => {
            outln!(
                "plan for {target} ({}): {} step(s)",
                plan.flavor,
                plan.steps.len()
            );
            if let Some(server) = &plan.server {
                outln!("server: {server}");
            }
            for (i, s) in plan.steps.iter().enumerate() {
                let widened = s
                    .change
                    .widened()
                    .map(|(from, to)| format!(": {from} -> {to}"))
                    .unwrap_or_default();
                outln!(
                    "\n-- {}. {} {}{widened}",
                    i + 1,
                    s.change.kind(),
                    step_object(
                        s.change.kind(),
                        s.change.table().as_str(),
                        s.change.object().as_str()
                    )
                );
                if let Some(reason) = s.data_dependent() {
                    outln!("-- {reason}");
                }
                if let Some(c) = cost.and_then(|c| c.steps.get(i)) {
                    outln!("{}", crate::cost_cmd::step_line(c));
                }
                outln!("{};", s.sql);
            }
            if let (Some(cost), false) = (cost, plan.steps.is_empty()) {
                outln!();
                for line in crate::cost_cmd::summary_lines(cost) {
                    outln!("{line}");
                }
            }
            if plan.is_refused() {
                outln!();
                problem_lines(
                    "drift (refused: apply would issue no DDL until this is fixed by hand)",
                    &plan.drift,
                );
            }
            problem_lines(
                "unmanaged (not in the catalog; never touched)",
                &plan.unmanaged,
            );
            if let Some(survey) = replicas {
                survey_lines(survey);
            }
        }
    }
}

/// What `plan` found of the replicas, for people.
fn survey_lines(s: &schema_catalog::replica::Survey) {
    for r in &s.guarded {
        outln!(
            "replica {} guarded: {} (server_id {}), replicating from {}",
            r.replica,
            r.server,
            r.server_id,
            r.source
        );
    }
    for b in &s.not_ready {
        outln!(
            "replica {} not ready now (apply would wait within --busy-timeout): {}",
            b.replica,
            b.reason
        );
    }
    unguarded_lines(&s.unguarded, s.discovery.as_deref());
    // Said where it matters, as apply says it: on, or replicas named.
    if let Some(t) = s
        .two_phase
        .as_ref()
        .filter(|t| t.on || !s.guarded.is_empty() || !s.not_ready.is_empty())
    {
        outln!("two-phase ALTER: {}", t.reason);
    }
    if let Some(message) = &s.refused {
        errln!("refused: {message}");
    }
}

/// The connected replicas that were not named (a hint), or why they could
/// not be listed.
fn unguarded_lines(unguarded: &[String], discovery: Option<&str>) {
    if !unguarded.is_empty() {
        let verb = if unguarded.len() == 1 {
            "replica is"
        } else {
            "replicas are"
        };
        outln!(
            "{} {verb} connected and not guarded: {} (name each with --replica)",
            unguarded.len(),
            unguarded.join(", ")
        );
    }
    if let Some(why) = discovery {
        outln!("note: {why}");
    }
}

/// `verify` output.
pub fn verify(format: Format, target: &str, report: &VerifyReport) {
    match format {
        Format::Json => emit_json(report),
        Format::Human | Format::Markdown | Format::Jsonl | Format::Sarif => {
            let scope = report
                .consumer
                .as_deref()
                .map(|c| format!(" for consumer `{c}`"))
                .unwrap_or_default();
            outln!("server: {}", report.server);
            if report.ok {
                outln!(
                    "verify{scope}: {target} ({}) satisfies the catalog",
                    report.flavor
                );
            } else {
                outln!(
                    "verify{scope}: {target} ({}) does NOT satisfy the catalog: {} problem(s)",
                    report.flavor,
                    report.problems.len()
                );
                problem_lines("problems", &report.problems);
            }
            problem_lines("unmanaged (informational)", &report.unmanaged);
            for c in &report.capacity {
                outln!("{c}");
            }
            for r in &report.replicas {
                if r.ok {
                    outln!(
                        "replica {} ({}): satisfies the catalog",
                        r.replica,
                        r.server
                    );
                } else {
                    outln!(
                        "replica {} ({}): does NOT satisfy the catalog: {} problem(s)",
                        r.replica,
                        r.server,
                        r.problems.len()
                    );
                    problem_lines("problems on the replica", &r.problems);
                }
            }
        }
    }
}

/// `apply` output.
pub fn apply(format: Format, target: &str, report: &ApplyReport, header_printed: bool) {
    match format {
        Format::Json => emit_json(&ApplyDoc::from(report)),
        Format::Human | Format::Markdown | Format::Jsonl | Format::Sarif => {
            if !header_printed {
                apply_header(target, report);
            }
            for r in &report.replicas {
                outln!(
                    "replica {}: {} (server_id {}), replicating from {}",
                    r.replica,
                    r.server,
                    r.server_id,
                    r.source
                );
            }
            unguarded_lines(&report.unguarded, report.discovery.as_deref());
            if let Some(t) = report
                .two_phase
                .as_ref()
                .filter(|t| t.on || !report.replicas.is_empty())
            {
                outln!("two-phase ALTER: {}", t.reason);
            }
            for p in &report.duplicate_probes {
                outln!("duplicate probe: {}", p.describe());
                // Present only with --show-duplicates.
                for g in &p.values {
                    outln!("      key ({}): {} rows", g.key.join(", "), g.rows);
                }
            }
            for (i, s) in report.steps.iter().enumerate() {
                outln!(
                    "  {:>2}. {:<15} {:<12} {} ({} ms{})",
                    i + 1,
                    serde_json::to_value(s.status)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_string))
                        .unwrap_or_default(),
                    s.kind,
                    step_object(s.kind, &s.table, &s.object),
                    s.ms,
                    if s.two_phase { ", two-phase ALTER" } else { "" }
                );
                for r in &s.replicas {
                    outln!(
                        "      replica {}: lag waited {} ms before; {}; read back {}",
                        r.replica,
                        r.lag_waited_ms,
                        match r.caught_up_ms {
                            Some(ms) => format!("executed the step {ms} ms after it"),
                            None => "had not executed the step".into(),
                        },
                        serde_json::to_value(r.read_back)
                            .ok()
                            .and_then(|v| v.as_str().map(str::to_string))
                            .unwrap_or_default()
                    );
                    if !r.blocked_by.is_empty() {
                        outln!(
                            "      replica {}: waited {} ms before for sessions holding the table: {}",
                            r.replica,
                            r.blocker_waited_ms,
                            r.blocked_by
                                .iter()
                                .map(ToString::to_string)
                                .collect::<Vec<_>>()
                                .join("; ")
                        );
                    }
                }
                // A dry run shows what it would send.
                if report.outcome == Outcome::DryRun {
                    outln!("      {};", s.sql);
                }
            }
            if report.read_retries > 0 {
                outln!(
                    "busy server: {} read(s) cut short at the read budget were tried again",
                    report.read_retries
                );
            }
            match &report.outcome {
                Outcome::Converged if report.steps.is_empty() => {
                    outln!("nothing to do: the schema already satisfies the catalog")
                }
                Outcome::Converged => outln!("converged: the schema satisfies the catalog"),
                Outcome::DryRun if report.steps.is_empty() => outln!(
                    "dry run: preflight passed; nothing to do: the schema already satisfies the catalog"
                ),
                Outcome::DryRun => outln!("dry run: preflight passed; no DDL issued"),
                Outcome::RefusedDuplicates { message } => {
                    errln!("refused: {message}");
                }
                Outcome::RefusedDrift => {
                    problem_lines("drift", &report.drift);
                    errln!("refused: drift found before any DDL; nothing was changed. Fix the drift by hand, then rerun.");
                }
                Outcome::Stopped { message, .. } => {
                    problem_lines("drift", &report.drift);
                    errln!("stopped: {message}");
                }
                Outcome::Deferred {
                    table, blockers, ..
                } => {
                    if let Some(Stopped::Busy { message, .. }) = report.stopped() {
                        errln!("{message}");
                    }
                    for b in blockers {
                        errln!("  blocked by {b}");
                    }
                    if blockers.is_empty() {
                        errln!("  (the metadata lock of `{table}` could not be had; its holder had left by the last look)");
                    }
                }
                Outcome::RefusedReplica { message, .. } => {
                    errln!("refused: {message}; nothing was changed");
                }
                Outcome::OverBudget { steps } => {
                    errln!("{}", schema_catalog::apply::over_budget_message(steps));
                }
                Outcome::ReplicaDeferred { replicas, .. }
                | Outcome::ReplicasPending { replicas, .. } => {
                    match report.stopped() {
                        Some(Stopped::ReplicaBusy { message, .. })
                        | Some(Stopped::ReplicasPending { message, .. }) => errln!("{message}"),
                        _ => {}
                    }
                    for b in replicas {
                        errln!("  {b}");
                    }
                }
                Outcome::Overloaded { servers, .. } => {
                    if let Some(Stopped::Overloaded { message, .. }) = report.stopped() {
                        errln!("{message}");
                    }
                    for l in servers {
                        errln!("  {l}");
                    }
                }
                Outcome::Interrupted { message, .. } => errln!("interrupted: {message}"),
            }
            problem_lines("unmanaged (never touched)", &report.unmanaged);
        }
    }
}

/// The first lines of `apply`'s human output: what it applies to, under
/// which lock, on which server.
pub fn apply_header(target: &str, report: &ApplyReport) {
    outln!(
        "apply to {target} ({}), lock `{}`",
        report.flavor,
        report.lock
    );
    outln!("server: {}", report.server);
}

/// One line about a step's progress, for a log: started, waiting (with who
/// blocks), finished.
pub fn progress_line(p: &Progress) -> String {
    let head = format!(
        "step {}/{} {} {}",
        p.step,
        p.steps,
        p.kind,
        step_object(p.kind, &p.table, &p.object)
    );
    match &p.event {
        ProgressEvent::Started => format!("{head}: started"),
        ProgressEvent::Finished(status) => format!(
            "{head}: {}",
            serde_json::to_value(status)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default()
        ),
        ProgressEvent::Waiting { blockers, waited } if blockers.is_empty() => format!(
            "{head}: waiting ({} s): the metadata lock was not granted in time; retrying",
            waited.as_secs()
        ),
        ProgressEvent::Waiting { blockers, waited } => format!(
            "{head}: waiting ({} s) for {} blocker(s): {}",
            waited.as_secs(),
            blockers.len(),
            blockers
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; ")
        ),
        ProgressEvent::Replica(text) => format!("{head}: {text}"),
        ProgressEvent::Percent(pct) => format!("{head}: {pct:.0}%"),
        ProgressEvent::Rows(rows) => format!("{head}: {rows} rows"),
        ProgressEvent::Stage(stage) => format!("{head}: {stage}"),
    }
}

/// Prints one progress line on stdout and flushes it, so that a pipe sees
/// it at once.
pub fn stream_line(line: &str) {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// A terminal progress bar for long steps (indicatif), shared with the callback.
#[derive(Clone)]
pub struct ProgressBar(Arc<Mutex<Option<indicatif::ProgressBar>>>);

impl ProgressBar {
    /// An idle bar.
    pub fn new() -> Self {
        ProgressBar(Arc::new(Mutex::new(None)))
    }

    /// A step started: a spinner with the step, elapsed time and what the
    /// server says (percent, rows or stage, as the flavor reports it).
    pub fn start(&self, p: &Progress) {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} {prefix} [{elapsed_precise}] {wide_msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
        );
        bar.set_prefix(format!(
            "step {}/{} {} {}",
            p.step,
            p.steps,
            p.kind,
            step_object(p.kind, &p.table, &p.object)
        ));
        bar.enable_steady_tick(std::time::Duration::from_millis(120));
        *self.0.lock().expect("progress lock") = Some(bar);
    }

    /// What the server reports about the running step.
    pub fn message(&self, text: String) {
        if let Some(bar) = self.0.lock().expect("progress lock").as_ref() {
            bar.set_message(text);
        }
    }

    /// A line above the bar (a wait for a blocker), kept on screen.
    pub fn println(&self, line: &str) {
        match self.0.lock().expect("progress lock").as_ref() {
            Some(bar) => bar.println(line),
            None => errln!("{line}"),
        }
    }

    /// The step finished.
    pub fn finish(&self) {
        if let Some(bar) = self.0.lock().expect("progress lock").take() {
            bar.finish_and_clear();
        }
    }
}

/// Human output only: the diff of every incomplete or drifted table
/// against its catalog shape, from the tables the report already read.
pub fn table_diffs<'a>(
    format: Format,
    catalog: impl IntoIterator<Item = &'a Table>,
    live: &[Table],
    flavor: Flavor,
    source: &str,
) {
    if format != Format::Human || live.is_empty() {
        return;
    }
    let texts = textdiff::table_texts(catalog, live, flavor, source);
    print_diffs("diff (catalog -> as it is; comments left out)", &texts);
}

/// Whether stdout takes ANSI colour: `--color always`, or `auto` (the
/// default) on a terminal with NO_COLOR unset or empty (no-color.org).
pub fn color() -> bool {
    match COLOR.get().copied().unwrap_or(ColorChoice::Auto) {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    }
}

/// The `--color` choice, set once in `main`.
static COLOR: std::sync::OnceLock<ColorChoice> = std::sync::OnceLock::new();

/// Records `--color` for [`color`].
pub fn set_color(choice: ColorChoice) {
    let _ = COLOR.set(choice);
}

/// The styles of human output.
pub mod style {
    use anstyle::{AnsiColor, Style};

    /// Headers.
    pub const BOLD: Style = Style::new().bold();
    /// Not deployable, refused; the catalog's side of a diff.
    pub const RED: Style = AnsiColor::Red.on_default();
    /// The verdict when not deployable.
    pub const RED_BOLD: Style = AnsiColor::Red.on_default().bold();
    /// Divergent.
    pub const YELLOW: Style = AnsiColor::Yellow.on_default();
    /// Deployable; the live (or NEW) side of a diff.
    pub const GREEN: Style = AnsiColor::Green.on_default();
}

/// `text` in `style` when `color` (see [`color`]), else as it is.
pub fn paint(color: bool, style: anstyle::Style, text: &str) -> String {
    if color {
        format!("{}{text}{}", style.render(), style.render_reset())
    } else {
        text.to_string()
    }
}

/// Prints diffs on stdout; colored when stdout is a terminal and NO_COLOR is unset.
pub fn print_diffs(title: &str, texts: &[TableText]) {
    if texts.is_empty() {
        return;
    }
    let color = color();
    outln!("\n{title}:");
    for t in texts {
        outln!("\ntable `{}`:", t.table);
        for line in &t.lines {
            let style = match line.kind {
                LineKind::Header => style::BOLD,
                LineKind::Catalog => style::RED,
                LineKind::Actual => style::GREEN,
                LineKind::Same => anstyle::Style::new(),
            };
            outln!("{}", paint(color, style, &line.text));
        }
    }
}
