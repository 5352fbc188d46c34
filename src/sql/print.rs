//! The one printer of SQL expressions, on [`crate::ident::quote_str`] (every
//! string literal) and [`crate::ident::quote_ident`] (every name); the one
//! walk over an expression's nodes is [`super::walk`].
//!
//! sqlparser's `Display` is never used on a literal: it puts the unescaped
//! value between quotes, so the string `a\` would come out as `'a\'`, which
//! MySQL reads as an escaped quote. The printer has two styles:
//!
//! - [`closed`]: the catalog's subset (literals, calls of plainly named
//!   functions, unary `-`/`+`/`NOT`, arithmetic, comparison and logical
//!   operators, `IN`, `BETWEEN`, `LIKE`, `IS [NOT] NULL`, `CASE`, typed
//!   temporal literals, rows where compared, parentheses as written, and
//!   the table's declared columns in their declared spelling). Anything
//!   else is an error naming it. Render and lint print every catalog
//!   expression (default, CHECK, generated column, key part) with it.
//! - [`structural`]: the same nodes in a form for comparing a declared
//!   expression with a server's spelling of it: every operator application
//!   in its own parentheses, written groupings dropped, names, keywords and
//!   function names lowercased and unquoted, literals exact. A node outside
//!   the subset is printed by [`exact`] with its names folded.
//!
//! [`exact`] prints any expression (a dump's, a server's) as sqlparser does
//! but with every literal through `quote_str`; [`exact_checked`] adds the
//! guard that the text reads back as the same tree. Declared queries
//! ([`super::query`]) put their literals in with [`literal`] the same way.
//!
//! [`node`] prints any other node the same way (a clause named in a
//! message: an unsupported constraint, column or table option, a
//! statement); [`data_type`] a column type, its members through
//! `quote_str`; [`name`] and [`plain_name`] read a name's parts, and
//! [`number`] a numeric literal, without printing. No file outside
//! `src/sql/` formats a sqlparser node with `Display`
//! (tests/it/one_printer.rs).

use std::fmt::Display;
use std::ops::ControlFlow;

use sqlparser::ast::{
    BinaryOperator, CastKind, DataType, Expr, FunctionArg, FunctionArgExpr, FunctionArguments,
    InTarget, ObjectName, UnaryOperator, Value, ValueWithSpan, VisitMut, VisitorMut,
};
use sqlparser::dialect::MySqlDialect;
use sqlparser::parser::Parser;

use super::lex::{all_tokens, Token};
use super::walk::{normalise, walk};
use crate::ident::{quote_ident, quote_str, Ident};

/// Prints `expr` in the closed catalog subset (see the module docs); a
/// name must be one of `columns` (printed in its declared spelling), and
/// with no columns (an expression default) no name is allowed.
pub fn closed(expr: &Expr, columns: &[Ident], context: Context) -> Result<String, String> {
    let printer = Printer {
        columns: Some(columns),
        context,
    };
    match expr {
        // A multi-valued key part is the whole part (MySQL 8.4 manual,
        // CREATE INDEX, "Multi-Valued Indexes": `CAST(... AS type ARRAY)`
        // is allowed only as a functional key part).
        Expr::Cast {
            kind: CastKind::Cast,
            expr: inner,
            data_type: data_type @ DataType::Array(_),
            format: None,
        } if context == Context::KeyPart => printer.cast(inner, data_type, true),
        other => printer.expr(other),
    }
}

/// Where a catalog expression stands. Each place has its own allowed set
/// and names itself when it refuses a node: an expression default has the
/// smallest (no column, no CAST or SUBSTRING); a CHECK condition, a
/// generated column and a key part add the table's columns, `CAST` to a
/// closed set of types and `SUBSTR`/`SUBSTRING`; only a whole key part may
/// be a multi-valued `CAST(... AS type ARRAY)` (MySQL 8.0.17+).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Context {
    /// `DEFAULT (expression)`.
    Default,
    /// A CHECK constraint's condition.
    Check,
    /// A generated column's `GENERATED ALWAYS AS (expression)`.
    Generated,
    /// A functional key part `(expression)` of an index.
    KeyPart,
}

impl Context {
    /// The end of a refusal: "which is not ..." (names the allowed set).
    fn allowed(self) -> &'static str {
        match self {
            Context::Default => {
                "an allowed default expression (literals, function calls, arithmetic)"
            }
            Context::Check => {
                "allowed in a CHECK condition (literals, columns, function calls, CAST, SUBSTRING, operators)"
            }
            Context::Generated => {
                "allowed in a generated column expression (literals, columns, function calls, CAST, SUBSTRING, operators)"
            }
            Context::KeyPart => {
                "allowed in an expression key part (literals, columns, function calls, CAST, SUBSTRING, operators; a whole part may be CAST(... AS type ARRAY))"
            }
        }
    }
}

/// Prints `expr` in the structural style (see the module docs).
pub fn structural(expr: &Expr) -> String {
    Printer {
        columns: None,
        context: Context::KeyPart,
    }
    .expr(expr)
    .unwrap_or_else(|_| exact(expr))
}

/// The text of `expr`, its literals printed by [`literal`].
pub fn exact(expr: &Expr) -> String {
    let mut e = expr.clone();
    walk(&mut e, &mut |e| {
        if let Expr::Value(v) = e {
            if let Some(text) = literal(&v.value) {
                // A placeholder prints its text as it is.
                v.value = Value::Placeholder(text);
            }
        }
    });
    e.to_string()
}

/// [`exact`], when the text reads back as the same tree; `None` otherwise
/// (a literal inside a node [`walk`] does not enter): the caller refuses
/// the expression rather than change what it means.
pub fn exact_checked(expr: &Expr) -> Option<String> {
    let out = exact(expr);
    (parse_one(&out).ok().as_ref() == Some(expr)).then_some(out)
}

/// The text of any node (a clause named in a message, a statement), as
/// sqlparser prints it but with every literal in it, at any depth, printed
/// by [`literal`].
pub fn node<T: VisitMut + Display + Clone>(node: &T) -> String {
    struct Literals;
    impl VisitorMut for Literals {
        type Break = ();
        fn pre_visit_value(&mut self, v: &mut ValueWithSpan) -> ControlFlow<()> {
            if let Some(text) = literal(&v.value) {
                v.value = Value::Placeholder(text);
            }
            ControlFlow::Continue(())
        }
    }
    let mut n = node.clone();
    let _ = n.visit(&mut Literals);
    n.to_string()
}

/// A column type's text as sqlparser spells it, the members of an `enum`
/// or `set` through [`quote_str`] (sqlparser puts them between quotes
/// unescaped).
pub fn data_type(ty: &DataType) -> String {
    use sqlparser::ast::EnumMember;
    let members = |list: Vec<String>| list.join(", ");
    match ty {
        DataType::Enum(members_of, bits) => {
            let list = members_of
                .iter()
                .map(|m| match m {
                    EnumMember::Name(n) => quote_str(n),
                    EnumMember::NamedValue(n, v) => format!("{} = {}", quote_str(n), exact(v)),
                })
                .collect();
            let keyword = match bits {
                Some(b) => format!("ENUM{b}"),
                None => "ENUM".to_string(),
            };
            format!("{keyword}({})", members(list))
        }
        DataType::Set(list) => format!(
            "SET({})",
            members(list.iter().map(|m| quote_str(m)).collect())
        ),
        other => other.to_string(),
    }
}

/// A name's parts, unquoted, joined with `.` (for a name compared or
/// shown as a word: a function's, a table option's key).
pub fn name(n: &ObjectName) -> String {
    n.0.iter()
        .map(|p| match p.as_ident() {
            Some(i) => i.value.clone(),
            None => p.to_string(),
        })
        .collect::<Vec<_>>()
        .join(".")
}

/// The one part of an unqualified name, unquoted; `None` for a qualified one.
pub fn plain_name(n: &ObjectName) -> Option<&str> {
    match n.0.as_slice() {
        [part] => part.as_ident().map(|i| i.value.as_str()),
        _ => None,
    }
}

/// A numeric literal's digits, `None` for any other expression.
pub fn number(e: &Expr) -> Option<&str> {
    match e {
        Expr::Value(v) => match &v.value {
            Value::Number(n, false) => Some(n.as_str()),
            _ => None,
        },
        _ => None,
    }
}

/// The single argument of a call (`json_valid(col)`, a key part `col(10)`),
/// `None` for none, several or a clause.
pub fn only_argument(f: &sqlparser::ast::Function) -> Option<&Expr> {
    match &f.args {
        FunctionArguments::List(list)
            if list.duplicate_treatment.is_none() && list.clauses.is_empty() =>
        {
            match list.args.as_slice() {
                [FunctionArg::Unnamed(FunctionArgExpr::Expr(e))] => Some(e),
                _ => None,
            }
        }
        _ => None,
    }
}

/// A string literal's SQL text through the one escaping helper; `None`
/// for a value that is not a string.
pub fn literal(v: &Value) -> Option<String> {
    match v {
        Value::SingleQuotedString(s) | Value::DoubleQuotedString(s) => Some(quote_str(s)),
        Value::NationalStringLiteral(s) => Some(format!("N{}", quote_str(s))),
        _ => None,
    }
}

/// `text` as exactly one expression (the one lexer's tokens, as the server
/// reads them); the error says why not.
pub fn parse_one(text: &str) -> Result<Expr, String> {
    parse_tokens(all_tokens(text)?)
}

/// `tokens` as exactly one expression.
pub fn parse_tokens(tokens: Vec<Token>) -> Result<Expr, String> {
    let mut parser = Parser::new(&MySqlDialect {}).with_tokens(tokens);
    let expr = parser
        .parse_expr()
        .map_err(|e| format!("is not an SQL expression: {e}"))?;
    if parser.peek_token().token != Token::EOF {
        return Err(format!(
            "is more than one expression: `{}` follows it",
            parser.peek_token().token
        ));
    }
    Ok(expr)
}

/// The printer: `columns` is `Some` in the closed style (the names
/// allowed), `None` in the structural one.
struct Printer<'a> {
    columns: Option<&'a [Ident]>,
    context: Context,
}

impl Printer<'_> {
    fn structural(&self) -> bool {
        self.columns.is_none()
    }

    /// A keyword: as written in the closed style, lowercase in the structural.
    fn kw(&self, k: &str) -> String {
        if self.structural() {
            k.to_lowercase()
        } else {
            k.to_string()
        }
    }

    /// An operator application: in its own parentheses in the structural style.
    fn applied(&self, text: String) -> String {
        if self.structural() {
            format!("({text})")
        } else {
            text
        }
    }

    fn not(&self, negated: bool) -> String {
        self.kw(if negated { "NOT " } else { "" })
    }

    /// A node outside the subset: an error in the closed style, its exact
    /// text with names folded in the structural one.
    fn outside(&self, e: &Expr, why: String) -> Result<String, String> {
        if self.structural() {
            let mut e = e.clone();
            walk(&mut e, &mut |e| normalise(e, true));
            Ok(exact(&e))
        } else {
            Err(why)
        }
    }

    fn expr(&self, expr: &Expr) -> Result<String, String> {
        match expr {
            Expr::Value(_) if self.structural() => Ok(exact(expr)),
            Expr::Value(v) => closed_value(&v.value),
            Expr::Nested(inner) if self.structural() => self.expr(inner),
            Expr::Nested(inner) => Ok(format!("({})", self.expr(inner)?)),
            Expr::UnaryOp { op, expr: inner } if self.structural() => Ok(format!(
                "({} {})",
                op.to_string().to_lowercase(),
                self.expr(inner)?
            )),
            Expr::UnaryOp { op, expr: inner } => {
                let op = match op {
                    UnaryOperator::Minus => "-",
                    UnaryOperator::Plus => "+",
                    UnaryOperator::Not => "NOT ",
                    other => {
                        return Err(format!("uses the operator `{other}`, which is not allowed"))
                    }
                };
                Ok(format!("{op}{}", self.expr(inner)?))
            }
            Expr::BinaryOp { left, op, right } => {
                let op = match binary_operator(op) {
                    Some(o) => o.to_string(),
                    None if self.structural() => op.to_string(),
                    None => return Err(format!("uses the operator `{op}`, which is not allowed")),
                };
                Ok(self.applied(format!(
                    "{} {} {}",
                    self.operand(left)?,
                    self.kw(&op),
                    self.operand(right)?
                )))
            }
            Expr::Function(f) => self.function(f),
            Expr::IsNull(e) => Ok(self.applied(format!("{} {}", self.expr(e)?, self.kw("IS NULL")))),
            Expr::IsNotNull(e) => Ok(self.applied(format!(
                "{} {}",
                self.expr(e)?,
                self.kw("IS NOT NULL")
            ))),
            Expr::In {
                expr: e,
                target: InTarget::List(list),
                negated,
                global,
            } if !*global || self.structural() => Ok(self.applied(format!(
                "{} {}{} ({})",
                self.operand(e)?,
                self.not(*negated),
                self.kw("IN"),
                self.list(list)?
            ))),
            Expr::Between {
                expr: e,
                negated,
                low,
                high,
            } => Ok(self.applied(format!(
                "{} {}{} {} {} {}",
                self.expr(e)?,
                self.not(*negated),
                self.kw("BETWEEN"),
                self.expr(low)?,
                self.kw("AND"),
                self.expr(high)?
            ))),
            Expr::Like {
                negated,
                any,
                expr: e,
                pattern,
                escape_char: None,
            } if !*any || self.structural() => Ok(self.applied(format!(
                "{} {}{} {}",
                self.expr(e)?,
                self.not(*negated),
                self.kw("LIKE"),
                self.expr(pattern)?
            ))),
            Expr::Tuple(items) if self.structural() => Ok(format!("({})", self.list(items)?)),
            Expr::Tuple(_) => Err(format!(
                "is the row `{expr}`, which is allowed only where it is compared (`(a, b) IN ((1, 2))`)"
            )),
            Expr::TypedString(t) if !t.uses_odbc_syntax && !self.structural() => {
                let keyword = temporal_keyword(&t.data_type).ok_or_else(|| {
                    format!("uses the typed literal `{t}`, which is not allowed (DATE, TIME, TIMESTAMP are)")
                })?;
                match &t.value.value {
                    Value::SingleQuotedString(s) => Ok(format!("{keyword} {}", quote_str(s))),
                    _ => Err(format!("uses the typed literal `{t}`, which is not allowed")),
                }
            }
            Expr::Case {
                operand,
                conditions,
                else_result,
                ..
            } => {
                let mut out = self.kw("CASE");
                if let Some(operand) = operand {
                    out.push_str(&format!(" {}", self.expr(operand)?));
                }
                for when in conditions {
                    out.push_str(&format!(
                        " {} {} {} {}",
                        self.kw("WHEN"),
                        self.expr(&when.condition)?,
                        self.kw("THEN"),
                        self.expr(&when.result)?
                    ));
                }
                if let Some(other) = else_result {
                    out.push_str(&format!(" {} {}", self.kw("ELSE"), self.expr(other)?));
                }
                Ok(self.applied(format!("{out} {}", self.kw("END"))))
            }
            Expr::Identifier(i) if self.structural() => Ok(i.value.to_lowercase()),
            Expr::CompoundIdentifier(parts) if self.structural() => Ok(parts
                .iter()
                .map(|i| i.value.to_lowercase())
                .collect::<Vec<_>>()
                .join(".")),
            Expr::Identifier(i) if matches!(i.quote_style, None | Some('`')) => {
                let columns = self.columns.unwrap_or_default();
                let name = Ident::new(i.value.clone());
                match columns.iter().find(|c| **c == name) {
                    Some(c) => Ok(quote_ident(c.as_str())),
                    None if columns.is_empty() => Err(format!(
                        "names `{}`, a column or keyword: an expression default may use only literals and function calls",
                        i.value.escape_debug()
                    )),
                    None => Err(format!(
                        "names `{}`, which is not a column of the table",
                        i.value.escape_debug()
                    )),
                }
            }
            Expr::Identifier(i) => Err(format!(
                "names `{}`, a column or keyword: an expression default may use only literals and function calls",
                i.value.escape_debug()
            )),
            Expr::Cast {
                kind: CastKind::Cast,
                expr: inner,
                data_type,
                format: None,
            } if self.context != Context::Default => self
                .cast(inner, data_type, self.structural())
                .or_else(|why| self.outside(expr, why)),
            Expr::Substring {
                expr: inner,
                substring_from,
                substring_for,
                ..
            } if self.context != Context::Default => {
                self.substring(inner, substring_from.as_deref(), substring_for.as_deref())
            }
            other => self.outside(
                other,
                format!("is `{other}`, which is not {}", self.context.allowed()),
            ),
        }
    }

    /// An operand of a comparison or `IN`, where a row constructor
    /// (`(a, b) IN ((1, 3), (2, 4))`) is also allowed; the server refuses a
    /// row anywhere else ("Operand should contain 1 column").
    fn operand(&self, expr: &Expr) -> Result<String, String> {
        match expr {
            Expr::Tuple(items) => Ok(format!("({})", self.list(items)?)),
            other => self.expr(other),
        }
    }

    fn list(&self, list: &[Expr]) -> Result<String, String> {
        let items = list
            .iter()
            .map(|e| self.operand(e))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(items.join(", "))
    }

    /// `CAST(expr AS type)`, the type from [`cast_type`]'s closed set;
    /// `array` allows a multi-valued `type ARRAY`.
    fn cast(&self, inner: &Expr, data_type: &DataType, array: bool) -> Result<String, String> {
        let ty = cast_type(data_type, array, self.structural())?;
        let ty = if self.structural() {
            ty.to_lowercase()
        } else {
            ty
        };
        Ok(format!(
            "{}({} {} {ty})",
            self.kw("CAST"),
            self.expr(inner)?,
            self.kw("AS")
        ))
    }

    /// `SUBSTR(s, pos[, len])` (also written `SUBSTRING`, or `SUBSTRING(s
    /// FROM pos FOR len)`), printed in the comma form both servers show:
    /// MariaDB keeps `substr(`x`,-6,6)`, MySQL `substr(`x`,-(6),6)`.
    fn substring(
        &self,
        inner: &Expr,
        from: Option<&Expr>,
        count: Option<&Expr>,
    ) -> Result<String, String> {
        let from = from.ok_or_else(|| {
            format!(
                "calls SUBSTRING without a start position, which is not {}",
                self.context.allowed()
            )
        })?;
        let mut args = vec![self.expr(inner)?, self.expr(from)?];
        if let Some(count) = count {
            args.push(self.expr(count)?);
        }
        Ok(format!("{}({})", self.kw("SUBSTR"), args.join(", ")))
    }

    fn function(&self, f: &sqlparser::ast::Function) -> Result<String, String> {
        if self.structural() {
            return Ok(self.structural_function(f));
        }
        let name = match f.name.0.as_slice() {
            [part] => part
                .as_ident()
                .filter(|i| i.quote_style.is_none())
                .map(|i| i.value.clone()),
            _ => None,
        }
        .filter(|n| {
            n.starts_with(|c: char| c.is_ascii_alphabetic())
                && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
        .ok_or_else(|| format!("calls `{}`, which is not a plain function name", f.name))?;
        let plain = !f.uses_odbc_syntax
            && matches!(f.parameters, FunctionArguments::None)
            && f.within_group.is_empty()
            && f.filter.is_none()
            && f.null_treatment.is_none()
            && f.over.is_none();
        if !plain {
            return Err(format!(
                "calls `{name}` with clauses (window, filter, ...), which are not allowed"
            ));
        }
        let args = match &f.args {
            FunctionArguments::None => return Ok(name),
            FunctionArguments::Subquery(_) => return Err(format!("passes a subquery to `{name}`")),
            FunctionArguments::List(list) => {
                if list.duplicate_treatment.is_some() || !list.clauses.is_empty() {
                    return Err(format!(
                        "calls `{name}` with DISTINCT/ORDER BY-style clauses"
                    ));
                }
                list.args
                    .iter()
                    .map(|a| match a {
                        FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => self.expr(e),
                        other => Err(format!(
                            "passes `{other}` to `{name}`, which is not allowed"
                        )),
                    })
                    .collect::<Result<Vec<_>, _>>()?
            }
        };
        Ok(format!("{name}({})", args.join(", ")))
    }

    /// A call in the structural style: the name lowercased and under one
    /// spelling of its synonyms, the arguments structural.
    fn structural_function(&self, f: &sqlparser::ast::Function) -> String {
        let name = f.name.to_string().to_lowercase();
        let args = match &f.args {
            FunctionArguments::List(list) if list.clauses.is_empty() => list
                .args
                .iter()
                .map(|a| match a {
                    FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => structural(e),
                    other => other.to_string(),
                })
                .collect::<Vec<_>>()
                .join(", "),
            FunctionArguments::None => return name,
            other => other.to_string(),
        };
        format!("{}({args})", function_synonym(&name))
    }
}

/// One name for the functions a server stores under another name (verified
/// live: MariaDB 10.11 keeps `lower` as `lcase`, `upper` as `ucase`,
/// `length` as `octet_length`, `character_length` as `char_length`, `mid`
/// as `substr`; MySQL 9.7 keeps `mid` as `substr`).
fn function_synonym(name: &str) -> &str {
    match name {
        "lcase" => "lower",
        "ucase" => "upper",
        "octet_length" => "length",
        "character_length" => "char_length",
        "mid" => "substr",
        other => other,
    }
}

/// The text of a CAST target type, from a closed set (MySQL 8.4 manual,
/// Cast Functions and Operators; MariaDB 10.11 knowledge base, CAST), in
/// the spelling MariaDB 10.11 and MySQL 9.7 show it back (probed):
/// `SIGNED [INTEGER]` as `SIGNED`, and in the structural style a DECIMAL
/// with its default precision and scale written out (`decimal(10,0)`).
/// `array` allows `type ARRAY` (a multi-valued key part, MySQL 8.0.17+)
/// over the types the manual lists for it. CHAR and BINARY are cast
/// targets only inside ARRAY: elsewhere the server stores the session's
/// character set with them (`cast(`x` as char(5) charset utf8mb4)`), a
/// spelling the closed set does not hold.
fn cast_type(ty: &DataType, array: bool, structural: bool) -> Result<String, String> {
    use sqlparser::ast::{ArrayElemTypeDef, CharacterLength, ExactNumberInfo, TimezoneInfo};
    let refused = || {
        format!(
            "casts to `{ty}`, which is not allowed (SIGNED, UNSIGNED, DECIMAL, DOUBLE, FLOAT, DATE, DATETIME, TIME, JSON; in a multi-valued key part CHAR(n) ... ARRAY)"
        )
    };
    let precision = |p: &Option<u64>| p.map(|p| format!("({p})")).unwrap_or_default();
    Ok(match ty {
        DataType::Array(ArrayElemTypeDef::Qualified(inner, None)) if array => {
            let element = match inner.as_ref() {
                DataType::Char(Some(CharacterLength::IntegerLength { length, unit: None })) => {
                    format!("CHAR({length})")
                }
                DataType::Decimal(ExactNumberInfo::PrecisionAndScale(..))
                | DataType::Signed
                | DataType::SignedInteger
                | DataType::Unsigned
                | DataType::UnsignedInteger
                | DataType::Date
                | DataType::Datetime(_)
                | DataType::Time(_, TimezoneInfo::None) => cast_type(inner, false, structural)?,
                _ => {
                    return Err(format!(
                        "casts to `{ty}`: a multi-valued key part is CHAR(n), DECIMAL(m,d), SIGNED, UNSIGNED, DATE, DATETIME or TIME ... ARRAY"
                    ))
                }
            };
            format!("{element} ARRAY")
        }
        DataType::Array(_) => {
            return Err(format!(
                "casts to `{ty}`: CAST(... AS type ARRAY) is allowed only as a whole expression key part (a multi-valued index)"
            ))
        }
        DataType::Signed | DataType::SignedInteger => "SIGNED".into(),
        DataType::Unsigned | DataType::UnsignedInteger => "UNSIGNED".into(),
        DataType::Date => "DATE".into(),
        DataType::Datetime(p) => format!("DATETIME{}", precision(p)),
        DataType::Time(p, TimezoneInfo::None) => format!("TIME{}", precision(p)),
        DataType::Double(ExactNumberInfo::None) => "DOUBLE".into(),
        DataType::Float(ExactNumberInfo::None) => "FLOAT".into(),
        DataType::JSON => "JSON".into(),
        DataType::Decimal(n) => match (n, structural) {
            (ExactNumberInfo::None, false) => "DECIMAL".into(),
            (ExactNumberInfo::None, true) => "DECIMAL(10,0)".into(),
            (ExactNumberInfo::Precision(m), false) => format!("DECIMAL({m})"),
            (ExactNumberInfo::Precision(m), true) => format!("DECIMAL({m},0)"),
            (ExactNumberInfo::PrecisionAndScale(m, d), _) => format!("DECIMAL({m},{d})"),
        },
        _ => return Err(refused()),
    })
}

/// The keyword of a typed temporal literal (`DATE '2020-01-01'`), from a
/// closed set; a precision or time zone clause is not one of them.
fn temporal_keyword(data_type: &sqlparser::ast::DataType) -> Option<&'static str> {
    use sqlparser::ast::{DataType as D, TimezoneInfo};
    match data_type {
        D::Date => Some("DATE"),
        D::Time(None, TimezoneInfo::None) => Some("TIME"),
        D::Timestamp(None, TimezoneInfo::None) => Some("TIMESTAMP"),
        _ => None,
    }
}

/// The closed set of binary operators.
fn binary_operator(op: &BinaryOperator) -> Option<&'static str> {
    use BinaryOperator as B;
    Some(match op {
        B::Plus => "+",
        B::Minus => "-",
        B::Multiply => "*",
        B::Divide => "/",
        B::Modulo => "%",
        B::Eq => "=",
        B::NotEq => "<>",
        B::Lt => "<",
        B::LtEq => "<=",
        B::Gt => ">",
        B::GtEq => ">=",
        B::And => "AND",
        B::Or => "OR",
        _ => return None,
    })
}

fn closed_value(v: &Value) -> Result<String, String> {
    match v {
        Value::Number(n, false) if is_plain_number(&n.to_string()) => Ok(n.to_string()),
        Value::SingleQuotedString(s) | Value::DoubleQuotedString(s) => Ok(quote_str(s)),
        Value::Boolean(b) => Ok(if *b { "TRUE" } else { "FALSE" }.into()),
        Value::Null => Ok("NULL".into()),
        other => Err(format!("uses the literal `{other}`, which is not allowed")),
    }
}

fn is_plain_number(n: &str) -> bool {
    !n.is_empty()
        && n.chars().all(|c| c.is_ascii_digit() || c == '.')
        && n.chars().filter(|c| *c == '.').count() <= 1
}

#[cfg(test)]
mod tests;
