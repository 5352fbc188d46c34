//! `plan --against FILE.sql`, `import`, and the readable table diffs shown
//! by `plan` and `verify` (human output only; colored on a terminal).

use std::collections::BTreeSet;
use std::io::IsTerminal;
use std::path::Path;

use anyhow::Result;
use schema_catalog::diff::{diff_table, ProblemKind};
use schema_catalog::import::{self, ImportOptions, Imported};
use schema_catalog::plan::Plan;
use schema_catalog::textdiff::{self, LineKind, TableText};
use schema_catalog::verify::VerifyReport;
use schema_catalog::{db, dump, inspect, Flavor, Ident, Table};
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
    if cli.format == Format::Human {
        let texts = textdiff::table_texts(
            &tables,
            |n| dump.table(n.as_str()),
            &plan_tables(&plan),
            flavor,
            &source,
        );
        print_diffs(&texts);
    }
    Ok(if plan.is_refused() {
        exit::DRIFT
    } else {
        exit::OK
    })
}

/// Tables a plan shows as drifted or incomplete (existing, with steps or drift).
pub fn plan_tables(plan: &Plan) -> BTreeSet<Ident> {
    let mut out: BTreeSet<Ident> = plan
        .drift
        .iter()
        .map(|p| Ident::new(p.table.as_str()))
        .collect();
    out.extend(
        plan.steps
            .iter()
            .filter(|s| s.change.kind() != "create_table")
            .map(|s| s.change.table().clone()),
    );
    out
}

/// Tables verify found drifted or incomplete (existing, with problems).
pub fn verify_tables(report: &VerifyReport) -> BTreeSet<Ident> {
    report
        .problems
        .iter()
        .filter(|p| p.kind != ProblemKind::MissingTable)
        .map(|p| Ident::new(p.table.as_str()))
        .collect()
}

/// Human output only: re-reads the named tables (bounded, one table at a
/// time) and prints their diffs against the catalog.
pub async fn live_diffs(
    cli: &Cli,
    target: &db::Target,
    tables: &[Table],
    names: &BTreeSet<Ident>,
) -> Result<()> {
    if cli.format != Format::Human || names.is_empty() {
        return Ok(());
    }
    let timeout = std::time::Duration::from_secs(cli.timeout.max(1));
    let mut session = db::connect(target, timeout).await?;
    let flavor = session.flavor();
    let list: Vec<Ident> = names.iter().cloned().collect();
    let haves = inspect::inspect_tables(&mut session, &target.schema, &list).await?;
    let _ = session.disconnect().await;
    let texts = textdiff::table_texts(
        tables,
        |n| {
            haves
                .iter()
                .find(|(name, _)| name == n)
                .and_then(|(_, t)| t.as_ref())
        },
        names,
        flavor,
        &target.display,
    );
    print_diffs(&texts);
    Ok(())
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
