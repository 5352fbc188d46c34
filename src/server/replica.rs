//! Per-vendor replica knowledge, in one place: which statement shows a
//! replica's link to its source, which variable holds a server's GTID
//! position, which function waits for a position, how a primary lists its
//! replicas, and when a replica's source is this primary.
//!
//! Sources:
//! - MariaDB: SHOW REPLICA/SLAVE STATUS
//!   (<https://mariadb.com/kb/en/show-replica-status/>; `SHOW ALL SLAVES
//!   STATUS` lists every named connection), `gtid_binlog_pos` and
//!   `gtid_slave_pos` (<https://mariadb.com/kb/en/gtid/>), MASTER_GTID_WAIT
//!   (<https://mariadb.com/kb/en/master_gtid_wait/>: 0 when reached, -1 on
//!   timeout, fractional seconds), SHOW SLAVE HOSTS
//!   (<https://mariadb.com/kb/en/show-replica-hosts/>: only replicas started
//!   with `report_host` show a host).
//! - MySQL 8.0.22+/8.4/9.x: SHOW REPLICA STATUS and SHOW REPLICAS
//!   (<https://dev.mysql.com/doc/refman/8.4/en/show-replica-status.html>,
//!   .../show-replicas.html; `SHOW SLAVE STATUS` is gone since 8.4),
//!   `gtid_executed` and WAIT_FOR_EXECUTED_GTID_SET / GTID_SUBTRACT
//!   (<https://dev.mysql.com/doc/refman/8.4/en/gtid-functions.html>: 0 when
//!   reached, 1 on timeout), `gtid_mode`
//!   (<https://dev.mysql.com/doc/refman/8.4/en/replication-options-gtids.html>).
//! - TiDB has no MySQL-protocol replicas (TiCDC is another product):
//!   replicas are refused there.

use mysql_async::{Row, Value};

use crate::server::Flavor;

/// The statement that shows a replica's links to its sources, one row per
/// link (MariaDB: every named connection).
pub(crate) fn status_statement(flavor: Flavor) -> Option<&'static str> {
    match flavor {
        Flavor::MariaDb => Some("SHOW ALL SLAVES STATUS"),
        Flavor::MySql => Some("SHOW REPLICA STATUS"),
        Flavor::TiDb => None,
    }
}

/// A server's own replication identity and GTID settings: `@@server_id`,
/// `@@server_uuid` where the flavor has one, whether GTIDs are on
/// (MariaDB always writes GTIDs to its binary log; MySQL only with
/// `gtid_mode=ON`).
pub(crate) fn self_statement(flavor: Flavor) -> &'static str {
    match flavor {
        Flavor::MySql => "SELECT @@server_id, @@server_uuid, @@GLOBAL.gtid_mode",
        Flavor::MariaDb | Flavor::TiDb => "SELECT @@server_id, NULL, 'ON'",
    }
}

/// The primary's current GTID position: every transaction it has written
/// to its binary log (MariaDB) or executed (MySQL).
pub(crate) fn position_statement(flavor: Flavor) -> &'static str {
    match flavor {
        Flavor::MariaDb => "SELECT @@GLOBAL.gtid_binlog_pos",
        Flavor::MySql | Flavor::TiDb => "SELECT @@GLOBAL.gtid_executed",
    }
}

/// What a replica has executed, in the same notation as
/// [`position_statement`].
pub(crate) fn replica_position_statement(flavor: Flavor) -> &'static str {
    match flavor {
        Flavor::MariaDb => "SELECT @@GLOBAL.gtid_slave_pos",
        Flavor::MySql | Flavor::TiDb => "SELECT @@GLOBAL.gtid_executed",
    }
}

/// Waits on the replica until it has executed the position (first
/// parameter) or the timeout (second, seconds, fractional) runs out.
/// [`wait_reached`] reads its result.
pub(crate) fn wait_statement(flavor: Flavor) -> &'static str {
    match flavor {
        Flavor::MariaDb => "SELECT MASTER_GTID_WAIT(?, ?)",
        Flavor::MySql | Flavor::TiDb => "SELECT WAIT_FOR_EXECUTED_GTID_SET(?, ?)",
    }
}

/// Whether [`wait_statement`]'s result says the position was reached:
/// 0 on both (MariaDB -1 and MySQL 1 are timeouts; NULL an unusable
/// argument).
pub(crate) fn wait_reached(result: Option<i64>) -> bool {
    result == Some(0)
}

/// How far the replica is behind `primary`, when the server can say it:
/// MySQL's GTID_SUBTRACT of the replica's executed set (run on the
/// replica, the primary's set bound). MariaDB's is computed from both
/// positions ([`mariadb_missing`]).
pub(crate) fn missing_statement(flavor: Flavor) -> Option<&'static str> {
    match flavor {
        Flavor::MySql => Some("SELECT GTID_SUBTRACT(?, @@GLOBAL.gtid_executed)"),
        Flavor::MariaDb | Flavor::TiDb => None,
    }
}

/// MariaDB: the transactions `replica` lacks of `primary`, per replication
/// domain (`domain-server-seq` lists: the seq_no is per domain and grows
/// by one per transaction), as `N transaction(s) in domain D`.
pub(crate) fn mariadb_missing(primary: &str, replica: &str) -> String {
    let seqs = |pos: &str| -> Vec<(u64, u64)> {
        pos.split(',')
            .filter_map(|g| {
                let mut parts = g.trim().split('-');
                let domain = parts.next()?.parse().ok()?;
                let _server = parts.next()?;
                let seq = parts.next()?.parse().ok()?;
                Some((domain, seq))
            })
            .collect()
    };
    let have = seqs(replica);
    let mut out = Vec::new();
    for (domain, seq) in seqs(primary) {
        let at = have
            .iter()
            .find(|(d, _)| *d == domain)
            .map_or(0, |(_, s)| *s);
        if seq > at {
            out.push(format!("{} transaction(s) in domain {domain}", seq - at));
        }
    }
    out.join(", ")
}

/// How many parallel applier threads a replica runs, or `None` where the
/// flavor has no such setting. MariaDB: `@@slave_parallel_threads` (0: the
/// single-threaded applier; KB "Parallel Replication"); MySQL:
/// `@@replica_parallel_workers` (8.0.26+ name; Reference Manual
/// "replica_parallel_workers"), read for the report only: MySQL has no
/// two-phase ALTER.
pub(crate) fn parallel_statement(flavor: Flavor) -> Option<&'static str> {
    match flavor {
        Flavor::MariaDb => Some("SELECT @@GLOBAL.slave_parallel_threads"),
        Flavor::MySql => Some("SELECT @@GLOBAL.replica_parallel_workers"),
        Flavor::TiDb => None,
    }
}

/// The variable a parallel applier's thread count is named by in reports.
pub(crate) fn parallel_variable(flavor: Flavor) -> &'static str {
    match flavor {
        Flavor::MariaDb => "slave_parallel_threads",
        Flavor::MySql | Flavor::TiDb => "replica_parallel_workers",
    }
}

/// Sets the session's `binlog_alter_two_phase` (MariaDB 10.8.1+,
/// MDEV-11675; ask [`crate::server::Server::has_binlog_alter_two_phase`]
/// first): with it on, an ALTER is binlogged as START ALTER when it has
/// its locks and COMMIT ALTER when done, so a replica with parallel
/// applier threads builds alongside the primary instead of after it (KB
/// "Replication and Binary Log System Variables": binlog_alter_two_phase).
/// A session variable any user may set.
pub(crate) fn two_phase_statement(on: bool) -> &'static str {
    if on {
        "SET SESSION binlog_alter_two_phase = 1"
    } else {
        "SET SESSION binlog_alter_two_phase = 0"
    }
}

/// The statement a primary lists its connected replicas with.
pub(crate) fn hosts_statement(flavor: Flavor) -> Option<&'static str> {
    match flavor {
        Flavor::MariaDb => Some("SHOW SLAVE HOSTS"),
        Flavor::MySql => Some("SHOW REPLICAS"),
        Flavor::TiDb => None,
    }
}

/// One row of [`hosts_statement`]: a connected replica as the primary
/// lists it (`Host` is empty without `report_host`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Listed {
    pub server_id: u64,
    pub host: String,
    pub port: u64,
}

/// Reads a [`hosts_statement`] row (MariaDB `Server_id`, MySQL
/// `Server_Id`; both `Host` and `Port`).
pub(crate) fn listed(row: &Row) -> Listed {
    Listed {
        server_id: number(row, &["Server_id", "Server_Id"]).unwrap_or(0),
        host: text(row, &["Host"]).unwrap_or_default(),
        port: number(row, &["Port"]).unwrap_or(0),
    }
}

/// A replica's link to one source, from a [`status_statement`] row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Link {
    /// `Master_Host` / `Source_Host`.
    pub host: String,
    /// `Master_Port` / `Source_Port`.
    pub port: u64,
    /// `Master_Server_Id` / `Source_Server_Id` (0 until the receiver
    /// thread has connected once).
    pub source_server_id: u64,
    /// MySQL's `Source_UUID` (empty until connected once).
    pub source_uuid: Option<String>,
    /// The receiver (I/O) thread runs (`Yes`; `Connecting` is not running).
    pub io_running: bool,
    /// The applier (SQL) thread runs.
    pub sql_running: bool,
    /// The link replicates by GTID: MariaDB `Using_Gtid` other than `No`;
    /// MySQL `Auto_Position` 1.
    pub uses_gtid: bool,
    /// The applier's last error, if any.
    pub last_error: Option<String>,
}

impl Link {
    /// `host:port`, as the replica names its source.
    pub fn source(&self) -> String {
        format!("{}:{}", self.host, self.port)
    }
}

/// Reads a [`status_statement`] row.
pub(crate) fn link(row: &Row) -> Link {
    let yes = |cols: &[&str]| text(row, cols).is_some_and(|v| v.eq_ignore_ascii_case("Yes"));
    let uses_gtid = match text(row, &["Using_Gtid"]) {
        Some(v) => !v.eq_ignore_ascii_case("No"),
        None => number(row, &["Auto_Position"]) == Some(1),
    };
    let last_error = ["Last_SQL_Error", "Last_IO_Error"]
        .iter()
        .filter_map(|c| text(row, &[c]))
        .find(|e| !e.is_empty());
    Link {
        host: text(row, &["Master_Host", "Source_Host"]).unwrap_or_default(),
        port: number(row, &["Master_Port", "Source_Port"]).unwrap_or(0),
        source_server_id: number(row, &["Master_Server_Id", "Source_Server_Id"]).unwrap_or(0),
        source_uuid: text(row, &["Source_UUID", "Master_UUID"]).filter(|u| !u.is_empty()),
        io_running: yes(&["Slave_IO_Running", "Replica_IO_Running"]),
        sql_running: yes(&["Slave_SQL_Running", "Replica_SQL_Running"]),
        uses_gtid,
        last_error,
    }
}

/// Who the primary is, as a replica's link can name it.
pub(crate) struct PrimarySelf<'a> {
    pub server_id: u64,
    pub server_uuid: Option<&'a str>,
    pub port: u64,
    /// The host names the primary answers to: its URL's host and its own
    /// `@@hostname`.
    pub hosts: &'a [String],
}

/// Whether `link` replicates from `primary`. MySQL: the link's
/// `Source_UUID` is the primary's `server_uuid` (unique per server, unlike
/// host names behind NAT or tunnels). MariaDB has no server uuid: the
/// link's `Master_Server_Id` is the primary's `server_id` (server ids must
/// be unique within a replication topology), or, before the receiver has
/// ever connected (id 0), its host and port are the primary's (loopback
/// names counted as one).
pub(crate) fn same_source(flavor: Flavor, link: &Link, primary: &PrimarySelf<'_>) -> bool {
    if flavor == Flavor::MySql {
        if let (Some(have), Some(want)) = (&link.source_uuid, primary.server_uuid) {
            return have.eq_ignore_ascii_case(want);
        }
    }
    if link.source_server_id != 0 {
        return link.source_server_id == primary.server_id;
    }
    let loopback = |h: &str| matches!(h, "127.0.0.1" | "::1" | "localhost");
    link.port == primary.port
        && primary
            .hosts
            .iter()
            .any(|h| h.eq_ignore_ascii_case(&link.host) || (loopback(h) && loopback(&link.host)))
}

/// A column's value as text (the text protocol sends bytes; NULL is None).
fn text(row: &Row, cols: &[&str]) -> Option<String> {
    let columns = row.columns_ref();
    for want in cols {
        let Some(i) = columns
            .iter()
            .position(|c| c.name_str().eq_ignore_ascii_case(want))
        else {
            continue;
        };
        return match row.as_ref(i)? {
            Value::NULL => None,
            Value::Bytes(b) => Some(String::from_utf8_lossy(b).into_owned()),
            Value::Int(n) => Some(n.to_string()),
            Value::UInt(n) => Some(n.to_string()),
            other => Some(other.as_sql(true)),
        };
    }
    None
}

/// A column's value as an unsigned number.
fn number(row: &Row, cols: &[&str]) -> Option<u64> {
    text(row, cols).and_then(|t| t.trim().parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mariadb_positions_give_missing_transactions_per_domain() {
        assert_eq!(
            mariadb_missing("0-1-10", "0-1-7"),
            "3 transaction(s) in domain 0"
        );
        assert_eq!(
            mariadb_missing("0-1-10,1-2-5", "0-1-10"),
            "5 transaction(s) in domain 1"
        );
        assert_eq!(mariadb_missing("0-1-10", "0-1-10"), "");
        assert_eq!(mariadb_missing("", ""), "");
    }

    #[test]
    fn waits_reach_only_on_zero() {
        assert!(wait_reached(Some(0)));
        assert!(!wait_reached(Some(-1)));
        assert!(!wait_reached(Some(1)));
        assert!(!wait_reached(None));
    }

    fn link_to(host: &str, port: u64, id: u64, uuid: Option<&str>) -> Link {
        Link {
            host: host.into(),
            port,
            source_server_id: id,
            source_uuid: uuid.map(str::to_string),
            io_running: true,
            sql_running: true,
            uses_gtid: true,
            last_error: None,
        }
    }

    #[test]
    fn sources_match_by_uuid_then_server_id_then_host_and_port() {
        let hosts = ["127.0.0.1".to_string(), "db1".to_string()];
        let primary = PrimarySelf {
            server_id: 7,
            server_uuid: Some("AAA"),
            port: 3306,
            hosts: &hosts,
        };
        assert!(same_source(
            Flavor::MySql,
            &link_to("x", 1, 9, Some("aaa")),
            &primary
        ));
        assert!(!same_source(
            Flavor::MySql,
            &link_to("127.0.0.1", 3306, 7, Some("bbb")),
            &primary
        ));
        assert!(same_source(
            Flavor::MariaDb,
            &link_to("x", 1, 7, None),
            &primary
        ));
        assert!(!same_source(
            Flavor::MariaDb,
            &link_to("127.0.0.1", 3306, 8, None),
            &primary
        ));
        assert!(same_source(
            Flavor::MariaDb,
            &link_to("localhost", 3306, 0, None),
            &primary
        ));
        assert!(!same_source(
            Flavor::MariaDb,
            &link_to("127.0.0.1", 3307, 0, None),
            &primary
        ));
    }
}
