//! Lint of column defaults: a default the server would refuse, or store in
//! another form (so apply could never read it back exact), is a catalog
//! error, found before any release runs it.

use crate::coltype::ColumnType;
use crate::model::DefaultValue;

/// What is wrong with `default` on a column of `ty`, if anything.
/// `explicit_null`: the catalog wrote `default: NULL`.
pub(crate) fn default_problem(
    ty: &ColumnType,
    nullable: bool,
    explicit_null: bool,
    default: Option<&DefaultValue>,
) -> Option<String> {
    if explicit_null && !nullable {
        return Some(
            "`default: NULL` on a NOT NULL column: remove `default` or make the column nullable"
                .into(),
        );
    }
    match default? {
        DefaultValue::CurrentTimestamp(p) => current_timestamp_problem(ty, *p),
        DefaultValue::Expression(e) if is_bare_word(e) => Some(format!(
            "`default: {e}` is SQL, where `{e}` names a column: quote a string default, e.g. default: \"'{e}'\""
        )),
        DefaultValue::Expression(_) => None,
        DefaultValue::Literal(v) => literal_problem(ty, v),
    }
}

/// `CURRENT_TIMESTAMP(p)` must sit on a datetime/timestamp of precision `p`:
/// the server refuses other precisions (MySQL, error 1067) or stores its own
/// (MariaDB), and the column would never read back as declared.
fn current_timestamp_problem(ty: &ColumnType, p: u8) -> Option<String> {
    let fsp = match ty {
        ColumnType::DateTime(q) | ColumnType::Timestamp(q) => *q,
        other => {
            return Some(format!(
                "CURRENT_TIMESTAMP is a default for datetime/timestamp columns, not {other}"
            ))
        }
    };
    (p != fsp).then(|| {
        let want = if fsp == 0 { "CURRENT_TIMESTAMP".to_string() } else { format!("CURRENT_TIMESTAMP({fsp})") };
        format!("a {ty} column defaults to the current time as {want}, not with precision {p}: write `default: {want}`")
    })
}

fn is_bare_word(e: &str) -> bool {
    let mut chars = e.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// A literal must be a value of the column's type.
fn literal_problem(ty: &ColumnType, v: &str) -> Option<String> {
    let number = v.parse::<f64>().is_ok() && !v.trim().is_empty();
    let integer = v
        .trim_start_matches('-')
        .chars()
        .all(|c| c.is_ascii_digit())
        && !v.is_empty()
        && v != "-";
    if ty.is_large_object() {
        return Some(format!(
            "a literal default on a {ty} column is refused by MySQL and TiDB (error 1101): remove `default`"
        ));
    }
    match ty {
        ColumnType::Boolean => (v != "0" && v != "1")
            .then(|| format!("default `{v}` on a boolean column: use true, false, 0 or 1")),
        ColumnType::Int { unsigned, .. } => {
            if !integer {
                Some(format!("default `{v}` on an integer column: write a whole number, unquoted"))
            } else if *unsigned && v.starts_with('-') {
                Some(format!("default `{v}` on an unsigned column: it cannot be negative"))
            } else {
                None
            }
        }
        ColumnType::Decimal { .. } | ColumnType::Float | ColumnType::Double => {
            (!number).then(|| format!("default `{v}` on a numeric column: write a number, unquoted"))
        }
        ColumnType::Char(n) | ColumnType::Varchar(n) => (v.chars().count() > *n as usize)
            .then(|| format!("default `{v}` is {} characters, longer than the column's {n}", v.chars().count())),
        ColumnType::Binary(n) | ColumnType::Varbinary(n) => (v.len() > *n as usize)
            .then(|| format!("default `{v}` is {} bytes, longer than the column's {n}", v.len())),
        ColumnType::Date => (!is_date(v)).then(|| format!("default `{v}` on a date column: write 'YYYY-MM-DD'")),
        ColumnType::DateTime(_) | ColumnType::Timestamp(_) => (!is_datetime(v))
            .then(|| format!("default `{v}` on a {ty} column: write 'YYYY-MM-DD hh:mm:ss[.ffffff]' or CURRENT_TIMESTAMP")),
        // Large objects are handled above; `Other` never comes from a catalog.
        _ => None,
    }
}

fn is_date(v: &str) -> bool {
    let b = v.as_bytes();
    b.len() == 10
        && b.iter().enumerate().all(|(i, c)| {
            if i == 4 || i == 7 {
                *c == b'-'
            } else {
                c.is_ascii_digit()
            }
        })
}

fn is_datetime(v: &str) -> bool {
    let (date, time) = v.split_once(' ').unwrap_or((v, ""));
    if !is_date(date) {
        return false;
    }
    if time.is_empty() {
        return true;
    }
    let (hms, frac) = time.split_once('.').unwrap_or((time, "0"));
    let b = hms.as_bytes();
    b.len() == 8
        && b.iter().enumerate().all(|(i, c)| {
            if i == 2 || i == 5 {
                *c == b':'
            } else {
                c.is_ascii_digit()
            }
        })
        && !frac.is_empty()
        && frac.len() <= 6
        && frac.chars().all(|c| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(ty: &str, nullable: bool, text: &str) -> Option<String> {
        let ty = ColumnType::parse(ty).unwrap();
        let explicit_null = text.eq_ignore_ascii_case("null");
        let d = DefaultValue::parse_sql(text).map(|d| d.canonical(ty.is_numeric()));
        default_problem(&ty, nullable, explicit_null, d.as_ref())
    }

    #[test]
    fn good_defaults_pass() {
        for (ty, text) in [
            ("datetime(6)", "CURRENT_TIMESTAMP(6)"),
            ("timestamp", "CURRENT_TIMESTAMP"),
            ("varchar(32)", "'pending'"),
            ("int unsigned", "0"),
            ("decimal(10,2)", "1.50"),
            ("boolean", "true"),
            ("date", "'2024-01-31'"),
            ("datetime(3)", "'2024-01-31 10:00:00.123'"),
            ("binary(16)", "(uuid_to_bin(uuid()))"),
            ("varchar(8)", "NULL"),
        ] {
            assert_eq!(problem(ty, true, text), None, "{ty} {text}");
        }
    }

    #[test]
    fn server_refused_or_rewritten_defaults_are_errors() {
        for (ty, nullable, text) in [
            ("datetime(6)", true, "CURRENT_TIMESTAMP"),
            ("datetime", true, "CURRENT_TIMESTAMP(6)"),
            ("int", true, "CURRENT_TIMESTAMP"),
            ("varchar(32)", true, "pending"),
            ("int", true, "'abc'"),
            ("int unsigned", true, "-1"),
            ("int", true, "1.5"),
            ("boolean", true, "2"),
            ("varchar(3)", true, "'toolong'"),
            ("text", true, "'x'"),
            ("date", true, "'31/01/2024'"),
            ("varchar(8)", false, "NULL"),
        ] {
            assert!(problem(ty, nullable, text).is_some(), "{ty} {text}");
        }
    }
}
