//! The three doors of the transport-equivalence test (`equivalence`): every operation more
//! than one door offers, how each door is asked for it (CLI `--json` arguments, `relay
//! mcp`'s `tools/call`, a `relay serve` request), and its answer as an [`Answer`] with the
//! door's envelope taken off.

use serde_json::{Value, json};

use crate::harness::{Env, Run};
use crate::mcp;
use crate::serve::{Served, curl};

/// Every operation more than one door offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Op {
    Conformance,
    Status,
    Deposit,
    PullLatest,
    PullOne,
    PullRelevant,
    Search,
    Orient,
    Orchestrate,
    Retract,
    FactsAssert,
    FactsGet,
    FactsList,
    FactsHistory,
    FactsInvalidate,
    SessionStart,
    SessionList,
    SessionEnd,
    ReviewFlag,
    ReviewApprove,
    ReviewRequestChanges,
    ReviewList,
    ProjectsList,
    ProjectsCreate,
    ProjectsArchive,
    AmpStore,
    AmpSearch,
    AmpList,
    AmpGet,
    AmpDelete,
    AmpStatus,
}

pub const OPS: &[Op] = &[
    Op::Conformance,
    Op::Status,
    Op::Deposit,
    Op::PullLatest,
    Op::PullOne,
    Op::PullRelevant,
    Op::Search,
    Op::Orient,
    Op::Orchestrate,
    Op::Retract,
    Op::FactsAssert,
    Op::FactsGet,
    Op::FactsList,
    Op::FactsHistory,
    Op::FactsInvalidate,
    Op::SessionStart,
    Op::SessionList,
    Op::SessionEnd,
    Op::ReviewFlag,
    Op::ReviewApprove,
    Op::ReviewRequestChanges,
    Op::ReviewList,
    Op::ProjectsList,
    Op::ProjectsCreate,
    Op::ProjectsArchive,
    Op::AmpStore,
    Op::AmpSearch,
    Op::AmpList,
    Op::AmpGet,
    Op::AmpDelete,
    Op::AmpStatus,
];

impl Op {
    /// Whether the operation writes (and so runs on three copies of the store).
    pub fn writes(self) -> bool {
        use Op::*;
        matches!(
            self,
            Deposit
                | Retract
                | FactsAssert
                | FactsInvalidate
                | SessionStart
                | SessionEnd
                | ReviewFlag
                | ReviewApprove
                | ReviewRequestChanges
                | ProjectsCreate
                | ProjectsArchive
                | AmpStore
                | AmpDelete
        )
    }

    /// The MCP tool that offers it, if any.
    pub fn mcp_tool(self) -> Option<&'static str> {
        use Op::*;
        Some(match self {
            Conformance => "conformance",
            Status => "status",
            Deposit => "deposit",
            PullLatest | PullOne | PullRelevant | Search => "pull",
            Orient => "orient",
            Orchestrate => "orchestrate",
            Retract => "retract",
            FactsAssert => "facts_assert",
            FactsGet => "facts_get",
            FactsList => "facts_list",
            FactsInvalidate => "facts_invalidate",
            SessionStart => "session_start",
            SessionEnd => "session_end",
            ReviewFlag => "review_flag",
            ReviewApprove => "review_approve",
            ReviewRequestChanges => "review_request_changes",
            ReviewList => "review_list",
            AmpStore => "amp_store",
            AmpSearch => "amp_search",
            AmpList => "amp_list",
            AmpGet => "amp_get",
            AmpDelete => "amp_delete",
            AmpStatus => "amp_status",
            FactsHistory | SessionList | ProjectsList | ProjectsCreate | ProjectsArchive => {
                return None;
            }
        })
    }

    /// The HTTP route (method, path as the route table writes it) that offers it, if any.
    pub fn http_route(self) -> Option<(&'static str, &'static str)> {
        use Op::*;
        Some(match self {
            Conformance => ("GET", "/v1/conformance"),
            Deposit => ("POST", "/v1/projects/{project_id}/packages"),
            PullLatest | PullRelevant | Search => ("GET", "/v1/projects/{project_id}/packages"),
            PullOne => ("GET", "/v1/packages/{package_id}"),
            Orient => ("GET", "/v1/projects/{project_id}/orient"),
            Orchestrate => ("GET", "/v1/orchestrate"),
            FactsAssert => ("POST", "/v1/projects/{project_id}/facts"),
            FactsList => ("GET", "/v1/projects/{project_id}/facts"),
            FactsInvalidate => ("DELETE", "/v1/projects/{project_id}/facts"),
            FactsHistory => ("GET", "/v1/projects/{project_id}/facts/history"),
            SessionStart => ("POST", "/v1/projects/{project_id}/sessions"),
            SessionList => ("GET", "/v1/projects/{project_id}/sessions"),
            SessionEnd => ("POST", "/v1/sessions/{session_id}/end"),
            ReviewFlag => ("POST", "/v1/packages/{package_id}/flag"),
            ReviewApprove => ("POST", "/v1/packages/{package_id}/approve"),
            ReviewRequestChanges => ("POST", "/v1/packages/{package_id}/request-changes"),
            ReviewList => ("GET", "/v1/projects/{project_id}/reviews"),
            ProjectsList => ("GET", "/v1/projects"),
            ProjectsCreate => ("POST", "/v1/projects"),
            ProjectsArchive => ("POST", "/v1/projects/{project_id}/archive"),
            AmpStore => ("POST", "/amp/store"),
            AmpSearch => ("POST", "/amp/search"),
            AmpList => ("GET", "/amp/records"),
            AmpGet => ("GET", "/amp/records/{id}"),
            AmpDelete => ("DELETE", "/amp/records/{id}"),
            AmpStatus => ("GET", "/amp/status"),
            Status | Retract | FactsGet => return None,
        })
    }

    /// Whether the CLI offers it (the AMP operations are MCP's and HTTP's only).
    pub fn on_cli(self) -> bool {
        use Op::*;
        !matches!(
            self,
            AmpStore | AmpSearch | AmpList | AmpGet | AmpDelete | AmpStatus
        )
    }

    /// Whether the CLI prints it as NDJSON, one line per item.
    pub fn cli_listing(self) -> bool {
        use Op::*;
        matches!(
            self,
            PullLatest
                | PullRelevant
                | Search
                | FactsList
                | FactsHistory
                | SessionList
                | ReviewList
                | ProjectsList
        )
    }
}

/// The CLI's arguments (and stdin) for `request`, or `None` where the CLI lacks the op.
pub fn cli_call(op: Op, r: &Value) -> Option<(Vec<String>, Option<String>)> {
    use Op::*;
    if !op.on_cli() {
        return None;
    }
    let s = |key: &str| r[key].as_str().map(str::to_string);
    let mut args: Vec<String>;
    // `--name VALUE` for each value of `key` (a list repeats it); `--name` alone for true.
    let flag = |args: &mut Vec<String>, name: &str, key: &str| {
        let values = match &r[key] {
            Value::Null | Value::Bool(false) => vec![],
            Value::Bool(true) => return args.push(name.to_string()),
            Value::Array(items) => items.clone(),
            v => vec![v.clone()],
        };
        for v in values {
            // A value that starts with `-` is attached, as a user types `--limit=-1`.
            match scalar_text(&v) {
                text if text.starts_with('-') => args.push(format!("{name}={text}")),
                text => args.extend([name.to_string(), text]),
            }
        }
    };
    let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let mut stdin = None;
    match op {
        Conformance => args = words(&["conformance"]),
        Status => args = words(&["status"]),
        Deposit => {
            args = words(&["deposit", "--from", "-"]);
            // The project selected is `--project` (below), not a member of the package.
            let mut package = r.clone();
            package.as_object_mut().unwrap().remove("project");
            stdin = Some(raw_text(&package));
        }
        PullLatest => {
            args = words(&["pull", "--latest"]);
            flag(&mut args, "--limit", "limit");
            flag(&mut args, "--status", "status");
            flag(&mut args, "--type", "types");
            flag(&mut args, "--tag", "tags");
            flag(&mut args, "--since", "since");
            flag(&mut args, "--as-of", "as_of");
        }
        PullOne => args = vec!["pull".into(), s("id")?],
        PullRelevant => {
            args = words(&["pull", "--relevant"]);
            args.extend(s("query"));
            flag(&mut args, "--limit", "limit");
            flag(&mut args, "--search", "search");
        }
        Search => {
            args = words(&["search"]);
            args.extend(s("query"));
            flag(&mut args, "--limit", "limit");
            flag(&mut args, "--search", "search");
        }
        Orient => {
            args = words(&["orient"]);
            flag(&mut args, "--window-days", "window_days");
            flag(&mut args, "--limit", "limit");
            flag(&mut args, "--max-chars", "max_chars");
            flag(&mut args, "--max-tokens", "max_tokens");
            flag(&mut args, "--as-of", "as_of");
        }
        Orchestrate => {
            args = words(&["orchestrate"]);
            flag(&mut args, "--project", "project");
            flag(&mut args, "--focus", "focus");
            flag(&mut args, "--snippets", "snippets");
            flag(&mut args, "--mode", "search");
            flag(&mut args, "--all-projects", "all_projects");
            flag(&mut args, "--as-of", "as_of");
        }
        Retract => {
            args = vec!["retract".into(), s("id")?];
            flag(&mut args, "--reason", "reason");
        }
        FactsAssert => {
            args = words(&["facts", "assert"]);
            for key in ["subject", "predicate", "value"] {
                match &r[key] {
                    Value::Null => {}
                    v => args.push(scalar_text(v)),
                }
            }
            flag(&mut args, "--tag", "tags");
            flag(&mut args, "--confidence", "confidence");
            for (key, v) in r.as_object()?.iter().filter(|(k, _)| k.starts_with("x-")) {
                args.extend(["--field".into(), format!("{key}={v}")]);
            }
        }
        FactsGet | FactsHistory | FactsInvalidate => {
            let verb = match op {
                FactsGet => "get",
                FactsHistory => "history",
                _ => "invalidate",
            };
            args = vec!["facts".into(), verb.into(), s("subject")?, s("predicate")?];
            // invalidate's §8.7 `object` (or `value`) is the CLI's VALUE argument.
            args.extend(s("object").or_else(|| s("value")));
        }
        FactsList => {
            args = words(&["facts", "list"]);
            flag(&mut args, "--subject", "subject");
            flag(&mut args, "--predicate", "predicate");
            flag(&mut args, "--tag", "tag");
            flag(&mut args, "--include-ended", "include_ended");
            flag(&mut args, "--as-of", "as_of");
        }
        SessionStart => {
            args = words(&["session", "start"]);
            flag(&mut args, "--callsign", "callsign");
        }
        SessionList => {
            args = words(&["session", "list"]);
            flag(&mut args, "--active", "active");
            flag(&mut args, "--as-of", "as_of");
        }
        SessionEnd => args = vec!["session".into(), "end".into(), s("session")?],
        ReviewFlag | ReviewApprove | ReviewRequestChanges => {
            let verb = match op {
                ReviewFlag => "flag",
                ReviewApprove => "approve",
                _ => "request-changes",
            };
            args = vec!["review".into(), verb.into(), s("package_id")?];
            if let Some(t) = s("review_type") {
                args.push(format!("--{t}"));
            }
            flag(&mut args, "--note", "note");
        }
        ReviewList => {
            args = words(&["review", "list"]);
            flag(&mut args, "--review-type", "review_type");
        }
        ProjectsList => args = words(&["projects", "list"]),
        ProjectsCreate => {
            args = vec!["projects".into(), "create".into(), s("project_id")?];
            flag(&mut args, "--name", "name");
        }
        ProjectsArchive => args = vec!["projects".into(), "archive".into(), s("project_id")?],
        AmpStore | AmpSearch | AmpList | AmpGet | AmpDelete | AmpStatus => return None,
    }
    // The project a request selects is the CLI's `--project` (orchestrate maps it above).
    if let Some(project) = r["project"].as_str()
        && op != Orchestrate
    {
        args.extend(["--project".to_string(), project.to_string()]);
    }
    Some((args, stdin))
}

/// The MCP tool's arguments for `request`.
pub fn mcp_arguments(op: Op, r: &Value) -> Value {
    let mut args = r.clone();
    // The package's own project_id, and a member relay does not know (kept, as every
    // door keeps it), are members of the package, not named arguments.
    if op == Op::Deposit {
        let map = args.as_object_mut().unwrap();
        let package: serde_json::Map<String, Value> = ["project_id", "bogus"]
            .into_iter()
            .filter_map(|k| Some((k.to_string(), map.remove(k)?)))
            .collect();
        if !package.is_empty() {
            args["package"] = Value::Object(package);
        }
    }
    let mode = match op {
        Op::PullLatest => "latest",
        Op::PullOne => "specific",
        Op::PullRelevant | Op::Search => "relevant",
        _ => return args,
    };
    args["mode"] = json!(mode);
    args
}

/// The wire package an HTTP client sends for the deposit `r` into `project` (its path): HTTP
/// takes a package whole (§8.1), so the client fills in, as the CLI and MCP's named arguments
/// have relay fill in, each required member but the title that `r` leaves out (the test's
/// local user and tokens write as `tester`, a human). A member `r` gives, even a bad one, is
/// sent as given.
fn whole(r: &Value, project: &str) -> Value {
    let Some(given) = r.as_object() else {
        return r.clone();
    };
    let project = project.rsplit('/').next().unwrap_or("demo");
    let mut p = crate::serve::whole_package(project, crate::serve::tester(), json!({}));
    let map = p.as_object_mut().unwrap();
    // The title is the caller's to give: a request without one stays without one.
    map.remove("title");
    map.extend(given.clone());
    p
}

/// The HTTP request for `request` in project `demo`.
pub fn http_call(op: Op, r: &Value) -> Option<HttpCall> {
    use Op::*;
    let (method, _) = op.http_route()?;
    let s = |key: &str| r[key].as_str().unwrap_or_default().to_string();
    // The project a request selects is the path's; the body does not repeat it.
    let project = &format!("/v1/projects/{}", r["project"].as_str().unwrap_or("demo"));
    let mut r = r.clone();
    if op != Orchestrate
        && let Some(map) = r.as_object_mut()
    {
        map.remove("project");
    }
    let r = &r;
    let (path, body) = match op {
        Conformance => ("/v1/conformance".to_string(), None),
        Deposit => (format!("{project}/packages"), Some(whole(r, project))),
        PullLatest => {
            let mut q = r.clone();
            q["mode"] = json!("latest");
            // A list is its key repeated: `?type=a&type=b`.
            if let Some(tags) = r.get("tags") {
                q["tag"] = tags.clone();
            }
            if let Some(types) = r.get("types") {
                q["type"] = types.clone();
            }
            let keys = ["mode", "limit", "status", "type", "tag", "since", "as_of"];
            (format!("{project}/packages{}", query_of(&q, &keys)), None)
        }
        PullRelevant | Search => {
            let mut q = r.clone();
            q["mode"] = json!("relevant");
            let keys = ["mode", "query", "limit", "search"];
            (format!("{project}/packages{}", query_of(&q, &keys)), None)
        }
        PullOne => (format!("/v1/packages/{}", s("id")), None),
        Orient => {
            let keys = ["window_days", "limit", "max_chars", "max_tokens", "as_of"];
            (format!("{project}/orient{}", query_of(r, &keys)), None)
        }
        Orchestrate => {
            let keys = ["project", "focus", "snippets", "search", "as_of"];
            (format!("/v1/orchestrate{}", query_of(r, &keys)), None)
        }
        FactsAssert => (format!("{project}/facts"), Some(r.clone())),
        FactsList => {
            let keys = ["subject", "predicate", "tag", "include_ended", "as_of"];
            (format!("{project}/facts{}", query_of(r, &keys)), None)
        }
        FactsHistory | FactsInvalidate => {
            let tail = if op == FactsHistory { "/history" } else { "" };
            let keys = ["subject", "predicate", "object", "value"];
            (format!("{project}/facts{tail}{}", query_of(r, &keys)), None)
        }
        SessionStart => (format!("{project}/sessions"), Some(r.clone())),
        SessionList => (
            format!("{project}/sessions{}", query_of(r, &["active", "as_of"])),
            None,
        ),
        SessionEnd => (format!("/v1/sessions/{}/end", s("session")), None),
        ReviewFlag | ReviewApprove | ReviewRequestChanges => {
            let verb = match op {
                ReviewFlag => "flag",
                ReviewApprove => "approve",
                _ => "request-changes",
            };
            let mut body = r.clone();
            body.as_object_mut().unwrap().remove("package_id");
            let path = format!("/v1/packages/{}/{verb}", s("package_id"));
            (path, Some(body))
        }
        ReviewList => (
            format!("{project}/reviews{}", query_of(r, &["review_type"])),
            None,
        ),
        ProjectsList => ("/v1/projects".to_string(), None),
        ProjectsCreate => ("/v1/projects".to_string(), Some(r.clone())),
        ProjectsArchive => (format!("/v1/projects/{}/archive", s("project_id")), None),
        AmpStore | AmpSearch => {
            let verb = if op == AmpStore { "store" } else { "search" };
            (format!("/amp/{verb}"), Some(r.clone()))
        }
        AmpList => {
            let keys = ["type", "agent", "limit", "offset"];
            (format!("/amp/records{}", query_of(r, &keys)), None)
        }
        AmpGet => (format!("/amp/records/{}", s("id")), None),
        AmpDelete => {
            let path = format!("/amp/records/{}{}", s("id"), query_of(r, &["reason"]));
            (path, None)
        }
        AmpStatus => ("/amp/status".to_string(), None),
        Status | Retract | FactsGet => return None,
    };
    let body = body.map(|b| raw_text(&b));
    // A member no route knows goes where the others go: into the body, else the query.
    let mut path = path;
    if body.is_none() && r.get("bogus").is_some() {
        let sep = if path.contains('?') { '&' } else { '?' };
        path = format!("{path}{sep}bogus={}", scalar_text(&r["bogus"]));
    }
    Some(HttpCall { method, path, body })
}

/// The answer with the door's own envelope taken off, in the shape the three share: the
/// CLI prints a listing as NDJSON, one item a line (a package under `package`, beside its
/// `x-stale` warnings), where MCP and HTTP answer one object holding the list; a review
/// action's package comes in `{package, hash, version, transition}` from the CLI and MCP, bare from
/// HTTP (as §8.5 returns it).
pub fn shape(op: Op, door: &str, answer: Answer) -> Answer {
    use Op::*;
    let Answer::Ok(v) = answer else {
        return answer;
    };
    // A review action answers the updated package (§8.5); the CLI and MCP wrap it with its
    // hash, version and transition, their envelope.
    if matches!(op, ReviewFlag | ReviewApprove | ReviewRequestChanges) && door != "http" {
        return Answer::Ok(review_envelope(v));
    }
    // HTTP's relevant pull answers wire packages, as latest does, with how each ranked
    // beside them in `x-ranking`: put each ranking back around its package.
    if matches!(op, PullRelevant | Search) && door == "http" {
        return Answer::Ok(json!({ "packages": ranked_entries(v) }));
    }
    // One package's answer carries the verdict on its signature: beside the package from
    // the CLI, among its members from MCP, in a header from HTTP (tamper.rs compares them).
    let mut v = v;
    if op == PullOne
        && door != "http"
        && let Some(map) = v.as_object_mut()
    {
        map.remove("x-signature");
    }
    if door != "cli" {
        return Answer::Ok(v);
    }
    let lines = |v: Value| -> Vec<Value> {
        match v {
            Value::Array(items) => items,
            one => vec![one],
        }
    };
    let each =
        |v: Value, f: fn(Value) -> Value| -> Vec<Value> { lines(v).into_iter().map(f).collect() };
    Answer::Ok(match op {
        PullOne => bare_package(v),
        PullLatest => json!({ "packages": each(v, bare_package) }),
        PullRelevant | Search | ReviewList => json!({ "packages": each(v, without_stale) }),
        FactsList | FactsHistory => json!({ "facts": lines(v) }),
        SessionList => json!({ "sessions": lines(v) }),
        ProjectsList => json!({ "projects": lines(v) }),
        _ => v,
    })
}

/// The package of a review action's `{package, hash, version, transition}`, after checking
/// the envelope holds those and that the transition ended in the package's status.
fn review_envelope(mut v: Value) -> Value {
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["package", "hash", "version", "transition"], "{v}");
    assert_eq!(v["transition"]["to"], v["package"]["status"], "{v}");
    v["package"].take()
}

/// HTTP's `{"packages", "x-ranking"}` as the entries `{"package", "score", "matched"}` the
/// CLI and MCP answer, after checking the two lists name the same packages in one order.
fn ranked_entries(mut v: Value) -> Vec<Value> {
    let packages = v["packages"].take();
    let ranking = v["x-ranking"].take();
    let (Some(packages), Some(ranking)) = (packages.as_array(), ranking.as_array()) else {
        panic!("a relevant pull answers packages and x-ranking: {v}");
    };
    assert_eq!(packages.len(), ranking.len(), "{packages:?} {ranking:?}");
    (packages.iter().zip(ranking))
        .map(|(package, rank)| {
            let mut entry = json!({ "package": package });
            for (key, value) in rank.as_object().unwrap() {
                if key == "package_id" {
                    assert_eq!(value, &package["package_id"], "x-ranking's order");
                } else {
                    entry[key.as_str()] = value.clone();
                }
            }
            entry
        })
        .collect()
}

/// A CLI line without its `x-stale` warnings when there are none.
fn without_stale(mut line: Value) -> Value {
    if line.get("x-stale").is_some_and(|s| s == &json!([])) {
        line.as_object_mut().unwrap().remove("x-stale");
    }
    line
}

/// A CLI line `{"package": …}` (with no `x-stale` warning) as the bare wire package.
fn bare_package(line: Value) -> Value {
    let mut line = without_stale(line);
    match line.as_object() {
        Some(map) if map.len() == 1 && map.contains_key("package") => line["package"].take(),
        _ => line,
    }
}

/// What an operation answered, whatever door it came through: its JSON, or its error code.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    Ok(Value),
    Failed(String),
}

/// `relay ARGS --json` with `stdin`: each line of stdout (one value, or a list when
/// `listing`), or the code of the JSON error on stderr.
pub fn cli(env: &Env, args: &[String], stdin: Option<&str>, listing: bool) -> Answer {
    let mut all: Vec<&str> = args.iter().map(String::as_str).collect();
    all.push("--json");
    let run = env.run_stdin(&all, stdin.unwrap_or_default().as_bytes());
    if run.code != 0 {
        return Answer::Failed(cli_error_code(&run));
    }
    let mut lines = run.json_lines();
    if !listing && lines.len() == 1 {
        return Answer::Ok(lines.remove(0));
    }
    Answer::Ok(Value::Array(lines))
}

/// The code of a failed command's JSON error, or `usage` for what the argument parser
/// refused before any JSON could be written.
fn cli_error_code(run: &Run) -> String {
    let line = run.stderr.lines().last().unwrap_or_default();
    match serde_json::from_str::<Value>(line) {
        Ok(v) => v["error"].as_str().unwrap_or("?").to_string(),
        Err(_) => format!("usage (exit {})", run.code),
    }
}

/// A number written as `NUMBER` (`"#n:1e2"`) in a case stands for the JSON number with
/// that exact spelling, which a [`Value`] cannot keep: JSON text with each such string put
/// back as the bare number.
pub fn raw_text(v: &Value) -> String {
    let text = v.to_string();
    let mut out = String::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("\"#n:") {
        out.push_str(&rest[..at]);
        let tail = &rest[at + 4..];
        let end = tail.find('"').unwrap();
        out.push_str(&tail[..end]);
        rest = &tail[end + 1..];
    }
    out.push_str(rest);
    out
}

/// A scalar as a command line or a query string writes it: a string as it is (a raw number
/// as its spelling), anything else as JSON.
pub fn scalar_text(v: &Value) -> String {
    match v.as_str() {
        Some(s) => s.strip_prefix("#n:").unwrap_or(s).to_string(),
        None => v.to_string(),
    }
}

/// `tools/call` of `tool` with `arguments` in a fresh `relay mcp`: the structured content,
/// or the error code of a tool error (a JSON-RPC error answers `rpc:CODE`).
pub fn mcp(env: &Env, tool: &str, arguments: Value) -> Answer {
    let call = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":{},"arguments":{}}}}}"#,
        json!(tool),
        raw_text(&arguments)
    );
    let replies = mcp::serve_lines(env, &[call]);
    mcp_answer(&replies[0])
}

/// The answer of one `tools/call` reply.
pub fn mcp_answer(reply: &Value) -> Answer {
    if let Some(e) = reply.get("error") {
        return Answer::Failed(format!("rpc:{}", e["code"]));
    }
    if reply["result"]["isError"] == true {
        return Answer::Failed(mcp::tool_error(reply).0);
    }
    Answer::Ok(mcp::ok(reply))
}

/// The names of every tool `relay mcp` lists.
pub fn mcp_tools(env: &Env) -> Vec<String> {
    let list = json_rpc_tools_list(env);
    (list["result"]["tools"].as_array().unwrap().iter())
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

fn json_rpc_tools_list(env: &Env) -> Value {
    let request =
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}});
    mcp::serve(env, &[request]).remove(0)
}

/// One HTTP request: method, path with its query, and a JSON body (as text, so a number
/// keeps its spelling).
pub struct HttpCall {
    pub method: &'static str,
    pub path: String,
    pub body: Option<String>,
}

/// `call` against `server` with `bearer`: the body of a 2xx answer, or the error code of
/// any other (checked to be the body's `error`).
pub fn http(env: &Env, server: &Served, bearer: &str, call: &HttpCall) -> Answer {
    let auth = format!("Authorization: Bearer {bearer}");
    let url = server.at(&call.path);
    let body = call.body.clone();
    let mut args = vec!["-X", call.method];
    // An empty bearer sends no token at all.
    if !bearer.is_empty() {
        args.extend(["-H", &auth]);
    }
    if let Some(body) = &body {
        args.extend(["-H", "Content-Type: application/json", "-d", body]);
    }
    args.push(&url);
    let (status, body) = curl(env, &args);
    if (200..300).contains(&status) {
        Answer::Ok(body)
    } else {
        let code = body["error"].as_str().unwrap_or("?");
        Answer::Failed(code.to_string())
    }
}

/// `text` as it may stand in a query string.
pub fn query_escape(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// `?k=v&…` of the scalar fields of `request` (a list repeats its key), empty when none.
pub fn query_of(request: &Value, keys: &[&str]) -> String {
    let mut pairs = Vec::new();
    for key in keys {
        let values = match &request[*key] {
            Value::Null => continue,
            Value::Array(items) => items.clone(),
            other => vec![other.clone()],
        };
        for v in values {
            let text = scalar_text(&v);
            pairs.push(format!("{key}={}", query_escape(&text)));
        }
    }
    if pairs.is_empty() {
        String::new()
    } else {
        format!("?{}", pairs.join("&"))
    }
}

/// `tools/call` of `tool` with `arguments` over `server`'s `/mcp` (MCP over HTTP) as the
/// holder of `bearer`: a session is opened, then the call made in it.
pub fn mcp_http(env: &Env, server: &Served, bearer: &str, tool: &str, arguments: &Value) -> Answer {
    let url = server.at("/mcp");
    let auth = format!("Authorization: Bearer {bearer}");
    let post = |headers: &[&str], body: &str| -> (u16, String, String) {
        let mut all = vec!["-sS", "--max-time", "20", "-D", "-", "-w", "\n%{http_code}"];
        all.extend(["-X", "POST", "-H", "Content-Type: application/json"]);
        all.extend(["-H", "Accept: application/json, text/event-stream"]);
        for h in headers {
            all.extend(["-H", h]);
        }
        all.extend(["-d", body, &url]);
        let out = env.program("curl", &all).output().expect("run curl");
        let text = String::from_utf8(out.stdout).unwrap();
        let (rest, status) = text.rsplit_once('\n').unwrap();
        let (head, body) = rest.split_once("\r\n\r\n").unwrap_or((rest, ""));
        (
            status.parse().unwrap(),
            head.to_ascii_lowercase(),
            body.into(),
        )
    };
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "curl", "version": "1"}}});
    let auth: Vec<&str> = (!bearer.is_empty())
        .then_some(auth.as_str())
        .into_iter()
        .collect();
    let (status, head, body) = post(&auth, &initialize.to_string());
    if status != 200 {
        let v: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
        return Answer::Failed(v["error"].as_str().unwrap_or("?").to_string());
    }
    let session = (head.lines())
        .find_map(|l| l.strip_prefix("mcp-session-id: "))
        .expect("a session id")
        .trim()
        .to_string();
    let session = format!("Mcp-Session-Id: {session}");
    let call = format!(
        r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{"name":{},"arguments":{}}}}}"#,
        json!(tool),
        raw_text(arguments)
    );
    let headers: Vec<&str> = auth.iter().copied().chain([session.as_str()]).collect();
    let (status, _, body) = post(&headers, &call);
    let reply: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    if status != 200 {
        return Answer::Failed(reply["error"].as_str().unwrap_or("?").to_string());
    }
    mcp_answer(&reply)
}
