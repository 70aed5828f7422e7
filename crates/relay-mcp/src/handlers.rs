//! What each tool of `relay mcp` does: it reads its arguments as the operation's request type
//! ([`Call::request`]), validates it, calls the same `ops` functions as the matching command
//! (never the command itself) and returns the JSON that command prints with `--json` (a list
//! wrapped in an object, since a tool's structured result is one).

use serde_json::{Value, json};

use super::call::{Call, invalid, to_value};
use relay_core::ops::{conformance as conformance_op, sessions, watch as watch_op};
use relay_core::request::deposit::DepositRequest;
use relay_core::request::fact_key::{GetFactRequest, InvalidateFactRequest};
use relay_core::request::facts::{AssertFactRequest, ListFactsRequest};
use relay_core::request::listing::{PullMode, PullRequest, pull_applies};
use relay_core::request::retract::RetractRequest;
use relay_core::request::review::{
    ApproveRequest, FlagRequest, RequestChangesRequest, ReviewListRequest, Transition,
};
use relay_core::request::sessions::{SessionEndRequest, SessionStartRequest};
use relay_core::request::watch::WatchRequest;
use relay_core::request::{OrchestrateRequest, OrientRequest};
use relay_core::search::{relevant, semantic};
use relay_store::packages::StoredPackage;
use relay_wire::error::Result;

pub fn orient(c: &Call) -> Result<Value> {
    let req: OrientRequest = c.request()?;
    let project = c.ctx.project()?;
    c.relay(|relay| relay.orient(&project, &req)?.to_value())
}

pub fn orchestrate(c: &Call) -> Result<Value> {
    let mut req: OrchestrateRequest = c.request()?;
    req.project = c.caller.project.project.clone();
    req.validate()?;
    let project = match req.all_projects {
        true => None,
        false => Some(c.ctx.project()?),
    };
    let rank = |asked: Option<&str>| {
        let (mode, model) = c.search_mode(asked.map(str::to_string))?;
        Ok((mode, model.map(std::sync::Arc::new)))
    };
    c.relay(|relay| Ok(relay.orchestrate(project, &req, rank)?.0.bundle()))
}

/// A deposit (§8.1): `package` is the package as the spec takes it, whole or in part; the
/// named arguments (the tool's original shape) override its fields and add to its lists.
pub fn deposit(c: &Call) -> Result<Value> {
    let req: DepositRequest = c.request()?;
    let selected = c.ctx.project.clone();
    let claim = c.claim();
    let default = || c.ctx.project();
    let done = c.relay(|relay| relay.deposit(&claim, selected.as_deref(), default, req))?;
    Ok(Value::Object(StoredPackage::envelope(
        &done.package,
        &done.hash,
    )))
}

pub fn pull(c: &Call) -> Result<Value> {
    let req: PullRequest = c.request()?;
    let applies = pull_applies(req.mode);
    if let Some(other) = c
        .args
        .names()
        .find(|n| !["mode", "project"].contains(n) && !applies.contains(n) && c.given(n))
    {
        return Err(invalid(format!(
            "`{other}` does not apply to mode `{}`",
            req.mode.as_str()
        )));
    }
    req.validate()?;
    if req.mode == PullMode::Specific {
        let id = req.package()?;
        if req.history {
            let history = c.relay(|relay| relay.pull_history(id))?;
            let versions = history.versions.iter().zip(&history.signatures);
            let versions: Vec<_> = versions
                .map(|(v, seal)| {
                    let mut env = v.to_envelope();
                    env.insert("signature".into(), json!(seal));
                    env
                })
                .collect();
            return Ok(json!({ "versions": versions }));
        }
        // The package as stored, and beside its members the verdict on its signature.
        let pulled = c.relay(|relay| relay.pull_package(id, &req.filter))?;
        let mut answer = pulled.found.package.to_value();
        answer["x-signature"] = json!(pulled.signature);
        return Ok(answer);
    }
    let projects = c.ctx.projects(req.filter.all_projects)?;
    let listing = c.relay(|relay| relay.listing("pull", projects, &req.filter))?;
    let limit = req.limit;
    let Some(query) = req.query.filter(|_| req.mode == PullMode::Relevant) else {
        let found = c.relay(|relay| relay.pull_latest(&listing, limit))?;
        let packages: Vec<_> = found.iter().map(|p| p.package.to_value()).collect();
        return Ok(json!({ "packages": packages }));
    };
    let (search_mode, model) = c.search_mode(req.search)?;
    let ranking = (search_mode, model.map(std::sync::Arc::new));
    let found = c.relay(|relay| relay.search(&listing, &query, limit, &ranking))?;
    let packages: Vec<_> = found.iter().map(relevant::Ranked::to_value).collect();
    Ok(json!({ "packages": packages }))
}

pub fn facts_assert(c: &Call) -> Result<Value> {
    let project = c.ctx.project()?;
    let req = c.request::<AssertFactRequest>()?;
    let done = c.relay(|relay| {
        let req = relay.fact_to_assert(&project, req)?;
        relay.facts_assert(&c.claim(), &project, req)
    })?;
    Ok(done.to_value())
}

pub fn facts_invalidate(c: &Call) -> Result<Value> {
    let req: InvalidateFactRequest = c.request()?;
    let project = c.ctx.project()?;
    let ended = c.relay(|relay| relay.facts_invalidate(&project, &req))?;
    Ok(json!({ "invalidated": ended.len() }))
}

pub fn facts_get(c: &Call) -> Result<Value> {
    let req: GetFactRequest = c.request()?;
    let project = c.ctx.project()?;
    to_value(&c.relay(|relay| relay.facts_get(&project, &req))?)
}

pub fn facts_list(c: &Call) -> Result<Value> {
    let req = c.request::<ListFactsRequest>()?;
    let project = c.ctx.project()?;
    let list = c.relay(|relay| relay.facts_list(&project, req))?;
    Ok(json!({ "facts": to_value(&list)? }))
}

fn review_with(c: &Call, t: Transition) -> Result<Value> {
    let done = c.relay(|relay| relay.review(&c.claim(), t))?;
    Ok(Value::Object(done.to_envelope()))
}

pub fn review_flag(c: &Call) -> Result<Value> {
    review_with(c, c.request::<FlagRequest>()?.transition()?)
}

pub fn review_approve(c: &Call) -> Result<Value> {
    review_with(c, c.request::<ApproveRequest>()?.transition()?)
}

pub fn review_request_changes(c: &Call) -> Result<Value> {
    review_with(c, c.request::<RequestChangesRequest>()?.transition()?)
}

pub fn retract(c: &Call) -> Result<Value> {
    let req: RetractRequest = c.request()?;
    req.validate()?;
    let hint = c.ctx.project().ok();
    let (id, reason) = (&req.id, &req.reason);
    let done = c.relay(|relay| relay.retract(&c.claim(), id, reason, hint))?;
    Ok(done.to_value())
}

pub fn review_list(c: &Call) -> Result<Value> {
    let req: ReviewListRequest = c.request()?;
    let projects = c.ctx.projects(req.all_projects)?;
    let pending = c.relay(|relay| relay.review_list(&projects, &req))?;
    let packages: Vec<_> = pending.iter().map(|p| p.to_value()).collect();
    Ok(json!({ "packages": packages }))
}

pub fn session_start(c: &Call) -> Result<Value> {
    let req: SessionStartRequest = c.request()?;
    let project = c.ctx.project()?;
    let s = c.relay(|relay| relay.session_start(&c.claim(), &project, &req))?;
    Ok(s.to_value())
}

/// Ends the session the call names (its `session`, which is also the caller part every
/// writing tool takes), else the server's, else this clone's current one.
pub fn session_end(c: &Call) -> Result<Value> {
    let mut req: SessionEndRequest = c.request()?;
    req.session = c.caller.session.session.clone();
    req.validate()?;
    let explicit = c.defaults.env.session();
    let order = c.ctx.search_order()?;
    let key = req.session.or_else(|| c.defaults.session.clone());
    let store = c.ctx.store()?;
    let ended = match (&key, c.who().is_remote()) {
        // A remote caller names its session (this clone's current one is not its own).
        (Some(key), true) => Some(c.relay(|relay| relay.session_end(key))?),
        (None, true) => None,
        (_, false) => sessions::end_named(store, &order, key.as_deref(), explicit.as_deref())?,
    };
    Ok(ended
        .ok_or_else(|| {
            invalid("no current session to end: name one (relay session end SESSION)".into())
        })?
        .session
        .to_value())
}

pub fn status(c: &Call) -> Result<Value> {
    let store = c.ctx.store()?;
    let s = c.relay(|relay| relay.status())?;
    let warnings = store.diagnostics().take();
    relay_core::ops::upkeep::status::to_json(store, &s, &warnings)
}

/// New records after a cursor: what `relay watch --json` prints, as a list, with the cursor to
/// pass next time. With `wait_ms`, waits that long for a first event (a long poll).
pub fn watch(c: &Call) -> Result<Value> {
    let req: WatchRequest = c.request()?;
    // Every project means every project the caller's token covers: a scoped token's watch
    // never sees another project's records.
    let (scope, since) = c.relay(|relay| relay.watch_scope(&req, || c.ctx.projects(false)))?;
    let store = c.ctx.store()?;
    let (events, cursor) = watch_op::collect(store, scope, since, req.limit, req.wait())?;
    Ok(json!({ "events": events, "cursor": cursor }))
}

/// The §11.5 descriptor, as `relay conformance --json` prints it; it needs no store.
pub fn conformance(c: &Call) -> Result<Value> {
    to_value(&conformance_op::descriptor(semantic_available(c)))
}

/// Whether semantic and hybrid search can run: a model is configured (`RELAY_MODEL` or
/// `[search] model`) and loads.
fn semantic_available(c: &Call) -> bool {
    let given = c.defaults.model.clone();
    semantic::available(c.ctx.store().ok(), &semantic::ModelChoice { given })
}
