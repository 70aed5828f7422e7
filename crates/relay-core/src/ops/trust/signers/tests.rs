//! `Signers` from a store in a real git repository: lines dated by their commit, a key added
//! with and without a rotation record, the file deleted.

use std::path::{Path, PathBuf};
use std::process::Command;

use ssh_key::rand_core::OsRng;
use ssh_key::{Algorithm, LineEnding, PrivateKey};

use super::*;
use crate::ops::packages::deposit::deposit;
use crate::ops::packages::deposit::test_support::{context, store_with};

fn git(dir: &Path, args: &[&str]) -> bool {
    Command::new("git")
        .args(["-c", "user.email=t@example.com", "-c", "user.name=t"])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A key written to `dir/name` (for the store to sign with) and its allowed_signers key.
fn key(dir: &Path, name: &str) -> (PathBuf, PrivateKey, String) {
    let k = PrivateKey::random(&mut OsRng, Algorithm::Ed25519).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, k.to_openssh(LineEnding::LF).unwrap().as_bytes()).unwrap();
    let public = k.public_key().to_openssh().unwrap();
    (path, k, public)
}

fn write(store: &Store, text: &str) {
    std::fs::write(store.allowed_signers_file(), text).unwrap();
}

#[test]
fn lines_are_dated_by_their_commit_and_keys_added_need_a_rotation() {
    let (dir, mut store) = store_with(&["demo"]);
    if !git(dir.path(), &["init", "-q"]) {
        eprintln!("skipped: no git");
        return;
    }
    let (old_path, _, old) = key(dir.path(), "old");
    let (_, _, new) = key(dir.path(), "new");
    let (_, _, ann) = key(dir.path(), "ann");
    // Never committed: every record.
    write(&store, &format!("jo {old}\n"));
    let s = Signers::load(&store, true).unwrap();
    assert_eq!(s.since, [Some(Since::Always)]);
    assert!(git(dir.path(), &["add", "-A"]) && git(dir.path(), &["commit", "-qm", "jo"]));
    let s = Signers::load(&store, true).unwrap();
    let Some(Some(Since::Committed(c))) = s.since.first() else {
        panic!("{:?}", s.since)
    };
    assert!(s.must_sign("jo", c.at).is_some());
    assert!(
        s.must_sign("jo", c.at - chrono::TimeDelta::seconds(1))
            .is_none()
    );
    assert!(s.changes.is_empty());

    // ann's first key is no change; a second key for jo is, committed or not.
    write(&store, &format!("jo {old}\nann {ann}\njo {new}\n"));
    let s = Signers::load(&store, true).unwrap();
    assert_eq!(
        s.since[1],
        Some(Since::NotYet),
        "not committed: nothing yet"
    );
    assert_eq!(s.changes.len(), 1, "{:?}", s.changes);
    let change = &s.changes[0];
    assert_eq!((change.line, change.actor.as_str()), (3, "jo"));
    assert_eq!(change.commit, None);
    assert!(change.describe().contains("no key rotation record"));
    let new_key = PublicKey::from_openssh(&new).unwrap();
    let now = time::now();
    assert!(
        matches!(s.allows("jo", &new_key, now), Allowance::NotAllowed(r) if r.contains("was added for jo"))
    );
    // A wildcard line takes in jo too.
    write(&store, &format!("jo {old}\n* {ann}\n"));
    let s = Signers::load(&store, true).unwrap();
    assert_eq!(
        (s.changes.iter().map(|c| c.actor.as_str())).collect::<Vec<_>>(),
        ["jo"]
    );
    let ann_key = PublicKey::from_openssh(&ann).unwrap();
    assert!(matches!(
        s.allows("jo", &ann_key, now),
        Allowance::NotAllowed(_)
    ));
    assert_eq!(s.allows("kim", &ann_key, now), Allowance::Allowed);

    // jo states the new key, signed with the old one: the change holds, committed too.
    write(&store, &format!("jo {old}\nann {ann}\njo {new}\n"));
    store.set_signing_key(Some(old_path));
    let input = relay_wire::key_rotation::input(
        "jo",
        "human",
        &fingerprint(&PublicKey::from_openssh(&old).unwrap()),
        &new_key,
    )
    .unwrap();
    deposit(&store, input, &context("demo")).unwrap();
    let s = Signers::load(&store, true).unwrap();
    assert!(s.changes.is_empty(), "{:?}", s.changes);
    assert_eq!(s.allows("jo", &new_key, now), Allowance::Allowed);
    assert!(git(dir.path(), &["add", "-A"]) && git(dir.path(), &["commit", "-qm", "rotate"]));
    assert!(Signers::load(&store, true).unwrap().changes.is_empty());
}

#[test]
fn a_file_git_held_with_keys_that_is_gone_or_empty_is_judged_as_it_was() {
    let (dir, store) = store_with(&["demo"]);
    if !git(dir.path(), &["init", "-q"]) {
        eprintln!("skipped: no git");
        return;
    }
    // No file, no history: nothing to say, and no git asked for a read.
    let s = Signers::load(&store, true).unwrap();
    assert!(s.is_empty() && s.removed.is_none());
    let (_, _, jo) = key(dir.path(), "jo");
    write(&store, &format!("jo {jo}\n"));
    assert!(git(dir.path(), &["add", "-A"]) && git(dir.path(), &["commit", "-qm", "jo"]));
    write(&store, "# nobody\n");
    let s = Signers::load(&store, true).unwrap();
    let removed = s.removed.clone().unwrap();
    assert!(!removed.deleted && removed.keys == 1);
    assert_eq!(s.allowed().entries.len(), 1);
    assert!(
        s.must_sign("jo", time::now())
            .unwrap()
            .contains("as commit")
    );
    std::fs::remove_file(store.allowed_signers_file()).unwrap();
    assert!(
        Signers::load(&store, true)
            .unwrap()
            .removed
            .unwrap()
            .deleted
    );
    assert!(Signers::load(&store, false).unwrap().removed.is_none());
    // Committed: still reported.
    assert!(git(dir.path(), &["add", "-A"]) && git(dir.path(), &["commit", "-qm", "gone"]));
    assert!(Signers::load(&store, true).unwrap().removed.is_some());
}
