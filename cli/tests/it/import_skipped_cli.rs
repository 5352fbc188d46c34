//! `catalog import --skip-unsupported` names every object it leaves out, in
//! human and JSON output: an index over a left-out column (a collation the
//! catalog does not know) is listed with the column, not dropped silently.

use crate::cli_support;
use crate::common;

use cli_support::run;
use common::TestDb;

#[tokio::test]
async fn every_left_out_object_is_named_in_human_and_json_output() {
    let db = TestDb::new().await;
    db.exec(&["CREATE TABLE `runs` (`id` int NOT NULL, \
         `tag` varchar(16) CHARACTER SET latin2 COLLATE latin2_czech_cs NULL, `n` int NULL, \
         PRIMARY KEY (`id`), KEY `by_datetime_01` (`tag`, `id`), KEY `by_n` (`n`)) \
         DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"])
        .await;
    let dir = common::scratch_dir("import-skipped");
    let args = |out: &str, json: bool| {
        let mut a: Vec<String> = Vec::new();
        if json {
            a.extend(["--format".into(), "json".into()]);
        }
        a.extend([
            "--database-url".into(),
            db.url(),
            "import".into(),
            "--skip-unsupported".into(),
            "--out".into(),
            dir.join(out).display().to_string(),
        ]);
        a
    };
    let human = run(args("human", false)).await;
    let stdout = String::from_utf8_lossy(&human.stdout);
    assert_eq!(
        human.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&human.stderr)
    );
    let left_out = stdout
        .split("left out (--skip-unsupported):")
        .nth(1)
        .unwrap_or_default();
    for object in ["column `tag`", "index `by_datetime_01`"] {
        assert!(left_out.contains(object), "{object} not listed:\n{stdout}");
    }
    assert!(!left_out.contains("by_n"), "{stdout}");

    let json = run(args("json", true)).await;
    assert_eq!(json.status.code(), Some(0));
    let doc: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let skipped: Vec<String> = doc["skipped"]
        .as_array()
        .expect("skipped list")
        .iter()
        .map(|u| u["object"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(skipped, ["column `tag`", "index `by_datetime_01`"], "{doc}");
}
