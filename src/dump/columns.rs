//! Column definitions: type, options, defaults.

use sqlparser::ast::{CheckConstraint, ColumnDef, ColumnOption, Expr, Value};
use sqlparser::tokenizer::Token;

use super::builder::TableBuilder;
use super::DumpParseError;
use crate::coltype::ColumnType;
use crate::ident::Ident;
use crate::model::{Check, CheckLevel, Column, DefaultValue, Index, IndexPart};
use crate::server::Flavor;
use crate::sql::print;

impl TableBuilder {
    pub(super) fn column(&mut self, def: &ColumnDef) -> Result<Column, DumpParseError> {
        let name = def.name.value.clone();
        let type_text = data_type_text(&print::data_type(&def.data_type));
        let ty = match members_type(&def.data_type)
            .map_or_else(|| ColumnType::parse(&type_text), Ok)
        {
            Ok(ty) => ty,
            Err(_) if self.options.keep_other_types => ColumnType::Other(compact_type(&type_text)),
            Err(e) => return Err(self.err(format!("column `{name}`: unsupported type `{}`", e.0))),
        };
        let mut column = Column::new(name.as_str(), ty);
        for option in &def.options {
            self.column_option(&mut column, &option.option)?;
        }
        Ok(column)
    }

    /// A column-level `CHECK` as MariaDB prints it (inline, unnamed):
    /// MariaDB keeps it under the column's name (CHECK_CONSTRAINTS.LEVEL
    /// `Column`), in the one namespace of the table's CHECK names (`ADD
    /// CONSTRAINT status CHECK ...` is "Duplicate CHECK constraint name"
    /// when column `status` has one), so the model holds it as the named
    /// check it is, at [`CheckLevel::Column`] (dropped with its column,
    /// printed in it). MariaDB's `json_valid` check stays the json type;
    /// elsewhere (a MySQL dump never has one) it stays a feature.
    fn column_check(&mut self, column: &str, check: &CheckConstraint) {
        let is_json = super::constraints::is_json_valid(&check.expr);
        if self.options.flavor.is_some_and(Flavor::keeps_check_levels)
            && check.name.is_none()
            && !is_json
        {
            match print::exact_checked(&check.expr) {
                Some(expression) => self.checks.push(Check {
                    name: Ident::new(column),
                    expression,
                    enforced: check.enforced != Some(false),
                    level: CheckLevel::Column,
                }),
                None => self.feature(
                    format!("check `{column}`"),
                    format!(
                        "CHECK ({}), which this tool cannot print exactly",
                        print::exact(&check.expr)
                    ),
                ),
            }
        } else {
            let name = check.name.as_ref().map(|n| n.value.as_str());
            self.note_check(name, &check.expr);
        }
    }

    fn column_option(
        &mut self,
        column: &mut Column,
        option: &ColumnOption,
    ) -> Result<(), DumpParseError> {
        let name = column.name.as_str().to_string();
        match option {
            ColumnOption::Null => column.nullable = true,
            ColumnOption::NotNull => column.nullable = false,
            ColumnOption::Default(expr) => {
                column.default = default_value(expr).map_err(|()| {
                    self.err(format!(
                        "column `{name}`: default `{}` cannot be printed exactly",
                        print::exact(expr)
                    ))
                })?
            }
            ColumnOption::CharacterSet(cs) => column.charset = Some(print::name(cs)),
            ColumnOption::Collation(co) => column.collation = Some(print::name(co)),
            ColumnOption::Comment(comment) => column.comment = Some(comment.clone()),
            ColumnOption::PrimaryKey(_) => {
                self.primary_key = vec![IndexPart::column(name.as_str())]
            }
            ColumnOption::Unique(_) => {
                let index_name = self.unused_index_name(&name);
                self.indexes
                    .push(Index::new(index_name.as_str(), true, &[name.as_str()]));
            }
            ColumnOption::Check(check) => self.column_check(&name, check),
            ColumnOption::DialectSpecific(tokens) if is_auto_increment(tokens) => {
                column.auto_increment = true
            }
            ColumnOption::Generated {
                generation_expr: Some(expr),
                generation_expr_mode,
                ..
            } => {
                let text = print::exact_checked(expr).ok_or_else(|| {
                    self.err(format!(
                        "column `{name}`: generation expression `{}` cannot be printed exactly",
                        print::exact(expr)
                    ))
                })?;
                column.generated = Some(crate::model::Generated {
                    expression: crate::expr::generation(&text),
                    stored: matches!(
                        generation_expr_mode,
                        Some(sqlparser::ast::GeneratedExpressionMode::Stored)
                    ),
                })
            }
            // `on_update: CURRENT_TIMESTAMP(p)`; any other value is not one
            // the catalog format has (import refuses it).
            ColumnOption::OnUpdate(expr) => {
                let text = print::exact(expr);
                column.on_update = DefaultValue::parse_sql(&text);
                if !matches!(column.on_update, Some(DefaultValue::CurrentTimestamp(_))) {
                    self.feature(format!("column `{name}`"), format!("ON UPDATE {text}"))
                }
            }
            ColumnOption::Invisible => column.invisible = true,
            // MySQL's `/*!80003 SRID n */` (unwrapped) on a spatial column.
            ColumnOption::Srid(expr) => {
                let n = print::number(expr).and_then(|n| n.parse::<u32>().ok());
                match (&mut column.ty, n) {
                    (ColumnType::Spatial { srid, .. }, Some(n)) => *srid = Some(n),
                    _ => {
                        return Err(self.err(format!(
                            "column `{name}`: SRID {} on a {} column",
                            print::exact(expr),
                            column.ty
                        )))
                    }
                }
            }
            other => {
                return Err(self.err(format!(
                    "column `{name}`: unsupported column option `{}`",
                    print::node(other)
                )))
            }
        }
        Ok(())
    }
}

/// A type text spelled like the server's COLUMN_TYPE: no space after the
/// commas of an argument list outside quotes (`enum('x', 'y')` is
/// `enum('x','y')`).
fn compact_type(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut quoted = false;
    let mut after_comma = false;
    for c in text.chars() {
        if !quoted && after_comma && c == ' ' {
            continue;
        }
        after_comma = !quoted && c == ',';
        if c == '\'' {
            quoted = !quoted;
        }
        out.push(c);
    }
    out
}

/// `enum(...)` / `set(...)` from the AST: members keep their case and
/// quotes (the type's text form is lowercased for the other types).
fn members_type(ty: &sqlparser::ast::DataType) -> Option<ColumnType> {
    use sqlparser::ast::{DataType, EnumMember};
    match ty {
        DataType::Enum(members, None) => members
            .iter()
            .map(|m| match m {
                EnumMember::Name(n) => Some(n.clone()),
                EnumMember::NamedValue(..) => None,
            })
            .collect::<Option<Vec<_>>>()
            .map(ColumnType::Enum),
        DataType::Set(members) => Some(ColumnType::Set(members.clone())),
        _ => None,
    }
}

/// sqlparser's spelling of a data type, made readable by [`ColumnType::parse`].
fn data_type_text(displayed: &str) -> String {
    let lower = displayed.to_ascii_lowercase();
    match lower.as_str() {
        "double precision" | "real" => "double".to_string(),
        _ => lower,
    }
}

/// A column default from its expression; `None` for `DEFAULT NULL`.
fn default_value(expr: &Expr) -> Result<Option<DefaultValue>, ()> {
    Ok(match expr {
        // Read string literals from the AST: sqlparser prints them without
        // re-escaping backslashes, so their text form is not reliable.
        Expr::Value(v) => match &v.value {
            Value::SingleQuotedString(s) | Value::DoubleQuotedString(s) => {
                Some(DefaultValue::Literal(s.clone()))
            }
            _ => DefaultValue::parse_sql(&print::exact(expr)),
        },
        // An expression default: its string literals through the one
        // escaping helper; a text that would not read back is refused.
        _ => print::exact_checked(expr)
            .map(|t| DefaultValue::parse_sql(&t))
            .ok_or(())?,
    })
}

fn is_auto_increment(tokens: &[Token]) -> bool {
    tokens
        .iter()
        .any(|t| matches!(t, Token::Word(w) if w.value.eq_ignore_ascii_case("AUTO_INCREMENT")))
}
