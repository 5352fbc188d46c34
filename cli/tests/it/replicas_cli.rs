//! `catalog plan|apply|verify --replica` through the binary, on a real
//! replication pair (`CATALOG_TEST_REPLICA_PAIR=PRIMARY_URL,REPLICA_URL`;
//! scripts/test sets it per server run). A test whose pair is not set or
//! does not answer fails; it never skips. The tests run one at a time
//! (they share the pair's replication).

use crate::cli_support;
use crate::common;

use std::process::Output;
use std::time::{SystemTime, UNIX_EPOCH};

use cli_support::{json, run};
use mysql_async::prelude::*;

pub(crate) static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

pub(crate) fn pair() -> (String, String) {
    let text = std::env::var("CATALOG_TEST_REPLICA_PAIR").expect(
        "CATALOG_TEST_REPLICA_PAIR=PRIMARY_URL,REPLICA_URL is not set (scripts/test sets it)",
    );
    let (p, r) = text.split_once(',').expect("PRIMARY_URL,REPLICA_URL");
    (
        p.trim().trim_end_matches('/').to_string(),
        r.trim().trim_end_matches('/').to_string(),
    )
}

/// A schema with the unindexed `Jobs` table on the primary (replicated),
/// dropped afterwards; the catalog that wants its index.
pub(crate) struct Setup {
    pub(crate) name: String,
    pub(crate) primary: String,
    pub(crate) replica: String,
    pub(crate) catalog: tempfile::TempDir,
}

impl Setup {
    pub(crate) async fn new(tag: &str) -> Setup {
        let (primary, replica) = pair();
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let name = format!(
            "sc_rc_{}_{}_{tag}",
            std::process::id(),
            nanos % 1_000_000_000
        );
        let mut c = mysql_async::Conn::from_url(primary.as_str())
            .await
            .unwrap_or_else(|e| panic!("the pair's primary {primary} does not answer: {e}"));
        for sql in [
            format!("CREATE DATABASE `{name}` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"),
            format!(
                "CREATE TABLE `{name}`.`Jobs` (`Id` bigint unsigned NOT NULL AUTO_INCREMENT, \
                 `State` varchar(32) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL, \
                 `CreatedAt` datetime(6) NOT NULL, PRIMARY KEY (`Id`)) \
                 ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
            ),
            format!("INSERT INTO `{name}`.`Jobs` (`State`, `CreatedAt`) VALUES ('queued', NOW(6))"),
        ] {
            c.query_drop(sql).await.unwrap();
        }
        c.disconnect().await.ok();
        Setup {
            name,
            primary,
            replica,
            catalog: common::catalog_dir(&[("jobs.yaml", common::UNINDEXED_JOBS_CATALOG)]),
        }
    }

    pub(crate) async fn cli(&self, url: &str, args: &[&str]) -> Output {
        let mut list = vec![
            "--catalog".to_string(),
            self.catalog.path().display().to_string(),
            "--database-url".to_string(),
            format!("{url}/{}", self.name),
        ];
        list.extend(args.iter().map(|a| a.to_string()));
        run(list).await
    }

    pub(crate) fn replica_host_port(&self) -> String {
        self.replica
            .trim_start_matches("mysql://")
            .rsplit('@')
            .next()
            .unwrap()
            .to_string()
    }
}

impl Drop for Setup {
    fn drop(&mut self) {
        let (name, url) = (self.name.clone(), self.primary.clone());
        let _ = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                if let Ok(mut c) = mysql_async::Conn::from_url(url.as_str()).await {
                    let _ = c
                        .query_drop(format!("DROP DATABASE IF EXISTS `{name}`"))
                        .await;
                }
            });
        })
        .join();
    }
}

pub(crate) fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn apply_with_a_replica_exits_0_and_verify_on_the_replica_passes_at_once() {
    let _serial = SERIAL.lock().await;
    let s = Setup::new("ok").await;
    let replica = s.replica.clone();
    let out = s
        .cli(
            &s.primary,
            &["apply", "--replica", &replica, "--format", "json"],
        )
        .await;
    let doc = json(&out);
    assert_eq!(out.status.code(), Some(0), "{doc:#}");
    assert_eq!(
        doc["replicas"][0]["replica"],
        s.replica_host_port(),
        "{doc:#}"
    );
    assert_eq!(
        doc["steps"][0]["replicas"][0]["read_back"], "exact",
        "{doc:#}"
    );
    // Right after: verify on the replica, and verify --replica on the primary.
    let out = s.cli(&s.replica, &["verify"]).await;
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let out = s
        .cli(
            &s.primary,
            &["verify", "--replica", &replica, "--format", "json"],
        )
        .await;
    let doc = json(&out);
    assert_eq!(out.status.code(), Some(0), "{doc:#}");
    assert_eq!(doc["replicas"][0]["ok"], true, "{doc:#}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_replica_is_exit_2_before_any_ddl_and_its_password_is_never_printed() {
    let _serial = SERIAL.lock().await;
    let s = Setup::new("wrong").await;
    // The replica with a password it refuses.
    let with_password = s
        .replica
        .replacen("mysql://root@", "mysql://root:s3cret-pw@", 1);
    for format in ["json", "human"] {
        let out = s
            .cli(
                &s.primary,
                &["apply", "--replica", &with_password, "--format", format],
            )
            .await;
        assert_eq!(out.status.code(), Some(2), "{}", text(&out));
        assert!(!text(&out).contains("s3cret-pw"), "{}", text(&out));
        assert!(
            text(&out).contains(&s.replica_host_port()),
            "{}",
            text(&out)
        );
        if format == "json" {
            let doc = json(&out);
            assert_eq!(doc["stopped"]["kind"], "replica_refused", "{doc:#}");
            assert_eq!(doc["server_ddl_count"], 0, "{doc:#}");
        }
    }
    // A standalone server named as a replica: refused naming it.
    let standalone = common::server_url();
    let out = s
        .cli(&s.primary, &["apply", "--replica", &standalone])
        .await;
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("is not a replica"), "{}", text(&out));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plan_names_an_unguarded_replica_and_require_replicas_refuses() {
    let _serial = SERIAL.lock().await;
    let s = Setup::new("plan").await;
    let port = s
        .replica_host_port()
        .rsplit(':')
        .next()
        .unwrap()
        .to_string();
    let out = s.cli(&s.primary, &["plan"]).await;
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(
        text(&out).contains("1 replica is connected and not guarded"),
        "{}",
        text(&out)
    );
    assert!(text(&out).contains(&port), "{}", text(&out));
    let out = s.cli(&s.primary, &["plan", "--require-replicas"]).await;
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let out = s.cli(&s.primary, &["apply", "--require-replicas"]).await;
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    // Named, it is guarded.
    let replica = s.replica.clone();
    let out = s
        .cli(
            &s.primary,
            &["plan", "--replica", &replica, "--require-replicas"],
        )
        .await;
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("guarded"), "{}", text(&out));
    assert!(!text(&out).contains("not guarded"), "{}", text(&out));
}
