//! What the clone knows of each indexed log's whole content (DESIGN invariant 9): a
//! fingerprint of every byte, and the file identity (device, inode, size, times) it held when
//! the fingerprint was taken. Like git's index: when a log's identity is unchanged, its
//! fingerprint is known without reading it; when it changed (a checkout, merge, rebase, stash
//! or reset replaced the file), the log is read once to fingerprint it again. Relay's own
//! appends keep the fingerprint current as they write ([`record_append`]), so a log that only
//! grew is never read in full; while such an append syncs, readers in the writer's process
//! learn of it from memory ([`begin_append`]), and the witness file is written once per append.
//!
//! The fingerprint is a polynomial hash modulo 2^61 − 1 whose base is drawn at random per
//! witness file: it extends ([`Sum::then`]), so the fingerprint of a prefix can be checked
//! against the whole from the bytes after the prefix alone, and nobody who cannot read
//! `cache/` can make two different logs agree. One witness file per project folder,
//! `cache/logs-v1/<folder>.json`, written by rename under a lock file beside it, so that two
//! writers of one witness file (a reader that fingerprinted a log, a writer that appended to
//! another) never lose each other's entry. An entry describing a log as it is now is never
//! replaced by one a slower reader took of the same state, and a writer that finds no entry
//! to extend fingerprints its log once itself: under a steady stream of appends, no reader
//! could ever note an entry old enough to trust, and every read would read the whole log.

use std::collections::BTreeMap;
use std::fs::{File, Metadata};
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

const DIR: &str = "logs-v1";
const MODULUS: u64 = (1 << 61) - 1;

fn mul(a: u64, b: u64) -> u64 {
    let p = u128::from(a) * u128::from(b);
    let folded = (p as u64 & MODULUS) + (p >> 61) as u64;
    let r = (folded & MODULUS) + (folded >> 61);
    if r >= MODULUS { r - MODULUS } else { r }
}

fn add(a: u64, b: u64) -> u64 {
    let r = a + b;
    if r >= MODULUS { r - MODULUS } else { r }
}

fn pow(mut b: u64, mut e: u64) -> u64 {
    let mut r = 1;
    while e > 0 {
        if e & 1 == 1 {
            r = mul(r, b);
        }
        b = mul(b, b);
        e >>= 1;
    }
    r
}

/// The fingerprint of a byte string under one base: Σ (byte + 1)·base^(n−1−i) mod 2^61 − 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sum(pub u64);

/// Hashes bytes under a base, eight at a time: the eight bytes' terms come from tables of
/// (byte + 1)·base^k, so a block costs eight loads and one multiplication.
#[derive(Debug, Clone)]
pub struct Hasher {
    base: u64,
    /// base^8.
    step: u64,
    /// `terms[j][b]` = (b + 1)·base^(7 − j) for the byte `b` at place `j` of a block.
    terms: Box<[[u64; 256]; 8]>,
    sum: u64,
}

impl Hasher {
    pub fn new(base: u64) -> Hasher {
        let mut powers = [1u64; 9];
        for i in 1..9 {
            powers[i] = mul(powers[i - 1], base);
        }
        let mut terms = Box::new([[0u64; 256]; 8]);
        for (j, table) in terms.iter_mut().enumerate() {
            for (b, term) in table.iter_mut().enumerate() {
                *term = mul(b as u64 + 1, powers[7 - j]);
            }
        }
        Hasher {
            base,
            step: powers[8],
            terms,
            sum: 0,
        }
    }

    pub fn update(&mut self, bytes: &[u8]) {
        let t = &self.terms;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            // Eight terms below 2^61 each: their sum fits in 64 bits.
            let block = t[0][usize::from(c[0])]
                + t[1][usize::from(c[1])]
                + t[2][usize::from(c[2])]
                + t[3][usize::from(c[3])]
                + t[4][usize::from(c[4])]
                + t[5][usize::from(c[5])]
                + t[6][usize::from(c[6])]
                + t[7][usize::from(c[7])];
            let folded = (block & MODULUS) + (block >> 61);
            let block = if folded >= MODULUS {
                folded - MODULUS
            } else {
                folded
            };
            self.sum = add(mul(self.sum, self.step), block);
        }
        for &b in chunks.remainder() {
            self.sum = add(mul(self.sum, self.base), u64::from(b) + 1);
        }
    }

    pub fn finish(&self) -> Sum {
        Sum(self.sum)
    }

    /// The fingerprint of `bytes` alone, under `base`.
    pub fn of(base: u64, bytes: &[u8]) -> Sum {
        let mut h = Hasher::new(base);
        h.update(bytes);
        h.finish()
    }
}

impl Sum {
    /// The fingerprint of `self`'s bytes followed by `len` bytes whose fingerprint is `next`.
    pub fn then(self, base: u64, next: Sum, len: u64) -> Sum {
        Sum(add(mul(self.0, pow(base, len)), next.0))
    }
}

/// A file's identity as `stat` gives it: changed by every write, and by a replacement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    pub len: u64,
    pub modified: (i64, i64),
    pub changed: (i64, i64),
    pub device: u64,
    pub inode: u64,
}

impl Identity {
    pub fn of(m: &Metadata) -> Identity {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Identity {
                len: m.len(),
                modified: (m.mtime(), m.mtime_nsec()),
                changed: (m.ctime(), m.ctime_nsec()),
                device: m.dev(),
                inode: m.ino(),
            }
        }
        #[cfg(not(unix))]
        {
            let t = m
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or((0, 0), |d| {
                    (d.as_secs() as i64, i64::from(d.subsec_nanos()))
                });
            Identity {
                len: m.len(),
                modified: t,
                changed: t,
                device: 0,
                inode: 0,
            }
        }
    }

    /// Whether the file is the one this was taken of, possibly grown in place.
    pub fn same_file(&self, other: &Identity) -> bool {
        self.device == other.device && self.inode == other.inode && other.len >= self.len
    }
}

/// One log's entry: its identity when `sum` was its fingerprint, and when that was noted.
/// (Files written before appends were announced in memory may hold a `growing` field too:
/// unknown fields are ignored.)
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Entry {
    identity: Identity,
    sum: Sum,
    /// When the entry was made (seconds, nanoseconds since the epoch).
    noted: (i64, i64),
    /// Whether relay itself set the file's modification time to a fine clock reading after
    /// its write ([`record_append`]): no later write by anyone else can give it that time.
    exact: bool,
}

/// An append under way in this process ([`begin_append`]): the log's identity before it, the
/// length and fingerprint of its bytes under the witness base `base`, and when it began.
#[derive(Debug, Clone)]
struct Growing {
    token: u64,
    before: Identity,
    base: u64,
    len: u64,
    sum: Sum,
    began: std::time::Instant,
}

/// The appends under way in this process, by log path. They live in memory, not in the
/// witness file, so that an append writes that file once ([`record_append`]): the readers
/// they serve are the ones that share the writer's process (`relay serve`'s request threads
/// reading while another request deposits). A reader in another process that finds a log
/// grown by an append still syncing reads the whole log once instead: correct, only slower,
/// and only within the writer's fsync.
static ANNOUNCED: std::sync::Mutex<BTreeMap<PathBuf, Growing>> =
    std::sync::Mutex::new(BTreeMap::new());

/// Tells apart the announcements of successive appends to one log.
static ANNOUNCEMENTS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

fn announced() -> std::sync::MutexGuard<'static, BTreeMap<PathBuf, Growing>> {
    // Every announcement is checked against the log before it is trusted: one left by a
    // thread that panicked is as good as any.
    ANNOUNCED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// How long after relay began an append the log, grown in place, is taken for the log it
/// appended to (the writer records the append well within it; one stalled meanwhile leaves
/// the log to be read in full again after it).
const GROWING_TRUST: std::time::Duration = std::time::Duration::from_secs(10);

/// How far file timestamps may lag a write: the kernel stamps files from a clock that ticks
/// every few milliseconds, and some file systems keep whole seconds only.
fn granularity(identity: &Identity) -> i64 {
    if identity.modified.1 == 0 && identity.changed.1 == 0 {
        2_000_000_000
    } else {
        50_000_000
    }
}

fn nanos((s, n): (i64, i64)) -> i64 {
    s.saturating_mul(1_000_000_000).saturating_add(n)
}

fn now() -> (i64, i64) {
    let d = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    (d.as_secs() as i64, i64::from(d.subsec_nanos()))
}

impl Entry {
    fn new(identity: Identity, sum: Sum, exact: bool) -> Entry {
        Entry {
            identity,
            sum,
            noted: now(),
            exact,
        }
    }

    /// Whether a file with `identity` is the file this entry describes. As in git's racy
    /// check: a file whose timestamps were not yet in the past when the entry was noted could
    /// have been rewritten within the same clock tick with the same identity, so it is read
    /// again, unless relay stamped it itself.
    fn describes(&self, identity: &Identity) -> bool {
        if self.identity != *identity {
            return false;
        }
        let coarse = granularity(identity);
        if self.exact && coarse < 1_000_000_000 {
            return true;
        }
        let stamped = nanos(identity.modified).max(nanos(identity.changed));
        nanos(self.noted) >= stamped.saturating_add(coarse)
    }
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct WitnessFile {
    base: u64,
    logs: BTreeMap<String, Entry>,
}

/// Where the witness of `log` lives, and its key there: one file per project folder (the
/// folder above `packages/`, or the log's own folder), keyed by the path below it.
fn slot(cache_dir: &Path, log: &Path) -> (PathBuf, String) {
    let name = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned());
    let parent = log.parent().unwrap_or(Path::new(""));
    let file = name(log).unwrap_or_default();
    let (folder, key) = if name(parent).as_deref() == Some(crate::layout::PACKAGES_DIR) {
        let folder = parent.parent().unwrap_or(Path::new(""));
        (name(folder), format!("packages/{file}"))
    } else {
        (name(parent), file)
    };
    let folder = folder.unwrap_or_else(|| "_".into());
    (cache_dir.join(DIR).join(format!("{folder}.json")), key)
}

fn load(path: &Path) -> Option<WitnessFile> {
    let bytes = std::fs::read(path).ok()?;
    serde_json::from_slice::<WitnessFile>(&bytes)
        .ok()
        .filter(|w| w.base > 1 && w.base < MODULUS)
}

/// Locks the lock file beside the witness file `path` until the returned file is dropped,
/// waiting while another update holds it (each is one read and one write of a small file).
/// `None` when the lock file cannot be opened or locked: the update goes ahead unlocked, as
/// before locks were taken, at worst losing an entry, which costs a re-read.
fn lock_beside(path: &Path) -> Option<File> {
    let mut name = path.file_name()?.to_os_string();
    name.push(".lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path.with_file_name(name))
        .ok()?;
    file.lock().ok()?;
    Some(file)
}

/// The witness files this process has parsed, by path, with the identity each file had: a
/// read of many months parses its project's file once. Every entry is a true statement about
/// some state of a log, so even an outdated copy can only cost a re-read, never a wrong answer.
type Parsed = std::collections::HashMap<PathBuf, (Identity, std::sync::Arc<WitnessFile>)>;
static PARSED: std::sync::Mutex<Option<Parsed>> = std::sync::Mutex::new(None);

/// [`load`], through the process's copy while the file is unchanged.
fn load_shared(path: &Path) -> Option<std::sync::Arc<WitnessFile>> {
    let identity = Identity::of(&std::fs::metadata(path).ok()?);
    if let Ok(parsed) = PARSED.lock()
        && let Some((seen, w)) = parsed.as_ref().and_then(|p| p.get(path))
        && *seen == identity
    {
        return Some(w.clone());
    }
    let w = std::sync::Arc::new(load(path)?);
    if let Ok(mut parsed) = PARSED.lock() {
        let map = parsed.get_or_insert_with(Default::default);
        if map.len() > 1024 {
            map.clear();
        }
        map.insert(path.to_path_buf(), (identity, w.clone()));
    }
    Some(w)
}

fn new_base() -> u64 {
    loop {
        let b = relay_wire::ids::random_bytes();
        let n = u64::from_le_bytes(b[..8].try_into().unwrap_or_default()) & MODULUS;
        if n > 1 && n < MODULUS {
            return n;
        }
    }
}

/// Changes one entry of the witness file of `log` (read again just before, so other logs'
/// entries written meanwhile are kept) and writes it by rename. Best effort: a witness that
/// cannot be written only costs a re-read later.
fn update(cache_dir: &Path, log: &Path, change: impl FnOnce(&mut WitnessFile, &str)) {
    let (path, key) = slot(cache_dir, log);
    rewrite(&path, &key, true, |w, key| {
        change(w, key);
        true
    });
}

/// Reads the witness file `path` under its lock, lets `change` change the entry `key`, and
/// replaces the file when `change` says it changed something. A missing (or unreadable) file
/// is started afresh when `create`, else left alone.
fn rewrite(
    path: &Path,
    key: &str,
    create: bool,
    change: impl FnOnce(&mut WitnessFile, &str) -> bool,
) {
    let Some(dir) = path.parent() else { return };
    if create && std::fs::create_dir_all(dir).is_err() {
        return;
    }
    // Read, change and replace under the file's lock: a change made in between would be lost.
    let _locked = lock_beside(path);
    let mut w = match load(path) {
        Some(w) => w,
        None if create => WitnessFile {
            base: new_base(),
            logs: BTreeMap::new(),
        },
        None => return,
    };
    if !change(&mut w, key) {
        return;
    }
    let Ok(bytes) = serde_json::to_vec(&w) else {
        return;
    };
    let tmp = dir.join(format!(
        ".{key_file}.{pid}-{r}",
        key_file = path
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default(),
        pid = std::process::id(),
        r = relay_wire::ids::random_below(1 << 30)
    ));
    if std::fs::write(&tmp, bytes).is_err() || std::fs::rename(&tmp, path).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

/// Notes what a read found: the log with `identity` has the fingerprint `sum` under `base`
/// (`known`: the base came from the witness file, rather than drawn for a new one). Left
/// undone when what was read is outdated (the log grew meanwhile), or when an entry noted
/// meanwhile already describes the log (a writer's: it may extend that one, and not this one,
/// noted close to the write).
fn note_read(
    cache_dir: &Path,
    log: &Path,
    (base, known): (u64, bool),
    identity: Identity,
    sum: Sum,
) {
    update(cache_dir, log, |w, key| {
        if w.base != base && known {
            return; // another process started the file afresh: leave it be
        }
        let now = std::fs::metadata(log).map(|m| Identity::of(&m));
        let current = now.as_ref().ok().filter(|now| **now == identity);
        if current.is_none_or(|now| w.logs.get(key).is_some_and(|e| e.describes(now))) {
            return;
        }
        w.base = base;
        w.logs
            .insert(key.to_string(), Entry::new(identity, sum, false));
    });
}

/// A log as it stood when observed: its first `len` bytes have the fingerprint `sum` under
/// `base`.
#[derive(Debug, Clone)]
pub struct LogState {
    pub len: u64,
    pub sum: Sum,
    pub base: u64,
    identity: Identity,
}

#[cfg(test)]
thread_local! {
    /// The bytes of logs this thread has read to fingerprint them (what the tests count).
    static HASHED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many bytes of logs the calling thread has read to fingerprint them so far: a read
/// that trusts its witness adds nothing.
#[cfg(test)]
pub fn bytes_hashed_on_this_thread() -> u64 {
    HASHED.with(std::cell::Cell::get)
}

/// Hashes `len` bytes of `file` from where it stands.
fn hash_reader(file: impl Read, base: u64, len: u64) -> std::io::Result<(Sum, u64)> {
    let mut h = Hasher::new(base);
    let mut reader = file.take(len);
    // No bigger than what is read: a deposit checks the few bytes appended since a state it
    // knows, and zeroing a whole MiB for them showed in the profile of a server under deposits.
    let mut buf = vec![0u8; len.clamp(1, 1 << 20) as usize];
    let mut read = 0;
    loop {
        let n = reader.read(&mut buf)?;
        #[cfg(test)]
        HASHED.with(|c| c.set(c.get() + n as u64));
        if n == 0 {
            return Ok((h.finish(), read));
        }
        h.update(&buf[..n]);
        read += n as u64;
    }
}

/// The fingerprint of `log`'s bytes from `from` to `to`.
pub fn hash_range(log: &Path, base: u64, from: u64, to: u64) -> std::io::Result<Sum> {
    use std::io::{Seek, SeekFrom};
    let mut file = File::open(log)?;
    file.seek(SeekFrom::Start(from))?;
    let (sum, read) = hash_reader(file, base, to - from)?;
    if read != to - from {
        return Err(std::io::Error::new(
            std::io::ErrorKind::UnexpectedEof,
            "the log is shorter than it was",
        ));
    }
    Ok(sum)
}

impl LogState {
    /// The state of `log` now: from its witness entry when the file's identity is the one
    /// recorded, else by reading the whole log (and recording what was read when the file did
    /// not change meanwhile). A missing log is empty.
    pub fn observe(cache_dir: &Path, log: &Path) -> std::io::Result<LogState> {
        let (path, key) = slot(cache_dir, log);
        let witness = load_shared(&path);
        // The state its witness entry records, if that entry still describes the file.
        let known = |identity: Identity| -> Option<LogState> {
            let w = witness.as_ref()?;
            let entry = w.logs.get(&key)?;
            entry.describes(&identity).then(|| LogState {
                len: identity.len,
                sum: entry.sum,
                base: w.base,
                identity,
            })
        };
        // A log its entry still describes is known without opening it (a search observes
        // every month's log): one stat by path.
        if let Some(state) = std::fs::metadata(log)
            .ok()
            .and_then(|meta| known(Identity::of(&meta)))
        {
            return Ok(state);
        }
        let file = match File::open(log) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let base = witness.map_or_else(new_base, |w| w.base);
                // (no entry is noted for a log that does not exist)
                return Ok(LogState {
                    len: 0,
                    sum: Sum(0),
                    base,
                    identity: Identity {
                        len: 0,
                        modified: (0, 0),
                        changed: (0, 0),
                        device: 0,
                        inode: 0,
                    },
                });
            }
            Err(e) => return Err(e),
        };
        let identity = Identity::of(&file.metadata()?);
        if let Some(state) = known(identity.clone()) {
            return Ok(state); // (replaced by one it describes since the stat)
        }
        if let Some(w) = &witness
            && let Some(grown) = grown(w, &key, log, &identity)
        {
            return Ok(grown);
        }
        let base = witness.as_ref().map_or_else(new_base, |w| w.base);
        let (sum, read) = hash_reader(&file, base, identity.len)?;
        let state = LogState {
            len: read,
            sum,
            base,
            identity: identity.clone(),
        };
        let after = Identity::of(&file.metadata()?);
        if read == identity.len && after == identity {
            note_read(cache_dir, log, (base, witness.is_some()), identity, sum);
        }
        Ok(state)
    }

    /// Whether the log still holds, as its first bytes, what was read of it since this state
    /// was observed: the same file, unchanged or grown in place. A file replaced meanwhile (a
    /// checkout during the read) is not.
    pub fn still_current(&self, log: &Path) -> bool {
        match std::fs::metadata(log) {
            Ok(m) => {
                let now = Identity::of(&m);
                now == self.identity || self.identity.same_file(&now)
            }
            Err(_) => self.len == 0,
        }
    }

    /// Whether the log's first `at` bytes have the fingerprint `sum` (under this state's
    /// base), given that the whole log is this state: reads only the bytes after `at`.
    pub fn has_prefix(&self, log: &Path, at: u64, sum: Sum) -> std::io::Result<bool> {
        if at > self.len {
            return Ok(false);
        }
        if at == self.len {
            return Ok(sum == self.sum);
        }
        let rest = match hash_range(log, self.base, at, self.len) {
            Ok(s) => s,
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(false),
            Err(e) => return Err(e),
        };
        Ok(sum.then(self.base, rest, self.len - at) == self.sum)
    }
}

/// Drops the entry of `log` (a log rewritten by `relay purge`: its old fingerprint is a trace
/// of lines that are gone). Best effort, as every witness write.
pub fn forget(cache_dir: &Path, log: &Path) {
    let (path, key) = slot(cache_dir, log);
    if load(&path).is_some_and(|w| w.logs.contains_key(&key)) {
        update(cache_dir, log, |w, key| {
            w.logs.remove(key);
        });
    }
}

/// What an append did to a log: its identity before and after, and the bytes written.
pub struct Appended<'a> {
    pub before: Identity,
    pub after: Identity,
    pub bytes: &'a [u8],
}

/// Whether the witness keeps the log `key` (only the logs that have indexes).
fn witnessed(key: &str) -> bool {
    key.starts_with("packages/") || key == crate::layout::FACTS_FILE
}

/// An append [`begin_append`] announced to the readers of this process: it lasts until the
/// guard is dropped, after the append was recorded or failed.
#[must_use = "the announcement ends when the guard is dropped"]
pub struct Announcement {
    announced: Option<(PathBuf, u64)>,
}

impl Drop for Announcement {
    fn drop(&mut self) {
        if let Some((log, token)) = self.announced.take() {
            let mut growing = announced();
            if growing.get(&log).is_some_and(|g| g.token == token) {
                growing.remove(&log);
            }
        }
    }
}

/// Announces that relay, holding the log's lock, begins an append of `bytes` to `log`, whose
/// identity is `before`: until the returned guard is dropped (drop it after
/// [`record_append`]), a reader in this process that finds the log grown reads only what was
/// added ([`grown`]), not the whole log again. Nothing is written: readers in other processes
/// read the whole log once if they come while the append syncs.
pub fn begin_append(cache_dir: &Path, log: &Path, before: &Identity, bytes: &[u8]) -> Announcement {
    let none = Announcement { announced: None };
    let (path, key) = slot(cache_dir, log);
    if !witnessed(&key) {
        return none;
    }
    let Some(base) = load_shared(&path)
        .filter(|w| (w.logs.get(&key)).is_some_and(|e| e.exact && e.describes(before)))
        .map(|w| w.base)
    else {
        return none; // no entry to extend: a reader reads the whole log anyway
    };
    let token = ANNOUNCEMENTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    announced().insert(
        log.to_path_buf(),
        Growing {
            token,
            before: before.clone(),
            base,
            len: bytes.len() as u64,
            sum: Hasher::of(base, bytes),
            began: std::time::Instant::now(),
        },
    );
    Announcement {
        announced: Some((log.to_path_buf(), token)),
    }
}

/// The state of `log`, found with `identity`, when it is the log its entry in `w` describes
/// grown by the append this process announced and has not recorded yet (the writer is
/// syncing it, say): the same file, with the append's bytes, read back, after what it held.
fn grown(w: &WitnessFile, key: &str, log: &Path, identity: &Identity) -> Option<LogState> {
    let g = announced().get(log).cloned()?;
    let entry = w.logs.get(key)?;
    let recent = g.began.elapsed() < GROWING_TRUST;
    let from = g.before.len;
    let grown = identity.len == from + g.len && g.before.same_file(identity);
    let extends = g.base == w.base && entry.exact && entry.describes(&g.before);
    if !(recent && grown && extends) {
        return None;
    }
    (hash_range(log, w.base, from, identity.len).ok()? == g.sum).then(|| LogState {
        len: identity.len,
        sum: entry.sum.then(w.base, g.sum, g.len),
        base: w.base,
        identity: identity.clone(),
    })
}

/// Keeps the witness of `log` current after relay appended to it: when the log was, before
/// the append, the file its entry describes, the new fingerprint extends the old one by the
/// bytes written; otherwise the entry is dropped (the next read fingerprints the log anew).
/// The witness file is read once, under its lock, and written once.
pub fn record_append(cache_dir: &Path, log: &Path, appended: &Appended) {
    let (path, key) = slot(cache_dir, log);
    if !witnessed(&key) {
        return;
    }
    let written = appended.bytes.len() as u64;
    let mut unknown_under = None;
    // (A missing witness file stays missing: nothing is known yet, the first read
    // fingerprints the log.)
    rewrite(&path, &key, false, |w, key| {
        let fingerprint = || Hasher::of(w.base, appended.bytes);
        let next = match w.logs.get(key) {
            Some(e) if e.describes(&appended.before) => {
                (appended.before.len + written == appended.after.len).then(|| {
                    let sum = e.sum.then(w.base, fingerprint(), written);
                    Entry::new(appended.after.clone(), sum, true)
                })
            }
            None if appended.before.len == 0 => (written == appended.after.len)
                .then(|| Entry::new(appended.after.clone(), fingerprint(), true)),
            Some(_) | None => {
                unknown_under = Some(w.base);
                return false;
            }
        };
        set_entry(w, key, next);
        true
    });
    // No entry to extend: the writer (who holds the log's lock) fingerprints the log as it
    // left it, once, rather than leave every later read to do so; outside the witness's
    // lock, which other logs' readers and writers take meanwhile.
    if let Some(base) = unknown_under {
        let next = rehash_after(log, base, &appended.after);
        rewrite(&path, &key, false, |w, key| {
            if w.base != base {
                return false;
            }
            set_entry(w, key, next);
            true
        });
    }
}

/// Puts `entry` as the entry `key`, or drops the entry when there is none.
fn set_entry(w: &mut WitnessFile, key: &str, entry: Option<Entry>) {
    match entry {
        Some(e) => w.logs.insert(key.to_string(), e),
        None => w.logs.remove(key),
    };
}

/// The entry of `log`, just appended to by relay and now with the identity `after`, from a
/// read of the whole log; none when the log changed during the read.
fn rehash_after(log: &Path, base: u64, after: &Identity) -> Option<Entry> {
    let file = File::open(log).ok()?;
    let (sum, read) = hash_reader(&file, base, after.len).ok()?;
    let unchanged = file.metadata().is_ok_and(|m| Identity::of(&m) == *after);
    (read == after.len && unchanged).then(|| Entry::new(after.clone(), sum, true))
}

#[cfg(test)]
#[path = "witness/tests.rs"]
mod tests;
