//! What each tool of `relay mcp` does: it reads its arguments as the operation's request type
//! ([`Call::request`]), validates it, calls the same `ops` functions as the matching command
//! (never the command itself) and returns the JSON that command prints with `--json` (a list
//! wrapped in an object, since a tool's structured result is one).

use serde_json::{Value, json};

use super::call::{Call, invalid, to_value};
use relay_core::ops::trust::attribution;
use relay_core::ops::{
    briefing::orchestrate as orchestrate_op, briefing::orient as orient_op,
    conformance as conformance_op, facts, packages::deposit, packages::pull as pull_op, sessions,
    watch as watch_op,
};
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
use relay_core::request::{OrchestrateRequest, OrientRequest, Spelling, parse_as_of};
use relay_core::search::{relevant, semantic};
use relay_core::service::scope;
use relay_store::packages::StoredPackage;
use relay_wire::error::Result;

pub fn orient(c: &Call) -> Result<Value> {
    let req: OrientRequest = c.request()?;
    req.validate()?;
    let project = c.ctx.project()?;
    let as_of = parse_as_of("as_of", req.as_of.as_deref())?;
    let store = c.ctx.store()?;
    let budget = req.budget(store.config().orient.max_chars);
    let o = orient_op::orient(
        relay_store::View::of(store, as_of),
        &project,
        req.window_days,
        req.limit,
    )?;
    match budget {
        Some(max) => to_value(&relay_core::ops::briefing::orient_fit::bundle(&o, max)?),
        None => to_value(&o.bundle()),
    }
}

pub fn orchestrate(c: &Call) -> Result<Value> {
    let mut req: OrchestrateRequest = c.request()?;
    req.project = c.caller.project.project.clone();
    req.validate()?;
    if !req.all_projects {
        req.project = Some(c.ctx.project()?);
    }
    let (mode, model) = match &req.focus {
        Some(_) => c.search_mode(req.search.clone())?,
        None => (relay_core::search::fuse::Mode::Keyword, None),
    };
    let as_of = parse_as_of("as_of", req.as_of.as_deref())?;
    let project = req.project.clone();
    // Every project is every project the caller may read.
    let only = match &project {
        Some(_) => None,
        None => c.who().scope(c.ctx.store()?)?,
    };
    let digest = req.digest(project, (mode, model.map(std::sync::Arc::new)), only, as_of);
    Ok(orchestrate_op::digest(c.ctx.store()?, &digest)?.bundle())
}

/// A deposit (§8.1): `package` is the package as the spec takes it, whole or in part; the
/// named arguments (the tool's original shape) override its fields and add to its lists.
pub fn deposit(c: &Call) -> Result<Value> {
    let req: DepositRequest = c.request()?;
    req.validate()?;
    let titled = req.title.is_some()
        || req
            .package
            .as_ref()
            .is_some_and(|p| p.contains_key("title"));
    if !titled {
        return Err(relay_core::request::deposit::missing_title());
    }
    let deliverables = match &req.deliverables[..] {
        [] => Vec::new(),
        // A remote caller's paths are checked before any is opened.
        paths => deposit::deliverables_for_paths(
            c.ctx.store()?,
            c.ctx.cwd,
            paths.to_vec(),
            c.claim().remote,
        )?
        .into_iter()
        .map(|(_, d)| d.value)
        .collect(),
    };
    let input = req.into_input(deliverables)?;
    let project = c.ctx.target_project(&input)?;
    let done = attribution::deposit(c.ctx.store()?, c.ctx.cwd, input, project, &c.claim())?;
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
    let store = c.ctx.store()?;
    if req.mode == PullMode::Specific {
        let whole = c.record("pull", req.package()?)?;
        let id = whole.as_str();
        if req.history {
            let versions = pull_op::history(store, id)?;
            let versions: Vec<_> = versions.iter().map(StoredPackage::to_envelope).collect();
            return Ok(json!({ "versions": versions }));
        }
        let as_of = parse_as_of("as_of", req.filter.as_of.as_deref())?;
        let reveal = relay_core::search::filter::Reveal {
            expired: req.filter.include_expired,
            retracted: req.filter.include_retracted,
        };
        return Ok(
            pull_op::visible(relay_store::View::of(store, as_of), id, reveal)?
                .package
                .to_value(),
        );
    }
    let (projects, filter) = scope::listing(
        store,
        c.ctx.cwd,
        c.ctx.projects(req.filter.all_projects)?,
        &req.filter,
        Spelling::Param,
    )?;
    let limit = req.limit;
    let Some(query) = req.query.filter(|_| req.mode == PullMode::Relevant) else {
        let found = pull_op::latest(store, &projects, &filter, limit)?;
        let packages: Vec<_> = found.iter().map(|p| p.package.to_value()).collect();
        return Ok(json!({ "packages": packages }));
    };
    let (search_mode, model) = c.search_mode(req.search)?;
    let found = semantic::search(
        store,
        &projects,
        &query,
        &filter,
        limit,
        search_mode,
        model.as_ref(),
    )?;
    let packages: Vec<_> = found.iter().map(relevant::Ranked::to_value).collect();
    Ok(json!({ "packages": packages }))
}

pub fn facts_assert(c: &Call) -> Result<Value> {
    let project = c.ctx.project()?;
    let req = c.request::<AssertFactRequest>()?;
    let req = req.into_assert(Spelling::Param)?;
    let done = attribution::assert(c.ctx.store()?, c.ctx.cwd, &project, req, &c.claim())?;
    Ok(done.to_value())
}

pub fn facts_invalidate(c: &Call) -> Result<Value> {
    let req: InvalidateFactRequest = c.request()?;
    req.validate()?;
    let project = c.ctx.project()?;
    let ended = facts::invalidate(
        c.ctx.store()?,
        &project,
        &req.subject,
        &req.predicate,
        req.object.as_deref(),
    )?;
    Ok(json!({ "invalidated": ended.len() }))
}

pub fn facts_get(c: &Call) -> Result<Value> {
    let req: GetFactRequest = c.request()?;
    let at = req.at(Spelling::Param)?;
    let project = c.ctx.project()?;
    let fact = facts::get(
        c.ctx.store()?,
        &project,
        &req.subject,
        &req.predicate,
        at,
        req.reveal(),
    )?;
    to_value(&fact)
}

pub fn facts_list(c: &Call) -> Result<Value> {
    let q = c.request::<ListFactsRequest>()?.query(Spelling::Param)?;
    let project = c.ctx.project()?;
    let list = facts::list(c.ctx.store()?, &project, &q)?;
    Ok(json!({ "facts": to_value(&list)? }))
}

fn review_with(c: &Call, t: Transition) -> Result<Value> {
    let store = c.ctx.store()?;
    let (action, note) = (t.action, t.note);
    let id = c.record(action.operation(), &t.package_id)?;
    let done = attribution::transition(store, c.ctx.cwd, &id, action, note, &c.claim())?;
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
    let store = c.ctx.store()?;
    c.who()
        .authorize_retraction(store, &req.id, hint.as_deref())?;
    let done = attribution::retract(store, c.ctx.cwd, &req.id, &req.reason, hint, &c.claim())?;
    Ok(done.to_value())
}

pub fn review_list(c: &Call) -> Result<Value> {
    let req: ReviewListRequest = c.request()?;
    req.validate()?;
    let projects = c.ctx.projects(req.all_projects)?;
    let pending =
        relay_core::ops::packages::review::pending(c.ctx.store()?, &projects, req.reviewer())?;
    let packages: Vec<_> = pending.iter().map(|p| p.to_value()).collect();
    Ok(json!({ "packages": packages }))
}

pub fn session_start(c: &Call) -> Result<Value> {
    let req: SessionStartRequest = c.request()?;
    req.validate()?;
    let project = c.ctx.project()?;
    let store = c.ctx.store()?;
    let actor = attribution::actor(store, c.ctx.cwd, &c.claim())?;
    let s = sessions::start(store, &project, &actor, req.callsign.as_deref())?;
    if req.make_current() {
        sessions::make_current(store, &s)?;
    }
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
        (Some(key), true) => {
            let session = c.who().authorize_session("session_end", store, key)?;
            Some(sessions::end(store, &session)?)
        }
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
    let s = relay_core::ops::upkeep::status::status(store)?;
    let warnings = store.diagnostics().take();
    relay_core::ops::upkeep::status::to_json(store, &s, &warnings)
}

/// New records after a cursor: what `relay watch --json` prints, as a list, with the cursor to
/// pass next time. With `wait_ms`, waits that long for a first event (a long poll).
pub fn watch(c: &Call) -> Result<Value> {
    let req: WatchRequest = c.request()?;
    req.validate()?;
    let store = c.ctx.store()?;
    let scope = watch_op::Scope {
        // Every project means every project the caller's token covers: a scoped token's
        // watch never sees another project's records.
        projects: match (req.all_projects, c.ctx.grant.is_some()) {
            (true, false) => None,
            (true, true) => Some(c.ctx.projects(true)?),
            (false, _) => Some(c.ctx.projects(false)?),
        },
        kinds: req.kinds()?,
    };
    let (events, cursor) = watch_op::collect(store, scope, req.since()?, req.limit, req.wait())?;
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
