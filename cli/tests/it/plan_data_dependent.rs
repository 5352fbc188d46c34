//! `catalog plan` marks a UNIQUE index added to an existing table as
//! data-dependent, as `catalog diff` classes it: a line in the human plan,
//! `data_dependent` on the JSON step; a plain index is not marked.

use crate::cli_support::catalog;

const TABLE: &str = "table: orders\ncolumns:\n  - { name: Id, type: bigint unsigned, nullable: false, auto_increment: true }\n  \
                     - { name: CustomerRef, type: varchar(64), nullable: false }\nprimary_key: [Id]\n\
                     indexes:\n  - { name: uq_orders_customer, columns: [CustomerRef], unique: true }\n  \
                     - { name: idx_orders_customer, columns: [CustomerRef] }\n";

const DUMP: &str = "CREATE TABLE `orders` (\n  `Id` bigint unsigned NOT NULL AUTO_INCREMENT,\n  \
                    `CustomerRef` varchar(64) NOT NULL,\n  PRIMARY KEY (`Id`)\n) ENGINE=InnoDB \
                    DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;\n";

#[test]
fn plan_marks_a_unique_index_on_an_existing_table() {
    let dir = tempfile::Builder::new()
        .prefix("plan-data-dependent")
        .tempdir()
        .unwrap();
    std::fs::write(dir.path().join("orders.yaml"), TABLE).unwrap();
    let dump = dir.path().join("dump.sql");
    std::fs::write(&dump, DUMP).unwrap();
    for flavor in ["mariadb", "mysql"] {
        let run = |extra: &[&str]| {
            let mut args = vec![
                "plan",
                "--catalog",
                dir.path().to_str().unwrap(),
                "--against",
                dump.to_str().unwrap(),
                "--flavor",
                flavor,
            ];
            args.extend_from_slice(extra);
            let out = catalog().args(&args).output().expect("binary runs");
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            assert_eq!(
                out.status.code(),
                Some(0),
                "{text}{}",
                String::from_utf8_lossy(&out.stderr)
            );
            text
        };
        let human = run(&[]);
        // The line after each step's header.
        let lines: Vec<&str> = human.lines().collect();
        let after = |object: &str| {
            let at = lines
                .iter()
                .position(|l| l.starts_with("-- ") && l.contains(object))
                .unwrap_or_else(|| panic!("{human}"));
            lines[at + 1]
        };
        assert!(
            after("`uq_orders_customer`").starts_with(
                "-- data-dependent: a unique index on an existing table; apply builds it online"
            ),
            "{human}"
        );
        assert!(
            !after("`idx_orders_customer`").contains("data-dependent"),
            "{human}"
        );

        let doc: serde_json::Value = serde_json::from_str(&run(&["--format", "json"])).unwrap();
        let steps = doc["steps"].as_array().unwrap();
        let step = |name: &str| {
            steps
                .iter()
                .find(|s| s["object"] == name)
                .unwrap_or_else(|| panic!("{doc}"))
        };
        assert!(
            step("uq_orders_customer")["data_dependent"]
                .as_str()
                .unwrap()
                .starts_with("data-dependent: a unique index on an existing table"),
            "{doc}"
        );
        assert!(
            step("idx_orders_customer").get("data_dependent").is_none(),
            "{doc}"
        );
    }
}
