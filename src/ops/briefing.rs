//! The briefings of orient and orchestrate as Markdown, for a person and for an agent's system
//! prompt, with a character budget that drops the least significant material first. Pure
//! text, so every transport shows the same briefing: `relay orient` prints it, the web
//! console renders it.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::fact_lines::FactSummary;
use super::orchestrate::Digest;
use super::orient::Orientation;
use crate::store::packages::StoredPackage;
use crate::wire::Package;
use crate::wire::text::clean_line;

/// Whether a package is shown in full (the rest are compressed into counts).
fn significant(p: &Package) -> bool {
    p.significance() >= 6
        || matches!(
            p.package_type(),
            "decision" | "milestone" | "handoff" | "question"
        )
}

fn day(p: &Package) -> String {
    p.created_at().format("%Y-%m-%d").to_string()
}

fn full_entry(out: &mut String, p: &Package) {
    let by = p.created_by();
    let _ = writeln!(
        out,
        "- **{}** ({}, significance {}, by {}, {}) `{}`",
        clean_line(p.title()),
        clean_line(p.package_type()),
        p.significance(),
        clean_line(by.id),
        p.created_at().format("%H:%M UTC"),
        clean_line(p.id())
    );
    for d in p.list("decisions_made") {
        let _ = writeln!(out, "  - Decided: {}", clean_line(d));
    }
    for q in p.list("open_questions") {
        let _ = writeln!(out, "  - Open: {}", clean_line(q));
    }
    if let Some(h) = p.str_field("handoff_note").filter(|h| !h.trim().is_empty()) {
        let _ = writeln!(out, "  - Handoff: {}", clean_line(h));
    }
}

fn count_line(out: &mut String, rest: &[&Package]) {
    let mut by_type: BTreeMap<&str, usize> = BTreeMap::new();
    for p in rest {
        *by_type.entry(p.package_type()).or_default() += 1;
    }
    let parts: Vec<String> = by_type
        .iter()
        .map(|(t, n)| format!("{n} {}", clean_line(t)))
        .collect();
    let more = if rest.len() == 1 {
        "1 more package"
    } else {
        "more packages"
    };
    let n = if rest.len() == 1 {
        String::new()
    } else {
        format!("{} ", rest.len())
    };
    let _ = writeln!(out, "- {n}{more}: {}", parts.join(", "));
}

fn fact_line(out: &mut String, f: &FactSummary<'_>) {
    let _ = writeln!(
        out,
        "- {} {} = {} (since {})",
        clean_line(&f.subject),
        clean_line(&f.predicate),
        clean_line(&f.value),
        f.valid_from().format("%Y-%m-%d")
    );
}

/// What of the material is still shown; trimming shrinks it step by step.
#[derive(Clone)]
struct Shown {
    /// Per recent package: shown in full.
    full: Vec<bool>,
    /// Days whose compressed count line is still shown.
    counted_days: usize,
    /// Orient's latest checkpoints shown (none in a digest).
    checkpoints: usize,
    questions: usize,
    facts: usize,
    /// Orient's lessons shown (none in a digest): trimmed last.
    lessons: usize,
}

impl Shown {
    /// What is shown after `steps` trimming steps, least significant material first: demote
    /// full entries to counts, least significant (then oldest) first; then drop count lines,
    /// oldest day first; then checkpoints, open questions, facts and last lessons, from the end.
    fn after(start: &Shown, demotion_order: &[usize], steps: usize) -> Shown {
        let mut s = Shown {
            full: start.full.clone(),
            ..*start
        };
        let demoted = steps.min(demotion_order.len());
        for &i in &demotion_order[..demoted] {
            s.full[i] = false;
        }
        let mut left = steps - demoted;
        for field in [
            &mut s.counted_days,
            &mut s.checkpoints,
            &mut s.questions,
            &mut s.facts,
            &mut s.lessons,
        ] {
            let cut = left.min(*field);
            *field -= cut;
            left -= cut;
        }
        s
    }

    /// How many steps trim everything.
    fn max_steps(&self, demotion_order: &[usize]) -> usize {
        demotion_order.len()
            + self.counted_days
            + self.checkpoints
            + self.questions
            + self.facts
            + self.lessons
    }
}

/// Renders the window's packages grouped by day, newest day first.
fn activity(out: &mut String, packages: &[&StoredPackage], shown: &Shown) {
    let mut days: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, p) in packages.iter().enumerate() {
        let d = day(&p.package);
        match days.last_mut() {
            Some((last, idx)) if *last == d => idx.push(i),
            _ => days.push((d, vec![i])),
        }
    }
    for (n, (d, idx)) in days.iter().enumerate() {
        let rest: Vec<&Package> = idx
            .iter()
            .filter(|&&i| !shown.full[i])
            .map(|&i| &packages[i].package)
            .collect();
        let any_full = idx.iter().any(|&i| shown.full[i]);
        let counted = n < shown.counted_days;
        let show_count = counted && !rest.is_empty();
        if !any_full && !show_count {
            continue;
        }
        let _ = writeln!(out, "\n### {d}");
        for &i in idx {
            if shown.full[i] {
                full_entry(out, &packages[i].package);
            }
        }
        if show_count {
            count_line(out, &rest);
        }
    }
}

fn day_count(packages: &[&StoredPackage]) -> usize {
    let mut days: Vec<String> = packages.iter().map(|p| day(&p.package)).collect();
    days.dedup();
    days.len()
}

/// Cuts `text` to `max` characters, ending with a marker that says so.
fn hard_cut(mut text: String, max: usize) -> String {
    if text.chars().count() <= max {
        return text;
    }
    let marker = if max >= 40 {
        "\n…(trimmed to fit)\n"
    } else {
        ""
    };
    let keep = max.saturating_sub(marker.chars().count());
    let cut = text
        .char_indices()
        .nth(keep)
        .map(|(i, _)| i)
        .unwrap_or(text.len());
    text.truncate(cut);
    text.push_str(marker);
    text
}

/// How long each list a briefing ends with is.
#[derive(Default)]
struct Lists {
    checkpoints: usize,
    questions: usize,
    facts: usize,
    lessons: usize,
}

/// At most this many lessons and checkpoints are listed; the rest are a count.
const LIST_SHOWN: usize = 10;

/// Renders with `render`, trimming until the text fits `max_chars`.
fn fit(
    packages: &[&StoredPackage],
    lists: Lists,
    max_chars: Option<usize>,
    render: impl Fn(&Shown) -> String,
) -> String {
    let start = Shown {
        full: packages.iter().map(|p| significant(&p.package)).collect(),
        counted_days: day_count(packages),
        checkpoints: lists.checkpoints.min(LIST_SHOWN),
        questions: lists.questions,
        facts: lists.facts,
        lessons: lists.lessons.min(LIST_SHOWN),
    };
    let Some(max) = max_chars else {
        return render(&start);
    };
    let fits = |text: &String| text.chars().count() <= max;
    let first = render(&start);
    if fits(&first) {
        return first;
    }
    let mut order: Vec<usize> = (0..packages.len()).filter(|&i| start.full[i]).collect();
    order.sort_by_key(|&i| {
        (
            packages[i].package.significance(),
            packages[i].package.created_at(),
        )
    });
    // Each step only removes text, so the fewest steps that fit are found by bisection.
    let (mut lo, mut hi) = (1, start.max_steps(&order));
    let last = render(&Shown::after(&start, &order, hi));
    if !fits(&last) {
        return hard_cut(last, max);
    }
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if fits(&render(&Shown::after(&start, &order, mid))) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    render(&Shown::after(&start, &order, lo))
}

/// The orient view: project, latest handoff, the window by day, open questions, active facts.
pub fn orient(o: &Orientation, max_chars: Option<usize>) -> String {
    // Checkpoints and the lessons listed above stay out of the activity by day.
    let packages: Vec<&StoredPackage> = o.recent.iter().filter(|p| !o.shown_apart(p)).collect();
    let facts = o.active_facts.summaries();
    let lists = Lists {
        checkpoints: o.checkpoints.len(),
        questions: o.open_questions.len(),
        facts: o.active_facts.len(),
        lessons: o.lessons.len(),
    };
    fit(&packages, lists, max_chars, |shown| {
        let mut out = String::new();
        let p = &o.project;
        let _ = writeln!(
            out,
            "# Orientation: {} (`{}`)",
            clean_line(p.name()),
            clean_line(p.id())
        );
        let _ = writeln!(
            out,
            "\nGenerated {} · last {} days · {} · {} open questions · {} active facts",
            crate::wire::time::format(o.generated_at),
            o.window_days,
            if o.window_total > o.recent.len() {
                format!(
                    "{} packages, the newest {} here",
                    o.window_total,
                    o.recent.len()
                )
            } else {
                format!("{} packages", o.recent.len())
            },
            o.open_questions.len(),
            o.active_facts.len()
        );
        let _ = writeln!(out, "\n## Latest handoff");
        match o.latest_handoff() {
            Some(h) => {
                let pkg = &h.package;
                let _ = writeln!(
                    out,
                    "\n> {}",
                    clean_line(pkg.str_field("handoff_note").unwrap_or_default())
                );
                let next = pkg
                    .str_field("estimated_next_actor")
                    .map(|a| format!(" for the next {a}"))
                    .unwrap_or_default();
                let _ = writeln!(
                    out,
                    "\n— {} ({}), {}{next}, in “{}” `{}`",
                    clean_line(pkg.created_by().id),
                    pkg.created_by().actor_type,
                    pkg.created_at().format("%Y-%m-%d %H:%M UTC"),
                    clean_line(pkg.title()),
                    pkg.id()
                );
            }
            None => {
                let _ = writeln!(out, "\nNone in this window.");
            }
        }
        memory_sections(&mut out, o, shown);
        let _ = writeln!(out, "\n## Recent activity");
        if packages.is_empty() {
            let _ = writeln!(out, "\nNo packages in this window.");
        }
        activity(&mut out, &packages, shown);
        questions_and_facts(&mut out, &o.open_questions, &facts, shown);
        out
    })
}

/// The closing sections of both views: open questions and active facts, as far as shown.
fn questions_and_facts(
    out: &mut String,
    questions: &[String],
    facts: &[FactSummary<'_>],
    shown: &Shown,
) {
    let _ = writeln!(out, "\n## Open questions\n");
    for q in &questions[..shown.questions] {
        let _ = writeln!(out, "- {}", clean_line(q));
    }
    more(out, questions.len(), shown.questions);
    let _ = writeln!(out, "\n## Active facts\n");
    for f in &facts[..shown.facts] {
        fact_line(out, f);
    }
    more(out, facts.len(), shown.facts);
}

/// "None." for an empty list, or how many were trimmed away.
fn more(out: &mut String, total: usize, shown: usize) {
    more_in(out, total, shown, "");
}

/// [`more`], naming the command that lists them all after a colon (`where` = ": relay …").
fn more_in(out: &mut String, total: usize, shown: usize, r#where: &str) {
    if total == 0 {
        let _ = writeln!(out, "None.");
    } else if shown < total {
        let _ = writeln!(out, "- …and {} more{where}", total - shown);
    }
}

/// Orient's agent memory: the lessons that matter, then where each agent stands.
fn memory_sections(out: &mut String, o: &Orientation, shown: &Shown) {
    let _ = writeln!(out, "\n## Lessons\n");
    for p in &o.lessons[..shown.lessons] {
        let pkg = &p.package;
        let _ = writeln!(
            out,
            "- [{}] **{}**: {} `{}`",
            clean_line(pkg.str_field("x-severity").unwrap_or("info")),
            clean_line(pkg.title()),
            clean_line(&cut(pkg.str_field("description").unwrap_or_default(), 200)),
            clean_line(pkg.id())
        );
    }
    more_in(out, o.lessons.len(), shown.lessons, ": relay lesson list");
    let _ = writeln!(out, "\n## Where each agent stands\n");
    for p in &o.checkpoints[..shown.checkpoints] {
        let pkg = &p.package;
        let _ = writeln!(
            out,
            "- **{}** [{}] {} ({})",
            clean_line(pkg.created_by().id),
            clean_line(pkg.str_field("x-flag").unwrap_or("IN_PROGRESS")),
            clean_line(pkg.str_field("x-working-on").unwrap_or(pkg.title())),
            pkg.created_at().format("%Y-%m-%d %H:%M UTC")
        );
        for b in pkg.list("x-blockers") {
            let _ = writeln!(out, "  - Blocked by: {}", clean_line(b));
        }
    }
    more_in(
        out,
        o.checkpoints.len(),
        shown.checkpoints,
        ": relay checkpoint show",
    );
}

/// `text` cut to `max` characters, with `…` when cut.
fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// The orchestrate view: the digest for an agent to synthesise from.
pub fn digest(d: &Digest, max_chars: Option<usize>) -> String {
    let packages: Vec<&StoredPackage> = d.recent.iter().collect();
    let facts: Vec<FactSummary<'_>> = d.active_facts.iter().map(FactSummary::of).collect();
    let lists = Lists {
        questions: d.open_questions.len(),
        facts: d.active_facts.len(),
        ..Lists::default()
    };
    fit(&packages, lists, max_chars, |shown| {
        let mut out = String::new();
        let scope = match &d.project {
            Some(p) => format!("{} (`{}`)", clean_line(p.name()), clean_line(p.id())),
            None => format!("all {} projects", d.projects.len()),
        };
        let _ = writeln!(out, "# Digest: {scope}");
        let counts: Vec<String> = d
            .by_type()
            .iter()
            .map(|(t, n)| format!("{n} {}", clean_line(t)))
            .collect();
        let _ = writeln!(
            out,
            "\nGenerated {} · last {} days · {} packages ({})",
            crate::wire::time::format(d.generated_at),
            d.window_days,
            d.recent.len(),
            if counts.is_empty() {
                "none".to_string()
            } else {
                counts.join(", ")
            }
        );
        if !d.projects.is_empty() {
            let _ = writeln!(out, "\n## Projects\n");
            for p in &d.projects {
                let _ = writeln!(
                    out,
                    "- `{}`{}: {} recent packages, {} open questions, {} active facts",
                    clean_line(&p.project_id),
                    if p.archived { " (archived)" } else { "" },
                    p.recent_packages,
                    p.open_questions,
                    p.active_facts
                );
            }
        }
        let _ = writeln!(out, "\n## Recent activity");
        activity(&mut out, &packages, shown);
        if let Some(focus) = &d.focus {
            let _ = writeln!(out, "\n## Relevant to “{}”\n", clean_line(focus));
            for r in &d.snippets {
                let p = &r.stored.package;
                let _ = writeln!(
                    out,
                    "- **{}** `{}` (score {:.3}; matched {})",
                    clean_line(p.title()),
                    p.id(),
                    r.score,
                    r.matched.join(", ")
                );
            }
            if d.snippets.is_empty() {
                let _ = writeln!(out, "Nothing matches.");
            }
        }
        questions_and_facts(&mut out, &d.open_questions, &facts, shown);
        out
    })
}
