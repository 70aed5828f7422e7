//! The L3 scenarios (§11.4): the transitions of §5.3. flag_for_review of a complete package is
//! refused (§8.5); a draft flagged goes to `awaiting_review` with its review_type, is
//! enumerated among the project's reviews, may not be flagged again while it waits, and is
//! approved to `complete`; another gets changes requested (`revision_requested`) and is
//! flagged again; transitions §5.3 does not allow are refused, and so is a review_type outside
//! human and agent. §9.1 maps only flag; approve, request-changes and the review list use
//! relay's routes (`POST /v1/packages/{id}/approve`, `…/request-changes`, `GET
//! /v1/projects/{p}/reviews`), and a server without them fails L3.
//!
//! A server may let only a reviewer of the kind a package's review_type names approve it or
//! request changes (relay does: 403 `unauthorized` to the other kind). The suite flags for
//! `human` review until such a refusal shows that the server takes it for an agent; it then
//! flags for `agent` (a fresh draft where one was flagged for the other kind) and says so in
//! the notes. A server without such a gate passes alike; the suite requires none.

use chrono::TimeDelta;
use serde_json::{Value, json};

use super::client::Answer;
use super::shape;
use super::{
    Check, Kind, Stop, Suite, expect, expect_error, expect_packages, fail, needs, required,
};
use relay_wire::ids;

/// What requires the transitions.
const L3: &str = "§11.4 (the transitions awaiting_review → complete and → revision_requested)";

/// The kinds of reviewer a package may be flagged for (§8.5).
const HUMAN: &str = "human";
const AGENT: &str = "agent";

/// The review routes relay adds where §9.1 maps none.
const REVIEW_ROUTE: &str = "route for it (§9.1 maps only flag; relay's is POST /v1/packages/{id}/";

impl Suite {
    /// `POST /v1/packages/{id}/{action}` with `body`.
    fn act(&self, id: &str, action: &str, body: Value) -> Answer {
        self.client.post(&["v1", "packages", id, action], &body)
    }

    /// A new package of the suite's in `draft`, as stored.
    fn draft(&mut self, title: &str) -> Check<String> {
        let package = self.package(title, "draft", TimeDelta::zero());
        let a = self.deposit(&package);
        let body = expect(&a, &[200, 201], "a draft deposited (§8.1, §5.3)")?;
        match shape::package_of(body).cloned() {
            Some(p) => {
                self.saw(Kind::Package, &a, &[&p]);
                Ok(shape::text(&p, "package_id").to_string())
            }
            None => fail(format!(
                "{}; expected the stored draft (§8.1)",
                a.answered()
            )),
        }
    }

    /// Approves or requests changes (`action`) of the package `id`, flagged for the suite's
    /// review kind; its id (another when the suite had to flag a fresh draft) and the answer.
    /// A 403 `unauthorized` for a package flagged `human` says the server reviews as an
    /// agent: from then on the suite flags for `agent`, and acts on a fresh draft flagged so.
    fn review(&mut self, id: &str, action: &str, body: Value) -> Check<(String, Answer)> {
        let a = self.act(id, action, body.clone());
        let gated = a.status == 403 && a.error_code() == Some("unauthorized");
        if !gated || self.review_kind != HUMAN {
            return Ok((id.to_string(), a));
        }
        self.review_kind = AGENT;
        self.notes.push(format!(
            "{} answered 403 unauthorized for a package flagged for `human` review: the server \
             reviews as an agent for the suite, which flags its packages for `agent` review \
             from then on (`{id}` stays in awaiting_review)",
            a.request
        ));
        let fresh = self.draft(&format!("Conformance review, for an agent ({action})"))?;
        let f = self.act(&fresh, "flag", json!({"review_type": AGENT}));
        self.moved(&f, "awaiting_review", Some(AGENT), "§8.5, §5.3")?;
        let b = self.act(&fresh, action, body);
        Ok((fresh, b))
    }

    /// A complete package of the suite's, or a failure.
    fn complete_one(&self) -> Check<String> {
        (self.deposited.as_ref().or(self.seeds.first()))
            .map(|p| shape::text(p, "package_id").to_string())
            .ok_or_else(|| {
                Stop::Fail(
                    "not checked: it needs a complete package, and no deposit succeeded".into(),
                )
            })
    }

    /// The package a transition answered with, in `status` (and `review_type`, when given); and
    /// a pull of it says the same.
    fn moved(
        &mut self,
        a: &Answer,
        status: &str,
        review_type: Option<&str>,
        section: &str,
    ) -> Check {
        let expected = format!("200 and the package in `{status}` ({section})");
        let body = expect(a, &[200], &expected)?;
        let Some(p) = shape::package_of(body).cloned() else {
            return fail(format!("{}; expected {expected}", a.answered()));
        };
        self.saw(Kind::Package, a, &[&p]);
        let got = (shape::text(&p, "status"), shape::text(&p, "review_type"));
        if got.0 != status || review_type.is_some_and(|r| r != got.1) {
            return fail(format!(
                "{} answered a package with status `{}` and review_type `{}`; expected `{status}`{} \
                 ({section})",
                a.request,
                got.0,
                got.1,
                review_type
                    .map(|r| format!(" and `{r}`"))
                    .unwrap_or_default()
            ));
        }
        let id = shape::text(&p, "package_id");
        let b = self.client.get(&["v1", "packages", id], &[]);
        match b.body.as_ref().and_then(shape::package_of) {
            Some(q) if b.status == 200 && shape::text(q, "status") == status => Ok(()),
            _ => fail(format!(
                "{} after {}; expected the package in `{status}` ({section})",
                b.answered(),
                a.request
            )),
        }
    }
}

/// flag_for_review of a complete package (§5.3, §8.5): 400 `invalid_transition`.
pub fn flag_complete_refused(s: &mut Suite) -> Check {
    let id = s.complete_one()?;
    let note = "conformance: flagging a complete package must be refused";
    let a = s.act(&id, "flag", json!({"review_type": "human", "note": note}));
    expect_error(
        &a,
        400,
        "invalid_transition",
        "§5.3: complete is terminal; §8.5",
    )
}

/// flag_for_review of a package that does not exist (§8.5): 404 `package_not_found`.
pub fn flag_unknown(s: &mut Suite) -> Check {
    let id = ids::new_id("pkg");
    let a = s.act(&id, "flag", json!({"review_type": "human"}));
    expect_error(&a, 404, "package_not_found", "§8.5")
}

/// flag_for_review of a draft (§8.5): `awaiting_review` with the review_type asked for.
pub fn flag(s: &mut Suite) -> Check {
    let id = s.draft("Conformance review, to approve")?;
    let (note, kind) = ("conformance: please review", s.review_kind);
    let a = s.act(&id, "flag", json!({"review_type": kind, "note": note}));
    s.moved(&a, "awaiting_review", Some(kind), "§8.5, §5.3")?;
    s.flagged = Some(id);
    Ok(())
}

/// The package `flag_for_review` flagged, or a failure.
fn flagged(s: &Suite) -> Check<String> {
    needs(&s.flagged, "the package of `flag_for_review`")
}

/// Enumerating the packages awaiting review (§11.4): the flagged one among them, and only
/// packages in `awaiting_review`.
pub fn listed(s: &mut Suite) -> Check {
    let id = flagged(s)?;
    let a = s.client.get(&s.project_path(&["reviews"]), &[]);
    let a = required(
        &a,
        "review list (§9.1 maps none; relay's is GET /v1/projects/{p}/reviews)",
        "§11.4 (a mechanism to enumerate packages in awaiting_review)",
    )?
    .clone();
    let packages = expect_packages(&a, "200 and the packages awaiting review (§11.4)")?;
    if let Some(p) = packages
        .iter()
        .find(|p| shape::text(p, "status") != "awaiting_review")
    {
        return fail(format!(
            "{} lists `{}` in status `{}`; expected awaiting_review only (§11.4)",
            a.request,
            shape::text(p, "package_id"),
            shape::text(p, "status")
        ));
    }
    s.saw(Kind::Package, &a, &packages.iter().collect::<Vec<_>>());
    if !packages.iter().any(|p| shape::text(p, "package_id") == id) {
        return fail(format!(
            "{} does not list `{id}`, flagged for review (§11.4)",
            a.request
        ));
    }
    Ok(())
}

/// flag_for_review of a package already awaiting review (§5.3: awaiting_review may become
/// complete or revision_requested only): 400 `invalid_transition`, the package still waiting.
pub fn flag_awaiting_refused(s: &mut Suite) -> Check {
    let id = flagged(s)?;
    let a = s.act(&id, "flag", json!({"review_type": s.review_kind}));
    expect_error(
        &a,
        400,
        "invalid_transition",
        "§5.3: awaiting_review may become complete or revision_requested only",
    )?;
    s.unchanged(&id, "awaiting_review", &a.request)
}

/// Approve (§11.4: awaiting_review → complete).
pub fn approve(s: &mut Suite) -> Check {
    let id = flagged(s)?;
    let (id, a) = s.review(&id, "approve", json!({"note": "conformance: approved"}))?;
    let a = required(&a, &format!("approve {REVIEW_ROUTE}approve)"), L3)?.clone();
    s.moved(&a, "complete", None, "§11.4, §5.3")?;
    s.flagged = Some(id);
    s.approved = true;
    Ok(())
}

/// Request changes (§11.4: awaiting_review → revision_requested), then flag again
/// (revision_requested → awaiting_review, §5.3) and approve.
pub fn request_changes(s: &mut Suite) -> Check {
    let id = s.draft("Conformance review, to revise")?;
    let kind = s.review_kind;
    let a = s.act(&id, "flag", json!({"review_type": kind}));
    s.moved(&a, "awaiting_review", Some(kind), "§8.5")?;
    let note = json!({"note": "conformance: please change this"});
    let (id, a) = s.review(&id, "request-changes", note)?;
    let a = required(
        &a,
        &format!("request-changes {REVIEW_ROUTE}request-changes)"),
        L3,
    )?
    .clone();
    s.moved(&a, "revision_requested", None, "§11.4, §5.3")?;
    let kind = s.review_kind;
    let a = s.act(&id, "flag", json!({"review_type": kind}));
    s.moved(
        &a,
        "awaiting_review",
        Some(kind),
        "§5.3: revision_requested → awaiting_review",
    )?;
    let (_, a) = s.review(&id, "approve", json!({}))?;
    if s.approved {
        s.moved(&a, "complete", None, "§5.3: awaiting_review → complete")?;
    }
    Ok(())
}

/// Transitions §5.3 does not allow: approve or request changes of a complete package, and
/// request changes of a draft; each 400 `invalid_transition`.
pub fn illegal(s: &mut Suite) -> Check {
    let done = s.complete_one()?;
    let a = s.act(&done, "approve", json!({}));
    let a = required(&a, &format!("approve {REVIEW_ROUTE}approve)"), L3)?.clone();
    expect_error(&a, 400, "invalid_transition", "§5.3: complete is terminal")?;
    let note = json!({"note": "conformance: must be refused"});
    let a = s.act(&done, "request-changes", note.clone());
    let a = required(
        &a,
        &format!("request-changes {REVIEW_ROUTE}request-changes)"),
        L3,
    )?
    .clone();
    expect_error(&a, 400, "invalid_transition", "§5.3: complete is terminal")?;
    let draft = match s.draft("Conformance draft, never reviewed") {
        Ok(id) => id,
        Err(Stop::Fail(why)) => return fail(format!("not checked: no draft to check with: {why}")),
        Err(other) => return Err(other),
    };
    let a = s.act(&draft, "request-changes", note);
    expect_error(
        &a,
        400,
        "invalid_transition",
        "§5.3: a draft may become complete or awaiting_review only",
    )
}

/// flag_for_review with a review_type outside human and agent (§8.5; §6.1's enum): 400, and
/// the draft unchanged. §8.5 names no code for it; the suite accepts `invalid_schema` (§8.1's
/// for a member invalid) and `invalid_input` (a value refused, relay's). It runs after every
/// listing of reviews, so that a package a server wrongly flagged is judged here alone.
pub fn flag_unknown_review_type(s: &mut Suite) -> Check {
    let id = s.draft("Conformance draft, flagged for no one")?;
    let a = s.act(&id, "flag", json!({"review_type": "robot"}));
    super::expect_error_in(
        &a,
        400,
        &["invalid_schema", "invalid_input"],
        "§8.5: review_type is one of human, agent",
    )?;
    s.unchanged(&id, "draft", &a.request)
}

impl Suite {
    /// A pull of `id` shows it still in `status` after the refused `request`.
    fn unchanged(&self, id: &str, status: &str, request: &str) -> Check {
        let b = self.client.get(&["v1", "packages", id], &[]);
        match b.body.as_ref().and_then(shape::package_of) {
            Some(p) if b.status == 200 && shape::text(p, "status") == status => Ok(()),
            _ => fail(format!(
                "{} after the refused {request}; expected the package still in `{status}` \
                 (§5.3)",
                b.answered()
            )),
        }
    }
}
