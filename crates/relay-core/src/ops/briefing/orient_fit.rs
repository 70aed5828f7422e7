//! orient within a character budget: a hook's output is capped (Claude Code's at 10,000
//! characters), so a briefing has to fit and say what it left out. This module holds what the
//! Markdown view and the JSON bundle share: the kinds of record counted when left out, the
//! account of them with the commands that show them, the order records are kept in, and the
//! budgeted OrientationBundle itself (`x-omitted` added). The Markdown is `ops::briefing::markdown`'s.

use serde::Serialize;
use serde_json::value::RawValue;

use crate::ops::briefing::budget::{Fill, count};
use crate::ops::briefing::orient::{Bundle, Omitted, Orientation, significant};
use crate::ops::facts::lines::FactSummary;
use relay_store::packages::StoredPackage;
use relay_wire::error::{Error, Result};

/// The kinds of record a budget may leave out, as indices of the counts [`Fill`] keeps.
pub const HANDOFF: usize = 0;
pub const PACKAGES: usize = 1;
pub const QUESTIONS: usize = 2;
pub const FACTS: usize = 3;
pub const LESSONS: usize = 4;
pub const CHECKPOINTS: usize = 5;
pub const KINDS: usize = 6;

pub use crate::request::orient::{CHARS_PER_TOKEN, chars_for_tokens};

/// `id` as one shell word: bare when it is plain, else single-quoted.
pub fn shell_word(id: &str) -> String {
    let plain = !id.is_empty()
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'/' | b':'));
    if plain {
        id.to_string()
    } else {
        format!("'{}'", id.replace('\'', r"'\''"))
    }
}

/// The commands that show what `left` counts as left out, each once.
pub fn commands(o: &Orientation, left: &[usize]) -> Vec<String> {
    let project = shell_word(o.project.id());
    let mut out = Vec::new();
    if left[HANDOFF] + left[PACKAGES] + left[QUESTIONS] > 0 {
        out.push(format!(
            "relay pull --project {project} --latest {}",
            o.recent.len()
        ));
    }
    for (kind, command) in [
        (FACTS, "relay facts list"),
        (LESSONS, "relay lesson list"),
        (CHECKPOINTS, "relay checkpoint show"),
    ] {
        if left[kind] > 0 {
            out.push(format!("{command} --project {project}"));
        }
    }
    out
}

/// The Markdown's last line when something was left out: what, and the commands that show it.
pub fn left_out_line(o: &Orientation, left: &[usize]) -> Option<String> {
    let mut parts = Vec::new();
    if left[HANDOFF] > 0 {
        parts.push("the latest handoff".to_string());
    }
    for (kind, one, many) in [
        (PACKAGES, "package", "packages"),
        (QUESTIONS, "open question", "open questions"),
        (FACTS, "active fact", "active facts"),
        (LESSONS, "lesson", "lessons"),
        (CHECKPOINTS, "checkpoint", "checkpoints"),
    ] {
        if left[kind] > 0 {
            parts.push(count(left[kind], one, many));
        }
    }
    if parts.is_empty() {
        return None;
    }
    let see: Vec<String> = commands(o, left)
        .iter()
        .map(|c| format!("`{}`", relay_wire::text::inert_line(c)))
        .collect();
    Some(format!(
        "_Left out to fit: {} — see {}._",
        parts.join(", "),
        see.join(", ")
    ))
}

/// The order facts are kept in under a budget: the most recently changed first.
pub fn facts_by_change<'f>(facts: impl IntoIterator<Item = &'f FactSummary<'f>>) -> Vec<usize> {
    let changed: Vec<_> = facts.into_iter().map(FactSummary::changed_at).collect();
    let mut order: Vec<usize> = (0..changed.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(changed[i]));
    order
}

/// The packages kept first under a budget once the handoff is in: the significant ones, most
/// significant then newest first (`packages` are newest first). The rest follow newest first.
pub fn significant_first(packages: &[&StoredPackage]) -> Vec<usize> {
    let mut first: Vec<usize> = (0..packages.len())
        .filter(|&i| significant(&packages[i].package))
        .collect();
    first.sort_by_key(|&i| std::cmp::Reverse(packages[i].package.significance()));
    first
}

impl Omitted {
    /// What `left` counts, with the commands that show it.
    fn of(o: &Orientation, left: &[usize]) -> Omitted {
        Omitted {
            recent_packages: left[PACKAGES] + left[HANDOFF],
            open_questions: left[QUESTIONS],
            active_facts: left[FACTS],
            lessons: left[LESSONS],
            checkpoints: left[CHECKPOINTS],
            commands: commands(o, left),
        }
    }
}

fn chars<T: Serialize + ?Sized>(v: &T) -> usize {
    serde_json::to_string(v).map_or(0, |s| s.chars().count())
}

/// A list's records' costs in the order given: each record's characters, and a comma before
/// all but the first shown.
fn listed(lengths: impl IntoIterator<Item = usize>) -> impl Iterator<Item = usize> {
    lengths
        .into_iter()
        .enumerate()
        .map(|(i, n)| n + usize::from(i > 0))
}

/// The bundle within `max` characters of compact JSON, filled in orient's priority order: the
/// latest handoff, lessons, open questions, checkpoints, facts (most recently changed first),
/// significant packages, the other packages. Refused when even the bundle with no records
/// does not fit.
pub fn bundle(o: &Orientation, max: usize) -> Result<Bundle<'_, Vec<&RawValue>>> {
    let facts: Vec<(&RawValue, FactSummary<'_>)> = o
        .active_facts
        .lines()
        .filter_map(|l| {
            Some((
                serde_json::from_slice(l).ok()?,
                serde_json::from_slice(l).ok()?,
            ))
        })
        .collect();
    let mut b = Bundle {
        project: &o.project,
        recent_packages: Vec::new(),
        active_facts: Vec::new(),
        open_questions: &[],
        window_days: o.window_days,
        generated_at: relay_wire::time::format(o.generated_at),
        lessons: Vec::new(),
        checkpoints: Vec::new(),
        stale: Default::default(),
        omitted: Some(Omitted::of(o, &[0; KINDS])),
    };
    let bare = chars(&b) - chars(&b.omitted);
    let account = |left: &[usize]| chars(&Omitted::of(o, left));
    let mut left = [0; KINDS];
    left[PACKAGES] = o.recent.len();
    left[QUESTIONS] = o.open_questions.len();
    left[FACTS] = facts.len();
    left[LESSONS] = o.lessons.len();
    left[CHECKPOINTS] = o.checkpoints.len();
    let Some(mut fill) = Fill::new(max, bare, Vec::new(), left.to_vec(), &account) else {
        let need = bare + account(&left);
        return Err(Error::InvalidInput(format!(
            "a budget of {max} characters is too small for the OrientationBundle: with no records in it, it takes {need}; give at least {need}"
        )));
    };
    let packages: Vec<&StoredPackage> = o.recent.iter().collect();
    let mut shown = vec![false; packages.len()];
    // A stale package shown brings its entry in `x-stale`: `"id":[…]`, a comma before all
    // but the first.
    let stale_cost = |i: usize, shown: &[bool]| {
        let p = &packages[i].package;
        o.stale_files(p).map_or(0, |stale| {
            let marked = (packages.iter().zip(shown))
                .any(|(q, s)| *s && o.stale_files(&q.package).is_some());
            chars(p.id()) + 1 + chars(stale) + usize::from(marked)
        })
    };
    let take_package = |fill: &mut Fill<'_>, shown: &mut [bool], i: usize| -> bool {
        let listed = shown.iter().any(|&s| s);
        let cost = chars(&packages[i].package) + usize::from(listed) + stale_cost(i, shown);
        let taken = fill.take(cost, &[], Some(PACKAGES));
        shown[i] |= taken;
        taken
    };
    if let Some(h) = o.latest_handoff()
        && let Some(i) = o.recent.iter().position(|p| std::ptr::eq(p, h))
    {
        take_package(&mut fill, &mut shown, i);
    }
    let lessons = fill.take_run(
        listed(o.lessons.iter().map(|p| chars(&p.package))),
        &[],
        Some(LESSONS),
    );
    let questions = fill.take_run(
        listed(o.open_questions.iter().map(chars)),
        &[],
        Some(QUESTIONS),
    );
    let checkpoints = fill.take_run(
        listed(o.checkpoints.iter().map(|p| chars(&p.package))),
        &[],
        Some(CHECKPOINTS),
    );
    let fact_order = facts_by_change(facts.iter().map(|(_, s)| s));
    let kept_facts = fill.take_run(
        listed(fact_order.iter().map(|&i| facts[i].0.get().chars().count())),
        &[],
        Some(FACTS),
    );
    let all = (0..packages.len()).collect();
    for order in [significant_first(&packages), all] {
        for i in order {
            if !shown[i] && !take_package(&mut fill, &mut shown, i) {
                break;
            }
        }
    }
    let mut fact_shown = vec![false; facts.len()];
    for &i in &fact_order[..kept_facts] {
        fact_shown[i] = true;
    }
    b.omitted = Some(Omitted::of(o, fill.left()));
    b.recent_packages = (packages.iter().zip(&shown))
        .filter(|(_, s)| **s)
        .map(|(p, _)| &p.package)
        .collect();
    b.stale = o.stale_of(b.recent_packages.iter().copied());
    b.active_facts = (facts.iter().zip(&fact_shown))
        .filter(|(_, s)| **s)
        .map(|(f, _)| f.0)
        .collect();
    b.open_questions = &o.open_questions[..questions];
    b.lessons = o.lessons[..lessons].iter().map(|p| &p.package).collect();
    b.checkpoints = (o.checkpoints[..checkpoints].iter())
        .map(|p| &p.package)
        .collect();
    debug_assert_eq!(chars(&b), fill.total());
    Ok(b)
}
