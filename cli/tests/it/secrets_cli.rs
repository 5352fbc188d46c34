//! No URL form prints a password: every command that takes a database URL,
//! in human and JSON output, with the URL from `--database-url` and from
//! `DATABASE_URL`, for every URL form a user has been seen to write (no
//! scheme, `//` only, `mysql:` without `//`, the password as a query
//! parameter, raw `@ : / %` in the password, a wrong password, an
//! unreachable host, and a good login). stdout and stderr are searched for
//! every part of the password. JSON output stays one document, and the
//! reports of a good login name the server (`server: {...}`).

use crate::cli_support;
use crate::common;

use std::process::Output;

use cli_support::catalog;
use common::TestDb;
use mysql_async::prelude::*;
use serde_json::Value;

/// How the URL reaches the binary.
#[derive(Clone, Copy, Debug)]
enum Via {
    Flag,
    Env,
}

async fn run(url: String, via: Via, json: bool, command: Vec<String>) -> Output {
    tokio::task::spawn_blocking(move || {
        let mut cmd = catalog();
        if json {
            cmd.args(["--format", "json"]);
        }
        match via {
            Via::Flag => {
                cmd.args(["--database-url", &url]);
            }
            Via::Env => {
                cmd.env("DATABASE_URL", &url);
            }
        }
        cmd.args(["--timeout", "3"]);
        cmd.args(&command).output().expect("binary runs")
    })
    .await
    .unwrap()
}

/// The test server's host:port and user (the tests' URL has no password).
fn server() -> (String, u16, String) {
    let url = url::Url::parse(&common::server_url()).unwrap();
    (
        url.host_str().unwrap().to_string(),
        url.port().unwrap_or(3306),
        url.username().to_string(),
    )
}

/// A user with a password, allowed on `db`, dropped by [`LoginUser::drop_user`].
struct LoginUser {
    name: String,
    password: &'static str,
}

impl LoginUser {
    async fn create(db: &TestDb) -> LoginUser {
        let name = format!("sc_p8_{}", std::process::id());
        let password = "Gd7Lg1nPw";
        let mut c = db.pool.get_conn().await.unwrap();
        c.query_drop(format!("DROP USER IF EXISTS '{name}'@'%'"))
            .await
            .unwrap();
        c.query_drop(format!(
            "CREATE USER '{name}'@'%' IDENTIFIED BY '{password}'"
        ))
        .await
        .unwrap();
        c.query_drop(format!("GRANT ALL ON `{}`.* TO '{name}'@'%'", db.name))
            .await
            .unwrap();
        LoginUser { name, password }
    }

    async fn drop_user(&self, db: &TestDb) {
        let mut c = db.pool.get_conn().await.unwrap();
        c.query_drop(format!("DROP USER IF EXISTS '{}'@'%'", self.name))
            .await
            .unwrap();
    }
}

/// One URL form: the URL, the password parts that must never show, and
/// whether the login succeeds.
struct Form {
    what: &'static str,
    url: String,
    secrets: Vec<&'static str>,
    logs_in: bool,
}

fn forms(db: &str, user: &LoginUser) -> Vec<Form> {
    let (host, port, root) = server();
    let s = |what, url: String, secrets: Vec<&'static str>| Form {
        what,
        url,
        secrets,
        logs_in: false,
    };
    vec![
        s(
            "no scheme",
            format!("{root}:Zq7Wx9Sec@{host}:{port}/{db}"),
            vec!["Zq7Wx9Sec"],
        ),
        s(
            "`//` only",
            format!("//{root}:Zq7Wx9Sec@{host}:{port}/{db}"),
            vec!["Zq7Wx9Sec"],
        ),
        s(
            "`mysql:` without `//`",
            format!("mysql:{root}:Zq7Wx9Sec@{host}:{port}/{db}"),
            vec!["Zq7Wx9Sec"],
        ),
        s(
            "user and password in the query, no host",
            format!("mysql:///{db}?user={root}&password=Zq7Wx9Sec"),
            vec!["Zq7Wx9Sec"],
        ),
        s(
            "password in the query",
            format!("mysql://{host}:{port}/{db}?password=Zq7Wx9Sec"),
            vec!["Zq7Wx9Sec"],
        ),
        s(
            "wrong password",
            format!("mysql://{root}:Zq7Wx9Sec@{host}:{port}/{db}"),
            vec!["Zq7Wx9Sec"],
        ),
        s(
            "unreachable host",
            format!("mysql://{root}:Zq7Wx9Sec@127.0.0.1:1/{db}"),
            vec!["Zq7Wx9Sec"],
        ),
        s(
            "`@` in a path parameter",
            format!("mysql://{root}:Zq7Wx9Sec@{host}:{port}/{db}?ssl_ca=/etc/a@b.pem"),
            vec!["Zq7Wx9Sec"],
        ),
        s(
            "raw `@` in the password",
            format!("mysql://{root}:Zq7@Wx9Sec@{host}:{port}/{db}"),
            vec!["Zq7", "Wx9Sec"],
        ),
        s(
            "raw `/` in the password",
            format!("mysql://{root}:Zq7/Wx9Sec@{host}:{port}/{db}"),
            vec!["Zq7", "Wx9Sec"],
        ),
        s(
            "raw `%` in the password",
            format!("mysql://{root}:Zq7%Wx9Sec@{host}:{port}/{db}"),
            vec!["Zq7", "Wx9Sec"],
        ),
        s(
            "raw `:` in the password",
            format!("mysql://{root}:Zq7:Wx9Sec@{host}:{port}/{db}"),
            vec!["Zq7", "Wx9Sec"],
        ),
        Form {
            what: "good login",
            url: format!("mysql://{}:{}@{host}:{port}/{db}", user.name, user.password),
            secrets: vec![user.password],
            logs_in: true,
        },
    ]
}

#[tokio::test]
async fn no_url_form_prints_a_password() {
    let db = TestDb::new().await;
    // Something to import, so a good login's import succeeds and names the server.
    db.exec(&["CREATE TABLE t0 (id int PRIMARY KEY)"]).await;
    let user = LoginUser::create(&db).await;
    let out_root = common::scratch_dir("secrets-import");
    let mut failures = Vec::new();
    let mut runs = 0;
    for form in forms(&db.name, &user) {
        for via in [Via::Flag, Via::Env] {
            for json in [false, true] {
                let out_dir = out_root.join(format!("{runs}"));
                let _ = std::fs::remove_dir_all(&out_dir);
                let commands: Vec<Vec<String>> = vec![
                    vec!["verify".into()],
                    vec!["plan".into()],
                    vec!["apply".into(), "--dry-run".into()],
                    vec![
                        "import".into(),
                        "--out".into(),
                        out_dir.display().to_string(),
                    ],
                ];
                for command in commands {
                    runs += 1;
                    let out = run(form.url.clone(), via, json, command.clone()).await;
                    let stdout = String::from_utf8_lossy(&out.stdout);
                    let stderr = String::from_utf8_lossy(&out.stderr);
                    let case = format!("{} via {via:?}, json={json}, {}", form.what, command[0]);
                    for secret in &form.secrets {
                        if stdout.contains(secret) || stderr.contains(secret) {
                            failures.push(format!("{case}: `{secret}` printed:\n{stdout}{stderr}"));
                        }
                    }
                    let doc: Option<Value> = serde_json::from_slice(&out.stdout).ok();
                    if json && doc.is_none() {
                        failures.push(format!("{case}: stdout is not one JSON document: {stdout}"));
                    }
                    if !form.logs_in && out.status.code() == Some(0) {
                        failures.push(format!("{case}: exited 0"));
                    }
                    // A good login's reports name the server.
                    if form.logs_in {
                        let named = match &doc {
                            Some(d) => {
                                d["server"]["port"].is_u64() && d["server"]["version"].is_string()
                            }
                            None => stdout.lines().any(|l| l.starts_with("server: ")),
                        };
                        if !named {
                            failures
                                .push(format!("{case}: the server identity is missing:\n{stdout}"));
                        }
                    }
                }
            }
        }
    }
    user.drop_user(&db).await;
    assert!(
        failures.is_empty(),
        "{} of {runs} runs failed:\n{}",
        failures.len(),
        failures.join("\n---\n")
    );
}

#[test]
fn a_password_with_raw_special_characters_gets_a_percent_encode_hint() {
    let out = catalog()
        .args([
            "--database-url",
            "mysql://root:Zq7/Wx9Sec@127.0.0.1:3306/db",
            "verify",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("<unparseable URL>"), "{stderr}");
    assert!(stderr.contains("percent-encode"), "{stderr}");
    assert!(
        !stderr.contains("Wx9Sec") && !stderr.contains("Zq7"),
        "{stderr}"
    );
}

#[test]
fn a_path_parameter_with_at_is_redacted_not_garbled() {
    let out = catalog()
        .args([
            "--database-url",
            "mysql://app:Zq7Wx9Sec@127.0.0.1:1/db?ssl_ca=/etc/a@b.pem",
            "verify",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("Zq7Wx9Sec"), "{stderr}");
    assert!(
        stderr.contains("mysql://app:***@127.0.0.1:1/db?ssl_ca=/etc/a@b.pem"),
        "{stderr}"
    );
}
