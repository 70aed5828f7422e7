//! The layers of DESIGN §2 hold in the source. Between crates the compiler keeps them: each
//! crate's manifest names the crates it may use, and this test checks those names against the
//! intended graph (`relay-wire` → `relay-store` → `relay-core` → the transports; the
//! conformance suite on `relay-wire` alone). Within a crate, the modules' imports form no
//! circle. Imports are read from the text: every `crate::…`, `super::…` and `relay_…::…` path
//! outside comments and the `#[cfg(test)] mod tests` block, grouped `use` lists
//! (`use super::{a, b::{C, D}}`) expanded, each resolved to the longest module it names.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Each crate of the workspace (but the `xtask` chores) by its library name, with its source
/// folder: the `relay` binary in `src/`, the libraries under `crates/`.
fn crates() -> BTreeMap<String, PathBuf> {
    let mut out = BTreeMap::from([("relay".to_string(), root().join("src"))]);
    for entry in std::fs::read_dir(root().join("crates")).unwrap() {
        let dir = entry.unwrap().path();
        let name = dir.file_name().unwrap().to_string_lossy().replace('-', "_");
        out.insert(name, dir.join("src"));
    }
    out
}

/// The workspace crates a manifest's `[dependencies]` names (dev-dependencies excluded).
fn workspace_dependencies(manifest: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(manifest).unwrap();
    let mut in_deps = false;
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_deps = line == "[dependencies]";
        } else if in_deps && line.starts_with("relay-") {
            let name = line.split(['=', ' ']).next().unwrap();
            out.insert(name.replace('-', "_"));
        }
    }
    out
}

#[test]
fn each_crate_depends_only_on_the_layers_below_it() {
    let allowed: BTreeMap<&str, &[&str]> = BTreeMap::from([
        ("relay_wire", &[][..]),
        ("relay_store", &["relay_wire"][..]),
        ("relay_core", &["relay_wire", "relay_store"][..]),
        (
            "relay_mcp",
            &["relay_wire", "relay_store", "relay_core"][..],
        ),
        (
            "relay_server",
            &["relay_wire", "relay_store", "relay_core", "relay_mcp"][..],
        ),
        ("relay_conformance", &["relay_wire"][..]),
    ]);
    for (name, src) in crates() {
        let deps = workspace_dependencies(&src.parent().unwrap().join("Cargo.toml"));
        if name == "relay" {
            // The binary sits on top: it may use every library, and none uses it.
            continue;
        }
        let allowed = allowed
            .get(name.as_str())
            .unwrap_or_else(|| panic!("a new crate {name}: give it a place in this test"));
        let beyond: Vec<_> = deps
            .iter()
            .filter(|d| !allowed.contains(&d.as_str()))
            .collect();
        assert!(beyond.is_empty(), "{name} depends on {beyond:?}");
    }
    for (name, src) in crates() {
        if name != "relay" {
            let manifest = std::fs::read_to_string(src.parent().unwrap().join("Cargo.toml"));
            assert!(
                !manifest.unwrap().contains("\nrelay = "),
                "{name} depends on the binary"
            );
        }
    }
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `ops/verify/records.rs` → `ops::verify::records`; `ops/mod.rs` → `ops`; `lib.rs` → ``.
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts.join("::")
}

/// The code of a file without comments and without its unit-test module.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    text.lines()
        .map(|l| l.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths a `use` tree names, starting at `rest` (just after `prefix::`): `a::b` gives
/// `a::b`; `{a, b::{c, d}}` gives `a`, `b::c`, `b::d`.
fn expand(rest: &str) -> Vec<String> {
    let rest = rest.trim_start();
    if let Some(inner) = rest.strip_prefix('{') {
        let mut out = Vec::new();
        let mut depth = 0;
        let mut start = 0;
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    out.extend(expand(&inner[start..i]));
                    return out;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    out.extend(expand(&inner[start..i]));
                    start = i + 1;
                }
                _ => {}
            }
        }
        return out;
    }
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(rest.len());
    let path = rest[..end].trim_end_matches(':');
    if rest[..end].ends_with("::") && rest[end..].starts_with('{') {
        return expand(&rest[end..])
            .into_iter()
            .map(|p| match p.as_str() {
                "self" => path.to_string(),
                _ => format!("{path}::{p}"),
            })
            .collect();
    }
    if path.is_empty() {
        Vec::new()
    } else {
        vec![path.to_string()]
    }
}

/// The module paths that follow `prefix` in `code`, grouped lists expanded.
fn paths_after(code: &str, prefix: &str) -> Vec<String> {
    code.match_indices(prefix)
        .filter(|(at, _)| {
            !code[..*at]
                .chars()
                .last()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
        .flat_map(|(at, _)| expand(&code[at + prefix.len()..]))
        .filter(|p| p != "self")
        .collect()
}

fn is_within(a: &str, b: &str) -> bool {
    a == b || b.is_empty() || a.starts_with(&format!("{b}::"))
}

/// Every module of every crate (as `crate::module`) and the modules it imports, in its own
/// crate or another (parents and children of a module excepted).
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let mut modules: BTreeMap<String, PathBuf> = BTreeMap::new();
    let crates = crates();
    for (name, src) in &crates {
        let mut files = Vec::new();
        sources(src, &mut files);
        for f in files {
            let m = module_of(src, &f);
            let full = if m.is_empty() {
                name.clone()
            } else {
                format!("{name}::{m}")
            };
            modules.insert(full, f);
        }
    }
    let resolve = |path: &str| -> Option<String> {
        let parts: Vec<&str> = path.split("::").collect();
        (1..=parts.len())
            .rev()
            .map(|n| parts[..n].join("::"))
            .find(|m| modules.contains_key(m))
    };
    let mut edges = BTreeMap::new();
    for (module, file) in &modules {
        let code = code(&std::fs::read_to_string(file).unwrap());
        let krate = module.split("::").next().unwrap().to_string();
        let parent = match module.rsplit_once("::") {
            Some((p, _)) => p.to_string(),
            None => String::new(),
        };
        let mut paths: Vec<String> = paths_after(&code, "crate::")
            .into_iter()
            .map(|p| format!("{krate}::{p}"))
            .collect();
        paths.extend(
            paths_after(&code, "super::")
                .into_iter()
                .map(|p| format!("{parent}::{p}")),
        );
        for other in crates.keys().filter(|c| **c != krate) {
            paths.extend(
                paths_after(&code, &format!("{other}::"))
                    .into_iter()
                    .map(|p| format!("{other}::{p}")),
            );
        }
        let mut targets = BTreeSet::new();
        for path in paths {
            if let Some(target) = resolve(&path)
                && !is_within(module, &target)
                && !is_within(&target, module)
            {
                targets.insert(target);
            }
        }
        edges.insert(module.clone(), targets);
    }
    edges
}

#[test]
fn module_imports_form_no_circle() {
    let edges = graph();
    // Depth-first search for a back edge, reporting the circle it closes.
    fn visit(
        m: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(m.to_string(), 1);
        stack.push(m.to_string());
        for next in edges.get(m).into_iter().flatten() {
            match state.get(next.as_str()) {
                Some(1) => {
                    let at = stack.iter().position(|s| s == next).unwrap_or(0);
                    let mut circle = stack[at..].to_vec();
                    circle.push(next.clone());
                    return Some(circle);
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(next, edges, state, stack) {
                        return Some(c);
                    }
                }
            }
        }
        stack.pop();
        state.insert(m.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for m in edges.keys() {
        if !state.contains_key(m.as_str())
            && let Some(circle) = visit(m, &edges, &mut state, &mut Vec::new())
        {
            panic!("an import circle: {}", circle.join(" -> "));
        }
    }
}

#[test]
fn grouped_use_lists_are_read() {
    let code = "use super::{reply::{self, Json}, state::State};\nuse crate::a::b;";
    assert_eq!(
        paths_after(code, "super::"),
        ["reply", "reply::Json", "state::State"]
    );
    assert_eq!(paths_after(code, "crate::"), ["a::b"]);
}

#[test]
fn the_graph_sees_imports() {
    let g = graph();
    // A check that reads nothing would pass; these edges exist.
    let has = |from: &str, to: &str| {
        assert!(g[from].contains(to), "{from} -> {to}: {:?}", g[from]);
    };
    has("relay_core::ops::facts", "relay_store::fact_chain");
    has("relay::cli::cmd::pull", "relay::cli::cmd::search");
    has("relay_server::auth", "relay_core::ops::trust::tokens");
    has("relay::cli::cmd::serve", "relay_server");
    has("relay_conformance::deposit", "relay_wire::canonical");
    has("relay::cli::cmd::conformance", "relay_conformance");
}

/// The imports that cross between two transports: `relay_mcp` importing anything of
/// `relay::cli` (its manifest cannot name the binary either), or `relay::cli` anything of
/// `relay_mcp` outside the command that starts the server (`relay::cli::cmd::mcp`).
fn transport_crossings(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let (cli, mcp, starter) = ("relay::cli", "relay_mcp", "relay::cli::cmd::mcp");
    let mut crossings = Vec::new();
    for (from, targets) in edges {
        for to in targets {
            let mcp_to_cli = is_within(from, mcp) && is_within(to, cli);
            let cli_to_mcp =
                is_within(from, cli) && !is_within(from, starter) && is_within(to, mcp);
            if mcp_to_cli || cli_to_mcp {
                crossings.push(format!("{from} -> {to}"));
            }
        }
    }
    crossings
}

#[test]
fn mcp_and_cli_import_nothing_of_each_other() {
    let edges = graph();
    // A check that reads nothing would pass; the command that starts the server imports it.
    assert!(edges["relay::cli::cmd::mcp"].contains("relay_mcp"));
    assert!(edges.keys().any(|m| m.starts_with("relay_mcp::")));
    let crossings = transport_crossings(&edges);
    assert!(
        crossings.is_empty(),
        "MCP and the CLI are sibling transports: what both need belongs in relay-core \
         (request/, ops, search); these imports cross: {crossings:#?}"
    );
}

#[test]
fn a_transport_crossing_is_caught() {
    let edges: BTreeMap<String, BTreeSet<String>> = [
        ("relay_mcp::handlers", "relay::cli::args"),
        ("relay_mcp", "relay::cli"),
        ("relay::cli::cmd::pull", "relay_mcp::tools"),
        ("relay::cli::reference", "relay_mcp"),
        ("relay::cli::cmd::mcp", "relay_mcp"),
        ("relay_mcp::call", "relay_core::request"),
        ("relay::climate", "relay_mcp"),
    ]
    .into_iter()
    .map(|(from, to)| (from.to_string(), BTreeSet::from([to.to_string()])))
    .collect();
    assert_eq!(
        transport_crossings(&edges),
        [
            "relay::cli::cmd::pull -> relay_mcp::tools",
            "relay::cli::reference -> relay_mcp",
            "relay_mcp -> relay::cli",
            "relay_mcp::handlers -> relay::cli::args",
        ]
    );
}

/// The folders of `relay-core`, lowest first: a folder imports only the folders before it.
/// `request/` (the request types, their defaults and rules) is the leaf; the environment
/// resolves on it; search ranks on both; the operations run on all three; the service, which
/// authorizes every door's call, sits on top.
const CORE_LAYERS: &[&str] = &["request", "resolve", "search", "ops", "service"];

/// The imports in `relay-core` that run up its folder layers ([`CORE_LAYERS`]).
fn upward_core_imports(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let layer = |module: &str| {
        let folder = module.strip_prefix("relay_core::")?.split("::").next()?;
        CORE_LAYERS.iter().position(|l| *l == folder)
    };
    let mut upward = Vec::new();
    for (from, targets) in edges {
        // A file of unit tests (`tests.rs`) may use helpers from anywhere.
        if from.ends_with("::tests") {
            continue;
        }
        let Some(low) = layer(from) else { continue };
        for to in targets {
            if layer(to).is_some_and(|high| high > low) {
                upward.push(format!("{from} -> {to}"));
            }
        }
    }
    upward
}

#[test]
fn an_upward_core_import_is_caught() {
    let edges = BTreeMap::from([(
        "relay_core::request::x".to_string(),
        BTreeSet::from(["relay_core::ops::y".to_string()]),
    )]);
    assert_eq!(
        upward_core_imports(&edges),
        ["relay_core::request::x -> relay_core::ops::y"]
    );
}

#[test]
fn relay_core_folders_import_only_the_layers_below() {
    let upward = upward_core_imports(&graph());
    assert!(
        upward.is_empty(),
        "imports that run up relay-core's folders ({CORE_LAYERS:?}, lowest first):\n{}",
        upward.join("\n")
    );
}

/// The operations `ops/trust/` may call: its checks sit below the operations, which call
/// them (deposit scans for secrets, a token names projects); attributing a write to its
/// writer calls the operations, so it is `ops/attribution.rs`, above them.
const TRUST_MAY_CALL: &[&str] = &["trust", "git", "projects"];

/// The imports of `relay-core`'s `ops/trust/` that reach an operation above it.
fn trust_calls_up(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let mut up = Vec::new();
    for (from, targets) in edges {
        if !from.starts_with("relay_core::ops::trust") || from.ends_with("::tests") {
            continue;
        }
        for to in targets {
            let Some(module) = to.strip_prefix("relay_core::ops::") else {
                continue;
            };
            let first = module.split("::").next().unwrap_or_default();
            // `ops::Actor` and the like: a type re-exported at the top of `ops`.
            let a_type = first.starts_with(|c: char| c.is_ascii_uppercase());
            if !a_type && !TRUST_MAY_CALL.contains(&first) {
                up.push(format!("{from} -> {to}"));
            }
        }
    }
    up
}

#[test]
fn trust_holds_the_low_level_checks_and_calls_no_operation() {
    let edges = graph();
    assert!(
        edges
            .keys()
            .any(|m| m.starts_with("relay_core::ops::trust::"))
    );
    let up = trust_calls_up(&edges);
    assert!(
        up.is_empty(),
        "ops/trust/ calls operations above it (only {TRUST_MAY_CALL:?} may be called):\n{}",
        up.join("\n")
    );
    let attribution = BTreeMap::from([(
        "relay_core::ops::trust::attribution".to_string(),
        BTreeSet::from(["relay_core::ops::packages::deposit".to_string()]),
    )]);
    assert_eq!(
        trust_calls_up(&attribution),
        ["relay_core::ops::trust::attribution -> relay_core::ops::packages::deposit"]
    );
}

/// The doors' sources: the CLI, MCP and the HTTP server (the console with it).
const DOORS: &[&str] = &["src/cli", "crates/relay-mcp/src", "crates/relay-server/src"];

/// The pieces of the doors' code (comments left out) that `offends` picks out, as
/// `file:line: text`: each line, or with `statements` each statement (the text between two
/// `;`, however many lines it takes).
fn door_code(statements: bool, offends: impl Fn(&str) -> bool) -> Vec<String> {
    let mut found = Vec::new();
    for door in DOORS {
        let mut files = Vec::new();
        sources(&root().join(door), &mut files);
        for file in files {
            let text = code(&std::fs::read_to_string(&file).unwrap());
            let mut line = 1;
            let pieces: Vec<&str> = match statements {
                true => text.split_inclusive(';').collect(),
                false => text.split_inclusive('\n').collect(),
            };
            for piece in pieces {
                if offends(piece) {
                    let rel = file.strip_prefix(root()).unwrap().display();
                    let lead = piece.len() - piece.trim_start().len();
                    let at = line + piece[..lead].matches('\n').count();
                    let shown = piece.split_whitespace().collect::<Vec<_>>().join(" ");
                    found.push(format!("{rel}:{at}: {shown}"));
                }
                line += piece.matches('\n').count();
            }
        }
    }
    found
}

/// Where a door decides by itself whether a caller may touch a project: a call of a token
/// grant's own checks, which only the core's service (`relay_core::service`) makes.
fn scope_checks_in_doors() -> Vec<String> {
    let checks = [".may_read(", ".may_write(", ".covers("];
    door_code(false, |line| checks.iter().any(|c| line.contains(c)))
}

#[test]
fn no_door_checks_a_scope_itself() {
    let found = scope_checks_in_doors();
    assert!(
        found.is_empty(),
        "scope checks outside relay_core::service (ask the caller's authorize_* instead):\n{}",
        found.join("\n")
    );
}

/// Whether a statement of a door parses a request's time or validates by a door's spelling:
/// a time parse, or `Spelling` named anywhere but where the door builds its service (the one
/// place a door says how it spells its parameters; the service parses and names them).
fn parses_a_time(line: &str) -> bool {
    let parse = [
        "parse_time(",
        "parse_as_of(",
        "DateTime::parse",
        "parse_from_rfc3339",
    ];
    parse.iter().any(|p| line.contains(p))
        || (line.contains("Spelling::") && !line.contains("Relay::new("))
}

#[test]
fn a_time_parsed_in_a_door_is_caught() {
    assert!(parses_a_time(r#"let t = time::parse_time("--as-of", x)?;"#));
    assert!(parses_a_time("let q = req.query(Spelling::Param)?;"));
    assert!(!parses_a_time(
        "Ok(service::Relay::new(\n    store,\n    cwd,\n    &LOCAL,\n    Spelling::Flag,\n))"
    ));
    assert!(!parses_a_time(
        "let briefing = ctx.relay()?.orient(&project, &req)?;"
    ));
}

/// The operations the service runs for every door ([`relay_core::service::Relay`]): a door
/// calling one of them directly skips the service's authorization and checks.
const RUN_BY_THE_SERVICE: &[&str] = &[
    "attribution::deposit(",
    "attribution::assert(",
    "attribution::transition(",
    "attribution::retract(",
    "facts::invalidate(",
    "facts::get(",
    "facts::list(",
    "pull::visible(",
    "pull::latest(",
    "pull::history(",
    "seal::versions(",
    "seal::of_read(",
    "keys::plan_rotation(",
    "semantic::search(",
    "orient::orient(",
    "sessions::list(",
    "sessions::start(",
    "sessions::end(",
    "history::history(",
    "review::pending(",
    "status::status(",
    "projects::create(",
    "projects::set_archived(",
    "amp::store(",
    "amp::search(",
    "amp::get(",
    "amp::delete(",
    "amp::list(",
    "amp::status(",
];

#[test]
fn no_door_runs_an_operation_the_service_runs() {
    let runs = |line: &str| RUN_BY_THE_SERVICE.iter().any(|op| line.contains(op));
    assert!(runs(
        "let f = facts::get(store, &project, s, p, at, reveal)?;"
    ));
    let found = door_code(false, runs);
    assert!(
        found.is_empty(),
        "operations a door runs itself (call relay_core::service::Relay's method):\n{}",
        found.join("\n")
    );
}

#[test]
fn no_door_parses_a_time() {
    let found = door_code(true, parses_a_time);
    assert!(
        found.is_empty(),
        "times parsed in a door (the service parses them: relay_core::service::Relay):\n{}",
        found.join("\n")
    );
}
