//! Classifying every change between two catalogs, each with its reason.
//!
//! One source of truth: what apply would do. NEW is diffed against OLD's
//! rendered model for every flavor reviewed, by the same diff apply runs
//! ([`crate::diff::diff_table`]); each typed problem is a finding whose class
//! is the problem's severity ([`apply`]: added, refused or left alone). The
//! review adds only what apply does not look at ([`ReviewKind`]): comments,
//! consumer scopes, column order, table options, removed tables and CHECK
//! constraints, and renames (a drop plus an add that looks like it: apply
//! would run the add, but the values stay behind).
//!
//! Every model attribute is bound through an exhaustive destructuring
//! (`let Column { name, ty: _, .. }` without `..`), each field saying who
//! judges it: a field added to [`Table`], `Column`, `Index` or [`Check`]
//! does not compile here until it is given to apply's diff or to a review
//! kind. Columns are in `columns`, indexes in `indexes`.

use std::collections::{HashMap, HashSet};

use schemars::JsonSchema;
use serde::Serialize;

use crate::catalog::{Catalog, CatalogTable, TablePolicy};
use crate::diff::{same_column_shape, Problem, ProblemKind, TableDiff};
use crate::ident::Ident;
use crate::model::{Check, Table};
use crate::server::Flavor;

pub mod apply;
mod columns;
mod indexes;

use columns::table_columns;
use indexes::table_indexes;

/// What a change means for the installations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    /// `catalog apply` makes a warm installation match NEW, additively.
    Deployable,
    /// A warm installation cannot reach NEW: apply refuses it as drift, or
    /// the change is not what it looks like on a populated table.
    NotDeployable,
    /// Warm and greenfield installations end up with different shapes.
    Divergent,
}

/// The kind of a change: what apply finds at OLD's shape (apply's own
/// problem kind, `missing_column`, `column_type`, `index_not_online` ...),
/// or what only the review looks at. Serialised as the bare snake_case name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum FindingKind {
    /// Found by apply's diff; classed by its severity (`apply::class`).
    Apply(ProblemKind),
    /// Found by the review only.
    Review(ReviewKind),
}

/// What the review finds that apply's diff does not look at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReviewKind {
    /// A table, column or index comment changed.
    CommentChanged,
    /// `required_by` of a table, column or index changed.
    ConsumerScopeChanged,
    /// A table dropped and one of the same columns added.
    TableRenamed,
    /// A column dropped and one of the same shape added at its place.
    ColumnRenamed,
    /// An index dropped and one of the same shape added.
    IndexRenamed,
    /// A table left the catalog.
    TableRemoved,
    /// A CHECK constraint left the catalog.
    CheckRemoved,
    /// A column moved among the others.
    ColumnMoved,
}

impl ReviewKind {
    /// The class of this kind of change.
    pub fn class(self) -> Class {
        use ReviewKind::*;
        match self {
            CommentChanged | ConsumerScopeChanged => Class::Deployable,
            // Apply would run the add; the values stay behind in the old object.
            TableRenamed | ColumnRenamed | IndexRenamed => Class::NotDeployable,
            TableRemoved | CheckRemoved | ColumnMoved => Class::Divergent,
        }
    }
}

impl From<ProblemKind> for FindingKind {
    fn from(k: ProblemKind) -> Self {
        FindingKind::Apply(k)
    }
}

impl From<ReviewKind> for FindingKind {
    fn from(k: ReviewKind) -> Self {
        FindingKind::Review(k)
    }
}

impl Class {
    /// The snake_case name used in JSON, human and Markdown output.
    pub fn name(self) -> String {
        crate::review::snake_name(&self)
    }
}

impl FindingKind {
    /// The snake_case name used in JSON, human and Markdown output.
    pub fn name(self) -> String {
        crate::review::snake_name(&self)
    }

    /// The class of this kind of change.
    pub fn class(self) -> Class {
        match self {
            FindingKind::Apply(k) => apply::class(k),
            FindingKind::Review(k) => k.class(),
        }
    }
}

/// One classified change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Finding {
    /// Its class (from its kind).
    pub class: Class,
    /// What changed.
    pub kind: FindingKind,
    /// Table (NEW's name; OLD's for a removed table).
    pub table: String,
    /// Column, index or CHECK constraint (`PRIMARY` for the primary key);
    /// `None` for the table.
    pub object: Option<String>,
    /// OLD's shape, where there is one.
    pub old: Option<String>,
    /// NEW's shape, where there is one.
    pub new: Option<String>,
    /// Why it has its class, in words.
    pub reason: String,
    /// The flavors apply finds it on, when not every flavor reviewed
    /// (empty: all of them).
    pub only_on: Vec<Flavor>,
    /// What would make it deployable (a catalog change such as `widen:
    /// true`, or the statement to run by hand); `None` where nothing is
    /// needed. Where the flavors that find it give different fixes, each
    /// flavor's (`on mysql: ...; on tidb: ...`, and apart in `fixes`);
    /// where only some of the flavors reviewed find it, also `--flavor`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
    /// Whether it deploys only on some data: a UNIQUE index added to an
    /// existing table is built only where no two retained rows share its
    /// key (apply probes for duplicates before any DDL and refuses the run
    /// where it finds some). Absent when false.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub data_dependent: bool,
    /// Each flavor's fix, where the flavors that find it give different
    /// ones (empty when they agree: `fix` is then every flavor's).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fixes: Vec<FlavorFix>,
}

/// One flavor's fix of a [`Finding`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct FlavorFix {
    /// The flavor.
    pub flavor: Flavor,
    /// Its fix; `None` where nothing is needed there.
    pub fix: Option<String>,
}

impl Finding {
    /// The kind's name, with the flavors it is limited to:
    /// `column_type (only on tidb)`.
    pub fn kind_text(&self) -> String {
        if self.only_on.is_empty() {
            self.kind.name()
        } else {
            let on: Vec<String> = self.only_on.iter().map(|f| f.to_string()).collect();
            format!("{} (only on {})", self.kind.name(), on.join(", "))
        }
    }
}

/// What apply finds on a database at OLD's shape (OLD rendered for the
/// flavor and parsed back, [`crate::review::upgrade::old_model`]): per NEW
/// table, in NEW's order, its diff's problems then its unmanaged objects.
pub type Installed = (Flavor, Vec<Vec<Problem>>);

/// [`Installed`] from NEW's diffs on `flavor` ([`crate::review::upgrade::diffs`]).
pub fn installed(flavor: Flavor, diffs: Vec<TableDiff>) -> Installed {
    let found = diffs
        .into_iter()
        .map(|d| d.problems.into_iter().chain(d.unmanaged).collect())
        .collect();
    (flavor, found)
}

pub(super) struct Out(Vec<Finding>);

impl Out {
    /// The informational attributes every object has: its comment and its
    /// consumers (`required_by`).
    pub(super) fn informational(
        &mut self,
        table: &Ident,
        object: Option<&str>,
        comment: (&Option<String>, &Option<String>),
        required_by: (&[String], &[String]),
    ) {
        if comment.0 != comment.1 {
            self.push(
                ReviewKind::CommentChanged,
                table,
                object,
                comment.0.clone(),
                comment.1.clone(),
                "comments are informational: never compared, never applied",
            );
        }
        if required_by.0 != required_by.1 {
            self.push(
                ReviewKind::ConsumerScopeChanged,
                table,
                object,
                Some(scope_text(required_by.0)),
                Some(scope_text(required_by.1)),
                "only which consumers' verify checks it changes; see the rollout",
            );
        }
    }

    pub(super) fn push(
        &mut self,
        kind: ReviewKind,
        table: &Ident,
        object: Option<&str>,
        old: Option<String>,
        new: Option<String>,
        reason: impl Into<String>,
    ) {
        self.0.push(Finding {
            class: kind.class(),
            kind: FindingKind::Review(kind),
            table: table.as_str().to_string(),
            object: object.map(str::to_string),
            old,
            new,
            reason: reason.into(),
            only_on: Vec::new(),
            fix: review_fix(kind),
            data_dependent: false,
            fixes: Vec::new(),
        });
    }
}

/// What would make a review-only finding deployable.
fn review_fix(kind: ReviewKind) -> Option<String> {
    use ReviewKind::*;
    match kind {
        CommentChanged | ConsumerScopeChanged | TableRemoved | CheckRemoved | ColumnMoved => None,
        TableRenamed | ColumnRenamed | IndexRenamed => Some(
            "keep OLD's name in the catalog, or rename the object by hand on every installation first (`RENAME TABLE`, `ALTER TABLE ... RENAME COLUMN` / `RENAME INDEX`): apply would add the new name empty and leave the old object and its values behind".into(),
        ),
    }
}

/// What apply's diff finds on NEW's table `n` at each installed OLD, merged
/// across flavors (first flavor's order and text; a problem another flavor
/// adds comes after): each problem with the flavors it is found on, empty
/// when found on all.
pub(super) fn apply_problems(i: usize, installed: &[Installed]) -> Vec<(Problem, Vec<Flavor>)> {
    let mut out: Vec<(Problem, Vec<Flavor>)> = Vec::new();
    for (flavor, found) in installed {
        for p in found.get(i).into_iter().flatten().cloned() {
            match out
                .iter_mut()
                .find(|(q, _)| q.kind == p.kind && q.object == p.object)
            {
                Some((_, on)) => on.push(*flavor),
                None => out.push((p, vec![*flavor])),
            }
        }
    }
    for (_, on) in &mut out {
        if on.len() == installed.len() {
            on.clear();
        }
    }
    out
}

/// Every change from `old` to `new`, classified; tables in NEW's order
/// (removed ones after), within a table: the table's own, then apply's
/// findings in its order (columns, primary key, indexes, checks, unmanaged
/// objects), then the review's about columns, indexes and checks.
/// `installed` holds OLD as each reviewed flavor's server would hold it.
pub fn classify(old: &Catalog, new: &Catalog, installed: &[Installed]) -> Vec<Finding> {
    let olds: Vec<&Table> = old.tables.iter().map(|t| &t.table).collect();
    let news: Vec<&Table> = new.tables.iter().map(|t| &t.table).collect();
    // Looked up by folded name, not searched (docs/scale.md).
    let old_by_name: HashMap<&str, &Table> = olds.iter().map(|t| (t.name.folded(), *t)).collect();
    let new_names: HashSet<&str> = news.iter().map(|t| t.name.folded()).collect();
    let mut out = Out(Vec::new());
    let mut added: Vec<&Table> = news
        .iter()
        .copied()
        .filter(|n| !old_by_name.contains_key(n.name.folded()))
        .collect();
    let mut removed: Vec<&Table> = olds
        .iter()
        .copied()
        .filter(|o| !new_names.contains(o.name.folded()))
        .collect();
    let mut renamed: Vec<(&Table, &Table)> = Vec::new();
    removed.retain(|o| match added.iter().position(|n| same_columns(o, n)) {
        Some(i) => {
            renamed.push((o, added.remove(i)));
            false
        }
        None => true,
    });
    for (i, n) in news.iter().enumerate() {
        let found = apply_problems(i, installed);
        if let Some(o) = old.table(n.name.as_str()) {
            table(o, &new.tables[i], found, &mut out);
        } else if let Some((o, _)) = renamed.iter().find(|(_, r)| r.name == n.name) {
            out.push(
                ReviewKind::TableRenamed,
                &n.name,
                None,
                Some(o.name.as_str().to_string()),
                Some(n.name.as_str().to_string()),
                format!(
                    "looks like a rename of `{}`: apply renames nothing, so a warm installation keeps `{}` with its rows and gets an empty `{}`",
                    o.name, o.name, n.name
                ),
            );
        } else {
            out.0
                .extend(found.into_iter().map(|(p, on)| apply::finding(&p, n, on)));
        }
    }
    for f in &mut out.0 {
        if let Some(i) = news.iter().position(|n| n.name.as_str() == f.table) {
            flavor_fixes(f, i, installed);
        }
    }
    for o in removed {
        out.push(
            ReviewKind::TableRemoved,
            &o.name,
            None,
            Some(format!("{} column(s)", o.columns.len())),
            None,
            "warm installations keep it (unmanaged, never dropped); greenfield ones will not have it",
        );
    }
    out.0
}

/// Gives `f` (of NEW's table `i`) each flavor's fix where the flavors
/// that find it give different ones (apply's diff judges each flavor by
/// its own rules: an ENUM append is `widen: true` on MySQL and MariaDB, a
/// statement by hand on TiDB), and, where it is refused on only some of
/// the flavors reviewed, the `--flavor` way out.
fn flavor_fixes(f: &mut Finding, i: usize, installed: &[Installed]) {
    let FindingKind::Apply(kind) = f.kind else {
        return;
    };
    let mut fixes: Vec<FlavorFix> = Vec::new();
    for (flavor, found) in installed {
        let same = |p: &&Problem| {
            p.kind == kind
                && (kind == ProblemKind::MissingTable || Some(&p.object) == f.object.as_ref())
        };
        if let Some(p) = found.get(i).into_iter().flatten().find(same) {
            fixes.push(FlavorFix {
                flavor: *flavor,
                fix: p.fix.clone(),
            });
        }
    }
    if fixes.iter().any(|x| x.fix != fixes[0].fix) {
        let each: Vec<String> = fixes
            .iter()
            .map(|x| {
                format!(
                    "on {}: {}",
                    x.flavor,
                    x.fix.as_deref().unwrap_or("nothing is needed")
                )
            })
            .collect();
        f.fix = Some(each.join("; "));
        f.fixes = fixes;
    }
    if f.class == Class::NotDeployable && !f.only_on.is_empty() {
        let on: Vec<String> = f.only_on.iter().map(|x| x.to_string()).collect();
        let on = on.join(", ");
        let others: Vec<String> = Flavor::ALL
            .iter()
            .filter(|x| !f.only_on.contains(x))
            .map(|x| format!("--flavor {x}"))
            .collect();
        let flavor = format!(
            "it is refused only on {on}: if none of your servers is {on}, review for yours alone (`{}`) or list only theirs under `flavors:` in catalog.yaml",
            others.join(" ")
        );
        f.fix = Some(match f.fix.take() {
            Some(fix) => format!("{fix}; or {flavor}"),
            None => flavor,
        });
    }
}

/// Same column names and shapes (the one column-match rule,
/// [`same_column_shape`]), in order: a rename candidate.
fn same_columns(a: &Table, b: &Table) -> bool {
    a.columns.len() == b.columns.len()
        && a.columns
            .iter()
            .zip(&b.columns)
            .all(|(x, y)| x.name == y.name && same_column_shape(x, y))
}

/// A table on both sides (OLD's `ot`, NEW's `nt`): its informational
/// attributes, then the review's findings about its columns, indexes and
/// checks beside apply's.
fn table(ot: &CatalogTable, nt: &CatalogTable, found: Vec<(Problem, Vec<Flavor>)>, out: &mut Out) {
    let (o, n) = (&ot.table, &nt.table);
    let Table {
        name,
        kind: _, // catalogs declare base tables only
        comment,
        // Apply's diff is exact here (table_engine, table_collation).
        engine: _,
        row_format: _,
        charset: _,
        collation: _,
        // Apply's diff: missing, drifted and unmanaged columns; the review:
        // renames, order, comments and consumers ([`columns`]).
        columns,
        primary_key: _, // apply's diff (primary_key)
        // Apply's diff: missing, reshaped, not online, unmanaged; the
        // review: renames, comments and consumers ([`indexes`]).
        indexes,
        // Apply's diff: a new one is not online, another condition is
        // drift; the review: removed ones.
        checks,
        // Apply's diff only: a new one is not online, a reshaped one is
        // drift, a removed one unmanaged (foreign_key_* kinds).
        foreign_keys: _,
        tidb: _, // apply's diff on TiDB (crate::tidb::drift)
    } = n;
    out.informational(
        name,
        None,
        (&o.comment, comment),
        (&ot.policy.required_by, &nt.policy.required_by),
    );
    let mut review = Out(Vec::new());
    let policies = (&ot.policy, &nt.policy);
    let mut renames = table_columns(o, n, columns, policies, &found, &mut review);
    renames.extend(table_indexes(o, n, indexes, policies, &found, &mut review));
    for c in &o.checks {
        let Check {
            name: check,
            expression,
            ..
        } = c;
        if !checks.iter().any(|x| x.name == *check) {
            review.push(
                ReviewKind::CheckRemoved,
                name,
                Some(check.as_str()),
                Some(format!("CHECK ({expression})")),
                None,
                "warm installations keep the constraint (unmanaged, never dropped) and go on enforcing it; greenfield ones will not have it",
            );
        }
    }
    for (p, on) in &found {
        match renames.iter().find(|r| r.stands_for(p)) {
            Some(r) if r.add == p.kind => out.0.push(r.finding.clone()),
            Some(_) => {} // the dropped side of a rename
            None => out.0.push(apply::finding(p, n, on.clone())),
        }
    }
    out.0.append(&mut review.0);
}

/// A drop plus an add that looks like it: one finding for both of apply's
/// problems (the add it would run, the drop it would leave unmanaged).
pub(super) struct Rename {
    /// Apply's problem kind for the added object.
    pub add: ProblemKind,
    /// Apply's problem kind for the dropped one.
    pub drop: ProblemKind,
    /// The added object (NEW's name).
    pub added: String,
    /// The dropped object (OLD's name).
    pub dropped: String,
    /// The rename finding.
    pub finding: Finding,
}

impl Rename {
    fn stands_for(&self, p: &Problem) -> bool {
        (p.kind == self.add && p.object.eq_ignore_ascii_case(&self.added))
            || (p.kind == self.drop && p.object.eq_ignore_ascii_case(&self.dropped))
    }
}

impl Out {
    /// A rename finding (not pushed: it takes the place of apply's add).
    pub(super) fn rename(
        kind: ReviewKind,
        table: &Ident,
        (add, drop): (ProblemKind, ProblemKind),
        (dropped, added): (&Ident, &Ident),
        reason: String,
    ) -> Rename {
        let mut one = Out(Vec::new());
        one.push(
            kind,
            table,
            Some(added.as_str()),
            Some(dropped.as_str().to_string()),
            Some(added.as_str().to_string()),
            reason,
        );
        Rename {
            add,
            drop,
            added: added.as_str().to_string(),
            dropped: dropped.as_str().to_string(),
            finding: one.0.remove(0),
        }
    }
}

/// The objects apply finds of `kind` (their names as apply reports them).
pub(super) fn found_of(found: &[(Problem, Vec<Flavor>)], kind: ProblemKind) -> Vec<&str> {
    found
        .iter()
        .filter(|(p, _)| p.kind == kind)
        .map(|(p, _)| p.object.as_str())
        .collect()
}

fn scope_text(required_by: &[String]) -> String {
    if required_by.is_empty() {
        "base contract".into()
    } else {
        format!("required_by [{}]", required_by.join(", "))
    }
}
