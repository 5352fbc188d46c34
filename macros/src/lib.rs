//! `embed_catalog!`, re-exported as `schema_catalog::embed_catalog!`: it
//! compiles every file of a catalog directory into the binary, so a file
//! added to the directory is in the gate without being listed anywhere.
//! Plain `proc_macro`, no dependencies: the input is one string literal.

#![warn(missing_docs)]

use std::path::{Path, PathBuf};

use proc_macro::TokenStream;

/// `embed_catalog!("catalog")`: a `schema_catalog::Embedded` holding every
/// file of the directory `catalog` (relative to the crate's
/// `Cargo.toml`), sorted by name, each through `include_str!` so an edited
/// file rebuilds the crate. Subdirectories are not read (a catalog is one
/// flat directory). A missing or empty directory, or a file that is not
/// UTF-8, is a compile error naming it; the lint itself runs on first use
/// (and in the test `Embedded::check` makes easy).
#[proc_macro]
pub fn embed_catalog(input: TokenStream) -> TokenStream {
    match expand(input) {
        Ok(code) => code.parse().expect("the expansion is valid Rust"),
        Err(message) => format!("::core::compile_error!({message:?})")
            .parse()
            .expect("a compile_error! call is valid Rust"),
    }
}

fn expand(input: TokenStream) -> Result<String, String> {
    let dir = literal(input)?;
    let root = std::env::var("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .map_err(|_| "embed_catalog!: CARGO_MANIFEST_DIR is not set (build with cargo)")?;
    let path = root.join(&dir);
    let files = files(&path)?;
    if files.is_empty() {
        return Err(format!(
            "embed_catalog!: the catalog directory {} holds no file",
            path.display()
        ));
    }
    let mut items = String::new();
    for (name, file) in &files {
        let path = file
            .to_str()
            .ok_or_else(|| format!("embed_catalog!: {} is not a UTF-8 path", file.display()))?;
        items.push_str(&format!("({name:?}, ::core::include_str!({path:?})),"));
    }
    Ok(format!(
        "::schema_catalog::Embedded::from_static({dir:?}, &[{items}])"
    ))
}

/// The one string literal of the input, unquoted.
fn literal(input: TokenStream) -> Result<String, String> {
    let usage = "embed_catalog! takes one string literal: the catalog directory, relative to Cargo.toml (embed_catalog!(\"catalog\"))";
    let mut tokens = input.into_iter();
    let (Some(proc_macro::TokenTree::Literal(lit)), None) = (tokens.next(), tokens.next()) else {
        return Err(usage.into());
    };
    let text = lit.to_string();
    let inner = text
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .filter(|t| !t.contains(['\\', '"']) && !t.is_empty())
        .ok_or(usage)?;
    Ok(inner.to_string())
}

/// Every regular file of `dir` (name, path), sorted by name.
fn files(dir: &Path) -> Result<Vec<(String, PathBuf)>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        format!(
            "embed_catalog!: cannot read the catalog directory {}: {e}",
            dir.display()
        )
    })?;
    let mut out = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| format!("embed_catalog!: reading {}: {e}", dir.display()))?;
        let path = entry.path();
        if !path.is_file() {
            continue;
        }
        let name = entry
            .file_name()
            .into_string()
            .map_err(|n| format!("embed_catalog!: file name {n:?} is not UTF-8"))?;
        if std::fs::read_to_string(&path).is_err() {
            return Err(format!(
                "embed_catalog!: {} is not a UTF-8 text file",
                path.display()
            ));
        }
        out.push((name, path));
    }
    out.sort();
    Ok(out)
}
