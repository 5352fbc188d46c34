//! Conformance against a peer's public corpus: the Vitess schemadiff cases
//! (Apache-2.0, extracted as data in `../shared/corpus/vitess-schemadiff/
//! cases.json`; `CATALOG_VITESS_CORPUS` overrides), on the server under
//! test. `from` is the schema as it is, `to` the schema as declared (a
//! renamed desired table already carries the current table's name); the
//! judge is cli_support/conformance (import `to`, apply it to `from`, judge
//! by physical state). Vitess's expected ALTERs and `vitess_expects_error`
//! are its own verdicts, not targets. The report goes to
//! `target/conformance/vitess-<flavor>.md`.

use crate::cli_support::conformance;

use conformance::{Case, Corpus};

#[derive(Debug, serde::Deserialize)]
struct Cases {
    cases: Vec<VitessCase>,
}

#[derive(Debug, serde::Deserialize)]
struct VitessCase {
    id: String,
    file: String,
    func: String,
    from: Vec<String>,
    to: Vec<String>,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vitess_schemadiff_conformance() {
    let file =
        conformance::corpus_dir("CATALOG_VITESS_CORPUS", "vitess-schemadiff").join("cases.json");
    let text = std::fs::read_to_string(&file)
        .unwrap_or_else(|e| panic!("corpus {} not readable: {e}", file.display()));
    let parsed: Cases =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let cases = parsed
        .cases
        .into_iter()
        .map(|c| Case {
            group: format!("{} {}", c.file, c.func),
            name: c.id,
            from: c.from,
            to: c.to,
            skip: None,
        })
        .collect();
    conformance::run_corpus(Corpus {
        name: "vitess",
        database: None,
        cases,
    })
    .await;
}
