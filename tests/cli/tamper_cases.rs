//! The 22 tamper cases of issue 58, each on its own copy of the honest signed store
//! (`tamper.rs`): what is done to it, and what plain `relay verify` and a read of the package
//! must then say. The test runs them all and lists every case that passes unnoticed.

use serde_json::{Value, json};

use crate::tamper::{Baseline, Case, Expect, baseline, judge, tools};

/// One case: its name, and what it does to its copy (returning what must be seen).
type Tamper = fn(&Baseline, &Case) -> Expect;

const CASES: [(&str, Tamper); 22] = [
    (
        "every_signature_of_an_actor_stripped",
        every_signature_stripped,
    ),
    ("one_signature_stripped", one_signature_stripped),
    ("body_changed_and_rehashed", body_changed),
    ("body_changed_hash_left", body_changed_hash_left),
    ("body_changed_and_signature_stripped", changed_and_stripped),
    (
        "first_signed_record_changed_and_stripped",
        first_changed_and_stripped,
    ),
    (
        "given_to_a_non_signer_signature_left",
        given_to_eve_signature_left,
    ),
    (
        "given_to_a_non_signer_signature_stripped",
        given_to_eve_stripped,
    ),
    (
        "given_to_another_signer_and_stripped",
        given_to_ann_stripped,
    ),
    ("forged_with_an_unknown_key", forged_unknown_key),
    (
        "changed_and_signed_again_with_ssh_keygen",
        signed_again_with_ssh_keygen,
    ),
    ("signed_with_another_actors_key", another_actors_key),
    ("signed_with_a_revoked_key", revoked_key),
    ("dated_before_the_keys_valid_after", before_valid_after),
    (
        "attacker_key_added_for_a_signer_and_record_signed_again",
        attacker_key_for_jo,
    ),
    (
        "attacker_key_added_for_everyone_not_committed",
        attacker_key_for_everyone,
    ),
    ("allowed_signers_deleted", allowed_signers_deleted),
    (
        "allowed_signers_emptied_and_signatures_stripped_committed",
        emptied_and_stripped,
    ),
    ("unsigned_retraction_by_a_non_signer", retracted_by_eve),
    ("signed_retraction_by_a_non_author", retracted_by_ann),
    (
        "unsigned_retraction_forged_as_the_author",
        retraction_forged_as_jo,
    ),
    ("review_approval_forged_unsigned", approval_forged),
];

#[test]
fn every_tamper_case_fails_plain_verify_and_shows_on_reads() {
    if !tools() {
        return;
    }
    let base = baseline();
    let mut unnoticed = Vec::new();
    for (name, tamper) in CASES {
        let case = base.copy(name);
        let expect = tamper(&base, &case);
        let wrong = judge(&case, &expect);
        if !wrong.is_empty() {
            unnoticed.push(format!("{name}:\n  {}", wrong.join("\n  ")));
        }
    }
    assert!(
        unnoticed.is_empty(),
        "{} of {} cases:\n{}",
        unnoticed.len(),
        CASES.len(),
        unnoticed.join("\n")
    );
}

fn every_signature_stripped(b: &Baseline, c: &Case) -> Expect {
    c.strip(|s| s["actor"] != "jo");
    Expect::verify(&["unsigned_record"]).read(&b.second)
}

fn one_signature_stripped(b: &Baseline, c: &Case) -> Expect {
    c.strip_id(&b.second);
    Expect::verify(&["unsigned_record"]).read(&b.second)
}

fn retitle(p: &mut Value) {
    p["title"] = json!("Second, as someone would rather have had it");
}

fn body_changed(b: &Baseline, c: &Case) -> Expect {
    c.rewrite(&b.second, true, retitle);
    Expect::verify(&["bad_signature"]).read(&b.second)
}

fn body_changed_hash_left(b: &Baseline, c: &Case) -> Expect {
    c.rewrite(&b.second, false, retitle);
    Expect::verify(&["hash_mismatch"])
}

fn changed_and_stripped(b: &Baseline, c: &Case) -> Expect {
    c.rewrite(&b.second, true, retitle);
    c.strip_id(&b.second);
    Expect::verify(&["unsigned_record"]).read(&b.second)
}

fn first_changed_and_stripped(b: &Baseline, c: &Case) -> Expect {
    c.rewrite(&b.first, true, |p| p["title"] = json!("Not the first"));
    c.strip_id(&b.first);
    Expect::verify(&["unsigned_record"]).read(&b.first)
}

fn to(actor: &'static str) -> impl Fn(&mut Value) {
    move |p| p["created_by"]["id"] = json!(actor)
}

fn given_to_eve_signature_left(b: &Baseline, c: &Case) -> Expect {
    c.rewrite(&b.second, true, to("eve"));
    Expect::verify(&["bad_signature"]).read(&b.second)
}

/// Only git's history knows the signature was there: reads judge what the store holds now.
fn given_to_eve_stripped(b: &Baseline, c: &Case) -> Expect {
    c.rewrite(&b.second, true, to("eve"));
    c.strip_id(&b.second);
    Expect::verify(&["signature_removed"])
}

fn given_to_ann_stripped(b: &Baseline, c: &Case) -> Expect {
    c.rewrite(&b.second, true, to("ann"));
    c.strip_id(&b.second);
    Expect::verify(&["unsigned_record"]).read(&b.second)
}

fn forged_unknown_key(_: &Baseline, c: &Case) -> Expect {
    let id = c.deposit("jo", "mallory.key", "Forged as jo", &[]);
    Expect::verify(&["signature_not_allowed"]).read(&id)
}

fn signed_again_with_ssh_keygen(b: &Baseline, c: &Case) -> Expect {
    let hash = c.rewrite(&b.second, true, retitle);
    c.strip_id(&b.second);
    c.sign_with_ssh_keygen("mallory.key", "package", &b.second, &hash, "jo");
    Expect::verify(&["signature_not_allowed"]).read(&b.second)
}

fn another_actors_key(_: &Baseline, c: &Case) -> Expect {
    let id = c.deposit("jo", "ann.key", "Signed with ann's key", &[]);
    Expect::verify(&["signature_not_allowed"]).read(&id)
}

/// jo's old key is revoked (it leaked), and someone still signs with it.
fn revoked_key(_: &Baseline, c: &Case) -> Expect {
    c.allow(&format!("@revoked {} leaked", c.public("jo.key")));
    let id = c.deposit("jo", "jo.key", "With the leaked key", &[]);
    Expect::verify(&["revoked_signature"]).read(&id)
}

/// A record dated before jo2.key's valid-after, signed with it: backdated.
fn before_valid_after(_: &Baseline, c: &Case) -> Expect {
    let input = json!({"title": "Backdated", "created_at": "2021-03-01T00:00:00Z"}).to_string();
    let key = c.key("jo2.key");
    let args = [
        "deposit",
        "--from",
        "-",
        "--json",
        "--actor",
        "jo",
        "--sign-with",
        &key,
    ];
    let mut command = c.env.command(&args);
    command.current_dir(&c.dir);
    let r = crate::harness::Env::piped(command, input.as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let id = r.json()["package"]["package_id"]
        .as_str()
        .unwrap()
        .to_string();
    Expect::verify(&["signature_not_allowed"]).read(&id)
}

/// Mallory's key is added for jo and committed, and jo's record, changed, is signed again
/// with it: the key change has no rotation record signed by jo's key.
fn attacker_key_for_jo(b: &Baseline, c: &Case) -> Expect {
    c.allow(&format!("jo {}", c.public("mallory.key")));
    let hash = c.rewrite(&b.second, true, retitle);
    c.strip_id(&b.second);
    c.sign_with_ssh_keygen("mallory.key", "package", &b.second, &hash, "jo");
    c.commit("a new key for jo");
    Expect::verify(&["unverified_key_change", "signature_not_allowed"]).read(&b.second)
}

fn attacker_key_for_everyone(_: &Baseline, c: &Case) -> Expect {
    c.allow(&format!("* {}", c.public("mallory.key")));
    let id = c.deposit("jo", "mallory.key", "By jo, says mallory", &[]);
    Expect::verify(&["unverified_key_change", "signature_not_allowed"]).read(&id)
}

fn allowed_signers_deleted(b: &Baseline, c: &Case) -> Expect {
    std::fs::remove_file(c.store().join("allowed_signers")).unwrap();
    Expect::verify(&["allowed_signers_removed"]).read(&b.second)
}

fn emptied_and_stripped(b: &Baseline, c: &Case) -> Expect {
    std::fs::write(
        c.store().join("allowed_signers"),
        "# keys moved elsewhere\n",
    )
    .unwrap();
    c.strip(|_| false);
    c.commit("tidy up");
    Expect::verify(&["allowed_signers_removed", "unsigned_record"]).read(&b.second)
}

fn retracted_by_eve(b: &Baseline, c: &Case) -> Expect {
    c.ok(&[
        "retract", &b.second, "--reason", "obsolete", "--actor", "eve",
    ]);
    Expect::verify(&["retraction_not_allowed"]).retracted(&b.second)
}

fn retracted_by_ann(b: &Baseline, c: &Case) -> Expect {
    let key = c.key("ann.key");
    let args = [
        "retract",
        &b.by_eve,
        "--reason",
        "spam",
        "--actor",
        "ann",
        "--sign-with",
        &key,
    ];
    c.ok(&args);
    Expect::verify(&["retraction_not_allowed"]).retracted(&b.by_eve)
}

fn retraction_forged_as_jo(b: &Baseline, c: &Case) -> Expect {
    c.ok(&[
        "retract",
        &b.second,
        "--reason",
        "withdrawn",
        "--actor",
        "jo",
    ]);
    Expect::verify(&["unsigned_record"]).retracted(&b.second)
}

fn approval_forged(b: &Baseline, c: &Case) -> Expect {
    c.ok(&["review", "approve", &b.awaiting, "--actor", "ann"]);
    Expect::verify(&["unsigned_record"]).read(&b.awaiting)
}
