//! A document record read in place: what a broad query reads of each of a common word's
//! hundreds of thousands of documents, field by field at fixed places, without building a
//! [`super::Doc`] (and checking each field's bounds) for every one.

use super::file::{DOC_BYTES, DOC_CREATED_AT, DOC_KEY_AT, RANK_BYTES, status_of};
use relay_wire::Status;

/// One document record of an index's table ([`super::file::encode_doc`] writes its layout).
#[derive(Clone, Copy)]
pub struct DocRecord<'a>(&'a [u8; DOC_BYTES]);

impl<'a> DocRecord<'a> {
    #[inline]
    pub(super) fn of(bytes: &'a [u8]) -> Option<DocRecord<'a>> {
        bytes.try_into().ok().map(DocRecord)
    }

    #[inline]
    fn at<const N: usize>(&self, start: usize) -> [u8; N] {
        field(self.0, start)
    }

    /// Where its line starts in the log.
    #[inline]
    pub fn offset(&self) -> u64 {
        u64::from_le_bytes(self.at(0))
    }

    /// Its `created_at`, in microseconds since the epoch.
    #[inline]
    pub fn created_micros(&self) -> i64 {
        i64::from_le_bytes(self.at(DOC_CREATED_AT))
    }

    /// Its weighted length in words.
    #[inline]
    pub fn len(&self) -> f32 {
        f32::from_le_bytes(self.at(16))
    }

    #[inline]
    pub fn version(&self) -> u32 {
        u32::from_le_bytes(self.at(20))
    }

    #[inline]
    pub fn hash_prefix(&self) -> u64 {
        u64::from_le_bytes(self.at(24))
    }

    #[inline]
    pub fn significance(&self) -> i8 {
        self.0[38] as i8
    }

    #[inline]
    pub fn status(&self) -> Status {
        status_of(self.0[39])
    }

    /// The id key ([`crate::cache::id_key`]) of its package.
    #[inline]
    pub fn key(&self) -> u64 {
        u64::from_le_bytes(self.at(DOC_KEY_AT))
    }
}

/// `N` bytes of a record from `start`.
#[inline]
fn field<const N: usize>(record: &[u8], start: usize) -> [u8; N] {
    let mut out = [0u8; N];
    out.copy_from_slice(&record[start..start + N]);
    out
}

/// One entry of an index's rank table ([`super::file::encode_rank`] writes its layout): the
/// fields of a document that a broad query reads of every one, side by side.
#[derive(Clone, Copy)]
pub struct DocRank<'a>(&'a [u8; RANK_BYTES]);

impl<'a> DocRank<'a> {
    #[inline]
    pub(super) fn of(bytes: &'a [u8]) -> Option<DocRank<'a>> {
        bytes.try_into().ok().map(DocRank)
    }

    /// The id key ([`crate::cache::id_key`]) of its package.
    #[inline]
    pub fn key(&self) -> u64 {
        u64::from_le_bytes(field(self.0, 0))
    }

    /// Its weighted length in words.
    #[inline]
    pub fn len(&self) -> f32 {
        f32::from_le_bytes(field(self.0, 8))
    }

    #[inline]
    pub fn significance(&self) -> i8 {
        self.0[12] as i8
    }

    #[inline]
    pub fn status(&self) -> Status {
        status_of(self.0[13])
    }
}

#[cfg(test)]
mod tests {
    use super::super::Doc;
    use super::super::file::{decode_doc, encode_doc};
    use super::*;

    #[test]
    fn a_record_read_in_place_reads_what_was_written() {
        for (status, significance) in [
            (Status::Draft, -3),
            (Status::Complete, 10),
            (Status::AwaitingReview, 5),
            (Status::RevisionRequested, 1),
        ] {
            let doc = Doc {
                offset: 0x0102_0304_0506_0708,
                created_micros: -1_234_567_890_123,
                len: 37.5,
                version: 7,
                hash_prefix: 0xfeed_beef_dead_cafe,
                significance,
                status,
                type_code: 3,
                id: "pkg_1234".into(),
            };
            let mut bytes = Vec::new();
            encode_doc(&mut bytes, &doc, 99, doc.type_code);
            let r = DocRecord::of(&bytes).unwrap();
            let decoded = decode_doc(&bytes, None).unwrap();
            assert_eq!(
                (r.offset(), r.created_micros(), r.len(), r.version()),
                (
                    decoded.offset,
                    decoded.created_micros,
                    decoded.len,
                    decoded.version
                )
            );
            assert_eq!(
                (r.hash_prefix(), r.significance(), r.status()),
                (doc.hash_prefix, doc.significance, doc.status)
            );
            assert_eq!(r.key(), crate::cache::id_key("pkg_1234"));
            assert!(DocRecord::of(&bytes[1..]).is_none(), "a record is whole");
        }
    }

    #[test]
    fn the_rank_table_agrees_with_the_documents_in_the_file_and_in_the_tail() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("projects/p/packages/2026-01.ndjson");
        std::fs::create_dir_all(log.parent().unwrap()).unwrap();
        let statuses = ["draft", "complete", "awaiting_review", "revision_requested"];
        let line = |i: usize| {
            format!(
                "{{\"package\":{{\"package_id\":\"id{i}\",\"title\":\"Pool {}\",\"status\":\"{}\",\"significance\":{},\"created_at\":\"2026-01-01T00:00:00Z\"}},\"hash\":\"sha256:00000000000000ff\"}}\n",
                "word ".repeat(i % 7),
                statuses[i % 4],
                1 + i % 10,
            )
        };
        std::fs::write(&log, (0..40).map(line).collect::<String>()).unwrap();
        let cache = dir.path().join("cache");
        super::super::load_or_build(&cache, &log).unwrap();
        let mut f = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
        f.write_all((40..43).map(line).collect::<String>().as_bytes())
            .unwrap();
        let view = super::super::query(&cache, &log, &[crate::cache::terms::stem("pool")]).unwrap();
        assert_eq!(view.doc_count(), 43, "40 from the file, 3 from the tail");
        for i in 0..43u32 {
            let (rank, doc) = (view.rank(i).unwrap(), view.doc(i).unwrap());
            assert_eq!(
                (rank.key(), rank.len(), rank.significance(), rank.status()),
                (
                    view.doc_key(i).unwrap(),
                    doc.len,
                    doc.significance,
                    doc.status
                ),
                "document {i}"
            );
        }
        assert!(view.rank(43).is_none());
        assert_eq!(view.rank(5).unwrap().status(), Status::Complete);
        assert_eq!(view.rank(42).unwrap().significance(), 3);
    }
}
