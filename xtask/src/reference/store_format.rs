//! `store-format.md`: the `.relay/` folder, written from the store's own description of its
//! format (`relay_store::format`): its file names, the folder-name encoding run on example
//! ids, the cache's index folders and format versions, and the per-clone paths.

use std::path::Path;

use super::markdown::{code, table, text};
use relay_store::format::{
    self, CACHE_DIR, FACTS, FILE_HASHES, Index, LOCAL_DIR, PACKAGES, PACKAGES_DIR, PROJECTS_DIR,
    STORE_DIR, SUMMARY, TOKENS_FILE, TRACKED_TYPES, TYPES, VECTORS, WATCH, encode_project_dir,
};

/// What the store holds: each file or folder under `.relay/` (`DIR` standing for a project's
/// folder) and what it is, for the man page's FILES and the reference's store format.
pub fn store_files() -> Vec<(String, String)> {
    use relay_store::format::{
        ALLOWED_SIGNERS_FILE, CACHE_DIR, CONFIG_FILE, FACTS_FILE, LOCAL_DIR, PACKAGES_DIR,
        PROJECTS_DIR, PROJECTS_FILE, RETRACTIONS_FILE, SESSIONS_FILE, SIGNATURES_FILE, STORE_DIR,
        TOKENS_FILE,
    };
    let store = |rel: &str| format!("{STORE_DIR}/{rel}");
    vec![
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
            "*.ndjson merge=union, allowed_signers merge=union: the merge of clones without relay's own driver, which relay hook install --git configures in git's info/attributes (merge=relay) to keep each line once.".to_string(),
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
            store(&format!("{PROJECTS_DIR}/DIR/{RETRACTIONS_FILE}")),
            "Retractions (relay retract): which packages and facts reads no longer show, who retracted them and why.".to_string(),
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
    ]
}

/// A path as the page shows it: relative, with `/` whatever the platform.
fn shown(p: &Path) -> String {
    p.to_string_lossy().replace('\\', "/")
}

pub fn page() -> String {
    let mut out = String::from("# Store format (v1)\n\n");
    out.push_str(&text(&format!(
        "Everything relay keeps is in one folder, {STORE_DIR}/, found like git finds .git: in \
         the current folder or the nearest parent (or --store, RELAY_DIR). Every log is \
         append-only NDJSON, one complete JSON object per line ending in a newline, meant to \
         be committed; git's union merge driver merges two clones' appends. A reader skips a \
         last line without its newline (a write cut off) and says so. Normal operations only \
         append whole lines; relay verify --fix and relay purge are the only commands that \
         rewrite a log."
    )));
    out.push_str("\n\n## Files\n\n");
    let rows: Vec<Vec<String>> = store_files()
        .iter()
        .map(|(path, what)| vec![code(path), text(what)])
        .collect();
    out.push_str(&table(&["Path", "What it holds"], &rows));

    out.push_str("\n## Project folders\n\n");
    out.push_str(&text(&format!(
        "Each project has a folder under {PROJECTS_DIR}/ named by an injective, \
         filesystem-safe encoding of its id (DIR above): lowercase ASCII letters, digits, - \
         and _ stand for themselves; every other byte of the UTF-8 id, uppercase letters \
         included (so that case-insensitive filesystems cannot merge two projects), becomes % \
         and two hex digits; Windows device names get their first letter escaped; a name past \
         120 bytes is cut and ends in ~ and 32 hex digits of the id's SHA-256. For example:"
    )));
    out.push_str("\n\n");
    let long = "a".repeat(130);
    let rows: Vec<Vec<String>> = [
        "my-app",
        "App",
        "../etc",
        "a b/c",
        "con",
        "é",
        long.as_str(),
    ]
    .iter()
    .map(|id| {
        let shown_id = if id.len() > 40 {
            format!("\"a\" × {}", id.len())
        } else {
            code(id)
        };
        vec![shown_id, code(&encode_project_dir(id))]
    })
    .collect();
    out.push_str(&table(&["Project id", "Folder"], &rows));
    out.push_str(&format!(
        "\nPackage logs are named by the UTC month of their packages' `created_at`: {}.\n",
        code(&shown(&format::package_log(
            Path::new(STORE_DIR),
            "my-app",
            "2026-05"
        )))
    ));

    out.push_str(&format!("\n## {CACHE_DIR}/\n\n"));
    out.push_str(&text(&format!(
        "Derived indexes, never the source of truth: anything under {CACHE_DIR}/ may be \
         deleted at any time and every command gives the same answers, after rebuilding what \
         it needs. Each index records which bytes of which log it covers: a log that only \
         grew is indexed incrementally, a log changed any other way (a checkout, a merge, a \
         rebase) is indexed again. An index folder is named NAME-vFORMAT; a relay with \
         another format ignores it and builds its own. A witness folder (logs-v…) holds a \
         fingerprint of each indexed log."
    )));
    out.push_str("\n\n");
    let cache_dir = Path::new(STORE_DIR).join(CACHE_DIR);
    let log = Path::new(STORE_DIR)
        .join(PROJECTS_DIR)
        .join("DIR")
        .join(PACKAGES_DIR)
        .join("YYYY-MM.ndjson");
    let folder = |i: &Index| format!("{}/", shown(&i.dir(&cache_dir)));
    let rows = vec![
        vec![
            text(
                "Package index: postings by stem (with the stems beside the stem in each line, eight bits each side), the id table, what ranking reads of every line (id key, length, significance, status) and what listings need of each line, per monthly log",
            ),
            code(&shown(&format::package_index(&cache_dir, &log))),
            PACKAGES.format.to_string(),
        ],
        vec![
            text(
                "Vectors: the embeddings of each package line's passages, with the identity of the model that made them, per monthly log",
            ),
            code(&shown(&format::vectors_file(&cache_dir, &log))),
            VECTORS.format.to_string(),
        ],
        vec![
            text(
                "Fact index: the current fact of each key, and every fact's line by key in listing order, per project",
            ),
            code(&folder(&FACTS)),
            FACTS.format.to_string(),
        ],
        vec![
            text(&format!(
                "Ids of the packages of the sparse types {}, per monthly log",
                TRACKED_TYPES.join(", ")
            )),
            code(&folder(&TYPES)),
            TYPES.format.to_string(),
        ],
        vec![
            text(
                "What status counts: per monthly log its packages by type and status and the newest one's time; per project its sessions and open sessions",
            ),
            code(&folder(&SUMMARY)),
            SUMMARY.format.to_string(),
        ],
        vec![
            text(
                "Where a watch starts: the keys of the lines of each log a watch has read, with the fingerprint of the bytes they cover, per log",
            ),
            code(&folder(&WATCH)),
            WATCH.format.to_string(),
        ],
        vec![
            text(
                "Content hashes of the work-tree files packages name as deliverables, by path, mtime and size",
            ),
            code(&folder(&FILE_HASHES)),
            FILE_HASHES.format.to_string(),
        ],
    ];
    out.push_str(&table(&["Index", "Where", "Format"], &rows));

    out.push_str(&format!("\n## {LOCAL_DIR}/\n\n"));
    out.push_str(&text(&format!(
        "Per-clone state, never committed ({STORE_DIR}/.gitignore lists it)."
    )));
    out.push_str("\n\n");
    let store = Path::new(STORE_DIR);
    let local = |rel: &str| code(&format!("{STORE_DIR}/{LOCAL_DIR}/{rel}"));
    let rows = vec![
        vec![
            code(&shown(&format::lock_file(store, "NAME"))),
            text(
                "Writers' locks: one per project (project-…) and one for new package ids. A writer holds it while it checks and appends.",
            ),
        ],
        vec![
            local("session.json"),
            text("The clone's current session (relay session start)."),
        ],
        vec![
            code(&format!("{}/", shown(&format::pending_dir(store)))),
            text(
                "The queue of writes made by relay's hooks, the store's paths mirrored with each project folder named DIR.pending, until relay hook flush moves them into the tracked logs. Each queued line is also kept in the clone's journal, .git/relay/journal/STORE/ (git's common folder, outside the work tree), until the branch's upstream holds it; what a git move takes from the store goes back into the queue from there.",
            ),
        ],
        vec![
            local("journal-checked"),
            text(
                "The state of the journal, the logs and the queue when the journal was last checked against them (a read that finds them unchanged reads none of them).",
            ),
        ],
        vec![
            local("torn/"),
            text(
                "A log's cut-off last line (a write that never finished) that a flush left out of the log it stages for a commit, kept for inspection.",
            ),
        ],
        vec![
            local("flush/"),
            text(
                "A flush's copy of a log before it is renamed into place (left only by a flush that was interrupted; the next one removes it).",
            ),
        ],
        vec![
            code(&shown(&format::local_path(store, TOKENS_FILE))),
            text("The bearer tokens of relay serve: hashes, never the tokens."),
        ],
        vec![
            local(relay_core::ops::agents::session::LOG_FILE),
            text(
                "What the agents' hooks (relay hook run) could not do: they never write to stderr.",
            ),
        ],
        vec![
            local("purged/TIME/"),
            text("The logs relay purge rewrote, as they were (unless --no-backup)."),
        ],
    ];
    out.push_str(&table(&["Path", "What it holds"], &rows));
    out
}
