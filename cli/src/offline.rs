//! `plan --against FILE.sql`, `import`, and the readable table diffs shown
//! by `plan` and `verify` (human output only; colored on a terminal).

use std::io::IsTerminal;
use std::path::Path;

use anyhow::Result;
use schema_catalog::diff::diff_table;
use schema_catalog::import::{self, ImportOptions, Imported};
use schema_catalog::textdiff::{self, LineKind, TableText};
use schema_catalog::{db, dump, Flavor, Table};
use serde_json::json;

use crate::args::{Cli, Format};
use crate::commands::load;
use crate::exit;
use crate::print;

/// `catalog plan --against FILE.sql`: the live plan's output and exit codes,
/// computed from a dump. No database.
pub fn plan_against(cli: &Cli, file: &Path, flavor: Option<Flavor>) -> Result<u8> {
    let catalog = load(cli)?;
    let dump = dump::read_dump(file, flavor)?;
    let flavor = flavor.or(dump.flavor).unwrap_or(Flavor::TiDb);
    let tables: Vec<Table> = catalog.tables.iter().map(|t| t.table.clone()).collect();
    let diffs: Vec<_> = tables
        .iter()
        .map(|t| diff_table(t, dump.table(t.name.as_str())))
        .collect();
    let plan = schema_catalog::plan::plan(&diffs, flavor);
    let source = file.display().to_string();
    print::plan(cli.format, &source, &plan);
    print_table_diffs(cli, &tables, &plan.live, flavor, &source);
    Ok(if plan.is_refused() {
        exit::DRIFT
    } else {
        exit::OK
    })
}

/// Human output only: the diff of every incomplete or drifted table
/// against its catalog shape, from the tables the report already read.
pub fn print_table_diffs(
    cli: &Cli,
    catalog: &[Table],
    live: &[Table],
    flavor: Flavor,
    source: &str,
) {
    if cli.format != Format::Human || live.is_empty() {
        return;
    }
    let texts = textdiff::table_texts(catalog, live, flavor, source);
    print_diffs(&texts);
}

/// Prints diffs on stdout; colored when stdout is a terminal and NO_COLOR is unset.
pub fn print_diffs(texts: &[TableText]) {
    if texts.is_empty() {
        return;
    }
    let color = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    println!("\ndiff (catalog -> as it is; comments left out):");
    for t in texts {
        println!("\ntable `{}`:", t.table);
        for line in &t.lines {
            let code = match line.kind {
                LineKind::Header => "1",
                LineKind::Catalog => "31",
                LineKind::Actual => "32",
                LineKind::Same => "",
            };
            if color && !code.is_empty() {
                println!("\x1b[{code}m{}\x1b[0m", line.text);
            } else {
                println!("{}", line.text);
            }
        }
    }
}

/// `catalog import`.
pub async fn import(
    cli: &Cli,
    from: Option<&Path>,
    flavor: Option<Flavor>,
    out: &Path,
    opts: &ImportOptions,
) -> Result<u8> {
    // Always gather everything unsupported, then refuse unless skipping.
    let gather = ImportOptions {
        skip_unsupported: true,
        ..opts.clone()
    };
    let imported: Imported = match from {
        Some(file) => {
            let dump = dump::read_dump(file, flavor)?;
            import::from_dump(&dump, &gather)?
        }
        None => {
            let url = cli.database_url.as_deref().ok_or_else(|| {
                schema_catalog::Error::Usage(
                    "import needs --from FILE.sql or --database-url (or DATABASE_URL)".into(),
                )
            })?;
            let target = db::parse_url(url)?;
            let timeout = std::time::Duration::from_secs(cli.timeout.max(1));
            let mut session = db::connect(&target, timeout).await?;
            let sources = import::read_live(&mut session, &target.schema, &opts.tables).await?;
            let _ = session.disconnect().await;
            import::build(&target.display, sources, &gather)?
        }
    };
    if !opts.skip_unsupported {
        if let Some(first) = imported.skipped.first() {
            if cli.format == Format::Human {
                for u in &imported.skipped {
                    eprintln!("unsupported: {u}");
                }
            }
            return Err(first.to_error().into());
        }
    }
    let files = import::write(&imported, out)?;
    match cli.format {
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&json!({
                "source": imported.source,
                "tables": imported.tables.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
                "files": files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>(),
                "skipped": imported.skipped,
            }))
            .expect("JSON values serialise")
        ),
        Format::Human => {
            println!(
                "imported {} table(s) from {} into {}",
                imported.tables.len(),
                imported.source,
                out.display()
            );
            for f in &files {
                println!("  {}", f.display());
            }
            if !imported.skipped.is_empty() {
                println!("left out (--skip-unsupported):");
                for u in &imported.skipped {
                    println!("  {u}");
                }
            }
        }
    }
    Ok(exit::OK)
}
