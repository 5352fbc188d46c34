//! The committed JSON Schemas in `docs/schemas/` are the ones the typed
//! reports generate. Regenerate with
//! `UPDATE_SCHEMAS=1 cargo test --test it json_schemas::`.

use std::path::Path;

use schema_catalog::report;

#[test]
fn committed_schemas_are_up_to_date() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/schemas");
    let update = std::env::var_os("UPDATE_SCHEMAS").is_some();
    let mut names = Vec::new();
    for (name, schema) in report::schemas() {
        let file = dir.join(format!("{name}.schema.json"));
        let text = serde_json::to_string_pretty(&schema).unwrap() + "\n";
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&file, &text).unwrap();
        } else {
            let committed = std::fs::read_to_string(&file).unwrap_or_default();
            assert!(
                committed == text,
                "{} is not what the reports generate; run UPDATE_SCHEMAS=1 cargo test --test it json_schemas::",
                file.display()
            );
        }
        names.push(format!("{name}.schema.json"));
    }
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    on_disk.sort();
    names.sort();
    assert_eq!(
        on_disk, names,
        "docs/schemas holds exactly the generated schemas"
    );
}
