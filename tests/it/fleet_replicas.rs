//! `replicas:` under a server in fleet.yaml and `replicas: required` in
//! catalog.yaml (offline): what they read to, and every finding with its
//! file, line and column, never a password.

use std::path::Path;

use schema_catalog::fleet::file::{parse, FleetFile};
use schema_catalog::{catalog, Error};

use crate::common;

fn env(name: &str) -> Option<String> {
    (name == "FLEET_PW").then(|| "s3cret-pw".to_string())
}

fn load(text: &str) -> Result<FleetFile, Vec<schema_catalog::catalog::Problem>> {
    match parse(Path::new("fleet.yaml"), text, Path::new("."), &env) {
        Ok(f) => Ok(f),
        Err(Error::InvalidFleet { problems, .. }) => Err(problems),
        Err(e) => panic!("unexpected error {e}"),
    }
}

#[test]
fn replicas_take_the_servers_password_and_never_show_it() {
    let f = load(
        "servers:\n  - url: mysql://deploy@db1:3306\n    password_env: FLEET_PW\n    schemas: [a]\n    replicas:\n      - mysql://deploy@db1-r1:3306\n      - mysql://deploy@db1-r2:3306\n  - url: mysql://root@db2:3306\n    schemas: [b]\n",
    )
    .unwrap();
    let r = &f.servers[0].replicas;
    assert_eq!(r.len(), 2);
    assert_eq!(r[0].host_port(), "db1-r1:3306");
    assert_eq!(r[1].host_port(), "db1-r2:3306");
    assert_eq!(r[0].url.pass(), Some("s3cret-pw"));
    assert!(!format!("{:?}", f.servers[0]).contains("s3cret"));
    assert!(f.servers[1].replicas.is_empty());
}

#[test]
fn bad_replica_entries_are_findings_at_their_line_and_column() {
    let text = "servers:\n  - url: mysql://root@db1:3306\n    schemas: [a]\n    replicas:\n      - mysql://root:s3cret-pw@r1:3306\n      - mysql://root@r2:3306/app\n      - mysql://root@db1:3306\n      - mysql://root@r3:3306\n      - mysql://root@r3:3306\n      - postgres://x@r4\n";
    let problems = load(text).expect_err("invalid");
    let shown: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert_eq!(problems.len(), 5, "{shown:#?}");
    for p in &problems {
        assert!(!p.to_string().contains("s3cret"), "{p}");
        assert_eq!(p.rule, "fleet-server", "{p}");
        assert_eq!(p.column, Some(9), "the entry's column: {p}");
    }
    let at = |line: usize, text: &str| {
        assert!(
            problems
                .iter()
                .any(|p| p.line == Some(line) && p.message.contains(text)),
            "line {line} `{text}`: {shown:#?}"
        );
    };
    at(5, "holds a password");
    at(6, "names database `app`");
    at(7, "the server itself");
    // The second of two equal entries (the first is found first: the line
    // of the text's first match).
    assert!(problems.iter().any(|p| p.message.contains("listed twice")));
    assert!(problems.iter().any(|p| p.line == Some(10)), "{shown:#?}");
}

#[test]
fn catalog_yaml_replicas_required_is_read_and_anything_else_is_an_error_with_its_position() {
    let jobs = ("jobs.yaml", common::UNINDEXED_JOBS_CATALOG);
    let dir = common::catalog_dir(&[("catalog.yaml", "replicas: required\n"), jobs]);
    assert!(catalog::load(dir.path()).unwrap().require_replicas);
    let dir = common::catalog_dir(&[jobs]);
    assert!(!catalog::load(dir.path()).unwrap().require_replicas);
    let dir = common::catalog_dir(&[
        (
            "catalog.yaml",
            "defaults:\n  engine: InnoDB\nreplicas: sometimes\n",
        ),
        jobs,
    ]);
    match catalog::load(dir.path()) {
        Err(Error::InvalidCatalog { problems, .. }) => {
            assert_eq!(problems.len(), 1, "{problems:#?}");
            let p = &problems[0];
            assert_eq!(p.rule, "settings", "{p}");
            assert!(p.file.ends_with("catalog.yaml"), "{p}");
            assert_eq!((p.line, p.column), (Some(3), Some(1)), "{p}");
            assert!(p.message.contains("`required`"), "{p}");
        }
        other => panic!("not refused: {other:?}"),
    }
}
