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
            "`default: {e}` is SQL, where a bare word names a column or a function without \
             parentheses (which the server stores rewritten): quote a string default \
             (default: \"'{e}'\") or call the function with parentheses (e.g. curdate())"
        )),
        DefaultValue::Expression(e) => crate::sqltext::render_default_expression(e)
            .err()
            .map(|why| format!("default `{}` {why}", e.escape_debug())),
        DefaultValue::Literal(v) => literal_problem(ty, v),
        DefaultValue::Bits(b) => bits_problem(ty, b),
    }
}

/// A bit-value default `b'...'` belongs on a bit(n) column and has at most
/// n digits (the servers refuse a longer one, error 1067).
fn bits_problem(ty: &ColumnType, digits: &str) -> Option<String> {
    match ty {
        ColumnType::Bit(n) if digits.len() > *n as usize => Some(format!(
            "default b'{digits}' has {} bits, more than the column's {n}",
            digits.len()
        )),
        ColumnType::Bit(_) => None,
        other => Some(format!(
            "a bit-value default b'{digits}' belongs on a bit(n) column, not {other}: write the value in the column's own form"
        )),
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

/// A literal must be a value of the column's type that the server stores
/// as written (no padding, trimming, rounding or clamping).
fn literal_problem(ty: &ColumnType, v: &str) -> Option<String> {
    // A text/blob/json literal default is MariaDB-only: `catalog::rules::flavored`
    // refuses it for a catalog that targets MySQL or TiDB. Spatial and
    // vector columns take none anywhere.
    if matches!(ty, ColumnType::Spatial { .. } | ColumnType::Vector(_)) {
        return Some(format!(
            "a {ty} column takes no literal default: remove `default`"
        ));
    }
    if ty.is_large_object() {
        return None;
    }
    match ty {
        // boolean is tinyint(1): any tinyint value is stored as written.
        ColumnType::Boolean => integer_problem(v, -128, 127, "a boolean (tinyint(1))"),
        ColumnType::Int { kind, unsigned } => {
            let (lo, hi) = kind.range(*unsigned);
            integer_problem(v, lo, hi, &ty.to_string())
        }
        ColumnType::Decimal { precision, scale } => decimal_problem(v, *precision, *scale),
        ColumnType::Float | ColumnType::Double => (!is_decimal_text(v))
            .then(|| format!("default `{v}` on a {ty} column: write a number, unquoted")),
        ColumnType::Char(n) if v.ends_with(' ') => Some(format!(
            "default `{v}` on a {ty} column: char drops trailing spaces, so it would read back trimmed"
        )),
        ColumnType::Char(n) | ColumnType::Varchar(n) => (v.chars().count() > *n as usize).then(|| {
            format!("default `{v}` is {} characters, longer than the column's {n}", v.chars().count())
        }),
        ColumnType::Binary(n) => (v.len() != *n as usize).then(|| {
            format!("default `{v}` is {} bytes on a binary({n}) column, which pads it with NUL bytes: give exactly {n} bytes", v.len())
        }),
        ColumnType::Varbinary(n) => (v.len() > *n as usize)
            .then(|| format!("default `{v}` is {} bytes, longer than the column's {n}", v.len())),
        ColumnType::Date if !is_date(v) => Some(format!("default `{v}` on a date column: write 'YYYY-MM-DD'")),
        ColumnType::Date => calendar_problem(v, ty),
        ColumnType::DateTime(p) | ColumnType::Timestamp(p) => {
            datetime_problem(v, *p, ty).or_else(|| calendar_problem(v, ty))
        }
        ColumnType::Time(p) => time_problem(v, *p),
        ColumnType::Year => year_problem(v),
        // Both servers show any bit default as b'...' (DEFAULT 5 reads back
        // as b'101'), so only that form reads back as written.
        ColumnType::Bit(_) => Some(format!(
            "default `{v}` on a {ty} column: write it as a bit-value literal, e.g. `default: \"b'101'\"`, the form the servers show"
        )),
        ColumnType::Enum(members) => (!members.iter().any(|m| m == v)).then(|| {
            format!("default `{v}` is not a member of {ty} (members compare exactly, case included): use one of the members")
        }),
        ColumnType::Set(members) => set_problem(v, members, ty),
        // Large objects are handled above; `Other` never comes from a catalog.
        _ => None,
    }
}

/// Digits with an optional sign and at most one point: no NaN, inf or exponent.
fn is_decimal_text(v: &str) -> bool {
    let body = v.strip_prefix(['-', '+']).unwrap_or(v);
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    !(int.is_empty() && frac.is_empty())
        && int.chars().all(|c| c.is_ascii_digit())
        && frac.chars().all(|c| c.is_ascii_digit())
}

fn integer_problem(v: &str, lo: i128, hi: i128, what: &str) -> Option<String> {
    match v.parse::<i128>() {
        Ok(n) if (lo..=hi).contains(&n) => None,
        Ok(_) => Some(format!(
            "default `{v}` is out of range for {what} ({lo} to {hi})"
        )),
        Err(_) => Some(format!(
            "default `{v}` on {what}: write a whole number, unquoted"
        )),
    }
}

fn decimal_problem(v: &str, precision: u32, scale: u32) -> Option<String> {
    if !is_decimal_text(v) {
        return Some(format!(
            "default `{v}` on a decimal column: write a number, unquoted"
        ));
    }
    let body = v.trim_start_matches(['-', '+']);
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    let int_digits = int.trim_start_matches('0').len() as u32;
    let frac = frac.trim_end_matches('0');
    if frac.len() as u32 > scale || int_digits > precision - scale {
        return Some(format!(
            "default `{v}` does not fit decimal({precision},{scale}) as written (it would be rounded or clamped)"
        ));
    }
    None
}

/// 'hh:mm:ss[.f]' with at most `fsp` fractional digits (more would be rounded).
fn time_problem(v: &str, fsp: u8) -> Option<String> {
    let (hms, frac) = v.split_once('.').unwrap_or((v, ""));
    let parts: Vec<&str> = hms.split(':').collect();
    let digits = |s: &str, n: usize| s.len() == n && s.chars().all(|c| c.is_ascii_digit());
    let ok = parts.len() == 3
        && digits(parts[0].trim_start_matches('-'), 2)
        && digits(parts[1], 2)
        && digits(parts[2], 2)
        && parts[1] < "60"
        && parts[2] < "60"
        && frac.chars().all(|c| c.is_ascii_digit())
        && frac.len() <= usize::from(fsp)
        && !(v.contains('.') && frac.is_empty());
    (!ok).then(|| {
        format!("default `{v}` on a time({fsp}) column: write 'hh:mm:ss' with at most {fsp} fractional digits")
    })
}

/// A four-digit year 1901..=2155 (or 0000): two-digit years are rewritten.
fn year_problem(v: &str) -> Option<String> {
    let ok = v.len() == 4
        && v.parse::<u32>()
            .is_ok_and(|y| y == 0 || (1901..=2155).contains(&y));
    (!ok).then(|| {
        format!("default `{v}` on a year column: write a four-digit year from 1901 to 2155")
    })
}

/// Members of the set, each once, in declared order (the server sorts them).
fn set_problem(v: &str, members: &[String], ty: &ColumnType) -> Option<String> {
    if v.is_empty() {
        return None;
    }
    let mut last = None;
    for item in v.split(',') {
        let Some(pos) = members.iter().position(|m| m == item) else {
            return Some(format!(
                "default `{v}`: `{item}` is not a member of {ty} (members compare exactly, case included)"
            ));
        };
        if last.is_some_and(|l| pos <= l) {
            return Some(format!(
                "default `{v}` lists members out of declared order or twice; the server stores them once, in the order of {ty}"
            ));
        }
        last = Some(pos);
    }
    None
}

fn datetime_problem(v: &str, fsp: u8, ty: &ColumnType) -> Option<String> {
    if !is_datetime(v) {
        return Some(format!(
            "default `{v}` on a {ty} column: write 'YYYY-MM-DD hh:mm:ss[.ffffff]' or CURRENT_TIMESTAMP"
        ));
    }
    let digits = v
        .split_once('.')
        .map_or(0, |(_, f)| f.trim_end_matches('0').len());
    (digits > fsp as usize).then(|| {
        format!("default `{v}` has more fractional digits than the {ty} column keeps: it would be rounded")
    })
}

/// The servers refuse a date that is not on the calendar (error 1067, both
/// probed: `'2020-02-30'`, month 13, hour 25) and a TIMESTAMP outside its
/// range. A `00` month or day (a zero date) is `catalog::rules::flavored`'s:
/// MariaDB takes it, MySQL and TiDB do not under their default sql_mode.
/// `v` is a well-formed `YYYY-MM-DD[ hh:mm:ss[.f]]`.
fn calendar_problem(v: &str, ty: &ColumnType) -> Option<String> {
    let num = |r: std::ops::Range<usize>| v.get(r).and_then(|d| d.parse::<u32>().ok());
    let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hour, minute, second) = if v.len() >= 19 {
        (num(11..13)?, num(14..16)?, num(17..19)?)
    } else {
        (0, 0, 0)
    };
    if month == 0 || day == 0 {
        return None;
    }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    if month > 12 || day > days || hour > 23 || minute > 59 || second > 59 {
        return Some(format!(
            "default `{v}` is not a date on the calendar (or not a time of day): the server refuses it (error 1067)"
        ));
    }
    // TIMESTAMP holds 1970-01-01 00:00:01 to 2038-01-19 03:14:07 UTC. The
    // server reads the literal in the session time zone; lint takes UTC
    // (the edges themselves are legacy defaults that exist live).
    let at = format!("{}{}", &v[..10], v.get(10..19).unwrap_or(" 00:00:00"));
    let inside = ("1970-01-01 00:00:01"..="2038-01-19 03:14:07").contains(&at.as_str());
    (matches!(ty, ColumnType::Timestamp(_)) && !inside).then(|| {
        format!("default `{v}` is outside what a timestamp holds (1970-01-01 00:00:01 to 2038-01-19 03:14:07 UTC): the servers refuse it (error 1067); use a datetime column or another default")
    })
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
            ("boolean", "-1"),
            ("tinyint(1)", "2"),
            ("int", "+5"),
            ("decimal(5,2)", "-123.45"),
            ("binary(2)", "'ab'"),
            ("char(3)", "'a b'"),
            ("datetime(3)", "'2024-01-31 10:00:00.120000'"),
            ("date", "'0000-00-00'"),
            ("date", "'2020-02-29'"),
            ("date", "'2000-02-29'"),
            ("datetime", "'2020-00-01 00:00:00'"),
            ("timestamp", "'2020-01-01 00:00:00'"),
            ("timestamp", "'0000-00-00 00:00:00'"),
            ("timestamp", "'1970-01-01 00:00:01'"),
            ("timestamp", "'2038-01-19 03:14:07'"),
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
            ("boolean", true, "200"),
            ("tinyint", true, "300"),
            ("int", true, "'--5'"),
            ("double", true, "'NaN'"),
            ("decimal(5,2)", true, "1234.5"),
            ("decimal(5,2)", true, "1.234"),
            ("binary(4)", true, "'ab'"),
            ("char(3)", true, "'a  '"),
            ("timestamp(3)", true, "'2024-01-31 10:00:00.1234'"),
            ("varchar(3)", true, "'toolong'"),
            ("point", true, "'x'"),
            ("date", true, "'31/01/2024'"),
            ("date", true, "'2020-02-30'"),
            ("date", true, "'2021-02-29'"),
            ("date", true, "'2020-13-01'"),
            ("datetime", true, "'2020-01-01 25:00:00'"),
            ("timestamp", true, "'1960-01-01 00:00:00'"),
            ("timestamp", true, "'2040-01-01 00:00:00'"),
            ("timestamp", true, "'1970-01-01 00:00:00'"),
            ("varchar(8)", false, "NULL"),
        ] {
            assert!(problem(ty, nullable, text).is_some(), "{ty} {text}");
        }
    }
}
