//! The vector index: per model and monthly package log, the embeddings of each package line's
//! passages, under `cache/vectors-v3/<model>/` ([`super::VECTORS`]). Disposable like the package
//! index and following its log by the same coverage rule; each file also names the model that
//! made it, so vectors of another model are never read. Each model has its own folder, so two
//! models (the transformer, and the static table that answers while the transformer's vectors
//! are built) never rebuild each other's files. Every text embedded is also kept by content
//! hash (`texts.rs`): a log rewritten by a checkout, or a file rebuilt, costs no embedding.
//!
//! A file is a one-line JSON header, then one entry per passage of each package line, in log
//! order (a line's passages one after another, each with the line's offset): the offset (u64),
//! a scale (f32) and `dims` signed bytes. A line's similarity to a query is its best passage's. A vector is stored as `scale × bytes`
//! (int8, about a quarter of f32's size), and read through a memory map, so memory does not
//! follow the store's size. The store does not know how text becomes a vector: the search
//! layer hands in an [`Embedder`].

use std::fs::File;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

mod build;
mod texts;

pub use build::{Build, BuildProgress, progress as build_progress};

use super::VECTORS;
use super::coverage::Coverage;
use super::lite::{LiteLine, LitePackage};
use super::witness::LogState;
use crate::log;

/// A package's text as its vectors are made of it: what the model splits into passages.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Document {
    /// The title: it says most about the package, so each passage is read with it.
    pub title: String,
    /// The decisions, open questions, handoff note and tags: short, and read with the title
    /// as the first passage.
    pub head: String,
    /// The description and `content_md`: as long as a record gets, split into passages.
    pub body: String,
}

impl Document {
    /// The document of a package whose `field` gives a field's text (lists joined by newlines).
    pub fn of<'a>(field: impl Fn(&str) -> std::borrow::Cow<'a, str>) -> Document {
        let join = |names: &[&str]| {
            let mut text = String::new();
            for name in names {
                let part = field(name);
                if !part.trim().is_empty() {
                    text.push_str(&part);
                    text.push('\n');
                }
            }
            text
        };
        Document {
            title: field("title").into_owned(),
            head: join(&["decisions_made", "open_questions", "handoff_note", "tags"]),
            body: join(&["description", "content_md"]),
        }
    }

    /// [`Document::of`] a package line.
    pub fn of_line(p: &LitePackage<'_>) -> Document {
        Document::of(|f| std::borrow::Cow::Owned(p.text(f).into_owned()))
    }
}

/// What turns packages' text into normalised vectors: the search layer's model.
pub trait Embedder: Sync {
    /// A digest of the model: vectors are only compared with vectors of the same identity.
    fn identity(&self) -> &str;
    fn dims(&self) -> usize;
    /// The normalised vectors of each document's passages, one list per document in order
    /// (empty when the model finds nothing in it). A package's similarity to a query is its
    /// best passage's.
    fn embed_documents(&self, docs: &[Document]) -> Vec<Vec<Vec<f32>>>;
}

/// Lines a read embeds itself, past what a vector file covers, before the file is rewritten:
/// a deposit does not cost the next search a rewrite of its month's vectors.
const TAIL_LINES: usize = 256;

/// Package lines embedded together: the model batches their passages.
const EMBED_CHUNK: usize = 64;

/// Lines a read embeds itself before it looks in the text cache ([`texts`]), when the vector
/// file is otherwise good: a few new deposits are new texts, not worth reading the cache for.
const TEXT_LOOKUP_LINES: usize = 32;

/// The embedding time a text must have cost for its vectors to be kept in the text cache.
const TEXT_WORTH_KEEPING: std::time::Duration = std::time::Duration::from_millis(1);

/// What embedding the lines a vector file lacks made: each line's entries, the end of the
/// last line, the texts the model embedded now (for the text cache), and how long that took.
struct Embedded {
    memory: Vec<Vec<Entry>>,
    covered: u64,
    fresh: Vec<(u128, Vec<Entry>)>,
    took: std::time::Duration,
}

/// The vectors of stored package lines, quantised, taken from the text cache when it holds
/// them: a line that holds no package, or nothing the model knows, gets one zero vector (it
/// then matches nothing).
fn embed_chunk(
    lines: &[Vec<u8>],
    embedder: &dyn Embedder,
    cached: Option<&texts::Texts>,
    out: &mut Embedded,
) {
    let docs: Vec<Document> = lines
        .iter()
        .map(|line| {
            serde_json::from_slice::<LiteLine<'_>>(line)
                .map(|l| Document::of_line(&l.package))
                .unwrap_or_default()
        })
        .collect();
    let keys: Vec<u128> = docs.iter().map(texts::key).collect();
    let mut found: Vec<Option<Vec<Entry>>> = keys
        .iter()
        .map(|&k| cached.and_then(|c| c.get(k)))
        .collect();
    let wanted: Vec<usize> = (0..docs.len()).filter(|&i| found[i].is_none()).collect();
    if !wanted.is_empty() {
        let started = std::time::Instant::now();
        let docs: Vec<Document> = wanted.iter().map(|&i| docs[i].clone()).collect();
        let made = embedder.embed_documents(&docs);
        out.took += started.elapsed();
        for (&i, passages) in wanted.iter().zip(made) {
            let entries: Vec<Entry> = match passages.is_empty() {
                true => vec![Entry::zero(embedder.dims())],
                false => passages.iter().map(|v| Entry::quantise(v)).collect(),
            };
            out.fresh.push((keys[i], entries.clone()));
            found[i] = Some(entries);
        }
    }
    out.memory.extend(
        found
            .into_iter()
            .map(|e| e.unwrap_or_else(|| vec![Entry::zero(embedder.dims())])),
    );
}

#[derive(Debug, Serialize, Deserialize, PartialEq)]
struct Header {
    format: u32,
    model: String,
    dims: usize,
    count: u64,
    coverage: Coverage,
}

/// A vector held in memory: for lines the file does not cover yet.
#[derive(Debug, Clone)]
struct Entry {
    scale: f32,
    /// The i8 values as the file stores them, one byte each.
    values: Vec<u8>,
}

impl Entry {
    fn zero(dims: usize) -> Entry {
        Entry {
            scale: 0.0,
            values: vec![0; dims],
        }
    }

    fn quantise(v: &[f32]) -> Entry {
        let max = v.iter().fold(0f32, |m, x| m.max(x.abs()));
        if max == 0.0 {
            return Entry::zero(v.len());
        }
        let scale = max / 127.0;
        Entry {
            scale,
            values: v.iter().map(|x| (x / scale).round() as i8 as u8).collect(),
        }
    }
}

/// Where the passage vectors of one line of a [`Vectors`] are.
#[derive(Debug, Clone, Copy)]
enum Slot {
    /// `count` entries of the file, from entry `first`.
    File { first: usize, count: usize },
    /// The passages made in memory, `memory[k]`.
    Memory(usize),
}

/// The vectors of one log's package lines, in the order of the offsets they were asked for:
/// each line's passages.
pub struct Vectors {
    map: Option<memmap2::Mmap>,
    body: usize,
    dims: usize,
    memory: Vec<Vec<Entry>>,
    slots: Vec<Slot>,
}

impl Vectors {
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The cosine similarity of every line with the normalised `query`, in order: its best
    /// passage's (0 for a line without a vector). The query is quantised as the vectors are,
    /// so each product is a sum of small integers: the scan of a million vectors is bound by
    /// this loop, and integer sums vectorise where float sums (whose order matters) do not.
    pub fn similarities(&self, query: &[f32]) -> Vec<f32> {
        let q = Entry::quantise(query);
        let width = entry_bytes(self.dims);
        let file = |k: usize| -> Option<(f32, &[u8])> {
            let at = self.body + k * width + 8;
            let entry = self.map.as_deref()?.get(at..at + 4 + self.dims)?;
            let scale = f32::from_le_bytes(entry[..4].try_into().ok()?);
            Some((scale, &entry[4..]))
        };
        let score = |(scale, values): (f32, &[u8])| scale * q.scale * dot(&q.values, values) as f32;
        self.slots
            .iter()
            .map(|slot| {
                let best = match *slot {
                    Slot::File { first, count } => (first..first + count)
                        .map(|k| score(file(k).unwrap_or((0.0, &[]))))
                        .fold(f32::NEG_INFINITY, f32::max),
                    Slot::Memory(k) => self.memory[k]
                        .iter()
                        .map(|e| score((e.scale, &e.values)))
                        .fold(f32::NEG_INFINITY, f32::max),
                };
                if best.is_finite() { best } else { 0.0 }
            })
            .collect()
    }
}

/// `a · b`, both read as i8; 0 when the lengths differ (a vector of another size).
fn dot(a: &[u8], b: &[u8]) -> i32 {
    if a.len() != b.len() {
        return 0;
    }
    a.iter()
        .zip(b)
        .map(|(&x, &y)| i32::from(x as i8 as i16 * y as i8 as i16))
        .sum()
}

fn entry_bytes(dims: usize) -> usize {
    8 + 4 + dims
}

/// The folder of one model's vectors: `cache/vectors-v3/<16 hex digits of the digest of its
/// identity>`.
pub fn model_dir(cache_dir: &Path, identity: &str) -> PathBuf {
    use sha2::Digest as _;
    let digest = sha2::Sha256::digest(identity.as_bytes());
    let name: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    VECTORS.dir(cache_dir).join(name)
}

/// Where `identity`'s text cache lives ([`texts`]): beside its model folder, so that no
/// project's folder can take its name.
fn texts_dir(cache_dir: &Path, identity: &str) -> PathBuf {
    model_dir(cache_dir, identity).with_extension("texts")
}

/// Where the vectors of `log` by the model `identity` live:
/// `cache/vectors-v3/<model>/<project folder>/<month>.vec`.
pub fn vectors_path(cache_dir: &Path, log: &Path, identity: &str) -> PathBuf {
    let name = |p: Option<&Path>| {
        p.and_then(|p| p.file_stem())
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let project = name(log.parent().and_then(|p| p.parent()));
    model_dir(cache_dir, identity)
        .join(project)
        .join(format!("{}.vec", name(Some(log))))
}

/// Whether `embedder`'s vector file of `log` exists and still holds for the log (what
/// `relay doctor` counts).
pub fn is_built(cache_dir: &Path, log: &Path, embedder: &dyn Embedder) -> bool {
    LogState::observe(cache_dir, log).is_ok_and(|state| {
        let path = vectors_path(cache_dir, log, embedder.identity());
        open_valid(&path, log, &state, embedder).is_some()
    })
}

/// How many models other than those of `identities` have vectors in `cache_dir` (never read,
/// only disk).
pub fn other_models(cache_dir: &Path, identities: &[&str]) -> usize {
    let mine: Vec<PathBuf> = identities.iter().map(|i| model_dir(cache_dir, i)).collect();
    std::fs::read_dir(VECTORS.dir(cache_dir))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| !mine.contains(&e.path()) && e.path().extension().is_none())
        .count()
}

/// Removes every model's vectors of `log`, and every model's text cache, which may hold the
/// vectors of its lines' texts: what [`super::forget_log`] does for a purge.
pub(crate) fn forget(cache_dir: &Path, log: &Path) -> std::io::Result<()> {
    let Ok(models) = std::fs::read_dir(VECTORS.dir(cache_dir)) else {
        return Ok(());
    };
    let name = |p: Option<&Path>| p.and_then(Path::file_stem).map(|s| s.to_os_string());
    for entry in models.flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|x| x == "texts") {
            match std::fs::remove_dir_all(&path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
                _ => {}
            }
        } else if let (Some(project), Some(month)) =
            (name(log.parent().and_then(Path::parent)), name(Some(log)))
        {
            let file = path.join(project).join(month).with_extension("vec");
            super::remove_derived(&file)?;
        }
    }
    Ok(())
}

/// Uncovered log bytes a search embeds in memory rather than write the file again for (the
/// lines of a few hundred deposits): past this, [`needs_build`] says so.
const TAIL_BYTES: u64 = 256 * 1024;

/// Whether the vector file of `log` is missing, stale, or far enough behind its log that it
/// should be written again before a search (a header read, and the coverage check).
pub fn needs_build(cache_dir: &Path, log: &Path, embedder: &dyn Embedder) -> bool {
    let Ok(state) = LogState::observe(cache_dir, log) else {
        return false;
    };
    let log_len = state.len;
    let path = vectors_path(cache_dir, log, embedder.identity());
    match open_valid(&path, log, &state, embedder) {
        Some((header, _, _)) => log_len - header.coverage.covered.min(log_len) > TAIL_BYTES,
        None => log_len > 0,
    }
}

/// The bytes of `log` that `embedder`'s vector file does not cover: all of them when there is
/// no good file. What a search would embed itself before it could rank by this model.
pub fn uncovered(cache_dir: &Path, log: &Path, embedder: &dyn Embedder) -> u64 {
    let Ok(state) = LogState::observe(cache_dir, log) else {
        return 0;
    };
    let path = vectors_path(cache_dir, log, embedder.identity());
    match open_valid(&path, log, &state, embedder) {
        Some((header, _, _)) => state.len - header.coverage.covered.min(state.len),
        None => state.len,
    }
}

/// Lines of a log's uncovered bytes that [`uncached`] looks up in the text cache.
const CACHE_SAMPLE: u64 = 16;

/// About how many of the bytes of `log` that `embedder`'s vector file does not cover hold
/// texts the text cache lacks: what making the file would really embed. After a checkout
/// or a rebuild, nearly nothing. Estimated from [`CACHE_SAMPLE`] lines spread over the
/// uncovered bytes.
pub fn uncached(cache_dir: &Path, log: &Path, embedder: &dyn Embedder) -> u64 {
    let uncovered = uncovered(cache_dir, log, embedder);
    let texts = texts_dir(cache_dir, embedder.identity());
    if uncovered == 0 || !texts.is_dir() {
        return uncovered;
    }
    let cached = texts::Texts::load(&texts, embedder);
    let Ok(file) = File::open(log) else {
        return uncovered;
    };
    let len = file.metadata().map_or(0, |m| m.len());
    let start = len.saturating_sub(uncovered);
    let mut reader = std::io::BufReader::new(file);
    let (mut seen, mut found) = (0u64, 0u64);
    for k in 0..CACHE_SAMPLE {
        use std::io::{BufRead as _, Seek as _};
        let at = start + uncovered * k / CACHE_SAMPLE;
        let mut line = Vec::new();
        if reader.seek(std::io::SeekFrom::Start(at)).is_err()
            || (at > start && reader.read_until(b'\n', &mut line).is_err())
        {
            break;
        }
        line.clear();
        if reader.read_until(b'\n', &mut line).map_or(true, |n| n == 0) {
            continue;
        }
        let Ok(parsed) = serde_json::from_slice::<LiteLine<'_>>(&line) else {
            continue;
        };
        seen += 1;
        found += u64::from(
            cached
                .get(texts::key(&Document::of_line(&parsed.package)))
                .is_some(),
        );
    }
    match seen {
        0 => uncovered,
        _ => uncovered * (seen - found) / seen,
    }
}

/// A vector file that is still good for `log` (`log_len` bytes) and the model: its header and
/// map. Anything else (no file, another model or format, a log rewritten under it, a file cut
/// short) is `None`: the vectors are then made again.
fn open_valid(
    path: &Path,
    log: &Path,
    state: &LogState,
    embedder: &dyn Embedder,
) -> Option<(Header, usize, memmap2::Mmap)> {
    let file = File::open(path).ok()?;
    // SAFETY: relay replaces vector files by rename, never rewrites one in place, so the
    // mapped bytes do not change under the map; a file cut by hand fails the length check.
    let map = unsafe { memmap2::Mmap::map(&file) }.ok()?;
    let end = memchr::memchr(b'\n', &map)?;
    let header: Header = serde_json::from_slice(&map[..end]).ok()?;
    let body = end + 1;
    let fits = map.len() as u64 == body as u64 + header.count * entry_bytes(header.dims) as u64;
    (header.format == VECTORS.format
        && header.model == embedder.identity()
        && header.dims == embedder.dims()
        && fits
        && header.coverage.holds(log, state).ok()?)
    .then_some((header, body, map))
}

/// The vectors of the package lines of `log` at `offsets` (ascending: the package index's
/// documents), in that order. Lines the vector file holds are read from it; the others are
/// embedded now, and the file is written again when they are many or the file was unusable.
/// A cache that cannot be written is no error; without a `cache_dir` every vector is made in
/// memory and nothing is written.
pub fn open(
    cache_dir: Option<&Path>,
    log: &Path,
    offsets: &[u64],
    embedder: &dyn Embedder,
) -> std::io::Result<Vectors> {
    let state = match cache_dir {
        Some(c) => Some(LogState::observe(c, log)?),
        None => None,
    };
    let path = cache_dir.map(|c| vectors_path(c, log, embedder.identity()));
    let valid = (path.as_deref().zip(state.as_ref()))
        .and_then(|(p, state)| open_valid(p, log, state, embedder));
    let dims = embedder.dims();
    // The file's entries are in offset order (a line's passages one after another), as
    // `offsets` are: one walk pairs them.
    let stored_offset = |k: usize| -> Option<u64> {
        let (header, body, map) = valid.as_ref()?;
        (k < header.count as usize).then(|| {
            let at = body + k * entry_bytes(dims);
            u64::from_le_bytes(map[at..at + 8].try_into().unwrap_or_default())
        })
    };
    let mut slots = Vec::with_capacity(offsets.len());
    let mut missing = Vec::new();
    let mut k = 0;
    for &offset in offsets {
        while stored_offset(k).is_some_and(|o| o < offset) {
            k += 1;
        }
        let first = k;
        while stored_offset(k) == Some(offset) {
            k += 1;
        }
        if k > first {
            slots.push(Slot::File {
                first,
                count: k - first,
            });
        } else {
            slots.push(Slot::Memory(missing.len()));
            missing.push(offset);
        }
    }
    // Lines missing from a file that is gone or no longer holds (a checkout, a rebuild), or
    // many of them, are looked up in the text cache before any is embedded.
    let mut cached = match cache_dir {
        Some(c) if valid.is_none() || missing.len() >= TEXT_LOOKUP_LINES => Some(
            texts::Texts::load(&texts_dir(c, embedder.identity()), embedder),
        ),
        _ => None,
    };
    let embedded = embed_lines(log, &missing, embedder, cached.as_ref())?;
    let Embedded {
        memory,
        covered,
        fresh,
        took,
    } = embedded;
    let mut written = false;
    let (map, body) = match valid {
        Some((header, body, map)) => {
            // The file is written again when the lines it lacks are many, or when embedding
            // them took longer than writing it would (a transformer's few new lines).
            let rewrite_cost = std::time::Duration::from_micros(
                REWRITE_MICROS + map.len() as u64 / REWRITE_BYTES_PER_MICRO,
            );
            if let (Some(path), Some(state)) = (&path, &state)
                && (memory.len() > TAIL_LINES
                    || covered > header.coverage.covered + TAIL_BYTES
                    || took > rewrite_cost)
            {
                let covered = covered.max(header.coverage.covered);
                let old = Some((&map, body));
                let at = (log, state, covered);
                written = write(path, at, offsets, &slots, old, &memory, embedder).is_ok();
            }
            (Some(map), body)
        }
        None => {
            if let (Some(path), Some(state)) = (&path, &state) {
                remove_old_formats(cache_dir.unwrap_or(Path::new("")));
                let at = (log, state, covered);
                written = write(path, at, offsets, &slots, None, &memory, embedder).is_ok();
            }
            (None, 0)
        }
    };
    // What the model embedded now is kept by content once it is in a file, when embedding is
    // what costs (a transformer's milliseconds a text, not the table's microseconds): texts
    // embedded for one read only are not worth a segment, nor texts cheaper to embed again
    // than to keep.
    if let Some(c) = cache_dir
        && written
        && !fresh.is_empty()
        && took >= TEXT_WORTH_KEEPING * fresh.len() as u32
    {
        cached
            .get_or_insert_with(|| texts::Texts::load(&texts_dir(c, embedder.identity()), embedder))
            .save(&fresh);
    }
    Ok(Vectors {
        map,
        body,
        dims,
        memory,
        slots,
    })
}

/// Removes the vectors of the formats before this one (never read again: each format has its
/// own folder), when a new file is made.
fn remove_old_formats(cache_dir: &Path) {
    for format in 1..VECTORS.format {
        let old = super::Index { format, ..VECTORS };
        let _ = std::fs::remove_dir_all(old.dir(cache_dir));
    }
}

/// What writing a vector file again costs, weighed against embedding the lines it lacks: a
/// fixed 2 ms (a new file, its rename), and its bytes at a cautious 200 MB/s.
const REWRITE_MICROS: u64 = 2_000;
const REWRITE_BYTES_PER_MICRO: u64 = 200;

/// The passage vectors of the lines at `offsets` (ascending), and the end of the last of them.
fn embed_lines(
    log: &Path,
    offsets: &[u64],
    embedder: &dyn Embedder,
    cached: Option<&texts::Texts>,
) -> std::io::Result<Embedded> {
    let mut out = Embedded {
        memory: Vec::with_capacity(offsets.len()),
        covered: 0,
        fresh: Vec::new(),
        took: std::time::Duration::ZERO,
    };
    let Some(&first) = offsets.first() else {
        return Ok(out);
    };
    let mut pending: Vec<Vec<u8>> = Vec::new();
    let mut end = 0;
    let mut next = 0;
    // One pass over the log from the first line wanted, embedding a chunk of lines at a time.
    let mut sink = log::Lines(|_, offset, line: &[u8]| {
        if offsets.get(next) == Some(&offset) {
            pending.push(line.to_vec());
            if pending.len() == EMBED_CHUNK {
                embed_chunk(&pending, embedder, cached, &mut out);
                pending.clear();
            }
            end = offset + line.len() as u64 + 1;
            next += 1;
        }
        Ok::<_, std::io::Error>(next < offsets.len())
    });
    log::LogReader::new(log)
        .from(first, 1)
        .buffer(1 << 20)
        .read(&mut sink)?;
    embed_chunk(&pending, embedder, cached, &mut out);
    // Lines not found where they were said to be (a log changed meanwhile) match nothing.
    while out.memory.len() < offsets.len() {
        out.memory.push(vec![Entry::zero(embedder.dims())]);
    }
    out.covered = end;
    Ok(out)
}

/// Writes the vector file of `log`: every slot's passage vectors, in offset order.
#[allow(clippy::too_many_arguments)]
fn write(
    path: &Path,
    (log, state, covered): (&Path, &LogState, u64),
    offsets: &[u64],
    slots: &[Slot],
    old: Option<(&memmap2::Mmap, usize)>,
    memory: &[Vec<Entry>],
    embedder: &dyn Embedder,
) -> relay_wire::error::Result<()> {
    let dims = embedder.dims();
    let coverage = Coverage::of(log, state, covered);
    let count = slots
        .iter()
        .map(|slot| match *slot {
            Slot::File { count, .. } => count,
            Slot::Memory(k) => memory[k].len(),
        })
        .sum::<usize>();
    let header = Header {
        format: VECTORS.format,
        model: embedder.identity().to_string(),
        dims,
        count: count as u64,
        coverage,
    };
    log::write_atomic_with(path, |w| {
        serde_json::to_writer(&mut *w, &header)?;
        w.write_all(b"\n")?;
        for (&offset, slot) in offsets.iter().zip(slots) {
            match *slot {
                Slot::File { first, count } => {
                    let (map, body) = old.ok_or_else(|| std::io::Error::other("no old file"))?;
                    for k in first..first + count {
                        let at = body + k * entry_bytes(dims);
                        w.write_all(&map[at..at + entry_bytes(dims)])?;
                    }
                }
                Slot::Memory(k) => {
                    for entry in &memory[k] {
                        w.write_all(&offset.to_le_bytes())?;
                        w.write_all(&entry.scale.to_le_bytes())?;
                        w.write_all(&entry.values)?;
                    }
                }
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in model: a text's vector counts the letters a and b; the title and head are
    /// one passage, each line of the body another.
    struct Letters(&'static str);

    fn letters(text: &str) -> Option<Vec<f32>> {
        let a = text.matches('a').count() as f32;
        let b = text.matches('b').count() as f32;
        let n = (a * a + b * b).sqrt();
        (n > 0.0).then(|| vec![a / n, b / n])
    }

    impl Embedder for Letters {
        fn identity(&self) -> &str {
            self.0
        }
        fn dims(&self) -> usize {
            2
        }
        fn embed_documents(&self, docs: &[Document]) -> Vec<Vec<Vec<f32>>> {
            docs.iter()
                .map(|d| {
                    std::iter::once(format!("{}{}", d.title, d.head))
                        .chain(d.body.lines().map(str::to_string))
                        .filter_map(|p| letters(&p))
                        .collect()
                })
                .collect()
        }
    }

    /// [`Letters`], counting the documents it is asked to embed.
    struct Counting(Letters, std::sync::atomic::AtomicUsize);

    impl Counting {
        fn new(name: &'static str) -> Counting {
            Counting(Letters(name), Default::default())
        }
        fn embedded(&self) -> usize {
            self.1.load(std::sync::atomic::Ordering::Relaxed)
        }
    }

    impl Embedder for Counting {
        fn identity(&self) -> &str {
            self.0.identity()
        }
        fn dims(&self) -> usize {
            2
        }
        fn embed_documents(&self, docs: &[Document]) -> Vec<Vec<Vec<f32>>> {
            self.1
                .fetch_add(docs.len(), std::sync::atomic::Ordering::Relaxed);
            // A transformer's cost: what makes a text worth keeping.
            std::thread::sleep(std::time::Duration::from_millis(2 * docs.len() as u64));
            self.0.embed_documents(docs)
        }
    }

    #[test]
    fn a_checkout_or_a_rebuild_never_embeds_a_text_twice() {
        let (_dir, cache, path) = fixture();
        let m = Counting::new("m1");
        let offsets = log(&path, &["aaa", "bbb", "ab"]);
        open(Some(&cache), &path, &offsets, &m).unwrap();
        assert_eq!(m.embedded(), 3);
        // A checkout rewrites the log: same texts in another order, and one new.
        let offsets = log(&path, &["ab", "aaa", "ba", "bbb"]);
        let v = open(Some(&cache), &path, &offsets, &m).unwrap();
        assert_eq!(m.embedded(), 4, "only the new text");
        assert_eq!(sims(&v, &[1.0, 0.0]), [0.71, 1.0, 0.71, 0.0]);
        // A rebuild: the vector file is gone.
        std::fs::remove_file(vectors_path(&cache, &path, "m1")).unwrap();
        let v = open(Some(&cache), &path, &offsets, &m).unwrap();
        assert_eq!(m.embedded(), 4, "nothing embedded again");
        assert_eq!(sims(&v, &[0.0, 1.0]), [0.71, 0.0, 0.71, 1.0]);
        // Without its file, the log is uncovered but its texts are all cached.
        std::fs::remove_file(vectors_path(&cache, &path, "m1")).unwrap();
        let len = std::fs::metadata(&path).unwrap().len();
        assert_eq!(uncovered(&cache, &path, &m), len);
        assert_eq!(uncached(&cache, &path, &m), 0);
        let mut titles = vec!["ab", "aaa", "ba", "bbb"];
        titles.extend(std::iter::repeat_n("new", 12));
        log(&path, &titles);
        let (uncovered, uncached) = (uncovered(&cache, &path, &m), uncached(&cache, &path, &m));
        assert!(
            uncached > uncovered / 2 && uncached < uncovered,
            "{uncached} of {uncovered}"
        );
        let offsets = log(&path, &["ab", "aaa", "ba", "bbb"]);
        // A purge forgets the log: every text's vectors go with it.
        crate::cache::forget_log(&cache, &path).unwrap();
        assert!(!vectors_path(&cache, &path, "m1").exists());
        assert!(!texts_dir(&cache, "m1").exists());
        open(Some(&cache), &path, &offsets, &m).unwrap();
        assert_eq!(m.embedded(), 8);
    }

    #[test]
    fn a_few_new_lines_are_written_when_embedding_them_cost_more_than_the_file() {
        /// A model that takes a while: what a transformer is.
        struct Slow(Letters);
        impl Embedder for Slow {
            fn identity(&self) -> &str {
                self.0.identity()
            }
            fn dims(&self) -> usize {
                2
            }
            fn embed_documents(&self, docs: &[Document]) -> Vec<Vec<Vec<f32>>> {
                std::thread::sleep(std::time::Duration::from_millis(5));
                self.0.embed_documents(docs)
            }
        }
        let (_dir, cache, path) = fixture();
        let (fast, slow) = (Letters("fast"), Slow(Letters("slow")));
        let offsets = log(&path, &["aaa", "bbb"]);
        open(Some(&cache), &path, &offsets, &fast).unwrap();
        open(Some(&cache), &path, &offsets, &slow).unwrap();
        let before = |id| std::fs::read(vectors_path(&cache, &path, id)).unwrap();
        let (fast_file, slow_file) = (before("fast"), before("slow"));
        let offsets = log(&path, &["aaa", "bbb", "ab"]);
        open(Some(&cache), &path, &offsets, &fast).unwrap();
        open(Some(&cache), &path, &offsets, &slow).unwrap();
        assert_eq!(
            before("fast"),
            fast_file,
            "the table embeds a new line each read"
        );
        assert_ne!(
            before("slow"),
            slow_file,
            "the transformer's new line is kept"
        );
    }

    fn line(title: &str) -> String {
        let (title, description) = title.split_once('|').unwrap_or((title, ""));
        format!(
            r#"{{"package":{{"package_id":"pkg_{title}","title":"{title}","description":"{description}"}},"hash":"sha256:00"}}"#
        )
    }

    /// A log of `titles`, one line each, and their offsets.
    fn log(path: &Path, titles: &[&str]) -> Vec<u64> {
        let mut text = String::new();
        let mut offsets = Vec::new();
        for t in titles {
            offsets.push(text.len() as u64);
            text.push_str(&line(t));
            text.push('\n');
        }
        std::fs::write(path, text).unwrap();
        offsets
    }

    /// A temporary folder, its `cache/`, and where project `demo`'s log of January 2026 goes.
    fn fixture() -> (tempfile::TempDir, PathBuf, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let logs = dir.path().join("demo").join("packages");
        std::fs::create_dir_all(&logs).unwrap();
        let (cache, path) = (dir.path().join("cache"), logs.join("2026-01.ndjson"));
        (dir, cache, path)
    }

    fn sims(v: &Vectors, q: &[f32]) -> Vec<f32> {
        v.similarities(q)
            .iter()
            .map(|s| (s * 100.0).round() / 100.0)
            .collect()
    }

    #[test]
    fn a_build_is_needed_until_the_file_covers_the_log_for_this_model() {
        let (_dir, cache, path) = fixture();
        let offsets = log(&path, &["aaa", "bbb"]);
        let m = Letters("m1");
        assert!(needs_build(&cache, &path, &m), "no file yet");
        open(Some(&cache), &path, &offsets, &m).unwrap();
        assert!(!needs_build(&cache, &path, &m));
        assert!(needs_build(&cache, &path, &Letters("m2")), "another model");
        // A few new lines are embedded by the search itself; a long tail is a build.
        let mut titles = vec!["aaa", "bbb", "ab"];
        log(&path, &titles);
        assert!(!needs_build(&cache, &path, &m));
        titles.extend(std::iter::repeat_n("ba", 4000));
        let offsets = log(&path, &titles);
        assert!(needs_build(&cache, &path, &m));
        open(Some(&cache), &path, &offsets, &m).unwrap();
        assert!(!needs_build(&cache, &path, &m), "the search wrote it");
    }

    #[test]
    fn vectors_are_stored_reused_and_follow_the_log() {
        let (_dir, cache, path) = fixture();
        let offsets = log(&path, &["aaa", "bbb", "xyz"]);
        let m = Letters("m1");
        let v = open(Some(&cache), &path, &offsets, &m).unwrap();
        assert_eq!(sims(&v, &[1.0, 0.0]), [1.0, 0.0, 0.0], "xyz has no vector");
        let file = vectors_path(&cache, &path, "m1");
        assert!(file.exists());
        let written = std::fs::read(&file).unwrap();
        // Read back from the file: the same answers, and the file untouched.
        let v = open(Some(&cache), &path, &offsets, &m).unwrap();
        assert_eq!(sims(&v, &[0.0, 1.0]), [0.0, 1.0, 0.0]);
        assert_eq!(std::fs::read(&file).unwrap(), written);
        // Another model's file is never read: its vectors are made again, in its own folder,
        // and neither model's file is lost to the other.
        let other = Letters("m2");
        assert!(
            open_valid(
                &file,
                &path,
                &LogState::observe(&cache, &path).unwrap(),
                &other
            )
            .is_none()
        );
        open(Some(&cache), &path, &offsets, &other).unwrap();
        let header: Header = serde_json::from_slice(
            std::fs::read(vectors_path(&cache, &path, "m2"))
                .unwrap()
                .split(|&b| b == b'\n')
                .next()
                .unwrap(),
        )
        .unwrap();
        assert_eq!(header.model, "m2");
        assert_eq!(std::fs::read(&file).unwrap(), written);
        assert!(is_built(&cache, &path, &m) && is_built(&cache, &path, &other));
        assert!(
            !texts_dir(&cache, "m1").exists(),
            "texts cheaper to embed again than to keep are not kept"
        );
        assert_eq!(other_models(&cache, &["m1"]), 1);
        assert_eq!(other_models(&cache, &["m1", "m2"]), 0);
        // A log rewritten under the file (a checkout): the vectors follow the new lines.
        let offsets = log(&path, &["bab", "aaa"]);
        let v = open(Some(&cache), &path, &offsets, &m).unwrap();
        assert_eq!(sims(&v, &[1.0, 0.0]), [0.45, 1.0]);
        // A file cut short is not read.
        let len = std::fs::metadata(&file).unwrap().len();
        std::fs::OpenOptions::new()
            .write(true)
            .open(&file)
            .unwrap()
            .set_len(len - 3)
            .unwrap();
        let state = LogState::observe(&cache, &path).unwrap();
        assert!(open_valid(&file, &path, &state, &m).is_none());
        let v = open(Some(&cache), &path, &offsets, &m).unwrap();
        assert_eq!(sims(&v, &[1.0, 0.0]), [0.45, 1.0]);
        // Vectors of an older format are removed when a new file is made.
        let old = cache.join("vectors-v2").join("demo");
        std::fs::create_dir_all(&old).unwrap();
        std::fs::remove_file(vectors_path(&cache, &path, "m1")).unwrap();
        open(Some(&cache), &path, &offsets, &m).unwrap();
        assert!(!old.exists());
        // Without a cache, nothing is written and the answers are the same.
        let v = open(None, &path, &offsets, &m).unwrap();
        assert_eq!(sims(&v, &[1.0, 0.0]), [0.45, 1.0]);
    }

    #[test]
    fn a_line_scores_by_its_best_passage_and_keeps_every_one() {
        let (_dir, cache, path) = fixture();
        // "xx" has no vector of its own; its body's lines do, one each.
        let offsets = log(&path, &["aaa", "xx|b\\nab", "xyz|xyz"]);
        let m = Letters("m1");
        let v = open(Some(&cache), &path, &offsets, &m).unwrap();
        assert_eq!(sims(&v, &[0.0, 1.0]), [0.0, 1.0, 0.0], "its b passage");
        assert_eq!(sims(&v, &[1.0, 0.0]), [1.0, 0.71, 0.0], "its ab passage");
        // Read back from the file: the same, each line's passages together.
        let header: Header = serde_json::from_slice(
            std::fs::read(vectors_path(&cache, &path, "m1"))
                .unwrap()
                .split(|&b| b == b'\n')
                .next()
                .unwrap(),
        )
        .unwrap();
        assert_eq!(header.count, 4, "1 + 2 passages, and a zero for xyz");
        let v = open(Some(&cache), &path, &offsets[1..], &m).unwrap();
        assert_eq!(sims(&v, &[1.0, 0.0]), [0.71, 0.0]);
    }

    #[test]
    fn quantising_keeps_the_direction() {
        let v = [0.6f32, -0.8];
        let e = Entry::quantise(&v);
        let back: Vec<f32> = e
            .values
            .iter()
            .map(|&x| f32::from(x as i8) * e.scale)
            .collect();
        assert!(
            (back[0] - 0.6).abs() < 0.01 && (back[1] + 0.8).abs() < 0.01,
            "{back:?}"
        );
        assert_eq!(Entry::quantise(&[0.0, 0.0]).scale, 0.0);
    }
}
