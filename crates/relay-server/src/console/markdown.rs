//! Markdown to HTML for the console, with pulldown-cmark (CommonMark), made safe for text that
//! anyone may have stored: raw HTML is shown as text (escaped), a link whose address is not
//! http(s) or relative (`javascript:`, `data:` …) keeps its text but loses its link, and an
//! image shows its alt text only (the console's policy would block one from elsewhere).
//! Its output is the only HTML the console writes unescaped.

use pulldown_cmark::{Event, Parser, Tag, TagEnd, html};

/// `md` as HTML, with raw HTML, unsafe links and images neutralised.
pub fn to_html(md: &str) -> String {
    let mut dropped_link = false;
    let events = Parser::new(md).filter_map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Some(Event::Text(raw)),
        Event::Start(Tag::HtmlBlock) => Some(Event::Start(Tag::Paragraph)),
        Event::End(TagEnd::HtmlBlock) => Some(Event::End(TagEnd::Paragraph)),
        Event::Start(Tag::Link { ref dest_url, .. }) if !safe_url(dest_url) => {
            dropped_link = true;
            None
        }
        // Links do not nest: the first end after a dropped start is its own.
        Event::End(TagEnd::Link) if dropped_link => {
            dropped_link = false;
            None
        }
        Event::Start(Tag::Image { .. }) | Event::End(TagEnd::Image) => None,
        other => Some(other),
    });
    let mut out = String::with_capacity(md.len() * 3 / 2);
    html::push_html(&mut out, events);
    out
}

/// Whether a link may be followed: relative, or http(s). The address is read as a browser
/// reads it: without the tabs and newlines it ignores, nor the spaces and control
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
            scheme == "http" || scheme == "https"
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
            "<p><a href=\"https://example.org/x?y=1&amp;z\">a</a> <a href=\"/packages/pkg_1\">b</a></p>\n"
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
            html.contains("<a href=\"http://example.org\">ok</a>"),
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
        assert!(!safe_url("mailto:a@example.org"));
    }
}
