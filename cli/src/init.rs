//! `catalog init [DIR]`: a starter catalog a newcomer can check, plan and
//! edit: `catalog.yaml` with the defaults and one commented example table.

use std::path::Path;

use anyhow::Result;

use crate::exit;

/// The starter `catalog.yaml`.
const CATALOG_YAML: &str = "\
# Catalog-wide settings. Every other *.yaml file in this directory declares
# one table. Reference: docs/catalog-format.md.
defaults:
  engine: InnoDB
  charset: utf8mb4
  collation: utf8mb4_bin   # keys compare bytes: plain equality is a point read
limits:
  max_index_bytes: 3072    # the index key budget of InnoDB DYNAMIC and TiDB
";

/// The example table, one file per table.
const EXAMPLE_YAML: &str = "\
# An example table: edit it into one of yours, or delete this file.
# `catalog import --database-url ... --out DIR` writes such files from an
# existing schema. Then: catalog check; catalog plan; catalog apply.
table: example_job
comment: Jobs waiting for a worker.
columns:
  - name: id
    type: bigint unsigned
    nullable: false          # columns are nullable unless they say otherwise
    auto_increment: true
  - name: dedupe_key
    type: varchar(190)
    nullable: false
  - name: state
    type: varchar(32)
    nullable: false
    default: \"'queued'\"      # a SQL literal: strings keep their quotes
  - name: run_after
    type: datetime(6)
    nullable: false
    default: CURRENT_TIMESTAMP(6)
  - name: payload
    type: json
primary_key: [id]
indexes:
  - { name: uq_example_job_dedupe, columns: [dedupe_key], unique: true }
  # Workers claim due jobs: WHERE state = 'queued' AND run_after <= NOW(6).
  - { name: idx_example_job_due, columns: [state, run_after, id] }
";

/// Writes the starter catalog into `dir` (created if missing). Refuses a
/// directory that already holds YAML files: nothing is overwritten.
pub fn run(dir: &Path) -> Result<u8> {
    let io = |e: std::io::Error| schema_catalog::Error::Io {
        path: dir.to_path_buf(),
        source: e,
    };
    std::fs::create_dir_all(dir).map_err(io)?;
    let mut existing: Vec<String> = std::fs::read_dir(dir)
        .map_err(io)?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".yaml") || n.ends_with(".yml"))
        .collect();
    if !existing.is_empty() {
        existing.sort();
        return Err(schema_catalog::Error::Usage(format!(
            "{} already holds {}; init writes only into a new or empty directory (name another: `catalog init DIR`)",
            dir.display(),
            existing.join(", ")
        ))
        .into());
    }
    let files = [
        ("catalog.yaml", CATALOG_YAML),
        ("example_job.yaml", EXAMPLE_YAML),
    ];
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| schema_catalog::Error::Io {
            path: path.clone(),
            source: e,
        })?;
    }
    outln!("wrote a starter catalog into {}:", dir.display());
    for (name, _) in files {
        outln!("  {}", dir.join(name).display());
    }
    let flag = if dir == Path::new("catalog") || dir == Path::new("./catalog") {
        String::new()
    } else {
        format!(" --catalog {}", dir.display())
    };
    outln!("next: catalog check{flag}   (then plan and apply with --database-url)");
    Ok(exit::OK)
}
