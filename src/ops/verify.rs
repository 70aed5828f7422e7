//! Integrity (`relay verify [--fix]`): every line of every log is read and checked: JSON,
//! schema, hashes, ids, transitions, fact chains, sessions, torn lines, git conflict markers,
//! and where each file sits. `--fix` repairs only what is safe and never deletes data
//! silently: it truncates a torn last line, appends the closing versions that make a merge
//! fork of facts explicit, and moves lines that fail their hash (or that a crash left
//! unfinished) into `quarantine.ndjson` with a record of why.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::review::Action;
use crate::error::{Error, Result};
use crate::store::packages::StoredPackage;
use crate::store::records::Versioned;
use crate::store::{Store, layout, log};
use crate::wire::{Fact, Project, Session, Status, time};

/// One problem found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Problem {
    /// The file, relative to the store.
    pub file: String,
    /// 1-based; 0 when the problem is the file's, not a line's.
    pub line: u64,
    pub kind: &'static str,
    pub message: String,
}

/// What `verify` found, and what `--fix` did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Report {
    pub problems: Vec<Problem>,
    pub fixed: Vec<String>,
}

/// One line of a log, as read.
struct Line {
    number: u64,
    text: Vec<u8>,
    complete: bool,
}

fn lines(path: &Path) -> Result<Vec<Line>> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io(format!("cannot read {}", path.display()), e)),
    };
    let mut out = Vec::new();
    let mut start = 0;
    let mut number = 0;
    while start < bytes.len() {
        number += 1;
        let end = bytes[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map(|i| start + i);
        let (text, complete, next) = match end {
            Some(e) => (bytes[start..e].to_vec(), true, e + 1),
            None => (bytes[start..].to_vec(), false, bytes.len()),
        };
        out.push(Line {
            number,
            text,
            complete,
        });
        start = next;
    }
    Ok(out)
}

struct Checker<'a> {
    store: &'a Store,
    report: Report,
}

impl Checker<'_> {
    fn rel(&self, path: &Path) -> String {
        path.strip_prefix(self.store.root())
            .unwrap_or(path)
            .display()
            .to_string()
    }

    fn problem(&mut self, path: &Path, line: u64, kind: &'static str, message: impl Into<String>) {
        let file = self.rel(path);
        self.report.problems.push(Problem {
            file,
            line,
            kind,
            message: message.into(),
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

    /// Every package log of a project, two at a time on two threads, streamed line by line;
    /// then the ids deposited more than once with different content.
    fn packages(&mut self, project: &str) -> Result<()> {
        let logs = self.store.package_logs(project)?;
        // The first version seen of each id key; keys met again with other content gather
        // every distinct first version in `differing` (rare), to be told apart below.
        let mut firsts: HashMap<u64, FirstVersion> = HashMap::new();
        let mut differing: HashMap<u64, Vec<FirstVersion>> = HashMap::new();
        for (file, pair) in logs.chunks(2).enumerate() {
            let results: Vec<Result<LogCheck>> = std::thread::scope(|scope| {
                let handles: Vec<_> = pair
                    .iter()
                    .map(|path| scope.spawn(|| check_package_log(self.store, project, path)))
                    .collect();
                handles
                    .into_iter()
                    .map(|h| {
                        h.join().unwrap_or_else(|_| {
                            Err(Error::Integrity("a verify thread failed".into()))
                        })
                    })
                    .collect()
            });
            for (i, result) in results.into_iter().enumerate() {
                let checked = result?;
                self.report.problems.extend(checked.problems);
                for (key, mut f) in checked.firsts {
                    f.file = (file * 2 + i) as u32;
                    match firsts.get(&key) {
                        None => {
                            firsts.insert(key, f);
                        }
                        Some(first) if first.hash == f.hash => {}
                        Some(first) => {
                            let list = differing.entry(key).or_insert_with(|| vec![*first]);
                            if !list.iter().any(|x| x.hash == f.hash) {
                                list.push(f);
                            }
                        }
                    }
                }
            }
        }
        // Ids whose first versions differ: read back to tell a real duplicate from two ids
        // that share a key.
        drop(firsts);
        let mut suspects: Vec<Vec<FirstVersion>> = differing.into_values().collect();
        suspects.sort_by_key(|l| (l[0].file, l[0].offset));
        for list in suspects {
            let mut by_id: BTreeMap<String, Vec<&FirstVersion>> = BTreeMap::new();
            for f in &list {
                if let Some(id) = self.store.package_id_at(&logs[f.file as usize], f.offset) {
                    by_id.entry(id).or_default().push(f);
                }
            }
            for (id, same) in by_id.into_iter().filter(|(_, v)| v.len() > 1) {
                let first = same[0];
                let log = &logs[first.file as usize];
                let line = std::fs::read(log)
                    .map(|b| {
                        let head = b.get(..first.offset as usize).unwrap_or(&b);
                        head.iter().filter(|&&c| c == b'\n').count() as u64 + 1
                    })
                    .unwrap_or(0);
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
        Ok(())
    }

    /// A project's facts, streamed: per fact id a compact slot for its current version, then
    /// per key the chain checked for forks and overlaps. Forked facts are read back in full
    /// for `--fix` to close.
    fn facts(&mut self, project: &str) -> Result<Vec<Fact>> {
        let path = self.store.layout().facts_file(project);
        let mut keys: Vec<(String, String)> = Vec::new();
        let mut key_of: HashMap<(String, String), u32> = HashMap::new();
        let mut slots: HashMap<String, FactSlot> = HashMap::new();
        let mut problems = Vec::new();
        each_line(&path, |number, at, object| {
            let map = match object {
                Ok(m) => m,
                Err((kind, message)) => {
                    problems.push((number, kind, message));
                    return Ok(());
                }
            };
            let f = match Fact::parse(map) {
                Ok(f) => f,
                Err(e) => {
                    problems.push((number, "invalid_record", format!("not a valid fact: {e}")));
                    return Ok(());
                }
            };
            // The version order of the fact log: closed beats open, the earlier end wins;
            // only a tie needs the current version read back.
            let newer = match slots.get(f.id()) {
                None => true,
                Some(cur) => match (f.valid_to(), cur.valid_to) {
                    (Some(_), None) => true,
                    (None, Some(_)) => false,
                    (Some(a), Some(b)) if a != b => a < b,
                    _ => match fact_at(&path, cur.offset)? {
                        Some(c) => f.version_order(&c) == std::cmp::Ordering::Greater,
                        None => true,
                    },
                },
            };
            if newer {
                let pair = (f.subject().to_string(), f.predicate().to_string());
                let key = *key_of.entry(pair.clone()).or_insert_with(|| {
                    keys.push(pair);
                    (keys.len() - 1) as u32
                });
                slots.insert(
                    f.id().to_string(),
                    FactSlot {
                        key,
                        valid_from: f.valid_from(),
                        valid_to: f.valid_to(),
                        created_at: f.created_at(),
                        offset: at,
                    },
                );
            }
            Ok(())
        })?;
        for (number, kind, message) in problems {
            self.problem(&path, number, kind, message);
        }
        drop(key_of);
        let mut chains: Vec<(&String, &FactSlot)> = slots.iter().collect();
        chains.sort_by(|a, b| {
            let (ka, kb) = (&keys[a.1.key as usize], &keys[b.1.key as usize]);
            (ka, a.1.valid_from, a.1.created_at, a.0).cmp(&(
                kb,
                b.1.valid_from,
                b.1.created_at,
                b.0,
            ))
        });
        let mut losers = Vec::new();
        for chain in chains.chunk_by(|a, b| a.1.key == b.1.key) {
            let (s, p) = &keys[chain[0].1.key as usize];
            let open: Vec<&FactSlot> = chain
                .iter()
                .map(|(_, f)| *f)
                .filter(|f| f.valid_to.is_none())
                .collect();
            if open.len() > 1 {
                self.problem(&path, 0, "fact_fork", format!("{} facts are current for ({s}, {p}); the newest wins, the others should be closed", open.len()));
                for slot in &open[..open.len() - 1] {
                    losers.extend(fact_at(&path, slot.offset)?);
                }
            }
            for pair in chain.windows(2) {
                if let Some(end) = pair[0].1.valid_to
                    && end > pair[1].1.valid_from
                {
                    self.problem(
                        &path,
                        0,
                        "fact_overlap",
                        format!(
                            "facts {} and {} of ({s}, {p}) overlap in time",
                            pair[0].0, pair[1].0
                        ),
                    );
                }
            }
        }
        Ok(losers)
    }

    fn sessions(&mut self, project: &str) -> Result<()> {
        let path = self.store.layout().sessions_file(project);
        let mut current: BTreeMap<String, Session> = BTreeMap::new();
        for (_, s) in self.records::<Session>(&path)? {
            match current.get(s.id()) {
                Some(c) if s.version_order(c) != std::cmp::Ordering::Greater => {}
                _ => {
                    current.insert(s.id().to_string(), s);
                }
            }
        }
        let mut open_callsigns: HashMap<String, usize> = HashMap::new();
        for s in current.values() {
            let started = s.str_field("started_at").and_then(|t| time::parse(t).ok());
            let ended = s.str_field("ended_at").and_then(|t| time::parse(t).ok());
            if let (Some(a), Some(b)) = (started, ended)
                && b < a
            {
                self.problem(
                    &path,
                    0,
                    "session_inconsistent",
                    format!("session {} ends before it starts", s.id()),
                );
            }
            if s.is_active()
                && let Some(c) = s.callsign()
            {
                *open_callsigns.entry(c.to_string()).or_default() += 1;
            }
        }
        for (c, n) in open_callsigns.into_iter().filter(|(_, n)| *n > 1) {
            self.problem(
                &path,
                0,
                "session_inconsistent",
                format!("{n} open sessions share the callsign {c}"),
            );
        }
        Ok(())
    }

    /// Files that have no place in the layout.
    fn layout(&mut self) {
        let root = self.store.root().to_path_buf();
        for entry in walkdir::WalkDir::new(&root)
            .min_depth(1)
            .into_iter()
            .filter_map(|e| e.ok())
        {
            let rel = entry
                .path()
                .strip_prefix(&root)
                .unwrap_or(entry.path())
                .to_path_buf();
            let parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            let is_dir = entry.file_type().is_dir();
            let ok = match parts
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>()
                .as_slice()
            {
                [layout::CACHE_DIR, ..] | [layout::LOCAL_DIR, ..] => true,
                [f] if !is_dir => matches!(
                    *f,
                    layout::CONFIG_FILE
                        | layout::PROJECTS_FILE
                        | ".gitignore"
                        | ".gitattributes"
                        | QUARANTINE
                ),
                [layout::PROJECTS_DIR] => true,
                [layout::PROJECTS_DIR, d] => {
                    is_dir && (layout::decode_project_dir(d).is_some() || d.contains('~'))
                }
                [layout::PROJECTS_DIR, _, f] => {
                    (is_dir && *f == layout::PACKAGES_DIR)
                        || (!is_dir && matches!(*f, layout::FACTS_FILE | layout::SESSIONS_FILE))
                }
                [layout::PROJECTS_DIR, _, layout::PACKAGES_DIR, f] => {
                    !is_dir && layout::is_package_log_name(f)
                }
                _ => false,
            };
            if !ok {
                self.problem(
                    entry.path(),
                    0,
                    "unexpected_file",
                    "this file has no place in the store layout",
                );
            }
        }
    }
}

/// What the fact checks keep of a fact's current version.
struct FactSlot {
    key: u32,
    valid_from: time::Timestamp,
    valid_to: Option<time::Timestamp>,
    created_at: time::Timestamp,
    offset: u64,
}

/// The fact on the line at `offset`, if it reads.
fn fact_at(path: &Path, offset: u64) -> Result<Option<Fact>> {
    use std::io::{BufRead, Seek, SeekFrom};
    let io = |e| Error::io(format!("cannot read {}", path.display()), e);
    let mut file = std::fs::File::open(path).map_err(io)?;
    file.seek(SeekFrom::Start(offset)).map_err(io)?;
    let mut line = Vec::new();
    std::io::BufReader::new(file)
        .read_until(b'\n', &mut line)
        .map_err(io)?;
    Ok(match serde_json::from_slice::<Value>(&line) {
        Ok(Value::Object(m)) => Fact::parse(m).ok(),
        _ => None,
    })
}

/// A first version of a package, as the duplicate-id check needs it.
#[derive(Clone, Copy)]
struct FirstVersion {
    hash: u64,
    offset: u64,
    file: u32,
}

/// What checking one package log found.
struct LogCheck {
    problems: Vec<Problem>,
    /// Each first version with the key of its id.
    firsts: Vec<(u64, FirstVersion)>,
}

/// Checks one package log line by line, holding one line at a time: shape, schema, hash,
/// project and month, and each later version's transition.
fn check_package_log(store: &Store, project: &str, path: &Path) -> Result<LogCheck> {
    let mut out = LogCheck {
        problems: Vec::new(),
        firsts: Vec::new(),
    };
    let rel = path
        .strip_prefix(store.root())
        .unwrap_or(path)
        .display()
        .to_string();
    let mut problem = |line: u64, kind: &'static str, message: String| {
        out.problems.push(Problem {
            file: rel.clone(),
            line,
            kind,
            message,
        })
    };
    let month = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default()
        .to_string();
    each_line(path, |number, at, object| {
        let env = match object {
            Ok(env) => env,
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
        if p.package.project_id() != project {
            problem(
                number,
                "misplaced",
                format!(
                    "package {} belongs to project `{}`",
                    p.package.id(),
                    p.package.project_id()
                ),
            );
        }
        let created = time::month_key(p.package.created_at());
        if created != month {
            problem(
                number,
                "misplaced",
                format!(
                    "package {} was created in {created}, not {month}",
                    p.package.id()
                ),
            );
        }
        if p.version == 1 {
            out.firsts.push((
                crate::search::index::id_key(p.package.id()),
                FirstVersion {
                    hash: crate::search::index::hash_prefix(&p.hash),
                    offset: at,
                    file: 0,
                },
            ));
        } else if let Some(message) = illegal_transition(&p) {
            problem(number, "invalid_transition", message);
        }
        Ok(())
    })?;
    Ok(out)
}

/// Streams the lines of `path` (a missing file has none) to `each(number, offset, object)`,
/// the object being the problem a line has instead when it has one; blank lines are skipped.
type LineObject = std::result::Result<Map<String, Value>, (&'static str, String)>;

fn each_line(path: &Path, mut each: impl FnMut(u64, u64, LineObject) -> Result<()>) -> Result<()> {
    use std::io::BufRead;
    let io = |e| Error::io(format!("cannot read {}", path.display()), e);
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(io(e)),
    };
    let mut reader = std::io::BufReader::with_capacity(1 << 20, file);
    let (mut buf, mut number, mut offset) = (Vec::new(), 0u64, 0u64);
    loop {
        buf.clear();
        let n = reader.read_until(b'\n', &mut buf).map_err(io)?;
        if n == 0 {
            return Ok(());
        }
        number += 1;
        let at = offset;
        offset += n as u64;
        let complete = buf.last() == Some(&b'\n');
        let text = if complete { &buf[..n - 1] } else { &buf[..] };
        match line_object(text, complete) {
            Ok(None) => {}
            Ok(Some(m)) => each(number, at, Ok(m))?,
            Err(problem) => each(number, at, Err(problem))?,
        }
    }
}

/// The object a line holds; `None` for a blank line; the problem otherwise.
fn line_object(
    text: &[u8],
    complete: bool,
) -> std::result::Result<Option<Map<String, Value>>, (&'static str, String)> {
    if text.iter().all(u8::is_ascii_whitespace) && complete {
        return Ok(None);
    }
    if !complete {
        return Err((
            "torn_line",
            "the last line is incomplete (a write was cut off)".into(),
        ));
    }
    if [&b"<<<<<<<"[..], b"=======", b">>>>>>>"]
        .iter()
        .any(|m| text.starts_with(m))
    {
        return Err((
            "conflict_marker",
            "a git conflict marker: resolve the merge (relay logs merge with `merge=union`)".into(),
        ));
    }
    if text.ends_with(log::TORN_MARK) {
        return Err((
            "torn_line",
            "a write cut off by a crash, sealed by a later append".into(),
        ));
    }
    match serde_json::from_slice::<Value>(text) {
        Ok(Value::Object(m)) => Ok(Some(m)),
        Ok(_) => Err(("corrupt_line", "the line is not a JSON object".into())),
        Err(e) => Err(("corrupt_line", format!("the line is not valid JSON ({e})"))),
    }
}

/// Why a later version's transition is not one §5.3 allows, if it is not.
fn illegal_transition(p: &StoredPackage) -> Option<String> {
    let t = p.transition.as_ref();
    let field = |k: &str| t.and_then(|t| t.get(k)).and_then(Value::as_str);
    let action = match field("action") {
        Some("flag") => Some(Action::Flag {
            reviewer: super::review::Reviewer::Human,
        }),
        Some("approve") => Some(Action::Approve),
        Some("request_changes") => Some(Action::RequestChanges),
        _ => None,
    };
    let from = field("from").and_then(Status::parse);
    // An import brings a later review state from a backup: legal but from complete.
    let imported = field("action") == Some("import") && from.is_some_and(|f| f != Status::Complete);
    let legal = imported
        || matches!((action, from), (Some(a), Some(f)) if a.target(f) == Some(p.package.status()));
    (!legal).then(|| {
        format!(
            "version {} of {} records an illegal transition ({} from {} to {})",
            p.version,
            p.package.id(),
            field("action").unwrap_or("?"),
            field("from").unwrap_or("?"),
            p.package.status().as_str()
        )
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
    if l.text.ends_with(log::TORN_MARK) {
        return Some((
            "torn_line",
            "a write cut off by a crash, sealed by a later append".into(),
        ));
    }
    if package_log
        && let Ok(Value::Object(env)) = serde_json::from_slice::<Value>(&l.text)
        && let Err((crate::store::WarningKind::HashMismatch, message)) =
            StoredPackage::from_envelope(env, path, l.number)
    {
        return Some(("hash_mismatch", message));
    }
    None
}

/// Checks the whole store.
pub fn verify(store: &Store) -> Result<(Report, Vec<Fact>)> {
    let mut c = Checker {
        store,
        report: Report::default(),
    };
    let projects_file = store.layout().projects_file();
    c.records::<Project>(&projects_file)?;
    let mut losers = Vec::new();
    for p in super::projects::list(store)? {
        c.packages(p.id())?;
        losers.extend(c.facts(p.id())?);
        c.sessions(p.id())?;
    }
    c.layout();
    let _ = store.diagnostics().take();
    Ok((c.report, losers))
}

/// Checks, repairs what is safe, and checks again. Returns the report of the second check
/// (what is left) with the repairs made.
pub fn fix(store: &Store) -> Result<Report> {
    let (first, losers) = verify(store)?;
    let mut fixed = Vec::new();
    // Merge forks of facts: close every losing open fact at the winner's start.
    let mut by_project: BTreeMap<String, Vec<Fact>> = BTreeMap::new();
    for f in losers {
        by_project
            .entry(f.str_field("project_id").unwrap_or_default().to_string())
            .or_default()
            .push(f);
    }
    for (project, losers) in by_project {
        let _lock = store.lock_project(&project)?;
        let facts = store.facts(&project)?;
        let mut closing = Vec::new();
        for f in losers {
            let winner = super::facts::current_of(&facts, f.subject(), f.predicate());
            let end = winner
                .map(|w| w.valid_from())
                .unwrap_or_else(time::now)
                .max(f.valid_from());
            let mut map = f.as_map().clone();
            map.insert("valid_to".into(), Value::String(time::format(end)));
            closing.push(Fact::from_map(map)?);
            fixed.push(format!(
                "closed fact {} of ({}, {}), left open by a merge",
                f.id(),
                f.subject(),
                f.predicate()
            ));
        }
        store.append_records(
            &store.layout().facts_file(&project),
            &closing.iter().collect::<Vec<_>>(),
        )?;
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
        let parts: Vec<&str> = file.split(['/', '\\']).collect();
        let _lock = match parts.as_slice() {
            [layout::PROJECTS_DIR, dir, ..] => store.lock(&format!("project-{dir}"))?,
            _ => store.lock("projects")?,
        };
        // Judge every line again now that writers are held off: a line that looked torn
        // may have been a write still in progress.
        let all = lines(&path)?;
        let is_package_log = parts.len() == 4;
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
            q.extend(log::to_line(v)?);
        }
        store.append(&store.root().join(QUARANTINE), &q)?;
        log::write_atomic(&path, &keep)?;
        fixed.push(format!(
            "moved {} line(s) of {file} to {QUARANTINE}",
            quarantined.len()
        ));
    }
    let (mut report, _) = verify(store)?;
    report.fixed = fixed;
    Ok(report)
}
