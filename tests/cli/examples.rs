//! The programs in `examples/` run, so they cannot rot: the shell scripts against the relay
//! binary under test, and the library example as `cargo test` built it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::harness::{BIN, Env};

/// Runs `program ARGS` in a scratch folder with a scrubbed environment, `RELAY` pointing at the
/// binary under test and temporary files kept in the test's own folder.
fn run(env: &Env, program: &Path, args: &[&str]) -> Output {
    let tmp = env.path("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let out = Command::new(program)
        .args(args)
        .current_dir(&env.dir)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", env.dir.parent().unwrap().join("home"))
        .env("TMPDIR", &tmp)
        .env("NO_COLOR", "1")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CEILING_DIRECTORIES", env.dir.parent().unwrap())
        .env("RELAY", BIN)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", program.display()));
    assert!(
        out.status.success(),
        "{} {args:?} failed: {}\nstdout:\n{}\nstderr:\n{}",
        program.display(),
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let left: Vec<_> = std::fs::read_dir(&tmp).unwrap().collect();
    assert!(left.is_empty(), "{} left files behind", program.display());
    out
}

fn script(name: &str) -> Option<Output> {
    let have = |p: &str| Command::new(p).arg("--version").output().is_ok();
    if !have("bash") || !have("git") {
        eprintln!("skipped {name}: needs bash and git");
        return None;
    }
    let env = Env::empty();
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(name);
    Some(run(&env, Path::new("bash"), &[path.to_str().unwrap()]))
}

#[test]
fn git_hook_workflow_example_deposits_each_commit() {
    let Some(out) = script("git-hook-workflow.sh") else {
        return;
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("post-commit: installed"), "{stdout}");
    assert!(stdout.contains("auto_deposit"), "{stdout}");
    assert!(stdout.contains("Move sessions to Redis"), "{stdout}");
    assert!(stdout.contains("ok: the commit was deposited"), "{stdout}");
}

#[test]
fn agent_handoff_example_briefs_the_second_session() {
    let Some(out) = script("agent-handoff.sh") else {
        return;
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    let second = stdout.split("--- session 2").nth(1).unwrap_or_default();
    assert!(second.contains("## Latest handoff"), "{stdout}");
    assert!(
        second.contains("Load-test the Redis cluster before Friday"),
        "{stdout}"
    );
    assert!(stdout.contains("ok: session 2 was briefed"), "{stdout}");
}

/// The library example beside the relay binary, built (or found fresh) by cargo: `cargo test`
/// builds examples, but a run of only this test binary may not have, or may have an old one.
fn library_example() -> PathBuf {
    let dir = Path::new(BIN).parent().unwrap();
    let profile = match dir.file_name().and_then(|n| n.to_str()) {
        Some("debug") | None => "dev",
        Some(other) => other,
    };
    let status = Command::new(env!("CARGO"))
        .args([
            "build",
            "--quiet",
            "--example",
            "library",
            "--profile",
            profile,
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .unwrap();
    assert!(status.success(), "cargo build --example library");
    dir.join("examples")
        .join(format!("library{}", std::env::consts::EXE_SUFFIX))
}

#[test]
fn library_example_deposits_pulls_and_asserts() {
    let env = Env::empty();
    let store_dir = env.path("lib");
    let example = library_example();
    let out = run(&env, &example, &[store_dir.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    for line in [
        "deposited pkg_",
        "latest: Load test passed",
        "by id: handoff \"Load-test the Redis cluster before Friday\"",
        "fact now: sessions backend = redis (live)",
    ] {
        assert!(stdout.contains(line), "{line:?} not in:\n{stdout}");
    }
    // What the library wrote, the CLI reads.
    let pulled = env.run(&[
        "pull",
        "--store",
        store_dir.to_str().unwrap(),
        "--latest",
        "5",
    ]);
    assert_eq!(pulled.code, 0, "{pulled:?}");
    assert!(
        pulled.stdout.contains("Moved sessions to Redis"),
        "{pulled:?}"
    );
    // Without a folder it works in a temp folder and removes it.
    run(&env, &example, &[]);
}
