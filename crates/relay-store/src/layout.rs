//! Where everything lives inside `.relay/` (format v1), and the injective, filesystem-safe
//! encoding that turns any project id into one folder name (DESIGN invariant 8).

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

pub const STORE_DIR: &str = ".relay";
pub const CONFIG_FILE: &str = "config.toml";
pub const PROJECTS_FILE: &str = "projects.ndjson";
pub const PROJECTS_DIR: &str = "projects";
pub const PACKAGES_DIR: &str = "packages";
pub const FACTS_FILE: &str = "facts.ndjson";
pub const SESSIONS_FILE: &str = "sessions.ndjson";
pub const RETRACTIONS_FILE: &str = "retractions.ndjson";
pub const CACHE_DIR: &str = "cache";
pub const LOCAL_DIR: &str = "local";
pub const TOKENS_FILE: &str = "tokens.ndjson";
pub const SIGNATURES_FILE: &str = "signatures.ndjson";
pub const ALLOWED_SIGNERS_FILE: &str = "allowed_signers";
/// The clone's queue of writes made by relay's hooks, under `local/`.
pub const PENDING_DIR: &str = "pending";
/// Ends the name of a project folder in the queue: a `.` never appears in an encoded project
/// folder name, so a queued project folder is never taken for a tracked one, and the cache,
/// which names an index after its log's project folder and month, gives a queued month
/// index files of its own.
pub const PENDING_SUFFIX: &str = ".pending";

/// Longest folder name the encoding produces; longer ids end in a digest of the whole id.
const MAX_DIR_NAME: usize = 120;

/// Encodes a project id as a folder name.
///
/// Lowercase ASCII letters, digits, `-` and `_` stand for themselves; every other byte of the
/// UTF-8 id (uppercase letters included, so that case-insensitive filesystems cannot merge two
/// projects) becomes `%` and two lowercase hex digits. The result never contains a separator,
/// never is `.` or `..`, and is injective. Past [`MAX_DIR_NAME`] bytes the name is cut and ends
/// in `~` plus 32 hex digits of the SHA-256 of the id (`~` never appears otherwise).
pub fn encode_project_dir(project_id: &str) -> String {
    let mut out = String::with_capacity(project_id.len());
    for &b in project_id.as_bytes() {
        if b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_' {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02x}"));
        }
    }
    if is_windows_device(&out) {
        // `con`, `nul`, `com1`… cannot be folder names on Windows: escape the first letter.
        out = format!("%{:02x}{}", out.as_bytes()[0], &out[1..]);
    }
    if out.is_empty() {
        // Validation refuses empty ids; still never produce an empty path component.
        out.push('%');
    }
    if out.len() > MAX_DIR_NAME {
        let digest = Sha256::digest(project_id.as_bytes());
        let mut cut = MAX_DIR_NAME - 33;
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
        out.push('~');
        for b in &digest[..16] {
            out.push_str(&format!("{b:02x}"));
        }
    }
    out
}

/// The project id a folder name stands for; `None` for a name that is not a complete encoding
/// (a digest-shortened one, or a stray folder).
pub fn decode_project_dir(name: &str) -> Option<String> {
    let b = name.as_bytes();
    let mut bytes = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
            bytes.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            bytes.push(b[i]);
            i += 1;
        }
    }
    let id = String::from_utf8(bytes).ok()?;
    (encode_project_dir(&id) == name).then_some(id)
}

fn is_windows_device(name: &str) -> bool {
    matches!(name, "con" | "prn" | "aux" | "nul")
        || (name.len() == 4
            && (name.starts_with("com") || name.starts_with("lpt"))
            && name.as_bytes()[3].is_ascii_digit())
}

/// The paths of one store.
#[derive(Debug, Clone)]
pub struct Layout {
    root: PathBuf,
}

impl Layout {
    pub fn new(root: PathBuf) -> Self {
        Layout { root }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn config(&self) -> PathBuf {
        self.root.join(CONFIG_FILE)
    }

    pub fn projects_file(&self) -> PathBuf {
        self.root.join(PROJECTS_FILE)
    }

    pub fn projects_dir(&self) -> PathBuf {
        self.root.join(PROJECTS_DIR)
    }

    pub fn project_dir(&self, project_id: &str) -> PathBuf {
        self.projects_dir().join(encode_project_dir(project_id))
    }

    pub fn packages_dir(&self, project_id: &str) -> PathBuf {
        self.project_dir(project_id).join(PACKAGES_DIR)
    }

    /// The package log for one UTC month, `YYYY-MM`.
    pub fn package_log(&self, project_id: &str, month: &str) -> PathBuf {
        self.packages_dir(project_id)
            .join(format!("{month}.ndjson"))
    }

    pub fn facts_file(&self, project_id: &str) -> PathBuf {
        self.project_dir(project_id).join(FACTS_FILE)
    }

    pub fn sessions_file(&self, project_id: &str) -> PathBuf {
        self.project_dir(project_id).join(SESSIONS_FILE)
    }

    /// The project's retractions: which packages and facts reads no longer show.
    pub fn retractions_file(&self, project_id: &str) -> PathBuf {
        self.project_dir(project_id).join(RETRACTIONS_FILE)
    }

    /// The signatures of a project's records, one `{"signature": {…}}` per line.
    pub fn signatures_file(&self, project_id: &str) -> PathBuf {
        self.project_dir(project_id).join(SIGNATURES_FILE)
    }

    /// Which keys may sign as which actors (committed; git's allowed-signers format).
    pub fn allowed_signers(&self) -> PathBuf {
        self.root.join(ALLOWED_SIGNERS_FILE)
    }

    pub fn cache_dir(&self) -> PathBuf {
        self.root.join(CACHE_DIR)
    }

    pub fn local_dir(&self) -> PathBuf {
        self.root.join(LOCAL_DIR)
    }

    /// The bearer tokens of `relay serve` (their hashes), per clone.
    pub fn tokens_file(&self) -> PathBuf {
        self.local_dir().join(TOKENS_FILE)
    }

    pub fn lock_file(&self, name: &str) -> PathBuf {
        self.local_dir().join("locks").join(format!("{name}.lock"))
    }

    /// The clone's queue (`local/pending/`): what relay's hooks write waits here, where git
    /// never looks, until `relay hook flush` moves it into the tracked logs.
    pub fn pending_dir(&self) -> PathBuf {
        self.local_dir().join(PENDING_DIR)
    }

    /// The queued mirror of the store file `path`: the same path under `local/pending/`, its
    /// project folder (if any) named with [`PENDING_SUFFIX`]
    /// (`projects/<dir>/packages/2026-05.ndjson` → `local/pending/projects/<dir>.pending/
    /// packages/2026-05.ndjson`). `None` for a path outside the store, or under `local/` or
    /// `cache/`, which git never sees anyway.
    pub fn queued_path(&self, path: &Path) -> Option<PathBuf> {
        let parts = plain_parts(path.strip_prefix(&self.root).ok()?)?;
        let mut out = self.pending_dir();
        match parts.as_slice() {
            [] => return None,
            [first, ..] if *first == LOCAL_DIR || *first == CACHE_DIR => return None,
            [projects, dir, rest @ ..] if *projects == PROJECTS_DIR && !rest.is_empty() => {
                out.push(PROJECTS_DIR);
                out.push(format!("{dir}{PENDING_SUFFIX}"));
                rest.iter().for_each(|p| out.push(p));
            }
            [projects, ..] if *projects == PROJECTS_DIR => return None,
            all => all.iter().for_each(|p| out.push(p)),
        }
        Some(out)
    }

    /// The store file a queued file stands for: the inverse of [`Layout::queued_path`]. `None`
    /// for a path that is not in the queue, or not a name the queue gives.
    pub fn tracked_path(&self, queued: &Path) -> Option<PathBuf> {
        let parts = plain_parts(queued.strip_prefix(self.pending_dir()).ok()?)?;
        let mut out = self.root.clone();
        match parts.as_slice() {
            [] => return None,
            [first, ..] if *first == LOCAL_DIR || *first == CACHE_DIR => return None,
            [projects, dir, rest @ ..] if *projects == PROJECTS_DIR && !rest.is_empty() => {
                let dir = dir.strip_suffix(PENDING_SUFFIX)?;
                if dir.is_empty() || dir.contains('.') {
                    return None;
                }
                out.push(PROJECTS_DIR);
                out.push(dir);
                rest.iter().for_each(|p| out.push(p));
            }
            [projects, ..] if *projects == PROJECTS_DIR => return None,
            all => all.iter().for_each(|p| out.push(p)),
        }
        Some(out)
    }
}

/// The names of a relative path's parts; `None` when it climbs (`..`), is absolute, or is not
/// UTF-8.
fn plain_parts(rel: &Path) -> Option<Vec<&str>> {
    rel.components()
        .map(|c| match c {
            std::path::Component::Normal(p) => p.to_str(),
            _ => None,
        })
        .collect()
}

/// Whether a file name is a monthly package log (`YYYY-MM.ndjson`).
pub fn is_package_log_name(name: &str) -> bool {
    let Some(stem) = name.strip_suffix(".ndjson") else {
        return false;
    };
    let b = stem.as_bytes();
    b.len() == 7
        && b[4] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn plain_ids_stay_readable() {
        assert_eq!(encode_project_dir("proj_dev_relay"), "proj_dev_relay");
        assert_eq!(encode_project_dir("my-app2"), "my-app2");
    }

    #[test]
    fn hostile_ids_become_one_safe_component() {
        for id in [
            "..",
            ".",
            "../../x",
            "/etc",
            "a/b",
            "a\\b",
            "C:",
            "\u{0}\u{1b}[2J",
            "con",
            " x ",
        ] {
            let d = encode_project_dir(id);
            assert!(!d.is_empty() && d != "." && d != "..", "{id:?} -> {d}");
            assert!(
                !d.contains('/') && !d.contains('\\') && !d.contains('.') && !d.contains(':'),
                "{d}"
            );
            assert!(d.bytes().all(|b| b.is_ascii_graphic()), "{d}");
        }
        assert_eq!(encode_project_dir("../x"), "%2e%2e%2fx");
        assert_eq!(encode_project_dir("con"), "%63on");
        assert_eq!(encode_project_dir("com1"), "%63om1");
        assert_eq!(encode_project_dir("console"), "console");
    }

    #[test]
    fn case_and_escapes_do_not_collide() {
        let ids = [
            "App", "app", "%41pp", "a%", "a%25", "é", "%c3%a9", "con", "%63on",
        ];
        let dirs: HashSet<String> = ids.iter().map(|i| encode_project_dir(i)).collect();
        assert_eq!(dirs.len(), ids.len());
    }

    #[test]
    fn decoding_inverts_encoding() {
        for id in ["proj", "App", "../x", "con", "é", "a%b", " "] {
            assert_eq!(
                decode_project_dir(&encode_project_dir(id)).as_deref(),
                Some(id)
            );
        }
        assert_eq!(decode_project_dir("%zz"), None);
        assert_eq!(decode_project_dir("%41"), Some("A".into()));
        assert_eq!(decode_project_dir("A"), None, "not an encoding relay makes");
        assert_eq!(
            decode_project_dir(&encode_project_dir(&"x".repeat(300))),
            None
        );
    }

    #[test]
    fn long_ids_are_bounded_and_distinct() {
        let a = "x".repeat(300);
        let b = format!("{}y", "x".repeat(299));
        let (da, db) = (encode_project_dir(&a), encode_project_dir(&b));
        assert!(da.len() <= MAX_DIR_NAME && db.len() <= MAX_DIR_NAME);
        assert_ne!(da, db);
        assert!(encode_project_dir(&"é".repeat(100)).len() <= MAX_DIR_NAME);
    }

    #[test]
    fn queued_files_mirror_tracked_ones_and_back() {
        let layout = Layout::new(PathBuf::from("/w/.relay"));
        let month = layout.package_log("my-app", "2026-05");
        let queued = layout.queued_path(&month).unwrap();
        assert_eq!(
            queued,
            Path::new("/w/.relay/local/pending/projects/my-app.pending/packages/2026-05.ndjson")
        );
        assert_eq!(layout.tracked_path(&queued).unwrap(), month);
        let signatures = layout.signatures_file("A/b");
        let queued = layout.queued_path(&signatures).unwrap();
        assert_eq!(
            queued,
            Path::new("/w/.relay/local/pending/projects/%41%2fb.pending/signatures.ndjson")
        );
        assert_eq!(layout.tracked_path(&queued).unwrap(), signatures);
        // A file outside a project folder keeps its path.
        let projects = layout.projects_file();
        let queued = layout.queued_path(&projects).unwrap();
        assert_eq!(queued, Path::new("/w/.relay/local/pending/projects.ndjson"));
        assert_eq!(layout.tracked_path(&queued).unwrap(), projects);
        // Per-clone and derived files are never queued; nothing outside the store is.
        for path in [
            layout.lock_file("x"),
            layout.cache_dir().join("search-v5/p/2026-05.idx"),
            PathBuf::from("/w/src/main.rs"),
            PathBuf::from("/w/.relay/../x.ndjson"),
            layout.root().to_path_buf(),
            layout.projects_dir().join("stray"),
        ] {
            assert_eq!(layout.queued_path(&path), None, "{}", path.display());
        }
        // Only the names the queue gives stand for a tracked file.
        for path in [
            "/w/.relay/local/pending/projects/p/packages/2026-05.ndjson",
            "/w/.relay/local/pending/projects/a.b.pending/facts.ndjson",
            "/w/.relay/local/pending/projects/p.pending",
            "/w/.relay/local/pending/local/x",
            "/w/.relay/projects/p/facts.ndjson",
        ] {
            assert_eq!(layout.tracked_path(Path::new(path)), None, "{path}");
        }
    }

    #[test]
    fn package_log_names() {
        assert!(is_package_log_name("2026-04.ndjson"));
        assert!(!is_package_log_name("2026-4.ndjson"));
        assert!(!is_package_log_name("quarantine.ndjson"));
    }
}
