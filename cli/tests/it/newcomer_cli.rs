//! What a newcomer meets first, no database: `catalog init`, shell
//! completions, `--color`, and the hint for a catalog directory given
//! without `--catalog`.

use crate::cli_support;

use cli_support::catalog;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn init_writes_a_starter_catalog_that_passes_check() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cat");
    let out = catalog()
        .args(["init", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("catalog.yaml"), "{stdout}");
    assert!(
        stdout.contains(&format!("catalog check --catalog {}", dir.display())),
        "{stdout}"
    );
    let yaml = std::fs::read_to_string(dir.join("catalog.yaml")).unwrap();
    assert!(yaml.contains("defaults:"), "{yaml}");
    let example = std::fs::read_to_string(dir.join("example_job.yaml")).unwrap();
    assert!(example.starts_with("# An example table"), "{example}");

    let out = catalog()
        .args(["check", "--catalog", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("1 table(s), 0 warning(s)"),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert_eq!(text(&out.stderr), "", "no warnings on the starter catalog");

    // A second init into the same directory overwrites nothing.
    std::fs::write(dir.join("example_job.yaml"), "table: mine\n").unwrap();
    let out = catalog()
        .args(["init", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("already holds catalog.yaml, example_job.yaml"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("example_job.yaml")).unwrap(),
        "table: mine\n"
    );
}

#[test]
fn completions_for_bash_zsh_and_fish() {
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef catalog"),
        ("fish", "complete -c catalog"),
    ] {
        let out = catalog().args(["completions", shell]).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{shell}: {}", text(&out.stderr));
        let script = text(&out.stdout);
        assert!(script.contains(marker), "{shell}: {script}");
        for word in ["verify", "fleet", "consumer", "init"] {
            assert!(script.contains(word), "{shell} completes {word}");
        }
    }
    let out = catalog().args(["completions", "tcsh"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// `catalog diff` colours its verdict: `--color` decides, beside NO_COLOR.
#[test]
fn color_always_never_and_no_color() {
    let diff = |extra: &[&str], no_color: bool| {
        let mut cmd = catalog();
        cmd.args([
            "diff",
            "--from",
            "fixtures/revisions/r1",
            "--to",
            "fixtures/revisions/r2",
            "--flavor",
            "mariadb",
        ])
        .args(extra);
        if no_color {
            cmd.env("NO_COLOR", "1");
        } else {
            cmd.env_remove("NO_COLOR");
        }
        text(&cmd.output().unwrap().stdout)
    };
    let esc = '\u{1b}';
    assert!(!diff(&[], false).contains(esc), "auto on a pipe: no colour");
    assert!(diff(&["--color", "always"], false).contains(esc));
    assert!(
        diff(&["--color=always"], true).contains(esc),
        "always wins over NO_COLOR"
    );
    assert!(!diff(&["--color", "never"], false).contains(esc));
    // Before the command too, and on a terminal.
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let (r1, r2) = (
        format!("{root}/fixtures/revisions/r1"),
        format!("{root}/fixtures/revisions/r2"),
    );
    let args: Vec<String> = [
        env!("CARGO_BIN_EXE_catalog"),
        "--color",
        "never",
        "diff",
        "--catalog",
        &r2,
        "--from",
        &r1,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let (code, tty) = cli_support::on_a_terminal(&args);
    assert_eq!(code, Some(0), "{tty}");
    assert!(!tty.contains(esc), "{tty}");
    let auto: Vec<String> = args[..1].iter().chain(&args[3..]).cloned().collect();
    let (_, tty) = cli_support::on_a_terminal(&auto);
    assert!(tty.contains(esc), "auto on a terminal: colour: {tty}");
    let (_, tty) = cli_support::on_a_terminal_with(&auto, &[("NO_COLOR", "1")]);
    assert!(!tty.contains(esc), "NO_COLOR on a terminal: {tty}");
}

#[test]
fn a_positional_catalog_directory_hints_at_catalog() {
    let out = catalog().args(["check", "catalog"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("a catalog directory is given as `--catalog catalog`"),
        "{stderr}"
    );
    // Not for something that is not a directory.
    let out = catalog().args(["check", "no-such-dir"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(!text(&out.stderr).contains("--catalog no-such-dir"));
}

/// A dump that says which server it comes from plans in that server's SQL;
/// one that does not is refused until `--flavor` says, never read as TiDB.
#[test]
fn plan_against_a_dump_never_assumes_tidb() {
    let tmp = tempfile::tempdir().unwrap();
    // MariaDB's SHOW CREATE TABLE, pasted without a dump header.
    let mariadb = tmp.path().join("mariadb.sql");
    std::fs::write(
        &mariadb,
        "CREATE TABLE `example_job` (\n  `id` bigint(20) unsigned NOT NULL AUTO_INCREMENT,\n  `dedupe_key` varchar(190) NOT NULL,\n  `run_after` datetime(6) NOT NULL DEFAULT current_timestamp(6),\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;\n",
    )
    .unwrap();
    let cat = tmp.path().join("cat");
    assert!(catalog()
        .args(["init", cat.to_str().unwrap()])
        .output()
        .unwrap()
        .status
        .success());
    let plan = |file: &std::path::Path, extra: &[&str]| {
        catalog()
            .args(["plan", "--catalog", cat.to_str().unwrap(), "--against"])
            .arg(file)
            .args(extra)
            .output()
            .unwrap()
    };
    let out = plan(&mariadb, &[]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("(mariadb): "), "{stdout}");
    assert!(
        stdout.contains("ALGORITHM="),
        "MariaDB DDL asks to be online: {stdout}"
    );

    // Nothing tells: refused, naming the file and --flavor.
    let bare = tmp.path().join("bare.sql");
    std::fs::write(
        &bare,
        "CREATE TABLE `example_job` (\n  `id` bigint unsigned NOT NULL AUTO_INCREMENT,\n  `dedupe_key` varchar(190) NOT NULL,\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;\n",
    )
    .unwrap();
    let out = plan(&bare, &[]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("bare.sql: the dump does not say which server it comes from")
            && stderr.contains("pass --flavor mariadb, mysql or tidb"),
        "{stderr}"
    );
    assert!(text(&out.stdout).is_empty());
    let out = plan(&bare, &["--flavor", "mysql"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("(mysql): "));
}

#[test]
fn diff_without_flavor_says_it_shows_every_flavor() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let args = |flavor: &[&str]| {
        let mut cmd = catalog();
        cmd.args(["diff", "--from", "fixtures/revisions/r1", "--to"])
            .arg(format!("{root}/fixtures/revisions/r2"))
            .args(flavor);
        cmd.output().unwrap()
    };
    let out = args(&[]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out.stderr).contains(
            "note: no --flavor: the upgrade SQL is shown for each of tidb, mysql, mariadb"
        ),
        "{}",
        text(&out.stderr)
    );
    let out = args(&["--flavor", "mariadb"]);
    // Only the release assumed, no note about flavors.
    assert_eq!(
        text(&out.stderr),
        "server: mariadb 10.11.2 (assumed: the oldest supported release; --server-version sets it)\n"
    );
    let stdout = text(&out.stdout);
    assert!(stdout.contains("upgrade on mariadb") && !stdout.contains("upgrade on tidb"));
}
