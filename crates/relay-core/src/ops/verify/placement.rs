//! verify's checks of where each file sits: files with no place in the store layout, an
//! `allowed_signers` line that does not parse, and store files git has not finished merging.

use super::{Checker, QUARANTINE};

impl Checker<'_> {
    /// A line of `allowed_signers` that does not parse.
    pub(super) fn allowed_signers(&mut self) {
        let path = self.store.allowed_signers_file();
        if let Ok(text) = std::fs::read_to_string(&path)
            && let Err((line, m)) = relay_wire::allowed_signers::AllowedSigners::parse(&text)
        {
            self.problem(&path, line, "invalid_allowed_signers", m);
        }
    }

    /// Store files git has not finished merging (an octopus merge, which does not run the
    /// union driver): one that both sides created holds one side only and no marker shows it.
    pub(super) fn unmerged(&mut self) {
        for path in crate::ops::git::resolve::unmerged_paths(self.store) {
            self.problem(
                &path,
                0,
                "unmerged",
                "git has not finished merging this file (git's octopus merge does not run \
                 relay's union driver), so it may hold one side's records only; run `relay \
                 resolve`, then `git commit`",
            );
        }
    }

    /// Files that have no place in the layout.
    pub(super) fn layout(&mut self) {
        let root = self.store.root().to_path_buf();
        for entry in walkdir::WalkDir::new(&root)
            .min_depth(1)
            .into_iter()
            .filter_map(|e| e.ok())
        {
            let rel = entry.path().strip_prefix(&root).unwrap_or(entry.path());
            let is_dir = entry.file_type().is_dir();
            let ok = relay_store::format::has_place(rel, is_dir)
                || (!is_dir && rel.as_os_str() == QUARANTINE);
            if !ok {
                self.problem(
                    entry.path(),
                    0,
                    "unexpected_file",
                    "this file has no place in the store layout",
                );
            }
        }
    }
}
