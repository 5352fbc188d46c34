//! `fleet.yaml` lint (offline): every finding names the file, a line and
//! the object; passwords never come from the YAML text nor reach a finding.

use std::path::Path;

use schema_catalog::fleet::file::{like, parse, FleetFile, OnError, SchemaSet};
use schema_catalog::Error;

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

fn findings(text: &str) -> Vec<String> {
    let problems = load(text).expect_err("the fleet file is invalid");
    for p in &problems {
        assert_eq!(p.file, Path::new("fleet.yaml"), "{p}");
        assert!(p.line.is_some(), "every finding has a line: {p}");
        assert!(p.object.is_some(), "every finding names its object: {p}");
        assert!(!p.to_string().contains("s3cret"), "{p}");
    }
    problems.iter().map(ToString::to_string).collect()
}

#[test]
fn a_full_file_reads_with_defaults() {
    let f = load(
        "servers:\n  - url: mysql://deploy@db1:3306\n    password_env: FLEET_PW\n    group: eu\n    schemas: {like: 'tenant_%'}\n  - url: mysql://root@db2:3307\n    name: two\n    schemas: [a, b]\nstages:\n  - name: canary\n    match: {group: eu}\n    limit: 1\n  - name: rest\n",
    )
    .unwrap();
    assert_eq!(f.servers.len(), 2);
    assert_eq!(f.servers[0].name, "db1:3306");
    assert_eq!(f.servers[0].target.url.pass(), Some("s3cret-pw"));
    assert!(!format!("{:?}", f.servers[0]).contains("s3cret"));
    assert_eq!(f.servers[0].schemas, SchemaSet::Like("tenant_%".into()));
    assert_eq!(
        f.servers[1].schemas,
        SchemaSet::List(vec!["a".into(), "b".into()])
    );
    assert_eq!(f.parallel.servers, 4);
    assert_eq!(f.parallel.per_server, 1);
    assert_eq!(f.on_error, OnError::Stop);
    assert_eq!(f.stages[0].limit, Some(1));
}

#[test]
fn a_password_in_the_url_is_refused_without_echoing_it() {
    let out = findings("servers:\n  - url: mysql://root:s3cret-pw@db1:3306\n    schemas: [a]\n");
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(out[0].contains("fleet.yaml:2"), "{out:?}");
    assert!(out[0].contains("holds a password"), "{out:?}");
}

#[test]
fn an_unset_password_variable_names_the_variable_and_its_line() {
    let out = findings(
        "servers:\n  - url: mysql://root@db1:3306\n    schemas: [a]\n  - url: mysql://root@db2:3306\n    schemas: [a]\n    password_env: NOT_SET_ANYWHERE\n",
    );
    // The error, then which servers the file does name.
    assert_eq!(out.len(), 2, "{out:?}");
    assert!(
        out[1].starts_with("fleet.yaml:1: warning[fleet-server]: servers:")
            && out[1].ends_with("read fine: `db1:3306`"),
        "{out:?}"
    );
    assert!(out[0].contains("fleet.yaml:6"), "{out:?}");
    assert!(out[0].contains("server `db2:3306`"), "{out:?}");
    assert!(out[0].contains("`NOT_SET_ANYWHERE`"), "{out:?}");
}

#[test]
fn a_password_file_is_read_relative_to_the_fleet_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("pw"), "from-file\n").unwrap();
    let text =
        "servers:\n  - url: mysql://root@db1:3306\n    password_file: pw\n    schemas: [a]\n";
    let f = parse(&dir.path().join("fleet.yaml"), text, dir.path(), &env).unwrap();
    assert_eq!(f.servers[0].target.url.pass(), Some("from-file"));
    let missing =
        "servers:\n  - url: mysql://root@db1:3306\n    password_file: nope\n    schemas: [a]\n";
    let out = findings(missing);
    assert!(
        out[0].contains("fleet.yaml:3") && out[0].contains("cannot read password_file"),
        "{out:?}"
    );
}

#[test]
fn unknown_keys_bad_shapes_and_bad_values_are_located() {
    let out =
        findings("servers:\n  - url: mysql://root@db1:3306\n    schemas: [a]\n    passwrd: x\n");
    assert!(
        out[0].contains("fleet.yaml:4") && out[0].contains("unknown field `passwrd`"),
        "{out:?}"
    );
    let out = findings("servers:\n  - url: mysql://root@db1:3306\n    schemas: {prefix: x}\n");
    assert!(out[0].contains("`schemas` must be a list"), "{out:?}");
    let out = findings("servers:\n  - url: mysql://root@db1:3306/app\n    schemas: [a, a]\n");
    assert!(
        out.iter().any(|o| o.contains("names database `app`")),
        "{out:?}"
    );
    assert!(
        out.iter()
            .any(|o| o.contains("fleet.yaml:3") && o.contains("listed twice")),
        "{out:?}"
    );
    let out = findings("servers:\n  - url: mysql://root@db1:3306\n    schemas: [a]\nparallel: {servers: 0}\non_error: continue\n");
    assert!(
        out[0].contains("fleet.yaml:4") && out[0].contains("parallel.servers"),
        "{out:?}"
    );
    let out =
        findings("servers:\n  - url: mysql://root@db1:3306\n    schemas: [a]\non_error: maybe\n");
    assert!(
        out[0].contains("fleet.yaml:4") && out[0].contains("unknown variant `maybe`"),
        "{out:?}"
    );
    let out = findings("servers: []\n");
    assert!(out[0].contains("names no server"), "{out:?}");
}

#[test]
fn stages_must_match_servers_and_groups_the_file_names() {
    let out = findings(
        "servers:\n  - url: mysql://root@db1:3306\n    schemas: [a]\nstages:\n  - name: canary\n    match: {server: nope, group: eu}\n    limit: 0\n  - name: canary\n",
    );
    let text = out.join("\n");
    assert!(
        text.contains("fleet.yaml:5:5: error[fleet-stage]: stage `canary`: matches group `eu`"),
        "{text}"
    );
    assert!(text.contains("matches server `nope`"), "{text}");
    assert!(text.contains("`limit: 0`"), "{text}");
    assert!(text.contains("two stages have this name"), "{text}");
    let out = findings(
        "servers:\n  - url: mysql://root@db1:3306\n    schemas: [a]\n  - url: mysql://root@db1:3306\n    schemas: [b]\n",
    );
    assert!(
        out[0].contains("fleet.yaml:4") && out[0].contains("two servers have this name"),
        "{out:?}"
    );
}

#[test]
fn like_is_sql_like() {
    assert!(like("tenant_%", "tenant_001"));
    assert!(like("tenant_%", "TENANTx"));
    assert!(!like("tenant\\_%", "tenantx1"));
    assert!(like("%_0%1", "a_0b01"));
    assert!(!like("a%b", "acbd"));
    assert!(like("%", ""));
    assert!(!like("_", ""));
}
