//! The printer's round-trip tests.

use super::*;

/// Every literal the printer writes reads back as the same value, in
/// both styles and in the exact printer: backslashes, quotes, both.
#[test]
fn literals_with_backslashes_and_quotes_read_back() {
    let cols = [Ident::new("Note")];
    for value in [r"a\", r"x\y", "it's", r#"q"q"#, r"\'", "\\\\%_", "\n\0"] {
        let q = quote_str(value);
        for text in [
            format!("concat({q}, `Note`)"),
            format!("`Note` IN ({q}, 'b')"),
            format!("`Note` LIKE {q}"),
            format!("CASE WHEN `Note` = {q} THEN {q} END"),
        ] {
            let expr = parse_one(&text).unwrap();
            let printed = closed(&expr, &cols).unwrap();
            assert_eq!(printed, text, "{value:?}");
            assert_eq!(parse_one(&printed).unwrap(), expr, "{value:?}");
            assert_eq!(
                exact_checked(&expr).as_deref().map(parse_one),
                Some(Ok(expr.clone()))
            );
            assert_eq!(
                structural(&parse_one(&structural(&expr)).unwrap()),
                structural(&expr)
            );
        }
    }
}

#[test]
fn the_closed_style_names_what_it_refuses() {
    for (text, why) in [
        ("Other + 1", "which is not a column of the table"),
        ("a -> 'x'", "uses the operator"),
        ("x'00'", "uses the literal"),
        ("(1, 2)", "is the row"),
        ("`f`(1)", "not a plain function name"),
    ] {
        let e = closed(&parse_one(text).unwrap(), &[Ident::new("a")]).unwrap_err();
        assert!(e.contains(why), "{text}: {e}");
    }
}
