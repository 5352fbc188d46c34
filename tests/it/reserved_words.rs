//! The `reserved-word` lint's keyword lists against the live servers' own:
//! on MySQL the list must equal `information_schema.KEYWORDS WHERE
//! RESERVED = 1`; MariaDB (10.6+) publishes `information_schema.KEYWORDS`
//! without a RESERVED column, so every listed word must be in it. On both,
//! each listed word must be refused as an unquoted column name (error
//! 1064; MariaDB's exceptions are named in its list file), and a keyword
//! outside the list accepted. Run once per server.

use crate::common;

use common::TestDb;
use mysql_async::prelude::*;
use schema_catalog::Flavor;

/// The server's own list: the reserved words on MySQL, every keyword on
/// MariaDB.
async fn server_words(db: &TestDb) -> Vec<String> {
    let mut conn = db.pool.get_conn().await.expect("connect");
    let sql = match db.flavor {
        Flavor::MySql => "SELECT WORD FROM information_schema.KEYWORDS WHERE RESERVED = 1",
        _ => "SELECT WORD FROM information_schema.KEYWORDS",
    };
    let mut words: Vec<String> = conn.query(sql).await.expect("read KEYWORDS");
    words.iter_mut().for_each(|w| *w = w.to_ascii_uppercase());
    words.sort();
    words
}

/// Error code of `CREATE TABLE t_<word> (<word> INT)`, `None` when it runs.
async fn unquoted_column(db: &TestDb, word: &str) -> Option<u16> {
    let mut conn = db.pool.get_conn().await.expect("connect");
    let sql = format!("CREATE TABLE t_{word} ({word} INT)");
    match conn.query_drop(sql).await {
        Ok(()) => None,
        Err(mysql_async::Error::Server(e)) => Some(e.code),
        Err(e) => panic!("{word}: {e}"),
    }
}

#[tokio::test]
async fn the_keyword_list_matches_the_live_server() {
    let db = TestDb::new().await;
    let ours: Vec<String> = db.flavor.reserved_words().map(str::to_string).collect();
    let theirs = server_words(&db).await;
    match db.flavor {
        Flavor::MySql => {
            let missing: Vec<_> = theirs.iter().filter(|w| !ours.contains(w)).collect();
            let extra: Vec<_> = ours.iter().filter(|w| !theirs.contains(w)).collect();
            assert!(
                missing.is_empty() && extra.is_empty(),
                "{}: the server reserves {missing:?} that src/server/keywords/mysql.txt lacks, and the list has {extra:?} the server does not reserve",
                db.version
            );
            assert_eq!(ours.len(), 264, "MySQL 9.7 reserves 264 words");
        }
        _ => {
            let unknown: Vec<_> = ours.iter().filter(|w| !theirs.contains(w)).collect();
            assert!(
                unknown.is_empty(),
                "{}: src/server/keywords/mariadb.txt lists {unknown:?}, which information_schema.KEYWORDS does not know",
                db.version
            );
        }
    }
    // Every listed word is refused as an unquoted column name (1064, a
    // syntax error), except the ones MariaDB's page lists that 10.11's
    // parser takes in a column definition (src/server/keywords/mariadb.txt);
    // a keyword the list leaves out is accepted.
    let accepted: &[&str] = match db.flavor {
        Flavor::MariaDb => &[
            "DATABASE",
            "GENERAL",
            "IGNORE_SERVER_IDS",
            "MASTER_HEARTBEAT_PERIOD",
            "OPTION",
            "SCHEMA",
            "SLOW",
            "WINDOW",
        ],
        _ => &[],
    };
    let mut taken = Vec::new();
    for word in &ours {
        match unquoted_column(&db, word).await {
            None => taken.push(word.as_str()),
            Some(1064) => {}
            Some(code) => panic!("{}: `{word}`: error {code}", db.version),
        }
    }
    assert_eq!(
        taken, accepted,
        "{}: listed words the server takes unquoted",
        db.version
    );
    for word in ["rank", "offset", "lateral", "qualify", "returning"] {
        if !db.flavor.reserves(word) {
            assert_eq!(
                unquoted_column(&db, word).await,
                None,
                "{}: `{word}`",
                db.version
            );
        }
    }
}
