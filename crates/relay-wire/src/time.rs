//! Timestamps: RFC 3339 in UTC with `Z`, parsed before they are compared (imported data may carry
//! other precisions or offsets), plus the friendlier forms the CLI accepts for `--since`.

use chrono::{DateTime, NaiveDate, SecondsFormat, SubsecRound, TimeDelta, Utc};

pub type Timestamp = DateTime<Utc>;

/// The current time at the precision relay writes (microseconds), so that a time compared
/// before writing equals the time read back.
pub fn now() -> Timestamp {
    Utc::now().trunc_subsecs(6)
}

/// The smallest step between two written timestamps.
pub fn tick() -> TimeDelta {
    TimeDelta::microseconds(1)
}

/// The text form relay writes: microsecond precision and `Z` (nanoseconds only for a time that
/// came in with them, so that no time read from elsewhere is rounded).
pub fn format(t: Timestamp) -> String {
    use chrono::Timelike;
    let precision = if t.nanosecond().is_multiple_of(1000) {
        SecondsFormat::Micros
    } else {
        SecondsFormat::Nanos
    };
    t.to_rfc3339_opts(precision, true)
}

/// Parses an RFC 3339 timestamp (any offset) into UTC.
pub fn parse(s: &str) -> Result<Timestamp, String> {
    if let Some(t) = parse_utc(s.as_bytes()) {
        return Ok(t);
    }
    let t = DateTime::parse_from_rfc3339(s)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|e| {
            format!("`{s}` is not an RFC 3339 timestamp ({e}); expected e.g. 2026-04-18T20:00:00Z")
        })?;
    in_range(t).map_err(|m| format!("`{s}` {m}"))
}

/// Refuses a timestamp that is not written in UTC: §6.1 and §9.1 ask for "RFC 3339 UTC", so
/// relay takes a record's times only in the one spelling it writes, with `Z`, on every path
/// that writes one (deposit on every door, import), as `relay verify` expects them. A time is
/// never rewritten on its way in: the content hash covers the bytes as given, so a package
/// deposited and the same package imported are one package. The message gives the time to
/// write instead.
pub fn require_utc(s: &str) -> Result<(), String> {
    let t = parse(s)?;
    if s.ends_with('Z') {
        return Ok(());
    }
    Err(format!(
        "`{s}` is not written in UTC with `Z`: relay stores times as RFC 3339 UTC (§6.1, §9.1); \
         write it as `{}`",
        to_utc_text(s).unwrap_or_else(|_| format(t))
    ))
}

/// [`require_utc`] for the members `names` of a record about to be written, naming the member
/// that fails; a member that is not a string or does not parse is left for the record's own
/// validation to name.
pub fn require_utc_members(
    record: &serde_json::Map<String, serde_json::Value>,
    names: &[&str],
) -> Result<(), crate::error::SchemaError> {
    for name in names {
        if let Some(serde_json::Value::String(t)) = record.get(*name)
            && parse(t).is_ok()
        {
            require_utc(t).map_err(|why| crate::error::SchemaError::new(*name, why))?;
        }
    }
    Ok(())
}

/// An RFC 3339 timestamp as text in UTC with `Z` (§6.1, §7.1): `2026-05-01T12:00:00+02:00`
/// becomes `2026-05-01T10:00:00Z`. The fraction keeps the input's digits (`.5+01:00` stays
/// `.5Z`), so no precision is added or lost; a time that already ends in `Z` is returned
/// unchanged. What [`require_utc`] tells a caller to write instead; never applied to a record,
/// whose bytes its hash covers.
pub fn to_utc_text(s: &str) -> Result<String, String> {
    let t = parse(s)?;
    if s.ends_with('Z') {
        return Ok(s.to_string());
    }
    // `parse` accepted it, so it is `date` `T` `time` with 19 characters before any fraction.
    let digits = s
        .get(19..)
        .and_then(|rest| rest.strip_prefix('.'))
        .map_or(0, |f| f.bytes().take_while(u8::is_ascii_digit).count());
    let mut out = t.format("%Y-%m-%dT%H:%M:%S").to_string();
    if digits > 0 {
        use chrono::Timelike;
        let nanos = format!("{:09}", t.nanosecond() % 1_000_000_000);
        out.push('.');
        out.push_str(&nanos[..digits.min(9)]);
    }
    out.push('Z');
    Ok(out)
}

/// The form relay writes, `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, read directly: nearly every
/// timestamp a store holds, and a bulk read checks each. `None` for anything else (another
/// offset, a leap second, an invalid date), which the general parser then reads or refuses.
fn parse_utc(b: &[u8]) -> Option<Timestamp> {
    fn digits(b: &[u8]) -> Option<u32> {
        b.iter().try_fold(0u32, |n, &c| {
            c.is_ascii_digit().then(|| n * 10 + u32::from(c - b'0'))
        })
    }
    let (head, tail) = (b.get(..19)?, &b[19..]);
    if head[4] != b'-'
        || head[7] != b'-'
        || head[10] != b'T'
        || head[13] != b':'
        || head[16] != b':'
    {
        return None;
    }
    let nanos = match tail {
        [b'Z'] => 0,
        [b'.', fraction @ .., b'Z'] if (1..=9).contains(&fraction.len()) => {
            digits(fraction)? * 10u32.pow(9 - fraction.len() as u32)
        }
        _ => return None,
    };
    let date = NaiveDate::from_ymd_opt(
        i32::try_from(digits(&head[0..4])?).ok()?,
        digits(&head[5..7])?,
        digits(&head[8..10])?,
    )?;
    let (h, m, sec) = (
        digits(&head[11..13])?,
        digits(&head[14..16])?,
        digits(&head[17..19])?,
    );
    if sec > 59 {
        return None;
    }
    Some(date.and_hms_nano_opt(h, m, sec, nanos)?.and_utc())
}

/// RFC 3339 has four-digit years; an offset must not carry a time outside them in UTC.
fn in_range(t: Timestamp) -> Result<Timestamp, String> {
    use chrono::Datelike;
    if (0..=9999).contains(&t.year()) {
        Ok(t)
    } else {
        Err("falls outside the years 0000–9999 in UTC".to_string())
    }
}

/// Parses a time given on the command line: an RFC 3339 timestamp, a date (`2026-04-18`, meaning
/// its start in UTC), or an age before `now` such as `30m`, `12h`, `7d` or `2w`.
pub fn parse_user_time(s: &str, now: Timestamp) -> Result<Timestamp, String> {
    let s = s.trim();
    if DateTime::parse_from_rfc3339(s).is_ok() {
        return parse(s);
    }
    if let Ok(d) = NaiveDate::parse_from_str(s, "%Y-%m-%d")
        && let Some(t) = d.and_hms_opt(0, 0, 0)
    {
        return Ok(t.and_utc());
    }
    if let Some(age) = parse_age(s) {
        return in_range(now - age);
    }
    Err(format!(
        "`{s}` is not a time: give an RFC 3339 timestamp (2026-04-18T20:00:00Z), a date \
         (2026-04-18) or an age (30m, 12h, 7d, 2w)"
    ))
}

/// A time the user gave for `flag` (`--since`, an MCP tool's `at`), when one was given: as
/// [`parse_user_time`] reads it against the current time, or an invalid-input error that
/// names the flag. Every transport reads user times through this.
pub fn parse_time(
    flag: &str,
    value: Option<&str>,
) -> Result<Option<Timestamp>, crate::error::Error> {
    value
        .map(|v| {
            parse_user_time(v, now())
                .map_err(|m| crate::error::Error::InvalidInput(format!("{flag}: {m}")))
        })
        .transpose()
}

/// A span such as `30m`, `12h`, `7d` or `2w` (whole, non-negative), as ages and time-to-live
/// values are written.
pub fn parse_age(s: &str) -> Option<TimeDelta> {
    let unit = s.chars().last()?;
    let n: i64 = s[..s.len() - unit.len_utf8()].parse().ok()?;
    if n < 0 {
        return None;
    }
    match unit {
        's' => TimeDelta::try_seconds(n),
        'm' => TimeDelta::try_minutes(n),
        'h' => TimeDelta::try_hours(n),
        'd' => TimeDelta::try_days(n),
        'w' => TimeDelta::try_weeks(n),
        _ => None,
    }
}

/// `YYYY-MM` of a timestamp in UTC: the name of the monthly package log it belongs to.
pub fn month_key(t: Timestamp) -> String {
    t.format("%Y-%m").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_written_form_reads_as_the_general_parser_reads_it() {
        let general = |s: &str| {
            DateTime::parse_from_rfc3339(s)
                .ok()
                .map(|t| t.with_timezone(&Utc))
        };
        for s in [
            "2026-04-18T20:00:00Z",
            "2026-04-18T20:00:00.1Z",
            "2026-04-18T20:00:00.123456Z",
            "2026-04-18T20:00:00.123456789Z",
            "2024-02-29T23:59:59.999999Z",
            "0000-01-01T00:00:00Z",
            "9999-12-31T23:59:59.999999999Z",
        ] {
            assert_eq!(parse_utc(s.as_bytes()), general(s), "{s}");
            assert!(
                parse_utc(s.as_bytes()).is_some(),
                "{s} takes the direct path"
            );
        }
        // Anything else is left to the general parser, which accepts or refuses it.
        for s in [
            "2023-02-29T00:00:00Z",
            "2026-13-01T00:00:00Z",
            "2026-04-18T24:00:00Z",
            "2026-04-18T20:60:00Z",
            "2016-12-31T23:59:60Z",
            "2026-04-18T20:00:00.Z",
            "2026-04-18T20:00:00.1234567890Z",
            "2026-04-18t20:00:00z",
            "2026-04-18T20:00:00+02:00",
            "2026-04-18 20:00:00Z",
            "+2026-04-18T20:00:00Z",
            "2026-04-18T20:00:00",
            "",
        ] {
            assert_eq!(parse_utc(s.as_bytes()), None, "{s}");
            assert_eq!(
                parse(s).ok(),
                general(s).filter(|t| in_range(*t).is_ok()),
                "{s}"
            );
        }
    }

    #[test]
    fn parses_offsets_into_utc_and_compares_by_instant() {
        let a = parse("2026-04-18T22:00:00+02:00").unwrap();
        let b = parse("2026-04-18T20:00:00.000Z").unwrap();
        assert_eq!(a, b);
        assert!(parse("2026-04-18 20:00").is_err());
        assert!(
            parse("9999-12-31T23:00:00-05:00").is_err(),
            "year 10000 in UTC"
        );
        assert!(
            parse("0000-01-01T00:00:00+01:00").is_err(),
            "year -1 in UTC"
        );
        assert!(parse("9999-12-31T23:59:59Z").is_ok());
    }

    #[test]
    fn offsets_are_converted_to_utc_text_keeping_the_precision() {
        for (input, utc) in [
            ("2026-05-01T12:00:00+02:00", "2026-05-01T10:00:00Z"),
            ("2026-05-01T12:00:00.5+02:00", "2026-05-01T10:00:00.5Z"),
            (
                "2026-05-01T00:30:00.123456789-01:30",
                "2026-05-01T02:00:00.123456789Z",
            ),
            ("2026-05-01T01:00:00.000+02:00", "2026-04-30T23:00:00.000Z"),
            ("2026-05-01T10:00:00+00:00", "2026-05-01T10:00:00Z"),
            ("2026-05-01t10:00:00z", "2026-05-01T10:00:00Z"),
            ("2026-05-01T10:00:00Z", "2026-05-01T10:00:00Z"),
            ("2026-05-01T10:00:00.10Z", "2026-05-01T10:00:00.10Z"),
        ] {
            assert_eq!(to_utc_text(input).as_deref(), Ok(utc), "{input}");
            assert_eq!(parse(utc), parse(input), "the same instant: {input}");
        }
        assert!(to_utc_text("2026-05-01 12:00").is_err());
        assert!(to_utc_text("9999-12-31T23:00:00-05:00").is_err());
    }

    #[test]
    fn formats_with_z_and_micros() {
        let t = parse("2026-04-18T20:00:00.5Z").unwrap();
        assert_eq!(format(t), "2026-04-18T20:00:00.500000Z");
        assert_eq!(month_key(t), "2026-04");
    }

    #[test]
    fn user_times() {
        let now = parse("2026-04-18T20:00:00Z").unwrap();
        assert_eq!(
            parse_user_time("2d", now).unwrap(),
            parse("2026-04-16T20:00:00Z").unwrap()
        );
        assert_eq!(
            parse_user_time("2026-04-01", now).unwrap(),
            parse("2026-04-01T00:00:00Z").unwrap()
        );
        assert_eq!(
            parse_user_time("90m", now).unwrap(),
            parse("2026-04-18T18:30:00Z").unwrap()
        );
        assert!(parse_user_time("yesterday", now).is_err());
        assert!(parse_user_time("-3d", now).is_err());
        assert!(parse_user_time("", now).is_err());
    }

    #[test]
    fn only_utc_times_are_taken_and_the_message_gives_the_utc_form() {
        for ok in ["2026-03-01T10:00:00Z", "2026-03-01T10:00:00.5Z"] {
            assert_eq!(require_utc(ok), Ok(()), "{ok}");
        }
        let e = require_utc("2026-03-01T10:00:00+00:00").unwrap_err();
        assert!(e.contains("write it as `2026-03-01T10:00:00Z`"), "{e}");
        let e = require_utc("2026-03-01T12:00:00+02:00").unwrap_err();
        assert!(e.contains("write it as `2026-03-01T10:00:00Z`"), "{e}");
        assert!(require_utc("yesterday").is_err());
    }
}
