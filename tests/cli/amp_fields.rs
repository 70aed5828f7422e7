//! Issue 59, "No field lost": an AMP record of each type with every member filled, one relay
//! has no field for among them, comes back member by member through MCP over stdio and HTTP,
//! by get, list and search (for a word only its `content` holds), and again from a fresh
//! store that imported the first one's `relay export`. relay's CLI has no AMP reads; which
//! package member holds which AMP member is `relay_wire::amp`'s (and docs/guide/amp.md's).
//! Records stored before read back with what they hold.

use serde_json::{Value, json};

use crate::amp_doors::Amp;
use crate::harness::Env;

/// One record of each type, every member AMP names given (`created_at` too), plus members
/// relay has no field for (`updated_at`, `metadata`, a snippet's `repo`, a state's
/// `next_step`); each `content` holds a word no other member holds.
fn records() -> [Value; 3] {
    [
        json!({
            "id": "lesson_59a", "type": "lesson", "title": "Pool database connections",
            "content": "Put pgbouncer in front of production databases, quokka or not.",
            "severity": "warning", "created_at": 1_767_225_600_123_u64, "agent": "radarr",
            "project": "web", "tags": ["db", "ops"], "updated_at": 1_767_225_700_000_u64,
            "metadata": {"source": "incident 12", "n": [1, 2]}
        }),
        json!({
            "id": "checkpoint_59b", "type": "checkpoint",
            "content": "Halfway through the refresh path; the wombat test still fails.",
            "working_on": "Debugging the auth flow", "created_at": 1_767_312_000_456_u64,
            "agent": "radarr", "project": "web", "tags": ["auth"], "session_id": "chat-59",
            "state": {"decisions": ["Use PKCE"], "blockers": ["No OAuth key"],
                "artifacts": ["src/auth.rs"], "flags": ["BLOCKED", "needs-review"],
                "next_step": "ask ops"},
            "metadata": {"ticket": "OPS-59"}
        }),
        json!({
            "id": "snippet_59c", "type": "snippet",
            "content": "fn refresh() {\n    axolotl::renew();\n}\n",
            "file_path": "src/auth.rs", "language": "rust", "start_line": 40, "end_line": 42,
            "title": "How tokens are refreshed", "created_at": 1_767_398_400_789_u64,
            "agent": "radarr", "project": "web", "tags": ["auth", "rust"],
            "repo": "github.com/acme/web", "metadata": {"reviewed": true}
        }),
    ]
}

/// The word of `record`'s content that no other member holds.
fn content_word(record: &Value) -> &'static str {
    match record["type"].as_str().unwrap() {
        "lesson" => "quokka",
        "checkpoint" => "wombat",
        _ => "axolotl",
    }
}

/// Each member `got` and `want` disagree on (one lacking it counts), as `what.member: got …,
/// want …`; an object both hold (a checkpoint's `state`) member by member.
fn differences(what: &str, got: &Value, want: &Value) -> Vec<String> {
    let (Some(g), Some(w)) = (got.as_object(), want.as_object()) else {
        return match got == want {
            true => Vec::new(),
            false => vec![format!("{what}: got {got}, want {want}")],
        };
    };
    let mut names: Vec<&String> = g.keys().chain(w.keys()).collect();
    names.sort();
    names.dedup();
    let shown = |v: Option<&Value>| v.map_or("nothing".to_string(), Value::to_string);
    let mut out = Vec::new();
    for name in names {
        let what = format!("{what}.{name}");
        match (g.get(name), w.get(name)) {
            (Some(a), Some(b)) if a.is_object() && b.is_object() => {
                out.extend(differences(&what, a, b));
            }
            (a, b) if a != b => out.push(format!("{what}: got {}, want {}", shown(a), shown(b))),
            _ => {}
        }
    }
    out
}

/// What every read of `amp`'s store (get, list, search) gives for each record, set against
/// the record as stored: the differences, each named after the door, `stage` and the read.
fn check(amp: &Amp, stage: &str) -> Vec<String> {
    let door = amp.name();
    let mut out = Vec::new();
    for want in records() {
        let kind = want["type"].as_str().unwrap();
        let id = &want["id"];
        let what = |read: &str| format!("{door}, {stage}, {read}: {kind}");
        out.extend(differences(&what("get"), &amp.get(id), &want));
        let listed = amp.call("list", json!({"type": kind, "limit": 1000}));
        match (listed["records"].as_array().unwrap().iter()).find(|r| &r["id"] == id) {
            Some(got) => out.extend(differences(&what("list"), got, &want)),
            None => out.push(format!("{}: not listed: {listed}", what("list"))),
        }
        let word = content_word(&want);
        let found = amp.call("search", json!({"query": word, "type": kind}));
        match (found["results"].as_array().unwrap().iter()).find(|r| &r["id"] == id) {
            Some(got) => out.extend(differences(&what("search"), &got["record"], &want)),
            None => out.push(format!(
                "{}: a search for `{word}`, only in its content, finds nothing: {found}",
                what("search")
            )),
        }
    }
    out
}

#[test]
fn every_member_of_every_record_type_comes_back_on_every_door_and_after_export_and_import() {
    let mut lost = Vec::new();
    for http in [false, true] {
        let amp = Amp::new(http);
        let door = amp.name();
        for record in records() {
            let stored = amp.call("store", json!({"record": record}));
            assert_eq!(
                stored,
                json!({"success": true, "id": record["id"], "created": true}),
                "{door}"
            );
        }
        lost.extend(check(&amp, "as stored"));
        assert_eq!(amp.env.run(&["verify"]).code, 0, "{door}");

        let backup = amp.env.path("backup");
        let backup = backup.to_str().unwrap();
        amp.env.ok(&["export", "--all-projects", "--out", backup]);
        let fresh = Env::empty();
        fresh.ok(&["init", "--project", "scratch"]);
        fresh.ok(&["import", backup]);
        let imported = Amp::on(fresh, http);
        lost.extend(check(&imported, "exported and imported"));
        assert_eq!(imported.env.run(&["verify"]).code, 0, "{door}");
    }
    assert!(
        lost.is_empty(),
        "members lost or changed:\n{}",
        lost.join("\n")
    );
}

/// Checkpoints and snippets stored before issue 59 (by `relay checkpoint`, or by an AMP store
/// of the time: `description` repeating what it is working on, no flag list, a snippet's
/// title as its `description`) read back with what they hold: what the checkpoint is working
/// on as its content too, its status as its flags, the snippet's title.
#[test]
fn records_stored_before_read_back_with_what_they_hold() {
    let amp = Amp::new(false);
    let cli = amp.env.ok_json(&[
        "checkpoint",
        "--working-on",
        "Porting the billing job",
        "--blocker",
        "no staging DB",
    ]);
    let old_checkpoint = amp.env.deposit_from(&json!({
        "package_type": "x-checkpoint", "title": "Checkpoint: Debugging the auth flow",
        "description": "Debugging the auth flow", "x-working-on": "Debugging the auth flow",
        "x-flag": "IN_PROGRESS", "x-blockers": [], "x-artifacts": [], "significance": 2,
        "x-amp-extra": {"session_id": "chat-7"}
    }));
    let old_snippet = amp.env.deposit_from(&json!({
        "package_type": "x-snippet", "title": "src/db.rs:3-4", "description": "Open the pool",
        "content_md": "let pool = Pool::new();\npool.warm();\n", "x-path": "src/db.rs",
        "x-start-line": 3, "x-end-line": 4, "x-language": "rust", "significance": 3
    }));
    let id = |v: &Value| v["package"]["package_id"].clone();

    let record = amp.get(&id(&cli));
    assert_eq!(record["content"], "Porting the billing job", "{record}");
    assert_eq!(record["working_on"], "Porting the billing job");
    assert_eq!(
        record["state"],
        json!({"decisions": [], "blockers": ["no staging DB"], "artifacts": [],
            "flags": ["BLOCKED"]})
    );
    let record = amp.get(&id(&old_checkpoint));
    assert_eq!(
        (
            &record["content"],
            &record["working_on"],
            &record["session_id"]
        ),
        (
            &json!("Debugging the auth flow"),
            &json!("Debugging the auth flow"),
            &json!("chat-7")
        ),
        "{record}"
    );
    assert_eq!(record["state"]["flags"], json!(["IN_PROGRESS"]));
    let record = amp.get(&id(&old_snippet));
    assert_eq!(
        (&record["title"], &record["content"], &record["file_path"]),
        (
            &json!("Open the pool"),
            &json!("let pool = Pool::new();\npool.warm();\n"),
            &json!("src/db.rs")
        ),
        "{record}"
    );
    assert_eq!(
        (&record["start_line"], &record["end_line"]),
        (&json!(3), &json!(4))
    );
}
