//! Progress on a terminal is a spinner; on a pipe it is one plain line per
//! step as it starts and ends (no spinner, no carriage return); a JSON run
//! prints none of it.

use crate::cli_support;
use crate::common;

use std::path::Path;
use std::process::Command;

use cli_support::on_a_terminal;
use common::TestDb;

const CATALOG: &str = common::UNINDEXED_JOBS_CATALOG;

fn apply_args(dir: &Path, url: &str, json: bool) -> Vec<String> {
    let mut args = vec![
        env!("CARGO_BIN_EXE_catalog").to_string(),
        "--catalog".into(),
        dir.display().to_string(),
        "--database-url".into(),
        url.to_string(),
    ];
    if json {
        args.extend(["--format".into(), "json".into()]);
    }
    args.push("apply".into());
    args
}

/// The first `N%` (N = 0..=100) the terminal received.
fn first_percent(screen: &str) -> Option<u32> {
    screen.match_indices('%').find_map(|(at, _)| {
        let digits: String = screen[..at]
            .chars()
            .rev()
            .take_while(char::is_ascii_digit)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        digits.parse().ok().filter(|n| *n <= 100)
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn terminal_shows_progress_pipe_and_json_do_not() {
    let dir = common::catalog_dir(&[("jobs.yaml", CATALOG)]);

    let db = TestDb::new().await;
    common::enable_stage_progress(&db).await;
    common::unindexed_jobs(&db).await;
    // 1,048,576 rows: the CLI polls the server every 500 ms, and MySQL built
    // the 262,144-row index in about 0.6 s, sometimes before a poll saw its
    // stage counters (a CI run drew only the spinner).
    common::double_jobs(&db, 2).await;
    let (code, screen) = on_a_terminal(&apply_args(dir.path(), &db.url(), false));
    assert_eq!(code, Some(0), "{screen}");
    assert!(
        screen.contains("step 1/1 add_index `Jobs`.`idx_jobs_state_created`"),
        "{screen}"
    );
    if db.flavor == schema_catalog::Flavor::MySql {
        // performance_schema stage progress, drawn as a percent.
        let percent = first_percent(&screen);
        assert!(percent.is_some(), "no percent on the terminal: {screen}");
        eprintln!("terminal showed {}%", percent.unwrap());
    }

    let db = TestDb::new().await;
    common::unindexed_jobs(&db).await;
    let args = apply_args(dir.path(), &db.url(), false);
    let out = Command::new(&args[0])
        .args(&args[1..])
        .env_remove("DATABASE_URL")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    // The header first (what is applied where), then the step lines, and
    // the header only once.
    assert!(lines[0].starts_with("apply to "), "{all}");
    assert!(lines[1].starts_with("server: "), "{all}");
    assert_eq!(
        lines[2..4],
        [
            "step 1/1 add_index `Jobs`.`idx_jobs_state_created`: started",
            "step 1/1 add_index `Jobs`.`idx_jobs_state_created`: applied"
        ],
        "{all}"
    );
    assert_eq!(stdout.matches("apply to ").count(), 1, "{all}");
    assert!(!all.contains('\r'), "{all}");

    let db = TestDb::new().await;
    common::unindexed_jobs(&db).await;
    let (code, screen) = on_a_terminal(&apply_args(dir.path(), &db.url(), true));
    assert_eq!(code, Some(0), "{screen}");
    assert!(!screen.contains("step 1/1"), "{screen}");
    let json_start = screen.find('{').expect("a JSON document");
    let doc: serde_json::Value =
        serde_json::from_str(screen[json_start..].trim()).expect("only JSON on the terminal");
    assert_eq!(doc["converged"], true);
}
