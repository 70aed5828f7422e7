//! `relay onboard [--write FILE]`: the agent instructions block, printed or kept in a file between
//! markers; and every `relay` command the block shows works.

use relay::cli::cmd::onboard::{BLOCK, END, START};

use crate::harness::{Env, json_snapshot, read, snapshot};

#[test]
fn prints_the_block_without_a_store() {
    let env = Env::empty();
    assert_eq!(env.ok(&["onboard"]), BLOCK);
    let v = env.ok_json(&["onboard"]);
    assert_eq!(v["markdown"], BLOCK);
    // The block teaches relay orient, deposit with --decision, --question and --handoff,
    // `relay facts assert SUBJECT PREDICATE VALUE` and `relay review flag PKG --human`.
    snapshot!("block", BLOCK);
}

#[test]
fn write_creates_the_file_and_a_second_write_changes_nothing() {
    let env = Env::empty();
    let v = env.ok_json(&["onboard", "--write", "AGENTS.md"]);
    json_snapshot!("write_json", &v);
    assert_eq!(v["written"], "AGENTS.md");
    assert_eq!(v["action"], "created");
    let path = env.path("AGENTS.md");
    assert_eq!(read(&path), BLOCK);
    let before = std::fs::read(&path).unwrap();
    let v = env.ok_json(&["onboard", "--write", "AGENTS.md"]);
    assert_eq!(v["action"], "unchanged");
    assert_eq!(std::fs::read(&path).unwrap(), before, "byte-identical");
    // "already has" the block.
    snapshot!(
        "write_unchanged",
        env.run(&["onboard", "--write", "AGENTS.md"]).transcript()
    );
    let leftovers: Vec<_> = std::fs::read_dir(&env.dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers, ["AGENTS.md"], "no temporary files left behind");
}

#[test]
fn write_replaces_an_old_block_in_place_and_keeps_the_rest() {
    let env = Env::empty();
    let before = "# Agents\n\nUse tabs.\n\n";
    let after = "\n\n## Testing\n\nRun cargo test.\n";
    let old = format!("{before}{START}\nan older relay block\n{END}{after}");
    std::fs::write(env.path("CLAUDE.md"), &old).unwrap();
    let out = env.run(&["onboard", "--write", "CLAUDE.md"]);
    // "Updated" the block in place.
    snapshot!("write_updated", out.transcript());
    let new = read(&env.path("CLAUDE.md"));
    assert_eq!(new, format!("{before}{}{after}", BLOCK.trim_end()));
    assert_eq!(
        env.ok_json(&["onboard", "--write", "CLAUDE.md"])["action"],
        "unchanged"
    );
}

#[test]
fn write_appends_to_a_file_without_markers() {
    let env = Env::empty();
    std::fs::write(env.path("AGENTS.md"), "# Agents\nBe brief.").unwrap();
    let v = env.ok_json(&["onboard", "--write", "AGENTS.md"]);
    assert_eq!(v["action"], "appended");
    assert_eq!(
        read(&env.path("AGENTS.md")),
        format!("# Agents\nBe brief.\n\n{BLOCK}")
    );
}

#[test]
fn write_refuses_a_file_with_only_one_marker() {
    let env = Env::empty();
    let mut refusals = Vec::new();
    for text in [
        format!("# Agents\n{START}\nhalf a block\n"),
        format!("# Agents\nhalf a block\n{END}\n"),
    ] {
        std::fs::write(env.path("AGENTS.md"), &text).unwrap();
        let r = env.run(&["onboard", "--write", "AGENTS.md", "--json"]);
        assert_eq!(r.code, 4, "{r:?}");
        let e = r.error();
        assert_eq!(e["error"], "invalid_input");
        // Names the file and the marker it lacks.
        refusals.push(r.transcript());
        assert_eq!(read(&env.path("AGENTS.md")), text, "left alone");
    }
    snapshot!("one_marker", refusals.join("\n"));
}

#[cfg(unix)]
#[test]
fn write_goes_through_a_symlink() {
    let env = Env::empty();
    std::fs::write(env.path("AGENTS.md"), "# Agents\n").unwrap();
    std::os::unix::fs::symlink("AGENTS.md", env.path("CLAUDE.md")).unwrap();
    env.ok(&["onboard", "--write", "CLAUDE.md"]);
    let link = std::fs::symlink_metadata(env.path("CLAUDE.md")).unwrap();
    assert!(link.file_type().is_symlink(), "the link stays a link");
    assert_eq!(read(&env.path("AGENTS.md")), format!("# Agents\n\n{BLOCK}"));
}

/// Splits a command line shown in the block into words: spaces separate, double quotes group.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut word, mut quoted, mut any) = (String::new(), false, false);
    for c in line.chars() {
        match c {
            '"' => (quoted, any) = (!quoted, true),
            ' ' if !quoted => {
                if any {
                    out.push(std::mem::take(&mut word));
                }
                any = false;
            }
            _ => (word, any) = (word + &c.to_string(), true),
        }
    }
    assert!(!quoted, "unbalanced quotes in {line:?}");
    if any {
        out.push(word);
    }
    out
}

/// Every command line the block shows: lines of its code blocks, and inline code, that start
/// with `relay `.
fn commands_in_block() -> Vec<String> {
    let mut found = Vec::new();
    for line in BLOCK.lines().map(str::trim) {
        if line.starts_with("relay ") {
            found.push(line.to_string());
            continue;
        }
        let spans: Vec<&str> = line.split('`').collect();
        for span in spans.iter().skip(1).step_by(2) {
            if span.starts_with("relay ") {
                found.push(span.to_string());
            }
        }
    }
    found
}

#[test]
fn every_command_in_the_block_works() {
    let env = Env::new();
    let commands = commands_in_block();
    assert!(commands.len() >= 7, "{commands:?}");
    let mut package = String::new();
    for line in &commands {
        let args: Vec<String> = words(line)
            .into_iter()
            .skip(1)
            .map(|w| match w.as_str() {
                "PKG" => package.clone(),
                "SUBJECT" => "api".into(),
                "PREDICATE" => "status".into(),
                "VALUE" => "live".into(),
                "WORDS" => "Redis".into(),
                _ => w,
            })
            .collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = env.ok(&args);
        if args[0] == "deposit" {
            package = out.split_whitespace().next().unwrap().to_string();
            assert!(package.starts_with("pkg_"), "{out}");
        }
    }
    let flagged = env.ok_json(&["pull", &package])["package"].clone();
    assert_eq!(flagged["status"], "awaiting_review", "{flagged}");
    assert!(
        env.ok(&["facts", "get", "api", "status"])
            .starts_with("api status = live")
    );
}

#[test]
fn a_local_store_is_told_never_to_commit_the_store() {
    let env = Env::empty();
    let git = env
        .program("git", &["init", "-q"])
        .current_dir(&env.dir)
        .output()
        .unwrap();
    assert!(git.status.success(), "{git:?}");
    env.ok(&["init", "--local", "--project", "demo"]);
    let block = env.ok(&["onboard"]);
    assert_eq!(
        block,
        BLOCK.replace(
            "Commit `.relay/` with your changes.",
            "This store is local: git never sees `.relay/`; never add it to a commit."
        )
    );
    assert_ne!(block, BLOCK, "the shared store's line is in the block");
}
