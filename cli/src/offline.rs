//! `plan --against FILE.sql` and `import`: the commands that can work from
//! a schema dump instead of a live database.

use std::path::Path;

use anyhow::Result;
use schema_catalog::diff::diff_tables_taking;
use schema_catalog::import::{self, ImportOptions, Imported};
use schema_catalog::report::ImportDoc;
use schema_catalog::{db, dump, Flavor};

use crate::args::{Cli, Format};
use crate::exit;
use crate::shared::{load, report_plan, target, timeout};

/// `catalog plan --against FILE.sql`: the live plan's output and exit codes,
/// computed from a dump. No database.
pub fn plan_against(
    cli: &Cli,
    file: &Path,
    flavor: Option<Flavor>,
    version: Option<schema_catalog::Version>,
    cost: &schema_catalog::cost::CostOptions,
) -> Result<u8> {
    // The dump is read while the catalog loads (docs/scale.md: each was about
    // half of a large plan's time); a catalog error is reported first.
    let (catalog, dump) = std::thread::scope(|scope| {
        let dump = scope.spawn(|| dump::read_dump(file, flavor));
        let catalog = load(cli);
        let dump = dump
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (catalog, dump)
    });
    let (catalog, dump) = (catalog?, dump?);
    // Never a silent guess: the steps' SQL is per flavor.
    let Some(flavor) = flavor.or(dump.flavor) else {
        return Err(crate::print::FlavorUnknown(format!(
            "{}: the dump does not say which server it comes from (no mysqldump / mariadb-dump header, nothing only one server writes)",
            file.display()
        ))
        .into());
    };
    let server = schema_catalog::Server::offline(flavor, version);
    let tables = || catalog.tables.iter().map(|t| &t.table);
    let diffs = diff_tables_taking(tables(), dump.tables, Some(flavor), &catalog.widens());
    let mut plan = schema_catalog::plan::plan(&diffs, flavor);
    plan.server_version = Some(server.version());
    crate::print::offline_server(cli.format, &server, version.is_some());
    let catalog_tables: Vec<schema_catalog::Table> = tables().cloned().collect();
    let costed = schema_catalog::cost::estimate(
        &plan.steps,
        &catalog_tables,
        &server,
        cost.sizes().as_ref(),
        cost.rate(&server),
    );
    Ok(report_plan(
        cli,
        tables(),
        &plan,
        &file.display().to_string(),
        Some(&costed),
    ))
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
    let gather = opts.clone().skip_unsupported(true);
    let imported: Imported = match from {
        Some(file) => {
            let dump = dump::read_dump(file, flavor)?;
            import::from_dump(&dump, &gather)?
        }
        None => {
            let target = target(
                cli,
                "import needs --from FILE.sql or --database-url (or DATABASE_URL)",
            )?;
            let mut session = db::connect(&target, timeout(cli)).await?;
            let sources = import::read_live(&mut session, &target.schema, &opts.tables).await?;
            let server = session.identity().clone();
            let _ = session.disconnect().await;
            let mut imported = import::build(&target.display, sources, &gather)?;
            imported.server = Some(server);
            imported
        }
    };
    if !opts.skip_unsupported {
        if let Some(first) = imported.skipped.first() {
            if cli.format == Format::Human {
                for u in &imported.skipped {
                    errln!("unsupported: {u}");
                }
            }
            return Err(first.to_error().into());
        }
    }
    let files = schema_catalog::import::write_checked(&imported, out)?;
    match cli.format {
        Format::Json => crate::print::emit_json(&ImportDoc {
            source: imported.source.clone(),
            server: imported.server.clone(),
            tables: imported.tables.iter().map(|t| t.name.to_string()).collect(),
            files: files.iter().map(|f| f.display().to_string()).collect(),
            skipped: imported.skipped.clone(),
            notes: imported.notes.clone(),
        }),
        Format::Human | Format::Markdown | Format::Jsonl | Format::Sarif => {
            outln!(
                "imported {} table(s) from {} into {}",
                imported.tables.len(),
                imported.source,
                out.display()
            );
            if let Some(server) = &imported.server {
                outln!("server: {server}");
            }
            for f in &files {
                outln!("  {}", f.display());
            }
            for n in &imported.notes {
                outln!("note: {n}");
            }
            if !imported.skipped.is_empty() {
                outln!("left out (--skip-unsupported):");
                for u in &imported.skipped {
                    outln!("  {u}");
                }
            }
        }
    }
    Ok(exit::OK)
}
