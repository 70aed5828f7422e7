//! orchestrate (§8.4): a digest across packages for an agent to synthesise from (relay has
//! no LLM): recent activity by type, decisions and handoffs, active facts, open questions,
//! snippets relevant to a focus, and per-project counts in global mode.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::search::filter::Filter;
use crate::search::fuse::Mode;
use crate::search::model::Model;
use crate::search::relevant::Ranked;
use relay_store::Store;
use relay_store::packages::StoredPackage;
use relay_wire::error::Result;
use relay_wire::{Fact, Project, time};

/// What to digest.
#[derive(Debug, Clone)]
pub struct DigestRequest {
    /// One project, or every project (global mode) when `None`.
    pub project: Option<String>,
    pub focus: Option<String>,
    /// How many relevant snippets to pull for the focus (default 25).
    pub snippets: usize,
    /// Global mode: include archived projects too.
    pub include_archived: bool,
    /// Global mode: only these projects (a caller's access scope); `None`: every project.
    pub only: Option<Vec<String>>,
    pub window_days: u32,
    /// How the focus is searched, and the model semantic and hybrid search use.
    pub mode: Mode,
    pub model: Option<std::sync::Arc<Model>>,
    /// A snapshot read: the digest as it would have been generated at this time, from what
    /// the store held then.
    pub as_of: Option<time::Timestamp>,
}

/// Counts for one project in global mode.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ProjectCounts {
    pub project_id: String,
    pub name: String,
    pub archived: bool,
    pub recent_packages: usize,
    pub open_questions: usize,
    pub active_facts: usize,
}

/// The DigestBundle, with the packages kept whole for rendering.
#[derive(Debug, Clone)]
pub struct Digest {
    pub project: Option<Project>,
    pub window_days: u32,
    pub generated_at: time::Timestamp,
    /// The window's packages across the scope, newest first, no drafts.
    pub recent: Vec<StoredPackage>,
    /// Active facts with the project they belong to.
    pub active_facts: Vec<Fact>,
    pub open_questions: Vec<String>,
    pub snippets: Vec<Ranked>,
    pub focus: Option<String>,
    /// Global mode only.
    pub projects: Vec<ProjectCounts>,
}

pub fn digest(store: &Store, req: &DigestRequest) -> Result<Digest> {
    let now = req.as_of.unwrap_or_else(time::now);
    let since = crate::ops::briefing::orient::window_start(now, req.window_days);
    // A snapshot leaves out the projects created since, and counts archiving from its time.
    let existed = |p: &Project| req.as_of.is_none_or(|t| p.created_at() <= t);
    let archived = |p: &Project| {
        p.archived_at().is_some_and(|at| {
            req.as_of
                .is_none_or(|t| time::parse(at).is_ok_and(|at| at <= t))
        })
    };
    let (project, scope): (Option<Project>, Vec<Project>) = match &req.project {
        Some(id) => {
            let p = crate::ops::projects::get(store, id)?;
            (Some(p.clone()), vec![p])
        }
        None => {
            let all = crate::ops::projects::list(store)?;
            (
                None,
                all.into_iter()
                    .filter(|p| existed(p) && (req.include_archived || !archived(p)))
                    .filter(|p| (req.only.as_ref()).is_none_or(|o| o.iter().any(|x| x == p.id())))
                    .collect(),
            )
        }
    };
    let mut recent = Vec::new();
    let mut active_facts = Vec::new();
    let mut projects = Vec::new();
    for p in &scope {
        let window = crate::ops::briefing::orient::recent_packages(
            store,
            p.id(),
            (since, now),
            crate::ops::briefing::orient::DEFAULT_RECENT_LIMIT,
            req.as_of,
        )?;
        let mine = window.packages;
        let facts = crate::ops::facts::list(
            store,
            p.id(),
            &crate::ops::facts::ListQuery {
                as_of: req.as_of,
                ..Default::default()
            },
        )?;
        projects.push(ProjectCounts {
            project_id: p.id().to_string(),
            name: p.name().to_string(),
            archived: archived(p),
            recent_packages: window.total,
            open_questions: crate::ops::briefing::orient::open_questions(&mine).len(),
            active_facts: facts.len(),
        });
        recent.extend(mine);
        active_facts.extend(facts);
    }
    recent.sort_by_cached_key(|p| {
        (
            std::cmp::Reverse(p.package.created_at()),
            p.package.id().to_string(),
        )
    });
    recent.truncate(crate::ops::briefing::orient::DEFAULT_RECENT_LIMIT);
    let open_questions = crate::ops::briefing::orient::open_questions(&recent);
    let snippets = match req.focus.as_deref().filter(|f| !f.trim().is_empty()) {
        Some(focus) => {
            let ids: Vec<String> = scope.iter().map(|p| p.id().to_string()).collect();
            // Drafts stay out of digests: no viewer sees them here.
            let filter = Filter {
                viewer: crate::search::filter::Viewer::known(Some(String::new())),
                as_of: req.as_of,
                ..Filter::default()
            };
            let model = req.model.as_deref();
            crate::search::semantic::search(
                store,
                &ids,
                focus,
                &filter,
                req.snippets,
                req.mode,
                model,
            )?
        }
        None => Vec::new(),
    };
    Ok(Digest {
        projects: if req.project.is_none() {
            projects
        } else {
            Vec::new()
        },
        project,
        window_days: req.window_days,
        generated_at: now,
        recent,
        active_facts,
        open_questions,
        snippets,
        focus: req.focus.clone(),
    })
}

impl Digest {
    pub fn by_type(&self) -> BTreeMap<&str, usize> {
        let mut m = BTreeMap::new();
        for p in &self.recent {
            *m.entry(p.package.package_type()).or_default() += 1;
        }
        m
    }

    /// The DigestBundle: `summary` (the window's counts by type, decisions and handoffs),
    /// `active_facts`, `open_questions`, `snippets` for the focus, and `projects` (global mode).
    pub fn bundle(&self) -> Value {
        let decisions: Vec<Value> = self
            .recent
            .iter()
            .flat_map(|p| {
                p.package.list("decisions_made").into_iter().map(move |d| {
                    json!({"package_id": p.package.id(), "project_id": p.package.project_id(), "title": p.package.title(), "decision": d})
                })
            })
            .collect();
        let handoffs: Vec<Value> = self
            .recent
            .iter()
            .filter_map(|p| {
                let note = p
                    .package
                    .str_field("handoff_note")
                    .filter(|h| !h.trim().is_empty())?;
                Some(json!({
                    "package_id": p.package.id(), "project_id": p.package.project_id(),
                    "title": p.package.title(), "handoff_note": note,
                    "estimated_next_actor": p.package.str_field("estimated_next_actor"),
                    "by": p.package.as_map().get("created_by"), "at": p.package.created_at_str(),
                }))
            })
            .collect();
        let snippets: Vec<Value> = self
            .snippets
            .iter()
            .map(|r| {
                let p = &r.stored.package;
                json!({"package_id": p.id(), "project_id": p.project_id(), "title": p.title(), "score": r.score,
                       "matched": r.matched, "created_at": p.created_at_str(), "package": p})
            })
            .collect();
        let mut v = json!({
            "scope": if self.project.is_some() { "project" } else { "global" },
            "project": self.project,
            "window_days": self.window_days,
            "generated_at": time::format(self.generated_at),
            "focus": self.focus,
            "summary": {
                "packages": self.recent.len(),
                "by_type": self.by_type(),
                "decisions": decisions,
                "handoffs": handoffs,
            },
            "active_facts": self.active_facts,
            "open_questions": self.open_questions,
            "snippets": snippets,
        });
        if self.project.is_none() {
            v["projects"] = json!(self.projects);
        }
        v
    }
}

/// The request every door decodes, turned into the digest's input here, beside the digest.
impl crate::request::OrchestrateRequest {
    /// The digest the core assembles for this request, with what each door works out its own
    /// way: the project (`None`: every project), how the focus is searched and with which
    /// model, the projects a caller's scope allows (`only`), and the snapshot time as parsed.
    pub fn digest(
        self,
        project: Option<String>,
        ranking: (Mode, Option<std::sync::Arc<Model>>),
        only: Option<Vec<String>>,
        as_of: Option<relay_wire::time::Timestamp>,
    ) -> DigestRequest {
        DigestRequest {
            project,
            focus: self.focus,
            snippets: self.snippets,
            include_archived: self.include_archived,
            only,
            window_days: self.window_days,
            mode: ranking.0,
            model: ranking.1,
            as_of,
        }
    }
}
