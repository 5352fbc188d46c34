//! Choosing the read shape ([`Shape`]) by size, and packing a read's
//! groups into bounded statements.

use crate::db::Session;
use crate::error::Result;
use crate::ident::quote_ident;

use super::row::{params, RowReader};
use super::sql;

/// Tables per inspection statement of one-table groups ([`Shape::Each`]).
/// A `UNION ALL` of five equality branches per table is planned and run
/// in time that grows faster than its branch count on both servers
/// (docs/scale.md: 1,024 tables in one statement took 3-22 s), so such reads
/// are chunked at this many tables, one round trip each; a catalog of up
/// to this many tables is one statement and never reads the schema's size
/// (tests/it/inspect_round_trips.rs pins 3, 50 and a chunked count).
pub const TABLES_PER_STATEMENT: usize = 64;

/// Table names per inspection statement of listed groups
/// ([`Shape::Listed`]; a one-table group counts as
/// `NAMES_PER_STATEMENT / TABLES_PER_STATEMENT` names): no statement
/// grows without bound, and its placeholders stay far below the
/// protocol's 65,535.
pub const NAMES_PER_STATEMENT: usize = 1024;

/// How many schemas of `tables` tables each one statement reads in
/// listed groups: at least one.
pub fn schemas_per_statement(tables: usize) -> usize {
    (NAMES_PER_STATEMENT / tables.max(1)).max(1)
}

/// A schema's tables are read listed ([`Shape::Listed`]) when it holds at
/// most this many times the tables read from it. Measured (docs/scale.md,
/// "Crossover"): the listed read's cost for the rest of the schema is
/// about 6-8 µs per schema table on MariaDB 10.11 (a directory listing) and
/// MySQL 9.7 (4 data-dictionary index reads per table), an equality
/// branch group's about 1 ms (MariaDB) and 1-4 ms (MySQL) per catalog
/// table: the crossover lies near 1 catalog table per 150-250 schema
/// tables; 32 leaves a wide margin on the side of the shape whose work is
/// flat in unrelated tables.
pub const LISTED_RATIO: usize = 32;

/// How one schema's tables are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Five (or six) branches per table, each bounded by schema and table
    /// equality: the server's work is flat in every other table.
    Each,
    /// Five (or six) branches per [`NAMES_PER_STATEMENT`] tables, each
    /// bounded by `TABLE_SCHEMA = ? AND TABLE_NAME IN (...)` (on MySQL
    /// 8.0.14+ by each name of a JSON array joined `LATERAL` by equality):
    /// the server reads the named tables only; its work is flat in other
    /// schemas.
    Listed,
}

/// The shape for reading `wanted` tables of a schema holding
/// `schema_tables` tables.
pub fn shape_for(wanted: usize, schema_tables: u64) -> Shape {
    if wanted > 1 && schema_tables <= (wanted * LISTED_RATIO) as u64 {
        Shape::Listed
    } else {
        Shape::Each
    }
}

/// Whether a read of `schemas` schemas of `wanted` tables each reads the
/// schemas' sizes first (to choose each one's [`Shape`]): not for reads of
/// up to [`TABLES_PER_STATEMENT`] tables in all (one statement of
/// one-table groups, as before), never on TiDB (its information_schema is
/// not measured here).
pub(super) fn sizes_first(flavor: crate::Flavor, schemas: usize, wanted: usize) -> bool {
    flavor.measured_live_here() && wanted > 1 && schemas * wanted > TABLES_PER_STATEMENT
}

/// What the size read found for one schema.
#[derive(Debug, Clone, Copy)]
pub(super) struct Sized {
    pub(super) shape: Shape,
    /// Listed rows are filed by the lower-cased name
    /// (`lower_case_table_names` is not 0).
    pub(super) fold: bool,
}

/// Reads each schema's size, [`NAMES_PER_STATEMENT`] schemas per statement
/// ([`sql::size_sql`]).
pub(super) async fn sizes(
    session: &mut Session<'_>,
    schemas: &[&str],
    wanted: usize,
) -> Result<Vec<Sized>> {
    let mut out = Vec::with_capacity(schemas.len());
    for chunk in schemas.chunks(NAMES_PER_STATEMENT) {
        let what = match chunk {
            [one] => format!("reading the size of schema {}", quote_ident(one)),
            _ => format!("reading the sizes of {} schemas", chunk.len()),
        };
        let info = session.server().clone();
        let values = if info.has_lateral_json_table() {
            mysql_async::Params::Positional(vec![sql::size_pairs(chunk).into()])
        } else {
            params(chunk)
        };
        let rows = session
            .exec_rows(&what, &sql::size_sql(&info, chunk.len()), values)
            .await?;
        let mut got: Vec<Option<Sized>> = vec![None; chunk.len()];
        for row in &rows {
            let r = RowReader::new(row, &what);
            let i = r.branch(chunk.len())?;
            let tables = r.opt_u64("tables")?.unwrap_or(0);
            got[i] = Some(Sized {
                shape: shape_for(wanted, tables),
                fold: r.opt_u64("lctn")?.unwrap_or(0) != 0,
            });
        }
        for g in got {
            out.push(g.ok_or_else(|| crate::Error::Database {
                context: what.clone(),
                code: None,
                message: "a schema's size row is missing".into(),
                source: None,
            })?);
        }
    }
    Ok(out)
}

/// One group of a statement: a schema and the tables (positions in the
/// wants) it reads.
#[derive(Debug, Clone)]
pub(super) struct Unit {
    pub(super) schema: usize,
    pub(super) shape: Shape,
    pub(super) tables: Vec<usize>,
}

impl Unit {
    fn weight(&self) -> usize {
        match self.shape {
            Shape::Each => NAMES_PER_STATEMENT / TABLES_PER_STATEMENT,
            Shape::Listed => self.tables.len(),
        }
    }
}

/// The groups of every schema, packed into statements of at most
/// [`NAMES_PER_STATEMENT`] weight, in order.
pub(super) fn statements(shapes: &[Shape], wanted: usize) -> Vec<Vec<Unit>> {
    let mut units = Vec::new();
    for (schema, shape) in shapes.iter().enumerate() {
        match shape {
            Shape::Each => units.extend((0..wanted).map(|t| Unit {
                schema,
                shape: Shape::Each,
                tables: vec![t],
            })),
            Shape::Listed => {
                let all: Vec<usize> = (0..wanted).collect();
                units.extend(all.chunks(NAMES_PER_STATEMENT).map(|c| Unit {
                    schema,
                    shape: Shape::Listed,
                    tables: c.to_vec(),
                }))
            }
        }
    }
    let mut out: Vec<Vec<Unit>> = Vec::new();
    let mut load = 0;
    for u in units {
        if out.is_empty() || load + u.weight() > NAMES_PER_STATEMENT {
            out.push(Vec::new());
            load = 0;
        }
        load += u.weight();
        out.last_mut().expect("pushed above").push(u);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shape_follows_the_share_of_the_schema_read() {
        assert_eq!(
            shape_for(1, 1),
            Shape::Each,
            "one table is one equality group"
        );
        assert_eq!(shape_for(1024, 1024), Shape::Listed);
        assert_eq!(shape_for(100, 3_200), Shape::Listed);
        assert_eq!(shape_for(100, 3_201), Shape::Each);
        assert_eq!(shape_for(3, 7_000), Shape::Each);
        assert!(!sizes_first(crate::Flavor::MariaDb, 1, 64));
        assert!(sizes_first(crate::Flavor::MySql, 1, 65));
        assert!(sizes_first(crate::Flavor::MySql, 9, 8));
        assert!(!sizes_first(crate::Flavor::TiDb, 9, 100));
    }

    /// Statements hold 64 one-table groups or 1,024 listed names, groups
    /// of several schemas together, in order.
    #[test]
    fn groups_are_packed_into_bounded_statements() {
        let weights = |shapes: &[Shape], wanted: usize| -> Vec<Vec<(usize, usize)>> {
            statements(shapes, wanted)
                .iter()
                .map(|s| s.iter().map(|u| (u.schema, u.tables.len())).collect())
                .collect()
        };
        let each = weights(&[Shape::Each], 200);
        assert_eq!(
            each.iter().map(Vec::len).collect::<Vec<_>>(),
            [64, 64, 64, 8]
        );
        assert_eq!(
            weights(&[Shape::Listed], 1_100),
            [vec![(0, 1_024)], vec![(0, 76)]]
        );
        let fleet = weights(&[Shape::Listed; 300], 8);
        assert_eq!(fleet.len(), 3, "128 schemas of 8 tables per statement");
        assert_eq!(fleet[0].len(), 128);
        assert_eq!(fleet[2].len(), 44);
        let mixed = weights(&[Shape::Listed, Shape::Each, Shape::Listed], 8);
        assert_eq!(mixed.len(), 1);
        assert_eq!(mixed[0].len(), 1 + 8 + 1);
    }
}
