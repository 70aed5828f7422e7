//! Backup (§5.2, §10.1): export projects to plain wire records, a backup folder with a
//! manifest or one NDJSON stream, that `ops::import` reads back. Packages travel in their
//! current version, facts and sessions with their whole history (`versioned.rs`); a share
//! profile (`share.rs`) narrows and derives what leaves.

pub mod share;
pub mod signatures;
mod versioned;

pub(in crate::ops) use versioned::{GroupNumbers, count_open};

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;
use serde_json::{Map, json};
use sha2::{Digest, Sha256};

use relay_store::index::{Entry, MonthCatalog};
use relay_store::packages::StoredPackage;
use relay_store::{Store, ndjson};
use relay_wire::error::{Error, Result};
use relay_wire::tree::Object;
use relay_wire::{Session, time};

pub const BACKUP_FORMAT_VERSION: u64 = 1;
pub const MANIFEST: &str = "manifest.json";
pub const KINDS: [&str; 4] = ["projects", "packages", "facts", "sessions"];

/// The kind of a wire record, told by its id field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Projects,
    Packages,
    Facts,
    Sessions,
}

impl Kind {
    pub fn of<O: Object>(map: &O) -> Option<Kind> {
        if map.get("package_id").is_some() {
            Some(Kind::Packages)
        } else if map.get("fact_id").is_some() {
            Some(Kind::Facts)
        } else if map.get("session_id").is_some() {
            Some(Kind::Sessions)
        } else if map.get("project_id").is_some() {
            Some(Kind::Projects)
        } else {
            None
        }
    }

    pub fn file(self) -> &'static str {
        match self {
            Kind::Projects => "projects.ndjson",
            Kind::Packages => "packages.ndjson",
            Kind::Facts => "facts.ndjson",
            Kind::Sessions => "sessions.ndjson",
        }
    }
}

/// Receives exported records: their kind, one or more whole JSON lines, and how many.
pub type Sink<'a> = dyn FnMut(Kind, &[u8], usize) -> Result<()> + 'a;

/// Streams every record of the chosen projects to `sink` as [`each_stored_record`] does, but
/// for what was retracted: a retracted package or fact, and a fact asserted from a retracted
/// package, stay behind (an export is a read, and reads hide them; a copy without its
/// retraction would show them again). Expired records travel with their `x-expires-at`, so
/// they stay hidden wherever they land. Returns how many records of each kind stayed behind.
pub fn each_record(store: &Store, projects: &[String], sink: &mut Sink<'_>) -> Result<Counts> {
    let retractions = store.retractions_of(projects)?;
    let mut withheld = Counts::new();
    if retractions.is_empty() {
        each_stored_record(store, projects, sink)?;
        return Ok(withheld);
    }
    let ids: Vec<&str> = retractions.all().iter().map(|r| r.id.as_str()).collect();
    let hidden = |line: &[u8]| -> bool {
        if !ids
            .iter()
            .any(|id| memchr::memmem::find(line, id.as_bytes()).is_some())
        {
            return false;
        }
        let Ok(record) = serde_json::from_slice::<Map<String, serde_json::Value>>(line) else {
            return false;
        };
        let text = |k: &str| record.get(k).and_then(serde_json::Value::as_str);
        text("package_id").is_some_and(|id| retractions.package(id).is_some())
            || text("fact_id").is_some_and(|id| retractions.fact(id).is_some())
            || text("source_package_id").is_some_and(|id| retractions.package(id).is_some())
    };
    each_stored_record(store, projects, &mut |kind, lines, n| {
        if !matches!(kind, Kind::Packages | Kind::Facts) {
            return sink(kind, lines, n);
        }
        let (mut out, mut kept) = (Vec::with_capacity(lines.len()), 0);
        for line in lines.split_inclusive(|&b| b == b'\n') {
            match hidden(line.strip_suffix(b"\n").unwrap_or(line)) {
                true => *withheld.entry(kind).or_default() += 1,
                false => {
                    out.extend_from_slice(line);
                    kept += 1;
                }
            }
        }
        if kept > 0 {
            sink(kind, &out, kept)
        } else {
            Ok(())
        }
    })?;
    Ok(withheld)
}

/// Streams every record of the chosen projects to `sink`, in a fixed order: projects, packages
/// (current versions, by creation), facts (every version that is current for its id: the
/// whole history, by key and time), sessions. Memory holds one monthly log and a compact
/// table of the facts, not the store.
fn each_stored_record(store: &Store, projects: &[String], sink: &mut Sink<'_>) -> Result<()> {
    let all = crate::ops::projects::list(store)?;
    for p in all
        .iter()
        .filter(|p| projects.iter().any(|id| id == p.id()))
    {
        sink(Kind::Projects, &ndjson::to_line(&p.to_value())?, 1)?;
    }
    for id in projects {
        each_package(store, id, sink)?;
    }
    for id in projects {
        versioned::each::<relay_wire::Fact>(store, id, sink)?;
    }
    for id in projects {
        versioned::each::<Session>(store, id, sink)?;
    }
    Ok(())
}

/// [`each_record`], or [`share::each_shared_record`] when a profile is given (then what it
/// withheld and derived).
pub fn each_exported(
    store: &Store,
    projects: &[String],
    share: Option<&share::Policy>,
    sink: &mut Sink<'_>,
) -> Result<Option<share::Shared>> {
    match share {
        Some(policy) => share::each_shared_record(store, projects, policy, sink).map(Some),
        None => each_record(store, projects, sink).map(|_| None),
    }
}

/// The most of a log one export batch reads at once.
const WINDOW_BYTES: u64 = 16 << 20;

/// One project's packages, month by month, each month's lines turned into records by two
/// threads.
fn each_package(store: &Store, project: &str, sink: &mut Sink<'_>) -> Result<()> {
    if !store.config().search_index() {
        let mut packages: Vec<StoredPackage> =
            store.current_packages(project)?.into_values().collect();
        packages.sort_by_cached_key(|p| (p.package.created_at(), p.package.id().to_string()));
        for p in packages {
            sink(Kind::Packages, &ndjson::to_line(&p.package.to_value())?, 1)?;
        }
        return Ok(());
    }
    store.warm_catalogs(project)?;
    let logs = store.package_logs(project)?;
    // Each month's catalog is loaded, and its packages put in creation order, on a thread of
    // its own while the month before is written.
    let load = |path: &std::path::PathBuf| -> Result<(MonthCatalog, Vec<u32>)> {
        let month = MonthCatalog::load(store, path)?;
        let mut order: Vec<u32> = (0..month.entries.len() as u32).collect();
        let key = |i: &u32| {
            let e = &month.entries[*i as usize];
            (e.created_micros, month.id(e))
        };
        order.sort_by(|a, b| key(a).cmp(&key(b)));
        Ok((month, order))
    };
    std::thread::scope(|s| -> Result<()> {
        let failed = || Error::Integrity("an export thread failed".into());
        let mut loading = logs.first().map(|p| s.spawn(move || load(p)));
        for (i, path) in logs.iter().enumerate() {
            let (month, order) = match loading.take() {
                Some(h) => h.join().map_err(|_| failed())??,
                None => break,
            };
            loading = logs.get(i + 1).map(|p| s.spawn(move || load(p)));
            export_month(store, path, &month, &order, sink)?;
        }
        Ok(())
    })
}

/// One month's packages, in creation order (`order`: entries by their place in `month`).
fn export_month(
    store: &Store,
    path: &std::path::Path,
    month: &MonthCatalog,
    order: &[u32],
    sink: &mut Sink<'_>,
) -> Result<()> {
    let file = std::fs::File::open(path)
        .map_err(|e| Error::io(format!("cannot read {}", path.display()), e))?;
    let entries: Vec<&Entry> = order.iter().map(|&i| &month.entries[i as usize]).collect();
    let render = |part: &[&Entry]| -> Result<(Vec<u8>, usize)> {
        let (mut out, mut n) = (Vec::with_capacity(part.len() * 1024), 0);
        // The batch's lines in one read, when they lie close together (the log is mostly
        // in creation order).
        let window = ndjson::Window::read(
            &file,
            part.iter().flat_map(|e| month.versions(e)).copied(),
            WINDOW_BYTES,
        );
        for e in part {
            // A package with one version goes out as it was stored, once it checks out.
            if let [offset] = month.versions(e)
                && let Some(text) = window
                    .line(*offset)
                    .and_then(relay_store::packages::checked_package_text)
            {
                out.extend_from_slice(text.as_bytes());
                out.push(b'\n');
                n += 1;
                continue;
            }
            if let Some(p) = month.read_in(store, &file, e) {
                serde_json::to_writer(&mut out, &p.package)
                    .map_err(|e| Error::Integrity(format!("cannot encode a record: {e}")))?;
                out.push(b'\n');
                n += 1;
            }
        }
        Ok((out, n))
    };
    render_in_rounds(&entries, 2048, render, &mut |out, n| {
        sink(Kind::Packages, &out, n)
    })
}

/// Renders `items` in batches of `batch`, two at a time on two threads, and hands each batch's
/// lines to `write` in order. A round is written while the next is rendered, so the disk and
/// the cores work at once; memory holds three batches' lines, never the whole.
pub(super) fn render_in_rounds<I: Sync>(
    items: &[I],
    batch: usize,
    render: impl Fn(&[I]) -> Result<(Vec<u8>, usize)> + Sync,
    write: &mut dyn FnMut(Vec<u8>, usize) -> Result<()>,
) -> Result<()> {
    let failed = || Error::Integrity("an export thread failed".into());
    let mut pending: Vec<(Vec<u8>, usize)> = Vec::new();
    for round in items.chunks(2 * batch) {
        let (first, second) = round.split_at(round.len().min(batch));
        pending = std::thread::scope(|s| -> Result<Vec<(Vec<u8>, usize)>> {
            let render = &render;
            let a = s.spawn(move || render(first));
            let b = s.spawn(move || render(second));
            for (out, n) in pending.drain(..) {
                if n > 0 {
                    write(out, n)?;
                }
            }
            Ok(vec![
                a.join().map_err(|_| failed())??,
                b.join().map_err(|_| failed())??,
            ])
        })?;
    }
    for (out, n) in pending {
        if n > 0 {
            write(out, n)?;
        }
    }
    Ok(())
}

/// Fails when the readers skipped records (a hash mismatch, an invalid record): a backup that
/// silently leaves them out would claim to be complete.
pub fn refuse_damage(store: &Store) -> Result<()> {
    use relay_store::WarningKind;
    let warnings = store.diagnostics().take();
    let damage: Vec<_> = warnings
        .iter()
        .filter(|w| {
            matches!(
                w.kind,
                WarningKind::HashMismatch | WarningKind::InvalidRecord
            )
        })
        .collect();
    if let Some(w) = damage.first() {
        return Err(Error::Integrity(format!(
            "{} could not be read ({}:{}: {}); run `relay verify --fix` before backing up",
            relay_wire::text::count(damage.len(), "record"),
            w.path.display(),
            w.line,
            w.message
        )));
    }
    Ok(())
}

/// Counts per kind.
pub type Counts = BTreeMap<Kind, usize>;

/// Writes a backup folder: one NDJSON file per kind, then `manifest.json` last, so a folder
/// without a manifest is known to be partial. `dir` must not exist or be empty. Under a share
/// profile, the manifest lists only the projects shared, and says what was withheld (how many,
/// never which).
pub fn export_dir(
    store: &Store,
    projects: &[String],
    share: Option<&share::Policy>,
    dir: &Path,
) -> Result<(Counts, Option<share::Shared>)> {
    if dir.exists()
        && std::fs::read_dir(dir)
            .map_err(|e| Error::io(format!("cannot read {}", dir.display()), e))?
            .next()
            .is_some()
    {
        return Err(Error::InvalidInput(format!(
            "{} is not empty; give a new or empty folder for the backup",
            dir.display()
        )));
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::io(format!("cannot create {}", dir.display()), e))?;
    // Each kind's file is written as its records stream in, hashed on the way.
    let mut files: BTreeMap<Kind, (std::io::BufWriter<std::fs::File>, Sha256)> = BTreeMap::new();
    for kind in [Kind::Projects, Kind::Packages, Kind::Facts, Kind::Sessions] {
        let path = dir.join(kind.file());
        let f = std::fs::File::create(&path)
            .map_err(|e| Error::io(format!("cannot create {}", path.display()), e))?;
        files.insert(
            kind,
            (std::io::BufWriter::with_capacity(1 << 20, f), Sha256::new()),
        );
    }
    let mut counts = Counts::new();
    let mut carrier = signatures::Carrier::load(store, projects)?;
    let shared = each_exported(store, projects, share, &mut |kind, lines, n| {
        use std::io::Write;
        if let Some(c) = carrier.as_mut() {
            c.records(kind, lines);
        }
        let (w, h) = files.get_mut(&kind).expect("every kind has a file");
        h.update(lines);
        w.write_all(lines)
            .map_err(|e| Error::io(format!("cannot write {}", kind.file()), e))?;
        *counts.entry(kind).or_default() += n;
        Ok(())
    })?;
    refuse_damage(store)?;
    let mut hashes = Map::new();
    for (kind, (w, h)) in files {
        let f = w
            .into_inner()
            .map_err(|e| Error::io(format!("cannot write {}", kind.file()), e.into_error()))?;
        f.sync_all()
            .map_err(|e| Error::io(format!("cannot sync {}", kind.file()), e))?;
        let digest: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
        hashes.insert(kind.file().to_string(), json!(format!("sha256:{digest}")));
        counts.entry(kind).or_default();
    }
    if let Some((name, hash)) = carrier.map(|c| c.write(dir)).transpose()?.flatten() {
        hashes.insert(name, json!(hash));
    }
    let mut manifest = json!({
        "tool": "relay",
        "tool_version": env!("CARGO_PKG_VERSION"),
        "protocol_version": relay_wire::PROTOCOL_VERSION,
        "backup_format_version": BACKUP_FORMAT_VERSION,
        "generated_at": time::format(time::now()),
        "projects": shared.as_ref().map_or(projects, |s| &s.projects),
        "counts": counts,
        "files": hashes,
    });
    if let Some(s) = &shared {
        manifest["share"] = json!(s);
    }
    let mut text =
        serde_json::to_vec_pretty(&manifest).map_err(|e| Error::Integrity(e.to_string()))?;
    text.push(b'\n');
    ndjson::write_atomic(&dir.join(MANIFEST), &text)?;
    Ok((counts, shared))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::packages::deposit::{deposit, test_support};

    /// Every record `each_record` gives, as (kind, JSON value), in order.
    fn exported(store: &Store) -> Vec<(Kind, serde_json::Value)> {
        let mut out = Vec::new();
        each_record(store, &["demo".to_string()], &mut |kind, lines, n| {
            let values: Vec<serde_json::Value> = lines
                .split(|&b| b == b'\n')
                .filter(|l| !l.is_empty())
                .map(|l| serde_json::from_slice(l).unwrap())
                .collect();
            assert_eq!(values.len(), n, "the count is the lines given");
            out.extend(values.into_iter().map(|v| (kind, v)));
            Ok(())
        })
        .unwrap();
        out
    }

    #[test]
    fn records_come_in_kind_order_with_facts_at_their_effective_ends() {
        let (_dir, store) = test_support::forked_store();
        let ctx = test_support::context("demo");
        let input = |title: &str| {
            serde_json::json!({"package_id": "pkg_e", "title": title})
                .as_object()
                .unwrap()
                .clone()
        };
        deposit(&store, input("Export me"), &ctx).unwrap();
        let records = exported(&store);
        let kinds: Vec<&str> = records.iter().map(|(k, _)| k.file()).collect();
        assert_eq!(
            kinds,
            [
                "projects.ndjson",
                "packages.ndjson",
                "facts.ndjson",
                "facts.ndjson"
            ]
        );
        let package = &records[1].1;
        assert_eq!(
            package.get("package").unwrap_or(package)["title"],
            "Export me"
        );
        // The merged fork is exported as the chain relay reads: fact_a ends where fact_b
        // starts, though its stored line is open.
        let ends: Vec<(String, serde_json::Value)> = records[2..]
            .iter()
            .map(|(_, v)| {
                let f = v.get("fact").unwrap_or(v);
                (
                    f["fact_id"].as_str().unwrap().to_string(),
                    f["valid_to"].clone(),
                )
            })
            .collect();
        assert_eq!(
            ends,
            [
                (
                    "fact_a".to_string(),
                    serde_json::json!("2026-02-01T00:00:00Z")
                ),
                ("fact_b".to_string(), serde_json::Value::Null),
            ]
        );
    }
}
