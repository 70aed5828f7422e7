//! Issue 38: the Agent Memory Protocol as its seed says, the same through MCP and HTTP. Each
//! case runs once per door on a fresh store: store upserts by id, `project` is honoured,
//! a checkpoint's `session_id` is free text, `file_path` is optional, `flags` is a list,
//! unknown members come back, reads without a project cover every project, and `min_score`
//! is on one 0–1 scale. [`Amp`] serves the other AMP tests too (`amp_fields`).

use serde_json::{Value, json};

use crate::harness::Env;
use crate::mcp::{call, ok, serve, tool_error};
use crate::serve::{Served, curl, logs, post_json};

/// The door a request goes through.
enum Door {
    Http(Served),
    Mcp,
}

/// One store, reached through one door.
pub struct Amp {
    pub env: Env,
    door: Door,
}

impl Amp {
    /// A fresh store with the projects `demo` (its default) and `web`.
    pub fn new(http: bool) -> Amp {
        let env = Env::new();
        env.ok(&["projects", "create", "web"]);
        Amp::on(env, http)
    }

    /// The store of `env`, through HTTP (`relay serve`) or MCP (`relay mcp` over stdio).
    pub fn on(env: Env, http: bool) -> Amp {
        let door = match http {
            true => Door::Http(Served::start(&env, &[])),
            false => Door::Mcp,
        };
        Amp { env, door }
    }

    pub fn name(&self) -> &'static str {
        match self.door {
            Door::Http(_) => "HTTP",
            Door::Mcp => "MCP",
        }
    }

    /// Runs operation `op` with `args` (as MCP takes them); `Ok` is the AMP answer, `Err` the
    /// error code and message.
    fn try_call(&self, op: &str, args: Value) -> Result<Value, (String, String)> {
        match &self.door {
            Door::Mcp => {
                let replies = serve(&self.env, &[call(1, &format!("amp_{op}"), args)]);
                match replies[0]["result"]["isError"].as_bool() {
                    Some(true) => Err(tool_error(&replies[0])),
                    _ => Ok(ok(&replies[0])),
                }
            }
            Door::Http(server) => {
                let mut args = args.as_object().cloned().unwrap_or_default();
                let (status, answer) = match op {
                    "store" => {
                        let path = match args.remove("project") {
                            Some(Value::String(p)) => format!("/amp/store?project={p}"),
                            _ => "/amp/store".into(),
                        };
                        post_json(&self.env, &server.at(&path), &Value::Object(args))
                    }
                    "search" => {
                        post_json(&self.env, &server.at("/amp/search"), &Value::Object(args))
                    }
                    "get" => {
                        let id = args["id"].as_str().unwrap().to_string();
                        curl(&self.env, &[&server.at(&format!("/amp/records/{id}"))])
                    }
                    "list" | "status" => {
                        let query: Vec<String> = (args.iter())
                            .map(|(k, v)| match v {
                                Value::String(s) => format!("{k}={s}"),
                                other => format!("{k}={other}"),
                            })
                            .collect();
                        let path = match op {
                            "list" => "/amp/records",
                            _ => "/amp/status",
                        };
                        curl(
                            &self.env,
                            &[&server.at(&format!("{path}?{}", query.join("&")))],
                        )
                    }
                    _ => unreachable!("{op}"),
                };
                match status {
                    200 | 201 => Ok(answer),
                    _ => Err((
                        answer["error"].as_str().unwrap_or_default().to_string(),
                        answer["message"].as_str().unwrap_or_default().to_string(),
                    )),
                }
            }
        }
    }

    pub fn call(&self, op: &str, args: Value) -> Value {
        let door = self.name();
        self.try_call(op, args.clone())
            .unwrap_or_else(|e| panic!("{door} amp_{op} {args}: {e:?}"))
    }

    pub fn get(&self, id: &Value) -> Value {
        self.call("get", json!({"id": id}))["record"].clone()
    }
}

fn each_door(check: impl Fn(&Amp)) {
    for http in [true, false] {
        check(&Amp::new(http));
    }
}

#[test]
fn store_under_a_stored_id_writes_a_new_version_and_the_same_content_writes_nothing() {
    each_door(|amp| {
        let door = amp.name();
        let lesson = |content: &str| {
            json!({"record": {"id": "pkg_amp_upsert_1", "type": "lesson",
                "title": "Pin images", "content": content, "project": "web"}})
        };
        let first = amp.call("store", lesson("Pin the base image by tag"));
        assert_eq!(
            first,
            json!({"success": true, "id": "pkg_amp_upsert_1", "created": true}),
            "{door}"
        );
        let before = logs(&amp.env);
        let again = amp.call("store", lesson("Pin the base image by tag"));
        assert_eq!(again["created"], false, "{door}: {again}");
        assert!(
            logs(&amp.env) == before,
            "{door}: the same content writes nothing"
        );
        // Another content, and no project named: the record stays in its project.
        let mut changed = lesson("Pin the base image by digest");
        changed["record"].as_object_mut().unwrap().remove("project");
        let updated = amp.call("store", changed);
        assert_eq!(
            updated,
            json!({"success": true, "id": "pkg_amp_upsert_1", "created": false}),
            "{door}"
        );
        let record = amp.get(&json!("pkg_amp_upsert_1"));
        assert_eq!(
            (&record["content"], &record["project"]),
            (&json!("Pin the base image by digest"), &json!("web")),
            "{door}"
        );
        // The CLI reads the newest; the history keeps both; the store verifies.
        let history = (amp.env)
            .run(&["pull", "pkg_amp_upsert_1", "--history", "--json"])
            .json_lines();
        assert_eq!(history.len(), 2, "{door}");
        assert_eq!(history[1]["transition"]["action"], "update", "{door}");
        let pulled = amp
            .env
            .run(&["pull", "pkg_amp_upsert_1", "--json"])
            .json_lines();
        assert_eq!(
            pulled[0]["package"]["description"],
            "Pin the base image by digest"
        );
        assert_eq!(amp.env.run(&["verify"]).code, 0, "{door}");
        // Another type, or another project, under that id is refused.
        let (code, _) = amp
            .try_call(
                "store",
                json!({"record": {"id": "pkg_amp_upsert_1", "type": "snippet",
                    "content": "x"}}),
            )
            .unwrap_err();
        assert_eq!(code, "invalid_input", "{door}");
        let (code, message) = amp
            .try_call("store", {
                let mut l = lesson("elsewhere");
                l["record"]["project"] = json!("demo");
                l
            })
            .unwrap_err();
        assert_eq!(code, "invalid_input", "{door}");
        assert!(
            message.contains("stored in project `web`"),
            "{door}: {message}"
        );
    });
}

#[test]
fn checkpoints_keep_free_session_ids_flag_lists_and_unknown_members() {
    each_door(|amp| {
        let door = amp.name();
        let stored = amp.call(
            "store",
            json!({"record": {"type": "checkpoint", "working_on": "auth flow",
                "session_id": "chat-2026-11-26", "metadata": {"ticket": "OPS-7"},
                "state": {"blockers": ["no key"], "flags": ["BLOCKED", "needs-review"],
                    "next_step": "ask ops"}}}),
        );
        assert_eq!(stored["created"], true, "{door}: {stored}");
        let record = amp.get(&stored["id"]);
        assert_eq!(record["session_id"], "chat-2026-11-26", "{door}");
        assert_eq!(record["metadata"], json!({"ticket": "OPS-7"}), "{door}");
        assert_eq!(
            record["state"],
            json!({"decisions": [], "blockers": ["no key"], "artifacts": [],
                "flags": ["BLOCKED", "needs-review"], "next_step": "ask ops"}),
            "{door}"
        );
        // A snippet of no file.
        let snippet = amp.call(
            "store",
            json!({"record": {"type": "snippet", "content": "SELECT 1;", "language": "sql"}}),
        );
        let record = amp.get(&snippet["id"]);
        assert_eq!(record["content"], "SELECT 1;", "{door}");
        assert!(record.get("file_path").is_none(), "{door}: {record}");
        // The list returns unknown members too; the store verifies.
        let listed = amp.call("list", json!({"type": "checkpoint"}));
        assert_eq!(
            listed["records"][0]["metadata"]["ticket"], "OPS-7",
            "{door}"
        );
        assert_eq!(amp.env.run(&["verify"]).code, 0, "{door}");
    });
}

#[test]
fn reads_without_a_project_cover_every_project_and_a_named_one_only_itself() {
    each_door(|amp| {
        let door = amp.name();
        for (project, title) in [("web", "Cache busting"), ("demo", "Cache warming")] {
            let stored = amp.call(
                "store",
                json!({"project": project, "record": {"type": "lesson", "title": title,
                    "content": "cache notes"}}),
            );
            assert_eq!(amp.get(&stored["id"])["project"], project, "{door}");
        }
        let all = amp.call("search", json!({"query": "cache"}));
        assert_eq!(all["total"], 2, "{door}: {all}");
        let web = amp.call("search", json!({"query": "cache", "project": "web"}));
        assert_eq!(web["total"], 1, "{door}: {web}");
        assert_eq!(amp.call("list", json!({}))["total"], 2, "{door}");
        assert_eq!(
            amp.call("list", json!({"project": "web"}))["total"],
            1,
            "{door}"
        );
        assert_eq!(
            amp.call("status", json!({}))["stats"]["lessons"],
            2,
            "{door}"
        );
        let demo = amp.call("status", json!({"project": "demo"}));
        assert_eq!(demo["stats"]["lessons"], 1, "{door}");
    });
}

#[test]
fn min_score_is_the_share_of_the_query_words_in_keyword_search() {
    each_door(|amp| {
        let door = amp.name();
        amp.call(
            "store",
            json!({"record": {"type": "lesson", "title": "Rotate tokens",
                "content": "Rotate tokens quarterly"}}),
        );
        let found = amp.call("search", json!({"query": "rotate tokens zebra walrus"}));
        assert_eq!(found["mode"], "keyword", "{door}");
        assert_eq!(found["results"][0]["score"], 0.5, "{door}: {found}");
        let kept = amp.call(
            "search",
            json!({"query": "rotate tokens zebra walrus", "min_score": 0.5}),
        );
        assert_eq!(kept["total"], 1, "{door}");
        let dropped = amp.call(
            "search",
            json!({"query": "rotate tokens zebra walrus", "min_score": 0.6}),
        );
        assert_eq!(dropped["total"], 0, "{door}");
        let full = amp.call("search", json!({"query": "rotate tokens"}));
        assert_eq!(full["results"][0]["score"], 1.0, "{door}");
        let (code, _) = amp
            .try_call("search", json!({"query": "rotate", "min_score": 2}))
            .unwrap_err();
        assert_eq!(code, "invalid_input", "{door}");
    });
}

/// Over HTTP, "every project the caller may read" is a token's projects.
#[test]
fn http_reads_without_a_project_cover_the_projects_of_the_callers_token() {
    let amp = Amp::new(true);
    for (project, title) in [("web", "Cache busting"), ("demo", "Cache warming")] {
        amp.call(
            "store",
            json!({"project": project, "record": {"type": "lesson", "title": title,
                "content": "cache notes"}}),
        );
    }
    let made = (amp.env).ok_json(&[
        "token",
        "create",
        "--actor",
        "bot",
        "--scope",
        "web",
        "--read-only",
    ]);
    let auth = format!("Authorization: Bearer {}", made["token"].as_str().unwrap());
    let Door::Http(server) = &amp.door else {
        unreachable!()
    };
    let get = |path: &str| curl(&amp.env, &["-H", &auth, &server.at(path)]);
    let (status, listed) = get("/amp/records");
    assert_eq!((status, &listed["total"]), (200, &json!(1)), "{listed}");
    assert_eq!(listed["records"][0]["project"], "web");
    let (_, stats) = get("/amp/status");
    assert_eq!(stats["stats"]["lessons"], 1, "{stats}");
    let (_, found) = curl(
        &amp.env,
        &[
            "-X",
            "POST",
            "-H",
            &auth,
            "-H",
            "Content-Type: application/json",
            "-d",
            r#"{"query": "cache"}"#,
            &server.at("/amp/search"),
        ],
    );
    assert_eq!(found["total"], 1, "{found}");
    let (status, refused) = get("/amp/records?project=demo");
    assert_eq!(status, 403, "{refused}");
}
