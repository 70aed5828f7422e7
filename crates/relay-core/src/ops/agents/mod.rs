//! relay inside coding agents' sessions and git's hooks: installing the hooks, what each hook
//! event does, the queue of hook writes, the automatic deposit and the agent's transcript.

pub mod agent_files;
pub mod auto;
pub mod codex_trust;
pub mod event;
pub mod files;
pub mod hook_rules;
pub mod hooks;
pub mod journal;
pub mod opencode;
pub mod probe;
pub mod queue;
pub mod session;
pub mod transcript;
