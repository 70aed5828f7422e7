//! Review (§5.3, §8.5, §11.4): flag a package for human or agent review, approve it, or send it
//! back. A transition appends a new version of the package, with the transition's metadata in
//! the envelope; `complete` is terminal.

use serde_json::{Map, Value, json};

use crate::ops::Actor;
use relay_store::Store;
use relay_store::packages::{StoredPackage, version_order};
use relay_wire::error::{Error, Result};
use relay_wire::{Package, Status, time};

pub use crate::request::review::{Action, Reviewer};

impl Action {
    pub fn name(self) -> &'static str {
        match self {
            Action::Flag { .. } => "flag",
            Action::Approve => "approve",
            Action::RequestChanges => "request_changes",
        }
    }

    /// The status this action leads to from `from`, or `None` when §5.3's table forbids it:
    /// `complete` is terminal, and a package already awaiting review cannot be flagged again
    /// (awaiting_review leads only to complete or revision_requested).
    pub fn target(self, from: Status) -> Option<Status> {
        use Status::*;
        match (self, from) {
            (_, Complete) => None,
            (Action::Flag { .. }, Draft | RevisionRequested) => Some(AwaitingReview),
            (Action::Flag { .. }, AwaitingReview) => None,
            (Action::Approve, _) => Some(Complete),
            (Action::RequestChanges, AwaitingReview) => Some(RevisionRequested),
            (Action::RequestChanges, _) => None,
        }
    }
}

/// Who asks for the transition, and why.
#[derive(Debug, Clone)]
pub struct TransitionRequest {
    pub action: Action,
    pub note: Option<String>,
    pub actor: Actor,
    pub session_id: Option<String>,
}

/// Applies a review action to the current version of a package, wherever it is stored (see
/// [`crate::ops::packages::pull::specific`], which takes a short id too). Under the project lock it checks the transition against §5.3 and appends the new
/// version; an illegal transition writes nothing.
pub fn transition(
    store: &Store,
    package_id: &str,
    req: &TransitionRequest,
) -> Result<StoredPackage> {
    let note = match &req.note {
        Some(n) => Some(
            crate::ops::trust::secrets::guard_fields(store, &[("note", n.as_str())])?.remove(0),
        ),
        None => None,
    };
    let req = &TransitionRequest {
        note,
        ..req.clone()
    };
    let current = crate::ops::packages::pull::specific(store.view(), package_id)?;
    // A short id names the package whose id it begins; from here on, its whole id.
    let package_id = &current.package.id().to_string();
    let project_id = current.package.project_id().to_string();
    let _lock = store.lock_project(&project_id)?;
    if crate::ops::projects::get(store, &project_id)?.is_archived() {
        return Err(Error::ProjectArchived(project_id));
    }
    if let Some(s) = &req.session_id {
        crate::ops::sessions::ensure_open(store, &project_id, s)?;
    }
    // Read again under the lock: another writer may have moved it meanwhile.
    let versions = store.package_versions(&project_id, package_id)?;
    let current = versions
        .iter()
        .max_by(|a, b| version_order(a, b))
        .unwrap_or(&current)
        .clone();
    let from = current.package.status();
    let to = req
        .action
        .target(from)
        .ok_or_else(|| Error::InvalidTransition {
            package_id: package_id.to_string(),
            from: from.as_str().to_string(),
            action: req.action.name().replace('_', " "),
        })?;
    reviewer_may_act(&current.package, req)?;
    let mut map = current.package.as_map().clone();
    map.insert("status".into(), json!(to.as_str()));
    if let Action::Flag { reviewer } = req.action {
        map.insert("review_type".into(), json!(reviewer.as_str()));
    }
    let package = Package::from_map(map)?;
    let version = versions.iter().map(|v| v.version).max().unwrap_or(1) + 1;
    let mut by = Map::new();
    by.insert("id".into(), json!(req.actor.id));
    by.insert("type".into(), json!(req.actor.actor_type));
    if let Some(s) = &req.session_id {
        by.insert("session_id".into(), json!(s));
    }
    let mut meta = Map::new();
    meta.insert("action".into(), json!(req.action.name()));
    meta.insert("from".into(), json!(from.as_str()));
    meta.insert("to".into(), json!(to.as_str()));
    meta.insert("by".into(), Value::Object(by));
    meta.insert("at".into(), json!(time::format(time::now())));
    if let Some(n) = &req.note {
        meta.insert("note".into(), json!(n));
    }
    let next = StoredPackage {
        hash: package.content_hash(),
        package,
        version,
        transition: Some(Value::Object(meta)),
        location: current.location.clone(),
    };
    append_version(store, &project_id, &next)?;
    Ok(next)
}

/// §5.3: a package awaiting review is "blocked on a reviewer (human or agent) per
/// review_type". Approving it or sending it back is therefore for an actor of the kind its
/// `review_type` names (a `human` review for a human, an `agent` review for an agent); a
/// review of type `none` and a package in any other status may be moved by anyone the
/// caller's access allows. The actor is the one the write is attributed to: a token's own
/// actor over HTTP and MCP, the CLI's `--actor-type` or the local user.
fn reviewer_may_act(package: &Package, req: &TransitionRequest) -> Result<()> {
    let gated = package.status() == Status::AwaitingReview
        && matches!(req.action, Action::Approve | Action::RequestChanges);
    let wanted = package.review_type();
    if !gated || !matches!(wanted, "human" | "agent") || req.actor.actor_type == wanted {
        return Ok(());
    }
    let act = match req.action {
        Action::RequestChanges => "send it back",
        _ => "approve it",
    };
    Err(Error::Unauthorized(format!(
        "package `{}` awaits {wanted} review (review_type: {wanted}), and `{}` acts as {}: \
         only {wanted}s may {act} (§5.3); ask {} to review it",
        package.id(),
        req.actor.id,
        a_kind(&req.actor.actor_type),
        a_kind(wanted),
    )))
}

/// "a human", "an agent", "a script".
fn a_kind(kind: &str) -> String {
    match kind {
        "agent" => "an agent".into(),
        other => format!("a {other}"),
    }
}

/// Appends a later version of a package (its transition recorded and signed) to its log in
/// `project_id`; the caller holds the project lock.
pub fn append_version(store: &Store, project_id: &str, next: &StoredPackage) -> Result<()> {
    let line = relay_store::ndjson::to_line(&next.to_envelope())?;
    let signed = [relay_store::signing::RecordVersion::package(next)];
    store.append_signed(
        &store.package_log_for(&next.package),
        &line,
        project_id,
        &signed,
        None,
    )
}

/// A package awaiting review, with who asked for it.
#[derive(Debug, Clone)]
pub struct Pending {
    pub package: StoredPackage,
    /// Who flagged it (the depositor when it was deposited awaiting review).
    pub flagged_by: Value,
    pub flagged_at: String,
    pub note: Option<String>,
}

impl Pending {
    /// The package's envelope with who flagged it, when and why (`relay review list --json`).
    pub fn to_value(&self) -> Value {
        let mut v = Value::Object(StoredPackage::envelope(
            &self.package.package,
            &self.package.hash,
        ));
        v["flagged_by"] = self.flagged_by.clone();
        v["flagged_at"] = json!(self.flagged_at);
        v["note"] = json!(self.note);
        v
    }
}

/// The packages in `awaiting_review` across `projects` (§11.4), optionally for one kind of
/// reviewer, oldest request first.
pub fn pending(
    store: &Store,
    projects: &[String],
    reviewer: Option<Reviewer>,
) -> Result<Vec<Pending>> {
    let mut out = Vec::new();
    // The catalogs know each package's status: only the lines awaiting review are read.
    let waiting = crate::search::filter::Filter {
        status: Some(Status::AwaitingReview),
        ..Default::default()
    };
    for project in projects {
        let current = crate::ops::packages::pull::latest(
            store,
            std::slice::from_ref(project),
            &waiting,
            usize::MAX,
        )?;
        for p in current {
            if p.package.status() != Status::AwaitingReview
                || reviewer.is_some_and(|r| r.as_str() != p.package.review_type())
            {
                continue;
            }
            let t = p.transition.as_ref();
            let field = |k: &str| t.and_then(|t| t.get(k)).cloned();
            let flagged_by = field("by").unwrap_or_else(|| {
                p.package
                    .as_map()
                    .get("created_by")
                    .cloned()
                    .unwrap_or(Value::Null)
            });
            let flagged_at = field("at")
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_else(|| p.package.created_at_str().to_string());
            let note = field("note").and_then(|v| v.as_str().map(str::to_string));
            out.push(Pending {
                package: p,
                flagged_by,
                flagged_at,
                note,
            });
        }
    }
    out.sort_by_cached_key(|p| {
        (
            time::parse(&p.flagged_at).ok(),
            p.package.package.id().to_string(),
        )
    });
    Ok(out)
}

/// Whether a package belongs in digests (orient, orchestrate): drafts do not (§5.3).
pub fn in_digests(p: &Package) -> bool {
    p.status() != Status::Draft
}

#[cfg(test)]
mod tests {
    use super::*;
    use Status::*;

    #[test]
    fn the_transition_table_of_section_5_3() {
        let flag = Action::Flag {
            reviewer: Reviewer::Human,
        };
        let cases = [
            (flag, Draft, Some(AwaitingReview)),
            (flag, AwaitingReview, None),
            (flag, RevisionRequested, Some(AwaitingReview)),
            (flag, Complete, None),
            (Action::Approve, Draft, Some(Complete)),
            (Action::Approve, AwaitingReview, Some(Complete)),
            (Action::Approve, RevisionRequested, Some(Complete)),
            (Action::Approve, Complete, None),
            (
                Action::RequestChanges,
                AwaitingReview,
                Some(RevisionRequested),
            ),
            (Action::RequestChanges, Draft, None),
            (Action::RequestChanges, RevisionRequested, None),
            (Action::RequestChanges, Complete, None),
        ];
        for (action, from, to) in cases {
            assert_eq!(action.target(from), to, "{action:?} from {from:?}");
        }
    }

    fn awaiting(review_type: &str) -> Package {
        Package::from_value(json!({
            "package_id": "pkg_1", "project_id": "p", "relay_version": "0.1", "title": "T",
            "status": "awaiting_review", "package_type": "standard",
            "review_type": review_type, "created_at": "2026-03-01T10:00:00Z",
            "created_by": {"id": "a", "type": "agent"},
        }))
        .unwrap()
    }

    fn by(action: Action, actor_type: &str) -> TransitionRequest {
        TransitionRequest {
            action,
            note: None,
            actor: Actor {
                id: "bot".into(),
                actor_type: actor_type.into(),
            },
            session_id: None,
        }
    }

    #[test]
    fn a_review_is_acted_on_only_by_the_kind_its_review_type_names() {
        for action in [Action::Approve, Action::RequestChanges] {
            let human = awaiting("human");
            assert!(reviewer_may_act(&human, &by(action, "human")).is_ok());
            for other in ["agent", "script"] {
                let e = reviewer_may_act(&human, &by(action, other)).unwrap_err();
                assert_eq!(e.code(), "unauthorized", "{action:?} by {other}");
                assert!(e.to_string().contains("awaits human review"), "{e}");
            }
            let agent = awaiting("agent");
            assert!(reviewer_may_act(&agent, &by(action, "agent")).is_ok());
            assert!(reviewer_may_act(&agent, &by(action, "human")).is_err());
            assert!(reviewer_may_act(&awaiting("none"), &by(action, "script")).is_ok());
        }
        let flag = Action::Flag {
            reviewer: Reviewer::Agent,
        };
        assert!(reviewer_may_act(&awaiting("human"), &by(flag, "agent")).is_ok());
    }
}
