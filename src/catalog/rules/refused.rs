//! Combinations of format v2 features that a server refuses although each
//! feature alone is fine: what a generated column's expression may call,
//! which keys and foreign keys may use a generated column, what a CHECK
//! may read. Each is a [`Need`] for [`crate::catalog::rules::flavored`]: `catalog check`
//! refuses it when the catalog targets a flavor that lacks it, `catalog
//! import` narrows `flavors` to the ones that hold it.
//!
//! Every rule was probed on MariaDB 10.11 and MySQL 9.7 (the error codes
//! are quoted in the messages; tests/it/lint_agrees_live.rs keeps them
//! honest). Which flavors refuse each combination, TiDB's grouping with
//! MySQL included, is the server's ([`Feature`], with its sources).

use crate::ident::Ident;
use crate::model::{Column, ForeignKey, IndexKind, IndexPart, ReferentialAction, Table};
use crate::server::Feature;

use crate::catalog::rules::expr_facts::{self, Call, Truth};
use crate::catalog::rules::need::Need;

/// Functions whose value changes between reads (the clock, the session,
/// chance): MySQL refuses each in a generated column (3763) and a CHECK
/// (3814); MariaDB in a CHECK and in a STORED or indexed generated column
/// (1901). `unix_timestamp` only without an argument (see
/// [`SESSION_TIME_ZONE`]).
const VOLATILE: &[&str] = &[
    "connection_id",
    "curdate",
    "current_date",
    "current_time",
    "current_timestamp",
    "current_user",
    "curtime",
    "database",
    "found_rows",
    "last_insert_id",
    "localtime",
    "localtimestamp",
    "now",
    "rand",
    "row_count",
    "schema",
    "session_user",
    "sleep",
    "sysdate",
    "system_user",
    "unix_timestamp",
    "user",
    "utc_date",
    "utc_time",
    "utc_timestamp",
    "uuid",
    "uuid_short",
    "version",
];

/// Volatile functions MariaDB refuses even in a VIRTUAL column no index
/// uses (1901).
const NEVER_GENERATED: &[&str] = &["found_rows", "last_insert_id", "row_count", "sleep"];

/// `unix_timestamp(x)` depends on the session time zone: MySQL refuses it in
/// a generated column and a CHECK (3763 / 3814), MariaDB takes it.
const SESSION_TIME_ZONE: &str = "unix_timestamp";

/// Functions MariaDB reads the session's time zone or locale for
/// (`lc_time_names`): it refuses them in a CHECK and a STORED or indexed
/// generated column (1901); MySQL takes them.
const MARIADB_SESSION: &[&str] = &["date_format", "dayname", "from_unixtime", "monthname"];

/// Every combination in `table` some flavor refuses.
pub(in crate::catalog) fn needs(table: &Table) -> Vec<Need> {
    let mut out = Vec::new();
    for c in &table.columns {
        generated(table, c, &mut out);
    }
    text_keys_on_virtual(table, &mut out);
    invisible_implicit_primary_key(table, &mut out);
    foreign_keys_over_generated(table, &mut out);
    checks(table, &mut out);
    out
}

fn need(out: &mut Vec<Need>, object: String, feature: Feature, message: String) {
    out.push(Need {
        object,
        feature,
        message,
    });
}

/// Whether a key (the primary key or an index) uses `column`.
fn indexed(table: &Table, column: &Ident) -> bool {
    table
        .primary_key
        .iter()
        .chain(table.indexes.iter().flat_map(|i| &i.parts))
        .any(|p| p.column_name() == Some(column))
}

fn virtual_generated(c: &Column) -> bool {
    c.generated.as_ref().is_some_and(|g| !g.stored)
}

fn stored_generated(c: &Column) -> bool {
    c.generated.as_ref().is_some_and(|g| g.stored)
}

/// The calls of `text`, each name once.
fn distinct_calls(text: &str) -> Vec<Call> {
    let mut out: Vec<Call> = Vec::new();
    for call in expr_facts::calls(text) {
        if !out.iter().any(|c| c.name == call.name) {
            out.push(call);
        }
    }
    out
}

/// The columns `text` names, each once.
fn distinct_columns(text: &str) -> Vec<Ident> {
    let mut out: Vec<Ident> = Vec::new();
    for name in expr_facts::columns(text) {
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// A call as written in a message: `now()`, `unix_timestamp(...)`.
fn shown(call: &Call) -> String {
    let args = if call.has_args { "..." } else { "" };
    format!("{}({args})", call.name)
}

/// What a generated column's expression may call and name.
fn generated(table: &Table, c: &Column, out: &mut Vec<Need>) {
    let Some(g) = &c.generated else { return };
    let object = format!("column `{}`", c.name);
    // MariaDB evaluates a VIRTUAL column no index uses on every read, so it
    // takes what changes between reads there; anywhere else it refuses.
    let maria_keeps_value = g.stored || indexed(table, &c.name);
    let where_maria = "MariaDB in a STORED or indexed one (error 1901)";
    for call in distinct_calls(&g.expression) {
        if call.name == SESSION_TIME_ZONE && call.has_args {
            need(out, object.clone(), Feature::SessionTimeZoneCallInGenerated, format!(
                "generated expression calls `{}`, which depends on the session time zone: MySQL and TiDB refuse it in a generated column (error 3763); store the timestamp itself, or list only `flavors: [mariadb]` in catalog.yaml",
                shown(&call)
            ));
        } else if MARIADB_SESSION.contains(&call.name.as_str()) && maria_keeps_value {
            need(out, object.clone(), Feature::SessionLocaleCallInStoredGenerated, format!(
                "generated expression calls `{}`, which depends on the session time zone or locale: MariaDB refuses it in a STORED or indexed generated column (error 1901); make the column VIRTUAL and unindexed, or list only `flavors: [mysql, tidb]` in catalog.yaml",
                shown(&call)
            ));
        } else if VOLATILE.contains(&call.name.as_str()) {
            let feature = if maria_keeps_value {
                Feature::VolatileCallInStoredGenerated
            } else if NEVER_GENERATED.contains(&call.name.as_str()) {
                Feature::StatementStateCallInGenerated
            } else {
                Feature::VolatileCallInVirtualGenerated
            };
            let fix = if feature.held_nowhere() {
                "compute it from the row's columns"
            } else {
                "compute it from the row's columns, or list only `flavors: [mariadb]` in catalog.yaml"
            };
            need(out, object.clone(), feature, format!(
                "generated expression calls `{}`, whose value changes between reads: MySQL and TiDB refuse it in any generated column (error 3763), {where_maria}; {fix}",
                shown(&call)
            ));
        }
    }
    if expr_facts::reads_variable(&g.expression) {
        let feature = if maria_keeps_value {
            Feature::VariableInStoredGenerated
        } else {
            Feature::VariableInVirtualGenerated
        };
        need(out, object.clone(), feature, format!(
            "generated expression reads a user or system variable: MySQL and TiDB refuse that (error 3772), {where_maria}; compute it from the row's columns"
        ));
    }
    for name in distinct_columns(&g.expression) {
        if !table.column(&name).is_some_and(|o| o.auto_increment) {
            continue;
        }
        let (feature, fix) = if maria_keeps_value {
            (
                Feature::AutoIncrementInStoredGenerated,
                "compute it from other columns",
            )
        } else {
            (
                Feature::AutoIncrementInVirtualGenerated,
                "compute it from other columns, or list only `flavors: [mariadb]` in catalog.yaml",
            )
        };
        need(out, object.clone(), feature, format!(
            "generated expression names `{name}`, an auto_increment column: MySQL and TiDB refuse that (error 3109), {where_maria}; {fix}"
        ));
    }
}

/// FULLTEXT and SPATIAL indexes key stored values only.
fn text_keys_on_virtual(table: &Table, out: &mut Vec<Need>) {
    for i in &table.indexes {
        let (kind, maria, feature) = match i.kind {
            IndexKind::FullText(_) => (
                "FULLTEXT",
                ", MariaDB with error 1907",
                Feature::FullTextIndexOnVirtualGenerated,
            ),
            // MariaDB's generated columns are always nullable, so a SPATIAL
            // key over one fails there anyway (1252, reported on the column).
            IndexKind::Spatial => ("SPATIAL", "", Feature::SpatialIndexOnVirtualGenerated),
            IndexKind::BTree => continue,
        };
        let virtuals = i
            .parts
            .iter()
            .filter_map(IndexPart::column_name)
            .filter(|n| table.column(n).is_some_and(virtual_generated));
        for name in virtuals {
            need(out, format!("index `{}`", i.name), feature, format!(
                "a {kind} index on `{name}`, a VIRTUAL generated column: MySQL refuses it (error 3106){maria}; declare `{name}` with `generated: {{..., stored: true}}`"
            ));
        }
    }
}

/// The actions of `fk` that write its child columns (ON UPDATE CASCADE /
/// SET NULL / SET DEFAULT, ON DELETE SET NULL / SET DEFAULT) as the
/// catalog spells them; empty when it writes none.
fn writing_actions(fk: &ForeignKey) -> String {
    use ReferentialAction as A;
    let mut out = Vec::new();
    if matches!(fk.on_update, A::Cascade | A::SetNull | A::SetDefault) {
        out.push(format!("`on_update: {}`", fk.on_update.yaml()));
    }
    if matches!(fk.on_delete, A::SetNull | A::SetDefault) {
        out.push(format!("`on_delete: {}`", fk.on_delete.yaml()));
    }
    out.join(" and ")
}

/// Without a primary key, the servers promote the first UNIQUE index over
/// NOT NULL columns to it, and refuse that index invisible (MySQL 3522) or
/// IGNORED (MariaDB 4174). MySQL counts a prefix part, MariaDB does not.
fn invisible_implicit_primary_key(table: &Table, out: &mut Vec<Need>) {
    if !table.primary_key.is_empty() {
        return;
    }
    let first = |prefix_counts: bool| {
        table.indexes.iter().position(|i| {
            i.unique
                && i.parts.iter().all(|p| match p {
                    IndexPart::Column { name, prefix, .. } => {
                        (prefix_counts || prefix.is_none())
                            && table.column(name).is_some_and(|c| !c.nullable)
                    }
                    IndexPart::Expression(_) => false,
                })
        })
    };
    let (mysql, mariadb) = (first(true), first(false));
    for (pos, i) in table.indexes.iter().enumerate() {
        if i.visible {
            continue;
        }
        let (feature, who, flavors) = match (mysql == Some(pos), mariadb == Some(pos)) {
            (true, true) => (Feature::InvisibleImplicitPrimaryKey, "MySQL refuses it invisible (error 3522), MariaDB IGNORED (error 4174)", ""),
            (true, false) => (Feature::InvisiblePrefixedImplicitPrimaryKey, "MySQL and TiDB refuse it invisible (error 3522; they count a prefix part, MariaDB does not)", ", or list only `flavors: [mariadb]` in catalog.yaml"),
            (false, true) => (Feature::IgnoredImplicitPrimaryKeyAfterPrefixed, "MariaDB refuses it IGNORED (error 4174; MySQL promotes an earlier prefixed index instead)", ", or list only `flavors: [mysql, tidb]` in catalog.yaml"),
            (false, false) => continue,
        };
        need(out, format!("index `{}`", i.name), feature, format!(
            "`visible: false` on the first unique index over NOT NULL columns of a table without `primary_key`, which the server makes its primary key: {who}; declare `primary_key` or keep this index visible{flavors}"
        ));
    }
}

/// A foreign key over a generated column, or over a column a STORED
/// generated column is computed from.
fn foreign_keys_over_generated(table: &Table, out: &mut Vec<Need>) {
    for fk in &table.foreign_keys {
        let object = format!("foreign key `{}`", fk.name);
        let writes = writing_actions(fk);
        for name in &fk.columns {
            let Some(c) = table.column(name) else {
                continue;
            };
            if virtual_generated(c) {
                need(out, object.clone(), Feature::VirtualGeneratedFkColumn, format!(
                    "column `{name}` is a VIRTUAL generated column: MySQL and TiDB refuse a foreign key over one (error 3733); declare it `stored: true`, or list only `flavors: [mariadb]` in catalog.yaml"
                ));
            }
            if stored_generated(c) && !writes.is_empty() {
                need(out, object.clone(), Feature::FkActionWritingGeneratedColumn, format!(
                    "{writes} would write `{name}`, a generated column: the servers refuse that (MySQL error 3104, MariaDB 1905); use restrict or no action (on_delete: cascade is allowed)"
                ));
            }
            let Some(stored) = table.columns.iter().find(|s| {
                stored_generated(s)
                    && s.generated
                        .as_ref()
                        .is_some_and(|g| expr_facts::columns(&g.expression).contains(name))
            }) else {
                continue;
            };
            let sname = &stored.name;
            if !writes.is_empty() {
                need(out, object.clone(), Feature::FkActionWritingStoredGeneratedSource, format!(
                    "{writes} would change `{name}`, which the STORED generated column `{sname}` is computed from: the servers refuse that (MySQL error 1215, MariaDB 1901); use restrict or no action, or make `{sname}` VIRTUAL"
                ));
            } else if fk.on_delete == ReferentialAction::Cascade {
                need(out, object.clone(), Feature::CascadeOverStoredGeneratedSource, format!(
                    "`on_delete: cascade` over `{name}`, which the STORED generated column `{sname}` is computed from: MySQL and TiDB refuse that (error 1215); use restrict or no action, make `{sname}` VIRTUAL, or list only `flavors: [mariadb]` in catalog.yaml"
                ));
            }
        }
    }
}

/// `fk` referencing a VIRTUAL generated column of `parent`: MySQL and TiDB
/// refuse it (3733), MariaDB takes it. Catalog-wide (the parent is another
/// table), so [`crate::catalog::read::foreign_keys::lint_references`] and
/// [`crate::catalog::rules::flavored::flavors_for`] ask for it.
pub(in crate::catalog) fn references_virtual(fk: &ForeignKey, parent: &Table) -> Option<Need> {
    let name = fk
        .referenced_columns
        .iter()
        .find(|n| parent.column(n).is_some_and(virtual_generated))?;
    Some(Need {
        object: format!("foreign key `{}`", fk.name),
        feature: Feature::VirtualGeneratedFkColumn,
        message: format!(
            "references `{}`.`{name}`, a VIRTUAL generated column: MySQL and TiDB refuse a foreign key over one (error 3733); declare it `stored: true`, or list only `flavors: [mariadb]` in catalog.yaml",
            parent.name
        ),
    })
}

/// What a CHECK may read: no auto_increment column, no column a foreign
/// key's action writes, nothing that changes between reads; on MySQL it is
/// a condition.
fn checks(table: &Table, out: &mut Vec<Need>) {
    for check in &table.checks {
        let object = format!("check `{}`", check.name);
        let text = check.expression.as_str();
        if expr_facts::truth(text) == Truth::Value {
            need(out, object.clone(), Feature::ValueCheck,
                "the expression is a value (a column, literal, arithmetic, CASE or value function), not a condition: MySQL and TiDB refuse that (error 3812); compare it (e.g. `... <> 0`), or list only `flavors: [mariadb]` in catalog.yaml".into()
            );
        }
        for call in distinct_calls(text) {
            let name = call.name.as_str();
            let (feature, why) = match name {
                SESSION_TIME_ZONE if call.has_args => (Feature::SessionTimeZoneCallInCheck, "which depends on the session time zone: MySQL and TiDB refuse it in a CHECK (error 3814); check the row's columns only, or list only `flavors: [mariadb]` in catalog.yaml"),
                // Probed: MySQL 9.7 takes SYSDATE() in a CHECK, MariaDB not.
                "sysdate" => (Feature::SysdateInCheck, "whose value changes between reads: MariaDB refuses it in a CHECK (error 1901); check the row's columns only, or list only `flavors: [mysql, tidb]` in catalog.yaml"),
                _ if MARIADB_SESSION.contains(&name) => (Feature::SessionLocaleCallInCheck, "which depends on the session time zone or locale: MariaDB refuses it in a CHECK (error 1901); check the row's columns only, or list only `flavors: [mysql, tidb]` in catalog.yaml"),
                _ if VOLATILE.contains(&name) => (Feature::VolatileCallInCheck, "whose value changes between reads: the servers refuse it in a CHECK (MySQL error 3814, MariaDB 1901); check the row's columns only"),
                _ => continue,
            };
            need(
                out,
                object.clone(),
                feature,
                format!("expression calls `{}`, {why}", shown(&call)),
            );
        }
        if expr_facts::reads_variable(text) {
            need(out, object.clone(), Feature::VariableInCheck, "expression reads a user or system variable: the servers refuse that (MySQL error 3816, MariaDB 1901); check the row's columns only".into());
        }
        for name in distinct_columns(text) {
            if table.column(&name).is_some_and(|c| c.auto_increment) {
                need(out, object.clone(), Feature::AutoIncrementInCheck, format!(
                    "expression names `{name}`, an auto_increment column: the servers refuse that (MySQL error 3818, MariaDB 1901); check another column"
                ));
            }
            let written = table
                .foreign_keys
                .iter()
                .find(|fk| fk.columns.contains(&name) && !writing_actions(fk).is_empty());
            if let Some(fk) = written {
                need(out, object.clone(), Feature::FkWrittenColumnInCheck, format!(
                    "expression names `{name}`, which foreign key `{}` writes ({}): the servers refuse that (MySQL error 3823, MariaDB 1901); use restrict or no action on the foreign key (on_delete: cascade is allowed), or check another column",
                    fk.name, writing_actions(fk)
                ));
            }
        }
    }
}
