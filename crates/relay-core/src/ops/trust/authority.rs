//! Who may take a record back: a retraction hides a package or a fact from every read, so
//! verify (and a read of a retracted package) holds it to who may act on the record: whoever
//! wrote it (a package's `created_by`, a fact's `asserted_by`), whoever reviewed it (a review
//! transition's `by`), and the actors the store's `[review] reviewers` names (ids or patterns,
//! as `allowed_signers` principals). Anyone else's retraction is reported.

use relay_store::packages::StoredPackage;
use relay_wire::allowed_signers::matches_list;

/// The actors a package's versions name: its author, then each reviewer.
pub fn authors_of(versions: &[StoredPackage]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for v in versions {
        let by = match &v.transition {
            Some(t) => (t.pointer("/by/id").and_then(|x| x.as_str())).map(str::to_string),
            None => Some(v.package.created_by().id.to_string()),
        };
        if let Some(by) = by.filter(|b| !out.contains(b)) {
            out.push(by);
        }
    }
    out
}

/// Whether `actor` may retract a record `authors` wrote or reviewed.
pub fn may_retract(actor: &str, authors: &[String], reviewers: &[String]) -> bool {
    authors.iter().any(|a| a == actor) || matches_list(reviewers, actor)
}

/// Why `actor`'s retraction of `record` `id` does not hold, and what to do.
pub fn why_not(actor: &str, record: &str, id: &str) -> String {
    format!(
        "{actor} retracted {record} {id} without writing or reviewing it, and [review] \
         reviewers in config.toml does not name {actor}; if {actor} may retract others' \
         records, add them there, else the retraction is not genuine (`relay pull {id} \
         --include-retracted` shows the record)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn authors_reviewers_and_listed_actors_may_retract() {
        let authors = vec!["jo".to_string(), "ann".to_string()];
        let reviewers = vec!["lead".to_string(), "*@leads.example".to_string()];
        assert!(may_retract("jo", &authors, &[]));
        assert!(may_retract("ann", &authors, &[]));
        assert!(!may_retract("eve", &authors, &[]));
        assert!(may_retract("lead", &authors, &reviewers));
        assert!(may_retract("kim@leads.example", &authors, &reviewers));
        assert!(!may_retract("eve", &authors, &reviewers));
        assert!(why_not("eve", "package", "pkg_1").contains("[review] reviewers"));
    }
}
