//! Which files a deliverable path may name: those of the work tree (the folder that holds the
//! store), never a file of the store's folder, of any `.relay` or `.git` folder, or one
//! reached through a symlink that leads out. A path is data from any writer (a remote deposit,
//! a merged clone), so the stale check (`ops::packages::stale`) opens only what this allows, and a
//! remote deposit (`ops::packages::deposit`) may name nothing else: no answer tells a caller of a file
//! it could not read.

use std::path::{Component, Path, PathBuf};

use relay_store::Store;

/// The work tree of a store, as far as deliverable paths may reach into it (the store's
/// folder holds tokens, keys and other clones' state: never reached).
#[derive(Debug, Clone)]
pub struct WorkTree {
    /// The folder as the store names it.
    root: PathBuf,
    /// The same, every symlink resolved.
    real: PathBuf,
    /// The store's folder relative to the root (`.relay`).
    store: PathBuf,
    /// The store's folder, every symlink resolved.
    real_store: Option<PathBuf>,
}

/// Where a deliverable path leads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// A file (or folder) of the work tree, at this path.
    Inside(PathBuf),
    /// A path of the work tree where nothing is.
    Missing,
    /// Not a file relay may look at for a deliverable; why, for a refusal.
    Outside(&'static str),
}

/// Why a path that looks inside the tree is not: the one reason given whatever the
/// filesystem holds, so that a refusal tells nothing of what lies outside.
pub(crate) const OUT_THROUGH_A_LINK: &str = "it goes through a symlink that leads out of the work tree, \
into the store or .git, or cannot be followed";

impl WorkTree {
    /// The work tree of `store`: the folder that holds it.
    pub fn of(store: &Store) -> Option<WorkTree> {
        let root = store.root().parent().filter(|r| r.is_dir())?;
        WorkTree::at(root, store.root())
    }

    pub(crate) fn at(root: &Path, store_dir: &Path) -> Option<WorkTree> {
        Some(WorkTree {
            root: root.to_path_buf(),
            real: std::fs::canonicalize(root).ok()?,
            store: (store_dir.strip_prefix(root).map(Path::to_path_buf)).unwrap_or_default(),
            real_store: std::fs::canonicalize(store_dir).ok(),
        })
    }

    /// The folder deliverable paths are relative to.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Why `path`, by its text alone, names no file of the tree: a URL, absolute, with `..`,
    /// or inside the store's folder, a `.relay` or a `.git` folder; `None` when it may.
    pub fn refuses(&self, path: &str) -> Option<&'static str> {
        refuses(path, &self.store)
    }

    /// Where `path` leads: each folder on the way is looked at (never read), and a symlink
    /// among them must resolve inside the tree, outside the store and `.git`.
    pub fn place(&self, path: &str) -> Place {
        if let Some(why) = self.refuses(path) {
            return Place::Outside(why);
        }
        let mut at = self.root.clone();
        for c in Path::new(path).components() {
            let Component::Normal(name) = c else {
                continue;
            };
            at.push(name);
            match std::fs::symlink_metadata(&at) {
                Ok(meta) if meta.file_type().is_symlink() => match std::fs::canonicalize(&at) {
                    Ok(real) if self.holds(&real) => {}
                    _ => return Place::Outside(OUT_THROUGH_A_LINK),
                },
                Ok(_) => {}
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                    ) =>
                {
                    return Place::Missing;
                }
                Err(_) => return Place::Outside(OUT_THROUGH_A_LINK),
            }
        }
        Place::Inside(at)
    }

    /// Whether a path with every symlink resolved is in the tree, outside the store and any
    /// `.relay` or `.git` folder.
    fn holds(&self, real: &Path) -> bool {
        let Ok(rel) = real.strip_prefix(&self.real) else {
            return false;
        };
        !self
            .real_store
            .as_ref()
            .is_some_and(|s| real.starts_with(s))
            && !rel.components().any(|c| hidden(c.as_os_str()))
    }
}

/// A folder no deliverable may name a file of: a store's or git's.
fn hidden(name: &std::ffi::OsStr) -> bool {
    let name = name.to_string_lossy();
    name.eq_ignore_ascii_case(".git") || name.eq_ignore_ascii_case(".relay")
}

/// [`WorkTree::refuses`], with the store's folder relative to the tree (`store`).
pub fn refuses(path: &str, store: &Path) -> Option<&'static str> {
    let p = Path::new(path);
    if path.is_empty() {
        return Some("it is empty");
    }
    if path.contains("://") {
        return Some("it is a URL");
    }
    if p.is_absolute() || p.has_root() {
        return Some("it is absolute");
    }
    let mut names = Vec::new();
    for c in p.components() {
        match c {
            Component::Normal(name) => names.push(name),
            Component::CurDir => {}
            _ => return Some("it leaves the work tree (`..`)"),
        }
    }
    let store: Vec<_> = store.components().map(|c| c.as_os_str()).collect();
    let in_store = !store.is_empty()
        && names.len() >= store.len()
        && (names.iter().zip(&store)).all(|(a, b)| {
            a.to_string_lossy()
                .eq_ignore_ascii_case(&b.to_string_lossy())
        });
    if in_store || names.iter().any(|n| hidden(n)) {
        return Some("it is inside the store's folder or a .relay or .git folder");
    }
    None
}
