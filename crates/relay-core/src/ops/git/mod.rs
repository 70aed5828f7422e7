//! The little relay asks of git: the commit checked out, who the user is, whether the store
//! is committed and the branch up to date (read from local refs, never fetched). Any failure
//! (no git, not a repository) simply means "unknown". What relay writes into git's folder is a
//! local store's line in `info/exclude`, and the index entries of store files when a command
//! asks for it (`relay hook flush --stage` at the pre-commit hook, `relay resolve`, through
//! [`add`]); it never commits, pushes or moves a ref.

pub mod driver;
pub mod history;
pub mod octopus;
pub mod resolve;
pub mod state;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Serialize;

use relay_store::Config;
use relay_wire::error::{Error, Result};

/// Runs git in `cwd`; its trimmed stdout on success, `None` on any failure.
pub fn git(cwd: &Path, args: &[&str]) -> Option<String> {
    let text = String::from_utf8(git_raw(cwd, args)?).ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

/// The full id of HEAD when `cwd` is inside a git work tree with at least one commit. Outside
/// any work tree (no `.git` in `cwd` or a folder above it) no git process is started: a
/// deposit in a plain folder costs no fork.
pub fn head_commit(cwd: &Path) -> Option<String> {
    if !inside_work_tree(cwd) {
        return None;
    }
    git(cwd, &["rev-parse", "--verify", "--quiet", "HEAD"])
}

/// Whether `cwd` or a folder above it holds `.git` (a folder, or the file of a linked work tree
/// or a submodule): where git would find a repository without `GIT_DIR`.
pub fn inside_work_tree(cwd: &Path) -> bool {
    cwd.ancestors().any(|dir| dir.join(".git").exists())
}

/// How long a process keeps git's answer to "who is the user" for a folder: `relay serve`
/// asks it for every deposit (and every read that meets a draft) by a caller without a token,
/// and each answer costs a git process; it changes only when someone edits git's config.
const USER_EMAIL_KEPT: Duration = Duration::from_secs(5);

/// `git config user.email`, if set. A process asks git at most once per folder every
/// [`USER_EMAIL_KEPT`].
pub fn user_email(cwd: &Path) -> Option<String> {
    user_email_kept(cwd, USER_EMAIL_KEPT)
}

/// [`user_email`], an answer kept for `kept`.
fn user_email_kept(cwd: &Path, kept: Duration) -> Option<String> {
    type Answer = (PathBuf, Instant, Option<String>);
    static ANSWERS: Mutex<Vec<Answer>> = Mutex::new(Vec::new());
    let fresh = |(dir, at, _): &Answer| dir == cwd && at.elapsed() < kept;
    let known = (ANSWERS.lock().unwrap_or_else(|e| e.into_inner()).iter())
        .find(|a| fresh(a))
        .map(|(.., email)| email.clone());
    if let Some(email) = known {
        return email;
    }
    let email = git(cwd, &["config", "user.email"]);
    let mut answers = ANSWERS.lock().unwrap_or_else(|e| e.into_inner());
    answers.retain(|(dir, at, _)| dir != cwd && at.elapsed() < kept);
    answers.push((cwd.to_path_buf(), Instant::now(), email.clone()));
    email
}

/// Runs git in `cwd` and returns its raw stdout (for `-z` output, where every byte counts).
pub fn git_raw(cwd: &Path, args: &[&str]) -> Option<Vec<u8>> {
    let out = Command::new("git")
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status.success().then_some(out.stdout)
}

/// Adds `paths` to git's index (the one `GIT_INDEX_FILE` names, when git gives a hook one);
/// the error carries what git said.
pub fn add(cwd: &Path, paths: &[PathBuf]) -> Result<()> {
    if paths.is_empty() {
        return Ok(());
    }
    let out = Command::new("git")
        .args(["add", "--"])
        .args(paths)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| Error::io("cannot run git", e))?;
    if out.status.success() {
        return Ok(());
    }
    Err(Error::Integrity(format!(
        "git add failed: {}",
        String::from_utf8_lossy(&out.stderr).trim()
    )))
}

/// Runs git in `cwd` with `input` on its stdin; its trimmed stdout on success, `None` on any
/// failure.
pub fn git_with_input(cwd: &Path, args: &[&str], input: &[u8]) -> Option<String> {
    let (child, writer) = spawn_fed(cwd, args, input.to_vec())?;
    let out = child.wait_with_output().ok()?;
    writer.join().ok()?.ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
}

/// Starts git in `cwd` with `input` on its stdin, written from a thread (git may start
/// writing before it has read everything): the child, its stdout piped, and the writer.
pub(crate) fn spawn_fed(
    cwd: &Path,
    args: &[&str],
    input: Vec<u8>,
) -> Option<(
    std::process::Child,
    std::thread::JoinHandle<std::io::Result<()>>,
)> {
    let mut child = Command::new("git")
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let mut stdin = child.stdin.take()?;
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    Some((child, writer))
}

/// The paths of `git status --porcelain -z` (for a rename, the new path).
pub fn status_paths(raw: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let mut entries = raw.split(|&b| b == 0).filter(|e| !e.is_empty());
    while let Some(e) = entries.next() {
        if e.len() < 4 {
            continue;
        }
        out.push(String::from_utf8_lossy(&e[3..]).into_owned());
        if matches!(e[0], b'R' | b'C') || matches!(e[1], b'R' | b'C') {
            entries.next(); // the original path
        }
    }
    out
}

/// NUL-separated paths (`git show --name-only -z`).
pub fn nul_paths(raw: &[u8]) -> Vec<String> {
    raw.split(|&b| b == 0)
        .map(|p| String::from_utf8_lossy(p).trim_matches('\n').to_string())
        .filter(|p| !p.is_empty())
        .collect()
}

/// What `relay init --local` did to keep the store out of git.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Exclusion {
    /// The store is not inside a git work tree: there is nothing to exclude.
    NotInGit,
    /// `pattern` was appended to the repository's exclude file `file`.
    Added { file: PathBuf, pattern: String },
    /// `file` already listed `pattern`; nothing changed.
    AlreadyListed { file: PathBuf, pattern: String },
}

/// The comment line written above a local store's pattern in `info/exclude`.
pub const EXCLUDE_COMMENT: &str = "# relay: a local store (relay init --local), never committed";

/// Lists the folder `dir` (which exists) in its repository's `info/exclude`, found with
/// `git rev-parse --git-path` so that a linked worktree uses its repository's file. The file is
/// git's own and never committed, unlike `.gitignore`. Appends a comment and one anchored
/// pattern (`/.relay/`), once.
pub fn exclude(dir: &Path) -> Result<Exclusion> {
    let found = git(
        dir,
        &["rev-parse", "--show-toplevel", "--git-path", "info/exclude"],
    );
    let Some((top, file)) = found.as_deref().and_then(|o| o.split_once('\n')) else {
        return Ok(Exclusion::NotInGit);
    };
    let real = dir
        .canonicalize()
        .map_err(|e| Error::io(format!("cannot resolve {}", dir.display()), e))?;
    // `--git-path` answers relative to `dir` (`../.git/info/exclude`): resolved on the real path.
    let file = real
        .join(file.trim())
        .components()
        .fold(PathBuf::new(), |mut path, part| {
            match part {
                std::path::Component::ParentDir => {
                    path.pop();
                }
                std::path::Component::CurDir => {}
                other => path.push(other),
            }
            path
        });
    let inside = real
        .strip_prefix(Path::new(top))
        .ok()
        .filter(|rel| !rel.as_os_str().is_empty());
    let Some(rel) = inside else {
        return Err(Error::InvalidInput(format!(
            "{} is the top folder of the git work tree {top}, which git cannot ignore; \
             put the store in a folder of the work tree (relay init --local makes .relay/ there)",
            dir.display()
        )));
    };
    let pattern = exclude_pattern(rel);
    let text = match std::fs::read_to_string(&file) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(Error::io(format!("cannot read {}", file.display()), e)),
    };
    if text.lines().any(|l| l.trim_end() == pattern) {
        return Ok(Exclusion::AlreadyListed { file, pattern });
    }
    let cannot = |e| Error::io(format!("cannot write {}", file.display()), e);
    if let Some(info) = file.parent() {
        std::fs::create_dir_all(info).map_err(cannot)?;
    }
    let lead = if text.is_empty() || text.ends_with('\n') {
        ""
    } else {
        "\n"
    };
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&file)
        .and_then(|mut f| write!(f, "{lead}{EXCLUDE_COMMENT}\n{pattern}\n"))
        .map_err(cannot)?;
    Ok(Exclusion::Added { file, pattern })
}

/// Whether git ignores the folder `dir` (by `info/exclude` or any `.gitignore`): false outside
/// a git work tree.
pub fn ignores(dir: &Path) -> bool {
    let (Some(parent), Some(name)) = (dir.parent(), dir.file_name().and_then(|n| n.to_str()))
    else {
        return false;
    };
    git_raw(parent, &["check-ignore", "-q", "--", name]).is_some()
}

/// The gitignore pattern that matches exactly the folder `rel` (relative to the work tree's
/// top): anchored with `/`, each character git would read as a wildcard escaped.
fn exclude_pattern(rel: &Path) -> String {
    let mut out = String::from("/");
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    for ch in parts.join("/").chars() {
        if matches!(ch, '\\' | '*' | '?' | '[' | '!' | '#' | ' ') {
            out.push('\\');
        }
        out.push(ch);
    }
    out.push('/');
    out
}

/// Whether the store is in step with git: its files not yet committed, and how the branch
/// stands against its upstream as of the last fetch.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct StoreSync {
    /// The store's folder as the user types it: relative to the folder asked from (`.relay`).
    pub store: String,
    /// The branch checked out; `None` when HEAD is detached.
    pub branch: Option<String>,
    /// Store files with changes not committed: untracked, modified or staged.
    pub uncommitted: usize,
    /// The branch's upstream (`origin/main`), if it has one.
    pub upstream: Option<String>,
    /// Commits of the upstream the branch lacks, as of the last fetch.
    pub behind: usize,
    /// Commits of the branch the upstream lacks.
    pub ahead: usize,
    /// Store files git has not finished merging (counted in `uncommitted` too): what an
    /// octopus merge leaves, as it does not run the union driver (`relay resolve`).
    pub unmerged: usize,
}

/// Whether `dir` or a folder above it holds `.git` (or `GIT_DIR` names a repository): if not,
/// git would only fail, and starting it is not worth its millisecond on every orient.
pub fn may_be_in_git(dir: &Path) -> bool {
    use crate::resolve::environment::{Environment, GIT_DIR};
    if Environment::process().os(GIT_DIR).is_some() {
        return true;
    }
    dir.canonicalize()
        .is_ok_and(|d| d.ancestors().any(|a| a.join(".git").exists()))
}

/// How the store at `store_dir` stands in the git work tree that holds `work_tree_root` (its
/// top, or any folder of it such as the one that holds the store). One git process, reading
/// local refs only: nothing is fetched. `None` outside a git work tree, for a local store,
/// and on any git failure.
pub fn store_sync(work_tree_root: &Path, store_dir: &Path) -> Option<StoreSync> {
    if !may_be_in_git(work_tree_root) {
        return None;
    }
    if Config::of_store(store_dir).ok()?.local() {
        return None;
    }
    let rel = match store_dir.strip_prefix(work_tree_root) {
        Ok(rel) => Some(rel.to_path_buf()),
        Err(_) => {
            let root = work_tree_root.canonicalize().ok()?;
            let store = store_dir.canonicalize().ok()?;
            store.strip_prefix(root).ok().map(Path::to_path_buf)
        }
    };
    let pathspec = match &rel {
        Some(r) if r.as_os_str().is_empty() => PathBuf::from("."),
        Some(r) => r.clone(),
        None => store_dir.to_path_buf(),
    };
    let raw = git_raw(
        work_tree_root,
        &[
            "--no-optional-locks",
            "status",
            "--porcelain=v2",
            "--branch",
            "-z",
            "--untracked-files=all",
            "--",
            pathspec.to_str()?,
        ],
    )?;
    let mut sync = parse_status_v2(&raw);
    sync.store = pathspec.to_string_lossy().into_owned();
    Some(sync)
}

/// Reads `git status --porcelain=v2 --branch -z`: the branch headers, and one count per
/// changed or untracked path (ignored paths are not counted).
fn parse_status_v2(raw: &[u8]) -> StoreSync {
    let mut sync = StoreSync::default();
    let mut records = raw.split(|&b| b == 0).filter(|r| !r.is_empty());
    while let Some(record) = records.next() {
        let line = String::from_utf8_lossy(record);
        if let Some(header) = line.strip_prefix("# ") {
            let (key, value) = header.split_once(' ').unwrap_or((header, ""));
            match key {
                "branch.head" if value != "(detached)" => sync.branch = Some(value.to_string()),
                "branch.upstream" => sync.upstream = Some(value.to_string()),
                "branch.ab" => {
                    for n in value.split(' ') {
                        if let Some(a) = n.strip_prefix('+') {
                            sync.ahead = a.parse().unwrap_or(0);
                        } else if let Some(b) = n.strip_prefix('-') {
                            sync.behind = b.parse().unwrap_or(0);
                        }
                    }
                }
                _ => {}
            }
            continue;
        }
        match record[0] {
            b'u' => {
                sync.uncommitted += 1;
                sync.unmerged += 1;
            }
            b'1' | b'?' => sync.uncommitted += 1,
            b'2' => {
                sync.uncommitted += 1;
                records.next(); // a rename's original path
            }
            _ => {}
        }
    }
    sync
}

impl StoreSync {
    /// One short line for orient's header: store files not committed yet, and the branch
    /// behind its upstream. `None` when the store is in step.
    pub fn header_note(&self) -> Option<String> {
        let mut parts = Vec::new();
        if self.unmerged > 0 {
            parts.push(format!(
                "{} of {}/ in conflict: git's octopus merge does not run relay's union driver; \
                 run relay resolve, then git commit.",
                count(self.unmerged, "file"),
                relay_wire::text::clean_line(&self.store)
            ));
        }
        if self.uncommitted > self.unmerged {
            let store = relay_wire::text::clean_line(&self.store);
            let typed = shell_word(&store);
            parts.push(format!(
                "Not committed yet: {} of {store}/ (git add {typed} && git commit).",
                count(self.uncommitted - self.unmerged, "file")
            ));
        }
        if let (true, Some(upstream)) = (self.behind > 0, &self.upstream) {
            parts.push(format!(
                "Branch {} is {} behind {upstream} (as of the last fetch): git pull to see \
                 their records.",
                self.branch.as_deref().unwrap_or("HEAD"),
                count(self.behind, "commit")
            ));
        }
        (!parts.is_empty()).then(|| parts.join(" "))
    }
}

fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// `word` as a shell reads it: as is when plain, else in single quotes.
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '/'));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn porcelain_z_paths() {
        let raw = b" M a.txt\0R  c.txt\0b.txt\0?? my notes.md\0";
        assert_eq!(super::status_paths(raw), ["a.txt", "c.txt", "my notes.md"]);
        assert_eq!(
            super::nul_paths(b"\nsrc/a b.rs\0x.md\0"),
            ["src/a b.rs", "x.md"]
        );
    }

    use std::path::Path;
    use std::process::Command;

    use super::{Exclusion, StoreSync, exclude, exclude_pattern, parse_status_v2, store_sync};

    /// Runs git for a test's setup, as a fixed user, with no configuration of the machine.
    fn run(dir: &Path, args: &[&str]) -> String {
        let out = Command::new("git")
            .args(["-c", "user.name=T", "-c", "user.email=t@example.com"])
            .args(["-c", "init.defaultBranch=main"])
            .args(args)
            .current_dir(dir)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", dir)
            .output()
            .expect("git runs");
        assert!(out.status.success(), "git {args:?}: {out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    #[test]
    fn the_user_email_is_kept_for_a_while_per_folder_then_asked_again() {
        use std::time::Duration;
        let repo = tempfile::tempdir().unwrap();
        run(repo.path(), &["init", "-q"]);
        let set = |email: &str| run(repo.path(), &["config", "user.email", email]);
        set("ann@example.com");
        let hour = Duration::from_secs(3600);
        let ann = Some("ann@example.com".to_string());
        assert_eq!(super::user_email_kept(repo.path(), hour), ann);
        set("bob@example.com");
        assert_eq!(
            super::user_email_kept(repo.path(), hour),
            ann,
            "kept: git is not asked again"
        );
        let bob = Some("bob@example.com".to_string());
        assert_eq!(super::user_email_kept(repo.path(), Duration::ZERO), bob);
        assert_eq!(
            super::user_email_kept(repo.path(), hour),
            bob,
            "the new answer is kept"
        );
        // Another folder has its own answer.
        let other = tempfile::tempdir().unwrap();
        run(other.path(), &["init", "-q"]);
        run(other.path(), &["config", "user.email", "cy@example.com"]);
        let cy = Some("cy@example.com".to_string());
        assert_eq!(super::user_email_kept(other.path(), hour), cy);
        assert_eq!(super::user_email_kept(repo.path(), hour), bob);
    }

    #[test]
    fn head_is_read_inside_a_work_tree_and_no_git_runs_outside_one() {
        let plain = tempfile::tempdir().unwrap();
        assert!(!super::inside_work_tree(plain.path()));
        assert_eq!(super::head_commit(plain.path()), None);
        let repo = tempfile::tempdir().unwrap();
        run(repo.path(), &["init", "-q"]);
        let nested = repo.path().join("a/b");
        std::fs::create_dir_all(&nested).unwrap();
        assert!(super::inside_work_tree(&nested));
        assert_eq!(super::head_commit(&nested), None, "no commit yet");
        run(repo.path(), &["commit", "-q", "--allow-empty", "-m", "one"]);
        let head = run(repo.path(), &["rev-parse", "HEAD"]);
        assert_eq!(super::head_commit(&nested).as_deref(), Some(head.trim()));
    }

    fn git_installed() -> bool {
        Command::new("git").arg("--version").output().is_ok()
    }

    /// A store folder with a config (local or not) and one log.
    fn make_store(dir: &Path, local: bool) {
        std::fs::create_dir_all(dir).unwrap();
        let config = if local {
            "local = true\n"
        } else {
            "format = 1\n"
        };
        std::fs::write(dir.join("config.toml"), config).unwrap();
        std::fs::write(dir.join("projects.ndjson"), "{}\n").unwrap();
    }

    #[test]
    fn status_v2_counts_changed_store_files_and_reads_the_branch() {
        let raw = b"# branch.oid 1234\0# branch.head main\0# branch.upstream origin/main\0\
            # branch.ab +1 -2\0\
            1 .M N... 100644 100644 100644 aa bb .relay/projects.ndjson\0\
            2 R. N... 100644 100644 100644 aa bb R100 .relay/new.ndjson\0.relay/old.ndjson\0\
            u UU N... 100644 100644 100644 100644 aa bb cc .relay/x.ndjson\0\
            ? .relay/config.toml\0! .relay/cache/x\0";
        let s = parse_status_v2(raw);
        assert_eq!(
            s,
            StoreSync {
                store: String::new(),
                branch: Some("main".into()),
                uncommitted: 4,
                upstream: Some("origin/main".into()),
                behind: 2,
                ahead: 1,
                unmerged: 1,
            }
        );
        let detached = parse_status_v2(b"# branch.oid 1234\0# branch.head (detached)\0");
        assert_eq!(detached.branch, None);
        assert_eq!((detached.upstream, detached.behind), (None, 0));
    }

    #[test]
    fn header_note_says_what_is_not_in_step() {
        let mut s = StoreSync {
            store: ".relay".into(),
            branch: Some("main".into()),
            upstream: Some("origin/main".into()),
            ..StoreSync::default()
        };
        assert_eq!(s.header_note(), None, "in step");
        s.ahead = 4;
        assert_eq!(s.header_note(), None, "ahead is not news to the reader");
        s.uncommitted = 3;
        assert_eq!(
            s.header_note().unwrap(),
            "Not committed yet: 3 files of .relay/ (git add .relay && git commit)."
        );
        s.unmerged = 2;
        assert_eq!(
            s.header_note().unwrap(),
            "2 files of .relay/ in conflict: git's octopus merge does not run relay's union \
             driver; run relay resolve, then git commit. Not committed yet: 1 file of .relay/ \
             (git add .relay && git commit)."
        );
        s.unmerged = 0;
        s.uncommitted = 0;
        s.behind = 2;
        assert_eq!(
            s.header_note().unwrap(),
            "Branch main is 2 commits behind origin/main (as of the last fetch): git pull to \
             see their records."
        );
        s.uncommitted = 1;
        s.behind = 1;
        s.store = "my notes/.relay".into();
        assert_eq!(
            s.header_note().unwrap(),
            "Not committed yet: 1 file of my notes/.relay/ (git add 'my notes/.relay' && git \
             commit). Branch main is 1 commit behind origin/main (as of the last fetch): git \
             pull to see their records."
        );
    }

    #[test]
    fn store_sync_reads_untracked_files_and_a_branch_behind_after_a_fetch() {
        if !git_installed() {
            return;
        }
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        run(root, &["init", "-q", "--bare", "remote.git"]);
        run(root, &["clone", "-q", "remote.git", "a"]);
        let a = root.join("a");
        make_store(&a.join(".relay"), false);
        let sync = store_sync(&a, &a.join(".relay")).expect("inside git");
        assert_eq!(sync.store, ".relay");
        assert_eq!(sync.uncommitted, 2, "two untracked store files: {sync:?}");
        assert_eq!(
            sync.header_note().unwrap(),
            "Not committed yet: 2 files of .relay/ (git add .relay && git commit)."
        );
        run(&a, &["add", ".relay"]);
        assert_eq!(
            store_sync(&a, &a.join(".relay")).unwrap().uncommitted,
            2,
            "staged is not committed"
        );
        run(&a, &["commit", "-q", "-m", "store"]);
        run(&a, &["push", "-q", "origin", "HEAD:main"]);
        run(root, &["clone", "-q", "remote.git", "b"]);
        let b = root.join("b");
        let in_step = store_sync(&b, &b.join(".relay")).unwrap();
        assert_eq!(
            in_step,
            StoreSync {
                store: ".relay".into(),
                branch: Some("main".into()),
                uncommitted: 0,
                upstream: Some("origin/main".into()),
                behind: 0,
                ahead: 0,
                unmerged: 0,
            }
        );
        assert_eq!(in_step.header_note(), None);

        // The remote advances twice; b knows only after a fetch, and never fetches itself.
        for n in ["1", "2"] {
            std::fs::write(a.join(".relay/projects.ndjson"), format!("{{}}\n{n}\n")).unwrap();
            run(&a, &["commit", "-q", "-am", n]);
        }
        run(&a, &["push", "-q", "origin", "HEAD:main"]);
        assert_eq!(store_sync(&b, &b.join(".relay")).unwrap().behind, 0);
        run(&b, &["fetch", "-q"]);
        std::fs::write(b.join(".relay/projects.ndjson"), "{}\nb\n").unwrap();
        std::fs::write(b.join(".relay/new.ndjson"), "{}\n").unwrap();
        std::fs::write(b.join("code.rs"), "fn main() {}\n").unwrap();
        // Asked from a folder that does not hold the store, the store is named by its full path.
        std::fs::create_dir(b.join("src")).unwrap();
        let behind = store_sync(&b, &b.join(".relay")).unwrap();
        assert_eq!(
            (behind.uncommitted, behind.behind, behind.ahead),
            (2, 2, 0),
            "{behind:?}"
        );
        assert_eq!(
            behind.header_note().unwrap(),
            "Not committed yet: 2 files of .relay/ (git add .relay && git commit). Branch main \
             is 2 commits behind origin/main (as of the last fetch): git pull to see their \
             records."
        );
        let from_sub = store_sync(&b.join("src"), &b.join(".relay")).unwrap();
        assert_eq!(from_sub.store, b.join(".relay").to_string_lossy());
        assert_eq!(from_sub.uncommitted, 2);
    }

    #[test]
    fn store_sync_is_none_for_a_local_store_and_outside_git() {
        let tmp = tempfile::tempdir().unwrap();
        make_store(&tmp.path().join(".relay"), false);
        assert_eq!(store_sync(tmp.path(), &tmp.path().join(".relay")), None);
        if !git_installed() {
            return;
        }
        let repo = tmp.path().join("r");
        std::fs::create_dir(&repo).unwrap();
        run(&repo, &["init", "-q"]);
        make_store(&repo.join(".relay"), true);
        assert_eq!(store_sync(&repo, &repo.join(".relay")), None);
    }

    #[test]
    fn exclude_lists_the_store_once_in_the_repositorys_exclude_file() {
        let tmp = tempfile::tempdir().unwrap();
        let outside = tmp.path().join("plain/.relay");
        std::fs::create_dir_all(&outside).unwrap();
        if !git_installed() {
            return;
        }
        // GIT_CEILING_DIRECTORIES is not set here: a temp folder is not inside a repository.
        assert_eq!(exclude(&outside).unwrap(), Exclusion::NotInGit);
        let repo = tmp.path().join("r");
        std::fs::create_dir_all(&repo).unwrap();
        run(&repo, &["init", "-q"]);
        run(&repo, &["commit", "-q", "--allow-empty", "-m", "first"]);
        let file = repo.join(".git/info/exclude");
        std::fs::write(&file, "# mine\n*.tmp").unwrap();
        let store = repo.join("sub/.relay");
        std::fs::create_dir_all(&store).unwrap();
        let Exclusion::Added {
            file: written,
            pattern,
        } = exclude(&store).unwrap()
        else {
            panic!("added");
        };
        assert_eq!(
            (written.canonicalize().unwrap(), pattern.as_str()),
            (file.canonicalize().unwrap(), "/sub/.relay/")
        );
        let expected = "# mine\n*.tmp\n# relay: a local store (relay init --local), never committed\n/sub/.relay/\n";
        assert_eq!(std::fs::read_to_string(&file).unwrap(), expected);
        assert!(matches!(
            exclude(&store).unwrap(),
            Exclusion::AlreadyListed { .. }
        ));
        assert_eq!(std::fs::read_to_string(&file).unwrap(), expected, "once");
        assert!(
            exclude(&repo).is_err(),
            "the work tree's top cannot be ignored"
        );

        // A linked worktree shares its repository's exclude file.
        run(&repo, &["worktree", "add", "-q", "../wt"]);
        let linked = tmp.path().join("wt/.relay");
        std::fs::create_dir_all(&linked).unwrap();
        let Exclusion::Added {
            file: written,
            pattern,
        } = exclude(&linked).unwrap()
        else {
            panic!("added");
        };
        assert_eq!(
            written.canonicalize().unwrap(),
            file.canonicalize().unwrap()
        );
        assert_eq!(pattern, "/.relay/");
        std::fs::write(linked.join("x.ndjson"), "{}\n").unwrap();
        assert_eq!(run(&tmp.path().join("wt"), &["status", "--porcelain"]), "");
    }

    #[test]
    fn exclude_patterns_escape_wildcards() {
        assert_eq!(exclude_pattern(Path::new(".relay")), "/.relay/");
        assert_eq!(
            exclude_pattern(Path::new("a b/[x]*?/#!/.relay")),
            "/a\\ b/\\[x]\\*\\?/\\#\\!/.relay/"
        );
    }
}
