//! A subject's current facts found in the index's copy of the current lines, which is
//! sorted by subject: `facts list --subject` (and the server's facts route) then parses the
//! subject's few lines rather than every current fact.

use super::KeyOnly;

/// The lines of `lines` (newline-ended, sorted by subject) whose subject is `subject`, found
/// by bisection on byte offsets, each probe reading one line's key; `None` when a probed
/// line has no readable key.
pub(super) fn subject_lines<'a>(lines: &'a [u8], subject: &str) -> Option<&'a [u8]> {
    let key = |start: usize| -> Option<(std::borrow::Cow<'a, str>, usize)> {
        let len = lines[start..].iter().position(|&b| b == b'\n')?;
        let k = serde_json::from_slice::<KeyOnly>(&lines[start..start + len]).ok()?;
        Some((k.subject, start + len + 1))
    };
    // The first line at or after `lo` whose subject is not before `subject` (by `before`).
    let first = |before: &dyn Fn(&str) -> bool| -> Option<usize> {
        let (mut lo, mut hi) = (0, lines.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let start = lines[lo..mid]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(lo, |i| lo + i + 1);
            let (s, end) = key(start)?;
            if before(&s) {
                lo = end;
            } else {
                hi = start;
            }
        }
        Some(lo)
    };
    let from = first(&|s| s < subject)?;
    let to = first(&|s| s <= subject)?;
    Some(&lines[from..to])
}

#[cfg(test)]
mod tests {
    use super::subject_lines;

    fn block(subjects: &[&str]) -> Vec<u8> {
        let mut out = Vec::new();
        for (i, s) in subjects.iter().enumerate() {
            let line =
                serde_json::json!({"subject": s, "predicate": format!("p{i}"), "value": "v"});
            out.extend(serde_json::to_vec(&line).unwrap());
            out.push(b'\n');
        }
        out
    }

    fn found(lines: &[u8], subject: &str) -> Vec<String> {
        let block = subject_lines(lines, subject).expect("every key readable");
        (block.split(|&b| b == b'\n').filter(|l| !l.is_empty()))
            .map(|l| serde_json::from_slice::<serde_json::Value>(l).unwrap())
            .map(|v| {
                format!(
                    "{}/{}",
                    v["subject"].as_str().unwrap(),
                    v["predicate"].as_str().unwrap()
                )
            })
            .collect()
    }

    #[test]
    fn a_subject_gives_exactly_its_lines_wherever_they_lie() {
        let mut subjects = vec![
            "alpha",
            "beta",
            "beta",
            "beta",
            "delta",
            "gamma",
            "gamma",
            "z\u{e9}ta",
        ];
        subjects.sort();
        let lines = block(&subjects);
        assert_eq!(found(&lines, "alpha"), ["alpha/p0"]);
        assert_eq!(found(&lines, "beta"), ["beta/p1", "beta/p2", "beta/p3"]);
        assert_eq!(found(&lines, "gamma"), ["gamma/p5", "gamma/p6"]);
        assert_eq!(found(&lines, "z\u{e9}ta"), ["z\u{e9}ta/p7"]);
        for absent in ["", "a", "betb", "epsilon", "zzz", "bet"] {
            assert!(found(&lines, absent).is_empty(), "{absent}");
        }
        assert!(found(&[], "alpha").is_empty());
    }

    #[test]
    fn every_subject_of_a_long_block_agrees_with_a_filter() {
        let mut subjects: Vec<String> = (0..500).map(|i| format!("s{}", (i * 7919) % 97)).collect();
        subjects.sort();
        let refs: Vec<&str> = subjects.iter().map(String::as_str).collect();
        let lines = block(&refs);
        for n in 0..100 {
            let s = format!("s{n}");
            let want = refs.iter().filter(|x| **x == s).count();
            assert_eq!(found(&lines, &s).len(), want, "{s}");
        }
    }

    #[test]
    fn a_line_without_a_readable_key_gives_none() {
        let mut lines = block(&["a", "b", "c"]);
        lines.extend(b"not json\n");
        lines.extend(block(&["d", "e"]));
        assert!(
            ["a", "b", "c", "d", "e"]
                .iter()
                .any(|s| subject_lines(&lines, s).is_none())
        );
    }
}
