//! Markdown to HTML for the console, with pulldown-cmark (CommonMark), made safe for text that
//! anyone may have stored. Any credential in the text is redacted first (as `relay scan`
//! finds it), before Markdown's escaping and markup reshape it for the page's scanner
//! ([`super::redact`]). Raw HTML is shown as text (escaped); a link keeps its
//! address only when it is http(s), mailto or relative (`javascript:`, `data:` … keep their
//! text and lose the link), and opens with `rel="noopener noreferrer"`; an image shows its alt
//! text only (the console's policy would block one from elsewhere). Package ids (`pkg_…`, in
//! text or code) become links to their pages. Its output is the only HTML the console writes
//! unescaped.

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd, html};
use relay_wire::secrets;

use super::urlencode;

/// `md` with any credential in it redacted, as `relay scan` finds it.
fn redacted(md: &str) -> std::borrow::Cow<'_, str> {
    let found = secrets::find(md);
    if found.is_empty() {
        std::borrow::Cow::Borrowed(md)
    } else {
        std::borrow::Cow::Owned(secrets::redact(md, &found))
    }
}

/// GitHub's tables, strikethrough and task lists, as agents write them.
fn extensions() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS
}

/// `md` as one line of plain text, its markup dropped (a preview, a search snippet): the
/// words of its text and code, with a space where a block or a line ends. Credentials are
/// redacted as in [`to_html`]; the result is text for the page to escape.
pub fn to_text(md: &str) -> String {
    let md = redacted(md);
    let mut out = String::with_capacity(md.len());
    let space = |out: &mut String| {
        if !out.is_empty() && !out.ends_with(' ') {
            out.push(' ');
        }
    };
    for event in Parser::new_ext(&md, extensions()) {
        match event {
            Event::Text(t) | Event::Code(t) | Event::Html(t) | Event::InlineHtml(t) => {
                out.push_str(&t.replace(['\n', '\t'], " "))
            }
            // A space where a line or a block ends (an inline end, as of `**bold**`, adds none).
            Event::SoftBreak
            | Event::HardBreak
            | Event::End(
                TagEnd::Paragraph
                | TagEnd::Heading(_)
                | TagEnd::Item
                | TagEnd::TableCell
                | TagEnd::TableRow
                | TagEnd::CodeBlock
                | TagEnd::BlockQuote(_),
            ) => space(&mut out),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `md` as HTML, with credentials redacted, raw HTML, unsafe links and images neutralised,
/// and package ids linked.
pub fn to_html(md: &str) -> String {
    let md = redacted(md);
    // Links open here (a dropped one counts too): no id is linked inside one.
    let mut links: Vec<bool> = Vec::new();
    let mut in_code_block = false;
    let mut events: Vec<Event> = Vec::new();
    for event in Parser::new_ext(&md, extensions()) {
        match event {
            Event::Html(raw) | Event::InlineHtml(raw) => events.push(Event::Text(raw)),
            Event::Start(Tag::HtmlBlock) => events.push(Event::Start(Tag::Paragraph)),
            Event::End(TagEnd::HtmlBlock) => events.push(Event::End(TagEnd::Paragraph)),
            Event::Start(Tag::Link {
                dest_url, title, ..
            }) => {
                let kept = safe_url(&dest_url);
                if kept {
                    let title = if title.is_empty() {
                        String::new()
                    } else {
                        format!(" title=\"{}\"", attribute(&title))
                    };
                    events.push(Event::InlineHtml(CowStr::from(format!(
                        "<a href=\"{}\"{title} rel=\"noopener noreferrer\">",
                        attribute(&dest_url)
                    ))));
                }
                links.push(kept);
            }
            // Links do not nest: an end is the last start's.
            Event::End(TagEnd::Link) => {
                if links.pop() == Some(true) {
                    events.push(Event::InlineHtml(CowStr::Borrowed("</a>")));
                }
            }
            Event::Start(Tag::Image { .. }) | Event::End(TagEnd::Image) => {}
            Event::Start(Tag::CodeBlock(kind)) => {
                in_code_block = true;
                events.push(Event::Start(Tag::CodeBlock(kind)));
            }
            Event::End(TagEnd::CodeBlock) => {
                in_code_block = false;
                events.push(Event::End(TagEnd::CodeBlock));
            }
            Event::Code(code) if links.is_empty() && is_package_id(&code) => {
                events.push(Event::InlineHtml(CowStr::from(format!(
                    "<a class=\"id\" href=\"/packages/{}\"><code>{code}</code></a>",
                    urlencode(&code)
                ))));
            }
            Event::Text(text) if links.is_empty() && !in_code_block => link_ids(text, &mut events),
            other => events.push(other),
        }
    }
    let mut out = String::with_capacity(md.len() * 3 / 2);
    html::push_html(&mut out, events.into_iter());
    out
}

/// Whether `word` is a package id as relay writes them: `pkg_` and hex digits.
pub fn is_package_id(word: &str) -> bool {
    word.strip_prefix("pkg_")
        .is_some_and(|hex| hex.len() >= 6 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// `text` in runs, each a package id (`true`) or not: an id starts a word and ends it.
pub fn split_ids(text: &str) -> Vec<(&str, bool)> {
    let mut parts = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("pkg_") {
        let len = rest[at..]
            .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .unwrap_or(rest.len() - at);
        let starts_word = !rest[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        let word = &rest[at..at + len];
        if starts_word && is_package_id(word) {
            parts.push((&rest[..at], false));
            parts.push((word, true));
        } else {
            parts.push((&rest[..at + len], false));
        }
        rest = &rest[at + len..];
    }
    parts.push((rest, false));
    parts.retain(|(part, _)| !part.is_empty());
    parts
}

/// `text` as events, each package id in it a link to its page.
fn link_ids<'a>(text: CowStr<'a>, events: &mut Vec<Event<'a>>) {
    if !text.contains("pkg_") {
        events.push(Event::Text(text));
        return;
    }
    for (part, is_id) in split_ids(&text) {
        events.push(if is_id {
            Event::InlineHtml(CowStr::from(format!(
                "<a class=\"id\" href=\"/packages/{}\">{part}</a>",
                urlencode(part)
            )))
        } else {
            Event::Text(CowStr::from(part.to_string()))
        });
    }
}

/// `value` escaped for a double-quoted attribute.
fn attribute(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Whether a link may be followed: relative, http(s) or mailto. The address is read as a
/// browser reads it: without the tabs and newlines it ignores, nor the spaces and control
/// characters it trims.
fn safe_url(url: &str) -> bool {
    let url: String = url
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let url = url.trim_matches(|c: char| c <= ' ');
    match url.find([':', '/', '?', '#']) {
        Some(at) if url[at..].starts_with(':') => {
            let scheme = url[..at].to_ascii_lowercase();
            scheme == "http" || scheme == "https" || scheme == "mailto"
        }
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_renders() {
        assert_eq!(
            to_html("# Title\n\n- **bold** `code`\n"),
            "<h1>Title</h1>\n<ul>\n<li><strong>bold</strong> <code>code</code></li>\n</ul>\n"
        );
        assert_eq!(
            to_html("[a](https://example.org/x?y=1&z) [b](/packages/pkg_1)"),
            "<p><a href=\"https://example.org/x?y=1&amp;z\" rel=\"noopener noreferrer\">a</a> \
             <a href=\"/packages/pkg_1\" rel=\"noopener noreferrer\">b</a></p>\n"
        );
    }

    #[test]
    fn raw_html_is_text() {
        let html = to_html("- **<script>alert(1)</script>** (decision)\n");
        assert!(
            html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{html}"
        );
        assert!(!html.contains("<script"), "{html}");
        let html = to_html("<script>alert(1)</script>\n\nafter");
        assert!(
            html.starts_with("<p>&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{html}"
        );
        assert!(html.contains("<p>after</p>"), "{html}");
        // In text a quote needs no escaping; the tag is text.
        let html = to_html("> \"><img src=x onerror=alert(2)>");
        assert!(html.starts_with("<blockquote>"), "{html}");
        assert!(
            html.contains("\"&gt;&lt;img src=x onerror=alert(2)&gt;"),
            "{html}"
        );
        assert!(!html.contains("<img"), "{html}");
    }

    #[test]
    fn unsafe_links_keep_their_text_only() {
        for md in [
            "[click](javascript:alert(1))",
            "[click](JavaScript:alert(1))",
            "[click](<java\tscript:alert(1)>)",
            "[click](&#106;avascript:alert(1))",
            "[click](data:text/html,<script>alert(1)</script>)",
            "[click](vbscript:x)",
        ] {
            let html = to_html(md);
            assert_eq!(html, "<p>click</p>\n", "{md}");
        }
        let html = to_html("<javascript:alert(1)> and [ok](http://example.org)");
        assert!(!html.contains("href=\"javascript"), "{html}");
        assert!(
            html.contains("<a href=\"http://example.org\" rel=\"noopener noreferrer\">ok</a>"),
            "{html}"
        );
    }

    #[test]
    fn images_show_their_alt_text() {
        assert_eq!(
            to_html("![a cat](https://example.org/cat.png)"),
            "<p>a cat</p>\n"
        );
        assert_eq!(to_html("![x](javascript:alert(1))"), "<p>x</p>\n");
    }

    #[test]
    fn addresses_are_read_as_a_browser_reads_them() {
        assert!(safe_url("https://example.org"));
        assert!(safe_url("/facts?project=a:b"));
        assert!(safe_url("#top"));
        assert!(safe_url("relative/path:colon"));
        assert!(!safe_url(" \u{1}javascript:x"));
        assert!(!safe_url("jav\nascript:x"));
        assert!(safe_url("mailto:a@example.org"));
        assert!(!safe_url("file:///etc/passwd"));
    }

    #[test]
    fn hostile_markdown_renders_no_element_of_its_own() {
        let html = to_html(
            "**ok** <script>alert(1)</script>\n\n<img src=x onerror=alert(2)>\n\n\
             [x](javascript:alert(1)) [t](https://example.org \"a\\\"b\")",
        );
        assert!(html.contains("<strong>ok</strong>"), "{html}");
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(!html.contains("javascript"), "{html}");
        assert!(
            html.contains("&lt;img src=x onerror=alert(2)&gt;"),
            "{html}"
        );
        assert!(
            html.contains(
                "<a href=\"https://example.org\" title=\"a&quot;b\" rel=\"noopener noreferrer\">t</a>"
            ),
            "{html}"
        );
    }

    #[test]
    fn package_ids_link_to_their_pages_outside_links_and_code_blocks() {
        assert_eq!(
            to_html("see pkg_0123abcd and `pkg_89ef0123`, not xpkg_0123abcd nor pkg_12"),
            "<p>see <a class=\"id\" href=\"/packages/pkg_0123abcd\">pkg_0123abcd</a> and \
             <a class=\"id\" href=\"/packages/pkg_89ef0123\"><code>pkg_89ef0123</code></a>, \
             not xpkg_0123abcd nor pkg_12</p>\n"
        );
        let html = to_html("[pkg_0123abcd](https://example.org)\n\n```\npkg_0123abcd\n```\n");
        assert_eq!(html.matches("<a ").count(), 1, "{html}");
    }

    #[test]
    fn credentials_are_redacted_before_rendering() {
        let html =
            to_html("[x](https://example.org/?k=AKIAIOSFODNN7EXAMPLE) `AKIAIOSFODNN7EXAMPLE`");
        assert!(!html.contains("IOSFODNN7EXAMPLE"), "{html}");
        let html = to_html("key AKIAIOSFODNN7EXAMPLE");
        assert!(html.contains("REDACTED:aws-access-key-id"), "{html}");
    }
}
