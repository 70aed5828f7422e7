//! Before and after the scenarios: the project the suite writes into (the one given, or one it
//! makes with relay's extension `POST /v1/projects`), the packages the reads are checked
//! against, every deposit the suite makes, and the clean-up (the facts it asserted invalidated;
//! the project it made archived, where relay's extension `POST /v1/projects/{id}/archive` is
//! offered).

use chrono::TimeDelta;
use serde_json::{Value, json};

use super::client::{Answer, Client};
use super::{ACTOR, Kind, Suite, shape};
use relay_wire::error::{Error, Result};
use relay_wire::ids;

/// The project of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Project {
    pub id: String,
    /// Whether the suite made it (and so archives it at the end).
    pub created: bool,
}

/// The project to write into: `given` once the server shows it has it, else a new one.
pub fn project(client: &Client, given: Option<&str>) -> Result<Project> {
    if let Some(id) = given {
        let a = client.get(
            &["v1", "projects", id, "packages"],
            &[("mode", "latest"), ("limit", "1")],
        );
        usable(client, &a)?;
        if a.status == 404 && a.error_code() == Some("project_not_found") {
            return Err(Error::InvalidInput(format!(
                "the server at {} has no project `{id}` ({}); pass --project with a project it \
                 has, or leave --project out for the suite to make one",
                client.base(),
                a.answered()
            )));
        }
        return Ok(Project {
            id: id.to_string(),
            created: false,
        });
    }
    let id = format!("conformance-{}", &ids::new_id("x")[2..]);
    let body = json!({"project_id": id, "name": "relay conformance suite"});
    let a = client.post(&["v1", "projects"], &body);
    usable(client, &a)?;
    if a.success() {
        return Ok(Project { id, created: true });
    }
    let why = if a.no_route() {
        "it does not make projects over HTTP (`POST /v1/projects` is relay's extension: §9.1 \
         maps no route for it)"
    } else {
        "the suite could not make a project there"
    };
    Err(Error::InvalidInput(format!(
        "{} answered {}: {why}. Pass --project ID to name an existing project the suite may \
         write into",
        a.request,
        a.said()
    )))
}

/// An error when the answer shows the suite cannot work with this server at all: no answer,
/// or its token refused (§9.2).
fn usable(client: &Client, a: &Answer) -> Result<()> {
    if let Some(f) = &a.failure {
        return Err(Error::io(
            format!("the server at {} stopped answering", client.base()),
            std::io::Error::other(f.clone()),
        ));
    }
    if matches!(a.status, 401 | 403) {
        return Err(Error::InvalidInput(format!(
            "the server refused the suite: {}; pass a token that may read and write the \
             project with --token TOKEN or RELAY_TOKEN (§9.2)",
            a.answered()
        )));
    }
    Ok(())
}

/// How many packages the suite seeds: more than the 5 a latest pull answers by default
/// (§8.2), so that the default shows.
pub const SEEDS: usize = 8;

impl Suite {
    /// Deposits [`SEEDS`] complete packages, a second apart and made in the last seconds, for
    /// the reads to find; then, older than them and not among them, the packages of
    /// `pull_relevant_order` and `orient_window`.
    pub(super) fn seed(&mut self) {
        self.seed_latest();
        self.seed_ranking();
        self.seed_old();
    }

    fn seed_latest(&mut self) {
        for n in 1..=SEEDS {
            let age = TimeDelta::seconds((SEEDS + 1 - n) as i64);
            let package = self.package(&format!("Conformance seed {n}"), "complete", age);
            let a = self.deposit(&package);
            let stored = (a.body.as_ref())
                .filter(|_| a.success())
                .and_then(shape::package_of)
                .cloned();
            match stored {
                Some(p) => {
                    self.saw(Kind::Package, &a, &[&p]);
                    self.seeds.push(p);
                }
                None => {
                    self.seed_problem = Some(a.answered());
                    return;
                }
            }
        }
    }

    /// `POST /v1/projects/{p}/packages` of `package`, as it is.
    pub(super) fn post_package(&self, package: &Value) -> Answer {
        let path = ["v1", "projects", self.project.as_str(), "packages"];
        self.client.post(&path, package)
    }

    /// Deposits `package` into the suite's project (§8.1). A server whose token writes as its
    /// own actor only refuses the suite's (403 `unauthorized`). When the refusal names that
    /// actor (relay's member `"actor": {"id", "type"}`), the package goes again naming it;
    /// otherwise it goes without `created_by`, for the server to fill in. Either way the
    /// suite's packages name that actor from then on.
    pub(super) fn deposit(&mut self, package: &Value) -> Answer {
        let a = self.post_package(package);
        if a.status != 403 || a.error_code() != Some("unauthorized") {
            return a;
        }
        let named = (a.body.as_ref())
            .and_then(|b| b.get("actor"))
            .and_then(actor_of);
        let (b, how) = match named {
            Some(actor) if actor_of(&package["created_by"]).as_ref() != Some(&actor) => {
                let mut again = package.clone();
                let mut by = match &package["created_by"] {
                    by @ Value::Object(_) => by.clone(),
                    _ => json!({}),
                };
                by["id"] = actor["id"].clone();
                by["type"] = actor["type"].clone();
                again["created_by"] = by;
                (self.post_package(&again), "named in its refusal")
            }
            None if self.actor["id"] == ACTOR => {
                let mut bare = package.clone();
                if let Some(m) = bare.as_object_mut() {
                    m.remove("created_by");
                }
                (self.post_package(&bare), "it chose")
            }
            _ => return a,
        };
        let chosen = (b.body.as_ref())
            .filter(|_| b.success())
            .and_then(shape::package_of)
            .and_then(|p| actor_of(&p["created_by"]));
        if let Some(by) = chosen
            && actor_of(&self.actor).as_ref() != Some(&by)
        {
            self.notes.push(format!(
                "the server refused the actor {} for this token (403 unauthorized), so the \
                 suite's packages name the actor {how}: {by}",
                self.actor
            ));
            self.actor = by;
        }
        b
    }

    /// Invalidates the facts the suite asserted, and archives the project it made.
    pub(super) fn clean_up(&mut self, created: bool) {
        for (subject, predicate) in self.fact_keys.clone() {
            let query = super::facts::key_query(&subject, &predicate);
            let a = self.client.delete(&self.project_path(&["facts"]), &query);
            if !a.success() {
                self.notes.push(format!(
                    "could not invalidate the suite's fact ({subject}, {predicate}): {}",
                    a.answered()
                ));
            }
        }
        if !created {
            self.notes.push(format!(
                "the suite's packages stay in the project `{}` (packages are immutable, §6.6)",
                self.project
            ));
            return;
        }
        let a = self
            .client
            .post(&self.project_path(&["archive"]), &json!({}));
        let note = if a.success() {
            format!("archived the project `{}`", self.project)
        } else if a.no_route() {
            format!(
                "left the project `{}` on the server: it offers no `POST \
                 /v1/projects/{{id}}/archive` (relay's extension)",
                self.project
            )
        } else {
            format!(
                "could not archive the project `{}`: {}",
                self.project,
                a.answered()
            )
        };
        self.notes.push(note);
    }
}

/// The actor of a `created_by` or of relay's `actor` member: its `id` and `type`, both
/// strings; `None` for anything else.
fn actor_of(v: &Value) -> Option<Value> {
    let (id, kind) = (v.get("id")?.as_str()?, v.get("type")?.as_str()?);
    Some(json!({"id": id, "type": kind}))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_actor_is_an_id_and_a_type_both_strings() {
        let named = json!({"id": "ci-bot", "type": "agent", "session_id": null});
        assert_eq!(
            actor_of(&named),
            Some(json!({"id": "ci-bot", "type": "agent"}))
        );
        assert_eq!(actor_of(&json!({"id": "ci-bot"})), None);
        assert_eq!(actor_of(&json!({"id": 7, "type": "agent"})), None);
        assert_eq!(actor_of(&json!("ci-bot")), None);
    }
}
