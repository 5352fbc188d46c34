//! A fleet file with an error in one server entry still says which servers
//! it does name (a warning after the errors; the error count is the errors').

use schema_catalog::finding::lint::Severity;

#[test]
fn an_invalid_server_entry_still_lists_the_servers_that_read() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("fleet.yaml");
    std::fs::write(
        &file,
        "servers:\n  - url: mysql://root@127.0.0.1:3306\n    name: a\n    schemas: [x]\n  \
         - url: notaurl\n    name: b\n    schemas: [y]\n  \
         - url: mysql://root@127.0.0.1:3307\n    name: c\n    schemas: [z]\n",
    )
    .unwrap();
    let Err(schema_catalog::Error::InvalidFleet {
        errors, problems, ..
    }) = schema_catalog::fleet::load(&file)
    else {
        panic!("the file is invalid");
    };
    assert_eq!(errors, 1, "{problems:#?}");
    assert_eq!(problems[0].severity, Severity::Error);
    assert_eq!(problems[0].line, Some(5));
    let last = problems.last().unwrap();
    assert_eq!(last.severity, Severity::Warning);
    assert_eq!(last.line, Some(1), "the `servers:` line");
    assert_eq!(
        last.message,
        "besides the entries above, the file names 2 server(s) that read fine: `a` (127.0.0.1:3306), `c` (127.0.0.1:3307)"
    );
}
