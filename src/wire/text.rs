//! Stored text is data from anyone: before it is shown on a terminal or in a one-line view
//! (`relay`'s output, the Markdown briefings), its control characters are neutralised so that
//! a title cannot retitle, clear or recolor a terminal, nor break a line in two.

use std::borrow::Cow;

/// Replaces terminal control characters (C0 except newline and tab, DEL, C1) with `�`, so a
/// stored title cannot retitle, clear or recolor a terminal.
pub fn clean(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '\n' | '\t' => c,
            c if c.is_control() => '\u{fffd}',
            c => c,
        })
        .collect()
}

/// One line of stored text, with newlines folded to spaces. Text that needs neither (nearly
/// all of it) is borrowed as it is.
pub fn clean_line(s: &str) -> Cow<'_, str> {
    if !s.chars().any(char::is_control) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(clean(s).replace(['\n', '\t'], " "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_sequences_are_neutralised() {
        assert_eq!(
            clean("a\u{1b}]0;pwned\u{7}b\u{9b}c\u{7f}"),
            "a\u{fffd}]0;pwned\u{fffd}b\u{fffd}c\u{fffd}"
        );
        assert_eq!(clean("line\n\tnext"), "line\n\tnext");
        assert_eq!(clean_line("a\nb"), "a b");
    }
}
