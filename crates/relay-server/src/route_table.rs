//! Every route `relay serve` answers, as a table: method, path, who may call it and what it
//! does. `docs/reference/http-routes.md` is written from it, and a unit test reads the
//! `.route(…)` calls [`super::routes`] and the console build the router from, so a route
//! added, removed or given another method there fails until this table says the same.

/// Who may call a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Auth {
    /// Anyone who reaches the server: no token, no login.
    None,
    /// A token (or a console login) that may read the project. On a loopback address while
    /// no token is live, anyone.
    Read,
    /// A token (or a console login) that may write to the project: not a read-only one. On
    /// a loopback address while no token is live, anyone.
    Write,
}

impl Auth {
    /// How the reference names it.
    pub fn label(self) -> &'static str {
        match self {
            Auth::None => "none",
            Auth::Read => "read",
            Auth::Write => "write",
        }
    }
}

/// Who decides who may call a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Guard {
    /// An operation of the service: its row in the core's table of rules
    /// ([`relay_core::service::rules`]) says, and the server checks it before the request's
    /// query or body is read.
    Operation(&'static str),
    /// A route of the door itself (the console's pages, the MCP endpoint), with its own.
    Door(Auth),
}

/// One method of one route.
#[derive(Debug, Clone, Copy)]
pub struct Route {
    pub method: &'static str,
    /// The path as axum's router writes it, `{name}` for a path parameter.
    pub path: &'static str,
    pub guard: Guard,
    /// What it does and answers, in a sentence or two.
    pub does: &'static str,
}

impl Route {
    /// Who may call it.
    pub fn auth(&self) -> Auth {
        use relay_core::service::Access;
        match self.guard {
            Guard::Door(auth) => auth,
            Guard::Operation(op) => match relay_core::service::rules::of(op).map(|r| r.access) {
                Ok(Access::Public) => Auth::None,
                Ok(Access::Read) => Auth::Read,
                Ok(Access::Write) | Err(_) => Auth::Write,
            },
        }
    }

    /// The route `method` and `matched` (axum's matched path) name.
    pub fn find(method: &str, matched: &str) -> Option<&'static Route> {
        ROUTES
            .iter()
            .find(|r| r.method == method && r.path == matched)
    }
}

const fn route(
    method: &'static str,
    path: &'static str,
    guard: Guard,
    does: &'static str,
) -> Route {
    Route {
        method,
        path,
        guard,
        does,
    }
}

/// Every route, the §9.1 mapping first, then relay's own, the Agent Memory Protocol's and
/// the console's.
pub const ROUTES: &[Route] = &[
    route(
        "GET",
        "/v1/conformance",
        Guard::Operation("conformance"),
        "The §11.5 conformance descriptor: the level, the capabilities, the search modes. Needs no store.",
    ),
    route(
        "POST",
        "/v1/projects/{project_id}/packages",
        Guard::Operation("deposit"),
        "deposit (§8.1): the body is a whole or partial wire package; 201 with the stored envelope, 200 for an identical retry. ?session= names the session to record.",
    ),
    route(
        "GET",
        "/v1/projects/{project_id}/packages",
        Guard::Operation("pull"),
        "pull latest or relevant (§8.2), with ?mode, ?limit, ?query, ?search and the listing filters: {\"packages\": […]}.",
    ),
    route(
        "GET",
        "/v1/packages/{package_id}",
        Guard::Operation("pull"),
        "pull specific (§8.2): the wire package at its current version; the verdict on its signature in the x-relay-signature header, as JSON: {\"verdict\", \"actor\"?, \"key\"?, \"reason\"?, \"fails\"}.",
    ),
    route(
        "GET",
        "/v1/projects/{project_id}/orient",
        Guard::Operation("orient"),
        "orient (§8.3): the OrientationBundle.",
    ),
    route(
        "GET",
        "/v1/orchestrate",
        Guard::Operation("orchestrate"),
        "orchestrate (§8.4): the DigestBundle of one project, or of every project the caller may see when none is named.",
    ),
    route(
        "POST",
        "/v1/packages/{package_id}/flag",
        Guard::Operation("review_flag"),
        "flag_for_review (§8.5): {\"review_type\": \"human\" | \"agent\", \"note\"?}.",
    ),
    route(
        "POST",
        "/v1/packages/{package_id}/approve",
        Guard::Operation("review_approve"),
        "Approve a package under review (§11.4): {\"note\"?}, or no body.",
    ),
    route(
        "POST",
        "/v1/packages/{package_id}/request-changes",
        Guard::Operation("review_request_changes"),
        "Request changes to a package under review (§11.4): {\"note\"}, saying what to change.",
    ),
    route(
        "GET",
        "/v1/projects/{project_id}/reviews",
        Guard::Operation("review_list"),
        "The packages awaiting review, oldest request first, each with who flagged it, when and why.",
    ),
    route(
        "POST",
        "/v1/projects/{project_id}/facts",
        Guard::Operation("facts_assert"),
        "assert_fact: 201 with the fact written and what it superseded, 200 with \"unchanged\": true when the value was already current.",
    ),
    route(
        "GET",
        "/v1/projects/{project_id}/facts",
        Guard::Operation("facts_list"),
        "The current facts, one per key, or those valid at ?at=: {\"facts\": […]}.",
    ),
    route(
        "DELETE",
        "/v1/projects/{project_id}/facts",
        Guard::Operation("facts_invalidate"),
        "invalidate_fact: closes the current fact of ?subject=&predicate=; {\"invalidated\": N}.",
    ),
    route(
        "GET",
        "/v1/projects/{project_id}/facts/history",
        Guard::Operation("facts_history"),
        "Every value a key has had, oldest first, as relay facts history --json.",
    ),
    route(
        "GET",
        "/v1/projects/{project_id}/sessions",
        Guard::Operation("sessions_list"),
        "The project's sessions, oldest first: {\"sessions\": […]}.",
    ),
    route(
        "POST",
        "/v1/projects/{project_id}/sessions",
        Guard::Operation("session_start"),
        "Starts a session as the caller: 201 with the session record.",
    ),
    route(
        "POST",
        "/v1/sessions/{session_id}/end",
        Guard::Operation("session_end"),
        "Ends a session, by id or callsign: the closed record with the packages deposited in it. A token ends only its own actor's sessions.",
    ),
    route(
        "GET",
        "/v1/projects/{project_id}/events",
        Guard::Operation("watch"),
        "The project's events as Server-Sent Events, from ?since= (default now); the cursor is each event's id, and Last-Event-ID resumes.",
    ),
    route(
        "GET",
        "/v1/projects",
        Guard::Operation("projects_list"),
        "The projects the caller may see: {\"projects\": […]}.",
    ),
    route(
        "POST",
        "/v1/projects",
        Guard::Operation("projects_create"),
        "Creates a project: 201 with its record, 409 project_exists if it is there. A token creates only projects in its scope.",
    ),
    route(
        "POST",
        "/v1/projects/{project_id}/archive",
        Guard::Operation("projects_archive"),
        "Archives a project: its records stay, writes to it are refused. Answers the new record.",
    ),
    route(
        "POST",
        "/amp/store",
        Guard::Operation("amp_store"),
        "Agent Memory Protocol store: {\"record\": {…}}; 201 when written, 200 when the same record was already stored.",
    ),
    route(
        "POST",
        "/amp/search",
        Guard::Operation("amp_search"),
        "Agent Memory Protocol search: ranked records for a query, by kind and tags.",
    ),
    route(
        "GET",
        "/amp/records",
        Guard::Operation("amp_list"),
        "Agent Memory Protocol list: records by ?type=, ?agent=, paged with ?limit= and ?offset=.",
    ),
    route(
        "GET",
        "/amp/records/{id}",
        Guard::Operation("amp_get"),
        "Agent Memory Protocol get: one record by id.",
    ),
    route(
        "DELETE",
        "/amp/records/{id}",
        Guard::Operation("amp_delete"),
        "Agent Memory Protocol delete: a retraction as the caller, with ?reason= or a body {\"reason\"}.",
    ),
    route(
        "GET",
        "/amp/status",
        Guard::Operation("amp_status"),
        "Agent Memory Protocol status: what the server holds and offers.",
    ),
    route(
        "POST",
        "/mcp",
        Guard::Door(Auth::Read),
        "MCP over Streamable HTTP: one JSON-RPC message, the tools of `relay mcp`; `initialize` opens a session (`Mcp-Session-Id`). A token's scope goes with each tool call: a read-only token's writes are tool errors.",
    ),
    route(
        "GET",
        "/mcp",
        Guard::Door(Auth::Read),
        "MCP's server-to-client stream (SSE) of a session: `notifications/resources/updated` when a record lands in a subscribed project feed.",
    ),
    route(
        "DELETE",
        "/mcp",
        Guard::Door(Auth::Read),
        "Ends an MCP session.",
    ),
    route(
        "GET",
        "/",
        Guard::Door(Auth::Read),
        "Console: the timeline, a project's packages by day, newest first; its first page stays live.",
    ),
    route(
        "GET",
        "/packages/{package_id}",
        Guard::Door(Auth::Read),
        "Console: one package, its versions and what it relates to.",
    ),
    route(
        "GET",
        "/search",
        Guard::Door(Auth::Read),
        "Console: search a project's packages.",
    ),
    route(
        "GET",
        "/review",
        Guard::Door(Auth::Read),
        "Console: the review queue.",
    ),
    route(
        "POST",
        "/console/review/{package_id}",
        Guard::Door(Auth::Write),
        "Console: approve or request changes from the review queue, as the logged-in actor (a form with its form token).",
    ),
    route(
        "GET",
        "/console/login",
        Guard::Door(Auth::None),
        "Console: the login form, or with ?code= the one-time link relay ui opens.",
    ),
    route(
        "POST",
        "/console/login",
        Guard::Door(Auth::None),
        "Console: log in with a token, kept in a cookie scripts cannot read.",
    ),
    route(
        "POST",
        "/console/logout",
        Guard::Door(Auth::Read),
        "Console: log out (a form with its form token).",
    ),
    route(
        "GET",
        "/facts",
        Guard::Door(Auth::Read),
        "Console: the facts, now or as of a time, and a key's history.",
    ),
    route(
        "GET",
        "/orient",
        Guard::Door(Auth::Read),
        "Console: the orient briefing, as relay orient prints it.",
    ),
    route(
        "GET",
        "/console/console.css",
        Guard::Door(Auth::None),
        "Console: its stylesheet.",
    ),
    route(
        "GET",
        "/console/console.js",
        Guard::Door(Auth::None),
        "Console: its script.",
    ),
];

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// The (method, path) pairs of every `.route("PATH", get(…).post(…))` call in `code`.
    fn routes_in(code: &str) -> BTreeSet<(String, String)> {
        let mut found = BTreeSet::new();
        for (at, _) in code.match_indices(".route(") {
            let rest = &code[at + ".route(".len()..];
            let rest = rest.trim_start();
            let rest = rest.strip_prefix('"').expect("a route's path is a literal");
            let (path, rest) = rest.split_once('"').unwrap();
            // The method router: up to the parenthesis that closes `.route(`.
            let mut depth = 1;
            let end = rest
                .char_indices()
                .find(|&(_, c)| {
                    depth += match c {
                        '(' => 1,
                        ')' => -1,
                        _ => 0,
                    };
                    depth == 0
                })
                .map(|(i, _)| i)
                .unwrap();
            let methods = &rest[..end];
            for method in ["get", "post", "delete", "put", "patch"] {
                let call = format!("{method}(");
                let called = methods.match_indices(&call).any(|(i, _)| {
                    !methods[..i]
                        .chars()
                        .last()
                        .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
                });
                if called {
                    found.insert((method.to_uppercase(), path.to_string()));
                }
            }
        }
        found
    }

    #[test]
    fn the_table_is_the_router_s_routes() {
        let code = [include_str!("router.rs"), include_str!("console/mod.rs")].concat();
        let built = routes_in(&code);
        assert!(built.len() >= 30, "the scan found {built:?}");
        let table: BTreeSet<(String, String)> = ROUTES
            .iter()
            .map(|r| (r.method.to_string(), r.path.to_string()))
            .collect();
        assert_eq!(table.len(), ROUTES.len(), "a route is in the table twice");
        let missing: Vec<_> = built.difference(&table).collect();
        let gone: Vec<_> = table.difference(&built).collect();
        assert!(
            missing.is_empty() && gone.is_empty(),
            "the router has routes the table lacks: {missing:?}; the table has routes the \
             router lacks: {gone:?}; update ROUTES in crates/relay-server/src/route_table.rs and run `cargo xtask gen`"
        );
    }

    #[test]
    fn the_scan_reads_method_chains() {
        let code = r#"
            .route("/a", get(x).post(y::z))
            .route(
                "/b/{id}",
                post(facts::assert)
                    .get(facts::list)
                    .delete(facts::invalidate),
            )
            .route("/c", get(forget(1)))"#;
        let found: Vec<(String, String)> = routes_in(code).into_iter().collect();
        let pair = |m: &str, p: &str| (m.to_string(), p.to_string());
        assert_eq!(
            found,
            [
                pair("DELETE", "/b/{id}"),
                pair("GET", "/a"),
                pair("GET", "/b/{id}"),
                pair("GET", "/c"),
                pair("POST", "/a"),
                pair("POST", "/b/{id}"),
            ]
        );
    }
}
