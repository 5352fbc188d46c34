//! Writing to a closed stdout never panics (`catalog plan ... | head -c 10`):
//! the reader is gone before the command prints; it ends quietly with its
//! own exit code and no panic message.

use std::io::Read;
use std::process::{Command, Stdio};

/// Runs `catalog ARGS` with a stdout whose reading end is closed after
/// `keep` bytes (0: before anything is written); exit code and stderr.
fn with_closed_stdout(args: &[&str], keep: usize) -> (Option<i32>, String) {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut child = Command::new(env!("CARGO_BIN_EXE_catalog"))
        .current_dir(format!("{root}/.."))
        .env_remove("DATABASE_URL")
        .env_remove("CATALOG_DIR")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start catalog");
    let mut out = child.stdout.take().unwrap();
    let mut head = vec![0u8; keep];
    out.read_exact(&mut head).unwrap();
    drop(out);
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (child.wait().unwrap().code(), err)
}

#[test]
fn plan_and_render_end_quietly_when_stdout_is_closed() {
    let runs: [&[&str]; 4] = [
        &["plan", "--against", "fixtures/legacy/r1-mariadb.sql"],
        &[
            "--format",
            "json",
            "plan",
            "--against",
            "fixtures/legacy/r1-mysql.sql",
        ],
        &["render", "--flavor", "mysql"],
        &["check"],
    ];
    for args in runs {
        for keep in [0, 10] {
            let (code, err) = with_closed_stdout(args, keep);
            assert!(!err.contains("panicked"), "{args:?} keep {keep}: {err}");
            assert_ne!(code, Some(101), "{args:?} keep {keep}: {err}");
            assert!(
                matches!(code, Some(0 | 1)),
                "{args:?} keep {keep}: {code:?} {err}"
            );
        }
    }
}
