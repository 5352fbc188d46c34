//! The walk over expressions: columns, placeholders (with the column each
//! is compared with), literals, the allowed operators and functions.
//! Anything else is refused.

use sqlparser::ast::{
    BinaryOperator, Expr, FunctionArg, FunctionArgExpr, FunctionArguments, InTarget, UnaryOperator,
    Value,
};

use super::statement::literal_limit;
use super::{is_number, refuse, Binding, Cmp, Walker};
use crate::ident::Ident;

impl Walker {
    /// A placeholder (or a string literal of the text) becomes a literal
    /// rendered by [`crate::sql::print::literal`] when rendering.
    fn value(&mut self, v: &mut Value, column: Option<(Ident, Cmp)>) -> Result<(), String> {
        match v {
            Value::Placeholder(p) if p == "?" => {
                let n = self.shape.bindings.len();
                self.shape.bindings.push(Binding { column });
                if let Some(lits) = &self.literals {
                    match lits.get(n) {
                        Some(lit) => *p = lit.clone(),
                        None => return Err(format!("has no parameter for placeholder #{}", n + 1)),
                    }
                }
                Ok(())
            }
            Value::SingleQuotedString(_) => {
                let text = crate::sql::print::literal(v).unwrap_or_default();
                *v = Value::Placeholder(text);
                Ok(())
            }
            Value::Number(n, false) if is_number(&n.to_string()) => Ok(()),
            Value::Null | Value::Boolean(_) => Ok(()),
            other => refuse(format_args!("the literal `{other}`")),
        }
    }

    pub(super) fn expr(&mut self, e: &mut Expr) -> Result<(), String> {
        self.expr_with(e, None)
    }

    /// Walks an expression; `column` is what a placeholder found here is compared with.
    fn expr_with(&mut self, e: &mut Expr, column: Option<(Ident, Cmp)>) -> Result<(), String> {
        // MySQL's `BINARY x` (a cast to the binary string type).
        if is_binary_cast(e) {
            if let Expr::Cast { expr, .. } = e {
                return self.expr_with(expr, column);
            }
        }
        match e {
            Expr::Identifier(i) => self.push_column(&[Ident::new(i.value.clone())]),
            Expr::CompoundIdentifier(parts) => {
                let parts: Vec<Ident> = parts.iter().map(|i| Ident::new(i.value.clone())).collect();
                self.push_column(&parts)
            }
            Expr::Value(v) => self.value(&mut v.value, column),
            Expr::Nested(inner) => self.expr_with(inner, column),
            Expr::UnaryOp { op, expr } => match op {
                UnaryOperator::Not | UnaryOperator::Minus | UnaryOperator::Plus => self.expr(expr),
                other => refuse(format_args!("the operator `{other}`")),
            },
            Expr::BinaryOp { left, op, right } => {
                let cmp = comparison(op);
                if cmp.is_none() && !allowed_operator(op) {
                    return refuse(format_args!("the operator `{op}`"));
                }
                let (lc, rc) = match cmp {
                    Some(c) => (
                        column_of(right).map(|col| (col, flip(c))),
                        column_of(left).map(|col| (col, c)),
                    ),
                    None => (None, None),
                };
                self.expr_with(left, lc)?;
                self.expr_with(right, rc)
            }
            Expr::IsNull(x) => {
                if let Some(c) = column_of(x) {
                    self.shape.null_columns.push(c);
                }
                self.expr(x)
            }
            Expr::IsNotNull(x) => self.expr(x),
            Expr::In {
                expr,
                target: InTarget::List(list),
                global: false,
                ..
            } => {
                let col = column_of(expr).map(|c| (c, Cmp::Eq));
                self.expr(expr)?;
                for item in list {
                    self.expr_with(item, col.clone())?;
                }
                Ok(())
            }
            Expr::Between {
                expr, low, high, ..
            } => {
                let col = column_of(expr);
                self.expr(expr)?;
                self.expr_with(low, col.clone().map(|c| (c, Cmp::Ge)))?;
                self.expr_with(high, col.map(|c| (c, Cmp::Le)))
            }
            Expr::Exists { subquery, .. } => {
                if literal_limit(subquery).is_some() || subquery.limit_clause.is_some() {
                    return refuse("LIMIT inside EXISTS");
                }
                self.query(subquery)
            }
            Expr::Function(f) => self.function(f),
            other => refuse(format_args!("the expression `{other}`")),
        }
    }

    fn function(&mut self, f: &mut sqlparser::ast::Function) -> Result<(), String> {
        let name = match f.name.0.as_slice() {
            [part] => part
                .as_ident()
                .filter(|i| i.quote_style.is_none())
                .map(|i| i.value.to_ascii_uppercase()),
            _ => None,
        };
        let Some(name) = name.filter(|n| FUNCTIONS.contains(&n.as_str())) else {
            return refuse(format_args!(
                "the function `{}` (allowed: {})",
                f.name,
                FUNCTIONS.join(", ")
            ));
        };
        if f.uses_odbc_syntax
            || !matches!(f.parameters, FunctionArguments::None)
            || !f.within_group.is_empty()
            || f.filter.is_some()
            || f.null_treatment.is_some()
            || f.over.is_some()
        {
            return refuse(format_args!("`{name}` with clauses (window, filter, ...)"));
        }
        match &mut f.args {
            FunctionArguments::None => Ok(()),
            FunctionArguments::Subquery(_) => refuse("a subquery as a function argument"),
            FunctionArguments::List(list) => {
                if !list.clauses.is_empty() {
                    return refuse(format_args!("`{name}` with ORDER BY-style clauses"));
                }
                for a in &mut list.args {
                    match a {
                        FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => self.expr(e)?,
                        FunctionArg::Unnamed(FunctionArgExpr::Wildcard) if name == "COUNT" => {}
                        other => return refuse(format_args!("the argument `{other}`")),
                    }
                }
                Ok(())
            }
        }
    }
}

/// Functions a declared query may call: aggregates and a few scalar ones.
const FUNCTIONS: &[&str] = &["COUNT", "MIN", "MAX", "SUM", "COALESCE", "IFNULL"];

/// `BINARY x`: a CAST to BINARY without length, as sqlparser reads it.
fn is_binary_cast(e: &Expr) -> bool {
    match e {
        Expr::Cast { data_type, .. } => {
            let t = data_type.to_string().to_ascii_uppercase();
            t == "BINARY" || t.starts_with("BINARY(")
        }
        _ => false,
    }
}

fn comparison(op: &BinaryOperator) -> Option<Cmp> {
    Some(match op {
        BinaryOperator::Eq => Cmp::Eq,
        BinaryOperator::Lt => Cmp::Lt,
        BinaryOperator::LtEq => Cmp::Le,
        BinaryOperator::Gt => Cmp::Gt,
        BinaryOperator::GtEq => Cmp::Ge,
        _ => return None,
    })
}

fn allowed_operator(op: &BinaryOperator) -> bool {
    use BinaryOperator as B;
    matches!(
        op,
        B::And | B::Or | B::NotEq | B::Plus | B::Minus | B::Multiply | B::Divide | B::Modulo
    )
}

/// The comparison seen from the other side (`? < c` is `c > ?`).
fn flip(c: Cmp) -> Cmp {
    match c {
        Cmp::Eq => Cmp::Eq,
        Cmp::Lt => Cmp::Gt,
        Cmp::Le => Cmp::Ge,
        Cmp::Gt => Cmp::Lt,
        Cmp::Ge => Cmp::Le,
    }
}

/// The column an operand is, through parentheses and `BINARY`.
fn column_of(e: &Expr) -> Option<Ident> {
    match e {
        Expr::Identifier(i) => Some(Ident::new(i.value.clone())),
        Expr::CompoundIdentifier(parts) => parts.last().map(|i| Ident::new(i.value.clone())),
        Expr::Nested(inner) => column_of(inner),
        Expr::Cast { expr, .. } if is_binary_cast(e) => column_of(expr),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::{analyze, render, Param};
    use super::*;

    #[test]
    fn binary_comparison_and_exists() {
        let s = analyze("SELECT Id FROM T WHERE BINARY K = BINARY ?").unwrap();
        assert_eq!(s.bindings[0].column, Some((Ident::new("K"), Cmp::Eq)));
        let e = analyze("SELECT EXISTS (SELECT 1 FROM T WHERE A = ?) FROM T").unwrap();
        assert_eq!(e.bindings.len(), 1);
        let out = render("SELECT Id FROM T WHERE ? > B", &[Param::Text("x".into())]).unwrap();
        assert_eq!(out, "SELECT Id FROM T WHERE 'x' > B");
        assert_eq!(
            analyze("SELECT Id FROM T WHERE ? > B").unwrap().bindings[0].column,
            Some((Ident::new("B"), Cmp::Lt))
        );
    }

    #[test]
    fn expressions_outside_the_subset_are_refused() {
        for sql in [
            "SELECT Id FROM T WHERE A = (SELECT 1 FROM U)",
            "SELECT sleep(1) FROM T",
            "SELECT Id FROM T WHERE A = x'00'",
        ] {
            assert!(analyze(sql).is_err(), "{sql}");
        }
    }
}
