//! A service's startup gate: the catalog is embedded in the binary, the
//! service's own pool is used, the whole check runs within 5 seconds, and
//! the service refuses to start (exit 1, the report on stderr as JSON) when
//! its schema is not ready. Run it with
//! `DATABASE_URL=mysql://user:pass@host:3306/app cargo run --example startup_gate`.

use std::process::ExitCode;
use std::time::Duration;

use schema_catalog::{catalog, verify, Error};

/// The catalog files, compiled in.
macro_rules! embed {
    ($($file:literal),* $(,)?) => {
        [$(($file, include_str!(concat!("../catalog/", $file)))),*]
    };
}

const CATALOG: [(&str, &str); 9] = embed![
    "catalog.yaml",
    "audit_outbox.yaml",
    "connector_remote_link.yaml",
    "file_upload_operation.yaml",
    "integration_outbound_command.yaml",
    "record_command.yaml",
    "rollup_delta.yaml",
    "runtime_platform_command.yaml",
    "work_item.yaml",
];

#[tokio::main]
async fn main() -> ExitCode {
    let Ok(url) = std::env::var("DATABASE_URL") else {
        eprintln!("startup gate: set DATABASE_URL=mysql://user:pass@host:port/schema");
        return ExitCode::from(2);
    };
    let opts = match mysql_async::Opts::from_url(&url) {
        Ok(opts) => opts,
        Err(e) => {
            eprintln!("startup gate: bad DATABASE_URL: {e}");
            return ExitCode::from(2);
        }
    };
    let schema = opts.db_name().unwrap_or_default().to_string();
    let catalog = catalog::from_files("embedded", &CATALOG).expect("the embedded catalog is valid");
    let pool = mysql_async::Pool::new(opts);

    let gate = verify::within(&pool, &schema, &catalog, None, Duration::from_secs(5)).await;
    let code = match gate.and_then(verify::VerifyReport::into_result) {
        Ok(report) => {
            println!(
                "schema ready ({} tables, {})",
                catalog.tables.len(),
                report.flavor
            );
            ExitCode::SUCCESS
        }
        Err(Error::Drift { problems, .. }) => {
            for p in &problems {
                eprintln!("schema not ready: {p}");
            }
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
