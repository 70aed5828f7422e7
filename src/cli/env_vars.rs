//! Every environment variable relay reads, in one table: the man page's ENVIRONMENT section
//! and `docs/reference/environment.md` are written from it (by `cargo xtask gen`). Its names are
//! the variables of the environment snapshot ([`relay_core::resolve::environment::ALL`], checked
//! below), and a test (`xtask/tests/generated.rs`) scans the source for every `env::var`,
//! `var_os` and clap `env = "…"` so that a variable read anywhere cannot be missing here.

use relay_core::resolve::environment::{self as env, Var};

/// One environment variable relay reads.
#[derive(Debug, Clone, Copy)]
pub struct EnvVar {
    pub name: &'static str,
    /// What it does, and its default.
    pub meaning: &'static str,
    /// Which commands (or servers) read it.
    pub read_by: &'static str,
}

const fn var(name: Var, meaning: &'static str, read_by: &'static str) -> EnvVar {
    EnvVar {
        name: name.name(),
        meaning,
        read_by,
    }
}

/// Every variable, relay's own first, then the system's and git's.
pub const ENV_VARS: &[EnvVar] = &[
    var(
        env::RELAY_DIR,
        "The store folder (.relay/ itself, or a folder holding it), as --store. Default: search upward from the current folder.",
        "every command",
    ),
    var(
        env::RELAY_PROJECT,
        "The project to act on, as --project. Default: default_project in .relay/config.toml.",
        "every command that acts on a project; the MCP server's default project",
    ),
    var(
        env::RELAY_SESSION,
        "The session (id or callsign) that deposits and facts record, as --session. It wins over the clone's current session, so two agents in one clone can each hold their own.",
        "the commands that write (--session), relay session, the MCP server",
    ),
    var(
        env::RELAY_ACTOR,
        "Who is acting, as --actor. Default: [actor] id in config.toml, then the session's actor, then git config user.email, then USER.",
        "the commands that write (--actor), relay keys, the readers that show a creator their drafts",
    ),
    var(
        env::RELAY_ACTOR_TYPE,
        "What kind of actor: human, agent or script, as --actor-type. Default: human.",
        "the commands that write (--actor-type)",
    ),
    var(
        env::RELAY_MODEL,
        "The embedding model's folder for semantic and hybrid search, as --model (search, pull --relevant, orchestrate --focus, conformance, the MCP server and relay serve). Default: [search] model in config.toml.",
        "relay search, pull, orchestrate, conformance, mcp, serve, ui",
    ),
    var(
        env::RELAY_COLD_NOTE_BYTES,
        "How many bytes of package logs without an index make a command say, on a terminal, that it is indexing them first, with a bar of the bytes indexed. Default: 64 MiB.",
        "the commands that read package logs",
    ),
    var(
        env::RELAY_WATCH_POLL,
        "When 1, relay watch (and the MCP watch tool) polls the logs every 100 ms instead of waking on file events.",
        "relay watch, the MCP watch tool, relay serve's event streams",
    ),
    var(
        env::RELAY_TOKEN,
        "The bearer token relay conformance --check sends (Authorization: Bearer), as --token.",
        "relay conformance",
    ),
    var(
        env::RELAY_SIGNING_KEY,
        "An OpenSSH Ed25519 private key to sign every write with, as --sign-with. Default: [sign] key in config.toml.",
        "every command that writes (--sign-with)",
    ),
    var(
        env::NO_COLOR,
        "When set and not empty, human output is not colored (--color always overrides).",
        "every command",
    ),
    var(
        env::XDG_CONFIG_HOME,
        "Where relay keys generate puts a key by default: $XDG_CONFIG_HOME/relay/signing_key. Default: ~/.config.",
        "relay keys generate",
    ),
    var(
        env::HOME,
        "What ~ stands for in a key's path, and where ~/.config is when XDG_CONFIG_HOME is not set.",
        "relay keys, the commands that sign",
    ),
    var(
        env::CODEX_HOME,
        "Codex's folder: relay doctor reads its config.toml to say whether Codex trusts the project and relay's hooks. Default: ~/.codex.",
        "relay doctor",
    ),
    var(
        env::USERPROFILE,
        "What ~ stands for in a key's path when HOME is not set (Windows).",
        "relay keys, the commands that sign",
    ),
    var(
        env::USER,
        "The last fallback for the actor's id.",
        "the commands that write",
    ),
    var(
        env::USERNAME,
        "The actor's id when USER is not set either (Windows).",
        "the commands that write",
    ),
    var(
        env::PATH,
        "relay hook install writes plain relay into hooks when that is this binary on PATH, else this binary's full path.",
        "relay hook install",
    ),
    var(
        env::GIT_DIR,
        "When set, relay asks git about the work tree even without a .git folder above the store (git's own variable).",
        "relay status, orient, resolve, the hooks' queue",
    ),
    var(
        env::GIT_INDEX_FILE,
        "Set by git while it commits named paths through a temporary index: relay hook flush --stage (the pre-commit hook) then leaves git's index alone and keeps the queue for the next commit.",
        "relay hook flush --stage",
    ),
    var(
        env::GIT_REFLOG_ACTION,
        "Set by git during a rebase, cherry-pick or pull --rebase: deposit --auto then records nothing, as the replayed commits were recorded when first made.",
        "relay deposit --auto, the git hooks",
    ),
];

/// The variable named `name`, if relay reads it.
pub fn find(name: &str) -> Option<&'static EnvVar> {
    ENV_VARS.iter().find(|v| v.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_distinct_and_relay_s_come_first() {
        let mut names: Vec<&str> = ENV_VARS.iter().map(|v| v.name).collect();
        let own = names.iter().take_while(|n| n.starts_with("RELAY_")).count();
        assert!(
            names[own..].iter().all(|n| !n.starts_with("RELAY_")),
            "{names:?}"
        );
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ENV_VARS.len());
        assert!(find("RELAY_DIR").is_some() && find("NOT_READ").is_none());
    }

    #[test]
    fn the_table_documents_exactly_what_the_environment_snapshot_reads() {
        let documented: Vec<&str> = ENV_VARS.iter().map(|v| v.name).collect();
        let read: Vec<&str> = env::ALL.iter().map(|v| v.name()).collect();
        assert_eq!(documented, read);
    }
}
