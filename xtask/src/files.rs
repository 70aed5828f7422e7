//! The list of every file `cargo xtask gen` owns: the shell completions (the text `relay
//! completions SHELL` prints, from [`relay::cli::completion`]), the man pages of
//! [`crate::man`] and the reference of [`crate::reference`], each with its path relative to the
//! repository root. `gen` writes exactly these, and the staleness test compares them with the
//! committed files.

use relay::cli::completion::{Shell, completion};

/// The folders `cargo xtask gen` owns, relative to the repository root.
pub const DIRS: [&str; 3] = ["completions", "man", crate::reference::DIR];

/// Every generated file: its path relative to the repository root, and its bytes.
pub fn files() -> Vec<(String, Vec<u8>)> {
    let mut all: Vec<(String, Vec<u8>)> = Shell::ALL
        .iter()
        .map(|&s| (format!("completions/{}", s.file_name()), completion(s)))
        .collect();
    all.extend(
        crate::man::man_pages()
            .into_iter()
            .map(|(name, bytes)| (format!("man/{name}"), bytes)),
    );
    all.extend(crate::reference::files());
    all
}
