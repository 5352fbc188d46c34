//! The regenerate-and-compare net (Skeema verifies its
//! introspection this way): a table's inspected model is compared with
//! the server's own `SHOW CREATE TABLE`. A difference the model does not
//! explain means the inspection missed something, and the table is then
//! refused as `unrecognised`, naming the clause: never treated as
//! matching.
//!
//! The server's text is normalised per flavor by the dump parser
//! ([`crate::dump`], given the flavor: MariaDB's `int(11)`, MySQL's quoted
//! numeric defaults, inherited charsets and collations, executable
//! `/*!NNNNN ... */` comments). That parser is the reader of dumps, written
//! apart from the information_schema reader, and it fails closed: a column
//! option, index option or clause it cannot read is an error, a table
//! option outside the model a [`Feature`](crate::dump::Feature). So an
//! attribute only `SHOW CREATE TABLE` shows (MySQL's `AUTOEXTEND_SIZE`,
//! `SECONDARY_ENGINE_ATTRIBUTE` and `/*!50606 COLUMN_FORMAT ... */`,
//! MariaDB's index `KEY_BLOCK_SIZE`, `WITH SYSTEM VERSIONING`, `PERIOD
//! FOR`) cannot pass as a table the model describes.
//!
//! Then each item of the two models is compared: table options, columns
//! in order, primary key, indexes, CHECKs and foreign keys, each by name.
//! What the model explains is left out on both sides: index comments
//! (the inspection does not read them: informational, out of contract),
//! expression spelling (compared as [`same_expression`] compares them),
//! and what the inspection did not read for this table by design (CHECK
//! constraints when the catalog declares none, MariaDB's `json_valid`
//! checks when the catalog has no json or longtext column: see
//! [`Read`]). The difference is named by the rendered item
//! ([`crate::ddl`]) on each side.
//!
//! Not run on TiDB: its table features are already read from this text
//! ([`super::tidb`]), and how its text and its information_schema agree
//! has not been run against a live TiDB here.

use super::ShowCreate;
use crate::db::Session;
use crate::ddl;
use crate::dump::{parse_create_table_with, ParseOptions, ParsedTable};
use crate::error::Result;
use crate::ident::{quote_ident, Ident};
use crate::model::shape::same_expression;
use crate::model::{CollationClauses, Column, DefaultValue, IndexPart, Table, TableKind};
use crate::server::Flavor;

/// What the inspection read for a table beyond its columns and indexes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Read {
    /// MariaDB's CHECK clauses (what tells json from longtext there).
    pub(crate) json_checks: bool,
    /// The table's CHECK constraints.
    pub(crate) constraints: bool,
}

impl Read {
    /// Everything (import and apply's per-step re-reads).
    pub(crate) const ALL: Read = Read {
        json_checks: true,
        constraints: true,
    };
}

/// A column whose `SHOW CREATE TABLE` text writes other `CHARACTER SET`
/// / `COLLATE` clauses than the server's own text of the table
/// regenerated from its model would ([`stated_collations`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StatedCollation {
    /// The table.
    pub(crate) table: Ident,
    /// The column.
    pub(crate) column: Ident,
    /// What the text writes.
    pub(crate) shown: CollationClauses,
    /// What the regeneration's text would.
    pub(crate) regenerated: CollationClauses,
}

/// Runs the net over `out` (inspected tables in `schema`, `reads[i]` what
/// was read for `out[i]`): the texts of every existing base table read
/// together ([`ShowCreate::prefetch`]: one round trip per
/// [`super::TABLES_PER_STATEMENT`] tables, none when no table exists),
/// each compared; a difference makes the table
/// [`TableKind::Unrecognised`]. Nothing on TiDB.
///
/// Returns the columns of the recognised tables whose stated collation
/// differs from the regeneration's ([`stated_collations`]): a finding of
/// `verify --strict` only, which plan and apply leave aside (the column
/// is exact; only its text differs).
pub(crate) async fn check(
    session: &mut Session<'_>,
    schema: &str,
    reads: &[Read],
    out: &mut [(Ident, Option<Table>)],
) -> Result<Vec<StatedCollation>> {
    let flavor = session.flavor();
    let mut stated = Vec::new();
    if !flavor.show_create_net_runs() {
        return Ok(stated);
    }
    let base: Vec<Ident> = out
        .iter()
        .filter_map(|(_, t)| t.as_ref())
        .filter(|t| t.kind == TableKind::Base)
        .map(|t| t.name.clone())
        .collect();
    if base.is_empty() {
        return Ok(stated);
    }
    let mut shown = ShowCreate::default();
    shown.prefetch(session, schema, &base).await?;
    for ((_, t), read) in out.iter_mut().zip(reads) {
        let Some(t) = t.as_mut().filter(|t| t.kind == TableKind::Base) else {
            continue;
        };
        let text = shown.text(session, schema, &t.name).await?;
        match compare(t, &text, flavor, *read) {
            Ok(columns) => {
                stated.extend(columns.into_iter().map(|(column, shown, regenerated)| {
                    StatedCollation {
                        table: t.name.clone(),
                        column,
                        shown,
                        regenerated,
                    }
                }))
            }
            Err(what) => t.kind = TableKind::Unrecognised(what),
        }
    }
    Ok(stated)
}

/// Why `have` (inspected, a base table) is not what the server's `SHOW
/// CREATE TABLE` `text` shows, naming the clause; `None` when the two
/// agree.
#[cfg(test)]
pub(crate) fn difference(have: &Table, text: &str, flavor: Flavor, read: Read) -> Option<String> {
    compare(have, text, flavor, read).err()
}

/// [`difference`] as an `Err`; when the two agree, the columns whose
/// stated collation differs from the regeneration's
/// ([`stated_collations`]).
fn compare(
    have: &Table,
    text: &str,
    flavor: Flavor,
    read: Read,
) -> std::result::Result<Vec<(Ident, CollationClauses, CollationClauses)>, String> {
    if !flavor.show_create_net_runs() {
        return Ok(Vec::new());
    }
    let options = ParseOptions {
        flavor: Some(flavor),
        keep_other_types: true,
    };
    let aria = is_aria(have);
    let text = if aria {
        without_aria_defaults(text)
    } else {
        text.to_string()
    };
    match parse_create_table_with(&text, options) {
        Ok(parsed) => match difference_from(have, &parsed, flavor, read) {
            Some(what) => Err(what),
            None => Ok(stated_collations(&parsed, flavor)),
        },
        Err(e) => Err(format!(
            "SHOW CREATE TABLE shows what the inspection does not read: {}",
            with_line(&text, &e.message)
        )),
    }
}

/// The textual columns of `parsed` whose definition writes other
/// `CHARACTER SET` / `COLLATE` clauses than the server's own text of the
/// table regenerated from its model would: (column, written,
/// regenerated). The regeneration states a column's charset and
/// collation only where they are not the table's
/// ([`ddl::states_collation`]); what the server then prints is its rule
/// ([`Flavor::shown_collation_clauses`]). MariaDB keeps no more than the
/// collation, so its text always agrees; MySQL remembers a collation
/// stated in DDL, even the table's own, and prints it ever after
/// (information_schema does not show the fact, and `mysql.columns` is not
/// readable, error 3554), so a column made by DDL that stated it reads
/// otherwise than a fresh install's.
pub(crate) fn stated_collations(
    parsed: &ParsedTable,
    flavor: Flavor,
) -> Vec<(Ident, CollationClauses, CollationClauses)> {
    let defaults = parsed.table.defaults();
    parsed
        .table
        .columns
        .iter()
        .filter(|c| c.ty.is_textual())
        .filter_map(|c| {
            let shown = parsed
                .collation_clauses
                .iter()
                .find(|(n, _)| *n == c.name)
                .map(|(_, w)| *w)
                .unwrap_or_default();
            let (charset, collation) = flavor.shown_collation_clauses(
                c.charset.as_deref().unwrap_or_default(),
                c.collation.as_deref().unwrap_or_default(),
                &defaults.collation,
                ddl::states_collation(c, &defaults),
            );
            let regenerated = CollationClauses { charset, collation };
            (shown != regenerated).then(|| (c.name.clone(), shown, regenerated))
        })
        .collect()
}

/// A parser `message` about `text`, with the line it points at.
pub(crate) fn with_line(text: &str, message: &str) -> String {
    match line_of(text, message) {
        Some(l) => format!("{message}, in `{l}`"),
        None => message.to_string(),
    }
}

/// The line of `text` that a parser message (`... at Line: 5, Column:
/// 61`) points at, trimmed: the clause, for the refusal.
fn line_of<'t>(text: &'t str, message: &str) -> Option<&'t str> {
    let at = message.rfind("Line: ")? + "Line: ".len();
    let digits: String = message[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let n: usize = digits.parse().ok()?;
    text.lines()
        .nth(n.checked_sub(1)?)
        .map(|l| l.trim().trim_end_matches(','))
}

/// [`difference`] against the parsed text.
pub(crate) fn difference_from(
    have: &Table,
    parsed: &ParsedTable,
    flavor: Flavor,
    read: Read,
) -> Option<String> {
    let aria = is_aria(have);
    // An engine's own default, stated explicitly, is not a difference.
    let server_default = |what: &str| {
        (aria && aria_default(what))
            || crate::model::is_innodb_default_option_text(parsed.table.engine.as_deref(), what)
    };
    if let Some(f) = parsed.features.iter().find(|f| !server_default(&f.what)) {
        return Some(format!(
            "SHOW CREATE TABLE shows {} `{}`, which the inspection does not read",
            f.object, f.what
        ));
    }
    if parsed.table.kind != TableKind::Base {
        return Some(format!(
            "SHOW CREATE TABLE shows a {:?} table where the inspection read a plain one",
            parsed.table.kind
        ));
    }
    let have = comparable(have);
    let mut shown = comparable(&parsed.table);
    if !read.constraints {
        shown.checks.clear();
    }
    if flavor.json_is_checked_longtext() && !read.json_checks {
        for c in &mut shown.columns {
            if c.ty == crate::coltype::ColumnType::Json {
                c.ty = crate::coltype::ColumnType::LongText;
            }
        }
    }
    align_expressions(&have, &mut shown);
    first_difference(&have, &shown, flavor)
}

fn is_aria(t: &Table) -> bool {
    t.engine
        .as_deref()
        .is_some_and(|e| e.eq_ignore_ascii_case("Aria"))
}

/// MariaDB's own defaults of an Aria table, which `SHOW CREATE TABLE`
/// prints for a table created with `engine: Aria` alone (probed on 10.11:
/// `PAGE_CHECKSUM=1`; CREATE_OPTIONS says `transactional=1`, see
/// `super::options`).
const ARIA_DEFAULTS: [&str; 2] = ["PAGE_CHECKSUM=1", "TRANSACTIONAL=1"];

fn aria_default(what: &str) -> bool {
    let w = what.replace(' ', "").to_ascii_uppercase();
    ARIA_DEFAULTS.contains(&w.as_str())
}

/// `text` without [`ARIA_DEFAULTS`] among its table options (after the
/// closing parenthesis of the column list; sqlparser reads neither).
fn without_aria_defaults(text: &str) -> String {
    let Some(end) = text.rfind("\n)") else {
        return text.to_string();
    };
    let (body, mut options) = (&text[..end], text[end..].to_string());
    for d in ARIA_DEFAULTS {
        options = options.replace(&format!(" {d}"), "");
    }
    format!("{body}{options}")
}

/// The parts of a table both readings carry, in one order: index comments
/// (not read by the inspection) dropped, indexes and CHECKs by name.
fn comparable(t: &Table) -> Table {
    let mut t = t.clone();
    for i in &mut t.indexes {
        i.comment = None;
    }
    t.indexes.sort_by_key(|i| i.name.key());
    t.checks.sort_by_key(|c| c.name.key());
    t.foreign_keys.sort_by_key(|f| f.name.key());
    t
}

/// Gives `shown`'s expressions the inspection's spelling where the two
/// are the same expression ([`same_expression`]): MySQL's `SHOW CREATE
/// TABLE` parenthesises a generated expression once more than
/// GENERATION_EXPRESSION does.
fn align_expressions(have: &Table, shown: &mut Table) {
    let same = |a: &str, b: &str| a == b || same_expression(a, b);
    for s in &mut shown.columns {
        let Some(h) = have.column(&s.name) else {
            continue;
        };
        if let (Some(sg), Some(hg)) = (&mut s.generated, &h.generated) {
            if same(&sg.expression, &hg.expression) {
                sg.expression = hg.expression.clone();
            }
        }
        align_default(&mut s.default, &h.default);
        align_default(&mut s.on_update, &h.on_update);
    }
    for s in &mut shown.checks {
        if let Some(h) = have.checks.iter().find(|c| c.name == s.name) {
            if same(&s.expression, &h.expression) {
                s.expression = h.expression.clone();
            }
        }
    }
    for s in &mut shown.indexes {
        let Some(h) = have.index(&s.name) else {
            continue;
        };
        if s.parts.len() != h.parts.len() {
            continue;
        }
        for (sp, hp) in s.parts.iter_mut().zip(&h.parts) {
            if let (IndexPart::Expression(se), IndexPart::Expression(he)) = (&mut *sp, hp) {
                if same(se, he) {
                    *se = he.clone();
                }
            }
        }
    }
}

fn align_default(shown: &mut Option<DefaultValue>, have: &Option<DefaultValue>) {
    if let (Some(DefaultValue::Expression(s)), Some(DefaultValue::Expression(h))) =
        (&mut *shown, have)
    {
        if s == h || same_expression(s, h) {
            *s = h.clone();
        }
    }
}

/// The first item where `have` and `shown` differ, rendered on both sides.
fn first_difference(have: &Table, shown: &Table, flavor: Flavor) -> Option<String> {
    let options = |t: &Table| {
        format!(
            "ENGINE={} DEFAULT CHARSET={} COLLATE={} COMMENT={:?}",
            t.engine.as_deref().unwrap_or("(none)"),
            t.charset,
            t.collation,
            t.comment.as_deref().unwrap_or("")
        )
    };
    if (&have.engine, &have.charset, &have.collation, &have.comment)
        != (
            &shown.engine,
            &shown.charset,
            &shown.collation,
            &shown.comment,
        )
    {
        return Some(clause("table options", &options(shown), &options(have)));
    }
    let column = |c: &Column| ddl::column_definition(c);
    if let Some(d) = items(
        "column",
        &have.columns,
        &shown.columns,
        |c| c.name.to_string(),
        column,
    ) {
        return Some(d);
    }
    if have.primary_key != shown.primary_key {
        return Some(clause(
            "primary key",
            &ddl::key_parts(&shown.primary_key),
            &ddl::key_parts(&have.primary_key),
        ));
    }
    let index = |i: &crate::model::Index| ddl::index_definition(i, "KEY", flavor);
    if let Some(d) = items(
        "index",
        &have.indexes,
        &shown.indexes,
        |i| i.name.to_string(),
        index,
    ) {
        return Some(d);
    }
    let check = |c: &crate::model::Check| {
        format!(
            "{}CHECK ({}){}",
            match c.level {
                crate::model::CheckLevel::Column => "column-level ",
                crate::model::CheckLevel::Table => "",
            },
            c.expression,
            if c.enforced { "" } else { " NOT ENFORCED" }
        )
    };
    if let Some(d) = items(
        "check",
        &have.checks,
        &shown.checks,
        |c| c.name.to_string(),
        check,
    ) {
        return Some(d);
    }
    items(
        "foreign key",
        &have.foreign_keys,
        &shown.foreign_keys,
        |f| f.name.to_string(),
        ddl::foreign_key_definition,
    )
}

/// The first of `have` and `shown` (in their order) that differs, by
/// position: one missing on a side, or both there and unequal.
fn items<T: PartialEq + std::fmt::Debug>(
    kind: &str,
    have: &[T],
    shown: &[T],
    name: impl Fn(&T) -> String,
    render: impl Fn(&T) -> String,
) -> Option<String> {
    let n = have.len().max(shown.len());
    (0..n).find_map(|i| match (have.get(i), shown.get(i)) {
        (Some(h), Some(s)) if h == s => None,
        (Some(h), Some(s)) => {
            let (mut rs, mut rh) = (render(s), render(h));
            if rs == rh {
                // Unequal in a way the rendering does not print.
                rs = format!("{s:?}");
                rh = format!("{h:?}");
            }
            Some(clause(
                &format!("{kind} {}", quote_ident(&name(s))),
                &rs,
                &rh,
            ))
        }
        (None, Some(s)) => Some(format!(
            "{kind} {}: SHOW CREATE TABLE shows `{}`, which the inspection did not read",
            quote_ident(&name(s)),
            render(s)
        )),
        (Some(h), None) => Some(format!(
            "{kind} {}: the inspection read `{}`, which SHOW CREATE TABLE does not show",
            quote_ident(&name(h)),
            render(h)
        )),
        (None, None) => None,
    })
}

fn clause(object: &str, shown: &str, have: &str) -> String {
    format!("{object}: SHOW CREATE TABLE shows `{shown}` where the inspection read `{have}`")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dump::parse_create_table_with;

    fn parse(text: &str, flavor: Flavor) -> Table {
        parsed(text, flavor).table
    }

    const MYSQL: &str = "CREATE TABLE `t` (\n  `id` bigint unsigned NOT NULL AUTO_INCREMENT,\n  \
        `a` bigint unsigned NOT NULL DEFAULT '0',\n  \
        `g` int GENERATED ALWAYS AS ((`a` + 1)) VIRTUAL,\n  \
        `i` int DEFAULT NULL /*!80023 INVISIBLE */,\n  \
        `k` text COLLATE utf8mb4_bin COMMENT 'col '' comment',\n  \
        PRIMARY KEY (`id`),\n  KEY `k1` (`a`) COMMENT 'idx comment',\n  KEY `k2` (((`a` + 1))),\n  \
        CONSTRAINT `ck` CHECK (((`a` <> 5) and (`k` <> _utf8mb4'x\\\\y')))\n\
        ) ENGINE=InnoDB AUTO_INCREMENT=7 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin COMMENT='tbl'";

    /// The inspection's spelling of the same table (GENERATION_EXPRESSION
    /// with one pair of parentheses less, no index comment) agrees.
    #[test]
    fn the_same_table_agrees() {
        let shown = parse(MYSQL, Flavor::MySql);
        let mut have = shown.clone();
        have.columns[2].generated.as_mut().unwrap().expression = "(`a` + 1)".into();
        have.indexes.iter_mut().for_each(|i| i.comment = None);
        have.indexes.reverse();
        assert_eq!(difference(&have, MYSQL, Flavor::MySql, Read::ALL), None);
    }

    /// An attribute only the text shows refuses the table, naming it.
    #[test]
    fn what_only_the_text_shows_is_named() {
        let have = parse(MYSQL, Flavor::MySql);
        let with = |from: &str, to: &str| MYSQL.replacen(from, to, 1);
        let autoextend = with(") ENGINE", ") /*!80023 AUTOEXTEND_SIZE=4194304 */ ENGINE");
        let d = difference(&have, &autoextend, Flavor::MySql, Read::ALL).unwrap();
        assert!(d.contains("AUTOEXTEND_SIZE"), "{d}");

        let attr = with(
            "`i` int DEFAULT NULL",
            "`i` int DEFAULT NULL /*!80021 SECONDARY_ENGINE_ATTRIBUTE '{\"a\": 1}' */",
        );
        let d = difference(&have, &attr, Flavor::MySql, Read::ALL).unwrap();
        assert!(d.starts_with("SHOW CREATE TABLE shows what"), "{d}");
        assert!(d.contains(", in ``i` int DEFAULT NULL"), "{d}");

        // A column the model read otherwise: named with both renderings.
        let mut visible = have.clone();
        visible.columns[3].invisible = false;
        let d = difference(&visible, MYSQL, Flavor::MySql, Read::ALL).unwrap();
        assert!(
            d.starts_with("column `i`: SHOW CREATE TABLE shows `") && d.contains("INVISIBLE"),
            "{d}"
        );

        // A CHECK whose literal differs is not the same expression.
        let mut other = have.clone();
        other.checks[0].expression = "`a` <> 5 and `k` <> 'xy'".into();
        let d = difference(&other, MYSQL, Flavor::MySql, Read::ALL).unwrap();
        assert!(d.starts_with("check `ck`"), "{d}");

        // Checks not read by design are not a difference.
        let mut unread = have.clone();
        unread.checks.clear();
        let read = Read {
            json_checks: true,
            constraints: false,
        };
        assert_eq!(difference(&unread, MYSQL, Flavor::MySql, read), None);
        assert!(difference(&unread, MYSQL, Flavor::MySql, Read::ALL).is_some());
    }

    /// MySQL: a longtext column with a `json_valid` CHECK (sqldef's
    /// `ChangeGenerateColumnVirtualToStoredWithCheck`) is a longtext column
    /// and a named CHECK, as information_schema reads it: not MariaDB's
    /// json. The net refused it (and import left the table out) while the
    /// dump parser read every `json_valid` check as a json column.
    #[test]
    fn a_mysql_longtext_with_a_json_valid_check_is_longtext() {
        let text = "CREATE TABLE `t` (\n  `id` int NOT NULL,\n  \
            `data` longtext CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,\n  \
            PRIMARY KEY (`id`),\n  CONSTRAINT `t_chk_1` CHECK (json_valid(`data`))\n\
            ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci";
        let shown = parse(text, Flavor::MySql);
        assert_eq!(shown.columns[1].ty, crate::coltype::ColumnType::LongText);
        let names: Vec<&str> = shown.checks.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["t_chk_1"]);
        assert_eq!(difference(&shown, text, Flavor::MySql, Read::ALL), None);
        let mut json = shown.clone();
        json.columns[1].ty = crate::coltype::ColumnType::Json;
        json.checks.clear();
        assert!(difference(&json, text, Flavor::MySql, Read::ALL).is_some());
    }

    fn parsed(text: &str, flavor: Flavor) -> ParsedTable {
        parse_create_table_with(
            text,
            ParseOptions {
                flavor: Some(flavor),
                keep_other_types: true,
            },
        )
        .unwrap()
    }

    /// (column, written, regenerated) as text.
    fn stated(p: &ParsedTable, flavor: Flavor) -> Vec<(String, String, String)> {
        let text = |w: CollationClauses| w.text("cs", "co");
        stated_collations(p, flavor)
            .into_iter()
            .map(|(c, w, r)| (c.to_string(), text(w), text(r)))
            .collect()
    }

    /// MySQL prints a collation stated in DDL even when it is the table's
    /// own, and `COLLATE` alone for a non-primary collation that is the
    /// table's; the regeneration states one only where it is not the
    /// table's: the net names a column whose clauses differ (either way),
    /// and nothing else, leaving the table recognised.
    #[test]
    fn stated_collations_are_compared_with_the_regeneration() {
        let ai = "CREATE TABLE `t` (\n  `id` int NOT NULL,\n  \
            `a` varchar(16) CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_ai_ci NOT NULL,\n  \
            `b` varchar(16) DEFAULT NULL,\n  \
            `c` varchar(8) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL,\n  \
            `d` enum('x','y') CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_ai_ci DEFAULT NULL,\n  \
            `e` varbinary(8) DEFAULT NULL,\n  PRIMARY KEY (`id`)\n\
            ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci";
        let p = parsed(ai, Flavor::MySql);
        let both = "CHARACTER SET cs COLLATE co".to_string();
        assert_eq!(
            stated(&p, Flavor::MySql),
            [
                ("a".into(), both.clone(), String::new()),
                ("d".into(), both.clone(), String::new())
            ]
        );
        assert_eq!(
            compare(&p.table, ai, Flavor::MySql, Read::ALL).map(|v| v.len()),
            Ok(2)
        );
        // A fresh install's text of the same table: nothing to report.
        let fresh = ai
            .replace(
                " CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_ai_ci NOT",
                " NOT",
            )
            .replace(
                " CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_ai_ci DEFAULT",
                " DEFAULT",
            );
        assert_eq!(
            compare(&p.table, &fresh, Flavor::MySql, Read::ALL),
            Ok(vec![])
        );

        // A `utf8mb4_bin` table: MySQL writes `COLLATE utf8mb4_bin` on a
        // column that inherits it (not the charset's primary collation).
        let bin = "CREATE TABLE `t` (\n  `id` int NOT NULL,\n  \
            `a` varchar(16) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,\n  \
            `b` varchar(16) COLLATE utf8mb4_bin DEFAULT NULL,\n  \
            `c` varchar(8) CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_ai_ci DEFAULT NULL,\n  \
            PRIMARY KEY (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";
        assert_eq!(
            stated(&parsed(bin, Flavor::MySql), Flavor::MySql),
            [("a".into(), both.clone(), "COLLATE co".into())]
        );
        // The reverse: a column of another collation than its table's
        // written without one (no server prints that; the net would say).
        let bare = fresh.replace(
            " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT",
            " DEFAULT",
        );
        let mut odd = parsed(&bare, Flavor::MySql);
        odd.table.columns[3].collation = Some("utf8mb4_bin".into());
        assert_eq!(
            stated(&odd, Flavor::MySql),
            [("c".into(), String::new(), both.clone())]
        );

        // MariaDB writes both clauses where the collation is not the
        // table's and neither otherwise, stated or not: its text agrees.
        let mariadb = "CREATE TABLE `t` (\n  `id` int(11) NOT NULL,\n  \
            `a` varchar(16) NOT NULL,\n  \
            `c` varchar(8) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci DEFAULT NULL,\n  \
            `l` varchar(8) CHARACTER SET latin1 COLLATE latin1_swedish_ci DEFAULT NULL,\n  \
            PRIMARY KEY (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";
        assert_eq!(
            stated(&parsed(mariadb, Flavor::MariaDb), Flavor::MariaDb),
            []
        );
    }

    /// MariaDB: a column-level CHECK is printed in its column; a model
    /// that holds it at table level (or the reverse) differs, naming it.
    #[test]
    fn mariadb_check_levels_are_compared() {
        let text = "CREATE TABLE `t` (\n  `id` int(11) NOT NULL DEFAULT 0 CHECK (`id` = 0),\n  \
            `b` int(11) DEFAULT NULL,\n  PRIMARY KEY (`id`),\n  CONSTRAINT `tb` CHECK (`b` > 0)\n\
            ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";
        let shown = parse(text, Flavor::MariaDb);
        let levels: Vec<_> = shown
            .checks
            .iter()
            .map(|c| (c.name.as_str(), c.level))
            .collect();
        assert_eq!(
            levels,
            [
                ("id", crate::model::CheckLevel::Column),
                ("tb", crate::model::CheckLevel::Table)
            ]
        );
        assert_eq!(difference(&shown, text, Flavor::MariaDb, Read::ALL), None);
        let mut flat = shown.clone();
        flat.checks[0].level = crate::model::CheckLevel::Table;
        let d = difference(&flat, text, Flavor::MariaDb, Read::ALL).unwrap();
        assert!(
            d.starts_with("check `id`: SHOW CREATE TABLE shows `column-level CHECK"),
            "{d}"
        );
        let rendered = crate::ddl::create_table(&shown, Flavor::MariaDb);
        assert!(
            rendered.contains("`id` int NOT NULL DEFAULT 0 CHECK (`id` = 0),"),
            "{rendered}"
        );
    }

    /// MariaDB: json read as longtext when its checks were not read; an
    /// Aria table's own defaults; a clause the parser cannot read.
    #[test]
    fn mariadb_spellings() {
        let text = "CREATE TABLE `t` (\n  `id` int(11) NOT NULL,\n  \
            `j` longtext DEFAULT NULL CHECK (json_valid(`j`)),\n  PRIMARY KEY (`id`)\n\
            ) ENGINE=Aria DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci PAGE_CHECKSUM=1";
        let shown = parse(&without_aria_defaults(text), Flavor::MariaDb);
        assert_eq!(shown.columns[1].ty, crate::coltype::ColumnType::Json);
        let mut have = shown.clone();
        have.columns[1].ty = crate::coltype::ColumnType::LongText;
        let read = Read {
            json_checks: false,
            constraints: false,
        };
        assert_eq!(difference(&have, text, Flavor::MariaDb, read), None);
        assert!(difference(&have, text, Flavor::MariaDb, Read::ALL).is_some());
        assert_eq!(difference(&shown, text, Flavor::MariaDb, Read::ALL), None);

        let innodb = text.replace("ENGINE=Aria", "ENGINE=InnoDB");
        let have = Table {
            engine: Some("InnoDB".into()),
            ..shown.clone()
        };
        let d = difference(&have, &innodb, Flavor::MariaDb, Read::ALL).unwrap();
        assert!(d.contains("PAGE_CHECKSUM"), "{d}");

        let versioned = innodb.replace(" PAGE_CHECKSUM=1", " WITH SYSTEM VERSIONING");
        let d = difference(&have, &versioned, Flavor::MariaDb, Read::ALL).unwrap();
        assert!(
            d.contains("SYSTEM VERSIONING") || d.contains("SHOW CREATE TABLE shows"),
            "{d}"
        );
    }
}
