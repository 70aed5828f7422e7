//! Who must sign, and which keys count, judged from `.relay/allowed_signers` and its git
//! history, never from the log. An actor a line names must sign every record dated from the
//! line's `valid-after`, else from the commit that first held the line, else (git has no
//! history of the file: no git, or never committed) every record; a line not committed yet in
//! a file git knows asks nothing until it is. The history checks the file's own changes too: a
//! key added for an actor who already had another counts for that actor only when a key
//! rotation record (`x-key-rotation`, [`relay_wire::key_rotation`]) signed by an earlier key
//! of theirs names it; and a file git once held with keys that is now gone or empty is
//! reported, the signatures then judged against the last version that had keys.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use ssh_key::PublicKey;

use crate::ops::git::history::{self, Commit};
use relay_store::Store;
use relay_store::packages::StoredPackage;
use relay_wire::allowed_signers::{Allowance, AllowedSigners, Entry};
use relay_wire::error::Result;
use relay_wire::key_rotation::{self, Rotation};
use relay_wire::signature::{self, RecordKind, fingerprint};
use relay_wire::time::{self, Timestamp};

/// How long a process keeps the signers a read worked out ([`Signers::for_read`]).
const KEPT: Duration = Duration::from_secs(5);

/// Since when the actors a line names must sign.
#[derive(Debug, Clone, PartialEq)]
enum Since {
    /// Its `valid-after`.
    ValidAfter(Timestamp),
    /// The commit that first held it.
    Committed(Commit),
    /// Every record: git has no history of the file.
    Always,
    /// Not yet: the line waits to be committed.
    NotYet,
}

/// A key added for an actor who already had another, with no rotation record signed by one
/// of those: the key does not count for that actor.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyChange {
    /// Its line in the file (0 when the file no longer holds it).
    pub line: u64,
    pub actor: String,
    /// The added key's fingerprint.
    pub key: String,
    /// The actor's keys before it.
    pub earlier: Vec<String>,
    /// The commit that added it; `None` while it is not committed.
    pub commit: Option<Commit>,
}

impl KeyChange {
    /// What happened, in a sentence.
    pub fn describe(&self) -> String {
        let when = match &self.commit {
            Some(c) => format!("by commit {} ({})", c.short(), time::format(c.at)),
            None => "in the work tree (not committed)".into(),
        };
        format!(
            "key {} was added for {} {when}, who already signed with {}, and no key rotation \
             record signed by that key names it",
            self.key,
            self.actor,
            self.earlier.join(", ")
        )
    }
}

/// `allowed_signers` gone or emptied after git's history held it with keys.
#[derive(Debug, Clone, PartialEq)]
pub struct Removed {
    /// Whether the file is gone (else it holds no key).
    pub deleted: bool,
    /// The last commit whose version had keys: what verdicts are judged against.
    pub last: Commit,
    /// How many keys it allowed.
    pub keys: usize,
}

/// `allowed_signers` as signatures are judged against it.
#[derive(Debug, Clone, Default)]
pub struct Signers {
    /// The file, or its last version with keys; with `!actor` added to a line's principals
    /// for each actor its key does not count for.
    allowed: AllowedSigners,
    /// Per entry of `allowed`.
    since: Vec<Option<Since>>,
    /// Keys added without a rotation record.
    pub changes: Vec<KeyChange>,
    pub removed: Option<Removed>,
}

impl Signers {
    /// The store's signers. `probe`: ask git's history even when the file is absent or
    /// empty (whether it once held keys); a read of an unsigned package need not. A line
    /// that does not parse is an error naming the file and the line.
    pub fn load(store: &Store, probe: bool) -> Result<Signers> {
        let current = store.allowed_signers()?;
        let (dir, file) = (store.root(), store.allowed_signers_file());
        let name = file.strip_prefix(dir).unwrap_or(&file).to_string_lossy();
        let history = match (current.entries.is_empty(), probe) {
            (true, false) => None,
            _ => history::versions(dir, &name),
        };
        let Some(history) = history else {
            let since = current
                .entries
                .iter()
                .map(|e| Some(since(e, None)))
                .collect();
            return Ok(Signers {
                allowed: current,
                since,
                ..Signers::default()
            });
        };
        let versions: Vec<(Commit, AllowedSigners)> = (history.into_iter())
            .map(|(c, text)| (c, tolerant(&text.unwrap_or_default())))
            .collect();
        let (allowed, removed) = match current.entries.is_empty() {
            false => (current, None),
            true => match versions.iter().rev().find(|(_, v)| !v.entries.is_empty()) {
                None => (current, None),
                Some((commit, last)) => {
                    let removed = Removed {
                        deleted: !store.allowed_signers_file().exists(),
                        last: commit.clone(),
                        keys: last.entries.len(),
                    };
                    (last.clone(), Some(removed))
                }
            },
        };
        let first = first_commits(&versions);
        let since = (allowed.entries.iter())
            .map(|e| Some(since(e, Some(&first))))
            .collect();
        let mut signers = Signers {
            allowed,
            since,
            changes: Vec::new(),
            removed,
        };
        signers.check_changes(store, &versions)?;
        Ok(signers)
    }

    /// [`Signers::load`] for a read, kept by the process for a few seconds per store and
    /// per content of the file: `relay serve` would otherwise ask git for every package it
    /// is asked for. What changes them without changing the file (a commit dating a line, a
    /// rotation record's signature) shows within [`KEPT`].
    pub fn for_read(store: &Store, probe: bool) -> Result<Signers> {
        type Kept = (std::path::PathBuf, Option<Vec<u8>>, bool, Instant, Signers);
        static KEPT_SIGNERS: Mutex<Vec<Kept>> = Mutex::new(Vec::new());
        let root = store.root().to_path_buf();
        let text = std::fs::read(store.allowed_signers_file()).ok();
        let fresh = |k: &Kept| k.0 == root && k.1 == text && k.2 == probe && k.3.elapsed() < KEPT;
        let kept = KEPT_SIGNERS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(k) = kept.iter().find(|k| fresh(k)) {
            return Ok(k.4.clone());
        }
        drop(kept);
        let signers = Signers::load(store, probe)?;
        let mut kept = KEPT_SIGNERS.lock().unwrap_or_else(|e| e.into_inner());
        kept.retain(|k| k.0 != root && k.3.elapsed() < KEPT);
        kept.push((root, text, probe, Instant::now(), signers.clone()));
        Ok(signers)
    }

    /// The file as verdicts read it.
    pub fn allowed(&self) -> &AllowedSigners {
        &self.allowed
    }

    /// Whether no line allows a key.
    pub fn is_empty(&self) -> bool {
        self.allowed.entries.is_empty()
    }

    /// Whether any line names `key` (allowing it for someone, or revoking it).
    pub fn lists(&self, key: &PublicKey) -> bool {
        self.allowed.lists(key)
    }

    /// Whether `key` may sign as `actor` for a record made at `at`; a key added for them
    /// without a rotation record may not, and the reason says so.
    pub fn allows(&self, actor: &str, key: &PublicKey, at: Timestamp) -> Allowance {
        let answer = self.allowed.allows(actor, key, at);
        if !matches!(answer, Allowance::NotAllowed(_)) {
            return answer;
        }
        let fp = fingerprint(key);
        match (self.changes.iter()).find(|c| c.actor == actor && c.key == fp) {
            Some(c) => Allowance::NotAllowed(c.describe()),
            None => answer,
        }
    }

    /// Why `actor` must sign a record made at `at`, when a line asks it to: it names them,
    /// its key is not revoked and lets them sign then or later, and the record is dated from
    /// the line's start.
    pub fn must_sign(&self, actor: &str, at: Timestamp) -> Option<String> {
        let lines = self.allowed.entries.iter().zip(&self.since);
        for (e, since) in lines {
            let Some(since) = since else { continue };
            let live = e.signs_relay()
                && e.names(actor)
                && !self.allowed.revokes(&e.key)
                && e.valid_before.is_none_or(|end| at < end);
            let from = match since {
                Since::ValidAfter(t) => Some(*t),
                Since::Committed(c) => Some(c.at),
                Since::Always => None,
                Since::NotYet => continue,
            };
            if !live || from.is_some_and(|t| at < t) {
                continue;
            }
            let key = fingerprint(&e.key);
            let line = match &self.removed {
                Some(r) => format!("allowed_signers as commit {} left it", r.last.short()),
                None => format!("allowed_signers line {}", e.line),
            };
            return Some(match since {
                Since::ValidAfter(t) => format!(
                    "{actor} must sign: {line} holds {actor}'s key {key} valid after {}",
                    time::format(*t)
                ),
                Since::Committed(c) => format!(
                    "{actor} must sign: {line} holds {actor}'s key {key} since commit {} ({})",
                    c.short(),
                    time::format(c.at)
                ),
                _ => format!(
                    "{actor} must sign: {line} holds {actor}'s key {key}, with no valid-after and \
                     no git history to date it, so every record of theirs"
                ),
            });
        }
        None
    }

    /// Checks every key that arrived for an actor who already had one, in the order git's
    /// history added them (lines not committed yet last): without a rotation record signed
    /// by one of the actor's earlier keys, the key does not count for that actor.
    fn check_changes(
        &mut self,
        store: &Store,
        versions: &[(Commit, AllowedSigners)],
    ) -> Result<()> {
        let mut batches: Vec<(Option<&Commit>, Vec<&Entry>)> = Vec::new();
        let mut seen: Vec<(String, String)> = Vec::new();
        let current: Vec<(Option<&Commit>, &AllowedSigners)> = (versions.iter())
            .map(|(c, v)| (Some(c), v))
            .chain(std::iter::once((None, &self.allowed)))
            .collect();
        for (commit, version) in current {
            let new: Vec<&Entry> = (version.entries.iter())
                .filter(|e| e.signs_relay())
                .filter(|e| {
                    let id = identity(e);
                    let fresh = !seen.contains(&id);
                    if fresh {
                        seen.push(id);
                    }
                    fresh
                })
                .collect();
            if !new.is_empty() {
                batches.push((commit, new));
            }
        }
        // Each key that counts, with the actors it does not count for.
        let mut known: Vec<(&Entry, Vec<String>)> = Vec::new();
        let mut rotations: Option<Vec<Rotation>> = None;
        let mut changes = Vec::new();
        for (commit, batch) in batches {
            let mut arrived = Vec::new();
            for e in batch {
                let fp = fingerprint(&e.key);
                let mut refused = Vec::new();
                for actor in affected(e, &known) {
                    // A revoked key vouches for nothing; an actor whose keys are all revoked
                    // (a lost key, loudly: every record it signed fails) enrols anew.
                    let earlier: Vec<String> = (known.iter())
                        .filter(|(k, not)| {
                            k.key != e.key && k.names(&actor) && !not.contains(&actor)
                        })
                        .filter(|(k, _)| !self.allowed.revokes(&k.key))
                        .map(|(k, _)| fingerprint(&k.key))
                        .collect();
                    if earlier.is_empty() {
                        continue;
                    }
                    let rotations = match &mut rotations {
                        Some(r) => r,
                        None => rotations.insert(verified_rotations(store)?),
                    };
                    let rotated = (rotations.iter()).any(|r| {
                        r.actor == actor && r.new_key == fp && earlier.contains(&r.old_key)
                    });
                    if !rotated {
                        changes.push(KeyChange {
                            line: 0,
                            actor: actor.clone(),
                            key: fp.clone(),
                            earlier,
                            commit: commit.cloned(),
                        });
                        refused.push(actor);
                    }
                }
                arrived.push((e, refused));
            }
            known.extend(arrived);
        }
        let mut once = Vec::new();
        changes.retain(|c: &KeyChange| {
            let first = !once.contains(&(c.actor.clone(), c.key.clone()));
            once.push((c.actor.clone(), c.key.clone()));
            first
        });
        // The actors each line of the file does not count for.
        for e in &mut self.allowed.entries {
            let fp = fingerprint(&e.key);
            let refused: Vec<usize> = (changes.iter().enumerate())
                .filter(|(_, c)| c.key == fp && e.names(&c.actor))
                .map(|(i, _)| i)
                .collect();
            for i in refused {
                let c = &mut changes[i];
                if c.line == 0 {
                    c.line = e.line;
                }
                e.principals.push(format!("!{}", c.actor));
            }
        }
        self.changes = changes;
        Ok(())
    }
}

/// A line's identity across versions: its principals and its key.
fn identity(e: &Entry) -> (String, String) {
    (e.principals.join(","), fingerprint(&e.key))
}

/// The actors for whom `e` adds a key: those it names exactly that an earlier line with
/// another key names too, and those an earlier line with another key names exactly that
/// `e`'s patterns take in.
fn affected(e: &Entry, known: &[(&Entry, Vec<String>)]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let others = known.iter().filter(|(k, _)| k.key != e.key);
    for (k, not) in others {
        let theirs = k.literal_principals().filter(|a| e.names(a));
        let mine = e.literal_principals().filter(|a| k.names(a));
        for actor in theirs.chain(mine) {
            if !not.iter().any(|n| n == actor) && !out.iter().any(|o| o == actor) {
                out.push(actor.to_string());
            }
        }
    }
    out
}

/// When each line (by identity) was first committed.
fn first_commits(versions: &[(Commit, AllowedSigners)]) -> HashMap<(String, String), Commit> {
    let mut first: HashMap<(String, String), Commit> = HashMap::new();
    for (commit, version) in versions {
        for e in &version.entries {
            first.entry(identity(e)).or_insert_with(|| commit.clone());
        }
    }
    first
}

/// Since when the actors `e` names must sign; `first`: when each line was first committed,
/// `None` when git has no history of the file.
fn since(e: &Entry, first: Option<&HashMap<(String, String), Commit>>) -> Since {
    match (e.valid_after, first) {
        (Some(t), _) => Since::ValidAfter(t),
        (None, None) => Since::Always,
        (None, Some(first)) => match first.get(&identity(e)) {
            Some(c) => Since::Committed(c.clone()),
            None => Since::NotYet,
        },
    }
}

/// A version of the file read line by line, keeping the lines that parse (an old version
/// may hold a line this relay cannot read): line numbers are the file's.
fn tolerant(bytes: &[u8]) -> AllowedSigners {
    let text = String::from_utf8_lossy(bytes);
    let mut out = AllowedSigners::default();
    for (i, line) in text.lines().enumerate() {
        if let Ok(mut one) = AllowedSigners::parse(line) {
            for e in &mut one.entries {
                e.line = i as u64 + 1;
            }
            out.entries.extend(one.entries);
            out.revoked
                .extend(one.revoked.into_iter().map(|(_, k)| (i as u64 + 1, k)));
        }
    }
    out
}

/// The key rotation records of the store whose signature holds: made by the old key they
/// name, as the actor they name, over the package as it is stored.
pub fn verified_rotations(store: &Store) -> Result<Vec<Rotation>> {
    let mut out = Vec::new();
    for project in crate::ops::projects::list(store)? {
        let project = project.id();
        let mut found: Vec<(String, String, Rotation)> = Vec::new();
        for log in store.package_logs(project)? {
            let prefilter = Some(key_rotation::TYPE.as_bytes());
            relay_store::ndjson::read_objects_filtered(
                &log,
                store.diagnostics(),
                prefilter,
                |line, env| {
                    if let Ok(p) = StoredPackage::from_envelope(env, &log, line)
                        && p.version == 1
                        && let Some(r) = key_rotation::read(&p.package)
                    {
                        found.push((p.package.id().to_string(), p.hash, r));
                    }
                    Ok(())
                },
            )?;
        }
        for (id, hash, r) in found {
            let signed = store.signatures_of(project, &id)?.into_iter().any(|s| {
                s.record == RecordKind::Package
                    && s.hash == hash
                    && s.actor == r.actor
                    && s.key == r.old_key
                    && signature::check(&s).is_ok()
            });
            if signed {
                out.push(r);
            }
        }
    }
    Ok(out)
}

/// The `valid-after` a line relay writes for a key carries: now, so that the key's actor must
/// sign from the moment the line exists, whatever git says.
pub fn valid_after_now() -> String {
    format!(
        "valid-after=\"{}\"",
        relay_wire::allowed_signers::ssh_time_text(time::now())
    )
}

#[cfg(test)]
mod tests;

#[cfg(test)]
pub(crate) fn from_text(text: &str) -> Signers {
    let allowed = AllowedSigners::parse(text).unwrap();
    let since = allowed
        .entries
        .iter()
        .map(|e| Some(since(e, None)))
        .collect();
    Signers {
        allowed,
        since,
        ..Signers::default()
    }
}

#[cfg(test)]
impl Signers {
    /// The signers of `text`, each line dated by `dates` (`None`: not committed yet) as if
    /// git's history said so.
    pub(crate) fn dated(text: &str, dates: &[Option<&str>]) -> Signers {
        let mut s = from_text(text);
        for (slot, date) in s.since.iter_mut().zip(dates) {
            let dated = match date {
                Some(d) => Since::Committed(Commit {
                    id: "0123456789abcdef".into(),
                    at: time::parse(d).unwrap(),
                }),
                None => Since::NotYet,
            };
            if !matches!(slot, Some(Since::ValidAfter(_))) {
                *slot = Some(dated);
            }
        }
        s
    }
}
