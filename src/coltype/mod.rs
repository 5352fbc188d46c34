//! Typed column types: parsed from catalog text, live COLUMN_TYPE or dumps, rendered back.

use std::fmt;

mod capacity;
mod members;
mod spatial;

pub use capacity::{auto_increment_use, AutoIncrementUse};
pub use spatial::SpatialKind;

/// Integer widths.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IntKind {
    /// 1 byte.
    Tiny,
    /// 2 bytes.
    Small,
    /// 3 bytes.
    Medium,
    /// 4 bytes.
    Int,
    /// 8 bytes.
    Big,
}

impl IntKind {
    fn name(self) -> &'static str {
        match self {
            IntKind::Tiny => "tinyint",
            IntKind::Small => "smallint",
            IntKind::Medium => "mediumint",
            IntKind::Int => "int",
            IntKind::Big => "bigint",
        }
    }
    /// The values the type holds.
    pub fn range(self, unsigned: bool) -> (i128, i128) {
        let bits = self.bytes() * 8;
        if unsigned {
            (0, (1i128 << bits) - 1)
        } else {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        }
    }

    fn bytes(self) -> u32 {
        match self {
            IntKind::Tiny => 1,
            IntKind::Small => 2,
            IntKind::Medium => 3,
            IntKind::Int => 4,
            IntKind::Big => 8,
        }
    }
}

/// A column type the catalog supports (SPEC "Types"). Display widths are not
/// part of the type: `int(11)` and `int` are the same type; `boolean` is
/// `tinyint(1)`, kept apart from a plain `tinyint`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ColumnType {
    /// Integer, optionally unsigned.
    Int {
        /// Width: tiny, small, medium, int, big.
        kind: IntKind,
        /// `unsigned`.
        unsigned: bool,
    },
    /// `boolean`, stored as `tinyint(1)`.
    Boolean,
    /// `decimal(precision, scale)`.
    Decimal {
        /// Total digits.
        precision: u32,
        /// Digits after the point.
        scale: u32,
    },
    /// `float`.
    Float,
    /// `double`.
    Double,
    /// `char(n)`.
    Char(u32),
    /// `varchar(n)`.
    Varchar(u32),
    /// `binary(n)`.
    Binary(u32),
    /// `varbinary(n)`.
    Varbinary(u32),
    /// `text`.
    Text,
    /// `mediumtext`.
    MediumText,
    /// `longtext`.
    LongText,
    /// `blob`.
    Blob,
    /// `mediumblob`.
    MediumBlob,
    /// `longblob`.
    LongBlob,
    /// `json` (MariaDB stores it as longtext with a json_valid CHECK).
    Json,
    /// `date`.
    Date,
    /// `datetime(p)`, p = fractional-second digits (0..=6).
    DateTime(u8),
    /// `timestamp(p)`.
    Timestamp(u8),
    /// `time(p)`.
    Time(u8),
    /// `year` (MariaDB shows `year(4)`; the same type).
    Year,
    /// `bit(n)`, 1..=64.
    Bit(u32),
    /// `tinytext`.
    TinyText,
    /// `tinyblob`.
    TinyBlob,
    /// `enum('a','b')`: members in declared order, case kept.
    Enum(Vec<String>),
    /// `set('a','b')`: members in declared order, case kept.
    Set(Vec<String>),
    /// A spatial type, with the column's SRID where one is declared
    /// (MySQL 8.0.3+ `SRID n`, shown as `point SRID 4326`).
    Spatial {
        /// Which spatial type.
        kind: SpatialKind,
        /// The spatial reference system the column is restricted to.
        srid: Option<u32>,
    },
    /// `vector(n)`: n 4-byte floats (MySQL 9.0+, TiDB v8.4+; not MariaDB 10.11).
    Vector(u32),
    /// A live type the catalog cannot declare (`enum(...)`, `bit(1)`, ...),
    /// kept as lowercase `COLUMN_TYPE` text so inspection never fails on
    /// unmanaged columns; never equal to a catalog type. Never produced by `parse`.
    Other(String),
}

/// A type text that names no supported type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownType(pub String);

impl ColumnType {
    /// Parses a type as written in a catalog, a live `COLUMN_TYPE` or a dump:
    /// case-insensitive, tolerant of integer display widths and `zerofill`-free
    /// spellings such as `int(10) unsigned`, `bool`, `integer`, `numeric`.
    pub fn parse(text: &str) -> Result<ColumnType, UnknownType> {
        let err = || UnknownType(text.trim().to_string());
        if let Some(t) = members::parse_enum_or_set(text) {
            return t.ok_or_else(err);
        }
        let norm = text.trim().to_ascii_lowercase();
        let mut words: Vec<&str> = norm.split_whitespace().collect();
        if let Some(parsed) = spatial::parse(&words) {
            return parsed
                .map(|(kind, srid)| ColumnType::Spatial { kind, srid })
                .map_err(|_| err());
        }
        let unsigned = words.last() == Some(&"unsigned");
        if unsigned {
            words.pop();
        }
        if words.last() == Some(&"signed") {
            words.pop();
        }
        if words.len() != 1 {
            return Err(err());
        }
        let word = words[0];
        let (base, args) = match word.find('(') {
            Some(i) if word.ends_with(')') => {
                let inner = &word[i + 1..word.len() - 1];
                let args: Result<Vec<u32>, _> =
                    inner.split(',').map(|a| a.trim().parse::<u32>()).collect();
                (&word[..i], Some(args.map_err(|_| err())?))
            }
            Some(_) => return Err(err()),
            None => (word, None),
        };
        let one = |args: &Option<Vec<u32>>| -> Result<Option<u32>, UnknownType> {
            match args.as_deref() {
                None => Ok(None),
                Some([n]) => Ok(Some(*n)),
                _ => Err(err()),
            }
        };
        let int = |kind| -> Result<ColumnType, UnknownType> {
            one(&args)?;
            Ok(ColumnType::Int { kind, unsigned })
        };
        let no_unsigned = |t: ColumnType| if unsigned { Err(err()) } else { Ok(t) };
        let need_len = |f: fn(u32) -> ColumnType| -> Result<ColumnType, UnknownType> {
            match one(&args)? {
                Some(n) if !unsigned => Ok(f(n)),
                _ => Err(err()),
            }
        };
        let frac = |f: fn(u8) -> ColumnType| -> Result<ColumnType, UnknownType> {
            match one(&args)? {
                None if !unsigned => Ok(f(0)),
                Some(p) if p <= 6 && !unsigned => Ok(f(p as u8)),
                _ => Err(err()),
            }
        };
        match base {
            "tinyint" if args.as_deref() == Some(&[1]) && !unsigned => Ok(ColumnType::Boolean),
            "tinyint" => int(IntKind::Tiny),
            "smallint" => int(IntKind::Small),
            "mediumint" => int(IntKind::Medium),
            "int" | "integer" => int(IntKind::Int),
            "bigint" => int(IntKind::Big),
            "boolean" | "bool" if args.is_none() => no_unsigned(ColumnType::Boolean),
            "decimal" | "numeric" if !unsigned => match args.as_deref() {
                None => Ok(ColumnType::Decimal {
                    precision: 10,
                    scale: 0,
                }),
                Some([p]) if (1..=65).contains(p) => Ok(ColumnType::Decimal {
                    precision: *p,
                    scale: 0,
                }),
                Some([p, s]) if (1..=65).contains(p) && s <= p && *s <= 30 => {
                    Ok(ColumnType::Decimal {
                        precision: *p,
                        scale: *s,
                    })
                }
                _ => Err(err()),
            },
            "float" if args.is_none() => no_unsigned(ColumnType::Float),
            "double" if args.is_none() => no_unsigned(ColumnType::Double),
            "char" => match one(&args)? {
                None if !unsigned => Ok(ColumnType::Char(1)),
                Some(n) if n <= 255 && !unsigned => Ok(ColumnType::Char(n)),
                _ => Err(err()),
            },
            "varchar" => need_len(ColumnType::Varchar),
            "binary" => match one(&args)? {
                None if !unsigned => Ok(ColumnType::Binary(1)),
                Some(n) if n <= 255 && !unsigned => Ok(ColumnType::Binary(n)),
                _ => Err(err()),
            },
            "varbinary" => need_len(ColumnType::Varbinary),
            "text" if args.is_none() => no_unsigned(ColumnType::Text),
            "mediumtext" if args.is_none() => no_unsigned(ColumnType::MediumText),
            "longtext" if args.is_none() => no_unsigned(ColumnType::LongText),
            "blob" if args.is_none() => no_unsigned(ColumnType::Blob),
            "mediumblob" if args.is_none() => no_unsigned(ColumnType::MediumBlob),
            "longblob" if args.is_none() => no_unsigned(ColumnType::LongBlob),
            "json" if args.is_none() => no_unsigned(ColumnType::Json),
            "date" if args.is_none() => no_unsigned(ColumnType::Date),
            "datetime" => frac(ColumnType::DateTime),
            "timestamp" => frac(ColumnType::Timestamp),
            "time" => frac(ColumnType::Time),
            "year" if matches!(args.as_deref(), None | Some([4])) => no_unsigned(ColumnType::Year),
            "bit" => match one(&args)? {
                None if !unsigned => Ok(ColumnType::Bit(1)),
                Some(n) if (1..=64).contains(&n) && !unsigned => Ok(ColumnType::Bit(n)),
                _ => Err(err()),
            },
            // MySQL 9 allows 1..=16383 dimensions; TiDB's limit is the same.
            "vector" => match one(&args)? {
                Some(n) if (1..=16383).contains(&n) && !unsigned => Ok(ColumnType::Vector(n)),
                _ => Err(err()),
            },
            "tinytext" if args.is_none() => no_unsigned(ColumnType::TinyText),
            "tinyblob" if args.is_none() => no_unsigned(ColumnType::TinyBlob),
            _ => Err(err()),
        }
    }

    /// Whether values carry a character set and collation.
    pub fn is_textual(&self) -> bool {
        matches!(
            self,
            ColumnType::Char(_)
                | ColumnType::Varchar(_)
                | ColumnType::TinyText
                | ColumnType::Text
                | ColumnType::MediumText
                | ColumnType::LongText
                | ColumnType::Enum(_)
                | ColumnType::Set(_)
        )
    }

    /// Whether the type can be an index key part without a prefix length.
    pub fn is_indexable_whole(&self) -> bool {
        !self.is_large_object()
    }

    /// text, blob, json, spatial and vector types: no whole-column B-tree
    /// key, no literal default on MySQL/TiDB.
    pub fn is_large_object(&self) -> bool {
        matches!(
            self,
            ColumnType::Spatial { .. }
                | ColumnType::Vector(_)
                | ColumnType::TinyText
                | ColumnType::Text
                | ColumnType::MediumText
                | ColumnType::LongText
                | ColumnType::TinyBlob
                | ColumnType::Blob
                | ColumnType::MediumBlob
                | ColumnType::LongBlob
                | ColumnType::Json
        )
    }

    /// Whether the type is an integer (AUTO_INCREMENT is allowed).
    pub fn is_integer(&self) -> bool {
        matches!(self, ColumnType::Int { .. })
    }

    /// Whether literal defaults compare as numbers.
    pub fn is_numeric(&self) -> bool {
        matches!(
            self,
            ColumnType::Int { .. }
                | ColumnType::Boolean
                | ColumnType::Decimal { .. }
                | ColumnType::Float
                | ColumnType::Double
                | ColumnType::Year
        )
    }

    /// Bytes this column takes in an index key (InnoDB / TiDB accounting),
    /// given the max bytes per character of its charset. `None` for types
    /// that cannot be a whole key part.
    pub fn key_bytes(&self, charset_max_bytes: u32) -> Option<u32> {
        let frac = |p: u8| u32::from(p).div_ceil(2);
        Some(match self {
            ColumnType::Int { kind, .. } => kind.bytes(),
            ColumnType::Boolean => 1,
            ColumnType::Decimal { precision, scale } => decimal_bytes(*precision, *scale),
            ColumnType::Float => 4,
            ColumnType::Double => 8,
            ColumnType::Char(n) | ColumnType::Varchar(n) => n * charset_max_bytes,
            ColumnType::Binary(n) | ColumnType::Varbinary(n) => *n,
            ColumnType::Date => 3,
            ColumnType::DateTime(p) => 5 + frac(*p),
            ColumnType::Timestamp(p) => 4 + frac(*p),
            ColumnType::Time(p) => 3 + frac(*p),
            ColumnType::Year => 1,
            ColumnType::Bit(n) => n.div_ceil(8),
            // InnoDB: 1 byte up to 255 members, else 2.
            ColumnType::Enum(m) => {
                if m.len() <= 255 {
                    1
                } else {
                    2
                }
            }
            // InnoDB: (members + 7) / 8 bytes, 1, 2, 3, 4 or 8.
            ColumnType::Set(m) => match (m.len() as u32).div_ceil(8) {
                n @ 0..=4 => n.max(1),
                _ => 8,
            },
            _ => return None,
        })
    }
}

/// Storage bytes of DECIMAL(p,s): 4 bytes per 9 digits on each side of the point.
fn decimal_bytes(precision: u32, scale: u32) -> u32 {
    const PARTIAL: [u32; 10] = [0, 1, 1, 2, 2, 3, 3, 4, 4, 4];
    let side = |digits: u32| (digits / 9) * 4 + PARTIAL[(digits % 9) as usize];
    side(precision - scale) + side(scale)
}

impl fmt::Display for ColumnType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ColumnType::Int { kind, unsigned } => {
                f.write_str(kind.name())?;
                if *unsigned {
                    f.write_str(" unsigned")?;
                }
                Ok(())
            }
            ColumnType::Boolean => f.write_str("tinyint(1)"),
            ColumnType::Decimal { precision, scale } => write!(f, "decimal({precision},{scale})"),
            ColumnType::Float => f.write_str("float"),
            ColumnType::Double => f.write_str("double"),
            ColumnType::Char(n) => write!(f, "char({n})"),
            ColumnType::Varchar(n) => write!(f, "varchar({n})"),
            ColumnType::Binary(n) => write!(f, "binary({n})"),
            ColumnType::Varbinary(n) => write!(f, "varbinary({n})"),
            ColumnType::Text => f.write_str("text"),
            ColumnType::MediumText => f.write_str("mediumtext"),
            ColumnType::LongText => f.write_str("longtext"),
            ColumnType::Blob => f.write_str("blob"),
            ColumnType::MediumBlob => f.write_str("mediumblob"),
            ColumnType::LongBlob => f.write_str("longblob"),
            ColumnType::Json => f.write_str("json"),
            ColumnType::Date => f.write_str("date"),
            ColumnType::DateTime(0) => f.write_str("datetime"),
            ColumnType::DateTime(p) => write!(f, "datetime({p})"),
            ColumnType::Timestamp(0) => f.write_str("timestamp"),
            ColumnType::Timestamp(p) => write!(f, "timestamp({p})"),
            ColumnType::Time(0) => f.write_str("time"),
            ColumnType::Time(p) => write!(f, "time({p})"),
            ColumnType::Year => f.write_str("year"),
            ColumnType::Bit(n) => write!(f, "bit({n})"),
            ColumnType::TinyText => f.write_str("tinytext"),
            ColumnType::TinyBlob => f.write_str("tinyblob"),
            ColumnType::Enum(m) => members::write("enum", m, f),
            ColumnType::Set(m) => members::write("set", m, f),
            ColumnType::Spatial { kind, srid } => spatial::write(*kind, *srid, f),
            ColumnType::Vector(n) => write!(f, "vector({n})"),
            ColumnType::Other(text) => f.write_str(text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_widths_are_ignored() {
        assert_eq!(
            ColumnType::parse("int(11)").unwrap(),
            ColumnType::parse("INT").unwrap()
        );
        assert_eq!(
            ColumnType::parse("bigint(20) unsigned").unwrap(),
            ColumnType::Int {
                kind: IntKind::Big,
                unsigned: true
            }
        );
    }

    #[test]
    fn boolean_is_tinyint_1() {
        assert_eq!(
            ColumnType::parse("boolean").unwrap(),
            ColumnType::parse("tinyint(1)").unwrap()
        );
        assert_ne!(ColumnType::parse("tinyint").unwrap(), ColumnType::Boolean);
        assert_eq!(ColumnType::Boolean.to_string(), "tinyint(1)");
    }

    #[test]
    fn unknown_types_are_refused() {
        for bad in [
            "enum()",
            "enum('a'",
            "set('a',b)",
            "varchar",
            "geometry(1)",
            "point srid",
            "point srid x",
            "vector",
            "vector(0)",
            "datetime(7)",
            "text unsigned",
            "year(2)",
            "bit(0)",
            "bit(65)",
            "time(7)",
            "varchar(x)",
        ] {
            assert!(ColumnType::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn round_trips_through_display() {
        for t in [
            "bigint unsigned",
            "decimal(12,4)",
            "varchar(128)",
            "datetime(6)",
            "timestamp",
            "json",
            "binary(16)",
            "time(3)",
            "year",
            "bit(12)",
            "tinytext",
            "tinyblob",
            "enum('Pending','it''s','a,b')",
            "set('x','Y')",
            "geometry",
            "point SRID 4326",
            "geometrycollection",
            "vector(3)",
        ] {
            assert_eq!(ColumnType::parse(t).unwrap().to_string(), t);
        }
    }

    #[test]
    fn new_scalar_types_parse_as_servers_show_them() {
        assert_eq!(ColumnType::parse("year(4)").unwrap(), ColumnType::Year);
        assert_eq!(ColumnType::parse("bit").unwrap(), ColumnType::Bit(1));
        assert_eq!(ColumnType::parse("TIME").unwrap(), ColumnType::Time(0));
        assert_eq!(
            ColumnType::parse("ENUM('A', 'b')").unwrap(),
            ColumnType::Enum(vec!["A".into(), "b".into()])
        );
        assert!(ColumnType::Enum(vec!["a".into()]).is_textual());
        assert!(ColumnType::TinyText.is_large_object());
        assert_eq!(
            ColumnType::parse("GEOMCOLLECTION").unwrap(),
            ColumnType::parse("geometrycollection").unwrap()
        );
        assert_eq!(
            ColumnType::parse("point srid 4326").unwrap(),
            ColumnType::Spatial {
                kind: SpatialKind::Point,
                srid: Some(4326)
            }
        );
        assert!(ColumnType::Vector(3).is_large_object());
    }

    #[test]
    fn key_bytes_follow_innodb() {
        assert_eq!(ColumnType::Bit(9).key_bytes(1), Some(2));
        assert_eq!(ColumnType::Time(6).key_bytes(1), Some(6));
        assert_eq!(ColumnType::Enum(vec!["a".into()]).key_bytes(4), Some(1));
        assert_eq!(ColumnType::Set(vec!["a".into(); 40]).key_bytes(4), Some(8));
        assert_eq!(ColumnType::Varchar(255).key_bytes(4), Some(1020));
        assert_eq!(ColumnType::Varbinary(64).key_bytes(4), Some(64));
        assert_eq!(ColumnType::DateTime(6).key_bytes(1), Some(8));
        assert_eq!(ColumnType::parse("bigint").unwrap().key_bytes(1), Some(8));
        assert_eq!(ColumnType::parse("int").unwrap().key_bytes(1), Some(4));
        assert_eq!(
            ColumnType::Decimal {
                precision: 18,
                scale: 9
            }
            .key_bytes(1),
            Some(8)
        );
        assert_eq!(ColumnType::Text.key_bytes(4), None);
    }
}
