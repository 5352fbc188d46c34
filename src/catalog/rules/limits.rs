//! The server's own limits, linted so that a catalog the server would
//! refuse never starts a release (InnoDB on MySQL 8+/MariaDB 10.11; TiDB's
//! defaults are the same or wider):
//!
//! - at most 1017 columns per table (InnoDB);
//! - at most 64 secondary indexes per table;
//! - at most 16 key parts per index (and primary key): MySQL's limit;
//!   MariaDB takes 32, but a catalog is meant for every flavor;
//! - a row of at most 65,535 bytes counting every column's maximum in-row
//!   size (per charset: `varchar(n)` is n × the charset's maximum bytes per
//!   character + 1 or 2 length bytes; TEXT/BLOB/JSON count only their 9–12
//!   byte pointer) plus one byte per 8 nullable columns, the exact rule
//!   behind the server's error 1118 (checked against both servers);
//! - comments: table 2048, column and index 1024 characters.
//!
//! Identifiers outside the Basic Multilingual Plane or ending in a space are
//! refused with the other identifier rules (`ident::invalid_ident_reason`).

use crate::collation;
use crate::coltype::ColumnType;
use crate::model::{Column, Table};

use crate::catalog::rule_ids;
use crate::catalog::sink::Sink;

/// InnoDB's column limit.
pub const MAX_COLUMNS: usize = 1017;
/// InnoDB's secondary-index limit.
pub const MAX_INDEXES: usize = 64;
/// Key parts per index.
pub const MAX_KEY_PARTS: usize = 16;
/// The server's row-size limit (bytes), BLOB/TEXT bodies not counted.
pub const MAX_ROW_BYTES: u32 = 65_535;
/// Table comment length (characters).
pub const MAX_TABLE_COMMENT: usize = 2048;
/// Column and index comment length (characters).
pub const MAX_COMMENT: usize = 1024;

/// Reports every server limit `table` exceeds.
pub(in crate::catalog) fn lint(table: &Table, sink: &mut Sink) {
    if table.columns.len() > MAX_COLUMNS {
        sink.report(
            &rule_ids::LIMITS,
            None,
            format!(
                "the table declares {} columns; the server's limit is {MAX_COLUMNS} (InnoDB); \
                 split the table",
                table.columns.len()
            ),
        );
    }
    if table.indexes.len() > MAX_INDEXES {
        sink.report(
            &rule_ids::LIMITS,
            None,
            format!(
                "the table declares {} indexes; the server's limit is {MAX_INDEXES} secondary \
                 indexes per table; drop the ones no query needs",
                table.indexes.len()
            ),
        );
    }
    if table.primary_key.len() > MAX_KEY_PARTS {
        sink.report(
            &rule_ids::LIMITS,
            Some("primary key".into()),
            key_parts_message(table.primary_key.len()),
        );
    }
    for i in &table.indexes {
        if i.parts.len() > MAX_KEY_PARTS {
            sink.report(
                &rule_ids::LIMITS,
                Some(index(i.name.as_str())),
                key_parts_message(i.parts.len()),
            );
        }
    }
    check_row_size(table, sink);
    check_comments(table, sink);
}

fn column(c: &Column) -> String {
    format!("column `{}`", c.name)
}

fn index(name: &str) -> String {
    format!("index `{name}`")
}

fn key_parts_message(parts: usize) -> String {
    format!("the key has {parts} parts; the server's limit is {MAX_KEY_PARTS} key parts per index")
}

/// Bytes `column` counts toward the row-size limit, or `None` for a type
/// the catalog cannot declare.
pub fn row_bytes(column: &Column) -> Option<u32> {
    let per_char = match column.charset.as_deref() {
        Some(cs) => collation::charset(cs)?.max_bytes,
        None => 1,
    };
    let with_length = |bytes: u32| bytes + if bytes > 255 { 2 } else { 1 };
    Some(match &column.ty {
        ColumnType::Varchar(n) => with_length(n * per_char),
        ColumnType::Varbinary(n) => with_length(*n),
        // Only the length and the 8-byte pointer are in the row.
        ColumnType::TinyText | ColumnType::TinyBlob => 9,
        ColumnType::Text | ColumnType::Blob => 10,
        ColumnType::MediumText | ColumnType::MediumBlob => 11,
        ColumnType::LongText | ColumnType::LongBlob | ColumnType::Json => 12,
        // A geometry is stored as a longblob; a vector as varbinary(4n).
        ColumnType::Spatial { .. } => 12,
        ColumnType::Vector(n) => with_length(4 * n),
        ColumnType::Other(_) => return None,
        fixed => fixed.key_bytes(per_char)?,
    })
}

fn check_row_size(table: &Table, sink: &mut Sink) {
    let mut total = 0u32;
    let mut parts = Vec::new();
    for c in &table.columns {
        let Some(bytes) = row_bytes(c) else { return };
        total = total.saturating_add(bytes);
        parts.push((bytes, format!("{} {} = {bytes}", c.name, c.ty)));
    }
    let nullable = table.columns.iter().filter(|c| c.nullable).count() as u32;
    let null_bytes = nullable.div_ceil(8);
    total = total.saturating_add(null_bytes);
    if total <= MAX_ROW_BYTES {
        return;
    }
    parts.sort_by_key(|p| std::cmp::Reverse(p.0));
    let widest: Vec<String> = parts.into_iter().take(5).map(|(_, d)| d).collect();
    sink.report(
        &rule_ids::LIMITS,
        None,
        format!(
            "a row is {total} bytes, over the server's {MAX_ROW_BYTES}-byte row-size limit \
             (error 1118); widest columns: {}; {null_bytes} byte(s) of NULL flags; make the \
             widest columns text/blob or narrower",
            widest.join(", ")
        ),
    );
}

fn check_comments(table: &Table, sink: &mut Sink) {
    let over = |text: &Option<String>, max: usize| {
        text.as_deref()
            .map(|t| t.chars().count())
            .filter(|n| *n > max)
    };
    if let Some(n) = over(&table.comment, MAX_TABLE_COMMENT) {
        sink.report(
            &rule_ids::LIMITS,
            None,
            format!(
                "the table comment is {n} characters; the server's limit is {MAX_TABLE_COMMENT}"
            ),
        );
    }
    for c in &table.columns {
        if let Some(n) = over(&c.comment, MAX_COMMENT) {
            sink.report(
                &rule_ids::LIMITS,
                Some(column(c)),
                format!(
                    "the column comment is {n} characters; the server's limit is {MAX_COMMENT}"
                ),
            );
        }
    }
    for i in &table.indexes {
        if let Some(n) = over(&i.comment, MAX_COMMENT) {
            sink.report(
                &rule_ids::LIMITS,
                Some(index(i.name.as_str())),
                format!("the index comment is {n} characters; the server's limit is {MAX_COMMENT}"),
            );
        }
    }
}
