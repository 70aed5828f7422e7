//! The read operations' one entry point each: orient, orchestrate, pull of one package, the
//! facts list, lessons and checkpoints. A door decodes its input into the operation's request
//! and calls here with its caller; each method then, in this order and nowhere else,
//! authorizes the caller from the one table ([`super::rules`]), validates the request and
//! turns its times into timestamps (named as the door spells its parameters), runs the
//! operation on a view of the store, and answers a type the door renders.

use std::path::Path;
use std::sync::Arc;

use serde_json::Value;

use relay_store::packages::StoredPackage;
use relay_store::{Store, View};
use relay_wire::Fact;
use relay_wire::error::{Error, Result};
use relay_wire::time::{self, Timestamp};

use super::Caller;
use crate::ops::attribution;
use crate::ops::briefing::orchestrate::Digest;
use crate::ops::briefing::{orchestrate, orient, orient_fit};
use crate::ops::facts::{self, AssertRequest, ListQuery, history};
use crate::ops::packages::pull;
use crate::ops::packages::review;
use crate::ops::sessions::{self, SessionView};
use crate::ops::trust::seal::{self, RetractionSeal, Seal};
use crate::request::fact_key::GetFactRequest;
use crate::request::facts::{AssertFactRequest, ListFactsRequest};
use crate::request::listing::check_limit;
use crate::request::review::ReviewListRequest;
use crate::request::search::Mode;
use crate::request::sessions::SessionListRequest;
use crate::request::{ListingFilter, OrchestrateRequest, OrientRequest, Spelling};
use crate::search::filter::{Filter, Reveal, Viewer};
use crate::search::model::Model;
use crate::search::relevant::Ranked;
use crate::search::{semantic, vector_build};

/// How a relevance search ranks: its mode and the model semantic and hybrid search use. The
/// door chooses it from what its caller asked (and tells its user which it chose and why).
pub type Ranking = (Mode, Option<Arc<Model>>);

/// The service as one caller, through one door, sees it.
pub struct Relay<'a> {
    pub(super) store: &'a Store,
    /// The folder the local user works in: whose drafts a listing shows, who deposits.
    pub(super) cwd: &'a Path,
    pub(super) caller: &'a Caller,
    /// How the door spells its parameters (`--as-of`, `as_of`), for the errors it answers.
    spelling: Spelling,
}

/// A briefing (§8.3) and the budget it is to fit, if any.
pub struct Briefing {
    pub orientation: orient::Orientation,
    /// The characters the answer may take: asked for, else the store's `[orient] max_chars`.
    pub budget: Option<usize>,
    /// The time a snapshot read was asked for.
    pub as_of: Option<Timestamp>,
}

/// A briefing's OrientationBundle as it is written: whole, or fitted to a budget. It
/// borrows the briefing's facts as they are stored, so writing it parses none of them.
#[derive(serde::Serialize)]
#[serde(untagged)]
pub enum Bundled<'a> {
    Whole(orient::Bundle<'a>),
    Fitted(orient::Bundle<'a, Vec<&'a serde_json::value::RawValue>>),
}

impl Briefing {
    /// The OrientationBundle, fitted to the budget when there is one.
    pub fn bundle(&self) -> Result<Bundled<'_>> {
        Ok(match self.budget {
            Some(max) => Bundled::Fitted(orient_fit::bundle(&self.orientation, max)?),
            None => Bundled::Whole(self.orientation.bundle()),
        })
    }

    /// [`Briefing::bundle`] as a JSON value, for a door that answers one.
    pub fn to_value(&self) -> Result<Value> {
        serde_json::to_value(self.bundle()?)
            .map_err(|e| Error::Integrity(format!("cannot write the briefing: {e}")))
    }
}

/// The projects a listing covers and its filter, as [`Relay::listing`] checked them: the
/// only way to a listing's packages ([`Relay::pull_latest`], [`Relay::search`]).
pub struct Listing {
    projects: Vec<String>,
    filter: Filter,
}

impl Listing {
    /// The projects it covers.
    pub fn projects(&self) -> &[String] {
        &self.projects
    }

    /// The time a snapshot listing reads the store at.
    pub fn as_of(&self) -> Option<Timestamp> {
        self.filter.as_of
    }
}

/// One package as a read shows it, the time the read was asked for, and its signature's
/// verdict (every door shows it).
pub struct Pulled {
    pub found: StoredPackage,
    pub as_of: Option<Timestamp>,
    pub signature: Seal,
}

/// Every version of one package, oldest first, each with its signature's verdict, and
/// whether its retraction (if it is retracted) holds.
pub struct History {
    pub versions: Vec<StoredPackage>,
    /// One per version, in their order.
    pub signatures: Vec<Seal>,
    pub retraction: Option<RetractionSeal>,
}

impl<'a> Relay<'a> {
    /// The service for `caller`, on `store` (worked on from `cwd`), answering in the door's
    /// `spelling`.
    pub fn new(
        store: &'a Store,
        cwd: &'a Path,
        caller: &'a Caller,
        spelling: Spelling,
    ) -> Relay<'a> {
        Relay {
            store,
            cwd,
            caller,
            spelling,
        }
    }

    /// Who looks at `project`'s listings (drafts are shown to their creator only): a token's
    /// actor, or the local user's identity, worked out only if a listing meets a draft.
    pub fn viewer(&self, project: &str) -> Viewer {
        match self.caller.grant() {
            Some(g) => Viewer::known(Some(g.actor.id.clone())),
            None => attribution::deferred_viewer(self.store, self.cwd, project),
        }
    }

    /// A time parameter given as text, parsed; errors name it as the door spells it.
    fn time(&self, name: &str, text: Option<&str>) -> Result<Option<Timestamp>> {
        time::parse_time(&self.spelling.name(name), text)
    }

    /// orient (§8.3) of `project`.
    pub fn orient(&self, project: &str, req: &OrientRequest) -> Result<Briefing> {
        self.caller.authorize_project("orient", project)?;
        req.validate()?;
        let as_of = self.time("as_of", req.as_of.as_deref())?;
        let view = View::of(self.store, as_of);
        let orientation = orient::orient(view, project, req.window_days, req.limit)?;
        Ok(Briefing {
            orientation,
            budget: req.budget(self.store.config().orient.max_chars),
            as_of,
        })
    }

    /// orchestrate (§8.4) of `project`, or of every project the caller may read when `None`;
    /// `rank` chooses how a focus is searched (it is called only when there is one).
    pub fn orchestrate(
        &self,
        project: Option<String>,
        req: &OrchestrateRequest,
        rank: impl FnOnce(Option<&str>) -> Result<Ranking>,
    ) -> Result<(Digest, Option<Timestamp>)> {
        req.validate()?;
        let only = match &project {
            Some(p) => {
                self.caller.authorize_project("orchestrate", p)?;
                None
            }
            None => {
                self.caller.authorize("orchestrate")?;
                self.caller.scope(self.store)?
            }
        };
        let ranking = match &req.focus {
            Some(_) => rank(req.search.as_deref())?,
            None => (Mode::Keyword, None),
        };
        let as_of = self.time("as_of", req.as_of.as_deref())?;
        let digest = req.clone().digest(project, ranking, only, as_of);
        Ok((orchestrate::digest(self.store, &digest)?, as_of))
    }

    /// pull `specific` (§8.2): the package `id` names, as the store stood at the filter's
    /// `as_of`; hidden (retracted, expired) unless the filter reveals it.
    pub fn pull_package(&self, id: &str, filter: &ListingFilter) -> Result<Pulled> {
        let id = self.caller.authorize_record("pull", self.store, id)?;
        let as_of = self.time("as_of", filter.as_of.as_deref())?;
        let reveal = Reveal {
            expired: filter.include_expired,
            retracted: filter.include_retracted,
        };
        let found = match pull::visible(View::of(self.store, as_of), &id, reveal) {
            Err(Error::Hidden { code, message }) => {
                return Err(Error::Hidden {
                    message: self.doubt_retraction(&id, message)?,
                    code,
                });
            }
            found => found?,
        };
        // A read as of a time judges what the store held then: the versions up to the one
        // shown, a retraction made by then.
        let until = as_of.map(|t| (t, found.version));
        let history = self.signed_history(found.package.id(), until)?;
        let (versions, seals) = (&history.versions, &history.signatures);
        let retraction = history.retraction.as_ref();
        let signature = seal::of_read(versions, seals, retraction, &found);
        Ok(Pulled {
            found,
            as_of,
            signature,
        })
    }

    /// Every stored version of the package `id` names, oldest first (`pull --history`), with
    /// their signatures' verdicts.
    pub fn pull_history(&self, id: &str) -> Result<History> {
        let id = self.caller.authorize_record("pull", self.store, id)?;
        self.signed_history(&id, None)
    }

    /// Why a package is hidden, said of its retraction when that does not hold (its actor
    /// may not retract it, or it fails the signature check): what a read that does not show
    /// the package tells of it.
    fn doubt_retraction(&self, id: &str, message: String) -> Result<String> {
        let versions = pull::history(self.store, id)?;
        let Some(first) = versions.first() else {
            return Ok(message);
        };
        let retraction = pull::retraction_of(self.store, first.package.id())?;
        let seals = seal::versions(self.store, &versions, retraction.as_ref())?;
        Ok(
            match seals.retraction.as_ref().and_then(RetractionSeal::doubt) {
                None => message,
                Some(doubt) => format!("{message}; but {doubt} (`relay verify` reports it)"),
            },
        )
    }

    /// The versions of package `id` and their verdicts; `until`: only what the store held at
    /// that time, up to that version.
    fn signed_history(&self, id: &str, until: Option<(Timestamp, u64)>) -> Result<History> {
        let mut versions = pull::history(self.store, id)?;
        let mut retraction = pull::retraction_of(self.store, id)?;
        if let Some((at, version)) = until {
            versions.retain(|v| v.version <= version);
            retraction = retraction.filter(|r| r.retracted_at <= at);
        }
        let seals = seal::versions(self.store, &versions, retraction.as_ref())?;
        Ok(History {
            versions,
            signatures: seals.versions,
            retraction: seals.retraction,
        })
    }

    /// The facts list's query on `project`, checked and with its times parsed: a door that
    /// streams the facts as it finds them runs it with `ops::facts::list_rendered`.
    pub fn facts_query(&self, project: &str, req: ListFactsRequest) -> Result<ListQuery> {
        self.caller.authorize_project("facts_list", project)?;
        req.validate()?;
        Ok(ListQuery {
            at: self.time("at", req.at.as_deref())?,
            as_of: self.time("as_of", req.as_of.as_deref())?,
            subject: req.subject,
            predicate: req.predicate,
            tag: req.tag,
            include_ended: req.include_ended,
            reveal: Reveal {
                expired: req.include_expired,
                retracted: req.include_retracted,
            },
        })
    }

    /// The facts list (§9.1) of `project`.
    pub fn facts_list(&self, project: &str, req: ListFactsRequest) -> Result<Vec<Fact>> {
        let query = self.facts_query(project, req)?;
        facts::list(self.store, project, &query)
    }

    /// The fact of one key (§9.1) in `project`: current, or valid at the time asked for.
    pub fn facts_get(&self, project: &str, req: &GetFactRequest) -> Result<Fact> {
        self.caller.authorize_project("facts_get", project)?;
        req.validate()?;
        let at = self.time("at", req.at.as_deref())?;
        let (subject, predicate) = (&req.subject, &req.predicate);
        facts::get(self.store, project, subject, predicate, at, req.reveal())
    }

    /// A listing of `projects` for `operation` (pull `latest` and `relevant`, search, the
    /// console's timeline): each project checked against the caller, the filters checked
    /// and their times parsed; drafts show to their creator only.
    pub fn listing(
        &self,
        operation: &str,
        projects: Vec<String>,
        listing: &ListingFilter,
    ) -> Result<Listing> {
        for p in &projects {
            self.caller.authorize_project(operation, p)?;
        }
        self.caller.authorize(operation)?;
        let viewer = match projects.first() {
            Some(p) => self.viewer(p),
            None => Viewer::anyone(),
        };
        let filter = listing.filter(viewer, self.spelling)?;
        Ok(Listing { projects, filter })
    }

    /// pull `latest` (§8.2): the `limit` newest packages of a listing.
    pub fn pull_latest(&self, listing: &Listing, limit: usize) -> Result<Vec<StoredPackage>> {
        check_limit(limit)?;
        pull::latest(self.store, &listing.projects, &listing.filter, limit)
    }

    /// pull `relevant` (§8.2) and search: the `limit` packages of a listing that best match
    /// `query`, best first, ranked as `ranking` says.
    pub fn search(
        &self,
        listing: &Listing,
        query: &str,
        limit: usize,
        ranking: &Ranking,
    ) -> Result<Vec<Ranked>> {
        check_limit(limit)?;
        let (projects, filter) = (&listing.projects, &listing.filter);
        if let Some(model) = ranking.1.as_ref().filter(|_| ranking.0 != Mode::Keyword) {
            vector_build::build_behind_reads(self.store, projects, model);
        }
        let model = ranking.1.as_deref();
        semantic::search(self.store, projects, query, filter, limit, ranking.0, model)
    }

    /// Every value the key `subject`/`predicate` has had in `project`, oldest first (relay's
    /// `facts_history`); `fact_not_found` when it has none. A hidden fact's value is kept
    /// back unless `reveal` shows it.
    pub fn facts_history(
        &self,
        project: &str,
        subject: String,
        predicate: String,
        reveal: Reveal,
    ) -> Result<Vec<history::Entry>> {
        self.caller.authorize_project("facts_history", project)?;
        let entries = history::history(self.store, project, &subject, &predicate, reveal)?;
        if entries.is_empty() {
            return Err(Error::FactNotFound {
                subject,
                predicate,
                at: None,
            });
        }
        Ok(entries)
    }

    /// The packages of `projects` awaiting review (§11.4), by the reviewer the request asks
    /// for, if any.
    pub fn review_list(
        &self,
        projects: &[String],
        req: &ReviewListRequest,
    ) -> Result<Vec<review::Pending>> {
        for p in projects {
            self.caller.authorize_project("review_list", p)?;
        }
        req.validate()?;
        review::pending(self.store, projects, req.reviewer())
    }

    /// A project's sessions (relay's `sessions_list`), oldest first, as the store stood at
    /// the time asked for; and that time.
    pub fn sessions_list(
        &self,
        project: &str,
        req: &SessionListRequest,
    ) -> Result<(Vec<SessionView>, Option<Timestamp>)> {
        self.caller.authorize_project("sessions_list", project)?;
        req.validate()?;
        let as_of = self.time("as_of", req.as_of.as_deref())?;
        let listed = sessions::list(View::of(self.store, as_of), project, req.active)?;
        Ok((listed, as_of))
    }

    /// assert_fact's request (§8.6) on `project`, checked and with its times parsed, once
    /// the caller may write there; the door's attribution then writes it.
    pub fn fact_to_assert(&self, project: &str, req: AssertFactRequest) -> Result<AssertRequest> {
        self.caller.authorize_project("facts_assert", project)?;
        req.into_assert(self.spelling)
    }

    /// A snapshot time a read of `operation` was asked for (`as_of`), parsed, once the caller
    /// may run it: for reads whose other members the door hands to the operation as they are.
    pub fn snapshot_time(&self, operation: &str, as_of: Option<&str>) -> Result<Option<Timestamp>> {
        self.caller.authorize(operation)?;
        self.time("as_of", as_of)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::trust::tokens::Grant;

    fn store() -> (tempfile::TempDir, Store) {
        crate::ops::packages::deposit::test_support::store_with(&["demo", "other"])
    }

    fn scoped_to(project: &str) -> Caller {
        Caller::Token(Grant {
            token_id: "tok_1".into(),
            actor: crate::ops::Actor {
                id: "remote".into(),
                actor_type: "agent".into(),
            },
            projects: Some(vec![project.to_string()]),
            read_only: true,
        })
    }

    #[test]
    fn a_time_that_does_not_parse_is_named_as_the_door_spells_it() {
        let (dir, store) = store();
        let req = OrientRequest {
            as_of: Some("yesterday-ish".into()),
            ..OrientRequest::default()
        };
        for (spelling, name) in [(Spelling::Flag, "--as-of"), (Spelling::Param, "as_of")] {
            let e = Relay::new(&store, dir.path(), &Caller::Local, spelling)
                .orient("demo", &req)
                .err()
                .unwrap();
            assert_eq!(e.code(), "invalid_input");
            assert!(e.to_string().contains(name), "{e}");
        }
        let get = GetFactRequest {
            subject: "s".into(),
            predicate: "p".into(),
            at: Some("yesterday-ish".into()),
            ..GetFactRequest::default()
        };
        let e = Relay::new(&store, dir.path(), &Caller::Local, Spelling::Flag)
            .facts_get("demo", &get)
            .unwrap_err();
        assert!(e.to_string().contains("--at"), "{e}");
        let sessions = SessionListRequest {
            as_of: Some("soon".into()),
            ..SessionListRequest::default()
        };
        let e = Relay::new(&store, dir.path(), &Caller::Local, Spelling::Flag)
            .sessions_list("demo", &sessions)
            .unwrap_err();
        assert!(e.to_string().contains("--as-of"), "{e}");
    }

    #[test]
    fn a_scoped_caller_is_refused_another_project_before_its_request_is_read() {
        let (dir, store) = store();
        let caller = scoped_to("demo");
        let relay = Relay::new(&store, dir.path(), &caller, Spelling::Param);
        // The time is bad too: the refusal comes first.
        let req = ListFactsRequest {
            as_of: Some("not a time".into()),
            ..ListFactsRequest::default()
        };
        let e = relay.facts_list("other", req.clone()).unwrap_err();
        assert_eq!(e.code(), "unauthorized");
        assert_eq!(
            relay.facts_list("demo", req).unwrap_err().code(),
            "invalid_input"
        );
        let e = relay.orient("other", &OrientRequest::default()).err();
        assert_eq!(e.unwrap().code(), "unauthorized");
    }

    #[test]
    fn every_project_of_a_scoped_caller_is_the_projects_it_may_read() {
        let (dir, store) = store();
        let caller = scoped_to("other");
        let relay = Relay::new(&store, dir.path(), &caller, Spelling::Param);
        let req = OrchestrateRequest::default();
        let (digest, _) = relay
            .orchestrate(None, &req, |_| unreachable!("no focus, no ranking"))
            .unwrap();
        let seen: Vec<_> = digest.projects.iter().map(|p| &p.project_id).collect();
        assert_eq!(seen, ["other"]);
    }
}
