//! One module per command: its clap `Args` and its `run`.

pub mod completions;
pub mod conformance;
pub mod deposit;
pub mod export;
pub mod facts;
pub mod hook;
pub mod import;
pub mod init;
pub mod keys;
pub mod mcp;
pub mod onboard;
pub mod orchestrate;
pub mod orient;
pub mod projects;
pub mod pull;
pub mod review;
pub mod scan;
pub mod search;
pub mod serve;
pub mod session;
pub mod status;
pub mod token;
pub mod ui;
pub mod verify;
pub mod watch;
