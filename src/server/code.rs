//! Server error codes, named by what they mean to the tool: call sites ask
//! `code::already_exists(c)`, never compare with a bare number. Codes are
//! MySQL's and MariaDB's (TiDB uses MySQL's numbers).

/// A concurrent actor created it first: 1050 table exists, 1060
/// duplicate column name, 1061 duplicate key name.
pub(crate) fn already_exists(code: u16) -> bool {
    matches!(code, 1050 | 1060 | 1061)
}

/// 1061, duplicate key name (TiDB also answers it while its own
/// background job still adds the index).
pub(crate) fn duplicate_key_name(code: u16) -> bool {
    code == 1061
}

/// Not with this algorithm: 1845/1846 (the algorithm or lock is not
/// supported for the change) and MySQL's 4092 (the table has used up its
/// instant row versions; INPLACE still works online).
pub(crate) fn not_online(code: u16) -> bool {
    matches!(code, 1845 | 1846 | 4092)
}

/// 1205, lock wait timeout: the metadata lock was not granted within
/// `lock_wait_timeout`.
pub(crate) fn lock_wait_timeout(code: u16) -> bool {
    code == 1205
}

/// The statement was cancelled: 1317 (KILL QUERY), MariaDB's 1969
/// (max_statement_time).
pub(crate) fn query_interrupted(code: u16) -> bool {
    matches!(code, 1317 | 1969)
}

/// The server ended the connection: MariaDB's 1927 (connection killed),
/// MySQL's 4031 (idle disconnect), 1053 (shutdown in progress).
pub(crate) fn connection_ended(code: u16) -> bool {
    matches!(code, 1927 | 4031 | 1053)
}

/// The server ended the statement at its session's statement time
/// limit: MySQL's and TiDB's 3024 (ER_QUERY_TIMEOUT,
/// `max_execution_time`), MariaDB's 1969 (ER_STATEMENT_TIMEOUT,
/// `max_statement_time`).
pub(crate) fn statement_timeout(code: u16) -> bool {
    matches!(code, 3024 | 1969)
}

/// 1193, unknown system variable.
pub(crate) fn unknown_variable(code: u16) -> bool {
    code == 1193
}

/// 1049, unknown database.
pub(crate) fn unknown_database(code: u16) -> bool {
    code == 1049
}

/// The login was refused: 1045 access denied, 1698 access denied
/// without a password (MariaDB's unix_socket user).
pub(crate) fn access_denied(code: u16) -> bool {
    matches!(code, 1045 | 1698)
}

/// A failure the server reports in the middle of an index build, after
/// it has scanned the table: what caused it and which server setting
/// governs it. InnoDB rolls the ALTER back, so the index is not left
/// half-built (MySQL Reference Manual, "Online DDL Failure Conditions";
/// MariaDB KB "InnoDB Online DDL Operations with the INPLACE Alter
/// Algorithm", limitations).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BuildFailure {
    /// The server's error name.
    pub name: &'static str,
    /// What happened, in words.
    pub cause: &'static str,
    /// The server setting(s) involved, and what to do.
    pub setting: &'static str,
    /// Whether the server's message may carry row values (1062 names the
    /// duplicate key's value): such a message is never shown.
    pub message_has_values: bool,
}

/// The mid-build failures known by code (1034 is MariaDB's answer for
/// 1799, below): 1062 ER_DUP_ENTRY (a concurrent
/// write made a duplicate while an online ADD UNIQUE ran; the online log
/// is applied at the end and the duplicate fails the ALTER), 1878
/// ER_TEMP_FILE_WRITE_FAILURE (the sort files of the build did not fit in
/// the temporary directory), 1799 ER_INNODB_ONLINE_LOG_TOO_BIG (the
/// concurrent writes logged during the build exceeded
/// `innodb_online_alter_log_max_size`), 1114 ER_RECORD_FILE_FULL (the
/// tablespace or the disk of the data directory is full). Codes and names
/// are MySQL's (Server Error Message Reference) and MariaDB's (KB
/// "MariaDB Error Codes"), the same numbers on both.
pub(crate) fn build_failure(code: u16) -> Option<BuildFailure> {
    Some(match code {
        1062 => BuildFailure {
            name: "ER_DUP_ENTRY",
            cause: "a duplicate key value appeared while the unique index was being built \
                    (a concurrent write inserted or updated a row to a value another row has)",
            setting: "no server setting: the table's data. Remove the duplicates (or stop the \
                      writer making them) and rerun apply",
            message_has_values: true,
        },
        1878 => BuildFailure {
            name: "ER_TEMP_FILE_WRITE_FAILURE",
            cause: "the index build's temporary sort files did not fit in the server's \
                    temporary directory",
            setting: "`innodb_tmpdir` (or `tmpdir` when it is empty): give it room for about \
                      the index's size, then rerun apply",
            message_has_values: false,
        },
        1799 => BuildFailure {
            name: "ER_INNODB_ONLINE_LOG_TOO_BIG",
            cause: "the writes made to the table while the index was being built outgrew the \
                    online alter log",
            setting: "`innodb_online_alter_log_max_size`: raise it, or rerun apply when the \
                      table is written less",
            message_has_values: false,
        },
        // MariaDB 10.11 reports an online ADD INDEX whose concurrent
        // writes outgrew the online alter log as 1034 ER_NOT_KEYFILE
        // ("Index for table ... is corrupt"): the log writer marks the
        // index being built corrupt (storage/innobase/row/row0log.cc,
        // row_log_online_op) and the build then fails with it. Measured
        // on 10.11.19 with innodb_online_alter_log_max_size = 64 KB
        // (tests/it/mid_build_live.rs). MySQL answers 1799 for the same.
        1034 => BuildFailure {
            name: "ER_NOT_KEYFILE",
            cause: "the index being built was marked corrupt: on MariaDB this is how an \
                    online build reports that the writes made to the table meanwhile \
                    outgrew the online alter log",
            setting: "`innodb_online_alter_log_max_size`: raise it, or rerun apply when the \
                      table is written less",
            message_has_values: false,
        },
        1114 => BuildFailure {
            name: "ER_RECORD_FILE_FULL",
            cause: "the table is full: its tablespace could not grow (the data directory's \
                    disk is full, or the tablespace reached its maximum size)",
            setting: "the data directory's free space (and, for a table in the system \
                      tablespace, the `:max:` size in `innodb_data_file_path`): free or add \
                      space, then rerun apply",
            message_has_values: false,
        },
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mid_build_failures_are_known_and_name_a_setting() {
        for (code, setting) in [
            (1062, "no server setting"),
            (1878, "innodb_tmpdir"),
            (1799, "innodb_online_alter_log_max_size"),
            (1034, "innodb_online_alter_log_max_size"),
            (1114, "the data directory's free space"),
        ] {
            let f = build_failure(code).expect("known");
            assert!(f.setting.contains(setting), "{code}: {}", f.setting);
        }
        assert!(build_failure(1062).unwrap().message_has_values);
        assert_eq!(build_failure(1146), None);
    }
}
