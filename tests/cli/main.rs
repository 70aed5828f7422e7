//! The CLI integration tests: one binary, a temp store per test (see `harness`).

mod harness;

mod deposit;
mod facts;
mod init_projects;
mod pull;
mod review;
mod robustness;
mod sessions;
mod search_quality;
