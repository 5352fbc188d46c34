//! Reserved words per vendor: words a server refuses as an unquoted
//! identifier. The lists are data files beside this one (`keywords/*.txt`),
//! each naming the documentation page it was taken from; the catalog's
//! `reserved-word` lint asks [`Flavor::reserves`]. The tool quotes every
//! identifier it sends, so a reserved name breaks only hand-written SQL.

use std::collections::HashSet;
use std::sync::OnceLock;

use super::Flavor;

const MYSQL: &str = include_str!("keywords/mysql.txt");
const MARIADB: &str = include_str!("keywords/mariadb.txt");
const TIDB: &str = include_str!("keywords/tidb.txt");

/// The words of a list file: one per line, upper case, `#` comments.
fn words(text: &'static str) -> impl Iterator<Item = &'static str> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

fn set(
    cell: &'static OnceLock<HashSet<&'static str>>,
    text: &'static str,
) -> &'static HashSet<&'static str> {
    cell.get_or_init(|| words(text).collect())
}

impl Flavor {
    /// The vendor's reserved words (upper case), as its documentation
    /// lists them: MySQL 8.4/9.x, MariaDB 10.11, TiDB 8.5 (each file's
    /// header names its page).
    pub fn reserved_words(self) -> impl Iterator<Item = &'static str> {
        words(match self {
            Flavor::MySql => MYSQL,
            Flavor::MariaDb => MARIADB,
            Flavor::TiDb => TIDB,
        })
    }

    /// Whether `word` (any case) is reserved on this vendor.
    pub fn reserves(self, word: &str) -> bool {
        static SETS: [OnceLock<HashSet<&'static str>>; 3] =
            [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        let (cell, text) = match self {
            Flavor::MySql => (&SETS[0], MYSQL),
            Flavor::MariaDb => (&SETS[1], MARIADB),
            Flavor::TiDb => (&SETS[2], TIDB),
        };
        set(cell, text).contains(word.to_ascii_uppercase().as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_sorted_upper_case_and_unique() {
        for f in Flavor::ALL {
            let list: Vec<&str> = f.reserved_words().collect();
            let mut sorted = list.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(list, sorted, "{f}: sorted, each once");
            assert!(list.iter().all(|w| w
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')));
        }
        assert_eq!(Flavor::MySql.reserved_words().count(), 264);
    }

    #[test]
    fn words_differ_by_vendor() {
        assert!(Flavor::MySql.reserves("select") && Flavor::MariaDb.reserves("Select"));
        // MySQL 8.0.17+ reserves LATERAL; MariaDB 10.11 does not.
        assert!(Flavor::MySql.reserves("lateral") && !Flavor::MariaDb.reserves("lateral"));
        // MariaDB reserves RETURNING and OFFSET (10.6+); MySQL does not.
        assert!(Flavor::MariaDb.reserves("returning") && !Flavor::MySql.reserves("returning"));
        assert!(Flavor::MariaDb.reserves("offset") && !Flavor::MySql.reserves("offset"));
        // TiDB reserves its own words.
        assert!(
            Flavor::TiDb.reserves("tidb_current_tso")
                && !Flavor::MySql.reserves("tidb_current_tso")
        );
        assert!(!Flavor::TiDb.reserves("state") && !Flavor::MySql.reserves("name"));
    }
}
