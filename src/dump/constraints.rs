//! Table constraints: primary key, unique and plain indexes, FULLTEXT /
//! SPATIAL, CHECK constraints, foreign keys.

use sqlparser::ast::{
    Expr, ForeignKeyConstraint, FullTextOrSpatialConstraint, IndexColumn, IndexOption, OrderBySort,
    ReferentialAction as SqlAction, TableConstraint,
};

use super::builder::{ItemMarkers, TableBuilder};
use super::DumpParseError;
use crate::ident::Ident;
use crate::model::{ForeignKey, FullTextParser, Index, IndexKind, IndexPart, ReferentialAction};
use crate::sql::print;

impl TableBuilder {
    /// Whether a `json_valid(col)` check is how this text spells a json
    /// column: MariaDB's (and a text of no known server's, as before), not
    /// MySQL's or TiDB's, whose json is its own type, so that there a
    /// longtext column with such a CHECK is a longtext column and a CHECK.
    pub(super) fn json_valid_is_json(&self) -> bool {
        self.options
            .flavor
            .is_none_or(|f| f.json_is_checked_longtext())
    }

    /// Remembers `json_valid(col)` checks where they make the column JSON
    /// ([`Self::json_valid_is_json`], see [`is_json_valid`]).
    /// Any other CHECK is a [`Feature`].
    pub(super) fn note_check(&mut self, name: Option<&str>, expr: &Expr) {
        if let (Some(col), true) = (json_valid_column(expr), self.json_valid_is_json()) {
            self.json_columns.insert(col.to_lowercase());
            return;
        }
        let object = match name {
            Some(n) => format!("check `{n}`"),
            None => "check".to_string(),
        };
        self.feature(object, format!("CHECK ({})", print::exact(expr)));
    }

    pub(super) fn constraint(
        &mut self,
        constraint: &TableConstraint,
        hidden: bool,
        markers: ItemMarkers<'_>,
    ) -> Result<(), DumpParseError> {
        let ItemMarkers { parser, comment } = markers;
        let index_item = matches!(
            constraint,
            TableConstraint::Unique(_)
                | TableConstraint::Index(_)
                | TableConstraint::FulltextOrSpatial(_)
        );
        if let (Some(name), false) = (parser, index_item) {
            return Err(self.err(format!(
                "WITH PARSER `{}` on `{}`, which is not a FULLTEXT index",
                name.escape_debug(),
                print::node(constraint)
            )));
        }
        let index = match constraint {
            TableConstraint::PrimaryKey(pk) => {
                self.primary_key = self.parts(&pk.columns)?;
                return Ok(());
            }
            TableConstraint::Check(check) => {
                let name = check.name.as_ref().map(|n| n.value.clone());
                match name {
                    // A named table-level CHECK is format v2, unless it is
                    // MariaDB's json one (named after its column).
                    Some(n) if !(is_json_valid(&check.expr) && self.json_valid_is_json()) => {
                        let expression = print::exact_checked(&check.expr).ok_or_else(|| {
                            self.err(format!(
                                "check `{n}`: condition `{}` cannot be printed exactly",
                                print::exact(&check.expr)
                            ))
                        })?;
                        self.checks.push(crate::model::Check {
                            name: Ident::new(n),
                            expression,
                            enforced: check.enforced != Some(false),
                            level: crate::model::CheckLevel::Table,
                        })
                    }
                    _ => self.note_check(name.as_deref(), &check.expr),
                }
                return Ok(());
            }
            TableConstraint::ForeignKey(fk) => {
                match self.foreign_key(fk) {
                    Some(model) => self.foreign_keys.push(model),
                    None => {
                        let object = match &fk.name {
                            Some(n) => format!("foreign key `{}`", n.value),
                            None => "foreign key".to_string(),
                        };
                        self.feature(object, print::node(constraint));
                    }
                }
                return Ok(());
            }
            TableConstraint::Unique(u) => self.index(
                u.index_name.as_ref().or(u.name.as_ref()),
                true,
                IndexKind::BTree,
                &u.columns,
                &u.index_options,
            )?,
            TableConstraint::Index(i) => self.index(
                i.name.as_ref(),
                false,
                IndexKind::BTree,
                &i.columns,
                &i.index_options,
            )?,
            TableConstraint::FulltextOrSpatial(FullTextOrSpatialConstraint {
                fulltext,
                opt_index_name,
                columns,
                ..
            }) => {
                let kind = if *fulltext {
                    IndexKind::FullText(None)
                } else {
                    IndexKind::Spatial
                };
                let comment = comment.map(|c| IndexOption::Comment(c.to_string()));
                let options: Vec<IndexOption> = comment.into_iter().collect();
                self.index(opt_index_name.as_ref(), false, kind, columns, &options)?
            }
            other => {
                self.feature("constraint".into(), print::node(other));
                return Ok(());
            }
        };
        let kind = self.with_parser(&index, parser)?;
        self.indexes.push(Index {
            visible: !hidden,
            kind,
            ..index
        });
        Ok(())
    }

    /// The index's kind with its `WITH PARSER` name (cut by the pre-pass):
    /// only a FULLTEXT index takes one (as MySQL says, error 1064 otherwise),
    /// and only a parser of the closed set; anything else fails closed,
    /// naming the table and index.
    fn with_parser(
        &self,
        index: &Index,
        parser: Option<&str>,
    ) -> Result<IndexKind, DumpParseError> {
        let Some(name) = parser else {
            return Ok(index.kind);
        };
        let object = format!("index `{}`", index.name);
        if !index.kind.is_fulltext() {
            return Err(self.err(format!(
                "{object}: WITH PARSER `{}` on an index that is not FULLTEXT",
                name.escape_debug()
            )));
        }
        FullTextParser::parse(name)
            .map(|p| IndexKind::FullText(Some(p)))
            .map_err(|e| self.err(format!("{object}: {e}")))
    }

    fn index(
        &self,
        name: Option<&sqlparser::ast::Ident>,
        unique: bool,
        kind: IndexKind,
        columns: &[IndexColumn],
        options: &[IndexOption],
    ) -> Result<Index, DumpParseError> {
        let parts = self.parts(columns)?;
        let name = match name {
            Some(n) => n.value.clone(),
            None => {
                let base = parts
                    .first()
                    .and_then(IndexPart::column_name)
                    .map_or("functional_index", Ident::as_str);
                self.unused_index_name(base)
            }
        };
        let comment = options.iter().find_map(|o| match o {
            IndexOption::Comment(c) => Some(c.clone()),
            IndexOption::Using(_) => None,
        });
        Ok(Index {
            name: Ident::new(name),
            unique,
            parts,
            kind,
            visible: true,
            comment,
        })
    }

    /// MySQL's name for an unnamed index: the first column, then `_2`, `_3` ...
    pub(super) fn unused_index_name(&self, base: &str) -> String {
        let taken = |n: &str| self.indexes.iter().any(|i| i.name == Ident::new(n));
        if !taken(base) {
            return base.to_string();
        }
        (2..)
            .map(|k| format!("{base}_{k}"))
            .find(|n| !taken(n))
            .unwrap_or_default()
    }

    fn parts(&self, columns: &[IndexColumn]) -> Result<Vec<IndexPart>, DumpParseError> {
        columns.iter().map(|c| self.part(c)).collect()
    }

    fn part(&self, column: &IndexColumn) -> Result<IndexPart, DumpParseError> {
        let descending = matches!(column.column.options.sort, Some(OrderBySort::Desc));
        match &column.column.expr {
            Expr::Identifier(id) => Ok(IndexPart::Column {
                name: Ident::new(id.value.clone()),
                prefix: None,
                descending,
            }),
            // `col(10)` parses as a call of `col` with one numeric argument.
            Expr::Function(f) => {
                let prefix = print::only_argument(f)
                    .and_then(print::number)
                    .and_then(|n| n.parse::<u32>().ok());
                match (print::plain_name(&f.name), prefix) {
                    (Some(name), Some(prefix)) => Ok(IndexPart::Column {
                        name: Ident::new(name),
                        prefix: Some(prefix),
                        descending,
                    }),
                    _ => Err(self.err(format!(
                        "unsupported index key part `{}`",
                        print::exact(&column.column.expr)
                    ))),
                }
            }
            Expr::Nested(inner) => print::exact_checked(inner)
                .map(IndexPart::Expression)
                .ok_or_else(|| {
                    self.err(format!(
                        "expression key part `{}` cannot be printed exactly",
                        print::exact(inner)
                    ))
                }),
            other => Err(self.err(format!(
                "unsupported index key part `{}`",
                print::exact(other)
            ))),
        }
    }
}

/// Whether a CHECK condition is a `json_valid(...)` call.
pub(super) fn is_json_valid(expr: &Expr) -> bool {
    matches!(expr, Expr::Function(f)
        if print::plain_name(&f.name).is_some_and(|n| n.eq_ignore_ascii_case("json_valid")))
}

/// The column of a `json_valid(col)` check (the name as written, unquoted);
/// `None` for any other condition.
fn json_valid_column(expr: &Expr) -> Option<&str> {
    match expr {
        Expr::Function(f) if is_json_valid(expr) => match print::only_argument(f)? {
            Expr::Identifier(i) => Some(i.value.as_str()),
            _ => None,
        },
        _ => None,
    }
}

impl TableBuilder {
    /// A named `CONSTRAINT ... FOREIGN KEY` as the model holds it; `None`
    /// (a [`Feature`](super::Feature), refused by import) for an unnamed
    /// one, a MATCH or DEFERRABLE clause, or a name of three parts. An
    /// omitted action is the server's default as it reports it: RESTRICT on
    /// MariaDB, NO ACTION on MySQL and TiDB (and when the server is not known).
    fn foreign_key(&self, fk: &ForeignKeyConstraint) -> Option<ForeignKey> {
        let name = fk.name.as_ref()?;
        if fk.match_kind.is_some() || fk.characteristics.is_some() {
            return None;
        }
        let idents = |v: &[sqlparser::ast::Ident]| -> Vec<Ident> {
            v.iter().map(|i| Ident::new(i.value.clone())).collect()
        };
        let parts: Vec<&str> = fk
            .foreign_table
            .0
            .iter()
            .map(|p| p.as_ident().map(|i| i.value.as_str()))
            .collect::<Option<Vec<_>>>()?;
        let (referenced_schema, referenced_table) = match parts.as_slice() {
            [t] => (None, Ident::new(*t)),
            [s, t] => (Some(Ident::new(*s)), Ident::new(*t)),
            _ => return None,
        };
        let omitted = if self
            .options
            .flavor
            .is_some_and(|f| f.shows_omitted_fk_action_as_restrict())
        {
            ReferentialAction::Restrict
        } else {
            ReferentialAction::NoAction
        };
        let action = |a: Option<SqlAction>| match a {
            None => omitted,
            Some(SqlAction::Restrict) => ReferentialAction::Restrict,
            Some(SqlAction::Cascade) => ReferentialAction::Cascade,
            Some(SqlAction::SetNull) => ReferentialAction::SetNull,
            Some(SqlAction::NoAction) => ReferentialAction::NoAction,
            Some(SqlAction::SetDefault) => ReferentialAction::SetDefault,
        };
        Some(ForeignKey {
            name: Ident::new(name.value.clone()),
            columns: idents(&fk.columns),
            referenced_schema,
            referenced_table,
            referenced_columns: idents(&fk.referred_columns),
            on_delete: action(fk.on_delete),
            on_update: action(fk.on_update),
        })
    }
}
