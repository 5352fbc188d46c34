//! The walk over a statement's structure: SELECT (and UNION ALL of them),
//! UPDATE and DELETE, their clauses, and the one plain table each reads.
//! Anything else of the statement is refused.

use sqlparser::ast::{
    AssignmentTarget, Expr, FromTable, GroupByExpr, LimitClause, ObjectName, OrderByKind, Query,
    Select, SelectItem, SetExpr, SetOperator, SetQuantifier, Statement, TableFactor,
    TableWithJoins, Value,
};

use super::{refuse, StatementKind, Walker};
use crate::ident::Ident;

impl Walker {
    pub(super) fn statement(&mut self, stmt: &mut Statement) -> Result<(), String> {
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

    pub(super) fn query(&mut self, q: &mut Query) -> Result<(), String> {
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

    pub(super) fn push_column(&mut self, parts: &[Ident]) -> Result<(), String> {
        match parts {
            [c] => self.shape.columns.push((None, c.clone())),
            [t, c] => self.shape.columns.push((Some(t.clone()), c.clone())),
            _ => return refuse("a column name with a schema qualifier"),
        }
        Ok(())
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

pub(super) fn literal_limit(q: &Query) -> Option<u64> {
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
    use super::super::analyze;
    use super::*;

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
    fn union_all() {
        let u = analyze(
            "SELECT Id FROM T WHERE A = ? UNION ALL SELECT Id FROM T WHERE B = ? AND A <> ?",
        )
        .unwrap();
        assert_eq!(u.tables.len(), 2);
    }

    #[test]
    fn statements_and_clauses_outside_the_subset_are_refused() {
        for sql in [
            "SELECT * FROM T",
            "SELECT Id FROM T FORCE INDEX (i) WHERE A = ?",
            "SELECT Id FROM T a WHERE A = ?",
            "SELECT Id FROM T JOIN U ON T.Id = U.Id",
            "SELECT Id FROM s.T",
            "INSERT INTO T VALUES (1)",
            "DROP TABLE T",
            "SELECT Id FROM T UNION SELECT Id FROM T",
        ] {
            assert!(analyze(sql).is_err(), "{sql}");
        }
    }
}
