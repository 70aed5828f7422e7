//! `--help` of the main commands, whole: the help is where a user learns a command, so what it
//! says is a contract like any output.

use crate::harness::{Env, snapshot};

/// `relay ARGS --help`, which exits 0 and prints on stdout alone.
fn help(args: &[&str]) -> String {
    let env = Env::empty();
    let mut all = args.to_vec();
    all.push("--help");
    let r = env.run(&all);
    assert_eq!((r.code, r.stderr.as_str()), (0, ""), "{args:?}");
    r.stdout
}

#[test]
fn relay_help() {
    snapshot!("relay", help(&[]));
}

#[test]
fn deposit_help() {
    snapshot!("deposit", help(&["deposit"]));
}

#[test]
fn pull_help() {
    snapshot!("pull", help(&["pull"]));
}

#[test]
fn orient_help() {
    snapshot!("orient", help(&["orient"]));
}

#[test]
fn facts_assert_help() {
    snapshot!("facts_assert", help(&["facts", "assert"]));
}

#[test]
fn session_start_help() {
    snapshot!("session_start", help(&["session", "start"]));
}

#[test]
fn verify_help() {
    snapshot!("verify", help(&["verify"]));
}

#[test]
fn a_short_help_is_the_summary() {
    let env = Env::empty();
    let r = env.run(&["pull", "-h"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    snapshot!("pull_short", r.stdout);
}

#[test]
fn an_unknown_command_is_a_usage_error_that_points_at_help() {
    let env = Env::empty();
    snapshot!("unknown_command", env.run(&["depsit"]).transcript());
    snapshot!("unknown_flag", env.run(&["pull", "--lates"]).transcript());
}
