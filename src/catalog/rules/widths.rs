//! Key widths: the bytes a key's parts take (a whole column by its type
//! and charset, or its declared prefix), checked against the catalog's
//! limit ([`crate::catalog::rules::limits`]).

use crate::collation;
use crate::model::Column;

use crate::catalog::rule_ids;
use crate::catalog::sink::Sink;
use crate::catalog::Limits;

/// Bytes of one key part (a whole column, or its declared prefix), with its
/// description (`Scope varchar(255) utf8mb4`).
fn key_part_bytes(column: &Column, prefix: Option<u32>) -> Option<(String, u32)> {
    let max = match column.charset.as_deref() {
        Some(cs) => collation::charset(cs)?.max_bytes,
        None => 1,
    };
    let bytes = match prefix {
        Some(n) => n * max,
        None => column.ty.key_bytes(max)?,
    };
    let charset = column
        .charset
        .as_deref()
        .map(|cs| format!(" {cs}"))
        .unwrap_or_default();
    let prefix = prefix.map(|n| format!(" prefix {n}")).unwrap_or_default();
    Some((
        format!("{} {}{charset}{prefix}", column.name, column.ty),
        bytes,
    ))
}

/// Total key bytes of whole `columns`, when every one is known.
pub(in crate::catalog) fn key_bytes(columns: &[&Column]) -> Option<(u32, Vec<(String, u32)>)> {
    let parts: Vec<(&Column, Option<u32>)> = columns.iter().map(|c| (*c, None)).collect();
    part_bytes(&parts)
}

fn part_bytes(parts: &[(&Column, Option<u32>)]) -> Option<(u32, Vec<(String, u32)>)> {
    let parts: Option<Vec<(String, u32)>> =
        parts.iter().map(|(c, p)| key_part_bytes(c, *p)).collect();
    let parts = parts?;
    Some((parts.iter().map(|(_, b)| b).sum(), parts))
}

/// An error on `object` when the parts are wider than the limit.
pub(in crate::catalog) fn check_width(
    object: &str,
    parts: &[(&Column, Option<u32>)],
    limits: Limits,
    sink: &mut Sink,
) {
    let Some((total, parts)) = part_bytes(parts) else {
        return;
    };
    if total <= limits.max_index_bytes {
        return;
    }
    let detail: Vec<String> = parts.iter().map(|(d, b)| format!("{d} = {b}")).collect();
    sink.report(&rule_ids::KEY_WIDTH,
        Some(object.to_string()),
        format!(
            "key is {total} bytes, over the {}-byte limit: {}; narrow the widest columns or key a short digest column (e.g. char(64)) instead",
            limits.max_index_bytes,
            detail.join(", ")
        ),
    );
}
