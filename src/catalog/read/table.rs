//! Turns one table file into a resolved [`Table`], reporting every lint
//! problem of the table to the sink (all of them, not only the first).

use crate::collation;
use crate::coltype::ColumnType;
use crate::ident::Ident;
use crate::model::{Column, DefaultValue, Table};

use crate::catalog::read::checks;
use crate::catalog::read::declared::{check_consumers, check_ident, object_name, Declared};
use crate::catalog::read::keys;
use crate::catalog::read::raw::{RawColumn, RawTable};
use crate::catalog::rule_ids;
use crate::catalog::sink::Sink;
use crate::catalog::Defaults;
use crate::catalog::Limits;
use crate::catalog::{ColumnPolicy, TablePolicy};

/// The types a catalog accepts, for messages.
const TYPE_LIST: &str = "tinyint, smallint, mediumint, int, bigint (each optionally unsigned), \
decimal(p,s), float, double, char(n), varchar(n), binary(n), varbinary(n), text, mediumtext, \
longtext, blob, mediumblob, longblob, json, date, datetime(p), timestamp(p), boolean, time(p), \
year, bit(n), tinytext, tinyblob, enum('a',...), set('a',...), geometry, point, linestring, polygon, \
multipoint, multilinestring, multipolygon, geometrycollection, vector(n)";

/// Builds and lints one table. Returns the table and its policy
/// (`required_by`, `widen`) when the file names one (possibly with errors
/// reported; the caller drops it when there are any).
pub(in crate::catalog) fn build_table(
    mut raw: RawTable,
    defaults: &Defaults,
    limits: Limits,
    sink: &mut Sink,
) -> Option<(Table, TablePolicy)> {
    let name = raw.table.clone();
    match name.as_deref() {
        None => sink.report(
            &rule_ids::YAML_SHAPE,
            None,
            "missing `table`: add `table: <name>` naming the table this file declares",
        ),
        Some(n) => check_ident(sink, None, "table", n),
    }
    check_consumers(sink, None, &raw.required_by);
    let (charset, collation) = resolve_charset(
        sink,
        None,
        raw.charset.as_deref(),
        raw.collation.as_deref(),
        (&defaults.charset, &defaults.collation),
    );
    let mut raw_columns = raw.columns.take().unwrap_or_default();
    let generated: Vec<_> = raw_columns.iter_mut().map(|c| c.generated.take()).collect();
    let auto_random: Vec<(String, crate::catalog::read::raw::RawAutoRandom)> = raw_columns
        .iter()
        .filter_map(|c| c.auto_random.map(|a| (c.name.clone(), a)))
        .collect();
    if raw_columns.is_empty() {
        sink.report(
            &rule_ids::YAML_SHAPE,
            None,
            "the table declares no columns: add a `columns` list with at least one column",
        );
    }
    let widen: Vec<Option<bool>> = raw_columns.iter().map(|c| c.widen).collect();
    let mut declared = declare_columns(raw_columns, (&charset, &collation), sink);
    for (d, w) in declared.iter_mut().zip(widen) {
        d.policy.widen = widen_opt_in(w, defaults.widen);
    }
    crate::catalog::read::generated::lint_generated(generated, &mut declared, sink);
    let known: Vec<&Column> = declared.iter().filter_map(|d| d.column.as_ref()).collect();
    crate::catalog::rules::columns::check_invisible(sink, &known);
    let pk_columns: &[String] = raw.primary_key.as_ref().map_or(&[], |pk| pk.columns());
    let primary_key = raw
        .primary_key
        .as_ref()
        .map(|pk| keys::lint_primary_key(pk.columns(), &declared, limits, sink));
    let (indexes, index_scopes) = keys::lint_indexes(&raw.indexes, &declared, limits, sink);
    let checks = checks::lint_checks(&raw.checks, &declared, sink);
    let pk_values: Vec<serde_yaml::Value> = pk_columns
        .iter()
        .cloned()
        .map(serde_yaml::Value::String)
        .collect();
    let leads: Vec<Ident> = std::iter::once(pk_values.as_slice())
        .chain(raw.indexes.iter().map(|i| i.columns.as_slice()))
        .filter_map(crate::catalog::read::raw::key_parts::leading_column)
        .collect();
    crate::catalog::rules::key_rules::check_auto_increment_keys(&known, &leads, sink);
    let shape = crate::catalog::read::tidb::TableShape {
        columns: &known,
        primary_key: pk_columns,
        auto_random: &auto_random,
    };
    let tidb = crate::catalog::read::tidb::lint(&raw, &shape, &defaults.flavors, sink);
    let pk_parts = primary_key.flatten().unwrap_or_default();
    crate::catalog::rules::key_rules::warn_duplicate_indexes(&indexes, &pk_parts, sink);
    let foreign_keys = crate::catalog::read::foreign_keys::lint_foreign_keys(
        &raw.foreign_keys,
        &declared,
        &pk_parts,
        &indexes,
        sink,
    );
    let mut policy = TablePolicy {
        required_by: raw.required_by,
        columns: Default::default(),
        indexes: index_scopes,
    };
    let columns = declared
        .into_iter()
        .filter_map(|d| {
            let column = d.column?;
            policy.columns.insert(column.name.clone(), d.policy);
            Some(column)
        })
        .collect();
    let mut table = Table {
        name: Ident::new(name?),
        kind: crate::model::TableKind::Base,
        comment: raw.comment,
        engine: Some(resolve_engine(
            sink,
            None,
            raw.engine.as_deref(),
            &defaults.engine,
        )),
        row_format: None,
        charset,
        collation,
        columns,
        primary_key: pk_parts,
        indexes,
        checks,
        foreign_keys,
        tidb,
    };
    table.normalize();
    crate::catalog::rules::limits::lint(&table, sink);
    crate::catalog::rules::flavored::lint(&table, &defaults.flavors, sink);
    crate::catalog::rules::storable::lint(&table, &defaults.flavors, sink);
    Some((table, policy))
}

/// A column's widening opt-in: its own `widen` (true: types and default;
/// false: none), else the catalog's `defaults: { widen: true }` (types only).
fn widen_opt_in(column: Option<bool>, catalog: bool) -> crate::model::Widen {
    use crate::model::Widen;
    match column {
        Some(true) => Widen::TypesAndDefault,
        Some(false) => Widen::Off,
        None if catalog => Widen::Types,
        None => Widen::Off,
    }
}

/// The canonical spelling of a declared engine (the inherited one when none
/// is declared); an engine outside the closed set is reported.
pub(in crate::catalog) fn resolve_engine(
    sink: &mut Sink,
    object: Option<String>,
    engine: Option<&str>,
    inherited: &str,
) -> String {
    let Some(engine) = engine else {
        return inherited.to_string();
    };
    match crate::sqltext::canonical_engine(engine) {
        Some(canonical) => canonical.to_string(),
        None => {
            sink.report(
                &rule_ids::ENGINE,
                object,
                crate::sqltext::engine_problem(engine).unwrap_or_default(),
            );
            engine.to_string()
        }
    }
}

/// Resolves a declared charset/collation pair against the inherited one,
/// reporting unknown names and a collation of another charset. A charset
/// alone gets its binary collation; a collation alone brings its charset.
pub(in crate::catalog) fn resolve_charset(
    sink: &mut Sink,
    object: Option<String>,
    charset: Option<&str>,
    collation: Option<&str>,
    inherited: (&str, &str),
) -> (String, String) {
    let charset = charset.map(collation::canonical_charset);
    let collation = collation.map(collation::canonical_collation);
    if let Some(cs) = charset
        .as_deref()
        .filter(|cs| collation::charset(cs).is_none())
    {
        let known: Vec<&str> = collation::CHARSETS.iter().map(|c| c.name).collect();
        sink.report(
            &rule_ids::CHARSET,
            object.clone(),
            format!("unknown charset `{cs}`; use one of: {}", known.join(", ")),
        );
    }
    let owner = collation.as_deref().map(|c| (c, collation::charset_of(c)));
    match (owner, charset.as_deref()) {
        (Some((c, None)), cs) => {
            let cs = cs.or(Some(inherited.0)).filter(|cs| collation::charset(cs).is_some()).unwrap_or("utf8mb4");
            sink.report(&rule_ids::CHARSET,
                object,
                format!("unknown collation `{c}`; use a collation the servers know, e.g. `{}`", collation::default_collation(cs)),
            );
        }
        (Some((c, Some(owner))), Some(cs)) if owner != cs => sink.report(&rule_ids::CHARSET,
            object,
            format!(
                "collation `{c}` belongs to charset `{owner}`, not `{cs}`; use a collation of `{cs}` such as `{}`, or drop `charset`",
                collation::default_collation(cs)
            ),
        ),
        _ => {}
    }
    match (charset, collation) {
        (Some(cs), Some(c)) => (cs, c),
        (Some(cs), None) => {
            let c = collation::default_collation(&cs);
            (cs, c)
        }
        (None, Some(c)) => (
            collation::charset_of(&c).unwrap_or(inherited.0).to_string(),
            c,
        ),
        (None, None) => (inherited.0.to_string(), inherited.1.to_string()),
    }
}

fn declare_columns(
    raw: Vec<RawColumn>,
    table_charset: (&str, &str),
    sink: &mut Sink,
) -> Vec<Declared> {
    let mut declared: Vec<Declared> = Vec::new();
    for (pos, rc) in raw.into_iter().enumerate() {
        let object = object_name("column", &rc.name, pos);
        let ident = Ident::new(rc.name.clone());
        check_ident(sink, Some(object.clone()), "column", &rc.name);
        if let Some(first) = declared.iter().find(|d| d.ident == ident) {
            sink.report(&rule_ids::DUPLICATE_NAME,
                Some(object.clone()),
                format!(
                    "duplicate column name: `{}` is already declared (column names compare case-insensitively); rename or remove one",
                    first.ident
                ),
            );
        }
        check_consumers(sink, Some(object.clone()), &rc.required_by);
        let nullable_explicit = rc.nullable == Some(true);
        let policy = ColumnPolicy {
            required_by: rc.required_by.clone(),
            // Set by `build_table` from the column's `widen` and the catalog's.
            widen: crate::model::Widen::Off,
        };
        let column = column_from_raw(&object, rc, table_charset, sink);
        if let Some(col) = column.as_ref().filter(|c| c.auto_increment) {
            if let Some(other) = declared
                .iter()
                .filter_map(|d| d.column.as_ref())
                .find(|c| c.auto_increment)
            {
                sink.report(&rule_ids::AUTO_INCREMENT,
                    Some(object.clone()),
                    format!("a table can have only one auto_increment column and `{}` already is one; remove `auto_increment` from `{}`", other.name, col.name),
                );
            }
        }
        declared.push(Declared {
            ident,
            column,
            nullable_explicit,
            policy,
        });
    }
    declared
}

/// The model column, when its type is known; reports type, charset, default
/// and auto_increment problems.
fn column_from_raw(
    object: &str,
    rc: RawColumn,
    table_charset: (&str, &str),
    sink: &mut Sink,
) -> Option<Column> {
    let mut ty = parse_type(sink, object, rc.ty.as_deref())?;
    match (&mut ty, rc.srid) {
        (_, None) => {}
        (ColumnType::Spatial { srid: declared @ None, .. }, Some(n)) => *declared = Some(n),
        (ColumnType::Spatial { .. }, Some(_)) => sink.report(&rule_ids::UNKNOWN_TYPE,
            Some(object.to_string()),
            "the SRID is given twice, in `type` and in `srid`: keep `srid` only",
        ),
        (other, Some(_)) => sink.report(&rule_ids::UNKNOWN_TYPE,
            Some(object.to_string()),
            format!("`srid` on a {other} column: only spatial columns (geometry, point, ...) have an SRID; remove `srid`"),
        ),
    }
    crate::catalog::rules::columns::check_members(sink, object, &ty);
    let on_update =
        crate::catalog::rules::columns::on_update(sink, object, &ty, rc.on_update.as_deref());
    let (charset, collation) = column_charset(sink, object, &ty, &rc, table_charset);
    let default = rc
        .default
        .as_ref()
        .and_then(|v| parse_default(sink, object, v));
    let explicit_null = matches!(&rc.default, Some(serde_yaml::Value::String(s)) if s.trim().eq_ignore_ascii_case("null"))
        || matches!(&rc.default, Some(serde_yaml::Value::Null));
    let nullable = rc.nullable.unwrap_or(true);
    let canonical = default.as_ref().map(|d| d.canonical(ty.is_numeric()));
    if let Some(message) = crate::catalog::rules::defaults::default_problem(
        &ty,
        nullable,
        explicit_null,
        canonical.as_ref(),
    ) {
        sink.report(&rule_ids::DEFAULT, Some(object.to_string()), message);
    }
    if rc.auto_increment {
        if !ty.is_integer() {
            sink.report(&rule_ids::AUTO_INCREMENT,
                Some(object.to_string()),
                format!("auto_increment on a {ty} column: only integer columns can be AUTO_INCREMENT; use bigint unsigned or remove `auto_increment`"),
            );
        }
        if default.is_some() {
            sink.report(
                &rule_ids::AUTO_INCREMENT,
                Some(object.to_string()),
                "an auto_increment column cannot have a default: remove `default`",
            );
        }
    }
    Some(Column {
        name: Ident::new(rc.name),
        ty,
        nullable: rc.nullable.unwrap_or(true),
        auto_increment: rc.auto_increment,
        default,
        charset,
        collation,
        generated: None,
        on_update,
        invisible: rc.invisible,
        comment: rc.comment,
    })
}

fn parse_type(sink: &mut Sink, object: &str, text: Option<&str>) -> Option<ColumnType> {
    let Some(text) = text else {
        sink.report(
            &rule_ids::UNKNOWN_TYPE,
            Some(object.to_string()),
            format!("missing `type`: add one of: {TYPE_LIST}"),
        );
        return None;
    };
    match ColumnType::parse(text) {
        Ok(ty) => Some(ty),
        Err(_) => {
            sink.report(
                &rule_ids::UNKNOWN_TYPE,
                Some(object.to_string()),
                format!("unknown type `{text}`; use one of: {TYPE_LIST}"),
            );
            None
        }
    }
}

/// Charset and collation of a column: inherited by textual columns, refused
/// on all others.
fn column_charset(
    sink: &mut Sink,
    object: &str,
    ty: &ColumnType,
    rc: &RawColumn,
    table_charset: (&str, &str),
) -> (Option<String>, Option<String>) {
    if ty.is_textual() {
        let (cs, c) = resolve_charset(
            sink,
            Some(object.to_string()),
            rc.charset.as_deref(),
            rc.collation.as_deref(),
            table_charset,
        );
        return (Some(cs), Some(c));
    }
    let given: Vec<&str> = [("charset", &rc.charset), ("collation", &rc.collation)]
        .into_iter()
        .filter(|(_, v)| v.is_some())
        .map(|(k, _)| k)
        .collect();
    if !given.is_empty() {
        let keys = given
            .iter()
            .map(|k| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(" and ");
        let bytes_hint = if matches!(
            ty,
            ColumnType::Binary(_)
                | ColumnType::Varbinary(_)
                | ColumnType::TinyBlob
                | ColumnType::Blob
                | ColumnType::MediumBlob
                | ColumnType::LongBlob
        ) {
            " (binary types already compare bytes)"
        } else {
            ""
        };
        sink.report(&rule_ids::CHARSET,
            Some(object.to_string()),
            format!("{keys} on a {ty} column: only char, varchar and text columns have a charset and collation{bytes_hint}; remove {keys}"),
        );
    }
    (None, None)
}

/// A default from YAML: SQL text, or a YAML number or bool.
fn parse_default(sink: &mut Sink, object: &str, value: &serde_yaml::Value) -> Option<DefaultValue> {
    use serde_yaml::Value;
    match value {
        Value::String(s) => DefaultValue::parse_sql(s),
        Value::Number(n) => DefaultValue::parse_sql(&n.to_string()),
        Value::Bool(b) => Some(DefaultValue::Literal(if *b { "1" } else { "0" }.into())),
        Value::Null => None,
        _ => {
            sink.report(&rule_ids::DEFAULT,
                Some(object.to_string()),
                "`default` must be a scalar SQL default such as 0, \"'pending'\" or CURRENT_TIMESTAMP(6)",
            );
            None
        }
    }
}
