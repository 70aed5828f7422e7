//! How the console words and marks what it shows, the same on every page: a status as a pill
//! (only when it is not `complete`, the state most packages are in), times relative to now
//! with the exact time on hover, members under human labels, and one-line previews of
//! Markdown text.

use maud::{Markup, html};
use relay_wire::text::count;
use relay_wire::time::{self, Timestamp};

use super::filters::badge;
use super::markdown;

/// The status pill, or nothing for `complete`.
pub fn pill(status: &str) -> Markup {
    html! { @if status != "complete" && !status.is_empty() { (badge(status)) } }
}

/// `when` (an RFC 3339 time as stored) as "3 hours ago", its exact time on hover; text that
/// does not parse is shown as it is.
pub fn ago(when: &str) -> Markup {
    let words = time::parse(when)
        .map(|t| relative(t, time::now()))
        .unwrap_or_else(|_| when.to_string());
    html! { time datetime=(when) title=(when) { (words) } }
}

/// How long before `now` `t` was, in the largest unit that fits; past a month, its date.
pub fn relative(t: Timestamp, now: Timestamp) -> String {
    let seconds = (now - t).num_seconds();
    match seconds {
        // Another writer's clock a little ahead is now too; further ahead, the date.
        ..-60 => format!("on {}", time::format(t).get(..10).unwrap_or_default()),
        -60..60 => "just now".into(),
        60..3600 => format!("{} ago", count(seconds / 60, "minute")),
        3600..86_400 => format!("{} ago", count(seconds / 3600, "hour")),
        86_400..172_800 => "yesterday".into(),
        _ if seconds < 30 * 86_400 => format!("{} ago", count(seconds / 86_400, "day")),
        _ => format!("on {}", time::format(t).get(..10).unwrap_or_default()),
    }
}

/// The human label of a package member: `package_id` → "Package id"; an `x-` member keeps
/// its name.
pub fn label(key: &str) -> String {
    let known = match key {
        "package_id" => "Package id",
        "project_id" => "Project",
        "package_type" => "Type",
        "review_type" => "Review",
        "significance" => "Significance",
        "created_at" => "Created",
        "created_by" => "Author",
        "relay_version" => "Written by",
        "parent_package_id" => "Follows",
        "content_md" => "Content",
        "status" => "Status",
        _ => "",
    };
    if !known.is_empty() {
        return known.to_string();
    }
    if key.starts_with("x-") {
        return key.to_string();
    }
    let mut words = key.replace('_', " ");
    if let Some(first) = words.get(..1) {
        let upper = first.to_uppercase();
        words.replace_range(..1, &upper);
    }
    words
}

/// The first `max` characters of Markdown `md` as one line of plain text, `…` when cut.
pub fn preview(md: &str, max: usize) -> String {
    relay_wire::text::cut(&markdown::to_text(md), max).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_told_in_the_largest_unit_that_fits() {
        let now = time::parse("2026-11-30T12:00:00Z").unwrap();
        let at = |s: &str| relative(time::parse(s).unwrap(), now);
        assert_eq!(at("2026-11-30T11:59:30Z"), "just now");
        assert_eq!(at("2026-11-30T11:59:00Z"), "1 minute ago");
        assert_eq!(at("2026-11-30T09:00:00Z"), "3 hours ago");
        assert_eq!(at("2026-11-29T10:00:00Z"), "yesterday");
        assert_eq!(at("2026-11-20T12:00:00Z"), "10 days ago");
        assert_eq!(at("2026-09-01T12:00:00Z"), "on 2026-09-01");
        assert_eq!(
            at("2026-11-30T12:00:30Z"),
            "just now",
            "a clock a little ahead"
        );
        assert_eq!(at("2026-12-01T12:00:00Z"), "on 2026-12-01");
    }

    #[test]
    fn members_read_as_words() {
        assert_eq!(label("package_id"), "Package id");
        assert_eq!(label("review_type"), "Review");
        assert_eq!(label("handoff_note"), "Handoff note");
        assert_eq!(label("x-ticket"), "x-ticket");
    }

    #[test]
    fn previews_drop_the_markup() {
        assert_eq!(
            preview("**Bold** and `code`\n\n- one\n- [two](https://x.org)", 80),
            "Bold and code one two"
        );
        assert_eq!(preview("a long line of words", 7), "a long…");
    }
}
