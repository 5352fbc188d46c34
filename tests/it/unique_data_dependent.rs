//! `catalog diff` classes a UNIQUE index added to an existing table as
//! data-dependent (deployable where no two retained rows share its key;
//! apply's duplicate probe refuses the run where they do), and a plain
//! index or a unique index of a new table as not.

use crate::common;

use common::review::{catalog_dir, review, revision, BASE, SETTINGS};
use schema_catalog::diff::ProblemKind;
use schema_catalog::review::{Class, FindingKind};
use schema_catalog::Flavor;

#[test]
fn a_unique_index_on_an_existing_table_is_data_dependent() {
    let old_dir = catalog_dir(&[("catalog.yaml", SETTINGS), ("t.yaml", BASE)]);
    let new = BASE.replacen(
        "  - {name: idx_name, columns: [Name]}\n",
        "  - {name: idx_name, columns: [Name]}\n  - {name: uq_name, columns: [Name], unique: true}\n  - {name: idx_name2, columns: [Name, Id]}\n",
        1,
    );
    assert_ne!(new, BASE);
    let new_dir = catalog_dir(&[("catalog.yaml", SETTINGS), ("t.yaml", &new)]);
    let r = review(
        &revision(old_dir.path(), "old"),
        &revision(new_dir.path(), "new"),
        &Flavor::ALL,
    );
    let of = |name: &str| {
        r.changes
            .iter()
            .find(|c| c.object.as_deref() == Some(name))
            .unwrap_or_else(|| panic!("no finding for {name}: {:#?}", r.changes))
    };
    let unique = of("uq_name");
    assert_eq!(unique.kind, FindingKind::Apply(ProblemKind::MissingIndex));
    assert_eq!(unique.class, Class::Deployable);
    assert!(unique.data_dependent, "{unique:?}");
    assert!(
        unique.reason.starts_with("data-dependent"),
        "{}",
        unique.reason
    );
    let json = serde_json::to_value(unique).unwrap();
    assert_eq!(json["data_dependent"], true);
    let plain = of("idx_name2");
    assert!(!plain.data_dependent, "{plain:?}");
    assert!(serde_json::to_value(plain)
        .unwrap()
        .get("data_dependent")
        .is_none());
    assert!(r.deployable);
}
