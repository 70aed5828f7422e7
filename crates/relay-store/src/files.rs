//! The store's files by the kind of record they hold, for the operations that work on a log
//! as a whole (verify, purge, import, export, signatures, watch) and for messages that show
//! a path: above the store a file is had from its record kind, never built from names.

use std::path::{Path, PathBuf};

use crate::Store;

impl Store {
    /// The log of a project's facts.
    pub fn facts_log(&self, project_id: &str) -> PathBuf {
        self.layout.facts_file(project_id)
    }

    /// The log of a project's sessions.
    pub fn sessions_log(&self, project_id: &str) -> PathBuf {
        self.layout.sessions_file(project_id)
    }

    /// The log of a project's retractions.
    pub fn retractions_log(&self, project_id: &str) -> PathBuf {
        self.layout.retractions_file(project_id)
    }

    /// The log of the signatures of a project's records.
    pub fn signatures_log(&self, project_id: &str) -> PathBuf {
        self.layout.signatures_file(project_id)
    }

    /// The log of the project records.
    pub fn projects_log(&self) -> PathBuf {
        self.layout.projects_file()
    }

    /// The store's settings (`config.toml`).
    pub fn config_file(&self) -> PathBuf {
        self.layout.config()
    }

    /// Which keys may sign as which actors (git's allowed-signers format).
    pub fn allowed_signers_file(&self) -> PathBuf {
        self.layout.allowed_signers()
    }

    /// The hashes of `relay serve`'s bearer tokens (per clone).
    pub fn tokens_file(&self) -> PathBuf {
        self.layout.tokens_file()
    }

    /// A file or folder of per-clone state relay keeps under `local/` (never committed),
    /// named `name`.
    pub fn local_path(&self, name: &str) -> PathBuf {
        self.layout.local_dir().join(name)
    }

    /// The tracked store file `path` stands for: itself, or for a file of the clone's queue,
    /// the log it waits to be flushed into.
    pub fn tracked_file(&self, path: &Path) -> PathBuf {
        self.layout
            .tracked_path(path)
            .unwrap_or_else(|| path.to_path_buf())
    }

    /// Whether `dir` holds a store (its config or its projects log), without opening it.
    pub fn exists_at(dir: &Path) -> bool {
        crate::is_store(dir)
    }

    /// Whether a folder of `project_id` exists, whether or not a project record names it.
    pub fn has_project_folder(&self, project_id: &str) -> bool {
        self.layout.project_dir(project_id).is_dir()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_has_its_own_file_inside_the_store() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join(".relay");
        Store::create(&root, "demo").unwrap();
        let store = Store::open(root.clone()).unwrap();
        let files = [
            store.facts_log("demo"),
            store.sessions_log("demo"),
            store.retractions_log("demo"),
            store.signatures_log("demo"),
            store.projects_log(),
            store.config_file(),
            store.allowed_signers_file(),
            store.tokens_file(),
            store.local_path("x"),
        ];
        assert!(files.iter().all(|f| f.starts_with(&root)));
        let distinct: std::collections::HashSet<_> = files.iter().collect();
        assert_eq!(distinct.len(), files.len());
        assert!(store.config_file().is_file() && store.projects_log().is_file());
        assert!(!store.has_project_folder("demo"));
        std::fs::create_dir_all(store.facts_log("demo").parent().unwrap()).unwrap();
        assert!(store.has_project_folder("demo"));
        assert!(!store.has_project_folder("other"));
        assert!(Store::exists_at(&root) && !Store::exists_at(dir.path()));
        let facts = store.facts_log("demo");
        assert_eq!(store.tracked_file(&facts), facts);
        let queued = store.layout.queued_path(&facts).unwrap();
        assert_eq!(store.tracked_file(&queued), facts);
    }
}
