//! Expiry (§12.1 extension member `x-expires-at`): a package or fact may say when it stops
//! being served. The member is part of the record, so it is hashed and merges like every
//! other member; reads hide a record once the time has passed, and nothing is ever deleted
//! by it (`relay purge --expired` is the one command that removes expired lines).

use super::time::{self, Timestamp};
use super::tree::{Node, Object, View};

/// The member that holds a record's expiry, an RFC 3339 time.
pub const EXPIRES_AT: &str = "x-expires-at";

/// When the record expires: `None` when it never does, or when its member is not a time
/// (a record from elsewhere is then served as if it had no expiry).
pub fn expires_at<O: Object>(record: &O) -> Option<Timestamp> {
    match record.get(EXPIRES_AT)?.view() {
        View::Str(s) => time::parse(s).ok(),
        _ => None,
    }
}

/// Whether the record has expired at `now`: its expiry is at or before it.
pub fn is_expired<O: Object>(record: &O, now: Timestamp) -> bool {
    expires_at(record).is_some_and(|t| t <= now)
}

/// The expiry a writer asked for, as the text to store: an absolute time (`--expires-at`,
/// any form [`time::parse_user_time`] reads but an age) or a time to live from `now`
/// (`--ttl 30d`). Refuses both at once, and a time that is not in the future: a record that
/// would be hidden the moment it is written is a mistake, not a wish.
pub fn requested(
    expires_at: Option<&str>,
    ttl: Option<&str>,
    now: Timestamp,
) -> Result<Option<String>, String> {
    let at = match (expires_at, ttl) {
        (None, None) => return Ok(None),
        (Some(_), Some(_)) => {
            return Err("give --expires-at or --ttl, not both".to_string());
        }
        (Some(at), None) => {
            let at = at.trim();
            if time::parse_age(at).is_some() {
                return Err(format!(
                    "--expires-at `{at}` is an age; for a time to live from now use --ttl {at}"
                ));
            }
            time::parse_user_time(at, now).map_err(|m| format!("--expires-at: {m}"))?
        }
        (None, Some(ttl)) => {
            let ttl = ttl.trim();
            let span = time::parse_age(ttl).ok_or_else(|| {
                format!("--ttl `{ttl}` is not a duration: give a number and a unit, as 90m, 12h, 30d or 2w")
            })?;
            now.checked_add_signed(span)
                .ok_or_else(|| format!("--ttl `{ttl}` reaches past the year 9999"))?
        }
    };
    if at <= now {
        return Err(format!(
            "the expiry {} is not in the future (it is now {}); a record that expires when it is \
             written would never be seen",
            time::format(at),
            time::format(now)
        ));
    }
    Ok(Some(time::format(at)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Map, Value, json};

    fn record(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn a_record_expires_at_its_time_and_a_member_that_is_no_time_never_expires() {
        let now = time::parse("2026-06-01T00:00:00Z").unwrap();
        let at = |s: &str| record(json!({ EXPIRES_AT: s }));
        assert!(is_expired(&at("2026-06-01T00:00:00Z"), now));
        assert!(is_expired(&at("2026-05-31T23:59:59.5Z"), now));
        assert!(!is_expired(&at("2026-06-01T00:00:01Z"), now));
        assert!(!is_expired(&at("next tuesday"), now));
        assert!(!is_expired(&record(json!({ EXPIRES_AT: 5 })), now));
        assert!(!is_expired(&record(json!({})), now));
    }

    #[test]
    fn requests_are_times_in_the_future_or_spans_from_now() {
        let now = time::parse("2026-06-01T00:00:00Z").unwrap();
        assert_eq!(requested(None, None, now), Ok(None));
        assert_eq!(
            requested(None, Some("30d"), now),
            Ok(Some("2026-07-01T00:00:00.000000Z".into()))
        );
        assert_eq!(
            requested(Some("2026-06-02"), None, now),
            Ok(Some("2026-06-02T00:00:00.000000Z".into()))
        );
        assert_eq!(
            requested(Some("2026-06-01T02:00:00+02:00"), None, now).unwrap_err(),
            "the expiry 2026-06-01T00:00:00.000000Z is not in the future (it is now \
             2026-06-01T00:00:00.000000Z); a record that expires when it is written would never be seen"
        );
        assert!(requested(Some("2026-05-01"), None, now).is_err());
        assert!(requested(None, Some("0d"), now).is_err());
        assert!(
            requested(None, Some("-3d"), now)
                .unwrap_err()
                .contains("not a duration")
        );
        assert!(
            requested(None, Some("soon"), now)
                .unwrap_err()
                .contains("not a duration")
        );
        assert!(
            requested(Some("7d"), None, now)
                .unwrap_err()
                .contains("--ttl 7d")
        );
        assert!(
            requested(Some("x"), Some("1d"), now)
                .unwrap_err()
                .contains("not both")
        );
    }
}
