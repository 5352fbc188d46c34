//! The conformance judge shared by the corpus drivers
//! (cli/tests/it/conformance_sqldef.rs, cli/tests/it/conformance_vitess.rs):
//! each driver reads its corpus into [`Case`]s and calls [`run_corpus`].
//!
//! Per case, on the server under test: load `to` (the schema as declared)
//! and `from` (the schema as it is) into two scratch schemas, `catalog
//! import` a catalog from `to`, `catalog apply` it to `from`, and judge by
//! physical state, read by this harness ([`shape`]), never by the tool:
//! - `to` reachable from `from` by online additions only ([`judge::reachable`]):
//!   apply must converge and `from` must then contain `to` exactly, with
//!   every object apply does not manage unchanged;
//! - otherwise apply must refuse (exit 1) and leave `from` byte-identical
//!   (every table's SHOW CREATE TABLE).
//!
//! Import or apply declining with exit 2/3 is "unsupported", never a pass;
//! SQL the server does not run, and cases the corpus marks for another
//! server, are "skipped", each with its reason class. Cases run a few at a
//! time; the report (per group, then by reason, then each case that did
//! not converge or refuse) goes to the test output and to
//! `target/conformance/<corpus>-<flavor>.md`.

pub mod judge;
pub mod report;
pub mod shape;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;

use crate::common::{self, TestDb};
use mysql_async::prelude::*;
use schema_catalog::Flavor;

/// One case of a corpus.
#[derive(Debug, Clone)]
pub struct Case {
    /// The report row it counts in (a file, a test function).
    pub group: String,
    /// Its name within the corpus.
    pub name: String,
    /// Statements creating the schema as it is, run in order (one
    /// statement, or a `;`-separated batch, each).
    pub from: Vec<String>,
    /// Statements creating the schema as declared.
    pub to: Vec<String>,
    /// Why it does not run on this server, decided by the driver from the
    /// corpus's own markings (flavor, version).
    pub skip: Option<String>,
}

/// How one case ended.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    Converged,
    Refused,
    Unsupported(String),
    Skipped(String),
    Wrong(String),
}

/// A corpus as a driver describes it.
pub struct Corpus {
    /// Short name, for the report file (`sqldef`, `vitess`).
    pub name: &'static str,
    /// A database name the corpus SQL qualifies objects with, mapped to
    /// the scratch schema.
    pub database: Option<&'static str>,
    pub cases: Vec<Case>,
}

/// Cases run at once: each holds two scratch schemas and runs the binary
/// twice; more than this only queues on a 2-core machine.
const AT_ONCE: usize = 3;

fn catalog_bin() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_catalog"));
    cmd.env_remove("DATABASE_URL").env_remove("CATALOG_DIR");
    cmd
}

/// A read deadline of 30 s for import and apply: the 5 s default cuts
/// reads short on a busy 2-core machine, which would count as unsupported.
const TIMEOUT: [&str; 2] = ["--timeout", "30"];

async fn run(mut cmd: Command) -> Output {
    tokio::task::spawn_blocking(move || cmd.output().expect("run catalog"))
        .await
        .unwrap()
}

fn first_line(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    text.lines()
        .find(|l| l.starts_with("error"))
        .unwrap_or_else(|| text.lines().next().unwrap_or(""))
        .to_string()
}

/// Runs `statements` in the scratch schema, the corpus's database name
/// mapped to it. A statement the server refuses is retried after the
/// others (a foreign key to a table created later); the first error that
/// stays is returned.
async fn load(db: &TestDb, database: Option<&str>, statements: &[String]) -> Result<(), String> {
    let mut conn = db.pool.get_conn().await.map_err(|e| e.to_string())?;
    let mut pending: Vec<String> = statements
        .iter()
        .map(|s| match database {
            Some(d) => s.replace(d, &db.name),
            None => s.clone(),
        })
        .collect();
    loop {
        let mut failed = Vec::new();
        let mut first_error = None;
        let before = pending.len();
        for s in pending {
            if let Err(e) = conn.query_drop(&s).await {
                first_error.get_or_insert(e.to_string());
                failed.push(s);
            }
        }
        match first_error {
            None => return Ok(()),
            Some(e) if failed.len() == before => return Err(e),
            Some(_) => pending = failed,
        }
    }
}

/// Runs one case with its catalog directory at `out_dir`.
async fn run_case(case: &Case, database: Option<&str>, out_dir: &Path, flavor: Flavor) -> Verdict {
    if let Some(why) = &case.skip {
        return Verdict::Skipped(why.clone());
    }
    let desired_db = TestDb::new().await;
    if let Err(e) = load(&desired_db, database, &case.to).await {
        return Verdict::Skipped(format!(
            "desired does not run on {flavor}: {}",
            e.lines().next().unwrap_or("")
        ));
    }
    let desired = shape::read(&desired_db).await;
    if desired.tables.is_empty() {
        return Verdict::Skipped("desired has no base table".into());
    }
    let current_db = TestDb::new().await;
    if let Err(e) = load(&current_db, database, &case.from).await {
        return Verdict::Skipped(format!(
            "current does not run on {flavor}: {}",
            e.lines().next().unwrap_or("")
        ));
    }
    let _ = std::fs::remove_dir_all(out_dir);
    let mut import = catalog_bin();
    import
        .args(TIMEOUT)
        .args(["--database-url", &desired_db.url(), "import", "--out"])
        .arg(out_dir);
    let import = run(import).await;
    let import_stderr = String::from_utf8_lossy(&import.stderr);
    if import_stderr.contains("would not pass `catalog check`") {
        return Verdict::Wrong(format!("import refused its own output: {import_stderr}"));
    }
    match import.status.code() {
        Some(0) => {
            // Import never writes a catalog its own check refuses.
            let mut check = catalog_bin();
            check.arg("--catalog").arg(out_dir).arg("check");
            let check = run(check).await;
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
    let current = shape::read(&current_db).await;
    let expect = judge::reachable(&current, &desired);
    let mut apply = catalog_bin();
    apply.args(TIMEOUT).arg("--catalog").arg(out_dir).args([
        "--database-url",
        &current_db.url(),
        "--format",
        "json",
        "apply",
        "--lock-timeout",
        "10",
    ]);
    let apply = run(apply).await;
    let code = apply.status.code();
    match (&expect, code) {
        (Ok(()), Some(0)) => {
            let after = shape::read(&current_db).await;
            match judge::contains_exactly(&after, &desired, &current) {
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

/// `major.minor` of a `VERSION()` string.
pub fn version(text: &str) -> Vec<u32> {
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|p| !p.is_empty())
        .filter_map(|p| p.parse().ok())
        .take(2)
        .collect()
}

/// The flavor and `major.minor` version of the server under test.
pub async fn server() -> (Flavor, Vec<u32>) {
    let probe = TestDb::new().await;
    (probe.flavor, version(&probe.version))
}

/// Runs every case of `corpus` on the server under test, a few at a time,
/// prints and writes the report, and fails on any wrong outcome.
pub async fn run_corpus(corpus: Corpus) {
    assert!(
        !corpus.cases.is_empty(),
        "corpus {} has no cases",
        corpus.name
    );
    let (flavor, server_version) = server().await;
    // One catalog directory per case, under a directory named by corpus,
    // flavor and the server's port: runs against MariaDB and MySQL from
    // one worktree go at once without removing each other's.
    let work = common::scratch_dir(&format!("conformance-{}-{flavor}", corpus.name));
    let started = std::time::Instant::now();
    let permits = Arc::new(tokio::sync::Semaphore::new(AT_ONCE));
    let mut tasks = tokio::task::JoinSet::new();
    let database = corpus.database;
    for (i, case) in corpus.cases.iter().cloned().enumerate() {
        let permits = permits.clone();
        let dir = work.join(i.to_string());
        tasks.spawn(async move {
            let _permit = permits.acquire_owned().await.unwrap();
            let verdict = run_case(&case, database, &dir, flavor).await;
            (i, verdict)
        });
    }
    let mut verdicts = vec![None; corpus.cases.len()];
    while let Some(done) = tasks.join_next().await {
        let (i, verdict) = done.expect("a case panicked");
        verdicts[i] = Some(verdict);
    }
    let results: Vec<(&Case, Verdict)> = corpus
        .cases
        .iter()
        .zip(verdicts.into_iter().map(Option::unwrap))
        .collect();
    let elapsed = started.elapsed();
    let report = report::render(corpus.name, flavor, &server_version, &results, elapsed);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/conformance");
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(
        dir.join(format!("{}-{flavor}.md", corpus.name)),
        format!("{}{}", report.text, report.every_case),
    );
    eprintln!("{}", report.text);
    assert_eq!(report.totals[4], 0, "wrong outcomes:\n{}", report.text);
    assert!(
        report.totals[0] + report.totals[1] > 0,
        "nothing converged or refused:\n{}",
        report.text
    );
}

/// The corpus directory `name` under ../shared/corpus, or `env` when set.
pub fn corpus_dir(env: &str, name: &str) -> PathBuf {
    std::env::var_os(env).map(PathBuf::from).unwrap_or_else(|| {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../shared/corpus")
            .join(name)
    })
}
