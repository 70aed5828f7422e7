//! What relay tells a user about itself, checked against the binary: `--help` of the main
//! commands, whole (the help is where a user learns a command, so what it says is a contract
//! like any output); `relay completions SHELL`, which prints the committed completion files;
//! and the generated reference (`docs/reference/`, written by `cargo xtask gen`, whose own
//! tests check the committed files are current), whose commands, MCP tools and HTTP routes are
//! what `relay … --help`, `relay mcp` and `relay serve` answer.

use std::path::Path;

use relay::cli::completion::Shell;

use crate::harness::{Env, snapshot};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// `relay ARGS --help`, which exits 0 and prints on stdout alone.
fn help(args: &[&str]) -> String {
    let env = Env::empty();
    let mut all = args.to_vec();
    all.push("--help");
    let r = env.run(&all);
    assert_eq!((r.code, r.stderr.as_str()), (0, ""), "{args:?}");
    r.stdout
}

#[test]
fn relay_help() {
    snapshot!("relay", help(&[]));
}

#[test]
fn deposit_help() {
    snapshot!("deposit", help(&["deposit"]));
}

#[test]
fn pull_help() {
    snapshot!("pull", help(&["pull"]));
}

#[test]
fn orient_help() {
    snapshot!("orient", help(&["orient"]));
}

#[test]
fn facts_assert_help() {
    snapshot!("facts_assert", help(&["facts", "assert"]));
}

#[test]
fn session_start_help() {
    snapshot!("session_start", help(&["session", "start"]));
}

#[test]
fn verify_help() {
    snapshot!("verify", help(&["verify"]));
}

#[test]
fn a_short_help_is_the_summary() {
    let env = Env::empty();
    let r = env.run(&["pull", "-h"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    snapshot!("pull_short", r.stdout);
}

#[test]
fn an_unknown_command_is_a_usage_error_that_points_at_help() {
    let env = Env::empty();
    snapshot!("unknown_command", env.run(&["depsit"]).transcript());
    snapshot!("unknown_flag", env.run(&["pull", "--lates"]).transcript());
}

/// A usage error under `--json` says all that the terminal's says: the arguments missing,
/// the tip with its suggestions (closest first, as on the terminal).
#[test]
fn a_usage_error_in_json_is_as_complete_as_on_a_terminal() {
    let env = Env::empty();
    let missing = env.run(&["facts", "assert", "a", "b", "--json"]);
    assert_eq!(missing.code, 4, "{}", missing.stderr);
    assert_eq!(
        missing.error()["message"],
        "the following required arguments were not provided: <VALUE>"
    );
    let none = env.run(&["facts", "assert", "--json"]);
    assert_eq!(
        none.error()["message"],
        "the following required arguments were not provided: <SUBJECT>, <PREDICATE>, <VALUE>"
    );
    let typo = env.run(&["--json", "depost"]);
    assert_eq!(typo.code, 2, "{}", typo.stderr);
    assert_eq!(
        typo.error()["message"],
        "unrecognized subcommand 'depost'; tip: some similar subcommands exist: 'deposit', \
         'export'"
    );
    let flag = env.run(&["deposit", "--titel", "x", "--json"]);
    assert_eq!(
        flag.error()["message"],
        "unexpected argument '--titel' found; tip: a similar argument exists: '--title'"
    );
    // Closest first on a terminal too.
    let terminal = env.run(&["serach"]);
    assert!(
        (terminal.stderr).contains("some similar subcommands exist: 'search', 'serve', 'watch'"),
        "{}",
        terminal.stderr
    );
}

/// Every command's `--help`, whole, in one snapshot: the layout (the command's own options,
/// then the global ones under their headings, examples last) is a contract of each.
#[test]
fn every_help() {
    fn paths(c: &clap::Command, above: &[String], out: &mut Vec<Vec<String>>) {
        for sub in c.get_subcommands().filter(|s| s.get_name() != "help") {
            let mut path = above.to_vec();
            path.push(sub.get_name().to_string());
            out.push(path.clone());
            paths(sub, &path, out);
        }
    }
    let mut all = Vec::new();
    paths(&relay::cli::write_flags::command(), &[], &mut all);
    let mut text = String::new();
    for path in &all {
        let args: Vec<&str> = path.iter().map(String::as_str).collect();
        let page = help(&args);
        assert!(
            !page.contains("\\\""),
            "an escaped quote in {path:?}: {page}"
        );
        let global = page.find("\nGlobal options:\n");
        let own = page.find("\nOptions:\n").or(page.find("\nArguments:\n"));
        if let (Some(global), Some(own)) = (global, own) {
            assert!(
                own < global,
                "{path:?}: the command's own options come first"
            );
        }
        if let (Some(examples), Some(global)) = (page.find("\nExamples:\n"), global) {
            assert!(global < examples, "{path:?}: examples come last");
        }
        text.push_str(&format!("===== relay {} --help\n{page}\n", args.join(" ")));
    }
    assert!(all.len() > 60, "{} commands", all.len());
    snapshot!("every_help", text);
}

#[test]
fn completions_command_prints_the_committed_file_without_a_store() {
    let env = Env::empty();
    for shell in Shell::ALL {
        let name = clap::ValueEnum::to_possible_value(&shell)
            .unwrap()
            .get_name()
            .to_string();
        let out = env.command(&["completions", &name]).output().unwrap();
        assert!(out.status.success(), "relay completions {name}: {out:?}");
        let committed = Path::new(ROOT).join("completions").join(shell.file_name());
        assert!(
            out.stdout == std::fs::read(&committed).unwrap(),
            "relay completions {name} differs from {}; run `cargo xtask gen`",
            committed.display()
        );
    }
}

#[test]
fn completions_refuses_an_unknown_shell() {
    let r = Env::empty().run(&["completions", "tcsh"]);
    assert_eq!(r.code, 4, "{r:?}");
    assert!(
        r.stderr.contains("powershell"),
        "lists the shells: {}",
        r.stderr
    );
}

fn reference_page(name: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join("docs/reference").join(name)).unwrap()
}

/// Each command's section in commands.md shows the usage line `relay … --help` prints.
#[test]
fn commands_page_shows_the_usage_each_command_prints() {
    let page = reference_page("commands.md");
    let env = Env::empty();
    let mut seen = 0;
    for section in page.split("\n## ").skip(1) {
        let name = section.lines().next().unwrap();
        let words: Vec<&str> = name.split(' ').skip(1).collect();
        let mut args = words.clone();
        args.push("--help");
        let out = env.command(&args).output().unwrap();
        assert!(out.status.success(), "{name} --help: {out:?}");
        let help = String::from_utf8(out.stdout).unwrap();
        let usage = help.lines().find(|l| l.starts_with("Usage: ")).unwrap();
        assert!(
            section.contains(&format!("```text\n{usage}\n")),
            "commands.md's {name} lacks `{usage}`; run `cargo xtask gen`"
        );
        seen += 1;
    }
    assert!(seen >= 60, "{seen} commands");
}

/// What `relay mcp` answers to `tools/list`, asked as a client asks, is what the page lists:
/// every tool in order, each with every argument.
#[test]
fn mcp_tools_page_lists_what_relay_mcp_answers() {
    let env = Env::new();
    let replies = crate::mcp::serve(
        &env,
        &[serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})],
    );
    let tools = replies[0]["result"]["tools"].as_array().unwrap().clone();
    assert!(tools.len() >= 20, "{replies:?}");
    let page = reference_page("mcp-tools.md");
    let headings: Vec<&str> = page.lines().filter_map(|l| l.strip_prefix("## ")).collect();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(headings, names);
    for t in &tools {
        let name = t["name"].as_str().unwrap();
        let start = page.find(&format!("\n## {name}\n")).unwrap();
        let section = &page[start + 1..];
        let section = &section[..section[1..].find("\n## ").map_or(section.len(), |e| e + 1)];
        for arg in t["inputSchema"]["properties"].as_object().unwrap().keys() {
            assert!(
                section.contains(&format!("| `{arg}` |")),
                "mcp-tools.md: {name} lacks {arg}"
            );
        }
    }
}

/// Each route of http-routes.md is served with the method it lists, and needs what it says:
/// with a token live, a request without one is refused exactly where the page says access
/// is `read` or `write` (401, or a console page's redirect to the login form).
#[test]
fn http_routes_page_matches_what_relay_serve_answers() {
    use crate::serve::{Served, curl};
    let env = Env::new();
    let server = Served::start(&env, &[]);
    env.ok(&["token", "create", "--actor", "ci-bot"]);
    let page = reference_page("http-routes.md");
    let mut seen = 0;
    for line in page.lines() {
        let cells: Vec<&str> = line.split(" | ").collect();
        let [method, path, access, _] = cells[..] else {
            continue;
        };
        let Some(method) = method.strip_prefix("| `").and_then(|m| m.strip_suffix('`')) else {
            continue;
        };
        let path = path.trim_matches('`');
        let access = access.trim_matches('`');
        let url = server.at(&path
            .replace("{project_id}", "demo")
            .replace("{package_id}", "pkg_00000000000000000000000000000000")
            .replace("{session_id}", "coral-heron")
            .replace("{id}", "pkg_00000000000000000000000000000000"));
        let out = env
            .program(
                "curl",
                &[
                    "-sS",
                    "--max-time",
                    "20",
                    "-o",
                    "/dev/null",
                    "-w",
                    "%{http_code} %{redirect_url}",
                    "-X",
                    method,
                    &url,
                ],
            )
            .output()
            .unwrap();
        let answer = String::from_utf8(out.stdout).unwrap();
        let (status, redirect) = answer.split_once(' ').unwrap();
        let refused = status == "401" || (status == "303" && redirect.ends_with("/console/login"));
        assert_ne!(
            status, "405",
            "{method} {path}: the server does not take the method"
        );
        match access {
            "none" => assert!(
                !refused && status != "404",
                "{method} {path} needs no token, answered {answer}"
            ),
            "read" | "write" => {
                assert!(refused, "{method} {path} needs a token, answered {answer}")
            }
            other => panic!("{method} {path}: access `{other}`"),
        }
        seen += 1;
    }
    assert!(seen >= 30, "{seen} routes read from the page");
    // A path that is not on the page is not served.
    let (status, body) = curl(&env, &[&server.at("/v1/nowhere")]);
    assert_eq!((status, body["error"].as_str()), (404, Some("not_found")));
}
