//! Every kind of remote caller gets the same answer from every door it can use (issue 57):
//! a read-only token, a token scoped to another project, and a revoked one each send every
//! case of the equivalence table, good and bad, through HTTP and MCP over HTTP. The two
//! doors must agree, refusals included; and what a caller may do is the service's one
//! table, so a write by a read-only token, or a read of `demo` by a token for `web`, is
//! refused on both doors before its request is looked at.
//!
//! One difference is the doors' own and stays: with no token, MCP over HTTP refuses the
//! session itself (`initialize`), so even the public conformance descriptor is read there
//! only with a token, while `GET /v1/conformance` needs none.

use crate::equivalence::{Case, Outcome, agree, cases, outcomes_as, seed, show};
use crate::transports::{Answer, Op};

/// What the table says `kind` must get for `op`, whatever the request: a refusal's code, or
/// `None` where the answer depends on the request (and the two doors must only agree).
fn must_refuse(kind: &str, op: Op) -> Option<&'static str> {
    match kind {
        "revoked" | "no-token" if op != Op::Conformance => Some("unauthenticated"),
        "read-only" if op.writes() => Some("unauthorized"),
        _ => None,
    }
}
use crate::equivalence_inputs::bad_inputs;
use crate::serve::Served;

#[test]
fn every_kind_of_remote_caller_gets_one_answer_from_every_door() {
    let seed = seed();
    let shared = Served::start(&seed.env, &[]);
    let only = std::env::var("EQUIVALENCE_CASE").ok();
    let mut failures = Vec::new();
    let all: Vec<Case> = cases().into_iter().chain(bad_inputs()).collect();
    for (kind, token) in &seed.callers {
        for case in &all {
            if only.as_deref().is_some_and(|o| o != case.name) {
                continue;
            }
            let answers = outcomes_as(&seed, &shared, case, Some(token));
            if answers.len() < 2 {
                continue;
            }
            if std::env::var_os("EQUIVALENCE_SHOW").is_some() {
                eprintln!("== {kind} {}\n{}", case.name, show(&answers));
            }
            let sessionless = kind == &"no-token" && case.op == crate::transports::Op::Conformance;
            let refused = |o: &Outcome, code: &str| {
                o.answer == Answer::Failed(code.into())
                    && o.appended.as_object().is_none_or(|m| m.is_empty())
            };
            if let Some(code) = must_refuse(kind, case.op)
                && let Some((door, o)) = answers.iter().find(|(_, o)| !refused(o, code))
            {
                failures.push(format!(
                    "{kind}: {} ({:?}) on {door} is {:?}, not {code} with nothing written",
                    case.name, case.op, o.answer
                ));
            }
            if !agree(&answers) && !sessionless {
                failures.push(format!(
                    "{kind}: {} ({:?}) differs between doors:\n{}",
                    case.name,
                    case.op,
                    show(&answers)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A listing shows a draft to its creator only, and a token's caller is its token's actor on
/// every door: the served clone's own drafts are not a visitor's, over HTTP or over MCP.
#[test]
fn a_tokens_listing_hides_the_served_users_drafts_on_every_door() {
    use crate::transports::{HttpCall, http, mcp_http};
    let env = crate::harness::Env::new();
    env.deposit("Shipped plan", &[]);
    env.deposit("Half-written plan", &["--status", "draft"]);
    let made = env.ok_json(&["token", "create", "--actor", "visitor", "--read-only"]);
    let visitor = made["token"].as_str().unwrap();
    let server = Served::start(&env, &[]);
    let titles = |answer: Answer| -> Vec<String> {
        let Answer::Ok(body) = answer else {
            panic!("refused: {answer:?}")
        };
        (body["packages"].as_array().unwrap().iter())
            .map(|p| p["title"].as_str().unwrap().to_string())
            .collect()
    };
    let path = "/v1/projects/demo/packages".to_string();
    let over_http = http(
        &env,
        &server,
        visitor,
        &HttpCall {
            method: "GET",
            path,
            body: None,
        },
    );
    let over_mcp = mcp_http(
        &env,
        &server,
        visitor,
        "pull",
        &serde_json::json!({"mode": "latest"}),
    );
    for (door, answer) in [("HTTP", over_http), ("MCP over HTTP", over_mcp)] {
        assert_eq!(titles(answer), ["Shipped plan"], "{door}");
    }
    // The served user, at its own terminal, sees its draft.
    let own = env.ok(&["pull", "--latest", "5"]);
    assert!(own.contains("Half-written plan"), "{own}");
}
