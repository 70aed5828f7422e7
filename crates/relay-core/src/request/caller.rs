//! The parts of a request that say who calls and on what rather than what is asked: the
//! project selected, the actor claimed and the session recorded. Every door takes them the
//! same way (the CLI as `--project`, `--actor`, `--session`; MCP as arguments of any tool that
//! acts on a project or writes), so they are small request types of their own that a door
//! puts beside an operation's request, and MCP publishes in the tool's schema.

use schemars::JsonSchema;
use serde::Deserialize;

/// The project a call acts on.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct ProjectPart {
    /// The project to act on; default: the server's project (relay mcp --project,
    /// RELAY_PROJECT, or the store's default_project)
    pub project: Option<String>,
}

/// Who a call claims to act as.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct ActorPart {
    /// Who is acting; default: the session's actor, else the server's (RELAY_ACTOR, config,
    /// git user.email)
    pub actor: Option<String>,
    /// What kind of actor; default: the session's, else human
    #[serde(default)]
    #[schemars(schema_with = "actor_type_schema")]
    pub actor_type: Option<String>,
}

/// The session a call records.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct SessionPart {
    /// The session (id or callsign) to record; default: the server's (RELAY_SESSION), else
    /// this clone's current session
    pub session: Option<String>,
}

/// One of §5's actor types ([`relay_wire::ACTOR_TYPES`]).
fn actor_type_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    super::one_of(relay_wire::ACTOR_TYPES)
}

/// The three parts together, as a door reads them from one set of arguments.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct Caller {
    #[serde(flatten)]
    pub project: ProjectPart,
    #[serde(flatten)]
    pub actor: ActorPart,
    #[serde(flatten)]
    pub session: SessionPart,
}

/// The argument names the caller parts take, which an operation's request does not.
pub const CALLER_KEYS: [&str; 4] = ["project", "actor", "actor_type", "session"];

/// What the caller named of its identity (flags, arguments or environment); `None` leaves a
/// value to the defaults.
#[derive(Debug, Clone, Default)]
pub struct Claim {
    pub actor: Option<String>,
    pub actor_type: Option<String>,
    /// A session id or callsign.
    pub session: Option<String>,
    /// The caller is not this clone's user but a client of it (a request to `relay serve`
    /// with a token): the clone's current session and its work tree's HEAD are not the
    /// caller's, so a write records neither, only a session the caller names.
    pub remote: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parts_read_from_one_set_of_arguments() {
        let c: Caller = serde_json::from_value(
            serde_json::json!({"project": "web", "actor": "a@x", "session": "coral-heron"}),
        )
        .unwrap();
        assert_eq!(c.project.project.as_deref(), Some("web"));
        assert_eq!(c.actor.actor.as_deref(), Some("a@x"));
        assert_eq!(c.actor.actor_type, None);
        assert_eq!(c.session.session.as_deref(), Some("coral-heron"));
    }
}
