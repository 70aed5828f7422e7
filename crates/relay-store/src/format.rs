//! The on-disk format of `.relay/` as names, for what documents it (`cargo xtask gen`: the
//! man page's FILES and the reference's store format), for messages that name a store file,
//! and for the checks that judge a file by where it sits (`relay verify`, `relay resolve`).
//! Readers and writers never build a path from these: they ask the [`Store`](crate::Store)
//! for a record kind's file.

use std::path::{Path, PathBuf};

use crate::layout::{self, Layout};

pub use crate::cache::types::TRACKED as TRACKED_TYPES;
pub use crate::cache::{FACTS, FILE_HASHES, Index, PACKAGES, SUMMARY, TYPES, VECTORS, WATCH};
pub use crate::layout::{
    ALLOWED_SIGNERS_FILE, CACHE_DIR, CONFIG_FILE, FACTS_FILE, LOCAL_DIR, PACKAGES_DIR,
    PROJECTS_DIR, PROJECTS_FILE, RETRACTIONS_FILE, SESSIONS_FILE, SIGNATURES_FILE, STORE_DIR,
    TOKENS_FILE, encode_project_dir,
};

fn at(root: &Path) -> Layout {
    Layout::new(root.to_path_buf())
}

/// The package log of a project's `month` (`YYYY-MM`) in the store at `root`.
pub fn package_log(root: &Path, project_id: &str, month: &str) -> PathBuf {
    at(root).package_log(project_id, month)
}

/// The writers' lock called `name` in the store at `root`.
pub fn lock_file(root: &Path, name: &str) -> PathBuf {
    at(root).lock_file(name)
}

/// The clone's queue of hook writes (`local/pending/`) in the store at `root`.
pub fn pending_dir(root: &Path) -> PathBuf {
    at(root).pending_dir()
}

/// The per-clone file or folder `name` under `local/` of the store at `root`, for what has
/// only a store's folder, not an opened store (see
/// [`Store::local_path`](crate::Store::local_path)).
pub fn local_path(root: &Path, name: &str) -> PathBuf {
    at(root).local_dir().join(name)
}

/// Whether `rel`, a path inside a store, is per-clone state (under `cache/` or `local/`),
/// which git never sees.
pub fn is_per_clone(rel: &Path) -> bool {
    rel.starts_with(CACHE_DIR) || rel.starts_with(LOCAL_DIR)
}

/// The package index of the package log `log` under `cache_dir`.
pub fn package_index(cache_dir: &Path, log: &Path) -> PathBuf {
    crate::cache::packages::index_path(cache_dir, log)
}

/// The vectors of the package log `log` under `cache_dir`, with `MODEL` for the folder named
/// after the model that made them.
pub fn vectors_file(cache_dir: &Path, log: &Path) -> PathBuf {
    let model = crate::cache::vectors::model_dir(cache_dir, "");
    let file = crate::cache::vectors::vectors_path(cache_dir, log, "");
    let rest = file.strip_prefix(&model).unwrap_or(&file);
    VECTORS.dir(cache_dir).join("MODEL").join(rest)
}

/// Whether `rel`, a path inside a store (a folder when `is_dir`), has a place in its layout:
/// the store's own files, a project's folder and logs, and anything under `cache/` and
/// `local/`.
pub fn has_place(rel: &Path, is_dir: bool) -> bool {
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    match parts
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [CACHE_DIR, ..] | [LOCAL_DIR, ..] => true,
        [f] if !is_dir => matches!(
            *f,
            CONFIG_FILE | PROJECTS_FILE | ".gitignore" | ".gitattributes" | ALLOWED_SIGNERS_FILE
        ),
        [PROJECTS_DIR] => true,
        [PROJECTS_DIR, d] => is_dir && (layout::decode_project_dir(d).is_some() || d.contains('~')),
        [PROJECTS_DIR, _, f] => {
            (is_dir && *f == PACKAGES_DIR)
                || (!is_dir
                    && matches!(
                        *f,
                        FACTS_FILE | SESSIONS_FILE | SIGNATURES_FILE | RETRACTIONS_FILE
                    ))
        }
        [PROJECTS_DIR, _, PACKAGES_DIR, f] => !is_dir && layout::is_package_log_name(f),
        _ => false,
    }
}

/// Whether `rel`, a path inside a store, is a monthly package log.
pub fn is_package_log(rel: &Path) -> bool {
    let parts: Vec<&str> = rel.iter().filter_map(|p| p.to_str()).collect();
    matches!(parts.as_slice(), [PROJECTS_DIR, _, PACKAGES_DIR, f] if layout::is_package_log_name(f))
}

/// A store file relay merges line by line (`relay resolve`, the merge driver), and what its
/// lines must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineMerged {
    /// A log: each line a whole JSON object.
    Log,
    /// `allowed_signers`: git's allowed-signers lines.
    AllowedSigners,
}

/// Which kind of line-merged file a store file named `name` is; `None` for one relay does not
/// merge line by line.
pub fn line_merged(name: &str) -> Option<LineMerged> {
    match name {
        n if n.ends_with(".ndjson") => Some(LineMerged::Log),
        ALLOWED_SIGNERS_FILE => Some(LineMerged::AllowedSigners),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_the_store_writes_has_a_place() {
        for (rel, is_dir) in [
            ("config.toml", false),
            ("projects.ndjson", false),
            (".gitattributes", false),
            ("allowed_signers", false),
            ("cache/search-v5/x/2026-05.json", false),
            ("local/tokens.ndjson", false),
            ("projects", true),
            ("projects/demo", true),
            ("projects/demo/facts.ndjson", false),
            ("projects/demo/packages", true),
            ("projects/demo/packages/2026-05.ndjson", false),
        ] {
            assert!(has_place(Path::new(rel), is_dir), "{rel}");
        }
        for (rel, is_dir) in [
            ("notes.txt", false),
            ("config.toml", true),
            ("projects/demo", false),
            ("projects/Demo", true),
            ("projects/demo/other.ndjson", false),
            ("projects/demo/packages/2026-5.ndjson", false),
            ("projects/demo/packages/x/2026-05.ndjson", false),
        ] {
            assert!(!has_place(Path::new(rel), is_dir), "{rel}");
        }
    }

    #[test]
    fn package_logs_and_line_merged_files_are_told_by_name() {
        assert!(is_package_log(Path::new(
            "projects/demo/packages/2026-05.ndjson"
        )));
        assert!(!is_package_log(Path::new("projects/demo/facts.ndjson")));
        assert!(!is_package_log(Path::new("projects.ndjson")));
        assert_eq!(line_merged("facts.ndjson"), Some(LineMerged::Log));
        assert_eq!(
            line_merged(ALLOWED_SIGNERS_FILE),
            Some(LineMerged::AllowedSigners)
        );
        assert_eq!(line_merged(CONFIG_FILE), None);
        assert!(is_per_clone(Path::new("cache/x")) && is_per_clone(Path::new("local/pending")));
        assert!(!is_per_clone(Path::new("projects/cache")));
        assert_eq!(
            package_log(Path::new(STORE_DIR), "my-app", "2026-05"),
            Path::new(".relay/projects/my-app/packages/2026-05.ndjson")
        );
    }
}
