//! The `foreign_keys` of a table file, and the catalog-wide rules InnoDB
//! and TiDB apply when the `CREATE TABLE` runs: the referenced table is a
//! catalog table or declared in `external_tables`, the referenced columns
//! exist with the child columns' exact type family, charset and collation,
//! and are a whole primary or unique key; the child columns lead an index;
//! names are unique per schema; new tables can be created in dependency
//! order (no cycle).
//!
//! Sources: MySQL "FOREIGN KEY Constraints"
//! (<https://dev.mysql.com/doc/refman/8.4/en/create-table-foreign-keys.html>:
//! similar types, same size and sign, same charset and collation for
//! strings, an index on both sides, no BLOB/TEXT, SET DEFAULT rejected by
//! InnoDB, `restrict_fk_on_non_standard_key` refusing a non-unique or
//! partial parent key from 8.4), MariaDB "Foreign Keys"
//! (<https://mariadb.com/kb/en/foreign-keys/>), TiDB "FOREIGN KEY
//! Constraints" (<https://docs.pingcap.com/tidb/stable/foreign-key/>:
//! enforced from v6.6.0, earlier releases parse and drop them; the index
//! columns in the key's order; no BLOB/TEXT).

use std::collections::BTreeMap;

use crate::ident::Ident;
use crate::model::{Column, ForeignKey, Index, IndexKind, IndexPart, ReferentialAction, Table};

use crate::catalog::read::declared::{check_ident, object_name, Declared};
use crate::catalog::read::raw::RawForeignKey;
use crate::catalog::rule_ids;
use crate::catalog::rules::key_rules::{keys_on, unique_indexes_on};
use crate::catalog::sink::Sink;
use crate::catalog::CatalogTable;

/// The actions a catalog may declare, for messages.
const ACTIONS: &str = "restrict, cascade, set null, no action";

/// Lints every `foreign_keys` entry of one table against its own columns
/// and keys; the sound ones as model foreign keys (their references are
/// checked by [`lint_references`] once every table is read).
pub(in crate::catalog) fn lint_foreign_keys(
    raw: &[RawForeignKey],
    declared: &[Declared],
    primary_key: &[IndexPart],
    indexes: &[Index],
    sink: &mut Sink,
) -> Vec<ForeignKey> {
    let mut out: Vec<ForeignKey> = Vec::new();
    let mut names: Vec<Ident> = Vec::new();
    for (pos, rf) in raw.iter().enumerate() {
        let object = object_name("foreign key", &rf.name, pos);
        let errors = sink.error_count();
        check_ident(sink, Some(object.clone()), "foreign key", &rf.name);
        let name = Ident::new(rf.name.clone());
        if names.contains(&name) {
            sink.report(&rule_ids::DUPLICATE_NAME,
                Some(object.clone()),
                format!("duplicate foreign key name: `{name}` is already declared (names compare case-insensitively); rename or remove one"),
            );
        }
        names.push(name.clone());
        let columns = child_columns(rf, declared, &object, sink);
        let (table, referenced) = references(rf, &object, sink);
        if !referenced.is_empty() && !rf.columns.is_empty() && referenced.len() != rf.columns.len()
        {
            sink.report(&rule_ids::FOREIGN_KEY,
                Some(object.clone()),
                format!(
                    "{} column(s) reference {} column(s): list one referenced column per column, in the same order",
                    rf.columns.len(),
                    referenced.len()
                ),
            );
        }
        // TiDB documents it; InnoDB has no use for it either.
        if let Some(t) = table
            .as_ref()
            .filter(|t| sink.table.as_deref().is_some_and(|s| Ident::new(s) == **t))
        {
            for (c, r) in rf.columns.iter().zip(&referenced) {
                if Ident::new(c.clone()) == *r {
                    sink.report(&rule_ids::FOREIGN_KEY,
                        Some(object.clone()),
                        format!("column `{c}` references itself in `{t}`: a foreign key column cannot be its own referenced column (TiDB refuses it); reference another column"),
                    );
                }
            }
        }
        let on_delete = action(sink, &object, "on_delete", rf.on_delete.as_deref());
        let on_update = action(sink, &object, "on_update", rf.on_update.as_deref());
        for (key, act) in [("on_delete", on_delete), ("on_update", on_update)] {
            if act != ReferentialAction::SetNull {
                continue;
            }
            for c in columns.iter().filter(|c| !c.nullable) {
                sink.report(&rule_ids::FOREIGN_KEY,
                    Some(object.clone()),
                    format!("`{key}: set null` on NOT NULL column `{}`: the server refuses it; make the column nullable or choose another action", c.name),
                );
            }
        }
        if !columns.is_empty() && !leads_an_index(&columns, primary_key, indexes) {
            let list: Vec<&str> = columns.iter().map(|c| c.name.as_str()).collect();
            sink.report(&rule_ids::FOREIGN_KEY,
                Some(object.clone()),
                format!(
                    "no index leads with [{}]: InnoDB and TiDB need one to check the key, and MySQL, MariaDB and TiDB would create one named `{name}` that the catalog does not declare; add an index on [{}] (or one that starts with these columns, in this order)",
                    list.join(", "),
                    list.join(", ")
                ),
            );
        }
        if sink.error_count() > errors {
            continue;
        }
        if let Some(table) = table {
            out.push(ForeignKey {
                name,
                columns: columns.iter().map(|c| c.name.clone()).collect(),
                referenced_schema: None,
                referenced_table: table,
                referenced_columns: referenced,
                on_delete,
                on_update,
            });
        }
    }
    out
}

/// The declared child columns of a foreign key, reporting unknown,
/// repeated and non-indexable ones.
fn child_columns<'a>(
    rf: &RawForeignKey,
    declared: &'a [Declared],
    object: &str,
    sink: &mut Sink,
) -> Vec<&'a Column> {
    if rf.columns.is_empty() {
        sink.report(&rule_ids::FOREIGN_KEY,
            Some(object.to_string()),
            "missing `columns`: list the table's columns that reference the other table, e.g. `columns: [QueueId]`",
        );
    }
    let mut out: Vec<&Column> = Vec::new();
    for name in &rf.columns {
        let ident = Ident::new(name.clone());
        let Some(d) = declared.iter().find(|d| d.ident == ident) else {
            sink.report(
                &rule_ids::FOREIGN_KEY,
                Some(object.to_string()),
                format!("`columns` names `{name}`, which is not a column of the table"),
            );
            continue;
        };
        let Some(col) = d.column.as_ref() else {
            continue;
        };
        if out.iter().any(|c| c.name == ident) {
            sink.report(
                &rule_ids::FOREIGN_KEY,
                Some(object.to_string()),
                format!("column `{name}` is listed twice: list each column once"),
            );
            continue;
        }
        if !col.ty.is_indexable_whole() {
            sink.report(&rule_ids::FOREIGN_KEY,
                Some(object.to_string()),
                format!("column `{name}` is {}: a foreign key cannot use a BLOB, TEXT or JSON column (InnoDB and TiDB refuse it)", col.ty),
            );
        }
        out.push(col);
    }
    out
}

/// `references`: the table and its columns, reporting what is missing.
fn references(rf: &RawForeignKey, object: &str, sink: &mut Sink) -> (Option<Ident>, Vec<Ident>) {
    let Some(r) = &rf.references else {
        sink.report(
            &rule_ids::FOREIGN_KEY,
            Some(object.to_string()),
            "missing `references`: add `references: {table: <parent>, columns: [<key columns>]}`",
        );
        return (None, Vec::new());
    };
    let table = match r.table.as_deref() {
        None => {
            sink.report(
                &rule_ids::FOREIGN_KEY,
                Some(object.to_string()),
                "missing `references.table`: name the referenced table",
            );
            None
        }
        Some(t) => {
            check_ident(sink, Some(object.to_string()), "referenced table", t);
            Some(Ident::new(t))
        }
    };
    if r.columns.is_empty() {
        sink.report(
            &rule_ids::FOREIGN_KEY,
            Some(object.to_string()),
            "missing `references.columns`: list the referenced key's columns",
        );
    }
    let mut cols: Vec<Ident> = Vec::new();
    for c in &r.columns {
        check_ident(sink, Some(object.to_string()), "referenced column", c);
        let ident = Ident::new(c.clone());
        if cols.contains(&ident) {
            sink.report(
                &rule_ids::FOREIGN_KEY,
                Some(object.to_string()),
                format!("referenced column `{c}` is listed twice: list each column once"),
            );
        }
        cols.push(ident);
    }
    (table, cols)
}

/// An action from the closed set; absent is `restrict`. `no action` is
/// read as `restrict`: InnoDB and TiDB do the same for both
/// ([`ReferentialAction::effect`]), so catalogs compare and render one
/// spelling whichever one the user wrote.
fn action(sink: &mut Sink, object: &str, key: &str, text: Option<&str>) -> ReferentialAction {
    let Some(text) = text else {
        return ReferentialAction::Restrict;
    };
    match ReferentialAction::parse(text) {
        Some(ReferentialAction::SetDefault) => {
            sink.report(&rule_ids::FOREIGN_KEY,
                Some(object.to_string()),
                format!("`{key}: set default` is refused by InnoDB (MySQL rejects the table; MariaDB silently stores RESTRICT instead); use one of: {ACTIONS}"),
            );
            ReferentialAction::Restrict
        }
        Some(a) => a.effect(),
        None => {
            sink.report(
                &rule_ids::FOREIGN_KEY,
                Some(object.to_string()),
                format!("unknown `{key}` action `{text}`; use one of: {ACTIONS}"),
            );
            ReferentialAction::Restrict
        }
    }
}

/// Whether the primary key or a B-tree index starts with exactly these
/// whole columns, in this order.
fn leads_an_index(columns: &[&Column], primary_key: &[IndexPart], indexes: &[Index]) -> bool {
    let leads = |parts: &[IndexPart]| {
        parts.len() >= columns.len()
            && columns.iter().zip(parts).all(|(c, p)| {
                matches!(p, IndexPart::Column { name, prefix: None, .. } if *name == c.name)
            })
    };
    leads(primary_key)
        || indexes
            .iter()
            .filter(|i| i.kind == IndexKind::BTree)
            .any(|i| leads(&i.parts))
}

/// Checks every foreign key of the catalog against the table it
/// references and the schema-wide rules (see the module docs), reporting
/// to each table's file.
pub(in crate::catalog) fn lint_references(
    tables: &[CatalogTable],
    external: &[Ident],
    flavors: &[crate::server::Flavor],
    problems: &mut Vec<crate::catalog::Problem>,
) {
    let by_name: BTreeMap<String, &Table> = tables
        .iter()
        .map(|t| (t.table.name.key(), &t.table))
        .collect();
    // InnoDB names foreign keys per schema. (name key) -> table name
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    for ct in tables {
        let t = &ct.table;
        let mut sink = Sink::new(&ct.file, problems);
        sink.table = Some(t.name.to_string());
        if external.contains(&t.name) {
            sink.report(&rule_ids::FOREIGN_KEY,
                None,
                format!("`{}` is declared in `external_tables` of catalog.yaml and also by this file: a table is either managed by the catalog or external; remove one", t.name),
            );
        }
        for fk in &t.foreign_keys {
            let object = Some(format!("foreign key `{}`", fk.name));
            match names.get(&fk.name.key()) {
                Some(other) => sink.report(&rule_ids::DUPLICATE_NAME,
                    object.clone(),
                    format!("foreign key name `{}` is also used by table `{other}`; InnoDB names foreign keys per schema (the CREATE TABLE would fail with error 1826): rename one", fk.name),
                ),
                None => {
                    names.insert(fk.name.key(), t.name.to_string());
                }
            }
            match by_name.get(&fk.referenced_table.key()) {
                Some(parent) => {
                    for message in parent_problems(t, fk, parent) {
                        sink.report(&rule_ids::FOREIGN_KEY, object.clone(), message);
                    }
                    let refused = crate::catalog::rules::refused::references_virtual(fk, parent)
                        .filter(|n| n.feature.lacked_by_any(flavors));
                    if let Some(need) = refused {
                        sink.report(&rule_ids::FLAVOR, Some(need.object), need.message);
                    }
                }
                None if external.contains(&fk.referenced_table) => {}
                None => sink.report(&rule_ids::FOREIGN_KEY,
                    object.clone(),
                    format!("references table `{}`, which the catalog does not declare: add its table file, or list it in `external_tables` of catalog.yaml when another owner manages it", fk.referenced_table),
                ),
            }
        }
    }
    report_cycles(tables, problems);
}

/// The first thing `catalog check` would refuse about `fk` of `child` (a
/// table as live inspection or a dump reads it), `parent` being the
/// referenced table when the catalog will declare it: for import, which
/// never writes a catalog its own check refuses.
pub(crate) fn foreign_key_problem(
    child: &Table,
    fk: &ForeignKey,
    parent: Option<&Table>,
) -> Option<String> {
    let mut columns: Vec<&Column> = Vec::new();
    for c in &fk.columns {
        match child.column(c) {
            Some(col) if col.ty.is_indexable_whole() => columns.push(col),
            Some(col) => {
                return Some(format!(
                    "its column `{c}` is {}, which a foreign key cannot use",
                    col.ty
                ))
            }
            None => return Some(format!("its column `{c}` is left out")),
        }
    }
    if fk.columns.len() != fk.referenced_columns.len() {
        return Some("its column counts differ".into());
    }
    if !leads_an_index(&columns, &child.primary_key, &child.indexes) {
        return Some("no imported index leads with its columns".into());
    }
    let set_null = [fk.on_delete, fk.on_update].contains(&ReferentialAction::SetNull);
    if set_null && columns.iter().any(|c| !c.nullable) {
        return Some("SET NULL on a NOT NULL column".into());
    }
    if [fk.on_delete, fk.on_update].contains(&ReferentialAction::SetDefault) {
        return Some("SET DEFAULT, which InnoDB refuses".into());
    }
    parent.and_then(|p| parent_problems(child, fk, p).into_iter().next())
}

/// What the server would refuse about `fk` of `child` referencing `parent`.
fn parent_problems(child: &Table, fk: &ForeignKey, parent: &Table) -> Vec<String> {
    let mut out = Vec::new();
    let mut all_found = true;
    for (c, p) in fk.columns.iter().zip(&fk.referenced_columns) {
        let (Some(cc), Some(pc)) = (child.column(c), parent.column(p)) else {
            if parent.column(p).is_none() {
                all_found = false;
                out.push(format!(
                    "references `{}`.`{p}`, which is not a column of `{}`",
                    parent.name, parent.name
                ));
            }
            continue;
        };
        if let Some(why) = incompatible(cc, pc) {
            out.push(format!(
                "column `{c}` ({}) and referenced column `{}`.`{p}` ({}) differ: {why}; the server refuses the key (MySQL error 3780, MariaDB errno 150)",
                describe(cc),
                parent.name,
                describe(pc)
            ));
        }
    }
    if all_found && !is_whole_unique_key(&fk.referenced_columns, parent) {
        let list: Vec<&str> = fk.referenced_columns.iter().map(Ident::as_str).collect();
        out.push(format!(
            "the referenced columns [{}] are not the whole primary key or a unique index of `{}` (in that order): reference a unique key (MySQL 8.4+ refuses a non-unique or partial parent key, and InnoDB needs an index leading with them)",
            list.join(", "),
            parent.name
        ));
    }
    out
}

/// Why two columns cannot be a foreign key pair, if they cannot: InnoDB
/// wants the same type (a string's length may differ), integers of one
/// size and sign, and strings of one charset and collation.
fn incompatible(child: &Column, parent: &Column) -> Option<&'static str> {
    use crate::coltype::ColumnType::*;
    let same_family = match (&child.ty, &parent.ty) {
        (Char(_), Char(_))
        | (Varchar(_), Varchar(_))
        | (Binary(_), Binary(_))
        | (Varbinary(_), Varbinary(_)) => true,
        (a, b) => a == b,
    };
    if !same_family {
        return Some("foreign key columns need the same type (integers of one size and sign; only a string's length may differ)");
    }
    if child.ty.is_textual()
        && (child.charset != parent.charset || child.collation != parent.collation)
    {
        return Some("string columns need the same charset and collation");
    }
    None
}

fn describe(c: &Column) -> String {
    match &c.collation {
        Some(co) if c.ty.is_textual() => format!("{} COLLATE {co}", c.ty),
        _ => c.ty.to_string(),
    }
}

/// Whether `columns` are, in order, the primary key or a unique B-tree
/// index of `table`, over whole columns.
fn is_whole_unique_key(columns: &[Ident], table: &Table) -> bool {
    keys_on(&table.primary_key, columns) || unique_indexes_on(columns, table).next().is_some()
}

/// A cycle among the catalog's tables (a table referencing itself is not
/// one: it is created in one statement) cannot be created in dependency
/// order: reported once, on the file of its first table by name.
fn report_cycles(tables: &[CatalogTable], problems: &mut Vec<crate::catalog::Problem>) {
    let models: Vec<&Table> = tables.iter().map(|t| &t.table).collect();
    for cycle in crate::dependency::cycles(&models) {
        let Some(first) = cycle.first() else { continue };
        let Some(ct) = tables.iter().find(|t| &t.table.name == first) else {
            continue;
        };
        let mut path: Vec<String> = cycle.iter().map(|n| format!("`{n}`")).collect();
        path.push(format!("`{first}`"));
        let mut sink = Sink::new(&ct.file, problems);
        sink.table = Some(first.to_string());
        sink.report(&rule_ids::FOREIGN_KEY,
            None,
            format!(
                "foreign keys form a cycle: {}; the tables cannot be created one after the other (each needs the other to exist first): drop one of the foreign keys in the cycle",
                path.join(" -> ")
            ),
        );
    }
}
