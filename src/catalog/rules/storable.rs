//! Text the servers cannot hand back: characters outside the Basic
//! Multilingual Plane (4-byte UTF-8, such as emoji) in a comment, a
//! string default or an expression. Probed on MariaDB 10.11 and MySQL 9.7
//! (found by tests/it/meaning_property.rs):
//!
//! - comments (table, column, index) are stored in utf8mb3 on both: the
//!   character is stored as `?`;
//! - MySQL stores the text of a CHECK, a generated column and an
//!   expression key part in utf8mb3 (`SHOW CREATE TABLE` shows `????`),
//!   and information_schema shows a literal default's character as `?`;
//! - MariaDB shows a literal default's character as `?` in `SHOW CREATE
//!   TABLE` and information_schema alike, and an expression's as `????`
//!   in information_schema.
//!
//! Either the server holds something else than the catalog says, or no
//! reading of the table gives back what it holds, so verify would see
//! drift on a table apply just created and import would write `?`. Such
//! text is refused, naming the object and the character; the same
//! character written as an escape-free expression (`char(...)`,
//! `unhex(...)`) is not refused.

use crate::model::{DefaultValue, IndexPart, Table};
use crate::server::Flavor;

use crate::catalog::rule_ids;
use crate::catalog::sink::Sink;

/// Reports each comment, string default and expression of `table` that
/// holds a character outside the Basic Multilingual Plane, when the
/// catalog targets MariaDB or MySQL (TiDB's behaviour is not probed here).
pub(in crate::catalog) fn lint(table: &Table, flavors: &[Flavor], sink: &mut Sink) {
    if !flavors.iter().any(|f| f.loses_astral_text_in_definitions()) {
        return;
    }
    let mut check = |object: Option<String>, what: &str, text: &str| {
        if let Some(c) = text.chars().find(|c| u32::from(*c) > 0xFFFF) {
            sink.report(
                &rule_ids::STORABLE,
                object,
                format!(
                    "the {what} holds {c:?} (U+{:X}), a character outside the Basic Multilingual \
                     Plane: MariaDB and MySQL do not give it back (stored or read as `?`), so the \
                     server would not hold what the catalog says; write it another way \
                     (for example `unhex('{}')`) or leave it out",
                    u32::from(c),
                    hex(c)
                ),
            );
        }
    };
    if let Some(comment) = &table.comment {
        check(None, "table comment", comment);
    }
    for c in &table.columns {
        let object = Some(format!("column `{}`", c.name));
        if let Some(comment) = &c.comment {
            check(object.clone(), "comment", comment);
        }
        match &c.default {
            Some(DefaultValue::Literal(v)) => check(object.clone(), "default", v),
            Some(DefaultValue::Expression(e)) => check(object.clone(), "default expression", e),
            _ => {}
        }
        if let Some(g) = &c.generated {
            check(object.clone(), "generated expression", &g.expression);
        }
    }
    for i in &table.indexes {
        let object = Some(format!("index `{}`", i.name));
        if let Some(comment) = &i.comment {
            check(object.clone(), "comment", comment);
        }
        for p in &i.parts {
            if let IndexPart::Expression(e) = p {
                check(object.clone(), "key part expression", e);
            }
        }
    }
    for k in &table.checks {
        check(
            Some(format!("check `{}`", k.name)),
            "expression",
            &k.expression,
        );
    }
}

/// The UTF-8 bytes of `c` in hex.
fn hex(c: char) -> String {
    let mut buf = [0u8; 4];
    c.encode_utf8(&mut buf)
        .bytes()
        .map(|b| format!("{b:02X}"))
        .collect()
}
