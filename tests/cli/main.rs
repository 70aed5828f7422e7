//! The CLI integration tests: one binary, a temp store per test (see `harness`).

mod harness;

mod architecture;
mod backup;
mod compat;
mod conformance_suite;
mod console;
mod console_package;
mod convergence;
mod deposit;
mod error_codes;
mod examples;
mod facts;
mod generated;
mod git;
mod hooks;
mod ids;
mod import_rules;
mod indexes;
mod init_projects;
mod mcp;
mod onboard;
mod orient;
mod pull;
mod review;
mod robustness;
mod search_output;
mod search_paraphrases;
mod search_quality;
mod search_semantic;
mod secrets;
mod serve;
mod sessions;
mod tokens;
mod verify;
mod watch;
