//! Shared test-database helper: every test gets its own uniquely named schema
//! on a real server, dropped afterwards even when the test fails.
//!
//! Server: `CATALOG_TEST_DATABASE_URL` (default `mysql://root@127.0.0.1:3306`);
//! `scripts/test` runs the whole suite once per server it is given. A test
//! that cannot reach the server fails; it never skips. [`TestDb::flavor`] says
//! which flavor is under test, for fixture SQL written per flavor.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

pub mod applied;
pub mod counters;
pub mod fault;
pub mod heavy;
pub mod relay;
pub mod review;
pub mod source;

pub use applied::{
    apply_converged, apply_tables, apply_tables_at, assert_apply_refused, assert_drift,
    assert_greenfield, assert_idle, assert_verified_and_idle, assert_verify_fails, drift_on,
    race_at_start, verify_schema,
};

use mysql_async::prelude::*;
use schema_catalog::Flavor;

/// The server URL tests use, without a database.
pub fn server_url() -> String {
    std::env::var("CATALOG_TEST_DATABASE_URL")
        .unwrap_or_else(|_| "mysql://root@127.0.0.1:3306".to_string())
        .trim_end_matches('/')
        .to_string()
}

/// `host:port` of the test server (as error messages name it).
pub fn host_port() -> String {
    let opts = mysql_async::Opts::from_url(&server_url()).expect("test URL parses");
    format!("{}:{}", opts.ip_or_hostname(), opts.tcp_port())
}

/// The repository root (this file is shared by the library's and the CLI's tests).
pub fn repo_root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .find(|d| d.join("scripts/mysql-server").is_file())
        .expect("scripts/mysql-server above the package directory")
        .to_path_buf()
}

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A fresh, uniquely named schema on the test server.
pub struct TestDb {
    /// Schema name (`sc_t_<pid>_<time>_<n>`).
    pub name: String,
    /// Pool connected to the schema.
    pub pool: mysql_async::Pool,
    /// Flavor of the server under test (from its `VERSION()`).
    pub flavor: Flavor,
    /// The server's `VERSION()`.
    pub version: String,
    /// The server's URL, without a database.
    pub server: String,
}

impl TestDb {
    /// Creates the schema. Panics (fails the test) when the server is unreachable.
    pub async fn new() -> TestDb {
        TestDb::new_at(&server_url()).await
    }

    /// A fresh, uniquely named schema on the server at `server` (a URL
    /// without a database). Panics when it is unreachable.
    pub async fn new_at(server: &str) -> TestDb {
        let server = server.trim_end_matches('/').to_string();
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let name = format!(
            "sc_t_{}_{}_{}",
            std::process::id(),
            nanos % 1_000_000_000,
            n
        );
        let admin = mysql_async::Pool::new(server.as_str());
        let mut conn = admin.get_conn().await.unwrap_or_else(|e| {
            panic!(
                "cannot reach the test database at {} ({e}); start MariaDB or set CATALOG_TEST_DATABASE_URL",
                schema_catalog::db::redact(&server)
            )
        });
        conn.query_drop(format!(
            "CREATE DATABASE `{name}` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
        ))
        .await
        .expect("create scratch schema");
        let version: String = conn
            .query_first("SELECT VERSION()")
            .await
            .expect("read VERSION()")
            .expect("VERSION() row");
        drop(conn);
        admin.disconnect().await.ok();
        let pool = mysql_async::Pool::new(format!("{server}/{name}").as_str());
        TestDb {
            name,
            pool,
            flavor: Flavor::detect(&version),
            version,
            server,
        }
    }

    /// The InnoDB table id of `table` (`INNODB_SYS_TABLES` on MariaDB,
    /// `INNODB_TABLES` on MySQL): a rebuild gives the table a new one.
    pub async fn innodb_table_id(&self, table: &str) -> u64 {
        let view = if self.is_mariadb() {
            "INNODB_SYS_TABLES"
        } else {
            "INNODB_TABLES"
        };
        let mut conn = self.pool.get_conn().await.unwrap();
        conn.exec_first(
            format!(
                "SELECT TABLE_ID FROM information_schema.{view} WHERE NAME = CONCAT(?, '/', ?)"
            ),
            (&self.name, table),
        )
        .await
        .unwrap()
        .expect("the table has an InnoDB table id")
    }

    /// URL of the scratch schema (what `--database-url` takes).
    pub fn url(&self) -> String {
        format!("{}/{}", self.server, self.name)
    }

    /// URL of the scratch schema through a relay listening on `port` of
    /// 127.0.0.1 in front of the test server.
    pub fn url_at_port(&self, port: u16) -> String {
        let mut url = url::Url::parse(&self.url()).expect("test URL parses");
        url.set_host(Some("127.0.0.1")).expect("a host");
        url.set_port(Some(port)).expect("a port");
        url.to_string()
    }

    /// Runs statements (`;`-free each) in order on one connection.
    pub async fn exec(&self, statements: &[&str]) {
        let mut conn = self
            .pool
            .get_conn()
            .await
            .expect("connect to scratch schema");
        for s in statements {
            conn.query_drop(*s)
                .await
                .unwrap_or_else(|e| panic!("{s}: {e}"));
        }
    }

    /// Runs a batch of `;`-separated statements (text protocol).
    pub async fn exec_batch(&self, sql: &str) {
        let mut conn = self
            .pool
            .get_conn()
            .await
            .expect("connect to scratch schema");
        conn.query_drop(sql)
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
    }

    /// `SHOW CREATE TABLE` text (a view's CREATE VIEW text for a view).
    pub async fn show_create(&self, table: &str) -> String {
        let mut conn = self.pool.get_conn().await.expect("connect");
        // Views answer with four columns; the definition is the second either way.
        let row: mysql_async::Row = conn
            .query_first(format!(
                "SHOW CREATE TABLE {}",
                schema_catalog::quote_ident(table)
            ))
            .await
            .expect("show create")
            .expect("table exists");
        let ddl: Vec<u8> = row.get(1).expect("definition column");
        String::from_utf8(ddl).expect("utf-8 definition")
    }

    /// Every table's SHOW CREATE TABLE, sorted by table name.
    pub async fn snapshot(&self) -> Vec<(String, String)> {
        let mut conn = self.pool.get_conn().await.expect("connect");
        let tables: Vec<String> = conn
            .exec(
                "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME",
                (self.name.as_str(),),
            )
            .await
            .expect("list tables");
        drop(conn);
        let mut out = Vec::new();
        for t in tables {
            let ddl = self.show_create(&t).await;
            out.push((t, ddl));
        }
        out
    }

    /// True on MariaDB (for fixture SQL written per flavor).
    pub fn is_mariadb(&self) -> bool {
        self.flavor == Flavor::MariaDb
    }

    /// The flavor's index attribute that hides an index from the optimizer:
    /// MariaDB `IGNORED`, MySQL `INVISIBLE`.
    pub fn hidden_index(&self) -> &'static str {
        match self.flavor {
            Flavor::MariaDb => "IGNORED",
            _ => "INVISIBLE",
        }
    }

    /// The physical shape of every table as `information_schema` reports it
    /// (TABLES, COLUMNS and STATISTICS rows, one line each, in a fixed
    /// order), without the schema name. Unlike [`TestDb::snapshot`] it does
    /// not depend on how the DDL was spelled: MySQL's SHOW CREATE TABLE
    /// repeats a column's `CHARACTER SET` only when the DDL wrote it.
    pub async fn physical(&self) -> Vec<String> {
        let mut conn = self.pool.get_conn().await.expect("connect");
        let mut out = Vec::new();
        let queries = [
            "SELECT CONCAT_WS('|', 'table', TABLE_NAME, TABLE_TYPE, IFNULL(ENGINE, ''),              IFNULL(TABLE_COLLATION, ''), TABLE_COMMENT) FROM information_schema.TABLES              WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME",
            "SELECT CONCAT_WS('|', 'column', TABLE_NAME, ORDINAL_POSITION, COLUMN_NAME, COLUMN_TYPE,              IS_NULLABLE, IFNULL(COLUMN_DEFAULT, '<none>'), IFNULL(CHARACTER_SET_NAME, ''),              IFNULL(COLLATION_NAME, ''), EXTRA, COLUMN_COMMENT) FROM information_schema.COLUMNS              WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME, ORDINAL_POSITION",
            "SELECT CONCAT_WS('|', 'index', TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX, NON_UNIQUE,              IFNULL(COLUMN_NAME, ''), IFNULL(SUB_PART, ''), IFNULL(COLLATION, ''), INDEX_TYPE)              FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ?              ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX",
        ];
        for q in queries {
            let rows: Vec<String> = conn
                .exec(q, (self.name.as_str(),))
                .await
                .expect("read information_schema");
            out.extend(rows);
        }
        out
    }

    /// Writes a `--no-data` dump of the schema to `file` with the flavor's
    /// own client: `mariadb-dump` for MariaDB, the MySQL root's `mysqldump`
    /// (through `scripts/mysql-server`) for MySQL. `scripts/test` installs both.
    pub fn dump_no_data(&self, file: &std::path::Path) {
        let opts = mysql_async::Opts::from_url(&self.url()).unwrap();
        let mut cmd = match self.flavor {
            Flavor::MariaDb => std::process::Command::new("mariadb-dump"),
            _ => {
                let mut c = std::process::Command::new(repo_root().join("scripts/mysql-server"));
                c.arg("mysqldump");
                c
            }
        };
        let out = cmd
            .args(["--no-data", "--protocol=tcp"])
            .arg(format!("-h{}", opts.ip_or_hostname()))
            .arg(format!("-P{}", opts.tcp_port()))
            .arg(format!("-u{}", opts.user().unwrap_or("root")))
            .arg(&self.name)
            .env("MYSQL_PWD", opts.pass().unwrap_or(""))
            .output()
            .expect("the dump client is installed");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::write(file, out.stdout).unwrap();
    }

    /// A checksum of a table's rows over the given columns.
    ///
    /// Order-independent and size-independent: (rows, "sum of CRC32 / xor of
    /// 64-bit SHA-256 prefixes") over each row's `columns`, NULL spelled apart
    /// from '' (SHA2, not MD5: MySQL 9.7 has no MD5). No GROUP_CONCAT, so it covers every row of a large table.
    pub async fn checksum(&self, table: &str, columns: &[&str]) -> (u64, String) {
        let cols: Vec<String> = columns
            .iter()
            .map(|c| {
                format!(
                    "IFNULL(CAST({} AS CHAR), '<null>')",
                    schema_catalog::quote_ident(c)
                )
            })
            .collect();
        let mut conn = self.pool.get_conn().await.expect("connect");
        let row: (u64, String, String) = conn
            .query_first(format!(
                "SELECT COUNT(*), CAST(COALESCE(SUM(CRC32(r)), 0) AS CHAR), \
                 CAST(COALESCE(BIT_XOR(CAST(CONV(LEFT(SHA2(r, 256), 16), 16, 10) AS UNSIGNED)), 0) AS CHAR) \
                 FROM (SELECT CONCAT_WS('|', {}) AS r FROM {}) t",
                cols.join(", "),
                schema_catalog::quote_ident(table)
            ))
            .await
            .expect("checksum")
            .expect("row");
        (row.0, format!("{}/{}", row.1, row.2))
    }
}

/// On MySQL, turns on what ADD INDEX progress reads: the `stage/innodb/alter%`
/// instruments (on by default) and the `events_stages_current` consumer (off
/// by default). Server-global, as on any server: `scripts/mysql-server` also
/// starts mysqld with them on. Apply itself never changes server settings.
pub async fn enable_stage_progress(db: &TestDb) {
    if db.flavor != Flavor::MySql {
        return;
    }
    db.exec(&[
        "UPDATE performance_schema.setup_instruments SET ENABLED = 'YES', TIMED = 'YES' \
         WHERE NAME LIKE 'stage/innodb/alter%'",
        "UPDATE performance_schema.setup_consumers SET ENABLED = 'YES' \
         WHERE NAME = 'events_stages_current'",
    ])
    .await;
}

/// An emptied scratch directory `target/tmp/<name>-<port>`, `<port>` being
/// the test server's: runs of one test binary against different servers
/// at once (MariaDB and MySQL from one worktree) never share it, and it is
/// left in place for a look after a failure.
pub fn scratch_dir(name: &str) -> std::path::PathBuf {
    let port = mysql_async::Opts::from_url(&server_url())
        .expect("test URL parses")
        .tcp_port();
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{port}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the scratch directory");
    dir
}

/// A catalog directory holding `files` (`(name, text)`), removed on drop.
/// Its name is unique (a new temporary directory), so that runs of one
/// test binary against different servers at once never share it.
pub fn catalog_dir(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary directory");
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).expect("write catalog file");
    }
    dir
}

/// The shipped catalog (`catalog/` at the repository root).
pub fn shipped_catalog() -> schema_catalog::catalog::Catalog {
    schema_catalog::catalog::load(&repo_root().join("catalog")).expect("the shipped catalog loads")
}

/// Creates the shipped catalog's tables in `db` exactly as the catalog
/// renders them for the server's flavor, all but the table `except`, and
/// returns the catalog.
pub async fn shipped_tables_except(db: &TestDb, except: &str) -> schema_catalog::catalog::Catalog {
    let cat = shipped_catalog();
    let creates: Vec<String> = cat
        .tables
        .iter()
        .filter(|t| t.table.name.as_str() != except)
        .map(|t| schema_catalog::ddl::create_table(&t.table, db.flavor))
        .collect();
    db.exec(&creates.iter().map(String::as_str).collect::<Vec<_>>())
        .await;
    cat
}

/// A new scratch schema holding the shipped catalog's tables exactly (as
/// [`shipped_tables_except`] creates them, no table left out), then
/// `breakage` (plain DDL, never through the catalog).
pub async fn shipped_schema_with(breakage: &[&str]) -> TestDb {
    let db = TestDb::new().await;
    shipped_tables_except(&db, "").await;
    db.exec(breakage).await;
    db
}

/// The tables of a loaded catalog.
pub fn catalog_tables(c: &schema_catalog::catalog::Catalog) -> Vec<schema_catalog::Table> {
    c.tables.iter().map(|t| t.table.clone()).collect()
}

/// Imports the test schema three ways and returns each result's tables:
/// live (nothing skipped), that import written through the import gate
/// (which runs `catalog check`) and loaded back, and from a `--no-data`
/// dump by the flavor's own client (which must write the same files as
/// the live import). `dir` is scratch space, removed afterwards.
pub async fn import_three_ways(
    db: &TestDb,
    dir: &std::path::Path,
) -> [Vec<schema_catalog::Table>; 3] {
    use schema_catalog::import::{self, ImportOptions};
    let _ = std::fs::remove_dir_all(dir);
    let target = schema_catalog::db::parse_url(&db.url()).expect("test URL parses");
    let mut s = schema_catalog::db::connect(&target, std::time::Duration::from_secs(20))
        .await
        .expect("connect");
    let sources = import::read_live(&mut s, &db.name, &[])
        .await
        .expect("read live");
    let live = import::build(&target.display, sources, &ImportOptions::default()).expect("import");
    assert!(live.skipped.is_empty(), "{:#?}", live.skipped);
    let out = dir.join("imported");
    schema_catalog::import::write_checked(&live, &out).expect("import passes check");
    let reloaded = schema_catalog::catalog::load(&out).expect("the import loads");
    let file = dir.join("dump.sql");
    db.dump_no_data(&file);
    let dumped = schema_catalog::dump::read_dump(&file, None).expect("dump parses");
    let from_dump = import::from_dump(&dumped, &ImportOptions::default()).expect("dump imports");
    assert_eq!(import::to_yaml(&from_dump).1, import::to_yaml(&live).1);
    let _ = std::fs::remove_dir_all(dir);
    [live.tables, catalog_tables(&reloaded), from_dump.tables]
}

/// A legacy `Jobs` table (Id, State, CreatedAt; no secondary index) with
/// 262,144 rows, so that an ADD INDEX on it takes a measurable while.
pub async fn unindexed_jobs(db: &TestDb) {
    small_unindexed_jobs(db).await;
    double_jobs(db, 16).await;
}

/// The [`unindexed_jobs`] table with its first 4 rows only.
pub async fn small_unindexed_jobs(db: &TestDb) {
    db.exec(&[
        "CREATE TABLE `Jobs` (`Id` bigint unsigned NOT NULL AUTO_INCREMENT, \
         `State` varchar(32) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL, \
         `CreatedAt` datetime(6) NOT NULL, PRIMARY KEY (`Id`)) \
         ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
        "INSERT INTO `Jobs` (`State`, `CreatedAt`) VALUES ('queued', NOW(6)), ('done', NOW(6)), ('failed', NOW(6)), ('leased', NOW(6))",
    ])
    .await;
}

impl Drop for TestDb {
    fn drop(&mut self) {
        let name = self.name.clone();
        let server = self.server.clone();
        // Runs on its own thread and runtime so the schema is dropped even
        // when the test panicked inside its async runtime.
        let _ = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let admin = mysql_async::Pool::new(server.as_str());
                if let Ok(mut conn) = admin.get_conn().await {
                    let _ = conn
                        .query_drop(format!("DROP DATABASE IF EXISTS `{name}`"))
                        .await;
                }
                let _ = admin.disconnect().await;
            });
        })
        .join();
    }
}

/// The catalog of the [`unindexed_jobs`] table: its columns plus the one
/// index it lacks, so that apply has one ADD INDEX step.
pub const UNINDEXED_JOBS_CATALOG: &str = "table: Jobs
columns:
  - { name: Id, type: bigint unsigned, nullable: false, auto_increment: true }
  - { name: State, type: varchar(32), nullable: false }
  - { name: CreatedAt, type: datetime(6), nullable: false }
primary_key: [Id]
indexes:
  - { name: idx_jobs_state_created, columns: [State, CreatedAt, Id] }
";

/// The catalog of the [`unindexed_jobs`] table with two indexes it lacks:
/// two ADD INDEX steps.
pub const TWO_INDEX_JOBS_CATALOG: &str = "table: Jobs
columns:
  - { name: Id, type: bigint unsigned, nullable: false, auto_increment: true }
  - { name: State, type: varchar(32), nullable: false }
  - { name: CreatedAt, type: datetime(6), nullable: false }
primary_key: [Id]
indexes:
  - { name: idx_jobs_state, columns: [State, Id] }
  - { name: idx_jobs_created, columns: [CreatedAt, Id] }
";

/// Doubles the rows of the `Jobs` table of [`unindexed_jobs`] `times` times
/// (2 more doublings: 1,048,576 rows).
pub async fn double_jobs(db: &TestDb, times: usize) {
    for _ in 0..times {
        db.exec(&[
            "INSERT INTO `Jobs` (`State`, `CreatedAt`) SELECT `State`, `CreatedAt` FROM `Jobs`",
        ])
        .await;
    }
}

/// The startup-gate example's run on a ready schema: exit 0 and "schema
/// ready (8 tables, ...)" on stdout (tests/it/example_service.rs,
/// tests/it/gate_outside_crate.rs).
pub fn assert_gate_ready(out: &std::process::Output) {
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.starts_with("schema ready (8 tables"), "{stdout}");
}

/// A connection of `on`'s pool inside a transaction that ran `read`, once
/// it has sat idle in it for 2 s (its transaction is older: past the 1 s
/// blocker age).
pub async fn holding(on: &TestDb, read: &str) -> (mysql_async::Conn, u64) {
    let mut conn = on.pool.get_conn().await.unwrap();
    conn.query_drop("BEGIN").await.unwrap();
    let _: Option<u64> = conn.query_first(read).await.unwrap();
    let id = u64::from(conn.id());
    let mut watch = on.pool.get_conn().await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let age: Option<u64> = watch
            .exec_first(
                "SELECT CAST(TIME AS UNSIGNED) FROM information_schema.PROCESSLIST WHERE ID = ?",
                (id,),
            )
            .await
            .unwrap();
        if age.is_some_and(|a| a >= 2) {
            return (conn, id);
        }
        assert!(
            Instant::now() < deadline,
            "connection {id} was not idle for 2 s ({age:?})"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// An import of generated `tables` (no server) with the InnoDB, utf8mb4,
/// utf8mb4_bin defaults the generated test tables assume.
pub fn generated_import(tables: Vec<schema_catalog::Table>) -> schema_catalog::import::Imported {
    use schema_catalog::import::{ImportDefaults, Imported};
    Imported {
        source: "generated".into(),
        server: None,
        defaults: ImportDefaults {
            engine: Some("InnoDB".into()),
            charset: "utf8mb4".into(),
            collation: "utf8mb4_bin".into(),
        },
        tables,
        skipped: vec![],
        external_tables: vec![],
        notes: vec![],
    }
}
