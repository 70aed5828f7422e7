//! The L0 scenarios of relevant pull (§8.2) and the search capabilities a descriptor declares
//! (§10.2): the suite's packages found by a word only they hold; three packages ranked in the
//! one order any keyword ranking gives them (every word of the query, one word once, none);
//! and a search by meaning, with words no package holds, answering something where semantic
//! or hybrid search is declared. Each is skipped where the descriptor declares no search of
//! the kind it needs; relay's `search=` parameter is sent only to a server that declares
//! relay's `x-keyword_search`, the sign that it knows it.

use chrono::TimeDelta;
use serde_json::Value;

use super::client::Answer;
use super::read::{declared, seeded};
use super::setup::SEEDS;
use super::shape::{self, Capabilities};
use super::{Check, Kind, Suite, expect_packages, fail, fresh_word, skip};

/// The packages of `pull_relevant_order`: the two words of its query, and the packages that
/// hold both, one of them once, and neither, as stored.
#[derive(Debug, Clone)]
pub struct Ranking {
    pub words: [String; 2],
    pub packages: Vec<Value>,
}

/// The query of `pull_by_meaning`: what the suite's packages are about, in words none holds.
const MEANING: &str = "automated protocol compliance verification";

/// How many results the suite asks relevant pull for.
const LIMIT: usize = 5;

impl Suite {
    /// Deposits the packages of `pull_relevant_order`, older than the seeds (so latest pull
    /// and orient see the seeds first): the one holding both query words in its title and
    /// its description oldest, the one holding neither newest, so that a server listing its
    /// matches newest first puts them in the wrong order.
    pub(super) fn seed_ranking(&mut self) {
        let words = [fresh_word(), fresh_word()];
        let [w0, w1] = &words;
        let texts = [
            (
                format!("Conformance relevance, every word: {w0} {w1}"),
                format!("Both words of the query: {w0} and {w1}."),
            ),
            (
                "Conformance relevance, one of the words".to_string(),
                format!("Only one word of the query, once: {w0}."),
            ),
            (
                "Conformance relevance, none of the words".to_string(),
                "Nothing the query asks for.".to_string(),
            ),
        ];
        let mut packages = Vec::new();
        for (n, (title, description)) in texts.into_iter().enumerate() {
            let age = TimeDelta::seconds((SEEDS + 4 - n) as i64);
            let mut package = self.package(&title, "complete", age);
            package["description"] = Value::from(description);
            let a = self.deposit(&package);
            let stored = (a.body.as_ref())
                .filter(|_| a.success())
                .and_then(shape::package_of);
            match stored {
                Some(p) => packages.push(p.clone()),
                None => {
                    self.ranked = Err(a.answered());
                    return;
                }
            }
        }
        self.ranked = Ok(Ranking { words, packages });
    }

    /// A relevant pull of `query` (with relay's `search=` mode, when given), limited to
    /// [`LIMIT`]: the answer and the packages it ranks, recorded for `wire_format`.
    fn relevant(&mut self, query: &str, mode: Option<&str>) -> Check<(Answer, Vec<Value>)> {
        let path = self.project_path(&["packages"]);
        let limit = LIMIT.to_string();
        let mut params = vec![("mode", "relevant"), ("query", query), ("limit", &limit)];
        params.extend(mode.map(|m| ("search", m)));
        let a = self.client.get(&path, &params);
        let found = expect_packages(
            &a,
            "200 and ranked packages (§8.2; the descriptor declares search)",
        )?;
        if found.len() > LIMIT {
            return fail(format!(
                "{} answered {} results; limit={LIMIT} (§8.2)",
                a.request,
                found.len()
            ));
        }
        self.saw(Kind::Package, &a, &found.iter().collect::<Vec<_>>());
        Ok((a, found))
    }
}

/// Whether the descriptor declares a ranking by words: hybrid search, or relay's
/// `x-keyword_search`.
fn keyword(caps: &Capabilities) -> bool {
    caps.hybrid_search || caps.keyword_search == Some(true)
}

/// pull relevant (§8.2): when the descriptor declares search, ranked packages, and the
/// suite's seeds among them when keyword search is declared (their titles share a word
/// nothing else holds).
pub fn pull_relevant(s: &mut Suite) -> Check {
    let caps = declared(s)?;
    if !caps.any_search() {
        return skip(
            "the descriptor declares no search capability; `missing_capabilities` checks that \
             relevant pull answers 501",
        );
    }
    let seeds = seeded(s)?.to_vec();
    let word = s.word.clone();
    let (a, found) = s.relevant(&word, None)?;
    let hit = |seed: &Value| found.iter().any(|p| p["package_id"] == seed["package_id"]);
    if keyword(&caps) && !seeds.iter().any(hit) {
        return fail(format!(
            "{} found none of the {} packages whose titles hold `{word}`, with keyword search \
             declared (§8.2, §10.2)",
            a.request,
            seeds.len()
        ));
    }
    Ok(())
}

/// Relevance ordering (§8.2: packages ranked by the implementation's search): of three
/// packages, the one holding both words of the query in its title and description comes
/// first; the one holding one of them once, in its description, after it; the one holding
/// neither, if listed at all, after both. Where relay's `x-keyword_search` is declared the
/// pull asks for keyword search (`search=keyword`), the ranking by words; skipped where no
/// ranking by words is declared (no search, or semantic search alone).
pub fn pull_relevant_order(s: &mut Suite) -> Check {
    let caps = declared(s)?;
    if !keyword(&caps) {
        return skip(
            "the descriptor declares no keyword ranking (hybrid_search false, no \
             x-keyword_search: true): the order of words is not asked of semantic search alone",
        );
    }
    let ranking = match &s.ranked {
        Ok(r) => r.clone(),
        Err(why) => {
            return fail(format!(
                "not checked: depositing the packages to rank failed ({why})"
            ));
        }
    };
    let mode = (caps.keyword_search == Some(true)).then_some("keyword");
    let (a, found) = s.relevant(&ranking.words.join(" "), mode)?;
    match misranked(&found, &ranking.packages) {
        Some(problem) => fail(format!("{} {problem}", a.request)),
        None => Ok(()),
    }
}

/// What is wrong with the order of `found`, the results of a pull of the two words, given
/// `ranked`: the packages holding both words, one, and none.
fn misranked(found: &[Value], ranked: &[Value]) -> Option<String> {
    let place = |p: &Value| {
        found
            .iter()
            .position(|f| f["package_id"] == p["package_id"])
    };
    let ids: Vec<&str> = ranked
        .iter()
        .map(|p| shape::text(p, "package_id"))
        .collect();
    let [all, one, none] = [0, 1, 2].map(|n| place(&ranked[n]));
    let Some(all) = all else {
        return Some(format!(
            "did not find `{}`, which holds both words of the query in its title and \
             description (§8.2)",
            ids[0]
        ));
    };
    if one.is_some_and(|one| one < all) {
        return Some(format!(
            "ranked `{}` (one of the words, once, in its description) before `{}` (both \
             words, in its title and description) (§8.2: ranked by relevance)",
            ids[1], ids[0]
        ));
    }
    if none.is_some_and(|none| none < all || one.is_some_and(|one| none < one)) {
        return Some(format!(
            "ranked `{}`, which holds none of the words of the query, before one that holds \
             some (§8.2: ranked by relevance)",
            ids[2]
        ));
    }
    None
}

/// A declared capability works (§10.2): where the descriptor declares semantic or hybrid
/// search, a relevant pull by meaning (words none of the suite's packages holds) answers 200
/// with at least one package; a server claiming search by meaning that finds nothing fails.
/// Relay's `search=semantic` (or `hybrid`) is sent where relay's `x-keyword_search` is
/// declared.
pub fn pull_by_meaning(s: &mut Suite) -> Check {
    let caps = declared(s)?;
    if !caps.semantic_search && !caps.hybrid_search {
        return skip(
            "the descriptor declares semantic_search and hybrid_search false: no search by \
             meaning to check",
        );
    }
    seeded(s)?;
    let mode = caps
        .keyword_search
        .is_some()
        .then_some(match caps.semantic_search {
            true => "semantic",
            false => "hybrid",
        });
    let (a, found) = s.relevant(MEANING, mode)?;
    if found.is_empty() {
        return fail(format!(
            "{} found nothing for a query by meaning, though the project holds the suite's \
             packages and the descriptor declares {} (§10.2: a declared capability works)",
            a.request,
            match caps.semantic_search {
                true => "semantic_search",
                false => "hybrid_search",
            }
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_package_with_every_word_comes_first_and_the_one_with_none_last() {
        let p = |id: &str| json!({"package_id": id});
        let ranked = [p("all"), p("one"), p("none")];
        let order = |ids: &[&str]| ids.iter().map(|id| p(id)).collect::<Vec<_>>();
        for good in [
            &["all", "one", "none"][..],
            &["all", "one"],
            &["all"],
            &["x", "all", "y", "one"],
            &["all", "none"],
        ] {
            assert_eq!(misranked(&order(good), &ranked), None, "{good:?}");
        }
        let why = misranked(&order(&["one", "all"]), &ranked).unwrap();
        assert!(why.starts_with("ranked `one` (one of the words"), "{why}");
        let why = misranked(&order(&["all", "none", "one"]), &ranked).unwrap();
        assert!(why.starts_with("ranked `none`"), "{why}");
        let why = misranked(&order(&["none", "all"]), &ranked).unwrap();
        assert!(why.starts_with("ranked `none`"), "{why}");
        let why = misranked(&order(&["one"]), &ranked).unwrap();
        assert!(why.starts_with("did not find `all`"), "{why}");
    }
}
