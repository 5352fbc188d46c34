//! Spatial column types (`geometry`, `point`, ... and the multi-* forms),
//! with the SRID MySQL 8.0.3+ attaches to a column (`point SRID 4326`).

use std::fmt;

/// The eight spatial types of MySQL and MariaDB (TiDB has none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SpatialKind {
    /// `geometry`: any of the others.
    Geometry,
    /// `point`.
    Point,
    /// `linestring`.
    LineString,
    /// `polygon`.
    Polygon,
    /// `multipoint`.
    MultiPoint,
    /// `multilinestring`.
    MultiLineString,
    /// `multipolygon`.
    MultiPolygon,
    /// `geometrycollection` (MySQL 8 shows `geomcollection`, the same type).
    GeometryCollection,
}

impl SpatialKind {
    /// The kind a (lowercase) type word names.
    pub fn from_word(word: &str) -> Option<SpatialKind> {
        Some(match word {
            "geometry" => SpatialKind::Geometry,
            "point" => SpatialKind::Point,
            "linestring" => SpatialKind::LineString,
            "polygon" => SpatialKind::Polygon,
            "multipoint" => SpatialKind::MultiPoint,
            "multilinestring" => SpatialKind::MultiLineString,
            "multipolygon" => SpatialKind::MultiPolygon,
            "geometrycollection" | "geomcollection" => SpatialKind::GeometryCollection,
            _ => return None,
        })
    }

    /// The type name every server accepts.
    pub fn name(self) -> &'static str {
        match self {
            SpatialKind::Geometry => "geometry",
            SpatialKind::Point => "point",
            SpatialKind::LineString => "linestring",
            SpatialKind::Polygon => "polygon",
            SpatialKind::MultiPoint => "multipoint",
            SpatialKind::MultiLineString => "multilinestring",
            SpatialKind::MultiPolygon => "multipolygon",
            SpatialKind::GeometryCollection => "geometrycollection",
        }
    }
}

/// Parses `point`, `point srid 4326` (lowercase words, as split by the
/// type parser); `None` when the first word is no spatial type, `Some(Err)`
/// when it is one with a malformed tail.
pub(super) fn parse(words: &[&str]) -> Option<Result<(SpatialKind, Option<u32>), ()>> {
    let kind = SpatialKind::from_word(words.first()?)?;
    Some(match &words[1..] {
        [] => Ok((kind, None)),
        ["srid", n] => n.parse::<u32>().map(|n| (kind, Some(n))).map_err(|_| ()),
        _ => Err(()),
    })
}

/// `point` or `point SRID 4326`.
pub(super) fn write(
    kind: SpatialKind,
    srid: Option<u32>,
    f: &mut fmt::Formatter<'_>,
) -> fmt::Result {
    f.write_str(kind.name())?;
    if let Some(n) = srid {
        write!(f, " SRID {n}")?;
    }
    Ok(())
}
