//! deposit (§8.1): fill in what the caller left out (or, for a package taken whole, refuse
//! it), validate, hash, and append the package under the project lock. Re-depositing
//! identical content is a no-op (§11.2).

use std::io::Read;
use std::path::{Component, Path, PathBuf};

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use crate::ops::Actor;
pub use crate::request::deposit::Form;
use relay_store::Store;
use relay_store::packages::StoredPackage;
use relay_store::signing::RecordVersion;
use relay_wire::error::{Error, Result};
use relay_wire::{PROTOCOL_VERSION, Package, canonical, ids, package, time};

/// Who deposits, where, and when: what relay fills into a package that lacks it.
#[derive(Debug, Clone)]
pub struct DepositContext {
    /// The project used when the package names none.
    pub project_id: String,
    pub actor: Actor,
    pub session_id: Option<String>,
    /// HEAD of the work tree the deposit is made from, if any.
    pub git_commit: Option<String>,
    /// Whether the actor or session was named explicitly (flag or environment). Then a retry
    /// under another name is different content; otherwise `created_by` counts as filled in.
    pub attribution_explicit: bool,
    pub now: time::Timestamp,
    /// The caller is a client of `relay serve` (a token's request), not this clone's user:
    /// its deliverables must be files of the work tree a reader of the store may know of
    /// ([`remote_deliverables`]).
    pub remote: bool,
    /// Whether relay fills in what the package lacks, or refuses it ([`Form::Whole`]) once
    /// every other check has passed, so that a refusal names the first thing wrong.
    pub form: Form,
}

/// The outcome of a deposit.
#[derive(Debug, Clone)]
pub struct Deposited {
    pub package: Package,
    pub hash: String,
    /// False when an identical package was already stored and nothing was written.
    pub created: bool,
}

/// Deposits a whole or partial wire package.
pub fn deposit(
    store: &Store,
    mut input: Map<String, Value>,
    ctx: &DepositContext,
) -> Result<Deposited> {
    if ctx.remote {
        remote_deliverables(store, &input)?;
    }
    check_members_and_limits(store, &input)?;
    // Times are taken in UTC only (§6.1), as import takes them, and never rewritten: the hash
    // covers the bytes given. One that does not parse is left for validation to report.
    time::require_utc_members(&input, package::TIMES)?;
    // An expiry must be a time to come: a package hidden as it is written helps nobody.
    match input.get(relay_wire::expiry::EXPIRES_AT) {
        None => {}
        Some(Value::String(at)) => crate::ops::facts::check_expiry(Some(at))?,
        Some(_) => {
            return Err(Error::InvalidInput(format!(
                "{} must be an RFC 3339 time as a string",
                relay_wire::expiry::EXPIRES_AT
            )));
        }
    }
    // What §6.1 requires and the caller left out, before relay fills it in.
    let lacked: Vec<&str> = (package::REQUIRED_FIELDS.iter())
        .filter(|f| input.get(**f).is_none_or(Value::is_null))
        .copied()
        .collect();
    let mut filled: Vec<&'static str> = Vec::new();
    let mut fill = |map: &mut Map<String, Value>, key: &'static str, value: Value| {
        if map.get(key).is_none_or(Value::is_null) {
            map.insert(key.to_string(), value);
            filled.push(key);
        }
    };
    fill(&mut input, "package_id", Value::String(ids::new_id("pkg")));
    fill(
        &mut input,
        "project_id",
        Value::String(ctx.project_id.clone()),
    );
    fill(
        &mut input,
        "relay_version",
        Value::String(PROTOCOL_VERSION.into()),
    );
    fill(
        &mut input,
        "created_at",
        Value::String(time::format(ctx.now)),
    );
    fill(&mut input, "status", Value::String("complete".into()));
    fill(&mut input, "package_type", Value::String("standard".into()));
    fill(&mut input, "review_type", Value::String("none".into()));
    let mut by = json!({"id": ctx.actor.id, "type": ctx.actor.actor_type});
    if let Some(s) = &ctx.session_id {
        by["session_id"] = Value::String(s.clone());
    }
    if let Some(c) = &ctx.git_commit {
        by["git_commit"] = Value::String(c.clone());
    }
    fill(&mut input, "created_by", by);
    if ctx.attribution_explicit && filled.last() == Some(&"created_by") {
        filled.pop();
        if ctx.git_commit.is_some() {
            filled.push(GIT_COMMIT);
        }
    }

    // Checked once relay has filled in what the caller left out: the project and the actor
    // are stored text too.
    crate::ops::trust::secrets::guard(store, &mut input)?;
    let package = Package::from_map(core_fields_first(input))?;
    let hash = package.content_hash();
    let project_id = package.project_id().to_string();

    // An id relay draws now from 128 random bits is new: only a given id can be a replay or
    // a clash, and only then is the store searched, every project of it (ids are unique in
    // the whole store, §6.1), under the store-wide lock that keeps two writers from putting
    // one id into two projects at once.
    let given_id = !filled.contains(&"package_id");
    let _ids_lock = given_id.then(|| store.lock_package_ids()).transpose()?;
    let _lock = store.lock_project(&project_id)?;
    let project = crate::ops::projects::get(store, &project_id)?;
    if project.is_archived() {
        return Err(Error::ProjectArchived(project_id));
    }
    if let Some(s) = &ctx.session_id {
        crate::ops::sessions::ensure_open(store, &project_id, s)?;
    }
    // Taken whole (§8.1): nothing relay filled in may stay.
    ctx.form.refuse_lacking(&lacked)?;
    // A time relay fills in is taken under the lock, so it is never earlier than a write
    // that had to wait for this one (a session's end, say).
    let (package, hash) = if filled.contains(&"created_at") {
        let mut map = package.into_map();
        map.insert(
            "created_at".into(),
            Value::String(time::format(time::now().max(ctx.now))),
        );
        let p = Package::from_map(map)?;
        let h = p.content_hash();
        (p, h)
    } else {
        (package, hash)
    };
    if given_id {
        let versions: Vec<StoredPackage> = (store.package_everywhere(package.id())?)
            .into_iter()
            .flat_map(|(_, versions)| versions)
            .collect();
        if !versions.is_empty() {
            return replay(package, &filled, versions);
        }
    }
    let line = relay_store::ndjson::to_line(&StoredPackage::envelope(&package, &hash))?;
    let signed = [RecordVersion::first(&package, &hash)];
    store.append_signed(
        &store.package_log_for(&package),
        &line,
        &project_id,
        &signed,
        None,
    )?;
    Ok(Deposited {
        package,
        hash,
        created: true,
    })
}

/// Refuses a package input whose agent-memory members verify would reject (both agree), or
/// that breaks the store's limits.
pub fn check_members_and_limits(store: &Store, input: &Map<String, Value>) -> Result<()> {
    relay_wire::memory::check_members(input).map_err(Error::InvalidInput)?;
    store
        .config()
        .limits()
        .check_record("the package", input)
        .map_err(Error::InvalidInput)
}

/// Stands in `filled` for `created_by.git_commit` alone.
const GIT_COMMIT: &str = "created_by.git_commit";

/// Moves the required fields (§6.1, in the spec's order) to the front, so that stored lines
/// read alike whoever built them; every other member keeps its relative order. Member
/// order carries no meaning in JSON and does not enter the hash.
fn core_fields_first(mut input: Map<String, Value>) -> Map<String, Value> {
    let mut out = Map::with_capacity(input.len());
    for key in package::REQUIRED_FIELDS {
        if let Some(v) = input.remove(*key) {
            out.insert((*key).to_string(), v);
        }
    }
    out.extend(input);
    out
}

/// A deposit whose id is taken, in any project: identical content returns the stored package
/// (its current version); anything else is `duplicate_package_id`. Fields relay filled in are
/// compared as the stored package has them, so a retried partial package (no `created_at`,
/// say, or no `project_id` and another `--project`) still counts as identical.
fn replay(package: Package, filled: &[&str], versions: Vec<StoredPackage>) -> Result<Deposited> {
    let id = package.id().to_string();
    let input = package.into_map();
    for stored in &versions {
        let mut candidate = input.clone();
        for key in filled {
            if *key == GIT_COMMIT {
                let commit = stored
                    .package
                    .created_by()
                    .git_commit
                    .map(|c| Value::String(c.into()));
                if let Some(Value::Object(by)) = candidate.get_mut("created_by") {
                    match commit {
                        Some(c) => by.insert("git_commit".into(), c),
                        None => by.remove("git_commit"),
                    };
                }
                continue;
            }
            match stored.package.as_map().get(*key) {
                Some(v) => candidate.insert((*key).to_string(), v.clone()),
                None => candidate.remove(*key),
            };
        }
        if canonical::content_hash(&Value::Object(candidate)) == stored.hash {
            let current = (versions.iter())
                .filter(|v| v.package.project_id() == stored.package.project_id())
                .max_by(|a, b| relay_store::packages::version_order(a, b))
                .unwrap_or(stored);
            return Ok(Deposited {
                package: current.package.clone(),
                hash: current.hash.clone(),
                created: false,
            });
        }
    }
    Err(Error::DuplicatePackageId(id))
}

/// Deliverable paths checked where a remote caller stands: outside this machine, it may name
/// files of the work tree that git shares, and nothing else, so that no later read (a stale
/// mark, orient's `x-stale`) tells it anything of a file it could not read: a deliverable is
/// a URL, or a path relative to the work tree that is not absolute, has no `..`, is not in
/// the store's folder or a `.relay` or `.git` folder, goes through no symlink that leads out,
/// and is not a file git ignores (`.env`, keys, build output). Refusals depend on the path
/// and the tree's own folders and links only, never on what lies outside.
fn remote_deliverables(store: &Store, input: &Map<String, Value>) -> Result<()> {
    let Some(Value::Array(items)) = input.get("deliverables") else {
        return Ok(());
    };
    let tree = crate::ops::packages::work_tree::WorkTree::of(store);
    let mut in_tree = Vec::new();
    for (i, d) in items.iter().enumerate() {
        // Validation reports a deliverable of another shape.
        let Some(path) = d.get("path").and_then(Value::as_str) else {
            continue;
        };
        if path.contains("://") {
            continue;
        }
        let why = match &tree {
            Some(t) => match t.place(path) {
                crate::ops::packages::work_tree::Place::Outside(why) => Some(why),
                _ => None,
            },
            None => crate::ops::packages::work_tree::refuses(
                path,
                Path::new(relay_store::format::STORE_DIR),
            ),
        };
        if let Some(why) = why {
            return Err(refused_deliverable(i, path, why));
        }
        in_tree.push((i, path));
    }
    if let (Some(t), false) = (&tree, in_tree.is_empty()) {
        let paths: Vec<&str> = in_tree.iter().map(|(_, p)| *p).collect();
        let ignored = ignored_by_git(t.root(), &paths);
        if let Some((i, path)) = in_tree.iter().find(|(_, p)| ignored.contains(*p)) {
            return Err(refused_deliverable(
                *i,
                path,
                "git ignores it, so it is not shared with the store's readers",
            ));
        }
    }
    Ok(())
}

/// Which of `paths` (relative to `root`) git ignores, asked of one `git check-ignore` (a
/// tracked file is never ignored); none outside git or when git fails.
fn ignored_by_git(root: &Path, paths: &[&str]) -> std::collections::HashSet<String> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let child = Command::new("git")
        .args(["check-ignore", "--stdin", "-z"])
        .current_dir(root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut child) = child else {
        return Default::default();
    };
    let mut input = Vec::new();
    for p in paths {
        input.extend_from_slice(p.as_bytes());
        input.push(0);
    }
    // Written from a thread of its own, so that neither pipe can fill while the other waits.
    let stdin = child.stdin.take();
    let writer = std::thread::spawn(move || {
        if let Some(mut stdin) = stdin {
            let _ = stdin.write_all(&input);
        }
    });
    let out = child.wait_with_output();
    let _ = writer.join();
    match out {
        // 0: some are ignored; 1: none is; anything else: not a repository, or git failed.
        Ok(o) if o.status.success() => crate::ops::git::nul_paths(&o.stdout).into_iter().collect(),
        _ => Default::default(),
    }
}

fn refused_deliverable(i: usize, path: &str, why: &str) -> Error {
    Error::InvalidInput(format!(
        "deliverables[{i}].path `{}`: {why}. Over HTTP a deliverable is a URL or a file of the \
         work tree that git shares, named relative to the folder that holds the store (as \
         `relay deposit --deliverable` records it)",
        relay_wire::text::clean_line(path)
    ))
}

pub use crate::request::deposit::extend;

/// Deliverables for paths (relative to `cwd`) or URLs, each with its path, recorded relative to
/// the folder that holds the store (see [`deliverable_for_path`]). For a `remote` caller the
/// paths are checked first, as a remote deposit's deliverables are ([`remote_deliverables`]):
/// a refused path is never opened, so neither its content (`/dev/zero`) nor the time taken
/// tells the caller anything of a file outside the work tree.
pub fn deliverables_for_paths(
    store: &Store,
    cwd: &Path,
    paths: Vec<String>,
    remote: bool,
) -> Result<Vec<(String, PathDeliverable)>> {
    let root = store.root().parent().unwrap_or(store.root());
    // A remote caller's paths are the work tree's, checked and then read from its top: never
    // from the server's own folder, which the check does not see.
    let top;
    let cwd = if remote {
        let named: Vec<Value> = paths
            .iter()
            .map(|p| serde_json::json!({"path": p}))
            .collect();
        let mut input = Map::new();
        input.insert("deliverables".into(), Value::Array(named));
        remote_deliverables(store, &input)?;
        top = crate::ops::packages::work_tree::WorkTree::of(store)
            .map_or_else(|| root.to_path_buf(), |t| t.root().to_path_buf());
        top.as_path()
    } else {
        cwd
    };
    paths
        .into_iter()
        .map(|path| {
            let d = deliverable_for_path(&path, cwd, root)?;
            Ok((path, d))
        })
        .collect()
}

/// A deliverable made from a path given on the command line.
#[derive(Debug, Clone)]
pub struct PathDeliverable {
    /// The wire deliverable (§6.5).
    pub value: Value,
    /// Whether the path exists (a missing one is recorded without hash or size).
    pub exists: bool,
}

/// Normalises `.` and `..` without touching the filesystem.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// A deliverable for `path` (relative to `cwd`). Paths inside `project_root` (the folder that
/// holds `.relay/`) are recorded relative to it with `/` separators, so they mean the same in
/// every clone; others are recorded as given. For a file, relay records its `sha256:` hash and
/// size; the type is the extension (`md`, `rs`, …), `url` for a URL, `dir` for a folder and
/// `file` when there is no extension.
pub fn deliverable_for_path(
    path: &str,
    cwd: &Path,
    project_root: &Path,
) -> Result<PathDeliverable> {
    if path.contains("://") {
        return Ok(PathDeliverable {
            value: json!({"path": path, "type": "url"}),
            exists: true,
        });
    }
    let full = lexical(&cwd.join(path));
    let recorded = match full.strip_prefix(lexical(project_root)) {
        Ok(rel) if !rel.as_os_str().is_empty() => rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"),
        _ => path.to_string(),
    };
    let ext = Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .filter(|e| !e.is_empty())
        .unwrap_or_else(|| "file".to_string());
    if full.is_dir() {
        return Ok(PathDeliverable {
            value: json!({"path": recorded, "type": "dir"}),
            exists: true,
        });
    }
    let mut file = match std::fs::File::open(&full) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(PathDeliverable {
                value: json!({"path": recorded, "type": ext}),
                exists: false,
            });
        }
        Err(e) => return Err(Error::io(format!("cannot read deliverable {path}"), e)),
    };
    let (hash, size) = content_hash(&mut file)
        .map_err(|e| Error::io(format!("cannot read deliverable {path}"), e))?;
    let value = json!({"path": recorded, "type": ext, "hash": hash, "size_bytes": size});
    Ok(PathDeliverable {
        value,
        exists: true,
    })
}

/// A deliverable's recorded hash of what `content` reads, `sha256:<hex>`, and its size in
/// bytes. `ops::packages::stale` compares files with the same hash.
pub fn content_hash(content: &mut impl Read) -> std::io::Result<(String, u64)> {
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 64 * 1024];
    let mut size = 0u64;
    loop {
        let n = content.read(&mut buf)?;
        if n == 0 {
            break;
        }
        size += n as u64;
        hasher.update(&buf[..n]);
    }
    let hex: String = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Ok((format!("sha256:{hex}"), size))
}

/// A store and deposit contexts for the tests of `ops`.
#[cfg(test)]
pub(crate) mod test_support {
    use super::*;

    /// A new store with these projects (the first is the default).
    pub(crate) fn store_with(projects: &[&str]) -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join(".relay");
        Store::create(&root, projects[0]).unwrap();
        let store = Store::open(root).unwrap();
        for project in projects {
            crate::ops::projects::create(&store, project, None, None).unwrap();
        }
        (dir, store)
    }

    /// The store at the same folder with its indexes turned off (`search_index = false`).
    pub(crate) fn unindexed(store: &Store) -> Store {
        let config = store.root().join("config.toml");
        let text = std::fs::read_to_string(&config).unwrap();
        std::fs::write(
            &config,
            text.replace("search_index = true", "search_index = false"),
        )
        .unwrap();
        let store = Store::open(store.root().to_path_buf()).unwrap();
        assert!(!store.config().search_index());
        store
    }

    /// Approves package `id` as the test actor of project `demo`.
    pub(crate) fn approve(store: &Store, id: &str) {
        let approve = crate::ops::packages::review::TransitionRequest {
            action: crate::ops::packages::review::Action::Approve,
            note: None,
            actor: context("demo").actor,
            session_id: None,
        };
        crate::ops::packages::review::transition(store, id, &approve).unwrap();
    }

    /// Project `demo` with two open facts of (`s`, `p`), `fact_a` and `fact_b`, as a merge of
    /// two clones leaves them.
    pub(crate) fn forked_store() -> (tempfile::TempDir, Store) {
        let (dir, store) = store_with(&["demo"]);
        let open = |id: &str, from: &str| {
            relay_wire::Fact::from_value(serde_json::json!({"fact_id": id,
                "project_id": "demo", "subject": "s", "predicate": "p", "value": id,
                "valid_from": from, "created_at": from}))
            .unwrap()
        };
        let (a, b) = (
            open("fact_a", "2026-01-01T00:00:00Z"),
            open("fact_b", "2026-02-01T00:00:00Z"),
        );
        let log = store.facts_log("demo");
        store.append_records(&log, &[&a, &b]).unwrap();
        (dir, store)
    }

    /// Deposits by `jo`, a human, into `project`, outside any session.
    pub(crate) fn context(project: &str) -> DepositContext {
        DepositContext {
            project_id: project.into(),
            actor: Actor {
                id: "jo".into(),
                actor_type: "human".into(),
            },
            session_id: None,
            git_commit: None,
            attribution_explicit: false,
            now: time::now(),
            remote: false,
            form: Form::Filled,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_given_id_is_checked_in_every_project_and_times_are_taken_in_utc_only() {
        let (_dir, store) = test_support::store_with(&["demo", "other"]);
        let ctx = test_support::context;
        let at = |title: &str, time: &str| {
            json!({"package_id": "pkg_x", "title": title, "created_at": time})
                .as_object()
                .unwrap()
                .clone()
        };
        let offset = deposit(&store, at("T", "2026-05-01T12:00:00.5+02:00"), &ctx("demo"));
        let e = offset.unwrap_err();
        assert_eq!(e.code(), "invalid_schema");
        assert!(
            e.to_string()
                .contains("write it as `2026-05-01T10:00:00.5Z`"),
            "{e}"
        );
        let input = |title: &str| at(title, "2026-05-01T10:00:00.50Z");
        let first = deposit(&store, input("T"), &ctx("demo")).unwrap();
        assert_eq!(
            first.package.created_at_str(),
            "2026-05-01T10:00:00.50Z",
            "kept as given: the hash covers it"
        );
        assert_eq!(first.hash, first.package.content_hash());
        // Into another project, the project filled in: the same package, nothing written.
        let again = deposit(&store, input("T"), &ctx("other")).unwrap();
        assert_eq!(
            (again.created, again.package.project_id(), again.hash),
            (false, "demo", first.hash)
        );
        assert!(store.package_versions("other", "pkg_x").unwrap().is_empty());
        let clash = deposit(&store, input("U"), &ctx("other")).unwrap_err();
        assert_eq!(clash.code(), "duplicate_package_id");
    }

    #[test]
    fn deliverable_paths_are_relative_to_the_project_root() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(root.join("notes.md"), "x").unwrap();
        let d = deliverable_for_path("../notes.md", &root.join("sub"), root).unwrap();
        assert_eq!(d.value["path"], "notes.md");
        assert!(d.exists);
        let d = deliverable_for_path("./a/../b.rs", &root.join("sub"), root).unwrap();
        assert_eq!(
            (d.value["path"].as_str(), d.exists),
            (Some("sub/b.rs"), false)
        );
        let d = deliverable_for_path("/etc/hostname-nope", root, root).unwrap();
        assert_eq!(d.value["path"], "/etc/hostname-nope");
    }
}
