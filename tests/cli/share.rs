//! `relay export --share NAME`: what a profile lets leave the store, the manifest's counts, the
//! derived hashes, a round trip through import and verify, and bad profiles.

use serde_json::{Value, json};

use crate::harness::{Env, read, snapshot};

const PROFILE: &str = r#"
[share.public]
tags = ["public"]
drop_fields = ["content_md", "deliverables.path", "created_by.git_commit"]
redact = ['[a-z0-9-]+\.corp\.example']
"#;

fn add_profile(env: &Env, text: &str) {
    let config = env.store().join("config.toml");
    std::fs::write(&config, read(&config) + text).unwrap();
}

fn lines(path: &std::path::Path) -> Vec<Value> {
    (read(path).lines())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The package of an exported line: the line itself, or the package of a derived envelope.
fn package(line: &Value) -> &Value {
    line.get("package").unwrap_or(line)
}

/// The current version of a package as the store keeps it: `{"package", "hash", …}`.
fn pulled(env: &Env, id: &str) -> Value {
    let r = env.run(&["pull", id, "--history", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    r.json_lines().pop().unwrap()
}

#[test]
fn a_profile_shares_what_it_allows_and_the_copy_imports_and_verifies() {
    let env = Env::new();
    std::fs::write(env.path("notes.md"), "# plan\nthe internal plan\n").unwrap();
    let tagged = ["--tag", "public"];
    let plain = env.deposit("Plain", &tagged);
    let rich = env.deposit(
        "Rich",
        &[
            "--tag",
            "public",
            "--content-md",
            "notes.md",
            "--deliverable",
            "notes.md",
            "--handoff",
            "deployed on build-7.corp.example",
        ],
    );
    let draft = env.deposit("Draft", &["--tag", "public", "--status", "draft"]);
    let never = env.deposit("Never", &["--tag", "public", "--tag", "never_share"]);
    let untagged = env.deposit("Untagged", &[]);
    env.ok(&["facts", "assert", "ci", "host", "runner.corp.example"]);
    env.ok(&["facts", "assert", "db", "engine", "pg", "--source", &draft]);
    env.ok(&["facts", "assert", "db", "size", "1GB", "--source", &plain]);
    add_profile(&env, PROFILE);

    let out = env.path("share");
    let v = env.ok_json(&[
        "export",
        "--share",
        "public",
        "--out",
        out.to_str().unwrap(),
    ]);
    let share = json!({
        "profile": "public",
        "withheld": {"projects": 0, "packages": 3, "facts": 1, "sessions": 0},
        "derived": {"projects": 0, "packages": 1, "facts": 1, "sessions": 0},
    });
    assert_eq!(v["share"], share);
    assert_eq!(
        v["counts"],
        json!({"projects": 1, "packages": 2, "facts": 2, "sessions": 0})
    );
    let manifest: Value = serde_json::from_str(&read(&out.join("manifest.json"))).unwrap();
    assert_eq!(manifest["share"], share, "counts only, never which ids");
    assert_eq!(manifest["projects"], json!(["demo"]));
    assert_eq!(manifest["counts"], v["counts"]);

    let packages = lines(&out.join("packages.ndjson"));
    let ids: Vec<&str> = (packages.iter())
        .map(|l| package(l)["package_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [plain.as_str(), rich.as_str()]);
    let text = read(&out.join("packages.ndjson")) + &read(&out.join("facts.ndjson"));
    for absent in [&draft, &never, &untagged] {
        assert!(!text.contains(absent.as_str()), "{absent} left the store");
    }
    assert!(!text.contains("corp.example") && !text.contains("internal plan"));
    // Unchanged: the bare package, with the hash the store keeps.
    assert_eq!(packages[0], pulled(&env, &plain)["package"]);
    // Changed: dropped members gone, text redacted, a new hash and the original one.
    let derived = &packages[1];
    let p = &derived["package"];
    assert!(p.get("content_md").is_none());
    assert!(p["created_by"].get("git_commit").is_none());
    assert_eq!(p["deliverables"][0]["path"], "<REDACTED:share>");
    assert_eq!(p["deliverables"][0]["type"], "md");
    assert_eq!(p["handoff_note"], "deployed on <REDACTED:share>");
    let original = pulled(&env, &rich)["hash"].clone();
    assert_eq!(derived["derived_from"], original);
    assert_ne!(derived["hash"], original);
    let facts = lines(&out.join("facts.ndjson"));
    let values: Vec<&str> = facts.iter().map(|f| f["value"].as_str().unwrap()).collect();
    assert_eq!(
        values,
        ["<REDACTED:share>", "1GB"],
        "a fact from a withheld draft stays"
    );

    let dst = Env::empty();
    dst.ok(&["init", "--project", "scratch"]);
    let summary = dst.ok_json(&["import", out.to_str().unwrap()]);
    assert_eq!(
        summary["added"],
        json!({"projects": 1, "packages": 2, "facts": 2})
    );
    let verified = dst.run(&["verify"]);
    assert_eq!(verified.code, 0, "{}{}", verified.stdout, verified.stderr);
    assert_eq!(pulled(&dst, &plain)["hash"], pulled(&env, &plain)["hash"]);
    assert_eq!(pulled(&dst, &rich)["hash"], derived["hash"]);
}

#[test]
fn drafts_need_the_profile_to_name_them_and_never_share_still_wins() {
    let env = Env::new();
    env.deposit("Draft", &["--status", "draft"]);
    env.deposit("Never", &["--status", "draft", "--tag", "never_share"]);
    env.deposit("Done", &[]);
    env.ok(&["projects", "create", "web"]);
    env.deposit("Site", &["--project", "web"]);
    add_profile(
        &env,
        "[share.team]\nstatuses = [\"draft\", \"complete\"]\nprojects = [\"demo\"]\n[share.all]\n",
    );
    let titles = |r: &crate::harness::Run| -> Vec<String> {
        (r.json_lines().iter())
            .filter_map(|l| package(l).get("title").and_then(Value::as_str))
            .map(str::to_string)
            .collect()
    };
    let team = env.run(&["export", "--all-projects", "--share", "team", "--out", "-"]);
    assert_eq!(team.code, 0, "{}", team.stderr);
    assert_eq!(titles(&team), ["Draft", "Done"]);
    assert_eq!(
        team.stderr.trim(),
        "Share profile team withheld 1 project, 2 packages; derived nothing"
    );
    let all = env.run(&["export", "--all-projects", "--share", "all", "--out", "-"]);
    assert_eq!(titles(&all), ["Done", "Site"], "no drafts by default");
}

#[test]
fn unknown_and_malformed_profiles_are_refused_with_their_exit_codes() {
    let env = Env::new();
    env.deposit("Done", &[]);
    let out = env.path("share");
    let export = |name: &str| {
        env.run(&[
            "export",
            "--share",
            name,
            "--out",
            out.to_str().unwrap(),
            "--json",
        ])
    };
    let none = export("public");
    assert_eq!(none.code, 4, "{}", none.stderr);
    assert_eq!(none.error()["error"], "invalid_input");
    // "it has none"
    let mut refusals = vec![none.transcript()];
    add_profile(
        &env,
        "[share.public]\ndrop_feilds = [\"content_md\"]\n\
         [share.team]\nstatuses = [\"drafts\"]\n[share.ok]\n",
    );
    let unknown = export("nope");
    assert_eq!(unknown.code, 4);
    let message = unknown.error()["message"].as_str().unwrap().to_string();
    assert!(
        message.ends_with("its profiles: ok, public, team"),
        "{message}"
    );
    refusals.push(unknown.transcript());
    // Each names the profile and what is wrong in it: "[share.public]: unknown key
    // `drop_feilds`", "[share.team]: `statuses`: unknown status `drafts`".
    for name in ["public", "team"] {
        let r = export(name);
        assert_eq!(r.code, 5, "{}", r.stderr);
        assert_eq!(r.error()["error"], "integrity_error");
        refusals.push(r.transcript());
    }
    snapshot!("refused_profiles", refusals.join("\n"));
    assert!(!out.exists(), "a refused profile writes nothing");
    // A broken profile fails its own export, not the store.
    env.ok(&["pull", "--json"]);
    env.ok(&["export", "--share", "ok", "--out", out.to_str().unwrap()]);
}
