//! Signed records as a user meets them: a key in config.toml, `--sign-with`, `--sign`;
//! `relay verify --signatures` on good, tampered, moved, revoked, foreign and unsigned
//! records; bad keys and bad allowed_signers lines; `relay keys`; export and import; two
//! clones with their own keys merged by git.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

use crate::git::{git, in_dir, publish_and_clone};
use crate::harness::{Env, json_snapshot, read, snapshot};

/// Makes a key for `actor` at `name` (in the working folder) with `relay keys generate`;
/// returns its path and its allowed_signers line.
fn key(env: &Env, name: &str, actor: &str) -> (PathBuf, String) {
    let path = env.path(name);
    let line = key_at(env, &path, actor);
    (path, line)
}

/// Makes an Ed25519 key for `actor` at `path` with `relay keys generate` (nothing allowed);
/// returns its allowed_signers line.
pub(crate) fn key_at(env: &Env, path: &Path, actor: &str) -> String {
    let v = env.ok_json(&[
        "keys",
        "generate",
        "--out",
        path.to_str().unwrap(),
        "--actor",
        actor,
    ]);
    v["allowed_signers"].as_str().unwrap().to_string()
}

fn allow(store: &Path, line: &str) {
    let path = store.join("allowed_signers");
    let mut text = std::fs::read_to_string(&path).unwrap_or_default();
    text.push_str(line);
    text.push('\n');
    std::fs::write(path, text).unwrap();
}

/// Puts `lines` under `[sign]` and makes `actor` the configured actor.
fn configure(store: &Path, sign: &str, actor: &str) {
    let path = store.join("config.toml");
    let text = read(&path)
        .replace("[sign]\n", &format!("[sign]\n{sign}\n"))
        .replace("[actor]\n# ", &format!("[actor]\nid = \"{actor}\"\n# "));
    std::fs::write(path, text).unwrap();
}

/// A store whose writes are signed by `jo`'s key, allowed for jo.
fn signed_store() -> (Env, PathBuf, String) {
    let env = Env::new();
    let (path, line) = key(&env, "jo.key", "jo");
    allow(&env.store(), &line);
    configure(
        &env.store(),
        &format!("key = {:?}", path.to_str().unwrap()),
        "jo",
    );
    (env, path, line)
}

/// `verify --signatures --json`: the exit code and the verdict objects.
fn verdicts(env: &Env) -> (i32, Vec<Value>) {
    verdicts_in(env, &env.dir)
}

fn verdicts_in(env: &Env, dir: &Path) -> (i32, Vec<Value>) {
    let out = env
        .command(&["verify", "--signatures", "--json"])
        .current_dir(dir)
        .output()
        .unwrap();
    let lines = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v.get("verdict").is_some())
        .collect();
    (out.status.code().unwrap(), lines)
}

/// (record, verdict) of each verdict object.
fn kinds(found: &[Value]) -> Vec<(String, String)> {
    found
        .iter()
        .map(|v| {
            let s = |k: &str| v[k].as_str().unwrap().to_string();
            (s("record"), s("verdict"))
        })
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

fn signature_lines(env: &Env) -> Vec<Value> {
    read(&env.store().join("projects/demo/signatures.ndjson"))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn every_write_with_a_configured_key_is_signed_and_verifies_good() {
    let (env, _, _) = signed_store();
    let id = env.deposit("Signed", &["--status", "awaiting_review"]);
    env.ok(&["review", "approve", &id]);
    env.ok(&["facts", "assert", "api", "status", "live"]);
    env.ok(&["facts", "assert", "api", "status", "down"]);
    env.ok(&["session", "start"]);
    env.ok(&["session", "end"]);
    let lines = signature_lines(&env);
    let records: Vec<&str> = lines
        .iter()
        .map(|l| l["signature"]["record"].as_str().unwrap())
        .collect();
    // The second assert closes the first fact and adds the new one in one write.
    assert_eq!(
        records,
        [
            "package",
            "transition",
            "fact",
            "fact",
            "fact",
            "session",
            "session"
        ]
    );
    let sig = &lines[0]["signature"];
    assert_eq!(sig["id"], id.as_str());
    assert_eq!(sig["actor"], "jo");
    assert!(sig["key"].as_str().unwrap().starts_with("SHA256:"));
    assert!(
        sig["sshsig"]
            .as_str()
            .unwrap()
            .starts_with("-----BEGIN SSH SIGNATURE-----\n")
    );
    let (code, found) = verdicts(&env);
    assert_eq!(code, 0);
    assert_eq!(found.len(), 7, "{found:?}");
    assert!(
        found
            .iter()
            .all(|v| v["verdict"] == "good" && v["actor"] == "jo"),
        "{found:?}"
    );
    assert_eq!(
        found[0],
        json!({"record": "package", "id": id, "hash": sig["hash"], "verdict": "good",
               "actor": "jo", "key": sig["key"], "fails": false})
    );
    let human = env.ok(&["verify", "--signatures"]);
    assert_eq!(
        human,
        "signatures: 7 good, 0 bad, 0 revoked, 0 not allowed, 0 unsigned\nThe store is sound.\n"
    );
    // Plain verify accepts the signature log as part of the layout.
    assert_eq!(env.ok(&["verify"]), "The store is sound.\n");
}

#[test]
fn a_tampered_fact_is_bad_and_exits_5() {
    let (env, _, _) = signed_store();
    env.ok(&["facts", "assert", "api", "status", "live"]);
    let facts = env.store().join("projects/demo/facts.ndjson");
    std::fs::write(&facts, read(&facts).replace("\"live\"", "\"hacked\"")).unwrap();
    let (code, found) = verdicts(&env);
    assert_eq!(code, 5);
    assert_eq!(kinds(&found), pairs(&[("fact", "bad")]));
    // The reason: the fact "changed after it was signed".
    json_snapshot!("tampered_fact_json", &found);
    let r = env.run(&["verify", "--signatures"]);
    assert_eq!(r.code, 5);
    assert!(
        r.stdout.starts_with(
            "signatures: 0 good, 1 bad, 0 revoked, 0 not allowed, 0 unsigned\nfact fact_"
        ),
        "{}",
        r.stdout
    );
    // "1 record version fails the signature check"
    snapshot!("tampered_fact", r.transcript());
}

#[test]
fn a_tampered_package_fails_its_hash_and_its_signature() {
    let (env, _, _) = signed_store();
    env.deposit("Original", &[]);
    let log = env.package_lines_file();
    std::fs::write(&log, read(&log).replace("Original", "Forged")).unwrap();
    let out = env.run(&["verify", "--signatures", "--json"]);
    assert_eq!(out.code, 5);
    let lines = out.json_lines();
    assert_eq!(lines[0]["kind"], "hash_mismatch");
    let verdicts: Vec<&Value> = lines
        .iter()
        .filter(|v| v.get("verdict").is_some())
        .collect();
    assert_eq!(verdicts.len(), 1);
    assert_eq!(
        (&verdicts[0]["record"], &verdicts[0]["verdict"]),
        (&json!("package"), &json!("bad"))
    );
}

#[test]
fn a_signature_moved_to_another_record_is_bad() {
    let (env, _, _) = signed_store();
    env.ok(&["facts", "assert", "a", "p", "1"]);
    env.ok(&["facts", "assert", "b", "p", "2"]);
    let lines = signature_lines(&env);
    let (a, b) = (&lines[0]["signature"], &lines[1]["signature"]);
    // The first signature now claims the second fact (its id and hash).
    let mut moved = lines[0].clone();
    moved["signature"]["id"] = b["id"].clone();
    moved["signature"]["hash"] = b["hash"].clone();
    let path = env.store().join("projects/demo/signatures.ndjson");
    std::fs::write(&path, format!("{moved}\n{}\n", lines[1])).unwrap();
    let (code, found) = verdicts(&env);
    assert_eq!(code, 5);
    // A signature that does not verify makes its record bad, whatever else signs it.
    assert_eq!(
        kinds(&found),
        pairs(&[("fact", "unsigned"), ("fact", "bad")])
    );
    assert!(
        found[1]["reason"]
            .as_str()
            .unwrap()
            .contains("does not verify"),
        "{found:?}"
    );
    // Moved, not copied: the first fact is unsigned, the second still bad.
    std::fs::write(&path, format!("{moved}\n")).unwrap();
    let (code, found) = verdicts(&env);
    assert_eq!(code, 5);
    assert_eq!(
        kinds(&found),
        pairs(&[("fact", "unsigned"), ("fact", "bad")])
    );
    // Only the id moved: the signature's hash matches no version of the record it names.
    let mut renamed = lines[0].clone();
    renamed["signature"]["id"] = b["id"].clone();
    std::fs::write(&path, format!("{renamed}\n")).unwrap();
    let (code, found) = verdicts(&env);
    assert_eq!(code, 5);
    assert_eq!(
        kinds(&found),
        pairs(&[("fact", "unsigned"), ("fact", "bad")])
    );
    assert_eq!((&found[1]["id"], &found[1]["hash"]), (&b["id"], &b["hash"]));
    let reason = found[1]["reason"].as_str().unwrap();
    assert!(reason.contains(a["hash"].as_str().unwrap()), "{reason}");
}

#[test]
fn a_revoked_key_exits_5() {
    let (env, _, line) = signed_store();
    env.deposit("Before the laptop was lost", &[]);
    let key = line
        .split_whitespace()
        .skip(2)
        .take(2)
        .collect::<Vec<_>>()
        .join(" ");
    allow(&env.store(), &format!("@revoked {key} lost laptop"));
    let (code, found) = verdicts(&env);
    assert_eq!(code, 5);
    assert_eq!(kinds(&found), pairs(&[("package", "revoked")]));
    // The reason names the revoked key.
    json_snapshot!("revoked_json", &found);
    let listed = env.run(&["keys", "list", "--json"]).json_lines();
    assert_eq!(listed.len(), 2);
    assert_eq!(
        (&listed[0]["principals"], &listed[0]["revoked"]),
        (&json!("jo"), &json!(true))
    );
    assert_eq!(listed[1]["principals"], "@revoked");
}

/// A key allowed_signers does not list fails only the records of an actor who must sign (or
/// every one with `require`); a key it lists for another actor fails whoever it signs for.
#[test]
fn a_key_of_another_actor_is_not_allowed_and_fails_only_when_required() {
    let env = Env::new();
    let (_, jo_line) = key(&env, "jo.key", "jo");
    let (ann_key, _) = key(&env, "ann.key", "ann");
    allow(&env.store(), &jo_line);
    // kim, who has no key in allowed_signers, deposits signing with ann's key (allowed for
    // nobody): not allowed, and no failure.
    configure(&env.store(), "", "kim");
    env.deposit("Whose key?", &["--sign-with", ann_key.to_str().unwrap()]);
    let (code, found) = verdicts(&env);
    assert_eq!(code, 0);
    assert_eq!(kinds(&found), pairs(&[("package", "not_allowed")]));
    // "not in allowed_signers"
    json_snapshot!("not_allowed_json", &found);
    // Ann's key allowed for ann only: not for kim's record, and a listed key used as someone
    // else fails.
    let ann_line = read(&PathBuf::from(format!("{}.pub", ann_key.display())));
    allow(&env.store(), &format!("ann {}", ann_line.trim()));
    let (code, found) = verdicts(&env);
    assert_eq!(code, 5);
    // "not for kim"
    json_snapshot!("allowed_for_another_json", &found);
    // jo must sign: a record of jo's signed with ann's key fails too.
    configure(&env.store(), "", "jo");
    let id = env.deposit("As jo", &["--sign-with", ann_key.to_str().unwrap()]);
    let (code, found) = verdicts(&env);
    assert_eq!(code, 5);
    assert_eq!(failing(&found, &id), [("not_allowed".to_string(), true)]);
    configure(&env.store(), "require = true", "jo");
    let (code, found) = verdicts(&env);
    assert_eq!(code, 5);
    assert_eq!(
        kinds(&found),
        pairs(&[("package", "not_allowed"), ("package", "not_allowed")])
    );
}

#[test]
fn unsigned_records_fail_only_with_require() {
    let env = Env::new();
    env.deposit("Unsigned", &[]);
    let (code, found) = verdicts(&env);
    assert_eq!(code, 0);
    assert_eq!(kinds(&found), pairs(&[("package", "unsigned")]));
    assert_eq!(found[0].get("key"), None);
    configure(&env.store(), "require = true", "jo");
    let r = env.run(&["verify", "--signatures"]);
    assert_eq!(r.code, 5);
    // The unsigned package on stdout; on stderr, that `[sign] require = true` asks for one.
    snapshot!("unsigned_required", r.transcript());
    // Plain verify does not judge signatures.
    assert_eq!(env.run(&["verify"]).code, 0);
}

#[test]
fn sign_uses_the_default_key_and_bad_keys_write_nothing() {
    let env = Env::new();
    configure(&env.store(), "", "jo");
    // --sign without a configured key: ~/.ssh/id_ed25519, absent here.
    let r = env.run(&["deposit", "--title", "x", "--sign", "--json"]);
    assert_eq!(r.code, 5);
    assert_eq!(r.error()["error"], "integrity_error");
    // "cannot read the signing key" ~/.ssh/id_ed25519.
    let mut refusals = vec![r.transcript()];
    assert!(env.package_lines("demo").is_empty(), "nothing is written");
    // A public key named by mistake.
    let (k, line) = key(&env, "jo.key", "jo");
    let public = format!("{}.pub", k.display());
    let r = env.run(&["facts", "assert", "a", "b", "c", "--sign-with", &public]);
    assert_eq!(r.code, 5);
    // "looks like a public key"
    refusals.push(r.transcript());
    assert!(!env.store().join("projects/demo/facts.ndjson").exists());
    // RELAY_SIGNING_KEY signs; --sign-with overrides it.
    allow(&env.store(), &line);
    env.run_env(
        &["deposit", "--title", "by env"],
        &[("RELAY_SIGNING_KEY", k.to_str().unwrap())],
    );
    assert_eq!(signature_lines(&env).len(), 1);
    let r = env.run_env(
        &[
            "deposit",
            "--title",
            "flag wins",
            "--sign-with",
            "missing.key",
        ],
        &[("RELAY_SIGNING_KEY", k.to_str().unwrap())],
    );
    assert_eq!(r.code, 5);
    // Names missing.key.
    refusals.push(r.transcript());
    snapshot!("bad_keys", refusals.join("\n"));
}

#[test]
fn an_encrypted_key_is_refused_with_how_to_unlock_it() {
    let env = Env::new();
    let path = env.path("enc.key");
    let made = Command::new("ssh-keygen")
        .args([
            "-q",
            "-t",
            "ed25519",
            "-N",
            "pass",
            "-C",
            "jo",
            "-f",
            path.to_str().unwrap(),
        ])
        .output();
    if !made.is_ok_and(|o| o.status.success()) {
        eprintln!("SKIPPED an_encrypted_key_is_refused_with_how_to_unlock_it: no ssh-keygen");
        return;
    }
    let r = env.run(&[
        "deposit",
        "--title",
        "x",
        "--sign-with",
        path.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(r.code, 5);
    // "encrypted with a passphrase", relay "never prompts", and the ways out: `ssh-keygen -p -f`,
    // `relay keys generate`.
    snapshot!("encrypted_key", r.transcript());
    assert!(env.package_lines("demo").is_empty());
    // ssh-keygen's unencrypted ed25519 keys sign, and ssh-keygen verifies what relay signed.
    let plain = env.path("plain.key");
    Command::new("ssh-keygen")
        .args([
            "-q",
            "-t",
            "ed25519",
            "-N",
            "",
            "-C",
            "jo",
            "-f",
            plain.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    configure(&env.store(), "", "jo");
    env.deposit(
        "ssh-keygen's key",
        &["--sign-with", plain.to_str().unwrap()],
    );
    let sig = &signature_lines(&env)[0]["signature"];
    std::fs::write(env.path("sig"), sig["sshsig"].as_str().unwrap()).unwrap();
    let public = read(&PathBuf::from(format!("{}.pub", plain.display())));
    std::fs::write(env.path("allowed"), format!("jo {public}")).unwrap();
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "printf %s '{}' | ssh-keygen -Y verify -f allowed -I jo -n relay -s sig",
            sig["hash"].as_str().unwrap()
        ))
        .current_dir(&env.dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_key_others_can_read_warns_and_still_signs() {
    let (env, path, _) = signed_store();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    let r = env.run(&["deposit", "--title", "x"]);
    assert_eq!(r.code, 0);
    if cfg!(unix) {
        assert_eq!(
            r.stderr.lines().last().unwrap(),
            format!(
                "relay: warning: jo.key: this signing key can be read by others (mode 644); run \
                 `chmod 600 {}`\n",
                path.display()
            )
            .trim_end()
        );
        let r = env.run(&["deposit", "--title", "y", "--json"]);
        let w: Value = serde_json::from_str(r.stderr.trim()).unwrap();
        assert_eq!(
            (&w["warning"], &w["file"]),
            (&json!("key_permissions"), &json!("jo.key"))
        );
    }
    assert_eq!(signature_lines(&env).len(), if cfg!(unix) { 2 } else { 1 });
    assert_eq!(verdicts(&env).0, 0);
}

#[test]
fn a_bad_allowed_signers_line_is_named() {
    let (env, _, _) = signed_store();
    env.deposit("x", &[]);
    allow(
        &env.store(),
        "jo valid-after=\"yesterday\" ssh-ed25519 AAAAC3NzaC1lZDI1NTE5",
    );
    let r = env.run(&["verify", "--signatures", "--json"]);
    assert_eq!(r.code, 5);
    // "allowed_signers:2: `yesterday` is not a time"
    snapshot!("bad_allowed_signers_json", r.transcript());
    let r = env.run(&["verify", "--json"]);
    assert_eq!(r.code, 5);
    let problem = &r.json_lines()[0];
    assert_eq!(
        (&problem["file"], &problem["line"], &problem["kind"]),
        (
            &json!("allowed_signers"),
            &json!(2),
            &json!("invalid_allowed_signers")
        )
    );
    let r = env.run(&["keys", "list"]);
    assert_eq!(r.code, 5);
    // Names allowed_signers:2.
    snapshot!("bad_allowed_signers_keys_list", r.transcript());
}

#[test]
fn keys_generate_add_then_sign() {
    let env = Env::new();
    configure(&env.store(), "", "jo");
    let r = env.run(&["keys", "generate", "--add"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let line = r.stdout.trim().to_string();
    assert!(
        line.starts_with("jo namespaces=\"relay\",valid-after=\"")
            && line.contains("Z\" ssh-ed25519 AAAA"),
        "{line}"
    );
    assert_eq!(
        read(&env.store().join("allowed_signers")),
        format!("{line}\n")
    );
    // The default place: $XDG_CONFIG_HOME unset here, so ~/.config/relay/signing_key.
    let home = env.dir.parent().unwrap().join("home");
    let made = home.join(".config/relay/signing_key");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&made).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
    assert!(home.join(".config/relay/signing_key.pub").is_file());
    let again = env.run(&["keys", "generate"]);
    assert_eq!(again.code, 4);
    // relay "never overwrites" a key.
    snapshot!("generate_again", again.transcript());
    env.deposit(
        "Signed by a generated key",
        &["--sign-with", made.to_str().unwrap()],
    );
    assert_eq!(kinds(&verdicts(&env).1), pairs(&[("package", "good")]));
    let listed = env.ok(&["keys", "list"]);
    assert!(listed.starts_with("jo  ssh-ed25519  SHA256:"), "{listed}");
    snapshot!("keys_list", &listed);
    assert!(listed.trim_end().ends_with("Z\""), "{listed}");
    // RELAY_ACTOR names the actor as it does for every write.
    let out = env.dir.join("ci_key");
    let r = env.run_env(
        &["keys", "generate", "--out", out.to_str().unwrap()],
        &[("RELAY_ACTOR", "ci-bot")],
    );
    assert!(r.stdout.starts_with("ci-bot namespaces="), "{}", r.stdout);
}

#[test]
fn two_clones_with_their_own_keys_merge_and_verify_good() {
    if Command::new("git").arg("--version").output().is_err() {
        eprintln!("SKIPPED two_clones_with_their_own_keys_merge_and_verify_good: no git");
        return;
    }
    let env = Env::empty();
    let root = env.dir.clone();
    let origin = root.join("origin.git");
    git(&root, &["init", "--bare", "-q", origin.to_str().unwrap()]);
    let (a, b) = (root.join("a"), root.join("b"));
    git(
        &root,
        &["clone", "-q", origin.to_str().unwrap(), a.to_str().unwrap()],
    );
    in_dir(&env, &a, &["init", "--project", "demo"]);
    let (ka, la) = key(&env, "ann.key", "ann");
    let (kb, lb) = key(&env, "bo.key", "bo");
    publish_and_clone(&a, &origin, &b, "store");
    // Each clone signs with its own key and allows it: the allowed_signers lines merge too.
    allow(&a.join(".relay"), &la);
    allow(&b.join(".relay"), &lb);
    let deposit = |dir: &Path, actor: &str, key: &Path, title: &str| {
        in_dir(
            &env,
            dir,
            &[
                "deposit",
                "--title",
                title,
                "--actor",
                actor,
                "--sign-with",
                key.to_str().unwrap(),
            ],
        );
        in_dir(
            &env,
            dir,
            &[
                "facts",
                "assert",
                title,
                "by",
                actor,
                "--actor",
                actor,
                "--sign-with",
                key.to_str().unwrap(),
            ],
        );
    };
    deposit(&a, "ann", &ka, "from-a");
    deposit(&b, "bo", &kb, "from-b");
    git(&b, &["add", "-A"]);
    git(&b, &["commit", "-q", "-m", "b"]);
    git(&b, &["push", "-q", "origin", "HEAD:main"]);
    git(&a, &["add", "-A"]);
    git(&a, &["commit", "-q", "-m", "a"]);
    git(&a, &["pull", "-q", "--no-edit", "origin", "main"]);
    let (code, found) = verdicts_in(&env, &a);
    assert_eq!(code, 0, "{found:?}");
    assert_eq!(found.len(), 4, "{found:?}");
    assert!(found.iter().all(|v| v["verdict"] == "good"), "{found:?}");
    let actors: std::collections::BTreeSet<&str> =
        found.iter().map(|v| v["actor"].as_str().unwrap()).collect();
    assert_eq!(actors.into_iter().collect::<Vec<_>>(), ["ann", "bo"]);
    let allowed = read(&a.join(".relay/allowed_signers"));
    assert_eq!(allowed.lines().count(), 2, "{allowed}");
}

#[test]
fn pull_shows_who_signed_and_history_carries_the_verdict() {
    let (env, _, _) = signed_store();
    let id = env.deposit("Signed", &["--status", "awaiting_review"]);
    env.ok(&["review", "approve", &id]);
    let key = signature_lines(&env)[0]["signature"]["key"].clone();
    let card = env.ok(&["pull", &id]);
    assert!(
        card.ends_with(&format!("  signed by jo ({})\n", key.as_str().unwrap())),
        "{card}"
    );
    let history = env.run(&["pull", &id, "--history", "--json"]).json_lines();
    assert_eq!(history.len(), 2);
    for v in &history {
        assert_eq!(
            v["signature"],
            json!({"verdict": "good", "key": key, "actor": "jo", "fails": false})
        );
    }
    // Plain pull --json carries the verdict beside the package, never in it.
    let line = env.ok_json(&["pull", &id]);
    assert_eq!(line["package"]["package_id"], id.as_str());
    assert_eq!(
        line["x-signature"],
        json!({"verdict": "good", "key": key, "actor": "jo", "fails": false})
    );
    assert!(line["package"].get("x-signature").is_none());
    // Unsigned: nothing in the card; the verdict in the history.
    let plain = Env::new();
    let unsigned = plain.deposit("Unsigned", &[]);
    let card = plain.ok(&["pull", &unsigned]);
    assert!(
        !card.contains("signed by") && !card.contains("signature:"),
        "{card}"
    );
    let history = plain
        .run(&["pull", &unsigned, "--history", "--json"])
        .json();
    assert_eq!(
        history["signature"],
        json!({"verdict": "unsigned", "fails": false})
    );
    // Revoked: a warning line in the card.
    let line = read(&env.store().join("allowed_signers"));
    let k = line
        .split_whitespace()
        .skip(2)
        .take(2)
        .collect::<Vec<_>>()
        .join(" ");
    allow(&env.store(), &format!("@revoked {k}"));
    let card = env.ok(&["pull", &id]);
    assert!(card.contains("  signature: revoked (key SHA256:"), "{card}");
}

#[test]
fn export_then_import_carries_the_signatures_of_what_travels() {
    let (env, _, line) = signed_store();
    let id = env.deposit("Travels", &[]);
    env.ok(&["facts", "assert", "api", "status", "live", "--source", &id]);
    env.ok(&["facts", "assert", "api", "status", "down"]);
    env.ok(&["session", "start"]);
    let backup = env.path("backup");
    env.ok(&["export", "--out", backup.to_str().unwrap()]);
    let carried = read(&backup.join("signatures.ndjson"));
    // The package, each fact at its current version (the first one closed), the session: the
    // open version of the first fact does not travel, nor does its signature.
    assert_eq!(carried.lines().count(), 4, "{carried}");
    let manifest: Value = serde_json::from_str(&read(&backup.join("manifest.json"))).unwrap();
    assert!(
        manifest["files"]["signatures.ndjson"]
            .as_str()
            .unwrap()
            .starts_with("sha256:")
    );
    // Into a fresh store that allows the same key.
    let fresh = Env::new();
    allow(&fresh.store(), &line);
    let summary = fresh.ok_json(&["import", backup.to_str().unwrap()]);
    assert_eq!(summary["signatures"], 4, "{summary}");
    let (code, found) = verdicts(&fresh);
    assert_eq!(code, 0);
    assert_eq!(found.len(), 4, "{found:?}");
    assert!(found.iter().all(|v| v["verdict"] == "good"), "{found:?}");
    // Again: nothing new, no duplicate lines.
    let again = fresh.ok_json(&["import", backup.to_str().unwrap()]);
    assert_eq!(again.get("signatures"), None, "{again}");
    let lines = read(&fresh.store().join("projects/demo/signatures.ndjson"));
    assert_eq!(lines, carried);
    // A damaged signatures file stops the import before anything is written.
    let other = Env::new();
    std::fs::write(backup.join("signatures.ndjson"), format!("{carried}{{}}\n")).unwrap();
    let r = other.run(&["import", backup.to_str().unwrap()]);
    assert_eq!(r.code, 5, "{}", r.stderr);
    // "does not match the hash its manifest lists"
    snapshot!("import_damaged_signatures", r.transcript());
    assert!(other.package_lines("demo").is_empty());
}

#[test]
fn status_and_conformance_say_whether_this_clone_signs() {
    let env = Env::new();
    let off = env.ok_json(&["status"]);
    assert_eq!(
        off["signing"],
        json!({"key": null, "key_path": null, "require": false, "allowed_signers": 0, "revoked_keys": 0})
    );
    assert!(
        env.ok(&["status"])
            .contains("Signing off; 0 allowed signers, 0 revoked keys; signatures not required\n")
    );
    json_snapshot!("status_signing_off_json", &off["signing"]);
    let (path, line) = key(&env, "jo.key", "jo");
    allow(&env.store(), &line);
    configure(
        &env.store(),
        &format!("key = {:?}\nrequire = true", path.to_str().unwrap()),
        "jo",
    );
    let on = env.ok_json(&["status"]);
    let fingerprint = on["signing"]["key"].as_str().unwrap().to_string();
    assert!(fingerprint.starts_with("SHA256:"));
    assert_eq!(on["signing"]["key_path"], path.to_str().unwrap());
    assert_eq!(
        (&on["signing"]["require"], &on["signing"]["allowed_signers"]),
        (&json!(true), &json!(1))
    );
    json_snapshot!("status_signing_on_json", &on["signing"]);
    let human = env.ok(&["status"]);
    assert!(human.contains(&format!("Signing signed with {fingerprint}; 1 allowed signer, 0 revoked keys; signatures required\n")), "{human}");
    // A key that cannot be used is said, not failed on: the error names missing.key.
    let broken = env.ok_json(&["status", "--sign-with", "missing.key"]);
    json_snapshot!("status_signing_broken_json", &broken["signing"]);
    let descriptor = env.ok_json(&["conformance"]);
    assert_eq!(descriptor["capabilities"]["x-signed_records"], true);
}

#[test]
fn importing_another_store_carries_its_signatures() {
    let (env, _, line) = signed_store();
    env.deposit("From a store", &[]);
    let fresh = Env::new();
    allow(&fresh.store(), &line);
    let summary = fresh.ok_json(&["import", env.store().to_str().unwrap()]);
    assert_eq!(summary["signatures"], 1, "{summary}");
    assert_eq!(kinds(&verdicts(&fresh).1), pairs(&[("package", "good")]));
}

#[test]
fn serve_refuses_to_start_with_a_key_that_cannot_sign() {
    let env = Env::new();
    let r = env.run(&["serve", "--sign-with", "missing.key", "--json"]);
    assert_eq!(r.code, 5);
    // Names missing.key.
    snapshot!("serve_with_a_missing_key", r.transcript());
}

/// The problems plain `relay verify --json` reports: (kind, file:line).
fn problems(env: &Env) -> (i32, Vec<(String, String)>) {
    let out = env.run(&["verify", "--json"]);
    let found = out
        .json_lines()
        .iter()
        .map(|p| {
            let line = p["line"]
                .as_u64()
                .map_or(String::new(), |l| format!(":{l}"));
            (
                p["kind"].as_str().unwrap().to_string(),
                format!("{}{line}", p["file"].as_str().unwrap()),
            )
        })
        .collect();
    (out.code, found)
}

/// `fails` of the verdict on `id`.
fn failing(found: &[Value], id: &str) -> Vec<(String, bool)> {
    found
        .iter()
        .filter(|v| v["id"] == id)
        .map(|v| {
            (
                v["verdict"].as_str().unwrap().to_string(),
                v["fails"] == true,
            )
        })
        .collect()
}

/// Issue 36: once allowed_signers exists, plain `verify` (what the post-merge hook runs)
/// checks signatures. A record by an actor whose earlier records are signed fails, without
/// `require`, when its signature is stripped, when it is tampered and signed again with a
/// key outside allowed_signers, and when a new record in that actor's name is signed with
/// such a key; an actor who never signed is left alone.
#[test]
fn plain_verify_checks_signatures_and_a_stripped_or_foreign_one_fails_without_require() {
    let (env, _, _) = signed_store();
    env.deposit("Signed first", &[]);
    env.ok(&["facts", "assert", "api", "status", "live"]);
    // Another actor who never signs: their unsigned record is no problem.
    let config = env.store().join("config.toml");
    let signing = read(&config);
    std::fs::write(&config, signing.replace("key = ", "# key = ")).unwrap();
    env.deposit("By ann, unsigned", &["--actor", "ann"]);
    std::fs::write(&config, signing).unwrap();
    assert_eq!(env.ok(&["verify"]), "The store is sound.\n");

    // Strip the fact's signature: plain verify fails, naming the fact's line.
    let path = env.store().join("projects/demo/signatures.ndjson");
    let lines = read(&path);
    let fact_id = read(&env.store().join("projects/demo/facts.ndjson"))
        .split("\"fact_id\":\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_string();
    let kept: Vec<&str> = lines.lines().filter(|l| !l.contains(&fact_id)).collect();
    assert_eq!(kept.len(), 1, "{lines}");
    std::fs::write(&path, format!("{}\n", kept.join("\n"))).unwrap();
    let (code, found) = problems(&env);
    assert_eq!(code, 5);
    assert_eq!(
        found,
        [(
            "unsigned_record".to_string(),
            "projects/demo/facts.ndjson:1".to_string()
        )]
    );
    let r = env.run(&["verify"]);
    // "fact … by jo: jo's records are signed with an allowed key since …", "its signature may
    // have been removed"; "1 problem found in signatures; --fix cannot repair them".
    snapshot!("unsigned_record_of_a_signer", r.transcript());
    let (code, judged) = verdicts(&env);
    assert_eq!(code, 5);
    assert_eq!(failing(&judged, &fact_id), [("unsigned".to_string(), true)]);
    // --signatures prints the verdicts, not the same failures again as problems.
    let r = env.run(&["verify", "--signatures"]);
    assert!(!r.stdout.contains("[unsigned_record]"), "{}", r.stdout);
    std::fs::write(&path, &lines).unwrap();
    assert_eq!(env.run(&["verify"]).code, 0);

    // A new record in jo's name signed with a key outside allowed_signers.
    let (mallory, _) = key(&env, "mallory.key", "jo");
    let forged = env.deposit(
        "Forged as jo",
        &["--actor", "jo", "--sign-with", mallory.to_str().unwrap()],
    );
    let (code, found) = problems(&env);
    assert_eq!(code, 5);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "signature_not_allowed");
    let (_, judged) = verdicts(&env);
    assert_eq!(
        failing(&judged, &forged),
        [("not_allowed".to_string(), true)]
    );
    assert_eq!(failing(&judged, &fact_id), [("good".to_string(), false)]);
}

/// Issue 36: the fact changed in the log and signed again, as jo, with a key outside
/// allowed_signers (by ssh-keygen, as an attacker would): plain verify fails.
#[test]
fn a_tampered_record_signed_again_with_a_foreign_key_fails_plain_verify() {
    let (env, _, _) = signed_store();
    env.deposit("Signed first", &[]);
    env.ok(&["facts", "assert", "api", "status", "live"]);
    let facts = env.store().join("projects/demo/facts.ndjson");
    std::fs::write(&facts, read(&facts).replace("\"live\"", "\"hacked\"")).unwrap();
    let path = env.store().join("projects/demo/signatures.ndjson");
    let first = read(&path).lines().next().unwrap().to_string();
    std::fs::write(&path, format!("{first}\n")).unwrap();
    let (_, found) = verdicts(&env);
    let tampered = found
        .iter()
        .find(|v| v["record"] == "fact")
        .unwrap()
        .clone();
    assert_eq!(
        (&tampered["verdict"], &tampered["fails"]),
        (&json!("unsigned"), &json!(true))
    );
    let (mallory, _) = key(&env, "mallory.key", "jo");
    let hash = tampered["hash"].as_str().unwrap();
    let message = env.path("hash.txt");
    std::fs::write(&message, hash).unwrap();
    let signed = Command::new("ssh-keygen")
        .args(["-q", "-Y", "sign", "-n", "relay", "-f"])
        .arg(&mallory)
        .arg(&message)
        .output();
    if !signed.is_ok_and(|o| o.status.success()) {
        eprintln!("SKIPPED signing again with ssh-keygen: no ssh-keygen");
        return;
    }
    let fingerprint = Command::new("ssh-keygen")
        .arg("-lf")
        .arg(format!("{}.pub", mallory.display()))
        .output()
        .unwrap();
    let fingerprint = String::from_utf8_lossy(&fingerprint.stdout)
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    let sshsig = read(&env.path("hash.txt.sig"));
    let line = json!({"signature": {"record": "fact", "id": tampered["id"], "hash": hash,
        "actor": "jo", "key": fingerprint, "sshsig": sshsig}});
    std::fs::write(&path, format!("{first}\n{line}\n")).unwrap();
    let (code, found) = verdicts(&env);
    assert_eq!(code, 5);
    let fact = found.iter().find(|v| v["record"] == "fact").unwrap();
    assert_eq!(
        (&fact["verdict"], &fact["fails"], &fact["key"]),
        (&json!("not_allowed"), &json!(true), &json!(fingerprint))
    );
    let (code, found) = problems(&env);
    assert_eq!(code, 5);
    assert_eq!(
        found,
        [(
            "signature_not_allowed".to_string(),
            "projects/demo/facts.ndjson:1".to_string()
        )]
    );
}

/// Issue 36: a retraction line is signed like every other record, and one changed after it
/// was signed is bad, in plain verify too.
#[test]
fn retractions_are_signed_and_a_changed_one_is_bad() {
    let (env, _, _) = signed_store();
    let id = env.deposit("Wrong numbers", &[]);
    env.ok(&[
        "retract",
        &id,
        "--reason",
        "the numbers came from a debug build",
    ]);
    let lines = signature_lines(&env);
    let last = &lines.last().unwrap()["signature"];
    assert_eq!(
        (&last["record"], &last["id"]),
        (&json!("retraction"), &json!(id))
    );
    assert_eq!(last["actor"], "jo");
    let (code, found) = verdicts(&env);
    assert_eq!(code, 0);
    assert_eq!(
        kinds(&found),
        pairs(&[("package", "good"), ("retraction", "good")])
    );
    assert_eq!(env.ok(&["verify"]), "The store is sound.\n");
    let path = env.store().join("projects/demo/retractions.ndjson");
    std::fs::write(&path, read(&path).replace("debug build", "release build")).unwrap();
    let (code, found) = verdicts(&env);
    assert_eq!(code, 5);
    assert_eq!(
        kinds(&found),
        pairs(&[("package", "good"), ("retraction", "bad")])
    );
    let (code, found) = problems(&env);
    assert_eq!(code, 5);
    assert_eq!(
        found,
        [(
            "bad_signature".to_string(),
            "projects/demo/retractions.ndjson:1".to_string()
        )]
    );
}
