//! `relay init`: the store and its first project, either shared (committed with the code) or
//! local to this clone (`--local`: kept out of git through `info/exclude`, never through a
//! tracked file). Running it again is harmless.

use std::path::Path;

use crate::ops::git::{self, Exclusion};
use relay_store::{Config, Store};
use relay_wire::Project;
use relay_wire::error::{Error, Result};

/// What `relay init` did.
#[derive(Debug, Clone)]
pub struct Initialized {
    /// Whether any of the store's files was created.
    pub created_store: bool,
    /// Whether the store is local (asked now, or recorded by an earlier `init --local`).
    pub local: bool,
    /// For a local store, how git was told to ignore it.
    pub exclusion: Option<Exclusion>,
    /// Whether git ignores the store's folder: wanted for a local store, a surprise for a
    /// shared one (an exclude line left by an earlier local store, a `.gitignore`).
    pub git_ignored: bool,
    pub project: Project,
    pub created_project: bool,
}

/// Creates the store at `root` where it is missing and the project `project_id` in it. A
/// local store (asked with `local`, or an existing one whose config says so) is listed in its
/// repository's `info/exclude`. An existing shared store is never made local: its files may
/// already be committed, and git keeps tracking committed files whatever the exclude file says.
pub fn init(root: &Path, project_id: &str, name: Option<&str>, local: bool) -> Result<Initialized> {
    let exists = Store::exists_at(root);
    let recorded_local = exists && Config::of_store(root)?.local();
    if local && exists && !recorded_local {
        return Err(Error::InvalidInput(format!(
            "{} is already a shared store (its config.toml has no `local = true`), and --local \
             only makes new stores; to make it private, add `local = true` at the top of its \
             config.toml, run `git rm -r --cached {}` if it was committed, then run \
             `relay init --local` again",
            root.display(),
            root.display()
        )));
    }
    let local = local || recorded_local;
    let created_store = if local {
        Store::create_local(root, project_id)?
    } else {
        Store::create(root, project_id)?
    };
    let exclusion = if local {
        Some(git::exclude(root)?)
    } else {
        None
    };
    let git_ignored = git::ignores(root);
    let store = Store::open(root.to_path_buf())?;
    let (project, created_project) = crate::ops::projects::ensure(&store, project_id, name)?;
    Ok(Initialized {
        created_store,
        local,
        exclusion,
        git_ignored,
        project,
        created_project,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_local_store_outside_git_has_nothing_to_exclude_and_says_it_is_local() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join(".relay");
        let done = init(&root, "demo", None, true).unwrap();
        assert!(done.created_store && done.local && done.created_project);
        assert!(matches!(
            done.exclusion,
            Some(Exclusion::NotInGit) | Some(Exclusion::Added { .. })
        ));
        assert!(Config::load(&root.join("config.toml")).unwrap().local());
        assert!(!root.join(".gitignore").exists() && !root.join(".gitattributes").exists());
        // Again, with or without --local: still local, nothing new.
        let again = init(&root, "demo", None, false).unwrap();
        assert!(again.local && !again.created_store && !again.created_project);
    }

    #[test]
    fn a_shared_store_is_never_made_local_and_nothing_is_written() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join(".relay");
        let shared = init(&root, "demo", None, false).unwrap();
        assert!(!shared.local && shared.exclusion.is_none());
        let config = std::fs::read(root.join("config.toml")).unwrap();
        let err = init(&root, "other", None, true).unwrap_err();
        assert!(err.to_string().contains("already a shared store"), "{err}");
        assert_eq!(std::fs::read(root.join("config.toml")).unwrap(), config);
        assert!(!root.join("projects/other").exists());
    }
}
