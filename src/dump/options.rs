//! Table options (`ENGINE`, `DEFAULT CHARSET`, `COLLATE`, `COMMENT`, others as features).

use sqlparser::ast::{CreateTableOptions, Expr, SqlOption, Value};

use crate::sql::print;

/// Table options the model keeps.
#[derive(Debug, Default)]
pub(super) struct TableOptions {
    pub(super) engine: Option<String>,
    pub(super) charset: Option<String>,
    pub(super) collation: Option<String>,
    pub(super) comment: Option<String>,
    /// Options the model does not keep: (object, SQL text).
    pub(super) other: Vec<(String, String)>,
}

impl TableOptions {
    pub(super) fn read(options: &CreateTableOptions) -> TableOptions {
        let mut out = TableOptions::default();
        let list = match options {
            CreateTableOptions::None => return out,
            CreateTableOptions::With(l)
            | CreateTableOptions::Options(l)
            | CreateTableOptions::Plain(l)
            | CreateTableOptions::TableProperties(l) => l,
        };
        for option in list {
            out.apply(option);
        }
        out
    }

    fn apply(&mut self, option: &SqlOption) {
        match option {
            SqlOption::KeyValue { key, value } => {
                let written = print::name(key);
                let upper = written.to_ascii_uppercase();
                let upper = upper.strip_prefix("DEFAULT ").unwrap_or(&upper).trim();
                match upper {
                    "ENGINE" => self.engine = Some(option_value(value)),
                    "CHARSET" | "CHARACTER SET" => self.charset = Some(option_value(value)),
                    "COLLATE" => self.collation = Some(option_value(value)),
                    // The next id is data, not shape.
                    "AUTO_INCREMENT" => {}
                    _ => self.other.push((
                        format!("table option {upper}"),
                        format!("{written} = {}", print::exact(value)),
                    )),
                }
            }
            SqlOption::NamedParenthesizedList(l) if l.key.value.eq_ignore_ascii_case("ENGINE") => {
                self.engine = l.name.as_ref().map(|n| n.value.clone());
            }
            SqlOption::Comment(c) => {
                self.comment = Some(match c {
                    sqlparser::ast::CommentDef::WithEq(s)
                    | sqlparser::ast::CommentDef::WithoutEq(s) => s.clone(),
                });
            }
            other => self
                .other
                .push(("table option".to_string(), print::node(other))),
        }
    }
}

/// The text of an option value: identifiers and strings unquoted.
fn option_value(value: &Expr) -> String {
    match value {
        Expr::Identifier(id) => id.value.clone(),
        Expr::Value(v) => match &v.value {
            Value::SingleQuotedString(s) | Value::DoubleQuotedString(s) => s.clone(),
            _ => print::exact(value),
        },
        _ => print::exact(value),
    }
}
