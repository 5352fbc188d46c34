//! YAML text for import's files. serde produces the value (the raw types'
//! `Serialize`); this module lays it out in serde_yaml's own block style,
//! scalar by scalar through serde_yaml, with one choice of its own: a string
//! serde_yaml would single-quote and that holds a single quote (an SQL string
//! literal such as `'queued'`) is written double-quoted, `"'queued'"` (JSON
//! escaping, which YAML's double-quoted style reads the same), instead of
//! `'''queued'''`. Either reads back as the same string; the tests parse the
//! output back for arbitrary strings.

use serde::Serialize;
use serde_yaml::Value;

/// The YAML text of `value` (a block mapping for the raw types).
pub fn to_string<T: Serialize>(value: &T) -> String {
    let value = serde_yaml::to_value(value).expect("import's raw types serialize");
    let mut out = String::new();
    node(&value, 0, &mut out);
    out
}

/// Writes `v` as a block node whose lines start at `indent`.
fn node(v: &Value, indent: usize, out: &mut String) {
    match v {
        Value::Mapping(m) if !m.is_empty() => {
            for (key, value) in m {
                out.push_str(&" ".repeat(indent));
                out.push_str(&scalar(key, indent, false));
                out.push(':');
                match value {
                    Value::Mapping(m) if !m.is_empty() => {
                        out.push('\n');
                        node(value, indent + 2, out);
                    }
                    // serde_yaml's style: a sequence under a key is not indented.
                    Value::Sequence(s) if !s.is_empty() => {
                        out.push('\n');
                        node(value, indent, out);
                    }
                    _ => {
                        out.push(' ');
                        out.push_str(&scalar(value, indent, true));
                        out.push('\n');
                    }
                }
            }
        }
        Value::Sequence(items) if !items.is_empty() => {
            for item in items {
                // The item as a node two columns in, its first line's
                // indentation turned into the dash.
                let mut text = String::new();
                node(item, indent + 2, &mut text);
                out.push_str(&" ".repeat(indent));
                out.push_str("- ");
                out.push_str(&text[indent + 2..]);
            }
        }
        _ => {
            out.push_str(&" ".repeat(indent));
            out.push_str(&scalar(v, indent, false));
            out.push('\n');
        }
    }
}

/// One scalar (or an empty collection) as serde_yaml writes it, on one line;
/// a multi-line string as serde_yaml's block literal, its lines indented
/// under `indent`, where `block` allows it (a mapping value), else
/// double-quoted.
fn scalar(v: &Value, indent: usize, block: bool) -> String {
    let Value::String(s) = v else {
        // serde_yaml writes these as Rust prints them.
        match v {
            Value::Bool(b) => return b.to_string(),
            Value::Number(n) if n.is_i64() || n.is_u64() => return n.to_string(),
            _ => {}
        }
        return serde_text(v);
    };
    let text = emitted(s);
    if text.contains('\n') {
        if block {
            let pad = " ".repeat(indent);
            return text.replace('\n', &format!("\n{pad}"));
        }
        if let Some(quoted) = double_quoted(s) {
            return quoted;
        }
    } else if text.starts_with('\'') && s.contains('\'') {
        if let Some(quoted) = double_quoted(s) {
            return quoted;
        }
    }
    text
}

/// serde_yaml's text of one scalar, without its final newline.
fn serde_text<T: Serialize + ?Sized>(v: &T) -> String {
    let mut text = serde_yaml::to_string(v).expect("YAML scalars serialize");
    if text.ends_with('\n') {
        text.pop();
    }
    text
}

/// Most strings an import writes repeat (keys, types, `true`,
/// column names): serde_yaml's text of a string up to this length is kept
/// per thread, since each `serde_yaml::to_string` builds a whole emitter
/// (docs/scale.md: a fifth of `import --from` at 8,192 tables).
const KEPT_LEN: usize = 64;

/// How many strings' texts a thread keeps at most.
const KEPT: usize = 4096;

/// serde_yaml's text of the string `s`, without its final newline.
fn emitted(s: &str) -> String {
    use std::cell::RefCell;
    use std::collections::HashMap;
    thread_local! {
        static TEXTS: RefCell<HashMap<String, String>> = RefCell::new(HashMap::new());
    }
    if s.len() > KEPT_LEN {
        return serde_text(s);
    }
    TEXTS.with(|texts| {
        let mut texts = texts.borrow_mut();
        if let Some(text) = texts.get(s) {
            return text.clone();
        }
        let text = serde_text(s);
        if texts.len() < KEPT {
            texts.insert(s.to_string(), text.clone());
        }
        text
    })
}

/// `s` as a JSON string, when that is a YAML double-quoted scalar reading
/// back as `s`: every character JSON leaves unescaped must be one YAML
/// prints as itself (no DEL, C1 control, BOM or Unicode line separator).
fn double_quoted(s: &str) -> Option<String> {
    let plain = |c: char| {
        let n = u32::from(c);
        n < 0x7f
            || (0xa0..=0xd7ff).contains(&n)
            || ((0xe000..=0xfffd).contains(&n) && n != 0xfeff)
            || n >= 0x10000
    };
    let ok = s.chars().all(|c| c.is_ascii_control() || plain(c))
        && !s.contains(['\u{2028}', '\u{2029}']);
    ok.then(|| serde_json::to_string(s).expect("strings serialize"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(v: &Value) -> Value {
        let text = {
            let mut out = String::new();
            node(v, 0, &mut out);
            out
        };
        serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{e}:\n{text}"))
    }

    #[test]
    fn layout_is_serde_yamls_block_style() {
        let v: Value = serde_yaml::from_str(
            "a: 1\nb:\n- x\n- c: 'y'\n  d:\n  - 2\n  e:\n    f: true\ng: []\nh: {}\n",
        )
        .unwrap();
        let mut out = String::new();
        node(&v, 0, &mut out);
        assert_eq!(out, serde_yaml::to_string(&v).unwrap());
    }

    #[test]
    fn sql_literals_are_double_quoted() {
        let v: Value = serde_yaml::from_str("default: \"'queued'\"\n").unwrap();
        assert_eq!(to_string(&v), "default: \"'queued'\"\n");
        let v: Value = serde_yaml::from_str("default: \"'it''s'\"\n").unwrap();
        assert_eq!(to_string(&v), "default: \"'it''s'\"\n");
        assert_eq!(round_trip(&v), v);
    }

    #[test]
    fn multi_line_strings_read_back() {
        for s in [
            "a\nb",
            " lead\nx",
            "trail \n",
            "'q'\n'r'",
            "tab\t\nx",
            "\u{2028}'x'",
        ] {
            let mut m = serde_yaml::Mapping::new();
            let mut inner = serde_yaml::Mapping::new();
            inner.insert("comment".into(), s.into());
            m.insert(
                "columns".into(),
                vec![Value::Mapping(inner), s.into()].into(),
            );
            m.insert("comment".into(), s.into());
            let v = Value::Mapping(m);
            assert_eq!(round_trip(&v), v, "{s:?}");
        }
    }

    #[test]
    fn kept_and_direct_scalars_are_serde_yamls_text() {
        let serde = |v: &Value| {
            let t = serde_yaml::to_string(v).unwrap();
            t.strip_suffix('\n').unwrap().to_string()
        };
        let values: Vec<Value> = vec![
            true.into(),
            false.into(),
            0.into(),
            (-7).into(),
            u64::MAX.into(),
            i64::MIN.into(),
            1.5.into(),
            Value::Null,
        ];
        for v in &values {
            assert_eq!(scalar(v, 0, false), serde(v), "{v:?}");
        }
        let long = "x".repeat(KEPT_LEN + 1);
        for s in [
            "Id", "true", "yes", "null", "~", "1", "0x1F", "1e3", ".inf", "", " a", "a:", "#",
            "it's", "a\nb", &long,
        ] {
            // Twice: the second is the kept text.
            for _ in 0..2 {
                assert_eq!(emitted(s), serde(&Value::from(s)), "{s:?}");
            }
        }
    }
}
