//! The clone's journal of hook records (`relay-store`'s `journal`) as the hooks meet it:
//! [`reconcile`] puts back into the queue what a git move took away, and forgets what a commit
//! in the branch's upstream holds: a record leaves the journal only once it is shared.

use std::path::Path;

use serde::Serialize;

use crate::ops::git::git_raw;
use relay_store::Store;
use relay_wire::error::Result;

/// What [`reconcile`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Reconciled {
    /// Records put back into the queue (a git move had taken them from the store).
    pub requeued: u64,
    /// Records dropped from the journal (the branch's upstream holds them).
    pub forgotten: u64,
    /// Records the journal still keeps.
    pub journaled: u64,
}

/// Forgets the journal's lines that the upstream of the branch checked out at `cwd` holds,
/// then puts back into the queue what neither the store nor the queue holds. With no
/// upstream, nothing is forgotten: every record stays, checked against the work tree.
pub fn reconcile(store: &Store, cwd: &Path) -> Result<Reconciled> {
    let mut done = Reconciled::default();
    let Some(place) = store.journal_place() else {
        return Ok(done);
    };
    let upstream = crate::ops::git::git(
        cwd,
        &["rev-parse", "--verify", "--quiet", "@{upstream}^{commit}"],
    );
    for f in store.journaled_files()? {
        if let Some(up) = &upstream {
            let spec = format!("{up}:{}/{}", place.store_rel, f.rel);
            // A file the upstream lacks holds nothing yet (git prints nothing on stdout).
            if let Some(held) = git_raw(&place.top, &["cat-file", "blob", &spec]) {
                done.forgotten += store.forget_journaled(&f.rel, &held)?;
            }
        }
    }
    done.requeued = store.reconcile_journal()?.lines;
    done.journaled = store.journaled_lines()?;
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    fn git(dir: &Path, args: &[&str]) -> bool {
        Command::new("git")
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "-c",
                "init.defaultBranch=main",
            ])
            .args(args)
            .current_dir(dir)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .is_ok_and(|o| o.status.success())
    }

    #[test]
    fn what_the_upstream_holds_leaves_the_journal_and_the_rest_stays() {
        let tmp = tempfile::tempdir().unwrap();
        let (origin, work) = (tmp.path().join("origin.git"), tmp.path().join("work"));
        if !git(tmp.path(), &["init", "-q", "--bare", "origin.git"]) {
            return; // no git here
        }
        assert!(git(tmp.path(), &["init", "-q", "work"]));
        let root = work.join(".relay");
        Store::create(&root, "demo").unwrap();
        let mut store = Store::open(root).unwrap();
        let month = relay_store::format::package_log(store.root(), "demo", "2026-05");
        store.set_queued(true);
        store.append(&month, b"{\"p\":1}\n{\"p\":2}\n").unwrap();
        store.set_queued(false);
        // Without an upstream nothing is forgotten.
        assert_eq!(
            reconcile(&store, &work).unwrap(),
            Reconciled {
                requeued: 0,
                forgotten: 0,
                journaled: 2
            }
        );
        // The first record reaches the upstream; the second is lost from the queue.
        std::fs::create_dir_all(month.parent().unwrap()).unwrap();
        std::fs::write(&month, "{\"p\":1}\n").unwrap();
        std::fs::remove_dir_all(relay_store::format::pending_dir(store.root())).unwrap();
        assert!(git(&work, &["add", "-A"]));
        assert!(git(&work, &["commit", "-q", "-m", "one"]));
        assert!(git(
            &work,
            &["remote", "add", "origin", origin.to_str().unwrap()]
        ));
        assert!(git(&work, &["push", "-q", "-u", "origin", "main"]));
        let done = reconcile(&store, &work).unwrap();
        assert_eq!(
            done,
            Reconciled {
                requeued: 1,
                forgotten: 1,
                journaled: 1
            }
        );
        let queued = store.queued_package_logs("demo").unwrap().remove(0);
        assert_eq!(std::fs::read(&queued).unwrap(), b"{\"p\":2}\n");
    }
}
