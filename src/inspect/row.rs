//! Reading inspection rows: every value decoded explicitly from the binary
//! protocol, by alias, into the raw shapes [`super::normalize`] takes.

use mysql_async::{Row, Value};

use super::normalize::{RawColumn, RawIndexRow};
use super::sql::SLOTS;
use crate::error::{Error, Result};

/// Positional string parameters for the binary protocol.
pub(crate) fn params(values: &[&str]) -> mysql_async::Params {
    mysql_async::Params::Positional(values.iter().map(|v| Value::from(*v)).collect())
}

/// The JSON array of CHECK clauses from the MariaDB TABLES read.
pub(crate) fn check_clauses(json: Option<&str>, context: &str) -> Result<Vec<String>> {
    let Some(json) = json else {
        return Ok(Vec::new());
    };
    let clauses: Vec<Option<String>> = serde_json::from_str(json).map_err(|e| Error::Database {
        context: context.to_string(),
        code: None,
        message: format!("unreadable CHECK constraint list: {e}"),
        source: None,
    })?;
    Ok(clauses.into_iter().flatten().collect())
}

pub(crate) fn raw_column(r: &RowReader<'_>) -> Result<RawColumn> {
    Ok(RawColumn {
        name: r.text("col_name")?,
        column_type: r.text("col_type")?,
        is_nullable: r.text("is_nullable")?,
        default: r.opt_text("col_default")?,
        extra: r.opt_text("extra")?.unwrap_or_default(),
        charset: r.opt_text("charset_name")?,
        collation: r.opt_text("collation_name")?,
        generation_expression: r.opt_text("gen_expr")?.filter(|e| !e.is_empty()),
        comment: r.opt_text("col_comment")?.unwrap_or_default(),
    })
}

pub(crate) fn raw_index_row(r: &RowReader<'_>) -> Result<RawIndexRow> {
    Ok(RawIndexRow {
        index_name: r.text("index_name")?,
        non_unique: r.opt_u64("non_unique")?.unwrap_or(1) != 0,
        seq_in_index: r.opt_u64("seq_in_index")?.unwrap_or(0),
        column_name: r.opt_text("col_name")?,
        sub_part: r.opt_u64("sub_part")?,
        collation: r.opt_text("key_order")?,
        index_type: r.opt_text("index_type")?,
        is_visible: r.opt_text("is_visible")?,
        ignored: r.opt_text("is_ignored")?,
        expression: r.opt_text("expr")?.filter(|e| !e.is_empty()),
    })
}

/// Reads columns of one binary-protocol row by alias, decoding each
/// [`Value`] kind explicitly: information_schema columns arrive as bytes or
/// integers depending on server and column, and are never guessed at.
/// A row of the inspection statement is read through its source's field
/// names ([`RowReader::slotted`]): `field` is looked up in `fields` and read
/// from the slot at the same position.
pub(crate) struct RowReader<'r> {
    row: &'r Row,
    context: &'r str,
    fields: Option<&'static [&'static str]>,
}

impl<'r> RowReader<'r> {
    pub(crate) fn new(row: &'r Row, context: &'r str) -> Self {
        RowReader {
            row,
            context,
            fields: None,
        }
    }

    /// A reader of an inspection-statement row whose slots hold `fields`.
    pub(crate) fn slotted(row: &'r Row, context: &'r str, fields: &'static [&'static str]) -> Self {
        RowReader {
            row,
            context,
            fields: Some(fields),
        }
    }

    fn value(&self, field: &str) -> Result<&'r Value> {
        let alias = match self.fields {
            None => field,
            // The columns every branch has, under their own names.
            Some(_) if matches!(field, "src" | "branch" | "ord") => field,
            Some(fields) => fields
                .iter()
                .position(|f| *f == field)
                .map(|k| SLOTS[k])
                .ok_or_else(|| self.bad(field, "not a field of this row"))?,
        };
        // The result's column names as the bytes the server sent: no
        // decoding or allocation per value (`name_str` made a `String` of
        // each name it passed, most of the client's time in a fleet read).
        let idx = self
            .row
            .columns_ref()
            .iter()
            .position(|c| c.name_ref().eq_ignore_ascii_case(alias.as_bytes()))
            .ok_or_else(|| self.bad(alias, "column missing from the result"))?;
        self.row
            .as_ref(idx)
            .ok_or_else(|| self.bad(alias, "value already taken"))
    }

    fn bad(&self, alias: &str, why: &str) -> Error {
        Error::Database {
            context: self.context.to_string(),
            code: None,
            message: format!("`{alias}`: {why}"),
            source: None,
        }
    }

    /// A text value; NULL is `None`; integers are rendered in decimal.
    pub(crate) fn opt_text(&self, alias: &str) -> Result<Option<String>> {
        match self.value(alias)? {
            Value::NULL => Ok(None),
            Value::Bytes(b) => String::from_utf8(b.clone())
                .map(Some)
                .map_err(|_| self.bad(alias, "value is not UTF-8")),
            Value::Int(i) => Ok(Some(i.to_string())),
            Value::UInt(u) => Ok(Some(u.to_string())),
            other => Err(self.bad(alias, &format!("unexpected value {other:?} for text"))),
        }
    }

    /// The `branch` column of a batch row: the position of its table among
    /// `tables`.
    pub(crate) fn branch(&self, tables: usize) -> Result<usize> {
        self.opt_u64("branch")?
            .and_then(|b| usize::try_from(b).ok())
            .filter(|b| *b < tables)
            .ok_or_else(|| self.bad("branch", "not the position of a requested table"))
    }

    /// A text value that must not be NULL.
    pub(crate) fn text(&self, alias: &str) -> Result<String> {
        self.opt_text(alias)?
            .ok_or_else(|| self.bad(alias, "unexpected NULL"))
    }

    /// A non-negative integer; NULL is `None`; ASCII digits in bytes are accepted.
    pub(crate) fn opt_u64(&self, alias: &str) -> Result<Option<u64>> {
        match self.value(alias)? {
            Value::NULL => Ok(None),
            Value::Int(i) => u64::try_from(*i)
                .map(Some)
                .map_err(|_| self.bad(alias, "negative integer")),
            Value::UInt(u) => Ok(Some(*u)),
            Value::Bytes(b) => std::str::from_utf8(b)
                .ok()
                .and_then(|s| s.trim().parse::<u64>().ok())
                .map(Some)
                .ok_or_else(|| self.bad(alias, "value is not an unsigned integer")),
            other => Err(self.bad(alias, &format!("unexpected value {other:?} for integer"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_clause_list_decodes() {
        let got = check_clauses(Some(r#"["json_valid(`j`)", null, "`n` > 0"]"#), "ctx").unwrap();
        assert_eq!(got, ["json_valid(`j`)", "`n` > 0"]);
        assert!(check_clauses(None, "ctx").unwrap().is_empty());
        assert!(check_clauses(Some("not json"), "ctx").is_err());
    }
}
