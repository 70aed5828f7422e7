//! Which deliverable paths git ignores. A stale mark says whether a file still hashes to what
//! a package recorded; for a file git ignores (`.env`, a local key) that is an oracle on
//! content that never leaves the machine: anyone who may deposit could name the file with a
//! guessed hash and read the mark to learn whether the guess was right. The stale check
//! therefore marks no file git ignores, on any door.
//!
//! The rules are git's: the `.gitignore` of each folder from the repository's root down to the
//! file's (a deeper one overrides a higher one), then `.git/info/exclude`, then the user's
//! `core.excludesFile`; a file in an ignored folder is ignored whatever a deeper file says.
//! They are matched in process (the `ignore` crate, ripgrep's), not by starting git on each
//! read. Outside a git repository nothing is ignored.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use ignore::Match;
use ignore::gitignore::{Gitignore, GitignoreBuilder, gitconfig_excludes_path};

/// git's ignore rules for the files of one repository, each folder's read once.
#[derive(Debug)]
pub struct GitIgnored {
    /// The repository's root (the folder that holds `.git`); `None`: not in a repository.
    repo: Option<PathBuf>,
    /// Each folder's `.gitignore`, once read (`None`: it has none).
    folders: HashMap<PathBuf, Option<Gitignore>>,
    /// `.git/info/exclude`, then `core.excludesFile`: below every `.gitignore`.
    below: Vec<Gitignore>,
}

/// The rules of a `.gitignore`-style `file`, its patterns relative to `root`, if it exists and
/// holds one. A line that is not a pattern is skipped, as git skips it.
fn read(root: &Path, file: &Path) -> Option<Gitignore> {
    if !file.is_file() {
        return None;
    }
    let mut builder = GitignoreBuilder::new(root);
    let _ = builder.add(file);
    let rules = builder.build().ok()?;
    (!rules.is_empty()).then_some(rules)
}

impl GitIgnored {
    /// The rules for files under `folder` (the work tree's root): those of the repository
    /// `folder` is in, if any.
    pub fn new(folder: &Path) -> GitIgnored {
        let repo = folder
            .ancestors()
            .find(|d| d.join(".git").exists())
            .map(Path::to_path_buf);
        let mut below = Vec::new();
        if let Some(repo) = &repo {
            below.extend(read(repo, &repo.join(".git/info/exclude")));
            // Rooted at the repository: its patterns name paths in it.
            below.extend(gitconfig_excludes_path().and_then(|global| read(repo, &global)));
        }
        GitIgnored {
            repo,
            folders: HashMap::new(),
            below,
        }
    }

    /// Whether git ignores the file (or folder) at `full`, a path under the work tree.
    pub fn ignores(&mut self, full: &Path, is_dir: bool) -> bool {
        let Some(repo) = self.repo.clone() else {
            return false;
        };
        let Ok(rel) = full.strip_prefix(&repo) else {
            return false;
        };
        // A folder git ignores hides everything in it.
        let mut at = repo.clone();
        let parts: Vec<_> = rel.components().collect();
        for (i, part) in parts.iter().enumerate() {
            at.push(part);
            let last = i + 1 == parts.len();
            if self.decides(&repo, &at, if last { is_dir } else { true }) == Some(true) {
                return true;
            }
        }
        false
    }

    /// What the rules say of `path`: `Some(true)` ignored, `Some(false)` re-included by a
    /// `!` rule, `None` no rule names it. The nearest `.gitignore` first, up to the root.
    fn decides(&mut self, repo: &Path, path: &Path, is_dir: bool) -> Option<bool> {
        let mut folder = path.parent();
        while let Some(dir) = folder {
            if let Some(rules) = self.folder(dir)
                && let Some(verdict) = verdict(rules.matched(path, is_dir))
            {
                return Some(verdict);
            }
            if dir == repo {
                break;
            }
            folder = dir.parent();
        }
        (self.below.iter()).find_map(|rules| verdict(rules.matched(path, is_dir)))
    }

    fn folder(&mut self, dir: &Path) -> Option<&Gitignore> {
        self.folders
            .entry(dir.to_path_buf())
            .or_insert_with(|| read(dir, &dir.join(".gitignore")))
            .as_ref()
    }
}

fn verdict<T>(m: Match<T>) -> Option<bool> {
    match m {
        Match::None => None,
        Match::Ignore(_) => Some(true),
        Match::Whitelist(_) => Some(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &Path, path: &str, text: &str) {
        let full = root.join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, text).unwrap();
    }

    #[test]
    fn gits_rules_nested_negated_excluded_and_ignored_folders() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir(root.join(".git")).unwrap();
        write(root, ".gitignore", ".env\n*.key\nbuild/\n!keep.key\n");
        write(root, "app/.gitignore", "local.toml\n!app.key\n");
        write(root, "build/.gitignore", "!inside.txt\n");
        write(root, ".git/info/exclude", "scratch.txt\n");
        let mut g = GitIgnored::new(root);
        let mut ignored = |p: &str| g.ignores(&root.join(p), false);
        assert!(ignored(".env"));
        assert!(
            ignored("app/.env"),
            "a rule without a slash matches at any depth"
        );
        assert!(ignored("secret.key"));
        assert!(!ignored("keep.key"), "re-included");
        assert!(!ignored("app/app.key"), "a deeper file re-includes");
        assert!(ignored("app/local.toml"));
        assert!(
            !ignored("local.toml"),
            "a deeper file's rule stays in its folder"
        );
        assert!(
            ignored("build/inside.txt"),
            "an ignored folder hides its files"
        );
        assert!(ignored("scratch.txt"), "info/exclude");
        assert!(!ignored("src/main.rs"));
    }

    #[test]
    fn outside_a_repository_nothing_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), ".gitignore", ".env\n");
        let mut g = GitIgnored::new(dir.path());
        assert!(!g.ignores(&dir.path().join(".env"), false));
    }
}
