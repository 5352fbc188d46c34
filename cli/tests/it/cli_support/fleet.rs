//! Fleet tests' schemas: many uniquely named schemas on both local servers
//! at once (MariaDB 3306 and MySQL 3307, whatever CATALOG_TEST_DATABASE_URL
//! says), dropped on drop. The prefix holds the process id and a clock
//! reading, so runs of the suite once per server never share a schema.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use std::path::Path;
use std::process::{Child, Stdio};

use mysql_async::prelude::*;
use serde_json::Value;

/// The two servers every fleet test uses.
pub const SERVERS: [u16; 2] = [3306, 3307];

/// `mysql://root@127.0.0.1:PORT`.
pub fn server(port: u16) -> String {
    format!("mysql://root@127.0.0.1:{port}")
}

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// `per_server` empty schemas on each server, named `<prefix><nnnn>`.
pub struct Schemas {
    /// `scf_<pid>_<time>_<n>_`.
    pub prefix: String,
    /// Schemas per server.
    pub per_server: usize,
}

impl Schemas {
    /// Creates the schemas (one batch per server).
    pub async fn create(per_server: usize) -> Schemas {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let prefix = format!(
            "scf_{}_{}_{}_",
            std::process::id(),
            nanos % 1_000_000_000,
            COUNTER.fetch_add(1, Ordering::SeqCst)
        );
        let schemas = Schemas { prefix, per_server };
        for port in SERVERS {
            let sql: String = schemas
                .names()
                .iter()
                .map(|n| {
                    format!("CREATE DATABASE `{n}` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;")
                })
                .collect();
            let mut conn = conn(port, None).await;
            conn.query_drop(sql)
                .await
                .expect("create the fleet schemas");
            let _ = conn.disconnect().await;
        }
        schemas
    }

    /// Every schema name (the same on both servers), in order.
    pub fn names(&self) -> Vec<String> {
        (1..=self.per_server)
            .map(|i| format!("{}{i:04}", self.prefix))
            .collect()
    }

    /// The n-th schema (1-based).
    pub fn name(&self, n: usize) -> String {
        format!("{}{n:04}", self.prefix)
    }

    /// The `like` pattern matching exactly these schemas (`_` escaped).
    pub fn like(&self) -> String {
        format!("{}%", self.prefix.replace('_', "\\_"))
    }

    /// A fleet file of both servers with these schemas by `like`, then `rest`
    /// (stages, parallel, on_error) verbatim.
    pub fn fleet_yaml(&self, rest: &str) -> String {
        let mut text = String::from("servers:\n");
        for port in SERVERS {
            text.push_str(&format!(
                "  - url: {}\n    name: s{port}\n    schemas: {{like: '{}'}}\n",
                server(port),
                self.like()
            ));
        }
        text + rest
    }

    /// Runs `sql` (`;`-separated) in `schema` on `port`.
    pub async fn exec(&self, port: u16, schema: &str, sql: &str) {
        let mut conn = conn(port, Some(schema)).await;
        conn.query_drop(sql)
            .await
            .unwrap_or_else(|e| panic!("{port}/{schema}: {sql}: {e}"));
        let _ = conn.disconnect().await;
    }

    /// Tables of every schema on `port`: (schema, table count), in order.
    pub async fn table_counts(&self, port: u16) -> Vec<(String, u64)> {
        let mut conn = conn(port, None).await;
        let rows: Vec<(String, u64)> = conn
            .exec(
                "SELECT s.SCHEMA_NAME, COUNT(t.TABLE_NAME) FROM information_schema.SCHEMATA s \
                 LEFT JOIN information_schema.TABLES t ON t.TABLE_SCHEMA = s.SCHEMA_NAME \
                 WHERE s.SCHEMA_NAME LIKE ? GROUP BY s.SCHEMA_NAME ORDER BY s.SCHEMA_NAME",
                (self.like(),),
            )
            .await
            .expect("count the fleet's tables");
        let _ = conn.disconnect().await;
        rows
    }
}

/// A connection to `port` (and `schema`).
pub async fn conn(port: u16, schema: Option<&str>) -> mysql_async::Conn {
    let url = match schema {
        Some(s) => format!("{}/{s}", server(port)),
        None => server(port),
    };
    mysql_async::Conn::from_url(url.as_str())
        .await
        .unwrap_or_else(|e| {
            panic!("cannot reach the server on {port} ({e}); fleet tests need both")
        })
}

impl Drop for Schemas {
    fn drop(&mut self) {
        let names = self.names();
        let _ = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                for port in SERVERS {
                    if let Ok(mut c) = mysql_async::Conn::from_url(server(port).as_str()).await {
                        let sql: String = names
                            .iter()
                            .map(|n| format!("DROP DATABASE IF EXISTS `{n}`;"))
                            .collect();
                        let _ = c.query_drop(sql).await;
                        let _ = c.disconnect().await;
                    }
                }
            });
        })
        .join();
    }
}

/// A small table apply creates in an empty schema (1 step).
pub const JOBS: &str = "\
table: Jobs
columns:
  - name: Id
    type: bigint unsigned
    nullable: false
    auto_increment: true
  - name: State
    type: varchar(32)
    nullable: false
  - name: Payload
    type: varchar(255)
  - name: Note
    type: varchar(64)
primary_key: [Id]
indexes:
  - name: idx_jobs_state
    columns: [State]
";

/// `Jobs` as an older release had it: no `Note`, no index (apply: 2 steps).
pub const LEGACY: &str = "CREATE TABLE Jobs (Id bigint unsigned NOT NULL AUTO_INCREMENT, \
     State varchar(32) COLLATE utf8mb4_bin NOT NULL, Payload varchar(255) COLLATE utf8mb4_bin, \
     PRIMARY KEY (Id)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";

/// `Jobs` drifted: `State` is too short (refused, no DDL).
pub const DRIFTED: &str = "CREATE TABLE Jobs (Id bigint unsigned NOT NULL AUTO_INCREMENT, \
     State varchar(16) COLLATE utf8mb4_bin NOT NULL, Payload varchar(255) COLLATE utf8mb4_bin, \
     PRIMARY KEY (Id)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";

pub struct Setup {
    /// The catalog directory.
    pub catalog: tempfile::TempDir,
    /// The directory of `fleet.yaml`.
    pub fleet: tempfile::TempDir,
}

impl Setup {
    pub fn new(fleet_yaml: &str) -> Setup {
        Setup::with_tables(fleet_yaml, &[("jobs.yaml", JOBS)])
    }

    /// A catalog of the given table files and the fleet file.
    pub fn with_tables(fleet_yaml: &str, tables: &[(&str, &str)]) -> Setup {
        let catalog = tempfile::tempdir().unwrap();
        for (file, text) in tables {
            std::fs::write(catalog.path().join(file), text).unwrap();
        }
        let fleet = tempfile::tempdir().unwrap();
        std::fs::write(fleet.path().join("fleet.yaml"), fleet_yaml).unwrap();
        Setup { catalog, fleet }
    }

    pub fn file(&self) -> String {
        self.fleet.path().join("fleet.yaml").display().to_string()
    }

    pub fn args(&self, command: &str, format: &str) -> Vec<String> {
        [
            command,
            "--catalog",
            &self.catalog.path().display().to_string(),
            "--fleet",
            &self.file(),
            "--format",
            format,
            // A busy 2-core machine: each read's budget is generous.
            "--timeout",
            "30",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    }

    /// Runs the command and returns (exit code, the JSON report).
    pub async fn json(&self, command: &str, extra: &[&str]) -> (i32, Value) {
        let mut args = self.args(command, "json");
        args.extend(extra.iter().map(|s| s.to_string()));
        let out = super::run(args).await;
        let doc = super::json(&out);
        let errors: Vec<String> = validator()
            .iter_errors(&doc)
            .map(|e| e.to_string())
            .collect();
        assert!(
            errors.is_empty(),
            "fleet JSON does not validate: {errors:?}\n{doc:#}"
        );
        (out.status.code().unwrap_or(-1), doc)
    }

    /// `apply` with a short busy budget (`--lock-wait 1 --busy-timeout
    /// 3`) while `holder` holds a table, then the holder's transaction
    /// ends: (exit code, the JSON report).
    pub async fn apply_while_held(&self, mut holder: mysql_async::Conn) -> (i32, Value) {
        let out = self
            .json("apply", &["--lock-wait", "1", "--busy-timeout", "3"])
            .await;
        holder.query_drop("ROLLBACK").await.unwrap();
        let _ = holder.disconnect().await;
        out
    }

    pub fn spawn(&self, command: &str, format: &str, extra: &[&str]) -> Child {
        let mut args = self.args(command, format);
        args.extend(extra.iter().map(|s| s.to_string()));
        super::catalog()
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("binary runs")
    }
}

pub fn validator() -> jsonschema::Validator {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/schemas/fleet.schema.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

/// Each target's outcome by `port/schema`.
pub fn outcomes(doc: &Value) -> Vec<(String, String)> {
    doc["targets"]
        .as_array()
        .expect("targets")
        .iter()
        .map(|t| {
            (
                format!(
                    "{}/{}",
                    t["identity"]["port"].as_u64().map_or_else(
                        || t["server"]
                            .as_str()
                            .unwrap()
                            .trim_start_matches('s')
                            .to_string(),
                        |p| p.to_string()
                    ),
                    t["schema"].as_str().unwrap()
                ),
                t["outcome"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

pub fn count(doc: &Value, outcome: &str) -> usize {
    outcomes(doc).iter().filter(|(_, o)| o == outcome).count()
}

pub fn outcome_of(doc: &Value, port: u16, schema: &str) -> String {
    let key = format!("{port}/{schema}");
    outcomes(doc)
        .into_iter()
        .find(|(k, _)| *k == key)
        .unwrap_or_else(|| panic!("no target {key}"))
        .1
}

/// An open transaction that read `schema`.`Jobs` on `port`: it holds the
/// table's metadata lock until it ends.
pub async fn hold_jobs(port: u16, schema: &str) -> mysql_async::Conn {
    let mut holder = conn(port, Some(schema)).await;
    holder.query_drop("START TRANSACTION").await.unwrap();
    let _: Vec<u64> = holder.query("SELECT Id FROM Jobs").await.unwrap();
    holder
}
