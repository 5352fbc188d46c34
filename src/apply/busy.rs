//! Busy servers: the metadata-lock budget of the DDL session, and the look
//! before each DDL for sessions that hold the table (SPEC "Busy servers").
//!
//! A pending ALTER queues behind every open transaction that touched the
//! table, and every later statement on the table queues behind the ALTER.
//! So apply (1) never sends the ALTER while a long transaction or statement
//! holds the table, and (2) bounds every DDL's metadata-lock wait by
//! `lock_wait_timeout`, retrying a 1205 with backoff within the busy budget.
//!
//! What each server lets us see (the reads and the budgets statement live
//! in `crate::server`'s vendor files, `Flavor::blocker_reads`):
//! - MySQL: `performance_schema.metadata_locks` lists every granted and
//!   pending metadata lock per table and owner thread (the `wait/lock/
//!   metadata/sql/mdl` instrument is on by default since 8.0); `threads`
//!   maps the owner to its connection id, user, host, command and statement.
//!   Exact: only sessions that touched this table are reported.
//! - MariaDB with the `METADATA_LOCK_INFO` plugin loaded: the granted
//!   metadata locks per table and connection (not the pending ones). Exact.
//!   (Not in the test suite, which would have to install the plugin on a
//!   shared server; its query was checked by hand on MariaDB 10.11.)
//! - MariaDB without the plugin (the default; `performance_schema` is off
//!   by default too): `INNODB_TRX` + `PROCESSLIST` show open InnoDB
//!   transactions and running statements, but not which tables a
//!   transaction read (`INNODB_LOCKS` lists only lock waits, and metadata
//!   locks never; `trx_tables_locked` is a count). What is knowable is the
//!   session's default database and its current statement. So a
//!   transaction older than the threshold is a possible blocker when its
//!   session's default database is the table's schema or none, or its
//!   current statement names the schema (from another database the table
//!   can only be named qualified); a statement running that long, when it
//!   runs in the schema or names it. A session sitting in another database
//!   is not one (the shared server's other schemas do not defer apply).
//!   The limit: such a session that read the table by its qualified name
//!   is not seen before the DDL; the DDL's own metadata-lock wait
//!   (`lock_wait_timeout`, apply's `lock_wait`) bounds it, and the 1205
//!   retry with backoff within the busy budget defers the run without
//!   naming it. See docs/apply.md.
//! - TiDB (assumption, not runnable here: no TiDB server): its metadata lock
//!   does not block DML; a DDL waits for transactions that started before it
//!   and used the table. `information_schema.CLUSTER_TIDB_TRX.RELATED_TABLE_IDS`
//!   (v6.3+) names them before the DDL; `mysql.tidb_mdl_view` names the
//!   sessions a running DDL job waits for.

use std::time::Duration;

use mysql_async::prelude::*;
use mysql_async::Row;

use crate::db::Session;
use crate::error::Result;
use crate::server::{BlockerParam, Flavor};

/// Longest statement text a blocker report carries (characters).
pub const STATEMENT_CHARS: usize = 120;

/// A session that holds (or may hold) the table a step must alter.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct Blocker {
    /// Server connection id (`KILL <id>` ends it).
    pub connection_id: u64,
    /// User.
    pub user: String,
    /// Client host.
    pub host: String,
    /// Processlist command (`Sleep`, `Query`, ...).
    pub command: String,
    /// Seconds since its transaction started (or its statement, outside a
    /// transaction), as the server reports it.
    pub seconds: u64,
    /// What is known about its hold: the metadata lock type, or
    /// `open transaction` where the server cannot see metadata locks.
    pub holds: String,
    /// The first 120 characters of its current statement with every literal
    /// replaced by `?` (never its values); `None` when idle.
    pub statement: Option<String>,
}

impl std::fmt::Display for Blocker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "connection {} ({}@{}, {}, {} s, {})",
            self.connection_id, self.user, self.host, self.command, self.seconds, self.holds
        )?;
        if let Some(s) = &self.statement {
            write!(f, ": {s}")?;
        }
        Ok(())
    }
}

/// The `SET SESSION` of the apply session's budgets. `lock_wait` bounds
/// each DDL's metadata lock wait; `read` bounds the reads on the server
/// side too (the client bounds them anyway). Sent together with the first
/// DDL-counter read (see `apply::start`): one round trip for both.
pub(crate) fn budgets_statement(flavor: Flavor, lock_wait: Duration, read: Duration) -> String {
    let lock_secs = lock_wait.as_secs().max(1);
    let read_ms = read.as_millis().max(1000) as u64;
    flavor.session_budgets(lock_secs, read_ms)
}

/// Where the session's statement time limit would abort the DDL itself
/// (MariaDB's `max_statement_time`, [`Flavor::statement_limit_aborts_ddl`]),
/// it is set to 0 (no limit) for the DDL and back to the read budget after it.
pub(crate) async fn ddl_limits(session: &mut Session<'_>, ddl: bool, read: Duration) -> Result<()> {
    if !session.flavor().statement_limit_aborts_ddl() {
        return Ok(());
    }
    let secs = if ddl {
        0.0
    } else {
        read.as_millis().max(1000) as f64 / 1000.0
    };
    session
        .run("setting max_statement_time", |c| {
            c.query_drop(format!("SET SESSION max_statement_time = {secs}"))
        })
        .await
}

/// The sessions that hold `schema`.`table` (or, where the server cannot
/// tell, an old transaction that may) for at least `older_than`, other
/// than this session itself.
pub(crate) async fn blockers(
    session: &mut Session<'_>,
    schema: &str,
    table: &str,
    older_than: Duration,
) -> Result<Vec<Blocker>> {
    let age = older_than.as_secs();
    let mut chosen = None;
    for read in session.flavor().blocker_reads() {
        if let Some((what, sql)) = read.precondition {
            let found: Option<u8> = session.run(what, |c| c.query_first(sql)).await?;
            if found.is_none() {
                continue;
            }
        }
        chosen = Some(read);
        break;
    }
    let Some(read) = chosen else {
        return Ok(Vec::new());
    };
    if let Some(probe) = &read.snapshot {
        let rows = dated_read(session, probe, read, schema, table, age).await;
        let ended = session
            .run("ending the look's transaction", |c| c.query_drop("COMMIT"))
            .await;
        let rows = rows?;
        ended?;
        return Ok(blockers_of(rows));
    }
    let rows = read_rows(session, read, schema, table, age).await?;
    Ok(blockers_of(rows))
}

/// Tries of [`dated_read`]'s probe before it reads anyway.
const SNAPSHOT_TRIES: u32 = 4;

/// `read` from a buffer the server refreshes now and then, dated: in a
/// transaction of its own, the look waits (up to [`SNAPSHOT_TRIES`]
/// refreshes) until the buffer lists that transaction, so every holder
/// begun before the look is in it. A buffer that never lists it (another
/// client reading it more often than it refreshes keeps it from
/// refreshing) is read as it is: a holder it misses makes the DDL wait
/// out its bounded metadata-lock wait (docs/apply.md).
async fn dated_read(
    session: &mut Session<'_>,
    probe: &crate::server::SnapshotProbe,
    read: &crate::server::BlockerRead,
    schema: &str,
    table: &str,
    age: u64,
) -> Result<Vec<Row>> {
    session
        .run("opening the look's transaction", |c| {
            c.query_drop("START TRANSACTION WITH CONSISTENT SNAPSHOT")
        })
        .await?;
    for _ in 0..SNAPSHOT_TRIES {
        let seen: Option<u8> = session
            .run(probe.what, |c| c.query_first(probe.probe))
            .await?;
        if seen.is_some() {
            break;
        }
        tokio::time::sleep(probe.refresh).await;
    }
    read_rows(session, read, schema, table, age).await
}

/// The rows of `read` for `schema`.`table` and holders `age` seconds old.
async fn read_rows(
    session: &mut Session<'_>,
    read: &crate::server::BlockerRead,
    schema: &str,
    table: &str,
    age: u64,
) -> Result<Vec<Row>> {
    let (what, sql) = (read.what, read.sql);
    let params: Vec<mysql_async::Value> = read
        .params
        .iter()
        .map(|p| match p {
            BlockerParam::Schema => schema.into(),
            BlockerParam::Table => table.into(),
            BlockerParam::Age => age.into(),
        })
        .collect();
    session
        .exec_rows(what, sql, mysql_async::Params::Positional(params))
        .await
}

/// The blockers `rows` name, each connection once, by id.
fn blockers_of(rows: Vec<Row>) -> Vec<Blocker> {
    let mut out: Vec<Blocker> = rows.into_iter().filter_map(blocker_of).collect();
    out.sort_by_key(|b| b.connection_id);
    out.dedup_by_key(|b| b.connection_id);
    out
}

fn text(row: &Row, i: usize) -> Option<String> {
    match row.as_ref(i)? {
        mysql_async::Value::Bytes(b) => Some(String::from_utf8_lossy(b).into_owned()),
        mysql_async::Value::NULL => None,
        other => Some(other.as_sql(true)),
    }
}

fn number(row: &Row, i: usize) -> u64 {
    match row.as_ref(i) {
        Some(mysql_async::Value::UInt(n)) => *n,
        Some(mysql_async::Value::Int(n)) => (*n).max(0) as u64,
        _ => text(row, i).and_then(|t| t.parse().ok()).unwrap_or(0),
    }
}

fn blocker_of(row: Row) -> Option<Blocker> {
    let connection_id = number(&row, 0);
    if connection_id == 0 {
        return None;
    }
    Some(Blocker {
        connection_id,
        user: text(&row, 1).unwrap_or_default(),
        host: text(&row, 2).unwrap_or_default(),
        command: text(&row, 3).unwrap_or_default(),
        seconds: number(&row, 4),
        holds: text(&row, 5).unwrap_or_default(),
        statement: text(&row, 6)
            .filter(|s| !s.trim().is_empty())
            .map(|s| masked_statement(&s)),
    })
}

/// The statement with every literal replaced by `?`, cut to
/// `STATEMENT_CHARS` characters. Text that does not tokenize is reduced
/// to its first word: a value must never leak through a blocker report.
pub(crate) fn masked_statement(sql: &str) -> String {
    use crate::sql::lex::{all_tokens, Token};
    let masked = match all_tokens(sql) {
        Ok(tokens) => tokens
            .into_iter()
            .map(|t| match t {
                Token::Number(..)
                | Token::SingleQuotedString(_)
                | Token::DoubleQuotedString(_)
                | Token::NationalStringLiteral(_)
                | Token::EscapedStringLiteral(_)
                | Token::HexStringLiteral(_)
                | Token::SingleQuotedByteStringLiteral(_)
                | Token::DoubleQuotedByteStringLiteral(_) => "?".to_string(),
                Token::Whitespace(_) => " ".to_string(),
                other => other.to_string(),
            })
            .collect::<String>(),
        Err(_) => sql.split_whitespace().next().unwrap_or("").to_string() + " ...",
    };
    let collapsed = masked.split_whitespace().collect::<Vec<_>>().join(" ");
    cut(&collapsed, STATEMENT_CHARS)
}

/// `text` cut to `max` characters, marked with `...` when cut.
pub fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let head: String = text.chars().take(max.saturating_sub(3)).collect();
    format!("{head}...")
}

/// Exponential backoff with full jitter: attempt 0 waits up to 250 ms,
/// doubling to at most 2 s, never past `left`.
pub(crate) fn backoff(attempt: u32, left: Duration) -> Duration {
    let cap = Duration::from_millis(250)
        .saturating_mul(1u32 << attempt.min(5))
        .min(Duration::from_secs(2));
    let jittered = cap.mul_f64(0.5 + fastrand::f64() * 0.5);
    jittered.min(left)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_lose_their_values() {
        let s =
            masked_statement("UPDATE Jobs SET State = 'secret-token' WHERE Id = 42 AND x = \"pw\"");
        assert_eq!(s, "UPDATE Jobs SET State = ? WHERE Id = ? AND x = ?");
        assert!(!s.contains("secret") && !s.contains("42"), "{s}");
    }

    #[test]
    fn statements_are_cut() {
        let long = format!("SELECT {} FROM t", vec!["a"; 200].join(", "));
        let s = masked_statement(&long);
        assert_eq!(s.chars().count(), STATEMENT_CHARS);
        assert!(s.ends_with("..."));
    }

    #[test]
    fn a_huge_statement_is_cut_for_messages() {
        let huge = format!("INSERT INTO t VALUES {}", "('x'),".repeat(800_000));
        let shown = cut(&huge, 300);
        assert_eq!(shown.chars().count(), 300);
        assert!(shown.starts_with("INSERT INTO t VALUES ('x')") && shown.ends_with("..."));
        assert_eq!(cut("short", 300), "short");
    }

    #[test]
    fn untokenizable_text_keeps_only_its_verb() {
        assert_eq!(
            masked_statement("SELECT 'unterminated secret"),
            "SELECT ..."
        );
    }

    #[test]
    fn backoff_grows_and_stays_in_budget() {
        for attempt in 0..10 {
            let d = backoff(attempt, Duration::from_secs(60));
            assert!(d <= Duration::from_secs(2), "{d:?}");
            assert!(d >= Duration::from_millis(125), "{d:?}");
        }
        assert_eq!(
            backoff(8, Duration::from_millis(10)),
            Duration::from_millis(10)
        );
    }
}
