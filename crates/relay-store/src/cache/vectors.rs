//! The vector index: per monthly package log, the embedding of each package line's text, under
//! `cache/vectors-v1/` ([`super::VECTORS`]). Disposable like the package index and following
//! its log by the same coverage rule; each file also names the model that made it, so vectors
//! of another model are never read, only rebuilt.
//!
//! A file is a one-line JSON header, then one entry per package line in log order: the line's
//! offset (u64), a scale (f32) and `dims` signed bytes. A vector is stored as `scale × bytes`
//! (int8, about a quarter of f32's size), and read through a memory map, so memory does not
//! follow the store's size. The store does not know how text becomes a vector: the search
//! layer hands in an [`Embedder`].

use std::fs::File;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::VECTORS;
use super::coverage::Coverage;
use super::lite::{LiteLine, LitePackage};
use super::witness::LogState;
use crate::log;

/// What turns a text into a normalised vector: the search layer's model.
pub trait Embedder: Sync {
    /// A digest of the model: vectors are only compared with vectors of the same identity.
    fn identity(&self) -> &str;
    fn dims(&self) -> usize;
    /// The normalised vector of `text`; `None` when the model finds nothing in it.
    fn embed(&self, text: &str) -> Option<Vec<f32>>;
}

/// Lines a read embeds itself, past what a vector file covers, before the file is rewritten:
/// a deposit does not cost the next search a rewrite of its month's vectors.
const TAIL_LINES: usize = 256;

/// The text of a package that its vector is made of: the title, decisions, open questions,
/// handoff note, tags and description (the title twice: it says most about the package).
/// `field` gives a field's text, lists joined by newlines.
pub fn text_of<'a>(field: impl Fn(&str) -> std::borrow::Cow<'a, str>) -> String {
    let mut text = String::new();
    let title = field("title");
    for part in [
        title.clone(),
        title,
        field("decisions_made"),
        field("open_questions"),
        field("handoff_note"),
        field("tags"),
        field("description"),
    ] {
        if !part.is_empty() {
            text.push_str(&part);
            text.push('\n');
        }
    }
    text
}

/// [`text_of`] a package line.
pub fn package_text(p: &LitePackage<'_>) -> String {
    text_of(|f| std::borrow::Cow::Owned(p.text(f).into_owned()))
}

/// The vector of one stored package line, quantised; a line that holds no package, or nothing
/// the model knows, gets the zero vector (it then matches nothing).
fn embed_line(line: &[u8], embedder: &dyn Embedder) -> Entry {
    let vector = serde_json::from_slice::<LiteLine<'_>>(line)
        .ok()
        .and_then(|l| embedder.embed(&package_text(&l.package)));
    match vector {
        Some(v) => Entry::quantise(&v),
        None => Entry {
            scale: 0.0,
            values: vec![0; embedder.dims()],
        },
    }
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
    fn quantise(v: &[f32]) -> Entry {
        let max = v.iter().fold(0f32, |m, x| m.max(x.abs()));
        if max == 0.0 {
            return Entry {
                scale: 0.0,
                values: vec![0; v.len()],
            };
        }
        let scale = max / 127.0;
        Entry {
            scale,
            values: v.iter().map(|x| (x / scale).round() as i8 as u8).collect(),
        }
    }
}

/// Where one vector of a [`Vectors`] is.
#[derive(Debug, Clone, Copy)]
enum Slot {
    File(usize),
    Memory(usize),
}

/// The vectors of one log's package lines, in the order of the offsets they were asked for.
pub struct Vectors {
    map: Option<memmap2::Mmap>,
    body: usize,
    dims: usize,
    memory: Vec<Entry>,
    slots: Vec<Slot>,
}

impl Vectors {
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The cosine similarity of every vector with the normalised `query`, in order (0 for a
    /// line without a vector). The query is quantised as the vectors are, so each product is
    /// a sum of small integers: the scan of a million vectors is bound by this loop, and
    /// integer sums vectorise where float sums (whose order matters) do not.
    pub fn similarities(&self, query: &[f32]) -> Vec<f32> {
        let q = Entry::quantise(query);
        let width = entry_bytes(self.dims);
        let file = |k: usize| -> Option<(f32, &[u8])> {
            let at = self.body + k * width + 8;
            let entry = self.map.as_deref()?.get(at..at + 4 + self.dims)?;
            let scale = f32::from_le_bytes(entry[..4].try_into().ok()?);
            Some((scale, &entry[4..]))
        };
        self.slots
            .iter()
            .map(|slot| {
                let (scale, values) = match *slot {
                    Slot::File(k) => file(k).unwrap_or((0.0, &[])),
                    Slot::Memory(k) => (self.memory[k].scale, &self.memory[k].values[..]),
                };
                scale * q.scale * dot(&q.values, values) as f32
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

/// Where the vectors of `log` live: `cache/vectors-v1/<project folder>/<month>.vec`.
pub fn vectors_path(cache_dir: &Path, log: &Path) -> PathBuf {
    let name = |p: Option<&Path>| {
        p.and_then(|p| p.file_stem())
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let project = name(log.parent().and_then(|p| p.parent()));
    VECTORS
        .dir(cache_dir)
        .join(project)
        .join(format!("{}.vec", name(Some(log))))
}

/// The identity of the model that made the vector file of `log`, when there is one (what
/// `relay doctor` compares with the configured model).
pub fn stored_model(cache_dir: &Path, log: &Path) -> Option<String> {
    let file = File::open(vectors_path(cache_dir, log)).ok()?;
    let mut first = Vec::new();
    std::io::BufRead::read_until(&mut std::io::BufReader::new(file), b'\n', &mut first).ok()?;
    serde_json::from_slice::<Header>(&first)
        .ok()
        .map(|h| h.model)
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
    match open_valid(&vectors_path(cache_dir, log), log, &state, embedder) {
        Some((header, _, _)) => log_len - header.coverage.covered.min(log_len) > TAIL_BYTES,
        None => log_len > 0,
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
    let path = cache_dir.map(|c| vectors_path(c, log));
    let valid = (path.as_deref().zip(state.as_ref()))
        .and_then(|(p, state)| open_valid(p, log, state, embedder));
    let dims = embedder.dims();
    // The file's entries are in offset order, as `offsets` are: one walk pairs them.
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
        if stored_offset(k) == Some(offset) {
            slots.push(Slot::File(k));
            k += 1;
        } else {
            slots.push(Slot::Memory(missing.len()));
            missing.push(offset);
        }
    }
    let (memory, covered) = embed_lines(log, &missing, embedder)?;
    let (map, body) = match valid {
        Some((header, body, map)) => {
            if let (Some(path), Some(state)) = (&path, &state)
                && (memory.len() > TAIL_LINES || covered > header.coverage.covered + TAIL_BYTES)
            {
                let covered = covered.max(header.coverage.covered);
                let old = Some((&map, body));
                let at = (log, state, covered);
                let _ = write(path, at, offsets, &slots, old, &memory, embedder);
            }
            (Some(map), body)
        }
        None => {
            if let (Some(path), Some(state)) = (&path, &state) {
                let at = (log, state, covered);
                let _ = write(path, at, offsets, &slots, None, &memory, embedder);
            }
            (None, 0)
        }
    };
    Ok(Vectors {
        map,
        body,
        dims,
        memory,
        slots,
    })
}

/// The vectors of the lines at `offsets` (ascending), and the end of the last of them.
fn embed_lines(
    log: &Path,
    offsets: &[u64],
    embedder: &dyn Embedder,
) -> std::io::Result<(Vec<Entry>, u64)> {
    let Some(&first) = offsets.first() else {
        return Ok((Vec::new(), 0));
    };
    let mut out = Vec::with_capacity(offsets.len());
    let mut end = 0;
    let mut next = 0;
    // One pass over the log from the first line wanted.
    let mut sink = log::Lines(|_, offset, line: &[u8]| {
        if offsets.get(next) == Some(&offset) {
            out.push(embed_line(line, embedder));
            end = offset + line.len() as u64 + 1;
            next += 1;
        }
        Ok::<_, std::io::Error>(next < offsets.len())
    });
    log::LogReader::new(log)
        .from(first, 1)
        .buffer(1 << 20)
        .read(&mut sink)?;
    // Lines not found where they were said to be (a log changed meanwhile) match nothing.
    while out.len() < offsets.len() {
        out.push(Entry {
            scale: 0.0,
            values: vec![0; embedder.dims()],
        });
    }
    Ok((out, end))
}

/// Writes the vector file of `log`: every slot's vector, in offset order.
#[allow(clippy::too_many_arguments)]
fn write(
    path: &Path,
    (log, state, covered): (&Path, &LogState, u64),
    offsets: &[u64],
    slots: &[Slot],
    old: Option<(&memmap2::Mmap, usize)>,
    memory: &[Entry],
    embedder: &dyn Embedder,
) -> relay_wire::error::Result<()> {
    let dims = embedder.dims();
    let coverage = Coverage::of(log, state, covered);
    let header = Header {
        format: VECTORS.format,
        model: embedder.identity().to_string(),
        dims,
        count: slots.len() as u64,
        coverage,
    };
    log::write_atomic_with(path, |w| {
        serde_json::to_writer(&mut *w, &header)?;
        w.write_all(b"\n")?;
        for (&offset, slot) in offsets.iter().zip(slots) {
            w.write_all(&offset.to_le_bytes())?;
            match *slot {
                Slot::File(k) => {
                    let (map, body) = old.ok_or_else(|| std::io::Error::other("no old file"))?;
                    let at = body + k * entry_bytes(dims) + 8;
                    w.write_all(&map[at..at + 4 + dims])?;
                }
                Slot::Memory(k) => {
                    w.write_all(&memory[k].scale.to_le_bytes())?;
                    w.write_all(&memory[k].values)?;
                }
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in model: a text's vector counts the letters a and b.
    struct Letters(&'static str);

    impl Embedder for Letters {
        fn identity(&self) -> &str {
            self.0
        }
        fn dims(&self) -> usize {
            2
        }
        fn embed(&self, text: &str) -> Option<Vec<f32>> {
            let a = text.matches('a').count() as f32;
            let b = text.matches('b').count() as f32;
            let n = (a * a + b * b).sqrt();
            (n > 0.0).then(|| vec![a / n, b / n])
        }
    }

    fn line(title: &str) -> String {
        format!(
            r#"{{"package":{{"package_id":"pkg_{title}","title":"{title}"}},"hash":"sha256:00"}}"#
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
        let file = vectors_path(&cache, &path);
        assert!(file.exists());
        let written = std::fs::read(&file).unwrap();
        // Read back from the file: the same answers, and the file untouched.
        let v = open(Some(&cache), &path, &offsets, &m).unwrap();
        assert_eq!(sims(&v, &[0.0, 1.0]), [0.0, 1.0, 0.0]);
        assert_eq!(std::fs::read(&file).unwrap(), written);
        // Another model's file is never read: its vectors are made again.
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
            std::fs::read(&file)
                .unwrap()
                .split(|&b| b == b'\n')
                .next()
                .unwrap(),
        )
        .unwrap();
        assert_eq!(header.model, "m2");
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
        // Without a cache, nothing is written and the answers are the same.
        let v = open(None, &path, &offsets, &m).unwrap();
        assert_eq!(sims(&v, &[1.0, 0.0]), [0.45, 1.0]);
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
