//! Repository chores for relay, as a library that `cargo xtask` (`src/main.rs`) and the tests
//! share: the generators of the committed man pages ([`man`]) and reference
//! ([`reference`](mod@reference)), and the list of every generated file, completions included
//! ([`files`]). They read relay's clap definitions and tables through relay's public API, so
//! that the `relay` binary carries no docs generator (as uv's `uv-dev` does for uv).
//! `tests/generated.rs` fails when the committed files are stale.

pub mod files;
pub mod man;
pub mod reference;

/// relay's version, as `relay --version` prints it (xtask's own is not relay's).
pub fn relay_version() -> String {
    use clap::CommandFactory;
    relay::cli::Cli::command()
        .get_version()
        .expect("relay's clap definition has a version")
        .to_string()
}
