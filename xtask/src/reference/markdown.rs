//! The little Markdown the reference pages need: prose escaped so that text written for a
//! terminal (`<REDACTED:rule>`, `[sign] key`, `*.ndjson`) renders as written, code spans,
//! and table rows.

/// `text` as Markdown prose: backtick code spans are kept as they are, and outside them every
/// character Markdown would read as markup is escaped (`_` only where it could start or end
/// emphasis, so `default_project` stays readable).
pub fn text(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let chars: Vec<char> = text.chars().collect();
    let mut in_code = false;
    for (i, &c) in chars.iter().enumerate() {
        if c == '`' {
            // A backtick opens a span only if another one closes it.
            if in_code || chars[i + 1..].contains(&'`') {
                in_code = !in_code;
                out.push(c);
            } else {
                out.push_str("\\`");
            }
            continue;
        }
        if in_code {
            out.push(c);
            continue;
        }
        let word = |j: Option<usize>| {
            j.and_then(|j| chars.get(j))
                .is_some_and(|c| c.is_alphanumeric())
        };
        let escape = match c {
            '\\' | '<' | '>' | '*' | '[' | ']' | '|' | '#' | '~' | '&' => true,
            '_' => !(word(i.checked_sub(1)) && word(Some(i + 1))),
            _ => false,
        };
        if escape {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `s` as an inline code span, whatever backticks it holds.
pub fn code(s: &str) -> String {
    if !s.contains('`') {
        return format!("`{s}`");
    }
    let fence = "`".repeat(longest_run(s, '`') + 1);
    format!("{fence} {s} {fence}")
}

fn longest_run(s: &str, c: char) -> usize {
    let (mut best, mut run) = (0, 0);
    for x in s.chars() {
        run = if x == c { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// A fenced block of `body` (which must end in a newline, or be empty) in `lang`.
pub fn block(lang: &str, body: &str) -> String {
    let fence = "`".repeat(longest_run(body, '`').max(2) + 1);
    let nl = if body.ends_with('\n') || body.is_empty() {
        ""
    } else {
        "\n"
    };
    format!("{fence}{lang}\n{body}{nl}{fence}\n")
}

/// A table: its header row, the rule, and one row per entry. Cells are Markdown already;
/// a `|` in one is escaped (code spans included, as GitHub's tables want) and line breaks
/// become spaces.
pub fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let row = |cells: &[String]| {
        let cells: Vec<String> = cells
            .iter()
            .map(|c| {
                let c = c.replace('\n', " ");
                // Only the pipes not escaped already.
                let mut out = String::with_capacity(c.len());
                let mut prev = ' ';
                for ch in c.chars() {
                    if ch == '|' && prev != '\\' {
                        out.push('\\');
                    }
                    out.push(ch);
                    prev = ch;
                }
                out
            })
            .collect();
        format!("| {} |\n", cells.join(" | "))
    };
    let head: Vec<String> = header.iter().map(|h| h.to_string()).collect();
    let mut out = row(&head);
    out.push_str(&format!("|{}\n", "---|".repeat(header.len())));
    for r in rows {
        out.push_str(&row(r));
    }
    out
}

/// The anchor GitHub and mdBook give a heading: lowercase, spaces as `-`, punctuation but
/// `-` and `_` dropped.
pub fn anchor(heading: &str) -> String {
    heading
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c.to_ascii_lowercase()),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_is_escaped_outside_code_spans() {
        assert_eq!(
            text("store <REDACTED:rule> in `[sign] key`, see [sign] *.ndjson"),
            "store \\<REDACTED:rule\\> in `[sign] key`, see \\[sign\\] \\*.ndjson"
        );
        assert_eq!(text("default_project _x_"), "default_project \\_x\\_");
        assert_eq!(text("a lone ` tick"), "a lone \\` tick");
        assert_eq!(text("# not a heading"), "\\# not a heading");
    }

    #[test]
    fn code_spans_hold_backticks() {
        assert_eq!(code("x"), "`x`");
        assert_eq!(code("a`b"), "`` a`b ``");
    }

    #[test]
    fn tables_escape_pipes_once() {
        let t = table(&["A", "B"], &[vec!["`a|b`".into(), "c\\|d\ne".into()]]);
        assert_eq!(t, "| A | B |\n|---|---|\n| `a\\|b` | c\\|d e |\n");
    }

    #[test]
    fn anchors_are_github_s() {
        assert_eq!(anchor("relay facts assert"), "relay-facts-assert");
        assert_eq!(anchor("`[share.NAME]` profiles"), "sharename-profiles");
    }
}
