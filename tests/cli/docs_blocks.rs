//! Every command in the docs runs when pasted (issue 63). Each shell block (a ```` ```sh ````
//! fence, or `bash`/`shell`) of README.md and of the pages `docs/SUMMARY.md` lists runs here,
//! against the relay binary under test (first on `PATH`, so `relay` in a block is it), in a
//! scrubbed environment: `HOME`, `TMPDIR` and the working folder in a temp folder, `NO_COLOR`,
//! no git configuration from the machine but a `~/.gitconfig` naming Ana <ana@example.com>
//! (branch `main`).
//!
//! A page's blocks run in order in one `bash -Eeuo pipefail` process, in a fresh scratch
//! folder of the page's own, as a reader pasting them into one terminal would run them: a
//! later block sees the files, the variables and the current directory the earlier ones left.
//! A command that fails fails the test, which names the page, the line, the command, and what
//! the block wrote. Lines that are output (`# …`) are comments to bash.
//!
//! What a page needs is declared in the page, in HTML comments (invisible on GitHub and in
//! mdBook), one directive a line:
//!
//! ```text
//! <!-- docs-test
//! git
//! setup: relay init --project web
//! placeholder pkg_…: relay pull --latest 1 --json | jq -r .package.package_id
//! exits 1: relay pull pkg_…
//! -->
//! ```
//!
//! - `git`: the scratch folder is a git repository (`git init`) before anything runs.
//! - `setup: COMMAND`: runs where its comment stands, before the first block below it that
//!   runs (a comment at the top: before the first block): a store, the files or branches a
//!   block assumes. `$DOCS_TEST_REPO` is the repository (for `examples/`), `$DOCS_TEST_PAGE`
//!   the page's file (backup.md appends its own share profile to `config.toml`).
//! - `placeholder TEXT: COMMAND`: every `TEXT` in the page's blocks (an id such as `pkg_…`, a
//!   callsign such as `coral-heron`) becomes `$(COMMAND)`, run where the line runs, so it
//!   names what the blocks before made (the latest package, the current session).
//! - `exits N: COMMAND`: the line of the first block below whose command (without its
//!   `# comment`) is COMMAND exits N, as the page says it does; the test checks it and goes on.
//! - `not run: REASON`: none of the page's blocks runs (BENCHMARKS.md: benchmark runs).
//!
//! `<!-- docs-test: git -->` fits one line. A block that is not run says so, and why, right
//! before its fence: `<!-- not run: starts a server that runs until Ctrl-C -->`. A marker
//! without a reason or not right before a shell block, an unknown directive, a placeholder no
//! block that runs holds, an `exits` that names no command of its block and a setup below the
//! last block are errors. Prefer a block that runs: a server can be started with `&` and
//! stopped with `kill %1`, a watch can end with `--until-idle`.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::harness::{BIN, Env};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The fence languages run as shell.
const SHELLS: [&str; 3] = ["sh", "bash", "shell"];

/// How many pages run at once.
const PARALLEL_PAGES: usize = 4;

/// How long one page's blocks may take before the test gives up on them.
const PAGE_TIMEOUT: Duration = Duration::from_secs(60);

/// A shell block of a page.
#[derive(Debug)]
struct Block {
    /// The 1-based line of its opening fence.
    line: usize,
    /// Its lines, each with its 1-based line in the page, the fence's indentation removed.
    body: Vec<(usize, String)>,
    /// Why it is not run, when it is not.
    skip: Option<String>,
}

/// A page's blocks and what its `docs-test` comments declare.
#[derive(Debug, Default)]
struct Page {
    name: String,
    /// The page's lines, for the failure messages.
    lines: Vec<String>,
    /// The line of its `git` directive, when it has one.
    git: Option<usize>,
    /// (line of the declaration, command): each runs before the first block below it that
    /// runs.
    setup: Vec<(usize, String)>,
    /// (text, command, line of the declaration), the longest text first.
    placeholders: Vec<(String, String, usize)>,
    /// (exit code, command, line of the declaration): the command, in the first block below,
    /// is to exit with that code.
    exits: Vec<(i32, String, usize)>,
    /// Why none of the page's blocks runs.
    skip: Option<String>,
    blocks: Vec<Block>,
}

impl Page {
    /// The blocks that run.
    fn runs(&self) -> impl Iterator<Item = &Block> {
        let page_runs = self.skip.is_none();
        (self.blocks.iter()).filter(move |b| page_runs && b.skip.is_none())
    }

    /// The block a directive on line `at` applies to: the first below it.
    fn block_after(&self, at: usize) -> Option<&Block> {
        self.blocks.iter().find(|b| b.line > at)
    }

    /// The exit code declared for the command that starts on `line` of `block`.
    fn exit_of(&self, block: &Block, line: &str) -> Option<i32> {
        (self.exits.iter())
            .find(|(_, cmd, at)| {
                self.block_after(*at).map(|b| b.line) == Some(block.line) && command_of(line) == cmd
            })
            .map(|(code, _, _)| *code)
    }
}

/// A line's command as `exits` names it: without its `# comment` and a `\` that continues it.
fn command_of(line: &str) -> &str {
    let cut = line.find(" #").unwrap_or(line.len());
    line[..cut].trim().trim_end_matches('\\').trim()
}

/// What a `not run` marker or directive gives as its reason (empty: none).
fn reason(rest: &str) -> String {
    rest.trim_start().trim_start_matches(':').trim().to_string()
}

/// Reads one directive of a `docs-test` comment, on line `at`, into `page`.
fn directive(page: &mut Page, d: &str, at: usize) -> Result<(), String> {
    if d == "git" {
        page.git = Some(at);
    } else if let Some(cmd) = d.strip_prefix("setup:") {
        page.setup.push((at, cmd.trim().to_string()));
    } else if let Some(rest) = d.strip_prefix("placeholder ") {
        let (text, cmd) = (rest.split_once(": "))
            .map(|(t, c)| (t.trim(), c.trim()))
            .filter(|(t, c)| !t.is_empty() && !t.contains(char::is_whitespace) && !c.is_empty())
            .ok_or_else(|| format!("`{d}`: write `placeholder TEXT: COMMAND`"))?;
        page.placeholders.push((text.into(), cmd.into(), at));
    } else if let Some(rest) = d.strip_prefix("exits ") {
        let (code, cmd) = (rest.split_once(": "))
            .and_then(|(n, c)| Some((n.trim().parse::<i32>().ok()?, c.trim())))
            .filter(|(n, c)| *n != 0 && !c.is_empty())
            .ok_or_else(|| format!("`{d}`: write `exits N: COMMAND` (N not 0)"))?;
        page.exits.push((code, cmd.into(), at));
    } else if let Some(rest) = d.strip_prefix("not run") {
        page.skip = Some(reason(rest));
        if reason(rest).is_empty() {
            return Err("`not run` says why: `not run: REASON`".into());
        }
    } else {
        return Err(format!(
            "unknown docs-test directive `{d}` (git, setup: COMMAND, placeholder TEXT: \
             COMMAND, exits N: COMMAND, not run: REASON)"
        ));
    }
    Ok(())
}

/// Reads a page: its shell blocks and its declarations, or what is wrong with them (each
/// message naming the page and the line).
fn parse(name: &str, text: &str) -> Result<Page, Vec<String>> {
    let lines: Vec<&str> = text.lines().collect();
    let mut page = Page {
        name: name.to_string(),
        lines: lines.iter().map(|l| l.to_string()).collect(),
        ..Page::default()
    };
    let mut errors = Vec::new();
    let mut err = |line: usize, m: String| errors.push(format!("{name}:{line}: {m}"));
    // A block marker waiting for its fence: (line, reason).
    let mut pending: Option<(usize, String)> = None;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start();
        let n = i + 1;
        if let Some(fence) = ["```", "~~~"].into_iter().find(|f| trimmed.starts_with(f)) {
            let indent = line.len() - trimmed.len();
            let ticks = trimmed.len() - trimmed.trim_start_matches(&fence[..1]).len();
            let (close, info) = trimmed.split_at(ticks);
            let lang = info.split_whitespace().next().unwrap_or("");
            let mut body = Vec::new();
            let mut j = i + 1;
            while j < lines.len() && lines[j].trim() != close {
                let l = lines[j];
                let cut = (l.len() - l.trim_start().len()).min(indent);
                body.push((j + 1, l[cut..].to_string()));
                j += 1;
            }
            let marker = pending.take();
            let skip = marker.as_ref().map(|(_, reason)| reason.clone());
            if SHELLS.contains(&lang) {
                page.blocks.push(Block {
                    line: n,
                    body,
                    skip,
                });
            } else if let Some((at, _)) = marker {
                err(
                    at,
                    format!("a `not run` marker before a ```{lang} block, which never runs"),
                );
            }
            i = j + 1;
            continue;
        }
        if trimmed.is_empty() {
            i += 1;
            continue;
        }
        if let Some((at, _)) = pending.take() {
            err(
                at,
                "a `not run` marker must be right before a shell block's fence".into(),
            );
        }
        let Some(rest) = trimmed.strip_prefix("<!--") else {
            i += 1;
            continue;
        };
        // The comment's text, up to `-->`, over as many lines as it takes.
        let mut comment = String::new();
        let mut j = i;
        let mut part = rest;
        loop {
            if let Some(end) = part.find("-->") {
                comment.push_str(&part[..end]);
                break;
            }
            comment.push_str(part);
            comment.push('\n');
            j += 1;
            if j >= lines.len() {
                break;
            }
            part = lines[j];
        }
        let body = comment.trim_start();
        if let Some(rest) = body.strip_prefix("not run") {
            if reason(rest).is_empty() {
                err(
                    n,
                    "a `not run` marker says why: <!-- not run: REASON -->".into(),
                );
            }
            pending = Some((n, reason(rest)));
        } else if let Some(directives) = body.strip_prefix("docs-test") {
            let directives = directives.trim_start_matches([' ', '\t']);
            let directives = directives.strip_prefix(':').unwrap_or(directives);
            for (k, d) in directives.lines().enumerate() {
                let d = d.trim();
                if d.is_empty() {
                    continue;
                }
                if let Err(m) = directive(&mut page, d, n + k) {
                    err(n + k, m);
                }
            }
        }
        i = j + 1;
    }
    if let Some((at, _)) = pending {
        err(
            at,
            "a `not run` marker must be right before a shell block's fence".into(),
        );
    }
    if page.skip.is_none() {
        let run_lines: Vec<&str> = (page.runs())
            .flat_map(|b| b.body.iter().map(|(_, l)| l.as_str()))
            .collect();
        for (text, _, at) in &page.placeholders {
            if !run_lines.iter().any(|l| l.contains(text.as_str())) {
                err(
                    *at,
                    format!("placeholder `{text}` is in no block that runs"),
                );
            }
        }
        let last = page.runs().last().map_or(0, |b| b.line);
        for (at, _) in page.setup.iter().filter(|(at, _)| *at > last) {
            err(
                *at,
                "a setup below the last block that runs: it would run before nothing".into(),
            );
        }
        for (_, cmd, at) in &page.exits {
            let block = (page.block_after(*at)).filter(|b| b.skip.is_none());
            if !block.is_some_and(|b| b.body.iter().any(|(_, l)| command_of(l) == cmd)) {
                err(*at, format!("the block below runs no command `{cmd}`"));
            }
        }
    }
    // Longest first, so that a placeholder inside another is not replaced within it.
    (page.placeholders).sort_by_key(|(text, _, _)| std::cmp::Reverse(text.len()));
    if errors.is_empty() {
        Ok(page)
    } else {
        Err(errors)
    }
}

/// What the script writes on stderr as each block starts.
const BLOCK: &str = "docs-test: block at line ";

/// The ERR trap: bash says which script line failed before `-e` makes it exit.
const TRAP: &str = "trap 'echo \"docs-test: failed at script line $LINENO (exit $?)\" >&2' ERR";

/// The bash script that runs a page: the ERR trap, `git init`, the setup, then each block
/// that runs with its placeholders replaced and its declared exit codes checked; and for each
/// script line, the page's line (0: none).
fn script(page: &Page) -> (String, Vec<usize>) {
    let mut out = String::new();
    let mut map = Vec::new();
    let mut push = |text: &str, line: usize| {
        out.push_str(text);
        out.push('\n');
        map.push(line);
    };
    push(&format!("DOCS_TEST_REPO='{ROOT}'"), 0);
    push(&format!("DOCS_TEST_PAGE='{ROOT}/{}'", page.name), 0);
    push(TRAP, 0);
    if let Some(line) = page.git {
        push("git init -q .", line);
    }
    let mut setup = page.setup.iter().peekable();
    for block in page.runs() {
        // The setup declared above this block and below the one before.
        while let Some((line, cmd)) = setup.next_if(|(line, _)| *line < block.line) {
            push(cmd, *line);
        }
        // Where the block's stderr begins, for the failure message.
        push(&format!("echo '{BLOCK}{}' >&2", block.line), block.line);
        // A command that is to exit non-zero: (its code, its first line).
        let mut expecting: Option<(i32, usize)> = None;
        for (k, (line, text)) in block.body.iter().enumerate() {
            let continues = |k: usize| k > 0 && block.body[k - 1].1.trim_end().ends_with('\\');
            if !continues(k)
                && let Some(code) = page.exit_of(block, text)
            {
                push("trap - ERR; set +e", *line);
                expecting = Some((code, *line));
            }
            let mut text = text.clone();
            for (placeholder, cmd, _) in &page.placeholders {
                text = text.replace(placeholder.as_str(), &format!("$({cmd})"));
            }
            push(&text, *line);
            if let Some((code, first)) = expecting
                && !text.trim_end().ends_with('\\')
            {
                push(&format!("docs_test_status=$?; set -e; {TRAP}"), *line);
                push(
                    &format!(
                        "[ \"$docs_test_status\" = {code} ] || {{ echo \"docs-test: it exited \
                         $docs_test_status, where the page says {code}\" >&2; false; }}"
                    ),
                    first,
                );
                expecting = None;
            }
        }
    }
    (out, map)
}

/// The lines `tail` keeps of `s`, indented.
fn tail(s: &str, n: usize) -> String {
    let lines: Vec<&str> = s.lines().collect();
    let lines = &lines[lines.len().saturating_sub(n)..];
    lines.iter().map(|l| format!("    {l}\n")).collect()
}

/// Runs a page's script in `env` (its working folder, a scrubbed environment with the relay
/// under test first on `PATH`); `Err` says where and why it failed.
fn run_page(env: &Env, page: &Page) -> Result<(), String> {
    let (text, map) = script(page);
    let scratch = env.home.parent().unwrap().join("docs-test");
    let tmp = scratch.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    std::fs::write(
        env.home.join(".gitconfig"),
        "[user]\n\tname = Ana\n\temail = ana@example.com\n[init]\n\tdefaultBranch = main\n\
         [commit]\n\tgpgsign = false\n",
    )
    .unwrap();
    let script_path = scratch.join("page.sh");
    std::fs::write(&script_path, &text).unwrap();
    let (out_path, err_path) = (scratch.join("stdout"), scratch.join("stderr"));
    let bin_dir = Path::new(BIN).parent().unwrap();
    let mut path = std::ffi::OsString::from(bin_dir);
    path.push(":");
    path.push(std::env::var_os("PATH").unwrap_or_default());
    let mut command = env.program(
        "bash",
        &["-Eeuo", "pipefail", script_path.to_str().unwrap()],
    );
    command
        .env("PATH", path)
        .env("TMPDIR", &tmp)
        .stdout(Stdio::from(std::fs::File::create(&out_path).unwrap()))
        .stderr(Stdio::from(std::fs::File::create(&err_path).unwrap()));
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut child = command.spawn().expect("run bash");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > PAGE_TIMEOUT {
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    // Whatever a block left running in the background (a server), and a page that hung.
    #[cfg(unix)]
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{}", child.id())])
        .stderr(Stdio::null())
        .status();
    let _ = child.kill();
    let _ = child.wait();
    let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
    let stdout = std::fs::read_to_string(&out_path).unwrap_or_default();
    let Some(status) = status else {
        return Err(format!(
            "{}: its blocks did not finish within {PAGE_TIMEOUT:?} (a command that waits for \
             Ctrl-C? mark its block <!-- not run: REASON -->)\nstdout:\n{}stderr:\n{}",
            page.name,
            tail(&stdout, 10),
            tail(&stderr, 20)
        ));
    };
    if status.success() {
        return Ok(());
    }
    let failed = stderr.lines().rev().find_map(|l| {
        let rest = l.strip_prefix("docs-test: failed at script line ")?;
        rest.split_whitespace().next()?.parse::<usize>().ok()
    });
    // What the failing block (or setup) wrote on stderr.
    let lines: Vec<&str> = stderr.lines().collect();
    let from = (lines.iter().rposition(|l| l.starts_with(BLOCK))).map_or(0, |i| i + 1);
    let stderr: String = (lines[from..].iter())
        .filter(|l| !l.starts_with("docs-test: failed at"))
        .copied()
        .collect::<Vec<_>>()
        .join("\n");
    let Some(line) = failed.and_then(|n| map.get(n.wrapping_sub(1))).copied() else {
        return Err(format!(
            "{}: bash exited ({status}) after its last command, which failed within a `&&` \
             list or a `$(…)` (where `set -e` stops nothing)\nstderr:\n{}",
            page.name,
            tail(&stderr, 20)
        ));
    };
    if line == 0 {
        return Err(format!(
            "{}: the script failed ({status}) before its first block\nstderr:\n{}",
            page.name,
            tail(&stderr, 20)
        ));
    }
    // The whole command as the page writes it: a `\` at the end of a line continues it.
    let continued = |n: usize| page.lines[n - 1].trim_end().ends_with('\\');
    let (mut first, mut last) = (line, line);
    while first > 1 && continued(first - 1) {
        first -= 1;
    }
    while last < page.lines.len() && continued(last) {
        last += 1;
    }
    let declared = page.git == Some(line) || page.setup.iter().any(|(at, _)| *at == line);
    let block = match (page.blocks.iter()).rfind(|b| b.line <= line) {
        _ if declared => " (a docs-test setup)".to_string(),
        Some(b) => format!(" (the block at line {})", b.line),
        None => String::new(),
    };
    let command: String = (first..=last)
        .map(|n| format!("    {}\n", page.lines[n - 1].trim()))
        .collect();
    Err(format!(
        "{}:{first}{block}: this command failed ({status}):\n{command}stderr:\n{}stdout:\n{}",
        page.name,
        tail(&stderr, 20),
        tail(&stdout, 10)
    ))
}

/// README.md, then the chapters `docs/SUMMARY.md` lists, as paths from the repository root.
fn pages() -> Vec<String> {
    let summary = std::fs::read_to_string(Path::new(ROOT).join("docs/SUMMARY.md")).unwrap();
    let mut seen = BTreeSet::new();
    let mut out = vec!["README.md".to_string()];
    for part in summary.split("](").skip(1) {
        let Some(target) = part.split(')').next() else {
            continue;
        };
        if target.ends_with(".md") && seen.insert(target.to_string()) {
            out.push(format!("docs/{target}"));
        }
    }
    out
}

fn have(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
}

#[test]
fn every_shell_block_of_the_readme_and_the_book_runs() {
    let missing: Vec<_> = ["bash", "git", "jq"]
        .into_iter()
        .filter(|p| !have(p))
        .collect();
    if !missing.is_empty() {
        eprintln!("SKIPPED every_shell_block_of_the_readme_and_the_book_runs: needs {missing:?}");
        return;
    }
    let pages = pages();
    assert!(pages.len() > 20, "{pages:?}");
    let mut failures = Vec::new();
    let mut runnable = Vec::new();
    let (mut ran, mut skipped) = (0, 0);
    for name in &pages {
        let text = std::fs::read_to_string(Path::new(ROOT).join(name)).unwrap();
        let page = match parse(name, &text) {
            Ok(p) => p,
            Err(e) => {
                failures.extend(e);
                continue;
            }
        };
        let runs = page.runs().count();
        ran += runs;
        skipped += page.blocks.len() - runs;
        if runs > 0 {
            runnable.push(page);
        }
    }
    // The pages run side by side (a few wait on `--until-idle`); failures in page order.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..PARALLEL_PAGES {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(page) = runnable.get(i) else {
                        break;
                    };
                    let result = run_page(&Env::empty(), page);
                    results.lock().unwrap().push((i, result));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|(i, _)| *i);
    failures.extend(results.into_iter().filter_map(|(_, r)| r.err()));
    eprintln!("docs blocks: {ran} run, {skipped} not run");
    assert!(
        failures.is_empty(),
        "{} of the docs' shell blocks fail when pasted (run `cargo test --test cli docs_blocks`):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(ran > 30, "only {ran} blocks ran");
}

#[test]
fn markers_and_declarations_are_checked() {
    let page = r#"# A page
<!-- docs-test
git
setup: relay init
placeholder pkg_…: relay pull --latest 1 --json | jq -r .package.package_id
placeholder sess_…: echo unused
frobnicate
exits one: relay pull pkg_…
-->
<!-- not run -->
```sh
relay serve
```
<!-- not run: prose follows -->
Some prose.
```sh
relay pull pkg_…
```
<!-- not run: a TOML block never runs -->
```toml
[sign]
```
<!-- docs-test
exits 1: relay pull pkg_0000
setup: rm -rf .relay
-->
"#;
    let errors = parse("page.md", page).unwrap_err();
    assert_eq!(
        errors,
        [
            "page.md:7: unknown docs-test directive `frobnicate` (git, setup: COMMAND, \
             placeholder TEXT: COMMAND, exits N: COMMAND, not run: REASON)",
            "page.md:8: `exits one: relay pull pkg_…`: write `exits N: COMMAND` (N not 0)",
            "page.md:10: a `not run` marker says why: <!-- not run: REASON -->",
            "page.md:14: a `not run` marker must be right before a shell block's fence",
            "page.md:19: a `not run` marker before a ```toml block, which never runs",
            "page.md:6: placeholder `sess_…` is in no block that runs",
            "page.md:25: a setup below the last block that runs: it would run before nothing",
            "page.md:24: the block below runs no command `relay pull pkg_0000`",
        ]
    );
    // A page without mistakes: its blocks, those that run, and what each declaration holds.
    let page = parse(
        "page.md",
        "<!-- docs-test: git -->\n```sh\nrelay init\n```\n",
    )
    .unwrap();
    assert_eq!(
        (page.git, page.blocks.len(), page.runs().count()),
        (Some(1), 1, 1)
    );
}

#[test]
fn a_failing_block_names_its_page_line_command_and_stderr() {
    if !["bash", "jq"].into_iter().all(have) {
        eprintln!("SKIPPED: bash and jq are needed to run a page's blocks");
        return;
    }
    let text = r#"# A page
<!-- docs-test
setup: relay init --project web
placeholder pkg_…: relay pull --latest 1 --json | jq -r .package.package_id
-->

```sh
relay deposit --title "First"
relay pull pkg_…     # one package
```

<!-- not run: waits for Ctrl-C -->
```sh
relay watch
```

- In a list:

  ```sh
  relay pull \
    pkg_0000   # no such package
  echo never
  ```
"#;
    let page = parse("page.md", text).unwrap();
    assert_eq!(
        (page.blocks.iter().map(|b| (b.line, b.skip.is_some()))).collect::<Vec<_>>(),
        [(7, false), (13, true), (19, false)]
    );
    let e = run_page(&Env::empty(), &page).unwrap_err();
    assert!(
        e.starts_with(
            "page.md:20 (the block at line 19): this command failed (exit status: 1):\n    \
             relay pull \\\n    pkg_0000   # no such package\nstderr:\n"
        ),
        "{e}"
    );
    assert!(e.contains("pkg_0000"), "{e}");
}

#[test]
fn the_pages_are_the_readme_and_the_chapters() {
    let pages = pages();
    assert_eq!(pages[0], "README.md");
    assert!(pages.contains(&"docs/guide/tour.md".to_string()));
    assert!(
        pages.iter().all(|p| Path::new(ROOT).join(p).is_file()),
        "{pages:?}"
    );
}
