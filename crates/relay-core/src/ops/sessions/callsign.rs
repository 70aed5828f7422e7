//! Callsigns (§5.5): memorable adjective-noun names such as `coral-heron` for sessions, never
//! shared by two open sessions of one project.

use crate::ops::sessions::callsign_words::{ADJECTIVES, NOUNS};
use relay_wire::ids::random_below;

/// A random callsign not in `taken`. With over 50,000 combinations a free one is found at
/// once; should a project ever hold nearly all of them open, a numeric suffix keeps it unique.
pub fn generate(taken: &[&str]) -> String {
    for attempt in 0.. {
        let mut name = format!(
            "{}-{}",
            ADJECTIVES[random_below(ADJECTIVES.len())],
            NOUNS[random_below(NOUNS.len())]
        );
        if attempt >= 64 {
            name.push_str(&format!("-{}", attempt - 63));
        }
        if !taken.contains(&name.as_str()) {
            return name;
        }
    }
    unreachable!("the loop returns once a name is free")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn word_lists_are_large_unique_and_plain() {
        for list in [ADJECTIVES, NOUNS] {
            assert!(list.len() >= 200, "{}", list.len());
            let set: HashSet<_> = list.iter().collect();
            assert_eq!(set.len(), list.len());
            assert!(
                list.iter()
                    .all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase()))
            );
        }
    }

    #[test]
    fn callsigns_avoid_taken_names() {
        let a = generate(&[]);
        let (adj, noun) = a.split_once('-').unwrap();
        assert!(ADJECTIVES.contains(&adj) && NOUNS.contains(&noun));
        let taken: Vec<String> = ADJECTIVES
            .iter()
            .flat_map(|a| NOUNS.iter().map(move |n| format!("{a}-{n}")))
            .collect();
        let refs: Vec<&str> = taken.iter().map(String::as_str).collect();
        let b = generate(&refs);
        assert!(!refs.contains(&b.as_str()));
    }
}
