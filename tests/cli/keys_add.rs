//! `relay keys add`: allowing a key the user already has (their `~/.ssh/id_ed25519`, the key
//! this clone signs with, or a file named), once; and the refusals that keep
//! `allowed_signers` sound: no key, a revoked key, a second key for an actor (a rotation), a key
//! relay cannot sign with. `keys generate` over an existing key names `keys add`.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::harness::{Env, read};

/// Makes an Ed25519 key for `actor` at `path` with `relay keys generate` (nothing allowed).
fn make_key(env: &Env, path: &Path, actor: &str) {
    crate::signing::key_at(env, path, actor);
}

/// `~/.ssh/id_ed25519` of the test's HOME.
fn default_key(env: &Env) -> PathBuf {
    env.home.join(".ssh/id_ed25519")
}

fn allowed_signers(env: &Env) -> String {
    std::fs::read_to_string(env.store().join("allowed_signers")).unwrap_or_default()
}

#[test]
fn the_default_key_is_added_once_and_signs() {
    let env = Env::new();
    let key = default_key(&env);
    make_key(&env, &key, "jo@laptop");
    let v = env.ok_json(&["keys", "add", "--actor", "jo"]);
    let line = v["allowed_signers"].as_str().unwrap().to_string();
    assert!(
        line.starts_with("jo namespaces=\"relay\",valid-after=\"")
            && line.contains("Z\" ssh-ed25519 AAAA"),
        "{v}"
    );
    assert_eq!(v["added"], true, "{v}");
    assert_eq!(v["actor"], "jo", "{v}");
    assert_eq!(v["path"], key.to_str().unwrap(), "{v}");
    assert!(
        v["fingerprint"].as_str().unwrap().starts_with("SHA256:"),
        "{v}"
    );
    assert_eq!(allowed_signers(&env), format!("{line}\n"));

    // Again: the file allows it already, so nothing is written.
    let again = env.run(&["keys", "add", "--actor", "jo"]);
    assert_eq!(again.code, 0, "{again:?}");
    assert_eq!(again.stdout, format!("{line}\n"));
    assert!(
        again.stderr.contains("allows") && again.stderr.contains("already"),
        "{again:?}"
    );
    assert_eq!(allowed_signers(&env), format!("{line}\n"));
    let v = env.ok_json(&["keys", "add", "--actor", "jo"]);
    assert_eq!(v["added"], false, "{v}");

    // `--sign` signs with that key, and the record verifies good.
    env.ok(&["deposit", "--title", "Signed", "--actor", "jo", "--sign"]);
    let out = env.run(&["verify", "--signatures", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let verdicts: Vec<Value> = (out.json_lines().into_iter())
        .filter(|v| v.get("verdict").is_some())
        .collect();
    assert_eq!(verdicts.len(), 1, "{verdicts:?}");
    assert_eq!(verdicts[0]["verdict"], "good", "{verdicts:?}");
}

#[test]
fn the_key_this_clone_signs_with_or_a_public_key_file() {
    let env = Env::new();
    let key = env.path("keys/relay_key");
    make_key(&env, &key, "ci");
    // Without PATH, the key the clone signs with (here RELAY_SIGNING_KEY).
    let r = env.run_env(
        &["keys", "add", "--json"],
        &[
            ("RELAY_SIGNING_KEY", key.to_str().unwrap()),
            ("RELAY_ACTOR", "ci-bot"),
        ],
    );
    assert_eq!(r.code, 0, "{r:?}");
    let v = r.json();
    assert_eq!(
        (v["actor"].as_str(), v["added"].as_bool()),
        (Some("ci-bot"), Some(true))
    );
    assert_eq!(v["path"], key.to_str().unwrap(), "{v}");

    // A public key file, given by a path relative to the working folder.
    let other = env.path("keys/ann");
    make_key(&env, &other, "ann");
    let r = env.run(&["keys", "add", "keys/ann.pub", "--actor", "ann"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.starts_with("ann namespaces=\"relay\""), "{r:?}");
    assert!(r.stderr.contains("commit it"), "{r:?}");
    let private = env.path("keys/ann");
    let sign = format!("Sign with it: set [sign] key = \"{}\"", private.display());
    assert!(r.stderr.contains(&sign), "{sign:?} not in {r:?}");
    let listed = env.ok(&["keys", "list"]);
    assert_eq!(listed.lines().count(), 2, "{listed}");
    assert!(
        listed.starts_with("ci-bot  ssh-ed25519  SHA256:"),
        "{listed}"
    );
}

#[test]
fn what_keys_add_refuses_writes_nothing() {
    let env = Env::new();
    // No key anywhere: it says how to name one or make one.
    let r = env.run(&["keys", "add", "--actor", "jo"]);
    assert_eq!(r.code, 4, "{r:?}");
    assert!(
        r.stderr.contains("relay keys add PATH") && r.stderr.contains("relay keys generate --add"),
        "{r:?}"
    );
    // A file that is no key.
    std::fs::write(env.path("notes.txt"), "not a key\n").unwrap();
    let r = env.run(&["keys", "add", "notes.txt", "--actor", "jo"]);
    assert_eq!(r.code, 4, "{r:?}");
    assert!(
        r.stderr
            .contains("neither an OpenSSH private key nor a public key"),
        "{r:?}"
    );

    // A second key for an actor who has one is a rotation.
    let first = env.path("first");
    let second = env.path("second");
    make_key(&env, &first, "jo");
    make_key(&env, &second, "jo");
    env.ok(&["keys", "add", "first", "--actor", "jo"]);
    let before = allowed_signers(&env);
    let r = env.run(&["keys", "add", "second", "--actor", "jo"]);
    assert_eq!(r.code, 4, "{r:?}");
    assert!(
        r.stderr.contains("jo already signs with") && r.stderr.contains("relay keys rotate"),
        "{r:?}"
    );
    // For someone else, the second key is fine.
    env.ok(&["keys", "add", "second", "--actor", "bo"]);

    // A revoked key signs for nobody.
    let public = read(&PathBuf::from(format!("{}.pub", first.display())));
    let revoked = format!("{before}@revoked {}", public.trim());
    std::fs::write(env.store().join("allowed_signers"), format!("{revoked}\n")).unwrap();
    let r = env.run(&["keys", "add", "first", "--actor", "ann"]);
    assert_eq!(r.code, 4, "{r:?}");
    assert!(r.stderr.contains("is revoked (line 2"), "{r:?}");
    assert_eq!(allowed_signers(&env), format!("{revoked}\n"));

    // A key relay does not sign with.
    let have_keygen = Command::new("ssh-keygen").arg("-?").output().is_ok();
    if have_keygen {
        let rsa = env.path("rsa");
        let made = Command::new("ssh-keygen")
            .args(["-q", "-t", "rsa", "-b", "1024", "-N", "", "-f"])
            .arg(&rsa)
            .output()
            .unwrap();
        assert!(made.status.success(), "{made:?}");
        let r = env.run(&["keys", "add", "rsa.pub", "--actor", "cy"]);
        assert_eq!(r.code, 4, "{r:?}");
        assert!(r.stderr.contains("ed25519 keys only"), "{r:?}");
    }

    // Outside a store there is no allowed_signers to add to.
    let outside = Env::empty();
    let r = outside.run(&["keys", "add", "--actor", "jo"]);
    assert_eq!(r.code, 1, "{r:?}");
}

#[test]
fn generate_over_an_existing_key_names_keys_add() {
    let env = Env::new();
    let made = env.home.join(".config/relay/signing_key");
    make_key(&env, &made, "jo");
    let r = env.run(&["keys", "generate", "--add", "--actor", "jo"]);
    assert_eq!(r.code, 4, "{r:?}");
    let wanted = format!("relay keys add {}", made.display());
    assert!(r.stderr.contains(&wanted), "{wanted:?} not in {r:?}");
    assert_eq!(allowed_signers(&env), "");
    // Which then works.
    let v = env.ok_json(&["keys", "add", made.to_str().unwrap(), "--actor", "jo"]);
    assert_eq!(v["added"], true, "{v}");
}
