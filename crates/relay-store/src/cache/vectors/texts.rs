//! The vectors of every text a model has embedded in this store, by content hash: a checkout
//! or merge that rewrites a log, a rebuild, or the same text in another line never embeds a
//! text twice. With a transformer, embedding is the whole cost of a vector index (tens of
//! milliseconds a package), and the per-log vector files, which follow their log's bytes, are
//! made again from these.
//!
//! The cache is a folder of segments (`<model>.texts/*.seg`), each written whole and renamed
//! into place, never changed: readers need no lock and a crash leaves no half-written segment.
//! A segment is a one-line JSON header, a table of its texts sorted by key (16 bytes of
//! SHA-256, the first entry, the number of entries), then the entries as the per-log files
//! store them without the offset (scale, then `dims` signed bytes). When segments pile up they
//! are merged into one.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{Document, Embedder, Entry};
use crate::cache::{KeyMap, VECTORS};
use crate::log;

/// Segments kept before they are merged into one: a lookup opens every segment.
const MAX_SEGMENTS: usize = 16;

/// A text's key: the first 16 bytes of the SHA-256 of its title, head and body.
pub(super) fn key(doc: &Document) -> u128 {
    let mut digest = Sha256::new();
    for part in [&doc.title, &doc.head, &doc.body] {
        digest.update((part.len() as u64).to_le_bytes());
        digest.update(part.as_bytes());
    }
    let bytes: [u8; 16] = digest.finalize()[..16].try_into().unwrap_or_default();
    u128::from_le_bytes(bytes)
}

#[derive(Debug, Serialize, Deserialize)]
struct Header {
    format: u32,
    model: String,
    dims: usize,
    /// Texts in the table.
    texts: u64,
    /// Entries after it.
    entries: u64,
}

/// One row of a segment's table: 16 bytes of key, the first entry (u32), the count (u16).
const ROW: usize = 16 + 4 + 2;

/// Where a text's entries are: the segment, its first entry's byte, how many.
#[derive(Debug, Clone, Copy)]
struct Place {
    segment: usize,
    at: u64,
    count: u16,
}

/// The text cache of one model in one cache folder, its tables read.
pub(super) struct Texts {
    dir: PathBuf,
    model: String,
    dims: usize,
    segments: Vec<(PathBuf, File)>,
    places: KeyMap<u128, Place>,
}

impl Texts {
    /// The cache in `dir` for `embedder`'s vectors, every segment's table read. Segments of
    /// another model or format, or cut short, are left out.
    pub(super) fn load(dir: &Path, embedder: &dyn Embedder) -> Texts {
        let mut texts = Texts {
            dir: dir.to_path_buf(),
            model: embedder.identity().to_string(),
            dims: embedder.dims(),
            segments: Vec::new(),
            places: KeyMap::default(),
        };
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "seg"))
            .collect();
        paths.sort();
        for path in paths {
            let _ = texts.read_segment(path);
        }
        texts
    }

    fn read_segment(&mut self, path: PathBuf) -> std::io::Result<()> {
        let file = File::open(&path)?;
        let len = file.metadata()?.len();
        let mut reader = BufReader::new(&file);
        let mut line = Vec::new();
        reader.read_until(b'\n', &mut line)?;
        let header: Header = serde_json::from_slice(&line).map_err(std::io::Error::other)?;
        let width = 4 + self.dims as u64;
        let body = line.len() as u64 + header.texts * ROW as u64;
        if header.format != VECTORS.format
            || header.model != self.model
            || header.dims != self.dims
            || len != body + header.entries * width
        {
            return Ok(());
        }
        let mut table = vec![0u8; header.texts as usize * ROW];
        reader.read_exact(&mut table)?;
        let segment = self.segments.len();
        for row in table.chunks_exact(ROW) {
            let key = u128::from_le_bytes(row[..16].try_into().unwrap_or_default());
            let first = u32::from_le_bytes(row[16..20].try_into().unwrap_or_default());
            let count = u16::from_le_bytes(row[20..22].try_into().unwrap_or_default());
            if u64::from(first) + u64::from(count) > header.entries {
                continue;
            }
            let at = body + u64::from(first) * width;
            self.places
                .entry(key)
                .or_insert(Place { segment, at, count });
        }
        self.segments.push((path, file));
        Ok(())
    }

    /// The entries of the text with `key`, when the cache holds them.
    pub(super) fn get(&self, key: u128) -> Option<Vec<Entry>> {
        let place = self.places.get(&key)?;
        let mut file = &self.segments.get(place.segment)?.1;
        let width = 4 + self.dims;
        let mut bytes = vec![0u8; usize::from(place.count) * width];
        file.seek(SeekFrom::Start(place.at)).ok()?;
        file.read_exact(&mut bytes).ok()?;
        Some(
            bytes
                .chunks_exact(width)
                .map(|e| Entry {
                    scale: f32::from_le_bytes(e[..4].try_into().unwrap_or_default()),
                    values: e[4..].to_vec(),
                })
                .collect(),
        )
    }

    /// Adds the entries of texts the cache does not hold yet as a new segment, merging the
    /// segments into one when they are many (read from their files as they are written, so
    /// memory holds their tables, not their vectors). A cache that cannot be written is no
    /// error: its texts are embedded again.
    pub(super) fn save(&mut self, new: &[(u128, Vec<Entry>)]) {
        let mut rows: Vec<(u128, Source<'_>)> = new
            .iter()
            .filter(|(key, entries)| {
                !self.places.contains_key(key) && !entries.is_empty() && entries.len() <= 0xffff
            })
            .map(|(key, entries)| (*key, Source::Memory(entries)))
            .collect();
        rows.sort_by_key(|(key, _)| *key);
        rows.dedup_by_key(|(key, _)| *key);
        if rows.is_empty() {
            return;
        }
        if self.segments.len() + 1 < MAX_SEGMENTS {
            let _ = self.write_segment(&rows);
            return;
        }
        // Merge: every text held, and the new ones, in one segment; then the old ones go.
        rows.extend(
            self.places
                .iter()
                .map(|(&key, &place)| (key, Source::Held(place))),
        );
        rows.sort_by_key(|(key, _)| *key);
        if self.write_segment(&rows).is_ok() {
            for (path, _) in self.segments.drain(..) {
                let _ = std::fs::remove_file(path);
            }
        }
    }

    fn write_segment(&self, rows: &[(u128, Source<'_>)]) -> relay_wire::error::Result<()> {
        let entries: usize = rows.iter().map(|(_, s)| s.count()).sum();
        let header = Header {
            format: VECTORS.format,
            model: self.model.clone(),
            dims: self.dims,
            texts: rows.len() as u64,
            entries: entries as u64,
        };
        let path = self
            .dir
            .join(format!("{}.seg", relay_wire::ids::new_id("t")));
        let width = 4 + self.dims;
        log::write_atomic_with(&path, |w| {
            serde_json::to_writer(&mut *w, &header)?;
            w.write_all(b"\n")?;
            let mut first = 0u32;
            for (key, source) in rows {
                w.write_all(&key.to_le_bytes())?;
                w.write_all(&first.to_le_bytes())?;
                w.write_all(&(source.count() as u16).to_le_bytes())?;
                first += source.count() as u32;
            }
            let mut bytes = Vec::new();
            for (_, source) in rows {
                match source {
                    Source::Memory(entries) => {
                        for entry in entries.iter() {
                            if entry.values.len() != self.dims {
                                return Err(std::io::Error::other("an entry of another size"));
                            }
                            w.write_all(&entry.scale.to_le_bytes())?;
                            w.write_all(&entry.values)?;
                        }
                    }
                    Source::Held(place) => {
                        let mut file = &self
                            .segments
                            .get(place.segment)
                            .ok_or_else(|| std::io::Error::other("a segment gone"))?
                            .1;
                        bytes.resize(usize::from(place.count) * width, 0);
                        file.seek(SeekFrom::Start(place.at))?;
                        file.read_exact(&mut bytes)?;
                        w.write_all(&bytes)?;
                    }
                }
            }
            Ok(())
        })
    }
}

/// Where a text's entries to write come from: made now, or held by a segment.
#[derive(Clone, Copy)]
enum Source<'a> {
    Memory(&'a [Entry]),
    Held(Place),
}

impl Source<'_> {
    fn count(&self) -> usize {
        match self {
            Source::Memory(entries) => entries.len(),
            Source::Held(place) => usize::from(place.count),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A model of two dimensions that embeds nothing (the cache is filled by hand).
    struct Named(&'static str);
    impl Embedder for Named {
        fn identity(&self) -> &str {
            self.0
        }
        fn dims(&self) -> usize {
            2
        }
        fn embed_documents(&self, _: &[Document]) -> Vec<Vec<Vec<f32>>> {
            Vec::new()
        }
    }

    const TWO: Named = Named("two");

    fn doc(title: &str) -> Document {
        Document {
            title: title.into(),
            ..Document::default()
        }
    }

    fn entries(x: f32) -> Vec<Entry> {
        vec![Entry::quantise(&[x, 1.0]), Entry::quantise(&[1.0, x])]
    }

    #[test]
    fn texts_are_kept_by_content_and_found_again() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (key(&doc("a")), key(&doc("b")));
        assert_ne!(a, key(&doc("a ")), "any change is another text");
        let mut texts = Texts::load(dir.path(), &TWO);
        assert!(texts.get(a).is_none());
        texts.save(&[(a, entries(0.5))]);
        let texts = Texts::load(dir.path(), &TWO);
        let got = texts.get(a).unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(got[1].values, entries(0.5)[1].values);
        assert!(texts.get(b).is_none());
    }

    #[test]
    fn many_segments_are_merged_and_nothing_is_lost() {
        let dir = tempfile::tempdir().unwrap();
        let keys: Vec<u128> = (0..40).map(|i| key(&doc(&format!("t{i}")))).collect();
        for (i, &k) in keys.iter().enumerate() {
            let mut texts = Texts::load(dir.path(), &TWO);
            texts.save(&[(k, entries(i as f32 / 40.0))]);
            // Saving what is held writes nothing.
            texts.save(&[(keys[0], entries(0.0))]);
        }
        let segments = std::fs::read_dir(dir.path()).unwrap().count();
        assert!(segments <= MAX_SEGMENTS, "{segments} segments");
        let texts = Texts::load(dir.path(), &TWO);
        for (i, &k) in keys.iter().enumerate() {
            let want = entries(i as f32 / 40.0);
            assert_eq!(texts.get(k).unwrap()[0].values, want[0].values, "text {i}");
        }
    }

    #[test]
    fn a_segment_of_another_model_or_cut_short_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let a = key(&doc("a"));
        Texts::load(dir.path(), &TWO).save(&[(a, entries(0.5))]);
        assert!(Texts::load(dir.path(), &Named("other")).get(a).is_none());
        let seg = std::fs::read_dir(dir.path())
            .unwrap()
            .next()
            .unwrap()
            .unwrap();
        let len = seg.metadata().unwrap().len();
        std::fs::OpenOptions::new()
            .write(true)
            .open(seg.path())
            .unwrap()
            .set_len(len - 1)
            .unwrap();
        assert!(Texts::load(dir.path(), &TWO).get(a).is_none());
    }
}
