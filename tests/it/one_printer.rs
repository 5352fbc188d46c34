//! One printer and one lexer. sqlparser's `Display` puts a
//! string literal's value between quotes unescaped (`a\` comes out as
//! `'a\'`, which MySQL reads as an escaped quote), so no file under `src/`
//! outside `src/sql/` may format a sqlparser AST value with it: texts go
//! through `sql::print` (`exact`, `node`, `data_type`, `name`, ...), and
//! names and numbers are read from the AST. Likewise only `src/sql/lex.rs`
//! runs sqlparser's tokenizer.
//!
//! The scan is lexical, per function: a name is an AST value when it is a
//! parameter or `let` of a type imported from `sqlparser::ast` (or spelled
//! `sqlparser::ast::T`), a binding in a pattern of such a type
//! (`TableConstraint::Check(check) =>`), the catch-all arm of a `match` on
//! one (`other =>`), or a `let` / `for` / closure parameter taken from one.
//! A use is `.to_string()` on it (or on a field of it, other than an
//! identifier's `value`), `{name}` in a string, or a positional `{}` of a
//! formatting macro filled with it. The same scan must find the printer's
//! own `Display` calls in `src/sql/print.rs`, so it cannot pass by finding
//! nothing.

use crate::common;

use common::source::{ident_byte, rs_files, src, Source};
use std::collections::BTreeSet;
use std::ops::Range;
use std::path::Path;

/// The identifier starting at `i` of `code` (empty if none).
fn word_at(code: &[u8], i: usize) -> &str {
    let end = (i..code.len())
        .find(|&j| !ident_byte(Some(code[j])))
        .unwrap_or(code.len());
    std::str::from_utf8(&code[i..end]).unwrap()
}

fn skip_space(code: &[u8], mut i: usize) -> usize {
    while i < code.len() && code[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// The index just past the bracket closing the one at `open`.
fn close_of(code: &[u8], open: usize) -> usize {
    let mut depth = 0i32;
    for (j, c) in code.iter().enumerate().skip(open) {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    return j + 1;
                }
            }
            _ => {}
        }
    }
    code.len()
}

/// The identifiers starting at word boundaries in `code[r]`, with positions.
fn words(code: &[u8], r: Range<usize>) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut i = r.start;
    while i < r.end {
        if ident_byte(Some(code[i])) && !ident_byte(code.get(i.wrapping_sub(1)).copied()) {
            let w = word_at(code, i);
            out.push((i, w));
            i += w.len();
        } else {
            i += 1;
        }
    }
    out
}

/// The types a file takes from `sqlparser::ast` by a `use` (the bare names
/// it may write).
fn ast_types(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (at, _) in code.match_indices("use sqlparser::ast::") {
        let rest = &code[at + "use sqlparser::ast::".len()..];
        let end = rest.find(';').unwrap_or(rest.len());
        let list = &rest[..end];
        let names: Vec<&str> = list
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        let mut k = 0;
        while k < names.len() {
            // `X as Y` imports Y.
            if names.get(k + 1) == Some(&"as") {
                out.insert(names[k + 2].to_string());
                k += 3;
                continue;
            }
            if names[k].starts_with(|c: char| c.is_ascii_uppercase()) {
                out.insert(names[k].to_string());
            }
            k += 1;
        }
    }
    out
}

const NOT_BINDINGS: &[&str] = &[
    "ref", "mut", "true", "false", "if", "_", "None", "Some", "Ok", "Err", "box", "self",
];

/// Whether `code[i..]` starts with an AST type: a bare imported name or a
/// `sqlparser::ast::` / `ast::` path; returns the end of the type.
fn ast_type_at(code: &[u8], i: usize, types: &BTreeSet<String>) -> Option<usize> {
    let text = std::str::from_utf8(&code[i..]).unwrap();
    for prefix in ["sqlparser::ast::", "ast::"] {
        if let Some(rest) = text.strip_prefix(prefix) {
            let w = word_at(rest.as_bytes(), 0);
            if w.starts_with(|c: char| c.is_ascii_uppercase()) {
                return Some(i + prefix.len() + w.len());
            }
        }
    }
    let w = word_at(code, i);
    (types.contains(w)
        && !ident_byte(code.get(i.wrapping_sub(1)).copied())
        && !(i >= 2 && &code[i - 2..i] == b"::"))
        .then_some(i + w.len())
}

/// The end of an AST value expression `name(.field)*` starting at `i` when
/// `name` is bound (a field named `value` or `quote_style` is an
/// identifier's text, not a node, and ends it as not one).
fn ast_expr_end(code: &[u8], i: usize, bound: &BTreeSet<String>) -> Option<usize> {
    if ident_byte(code.get(i.wrapping_sub(1)).copied())
        || code.get(i.wrapping_sub(1)) == Some(&b'.')
    {
        return None;
    }
    let name = word_at(code, i);
    if !bound.contains(name) {
        return None;
    }
    let mut end = i + name.len();
    while code.get(end) == Some(&b'.') {
        let field = word_at(code, end + 1);
        if field.is_empty() || code.get(end + 1 + field.len()) == Some(&b'(') {
            break;
        }
        if matches!(field, "value" | "quote_style") {
            return None;
        }
        end += 1 + field.len();
    }
    Some(end)
}

/// The names bound to AST values in `code[r]` (one function), to a fixpoint.
fn bindings(code: &[u8], r: Range<usize>, types: &BTreeSet<String>) -> BTreeSet<String> {
    let mut bound = BTreeSet::new();
    let ws = words(code, r.clone());
    // Parameters and typed lets: `name: &Type`, `name: &mut sqlparser::ast::Type`.
    for (at, w) in &ws {
        let mut j = skip_space(code, at + w.len());
        if code.get(j) != Some(&b':') || code.get(j + 1) == Some(&b':') {
            continue;
        }
        j = skip_space(code, j + 1);
        while code.get(j) == Some(&b'&') {
            j = skip_space(code, j + 1);
        }
        if word_at(code, j) == "mut" {
            j = skip_space(code, j + 3);
        }
        if ast_type_at(code, j, types).is_some() {
            bound.insert(w.to_string());
        }
    }
    // Patterns of an AST type: `Type::Variant(..)`, `Type::Variant { .. }`,
    // `Type { .. }`, followed by `=>`, `|`, `if` or `=`.
    for (at, _) in &ws {
        let Some(mut j) = ast_type_at(code, *at, types) else {
            continue;
        };
        while code[j..].starts_with(b"::") {
            j += 2 + word_at(code, j + 2).len();
        }
        let open = skip_space(code, j);
        if !matches!(code.get(open), Some(b'(' | b'{')) {
            continue;
        }
        let close = close_of(code, open);
        let next = skip_space(code, close);
        let after = &code[next..];
        let is_pattern = after.starts_with(b"=>")
            || after.starts_with(b"|")
            || (after.starts_with(b"=") && !after.starts_with(b"=="))
            || (after.starts_with(b"if") && !ident_byte(after.get(2).copied()));
        if !is_pattern {
            continue;
        }
        for (p, w) in words(code, open..close) {
            let next = skip_space(code, p + w.len());
            let lower = w.starts_with(|c: char| c.is_ascii_lowercase() || c == '_');
            let field = code.get(next) == Some(&b':') && code.get(next + 1) != Some(&b':');
            let path_or_call = matches!(code.get(next), Some(b'(' | b'!' | b'.'))
                || code[next..].starts_with(b"::")
                || (p >= 2 && &code[p - 2..p] == b"::");
            if lower && !field && !path_or_call && !NOT_BINDINGS.contains(&w) {
                bound.insert(w.to_string());
            }
        }
    }
    loop {
        let before = bound.len();
        for (at, w) in &ws {
            match *w {
                // `let [mut] name = &?ast_expr` and `for name in &?ast_expr`.
                "let" | "for" => {
                    let mut j = skip_space(code, at + w.len());
                    if word_at(code, j) == "mut" {
                        j = skip_space(code, j + 3);
                    }
                    let name = word_at(code, j);
                    if name.is_empty() {
                        continue;
                    }
                    j = skip_space(code, j + name.len());
                    let sep: &[u8] = if *w == "let" { b"=" } else { b"in" };
                    if !code[j..].starts_with(sep) || code[j..].starts_with(b"==") {
                        continue;
                    }
                    j = skip_space(code, j + sep.len());
                    while code.get(j) == Some(&b'&') {
                        j += 1;
                    }
                    if ast_expr_end(code, j, &bound).is_some() {
                        bound.insert(name.to_string());
                    }
                }
                // `match ast_expr { .. other => .. }`: the catch-all arms.
                "match" => {
                    let mut j = skip_space(code, at + w.len());
                    while code.get(j) == Some(&b'&') || code.get(j) == Some(&b'*') {
                        j += 1;
                    }
                    let Some(end) = ast_expr_end(code, j, &bound) else {
                        continue;
                    };
                    let open = skip_space(code, end);
                    if code.get(open) != Some(&b'{') {
                        continue;
                    }
                    let close = close_of(code, open);
                    let mut depth = 0i32;
                    for k in open..close {
                        match code[k] {
                            b'(' | b'[' | b'{' => depth += 1,
                            b')' | b']' | b'}' => depth -= 1,
                            _ => {}
                        }
                        let arm_start = depth == 1 && matches!(code[k], b'{' | b',' | b'}');
                        if !arm_start {
                            continue;
                        }
                        let s = skip_space(code, k + 1);
                        let name = word_at(code, s);
                        if name.is_empty() || !name.starts_with(|c: char| c.is_ascii_lowercase()) {
                            continue;
                        }
                        let n = skip_space(code, s + name.len());
                        if code[n..].starts_with(b"=>") || word_at(code, n) == "if" {
                            bound.insert(name.to_string());
                        }
                    }
                }
                // `ast_expr.iter().method(|name|`.
                _ => {
                    let Some(end) = ast_expr_end(code, *at, &bound) else {
                        continue;
                    };
                    let rest = std::str::from_utf8(&code[end..]).unwrap();
                    let Some(rest) = rest.strip_prefix(".iter()") else {
                        continue;
                    };
                    let rest = rest.trim_start_matches(|c: char| c.is_whitespace());
                    let Some(call) = rest.strip_prefix('.') else {
                        continue;
                    };
                    let m = word_at(call.as_bytes(), 0);
                    if let Some(param) = call[m.len()..].strip_prefix("(|") {
                        let p = word_at(param.as_bytes(), 0);
                        if !p.is_empty() && param[p.len()..].starts_with('|') {
                            bound.insert(p.to_string());
                        }
                    }
                }
            }
        }
        if bound.len() == before {
            return bound;
        }
    }
}

/// Each function of the file: the range from its `fn` to the end of its body.
fn functions(code: &[u8]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    for (at, w) in words(code, 0..code.len()) {
        if w != "fn" {
            continue;
        }
        let mut j = at;
        let mut depth = 0i32;
        while j < code.len() {
            match code[j] {
                b'(' | b'<' | b'[' => depth += 1,
                b')' | b'>' | b']' if code.get(j.wrapping_sub(1)) != Some(&b'-') => depth -= 1,
                b'{' if depth <= 0 => break,
                b';' if depth <= 0 => break,
                _ => {}
            }
            j += 1;
        }
        if code.get(j) == Some(&b'{') {
            out.push(at..close_of(code, j));
        }
    }
    out
}

/// The `{..}` placeholders of a format string: `Some(name)` for an inline
/// argument, `None` for a positional one; Debug (`?`) ones left out.
fn placeholders(s: &str) -> Vec<Option<String>> {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'{' {
            if b.get(i + 1) == Some(&b'{') {
                i += 2;
                continue;
            }
            let end = s[i..].find('}').map_or(s.len(), |e| i + e);
            let inner = &s[i + 1..end];
            let (arg, spec) = inner.split_once(':').unwrap_or((inner, ""));
            if !spec.contains('?') {
                let arg = arg.trim();
                if arg.is_empty() {
                    out.push(None);
                } else if arg.chars().all(|c| c.is_alphanumeric() || c == '_')
                    && !arg.starts_with(|c: char| c.is_ascii_digit())
                {
                    out.push(Some(arg.to_string()));
                }
            }
            i = end + 1;
        } else {
            i += 1;
        }
    }
    out
}

/// The top-level comma-separated pieces of `code[r]`.
fn split_args(code: &[u8], r: Range<usize>) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, r.start);
    for k in r.clone() {
        match code[k] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => {
                out.push(start..k);
                start = k + 1;
            }
            _ => {}
        }
    }
    out.push(start..r.end);
    out
}

/// Every use of `Display` on an AST value in the file: `line: text`.
fn display_uses(path: &Path) -> Vec<String> {
    let src = Source::read(path);
    let code = &src.code;
    let types = ast_types(std::str::from_utf8(code).unwrap());
    let mentions_ast = std::str::from_utf8(code)
        .unwrap()
        .contains("sqlparser::ast");
    if !mentions_ast {
        return Vec::new();
    }
    let mut found = BTreeSet::new();
    let line_of = |at: usize| src.text[..at].matches('\n').count() + 1;
    let report = |at: usize, found: &mut BTreeSet<(usize, String)>| {
        let line = line_of(at);
        let text = src
            .text
            .lines()
            .nth(line - 1)
            .unwrap_or("")
            .trim()
            .to_string();
        found.insert((line, text));
    };
    for f in functions(code) {
        let bound = bindings(code, f.clone(), &types);
        if bound.is_empty() {
            continue;
        }
        for (at, _) in words(code, f.clone()) {
            if let Some(end) = ast_expr_end(code, at, &bound) {
                if code[end..].starts_with(b".to_string()") {
                    report(at, &mut found);
                }
            }
        }
        for s in src.strings.iter().filter(|s| f.contains(&s.start)) {
            let holes = placeholders(&src.text[s.clone()]);
            if holes.iter().flatten().any(|n| bound.contains(n)) {
                report(s.start, &mut found);
            }
            let positional = holes.iter().filter(|h| h.is_none()).count();
            if positional == 0 {
                continue;
            }
            // The macro call this string is the format of: the arguments after it.
            let close_quote = code[s.end..]
                .iter()
                .position(|c| *c == b'"')
                .map_or(s.end, |p| s.end + p);
            let mut open = s.start;
            let mut depth = 0i32;
            while open > f.start {
                open -= 1;
                match code[open] {
                    b')' => depth += 1,
                    b'(' if depth == 0 => break,
                    b'(' => depth -= 1,
                    _ => {}
                }
            }
            let call_end = close_of(code, open) - 1;
            if close_quote + 1 >= call_end {
                continue;
            }
            let args: Vec<_> = split_args(code, close_quote + 1..call_end)
                .into_iter()
                .skip(1)
                .filter(|a| {
                    let t = std::str::from_utf8(&code[a.clone()]).unwrap();
                    let t = t.trim();
                    // A named argument (`name = expr`) fills no positional hole.
                    let w = word_at(t.as_bytes(), 0);
                    let named = !w.is_empty() && {
                        let rest = t[w.len()..].trim_start();
                        rest.starts_with('=') && !rest.starts_with("==")
                    };
                    !t.is_empty() && !named
                })
                .collect();
            for arg in args.iter().take(positional) {
                let j = skip_space(code, arg.start);
                let j = if code.get(j) == Some(&b'&') { j + 1 } else { j };
                if let Some(end) = ast_expr_end(code, j, &bound) {
                    if skip_space(code, end) >= arg.end {
                        report(j, &mut found);
                    }
                }
            }
        }
    }
    found
        .into_iter()
        .map(|(line, text)| format!("{}:{line}: {text}", path.display()))
        .collect()
}

#[test]
fn only_src_sql_formats_sqlparser_nodes_with_display() {
    let files = rs_files(&src());
    let sql_dir = src().join("sql");
    let mut outside = Vec::new();
    for f in &files {
        if !f.starts_with(&sql_dir) {
            outside.extend(display_uses(f));
        }
    }
    assert!(
        outside.is_empty(),
        "sqlparser's Display outside src/sql/ (print through crate::sql::print, or read the name's `.value`):\n{}",
        outside.join("\n")
    );
}

/// The scan finds the printer's own `Display` calls, each kind of use and
/// of binding: it is not vacuous.
#[test]
fn the_scan_finds_the_printers_own_display_calls() {
    let uses = display_uses(&src().join("sql/print.rs"));
    for want in [
        // `.to_string()` on a `let` taken from a parameter.
        "e.to_string()",
        // A positional `{}` with a parameter's field.
        "f.name",
        // `{other}` in a catch-all arm of a match on a parameter.
        "uses the literal `{other}`",
        // `.to_string()` on a pattern binding.
        "op.to_string()",
        // `{t}` of a pattern binding.
        "uses the typed literal `{t}`",
    ] {
        assert!(
            uses.iter().any(|u| u.contains(want)),
            "the scan misses `{want}` in src/sql/print.rs; it found:\n{}",
            uses.join("\n")
        );
    }
}

/// The one lexer: only `src/sql/lex.rs` runs sqlparser's tokenizer, and
/// nothing lets the parser tokenize text on its own (`Parser::parse_sql`,
/// `try_with_sql`): the parser reads the one lexer's tokens.
#[test]
fn only_sql_lex_runs_the_tokenizer() {
    let files = rs_files(&src());
    let lexer = src().join("sql/lex.rs");
    let mut found = Vec::new();
    let mut in_lexer = 0;
    for f in &files {
        let s = Source::read(f);
        let code = String::from_utf8(s.code).unwrap();
        for needle in ["Tokenizer::new", "Parser::parse_sql", "try_with_sql"] {
            let n = code.matches(needle).count();
            if *f == lexer {
                in_lexer += n;
            } else if n > 0 {
                found.push(format!("{}: {needle}", f.display()));
            }
        }
    }
    assert!(
        in_lexer > 0,
        "src/sql/lex.rs runs no tokenizer: the check is vacuous"
    );
    assert!(found.is_empty(), "a second lexer:\n{}", found.join("\n"));
}
