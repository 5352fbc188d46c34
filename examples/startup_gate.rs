//! A service's startup gate: every file of the catalog directory is
//! embedded in the binary, the service's own pool is used, the schema is
//! the database its URL names, and the whole check runs within 5 seconds.
//! The service refuses to start (exit 1, the report on stderr as JSON) when
//! its schema is not ready, and exits 2 when the gate cannot run. Run it
//! with `DATABASE_URL=mysql://user:pass@host:3306/app cargo run --example startup_gate`.
//!
//! `gate` is the whole integration; `main` only turns its outcome into an
//! exit code. The consumer is one the shipped catalog declares
//! (`required_by` in catalog/file_upload_operation.yaml): the gate
//! checks the base contract plus that consumer's own items.

use std::process::ExitCode;
use std::time::Duration;

use schema_catalog::verify::VerifyReport;
use schema_catalog::{AsCatalog, VerifyOptions};

static CATALOG: schema_catalog::Embedded = schema_catalog::embed_catalog!("catalog");

async fn gate(pool: &mysql_async::Pool) -> schema_catalog::Result<VerifyReport> {
    let opts = VerifyOptions::default()
        .consumer("runtime-upload-lifecycle")
        .deadline(Duration::from_secs(5));
    let report = schema_catalog::verify(pool, &CATALOG, &opts).await?;
    Ok(report)
}

#[tokio::main]
async fn main() -> ExitCode {
    let Ok(url) = std::env::var("DATABASE_URL") else {
        eprintln!("startup gate: set DATABASE_URL=mysql://user:pass@host:port/schema");
        return ExitCode::from(2);
    };
    let pool = match mysql_async::Pool::from_url(url) {
        Ok(pool) => pool,
        Err(e) => {
            eprintln!("startup gate: bad DATABASE_URL: {e}");
            return ExitCode::from(2);
        }
    };
    let code = match gate(&pool).await {
        Ok(report) if report.ok => {
            let tables = CATALOG.as_catalog().map_or(0, |c| c.tables.len());
            println!("schema ready ({tables} tables, {})", report.flavor);
            ExitCode::SUCCESS
        }
        Ok(report) => {
            let json = serde_json::to_string_pretty(&report).expect("reports serialise");
            eprintln!("{json}");
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("startup gate: {e}");
            ExitCode::from(2)
        }
    };
    let _ = pool.disconnect().await;
    code
}
