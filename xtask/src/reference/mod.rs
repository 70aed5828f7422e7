//! The reference in `docs/reference/`, generated from relay's code as the man pages are: the
//! commands from clap ([`relay::cli::Cli`]), the config keys from the config types, the
//! environment variables from [`relay::cli::env_vars`], the MCP tools from what
//! [`relay_mcp::tools_list`] answers, the HTTP routes from [`relay_server::route_table`], the
//! exit and error codes from `error` and [`relay::cli::exit`], the store format from the
//! store's layout, and the secret rules from [`relay_wire::secrets::rules_described`]. It
//! lives in xtask, not in the `relay` binary, which has no use for it: `cargo xtask gen` writes
//! it, and a test of this crate fails when the committed pages differ from what this module
//! makes now. Deterministic: no dates, no paths of the machine it runs on.

mod commands;
mod config;
mod exit_codes;
mod markdown;
mod store_format;

pub use exit_codes::EXIT_STATUS;
use markdown::{code, table, text};
pub use store_format::store_files;

use relay_server::route_table::{Auth, ROUTES};

/// The folder the reference lives in, relative to the repository root.
pub const DIR: &str = "docs/reference";

/// Every page: its file name, its title and what it lists (for the index), and its text.
pub fn pages() -> Vec<(&'static str, &'static str, &'static str, String)> {
    vec![
        (
            "commands.md",
            "Commands",
            "every command and subcommand: usage, arguments and flags with their defaults and environment variables, examples",
            commands::page(),
        ),
        (
            "config.md",
            "Configuration",
            "every key of .relay/config.toml: type, default, meaning; share profiles",
            config::page(),
        ),
        (
            "environment.md",
            "Environment",
            "every environment variable relay reads, and what reads it",
            environment(),
        ),
        (
            "mcp-tools.md",
            "MCP tools",
            "every tool of relay mcp: description and input schema",
            mcp_tools(),
        ),
        (
            "http-routes.md",
            "HTTP routes",
            "every route of relay serve: method, path, the access it needs, what it does",
            http_routes(),
        ),
        (
            "exit-codes.md",
            "Exit codes and error codes",
            "the CLI's exit codes; every error code with its exit code and HTTP status",
            exit_codes::page(),
        ),
        (
            "store-format.md",
            "Store format",
            "the .relay/ folder: files, project folders, cache/ and local/",
            store_format::page(),
        ),
        (
            "secret-rules.md",
            "Secret rules",
            "every rule of the credential scan: its id and the services and token formats it finds",
            secret_rules(),
        ),
    ]
}

const GENERATED: &str = "<!-- Generated from relay's code by `cargo xtask gen` \
(xtask/src/reference/). Do not edit: `cargo test` fails when this file is stale. -->\n\n";

/// Every file of the reference, as (path relative to the repository root, bytes).
pub fn files() -> Vec<(String, Vec<u8>)> {
    let pages = pages();
    let mut index = String::from("# relay reference\n\n");
    index.push_str(&format!(
        "The reference of relay {}, generated from its code by `cargo xtask gen`; `cargo \
         test` fails when a page here no longer says what the code does.\n\n",
        crate::relay_version()
    ));
    let rows: Vec<Vec<String>> = pages
        .iter()
        .map(|(file, title, what, _)| vec![format!("[{title}]({file})"), text(what)])
        .collect();
    index.push_str(&table(&["Page", "What it lists"], &rows));
    let mut out = vec![(format!("{DIR}/README.md"), with_header(&index))];
    out.extend(
        pages
            .into_iter()
            .map(|(file, _, _, body)| (format!("{DIR}/{file}"), with_header(&body))),
    );
    out
}

fn with_header(body: &str) -> Vec<u8> {
    format!("{GENERATED}{}", body.trim_end())
        .into_bytes()
        .into_iter()
        .chain(*b"\n")
        .collect()
}

fn secret_rules() -> String {
    let rules = relay_wire::secrets::rules_described();
    let mut out = String::from("# Secret rules\n\n");
    out.push_str(&text(&format!(
        "relay scans everything it is asked to store, and `relay scan` scans the store, with \
         these {} rules (see the security guide for the secrets policy). The id is what a \
         refusal, `relay scan` and a redaction (`<REDACTED:rule-id>`) name. Each rule is \
         written from its service's documented token format: a prefix, a length and an \
         alphabet, or for a token with no prefix of its own, the service's name in the name \
         it is assigned to (`CLOUDFLARE_API_TOKEN=…`). In a JSON record, member names are \
         scanned as well as values, and a string value is read with its member name, as an \
         assignment. Where two rules match the same text, the one listed first names it.",
        rules.len()
    )));
    out.push_str("\n\n");
    let rows: Vec<Vec<String>> = rules
        .iter()
        .map(|(id, about)| vec![code(id), text(about)])
        .collect();
    out.push_str(&table(&["Rule", "What it finds"], &rows));
    out
}

fn environment() -> String {
    let mut out = String::from("# Environment\n\n");
    out.push_str(&text(
        "Every environment variable relay reads. A flag given on the command line wins over \
         its variable, and a variable over config.toml.",
    ));
    out.push_str("\n\n");
    let rows: Vec<Vec<String>> = relay::cli::env_vars::ENV_VARS
        .iter()
        .map(|v| vec![code(v.name), text(v.meaning), text(v.read_by)])
        .collect();
    out.push_str(&table(&["Variable", "What it does", "Read by"], &rows));
    out
}

/// A parameter's type as the page shows it: `string`, `one of a, b`, `integer ≥ 0`.
fn schema_type(s: &serde_json::Value) -> String {
    let types: Vec<&str> = match &s["type"] {
        serde_json::Value::Array(types) => types.iter().filter_map(|t| t.as_str()).collect(),
        t => t.as_str().into_iter().collect(),
    };
    let kind = if types.is_empty() {
        "any".to_string()
    } else {
        types.join(" or ")
    };
    let kind = kind.as_str();
    let mut shown = match (kind, &s["enum"], &s["items"]["type"]) {
        (_, serde_json::Value::Array(values), _) => {
            let v: Vec<String> = values
                .iter()
                .map(|v| code(v.as_str().unwrap_or_default()))
                .collect();
            format!("one of {}", v.join(", "))
        }
        ("array", _, serde_json::Value::String(item)) => format!("array of {item}s"),
        _ => kind.to_string(),
    };
    match (s["minimum"].as_f64(), s["maximum"].as_f64()) {
        (Some(min), Some(max)) => shown.push_str(&format!(", {min} to {max}")),
        (Some(min), None) => shown.push_str(&format!(", at least {min}")),
        (None, Some(max)) => shown.push_str(&format!(", at most {max}")),
        (None, None) => {}
    }
    shown
}

fn mcp_tools() -> String {
    let listed = relay_mcp::tools_list();
    let tools = listed["tools"].as_array().cloned().unwrap_or_default();
    let mut out = String::from("# MCP tools\n\n");
    out.push_str(&text(&format!(
        "relay mcp is a Model Context Protocol server over stdio (JSON-RPC 2.0, one message a \
         line), protocol revisions {}. These are the tools its tools/list answers with, in that \
         order. A tool's arguments are checked against its schema before anything runs: an \
         argument the schema does not name is refused. A failure comes back as a tool result \
         marked isError that names the error code (see exit-codes.md).",
        relay_mcp::PROTOCOL_VERSIONS.join(", ")
    )));
    out.push_str("\n\n");
    for t in &tools {
        let name = t["name"].as_str().unwrap_or_default();
        out.push_str(&format!("- [{name}](#{})\n", markdown::anchor(name)));
    }
    for t in &tools {
        let name = t["name"].as_str().unwrap_or_default();
        out.push_str(&format!("\n## {name}\n\n"));
        let title = t["title"].as_str().unwrap_or_default();
        let read_only = t["annotations"]["readOnlyHint"].as_bool() == Some(true);
        out.push_str(&format!(
            "*{}*{}\n\n",
            text(title),
            if read_only { " (reads only)" } else { "" }
        ));
        out.push_str(&text(t["description"].as_str().unwrap_or_default()));
        out.push_str("\n\n");
        let schema = &t["inputSchema"];
        let required: Vec<&str> = schema["required"]
            .as_array()
            .map(|r| r.iter().filter_map(|v| v.as_str()).collect())
            .unwrap_or_default();
        let props = schema["properties"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        if props.is_empty() {
            out.push_str("No arguments.\n");
            continue;
        }
        let rows: Vec<Vec<String>> = props
            .iter()
            .map(|(p, s)| {
                vec![
                    code(p),
                    text(&schema_type(s)),
                    if required.contains(&p.as_str()) {
                        "yes"
                    } else {
                        "no"
                    }
                    .to_string(),
                    text(s["description"].as_str().unwrap_or_default()),
                ]
            })
            .collect();
        out.push_str(&table(&["Argument", "Type", "Required", "Meaning"], &rows));
    }
    out
}

fn http_routes() -> String {
    let mut out = String::from("# HTTP routes\n\n");
    out.push_str(&text(
        "relay serve answers the Agentic Protocol's HTTP mapping (§9.1), relay's own routes, \
         the Agent Memory Protocol's and the web console's. Bodies and answers are JSON (the \
         console's pages are HTML); an error is {\"error\": CODE, \"message\": TEXT} with the \
         status of its code (see exit-codes.md). A query parameter or body member a route \
         does not take is refused with 400 and nothing is done. Before any route, a request \
         whose Host is not one of the server's names is refused (421), and so is one a \
         browser marks as coming from another site without a token (403); an unknown path \
         is 404 not_found, a method the path does not take 405 method_not_allowed, a body \
         over the limit 413, a body that is not JSON 415, a request not read and answered \
         in time 408.",
    ));
    out.push_str("\n\n## Access\n\n");
    out.push_str(&text(
        "A request shows a token as Authorization: Bearer TOKEN (relay token create), or, \
         for reads and the console's own forms, the console's login cookie. On a loopback \
         address while no token is live, every request acts as the server's own user and \
         needs neither (relay ui always asks for its login). Otherwise a request without a \
         valid token is 401 unauthenticated (a console page sends the browser to the login \
         form), and one whose token does not allow it is 403 unauthorized.",
    ));
    out.push_str("\n\n");
    let rows: Vec<Vec<String>> = [
        (Auth::None, "anyone who reaches the server"),
        (Auth::Read, "a token or login that may read the project"),
        (
            Auth::Write,
            "a token or login that may write to the project: not a read-only one",
        ),
    ]
    .iter()
    .map(|(a, what)| vec![code(a.label()), text(what)])
    .collect();
    out.push_str(&table(&["Access", "Who may call"], &rows));
    for (title, keep) in [
        (
            "Protocol and relay routes",
            (|p: &str| p.starts_with("/v1/")) as fn(&str) -> bool,
        ),
        ("Agent Memory Protocol", |p: &str| p.starts_with("/amp/")),
        ("Console", |p: &str| {
            !p.starts_with("/v1/") && !p.starts_with("/amp/")
        }),
    ] {
        out.push_str(&format!("\n## {title}\n\n"));
        let rows: Vec<Vec<String>> = ROUTES
            .iter()
            .filter(|r| keep(r.path))
            .map(|r| {
                vec![
                    code(r.method),
                    code(r.path),
                    code(r.auth().label()),
                    text(r.does),
                ]
            })
            .collect();
        out.push_str(&table(&["Method", "Path", "Access", "What it does"], &rows));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The JSON Schema keywords [`mcp_tools`] renders; a tool parameter using another fails the
    /// unit test, so the page never leaves part of a schema out. (`default` is rendered in
    /// the description, which the MCP schema writes as "… (default N)".)
    const SCHEMA_KEYWORDS: &[&str] = &[
        "type",
        "enum",
        "minimum",
        "maximum",
        "items",
        "description",
        "default",
    ];

    #[test]
    fn every_schema_keyword_of_every_tool_is_rendered() {
        let listed = relay_mcp::tools_list();
        let tools = listed["tools"].as_array().unwrap();
        assert!(tools.len() >= 10, "{listed}");
        for t in tools {
            for (p, s) in t["inputSchema"]["properties"].as_object().unwrap() {
                for k in s.as_object().unwrap().keys() {
                    assert!(
                        SCHEMA_KEYWORDS.contains(&k.as_str()),
                        "tool {} argument {p} uses `{k}`, which mcp-tools.md does not show: \
                         render it in xtask/src/reference/mod.rs",
                        t["name"]
                    );
                }
            }
        }
    }

    #[test]
    fn pages_are_markdown_without_raw_html() {
        use pulldown_cmark::{Event, Options, Parser};
        for (name, bytes) in files() {
            let page = String::from_utf8(bytes).unwrap();
            let body = page.strip_prefix(GENERATED).unwrap();
            let html: Vec<String> = Parser::new_ext(body, Options::ENABLE_TABLES)
                .filter_map(|e| match e {
                    Event::Html(h) | Event::InlineHtml(h) => Some(h.to_string()),
                    _ => None,
                })
                .collect();
            assert!(html.is_empty(), "{name} has raw HTML: {html:?}");
            assert!(page.ends_with('\n') && !page.ends_with("\n\n"), "{name}");
        }
    }

    #[test]
    fn the_index_links_every_page() {
        let files = files();
        let index = String::from_utf8(files[0].1.clone()).unwrap();
        assert_eq!(files[0].0, "docs/reference/README.md");
        for (path, _) in &files[1..] {
            let file = path.strip_prefix("docs/reference/").unwrap();
            assert!(index.contains(&format!("]({file})")), "{file}");
        }
        let names: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
        for want in [
            "commands",
            "config",
            "environment",
            "mcp-tools",
            "http-routes",
            "exit-codes",
            "store-format",
        ] {
            assert!(names.contains(&format!("docs/reference/{want}.md").as_str()));
        }
    }
}
