//! The fact routes of `relay serve`: assert_fact and invalidate_fact (§8.6, §8.7, §9.1), and
//! the temporal queries L2 asks for (current, point in time, history). They answer with the
//! JSON of `relay facts … --json`, a list wrapped in `{"facts": […]}`. Assert and invalidate
//! read the core's request types (`relay_core::request`), as the CLI and MCP do.

use serde::Deserialize;
use serde_json::{Value, json};

use super::auth::{Access, ProjectCall};
use super::extract::{JsonBody, Params};
use super::params::WriteParams;
use super::reply::{Answer, Reply};
use relay_core::ops::facts;
use relay_core::request::fact_key::InvalidateFactRequest;
use relay_core::request::facts::{AssertFactRequest, ListFactsRequest};
use relay_wire::error::{Error, SchemaError};

/// Who asserts, when the body says (`asserted_by`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActorRef {
    id: String,
    #[serde(rename = "type")]
    actor_type: Option<String>,
}

/// The body of assert_fact (§8.6): the request every door takes, with the members only HTTP
/// sends (the path's project, and who asserts). Read member by member, not with serde's
/// `flatten`, whose buffer holds no 128-bit integer (an `x-*` member may be one).
#[derive(Debug)]
pub struct AssertBody {
    /// Must be the path's, when given.
    project_id: Option<String>,
    asserted_by: Option<ActorRef>,
    fact: AssertFactRequest,
}

impl AssertBody {
    fn read(body: JsonBody) -> Result<AssertBody, Error> {
        let mut members = body.object("a fact", false)?;
        let mut take = |name: &str| members.remove(name).filter(|v| !v.is_null());
        let project_id = take("project_id");
        let asserted_by = take("asserted_by");
        let schema = |e: serde_json::Error| SchemaError::new("", format!("in a fact: {e}"));
        Ok(AssertBody {
            project_id: project_id
                .map(serde_json::from_value)
                .transpose()
                .map_err(schema)?,
            asserted_by: asserted_by
                .map(serde_json::from_value)
                .transpose()
                .map_err(schema)?,
            fact: serde_json::from_value(Value::Object(members)).map_err(schema)?,
        })
    }
}

/// assert_fact: 201 with `{"fact", "unchanged": false, "superseded"}` when a fact was written,
/// 200 with `"unchanged": true` when that value was already current.
pub async fn assert(call: ProjectCall, Params(q): Params<WriteParams>, body: JsonBody) -> Answer {
    let body = AssertBody::read(body)?;
    let project = &call.project;
    if body.project_id.as_ref().is_some_and(|p| p != project) {
        return Err(Error::InvalidInput(format!(
            "the fact's project_id is not the path's project `{project}`"
        ))
        .into());
    }
    let (fact, named) = (body.fact, body.asserted_by);
    call.run(Access::Write, move |s, caller, project| {
        let relay = caller.relay(s);
        let req = relay.fact_to_assert(&project, fact)?;
        let mut claim = caller.claim(s, q.session);
        if let Some(by) = named {
            claim.actor = Some(by.id);
            claim.actor_type = by.actor_type.or(claim.actor_type);
        }
        let done = relay.facts_assert(&claim, &project, req)?;
        Ok(Reply::written(done.created, done.to_value()))
    })
    .await
}

/// invalidate_fact (§8.7): `{"invalidated": N}` (0 when no fact of the key was current, or
/// the current one does not hold `object`).
pub async fn invalidate(call: ProjectCall, Params(req): Params<InvalidateFactRequest>) -> Answer {
    call.run(Access::Write, move |s, caller, project| {
        let ended = caller.relay(s).facts_invalidate(&project, &req)?;
        Ok(Reply::ok(json!({ "invalidated": ended.len() })))
    })
    .await
}

/// The current facts (one per key), or those valid at `at`: `{"facts": […]}`.
pub async fn list(call: ProjectCall, Params(req): Params<ListFactsRequest>) -> Answer {
    call.run(Access::Read, move |s, caller, project| {
        let list = caller.relay(s).facts_list(&project, req)?;
        Ok(Reply::ok(json!({ "facts": list })))
    })
    .await
}

/// The key of a history, and which hidden facts keep their value.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HistoryParams {
    subject: Option<String>,
    predicate: Option<String>,
    #[serde(default)]
    include_expired: bool,
    #[serde(default)]
    include_retracted: bool,
}

/// Every value a key has had, oldest first: `{"facts": […]}`, each with its effective
/// `valid_to` (and `x-stored_valid_to` where what is stored differs), as `relay facts
/// history --json`: a retracted or expired fact is marked `x-hidden`, its value withheld
/// unless `include_retracted` / `include_expired`; `fact_not_found` when the key has none.
pub async fn history(call: ProjectCall, Params(q): Params<HistoryParams>) -> Answer {
    let (subject, predicate) = match (q.subject, q.predicate) {
        (Some(s), Some(p)) => (s, p),
        _ => {
            return Err(
                Error::InvalidInput("name the fact's key: ?subject=…&predicate=…".into()).into(),
            );
        }
    };
    let reveal = relay_core::search::filter::Reveal {
        expired: q.include_expired,
        retracted: q.include_retracted,
    };
    call.run(Access::Read, move |s, caller, project| {
        let entries = (caller.relay(s)).facts_history(&project, subject, predicate, reveal)?;
        let list: Vec<Value> = entries
            .iter()
            .map(facts::history::Entry::to_value)
            .collect();
        Ok(Reply::ok(json!({ "facts": list })))
    })
    .await
}
