//! Lint of the catalog format v2 column attributes: `enum`/`set` member
//! lists and `on_update`. Each rule refuses what the server would refuse or
//! store in another form, so apply could never read it back exact.

use crate::coltype::ColumnType;
use crate::model::{Column, DefaultValue};
use crate::server::Flavor;

use crate::catalog::rule_ids;
use crate::catalog::sink::Sink;

/// MySQL/MariaDB limits: 65,535 enum members, 64 set members.
const MAX_ENUM_MEMBERS: usize = 65_535;
const MAX_SET_MEMBERS: usize = 64;

/// Problems with an `enum(...)` / `set(...)` member list.
pub(in crate::catalog) fn check_members(sink: &mut Sink, object: &str, ty: &ColumnType) {
    let (members, max, what) = match ty {
        ColumnType::Enum(m) => (m, MAX_ENUM_MEMBERS, "enum"),
        ColumnType::Set(m) => (m, MAX_SET_MEMBERS, "set"),
        _ => return,
    };
    let mut error =
        |message: String| sink.report(&rule_ids::MEMBERS, Some(object.to_string()), message);
    if members.len() > max {
        error(format!(
            "a {what} has at most {max} members, this one has {}",
            members.len()
        ));
    }
    for (i, m) in members.iter().enumerate() {
        if m.ends_with(' ') {
            error(format!(
                "{what} member `{m}` ends with a space, which the server strips: remove the trailing space"
            ));
        }
        if what == "set" && m.contains(',') {
            error(format!(
                "set member `{m}` contains a comma, which separates set values: the server refuses it"
            ));
        }
        // Duplicates compare case-insensitively under the usual _ci
        // collations and exactly under _bin; refuse both to be safe.
        if members[..i]
            .iter()
            .any(|o| o.to_lowercase() == m.to_lowercase())
        {
            error(format!(
                "{what} member `{m}` is listed twice (members compare case-insensitively under most collations): remove one"
            ));
        }
    }
}

/// `on_update: CURRENT_TIMESTAMP(p)`: only on a datetime/timestamp of the
/// same precision `p`.
pub(in crate::catalog) fn on_update(
    sink: &mut Sink,
    object: &str,
    ty: &ColumnType,
    text: Option<&str>,
) -> Option<DefaultValue> {
    let text = text?;
    let fsp = match ty {
        ColumnType::DateTime(p) | ColumnType::Timestamp(p) => Some(*p),
        _ => None,
    };
    let want = |p: u8| match p {
        0 => "CURRENT_TIMESTAMP".to_string(),
        p => format!("CURRENT_TIMESTAMP({p})"),
    };
    let Some(fsp) = fsp else {
        sink.report(
            &rule_ids::ON_UPDATE,
            Some(object.to_string()),
            format!(
                "`on_update` is for datetime and timestamp columns, not {ty}: remove `on_update`"
            ),
        );
        return None;
    };
    match DefaultValue::parse_sql(text) {
        Some(DefaultValue::CurrentTimestamp(p)) if p == fsp => {
            Some(DefaultValue::CurrentTimestamp(p))
        }
        Some(DefaultValue::CurrentTimestamp(p)) => {
            sink.report(&rule_ids::ON_UPDATE,
                Some(object.to_string()),
                format!("`on_update: {text}` has precision {p} on a {ty} column: the server refuses that; write `on_update: {}`", want(fsp)),
            );
            None
        }
        _ => {
            sink.report(&rule_ids::ON_UPDATE,
                Some(object.to_string()),
                format!("`on_update: {text}`: the only ON UPDATE value is the current time; write `on_update: {}`", want(fsp)),
            );
            None
        }
    }
}

/// `catalog.yaml` `flavors`: known names, at least one, each once; absent
/// is all three. Kept in [`Flavor::ALL`] order.
pub(in crate::catalog) fn flavors(sink: &mut Sink, names: Option<&[String]>) -> Vec<Flavor> {
    let Some(names) = names else {
        return Flavor::ALL.to_vec();
    };
    let mut wanted = Vec::new();
    for name in names {
        match name.parse::<Flavor>() {
            Ok(f) if wanted.contains(&f) => sink.report(
                &rule_ids::SETTINGS,
                Some("flavors".into()),
                format!("`{name}` is listed twice: remove one"),
            ),
            Ok(f) => wanted.push(f),
            Err(_) => sink.report(
                &rule_ids::SETTINGS,
                Some("flavors".into()),
                format!("unknown flavor `{name}`: use tidb, mysql and/or mariadb"),
            ),
        }
    }
    if names.is_empty() {
        sink.report(&rule_ids::SETTINGS,
            Some("flavors".into()),
            "`flavors` is empty: list the flavors the catalog targets (tidb, mysql, mariadb) or remove the key for all three",
        );
    }
    Flavor::ALL
        .into_iter()
        .filter(|f| wanted.contains(f))
        .collect()
}

/// A table keeps at least one visible column (the servers refuse
/// otherwise, MySQL error 4028). Which flavors have invisible columns is
/// `catalog::rules::flavored`'s rule.
pub(in crate::catalog) fn check_invisible(sink: &mut Sink, columns: &[&Column]) {
    if !columns.is_empty() && columns.iter().all(|c| c.invisible) {
        sink.report(
            &rule_ids::INVISIBLE,
            None,
            "every column is invisible: the server requires at least one visible column",
        );
    }
}
