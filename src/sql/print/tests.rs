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
            let printed = closed(&expr, &cols, Context::Check).unwrap();
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
        let e = closed(
            &parse_one(text).unwrap(),
            &[Ident::new("a")],
            Context::Check,
        )
        .unwrap_err();
        assert!(e.contains(why), "{text}: {e}");
    }
}

/// CAST to the closed set of types and SUBSTR in any spelling print in one
/// form, read back as the same tree, and compare structurally with both
/// servers' spellings (MariaDB `substr(`x`,-6,6)`, MySQL `substr(`x`,-(6),6)`).
#[test]
fn cast_and_substring_round_trip() {
    let cols = [Ident::new("x"), Ident::new("doc")];
    for (context, text, want) in [
        (Context::Generated, "substr(x, -6, 6)", "SUBSTR(`x`, -6, 6)"),
        (
            Context::Generated,
            "SUBSTRING(x, -(6))",
            "SUBSTR(`x`, -(6))",
        ),
        (
            Context::Check,
            "substring(x from 2 for 3) = 'a'",
            "SUBSTR(`x`, 2, 3) = 'a'",
        ),
        (
            Context::KeyPart,
            "cast(from_unixtime(x) as datetime)",
            "CAST(from_unixtime(`x`) AS DATETIME)",
        ),
        (
            Context::KeyPart,
            "cast(x as signed integer)",
            "CAST(`x` AS SIGNED)",
        ),
        (
            Context::Generated,
            "cast(x as decimal(10, 2))",
            "CAST(`x` AS DECIMAL(10,2))",
        ),
        (
            Context::Generated,
            "cast(x as time(2))",
            "CAST(`x` AS TIME(2))",
        ),
        (
            Context::KeyPart,
            "cast(json_extract(doc, '$.tags') as char(255) array)",
            "CAST(json_extract(`doc`, '$.tags') AS CHAR(255) ARRAY)",
        ),
        (
            Context::KeyPart,
            "CAST(json_extract(doc, '$.ids') AS UNSIGNED ARRAY)",
            "CAST(json_extract(`doc`, '$.ids') AS UNSIGNED ARRAY)",
        ),
    ] {
        let expr = parse_one(text).unwrap();
        let printed = closed(&expr, &cols, context).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(printed, want, "{text}");
        let again = parse_one(&printed).unwrap();
        assert_eq!(
            closed(&again, &cols, context).as_deref(),
            Ok(want),
            "{text}"
        );
        assert_eq!(structural(&again), structural(&expr), "{text}");
    }
    for (a, b) in [
        ("substr(`x`,-6,6)", "substr(`x`,-(6),6)"),
        ("SUBSTRING(x, -6, 6)", "substr(`x`,-(6),6)"),
        ("mid(x, 2, 3)", "substr(x, 2, 3)"),
        ("cast(x as signed integer)", "cast(`x` as signed)"),
        ("cast(x as decimal)", "cast(`x` as decimal(10,0))"),
        (
            "CAST(json_extract(doc, '$.tags') AS CHAR(255) ARRAY)",
            "cast(json_extract(`doc`,'$.tags') as char(255) array)",
        ),
    ] {
        assert_eq!(
            structural(&parse_one(a).unwrap()),
            structural(&parse_one(b).unwrap()),
            "{a} / {b}"
        );
    }
    assert_ne!(
        structural(&parse_one("substr(x, -6, 6)").unwrap()),
        structural(&parse_one("substr(x, 6, 6)").unwrap())
    );
    assert_ne!(
        structural(&parse_one("cast(x as date)").unwrap()),
        structural(&parse_one("cast(x as datetime)").unwrap())
    );
}

/// Each place names itself when it refuses; CAST and SUBSTRING are not
/// defaults; ARRAY is a whole key part only, over its own types; CHAR
/// outside ARRAY is refused (the server adds the session's charset).
#[test]
fn each_context_has_its_own_allowed_set() {
    let cols = [Ident::new("x")];
    for (context, text, why) in [
        (
            Context::Default,
            "substr('abc', 2)",
            "not an allowed default expression",
        ),
        (
            Context::Default,
            "cast(1 as signed)",
            "not an allowed default expression",
        ),
        (
            Context::Generated,
            "(select 1)",
            "not allowed in a generated column expression",
        ),
        (
            Context::Check,
            "(select 1)",
            "not allowed in a CHECK condition",
        ),
        (
            Context::KeyPart,
            "(select 1)",
            "not allowed in an expression key part",
        ),
        (
            Context::Generated,
            "cast(x as unsigned array)",
            "allowed only as a whole expression key part",
        ),
        (
            Context::KeyPart,
            "lower(cast(x as unsigned array))",
            "allowed only as a whole expression key part",
        ),
        (
            Context::KeyPart,
            "cast(x as json array)",
            "a multi-valued key part is",
        ),
        (
            Context::KeyPart,
            "cast(x as char array)",
            "a multi-valued key part is",
        ),
        (
            Context::Generated,
            "cast(x as char(5))",
            "casts to `CHAR(5)`",
        ),
        (Context::Generated, "cast(x as varchar(5))", "casts to"),
        (Context::Generated, "substring(x for 3)", "SUBSTRING"),
    ] {
        let e = match parse_one(text) {
            Ok(expr) => closed(&expr, &cols, context).unwrap_err(),
            Err(e) => e,
        };
        assert!(e.contains(why), "{text}: {e}");
    }
}
