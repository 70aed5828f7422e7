//! Issue 58: tampering with a signed store, as a user (or an attacker with write access to the
//! repository) would, in a real git repository with keys `relay keys` made and, where an
//! attacker signs, `ssh-keygen` itself. One honest store is built and committed; plain `relay
//! verify` finds it sound (no false alarm: an actor with no key, a reviewer's approval and
//! retraction, a key rotation). Then each of 22 cases (`tamper_cases.rs`) tampers a copy of
//! it: plain `relay verify` must exit 5 naming the expected problem, and where the tampering
//! touches a package a read of it shows the failing verdict alike over the CLI (`pull ID
//! --json`), MCP (`pull`) and HTTP (`GET /v1/packages/ID`'s `x-relay-signature` header).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

use crate::git::git;
use crate::harness::{Env, Run, read};
use crate::mcp;
use crate::serve::{Served, curl};

/// The honest store every case starts from, and the ids of its records.
pub struct Baseline {
    pub env: Env,
    /// The repository (the working folder holding `.relay/`).
    pub dir: PathBuf,
    /// jo's first signed package.
    pub first: String,
    /// jo's second signed package.
    pub second: String,
    /// jo's package ann approved (signed by both).
    pub reviewed: String,
    /// jo's package awaiting review.
    pub awaiting: String,
    /// eve's unsigned package (eve has no key).
    pub by_eve: String,
    /// ann's signed package.
    pub by_ann: String,
    /// jo's package signed after rotating to jo2.key.
    pub rotated: String,
}

/// One case: a copy of the baseline's repository, run in the baseline's environment.
pub struct Case<'a> {
    pub env: &'a Env,
    pub dir: PathBuf,
}

/// What a case expects: the kinds plain verify must report, and the packages a read of which
/// must show a failing verdict (with `--include-retracted` where the package is retracted).
pub struct Expect {
    pub kinds: Vec<&'static str>,
    pub reads: Vec<String>,
    pub retracted: bool,
    /// Whether `GET /v1/packages/ID` is asked too.
    pub http: bool,
}

impl Expect {
    pub fn verify(kinds: &[&'static str]) -> Expect {
        Expect {
            kinds: kinds.to_vec(),
            reads: Vec::new(),
            retracted: false,
            http: true,
        }
    }

    /// ... and a read of `id` shows the failing verdict on every door.
    pub fn read(mut self, id: &str) -> Expect {
        self.reads.push(id.to_string());
        self
    }

    /// ... and a read of the retracted `id` shows its retraction does not hold: in the
    /// verdict of the CLI and MCP (which read it with `--include-retracted`), in the 404 of
    /// HTTP.
    pub fn retracted(mut self, id: &str) -> Expect {
        self.reads.push(id.to_string());
        self.retracted = true;
        self
    }
}

/// Whether git and ssh-keygen are here (each test says so and passes when not).
pub fn tools() -> bool {
    let have = |tool: &str, arg: &str| Command::new(tool).arg(arg).output().is_ok();
    let ok = have("git", "--version") && have("ssh-keygen", "-?") && have("curl", "--version");
    if !ok {
        eprintln!("skipped: git, ssh-keygen or curl is not installed");
    }
    ok
}

/// Builds and commits the honest store.
pub fn baseline() -> Baseline {
    let env = Env::empty();
    let dir = env.dir.clone();
    git(&dir, &["init", "-q"]);
    let case = Case {
        env: &env,
        dir: dir.clone(),
    };
    case.ok(&["init", "--project", "demo"]);
    for (file, actor) in [("jo.key", "jo"), ("ann.key", "ann")] {
        case.ok(&[
            "keys",
            "generate",
            "--out",
            &case.key(file),
            "--actor",
            actor,
            "--add",
        ]);
    }
    case.ok(&[
        "keys",
        "generate",
        "--out",
        &case.key("mallory.key"),
        "--actor",
        "jo",
    ]);
    // kim reviews and may retract anyone's records.
    let config = dir.join(".relay/config.toml");
    let text = read(&config);
    std::fs::write(
        &config,
        format!("{text}\n[review]\nreviewers = [\"kim\"]\n"),
    )
    .unwrap();
    case.commit("keys");
    let first = case.deposit("jo", "jo.key", "First", &[]);
    let second = case.deposit("jo", "jo.key", "Second", &[]);
    let reviewed = case.deposit("jo", "jo.key", "Reviewed", &["--status", "awaiting_review"]);
    case.ok(&[
        "review",
        "approve",
        &reviewed,
        "--actor",
        "ann",
        "--sign-with",
        &case.key("ann.key"),
    ]);
    let awaiting = case.deposit("jo", "jo.key", "Awaiting", &["--status", "awaiting_review"]);
    let by_eve = case.deposit("eve", "", "By eve, who never signs", &[]);
    let wrong = case.deposit("eve", "", "Eve's mistake", &[]);
    case.ok(&[
        "retract",
        &wrong,
        "--reason",
        "my mistake",
        "--actor",
        "eve",
    ]);
    let misfiled = case.deposit("eve", "", "Misfiled", &[]);
    case.ok(&[
        "retract", &misfiled, "--reason", "misfiled", "--actor", "kim",
    ]);
    let gone = case.deposit("jo", "jo.key", "Gone", &[]);
    let jo = ["--actor", "jo", "--sign-with", &case.key("jo.key")].map(str::to_string);
    case.ok(&[
        &["retract", gone.as_str(), "--reason", "superseded"][..],
        &to_str(&jo),
    ]
    .concat());
    let by_ann = case.deposit("ann", "ann.key", "By ann", &[]);
    case.ok(&[
        &["facts", "assert", "api", "status", "live"][..],
        &to_str(&jo),
    ]
    .concat());
    case.commit("work");
    // jo moves to a new key: the rotation record, signed with the old one.
    case.ok(&[
        &["keys", "rotate", "--new", &case.key("jo2.key")][..],
        &to_str(&jo),
    ]
    .concat());
    case.commit("jo rotates");
    let rotated = case.deposit("jo", "jo2.key", "After the rotation", &[]);
    case.commit("more work");
    Baseline {
        env,
        dir,
        first,
        second,
        reviewed,
        awaiting,
        by_eve,
        by_ann,
        rotated,
    }
}

fn to_str(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

impl Baseline {
    /// A copy of the repository for case `name`.
    pub fn copy(&self, name: &str) -> Case<'_> {
        let dir = self.dir.parent().unwrap().join(name);
        let ok = Command::new("cp")
            .arg("-a")
            .arg(&self.dir)
            .arg(&dir)
            .status()
            .unwrap();
        assert!(ok.success());
        Case {
            env: &self.env,
            dir,
        }
    }
}

impl Case<'_> {
    /// `relay ARGS` in this case's repository.
    pub fn run(&self, args: &[&str]) -> Run {
        let mut command = self.env.command(args);
        command.current_dir(&self.dir);
        run(command)
    }

    #[track_caller]
    pub fn ok(&self, args: &[&str]) -> String {
        let r = self.run(args);
        assert_eq!(r.code, 0, "relay {args:?}: {}{}", r.stdout, r.stderr);
        r.stdout
    }

    /// The path of a file of the repository, as text.
    pub fn key(&self, name: &str) -> String {
        self.dir.join(name).to_string_lossy().into_owned()
    }

    pub fn store(&self) -> PathBuf {
        self.dir.join(".relay")
    }

    /// Deposits as `actor`, signed with `key` (none when empty); the id.
    #[track_caller]
    pub fn deposit(&self, actor: &str, key: &str, title: &str, extra: &[&str]) -> String {
        let mut args = vec!["deposit", "--title", title, "--actor", actor, "--json"];
        let path = self.key(key);
        if !key.is_empty() {
            args.extend(["--sign-with", path.as_str()]);
        }
        args.extend_from_slice(extra);
        let v: Value = serde_json::from_str(&self.ok(&args)).unwrap();
        v["package"]["package_id"].as_str().unwrap().to_string()
    }

    pub fn commit(&self, message: &str) {
        git(&self.dir, &["add", "-A"]);
        git(&self.dir, &["commit", "-q", "-m", message]);
    }

    pub fn signatures_file(&self) -> PathBuf {
        self.store().join("projects/demo/signatures.ndjson")
    }

    /// Removes every signature line `keep` refuses.
    pub fn strip(&self, keep: impl Fn(&Value) -> bool) {
        let path = self.signatures_file();
        let kept: String = (read(&path).lines())
            .filter(|l| keep(&serde_json::from_str::<Value>(l).unwrap()["signature"]))
            .map(|l| format!("{l}\n"))
            .collect();
        std::fs::write(path, kept).unwrap();
    }

    /// Removes the signatures of record `id`.
    pub fn strip_id(&self, id: &str) {
        self.strip(|s| s["id"] != id);
    }

    /// Changes package `id`'s first version in its log with `change`; with `rehash`, the
    /// envelope's hash is made to match again. Returns the new hash.
    pub fn rewrite(&self, id: &str, rehash: bool, change: impl Fn(&mut Value)) -> String {
        let dir = self.store().join("projects/demo/packages");
        let mut hash = String::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let mut out = String::new();
            for line in read(&path).lines() {
                let mut env: Value = serde_json::from_str(line).unwrap();
                if env["package"]["package_id"] == id && env.get("version").is_none() {
                    change(&mut env["package"]);
                    let p = relay_wire::Package::from_value(env["package"].clone()).unwrap();
                    hash = p.content_hash();
                    if rehash {
                        env["hash"] = json!(hash);
                    }
                    out.push_str(&format!("{env}\n"));
                } else {
                    out.push_str(&format!("{line}\n"));
                }
            }
            std::fs::write(&path, out).unwrap();
        }
        assert!(!hash.is_empty(), "no package {id}");
        hash
    }

    /// Appends a signature line of `hash` (record `id`, as `actor`) made by `ssh-keygen -Y
    /// sign` with the key file `key`, as an attacker without relay would.
    pub fn sign_with_ssh_keygen(&self, key: &str, record: &str, id: &str, hash: &str, actor: &str) {
        let message = self.dir.join("message");
        std::fs::write(&message, hash).unwrap();
        let signed = Command::new("ssh-keygen")
            .args(["-q", "-Y", "sign", "-n", "relay", "-f"])
            .arg(self.key(key))
            .arg(&message)
            .output()
            .unwrap();
        assert!(signed.status.success(), "{signed:?}");
        let listed = Command::new("ssh-keygen")
            .arg("-lf")
            .arg(format!("{}.pub", self.key(key)))
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&listed.stdout).into_owned();
        let fingerprint = text.split_whitespace().nth(1).unwrap();
        let sshsig = read(&self.dir.join("message.sig"));
        let line = json!({"signature": {"record": record, "id": id, "hash": hash,
            "actor": actor, "key": fingerprint, "sshsig": sshsig}});
        let path = self.signatures_file();
        std::fs::write(&path, format!("{}{line}\n", read(&path))).unwrap();
    }

    /// Appends `line` to `.relay/allowed_signers`.
    pub fn allow(&self, line: &str) {
        let path = self.store().join("allowed_signers");
        std::fs::write(&path, format!("{}{line}\n", read(&path))).unwrap();
    }

    /// The public key of key file `name`, as its `.pub` holds it.
    pub fn public(&self, name: &str) -> String {
        read(Path::new(&format!("{}.pub", self.key(name))))
            .trim()
            .to_string()
    }

    /// Plain `relay verify --json`: its exit code and the kinds it reports.
    pub fn verify(&self) -> (i32, Vec<String>) {
        let r = self.run(&["verify", "--json"]);
        let kinds = (r.json_lines().iter())
            .map(|p| p["kind"].as_str().unwrap().to_string())
            .collect();
        (r.code, kinds)
    }

    /// The verdict on package `id` as each door answers it: (door, verdict).
    pub fn reads(&self, id: &str, retracted: bool, http: bool) -> Vec<(&'static str, Value)> {
        let mut pull = vec!["pull", id, "--json"];
        if retracted {
            pull.push("--include-retracted");
        }
        let r = self.run(&pull);
        let cli: Value = serde_json::from_str(r.stdout.trim()).unwrap_or(Value::Null);
        let mut out = vec![("cli", cli["x-signature"].clone())];
        let store = self.store().to_string_lossy().into_owned();
        let mcp_command = self.env.command(&["mcp", "--store", &store]);
        let arguments = json!({"mode": "specific", "id": id, "include_retracted": retracted});
        let replies = mcp::serve_with(mcp_command, &[mcp::call(1, "pull", arguments)]);
        let answer = &replies[0]["result"]["structuredContent"];
        out.push(("mcp", answer["x-signature"].clone()));
        if http && retracted {
            // Not found there (it is hidden), and the error says why that does not hold.
            let served = Served::start(self.env, &["--store", &store]);
            let (status, body) = curl(self.env, &[&served.at(&format!("/v1/packages/{id}"))]);
            let doubted = body["message"]
                .as_str()
                .is_some_and(|m| m.contains("that retraction does not hold"));
            let verdict = match (status, doubted) {
                (404, true) => out[0].1.clone(),
                _ => json!({"status": status, "body": body}),
            };
            out.push(("http", verdict));
        } else if http {
            let served = Served::start(self.env, &["--store", &store]);
            let url = served.at(&format!("/v1/packages/{id}"));
            let headers = self
                .env
                .program(
                    "curl",
                    &[
                        "-sS",
                        "--max-time",
                        "20",
                        "-D",
                        "-",
                        "-o",
                        "/dev/null",
                        &url,
                    ],
                )
                .output()
                .unwrap();
            let headers = String::from_utf8_lossy(&headers.stdout).into_owned();
            let verdict = (headers.lines())
                .find_map(|l| l.strip_prefix("x-relay-signature: "))
                .map_or(Value::Null, |v| serde_json::from_str(v.trim()).unwrap());
            out.push(("http", verdict));
        }
        out
    }
}

fn run(mut command: Command) -> Run {
    let o = command.output().expect("run relay");
    Run {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// What is wrong with `case` once tampered, against `expect` (empty when all holds).
pub fn judge(case: &Case, expect: &Expect) -> Vec<String> {
    let mut wrong = Vec::new();
    let (code, kinds) = case.verify();
    if code != 5 {
        wrong.push(format!("plain verify exits {code}, not 5 ({kinds:?})"));
    }
    for k in &expect.kinds {
        if !kinds.iter().any(|found| found == k) {
            wrong.push(format!(
                "plain verify does not report {k} (it reports {kinds:?})"
            ));
        }
    }
    for id in &expect.reads {
        let reads = case.reads(id, expect.retracted, expect.http);
        for (door, verdict) in &reads {
            let failing = match expect.retracted {
                true => &verdict["retraction"]["fails"],
                false => &verdict["fails"],
            };
            if failing != &json!(true) {
                wrong.push(format!(
                    "a read of {id} over {door} does not fail: {verdict}"
                ));
            }
        }
        if reads.windows(2).any(|w| w[0].1 != w[1].1) {
            wrong.push(format!("the doors' verdicts on {id} differ: {reads:?}"));
        }
    }
    wrong
}

/// No false alarm: the honest store is sound, and its reads say so.
#[test]
fn the_honest_signed_store_is_sound_and_its_reads_say_so() {
    if !tools() {
        return;
    }
    let base = baseline();
    let case = base.copy("honest");
    assert_eq!(case.ok(&["verify"]), "The store is sound.\n");
    assert_eq!(case.run(&["verify", "--signatures"]).code, 0);
    let good = case.reads(&base.first, false, true);
    for (door, verdict) in &good {
        assert_eq!(verdict["verdict"], "good", "{door}: {verdict}");
        assert_eq!(verdict["fails"], false, "{door}: {verdict}");
    }
    assert_eq!(
        case.reads(&base.rotated, false, false)[0].1["verdict"],
        "good"
    );
    assert_eq!(
        case.reads(&base.reviewed, false, false)[0].1["fails"],
        false
    );
    for (door, verdict) in case.reads(&base.by_eve, false, true) {
        assert_eq!(
            verdict,
            json!({"verdict": "unsigned", "fails": false}),
            "{door}"
        );
    }
    // The human card says who signed.
    assert!(
        case.ok(&["pull", &base.by_ann])
            .contains("  signed by ann (SHA256:")
    );
    let _ = (&base.second, &base.awaiting);
}

/// An actor who starts signing keeps the unsigned history before their key's line (relay
/// writes its valid-after), in a store without git too; a line written by hand without one,
/// where git cannot date it, asks for every record, and says how to date it.
#[test]
fn a_signer_keeps_the_unsigned_history_before_their_key() {
    let env = Env::new();
    // (An hour ago: valid-after is written to the second, and this must be before it.)
    let before = chrono::Utc::now() - chrono::TimeDelta::hours(1);
    env.deposit_from(
        &json!({"title": "Before jo signs", "created_at": before.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        "created_by": {"id": "jo", "type": "human"}}),
    );
    let key = env.path("jo.key");
    let key = key.to_str().unwrap();
    env.ok(&["keys", "generate", "--out", key, "--actor", "jo", "--add"]);
    env.deposit("Signed", &["--actor", "jo", "--sign-with", key]);
    env.deposit("By eve, who never signs", &["--actor", "eve"]);
    assert_eq!(env.ok(&["verify"]), "The store is sound.\n");
    let path = env.store().join("allowed_signers");
    let line = read(&path);
    let undated = format!("jo {}", line.split_once("Z\" ").unwrap().1);
    std::fs::write(&path, undated).unwrap();
    let r = env.run(&["verify", "--json"]);
    assert_eq!(r.code, 5);
    let problems = r.json_lines();
    assert_eq!(problems.len(), 1, "{problems:?}");
    let message = problems[0]["message"].as_str().unwrap();
    assert!(
        message.contains("with no valid-after and no git history to date it"),
        "{message}"
    );
}

/// `relay keys rotate` signs its record with the key this clone signs with, which must be
/// allowed for the actor; a new key made for a rotation that fails is not left behind.
#[test]
fn a_rotation_is_signed_by_an_allowed_key_or_not_made() {
    let env = Env::new();
    let (jo, mallory) = (env.path("jo.key"), env.path("mallory.key"));
    let (jo, mallory) = (jo.to_str().unwrap(), mallory.to_str().unwrap());
    env.ok(&["keys", "generate", "--out", jo, "--actor", "jo", "--add"]);
    env.ok(&["keys", "generate", "--out", mallory, "--actor", "jo"]);
    let new = env.path("new.key");
    let new = new.to_str().unwrap();
    let rotate = |sign_with: Option<&str>| {
        let mut args = vec!["keys", "rotate", "--new", new, "--actor", "jo", "--json"];
        if let Some(k) = sign_with {
            args.extend(["--sign-with", k]);
        }
        env.run(&args)
    };
    let unsigned = rotate(None);
    assert_eq!(unsigned.code, 4, "{}", unsigned.stderr);
    assert!(
        unsigned.stderr.contains("--sign-with"),
        "{}",
        unsigned.stderr
    );
    let foreign = rotate(Some(mallory));
    assert_eq!(foreign.code, 4, "{}", foreign.stderr);
    assert!(
        foreign.stderr.contains("may not sign as jo"),
        "{}",
        foreign.stderr
    );
    assert!(!env.path("new.key").exists() && !env.path("new.key.pub").exists());
    let done = rotate(Some(jo));
    assert_eq!(done.code, 0, "{}", done.stderr);
    let done = done.json();
    assert_eq!(
        (&done["actor"], &done["generated"]),
        (&json!("jo"), &json!(true))
    );
    let id = done["package_id"].as_str().unwrap();
    let record = env.ok_json(&["pull", id]);
    assert_eq!(record["package"]["package_type"], "x-key-rotation");
    assert_eq!(record["package"]["x-old-key"], done["old_key"]);
    assert_eq!(record["package"]["x-new-key"], done["new_key"]);
    assert_eq!(record["x-signature"]["key"], done["old_key"]);
    let allowed = read(&env.store().join("allowed_signers"));
    assert!(allowed.ends_with(&format!("{}\n", done["allowed_signers"].as_str().unwrap())));
    env.deposit("With the new key", &["--actor", "jo", "--sign-with", new]);
    assert_eq!(env.ok(&["verify"]), "The store is sound.\n");
    // The same key again is refused.
    let again = rotate(Some(new));
    assert_eq!(again.code, 4, "{}", again.stderr);
}
