//! The store is closed (DESIGN §2): `relay-store`'s `cache`, `log` and `layout` modules are
//! private, and no code above the store names them, or the `Layout` of its paths. Above the
//! store, reads go by record kind (`Store` methods), search reads the indexes through
//! `relay_store::index`, and what documents the format reads `relay_store::format`. This test
//! reads the sources: `relay-store`'s `lib.rs` must not make the three modules public, and no
//! `.rs` file outside `crates/relay-store` may name them (grouped `use` lists included,
//! comments not).

use std::path::{Path, PathBuf};

/// The modules that stay inside the store, and its path-maker.
const CLOSED: &[&str] = &["cache", "log", "layout", "Layout"];

/// How code above the store names the crate: itself, or through the CLI's `relay::store`.
const PREFIXES: &[&str] = &["relay_store::", "relay::store::"];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for path in entries.map(|e| e.unwrap().path()) {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every `.rs` file above the store: the other crates, the binary, xtask, the benchmarks,
/// examples, fuzz targets and the tests (this file, which names what it looks for, excepted).
fn files_above_the_store() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(root().join("crates")).unwrap() {
        let dir = entry.unwrap().path();
        if dir.file_name().is_some_and(|n| n != "relay-store") {
            rust_files(&dir, &mut out);
        }
    }
    for dir in ["src", "xtask", "benches", "tests", "examples", "fuzz"] {
        rust_files(&root().join(dir), &mut out);
    }
    let this = root().join("tests/cli/store_closed.rs");
    out.retain(|p| *p != this);
    out.sort();
    out
}

/// `text` with each line's `//` comment blanked (lines keep their numbers).
fn without_comments(text: &str) -> String {
    text.lines()
        .map(|l| l.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first names of the paths a `use` tree starting at `rest` names: `cache::X` gives
/// `cache`; `{Store, log, index::{A, B}}` gives `Store`, `log`, `index`.
fn first_names(rest: &str) -> Vec<&str> {
    let rest = rest.trim_start();
    let Some(inner) = rest.strip_prefix('{') else {
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        return vec![&rest[..end]];
    };
    let mut out = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                out.extend(first_names(&inner[start..i]));
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.extend(first_names(&inner[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    out.retain(|n| !n.is_empty());
    out
}

/// Each (line, name) where `text` names one of [`CLOSED`] through the store's crate.
fn closed_names(text: &str) -> Vec<(usize, String)> {
    let code = without_comments(text);
    let mut out = Vec::new();
    for prefix in PREFIXES {
        for (at, _) in code.match_indices(prefix) {
            let after_word = code[..at]
                .chars()
                .last()
                .is_some_and(|c| c.is_alphanumeric() || c == '_');
            if after_word {
                continue;
            }
            let line = code[..at].matches('\n').count() + 1;
            for name in first_names(&code[at + prefix.len()..]) {
                if CLOSED.contains(&name) {
                    out.push((line, format!("{prefix}{name}")));
                }
            }
        }
    }
    out.sort();
    out
}

/// Whether the `use` tree `tree` re-exports a closed module or `Layout` itself (an item of
/// one, like `log::Diagnostics`, is another matter): a name of [`CLOSED`] that no `::`
/// follows, or `self` in a group under one.
fn reexports_closed(tree: &str) -> bool {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut rest = tree;
    while let Some(start) = rest.find(is_ident) {
        let after = &rest[start..];
        let end = after.find(|c: char| !is_ident(c)).unwrap_or(after.len());
        let (name, tail) = (&after[..end], &after[end..]);
        let group = tree[..tree.len() - after.len()].rsplit_once("::{");
        let closed_self = name == "self"
            && group.is_some_and(|(head, _)| CLOSED.iter().any(|c| head.ends_with(c)));
        if (CLOSED.contains(&name) && !tail.starts_with("::")) || closed_self {
            return true;
        }
        rest = tail;
    }
    false
}

/// The closed modules `lib.rs` declares public (`pub mod`, `pub(in …)`/`pub(super)` aside
/// from `pub(crate)`), or re-exports whole.
fn opened_modules(lib: &str) -> Vec<String> {
    let code = without_comments(lib);
    let mut out = Vec::new();
    for line in code.lines().map(str::trim) {
        let Some(rest) = line.strip_prefix("pub") else {
            continue;
        };
        if rest.starts_with("(crate)") {
            continue;
        }
        let rest = rest.split_once(' ').map_or("", |(_, r)| r.trim_start());
        let opened = match (rest.strip_prefix("mod "), rest.strip_prefix("use ")) {
            (Some(m), _) => CLOSED.contains(&m.trim_end_matches(';').trim()),
            (_, Some(u)) => reexports_closed(u),
            _ => false,
        };
        if opened {
            out.push(line.to_string());
        }
    }
    out
}

#[test]
fn relay_store_keeps_cache_log_and_layout_private() {
    let lib = std::fs::read_to_string(root().join("crates/relay-store/src/lib.rs")).unwrap();
    let opened = opened_modules(&lib);
    assert!(
        opened.is_empty(),
        "crates/relay-store/src/lib.rs makes closed modules public (keep them `mod`, and give \
         the crates above a purposeful method or a `format`/`index` item instead):\n{}",
        opened.join("\n")
    );
}

#[test]
fn nothing_above_the_store_names_its_files_or_caches() {
    let mut found = Vec::new();
    for file in files_above_the_store() {
        let text = std::fs::read_to_string(&file).unwrap();
        let rel = file.strip_prefix(root()).unwrap().display().to_string();
        for (line, name) in closed_names(&text) {
            found.push(format!("{rel}:{line}: {name}"));
        }
    }
    assert!(
        found.is_empty(),
        "code above the store names its private modules (read by record kind through `Store`, \
         search through `relay_store::index`, file names through `relay_store::format`):\n{}",
        found.join("\n")
    );
}

#[test]
fn a_closed_name_is_caught() {
    let text = "use relay_store::{Store, index::{Doc, Indexes},\n    log};\n\
                // relay_store::cache in a comment is no use\n\
                let p = relay::store::layout::STORE_DIR;\n\
                fn f(l: &relay_store::Layout) {}\n\
                use relay_store::ndjson;\n";
    assert_eq!(
        closed_names(text),
        [
            (1, "relay_store::log".to_string()),
            (4, "relay::store::layout".to_string()),
            (5, "relay_store::Layout".to_string()),
        ]
    );
    let lib = "mod cache;\npub(crate) mod layout;\npub mod log;\npub use cache as index;\n\
               pub mod index;\npub use log::lines;\npub(super) mod cache;\n\
               pub use layout::Layout;\npub use log::{Diagnostics, Warning};\n\
               pub use layout::{self, STORE_DIR};\n";
    assert_eq!(
        opened_modules(lib),
        [
            "pub mod log;",
            "pub use cache as index;",
            "pub(super) mod cache;",
            "pub use layout::Layout;",
            "pub use layout::{self, STORE_DIR};"
        ]
    );
}
