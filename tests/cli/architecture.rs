//! The layers of DESIGN §2 hold in the source: no module imports from a higher layer
//! (`wire` → `store` → `search` → `ops` → the transports `http` and `cli`), and the modules'
//! imports form no circle. The conformance suite (`suite`) is a client of a server's HTTP
//! mapping: it uses `wire` and `error` alone, and only `cli` uses it.
//! Imports are read from the text: every `crate::…` and `super::…` path outside comments and
//! the `#[cfg(test)] mod tests` block, resolved to the longest module it names.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

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

/// `src/ops/verify/records.rs` → `ops::verify::records`; `src/ops/mod.rs` → `ops`.
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

/// The module paths that follow `prefix` in `code`.
fn paths_after<'a>(code: &'a str, prefix: &str) -> Vec<&'a str> {
    code.match_indices(prefix)
        .filter(|(at, _)| {
            !code[..*at]
                .chars()
                .last()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
        .map(|(at, _)| {
            let rest = &code[at + prefix.len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(rest.len());
            rest[..end].trim_end_matches(':')
        })
        .collect()
}

fn is_within(a: &str, b: &str) -> bool {
    a == b || a.starts_with(&format!("{b}::"))
}

/// Every module and the modules it imports (parents and children of a module excepted).
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let modules: BTreeMap<String, PathBuf> = files
        .iter()
        .map(|f| (module_of(&src, f), f.clone()))
        .collect();
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
        let parent = match module.rsplit_once("::") {
            Some((p, _)) => p.to_string(),
            None => String::new(),
        };
        let mut targets = BTreeSet::new();
        let named = paths_after(&code, "crate::")
            .into_iter()
            .map(str::to_string);
        let relative = paths_after(&code, "super::").into_iter().map(|p| {
            if parent.is_empty() {
                p.to_string()
            } else {
                format!("{parent}::{p}")
            }
        });
        for path in named.chain(relative) {
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

/// The layers, lowest first. `http` and `cli` are both transports; `http` sits below `cli`
/// so that `cli` may start the server (`cli::cmd::serve`) while `http` imports nothing of
/// the CLI. `suite` sits below both, and that it uses nothing between it and `wire` is
/// checked on its own.
fn layer(module: &str) -> Option<usize> {
    let top = module.split("::").next()?;
    ["wire", "store", "search", "ops", "suite", "http", "cli"]
        .iter()
        .position(|l| *l == top)
}

#[test]
fn no_module_imports_from_a_higher_layer() {
    let mut upward = Vec::new();
    for (from, targets) in graph() {
        for to in targets {
            if let (Some(a), Some(b)) = (layer(&from), layer(&to))
                && b > a
            {
                upward.push(format!("{from} -> {to}"));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports from a higher layer: {upward:#?}"
    );
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
fn the_graph_sees_imports() {
    let g = graph();
    // A check that reads nothing would pass; these edges exist.
    assert!(
        g["ops::facts"].contains("store::fact_chain"),
        "{:?}",
        g["ops::facts"]
    );
    assert!(g["cli::cmd::pull"].contains("cli::cmd::search"));
    assert!(g["http::auth"].contains("ops::tokens"));
    assert!(g["cli::cmd::serve"].contains("http"));
    assert!(g["suite::deposit"].contains("wire::canonical"));
    assert!(g["cli::cmd::conformance"].contains("suite"));
}

/// The imports of the modules within `from` whose target `shown` picks, as `a -> b`.
fn imports_within(from: &str, shown: impl Fn(&str) -> bool) -> Vec<String> {
    graph()
        .into_iter()
        .filter(|(m, _)| is_within(m, from))
        .flat_map(|(m, targets)| {
            targets
                .into_iter()
                .filter(|t| shown(t))
                .map(move |t| format!("{m} -> {t}"))
        })
        .collect()
}

#[test]
fn the_http_server_imports_nothing_of_the_cli() {
    let into_cli = imports_within("http", |t| is_within(t, "cli"));
    assert!(into_cli.is_empty(), "{into_cli:#?}");
}

#[test]
fn the_conformance_suite_uses_the_wire_format_and_errors_only() {
    let beyond = imports_within("suite", |t| {
        !is_within(t, "suite") && !is_within(t, "wire") && t != "error"
    });
    assert!(beyond.is_empty(), "{beyond:#?}");
}
