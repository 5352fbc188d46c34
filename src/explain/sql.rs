//! The closed SQL surface of declared queries: a query's text is parsed with
//! sqlparser into exactly one SELECT (UNION ALL of SELECTs allowed), UPDATE
//! or DELETE of a small, checked subset, and re-rendered from the AST with
//! every literal produced by [`crate::ident::quote_str`], the one escaping
//! helper. Nothing of the text is pasted.
//!
//! The walk also reports what the catalog lint and the fixture generator
//! need: the tables and columns named, the number of `?` placeholders, and
//! for each placeholder the column it is compared with and how.

use sqlparser::ast::{
    AssignmentTarget, BinaryOperator, Expr, FromTable, FunctionArg, FunctionArgExpr,
    FunctionArguments, GroupByExpr, InTarget, LimitClause, ObjectName, OrderByKind, Query, Select,
    SelectItem, SetExpr, SetOperator, SetQuantifier, Statement, TableFactor, TableWithJoins,
    UnaryOperator, Value,
};
use sqlparser::dialect::MySqlDialect;
use sqlparser::parser::Parser;
use sqlparser::tokenizer::Token;

use crate::ident::{quote_str, Ident};

/// What kind of statement a query is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StatementKind {
    /// SELECT (or a UNION ALL of SELECTs).
    Select,
    /// UPDATE.
    Update,
    /// DELETE.
    Delete,
}

/// How a placeholder's column is compared with it (column on the left).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmp {
    /// `=` or `IN (...)`.
    Eq,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
}

/// One placeholder: the column it is compared with, when it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// The column and comparison; `None` for a placeholder elsewhere (LIMIT, SET).
    pub column: Option<(Ident, Cmp)>,
}

/// What the walk found in a query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    /// Statement kind.
    pub kind: StatementKind,
    /// Tables named (FROM, UPDATE, DELETE FROM), in order, with repeats.
    pub tables: Vec<Ident>,
    /// Columns named, each with its qualifier when written `t.c`.
    pub columns: Vec<(Option<Ident>, Ident)>,
    /// One entry per `?`, in text order.
    pub bindings: Vec<Binding>,
    /// The outermost LIMIT, when it is a number literal.
    pub limit: Option<u64>,
}

/// A bound value of a declared query.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(untagged)]
pub enum Param {
    /// SQL NULL.
    Null,
    /// A number, kept as its decimal text.
    Number(String),
    /// A string.
    Text(String),
}

impl Param {
    /// The literal for statement text, through the one escaping helper.
    fn literal(&self) -> String {
        match self {
            Param::Null => "NULL".into(),
            Param::Number(n) => n.clone(),
            Param::Text(s) => quote_str(s),
        }
    }

    /// The value as text (for fixture rows), `None` for NULL.
    pub fn text(&self) -> Option<&str> {
        match self {
            Param::Null => None,
            Param::Number(s) | Param::Text(s) => Some(s),
        }
    }
}

/// Whether `n` is a plain decimal number (optional `-`, digits, one `.`).
pub fn is_number(n: &str) -> bool {
    let digits = n.strip_prefix('-').unwrap_or(n);
    !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_digit() || c == '.')
        && digits.chars().filter(|c| *c == '.').count() <= 1
        && !digits.starts_with('.')
        && !digits.ends_with('.')
}

/// Parses `sql` into one statement of the allowed subset and describes it.
pub fn analyze(sql: &str) -> Result<Shape, String> {
    let mut stmt = parse(sql)?;
    let mut walker = Walker::new(None);
    walker.statement(&mut stmt)?;
    Ok(walker.shape)
}

/// Parses `sql` and renders it with each `?` replaced by its parameter's
/// literal. EXPLAIN cannot take bound parameters through the binary protocol
/// on every server (MariaDB's ANALYZE and TiDB's EXPLAIN ANALYZE are text
/// only), so the values become literals here, and only through
/// [`quote_str`]; the statement itself is re-rendered from the AST.
pub fn render(sql: &str, params: &[Param]) -> Result<String, String> {
    let mut stmt = parse(sql)?;
    let literals: Vec<String> = params.iter().map(Param::literal).collect();
    let mut walker = Walker::new(Some(literals));
    walker.statement(&mut stmt)?;
    if walker.shape.bindings.len() != params.len() {
        return Err(format!(
            "has {} placeholder(s) but {} parameter(s)",
            walker.shape.bindings.len(),
            params.len()
        ));
    }
    let text = stmt.to_string();
    // The rendered text must again be exactly one statement without comments.
    let tokens = crate::sqltext::tokens(&text)?;
    if tokens.iter().any(|t| matches!(t, Token::SemiColon)) {
        return Err("renders with `;`".into());
    }
    Ok(text)
}

fn parse(sql: &str) -> Result<Statement, String> {
    let tokens = crate::sqltext::tokens(sql)?;
    if tokens.iter().any(|t| matches!(t, Token::SemiColon)) {
        return Err("contains `;`: a query is one statement".into());
    }
    let mut statements = Parser::new(&MySqlDialect {})
        .with_tokens(tokens)
        .parse_statements()
        .map_err(|e| format!("does not parse: {e}"))?;
    match statements.len() {
        1 => Ok(statements.remove(0)),
        n => Err(format!("is {n} statements; declare exactly one")),
    }
}

struct Walker {
    shape: Shape,
    /// Literals to substitute for the placeholders, in order (render only).
    literals: Option<Vec<String>>,
}

fn refuse<T>(what: impl std::fmt::Display) -> Result<T, String> {
    Err(format!(
        "uses {what}, which declared queries do not allow (see docs/explain.md)"
    ))
}

impl Walker {
    fn new(literals: Option<Vec<String>>) -> Walker {
        Walker {
            shape: Shape {
                kind: StatementKind::Select,
                tables: Vec::new(),
                columns: Vec::new(),
                bindings: Vec::new(),
                limit: None,
            },
            literals,
        }
    }

    fn statement(&mut self, stmt: &mut Statement) -> Result<(), String> {
        match stmt {
            Statement::Query(q) => {
                self.shape.kind = StatementKind::Select;
                self.shape.limit = literal_limit(q);
                self.query(q)
            }
            Statement::Update(u) => {
                self.shape.kind = StatementKind::Update;
                if !u.optimizer_hints.is_empty()
                    || u.from.is_some()
                    || u.returning.is_some()
                    || u.output.is_some()
                    || u.or.is_some()
                    || u.on_cluster.is_some()
                {
                    return refuse("an UPDATE clause other than SET, WHERE, ORDER BY, LIMIT");
                }
                self.table_with_joins(&mut u.table)?;
                for a in &mut u.assignments {
                    match &a.target {
                        AssignmentTarget::ColumnName(name) => self.column_name(name)?,
                        AssignmentTarget::Tuple(_) => return refuse("a tuple assignment"),
                    }
                    self.expr(&mut a.value)?;
                }
                self.where_order_limit(&mut u.selection, &mut u.order_by, &mut u.limit)
            }
            Statement::Delete(d) => {
                self.shape.kind = StatementKind::Delete;
                if !d.optimizer_hints.is_empty()
                    || !d.tables.is_empty()
                    || d.using.is_some()
                    || d.returning.is_some()
                    || d.output.is_some()
                    || d.on_cluster.is_some()
                {
                    return refuse("a DELETE clause other than FROM, WHERE, ORDER BY, LIMIT");
                }
                match &mut d.from {
                    FromTable::WithFromKeyword(t) if t.len() == 1 => {
                        self.table_with_joins(&mut t[0])?
                    }
                    _ => return refuse("a DELETE of other than one table"),
                }
                self.where_order_limit(&mut d.selection, &mut d.order_by, &mut d.limit)
            }
            other => Err(format!(
                "is `{}`: a declared query is one SELECT, UPDATE or DELETE",
                first_words(&other.to_string())
            )),
        }
    }

    fn where_order_limit(
        &mut self,
        selection: &mut Option<Expr>,
        order_by: &mut [sqlparser::ast::OrderByExpr],
        limit: &mut Option<Expr>,
    ) -> Result<(), String> {
        if let Some(e) = selection {
            self.expr(e)?;
        }
        for o in order_by {
            if o.with_fill.is_some() {
                return refuse("WITH FILL");
            }
            self.expr(&mut o.expr)?;
        }
        if let Some(l) = limit {
            self.shape.limit = number_of(l);
            self.expr(l)?;
        }
        Ok(())
    }

    fn query(&mut self, q: &mut Query) -> Result<(), String> {
        if q.with.is_some()
            || q.fetch.is_some()
            || q.for_clause.is_some()
            || q.settings.is_some()
            || q.format_clause.is_some()
            || !q.pipe_operators.is_empty()
        {
            return refuse("WITH, FETCH, FOR XML/JSON or settings");
        }
        for lock in &q.locks {
            if lock.of.is_some() {
                return refuse("FOR UPDATE OF");
            }
        }
        self.set_expr(&mut q.body)?;
        if let Some(order) = &mut q.order_by {
            if order.interpolate.is_some() {
                return refuse("INTERPOLATE");
            }
            match &mut order.kind {
                OrderByKind::Expressions(items) => {
                    for o in items {
                        if o.with_fill.is_some() {
                            return refuse("WITH FILL");
                        }
                        self.expr(&mut o.expr)?;
                    }
                }
                OrderByKind::All(_) => return refuse("ORDER BY ALL"),
            }
        }
        match &mut q.limit_clause {
            None => {}
            Some(LimitClause::LimitOffset {
                limit,
                offset,
                limit_by,
            }) => {
                if !limit_by.is_empty() {
                    return refuse("LIMIT BY");
                }
                if let Some(l) = limit {
                    self.expr(l)?;
                }
                if let Some(o) = offset {
                    self.expr(&mut o.value)?;
                }
            }
            Some(LimitClause::OffsetCommaLimit { offset, limit }) => {
                self.expr(offset)?;
                self.expr(limit)?;
            }
        }
        Ok(())
    }

    fn set_expr(&mut self, body: &mut SetExpr) -> Result<(), String> {
        match body {
            SetExpr::Select(s) => self.select(s),
            SetExpr::Query(q) => self.query(q),
            SetExpr::SetOperation {
                left,
                op: SetOperator::Union,
                set_quantifier: SetQuantifier::All,
                right,
            } => {
                self.set_expr(left)?;
                self.set_expr(right)
            }
            SetExpr::SetOperation { .. } => refuse("a set operation other than UNION ALL"),
            _ => refuse("a query body other than SELECT"),
        }
    }

    fn select(&mut self, s: &mut Select) -> Result<(), String> {
        if !s.optimizer_hints.is_empty()
            || s.select_modifiers.is_some()
            || s.top.is_some()
            || s.exclude.is_some()
            || s.into.is_some()
            || !s.lateral_views.is_empty()
            || s.prewhere.is_some()
            || !s.connect_by.is_empty()
            || !s.cluster_by.is_empty()
            || !s.distribute_by.is_empty()
            || !s.sort_by.is_empty()
            || !s.named_window.is_empty()
            || s.qualify.is_some()
            || s.value_table_mode.is_some()
        {
            return refuse("a SELECT clause other than DISTINCT, FROM, WHERE, GROUP BY, HAVING");
        }
        match s.from.as_mut_slice() {
            [t] => self.table_with_joins(t)?,
            [] => return refuse("a SELECT without FROM"),
            _ => return refuse("more than one table in FROM (write one table per SELECT)"),
        }
        for item in &mut s.projection {
            match item {
                SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => {
                    self.expr(e)?
                }
                _ => return refuse("`*` in the select list (name the columns)"),
            }
        }
        if let Some(e) = &mut s.selection {
            self.expr(e)?;
        }
        match &mut s.group_by {
            GroupByExpr::Expressions(exprs, modifiers) if modifiers.is_empty() => {
                for e in exprs {
                    self.expr(e)?;
                }
            }
            _ => return refuse("GROUP BY ALL or WITH ROLLUP"),
        }
        if let Some(e) = &mut s.having {
            self.expr(e)?;
        }
        Ok(())
    }

    fn table_with_joins(&mut self, t: &mut TableWithJoins) -> Result<(), String> {
        if !t.joins.is_empty() {
            return refuse("a JOIN (declare the query on each table it reads)");
        }
        match &t.relation {
            TableFactor::Table {
                name,
                alias: None,
                args: None,
                with_hints,
                version: None,
                partitions,
                json_path: None,
                sample: None,
                index_directives,
                ..
            } if with_hints.is_empty() && partitions.is_empty() => {
                if !index_directives.is_empty() {
                    return refuse("an index hint (a forced index proves nothing about the optimizer's choice)");
                }
                let ident = single_name(name)?;
                self.shape.tables.push(ident);
                Ok(())
            }
            TableFactor::Table { alias: Some(_), .. } => {
                refuse("a table alias (name the table itself)")
            }
            _ => refuse("a FROM item other than a plain table name"),
        }
    }

    fn column_name(&mut self, name: &ObjectName) -> Result<(), String> {
        let parts: Vec<Ident> = name
            .0
            .iter()
            .map(|p| p.as_ident().map(|i| Ident::new(i.value.clone())))
            .collect::<Option<_>>()
            .ok_or_else(|| format!("names `{name}`, which is not a column"))?;
        self.push_column(&parts)
    }

    fn push_column(&mut self, parts: &[Ident]) -> Result<(), String> {
        match parts {
            [c] => self.shape.columns.push((None, c.clone())),
            [t, c] => self.shape.columns.push((Some(t.clone()), c.clone())),
            _ => return refuse("a column name with a schema qualifier"),
        }
        Ok(())
    }

    /// A placeholder (or a string literal of the text) becomes a literal
    /// rendered by `quote_str` when rendering.
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
            Value::SingleQuotedString(s) => {
                *v = Value::Placeholder(quote_str(s));
                Ok(())
            }
            Value::Number(n, false) if is_number(&n.to_string()) => Ok(()),
            Value::Null | Value::Boolean(_) => Ok(()),
            other => refuse(format_args!("the literal `{other}`")),
        }
    }

    fn expr(&mut self, e: &mut Expr) -> Result<(), String> {
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
            Expr::IsNull(x) | Expr::IsNotNull(x) => self.expr(x),
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

fn number_of(e: &Expr) -> Option<u64> {
    match e {
        Expr::Value(v) => match &v.value {
            Value::Number(n, _) => n.to_string().parse().ok(),
            _ => None,
        },
        _ => None,
    }
}

fn literal_limit(q: &Query) -> Option<u64> {
    match &q.limit_clause {
        Some(LimitClause::LimitOffset { limit: Some(l), .. }) => number_of(l),
        Some(LimitClause::OffsetCommaLimit { limit, .. }) => number_of(limit),
        _ => None,
    }
}

fn single_name(name: &ObjectName) -> Result<Ident, String> {
    match name.0.as_slice() {
        [part] => part
            .as_ident()
            .map(|i| Ident::new(i.value.clone()))
            .ok_or_else(|| format!("names the table `{name}`, which is not a plain name")),
        _ => refuse(format_args!(
            "the qualified table name `{name}` (the target schema is the URL's)"
        )),
    }
}

fn first_words(text: &str) -> String {
    text.split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Param {
        Param::Text(s.into())
    }

    #[test]
    fn placeholders_become_escaped_literals() {
        let sql = "SELECT Id FROM T WHERE A = ? AND B <= ? ORDER BY B, Id LIMIT 1";
        let out = render(sql, &[p("it's \\"), Param::Number("3".into())]).unwrap();
        assert_eq!(
            out,
            "SELECT Id FROM T WHERE A = 'it''s \\\\' AND B <= 3 ORDER BY B, Id LIMIT 1"
        );
        let shape = analyze(sql).unwrap();
        assert_eq!(shape.limit, Some(1));
        assert_eq!(shape.bindings[1].column, Some((Ident::new("B"), Cmp::Le)));
    }

    #[test]
    fn binary_comparison_and_union_all_and_exists() {
        let s = analyze("SELECT Id FROM T WHERE BINARY K = BINARY ?").unwrap();
        assert_eq!(s.bindings[0].column, Some((Ident::new("K"), Cmp::Eq)));
        let u = analyze(
            "SELECT Id FROM T WHERE A = ? UNION ALL SELECT Id FROM T WHERE B = ? AND A <> ?",
        )
        .unwrap();
        assert_eq!(u.tables.len(), 2);
        let e = analyze("SELECT EXISTS (SELECT 1 FROM T WHERE A = ?) FROM T").unwrap();
        assert_eq!(e.bindings.len(), 1);
        let out = render("SELECT Id FROM T WHERE ? > B", &[p("x")]).unwrap();
        assert_eq!(out, "SELECT Id FROM T WHERE 'x' > B");
        assert_eq!(
            analyze("SELECT Id FROM T WHERE ? > B").unwrap().bindings[0].column,
            Some((Ident::new("B"), Cmp::Lt))
        );
    }

    #[test]
    fn update_and_delete() {
        let u = analyze("UPDATE T SET State = ? WHERE Id = ? LIMIT 1").unwrap();
        assert_eq!(u.kind, StatementKind::Update);
        assert_eq!(u.bindings.len(), 2);
        let d = analyze("DELETE FROM T WHERE ExpiresAt < ? ORDER BY Id LIMIT 100").unwrap();
        assert_eq!(d.kind, StatementKind::Delete);
        assert_eq!(d.limit, Some(100));
    }

    #[test]
    fn outside_the_subset_is_refused() {
        for sql in [
            "SELECT 1; DROP TABLE x",
            "SELECT Id FROM T -- c",
            "SELECT * FROM T",
            "SELECT Id FROM T FORCE INDEX (i) WHERE A = ?",
            "SELECT Id FROM T a WHERE A = ?",
            "SELECT Id FROM T JOIN U ON T.Id = U.Id",
            "SELECT Id FROM s.T",
            "SELECT Id FROM T WHERE A = (SELECT 1 FROM U)",
            "SELECT sleep(1) FROM T",
            "INSERT INTO T VALUES (1)",
            "DROP TABLE T",
            "SELECT Id FROM T UNION SELECT Id FROM T",
            "SELECT Id FROM T WHERE A = x'00'",
        ] {
            assert!(analyze(sql).is_err(), "{sql}");
        }
    }

    #[test]
    fn text_literals_go_through_the_escaping_helper() {
        let out = render("SELECT Id FROM T WHERE A = 'a\\\\b'", &[]).unwrap();
        assert_eq!(out, "SELECT Id FROM T WHERE A = 'a\\\\b'");
        assert!(render("SELECT Id FROM T WHERE A = ?", &[]).is_err());
    }
}
