//! The crate's own source files and the one scanner for the tests that
//! read the code (module_layers, one_printer): [`rs_files`] walks a module,
//! [`Source`] blanks comments and literals so a search sees code only.

use std::fs;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// The crate's `src/` directory.
pub fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The `.rs` files of a module (a file, or a directory walked recursively),
/// in a stable order.
pub fn rs_files(path: &Path) -> Vec<PathBuf> {
    if path.is_file() {
        return vec![path.to_path_buf()];
    }
    let mut out = Vec::new();
    let mut entries: Vec<_> = fs::read_dir(path)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            out.extend(rs_files(&p));
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
    out
}

/// A file's text, its code (same length: comments and the insides of
/// string and char literals blanked) and the ranges of its string literals'
/// contents.
pub struct Source {
    pub text: String,
    pub code: Vec<u8>,
    pub strings: Vec<Range<usize>>,
}

impl Source {
    /// The file at `path`, scanned.
    pub fn read(path: &Path) -> Source {
        Source::scan(fs::read_to_string(path).unwrap())
    }

    /// `text`, scanned.
    pub fn scan(text: String) -> Source {
        let b = text.as_bytes();
        let mut code = b.to_vec();
        let mut strings = Vec::new();
        let blank = |code: &mut Vec<u8>, r: Range<usize>| {
            for c in &mut code[r] {
                if *c != b'\n' {
                    *c = b' ';
                }
            }
        };
        let mut i = 0;
        while i < b.len() {
            if b[i..].starts_with(b"//") {
                let end = text[i..].find('\n').map_or(b.len(), |e| i + e);
                blank(&mut code, i..end);
                i = end;
            } else if b[i..].starts_with(b"/*") {
                let (mut depth, mut j) = (0, i);
                while j < b.len() {
                    if b[j..].starts_with(b"/*") {
                        depth += 1;
                        j += 2;
                    } else if b[j..].starts_with(b"*/") {
                        depth -= 1;
                        j += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        j += 1;
                    }
                }
                blank(&mut code, i..j);
                i = j;
            } else if (b[i] == b'r' || b[i..].starts_with(b"br"))
                && !ident_byte(b.get(i.wrapping_sub(1)).copied())
                && {
                    let k = i + if b[i] == b'b' { 2 } else { 1 };
                    let h = b[k..].iter().take_while(|c| **c == b'#').count();
                    b.get(k + h) == Some(&b'"')
                }
            {
                let k = i + if b[i] == b'b' { 2 } else { 1 };
                let h = b[k..].iter().take_while(|c| **c == b'#').count();
                let start = k + h + 1;
                let close = format!("\"{}", "#".repeat(h));
                let end = text[start..].find(&close).map_or(b.len(), |e| start + e);
                strings.push(start..end);
                blank(&mut code, start..end);
                i = end + close.len();
            } else if b[i] == b'"' {
                let mut j = i + 1;
                while j < b.len() && b[j] != b'"' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                strings.push(i + 1..j);
                blank(&mut code, i + 1..j);
                i = j + 1;
            } else if b[i] == b'\'' {
                // A char literal ('x', '\n', '\u{..}'), not a lifetime.
                let end = if b.get(i + 1) == Some(&b'\\') {
                    text[i + 2..].find('\'').map(|e| i + 2 + e)
                } else {
                    let ch = text[i + 1..].chars().next().map_or(1, char::len_utf8);
                    (b.get(i + 1 + ch) == Some(&b'\'')).then_some(i + 1 + ch)
                };
                match end {
                    Some(e) => {
                        blank(&mut code, i + 1..e);
                        i = e + 1;
                    }
                    None => i += 1,
                }
            } else {
                i += 1;
            }
        }
        Source {
            text,
            code,
            strings,
        }
    }
}

/// Whether `c` can be part of an identifier.
pub fn ident_byte(c: Option<u8>) -> bool {
    c.is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
}

/// The code of `text` alone: comments and the insides of string and char
/// literals blanked (same length, lines kept).
pub fn code_only(text: &str) -> String {
    String::from_utf8(Source::scan(text.to_string()).code).expect("blanking keeps UTF-8")
}
