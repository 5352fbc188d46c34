//! What each vendor can hold: every catalog feature or combination some
//! flavor refuses, with its source. [`Feature::lacking`] is the one place
//! the flavors without a feature are written; the catalog's flavor rules
//! (`catalog::rules::{flavored, refused, engines}`) find the uses in a
//! table and ask it, and `catalog import` narrows `flavors` by the same
//! answers.
//!
//! The MariaDB and MySQL facts were probed on MariaDB 10.11 and MySQL 9.7
//! (the error codes are in the catalog's messages, and
//! tests/it/lint_agrees_live.rs keeps them honest on both). TiDB is not
//! probed here: it follows MySQL's rules for generated columns and CHECK
//! constraints (its errno list carries 3109, 3763, 3812, 3814, 3818), so
//! it is grouped with MySQL there, and it parses `ENGINE` and ignores it
//! ("ENGINE ... parsed but ignored",
//! <https://docs.pingcap.com/tidb/stable/sql-statement-create-table/>), so
//! no engine fact concerns it.

use super::Flavor;

/// A catalog feature, or a combination of features, that some flavor
/// cannot hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Feature {
    // Columns.
    /// `invisible: true`: TiDB has no invisible columns.
    InvisibleColumn,
    /// A spatial type: "TiDB does not support ... spatial (GIS/GEOMETRY)
    /// functions, data types and indexes"
    /// (<https://docs.pingcap.com/tidb/stable/mysql-compatibility#unsupported-features>).
    SpatialType,
    /// `srid` on a spatial column: only MySQL 8.0.3+ restricts a column to
    /// one SRID. MariaDB 10.11's REF_SYSTEM_ID is neither enforced nor shown
    /// by SHOW CREATE TABLE (so no dump keeps it); TiDB has no spatial
    /// types.
    ColumnSrid,
    /// `VECTOR(D)`: TiDB has it since v8.4
    /// (<https://docs.pingcap.com/tidb/stable/vector-search-data-types>),
    /// MariaDB only since 11.7 (none in 10.11).
    VectorType,
    /// A literal default on a text, blob or json column: MySQL and TiDB
    /// refuse it (error 1101); MariaDB takes it (`DEFAULT '[]'` on json).
    LiteralDefaultOnLargeObject,
    /// An enum or set member over 255 characters: probed, MySQL refuses it
    /// (error 3505), MariaDB 10.11 keeps it whole; TiDB follows MySQL.
    LongEnumMember,
    /// A zero date default (a `00` month or day): MySQL's and TiDB's
    /// default sql_mode has NO_ZERO_DATE and NO_ZERO_IN_DATE (MariaDB
    /// 10.11's has neither): probed, error 1067.
    ZeroDateDefault,
    /// `nullable: false` on a generated column: MariaDB refuses NULL / NOT
    /// NULL on generated columns.
    NotNullGeneratedColumn,

    // Indexes.
    /// `WITH PARSER ngram` on a FULLTEXT index: only MySQL has `ngram`.
    /// MariaDB 10.11 answers it with 1128 "Function 'ngram' is not defined"
    /// (probed); TiDB lacks the FULLTEXT index itself ([`Feature::FullTextIndex`]).
    NgramParser,
    /// A FULLTEXT index: self-managed TiDB 8.5 parses FULLTEXT and drops it
    /// with warning 1214 "The used table type doesn't support FULLTEXT
    /// indexes" (pingcap/tidb pkg/ddl: `ErrTableCantHandleFt` appended as a
    /// warning in CREATE TABLE and ALTER TABLE ... ADD FULLTEXT): apply
    /// would succeed and leave the table without the index.
    FullTextIndex,
    /// A multi-valued index (a `CAST(... AS type ARRAY)` key part): MySQL
    /// 8.0.17+ (MySQL 8.4 manual, CREATE INDEX, "Multi-Valued Indexes");
    /// MariaDB 10.11 has neither functional key parts nor
    /// `CAST(... AS type ARRAY)` (a syntax error, 1064).
    MultiValuedIndex,
    /// An expression (functional) key part: MariaDB 10.11 indexes columns
    /// only.
    FunctionalKeyPart,
    /// A FULLTEXT index on a VIRTUAL generated column: MySQL refuses it
    /// (error 3106), MariaDB with error 1907. FULLTEXT keys stored values
    /// only.
    FullTextIndexOnVirtualGenerated,
    /// A SPATIAL index on a VIRTUAL generated column: MySQL refuses it
    /// (error 3106); MariaDB's generated columns are always nullable, so a
    /// SPATIAL key over one fails there anyway (1252).
    SpatialIndexOnVirtualGenerated,
    /// `visible: false` on the index that both servers promote to the
    /// primary key of a table without one (the first UNIQUE index over NOT
    /// NULL columns): MySQL refuses it invisible (error 3522), MariaDB
    /// IGNORED (error 4174).
    InvisibleImplicitPrimaryKey,
    /// `visible: false` on a unique index with a prefix part that MySQL
    /// promotes to the implicit primary key (MySQL counts a prefix part,
    /// MariaDB does not): MySQL and TiDB refuse it invisible (error 3522).
    InvisiblePrefixedImplicitPrimaryKey,
    /// `visible: false` on the index MariaDB promotes to the implicit
    /// primary key while MySQL promotes an earlier prefixed index instead:
    /// MariaDB refuses it IGNORED (error 4174).
    IgnoredImplicitPrimaryKeyAfterPrefixed,

    // Generated columns.
    /// A generated column calling `unix_timestamp(x)`, which depends on the
    /// session time zone: MySQL and TiDB refuse it (error 3763), MariaDB
    /// takes it.
    SessionTimeZoneCallInGenerated,
    /// A STORED or indexed generated column calling a function MariaDB reads
    /// the session's time zone or locale (`lc_time_names`) for
    /// (`date_format`, `dayname`, `from_unixtime`, `monthname`): MariaDB
    /// refuses it (error 1901); MySQL takes it.
    SessionLocaleCallInStoredGenerated,
    /// A VIRTUAL generated column no index uses calling a function whose
    /// value changes between reads: MySQL and TiDB refuse it in any
    /// generated column (error 3763); MariaDB evaluates such a column on
    /// every read and takes it.
    VolatileCallInVirtualGenerated,
    /// A STORED or indexed generated column calling a function whose value
    /// changes between reads: MySQL and TiDB refuse it in any generated
    /// column (error 3763), MariaDB in a STORED or indexed one (error 1901).
    VolatileCallInStoredGenerated,
    /// A generated column calling `found_rows`, `last_insert_id`,
    /// `row_count` or `sleep`: MySQL and TiDB refuse it (error 3763), and
    /// MariaDB even in a VIRTUAL column no index uses (error 1901).
    StatementStateCallInGenerated,
    /// A VIRTUAL unindexed generated column reading a user or system
    /// variable: MySQL and TiDB refuse it (error 3772); MariaDB takes it.
    VariableInVirtualGenerated,
    /// A STORED or indexed generated column reading a user or system
    /// variable: MySQL and TiDB refuse it (error 3772), MariaDB too (error
    /// 1901).
    VariableInStoredGenerated,
    /// A VIRTUAL unindexed generated column naming an auto_increment
    /// column: MySQL and TiDB refuse it (error 3109); MariaDB takes it.
    AutoIncrementInVirtualGenerated,
    /// A STORED or indexed generated column naming an auto_increment
    /// column: MySQL and TiDB refuse it (error 3109), MariaDB too (error
    /// 1901).
    AutoIncrementInStoredGenerated,

    // Foreign keys.
    /// A foreign key over a VIRTUAL generated column, on either side (a
    /// child column, or a referenced column of the parent): MySQL and TiDB
    /// refuse it (error 3733); MariaDB takes it.
    VirtualGeneratedFkColumn,
    /// A foreign key action that writes a STORED generated child column
    /// (ON UPDATE CASCADE / SET NULL / SET DEFAULT, ON DELETE SET NULL /
    /// SET DEFAULT): MySQL refuses it (error 3104), MariaDB (1905).
    FkActionWritingGeneratedColumn,
    /// A foreign key action that writes a column a STORED generated column
    /// is computed from: MySQL refuses it (error 1215), MariaDB (1901).
    FkActionWritingStoredGeneratedSource,
    /// `on_delete: cascade` over a column a STORED generated column is
    /// computed from: MySQL and TiDB refuse it (error 1215); MariaDB takes
    /// it.
    CascadeOverStoredGeneratedSource,

    // CHECK constraints.
    /// `enforced: false`: MariaDB enforces every CHECK, `NOT ENFORCED` is a
    /// syntax error there (10.11, probed: 1064). MySQL 8.0.16+ and TiDB take
    /// it.
    NotEnforcedCheck,
    /// A CHECK whose expression is a value, not a condition: MySQL and TiDB
    /// refuse it (error 3812); MariaDB takes it.
    ValueCheck,
    /// A CHECK calling `unix_timestamp(x)` (the session time zone): MySQL
    /// and TiDB refuse it (error 3814); MariaDB takes it.
    SessionTimeZoneCallInCheck,
    /// A CHECK calling `sysdate()`: probed, MySQL 9.7 takes it, MariaDB
    /// refuses it (error 1901).
    SysdateInCheck,
    /// A CHECK calling a function MariaDB reads the session's time zone or
    /// locale for: MariaDB refuses it (error 1901); MySQL takes it.
    SessionLocaleCallInCheck,
    /// A CHECK calling a function whose value changes between reads: MySQL
    /// refuses it (error 3814), MariaDB (1901).
    VolatileCallInCheck,
    /// A CHECK reading a user or system variable: MySQL refuses it (error
    /// 3816), MariaDB (1901).
    VariableInCheck,
    /// A CHECK naming an auto_increment column: MySQL refuses it (error
    /// 3818), MariaDB (1901).
    AutoIncrementInCheck,
    /// A CHECK naming a column a foreign key's action writes: MySQL refuses
    /// it (error 3823), MariaDB (1901).
    FkWrittenColumnInCheck,

    // Engines. TiDB parses `ENGINE` and ignores it (see the module doc),
    // so each of these lacks MySQL and MariaDB only, or MySQL only.
    /// `engine: Aria`: MySQL has no Aria engine (Aria is MariaDB's own, KB
    /// "Aria Storage Engine"; MySQL 9.7 refuses `ENGINE=Aria` with error
    /// 1286, unknown storage engine, probed here).
    AriaEngine,
    /// A foreign key on a table of another engine than InnoDB: only InnoDB
    /// keeps foreign keys; MySQL and MariaDB create the table and drop the
    /// key without an error.
    ForeignKeyOnNonInnoDb,
    /// A BLOB/TEXT column (json, spatial and vector are stored as such) on
    /// a MEMORY table: MEMORY holds none (error 1163).
    LargeObjectOnMemory,
    /// A FULLTEXT index on a MEMORY table, which has none (error 1214).
    FullTextIndexOnMemory,
    /// A key on a CSV table, which has none (error 1069 "max 0 keys
    /// allowed").
    KeyOnCsv,
    /// A nullable column on a CSV table, which holds none (error 1178).
    NullableOnCsv,
}

const TIDB: &[Flavor] = &[Flavor::TiDb];
const MARIADB: &[Flavor] = &[Flavor::MariaDb];
const MYSQL: &[Flavor] = &[Flavor::MySql];
const MYSQL_TIDB: &[Flavor] = &[Flavor::TiDb, Flavor::MySql];
const MARIADB_TIDB: &[Flavor] = &[Flavor::TiDb, Flavor::MariaDb];
/// The flavors whose tables honour `ENGINE`: MySQL and MariaDB. TiDB
/// parses it and ignores it, its tables are TiKV's ("ENGINE ... parsed but
/// ignored", <https://docs.pingcap.com/tidb/stable/sql-statement-create-table/>).
const HONOURING_ENGINE: &[Flavor] = &[Flavor::MySql, Flavor::MariaDb];

impl Feature {
    /// The flavors that cannot hold `self` (all of them when no server
    /// does); the facts and their sources are on each variant.
    pub(crate) fn lacking(self) -> &'static [Flavor] {
        use Feature::*;
        match self {
            InvisibleColumn | SpatialType | FullTextIndex => TIDB,
            ColumnSrid => MARIADB_TIDB,
            VectorType
            | NotNullGeneratedColumn
            | NgramParser
            | MultiValuedIndex
            | FunctionalKeyPart
            | IgnoredImplicitPrimaryKeyAfterPrefixed
            | SessionLocaleCallInStoredGenerated
            | NotEnforcedCheck
            | SysdateInCheck
            | SessionLocaleCallInCheck => MARIADB,
            LiteralDefaultOnLargeObject
            | LongEnumMember
            | ZeroDateDefault
            | InvisiblePrefixedImplicitPrimaryKey
            | SessionTimeZoneCallInGenerated
            | VolatileCallInVirtualGenerated
            | VariableInVirtualGenerated
            | AutoIncrementInVirtualGenerated
            | VirtualGeneratedFkColumn
            | CascadeOverStoredGeneratedSource
            | ValueCheck
            | SessionTimeZoneCallInCheck => MYSQL_TIDB,
            FullTextIndexOnVirtualGenerated
            | SpatialIndexOnVirtualGenerated
            | InvisibleImplicitPrimaryKey
            | VolatileCallInStoredGenerated
            | StatementStateCallInGenerated
            | VariableInStoredGenerated
            | AutoIncrementInStoredGenerated
            | FkActionWritingGeneratedColumn
            | FkActionWritingStoredGeneratedSource
            | VolatileCallInCheck
            | VariableInCheck
            | AutoIncrementInCheck
            | FkWrittenColumnInCheck => &Flavor::ALL,
            AriaEngine => MYSQL,
            ForeignKeyOnNonInnoDb
            | LargeObjectOnMemory
            | FullTextIndexOnMemory
            | KeyOnCsv
            | NullableOnCsv => HONOURING_ENGINE,
        }
    }

    /// Whether a catalog that targets `flavors` cannot hold `self` on one
    /// of them.
    pub(crate) fn lacked_by_any(self, flavors: &[Flavor]) -> bool {
        self.lacking().iter().any(|f| flavors.contains(f))
    }

    /// Whether no flavor can hold `self`: `catalog check` refuses it
    /// whatever the catalog targets, and it narrows no `flavors` list.
    pub(crate) fn held_nowhere(self) -> bool {
        Flavor::ALL.iter().all(|f| self.lacking().contains(f))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lacking(feature: Feature) -> Vec<Flavor> {
        let mut out = feature.lacking().to_vec();
        out.sort();
        out
    }

    #[test]
    fn each_vendor_lacks_its_own_features() {
        use Flavor::*;
        assert_eq!(lacking(Feature::FullTextIndex), [TiDb]);
        assert_eq!(lacking(Feature::InvisibleColumn), [TiDb]);
        assert_eq!(lacking(Feature::ZeroDateDefault), [TiDb, MySql]);
        assert_eq!(lacking(Feature::VirtualGeneratedFkColumn), [TiDb, MySql]);
        assert_eq!(lacking(Feature::FunctionalKeyPart), [MariaDb]);
        assert_eq!(lacking(Feature::SysdateInCheck), [MariaDb]);
        assert_eq!(lacking(Feature::ColumnSrid), [TiDb, MariaDb]);
        assert_eq!(lacking(Feature::AriaEngine), [MySql]);
        assert_eq!(lacking(Feature::ForeignKeyOnNonInnoDb), [MySql, MariaDb]);
        assert_eq!(
            lacking(Feature::VolatileCallInCheck),
            [TiDb, MySql, MariaDb]
        );
    }

    #[test]
    fn held_nowhere_only_when_every_flavor_lacks_it() {
        assert!(Feature::VolatileCallInStoredGenerated.held_nowhere());
        assert!(Feature::InvisibleImplicitPrimaryKey.held_nowhere());
        assert!(!Feature::VolatileCallInVirtualGenerated.held_nowhere());
        // TiDB ignores ENGINE, so an engine fact narrows to TiDB.
        assert!(!Feature::KeyOnCsv.held_nowhere());
    }

    #[test]
    fn lacked_by_any_target() {
        use Flavor::*;
        assert!(Feature::FunctionalKeyPart.lacked_by_any(&[MySql, MariaDb]));
        assert!(!Feature::FunctionalKeyPart.lacked_by_any(&[MySql, TiDb]));
        assert!(!Feature::AriaEngine.lacked_by_any(&[MariaDb, TiDb]));
        assert!(!Feature::SysdateInCheck.lacked_by_any(&[]));
    }
}
