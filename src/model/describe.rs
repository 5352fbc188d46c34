//! The texts that describe the model's parts, for DDL and for findings: a
//! key-part list, a FULLTEXT parser clause and a foreign key's definition
//! (the one renderer of each, used by `ddl`), a column's, an index's and a
//! foreign key's shape, and the attribute texts drift reports (`NOT NULL`,
//! `DEFAULT 'x'`, `COLLATE utf8mb4_bin`). They sit in the model, below
//! `ddl` and `diff`, so the typed drift values
//! ([`crate::finding::drift::Value`]) render without reaching up.

use super::{
    AutoRandom, Column, DefaultValue, ForeignKey, Generated, Index, IndexKind, IndexPart, Ttl,
};
use crate::ident::{quote_ident, Ident};

/// `` WITH PARSER `ngram` `` (with a leading space) for a FULLTEXT index
/// with a parser, else nothing: the plugin name from the closed
/// [`FullTextParser`](crate::model::FullTextParser) set, through the
/// quoting helper. Written plainly, not in MySQL's `/*!50100 ... */`
/// wrapper (every supported server reads the clause; the wrapper only hid
/// it from MySQL < 5.1).
pub fn parser_clause(kind: IndexKind) -> String {
    match kind.parser() {
        Some(p) => format!(" WITH PARSER {}", quote_ident(p.name())),
        None => String::new(),
    }
}

/// `` CONSTRAINT `fk` FOREIGN KEY (`a`) REFERENCES `t` (`b`) ON DELETE RESTRICT ON UPDATE RESTRICT ``:
/// the one renderer of a foreign key, the same on every flavor (TiDB
/// v6.6.0+ enforces it; earlier releases parse and drop it, see
/// <https://docs.pingcap.com/tidb/stable/foreign-key/>). Both actions are
/// always written (keywords from the closed [`ReferentialAction`] set),
/// so the server stores what the catalog says whatever its own default
/// (MariaDB reports an omitted action as RESTRICT, MySQL as NO ACTION).
///
/// [`ReferentialAction`]: crate::model::ReferentialAction
pub fn foreign_key_definition(fk: &ForeignKey) -> String {
    let list = |names: &[Ident]| {
        names
            .iter()
            .map(|n| quote_ident(n.as_str()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let table = match &fk.referenced_schema {
        Some(schema) => format!(
            "{}.{}",
            quote_ident(schema.as_str()),
            quote_ident(fk.referenced_table.as_str())
        ),
        None => quote_ident(fk.referenced_table.as_str()),
    };
    format!(
        "CONSTRAINT {} FOREIGN KEY ({}) REFERENCES {table} ({}) ON DELETE {} ON UPDATE {}",
        quote_ident(fk.name.as_str()),
        list(&fk.columns),
        list(&fk.referenced_columns),
        fk.on_delete.sql(),
        fk.on_update.sql()
    )
}

/// A parenthesised key-part list: `` (`a`, `b`(10) DESC, (expr)) ``.
/// The one renderer of key parts, for primary keys and secondary indexes.
pub fn key_parts(parts: &[IndexPart]) -> String {
    let rendered: Vec<String> = parts.iter().map(IndexPart::to_string).collect();
    format!("({})", rendered.join(", "))
}

/// `` FOREIGN KEY (`a`) REFERENCES `t` (`b`) ON DELETE RESTRICT ON UPDATE RESTRICT ``:
/// a foreign key's shape (its definition without the name).
pub fn describe_foreign_key(fk: &ForeignKey) -> String {
    let def = foreign_key_definition(fk);
    match def.find(" FOREIGN KEY ") {
        Some(i) => def[i + 1..].to_string(),
        None => def,
    }
}

/// `` UNIQUE KEY (`a`, `b`) ``, with `FULLTEXT`, `IGNORED/INVISIBLE` where they apply.
pub fn describe_index(i: &Index) -> String {
    let kind = match (i.kind, i.unique) {
        (IndexKind::FullText(_), _) => "FULLTEXT KEY",
        (IndexKind::Spatial, _) => "SPATIAL KEY",
        (IndexKind::BTree, true) => "UNIQUE KEY",
        (IndexKind::BTree, false) => "KEY",
    };
    let vis = if i.visible { "" } else { " INVISIBLE" };
    let parser = parser_clause(i.kind);
    format!("{kind} {}{parser}{vis}", key_parts(&i.parts))
}

/// `varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL DEFAULT 'x'`: a column's shape.
pub fn describe_column(c: &Column) -> String {
    let mut s = c.ty.to_string();
    if c.ty.is_textual() {
        s.push(' ');
        s.push_str(&charset_text(c.charset.as_deref(), c.collation.as_deref()));
    }
    s.push(' ');
    s.push_str(null_text(c.nullable));
    if c.default.is_some() {
        s.push(' ');
        s.push_str(&default_text(c));
    }
    if c.on_update.is_some() {
        s.push(' ');
        s.push_str(&on_update_text(c.on_update.as_ref()));
    }
    if c.auto_increment {
        s.push_str(" AUTO_INCREMENT");
    }
    if let Some(g) = &c.generated {
        s.push(' ');
        s.push_str(&g.to_string());
    }
    if c.invisible {
        s.push_str(" INVISIBLE");
    }
    s
}

/// `NULL` or `NOT NULL`.
pub fn null_text(nullable: bool) -> &'static str {
    if nullable {
        "NULL"
    } else {
        "NOT NULL"
    }
}

/// `AUTO_INCREMENT` or `no AUTO_INCREMENT`.
pub fn auto_increment_text(auto_increment: bool) -> &'static str {
    if auto_increment {
        "AUTO_INCREMENT"
    } else {
        "no AUTO_INCREMENT"
    }
}

/// `INVISIBLE` or `VISIBLE`: a column's visibility.
pub fn visibility_text(invisible: bool) -> &'static str {
    if invisible {
        "INVISIBLE"
    } else {
        "VISIBLE"
    }
}

/// `CHARACTER SET cs COLLATE co` (either part alone), or `no collation`.
pub fn charset_text(charset: Option<&str>, collation: Option<&str>) -> String {
    match (charset, collation) {
        (Some(cs), Some(co)) => format!("CHARACTER SET {cs} COLLATE {co}"),
        (None, Some(co)) => format!("COLLATE {co}"),
        (Some(cs), None) => format!("CHARACTER SET {cs}"),
        (None, None) => "no collation".into(),
    }
}

/// `DEFAULT x` or `no default`: a column's default as text.
pub fn default_text(c: &Column) -> String {
    default_value_text(c.default.as_ref(), c.ty.is_numeric())
}

/// `DEFAULT x` or `no default`, for a column of a numeric type or not.
pub fn default_value_text(default: Option<&DefaultValue>, numeric: bool) -> String {
    match default {
        Some(d) => format!("DEFAULT {}", d.to_sql(numeric)),
        None => "no default".into(),
    }
}

/// `ON UPDATE x` or `no ON UPDATE`.
pub fn on_update_text(on_update: Option<&DefaultValue>) -> String {
    match on_update {
        Some(v) => format!("ON UPDATE {}", v.to_sql(false)),
        None => "no ON UPDATE".into(),
    }
}

/// `GENERATED ALWAYS AS (e) VIRTUAL|STORED` or `not generated`.
pub fn generated_text(g: Option<&Generated>) -> String {
    match g {
        Some(g) => g.to_string(),
        None => "not generated".into(),
    }
}

/// TiDB: `CLUSTERED`, `NONCLUSTERED`, or `no primary key`.
pub fn clustered_text(c: Option<bool>) -> String {
    match c {
        Some(true) => "CLUSTERED",
        Some(false) => "NONCLUSTERED",
        None => "no primary key",
    }
    .to_string()
}

/// TiDB: `AUTO_RANDOM(n)` or `no AUTO_RANDOM`.
pub fn auto_random_text(a: Option<&AutoRandom>) -> String {
    a.map_or_else(|| "no AUTO_RANDOM".to_string(), AutoRandom::clause)
}

/// TiDB: `` TTL `col` + INTERVAL n UNIT, ... `` or `no TTL`.
pub fn ttl_text(t: Option<&Ttl>) -> String {
    t.map_or_else(|| "no TTL".to_string(), |t| format!("TTL {}", t.describe()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_parts_render_prefix_desc_and_expressions() {
        let parts = vec![
            IndexPart::Column {
                name: "a".into(),
                prefix: Some(10),
                descending: true,
            },
            IndexPart::Expression("lower(`b`)".into()),
        ];
        assert_eq!(key_parts(&parts), "(`a`(10) DESC, (lower(`b`)))");
    }
}
