//! A package's text cut into passages that fit the encoder: the first is the title with the
//! decisions, open questions, handoff note and tags; then the description and `content_md`,
//! whole lines packed together up to the passage size, each passage read with the title. A
//! package is then as near a query as its best passage, so a long record's one relevant
//! paragraph is not averaged away by the rest, and nothing past the encoder's window is lost.

use relay_store::index::Document;

/// Most passages of one package: the first few thousand tokens of a very long record say what
/// it is about; past them, the keyword index still holds every word.
pub const MAX_PASSAGES: usize = 48;

/// The passages of `doc`, each at most about `budget` tokens as `tokens` counts them (the
/// title's tokens aside). A line longer than the budget is cut between words. A record of
/// at most `whole` tokens is one passage: read together, its parts give each other context.
pub fn split(
    doc: &Document,
    budget: usize,
    whole: usize,
    tokens: &dyn Fn(&str) -> usize,
) -> Vec<String> {
    let title = doc.title.trim();
    let all = [title, doc.head.trim(), doc.body.trim()]
        .into_iter()
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("\n");
    if all.is_empty() {
        return Vec::new();
    }
    if tokens(&all) <= whole {
        return vec![all];
    }
    let with_title = |text: &str| match (title.is_empty(), text.trim()) {
        (true, text) => text.to_string(),
        (false, "") => title.to_string(),
        (false, text) => format!("{title}\n{text}"),
    };
    let mut out = Vec::new();
    let head = doc.head.trim();
    if !title.is_empty() || !head.is_empty() {
        out.push(with_title(head));
    }
    let mut current = String::new();
    let mut used = 0;
    for piece in pieces(&doc.body, budget, tokens) {
        if out.len() == MAX_PASSAGES {
            return out;
        }
        if used > 0 && used + piece.1 > budget {
            out.push(with_title(&current));
            current.clear();
            used = 0;
        }
        if !current.is_empty() {
            current.push('\n');
        }
        current.push_str(piece.0);
        used += piece.1;
    }
    if !current.trim().is_empty() && out.len() < MAX_PASSAGES {
        out.push(with_title(&current));
    }
    out
}

/// The body's lines with their token counts; a line over `budget` comes in cuts of about
/// `budget` tokens, between words.
fn pieces<'a>(
    body: &'a str,
    budget: usize,
    tokens: &'a dyn Fn(&str) -> usize,
) -> impl Iterator<Item = (&'a str, usize)> + 'a {
    body.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .flat_map(move |line| {
            let n = tokens(line);
            if n <= budget {
                return vec![(line, n)];
            }
            // Cut by words, in proportion: n tokens over the line's words.
            let words: Vec<(usize, &str)> = line
                .split_whitespace()
                .map(|w| (w.as_ptr() as usize - line.as_ptr() as usize, w))
                .collect();
            let per_cut = (words.len() * budget / n.max(1)).max(1);
            words
                .chunks(per_cut)
                .map(|chunk| {
                    let (start, _) = chunk[0];
                    let (last, word) = chunk[chunk.len() - 1];
                    let text = &line[start..last + word.len()];
                    (text, tokens(text))
                })
                .collect()
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> usize {
        text.split_whitespace().count()
    }

    fn doc(title: &str, head: &str, body: &str) -> Document {
        Document {
            title: title.into(),
            head: head.into(),
            body: body.into(),
        }
    }

    #[test]
    fn lines_are_packed_up_to_the_budget_each_with_the_title() {
        let d = doc(
            "Billing",
            "decided: use UTC\n",
            "one two three\nfour five\nsix seven eight nine\n\nten",
        );
        let p = split(&d, 5, 5, &words);
        assert_eq!(
            p,
            [
                "Billing\ndecided: use UTC",
                "Billing\none two three\nfour five",
                "Billing\nsix seven eight nine\nten",
            ]
        );
    }

    #[test]
    fn a_long_line_is_cut_between_words_and_nothing_is_lost() {
        let line: Vec<String> = (0..23).map(|i| format!("w{i}")).collect();
        let d = doc("", "", &line.join(" "));
        let p = split(&d, 10, 0, &words);
        assert_eq!(p.len(), 3);
        assert!(p.iter().all(|x| words(x) <= 10), "{p:?}");
        assert_eq!(p.join(" "), line.join(" "));
    }

    #[test]
    fn a_record_has_at_most_so_many_passages_and_an_empty_one_none() {
        let body = "word\n".repeat(1000);
        assert_eq!(
            split(&doc("t", "", &body), 1, 1, &words).len(),
            MAX_PASSAGES
        );
        assert!(split(&doc("", "", " \n "), 10, 10, &words).is_empty());
        assert_eq!(
            split(&doc("Only a title", "", ""), 10, 0, &words),
            ["Only a title"]
        );
    }

    #[test]
    fn a_short_record_is_one_passage() {
        let d = doc("Billing", "decided: use UTC\n", "the invoice job\nfailed");
        assert_eq!(
            split(&d, 2, 10, &words),
            ["Billing\ndecided: use UTC\nthe invoice job\nfailed"]
        );
    }
}
