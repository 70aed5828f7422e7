//! Whether Codex will run relay's hooks, as Codex itself decides (codex-rs/hooks 0.171,
//! checked against the real binary by `tests/agents/codex.mjs`). Codex runs a project's
//! `.codex/hooks.json` only when the user's `$CODEX_HOME/config.toml` (else
//! `~/.codex/config.toml`) trusts the repository (`[projects."<root>"] trust_level =
//! "trusted"`) and holds, for each hook, the hash of the hook as reviewed
//! (`[hooks.state."<file>:<event>:<group>:<handler>"] trusted_hash = "sha256:…"`). A hook
//! that is new or changed since (a new relay path, a new timeout) is dropped without a word
//! in `codex exec`; doctor says so, where it used to call such a hook "ok".

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};
use sha2::{Digest as _, Sha256};

use crate::ops::agents::agent_files::CODEX_SESSION_END_TIMEOUT_SECS;

/// What Codex makes of one hook of the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookTrust {
    /// The project and this hook, as it is now, are trusted: Codex runs it.
    Trusted,
    /// Codex loads no hook of this project: the repository is not trusted.
    ProjectUntrusted,
    /// The project is trusted, but this hook is new or changed since it was reviewed.
    NeedsReview,
    /// The command is not inside an event's `hooks` list, where Codex looks for hooks.
    Outside,
}

/// The trust Codex's configuration holds.
#[derive(Debug, Default)]
pub struct CodexTrust {
    /// Where it was read from.
    pub config: PathBuf,
    trusted_projects: Vec<PathBuf>,
    hook_hashes: BTreeMap<String, String>,
}

impl CodexTrust {
    /// Reads `config.toml` under `codex_home`; a missing file trusts nothing. An unreadable
    /// one is an error that says why.
    pub fn read(codex_home: &Path) -> Result<CodexTrust, String> {
        let config = codex_home.join("config.toml");
        let text = match std::fs::read_to_string(&config) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(CodexTrust {
                    config,
                    ..Default::default()
                });
            }
            Err(e) => return Err(format!("cannot read {}: {e}", config.display())),
        };
        let table: toml::Table = text
            .parse()
            .map_err(|e| format!("{} is not TOML Codex can read: {e}", config.display()))?;
        let trusted_projects = table
            .get("projects")
            .and_then(toml::Value::as_table)
            .into_iter()
            .flatten()
            .filter(|(_, v)| v.get("trust_level").and_then(toml::Value::as_str) == Some("trusted"))
            .map(|(path, _)| PathBuf::from(path))
            .collect();
        let hook_hashes = table
            .get("hooks")
            .and_then(|h| h.get("state"))
            .and_then(toml::Value::as_table)
            .into_iter()
            .flatten()
            .filter_map(|(key, v)| {
                let hash = v.get("trusted_hash")?.as_str()?;
                Some((key.clone(), hash.to_string()))
            })
            .collect();
        Ok(CodexTrust {
            config,
            trusted_projects,
            hook_hashes,
        })
    }

    /// Whether the repository at `root` is trusted (by the path given or the one it resolves
    /// to: Codex accepts either). A linked worktree is trusted through its main checkout, as
    /// Codex resolves it.
    pub fn trusts_project(&self, root: &Path) -> bool {
        let mut roots = vec![root.to_path_buf()];
        roots.extend(main_checkout(root));
        roots.iter().any(|root| {
            let real = root.canonicalize().ok();
            self.trusted_projects
                .iter()
                .any(|p| p == root || (real.is_some() && p.canonicalize().ok() == real))
        })
    }

    /// What Codex makes of the hook running `command` at `event` in the project's hook file
    /// `file` (`settings` is the file's JSON), found where Codex reads it:
    /// `hooks[event][group].hooks[handler]`.
    pub fn judge(
        &self,
        root: &Path,
        file: &Path,
        settings: &Value,
        event: &str,
        command: &str,
    ) -> HookTrust {
        if !self.trusts_project(root) {
            return HookTrust::ProjectUntrusted;
        }
        let groups = settings["hooks"][event].as_array().map(Vec::as_slice);
        let found = groups
            .unwrap_or_default()
            .iter()
            .enumerate()
            .find_map(|(g, entry)| {
                let hooks = entry["hooks"].as_array()?;
                Some((g, hooks.iter().position(|h| h["command"] == command)?))
            });
        let Some((group, handler)) = found else {
            return HookTrust::Outside;
        };
        let entry = &settings["hooks"][event][group];
        let Some(hash) = hook_hash(event, entry, &entry["hooks"][handler]) else {
            return HookTrust::NeedsReview;
        };
        let real = file.canonicalize().ok();
        let mut keys = [Some(file.to_path_buf()), real]
            .into_iter()
            .flatten()
            .map(|f| state_key(&f, event, group, handler));
        match keys.any(|k| self.hook_hashes.get(&k) == Some(&hash)) {
            true => HookTrust::Trusted,
            false => HookTrust::NeedsReview,
        }
    }
}

/// The main checkout of the linked worktree at `root` (whose `.git` is a file naming
/// `<main>/.git/worktrees/<name>`), if it is one.
fn main_checkout(root: &Path) -> Option<PathBuf> {
    let text = std::fs::read_to_string(root.join(".git")).ok()?;
    let gitdir = PathBuf::from(text.trim().strip_prefix("gitdir:")?.trim());
    let gitdir = match gitdir.is_absolute() {
        true => gitdir,
        false => root.join(gitdir),
    };
    let worktrees = gitdir.parent()?;
    (worktrees.file_name()? == "worktrees")
        .then(|| worktrees.parent()?.parent().map(Path::to_path_buf))?
}

/// Codex's name for an event in its trust keys: snake case (`SessionStart` → `session_start`).
fn snake(event: &str) -> String {
    let mut out = String::new();
    for (i, c) in event.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The key of a hook's entry under `[hooks.state]`.
pub fn state_key(file: &Path, event: &str, group: usize, handler: usize) -> String {
    format!("{}:{}:{group}:{handler}", file.display(), snake(event))
}

/// The hash Codex trusts a hook by: SHA-256 of the compact JSON, keys sorted, of the event,
/// its group's matcher (where the event takes one) and the hook as Codex normalizes it (the
/// type, the command, `async` (false unless set), the timeout in seconds (600 unless set, at
/// least 1; SessionEnd's 1 unless set, at most 3) and a `statusMessage` when set). `None` for
/// a hook Codex would not run at all (not a command).
pub fn hook_hash(event: &str, group: &Value, hook: &Value) -> Option<String> {
    if hook.get("type").and_then(Value::as_str) != Some("command") {
        return None;
    }
    let command = hook.get("command")?.as_str()?;
    let ends = matches!(event, "SessionEnd" | "Interrupt");
    let timeout = hook.get("timeout").and_then(Value::as_u64);
    let timeout = match ends {
        true => timeout
            .unwrap_or(1)
            .clamp(1, CODEX_SESSION_END_TIMEOUT_SECS),
        false => timeout.unwrap_or(600).max(1),
    };
    let mut normalized = Map::new();
    normalized.insert(
        "async".into(),
        json!(hook.get("async").and_then(Value::as_bool).unwrap_or(false)),
    );
    normalized.insert("command".into(), json!(command));
    if let Some(message) = hook.get("statusMessage").and_then(Value::as_str) {
        normalized.insert("statusMessage".into(), json!(message));
    }
    normalized.insert("timeout".into(), json!(timeout));
    normalized.insert("type".into(), json!("command"));
    let mut identity = Map::new();
    identity.insert("event_name".into(), json!(snake(event)));
    identity.insert("hooks".into(), json!([Value::Object(normalized)]));
    if let Some(matcher) = group.get("matcher").and_then(Value::as_str)
        && !matches!(event, "Stop" | "UserPromptSubmit")
    {
        identity.insert("matcher".into(), json!(matcher));
    }
    // Keys are inserted in sorted order at every level, and serde_json writes control
    // characters as lowercase `\u00xx` and the rest as raw UTF-8, as Codex does.
    identity.sort_keys();
    let bytes = serde_json::to_vec(&Value::Object(identity)).ok()?;
    Some(format!("sha256:{:x}", Sha256::digest(&bytes)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The worked example recorded from Codex 0.171's own `hooks/list` (its `currentHash`).
    #[test]
    fn the_hash_is_the_one_codex_computes() {
        let command =
            "'/tmp/relay-harness/relay' hook run SessionStart --agent codex --max-chars 8000";
        let hook = json!({"type": "command", "command": command, "timeout": 15});
        assert_eq!(
            hook_hash("SessionStart", &json!({"hooks": [hook.clone()]}), &hook).unwrap(),
            "sha256:3070860140e176056700885019ef3fb9198e985c4c8b5b046ca8dabfc540ae95"
        );
        // SessionEnd is hashed with its timeout as Codex clamps it.
        let command = "'/tmp/relay-harness/relay' hook run SessionEnd --agent codex";
        let end = |t: u64| json!({"type": "command", "command": command, "timeout": t});
        assert_eq!(
            hook_hash("SessionEnd", &json!({}), &end(15)),
            hook_hash("SessionEnd", &json!({}), &end(3))
        );
        assert_eq!(
            state_key(Path::new("/r/.codex/hooks.json"), "PreCompact", 0, 1),
            "/r/.codex/hooks.json:pre_compact:0:1"
        );
    }

    #[test]
    fn trust_needs_the_project_and_the_hook_as_it_is_now() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("repo");
        let file = root.join(".codex/hooks.json");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        let command = "relay hook run Stop --agent codex";
        let hook = json!({"type": "command", "command": command, "timeout": 15});
        let settings = json!({"hooks": {"Stop": [{"hooks": [hook.clone()]}]}});
        std::fs::write(&file, settings.to_string()).unwrap();
        let home = dir.path().join("codex");
        std::fs::create_dir_all(&home).unwrap();
        let judge = || {
            CodexTrust::read(&home)
                .unwrap()
                .judge(&root, &file, &settings, "Stop", command)
        };
        assert_eq!(judge(), HookTrust::ProjectUntrusted);
        let project = format!(
            "[projects.{:?}]\ntrust_level = \"trusted\"\n",
            root.display().to_string()
        );
        std::fs::write(home.join("config.toml"), &project).unwrap();
        assert_eq!(judge(), HookTrust::NeedsReview);
        let hash = hook_hash("Stop", &settings["hooks"]["Stop"][0], &hook).unwrap();
        let key = state_key(&file, "Stop", 0, 0);
        let reviewed = format!("{project}\n[hooks.state.{key:?}]\ntrusted_hash = {hash:?}\n");
        std::fs::write(home.join("config.toml"), &reviewed).unwrap();
        assert_eq!(judge(), HookTrust::Trusted);
        // A command Codex finds in no event's `hooks` list is one it never runs.
        let elsewhere = CodexTrust::read(&home)
            .unwrap()
            .judge(&root, &file, &settings, "Stop", "x");
        assert_eq!(elsewhere, HookTrust::Outside);
        // A hook changed since its review (here its hash no longer matches) is reviewed again.
        let stale = reviewed.replace(&hash[8..12], "0000");
        std::fs::write(home.join("config.toml"), stale).unwrap();
        assert_eq!(judge(), HookTrust::NeedsReview);
        // A linked worktree of the trusted repository is trusted through it.
        let linked = dir.path().join("linked");
        std::fs::create_dir_all(root.join(".git/worktrees/linked")).unwrap();
        std::fs::create_dir_all(&linked).unwrap();
        let gitdir = root.join(".git/worktrees/linked");
        std::fs::write(
            linked.join(".git"),
            format!("gitdir: {}\n", gitdir.display()),
        )
        .unwrap();
        let trust = CodexTrust::read(&home).unwrap();
        assert!(trust.trusts_project(&root) && trust.trusts_project(&linked));
        assert!(!trust.trusts_project(dir.path()));
        std::fs::write(home.join("config.toml"), "not = [toml").unwrap();
        assert!(CodexTrust::read(&home).unwrap_err().contains("is not TOML"));
    }
}
