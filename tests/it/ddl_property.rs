//! Property: whatever strings a catalog holds (names, comments, string
//! defaults, engine/charset/collation names, expression defaults), every
//! statement the renderers produce parses as exactly one statement of the
//! step's kind, naming the step's table and object; the apply chokepoint's
//! own check ([`schema_catalog::apply::guard::check_statement`]) accepts it.
//! An expression default either renders from its AST or is refused at load.

use proptest::prelude::*;
use schema_catalog::apply::guard::check_statement;
use schema_catalog::diff::Change;
use schema_catalog::model::TableKind;
use schema_catalog::plan::Step;
use schema_catalog::sqltext::render_default_expression;
use schema_catalog::{Column, ColumnType, DefaultValue, Flavor, Ident, Index, IndexPart, Table};

/// Any text without NUL (which `check` refuses in identifiers), biased
/// towards SQL's special characters.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9_ `'\"\\\\;#/*\\-\n\r\t()!,.=]{1,24}",
        "[\\x{1}-\\x{FFFF}]{1,16}",
        "\\PC{1,16}",
    ]
    .prop_filter("no NUL", |s| !s.contains('\0'))
}

fn flavor() -> impl Strategy<Value = Flavor> {
    prop_oneof![
        Just(Flavor::MariaDb),
        Just(Flavor::MySql),
        Just(Flavor::TiDb)
    ]
}

#[allow(clippy::too_many_arguments)]
fn table(
    name: String,
    col: String,
    idx: String,
    comment: String,
    literal: String,
    engine: String,
    charset: String,
    collation: String,
) -> Table {
    let mut id = Column::new("Id", ColumnType::parse("bigint unsigned").unwrap());
    id.nullable = false;
    let mut note = Column::new(col.as_str(), ColumnType::Varchar(64));
    note.comment = Some(comment.clone());
    note.default = Some(DefaultValue::Literal(literal));
    note.charset = Some(charset.clone());
    note.collation = Some(collation.clone());
    Table {
        name: Ident::new(name),
        kind: TableKind::Base,
        comment: Some(comment),
        engine: Some(engine),
        row_format: None,
        charset,
        collation,
        columns: vec![id, note],
        primary_key: vec![IndexPart::column("Id")],
        indexes: vec![Index::new(idx.as_str(), false, &[col.as_str()])],
        checks: Vec::new(),
        foreign_keys: Vec::new(),
        tidb: None,
    }
}

/// Expression defaults of the allowed kinds, with hostile string literals
/// (quoted by the library's one escaping helper).
fn expression() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        (0u32..1000).prop_map(|n| n.to_string()),
        text().prop_map(|s| schema_catalog::quote_str(&s)),
    ];
    leaf.prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3)
                .prop_map(|args| format!("concat({})", args.join(", "))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a} + {b}")),
            inner.prop_map(|a| format!("({a})")),
        ]
    })
}

/// `rendered` as a column default gives exactly one ADD COLUMN of that
/// column, and renders to itself (re-rendering is stable).
fn assert_one_column(rendered: &str, flavor: Flavor) -> Result<(), TestCaseError> {
    let mut t = table(
        "T".into(),
        "Note".into(),
        "ix".into(),
        "c".into(),
        "x".into(),
        "InnoDB".into(),
        "utf8mb4".into(),
        "utf8mb4_bin".into(),
    );
    t.columns[1].default = Some(DefaultValue::Expression(rendered.to_string()));
    let change = Change::AddColumn {
        table: t.name.clone(),
        column: t.columns[1].clone(),
        after: None,
        defaults: t.defaults(),
    };
    let step = Step::new(change.clone(), flavor);
    prop_assert!(
        !step.sql.contains("<expression not rendered>"),
        "{}",
        step.sql
    );
    prop_assert!(
        check_statement(&change, &step.sql, flavor).is_ok(),
        "{rendered}: {}",
        step.sql
    );
    let again = render_default_expression(rendered);
    prop_assert_eq!(again.as_deref(), Ok(rendered));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn every_rendered_statement_is_exactly_its_step(
        name in text(), col in text(), idx in text(), comment in text(), literal in text(),
        engine in text(), charset in text(), collation in text(),
        unique in any::<bool>(), flavor in flavor(),
    ) {
        prop_assume!(!col.eq_ignore_ascii_case("Id"));
        let t = table(name, col, idx, comment, literal, engine, charset, collation);
        let mut index = t.indexes[0].clone();
        index.unique = unique;
        let changes = [
            Change::AddTable(t.clone()),
            Change::AddColumn { table: t.name.clone(), column: t.columns[1].clone(), after: Some(Ident::new("Id")), defaults: t.defaults() },
            Change::AddColumn { table: t.name.clone(), column: t.columns[1].clone(), after: None, defaults: t.defaults() },
            Change::AddIndex { table: t.name.clone(), index },
        ];
        for change in changes {
            let step = Step::new(change.clone(), flavor);
            prop_assert!(check_statement(&change, &step.sql, flavor).is_ok(), "{}\n{:?}", step.sql, check_statement(&change, &step.sql, flavor));
        }
    }

    #[test]
    fn allowed_expression_defaults_render_into_one_column(expr in expression(), flavor in flavor()) {
        let rendered = render_default_expression(&expr);
        prop_assert!(rendered.is_ok(), "{expr}: {rendered:?}");
        assert_one_column(&rendered.unwrap(), flavor)?;
    }

    #[test]
    fn any_text_as_expression_default_renders_into_one_column_or_is_refused(expr in text(), flavor in flavor()) {
        if let Ok(rendered) = render_default_expression(&expr) {
            assert_one_column(&rendered, flavor)?;
        }
    }
}
