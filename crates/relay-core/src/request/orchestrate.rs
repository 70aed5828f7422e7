//! orchestrate's request (§8.4): one project or every project, a focus and how it is
//! searched, how many snippets, the window, and a snapshot time.

use schemars::JsonSchema;
use serde::Deserialize;

use super::{check_exclusive, check_window, default_window_days};

use relay_wire::error::Result;

/// How many packages relevant to the focus a digest pulls unless asked otherwise.
pub const DEFAULT_SNIPPETS: usize = 25;

/// What orchestrate is asked for. The field docs are what an agent reads in MCP's tool
/// schema; the defaults are [`DEFAULT_SNIPPETS`] and [`super::DEFAULT_WINDOW_DAYS`].
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OrchestrateRequest {
    /// The one project to digest. On HTTP, none means every project the caller may see; the
    /// CLI and MCP fill in their selected project unless `all_projects` is asked for. (MCP
    /// publishes it as the caller's `project`.)
    #[schemars(skip)]
    pub project: Option<String>,
    /// A topic: pulls the packages most relevant to it
    pub focus: Option<String>,
    /// How many relevant packages to pull for focus
    #[serde(
        default = "default_snippets",
        deserialize_with = "super::number::whole"
    )]
    pub snippets: usize,
    /// How focus is searched: keyword, semantic or hybrid (default hybrid when an embedding
    /// model is configured, else keyword)
    #[serde(default)]
    #[schemars(schema_with = "super::search::mode_schema")]
    pub search: Option<String>,
    /// Every project (global mode), not just the selected one
    #[serde(default)]
    pub all_projects: bool,
    /// Global mode: include archived projects
    #[serde(default)]
    pub include_archived: bool,
    /// How many days back to look
    #[serde(
        default = "super::default_window_days",
        deserialize_with = "super::number::whole"
    )]
    #[schemars(range(max = super::MAX_WINDOW_DAYS))]
    pub window_days: u32,
    /// The digest as it would have been at this time, from what the store held then
    pub as_of: Option<String>,
}

fn default_snippets() -> usize {
    DEFAULT_SNIPPETS
}

impl Default for OrchestrateRequest {
    fn default() -> Self {
        OrchestrateRequest {
            project: None,
            all_projects: false,
            focus: None,
            snippets: DEFAULT_SNIPPETS,
            include_archived: false,
            window_days: default_window_days(),
            search: None,
            as_of: None,
        }
    }
}

impl OrchestrateRequest {
    /// Refuses a window over the maximum, and one project with every project.
    pub fn validate(&self) -> Result<()> {
        check_window("window_days", self.window_days)?;
        check_exclusive(
            ("all_projects", self.all_projects),
            ("project", self.project.is_some()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::search::Mode;

    #[test]
    fn the_defaults_are_the_named_constants() {
        let r: OrchestrateRequest = serde_json::from_value(serde_json::json!({})).unwrap();
        assert_eq!(r, OrchestrateRequest::default());
        assert_eq!(r.snippets, DEFAULT_SNIPPETS);
        assert_eq!(r.window_days, super::super::DEFAULT_WINDOW_DAYS);
    }

    #[test]
    fn the_digest_carries_the_request_and_what_the_door_worked_out() {
        let r: OrchestrateRequest = serde_json::from_value(serde_json::json!(
            {"focus": "cache", "snippets": 3, "include_archived": true, "window_days": 7}
        ))
        .unwrap();
        let at = relay_wire::time::parse_time("as_of", Some("2026-01-01T00:00:00Z")).unwrap();
        let d = r.digest(
            Some("web".into()),
            (Mode::Hybrid, None),
            Some(vec!["web".into()]),
            at,
        );
        assert_eq!(d.project.as_deref(), Some("web"));
        assert_eq!(d.focus.as_deref(), Some("cache"));
        assert_eq!(
            (d.snippets, d.window_days, d.include_archived),
            (3, 7, true)
        );
        assert_eq!(d.mode, Mode::Hybrid);
        assert_eq!(d.only, Some(vec!["web".to_string()]));
        assert_eq!(d.as_of, at);
    }

    #[test]
    fn one_project_and_every_project_exclude_each_other() {
        let r = OrchestrateRequest {
            project: Some("p".into()),
            all_projects: true,
            ..OrchestrateRequest::default()
        };
        assert!(
            r.validate()
                .unwrap_err()
                .to_string()
                .contains("cannot be used together")
        );
    }
}
