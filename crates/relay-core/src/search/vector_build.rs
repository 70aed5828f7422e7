//! The vectors of search by meaning, built without keeping a search waiting. The static table
//! embeds a store of ten thousand packages in a few seconds; the ONNX transformer takes
//! minutes. So a search embeds with the transformer itself only what a deposit or two adds
//! ([`INLINE_BYTES`]); past that, it ranks with the model's static table ([`Model::table`])
//! while the transformer's vectors are built apart: by a background `relay index` that the CLI
//! starts, or by a thread of a long-lived process ([`build_behind_reads`]). One build runs at a
//! time per model and cache (a lock), and writes how far it is, which anyone may read.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::search::model::Model;
use relay_store::Store;
use relay_store::index::{BuildProgress, VectorBuild};
use relay_wire::error::{Error, Result};

/// Log bytes the transformer's vectors may lack and a search still embeds them itself: what a
/// few deposits add, a second's work on two cores at the most. Past it, the table ranks while
/// the vectors are built apart.
pub const INLINE_BYTES: u64 = 64 * 1024;

/// The transformer's vectors are too far behind for a search to make them itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pending {
    /// Bytes of package logs whose texts were never embedded (texts embedded before, by a
    /// checkout's other branch or a cache rebuilt, are kept and cost nothing).
    pub behind: u64,
    /// How far a build under way has got, if one is.
    pub building: Option<BuildProgress>,
    /// Whether the vectors can be built at all: not without a cache (`search_index = false`),
    /// where the table ranks for good.
    pub can_build: bool,
}

/// Whether `model`'s transformer vectors of `projects` are too far behind for a search to
/// make them itself; `None` when it can rank now, or when the model's documents are the
/// table's. Without a cache (`search_index = false`) nothing is kept, so any store bigger
/// than [`INLINE_BYTES`] is pending for good: the table ranks.
pub fn pending(store: &Store, projects: &[String], model: &Model) -> Result<Option<Pending>> {
    if !model.documents_by_transformer() {
        return Ok(None);
    }
    let files = logs(store, projects)?;
    let (behind, building) = match store.search_indexes() {
        Some(cache) => (
            files
                .iter()
                .map(|log| cache.vectors_uncached(log, model))
                .sum(),
            cache.vector_build_progress(model),
        ),
        None => (
            files
                .iter()
                .map(|log| std::fs::metadata(log).map_or(0, |m| m.len()))
                .sum(),
            None,
        ),
    };
    let can_build = store.search_indexes().is_some();
    Ok((behind > INLINE_BYTES).then_some(Pending {
        behind,
        building,
        can_build,
    }))
}

/// The model a search of `projects` ranks with now: `model`, or its static table while the
/// transformer's vectors are [`pending`].
pub fn space<'m>(store: &Store, projects: &[String], model: &'m Model) -> Result<&'m Model> {
    Ok(match pending(store, projects, model)? {
        Some(_) => model.table(),
        None => model,
    })
}

/// What a build found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Built {
    /// Every vector file was up to date.
    Nothing,
    /// This many bytes of logs were embedded.
    Bytes(u64),
    /// Another build is at it: how far it has got, when it has said.
    Busy(Option<BuildProgress>),
}

/// Writes `model`'s vector files that a search of `projects` would otherwise make on the way
/// (missing, stale, or far behind their log), on as many threads as there are cores, calling
/// `progress(done, total)` in bytes of logs as each is embedded, and writing the same down for
/// others to read. Waits up to `wait` for a build of the same model under way. Without a
/// cache there is nothing to keep, so nothing is done. A warm index costs a header read per
/// log.
pub fn build(
    store: &Store,
    projects: &[String],
    model: &Model,
    wait: Duration,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<Built> {
    let Some(cache) = store.search_indexes() else {
        return Ok(Built::Nothing);
    };
    let stale = |cache: &relay_store::index::Indexes| -> Result<Vec<(PathBuf, u64)>> {
        Ok(logs(store, projects)?
            .into_iter()
            .filter(|log| cache.vectors_need_build(log, model))
            .map(|log| {
                let len = std::fs::metadata(&log).map_or(0, |m| m.len());
                (log, len)
            })
            .collect())
    };
    if stale(&cache)?.is_empty() {
        return Ok(Built::Nothing);
    }
    let Some(lock) = cache.start_vector_build(model, wait)? else {
        return Ok(Built::Busy(cache.vector_build_progress(model)));
    };
    // Looked at again under the lock: the build just waited for may have done it all.
    let stale = stale(&cache)?;
    if stale.is_empty() {
        return Ok(Built::Nothing);
    }
    let total: u64 = stale.iter().map(|(_, len)| len).sum();
    let lock = Mutex::new(lock);
    let report = |done: u64| {
        progress(done, total);
        let mut lock = lock.lock().unwrap_or_else(|e| e.into_inner());
        VectorBuild::report(&mut lock, done, total);
    };
    report(0);
    let done = AtomicU64::new(0);
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(stale.len());
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (cache, stale, done, report) = (&cache, &stale, &done, &report);
                s.spawn(move || -> Result<()> {
                    for (log, len) in stale.iter().skip(t).step_by(threads) {
                        let io = |e| Error::io(format!("cannot index {}", log.display()), e);
                        let view = cache.query(log, &[]).map_err(io)?;
                        let offsets: Vec<u64> = (0..view.doc_count() as u32)
                            .filter_map(|i| view.doc(i).map(|d| d.offset))
                            .collect();
                        cache.vectors(log, &offsets, model).map_err(io)?;
                        report(done.fetch_add(*len, Ordering::Relaxed) + len);
                    }
                    Ok(())
                })
            })
            .collect();
        handles.into_iter().try_for_each(|h| {
            h.join()
                .unwrap_or_else(|_| Err(Error::Integrity("a vector thread failed".into())))
        })
    })?;
    Ok(Built::Bytes(total))
}

/// Before a search in the foreground: builds the vectors it will rank with (the transformer's
/// when they are not [`pending`], else the table's, which takes a moment), with `progress`,
/// and says whether the transformer's are pending, for the caller to have them built apart.
pub fn prepare(
    store: &Store,
    projects: &[String],
    model: &Model,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<Option<Pending>> {
    let pending = pending(store, projects, model)?;
    let now = match pending {
        Some(_) => model.table(),
        None => model,
    };
    // The table's build never waits long: another process building it is done in a moment,
    // and this search embeds what it still lacks itself.
    build(store, projects, now, Duration::from_secs(10), progress)?;
    Ok(pending)
}

/// Cache folders whose transformer vectors a thread of this process is building.
static BUILDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Whether this process lives on between searches ([`build_behind_reads`]).
static LONG_LIVED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Says that this process lives on between searches (`relay serve`, `relay mcp`): its searches
/// then have the transformer's pending vectors built on a thread of their own.
pub fn build_behind_reads_in_this_process() {
    LONG_LIVED.store(true, Ordering::Relaxed);
}

/// In a long-lived process ([`build_behind_reads_in_this_process`]): when `model`'s
/// transformer vectors of `projects` are [`pending`] and no build of this process is at it,
/// has a thread build them; searches meanwhile rank with the table. A build under way in
/// another process is left to it. Errors of the thread are dropped: the next search finds
/// the vectors still pending and starts another.
pub fn build_behind_reads(store: &Store, projects: &[String], model: &Arc<Model>) {
    if !LONG_LIVED.load(Ordering::Relaxed) || !model.documents_by_transformer() {
        return;
    }
    let Some(cache) = store.search_indexes() else {
        return;
    };
    if !matches!(pending(store, projects, model), Ok(Some(p)) if p.building.is_none()) {
        return;
    }
    let dir = cache.dir().to_path_buf();
    {
        let mut busy = BUILDING.lock().unwrap_or_else(|e| e.into_inner());
        if busy.contains(&dir) {
            return;
        }
        busy.push(dir.clone());
    }
    let (root, projects, model) = (store.root().to_path_buf(), projects.to_vec(), model.clone());
    let started = std::thread::Builder::new()
        .name("relay-vectors".into())
        .spawn(move || {
            // Work that can wait: the reads come first.
            relay_store::priority::lower_this_thread();
            if let Ok(store) = Store::open(root) {
                let _ = build(&store, &projects, &model, Duration::ZERO, &|_, _| {});
            }
            (BUILDING.lock().unwrap_or_else(|e| e.into_inner())).retain(|d| d != &dir);
        });
    if started.is_err() {
        (BUILDING.lock().unwrap_or_else(|e| e.into_inner())).retain(|d| d != cache.dir());
    }
}

/// The package logs of `projects`.
pub(crate) fn logs(store: &Store, projects: &[String]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for project in projects {
        files.extend(store.package_logs(project)?);
    }
    Ok(files)
}
