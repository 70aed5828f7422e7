//! Integrity (`relay verify [--fix]`): every line of every log is read and checked: JSON,
//! schema, hashes, ids, transitions, fact chains, sessions, torn lines, git conflict markers,
//! and where each file sits. `--fix` repairs only what is safe and never deletes data
//! silently: it truncates a torn last line, appends the closing versions that make the stored
//! fact chains equal the effective ones that reads follow after a merge, and moves lines that fail their hash (or that a crash left
//! unfinished) into `quarantine.ndjson` with a record of why.

mod indexes;
mod lines;
mod placement;
mod records;
mod sessions;
mod signed;
mod stripped;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::ops::packages::review::Action;
use lines::{Line, each_raw_line, line_object, lines};
use relay_store::packages::{StoredPackage, checked_first_version};
use relay_store::records::Versioned;
use relay_store::{Store, ndjson};
use relay_wire::error::{Error, Result};
use relay_wire::{Fact, Project, Status, time};

/// How much a problem matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The store is damaged: `verify` fails.
    Error,
    /// Worth knowing, but every read already answers soundly (a merge fork that reads resolve,
    /// a time that is not UTC): `verify` still succeeds.
    Note,
}

/// One problem found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Problem {
    /// The file, relative to the store.
    pub file: String,
    /// 1-based; 0 when the problem is the whole file's (written as `null` in JSON).
    #[serde(serialize_with = "line_or_null")]
    pub line: u64,
    pub kind: &'static str,
    pub message: String,
    pub severity: Severity,
}

fn line_or_null<S: serde::Serializer>(line: &u64, s: S) -> std::result::Result<S::Ok, S::Error> {
    match line {
        0 => s.serialize_none(),
        n => s.serialize_u64(*n),
    }
}

impl Problem {
    /// Where it is: `file:line`, or the file alone.
    pub fn location(&self) -> String {
        match self.line {
            0 => self.file.clone(),
            n => format!("{}:{n}", self.file),
        }
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// The number of the line at `offset` of `path` (0 if it cannot be read).
fn line_of(path: &Path, offset: u64) -> u64 {
    ndjson::read_whole(path)
        .ok()
        .flatten()
        .map(|b| {
            let head = b.get(..offset as usize).unwrap_or(&b);
            head.iter().filter(|&&c| c == b'\n').count() as u64 + 1
        })
        .unwrap_or(0)
}

/// The note for the times of one record that are not in UTC (`…Z`), if any: relay writes
/// UTC, and keeps an imported time as it came because the package hash covers it.
pub(crate) fn non_utc_note<'a>(
    times: impl IntoIterator<Item = (&'a str, Option<&'a str>)>,
) -> Option<String> {
    let off: Vec<String> = times
        .into_iter()
        .filter_map(|(name, t)| {
            t.filter(|t| !t.ends_with('Z'))
                .map(|t| format!("{name} {t}"))
        })
        .collect();
    (!off.is_empty()).then(|| {
        format!(
            "{} not in UTC (RFC 3339 with Z); reads compare it correctly, and relay keeps it as \
             written because the record's hash may cover it",
            off.join(", ") + if off.len() == 1 { " is" } else { " are" }
        )
    })
}

/// What `verify` found, and what `--fix` did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Report {
    pub problems: Vec<Problem>,
    pub fixed: Vec<String>,
}

impl Report {
    /// How many of the problems are errors (the rest are notes).
    pub fn errors(&self) -> usize {
        self.problems.iter().filter(|p| p.is_error()).count()
    }
}

struct Checker<'a> {
    store: &'a Store,
    report: Report,
    /// Each project's package logs, and one first version per id key of each project (key,
    /// project, log, offset): what the check for ids held by two projects reads.
    logs: Vec<(String, Vec<PathBuf>)>,
    firsts: Vec<(u64, u32, u32, u64)>,
    /// A store of one project needs no such check, nor the memory it takes.
    single_project: bool,
}

/// `path` as a problem names it: relative to the store.
fn relative(store: &Store, path: &Path) -> String {
    path.strip_prefix(store.root())
        .unwrap_or(path)
        .display()
        .to_string()
}

impl Checker<'_> {
    fn note(&mut self, path: &Path, line: u64, kind: &'static str, message: String) {
        self.report.problems.push(Problem {
            file: relative(self.store, path),
            line,
            kind,
            message,
            severity: Severity::Note,
        });
    }

    fn problem(&mut self, path: &Path, line: u64, kind: &'static str, message: impl Into<String>) {
        self.report.problems.push(Problem {
            file: relative(self.store, path),
            line,
            kind,
            message: message.into(),
            severity: Severity::Error,
        });
    }

    /// Checks the shape of every line; returns the parsed objects with their line numbers.
    fn objects(&mut self, path: &Path) -> Result<Vec<(u64, Map<String, Value>)>> {
        let mut out = Vec::new();
        for l in lines(path)? {
            match line_object(&l.text, l.complete) {
                Ok(Some(m)) => out.push((l.number, m)),
                Ok(None) => {}
                Err((kind, message)) => self.problem(path, l.number, kind, message),
            }
        }
        Ok(out)
    }

    fn records<T: Versioned>(&mut self, path: &Path) -> Result<Vec<(u64, T)>> {
        let mut out = Vec::new();
        for (n, m) in self.objects(path)? {
            match T::parse(m) {
                Ok(r) => out.push((n, r)),
                Err(e) => self.problem(
                    path,
                    n,
                    "invalid_record",
                    format!("not a valid {}: {e}", T::WHAT),
                ),
            }
        }
        Ok(out)
    }

    /// A project's logs, checked on a few threads that each take the next log not yet taken,
    /// biggest first (so the fact log overlaps the package logs instead of running alone),
    /// and reported in a fixed order: the package logs, then the ids deposited more than once
    /// with different content, the facts, the sessions. Returns the facts a merge left forked.
    fn project(&mut self, project: &str) -> Result<bool> {
        let store = self.store;
        let logs = store.package_logs(project)?;
        let facts = store.facts_log(project);
        let sessions = store.sessions_log(project);
        let retractions = store.retractions_log(project);
        let mut jobs: Vec<Job> = (0..logs.len()).map(Job::Packages).collect();
        jobs.extend([Job::Facts, Job::Sessions, Job::Retractions]);
        jobs.sort_by_cached_key(|job| {
            let path = match job {
                Job::Packages(i) => &logs[*i],
                Job::Facts => &facts,
                Job::Sessions => &sessions,
                Job::Retractions => &retractions,
            };
            std::cmp::Reverse(std::fs::metadata(path).map_or(0, |m| m.len()))
        });
        let done = in_parallel(&jobs, |job| {
            Ok(match job {
                Job::Packages(i) => {
                    Done::Packages(*i, check_package_log(store, project, &logs[*i])?)
                }
                Job::Facts => Done::Facts(records::check_facts(store, &facts)?),
                Job::Sessions => Done::Sessions(records::check_sessions(store, &sessions)?),
                Job::Retractions => {
                    Done::Retractions(records::check_retractions(store, &retractions)?)
                }
            })
        })?;
        let mut checked: Vec<Option<LogCheck>> = logs.iter().map(|_| None).collect();
        let (mut fact_check, mut session_problems) = (None, Vec::new());
        let mut retraction_problems = Vec::new();
        for d in done {
            match d {
                Done::Packages(i, c) => checked[i] = Some(c),
                Done::Facts(c) => fact_check = Some(c),
                Done::Sessions(p) => session_problems = p,
                Done::Retractions(p) => retraction_problems = p,
            }
        }
        let mut firsts = Vec::with_capacity(logs.len());
        for c in checked.into_iter().flatten() {
            self.report.problems.extend(c.problems);
            firsts.push(c.firsts);
        }
        self.duplicates(&logs, &firsts);
        if self.single_project {
            firsts.clear();
        }
        let at = self.logs.len() as u32;
        let mut mine: Vec<(u64, u32, u32, u64)> = (firsts.iter().enumerate())
            .flat_map(|(i, f)| f.iter().map(move |f| (f.key, at, i as u32, f.offset)))
            .collect();
        mine.sort_unstable();
        mine.dedup_by_key(|f| f.0);
        self.firsts.extend(mine);
        self.logs.push((project.to_string(), logs));
        let (fact_problems, chain_differs) = fact_check.unwrap_or_default();
        self.report.problems.extend(fact_problems);
        self.report.problems.extend(session_problems);
        self.report.problems.extend(retraction_problems);
        let signatures = store.signatures_log(project);
        for (n, m) in self.objects(&signatures)? {
            if let Err(e) = relay_wire::signature::Signature::from_line(Value::Object(m)) {
                self.problem(&signatures, n, "invalid_signature", e);
            }
        }
        Ok(chain_differs)
    }

    /// Ids that two projects hold (§6.1 wants them unique in the store; an older relay or
    /// merged clones may have written them): a note at the copy `pull ID` does not answer
    /// with, since it answers from the project whose id sorts first.
    fn ids_in_two_projects(&mut self) {
        let mut firsts = std::mem::take(&mut self.firsts);
        firsts.sort_unstable();
        let mut found: BTreeMap<String, Vec<(u32, u32, u64)>> = BTreeMap::new();
        for run in firsts.chunk_by(|a, b| a.0 == b.0).filter(|r| r.len() > 1) {
            for &(_, project, log, offset) in run {
                let path = &self.logs[project as usize].1[log as usize];
                if let Some(id) = self.store.package_id_at(path, offset) {
                    found.entry(id).or_default().push((project, log, offset));
                }
            }
        }
        for (id, mut copies) in found.into_iter().filter(|(_, c)| c.len() > 1) {
            copies.sort_by(|a, b| self.logs[a.0 as usize].0.cmp(&self.logs[b.0 as usize].0));
            let names: Vec<String> = (copies.iter())
                .map(|c| format!("`{}`", self.logs[c.0 as usize].0))
                .collect();
            let answered = names[0].clone();
            for &(project, log, offset) in &copies[1..] {
                let path = self.logs[project as usize].1[log as usize].clone();
                self.note(
                    &path,
                    line_of(&path, offset),
                    "duplicate_package_id",
                    format!(
                        "package id {id} is stored in projects {}; ids are unique in a store \
                         (§6.1), and `relay pull {id}` answers from {answered}",
                        names.join(" and ")
                    ),
                );
            }
        }
    }

    /// The ids deposited more than once with different content. `firsts[i]` holds the first
    /// versions of log `i` by id key; merged across logs, a key met with more than one hash
    /// is read back to tell a real duplicate from two ids that share a key.
    fn duplicates(&mut self, logs: &[PathBuf], firsts: &[Vec<FirstVersion>]) {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        // A k-way merge: the entries of each key come out in log order, then line order.
        let mut heads: BinaryHeap<Reverse<(u64, usize, usize)>> = firsts
            .iter()
            .enumerate()
            .filter_map(|(file, f)| f.first().map(|f| Reverse((f.key, file, 0))))
            .collect();
        // Per suspect key, the first version of each distinct content, in log order.
        let mut suspects: Vec<Vec<(usize, FirstVersion)>> = Vec::new();
        let mut distinct: Vec<(usize, FirstVersion)> = Vec::new();
        while let Some(Reverse((key, file, i))) = heads.pop() {
            if let Some(next) = firsts[file].get(i + 1) {
                heads.push(Reverse((next.key, file, i + 1)));
            }
            let f = firsts[file][i];
            if distinct.first().is_some_and(|(_, d)| d.key != key) {
                if distinct.len() > 1 {
                    suspects.push(std::mem::take(&mut distinct));
                }
                distinct.clear();
            }
            if !distinct.iter().any(|(_, d)| d.hash == f.hash) {
                distinct.push((file, f));
            }
        }
        if distinct.len() > 1 {
            suspects.push(distinct);
        }
        suspects.sort_by_key(|l| (l[0].0, l[0].1.offset));
        for list in suspects {
            let mut by_id: BTreeMap<String, Vec<&(usize, FirstVersion)>> = BTreeMap::new();
            for f in &list {
                if let Some(id) = self.store.package_id_at(&logs[f.0], f.1.offset) {
                    by_id.entry(id).or_default().push(f);
                }
            }
            for (id, same) in by_id.into_iter().filter(|(_, v)| v.len() > 1) {
                let (file, first) = same[0];
                let log = &logs[*file];
                let line = line_of(log, first.offset);
                self.problem(
                    log,
                    line,
                    "duplicate_id",
                    format!(
                        "package id {id} was deposited {} times with different content",
                        same.len()
                    ),
                );
            }
        }
    }
}

/// One unit of a project's checks, run on whichever worker takes it.
enum Job {
    /// The package log at this index of the project's logs.
    Packages(usize),
    Facts,
    Sessions,
    Retractions,
}

/// What a [`Job`] found.
enum Done {
    Packages(usize, LogCheck),
    /// The fact log's problems, and whether a stored chain differs from its effective one.
    Facts((Vec<Problem>, bool)),
    Sessions(Vec<Problem>),
    Retractions(Vec<Problem>),
}

/// Runs `work` on every job on a few threads, each taking the next job not yet taken; the
/// results come back in job order, or the first error in job order.
fn in_parallel<J: Sync, R: Send>(
    jobs: &[J],
    work: impl Fn(&J) -> Result<R> + Sync,
) -> Result<Vec<R>> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    // At least two, as verify always ran; at most four, each holding a line buffer.
    let workers = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(2, 4)
        .min(jobs.len());
    let next = AtomicUsize::new(0);
    let mut results: Vec<Option<Result<R>>> = jobs.iter().map(|_| None).collect();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(job) = jobs.get(i) else {
                            return mine;
                        };
                        mine.push((i, work(job)));
                    }
                })
            })
            .collect();
        // A worker that panicked leaves its jobs without a result, reported below.
        for (i, result) in handles.into_iter().filter_map(|h| h.join().ok()).flatten() {
            results[i] = Some(result);
        }
    });
    results
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err(Error::Integrity("a verify thread failed".into()))))
        .collect()
}

/// A first version of a package, as the duplicate-id check needs it.
#[derive(Clone, Copy)]
struct FirstVersion {
    /// The key of its id.
    key: u64,
    /// The first 64 bits of its content hash.
    hash: u64,
    offset: u64,
}

/// What checking one package log found.
struct LogCheck {
    problems: Vec<Problem>,
    /// Each first version, by key and then offset.
    firsts: Vec<FirstVersion>,
}

/// Checks one package log line by line, holding one line at a time: shape, schema, hash,
/// project and month, and each later version's transition.
fn check_package_log(store: &Store, project: &str, path: &Path) -> Result<LogCheck> {
    let mut out = LogCheck {
        problems: Vec::new(),
        firsts: Vec::new(),
    };
    let rel = relative(store, path);
    let mut notes = Vec::new();
    let mut note = |line: u64, kind: &'static str, message: Option<String>| {
        if let Some(message) = message {
            notes.push(Problem {
                file: rel.clone(),
                line,
                kind,
                message,
                severity: Severity::Note,
            });
        }
    };
    let mut problem = |line: u64, kind: &'static str, message: String| {
        out.problems.push(Problem {
            file: rel.clone(),
            line,
            kind,
            message,
            severity: Severity::Error,
        })
    };
    let month = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default()
        .to_string();
    // A package in another project's folder, or in another month's log.
    let misplacement = |id: &str, project_id: &str, created: time::Timestamp| {
        let mut found = Vec::new();
        if project_id != project {
            found.push(format!("package {id} belongs to project `{project_id}`"));
        }
        let created = time::month_key(created);
        if created != month {
            found.push(format!(
                "package {id} was created in {created}, not {month}"
            ));
        }
        found
    };
    each_raw_line(path, |number, at, text, complete| {
        // Most lines are first versions as relay writes them: those are read from a borrowing
        // tree, and only the others are parsed into a `Package`.
        if complete && let Some(first) = checked_first_version(text) {
            let field = |k: &str| first.package.str_member(k).unwrap_or_default();
            let created = first.package.time_member("created_at").unwrap_or_default();
            for message in misplacement(field("package_id"), field("project_id"), created) {
                problem(number, "misplaced", message);
            }
            if relay_wire::memory::Kind::of_type(field("package_type")).is_some()
                && let Some(message) = memory_problem(first.text)
            {
                problem(number, "invalid_record", message);
            }
            let time = first.package.str_member("created_at");
            note(number, "non_utc_time", non_utc_note([("created_at", time)]));
            out.firsts.push(FirstVersion {
                key: relay_store::index::id_key(field("package_id")),
                hash: relay_store::index::hash_prefix(first.hash),
                offset: at,
            });
            return Ok(());
        }
        let env = match line_object(text, complete) {
            Ok(None) => return Ok(()),
            Ok(Some(env)) => env,
            Err((kind, message)) => {
                problem(number, kind, message);
                return Ok(());
            }
        };
        let p = match StoredPackage::from_envelope(env, path, number) {
            Ok(p) => p,
            Err((kind, message)) => {
                problem(number, kind.as_str(), message);
                return Ok(());
            }
        };
        let (id, created) = (p.package.id(), p.package.created_at());
        for message in misplacement(id, p.package.project_id(), created) {
            problem(number, "misplaced", message);
        }
        if let Err(message) = relay_wire::memory::check_members(p.package.as_map()) {
            problem(number, "invalid_record", format!("package {id}: {message}"));
        }
        let time = Some(p.package.created_at_str());
        note(number, "non_utc_time", non_utc_note([("created_at", time)]));
        if p.version == 1 {
            out.firsts.push(FirstVersion {
                key: relay_store::index::id_key(id),
                hash: relay_store::index::hash_prefix(&p.hash),
                offset: at,
            });
        } else if let Some((by_import, message)) = illegal_transition(&p) {
            if by_import {
                // relay 0.1.0 imported any later review state; reads keep the version order.
                note(number, "imported_transition", Some(message));
            } else {
                problem(number, "invalid_transition", message);
            }
        }
        Ok(())
    })?;
    out.firsts.sort_unstable_by_key(|f| (f.key, f.offset));
    out.problems.extend(notes);
    Ok(out)
}

/// What is wrong with the agent-memory members of a package's JSON text, if anything.
fn memory_problem(package_text: &str) -> Option<String> {
    let map: serde_json::Map<String, Value> = serde_json::from_str(package_text).ok()?;
    let id = map
        .get("package_id")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let message = relay_wire::memory::check_members(&map).err()?;
    Some(format!("package {id}: {message}"))
}

/// Why a later version's transition is not one §5.3 allows, if it is not, and whether an
/// import recorded it.
fn illegal_transition(p: &StoredPackage) -> Option<(bool, String)> {
    let t = p.transition.as_ref();
    let field = |k: &str| t.and_then(|t| t.get(k)).and_then(Value::as_str);
    let action = match field("action") {
        Some("flag") => Some(Action::Flag {
            reviewer: crate::ops::packages::review::Reviewer::Human,
        }),
        Some("approve") => Some(Action::Approve),
        Some("request_changes") => Some(Action::RequestChanges),
        _ => None,
    };
    let from = field("from").and_then(Status::parse);
    // An import brings a later review state from a backup, one step of §5.3 at a time.
    let by_import = field("action") == Some("import");
    // AMP's store under a stored id replaces a memory record's content, not its status.
    let by_update = field("action") == Some(relay_wire::memory::UPDATE_ACTION)
        && relay_wire::memory::Kind::of_type(p.package.package_type()).is_some();
    let legal = if by_import {
        from.is_some_and(|f| f.may_become(p.package.status()))
    } else if by_update {
        from == Some(p.package.status())
    } else {
        matches!((action, from), (Some(a), Some(f)) if a.target(f) == Some(p.package.status()))
    };
    (!legal).then(|| {
        let message = format!(
            "version {} of {} records an illegal transition ({} from {} to {})",
            p.version,
            p.package.id(),
            field("action").unwrap_or("?"),
            field("from").unwrap_or("?"),
            p.package.status().as_str()
        );
        // relay 0.1.0 imported any later state but from `complete`: a note, not damage.
        (by_import && from != Some(Status::Complete), message)
    })
}

pub const QUARANTINE: &str = "quarantine.ndjson";

/// Whether a line, read under its writers' lock, is to be moved to quarantine, and why: an
/// unfinished last line, a line a later append sealed, or a package line failing its hash.
fn removable(
    l: &Line,
    last: bool,
    package_log: bool,
    path: &Path,
) -> Option<(&'static str, String)> {
    if !l.complete && last {
        return Some(("torn_line", "the last line was cut off by a crash".into()));
    }
    if l.text.ends_with(ndjson::TORN_MARK) {
        return Some((
            "torn_line",
            "a write cut off by a crash, sealed by a later append".into(),
        ));
    }
    if package_log
        && let Ok(Value::Object(env)) = serde_json::from_slice::<Value>(&l.text)
        && let Err((relay_store::WarningKind::HashMismatch, message)) =
            StoredPackage::from_envelope(env, path, l.number)
    {
        return Some(("hash_mismatch", message));
    }
    None
}

/// Checks the whole store. Returns the report, and the projects whose stored fact chains
/// differ from their effective ones.
pub fn verify(store: &Store) -> Result<(Report, Vec<String>)> {
    let mut c = Checker {
        store,
        report: Report::default(),
        logs: Vec::new(),
        firsts: Vec::new(),
        single_project: false,
    };
    let projects_file = store.projects_log();
    for (line, p) in c.records::<Project>(&projects_file)? {
        let times = ["created_at", "updated_at", "archived_at"].map(|k| (k, p.str_field(k)));
        if let Some(message) = non_utc_note(times) {
            c.note(&projects_file, line, "non_utc_time", message);
        }
    }
    let mut forked = Vec::new();
    let projects = crate::ops::projects::list(store)?;
    c.single_project = projects.len() < 2;
    for p in projects {
        if c.project(p.id())? {
            forked.push(p.id().to_string());
        }
    }
    c.ids_in_two_projects();
    c.indexes()?;
    c.layout();
    c.allowed_signers();
    c.unmerged();
    c.signatures()?;
    let _ = store.diagnostics().take();
    Ok((c.report, forked))
}

/// Appends, under the project's lock, the versions that close every fact of `project` at
/// its effective end, so that the stored chains equal the ones reads follow. Returns what it
/// did, a line per key.
fn close_merged_chains(store: &Store, project: &str) -> Result<Vec<String>> {
    let _lock = store.lock_project(project)?;
    let mut by_key: BTreeMap<(String, String), Vec<Fact>> = BTreeMap::new();
    for f in store.facts(project)?.into_values() {
        let key = (f.subject().to_string(), f.predicate().to_string());
        by_key.entry(key).or_default().push(f);
    }
    let (mut closing, mut done) = (Vec::new(), Vec::new());
    for ((s, p), facts) in by_key {
        let chain = relay_store::fact_chain::effective_chain(facts)?;
        let before = closing.len();
        closing.extend(chain.into_iter().filter(|l| l.differs()).map(|l| l.fact));
        if closing.len() > before {
            done.push(format!(
                "closed {} of ({s}, {p}) in project {project} where a merge left them open or \
                 overlapping",
                relay_wire::text::count(closing.len() - before, "fact")
            ));
        }
    }
    if !closing.is_empty() {
        store.append_facts(project, &closing.iter().collect::<Vec<_>>(), None)?;
    }
    Ok(done)
}

/// Checks, repairs what is safe, and checks again. Returns the report of the second check
/// (what is left) with the repairs made.
pub fn fix(store: &Store) -> Result<Report> {
    let (first, forked) = verify(store)?;
    let mut fixed = indexes::rebuild(store)?;
    for project in forked {
        fixed.extend(close_merged_chains(store, &project)?);
    }
    // Lines to take out of their logs: torn, sealed, or failing their hash.
    let mut by_file: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    for p in &first.problems {
        if matches!(p.kind, "torn_line" | "hash_mismatch") && p.line > 0 {
            by_file.insert(p.file.clone());
        }
    }
    for file in by_file {
        let path = store.root().join(&file);
        // The lock of whoever appends to this file.
        let _lock = store.lock_for_file(&file)?;
        // Judge every line again now that writers are held off: a line that looked torn
        // may have been a write still in progress.
        let all = lines(&path)?;
        let is_package_log = relay_store::format::is_package_log(Path::new(&file));
        let mut keep = Vec::new();
        let mut quarantined = Vec::new();
        for l in &all {
            let reason = removable(l, l.number == all.len() as u64, is_package_log, &path);
            match reason {
                Some((kind, message)) => quarantined.push(json!({"reason": kind, "file": file, "line": l.number,
                    "content": String::from_utf8_lossy(&l.text), "message": message, "at": time::format(time::now())})),
                None => {
                    keep.extend_from_slice(&l.text);
                    if l.complete {
                        keep.push(b'\n');
                    }
                }
            }
        }
        if quarantined.is_empty() {
            continue;
        }
        let mut q = Vec::new();
        for v in &quarantined {
            q.extend(ndjson::to_line(v)?);
        }
        store.append(&store.root().join(QUARANTINE), &q)?;
        ndjson::write_atomic(&path, &keep)?;
        fixed.push(format!(
            "moved {} of {file} to {QUARANTINE}",
            relay_wire::text::count(quarantined.len(), "line")
        ));
    }
    let (mut report, _) = verify(store)?;
    report.fixed = fixed;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_merge_fork_is_a_note_that_fix_records() {
        let (_dir, store) = crate::ops::packages::deposit::test_support::forked_store();
        let (report, forked) = verify(&store).unwrap();
        assert_eq!(forked, ["demo"]);
        assert_eq!(report.errors(), 0);
        let kinds: Vec<(&str, u64, Severity)> = (report.problems.iter())
            .map(|p| (p.kind, p.line, p.severity))
            .collect();
        assert_eq!(kinds, [("fact_fork", 1, Severity::Note)]);
        let fixed = fix(&store).unwrap();
        assert!(fixed.problems.is_empty(), "{:?}", fixed.problems);
        assert_eq!(fixed.fixed.len(), 1);
        assert_eq!(verify(&store).unwrap().1, Vec::<String>::new());
    }

    #[test]
    fn times_without_z_are_named_in_one_note() {
        assert_eq!(
            non_utc_note([("created_at", Some("2026-01-01T00:00:00Z"))]),
            None
        );
        assert_eq!(non_utc_note([("valid_to", None)]), None);
        let note = non_utc_note([
            ("valid_from", Some("2026-01-01T02:00:00+02:00")),
            ("created_at", Some("2026-01-01T00:00:00Z")),
            ("valid_to", Some("2026-01-02T00:00:00-05:00")),
        ])
        .unwrap();
        assert!(
            note.starts_with(
                "valid_from 2026-01-01T02:00:00+02:00, valid_to 2026-01-02T00:00:00-05:00 are \
                 not in UTC"
            ),
            "{note}"
        );
    }

    #[test]
    fn line_of_counts_the_lines_before_an_offset() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log");
        std::fs::write(&path, "a\nbb\nccc\n").unwrap();
        assert_eq!([0, 2, 5].map(|offset| line_of(&path, offset)), [1, 2, 3]);
        assert_eq!(line_of(&dir.path().join("missing"), 0), 0);
    }
}
