//! The write operations' one entry point each: deposit, the review actions, retract, and
//! invalidate a fact (assert's request is checked by [`Relay::fact_to_assert`]). As with the
//! reads, each authorizes the caller first, then checks what a remote caller may name (an
//! actor, a local file) before anything is opened, then runs the operation as the writer the
//! door's claim names ([`crate::ops::attribution`]).

use serde_json::{Map, Value};

use relay_store::packages::StoredPackage;
use relay_wire::Session;
use relay_wire::error::{Error, Result};

use super::Relay;
use crate::ops::attribution::{self, Claim};
use crate::ops::facts::{self, AssertRequest, Asserted};
use crate::ops::packages::deposit::{self, Deposited};
use crate::ops::packages::retract::Retracted;
use crate::ops::sessions::{self, SessionView};
use crate::ops::trust::keys;
use crate::request::deposit::{DepositRequest, Form, missing_title};
use crate::request::fact_key::InvalidateFactRequest;
use crate::request::review::Transition;
use crate::request::scope::deposit_project;
use crate::request::sessions::SessionStartRequest;

impl Relay<'_> {
    /// deposit (§8.1) of the request every door takes, as the writer `claim` names. The
    /// project is the package's `project_id`, which must be `selected` when the door selected
    /// one, else `default()`. It is authorized before a deliverable's file is read, and a
    /// remote caller's paths are checked before any is opened.
    pub fn deposit(
        &self,
        claim: &Claim,
        selected: Option<&str>,
        default: impl FnOnce() -> Result<String>,
        mut req: DepositRequest,
    ) -> Result<Deposited> {
        self.caller.authorize("deposit")?;
        let named = req
            .package
            .as_ref()
            .is_some_and(|p| p.contains_key("title"));
        if req.title.is_none() && !named {
            return Err(missing_title());
        }
        req.validate()?;
        let project = self.deposit_target(selected, default, req.package.as_ref())?;
        let deliverables = match std::mem::take(&mut req.deliverables) {
            paths if paths.is_empty() => Vec::new(),
            paths => self.deliverables(paths)?,
        };
        let form = req.form();
        let input = req.into_input(deliverables)?;
        self.deposit_package(claim, Some(&project), || Ok(project.clone()), input, form)
    }

    /// deposit (§8.1) of a whole or partial wire package a door has put together (the CLI's
    /// flags and `--from`, HTTP's body), as [`Relay::deposit`] places and attributes it. The
    /// package's `created_by` must be the caller's own actor; `form` says whether relay fills
    /// in what it lacks.
    pub fn deposit_package(
        &self,
        claim: &Claim,
        selected: Option<&str>,
        default: impl FnOnce() -> Result<String>,
        input: Map<String, Value>,
        form: Form,
    ) -> Result<Deposited> {
        self.caller.authorize("deposit")?;
        let project = self.deposit_target(selected, default, Some(&input))?;
        // The actor's shape (§6.2) is the package's fault before it is the caller's.
        let fields = relay_wire::validate::Fields::root(&input);
        if let Some(by) = fields.optional_object("created_by")? {
            by.actor()?;
        }
        if let Some(by) = input.get("created_by").and_then(Value::as_object) {
            let text = |key: &str| by.get(key).and_then(Value::as_str);
            self.caller.may_name(text("id"), text("type"))?;
        }
        if input.get("title").is_none_or(Value::is_null) {
            return Err(missing_title());
        }
        attribution::deposit_in(self.store, self.cwd, input, project, claim, form)
    }

    /// The project a deposit of `package` goes into, once the caller may write there: its
    /// `project_id`, which must be `selected` when one is, else `selected`, else `default()`.
    pub fn deposit_target(
        &self,
        selected: Option<&str>,
        default: impl FnOnce() -> Result<String>,
        package: Option<&Map<String, Value>>,
    ) -> Result<String> {
        let empty = Map::new();
        let project = match deposit_project(selected, package.unwrap_or(&empty))? {
            Some(p) => p,
            None => default()?,
        };
        self.caller.authorize_project("deposit", &project)?;
        Ok(project)
    }

    /// The wire deliverables of `paths` (files relative to the caller's folder, or URLs): a
    /// remote caller's are checked first and read from the work tree's top, never opened
    /// when refused.
    pub fn deliverables(&self, paths: Vec<String>) -> Result<Vec<Value>> {
        let remote = self.caller.is_remote();
        let made = deposit::deliverables_for_paths(self.store, self.cwd, paths, remote)?;
        Ok(made.into_iter().map(|(_, d)| d.value).collect())
    }

    /// A key rotation (`relay keys rotate`): the statement that the actor `claim` names signs
    /// with `new` from now on, deposited into `project` as that actor and signed with the key
    /// this store signs with (which `allowed_signers` must allow for them now), then the new
    /// key's line appended to `allowed_signers`. A local caller's only: it writes that file.
    pub fn rotate_key(
        &self,
        claim: &Claim,
        project: String,
        new: &ssh_key::PublicKey,
    ) -> Result<(Deposited, keys::RotationPlan)> {
        self.caller.authorize_project("deposit", &project)?;
        if self.caller.is_remote() {
            return Err(Error::Unauthorized(
                "a key rotation changes allowed_signers: only the store's own user makes one"
                    .into(),
            ));
        }
        let actor = attribution::actor(self.store, self.cwd, claim)?;
        let plan = keys::plan_rotation(self.store, &actor.id, &actor.actor_type, new)?;
        let done =
            attribution::deposit(self.store, self.cwd, plan.package.clone(), project, claim)?;
        keys::add_allowed(self.store, &plan.line)?;
        Ok((done, plan))
    }

    /// A review action (§8.5) on the package `transition` names, as the writer `claim` names,
    /// in that package's project: the package at its new version.
    pub fn review(&self, claim: &Claim, transition: Transition) -> Result<StoredPackage> {
        let Transition {
            package_id,
            action,
            note,
        } = transition;
        let id = self
            .caller
            .authorize_record(action.operation(), self.store, &package_id)?;
        attribution::transition(self.store, self.cwd, &id, action, note, claim)
    }

    /// Retracts the package or fact `id` names (looked for in `hint`, the selected project,
    /// first), as the writer `claim` names.
    pub fn retract(
        &self,
        claim: &Claim,
        id: &str,
        reason: &str,
        hint: Option<String>,
    ) -> Result<Retracted> {
        self.caller
            .authorize_retraction(self.store, id, hint.as_deref())?;
        attribution::retract(self.store, self.cwd, id, reason, hint, claim)
    }

    /// assert_fact (§8.6) of `req` (checked by [`Relay::fact_to_assert`]) in `project`, as
    /// the writer `claim` names, which must be the caller's own actor.
    pub fn facts_assert(
        &self,
        claim: &Claim,
        project: &str,
        req: AssertRequest,
    ) -> Result<Asserted> {
        self.caller.authorize_project("facts_assert", project)?;
        let (actor, actor_type) = (claim.actor.as_deref(), claim.actor_type.as_deref());
        self.caller.may_name(actor, actor_type)?;
        attribution::assert(self.store, self.cwd, project, req, claim)
    }

    /// session_start in `project`, for the actor `claim` names (a token's own, for a remote
    /// caller), with the callsign asked for. It becomes the clone's current session when the
    /// request says so (the default), except for a remote caller, whose session is never the
    /// served clone's: it names the session in its writes, and asking for more is refused.
    pub fn session_start(
        &self,
        claim: &Claim,
        project: &str,
        req: &SessionStartRequest,
    ) -> Result<Session> {
        self.caller.authorize_project("session_start", project)?;
        req.validate()?;
        let (actor, actor_type) = (claim.actor.as_deref(), claim.actor_type.as_deref());
        self.caller.may_name(actor, actor_type)?;
        let current = match self.caller.grant() {
            Some(_) if req.make_current == Some(true) => {
                return Err(Error::InvalidInput(
                    "a remote caller's session is not the served clone's current one: name                      the session in writes instead (session, or ?session=ID)"
                        .into(),
                ));
            }
            Some(_) => false,
            None => req.make_current(),
        };
        let actor = match self.caller.grant() {
            Some(g) => g.actor.clone(),
            None => attribution::actor(self.store, self.cwd, claim)?,
        };
        let session = sessions::start(self.store, project, &actor, req.callsign.as_deref())?;
        if current {
            sessions::make_current(self.store, &session)?;
        }
        Ok(session)
    }

    /// session_end of the session `key` names (id or callsign), in the projects the caller
    /// may read; a token ends only its own actor's sessions.
    pub fn session_end(&self, key: &str) -> Result<SessionView> {
        let session = self
            .caller
            .authorize_session("session_end", self.store, key)?;
        sessions::end(self.store, &session)
    }

    /// invalidate_fact (§8.7) in `project`: the facts ended (none when the key has no current
    /// fact, or it does not hold the request's `object`).
    pub fn facts_invalidate(
        &self,
        project: &str,
        req: &InvalidateFactRequest,
    ) -> Result<Vec<relay_wire::Fact>> {
        self.caller.authorize_project("facts_invalidate", project)?;
        req.validate()?;
        let (subject, predicate) = (&req.subject, &req.predicate);
        facts::invalidate(
            self.store,
            project,
            subject,
            predicate,
            req.object.as_deref(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::Actor;
    use crate::ops::trust::tokens::Grant;
    use crate::request::Spelling;
    use crate::service::Caller;

    fn visitor() -> (Caller, Claim) {
        let actor = Actor {
            id: "visitor".into(),
            actor_type: "agent".into(),
        };
        let claim = Claim {
            actor: Some(actor.id.clone()),
            actor_type: Some(actor.actor_type.clone()),
            session: None,
            remote: true,
        };
        let grant = Grant {
            token_id: "tok_1".into(),
            actor,
            projects: None,
            read_only: false,
        };
        (Caller::Token(grant), claim)
    }

    #[test]
    fn a_remote_callers_session_is_never_the_served_clones_current_one() {
        let (dir, store) = crate::ops::packages::deposit::test_support::store_with(&["demo"]);
        let (caller, claim) = visitor();
        let relay = Relay::new(&store, dir.path(), &caller, Spelling::Param);
        let asked = SessionStartRequest {
            make_current: Some(true),
            ..SessionStartRequest::default()
        };
        let e = relay.session_start(&claim, "demo", &asked).unwrap_err();
        assert_eq!(e.code(), "invalid_input");
        let s = relay
            .session_start(&claim, "demo", &SessionStartRequest::default())
            .unwrap();
        assert_eq!(s.str_field("actor_id"), Some("visitor"));
        assert!(store.current_session().is_none());
    }

    #[test]
    fn a_remote_caller_writes_as_its_own_actor_only() {
        let (dir, store) = crate::ops::packages::deposit::test_support::store_with(&["demo"]);
        let (caller, mut claim) = visitor();
        claim.actor = Some("someone-else".into());
        let relay = Relay::new(&store, dir.path(), &caller, Spelling::Param);
        let e = relay
            .session_start(&claim, "demo", &SessionStartRequest::default())
            .unwrap_err();
        assert_eq!(e.code(), "unauthorized");
    }
}
