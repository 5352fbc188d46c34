//! The one walk over an expression's nodes ([`walk`]) and the one
//! normalisation of a node ([`normalise`]), used by the printer and by the
//! canonical texts that compare expressions.

use sqlparser::ast::{
    Expr, FunctionArg, FunctionArgExpr, FunctionArguments, InTarget, ObjectNamePart, Value,
};

/// One node made canonical: a double-quoted string is the same value as a
/// single-quoted one; with `fold`, names are lowercased.
pub fn normalise(e: &mut Expr, fold: bool) {
    match e {
        Expr::Value(v) => {
            if let Value::DoubleQuotedString(s) = &v.value {
                v.value = Value::SingleQuotedString(s.clone());
            }
        }
        Expr::Identifier(i) if fold => i.value = i.value.to_lowercase(),
        Expr::CompoundIdentifier(parts) if fold => {
            for i in parts {
                i.value = i.value.to_lowercase();
            }
        }
        Expr::Function(f) if fold => {
            for part in &mut f.name.0 {
                if let ObjectNamePart::Identifier(i) = part {
                    i.value = i.value.to_lowercase();
                }
            }
        }
        _ => {}
    }
}

/// Calls `f` on every node of `e` that an expression default, a key part or
/// a check condition is made of, children first. A node of another kind is
/// not entered (its text then fails the read-back guard of
/// [`super::print::exact_checked`] if printing it would change a literal).
pub fn walk(e: &mut Expr, f: &mut dyn FnMut(&mut Expr)) {
    match e {
        Expr::Nested(a)
        | Expr::UnaryOp { expr: a, .. }
        | Expr::IsNull(a)
        | Expr::IsNotNull(a)
        | Expr::IsTrue(a)
        | Expr::IsNotTrue(a)
        | Expr::IsFalse(a)
        | Expr::IsNotFalse(a)
        | Expr::IsUnknown(a)
        | Expr::IsNotUnknown(a)
        | Expr::Cast { expr: a, .. }
        | Expr::Convert { expr: a, .. }
        | Expr::Collate { expr: a, .. }
        | Expr::Prefixed { value: a, .. } => walk(a, f),
        Expr::BinaryOp { left, right, .. }
        | Expr::IsDistinctFrom(left, right)
        | Expr::IsNotDistinctFrom(left, right) => {
            walk(left, f);
            walk(right, f);
        }
        Expr::Like {
            expr,
            pattern,
            escape_char,
            ..
        }
        | Expr::ILike {
            expr,
            pattern,
            escape_char,
            ..
        } => {
            walk(expr, f);
            walk(pattern, f);
            if let Some(c) = escape_char {
                walk(c, f);
            }
        }
        Expr::RLike { expr, pattern, .. } => {
            walk(expr, f);
            walk(pattern, f);
        }
        Expr::Between {
            expr, low, high, ..
        } => {
            walk(expr, f);
            walk(low, f);
            walk(high, f);
        }
        Expr::In {
            expr,
            target: InTarget::List(list),
            ..
        } => {
            walk(expr, f);
            list.iter_mut().for_each(|x| walk(x, f));
        }
        Expr::Tuple(list) => list.iter_mut().for_each(|x| walk(x, f)),
        Expr::Case {
            operand,
            conditions,
            else_result,
            ..
        } => {
            if let Some(o) = operand {
                walk(o, f);
            }
            for c in conditions {
                walk(&mut c.condition, f);
                walk(&mut c.result, f);
            }
            if let Some(x) = else_result {
                walk(x, f);
            }
        }
        Expr::Function(func) => {
            if let FunctionArguments::List(list) = &mut func.args {
                for arg in &mut list.args {
                    let (FunctionArg::Unnamed(a)
                    | FunctionArg::Named { arg: a, .. }
                    | FunctionArg::ExprNamed { arg: a, .. }) = arg;
                    if let FunctionArgExpr::Expr(x) = a {
                        walk(x, f);
                    }
                }
            }
        }
        Expr::Substring {
            expr,
            substring_from,
            substring_for,
            ..
        } => {
            walk(expr, f);
            for x in [substring_from, substring_for].into_iter().flatten() {
                walk(x, f);
            }
        }
        Expr::Interval(i) => walk(&mut i.value, f),
        _ => {}
    }
    f(e);
}
