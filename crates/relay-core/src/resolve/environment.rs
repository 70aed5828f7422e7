//! One snapshot of the environment variables relay reads, taken once when a door starts
//! ([`Environment::process`]) and passed down: below it nothing reads `std::env`, so what a
//! setting comes from is one place to look, and a test can build the environment by hand
//! ([`Environment::from_pairs`]). The CLI's reference table of variables is checked against
//! [`ALL`].

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::path::PathBuf;
use std::sync::OnceLock;

/// One environment variable relay reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Var(&'static str);

impl Var {
    pub const fn name(self) -> &'static str {
        self.0
    }
}

const fn var(name: &'static str) -> Var {
    Var(name)
}

pub const RELAY_DIR: Var = var("RELAY_DIR");
pub const RELAY_PROJECT: Var = var("RELAY_PROJECT");
pub const RELAY_SESSION: Var = var("RELAY_SESSION");
pub const RELAY_ACTOR: Var = var("RELAY_ACTOR");
pub const RELAY_ACTOR_TYPE: Var = var("RELAY_ACTOR_TYPE");
pub const RELAY_MODEL: Var = var("RELAY_MODEL");
pub const RELAY_COLD_NOTE_BYTES: Var = var("RELAY_COLD_NOTE_BYTES");
pub const RELAY_WATCH_POLL: Var = var("RELAY_WATCH_POLL");
pub const RELAY_TOKEN: Var = var("RELAY_TOKEN");
pub const RELAY_SIGNING_KEY: Var = var("RELAY_SIGNING_KEY");
pub const NO_COLOR: Var = var("NO_COLOR");
pub const XDG_CONFIG_HOME: Var = var("XDG_CONFIG_HOME");
pub const HOME: Var = var("HOME");
pub const CODEX_HOME: Var = var("CODEX_HOME");
pub const USERPROFILE: Var = var("USERPROFILE");
pub const USER: Var = var("USER");
pub const USERNAME: Var = var("USERNAME");
pub const PATH: Var = var("PATH");
pub const GIT_DIR: Var = var("GIT_DIR");
pub const GIT_INDEX_FILE: Var = var("GIT_INDEX_FILE");
pub const GIT_REFLOG_ACTION: Var = var("GIT_REFLOG_ACTION");

/// Every variable relay reads: relay's own, then the system's and git's.
pub const ALL: &[Var] = &[
    RELAY_DIR,
    RELAY_PROJECT,
    RELAY_SESSION,
    RELAY_ACTOR,
    RELAY_ACTOR_TYPE,
    RELAY_MODEL,
    RELAY_COLD_NOTE_BYTES,
    RELAY_WATCH_POLL,
    RELAY_TOKEN,
    RELAY_SIGNING_KEY,
    NO_COLOR,
    XDG_CONFIG_HOME,
    HOME,
    CODEX_HOME,
    USERPROFILE,
    USER,
    USERNAME,
    PATH,
    GIT_DIR,
    GIT_INDEX_FILE,
    GIT_REFLOG_ACTION,
];

/// The values of the variables of [`ALL`] that were set.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Environment {
    values: BTreeMap<Var, OsString>,
}

impl Environment {
    /// Reads every variable of [`ALL`] from the process, now.
    pub fn capture() -> Environment {
        Environment {
            values: ALL
                .iter()
                .filter_map(|&v| std::env::var_os(v.name()).map(|value| (v, value)))
                .collect(),
        }
    }

    /// The process's snapshot: captured on the first call (a door's start) and the same
    /// from then on.
    pub fn process() -> &'static Environment {
        static PROCESS: OnceLock<Environment> = OnceLock::new();
        PROCESS.get_or_init(Environment::capture)
    }

    /// An environment of these values only, as a test writes it.
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (Var, &'a str)>) -> Environment {
        Environment {
            values: pairs
                .into_iter()
                .map(|(v, value)| (v, OsString::from(value)))
                .collect(),
        }
    }

    /// The value of `var`, if set (even to nothing).
    pub fn os(&self, var: Var) -> Option<&OsStr> {
        self.values.get(&var).map(OsString::as_os_str)
    }

    /// The value of `var` as text, if set (even to nothing) and valid Unicode.
    pub fn text(&self, var: Var) -> Option<&str> {
        self.os(var)?.to_str()
    }

    /// The value of `var` as text, if set to something.
    pub fn filled(&self, var: Var) -> Option<&str> {
        self.text(var).filter(|v| !v.is_empty())
    }

    /// Whether `var` is set to something.
    pub fn is_filled(&self, var: Var) -> bool {
        self.os(var).is_some_and(|v| !v.is_empty())
    }

    /// The project a door acts on unless told (`RELAY_PROJECT`).
    pub fn project(&self) -> Option<String> {
        self.filled(RELAY_PROJECT).map(str::to_string)
    }

    /// The session a write records unless told (`RELAY_SESSION`, as set).
    pub fn session(&self) -> Option<String> {
        self.text(RELAY_SESSION).map(str::to_string)
    }

    /// Who acts unless told (`RELAY_ACTOR`, as set).
    pub fn actor(&self) -> Option<String> {
        self.text(RELAY_ACTOR).map(str::to_string)
    }

    /// The user's name, the actor's last default: `USER`, else `USERNAME` (Windows).
    pub fn user_name(&self) -> Option<String> {
        self.filled(USER)
            .or_else(|| self.filled(USERNAME))
            .map(str::to_string)
    }

    /// The home folder: `HOME`, else `USERPROFILE` (Windows).
    pub fn home(&self) -> Option<PathBuf> {
        self.os(HOME)
            .or_else(|| self.os(USERPROFILE))
            .map(PathBuf::from)
    }

    /// Codex's folder, where its config.toml says which hooks it trusts: `CODEX_HOME`, else
    /// `~/.codex`.
    pub fn codex_home(&self) -> Option<PathBuf> {
        self.os(CODEX_HOME)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| self.home().map(|h| h.join(".codex")))
    }

    /// The user's configuration folder: `XDG_CONFIG_HOME`, else `~/.config`.
    pub fn config_home(&self) -> Option<PathBuf> {
        self.os(XDG_CONFIG_HOME)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| self.os(HOME).map(|h| PathBuf::from(h).join(".config")))
    }

    /// Whether human output must not be colored (`NO_COLOR` set to something).
    pub fn no_color(&self) -> bool {
        self.is_filled(NO_COLOR)
    }

    /// The threshold of the cold-index note, when `RELAY_COLD_NOTE_BYTES` sets one.
    pub fn cold_note_bytes(&self) -> Option<u64> {
        self.text(RELAY_COLD_NOTE_BYTES)?.parse().ok()
    }

    /// Whether a watch polls instead of waking on file events (`RELAY_WATCH_POLL=1`).
    pub fn watch_poll(&self) -> bool {
        self.os(RELAY_WATCH_POLL).is_some_and(|v| v == "1")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_has_each_variable_once() {
        let mut names: Vec<&str> = ALL.iter().map(|v| v.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ALL.len());
    }

    #[test]
    fn settings_come_from_the_snapshot_with_their_fallbacks() {
        let env = Environment::from_pairs([
            (USER, ""),
            (USERNAME, "win"),
            (USERPROFILE, "/profile"),
            (XDG_CONFIG_HOME, ""),
            (RELAY_PROJECT, ""),
            (RELAY_SESSION, ""),
            (NO_COLOR, ""),
            (RELAY_COLD_NOTE_BYTES, "12"),
        ]);
        assert_eq!(env.user_name().as_deref(), Some("win"));
        assert_eq!(env.home(), Some(PathBuf::from("/profile")));
        assert_eq!(env.config_home(), None);
        assert_eq!(env.project(), None);
        assert_eq!(env.session().as_deref(), Some(""));
        assert!(!env.no_color() && !env.watch_poll());
        assert_eq!(env.cold_note_bytes(), Some(12));
        let home = Environment::from_pairs([(HOME, "/h"), (RELAY_WATCH_POLL, "1")]);
        assert_eq!(home.config_home(), Some(PathBuf::from("/h/.config")));
        assert!(home.watch_poll());
        assert_eq!(Environment::default().user_name(), None);
    }
}
