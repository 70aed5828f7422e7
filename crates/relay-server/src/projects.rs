//! The project routes of `relay serve` (§5.2; the spec gives them no HTTP mapping): list the
//! projects the caller may see, create one, archive one. A client that starts from nothing
//! (the conformance suite, a new team's dashboard) can then make the project it writes to,
//! and put it away after.

use axum::extract::State;
use serde::Deserialize;
use serde_json::{Value, json};

use super::auth::{Access, Caller, ProjectCall};
use super::extract::JsonBody;
use super::reply::{Answer, Reply};
use super::state::AppState;

/// The projects the caller may see: `{"projects": […]}`.
pub async fn list(State(state): State<AppState>, caller: Caller) -> Answer {
    state
        .blocking(move |s| {
            let all = caller.relay(s).projects_list()?;
            let list: Vec<Value> = all.iter().map(|p| p.to_value()).collect();
            Ok(Reply::ok(json!({ "projects": list })))
        })
        .await
}

/// The body of a project's creation.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateBody {
    project_id: String,
    name: Option<String>,
    description: Option<String>,
}

/// Creates a project: 201 with its record; 409 `project_exists` if it is there. A token
/// creates only projects in its scope, and a read-only one none.
pub async fn create(State(state): State<AppState>, caller: Caller, body: JsonBody) -> Answer {
    let body: CreateBody = body.parse("a project")?;
    state
        .blocking(move |s| {
            let (name, description) = (body.name.as_deref(), body.description.as_deref());
            let p = caller
                .relay(s)
                .projects_create(&body.project_id, name, description)?;
            Ok(Reply::written(true, p.to_value()))
        })
        .await
}

/// Archives a project (its records stay; writes to it are refused): the new record.
pub async fn archive(call: ProjectCall) -> Answer {
    call.run(Access::Write, move |s, caller, project| {
        let archived = caller.relay(s).projects_archive(&project, true)?;
        Ok(Reply::ok(archived.to_value()))
    })
    .await
}
