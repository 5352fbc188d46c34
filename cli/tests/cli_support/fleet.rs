//! Fleet tests' schemas: many uniquely named schemas on both local servers
//! at once (MariaDB 3306 and MySQL 3307, whatever CATALOG_TEST_DATABASE_URL
//! says), dropped on drop. The prefix holds the process id and a clock
//! reading, so runs of the suite once per server never share a schema.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use mysql_async::prelude::*;

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
