//! The L0 scenarios (§11.1): the conformance descriptor, latest and specific pull, orient and
//! its window, the optional orchestrate, the check that missing capabilities answer 501
//! (§10.2), and the check that every package and fact the server returned during the run is
//! the wire format of §6 and §7. Relevant pull is [`super::search`]'s, realtime
//! [`super::realtime`]'s.

use serde_json::Value;

use super::client::Answer;
use super::setup::SEEDS;
use super::shape::{self, Capabilities};
use super::{Check, Kind, Suite, expect, expect_error, expect_list, fail, offered, required, skip};
use relay_wire::{canonical, ids, time};

/// The descriptor's capabilities, when it has the shape of §11.5.
fn capabilities(s: &Suite) -> Option<Capabilities> {
    (s.descriptor.status == 200)
        .then_some(s.descriptor.body.as_ref())
        .flatten()
        .and_then(|d| shape::descriptor(d).ok())
}

/// `GET /v1/conformance`: 200 and the shape of §11.5. §11.5 says a server SHOULD publish one;
/// the suite needs it, as the only word on which capabilities the server lacks (§10.2) and so
/// on which checks may be skipped: a server without one fails here, and in every check that
/// needs its capabilities.
pub fn descriptor(s: &mut Suite) -> Check {
    required(
        &s.descriptor,
        "conformance descriptor",
        "the suite, to know which capabilities the server lacks (§10.2; §11.5: a server SHOULD \
         publish one)",
    )?;
    let d = expect(&s.descriptor, &[200], "200 and the descriptor (§11.5)")?;
    shape::descriptor(d)
        .map_err(|e| super::Stop::Fail(format!("{} answered: {e}", s.descriptor.request)))?;
    Ok(())
}

/// The suite's seeds; a read with nothing of the suite's to read back fails, as it checks
/// nothing.
pub(crate) fn seeded(s: &Suite) -> Check<&[Value]> {
    match &s.seed_problem {
        None if s.seeds.len() == SEEDS => Ok(&s.seeds),
        Some(p) => fail(format!(
            "not checked: no packages to read back, depositing them failed ({p})"
        )),
        None => fail("not checked: no packages to read back"),
    }
}

/// The descriptor's capabilities, or a failure: a check that depends on them cannot run
/// without them.
pub(crate) fn declared(s: &Suite) -> Check<Capabilities> {
    capabilities(s).ok_or_else(|| {
        super::Stop::Fail(
            "not checked: the descriptor does not say which capabilities the server has (see \
             `descriptor`, §11.5)"
                .into(),
        )
    })
}

/// pull latest (§8.2) over the suite's eight seeds, made a second apart seconds ago: newest
/// first, `limit` honoured, exactly 5 without a limit (§8.2: limit defaults to 5), and the
/// newest packages of the project not cut off.
pub fn pull_latest(s: &mut Suite) -> Check {
    let seeds = seeded(s)?.to_vec();
    let path = s.project_path(&["packages"]);
    let a = s.client.get(&path, &[("mode", "latest"), ("limit", "2")]);
    let list = latest_list(&a, &seeds, 2)?.to_vec();
    s.saw(Kind::Package, &a, &list.iter().collect::<Vec<_>>());
    let b = s.client.get(&path, &[("mode", "latest")]);
    let all = latest_list(&b, &seeds, 5)?.to_vec();
    s.saw(Kind::Package, &b, &all.iter().collect::<Vec<_>>());
    Ok(())
}

/// The packages of a latest pull that must hold `count`: newest first, and none of the seeds
/// newer than the last of them left out.
fn latest_list<'a>(a: &'a Answer, seeds: &[Value], count: usize) -> Check<&'a [Value]> {
    let list = expect_list(a, "packages", "200 and the packages (§8.2, §9.1)")?;
    shape::newest_first(list).map_err(|e| super::Stop::Fail(format!("{}: {e}", a.request)))?;
    if list.len() != count {
        let limit = match count {
            5 => "no limit given, and limit defaults to 5".to_string(),
            n => format!("limit={n}"),
        };
        return fail(format!(
            "{} answered {} packages; expected {count}: the project holds at least {} and \
             {limit} (§8.2)",
            a.request,
            list.len(),
            seeds.len()
        ));
    }
    let oldest_kept = shape::time_of(&list[count - 1], "created_at");
    let ids: Vec<&str> = list.iter().map(|p| shape::text(p, "package_id")).collect();
    for seed in seeds {
        let id = shape::text(seed, "package_id");
        if shape::time_of(seed, "created_at") > oldest_kept && !ids.contains(&id) {
            return fail(format!(
                "{} answered {ids:?}, without `{id}`, which is newer than the last of them \
                 (§8.2: the N most recent)",
                a.request
            ));
        }
    }
    Ok(list)
}

/// pull specific (§8.2): the package, as deposited (its content hash unchanged).
pub fn pull_specific(s: &mut Suite) -> Check {
    let seed = seeded(s)?[0].clone();
    let id = shape::text(&seed, "package_id");
    let a = s.client.get(&["v1", "packages", id], &[]);
    let body = expect(&a, &[200], "200 and the package (§8.2)")?;
    let Some(p) = shape::package_of(body).cloned() else {
        return fail(format!("{}; expected the package `{id}`", a.answered()));
    };
    s.saw(Kind::Package, &a, &[&p]);
    if canonical::content_hash(&p) != canonical::content_hash(&seed) {
        return fail(format!(
            "{} answered a package other than the one deposited: {p} (§6.6: packages are \
             immutable)",
            a.request
        ));
    }
    Ok(())
}

/// pull specific of an id nothing holds: 404 `package_not_found` (§8.2).
pub fn pull_specific_unknown(s: &mut Suite) -> Check {
    let id = ids::new_id("pkg");
    let a = s.client.get(&["v1", "packages", &id], &[]);
    expect_error(&a, 404, "package_not_found", "§8.2")
}

impl Suite {
    /// orient (§8.3) of the suite's project over `window_days`: the answer and its
    /// OrientationBundle, checked against the shape of §8.3.
    pub(crate) fn orient_bundle(&self, window_days: u64) -> Check<(Answer, Value)> {
        let days = window_days.to_string();
        let a = (self.client).get(&self.project_path(&["orient"]), &[("window_days", &days)]);
        let body = expect(&a, &[200], "200 and the OrientationBundle (§8.3)")?.clone();
        shape::orient_bundle(&body, window_days)
            .map_err(|e| super::Stop::Fail(format!("{} answered: {e}", a.request)))?;
        Ok((a, body))
    }
}

/// orient (§8.3): the OrientationBundle, with the suite's seeds among the recent packages.
pub fn orient(s: &mut Suite) -> Check {
    let (a, body) = s.orient_bundle(14)?;
    let recent = body["recent_packages"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let facts = body["active_facts"].as_array().cloned().unwrap_or_default();
    s.saw(Kind::Package, &a, &recent.iter().collect::<Vec<_>>());
    s.saw(Kind::Fact, &a, &facts.iter().collect::<Vec<_>>());
    if let Some(id) = body["project"].get("project_id").and_then(Value::as_str)
        && id != s.project
    {
        return fail(format!(
            "{} answered the project `{id}`, not `{}`",
            a.request, s.project
        ));
    }
    let Some(newest) = s.seeds.last() else {
        return Ok(());
    };
    if !recent
        .iter()
        .any(|p| p["package_id"] == newest["package_id"])
    {
        return fail(format!(
            "{}: `recent_packages` lacks {}, deposited seconds ago (§8.3, §11.1: raw recent \
             packages)",
            a.request, newest["package_id"]
        ));
    }
    // An entry may be the question itself or an object that holds it.
    let question = newest["open_questions"][0].to_string();
    let questions = body["open_questions"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    if !questions.iter().any(|q| q.to_string().contains(&question)) {
        return fail(format!(
            "{}: `open_questions` lacks {question}, an open question of {} (§8.3: aggregated \
             from recent packages)",
            a.request, newest["package_id"]
        ));
    }
    Ok(())
}

/// How old the package `orient_window` must not see is.
const OLD_AGE: chrono::TimeDelta = chrono::TimeDelta::days(3);

/// How far a package may stand outside a window of whole days and still count as inside:
/// room for the clocks of suite and server to differ.
const WINDOW_SLACK: chrono::TimeDelta = chrono::TimeDelta::minutes(10);

impl Suite {
    /// Deposits the package `orient_window` must not see, made [`OLD_AGE`] ago.
    pub(super) fn seed_old(&mut self) {
        let package = self.package(
            "Conformance window, deposited days ago",
            "complete",
            OLD_AGE,
        );
        let a = self.deposit(&package);
        self.old = match (a.body.as_ref())
            .filter(|_| a.success())
            .and_then(shape::package_of)
        {
            Some(p) => Ok(p.clone()),
            None => Err(a.answered()),
        };
    }
}

/// orient's window (§8.3: `window_days`): with a window of one day, no recent package made
/// before it (with [`WINDOW_SLACK`] for the clocks), not the suite's package made three days
/// ago, and the newest seed, made seconds ago.
pub fn orient_window(s: &mut Suite) -> Check {
    let newest = seeded(s)?.last().cloned().unwrap_or_default();
    let old = match &s.old {
        Ok(p) => p.clone(),
        Err(why) => {
            return fail(format!(
                "not checked: depositing a package made {} days ago failed ({why})",
                OLD_AGE.num_days()
            ));
        }
    };
    let start = time::now() - chrono::TimeDelta::days(1) - WINDOW_SLACK;
    let (a, body) = s.orient_bundle(1)?;
    let recent: Vec<Value> = (body["recent_packages"].as_array().into_iter().flatten())
        .filter_map(shape::package_of)
        .cloned()
        .collect();
    s.saw(Kind::Package, &a, &recent.iter().collect::<Vec<_>>());
    if let Some(p) = recent.iter().find(|p| p["package_id"] == old["package_id"]) {
        return fail(format!(
            "{}: `recent_packages` lists `{}`, made {} ({} days ago), outside a window of one \
             day (§8.3: window_days)",
            a.request,
            shape::text(p, "package_id"),
            shape::text(p, "created_at"),
            OLD_AGE.num_days()
        ));
    }
    let outside = recent
        .iter()
        .find(|p| shape::time_of(p, "created_at").is_none_or(|t| t < start));
    if let Some(p) = outside {
        return fail(format!(
            "{}: `recent_packages` lists `{}`, made {}, before the window of one day began \
             (§8.3: window_days)",
            a.request,
            shape::text(p, "package_id"),
            shape::text(p, "created_at")
        ));
    }
    if !recent
        .iter()
        .any(|p| p["package_id"] == newest["package_id"])
    {
        return fail(format!(
            "{}: `recent_packages` lacks {}, deposited seconds ago, inside a window of one day \
             (§8.3)",
            a.request, newest["package_id"]
        ));
    }
    Ok(())
}

/// The members of a DigestBundle (§8.4) and the names the suite accepts for each: §8.4 lists
/// what the bundle contains without naming its members.
const DIGEST_MEMBERS: [(&str, &[&str]); 4] = [
    (
        "a time-windowed summary of recent activity",
        &["summary", "recent_activity", "recent"],
    ),
    ("active facts", &["active_facts", "facts"]),
    ("open questions", &["open_questions"]),
    (
        "semantic snippets pulled by similarity to focus",
        &["snippets"],
    ),
];

/// orchestrate (§8.4), which no level requires (§11.1): skipped when the server lacks it, and
/// when offered, a DigestBundle with the members of §8.4 (the snippets, as a focus is given;
/// the summary an object or array; the others arrays), the open question of the newest seed
/// among its open questions, and in global mode (no project) cross-project counts.
pub fn orchestrate(s: &mut Suite) -> Check {
    let project = s.project.clone();
    let word = s.word.clone();
    let a = s.client.get(
        &["v1", "orchestrate"],
        &[("project", &project), ("focus", &word)],
    );
    let a = offered(&a, "orchestrate (optional at L0, §11.1)")?;
    let body = expect(a, &[200], "200 and a DigestBundle (§8.4)")?;
    digest_problem(body, false)
        .map_err(|e| super::Stop::Fail(format!("{} answered: {e}", a.request)))?;
    if let Some(newest) = s.seeds.last() {
        let question = newest["open_questions"][0].to_string();
        if !body["open_questions"].to_string().contains(&question) {
            return fail(format!(
                "{}: `open_questions` lacks {question}, an open question of {} (§8.4)",
                a.request, newest["package_id"]
            ));
        }
    }
    let g = s.client.get(&["v1", "orchestrate"], &[("focus", &word)]);
    if g.status == 200 {
        let body = expect(&g, &[200], "a global DigestBundle (§8.4)")?;
        digest_problem(body, true)
            .map_err(|e| super::Stop::Fail(format!("{} answered: {e}", g.request)))?;
    }
    Ok(())
}

/// Why a body is not a DigestBundle of §8.4, if it is not.
fn digest_problem(body: &Value, global: bool) -> Result<(), String> {
    if !body.is_object() {
        return Err(format!("{body}, not a DigestBundle object (§8.4)"));
    }
    for (what, names) in DIGEST_MEMBERS {
        let member = names.iter().find_map(|n| body.get(*n));
        let fits = match member {
            Some(m) if names[0] == "summary" => m.is_object() || m.is_array(),
            Some(m) => m.is_array(),
            None => false,
        };
        if !fits {
            return Err(format!(
                "no {what} (§8.4): expected `{}`{}",
                names.join("` or `"),
                if names[0] == "summary" {
                    ", an object or array"
                } else {
                    ", an array"
                }
            ));
        }
    }
    let counts = ["projects", "project_counts", "counts"];
    if global
        && !counts
            .iter()
            .any(|n| body.get(*n).is_some_and(|c| c.is_array() || c.is_object()))
    {
        return Err(format!(
            "no cross-project counts in global mode (§8.4): expected `{}`",
            counts.join("` or `")
        ));
    }
    Ok(())
}

/// §10.2: every operation that depends on a capability the descriptor says is missing answers
/// 501 with a body naming it. What can be probed: relevant pull, when no search is declared
/// (or, for a server that knows relay's `search=` parameter, semantic or hybrid search when
/// those are false), and relay's event stream when realtime is false.
pub fn missing_capabilities(s: &mut Suite) -> Check {
    let caps = declared(s)?;
    let word = s.word.clone();
    let path = s.project_path(&["packages"]);
    let mut probes = Vec::new();
    if !caps.any_search() {
        let a = s
            .client
            .get(&path, &[("mode", "relevant"), ("query", &word)]);
        probes.push(probe(&a, "search", true));
    } else {
        for (declared, mode) in [
            (caps.semantic_search, "semantic"),
            (caps.hybrid_search, "hybrid"),
        ] {
            if !declared {
                let q = [
                    ("mode", "relevant"),
                    ("query", word.as_str()),
                    ("search", mode),
                ];
                // Only a server that declares relay's x-keyword_search knows `search=`.
                probes.push(probe(
                    &s.client.get(&path, &q),
                    &format!("{mode}_search"),
                    caps.keyword_search.is_some(),
                ));
            }
        }
    }
    if !caps.realtime {
        let a = s.client.get_stream(&s.project_path(&["events"]));
        probes.push(probe(&a, "realtime", !matches!(a.status, 404 | 405)));
    }
    if !caps.blob_storage {
        probes.push(Probe::Unprobed(
            "blob_storage (no operation of §9.1 depends on it)".into(),
        ));
    }
    let failures: Vec<&str> = (probes.iter())
        .filter_map(|p| match p {
            Probe::Failed(f) => Some(f.as_str()),
            _ => None,
        })
        .collect();
    if !failures.is_empty() {
        return fail(format!("{} (§10.2)", failures.join("; ")));
    }
    if probes.is_empty() || probes.contains(&Probe::Named) {
        // Nothing declared missing, or what is was named.
        return Ok(());
    }
    let unprobed: Vec<&str> = (probes.iter())
        .filter_map(|p| match p {
            Probe::Unprobed(u) => Some(u.as_str()),
            _ => None,
        })
        .collect();
    skip(format!(
        "no missing capability could be probed: {}",
        unprobed.join("; ")
    ))
}

/// What probing one missing capability found.
#[derive(Debug, PartialEq)]
enum Probe {
    /// 501 with a body naming the capability.
    Named,
    Failed(String),
    /// The server does not show whether the operation depends on it: why.
    Unprobed(String),
}

/// Judges the answer to an operation that depends on the missing `capability`; `must` says
/// whether the server is known to offer the operation (else any answer but 501 leaves the
/// capability unprobed).
fn probe(a: &Answer, capability: &str, must: bool) -> Probe {
    if a.status == 501 && a.text.to_lowercase().contains(capability) {
        Probe::Named
    } else if a.status == 501 {
        Probe::Failed(format!(
            "{}: the body does not name the missing capability `{capability}`",
            a.answered()
        ))
    } else if must {
        Probe::Failed(format!(
            "{}; expected 501 naming `{capability}`",
            a.answered()
        ))
    } else {
        Probe::Unprobed(format!("{capability} ({})", a.answered()))
    }
}

/// Every package and fact the server returned during the run validates as the wire format
/// (§6, §7), by relay's own validation.
pub fn wire_format(s: &mut Suite) -> Check {
    if s.seen.is_empty() {
        return fail("not checked: the server returned no package or fact");
    }
    let mut problems = Vec::new();
    for seen in &s.seen {
        let (what, problem) = match seen.kind {
            Kind::Package => ("package", shape::package_problem(&seen.value)),
            Kind::Fact => ("fact", shape::fact_problem(&seen.value)),
        };
        if let Some(p) = problem {
            let section = if seen.kind == Kind::Package {
                "§6"
            } else {
                "§7"
            };
            problems.push(format!(
                "{} returned a {what} that is not the wire format of {section}: {p}",
                seen.from
            ));
        }
    }
    match problems.len() {
        0 => Ok(()),
        n => fail(format!(
            "{n} of {} records: {}",
            s.seen.len(),
            problems.into_iter().take(3).collect::<Vec<_>>().join("; ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_missing_capability_must_answer_501_naming_it() {
        let named = json!({"error": "search_not_supported", "capability": "semantic_search",
            "message": "Semantic search needs a model"});
        let a = Answer::canned("GET /x", 501, named);
        assert_eq!(probe(&a, "semantic_search", true), Probe::Named);
        let Probe::Failed(why) = probe(&a, "hybrid_search", true) else {
            panic!("a body naming another capability passed")
        };
        assert!(
            why.ends_with("does not name the missing capability `hybrid_search`"),
            "{why}"
        );
        let vague = Answer::canned(
            "GET /x",
            501,
            json!({"error": "search_not_supported",
            "message": "semantic search needs a model"}),
        );
        assert!(
            matches!(probe(&vague, "semantic_search", true), Probe::Failed(_)),
            "§10.2: the body names the flag"
        );
        let ok = Answer::canned("GET /x", 200, json!({"packages": []}));
        let Probe::Failed(why) = probe(&ok, "semantic", true) else {
            panic!("a 200 passed")
        };
        assert!(why.ends_with("expected 501 naming `semantic`"), "{why}");
        // A server that does not know relay's `search=` may answer anything but 501.
        let unknown = Answer::canned("GET /x", 400, json!({"error": "invalid_input"}));
        assert!(matches!(
            probe(&unknown, "semantic", false),
            Probe::Unprobed(_)
        ));
    }
}
