//! `cargo xtask TASK` (an alias in `.cargo/config.toml`): the command line of the repository's
//! chores.
//!
//! `gen` writes the shell completions into `completions/`, the man pages into `man/` and the
//! reference into `docs/reference/` (the list is [`xtask::files`]), and removes files there that
//! relay no longer generates. The test `tests/generated.rs` fails when the committed files are
//! stale.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use xtask::files;

const USAGE: &str = "usage: cargo xtask gen    regenerate completions/, man/ and docs/reference/";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["gen"] => match gen_files(&repo_root()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("xtask: {e}");
                ExitCode::FAILURE
            }
        },
        ["-h" | "--help" | "help"] => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask/ sits in the repository root")
        .to_path_buf()
}

fn gen_files(root: &Path) -> std::io::Result<()> {
    let files = files::files();
    let wanted: BTreeSet<&str> = files.iter().map(|(rel, _)| rel.as_str()).collect();
    for dir in files::DIRS {
        std::fs::create_dir_all(root.join(dir))?;
        for entry in std::fs::read_dir(root.join(dir))? {
            let name = entry?.file_name().to_string_lossy().into_owned();
            let rel = format!("{dir}/{name}");
            if !wanted.contains(rel.as_str()) {
                std::fs::remove_file(root.join(&rel))?;
                println!("removed {rel}");
            }
        }
    }
    let mut unchanged = 0;
    for (rel, bytes) in &files {
        let path = root.join(rel);
        if std::fs::read(&path).is_ok_and(|old| old == *bytes) {
            unchanged += 1;
            continue;
        }
        std::fs::write(&path, bytes)?;
        println!("wrote {rel}");
    }
    println!("{} files, {unchanged} unchanged", files.len());
    Ok(())
}
