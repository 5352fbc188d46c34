//! Each command's `--help` lists exactly the options the command takes: its
//! own and the shared ones it uses (`--catalog` for those that read a
//! catalog, `--database-url` / `--timeout` for those that connect,
//! `--format` for all). A shared option a command does not use is refused,
//! after the command (clap) and before it (the resolver), with exit 2. The
//! shared options still work before the command and from `CATALOG_DIR` /
//! `DATABASE_URL` (command line first, after the command before before it).
//! A database URL mistyped as a positional argument, which clap echoes in
//! its error, never shows its password. Each command's `--format` lists
//! only the formats it prints (markdown: `diff`, and `plan`/`apply`/`verify`
//! for a fleet; jsonl: the fleet commands), and any other is a
//! usage error in either place.

use crate::cli_support;

use std::collections::BTreeSet;

use cli_support::catalog;

const CATALOG: &str = "catalog";
const TARGET: &[&str] = &["database-url", "timeout"];

/// Each command, its own options and whether it reads a catalog / connects.
fn commands() -> Vec<(&'static str, Vec<&'static str>, bool, bool)> {
    vec![
        ("check", vec!["max-warnings"], true, false),
        ("render", vec!["flavor", "server-version"], true, false),
        (
            "plan",
            vec![
                "against",
                "flavor",
                "server-version",
                "fleet",
                "stats",
                "build-rate",
                "replica",
                "require-replicas",
                "two-phase-alter",
            ],
            true,
            true,
        ),
        ("stats", vec!["out", "calibrate", "rows"], true, true),
        (
            "import",
            vec!["from", "flavor", "out", "tables", "skip-unsupported"],
            false,
            true,
        ),
        (
            "apply",
            vec![
                "lock-timeout",
                "lock-wait",
                "busy-timeout",
                "detach",
                "dry-run",
                "fleet",
                "replica",
                "require-replicas",
                "max-replica-lag",
                "replica-timeout",
                "max-threads-running",
                "two-phase-alter",
                "probe-timeout",
                "stats",
                "skip-duplicate-probe",
                "show-duplicates",
                "build-rate",
                "max-step-duration",
                "max-replica-stall",
                "allow-long-steps",
            ],
            true,
            true,
        ),
        (
            "explain",
            vec!["consumer", "scratch", "analyze", "seed"],
            true,
            true,
        ),
        (
            "verify",
            vec!["consumer", "plans", "strict", "fleet", "replica"],
            true,
            true,
        ),
        (
            "diff",
            vec![
                "from",
                "to",
                "flavor",
                "server-version",
                "stats",
                "build-rate",
                "max-step-duration",
                "max-replica-stall",
                "allow-long-steps",
                "max-warnings",
            ],
            true,
            false,
        ),
    ]
}

/// The long options a help text lists.
fn listed(help: &str) -> BTreeSet<String> {
    help.lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let l = l.strip_prefix("-h, ").unwrap_or(l);
            let name = l.strip_prefix("--")?;
            Some(name.split([' ', '=', '<']).next()?.to_string())
        })
        .filter(|n| n != "help")
        .collect()
}

fn run(args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String, String) {
    let out = catalog()
        .args(args)
        .envs(env.iter().copied())
        .output()
        .expect("binary runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
fn each_help_lists_the_options_its_command_uses() {
    for (cmd, own, reads_catalog, connects) in commands() {
        let mut want: BTreeSet<String> = own.iter().map(|s| s.to_string()).collect();
        want.insert("format".into());
        // `--color` is global: every command prints human output.
        want.insert("color".into());
        if reads_catalog {
            want.insert(CATALOG.into());
        }
        if connects {
            want.extend(TARGET.iter().map(|s| s.to_string()));
        }
        let (code, help, _) = run(&[cmd, "--help"], &[]);
        assert_eq!(code, Some(0), "{cmd}");
        assert_eq!(listed(&help), want, "{cmd} --help:\n{help}");
        if connects {
            assert!(help.contains("[env: DATABASE_URL]"), "{cmd}: {help}");
        }
        if reads_catalog {
            assert!(help.contains("[env: CATALOG_DIR"), "{cmd}: {help}");
        }
    }
}

/// What clap requires of a command before it gets to the shared options.
fn required(cmd: &str) -> &'static [&'static str] {
    match cmd {
        "import" => &["--out", "target/never-written"],
        "diff" => &["--from", "catalog"],
        _ => &[],
    }
}

/// The formats a command prints.
fn formats(cmd: &str) -> &'static [&'static str] {
    match cmd {
        "check" => &["human", "json", "sarif"],
        "diff" => &["human", "json", "markdown", "sarif"],
        "plan" | "apply" | "verify" => &["human", "json", "jsonl", "markdown"],
        _ => &["human", "json"],
    }
}

#[test]
fn each_format_list_is_what_its_command_prints() {
    for (cmd, ..) in commands() {
        let want = formats(cmd).join(", ");
        let (code, help, _) = run(&[cmd, "-h"], &[]);
        assert_eq!(code, Some(0), "{cmd}");
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with("--format"))
            .unwrap_or_else(|| panic!("{cmd} -h lists --format:\n{help}"));
        assert!(
            line.ends_with(&format!("[possible values: {want}]")),
            "{cmd}: {line}"
        );
        let (_, long, _) = run(&[cmd, "--help"], &[]);
        assert_eq!(
            long.contains("- markdown:"),
            formats(cmd).contains(&"markdown"),
            "{cmd} --help:\n{long}"
        );
    }
}

#[test]
fn a_format_a_command_does_not_print_is_a_usage_error() {
    let never_written =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/never-written");
    let prints_markdown = |c: &str| formats(c).contains(&"markdown");
    for (cmd, ..) in commands().into_iter().filter(|(c, ..)| !prints_markdown(c)) {
        let with = |args: &[&'static str]| -> Vec<&'static str> { [args, required(cmd)].concat() };
        // After the command: clap refuses the value and lists the formats.
        let (code, stdout, stderr) = run(&with(&[cmd, "--format", "markdown"]), &[]);
        assert_eq!(code, Some(2), "{cmd}: {stderr}");
        assert!(stdout.is_empty(), "{cmd}: {stdout}");
        assert!(
            stderr.contains("invalid value 'markdown' for '--format <FORMAT>'")
                && stderr.contains(&format!("[possible values: {}]", formats(cmd).join(", "))),
            "{cmd}: {stderr}"
        );
        // Before it: the resolver refuses it for this command.
        let (code, _, stderr) = run(&with(&["--format", "markdown", cmd]), &[]);
        assert_eq!(code, Some(2), "{cmd}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "`catalog {cmd}` does not print --format markdown; use {}",
                formats(cmd).join(" or ")
            )),
            "{cmd}: {stderr}"
        );
        // With --format json asked for too: one JSON error document.
        let (code, stdout, _) = run(
            &with(&["--format", "json", cmd, "--format", "markdown"]),
            &[],
        );
        assert_eq!(code, Some(2), "{cmd}");
        let doc: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON document");
        assert_eq!(doc["exit_code"], 2, "{doc}");
        assert!(
            doc["error"].as_str().unwrap().contains("'markdown'"),
            "{doc}"
        );
        assert!(!never_written.exists(), "{cmd} wrote {never_written:?}");
    }
    // plan, apply and verify print Markdown and JSON lines for a fleet
    // only: without --fleet either is a usage error, before any connection.
    for cmd in ["plan", "apply", "verify"] {
        for format in ["markdown", "jsonl"] {
            let (code, stdout, stderr) = run(
                &[
                    cmd,
                    "--format",
                    format,
                    "--database-url",
                    "mysql://root@127.0.0.1:1/x",
                ],
                &[],
            );
            assert_eq!(code, Some(2), "{cmd} {format}: {stderr}");
            let said = if format == "jsonl" {
                let doc: serde_json::Value =
                    serde_json::from_str(&stdout).expect("jsonl errors are one JSON document");
                doc["error"].as_str().unwrap_or_default().to_string()
            } else {
                stderr
            };
            assert!(
                said.contains("--format jsonl and markdown are for a fleet (--fleet FILE)"),
                "{cmd}: {said}"
            );
        }
    }
    // `diff` prints Markdown, asked for in either place.
    for args in [
        ["diff", "--from", "catalog", "--format", "markdown"],
        ["--format", "markdown", "diff", "--from", "catalog"],
    ] {
        let (code, stdout, stderr) = run(&args, &[]);
        assert_eq!(code, Some(0), "{args:?}: {stderr}");
        assert!(stdout.starts_with("## Catalog release review"), "{stdout}");
    }
}

#[test]
fn a_shared_option_a_command_does_not_use_is_refused() {
    for (cmd, _, reads_catalog, connects) in commands() {
        let mut unused: Vec<(&str, &str)> = Vec::new();
        if !reads_catalog {
            unused.push(("--catalog", "catalog"));
        }
        if !connects {
            unused.push(("--database-url", "mysql://u@h/db"));
            unused.push(("--timeout", "3"));
        }
        let with = |args: &[&'static str]| -> Vec<&'static str> { [args, required(cmd)].concat() };
        for (option, value) in unused {
            let (code, _, stderr) = run(&with(&[cmd, option, value]), &[]);
            assert_eq!(code, Some(2), "{cmd} {option}: {stderr}");
            assert!(stderr.contains(option), "{cmd} {option}: {stderr}");
            let (code, _, stderr) = run(&with(&[option, value, cmd]), &[]);
            assert_eq!(code, Some(2), "{option} {cmd}: {stderr}");
            assert!(
                stderr.contains(&format!("`catalog {cmd}` does not use {option}")),
                "{option} {cmd}: {stderr}"
            );
            let (code, stdout, _) = run(&with(&["--format", "json", option, value, cmd]), &[]);
            assert_eq!(code, Some(2));
            let doc: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON document");
            assert!(doc["error"].as_str().unwrap().contains(option), "{doc}");
        }
    }
}

#[test]
fn shared_options_work_before_the_command_and_from_the_environment() {
    let good = "catalog";
    let bad = "fixtures/bad-catalogs/unknown-type";
    let code = |args: &[&str], env: &[(&str, &str)]| run(args, env).0;
    assert_eq!(code(&["check"], &[("CATALOG_DIR", good)]), Some(0));
    assert_eq!(code(&["check"], &[("CATALOG_DIR", bad)]), Some(2));
    // The command line beats the environment, in either place.
    assert_eq!(
        code(&["--catalog", good, "check"], &[("CATALOG_DIR", bad)]),
        Some(0)
    );
    assert_eq!(
        code(&["check", "--catalog", good], &[("CATALOG_DIR", bad)]),
        Some(0)
    );
    // After the command beats before it.
    assert_eq!(
        code(&["--catalog", bad, "check", "--catalog", good], &[]),
        Some(0)
    );
    let (c, stdout, _) = run(&["--format", "json", "check", "--catalog", good], &[]);
    assert_eq!(c, Some(0));
    serde_json::from_str::<serde_json::Value>(&stdout).expect("--format before the command");
    // DATABASE_URL reaches a connecting command: it tries to connect (exit 3,
    // nothing listens on port 1) instead of asking for a URL (exit 2).
    let env = [("DATABASE_URL", "mysql://root@127.0.0.1:1/db")];
    assert_eq!(code(&["verify", "--timeout", "2"], &env), Some(3));
    assert_eq!(code(&["--timeout", "2", "verify"], &env), Some(3));
    assert_eq!(code(&["verify"], &[]), Some(2));
}

#[test]
fn a_positional_database_url_is_echoed_redacted() {
    for args in [
        vec!["verify", "mysql://app:s3cret@db.example:3306/app"],
        vec![
            "--format",
            "json",
            "verify",
            "mysql://app:s3cret@db.example/app",
        ],
        vec!["plan", "app:s3cret@db.example/app"],
        vec!["verify", "--timeout=mysql://app:s3cret@db.example/app"],
        vec!["check", "mysql://db.example/app?password=s3cret"],
    ] {
        let (code, stdout, stderr) = run(&args, &[]);
        assert_eq!(code, Some(2), "{args:?}");
        for part in ["s3cret", "3cre"] {
            assert!(
                !stdout.contains(part) && !stderr.contains(part),
                "{args:?}: {stdout}{stderr}"
            );
        }
        assert!(
            stderr.contains("***")
                || stderr.contains("<unparseable URL>")
                || stdout.contains("***"),
            "{args:?}: the refused argument is still named: {stdout}{stderr}"
        );
    }
}
