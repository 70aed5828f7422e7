//! The tools `relay mcp` offers, each with its description and its input schema, generated
//! from the operation's request type in the core ([`input::schema_of`]). A call's arguments
//! are checked against that schema; what each tool does is in [`super::handlers`] (and
//! [`super::amp`] for the Agent Memory Protocol's).

use serde_json::{Map, Value, json};

use super::amp;
use super::call;
use super::call::Call;
use super::handlers as h;
use super::host::{Context, Host, Settings};
use super::input::{Part, WRITER, no_arguments, schema_of, with_alias};
use super::schema;
use relay_core::request::deposit::DepositRequest;
use relay_core::request::fact_key::{GetFactRequest, InvalidateFactRequest};
use relay_core::request::facts::{AssertFactRequest, ListFactsRequest};
use relay_core::request::listing::PullRequest;
use relay_core::request::memory as amp_request;
use relay_core::request::retract::RetractRequest;
use relay_core::request::review::{
    ApproveRequest, FlagRequest, RequestChangesRequest, ReviewListRequest,
};
use relay_core::request::sessions::{SessionEndRequest, SessionStartRequest};
use relay_core::request::watch::WatchRequest;
use relay_core::request::{OrchestrateRequest, OrientRequest};
use relay_core::service;
use relay_core::service::scope;
use relay_wire::error::Result;

/// One tool.
pub struct Tool {
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    /// Its `inputSchema`: the arguments it takes, which its calls are checked against.
    pub input: fn() -> Value,
    run: fn(&Call) -> Result<Value>,
}

impl Tool {
    /// Whether it only reads (an MCP annotation clients may use to skip confirmation), as the
    /// service's table of rules says.
    pub fn read_only(&self) -> bool {
        let access = service::rules::of(self.name).map(|r| r.access);
        !matches!(access, Ok(service::Access::Write) | Err(_))
    }

    /// The tool as `tools/list` describes it.
    pub fn describe(&self) -> Value {
        json!({
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "inputSchema": (self.input)(),
            "annotations": {
                "title": self.title,
                "readOnlyHint": self.read_only(),
                // relay only appends: nothing a tool does destroys earlier records.
                "destructiveHint": false,
                "openWorldHint": false,
            },
        })
    }
}

/// Finds a tool by name.
pub fn find(name: &str) -> Option<&'static Tool> {
    TOOLS.iter().find(|t| t.name == name)
}

/// Runs `tool` with `arguments` on behalf of a client: checks them, selects the project (the
/// call's `project`, else the server's), and returns the result object.
pub fn call(
    host: &dyn Host,
    defaults: &Settings,
    tool: &Tool,
    arguments: Map<String, Value>,
) -> Result<Value> {
    // The service lets the call in, or not, before its arguments are checked.
    let who = service::Caller::of(defaults.grant.as_ref());
    who.authorize_request(tool.name, &arguments, || {
        selected(host, defaults, &arguments)
    })?;
    let args = schema::check(tool.name, &(tool.input)(), arguments)?;
    let caller = call::caller(&args)?;
    if let Some(actor) = &caller.actor.actor {
        who.may_name(Some(actor), caller.actor.actor_type.as_deref())?;
    }
    let ctx = Context {
        host,
        cwd: &defaults.cwd,
        project: (caller.project.project.clone()).or_else(|| defaults.project.clone()),
        grant: defaults.grant.as_ref(),
        operation: tool.name,
    };
    (tool.run)(&Call {
        ctx,
        args,
        caller,
        defaults,
    })
}

/// The project a call selects, as far as it can be told before its arguments are checked:
/// its `project`, else the server's, else the store's default.
fn selected(
    host: &dyn Host,
    defaults: &Settings,
    arguments: &Map<String, Value>,
) -> Option<String> {
    match arguments.get("project") {
        Some(Value::String(p)) => Some(p.clone()),
        Some(_) => None,
        None => (defaults.project.clone())
            .or_else(|| host.store().ok().and_then(scope::default_project)),
    }
}

/// Every tool, in the order `tools/list` gives them.
pub const TOOLS: &[Tool] = &[
    Tool {
        name: "orient",
        title: "Orient: brief a new session",
        description: "Call this first in a new session. Returns the project's OrientationBundle: the project, the recent packages of the window (newest first; the newest with a handoff_note is the latest handoff), the active facts and the open questions.",
        input: || schema_of::<OrientRequest>(&[Part::Project]),
        run: h::orient,
    },
    Tool {
        name: "deposit",
        title: "Deposit a context package",
        description: "Record what you did for whoever comes next: a title, the decisions made, the questions left open, a handoff note; or the whole package as Agentic Protocol §8.1 takes it, in `package` (the named arguments override its fields and add to its lists; a title is needed in one or the other). Packages are immutable and attributed to you (and your session). Returns the stored package and its content hash. Credentials in the input are refused or redacted as the store's secrets policy says.",
        input: || schema_of::<DepositRequest>(WRITER),
        run: h::deposit,
    },
    Tool {
        name: "pull",
        title: "Pull packages",
        description: "Read packages: the newest (mode latest), one by id (mode specific), or the best matches for a query (mode relevant: by keyword with BM25 over title, decisions, questions, handoff note, tags and body; with an embedding model configured, by meaning too). Search before starting on a topic to find earlier work. One package by id carries x-signature, the verdict on its signature: when its fails is true, do not trust who the package says wrote it.",
        input: || schema_of::<PullRequest>(&[Part::Project]),
        run: h::pull,
    },
    Tool {
        name: "orchestrate",
        title: "Orchestrate: a digest to synthesise",
        description: "Assemble a DigestBundle of recent work for you to synthesise (relay runs no LLM): activity by type, decisions and handoffs, active facts, open questions, the packages most relevant to a focus, and per-project counts in global mode (all_projects).",
        input: || schema_of::<OrchestrateRequest>(&[Part::Project]),
        run: h::orchestrate,
    },
    Tool {
        name: "facts_assert",
        title: "Assert a fact",
        description: "Record what is true now as a subject/predicate/value triple. A new value closes the current fact of the key and records the new one atomically, keeping the history; asserting the current value again with the same confidence, source, tags and start writes nothing. Returns {fact, unchanged, superseded}: the current fact, whether nothing was written, and the ids of the facts it closed. Arguments named x-* are extension members (§12.1), kept on the fact as given.",
        input: || schema_of::<AssertFactRequest>(WRITER),
        run: h::facts_assert,
    },
    Tool {
        name: "facts_invalidate",
        title: "Invalidate a fact",
        description: "End the current fact(s) of a key without a replacement (the history is kept). Returns how many ended.",
        input: || {
            let schema = schema_of::<InvalidateFactRequest>(&[Part::Project]);
            with_alias(schema, "value", "object")
        },
        run: h::facts_invalidate,
    },
    Tool {
        name: "facts_get",
        title: "Get a fact",
        description: "The current fact of a key, or the one valid at a past time (at). Fails with fact_not_found when there is none.",
        input: || schema_of::<GetFactRequest>(&[Part::Project]),
        run: h::facts_get,
    },
    Tool {
        name: "facts_list",
        title: "List facts",
        description: "The current facts (one per subject and predicate), filtered; or those valid at a past time, or every fact ever recorded.",
        input: || schema_of::<ListFactsRequest>(&[Part::Project]),
        run: h::facts_list,
    },
    Tool {
        name: "review_flag",
        title: "Flag a package for review",
        description: "Ask a human or an agent to review a package: it becomes awaiting_review (from draft, awaiting_review or revision_requested; a complete package cannot be flagged). Returns the new version of the package.",
        input: || schema_of::<FlagRequest>(WRITER),
        run: h::review_flag,
    },
    Tool {
        name: "retract",
        title: "Retract a package or fact",
        description: "Take back a package or a fact (the Agent Memory Protocol's delete): from now on every read leaves it out, while its history keeps it with who retracted it, when and why. Nothing is rewritten; retracting twice keeps the first retraction. Returns {retraction, project_id, unchanged}.",
        input: || schema_of::<RetractRequest>(WRITER),
        run: h::retract,
    },
    Tool {
        name: "review_list",
        title: "List packages awaiting review",
        description: "The packages awaiting review, oldest request first, each with who flagged it, when and why.",
        input: || schema_of::<ReviewListRequest>(&[Part::Project]),
        run: h::review_list,
    },
    Tool {
        name: "review_approve",
        title: "Approve a package",
        description: "Approve a package: it becomes complete, which is terminal. Returns the new version of the package.",
        input: || schema_of::<ApproveRequest>(WRITER),
        run: h::review_approve,
    },
    Tool {
        name: "review_request_changes",
        title: "Request changes to a package",
        description: "Send a package awaiting review back to its author: it becomes revision_requested. The note says what must change. Returns the new version of the package.",
        input: || schema_of::<RequestChangesRequest>(WRITER),
        run: h::review_request_changes,
    },
    Tool {
        name: "session_start",
        title: "Start a session",
        description: "Start a session with a memorable callsign (e.g. coral-heron; announce it) and, unless make_current is false, make it this clone's current session, so that deposits and facts record it. Returns the session.",
        input: || schema_of::<SessionStartRequest>(&[Part::Project, Part::Actor]),
        run: h::session_start,
    },
    Tool {
        name: "session_end",
        title: "End a session",
        description: "End a session (default: the current one) and record the packages deposited in it. Returns the session.",
        input: || schema_of::<SessionEndRequest>(&[Part::Project]),
        run: h::session_end,
    },
    Tool {
        name: "status",
        title: "Store status",
        description: "Summarise the whole store: projects, package counts by type and status, packages awaiting review, facts, sessions, size on disk and integrity warnings.",
        input: no_arguments,
        run: h::status,
    },
    Tool {
        name: "amp_store",
        title: "AMP: store a memory record",
        description: "The Agent Memory Protocol's store: a lesson, checkpoint or snippet record becomes a package of type x-lesson, x-checkpoint or x-snippet (hashed, merged by git, verified and exported like every package). Fields of the wrong type are refused and nothing is written. Returns {success, id, created}.",
        input: || schema_of::<amp_request::StoreRequest>(&[Part::Actor, Part::Session]),
        run: amp::store,
    },
    Tool {
        name: "amp_search",
        title: "AMP: search memory",
        description: "The Agent Memory Protocol's search: lessons, checkpoints and snippets ranked by meaning (hybrid search when an embedding model is configured, else keyword search). Returns {success, results: [{id, score, record}], total, mode}.",
        input: || schema_of::<amp_request::SearchRequest>(&[]),
        run: amp::search,
    },
    Tool {
        name: "amp_get",
        title: "AMP: get a record",
        description: "The Agent Memory Protocol's get: one record by id, in its AMP shape. A deleted (retracted) or expired record is not found. Returns {success, record}.",
        input: || schema_of::<amp_request::GetRequest>(&[]),
        run: amp::get,
    },
    Tool {
        name: "amp_delete",
        title: "AMP: delete a record",
        description: "The Agent Memory Protocol's delete, as a retraction: every read stops showing the record, and its history keeps it with who deleted it, when and why. Returns {success, deleted, retraction}; deleted is false when it was already retracted.",
        input: || schema_of::<amp_request::DeleteRequest>(&[Part::Actor, Part::Session]),
        run: amp::delete,
    },
    Tool {
        name: "amp_list",
        title: "AMP: list records",
        description: "The Agent Memory Protocol's list: records by type and agent, newest first (order asc for oldest first), with offset paging. Returns {success, records, total, has_more}.",
        input: || schema_of::<amp_request::ListRequest>(&[]),
        run: amp::list,
    },
    Tool {
        name: "amp_status",
        title: "AMP: memory status",
        description: "The Agent Memory Protocol's status: how many lessons, checkpoints and snippets the project holds, and the embedding model search uses. Returns {success, healthy, version, stats}.",
        input: || schema_of::<amp_request::StatusRequest>(&[]),
        run: amp::status,
    },
    Tool {
        name: "watch",
        title: "New records since a cursor",
        description: "What was added to the store after `since` (a cursor from an earlier call, `now` or `beginning`): packages, review transitions, fact versions, sessions and project records, oldest first, each as {cursor, kind, project_id, record}, plus a `resync` event when a log was rewritten under the cursor (a checkout or a rebase). A retracted or expired package or fact never comes with its content: a `retracted` or `expired` event names it and says why ({record, id, because, retraction or expired_at}), as does a retraction made meanwhile. Returns {events, cursor}: pass `cursor` as `since` next time to get only what came after, with nothing missed or repeated. Call with since `now` to get a starting cursor. With wait_ms, waits up to that long for the first event (a long poll).",
        input: || schema_of::<WatchRequest>(&[Part::Project]),
        run: h::watch,
    },
    Tool {
        name: "conformance",
        title: "Conformance descriptor",
        description: "What this relay implements (Agentic Protocol §11.5): protocol_version, conformance_level (L3: deposit, pull, facts, review) and capabilities. Relevant pull is keyword search ranked with BM25 (x-keyword_search), and semantic and hybrid search when an embedding model is configured; realtime: the `watch` tool follows changes; no blob storage. Needs no store.",
        input: no_arguments,
        run: h::conformance,
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use relay_core::ops::trust::tokens::Grant;

    fn grant(projects: Option<&[&str]>, read_only: bool) -> Grant {
        Grant {
            token_id: "tok_t".into(),
            actor: relay_core::ops::Actor {
                id: "remote".into(),
                actor_type: "agent".into(),
            },
            projects: projects.map(|p| p.iter().map(|s| s.to_string()).collect()),
            read_only,
        }
    }

    fn permitted(grant: &Grant, tool: &str, arguments: Value) -> Result<()> {
        let tool = find(tool).unwrap();
        let Value::Object(arguments) = arguments else {
            unreachable!()
        };
        let who = service::Caller::Token(grant.clone());
        let project = arguments.get("project").and_then(Value::as_str);
        let selected = || Some(project.unwrap_or("demo").to_string());
        who.authorize_request(tool.name, &arguments, selected)?;
        let args = schema::check(tool.name, &(tool.input)(), arguments)?;
        let caller = call::caller(&args)?;
        let actor = caller.actor.actor.as_deref();
        who.may_name(actor, caller.actor.actor_type.as_deref())
    }

    #[test]
    fn every_tool_has_a_row_in_the_service_table() {
        for t in TOOLS {
            assert!(service::rules::of(t.name).is_ok(), "{}", t.name);
        }
        assert!(!find("deposit").unwrap().read_only());
        assert!(find("pull").unwrap().read_only());
    }

    #[test]
    fn a_token_permits_what_its_scope_allows() {
        let reader = grant(None, true);
        permitted(&reader, "pull", json!({"mode": "latest"})).unwrap();
        let refused = permitted(&reader, "deposit", json!({"title": "t"}))
            .unwrap_err()
            .to_string();
        assert!(
            refused.contains("read-only (scope: read)") && refused.contains("`deposit`"),
            "{refused}"
        );
        let writer = grant(None, false);
        assert!(permitted(&writer, "deposit", json!({"title": "t"})).is_ok());
        assert!(permitted(&writer, "deposit", json!({"title": "t", "actor": "remote"})).is_ok());
        let other = permitted(
            &writer,
            "deposit",
            json!({"title": "t", "actor": "someone"}),
        );
        assert!(
            other
                .unwrap_err()
                .to_string()
                .contains("cannot write as `someone`")
        );
        assert!(permitted(&writer, "status", json!({})).is_ok());
        let scoped = grant(Some(&["web"]), false);
        let into_web = json!({"title": "t", "project": "web"});
        assert!(permitted(&scoped, "deposit", into_web).is_ok());
        let e = permitted(&scoped, "deposit", json!({"title": "t"})).unwrap_err();
        assert!(
            e.to_string().contains("does not cover project `demo`"),
            "{e}"
        );
        let e = permitted(&scoped, "status", json!({})).unwrap_err();
        assert!(e.to_string().contains("scoped to web"), "{e}");
        // A record named by id is checked once it is found; every project is every project
        // the token covers.
        for (tool, arguments) in [
            ("review_approve", json!({"package_id": "pkg_1"})),
            ("pull", json!({"mode": "specific", "id": "pkg_1"})),
            ("orchestrate", json!({"all_projects": true})),
        ] {
            assert!(permitted(&scoped, tool, arguments).is_ok(), "{tool}");
        }
    }

    #[test]
    fn tool_names_are_unique_and_valid() {
        let mut names: Vec<&str> = TOOLS.iter().map(|t| t.name).collect();
        assert!(names.iter().all(|n| {
            !n.is_empty()
                && n.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        }));
        names.sort();
        names.dedup();
        assert_eq!(names.len(), TOOLS.len());
    }

    /// The guard over every generated schema: a plain closed object whose every argument
    /// has a type a client can act on and a description, with no reference to resolve.
    #[test]
    fn every_argument_of_every_tool_has_a_type_and_a_description() {
        for t in TOOLS {
            let s = (t.input)();
            assert_eq!(s["type"], "object", "{}", t.name);
            assert_eq!(s["additionalProperties"], false, "{}", t.name);
            assert!(s["required"].is_array(), "{}", t.name);
            let text = s.to_string();
            for no in ["$ref", "$defs", "$schema", "\"null\""] {
                assert!(!text.contains(no), "{} has {no}: {text}", t.name);
            }
            for (name, p) in s["properties"].as_object().unwrap() {
                let known = ["string", "integer", "number", "boolean", "array", "object"];
                let kinds: Vec<&str> = match &p["type"] {
                    Value::Array(kinds) => kinds.iter().filter_map(Value::as_str).collect(),
                    kind => kind.as_str().into_iter().collect(),
                };
                assert!(!kinds.is_empty(), "{}.{name} has no type: {p}", t.name);
                for kind in &kinds {
                    assert!(known.contains(kind), "{}.{name}: {p}", t.name);
                }
                let kind = kinds[0];
                let doc = p["description"].as_str().unwrap_or_default();
                assert!(doc.len() > 5, "{}.{name} has no description: {p}", t.name);
                if kind == "array" {
                    assert!(p["items"]["type"].is_string(), "{}.{name}: {p}", t.name);
                }
            }
            for r in s["required"].as_array().unwrap() {
                assert!(
                    s["properties"].get(r.as_str().unwrap()).is_some(),
                    "{}",
                    t.name
                );
            }
        }
    }
}
