//! A [`DiffReport`] as Markdown, for a pull-request comment.

use std::fmt::Write;

use super::{Class, DiffReport, Review};

/// The report as one Markdown document.
pub fn render(report: &DiffReport) -> String {
    let mut s = String::new();
    let verdict = if report.deployable {
        "deployable to every installation"
    } else {
        "**not deployable**"
    };
    let _ = writeln!(
        s,
        "## Catalog release review: `{}` is {verdict}\n",
        report.to
    );
    for r in &report.reviews {
        review(&mut s, r);
    }
    s
}

fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

fn review(s: &mut String, r: &Review) {
    let mark = if r.deployable {
        "deployable"
    } else {
        "NOT deployable"
    };
    let _ = writeln!(s, "### From `{}`: {mark}\n", r.from);
    let _ = writeln!(
        s,
        "{} deployable, {} not deployable, {} divergent, {} new lint error(s)\n",
        r.count(Class::Deployable),
        r.count(Class::NotDeployable),
        r.count(Class::Divergent),
        r.new_lint_errors.len()
    );
    if !r.new_lint_errors.is_empty() {
        let _ = writeln!(s, "#### New lint errors\n");
        for l in &r.new_lint_errors {
            let _ = writeln!(s, "- {}", cell(&l.to_string()));
        }
        s.push('\n');
    }
    if !r.changes.is_empty() {
        let _ = writeln!(
            s,
            "| class | change | table | object | old | new | reason | fix |"
        );
        let _ = writeln!(s, "|---|---|---|---|---|---|---|---|");
        for c in &r.changes {
            // What would make it pass, where something must (as the human
            // output gives it): each flavor's where they differ.
            let fix = c.fix.as_deref().filter(|_| c.class != Class::Deployable);
            let _ = writeln!(
                s,
                "| {} | {} | `{}` | {} | {} | {} | {} | {} |",
                c.class.name(),
                c.kind_text(),
                cell(&c.table),
                c.object
                    .as_deref()
                    .map(|o| format!("`{}`", cell(o)))
                    .unwrap_or_default(),
                cell(c.old.as_deref().unwrap_or("")),
                cell(c.new.as_deref().unwrap_or("")),
                cell(&c.reason),
                cell(fix.unwrap_or(""))
            );
        }
        s.push('\n');
    }
    let _ = writeln!(s, "**Rollout:** {}\n", r.rollout.advice);
    for l in &r.rollout.losses {
        let _ = writeln!(s, "- {}", cell(&l.to_string()));
    }
    if !r.rollout.losses.is_empty() {
        s.push('\n');
    }
    for u in &r.upgrades {
        cost_table(s, u);
    }
    for u in &r.upgrades {
        let _ = writeln!(
            s,
            "<details><summary>Upgrade on {} ({} step(s){})</summary>\n",
            u.flavor,
            u.steps.len(),
            if u.refused.is_empty() {
                ""
            } else {
                ", refused"
            }
        );
        if !u.refused.is_empty() {
            for p in &u.refused {
                let _ = writeln!(s, "- refused: {}", cell(&p.to_string()));
            }
            s.push('\n');
        }
        for (title, steps) in [
            ("", &u.steps),
            ("held back while refused:\n\n", &u.held_back),
        ] {
            if steps.is_empty() {
                continue;
            }
            let _ = writeln!(s, "{title}```sql");
            for st in steps {
                let _ = writeln!(s, "{};", st.sql);
            }
            let _ = writeln!(s, "```\n");
        }
        let _ = writeln!(s, "</details>\n");
    }
    for d in &r.table_diffs {
        let _ = writeln!(s, "<details><summary>`{}`</summary>\n\n```diff", d.table);
        s.push_str(&d.text);
        if !d.text.ends_with('\n') {
            s.push('\n');
        }
        let _ = writeln!(s, "```\n\n</details>\n");
    }
}

/// The cost of an upgrade's steps (docs/cost.md, "Reading the review"):
/// one row per step with its class, the table's size and the estimates
/// (`unknown` without a `--stats` file), steps over a budget marked, and
/// the totals per table and for the release.
fn cost_table(s: &mut String, u: &super::Upgrade) {
    use crate::cost::text;
    let (Some(summary), false) = (&u.cost, u.steps.is_empty()) else {
        return;
    };
    let sizes = match summary.sizes {
        crate::cost::SizeSource::Live => "sizes read live",
        crate::cost::SizeSource::StatsFile => "sizes from the --stats file",
        crate::cost::SizeSource::None => "no sizes (pass --stats FILE from `catalog stats`)",
    };
    let _ = writeln!(
        s,
        "#### Cost on {} ({sizes}; build rate {:.0} MB/s, {})\n",
        u.flavor,
        summary.rate.mb_per_s,
        crate::review::snake_name(&summary.rate.source)
    );
    let _ = writeln!(
        s,
        "| step | class | rows | table size | index size | build | replica stall | temp space | budget |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|");
    for st in &u.steps {
        let Some(c) = &st.cost else { continue };
        let budget = if st.over_budget.is_empty() {
            "ok".to_string()
        } else {
            st.over_budget
                .iter()
                .map(|o| {
                    format!(
                        "**over** {} {}",
                        o.budget,
                        crate::cost::millis_text(o.budget_ms)
                    )
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(
            s,
            "| {} `{}`.`{}` | {} | {} | {} | {} | {} | {} | {} | {} |",
            st.kind,
            cell(&st.table),
            cell(&st.object),
            c.class,
            text::rows(c),
            text::table_size(c),
            text::index_size(c),
            text::duration(c),
            text::stall(c),
            text::temp(c),
            budget
        );
    }
    s.push('\n');
    if summary.tables.len() > 1 {
        for t in &summary.tables {
            let _ = writeln!(
                s,
                "- `{}`: {} step(s), build {}, replica stall {}, temp space {}",
                cell(t.table.as_deref().unwrap_or("")),
                t.steps,
                text::total_ms(t.duration_ms),
                text::total_ms(t.replica_stall_ms),
                text::total_bytes(t.temp_bytes)
            );
        }
    }
    let t = &summary.total;
    let _ = writeln!(
        s,
        "**Release total on {}:** {} step(s), build {}, replica stall {}, peak temp space {}\n",
        u.flavor,
        t.steps,
        text::total_ms(t.duration_ms),
        text::total_ms(t.replica_stall_ms),
        text::total_bytes(t.temp_bytes)
    );
}
