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
