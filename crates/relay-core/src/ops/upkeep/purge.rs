//! purge: the one operation that takes lines out of the logs. Expired and retracted records
//! are hidden from reads already; purge removes their lines (every version of a package,
//! every line of a fact) so that they leave the working tree too. Under each project's
//! writers' lock it writes each changed log anew (atomically, by rename), keeps the old files
//! in a backup folder under `local/` unless told not to, and removes what `cache/` held of
//! each rewritten log (every index, the fact index's copy of current lines, the log's
//! fingerprint, the hashes of the purged packages' deliverables), so no copy of a purged line
//! stays there; reads rebuild from the logs. A fact asserted from a retracted package goes
//! with it (`source_retracted`), as reads and export leave it out. Retraction lines stay: a
//! clone that still holds the records hides them after a merge.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use relay_store::retractions::Retractions;
use relay_store::{Store, ndjson};
use relay_wire::error::{Error, Result};
use relay_wire::{expiry, time};

/// What to purge.
#[derive(Debug, Clone, Default)]
pub struct PurgeRequest {
    pub expired: bool,
    pub retracted: bool,
    /// Report what would go, change nothing.
    pub dry_run: bool,
    /// Keep the old files under `local/purged/<time>/` (the default).
    pub backup: bool,
    pub projects: Vec<String>,
}

/// One record removed (or to be removed, in a dry run).
#[derive(Debug, Clone, Serialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct Removed {
    pub project_id: String,
    /// `package` or `fact`.
    pub record: &'static str,
    pub id: String,
    /// `expired`, `retracted`, or `source_retracted` (a fact asserted from a retracted
    /// package).
    pub because: &'static str,
    /// How many lines held it (a package's versions, a fact's versions).
    pub lines: usize,
}

/// What a purge did.
#[derive(Debug, Clone, Serialize)]
pub struct PurgeReport {
    pub dry_run: bool,
    pub removed: Vec<Removed>,
    /// The logs written anew, relative to the store.
    pub files: Vec<String>,
    /// Where the old files were kept.
    pub backup: Option<PathBuf>,
}

/// What purge judges a line by: the record's id (`package.package_id` or `fact_id`), its
/// expiry, a fact's source package, and a package's deliverable paths.
struct LineRecord {
    id: String,
    expires: Option<time::Timestamp>,
    source: Option<String>,
    paths: Vec<String>,
}

/// What a line holds, or `None` for a line that is not such a record (it is kept as it is).
fn line_record(line: &[u8], package_log: bool) -> Option<LineRecord> {
    let v: Value = serde_json::from_slice(line).ok()?;
    let record = match package_log {
        true => v.get("package")?,
        false => &v,
    };
    let id = record.get(if package_log { "package_id" } else { "fact_id" })?;
    let text = |k: &str| record.get(k).and_then(Value::as_str);
    let paths = (record.get("deliverables").and_then(Value::as_array))
        .map(|ds| {
            (ds.iter())
                .filter_map(|d| d.get("path").and_then(Value::as_str))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    Some(LineRecord {
        id: id.as_str()?.to_string(),
        expires: text(expiry::EXPIRES_AT).and_then(|s| time::parse(s).ok()),
        source: text("source_package_id").map(str::to_string),
        paths,
    })
}

/// Why a record goes, if it does.
type Hides<'a> = &'a dyn Fn(&LineRecord) -> Option<&'static str>;

/// The lines of `path` without those of the records `hides` names, and what went.
struct Rewrite {
    keep: Vec<u8>,
    removed: BTreeMap<String, (&'static str, usize)>,
    /// The deliverable paths the removed lines named.
    paths: BTreeSet<String>,
    /// The removed lines themselves.
    gone: Vec<u8>,
}

fn rewrite(
    path: &Path,
    package_log: bool,
    hides: Hides,
    may_hide: &dyn Fn(&[u8]) -> bool,
) -> Result<Option<Rewrite>> {
    let Some(bytes) = ndjson::read_whole(path)? else {
        return Ok(None);
    };
    // A record's lines are judged together: the first pass finds which ids go.
    let mut gone: BTreeMap<String, &'static str> = BTreeMap::new();
    for line in bytes.split(|&b| b == b'\n').filter(|l| may_hide(l)) {
        if let Some(record) = line_record(line, package_log)
            && let Some(why) = hides(&record)
        {
            gone.entry(record.id).or_insert(why);
        }
    }
    if gone.is_empty() {
        return Ok(None);
    }
    let mut out = Rewrite {
        keep: Vec::with_capacity(bytes.len()),
        removed: BTreeMap::new(),
        paths: BTreeSet::new(),
        gone: Vec::new(),
    };
    let mut rest = &bytes[..];
    while !rest.is_empty() {
        let end = memchr::memchr(b'\n', rest).map_or(rest.len(), |i| i + 1);
        let (line, tail) = rest.split_at(end);
        rest = tail;
        let record = (may_hide(line))
            .then(|| line_record(line.strip_suffix(b"\n").unwrap_or(line), package_log))
            .flatten();
        match record.and_then(|r| gone.get(&r.id).map(|why| (r, *why))) {
            Some((r, why)) => {
                out.paths.extend(r.paths);
                out.removed.entry(r.id).or_insert((why, 0)).1 += 1;
                out.gone.extend_from_slice(line);
            }
            None => out.keep.extend_from_slice(line),
        }
    }
    Ok(Some(out))
}

/// Purges the projects of `req`. A project another writer holds is waited for, up to the
/// store's lock timeout (`lock_timeout`, exit 6).
pub fn purge(store: &Store, req: &PurgeRequest) -> Result<PurgeReport> {
    if !req.expired && !req.retracted {
        return Err(Error::InvalidInput(
            "say what to purge: --expired, --retracted, or both".into(),
        ));
    }
    let stamp = time::now().format("%Y%m%dT%H%M%S%.6fZ").to_string();
    let backup_dir = store.local_path("purged").join(stamp);
    let mut report = PurgeReport {
        dry_run: req.dry_run,
        removed: Vec::new(),
        files: Vec::new(),
        backup: None,
    };
    for project in &req.projects {
        let _lock = store.lock_project(project)?;
        // What reads hide now, of the kinds purged: the rest stays.
        let retractions = match req.retracted {
            true => store.retractions(project)?,
            false => Retractions::default(),
        };
        let now = time::now();
        let expired = |at: Option<time::Timestamp>| req.expired && at.is_some_and(|t| t <= now);
        let retracted_ids: HashSet<String> = (retractions.all().into_iter())
            .map(|r| r.id.clone())
            .collect();
        let may_hide = |line: &[u8]| {
            (req.expired && memchr::memmem::find(line, expiry::EXPIRES_AT.as_bytes()).is_some())
                || (!retracted_ids.is_empty()
                    && retracted_ids
                        .iter()
                        .any(|id| memchr::memmem::find(line, id.as_bytes()).is_some()))
        };
        let package_hides = |r: &LineRecord| {
            (retractions.package(&r.id).map(|_| "retracted"))
                .or_else(|| expired(r.expires).then_some("expired"))
        };
        let fact_hides = |r: &LineRecord| {
            (retractions.fact(&r.id).map(|_| "retracted"))
                .or_else(|| {
                    (r.source.as_deref().and_then(|p| retractions.package(p)))
                        .map(|_| "source_retracted")
                })
                .or_else(|| expired(r.expires).then_some("expired"))
        };
        let mut logs: Vec<(PathBuf, bool)> = (store.package_logs(project)?.into_iter())
            .map(|p| (p, true))
            .collect();
        logs.push((store.facts_log(project), false));
        for (path, package_log) in logs {
            let hides: Hides = match package_log {
                true => &package_hides,
                false => &fact_hides,
            };
            let Some(done) = rewrite(&path, package_log, hides, &may_hide)? else {
                continue;
            };
            let rel = path
                .strip_prefix(store.root())
                .unwrap_or(&path)
                .to_path_buf();
            report.files.push(rel.to_string_lossy().replace('\\', "/"));
            for (id, (because, lines)) in done.removed {
                report.removed.push(Removed {
                    project_id: project.clone(),
                    record: if package_log { "package" } else { "fact" },
                    id,
                    because,
                    lines,
                });
            }
            if req.dry_run {
                continue;
            }
            if req.backup {
                let copy = backup_dir.join(&rel);
                if let Some(dir) = copy.parent() {
                    std::fs::create_dir_all(dir)
                        .map_err(|e| Error::io(format!("cannot create {}", dir.display()), e))?;
                }
                std::fs::copy(&path, &copy)
                    .map_err(|e| Error::io(format!("cannot back up {}", path.display()), e))?;
                report.backup = Some(backup_dir.clone());
            }
            // A hook's record purged on purpose is not put back by the clone's journal: it
            // leaves the journal first, so no reconcile meanwhile (or after a crash) finds it
            // missing from the log and queues it again.
            let tracked = store.tracked_file(&path);
            store.unjournal(&tracked, &done.gone)?;
            ndjson::write_atomic(&path, &done.keep)?;
            forget_cached(store, &path, &done.paths)?;
        }
    }
    report.removed.sort();
    Ok(report)
}

/// Removes what `cache/` held of a rewritten log, and the cached hashes of the files that the
/// removed packages named as deliverables (their paths were part of the purged records).
fn forget_cached(store: &Store, log: &Path, paths: &BTreeSet<String>) -> Result<()> {
    let indexes = store.indexes();
    indexes
        .forget_log(log)
        .map_err(|e| Error::io(format!("cannot clear cache/ of {}", log.display()), e))?;
    if !paths.is_empty() {
        let mut hashes = indexes.file_hashes();
        for p in paths {
            hashes.forget(p);
        }
        hashes.save();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::packages::deposit::deposit;
    use crate::ops::packages::deposit::test_support::{context, store_with};
    use crate::ops::packages::retract::{RetractRequest, retract};
    use serde_json::{Map, json};

    fn request(expired: bool, retracted: bool, dry_run: bool) -> PurgeRequest {
        PurgeRequest {
            expired,
            retracted,
            dry_run,
            backup: true,
            projects: vec!["demo".into()],
        }
    }

    #[test]
    fn purge_removes_every_line_of_what_it_names_keeps_the_rest_byte_for_byte_and_a_backup() {
        let (_dir, store) = store_with(&["demo"]);
        let mut ids = Vec::new();
        for (id, extra) in [
            ("pkg_keep", json!({})),
            (
                "pkg_gone",
                json!({"status": "awaiting_review", "review_type": "human"}),
            ),
            ("pkg_later", json!({"x-expires-at": "2999-01-01T00:00:00Z"})),
        ] {
            let mut input: Map<String, Value> = extra.as_object().unwrap().clone();
            input.insert("package_id".into(), json!(id));
            input.insert("title".into(), json!(id));
            deposit(&store, input, &context("demo")).unwrap();
            ids.push(id);
        }
        crate::ops::packages::deposit::test_support::approve(&store, "pkg_gone");
        retract(
            &store,
            &RetractRequest {
                id: "pkg_gone".into(),
                reason: "wrong".into(),
                actor: context("demo").actor,
                session_id: None,
                project_hint: None,
            },
        )
        .unwrap();
        let log = store.package_logs("demo").unwrap().pop().unwrap();
        let before = std::fs::read(&log).unwrap();
        // Nothing expired yet: an expired-only purge changes nothing.
        let none = purge(&store, &request(true, false, false)).unwrap();
        assert!(none.removed.is_empty() && none.files.is_empty());
        let dry = purge(&store, &request(false, true, true)).unwrap();
        assert_eq!(
            std::fs::read(&log).unwrap(),
            before,
            "a dry run writes nothing"
        );
        assert_eq!(
            dry.removed,
            [Removed {
                project_id: "demo".into(),
                record: "package",
                id: "pkg_gone".into(),
                because: "retracted",
                lines: 2
            }]
        );
        let done = purge(&store, &request(false, true, false)).unwrap();
        assert_eq!(done.removed, dry.removed);
        assert_eq!(done.files.len(), 1);
        assert!(done.files[0].starts_with(&format!(
            "projects/{}/packages/",
            relay_store::format::encode_project_dir("demo")
        )));
        let after = String::from_utf8(std::fs::read(&log).unwrap()).unwrap();
        let kept: String = String::from_utf8(before.clone())
            .unwrap()
            .lines()
            .filter(|l| !l.contains("pkg_gone"))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(after, kept, "the other lines stay byte for byte");
        let backup = done.backup.unwrap().join(&done.files[0]);
        assert_eq!(std::fs::read(backup).unwrap(), before);
        // The retraction stays, so a clone that still holds the lines hides them.
        assert!(
            store
                .retractions("demo")
                .unwrap()
                .package("pkg_gone")
                .is_some()
        );
        assert!(
            purge(&store, &request(false, true, false))
                .unwrap()
                .removed
                .is_empty()
        );
        assert!(crate::ops::packages::pull::specific(store.view(), "pkg_gone").is_err());
        assert!(crate::ops::packages::pull::specific(store.view(), "pkg_later").is_ok());
        assert!(purge(&store, &PurgeRequest::default()).is_err());
    }
}
