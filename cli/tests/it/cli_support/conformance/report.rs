//! The conformance report: outcomes per group, unsupported and skipped
//! cases by reason class, then every case that did not converge or refuse.

use std::collections::BTreeMap;
use std::time::Duration;

use schema_catalog::Flavor;

use super::{Case, Verdict};

/// The report text, the outcome of every case (for the file only), and
/// the totals (converged, refused, unsupported, skipped, wrong).
pub struct Report {
    pub text: String,
    pub every_case: String,
    pub totals: [usize; 5],
}

/// The reason class of an unsupported or skipped case, for the report's
/// reason table: the first class of a fixed, ordered list whose needle the
/// reason contains (so classes stay stable between runs); anything else is
/// its own text, names left out.
pub fn reason_class(why: &str) -> String {
    const NOT_RUN: &[(&str, &str)] = &[
        ("auto_random", "TiDB AUTO_RANDOM"),
        ("shard_row_id_bits", "TiDB SHARD_ROW_ID_BITS"),
        ("auto_id_cache", "TiDB AUTO_ID_CACHE"),
        ("'vector'", "no VECTOR type"),
        (
            "foreign key constraint",
            "foreign key to a table the server cannot open (absent, or of another letter case)",
        ),
        (
            "failed to open the referenced table",
            "foreign key to a table the server cannot open (absent, or of another letter case)",
        ),
        ("error 1273", "a collation the server lacks"),
        (
            "is not defined",
            "a FULLTEXT parser the server lacks (ngram)",
        ),
        ("error 1049", "a database the case does not create"),
        ("error 1064", "syntax the server does not parse"),
        (
            "invalid default value",
            "typed-literal default refused by the server",
        ),
    ];
    const CLASSES: &[(&str, &str)] = &[
        (
            "did not finish within",
            "a read cut short at the deadline (machine load)",
        ),
        ("partitioned", "partitioning"),
        ("foreign key", "foreign key"),
        ("generated column", "generated column"),
        ("srid", "spatial type"),
        (
            "outside the catalog's types",
            "type outside the catalog's types",
        ),
        ("literal default on a json", "json literal default"),
        ("table option row_format", "table option ROW_FORMAT"),
        ("table option key_block_size", "table option KEY_BLOCK_SIZE"),
        (" array)", "multi-valued index (CAST ... ARRAY)"),
        (
            "expression key part",
            "expression key part the catalog cannot express",
        ),
        ("check", "CHECK the catalog cannot express"),
        (
            "default cannot be declared",
            "default the catalog cannot express",
        ),
        ("cannot parse", "definition the dump parser cannot read"),
        (
            "is not one the catalog knows",
            "a collation the catalog does not know (ucs2)",
        ),
        (
            "cannot do this online",
            "apply: the server cannot do it online",
        ),
        ("long unique", "long unique (HASH) key"),
        (
            "error 1674",
            "apply: the server refuses a non-deterministic default while binary logging is on (1674)",
        ),
        ("has no table", "desired has no table (events, drops only)"),
        (
            "has no base table",
            "desired has no table (events, drops only)",
        ),
        ("flavor ", "the corpus marks it for another flavor"),
        ("max_version", "the corpus marks it for an older server"),
        ("min_version", "the corpus marks it for a newer server"),
    ];
    let lower = why.to_lowercase();
    if lower.contains("does not run on") {
        let hint = NOT_RUN
            .iter()
            .find(|(needle, _)| lower.contains(needle))
            .map(|(_, hint)| (*hint).to_string())
            .unwrap_or_else(|| {
                let code = lower.split("error ").nth(1);
                format!(
                    "error {}",
                    code.and_then(|r| r.split_whitespace().next())
                        .unwrap_or("?")
                )
            });
        return format!("corpus SQL does not run on this server ({hint})");
    }
    if let Some((_, class)) = CLASSES.iter().find(|(needle, _)| lower.contains(needle)) {
        return (*class).to_string();
    }
    let mut out = String::new();
    for (i, part) in why.split('`').enumerate() {
        out.push_str(if i % 2 == 0 { part } else { "X" });
    }
    out.chars().take(100).collect()
}

/// The report of one corpus run on one server.
pub fn render(
    corpus: &str,
    flavor: Flavor,
    server_version: &[u32],
    results: &[(&Case, Verdict)],
    elapsed: Duration,
) -> Report {
    let mut groups: BTreeMap<&str, [usize; 5]> = BTreeMap::new();
    let mut totals = [0usize; 5];
    let mut details = String::new();
    let mut reasons: BTreeMap<(&str, String), usize> = BTreeMap::new();
    for (case, verdict) in results {
        let slot = match verdict {
            Verdict::Converged => 0,
            Verdict::Refused => 1,
            Verdict::Unsupported(_) => 2,
            Verdict::Skipped(_) => 3,
            Verdict::Wrong(_) => 4,
        };
        groups.entry(case.group.as_str()).or_default()[slot] += 1;
        totals[slot] += 1;
        let (outcome, why) = match verdict {
            Verdict::Unsupported(why) => ("unsupported", why),
            Verdict::Skipped(why) => ("skipped", why),
            Verdict::Wrong(why) => ("WRONG", why),
            Verdict::Converged | Verdict::Refused => continue,
        };
        details.push_str(&format!(
            "- {outcome} {} {}: {}\n",
            case.group,
            case.name,
            why.replace('\n', " ")
        ));
        if outcome != "WRONG" {
            *reasons.entry((outcome, reason_class(why))).or_default() += 1;
        }
    }
    let mut table = String::from(
        "| group | converged | correctly refused | unsupported | skipped | wrong |\n|---|---|---|---|---|---|\n",
    );
    let row = |name: &str, c: &[usize; 5]| {
        format!(
            "| {name} | {} | {} | {} | {} | {} |\n",
            c[0], c[1], c[2], c[3], c[4]
        )
    };
    for (group, counts) in &groups {
        table.push_str(&row(group, counts));
    }
    table.push_str(&row("**total**", &totals));
    // Unsupported and skipped cases by reason, most cases first.
    let mut by_count: Vec<_> = reasons.into_iter().collect();
    by_count.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let mut reason_table = String::from("| outcome | reason | cases |\n|---|---|---|\n");
    for ((outcome, class), n) in by_count {
        reason_table.push_str(&format!("| {outcome} | {class} | {n} |\n"));
    }
    let version = server_version
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(".");
    let text = format!(
        "{corpus} corpus on {flavor} {version}: {} cases in {:.0} s\n\n{table}\n{reason_table}\n{details}",
        results.len(),
        elapsed.as_secs_f64()
    );
    let mut all = String::from("\nEvery case:\n\n");
    for (case, verdict) in results {
        let outcome = match verdict {
            Verdict::Converged => "converged",
            Verdict::Refused => "refused",
            Verdict::Unsupported(_) => "unsupported",
            Verdict::Skipped(_) => "skipped",
            Verdict::Wrong(_) => "WRONG",
        };
        all.push_str(&format!("- {outcome} {} {}\n", case.group, case.name));
    }
    Report {
        text,
        every_case: all,
        totals,
    }
}

#[test]
fn reasons_are_classed_by_what_declined() {
    for (why, class) in [
        (
            "import: error: nothing to import from h/s: every table was left out as unsupported (table `t`: table: partitioned (PARTITION BY HASH (`id`)): partitioned tables are not supported",
            "partitioning",
        ),
        (
            "import: error: table `t`: table option ROW_FORMAT cannot be expressed in a catalog: ROW_FORMAT = DYNAMIC is not part of the catalog format",
            "table option ROW_FORMAT",
        ),
        (
            "import: error: table `posts`: foreign key `posts_ibfk_1` cannot be expressed in a catalog: CONSTRAINT `posts_ibfk_1` FOREIGN KEY (`user_id`) REFERENCES `users`(`id`)",
            "foreign key",
        ),
        (
            "desired does not run on mariadb: Server error: `ERROR 1911 (HY000): Unknown option 'SHARD_ROW_ID_BITS''",
            "corpus SQL does not run on this server (TiDB SHARD_ROW_ID_BITS)",
        ),
        (
            "desired does not run on mysql: Server error: `ERROR 1049 (42000): Unknown database 'x''",
            "corpus SQL does not run on this server (a database the case does not create)",
        ),
        (
            "import: error: reading table `s`.`t` did not finish within 5 s; raise --timeout or check the server",
            "a read cut short at the deadline (machine load)",
        ),
        ("flavor !mariadb", "the corpus marks it for another flavor"),
        ("max_version 5.7", "the corpus marks it for an older server"),
    ] {
        assert_eq!(reason_class(why), class, "{why}");
    }
}
