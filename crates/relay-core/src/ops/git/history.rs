//! What git's history holds of a store file: the commits that changed it, and the file as each
//! left it, read with one `git log` and one `git cat-file --batch` whatever the number of
//! commits. Signatures use it to date each line of `allowed_signers` and to see a key added
//! or the file emptied, and verify to find lines a log once held. No git, no work tree, or a
//! file git never committed answers `None`: the caller falls back.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use relay_wire::time::Timestamp;

/// One commit that changed a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Commit {
    /// The full id.
    pub id: String,
    /// When it was committed (the committer's date).
    pub at: Timestamp,
}

impl Commit {
    /// The first seven digits of its id, as people name a commit.
    pub fn short(&self) -> &str {
        &self.id[..self.id.len().min(7)]
    }
}

/// The commits that changed `file` (a path relative to `dir`, which is inside a work tree),
/// newest first; `None` when git cannot answer or has none.
pub fn commits(dir: &Path, file: &str) -> Option<Vec<Commit>> {
    if !super::inside_work_tree(dir) {
        return None;
    }
    let log = super::git(dir, &["log", "--format=%H %ct", "--", file])?;
    let commits: Vec<Commit> = log
        .lines()
        .filter_map(|l| {
            let (id, at) = l.split_once(' ')?;
            let at = chrono::DateTime::from_timestamp(at.trim().parse().ok()?, 0)?;
            Some(Commit {
                id: id.to_string(),
                at,
            })
        })
        .collect();
    (!commits.is_empty()).then_some(commits)
}

/// `file` as each commit that changed it left it, oldest first; `None` in a version is a
/// commit that deleted it. `None` when git cannot answer or has no commit of it.
pub fn versions(dir: &Path, file: &str) -> Option<Vec<(Commit, Option<Vec<u8>>)>> {
    let mut commits = commits(dir, file)?;
    commits.reverse();
    let mut texts = vec![None; commits.len()];
    blobs(dir, file, &commits, |i, text| texts[i] = text)?;
    Some(commits.into_iter().zip(texts).collect())
}

/// Reads `file` as each of `commits` left it, one after another, and calls `each` with its
/// index and its bytes (`None` where the commit has no such file). `None` when git fails.
pub fn blobs(
    dir: &Path,
    file: &str,
    commits: &[Commit],
    mut each: impl FnMut(usize, Option<Vec<u8>>),
) -> Option<()> {
    if commits.is_empty() {
        return Some(());
    }
    // `./` makes the path relative to `dir`, where the store sits in its work tree.
    let asked: String = (commits.iter())
        .map(|c| format!("{}:./{file}\n", c.id))
        .collect();
    let (mut child, writer) = super::spawn_fed(dir, &["cat-file", "--batch"], asked.into_bytes())?;
    let mut out = BufReader::new(child.stdout.take()?);
    let mut read_all = || -> Option<()> {
        for i in 0..commits.len() {
            let mut header = String::new();
            out.read_line(&mut header).ok()?;
            let header = header.trim_end();
            if header.ends_with(" missing") {
                each(i, None);
                continue;
            }
            // `<id> <type> <size>`, the bytes, and a newline.
            let size: usize = header.rsplit(' ').next()?.parse().ok()?;
            let mut bytes = vec![0; size + 1];
            out.read_exact(&mut bytes).ok()?;
            bytes.pop();
            each(i, Some(bytes));
        }
        Some(())
    };
    let done = read_all();
    drop(out);
    let status = child.wait().ok()?;
    writer.join().ok()?.ok()?;
    done.filter(|()| status.success())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    fn git(dir: &Path, args: &[&str]) {
        let ok = Command::new("git")
            .args(["-c", "user.email=t@example.com", "-c", "user.name=t"])
            .args(args)
            .current_dir(dir)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .is_ok_and(|o| o.status.success());
        assert!(ok, "git {args:?}");
    }

    #[test]
    fn each_committed_version_comes_back_oldest_first_and_a_deletion_is_none() {
        if Command::new("git").arg("--version").output().is_err() {
            eprintln!("skipped: no git");
            return;
        }
        let top = tempfile::tempdir().unwrap();
        let dir = top.path().join("sub");
        std::fs::create_dir_all(&dir).unwrap();
        // The folder outlives the file, as a store outlives its allowed_signers.
        std::fs::write(dir.join("keep"), "").unwrap();
        assert_eq!(versions(&dir, "f"), None, "not a repository");
        git(top.path(), &["init", "-q"]);
        assert_eq!(versions(&dir, "f"), None, "no commit");
        for text in ["one\n", "one\ntwo\n"] {
            std::fs::write(dir.join("f"), text).unwrap();
            git(top.path(), &["add", "-A"]);
            git(top.path(), &["commit", "-qm", "x"]);
        }
        git(top.path(), &["rm", "-q", "sub/f"]);
        git(top.path(), &["commit", "-qm", "gone"]);
        let found = versions(&dir, "f").unwrap();
        let texts: Vec<Option<&[u8]>> = found.iter().map(|(_, t)| t.as_deref()).collect();
        assert_eq!(texts, [Some(&b"one\n"[..]), Some(&b"one\ntwo\n"[..]), None]);
        assert_eq!(found[0].0.short().len(), 7);
        assert!(found[0].0.at <= found[2].0.at);
        assert_eq!(commits(&dir, "other"), None);
    }
}
