//! Stale deliverables: a package's file deliverables whose content no longer matches the hash
//! recorded when it was deposited (`changed`), or that are gone (`missing`). Reads flag them
//! and never alter the package: the CLI prints `may be stale:` under a card and an `x-stale`
//! member beside the package under `--json`.
//!
//! Paths are relative to the folder that holds the store (as `ops::packages::deposit` records them),
//! whatever the current folder. A path is data from any writer (a remote deposit, a merged
//! clone), so relay opens only files of the work tree ([`crate::ops::packages::work_tree`]): deliverables without a
//! `sha256:` hash, URLs, paths that leave that folder (absolute, or with `..`), paths into the
//! store's folder or git's, and paths through a symlink that leads out are not checked, and
//! their marks say nothing. Nor are files git ignores (`.env`, a local key): their marks would
//! tell anyone who may deposit whether a guessed hash of their content is right
//! ([`crate::ops::packages::git_ignored`]). A check never fails a read: a file that cannot be
//! read is not checkable and is skipped.
//!
//! Cost: a stat per deliverable, and a hash only for a file whose (path, mtime, size) the
//! cache (`relay_store::index`) has not seen; a size that differs from the recorded
//! one is `changed` without reading the file.

use std::collections::HashMap;
use std::time::SystemTime;

use serde::Serialize;

use crate::ops::packages::git_ignored::GitIgnored;
use crate::ops::packages::work_tree::{Place, WorkTree};
use relay_store::Store;
use relay_store::index::Indexes;
use relay_store::index::{FileHashes, Stamp};
use relay_wire::Package;
use relay_wire::package::Deliverable;

/// Why a deliverable may be stale.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Reason {
    /// The file's content hash differs from the recorded one.
    Changed,
    /// There is no such file.
    Missing,
}

impl Reason {
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Changed => "changed",
            Reason::Missing => "missing",
        }
    }
}

/// One stale deliverable, as `x-stale` lists it: `{"path": …, "reason": "changed"|"missing"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Stale {
    pub path: String,
    pub reason: Reason,
}

/// What a file under the root is now, as far as a check needs to know.
#[derive(Debug, Clone)]
enum Current {
    Missing,
    /// Its size and, once taken, its `sha256:` hash.
    File(Stamp, Option<String>),
    /// Not a regular file, or unreadable: not checkable.
    Unknown,
}

/// Checks the packages of one read; the hash cache is loaded on the first deliverable that
/// needs it and saved by [`Checker::finish`].
#[derive(Debug)]
pub struct Checker {
    /// The files deliverable paths may name; `None`: nothing is checked.
    tree: Option<WorkTree>,
    /// git's ignore rules for the tree, read at the first path checked.
    ignored: Option<GitIgnored>,
    indexes: Indexes,
    hashes: Option<FileHashes>,
    /// What each path is now, so a file several packages name is looked at once.
    seen: HashMap<String, Current>,
    /// Files hashed by this checker (the cache's tests count them).
    hashed: usize,
}

impl Checker {
    /// A checker for the packages of `store`, their paths relative to the folder holding it.
    pub fn new(store: &Store) -> Checker {
        Checker::at(WorkTree::of(store), store.indexes())
    }

    fn at(tree: Option<WorkTree>, indexes: Indexes) -> Checker {
        Checker {
            tree,
            ignored: None,
            indexes,
            hashes: None,
            seen: HashMap::new(),
            hashed: 0,
        }
    }

    /// The stale deliverables of `package`, in its order; empty when none is or none can be
    /// checked.
    pub fn check(&mut self, package: &Package) -> Vec<Stale> {
        let mut out = Vec::new();
        for d in package.deliverables() {
            if let Some(reason) = self.reason(&d)
                && !out.iter().any(|s: &Stale| s.path == d.path)
            {
                out.push(Stale {
                    path: d.path.to_string(),
                    reason,
                });
            }
        }
        out
    }

    /// Saves what was learnt to the cache.
    pub fn finish(self) {
        if let Some(h) = self.hashes {
            h.save();
        }
    }

    fn reason(&mut self, d: &Deliverable) -> Option<Reason> {
        let recorded = d.hash.filter(|h| h.starts_with("sha256:"))?;
        if self.tree.is_none() || d.kind == "url" {
            return None;
        }
        match self.current(d.path) {
            Current::Missing => Some(Reason::Missing),
            Current::File(stamp, _) if d.size_bytes.is_some_and(|s| s != stamp.size) => {
                Some(Reason::Changed)
            }
            Current::File(stamp, None) => {
                let hash = self.hash(d.path, stamp)?;
                (!hash.eq_ignore_ascii_case(recorded)).then_some(Reason::Changed)
            }
            Current::File(_, Some(hash)) => {
                (!hash.eq_ignore_ascii_case(recorded)).then_some(Reason::Changed)
            }
            Current::Unknown => None,
        }
    }

    /// What `path` is now: looked up once per checker. Its hash is only taken when needed.
    fn current(&mut self, path: &str) -> Current {
        if let Some(c) = self.seen.get(path) {
            return c.clone();
        }
        let place = self.tree.as_ref().map(|t| t.place(path));
        let ignored = match (&place, &self.tree) {
            (Some(Place::Inside(full)), Some(tree)) => {
                let rules = (self.ignored).get_or_insert_with(|| GitIgnored::new(tree.root()));
                rules.ignores(full, full.is_dir())
            }
            (Some(Place::Missing), Some(tree)) => {
                let rules = (self.ignored).get_or_insert_with(|| GitIgnored::new(tree.root()));
                rules.ignores(&tree.root().join(path), false)
            }
            _ => false,
        };
        if ignored {
            self.seen.insert(path.to_string(), Current::Unknown);
            return Current::Unknown;
        }
        let full = match place {
            Some(Place::Inside(full)) => full,
            Some(Place::Missing) => {
                self.hashes().forget(path);
                self.seen.insert(path.to_string(), Current::Missing);
                return Current::Missing;
            }
            Some(Place::Outside(_)) | None => {
                self.seen.insert(path.to_string(), Current::Unknown);
                return Current::Unknown;
            }
        };
        let now = match std::fs::metadata(full) {
            Ok(meta) if meta.is_file() => match Stamp::of(&meta) {
                Some(stamp) => Current::File(stamp, None),
                None => Current::Unknown,
            },
            Ok(_) => Current::Unknown,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                ) =>
            {
                self.hashes().forget(path);
                Current::Missing
            }
            Err(_) => Current::Unknown,
        };
        self.seen.insert(path.to_string(), now.clone());
        now
    }

    /// The hash of `path` in the state `stamp`: from the cache, or read and recorded.
    fn hash(&mut self, path: &str, stamp: Stamp) -> Option<String> {
        let cached = self.hashes().get(path, stamp).map(str::to_string);
        let hash = match cached {
            Some(h) => h,
            None => {
                let full = match self.tree.as_ref()?.place(path) {
                    Place::Inside(full) => full,
                    _ => return None,
                };
                let mut file = std::fs::File::open(full).ok()?;
                let (hash, _) = crate::ops::packages::deposit::content_hash(&mut file).ok()?;
                self.hashed += 1;
                self.hashes().put(path, stamp, &hash, SystemTime::now());
                hash
            }
        };
        self.seen
            .insert(path.to_string(), Current::File(stamp, Some(hash.clone())));
        Some(hash)
    }

    fn hashes(&mut self) -> &mut FileHashes {
        let indexes = &self.indexes;
        self.hashes.get_or_insert_with(|| indexes.file_hashes())
    }
}

/// The stale deliverables of packages by package id, the packages with none left out: what a
/// briefing marks (`x-stale` of orient's bundle).
pub type Marks = std::collections::BTreeMap<String, Vec<Stale>>;

/// [`Marks`] of `packages` (see [`Checker`]).
pub fn marks<'a>(store: &Store, packages: impl IntoIterator<Item = &'a Package>) -> Marks {
    let mut checker = Checker::new(store);
    let out = packages
        .into_iter()
        .filter_map(|p| {
            let stale = checker.check(p);
            (!stale.is_empty()).then(|| (p.id().to_string(), stale))
        })
        .collect();
    checker.finish();
    out
}

/// `src/a.rs changed, docs/b.md missing`: the files and why, as one line of text (paths as
/// recorded; a renderer makes them safe for its output).
pub fn describe(stale: &[Stale], path: impl Fn(&str) -> String) -> String {
    let files: Vec<String> = stale
        .iter()
        .map(|s| format!("{} {}", path(&s.path), s.reason.as_str()))
        .collect();
    files.join(", ")
}

/// [`of_packages`] for a read of now; for a snapshot read (`as_of`) nothing, as the files as
/// they are now say nothing of the store as it stood (and a snapshot's answer must not change
/// with them).
pub fn of_packages_at<'a>(
    store: &Store,
    packages: impl IntoIterator<Item = &'a Package>,
    as_of: Option<relay_wire::time::Timestamp>,
) -> Vec<Vec<Stale>> {
    match as_of {
        None => of_packages(store, packages),
        Some(_) => packages.into_iter().map(|_| Vec::new()).collect(),
    }
}

/// The stale deliverables of each package, in order (see [`Checker`]).
pub fn of_packages<'a>(
    store: &Store,
    packages: impl IntoIterator<Item = &'a Package>,
) -> Vec<Vec<Stale>> {
    let mut checker = Checker::new(store);
    let out = packages.into_iter().map(|p| checker.check(p)).collect();
    checker.finish();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use std::time::{Duration, UNIX_EPOCH};

    use serde_json::json;

    struct Tree {
        dir: tempfile::TempDir,
    }

    impl Tree {
        fn new() -> Tree {
            let t = Tree {
                dir: tempfile::tempdir().unwrap(),
            };
            std::fs::create_dir_all(t.root().join(".relay")).unwrap();
            t
        }
        fn root(&self) -> PathBuf {
            self.dir.path().join("work")
        }
        fn cache(&self) -> PathBuf {
            self.root().join(".relay/cache")
        }
        /// Writes `rel` with `text`, its mtime `secs` after the epoch (long settled).
        fn write(&self, rel: &str, text: &str, secs: u64) {
            let path = self.root().join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, text).unwrap();
            self.touch(rel, secs);
        }
        fn touch(&self, rel: &str, secs: u64) {
            let f = std::fs::File::options()
                .write(true)
                .open(self.root().join(rel))
                .unwrap();
            f.set_modified(UNIX_EPOCH + Duration::from_secs(secs))
                .unwrap();
        }
        fn checker(&self) -> Checker {
            let tree = WorkTree::at(&self.root(), &self.root().join(".relay"));
            Checker::at(Some(tree.unwrap()), Indexes::at(self.cache()))
        }
        /// `(stale, files hashed)` of a package naming these deliverables, in a new checker.
        fn check(&self, deliverables: serde_json::Value) -> (Vec<Stale>, usize) {
            let mut c = self.checker();
            let p = package(deliverables);
            let stale = c.check(&p);
            let hashed = c.hashed;
            c.finish();
            (stale, hashed)
        }
    }

    fn package(deliverables: serde_json::Value) -> Package {
        Package::from_value(json!({
            "package_id": "pkg_1", "project_id": "p", "relay_version": "0.1", "title": "T",
            "status": "complete", "package_type": "standard", "review_type": "none",
            "created_at": "2026-04-18T20:00:00Z", "created_by": {"id": "jo", "type": "human"},
            "deliverables": deliverables
        }))
        .unwrap()
    }

    fn sha(text: &str) -> String {
        crate::ops::packages::deposit::content_hash(&mut text.as_bytes())
            .unwrap()
            .0
    }

    fn file(path: &str, text: &str) -> serde_json::Value {
        json!({"path": path, "type": "md", "hash": sha(text), "size_bytes": text.len()})
    }

    fn stale(path: &str, reason: Reason) -> Stale {
        Stale {
            path: path.into(),
            reason,
        }
    }

    #[test]
    fn changed_and_missing_files_are_flagged_and_a_restored_one_is_not() {
        let t = Tree::new();
        t.write("a.md", "one", 1_000);
        let d = json!([file("a.md", "one")]);
        assert_eq!(t.check(d.clone()).0, []);
        t.write("a.md", "two!", 2_000);
        assert_eq!(t.check(d.clone()).0, [stale("a.md", Reason::Changed)]);
        std::fs::remove_file(t.root().join("a.md")).unwrap();
        assert_eq!(t.check(d.clone()).0, [stale("a.md", Reason::Missing)]);
        t.write("a.md", "one", 3_000);
        assert_eq!(t.check(d).0, []);
    }

    #[test]
    fn a_second_read_hashes_nothing_until_the_file_is_touched() {
        let t = Tree::new();
        t.write("src/a.rs", "abc", 1_000);
        let d = json!([file("src/a.rs", "abc")]);
        assert_eq!(t.check(d.clone()), (vec![], 1));
        assert_eq!(t.check(d.clone()), (vec![], 0), "the cache answers");
        // Documented limitation: new content of the same size under the same mtime is not seen.
        t.write("src/a.rs", "xyz", 1_000);
        assert_eq!(t.check(d.clone()), (vec![], 0));
        // Touching it is enough to hash it again.
        t.touch("src/a.rs", 1_001);
        assert_eq!(
            t.check(d.clone()),
            (vec![stale("src/a.rs", Reason::Changed)], 1)
        );
        assert_eq!(t.check(d), (vec![stale("src/a.rs", Reason::Changed)], 0));
    }

    #[test]
    fn a_size_that_differs_is_changed_without_a_hash_and_one_file_is_hashed_once() {
        let t = Tree::new();
        t.write("a.md", "longer text", 1_000);
        assert_eq!(
            t.check(json!([file("a.md", "short")])),
            (vec![stale("a.md", Reason::Changed)], 0)
        );
        let mut c = t.checker();
        let p = package(json!([file("a.md", "longer text")]));
        let q = package(json!([
            file("a.md", "longer text!"),
            file("a.md", "longer text")
        ]));
        assert_eq!(c.check(&p), []);
        assert_eq!(c.check(&q), [stale("a.md", Reason::Changed)]);
        assert_eq!(c.hashed, 1);
    }

    #[test]
    fn a_corrupt_cache_is_ignored_and_rewritten() {
        let t = Tree::new();
        t.write("a.md", "one", 1_000);
        let d = json!([file("a.md", "one")]);
        let cache_file = t.cache().join("file-hashes-v1/hashes.json");
        std::fs::create_dir_all(cache_file.parent().unwrap()).unwrap();
        std::fs::write(&cache_file, "garbage").unwrap();
        assert_eq!(t.check(d.clone()), (vec![], 1));
        let text = std::fs::read_to_string(&cache_file).unwrap();
        assert!(text.contains("\"a.md\""), "{text}");
        assert_eq!(t.check(d), (vec![], 0));
    }

    #[test]
    fn urls_unhashed_outside_and_unreadable_deliverables_are_not_checked() {
        let t = Tree::new();
        std::fs::create_dir_all(t.root().join("dir")).unwrap();
        let gone = sha("x");
        let d = json!([
            {"path": "https://example.com/a.md", "type": "url", "hash": gone},
            {"path": "notes.md", "type": "md"},
            {"path": "../outside.md", "type": "md", "hash": gone},
            {"path": "/etc/nope.md", "type": "md", "hash": gone},
            {"path": "dir", "type": "dir", "hash": gone},
            {"path": "b.md", "type": "md", "hash": "md5:abc"},
        ]);
        assert_eq!(t.check(d.clone()), (vec![], 0));
        let mut nowhere = Checker::at(None, Indexes::at(t.cache()));
        assert_eq!(nowhere.check(&package(json!([file("a.md", "x")]))), []);
    }

    /// Issue 36: no mark tells anything of a file of the store, of git, or outside the tree,
    /// however the path reaches it; a file of the tree, even through a symlink inside it,
    /// is checked as before.
    #[cfg(unix)]
    #[test]
    fn the_store_git_and_files_outside_through_symlinks_are_never_checked() {
        use std::os::unix::fs::symlink;
        let t = Tree::new();
        let outside = t.dir.path().join("outside");
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(outside.join("secret"), "s3cret").unwrap();
        t.write(".relay/local/tokens.ndjson", "tokens", 1_000);
        t.write(".git/config", "[core]", 1_000);
        t.write("sub/.relay/local/tokens.ndjson", "tokens", 1_000);
        t.write("docs/a.md", "in", 1_000);
        symlink(&outside, t.root().join("out")).unwrap();
        symlink(outside.join("secret"), t.root().join("secret.md")).unwrap();
        symlink(t.root().join(".relay"), t.root().join("store")).unwrap();
        symlink(t.root().join("docs"), t.root().join("docs-link")).unwrap();
        symlink(t.root().join("nowhere"), t.root().join("dangling")).unwrap();
        // Guessed right or wrong, present or not: no mark, and nothing hashed.
        for guess in ["s3cret", "tokens", "[core]", "wrong"] {
            for path in [
                ".relay/local/tokens.ndjson",
                "./.relay/local/tokens.ndjson",
                ".RELAY/local/tokens.ndjson",
                "sub/.relay/local/tokens.ndjson",
                ".git/config",
                "out/secret",
                "out/absent",
                "out/absent/deeper",
                "secret.md",
                "store/local/tokens.ndjson",
                "store/absent",
                "dangling",
                "dangling/x",
            ] {
                assert_eq!(t.check(json!([file(path, guess)])), (vec![], 0), "{path}");
            }
        }
        // The tree's own files, through a symlink that stays inside too.
        assert_eq!(t.check(json!([file("docs-link/a.md", "in")])), (vec![], 1));
        assert_eq!(
            t.check(json!([file("docs-link/a.md", "other")])).0,
            [stale("docs-link/a.md", Reason::Changed)]
        );
        assert_eq!(
            t.check(json!([file("docs-link/gone.md", "x")])).0,
            [stale("docs-link/gone.md", Reason::Missing)]
        );
        let tree = t.checker().tree.unwrap();
        let out = crate::ops::packages::work_tree::OUT_THROUGH_A_LINK;
        assert_eq!(tree.place("out/absent"), Place::Outside(out));
        assert_eq!(tree.place("out/secret"), Place::Outside(out));
        assert_eq!(tree.place("docs/none.md"), Place::Missing);
        assert_eq!(
            tree.place("docs/a.md"),
            Place::Inside(t.root().join("docs/a.md"))
        );
        assert!(tree.refuses("/etc/passwd").unwrap().contains("absolute"));
        assert!(tree.refuses("docs/../../x").unwrap().contains(".."));
        assert!(
            tree.refuses(".relay/config.toml")
                .unwrap()
                .contains("store")
        );
    }
}
