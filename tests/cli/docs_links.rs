//! The README stays a front door, and it and the book under `docs/` hold no dead link: every
//! chapter `docs/SUMMARY.md` names exists, every page under `docs/` is a chapter, and every
//! relative Markdown link resolves to a file (and its `#anchor` to a heading of that page).
//! mdBook is not needed: the links are read here, as GitHub and mdBook would follow them.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Lines the README may have; past this it is turning back into the book.
const README_MAX_LINES: usize = 350;

/// A link found in a page: the line it is on and its target as written.
#[derive(Debug, PartialEq)]
struct Link {
    line: usize,
    target: String,
}

/// `text` with fenced code blocks and inline code spans blanked out (newlines kept, so offsets
/// and line numbers stay), since a link or a heading in code is none.
fn prose(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut fence: Option<&str> = None;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
        match (fence, marker) {
            (None, Some(m)) => fence = Some(m),
            (Some(open), Some(m)) if open == m && trimmed.trim_end() == m => fence = None,
            _ => {}
        }
        if fence.is_some() || marker.is_some() {
            out.extend(line.chars().map(|c| if c == '\n' { '\n' } else { ' ' }));
        } else {
            out.push_str(line);
        }
    }
    blank_code_spans(&out)
}

/// Blanks each inline code span: a run of backticks up to the next run of the same length.
fn blank_code_spans(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let run_at = |i: usize| chars[i..].iter().take_while(|&&c| c == '`').count();
    let mut out = chars.clone();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            i += 1;
            continue;
        }
        let n = run_at(i);
        let mut j = i + n;
        let close = loop {
            if j >= chars.len() {
                break None;
            }
            if chars[j] == '`' {
                let m = run_at(j);
                if m == n {
                    break Some(j);
                }
                j += m;
            } else {
                j += 1;
            }
        };
        match close {
            Some(j) => {
                for c in &mut out[i..j + n] {
                    if *c != '\n' {
                        *c = ' ';
                    }
                }
                i = j + n;
            }
            None => i += n,
        }
    }
    out.into_iter().collect()
}

/// Every inline link and image (`[text](target)`, `![alt](target "title")`) and every link
/// definition (`[name]: target`) in the page, outside code.
fn links(text: &str) -> Vec<Link> {
    let prose = prose(text);
    let line_of = |offset: usize| prose[..offset].matches('\n').count() + 1;
    let mut out = Vec::new();
    for (at, _) in prose.match_indices("](") {
        let rest = &prose[at + 2..];
        let Some(end) = rest.find(')') else { continue };
        let inner = rest[..end].trim();
        let target = inner.split_whitespace().next().unwrap_or("");
        out.push(Link {
            line: line_of(at),
            target: target.trim_matches(['<', '>']).to_string(),
        });
    }
    let mut offset = 0;
    for line in prose.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if trimmed.starts_with('[')
            && let Some(close) = trimmed.find("]:")
            && !trimmed[..close].contains("](")
        {
            let target = trimmed[close + 2..].split_whitespace().next().unwrap_or("");
            out.push(Link {
                line: line_of(offset),
                target: target.trim_matches(['<', '>']).to_string(),
            });
        }
        offset += line.len();
    }
    out
}

/// The anchor GitHub and mdBook give a heading: lowercase, spaces to `-`, punctuation dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                Some(c.to_lowercase().collect::<String>())
            } else if c == ' ' {
                Some("-".to_string())
            } else {
                None
            }
        })
        .collect()
}

/// The anchors of a page's ATX headings outside code (the second `## Same` is `same-1`).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    // Headings from the text itself: code spans in a heading still give their words.
    let code_free = prose(text);
    for (line, original) in code_free.lines().zip(text.lines()) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(&original[hashes..]);
        let mut anchor = base.clone();
        let mut n = 0;
        while !seen.insert(anchor.clone()) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
    }
    seen
}

/// What is wrong with each relative link of `page` (read from `text`), as `file:line: …`.
fn broken_links(page: &Path, text: &str, root: &Path) -> Vec<String> {
    let name = page
        .strip_prefix(root)
        .unwrap_or(page)
        .display()
        .to_string();
    let mut problems = Vec::new();
    for link in links(text) {
        let target = link.target.as_str();
        let external = target.contains("://") || target.starts_with("mailto:");
        if external {
            continue;
        }
        let (path, anchor) = match target.split_once('#') {
            Some((path, anchor)) => (path, Some(anchor)),
            None => (target, None),
        };
        let at = format!("{name}:{}: `{target}`", link.line);
        if target.is_empty() {
            problems.push(format!("{at}: an empty link"));
            continue;
        }
        let file = if path.is_empty() {
            page.to_path_buf()
        } else {
            page.parent().unwrap().join(path)
        };
        if !file.exists() {
            problems.push(format!("{at}: no file {}", file.display()));
            continue;
        }
        let Some(anchor) = anchor else { continue };
        if file.extension().is_some_and(|e| e == "md") {
            let body = std::fs::read_to_string(&file).unwrap();
            if !anchors(&body).contains(anchor) {
                problems.push(format!("{at}: no heading with the anchor #{anchor}"));
            }
        }
    }
    problems
}

/// Every Markdown file under `dir`, recursively.
fn markdown_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(markdown_under(&path));
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
    out.sort();
    out
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The chapters `docs/SUMMARY.md` lists, as paths relative to `docs/`.
fn chapters() -> Vec<String> {
    links(&read(&Path::new(ROOT).join("docs/SUMMARY.md")))
        .into_iter()
        .map(|l| l.target)
        .collect()
}

#[test]
fn the_readme_stays_a_front_door() {
    let readme = read(&Path::new(ROOT).join("README.md"));
    let lines = readme.lines().count();
    assert!(
        lines < README_MAX_LINES,
        "README.md has {lines} lines (under {README_MAX_LINES}, please): move guides into docs/ and link them"
    );
    // It opens with the two setup commands, the install line building what Cargo.lock pins.
    let setup = readme.split("```sh\n").nth(1).expect("a first sh block");
    assert!(
        setup.starts_with("cargo install --locked --path . && ")
            && setup.contains("\ncargo test\n"),
        "README.md must open with the install line (with --locked) and `cargo test`:\n{setup}"
    );
}

#[test]
fn every_chapter_exists_and_every_page_is_a_chapter() {
    let docs = Path::new(ROOT).join("docs");
    let listed = chapters();
    assert!(listed.len() > 20, "SUMMARY.md lists {listed:?}");
    let mut problems = Vec::new();
    for chapter in &listed {
        if chapter.is_empty() || chapter.contains('#') || !chapter.ends_with(".md") {
            problems.push(format!(
                "docs/SUMMARY.md: `{chapter}` is not a chapter file"
            ));
        } else if !docs.join(chapter).is_file() {
            problems.push(format!("docs/SUMMARY.md: no chapter docs/{chapter}"));
        }
    }
    for page in markdown_under(&docs) {
        let rel = page
            .strip_prefix(&docs)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if rel != "SUMMARY.md" && !listed.contains(&rel) {
            problems.push(format!("docs/{rel} is in no chapter of docs/SUMMARY.md"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_relative_link_in_the_readme_and_the_book_resolves() {
    let root = Path::new(ROOT);
    let mut pages = vec![root.join("README.md")];
    // SUMMARY.md's links are its chapters, which the test above checks.
    pages.extend(
        markdown_under(&root.join("docs"))
            .into_iter()
            .filter(|p| !p.ends_with("docs/SUMMARY.md")),
    );
    let mut problems = Vec::new();
    for page in &pages {
        problems.extend(broken_links(page, &read(page), root));
    }
    assert!(
        problems.is_empty(),
        "broken links:\n{}",
        problems.join("\n")
    );
}

#[test]
fn a_broken_link_or_anchor_is_found_and_code_is_not_read_as_links() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(
        root.join("b.md"),
        "# B\n\n## Hooks never stand in git's way\n\n```sh\n# not a heading\n```\n",
    )
    .unwrap();
    let page = root.join("a.md");
    let text = "# A\n\nSee [b](b.md), [hooks](b.md#hooks-never-stand-in-gits-way), [top](#a),\n\
        [a web\npage](https://example.com/x.md) and ![shot](b.md \"title\").\n\
        Broken: [gone](gone.md), [no anchor](b.md#not-a-heading), [here](#nowhere),\n\
        [the code](b.md#not-a-heading) is `[not](a-link.md)`, nor is ``[this](x.md)``.\n\n\
        ```md\n[in a fence](fence.md)\n```\n\n[def]: also-gone.md\n";
    std::fs::write(&page, text).unwrap();
    let problems = broken_links(&page, text, root);
    let expected = [
        "a.md:6: `gone.md`: no file",
        "a.md:6: `b.md#not-a-heading`: no heading with the anchor #not-a-heading",
        "a.md:6: `#nowhere`: no heading with the anchor #nowhere",
        "a.md:7: `b.md#not-a-heading`: no heading with the anchor #not-a-heading",
        "a.md:13: `also-gone.md`: no file",
    ];
    assert_eq!(problems.len(), expected.len(), "{problems:#?}");
    for (problem, start) in problems.iter().zip(expected) {
        assert!(problem.starts_with(start), "{problem} / {start}");
    }
    assert_eq!(slug("`relay deposit --auto`"), "relay-deposit---auto");
    assert_eq!(
        slug("Randomized git-workflow test (issue 35)"),
        "randomized-git-workflow-test-issue-35"
    );
}
