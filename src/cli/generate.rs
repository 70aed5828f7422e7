//! Shell completions and man pages, generated from the clap definitions so they cannot drift from
//! the real flags. `cargo xtask gen` writes them into `completions/` and `man/`, `relay
//! completions` prints the same completion text at run time, and a test fails when the committed
//! files are stale. Output is deterministic: no dates, and no version but the crate's.

use clap::CommandFactory;
use clap_mangen::Man;
use clap_mangen::roff::{Roff, bold, italic, roman};

use super::Cli;
use super::exit;

/// The folders `cargo xtask gen` owns, relative to the repository root.
pub const DIRS: [&str; 2] = ["completions", "man"];

/// A shell relay can complete for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
    Elvish,
    Powershell,
}

impl Shell {
    pub const ALL: [Shell; 5] = [
        Shell::Bash,
        Shell::Zsh,
        Shell::Fish,
        Shell::Elvish,
        Shell::Powershell,
    ];

    /// The file name the shell looks for (and `completions/` holds).
    pub fn file_name(self) -> &'static str {
        match self {
            Shell::Bash => "relay.bash",
            Shell::Zsh => "_relay",
            Shell::Fish => "relay.fish",
            Shell::Elvish => "relay.elv",
            Shell::Powershell => "_relay.ps1",
        }
    }

    fn generator(self) -> clap_complete::Shell {
        match self {
            Shell::Bash => clap_complete::Shell::Bash,
            Shell::Zsh => clap_complete::Shell::Zsh,
            Shell::Fish => clap_complete::Shell::Fish,
            Shell::Elvish => clap_complete::Shell::Elvish,
            Shell::Powershell => clap_complete::Shell::PowerShell,
        }
    }
}

/// The completion script for `shell`. Built in memory: clap_complete panics on a failed write,
/// so callers write these bytes themselves (a closed pipe then ends the command quietly).
pub fn completion(shell: Shell) -> Vec<u8> {
    let mut out = Vec::new();
    clap_complete::generate(shell.generator(), &mut Cli::command(), "relay", &mut out);
    out
}

/// Every generated file: its path relative to the repository root, and its bytes.
pub fn files() -> Vec<(String, Vec<u8>)> {
    let mut all: Vec<(String, Vec<u8>)> = Shell::ALL
        .iter()
        .map(|&s| (format!("completions/{}", s.file_name()), completion(s)))
        .collect();
    all.extend(
        man_pages()
            .into_iter()
            .map(|(name, bytes)| (format!("man/{name}"), bytes)),
    );
    all
}

/// `relay.1` and one page per subcommand, nested ones included (`relay-facts-assert.1`), as
/// (file name, roff source).
pub fn man_pages() -> Vec<(String, Vec<u8>)> {
    let mut cmd = for_man(Cli::command());
    cmd.build();
    let mut pages = vec![("relay.1".to_string(), page(&cmd, true))];
    collect_subpages(&cmd, &mut pages);
    pages
}

/// The command tree as the pages show it: `help` is a clap convenience, not a command worth a
/// page, and subcommands are listed under COMMANDS, as `--help` calls them.
fn for_man(cmd: clap::Command) -> clap::Command {
    let cmd = cmd
        .disable_help_subcommand(true)
        .subcommand_help_heading("COMMANDS");
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    names
        .iter()
        .fold(cmd, |cmd, name| cmd.mut_subcommand(name, for_man))
}

fn collect_subpages(cmd: &clap::Command, pages: &mut Vec<(String, Vec<u8>)>) {
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = sub.get_display_name().unwrap_or(sub.get_name());
        pages.push((format!("{name}.1"), page(sub, false)));
        collect_subpages(sub, pages);
    }
}

/// One page: clap_mangen's sections, then EXAMPLES from the after-help text, and on the top page
/// EXIT STATUS, ENVIRONMENT and FILES.
fn page(cmd: &clap::Command, top: bool) -> Vec<u8> {
    let man = Man::new(cmd.clone());
    let name = cmd.get_display_name().unwrap_or(cmd.get_name());
    let source = format!("relay {}", env!("CARGO_PKG_VERSION"));
    let mut title = Roff::new();
    // .TH title section date source manual; no date, so the output never changes by itself
    // (an explicit "" keeps the later arguments in their places).
    title.control("TH", [name, "1", "\"\"", &source, "relay manual"]);
    let mut sections = vec![
        title.render().into_bytes(),
        rendered(|w| man.render_name_section(w)),
        rendered(|w| man.render_synopsis_section(w)),
        rendered(|w| man.render_description_section(w)),
    ];
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        sections.push(rendered(|w| man.render_options_section(w)));
    }
    if cmd.has_subcommands() {
        sections.push(rendered(|w| man.render_subcommands_section(w)));
    }

    let mut extra = Roff::new();
    examples(&mut extra, cmd);
    if top {
        exit_status(&mut extra);
        environment(&mut extra);
        files_section(&mut extra);
    }
    extra.control("SH", ["VERSION"]);
    extra.text([roman(source)]);
    if !top {
        extra.control("SH", ["SEE ALSO"]);
        extra.text([bold("relay"), roman("(1)")]);
    }
    sections.push(extra.render().into_bytes());

    // Every rendered piece starts with the same preamble (an apostrophe string): keep the first.
    let preamble = Roff::new().render();
    let mut out = Vec::new();
    for (i, s) in sections.iter().enumerate() {
        let body = match i {
            0 => &s[..],
            _ => s.strip_prefix(preamble.as_bytes()).unwrap_or(s),
        };
        out.extend_from_slice(body);
    }
    out
}

fn rendered(f: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>) -> Vec<u8> {
    let mut buf = Vec::new();
    f(&mut buf).expect("writing to a Vec cannot fail");
    buf
}

/// The after-help text as EXAMPLES, verbatim, less its `Examples:` label and the exit-code
/// summary (EXIT STATUS has the full table).
fn examples(roff: &mut Roff, cmd: &clap::Command) {
    let Some(text) = cmd.get_after_long_help().or(cmd.get_after_help()) else {
        return;
    };
    let text = text.to_string();
    let kept: Vec<&str> = text
        .split("\n\n")
        .filter(|p| !p.starts_with("Exit codes:"))
        .collect();
    if kept.is_empty() {
        return;
    }
    roff.control("SH", ["EXAMPLES"]);
    roff.control("nf", []);
    for (i, paragraph) in kept.iter().enumerate() {
        if i > 0 {
            roff.text([roman("")]);
        }
        for line in paragraph.lines().filter(|l| *l != "Examples:") {
            roff.text([roman(line)]);
        }
    }
    roff.control("fi", []);
}

/// A `.TP` entry: a bold tag and its description.
fn entry(roff: &mut Roff, tag: &str, text: &str) {
    roff.control("TP", []);
    roff.text([bold(tag)]);
    roff.text([roman(text)]);
}

fn exit_status(roff: &mut Roff) {
    roff.control("SH", ["EXIT STATUS"]);
    let codes = [
        (
            exit::OK,
            "Success; also when the reader of a pipe goes away early.",
        ),
        (
            exit::NOT_FOUND,
            "Not found: package_not_found, project_not_found, fact_not_found, session_not_found, store_not_found.",
        ),
        (
            exit::USAGE,
            "Usage: bad flags, or a required value missing with no terminal to prompt on.",
        ),
        (
            exit::CONFLICT,
            "Conflict with the store's state: duplicate_package_id, project_exists, project_archived, invalid_transition, fact_chain_conflict, session_ended, callsign_in_use.",
        ),
        (
            exit::INVALID_INPUT,
            "Invalid input: invalid_schema, invalid_input, secret_detected; for relay conformance --check, a server that refuses the token or has no project to write into.",
        ),
        (
            exit::INTEGRITY,
            "Integrity failure: the store itself is damaged (integrity_error); for relay conformance --check, a server that fails a scenario.",
        ),
        (
            exit::LOCK_TIMEOUT,
            "Lock timeout: another writer held the project lock too long (lock_timeout).",
        ),
        (
            exit::INTERNAL,
            "Internal error: an I/O failure or a bug (io_error); for relay conformance --check, a server that cannot be reached.",
        ),
    ];
    for (code, text) in codes {
        entry(roff, &code.to_string(), text);
    }
    roff.control("PP", []);
    roff.text([roman(
        "With --json, an error is printed on stderr as {\"error\": CODE, \"message\": TEXT}.",
    )]);
}

/// Every environment variable relay reads (a test checks the source for `RELAY_*` names).
fn environment(roff: &mut Roff) {
    roff.control("SH", ["ENVIRONMENT"]);
    let vars = [
        (
            "RELAY_DIR",
            "The store folder (.relay/ itself, or a folder holding it), as --store. Default: search upward from the current folder.",
        ),
        (
            "RELAY_PROJECT",
            "The project to act on, as --project. Default: default_project in .relay/config.toml.",
        ),
        (
            "RELAY_SESSION",
            "The session (id or callsign) that deposits and facts record, as --session. It wins over the clone's current session, so two agents in one clone can each hold their own.",
        ),
        (
            "RELAY_ACTOR",
            "Who is acting, as --actor. Default: [actor] id in config.toml, then the session's actor, then git config user.email, then USER.",
        ),
        (
            "RELAY_ACTOR_TYPE",
            "What kind of actor: human, agent or script, as --actor-type. Default: human.",
        ),
        (
            "RELAY_MODEL",
            "The embedding model's folder for semantic and hybrid search, as --model (search, pull --relevant, orchestrate --focus, conformance, the MCP server and relay serve). Default: [search] model in config.toml.",
        ),
        (
            "RELAY_COLD_NOTE_BYTES",
            "How many bytes of package logs without an index make a command say, on a terminal, that it is indexing them first. Default: 64 MiB.",
        ),
        (
            "RELAY_WATCH_POLL",
            "When 1, relay watch (and the MCP watch tool) polls the logs every 100 ms instead of waking on file events.",
        ),
        (
            "RELAY_TOKEN",
            "The bearer token relay conformance --check sends (Authorization: Bearer), as --token.",
        ),
        (
            "RELAY_SIGNING_KEY",
            "An OpenSSH Ed25519 private key to sign every write with, as --sign-with. Default: [sign] key in config.toml.",
        ),
        (
            "XDG_CONFIG_HOME, HOME",
            "Where relay keys generate puts a key by default ($XDG_CONFIG_HOME/relay/signing_key, else ~/.config/relay/signing_key); HOME is what ~ stands for in a key's path.",
        ),
        (
            "NO_COLOR",
            "When set and not empty, human output is not colored (--color always overrides).",
        ),
        ("USER, USERNAME", "The last fallback for the actor's id."),
        (
            "PATH",
            "relay hook install writes plain relay into hooks when that is this binary on PATH, else this binary's full path.",
        ),
    ];
    for (name, text) in vars {
        entry(roff, name, text);
    }
}

fn files_section(roff: &mut Roff) {
    use relay_store::layout::{
        ALLOWED_SIGNERS_FILE, CACHE_DIR, CONFIG_FILE, FACTS_FILE, LOCAL_DIR, PACKAGES_DIR,
        PROJECTS_DIR, PROJECTS_FILE, SESSIONS_FILE, SIGNATURES_FILE, STORE_DIR, TOKENS_FILE,
    };
    roff.control("SH", ["FILES"]);
    roff.text([
        roman("The store is one folder, "),
        italic(STORE_DIR),
        roman(", found like git finds .git: in the current folder or the nearest parent (or --store, RELAY_DIR). Every log is append-only NDJSON, one complete JSON object per line, meant to be committed; git's union merge driver merges clones."),
    ]);
    let store = |rel: &str| format!("{STORE_DIR}/{rel}");
    let files = [
        (
            store(CONFIG_FILE),
            "default_project, fsync, lock_timeout_ms, search_index, secrets, input limits, [sign], [actor]. Committed.".to_string(),
        ),
        (
            store(".gitignore"),
            format!("Ignores {CACHE_DIR}/ and {LOCAL_DIR}/."),
        ),
        (
            store(".gitattributes"),
            "*.ndjson merge=union, allowed_signers merge=union.".to_string(),
        ),
        (
            store(PROJECTS_FILE),
            "Project records; every change appends a new version.".to_string(),
        ),
        (
            store(&format!("{PROJECTS_DIR}/DIR/{PACKAGES_DIR}/YYYY-MM.ndjson")),
            "Packages, one file per UTC month of created_at: {\"package\": …, \"hash\": \"sha256:…\"}; a review transition appends a new version. DIR is a safe, injective encoding of the project id.".to_string(),
        ),
        (
            store(&format!("{PROJECTS_DIR}/DIR/{FACTS_FILE}")),
            "Fact versions: a superseded fact is appended again, closed.".to_string(),
        ),
        (
            store(&format!("{PROJECTS_DIR}/DIR/{SESSIONS_FILE}")),
            "Session versions: the start, then the closed session.".to_string(),
        ),
        (
            store(&format!("{PROJECTS_DIR}/DIR/{SIGNATURES_FILE}")),
            "Signatures of the project's records, one {\"signature\": {record, id, hash, actor, key, sshsig}} per line (relay verify --signatures).".to_string(),
        ),
        (
            store(ALLOWED_SIGNERS_FILE),
            "Which keys may sign as which actors, in git's allowed-signers format; @revoked KEYTYPE BASE64 revokes a key. Committed.".to_string(),
        ),
        (
            store(relay_core::ops::verify::QUARANTINE),
            "Lines relay verify --fix moved out of a log, with why.".to_string(),
        ),
        (
            store(&format!("{CACHE_DIR}/")),
            "Derived search indexes: disposable, not committed.".to_string(),
        ),
        (
            store(&format!("{LOCAL_DIR}/")),
            "Per-clone state: locks and the current session. Not committed.".to_string(),
        ),
        (
            store(&format!("{LOCAL_DIR}/{TOKENS_FILE}")),
            "The bearer tokens of relay serve (relay token): each one's SHA-256, actor and scope, and its revocation; never the token itself.".to_string(),
        ),
    ];
    for (path, text) in &files {
        entry(roff, path, text);
    }
}
