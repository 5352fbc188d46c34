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
