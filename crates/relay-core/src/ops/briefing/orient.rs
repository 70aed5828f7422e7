//! orient (§8.3): what a new session needs first: the project, the recent packages of the
//! window (drafts left out), the active facts and the open questions. Only the monthly logs
//! the window reaches are read, except for lessons: the project's critical and warning
//! lessons of any age, found through the month catalogs, which read only their lines.

use serde::Serialize;

use crate::ops::facts::lines::FactLines;
use relay_store::Store;
use relay_store::packages::StoredPackage;
use relay_wire::error::Result;
use relay_wire::{Package, Project, time};

/// The OrientationBundle, with the packages kept whole for rendering.
#[derive(Debug, Clone)]
pub struct Orientation {
    pub project: Project,
    /// The window's newest packages (at most the limit asked for), newest first, current
    /// versions, no drafts.
    pub recent: Vec<StoredPackage>,
    /// How many packages the window holds in all.
    pub window_total: usize,
    /// Current facts, one per (subject, predicate), by subject and predicate.
    pub active_facts: FactLines,
    /// Open questions of the window's packages, newest first, each once.
    pub open_questions: Vec<String>,
    pub window_days: u32,
    pub generated_at: time::Timestamp,
    /// The project's critical and warning lessons, whatever their age: most severe first,
    /// then newest.
    pub lessons: Vec<StoredPackage>,
    /// The latest checkpoint of each actor within the window, newest first.
    pub checkpoints: Vec<StoredPackage>,
    /// Notes about the briefing itself (the state of the clone, stale records), each shown
    /// as a line of its own under the Markdown's "Generated" line; none by default.
    pub notes: Vec<String>,
    /// The recent packages whose file deliverables changed or are gone since the deposit
    /// (`may be stale` in the Markdown, `x-stale` in the bundle). Empty for a snapshot read:
    /// the files as they are now say nothing of the store as it stood.
    pub stale: crate::ops::packages::stale::Marks,
}

/// The OrientationBundle of §8.3, its members in the spec's order; within a budget
/// (`ops::briefing::orient_fit`) its facts are those that fit, and `x-omitted` ends it.
#[derive(Debug, Serialize)]
pub struct Bundle<'a, F = &'a FactLines> {
    pub project: &'a Project,
    pub recent_packages: Vec<&'a Package>,
    pub active_facts: F,
    pub open_questions: &'a [String],
    pub window_days: u32,
    pub generated_at: String,
    /// Agent memory (§12.1 extension members): lessons and where each agent stands.
    #[serde(rename = "x-lessons")]
    pub lessons: Vec<&'a Package>,
    #[serde(rename = "x-checkpoints")]
    pub checkpoints: Vec<&'a Package>,
    /// The shown recent packages whose files changed or are gone since the deposit, by
    /// package id: `{"pkg_…": [{"path", "reason"}]}`, `{}` when none is. The packages
    /// themselves are never altered.
    #[serde(rename = "x-stale")]
    pub stale: std::collections::BTreeMap<&'a str, &'a [crate::ops::packages::stale::Stale]>,
    /// Present when a budget was asked for.
    #[serde(rename = "x-omitted", skip_serializing_if = "Option::is_none")]
    pub omitted: Option<Omitted>,
}

/// `x-omitted`: how many records of each list a budget left out, and the commands that show
/// them.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct Omitted {
    pub recent_packages: usize,
    pub open_questions: usize,
    pub active_facts: usize,
    #[serde(rename = "x-lessons")]
    pub lessons: usize,
    #[serde(rename = "x-checkpoints")]
    pub checkpoints: usize,
    pub commands: Vec<String>,
}

/// Whether a package is shown in full in the Markdown (the rest are one line or a count), and
/// kept before the others under a budget.
pub fn significant(p: &Package) -> bool {
    p.significance() >= 6
        || matches!(
            p.package_type(),
            "decision" | "milestone" | "handoff" | "question"
        )
}

/// The start of a window of `days` ending at `now`.
pub fn window_start(now: time::Timestamp, days: u32) -> time::Timestamp {
    now.checked_sub_signed(chrono::TimeDelta::days(i64::from(days)))
        .unwrap_or(chrono::DateTime::<chrono::Utc>::MIN_UTC)
}

pub use crate::request::orient::DEFAULT_RECENT_LIMIT;

/// The packages of a window: the newest `limit`, and how many there are in all.
#[derive(Debug, Clone, Default)]
pub struct Window {
    pub packages: Vec<StoredPackage>,
    pub total: usize,
}

/// The window's packages of one project, newest first: current versions, no drafts. Through
/// the logs' catalogs, only the `limit` newest are read. For a snapshot read (`as_of`, and
/// `now` is that time) the packages as the store stood then.
pub fn recent_packages(
    store: &Store,
    project_id: &str,
    (since, now): (time::Timestamp, time::Timestamp),
    limit: usize,
    as_of: Option<time::Timestamp>,
) -> Result<Window> {
    let hidden = briefing_hides(store, project_id, as_of)?;
    window_packages(store, project_id, (since, now), limit, as_of, &hidden)
}

/// What a briefing leaves out: retracted and expired records, as of `as_of` or now.
fn briefing_hides(
    store: &Store,
    project_id: &str,
    as_of: Option<time::Timestamp>,
) -> Result<crate::search::filter::Hidden> {
    let projects = [project_id.to_string()];
    crate::search::filter::Hidden::load(
        relay_store::View::of(store, as_of),
        &projects,
        crate::search::filter::Reveal::default(),
    )
}

/// [`recent_packages`] of the window `(since, now)`, without what `hidden` hides; for a
/// snapshot read (`as_of`, then `now` is that time) the packages as the store stood then, at
/// the versions current then.
fn window_packages(
    store: &Store,
    project_id: &str,
    (since, now): (time::Timestamp, time::Timestamp),
    limit: usize,
    as_of: Option<time::Timestamp>,
    hidden: &crate::search::filter::Hidden,
) -> Result<Window> {
    let in_window = |p: &StoredPackage| {
        crate::ops::packages::review::in_digests(&p.package)
            && p.package.created_at() >= since
            && p.package.created_at() <= now
            && hidden.package(&p.package).is_none()
    };
    if as_of.is_some() || !store.config().search_index() {
        let view = relay_store::View::of(store, as_of);
        let all = crate::ops::packages::snapshot::packages(view, project_id, Some(since))?;
        let mut packages: Vec<StoredPackage> = all.into_iter().filter(in_window).collect();
        packages.sort_by_cached_key(|p| {
            (
                std::cmp::Reverse(p.package.created_at()),
                p.package.id().to_string(),
            )
        });
        let total = packages.len();
        packages.truncate(limit);
        return Ok(Window { packages, total });
    }
    let (lo, hi) = (since.timestamp_micros(), now.timestamp_micros());
    let mut out = Window::default();
    // A month may have two logs (the tracked one and the clone's queue): read as one.
    for month in store
        .package_months(project_id, Some(since), None)?
        .into_iter()
        .rev()
    {
        let month = crate::ops::packages::months::Month::load(store, &month.logs)?;
        for run in month.runs() {
            if !run.more.is_empty() {
                // One package in both logs (rare): judged by its current version.
                match month.read(store, &run)? {
                    Some(p) if in_window(&p) => {
                        if out.packages.len() < limit {
                            out.packages.push(p);
                        }
                        out.total += 1;
                    }
                    _ => {}
                }
                continue;
            }
            let (catalog, entry) = month.entry(run.first);
            let t = entry.created_micros;
            if t < lo
                || t > hi
                || entry.status == relay_wire::Status::Draft
                || hidden.retracted_package(catalog.id(entry))
            {
                continue;
            }
            if out.packages.len() < limit {
                match catalog.read(store, entry)? {
                    Some(p) if in_window(&p) => out.packages.push(p),
                    _ => continue,
                }
            }
            out.total += 1;
        }
    }
    Ok(out)
}

/// The open questions of `packages` in their order, each once (compared without case or
/// surrounding space).
pub fn open_questions(packages: &[StoredPackage]) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for p in packages {
        for q in p.package.list("open_questions") {
            let key = q.trim().to_lowercase();
            if !key.is_empty() && seen.insert(key) {
                out.push(q.trim().to_string());
            }
        }
    }
    out
}

/// The OrientationBundle of a project: the `limit` newest packages of the last `window_days`.
/// For a snapshot read (a `view` with a time), the briefing as it would have been generated
/// then: its window ends then, and it holds what the store held then (the same bytes however
/// often it is read).
pub fn orient(
    view: relay_store::View<'_>,
    project_id: &str,
    window_days: u32,
    limit: usize,
) -> Result<Orientation> {
    let (store, as_of) = (view.store(), view.as_of());
    let project = crate::ops::projects::get(store, project_id)?;
    let now = as_of.unwrap_or_else(time::now);
    let since = window_start(now, window_days);
    let hidden = briefing_hides(store, project_id, as_of)?;
    let window = window_packages(store, project_id, (since, now), limit, as_of, &hidden)?;
    // The current facts as the fact index keeps them, unparsed; without one, or when some
    // may be hidden (a retraction, an expiry), read and listed.
    let active_facts = match store.current_fact_lines(project_id)? {
        Some(lines)
            if as_of.is_none()
                && !hidden.retracts_facts()
                && memchr::memmem::find(&lines, relay_wire::expiry::EXPIRES_AT.as_bytes())
                    .is_none() =>
        {
            FactLines::from_lines(lines)
        }
        _ => FactLines::from_facts(&crate::ops::facts::list(
            store,
            project_id,
            &crate::ops::facts::ListQuery {
                as_of,
                ..Default::default()
            },
        )?),
    };
    let open_questions = open_questions(&window.packages);
    let projects = [project_id.to_string()];
    let lessons = crate::ops::memory::reads::lessons(
        store,
        &projects,
        &crate::ops::memory::reads::LessonQuery {
            severities: vec!["critical".into(), "warning".into()],
            no_drafts: true,
            as_of,
            ..Default::default()
        },
    )?;
    let checkpoints =
        crate::ops::memory::reads::latest_checkpoints(store, project_id, None, Some(since), as_of)?;
    Ok(Orientation {
        project,
        window_total: window.total,
        active_facts,
        open_questions,
        window_days,
        generated_at: now,
        stale: match as_of {
            None => crate::ops::packages::stale::marks(
                store,
                window.packages.iter().map(|p| &p.package),
            ),
            Some(_) => Default::default(),
        },
        notes: match as_of {
            // What git says of the clone now, for a briefing of now.
            None => clone_notes(store),
            Some(_) => Vec::new(),
        },
        lessons,
        checkpoints,
        recent: window.packages,
    })
}

/// What the briefing says of the clone: records not committed yet, a branch behind its
/// upstream (local refs only, no fetch); nothing for a local store or outside git.
fn clone_notes(store: &Store) -> Vec<String> {
    let root = store.root();
    root.parent()
        .and_then(|work_tree| crate::ops::git::store_sync(work_tree, root))
        .and_then(|sync| sync.header_note())
        .into_iter()
        .collect()
}

impl Orientation {
    /// The OrientationBundle of §8.3, exactly, ready to serialize.
    pub fn bundle(&self) -> Bundle<'_> {
        Bundle {
            project: &self.project,
            recent_packages: self.recent.iter().map(|p| &p.package).collect(),
            active_facts: &self.active_facts,
            open_questions: &self.open_questions,
            window_days: self.window_days,
            generated_at: time::format(self.generated_at),
            lessons: self.lessons.iter().map(|p| &p.package).collect(),
            checkpoints: self.checkpoints.iter().map(|p| &p.package).collect(),
            stale: self.stale_of(self.recent.iter().map(|p| &p.package)),
            omitted: None,
        }
    }

    /// The stale marks of `shown`, as the bundle's `x-stale` lists them.
    pub fn stale_of<'a>(
        &'a self,
        shown: impl Iterator<Item = &'a Package>,
    ) -> std::collections::BTreeMap<&'a str, &'a [crate::ops::packages::stale::Stale]> {
        shown
            .filter_map(|p| {
                let (id, stale) = self.stale.get_key_value(p.id())?;
                Some((id.as_str(), stale.as_slice()))
            })
            .collect()
    }

    /// The stale files of a package, when it has any.
    pub fn stale_files(&self, p: &Package) -> Option<&[crate::ops::packages::stale::Stale]> {
        self.stale.get(p.id()).map(Vec::as_slice)
    }

    /// Whether `p` has a section of its own in the Markdown (a checkpoint, or a lesson listed
    /// under Lessons), so the activity by day leaves it out.
    pub fn shown_apart(&self, p: &StoredPackage) -> bool {
        match p.package.package_type() {
            relay_wire::memory::CHECKPOINT => true,
            relay_wire::memory::LESSON => self
                .lessons
                .iter()
                .any(|l| l.package.id() == p.package.id()),
            _ => false,
        }
    }

    /// The newest package with a handoff note.
    pub fn latest_handoff(&self) -> Option<&StoredPackage> {
        self.recent.iter().find(|p| {
            p.package
                .str_field("handoff_note")
                .is_some_and(|h| !h.trim().is_empty())
        })
    }
}
