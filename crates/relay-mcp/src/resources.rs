//! MCP resources: one per project, its feed of packages (`relay://projects/{id}/packages`),
//! listed, read (the latest packages, as the `pull` tool returns them) and, where the
//! transport can push messages (Streamable HTTP), subscribed to: the transport sends
//! `notifications/resources/updated` for a subscribed feed when a record lands in its project.

use serde_json::{Map, Value, json};

use super::host::{Context, Host, Settings};
use super::tools;
use relay_core::service::scope;
use relay_wire::error::{Error, Result};

const PREFIX: &str = "relay://projects/";
const SUFFIX: &str = "/packages";
/// How many of the newest packages a read returns.
pub const READ_LIMIT: u64 = 20;

/// The resource URI of `project`'s feed.
pub fn feed_uri(project: &str) -> String {
    format!("{PREFIX}{project}{SUFFIX}")
}

/// The project a feed URI names.
pub fn project_of(uri: &str) -> Option<&str> {
    let project = uri.strip_prefix(PREFIX)?.strip_suffix(SUFFIX)?;
    (!project.is_empty() && !project.contains('/')).then_some(project)
}

/// `resources/list`: the feed of every project the caller may see.
pub fn list(host: &dyn Host, settings: &Settings) -> Result<Value> {
    let ctx = Context {
        host,
        cwd: &settings.cwd,
        project: None,
        grant: settings.grant.as_ref(),
        operation: "pull",
    };
    let resources: Vec<Value> = ctx
        .projects(true)?
        .iter()
        .map(|p| {
            json!({
                "uri": feed_uri(p),
                "name": format!("{p} packages"),
                "title": format!("Packages of {p}"),
                "description": format!(
                    "The newest packages of project {p} (at most {READ_LIMIT}), newest first"
                ),
                "mimeType": "application/json",
            })
        })
        .collect();
    Ok(json!({ "resources": resources }))
}

/// `resources/read`: the newest packages of the feed's project, as `pull` returns them.
pub fn read(host: &dyn Host, settings: &Settings, uri: &str) -> Result<Value> {
    let project = known(host, settings, uri)?;
    let pull = tools::find("pull").expect("the pull tool");
    let mut arguments = Map::new();
    arguments.insert("project".into(), json!(project));
    arguments.insert("mode".into(), json!("latest"));
    arguments.insert("limit".into(), json!(READ_LIMIT));
    let packages = tools::call(host, settings, pull, arguments)?;
    Ok(json!({ "contents": [{
        "uri": uri,
        "mimeType": "application/json",
        "text": packages.to_string(),
    }]}))
}

/// The project of a feed URI, which must name a project of the store (that a remote
/// client's token covers).
pub fn known(host: &dyn Host, settings: &Settings, uri: &str) -> Result<String> {
    let Some(project) = project_of(uri) else {
        return Err(Error::InvalidInput(format!(
            "no resource {uri}: relay's resources are {PREFIX}{{project}}{SUFFIX}"
        )));
    };
    // Reading a feed is pulling the project's packages.
    let who = relay_core::service::Caller::of(settings.grant.as_ref());
    who.authorize_project("pull", project)?;
    scope::only_project(host.store()?, project.to_string())?;
    Ok(project.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_feed_uri_names_its_project_and_nothing_else_does() {
        assert_eq!(feed_uri("web"), "relay://projects/web/packages");
        assert_eq!(project_of(&feed_uri("web")), Some("web"));
        assert_eq!(project_of("relay://projects//packages"), None);
        assert_eq!(project_of("relay://projects/a/b/packages"), None);
        assert_eq!(project_of("relay://projects/web/facts"), None);
        assert_eq!(project_of("file:///etc/passwd"), None);
    }
}
