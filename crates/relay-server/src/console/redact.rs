//! The console's second line of defence against showing a credential: the store refuses or
//! redacts secrets as they are written, but a record from before a rule existed, or imported
//! with `--allow-secrets`, may still hold one. Every page is scanned as it leaves the server:
//! each text run and attribute value is unescaped, scanned with the same rules as `relay
//! scan`, and a credential is replaced by `<REDACTED:rule>`, escaped again.
//!
//! The pages are maud's output, so every `<`, `>` and `"` inside text or a value is escaped:
//! a run ends exactly where the markup starts.

use std::borrow::Cow;

use relay_wire::secrets;

fn unescape(run: &str) -> Cow<'_, str> {
    if !run.contains('&') {
        return Cow::Borrowed(run);
    }
    let mut out = String::with_capacity(run.len());
    let mut rest = run;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let entity = [
            ("&amp;", '&'),
            ("&lt;", '<'),
            ("&gt;", '>'),
            ("&quot;", '"'),
            ("&#39;", '\''),
            ("&#x27;", '\''),
        ]
        .into_iter()
        .find(|(e, _)| rest.starts_with(e));
        match entity {
            Some((e, c)) => {
                out.push(c);
                rest = &rest[e.len()..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

fn escape(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

/// Appends `run` to `out`, with any credential in it redacted; counts the redactions.
fn push_run(run: &str, out: &mut String, redacted: &mut usize) {
    let text = unescape(run);
    let found = secrets::find(&text);
    if found.is_empty() {
        out.push_str(run);
    } else {
        *redacted += found.len();
        escape(&secrets::redact(&text, &found), out);
    }
}

/// `html` with every credential in its text and attribute values redacted, and how many
/// were.
pub fn redact_html(html: &str) -> (Cow<'_, str>, usize) {
    let mut out = String::with_capacity(html.len());
    let mut redacted = 0;
    let mut rest = html;
    while !rest.is_empty() {
        // Text up to the next tag.
        let end = rest.find('<').unwrap_or(rest.len());
        push_run(&rest[..end], &mut out, &mut redacted);
        rest = &rest[end..];
        // A tag: names and attributes as they are, each quoted value scanned.
        let close = rest.find('>').map_or(rest.len(), |i| i + 1);
        let mut tag = &rest[..close];
        rest = &rest[close..];
        while let Some(open) = tag.find('"') {
            out.push_str(&tag[..=open]);
            tag = &tag[open + 1..];
            let shut = tag.find('"').unwrap_or(tag.len());
            push_run(&tag[..shut], &mut out, &mut redacted);
            tag = &tag[shut..];
            if let Some(q) = tag.strip_prefix('"') {
                out.push('"');
                tag = q;
            }
        }
        out.push_str(tag);
    }
    if redacted == 0 {
        (Cow::Borrowed(html), 0)
    } else {
        (Cow::Owned(out), redacted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "AKIAIOSFODNN7EXAMPLE";

    #[test]
    fn a_page_without_credentials_is_left_as_it_is() {
        let html = r#"<p class="x" title="a &amp; b">Tom &amp; Jerry &lt;3</p><input value="">"#;
        let (out, n) = redact_html(html);
        assert_eq!(n, 0);
        assert!(matches!(out, Cow::Borrowed(_)));
    }

    #[test]
    fn credentials_in_text_and_attributes_are_redacted_and_escaped() {
        let html = format!(
            r#"<p data-k="{KEY}">key {KEY} &amp; &quot;ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789&quot;</p>"#
        );
        let (out, n) = redact_html(&html);
        assert_eq!(n, 3, "{out}");
        assert_eq!(
            out,
            "<p data-k=\"&lt;REDACTED:aws-access-key-id&gt;\">key &lt;REDACTED:aws-access-key-id&gt; \
             &amp; &quot;&lt;REDACTED:github-token&gt;&quot;</p>"
        );
        assert!(!out.contains(KEY));
    }

    #[test]
    fn markup_names_are_not_mistaken_for_credentials() {
        let html =
            r#"<input type="password" name="token" autocomplete="off"><label>Token </label>"#;
        assert_eq!(redact_html(html).1, 0);
    }
}
