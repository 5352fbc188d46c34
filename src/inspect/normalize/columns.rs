//! Columns: one `information_schema.COLUMNS` row to a typed [`Column`],
//! one small rule per attribute.

use crate::collation::{canonical_charset, canonical_collation, charset_of};
use crate::coltype::ColumnType;
use crate::ident::{quote_ident, Ident};
use crate::model::{Column, DefaultValue, Generated};
use crate::server::{DefaultText, ExpressionText, Flavor};

/// One `information_schema.COLUMNS` row, as read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RawColumn {
    /// COLUMN_NAME.
    pub name: String,
    /// COLUMN_TYPE (`bigint(20) unsigned`, `varchar(32)`, `longtext`).
    pub column_type: String,
    /// IS_NULLABLE (`YES` / `NO`).
    pub is_nullable: String,
    /// COLUMN_DEFAULT: SQL text on MariaDB, the raw value on MySQL / TiDB.
    pub default: Option<String>,
    /// EXTRA (`auto_increment`, `DEFAULT_GENERATED`, `VIRTUAL GENERATED`, ...).
    pub extra: String,
    /// CHARACTER_SET_NAME.
    pub charset: Option<String>,
    /// COLLATION_NAME.
    pub collation: Option<String>,
    /// GENERATION_EXPRESSION.
    pub generation_expression: Option<String>,
    /// COLUMN_COMMENT.
    pub comment: String,
}

/// Whether `extra` holds `word` as a whole space-separated token (case-insensitive).
fn has_word(extra: &str, word: &str) -> bool {
    extra
        .split_whitespace()
        .any(|w| w.eq_ignore_ascii_case(word))
}

/// Whether a MariaDB CHECK clause list marks `column` as json:
/// MariaDB stores `json` as `longtext` plus `CHECK (json_valid(`col`))`.
pub fn is_json_checked(column: &str, check_clauses: &[String]) -> bool {
    let want = format!("json_valid({})", quote_ident(column));
    check_clauses
        .iter()
        .any(|c| c.trim().eq_ignore_ascii_case(&want))
}

/// COLUMN_TYPE to a typed column type. Integer display widths are dropped
/// (`int(11)` is `int`), `tinyint(1)` is boolean, and on MariaDB a `longtext`
/// with a `json_valid` check is json. A type the catalog cannot declare is
/// kept as [`ColumnType::Other`].
pub fn column_type(flavor: Flavor, column_type: &str, json_checked: bool) -> ColumnType {
    let parsed = ColumnType::parse(column_type)
        .unwrap_or_else(|_| ColumnType::Other(column_type.trim().to_ascii_lowercase()));
    match parsed {
        ColumnType::LongText if flavor.json_is_checked_longtext() && json_checked => {
            ColumnType::Json
        }
        other => other,
    }
}

/// IS_NULLABLE to a bool.
pub fn is_nullable(is_nullable: &str) -> bool {
    is_nullable.trim().eq_ignore_ascii_case("YES")
}

/// AUTO_INCREMENT from EXTRA.
pub fn is_auto_increment(extra: &str) -> bool {
    has_word(extra, "auto_increment")
}

/// The generation of a generated column, from EXTRA (`VIRTUAL GENERATED` /
/// `STORED GENERATED`; older MariaDB `VIRTUAL` / `PERSISTENT`) and
/// GENERATION_EXPRESSION. `DEFAULT_GENERATED` is not one. MySQL (and TiDB,
/// which follows it) backslash-escapes quotes in GENERATION_EXPRESSION as in
/// an expression default (`concat(`n`,_utf8mb3\'x\')`); MariaDB does not.
pub fn generation(flavor: Flavor, extra: &str, expression: Option<&str>) -> Option<Generated> {
    let generated = ["VIRTUAL", "STORED", "PERSISTENT"]
        .iter()
        .any(|w| has_word(extra, w));
    if !generated {
        return None;
    }
    let text = expression.unwrap_or("");
    let text = unescaped(flavor, text);
    // MySQL wraps the expression in parentheses, MariaDB does not.
    Some(Generated {
        expression: crate::expr::generation(&text),
        stored: has_word(extra, "STORED") || has_word(extra, "PERSISTENT"),
    })
}

/// An expression as `information_schema` gave it, unescaped as the vendor
/// escapes it ([`Flavor::expression_text`]).
fn unescaped(flavor: Flavor, text: &str) -> String {
    match flavor.expression_text() {
        ExpressionText::Plain => text.to_string(),
        ExpressionText::MySqlEscaped => crate::expr::mysql_expression(text),
        ExpressionText::Backslashed => crate::expr::unescape_mysql_default(text),
    }
}

/// The `ON UPDATE` value from EXTRA: MariaDB `on update current_timestamp(6)`,
/// MySQL/TiDB `DEFAULT_GENERATED on update CURRENT_TIMESTAMP(6)`.
pub fn on_update(extra: &str) -> Option<DefaultValue> {
    let lower = extra.to_ascii_lowercase();
    let at = lower.find("on update ")?;
    DefaultValue::parse_sql(extra[at + "on update ".len()..].trim())
}

/// COLUMN_DEFAULT to a typed default, numeric literals canonical (`0.00` is `0`).
///
/// MariaDB reports SQL text: `'pending'`, `0`, `NULL` (no default),
/// `current_timestamp(6)`. MySQL and TiDB report the raw value: `pending`,
/// SQL NULL for no default, and `CURRENT_TIMESTAMP(6)` or an expression with
/// `DEFAULT_GENERATED` in EXTRA.
pub fn column_default(
    flavor: Flavor,
    raw: Option<&str>,
    extra: &str,
    ty: &ColumnType,
) -> Option<DefaultValue> {
    let raw = raw?;
    let value = match flavor.default_text() {
        DefaultText::Sql => DefaultValue::parse_sql(raw),
        // An expression default, unescaped as the vendor escapes it
        // (MySQL: `'` and `\` escaped and charset introducers on its
        // strings, `concat(_utf8mb4\'a\')`; TiDB as written).
        DefaultText::Raw if has_word(extra, "DEFAULT_GENERATED") => {
            let text = match flavor.expression_text() {
                ExpressionText::MySqlEscaped => crate::expr::mysql_expression(raw),
                ExpressionText::Plain | ExpressionText::Backslashed => raw.to_string(),
            };
            DefaultValue::parse_sql(&text)
        }
        // TiDB assumption (checked against pingcap/tidb's infoschema reader,
        // not run): TiDB 8.5 itself reports `CURRENT_TIMESTAMP(p)` with an
        // empty EXTRA (DEFAULT_GENERATED only with ON UPDATE or a true
        // expression default), as older MySQL did. A temporal column cannot
        // hold that text as a literal, so it is read as the function there.
        DefaultText::Raw if is_temporal(ty) => match DefaultValue::parse_sql(raw) {
            Some(ts @ DefaultValue::CurrentTimestamp(_)) => Some(ts),
            _ => Some(DefaultValue::Literal(raw.to_string())),
        },
        // A bit column's default is a bit-value literal on every server
        // (MySQL 9.7 shows `DEFAULT 5` as `b'101'`, verified live; TiDB
        // assumption: it follows MySQL).
        DefaultText::Raw if matches!(ty, ColumnType::Bit(_)) => DefaultValue::parse_sql(raw),
        DefaultText::Raw => Some(DefaultValue::Literal(raw.to_string())),
    };
    value.map(|d| d.canonical(ty.is_numeric()))
}

fn is_temporal(ty: &ColumnType) -> bool {
    matches!(
        ty,
        ColumnType::DateTime(_) | ColumnType::Timestamp(_) | ColumnType::Date
    )
}

/// Character set and collation of a column, canonical (`utf8_bin` is
/// `utf8mb3_bin`), kept for textual types only (a MariaDB json column's
/// `utf8mb4_bin` is dropped).
pub fn charset_and_collation(
    ty: &ColumnType,
    charset: Option<&str>,
    collation: Option<&str>,
) -> (Option<String>, Option<String>) {
    if !ty.is_textual() {
        return (None, None);
    }
    let collation = collation.map(canonical_collation);
    let charset = charset.map(canonical_charset).or_else(|| {
        collation
            .as_deref()
            .and_then(charset_of)
            .map(str::to_string)
    });
    (charset, collation)
}

/// The EXTRA words this model represents (`on update <expr>` aside).
const KNOWN_EXTRA: [&str; 7] = [
    "auto_increment",
    "INVISIBLE",
    "DEFAULT_GENERATED",
    "VIRTUAL",
    "STORED",
    "PERSISTENT",
    "GENERATED",
];

/// The first EXTRA word the model does not represent (anything a later
/// server adds), if any; `INVISIBLE` is [`Column::invisible`]. Everything after
/// `on update` is its expression, read by [`on_update`].
pub fn unknown_extra(extra: &str) -> Option<String> {
    let lower = extra.to_ascii_lowercase();
    let words = match lower.find("on update ") {
        Some(at) => &extra[..at],
        None => extra,
    };
    words
        .split_whitespace()
        .find(|w| !KNOWN_EXTRA.iter().any(|k| k.eq_ignore_ascii_case(w)))
        .map(str::to_string)
}

/// A whole `COLUMNS` row to a [`Column`]. Fails closed, with the word, on an
/// EXTRA word the model does not represent: such a column would otherwise
/// read as something it is not.
pub fn column(flavor: Flavor, raw: &RawColumn, check_clauses: &[String]) -> Result<Column, String> {
    if let Some(word) = unknown_extra(&raw.extra) {
        return Err(format!(
            "EXTRA `{}` has the word `{word}`, which this version cannot represent",
            raw.extra.trim()
        ));
    }
    let json_checked = is_json_checked(&raw.name, check_clauses);
    let ty = column_type(flavor, &raw.column_type, json_checked);
    let (charset, collation) =
        charset_and_collation(&ty, raw.charset.as_deref(), raw.collation.as_deref());
    Ok(Column {
        name: Ident::new(raw.name.clone()),
        default: column_default(flavor, raw.default.as_deref(), &raw.extra, &ty),
        nullable: is_nullable(&raw.is_nullable),
        auto_increment: is_auto_increment(&raw.extra),
        charset,
        collation,
        generated: generation(flavor, &raw.extra, raw.generation_expression.as_deref()),
        on_update: on_update(&raw.extra),
        // MySQL `INVISIBLE`, MariaDB `INVISIBLE` (TiDB has none) in EXTRA.
        invisible: has_word(&raw.extra, "INVISIBLE"),
        comment: Some(raw.comment.clone()).filter(|c| !c.is_empty()),
        ty,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coltype::IntKind;

    const ALL: [Flavor; 3] = Flavor::ALL;

    #[test]
    fn integer_display_widths_are_dropped() {
        for f in ALL {
            assert_eq!(
                column_type(f, "bigint(20) unsigned", false),
                ColumnType::Int {
                    kind: IntKind::Big,
                    unsigned: true
                }
            );
            assert_eq!(
                column_type(f, "int(11)", false),
                column_type(f, "int", false)
            );
        }
    }

    #[test]
    fn tinyint_1_is_boolean() {
        for f in ALL {
            assert_eq!(column_type(f, "tinyint(1)", false), ColumnType::Boolean);
            assert_ne!(column_type(f, "tinyint(4)", false), ColumnType::Boolean);
        }
    }

    #[test]
    fn mariadb_json_is_checked_longtext() {
        let checks = vec!["json_valid(`Payload`)".to_string(), "`n` > 0".to_string()];
        assert!(is_json_checked("Payload", &checks));
        assert!(!is_json_checked("Other", &checks));
        assert_eq!(
            column_type(Flavor::MariaDb, "longtext", true),
            ColumnType::Json
        );
        assert_eq!(
            column_type(Flavor::MariaDb, "longtext", false),
            ColumnType::LongText
        );
        assert_eq!(column_type(Flavor::MySql, "json", false), ColumnType::Json);
        let raw = RawColumn {
            name: "Payload".into(),
            column_type: "longtext".into(),
            is_nullable: "YES".into(),
            default: Some("NULL".into()),
            charset: Some("utf8mb4".into()),
            collation: Some("utf8mb4_bin".into()),
            ..RawColumn::default()
        };
        let col = column(Flavor::MariaDb, &raw, &checks).unwrap();
        assert_eq!(col.ty, ColumnType::Json);
        assert_eq!((col.charset, col.collation), (None, None));
        assert_eq!(col.default, None);
    }

    #[test]
    fn unknown_types_are_kept_as_other() {
        assert_eq!(
            column_type(Flavor::MySql, "int(10) unsigned zerofill", false),
            ColumnType::Other("int(10) unsigned zerofill".into())
        );
    }

    #[test]
    fn mariadb_defaults_are_sql_text() {
        let vc = ColumnType::Varchar(32);
        let d = |raw| column_default(Flavor::MariaDb, raw, "", &vc);
        assert_eq!(
            d(Some("'pending'")),
            Some(DefaultValue::Literal("pending".into()))
        );
        assert_eq!(d(Some("'0'")), Some(DefaultValue::Literal("0".into())));
        assert_eq!(
            d(Some("'NULL'")),
            Some(DefaultValue::Literal("NULL".into()))
        );
        assert_eq!(d(Some("NULL")), None);
        assert_eq!(d(None), None);
        let ts = ColumnType::Timestamp(6);
        assert_eq!(
            column_default(Flavor::MariaDb, Some("current_timestamp(6)"), "", &ts),
            Some(DefaultValue::CurrentTimestamp(6))
        );
    }

    #[test]
    fn mysql_and_tidb_defaults_are_raw_values() {
        let vc = ColumnType::Varchar(32);
        for f in [Flavor::MySql, Flavor::TiDb] {
            assert_eq!(
                column_default(f, Some("pending"), "", &vc),
                Some(DefaultValue::Literal("pending".into()))
            );
            // A string whose value looks like SQL stays a literal.
            assert_eq!(
                column_default(f, Some("'q'"), "", &vc),
                Some(DefaultValue::Literal("'q'".into()))
            );
            assert_eq!(
                column_default(f, Some("NULL"), "", &vc),
                Some(DefaultValue::Literal("NULL".into()))
            );
            assert_eq!(column_default(f, None, "", &vc), None);
            let ts = ColumnType::DateTime(6);
            assert_eq!(
                column_default(f, Some("CURRENT_TIMESTAMP(6)"), "DEFAULT_GENERATED", &ts),
                Some(DefaultValue::CurrentTimestamp(6))
            );
            assert_eq!(
                column_default(f, Some("CURRENT_TIMESTAMP(6)"), "", &ts),
                Some(DefaultValue::CurrentTimestamp(6))
            );
            assert_eq!(
                column_default(f, Some("uuid()"), "DEFAULT_GENERATED", &vc),
                Some(DefaultValue::Expression("uuid()".into()))
            );
        }
    }

    #[test]
    fn current_timestamp_spellings_agree() {
        let ts = ColumnType::Timestamp(6);
        assert_eq!(
            column_default(Flavor::MariaDb, Some("current_timestamp(6)"), "", &ts),
            column_default(
                Flavor::MySql,
                Some("CURRENT_TIMESTAMP(6)"),
                "DEFAULT_GENERATED",
                &ts
            ),
        );
    }

    #[test]
    fn numeric_defaults_are_canonical() {
        let dec = ColumnType::Decimal {
            precision: 12,
            scale: 2,
        };
        let zero = Some(DefaultValue::Literal("0".into()));
        assert_eq!(
            column_default(Flavor::MariaDb, Some("0.00"), "", &dec),
            zero
        );
        assert_eq!(column_default(Flavor::MySql, Some("0.00"), "", &dec), zero);
        assert_eq!(
            column_default(Flavor::MariaDb, Some("0"), "", &ColumnType::Boolean),
            zero
        );
        // Not numeric: kept as written.
        assert_eq!(
            column_default(Flavor::MySql, Some("0.00"), "", &ColumnType::Varchar(4)),
            Some(DefaultValue::Literal("0.00".into()))
        );
    }

    #[test]
    fn collations_are_canonical_and_textual_only() {
        let (cs, co) =
            charset_and_collation(&ColumnType::Varchar(4), Some("utf8"), Some("utf8_bin"));
        assert_eq!(
            (cs.as_deref(), co.as_deref()),
            (Some("utf8mb3"), Some("utf8mb3_bin"))
        );
        let (cs, co) = charset_and_collation(&ColumnType::Varchar(4), None, Some("utf8mb4_bin"));
        assert_eq!(
            (cs.as_deref(), co.as_deref()),
            (Some("utf8mb4"), Some("utf8mb4_bin"))
        );
        assert_eq!(
            charset_and_collation(&ColumnType::Varbinary(4), Some("binary"), Some("binary")),
            (None, None)
        );
    }

    #[test]
    fn auto_increment_from_extra() {
        assert!(is_auto_increment("auto_increment"));
        assert!(is_auto_increment("AUTO_INCREMENT"));
        assert!(!is_auto_increment("DEFAULT_GENERATED"));
        assert!(is_nullable("YES") && !is_nullable("NO"));
    }

    #[test]
    fn on_update_from_extra() {
        assert_eq!(
            on_update("on update current_timestamp(6)"),
            Some(DefaultValue::CurrentTimestamp(6))
        );
        assert_eq!(
            on_update("DEFAULT_GENERATED on update CURRENT_TIMESTAMP"),
            Some(DefaultValue::CurrentTimestamp(0))
        );
        assert_eq!(on_update("auto_increment"), None);
    }

    #[test]
    fn generated_columns_from_extra() {
        let g = |expression: &str, stored: bool| {
            Some(Generated {
                expression: expression.into(),
                stored,
            })
        };
        let maria = Flavor::MariaDb;
        assert_eq!(
            generation(maria, "VIRTUAL GENERATED", Some("`d` + 1")),
            g("`d` + 1", false)
        );
        assert_eq!(
            generation(Flavor::MySql, "STORED GENERATED", Some("(`d` * 2)")),
            g("`d` * 2", true),
            "MySQL's outer parentheses are dropped"
        );
        assert_eq!(
            generation(
                Flavor::MySql,
                "STORED GENERATED",
                Some(r"concat(`n`,_utf8mb3\'x\')")
            ),
            g("concat(`n`, 'x')", true),
            "MySQL's escaped quotes and introducers are undone"
        );
        assert_eq!(
            generation(maria, "PERSISTENT", Some("`d` * 2")),
            g("`d` * 2", true)
        );
        assert_eq!(generation(maria, "VIRTUAL", Some("`d`")), g("`d`", false));
        assert_eq!(generation(maria, "DEFAULT_GENERATED", None), None);
        assert_eq!(
            generation(
                Flavor::MySql,
                "DEFAULT_GENERATED on update CURRENT_TIMESTAMP",
                None
            ),
            None
        );
        assert_eq!(generation(maria, "", None), None);
    }

    #[test]
    fn unknown_extra_words_fail_closed() {
        for known in [
            "",
            "auto_increment",
            "DEFAULT_GENERATED",
            "DEFAULT_GENERATED on update CURRENT_TIMESTAMP(6)",
            "on update current_timestamp(6)",
            "VIRTUAL GENERATED",
            "STORED GENERATED",
            "PERSISTENT",
            "INVISIBLE",
            "DEFAULT_GENERATED INVISIBLE",
        ] {
            assert_eq!(unknown_extra(known), None, "{known}");
        }
        assert_eq!(unknown_extra("auto_random").as_deref(), Some("auto_random"));
        let raw = RawColumn {
            name: "c".into(),
            column_type: "int".into(),
            is_nullable: "YES".into(),
            extra: "auto_random".into(),
            ..RawColumn::default()
        };
        let err = column(Flavor::MySql, &raw, &[]).unwrap_err();
        assert!(err.contains("`auto_random`"), "{err}");
    }
}
