//! The text a watch resumes from: its [`Position`] in each log it covers, as an opaque,
//! versioned string that survives restarts and passes between the CLI, MCP and HTTP.

use std::collections::BTreeMap;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use super::{Position, fingerprint};
use relay_wire::error::{Error, Result};

/// The positions of a watch in each log it covers, as text that survives restarts. A log is
/// named by a 32-bit key of its name; a log the cursor does not name is read from its start
/// (it appeared after the cursor was taken).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cursor(BTreeMap<u32, Position>);

const CURSOR_PREFIX: &str = "w1.";

fn name_key(name: &str) -> u32 {
    fingerprint(name.as_bytes())
}

impl Cursor {
    pub fn get(&self, name: &str) -> Option<Position> {
        self.0.get(&name_key(name)).copied()
    }

    pub fn set(&mut self, name: &str, at: Position) {
        self.0.insert(name_key(name), at);
    }

    /// The opaque text: a version tag, then base64url of (key, offset as LEB128, fingerprint)
    /// per log.
    pub fn encode(&self) -> String {
        let mut bytes = Vec::with_capacity(self.0.len() * 12);
        for (key, at) in &self.0 {
            bytes.extend_from_slice(&key.to_le_bytes());
            let mut n = at.offset;
            loop {
                let low = (n & 0x7f) as u8;
                n >>= 7;
                if n == 0 {
                    bytes.push(low);
                    break;
                }
                bytes.push(low | 0x80);
            }
            bytes.extend_from_slice(&at.tail.to_le_bytes());
        }
        format!("{CURSOR_PREFIX}{}", URL_SAFE_NO_PAD.encode(bytes))
    }

    /// Reads [`Cursor::encode`]'s text back; anything else is `invalid_input`.
    pub fn decode(text: &str) -> Result<Cursor> {
        let bad = || {
            Error::InvalidInput(format!(
                "`{}` is not a watch cursor: give the `cursor` of an event that `relay watch --json` printed, or `now` or `beginning`",
                shorten(text)
            ))
        };
        let body = text.strip_prefix(CURSOR_PREFIX).ok_or_else(bad)?;
        let bytes = URL_SAFE_NO_PAD.decode(body).map_err(|_| bad())?;
        let mut map = BTreeMap::new();
        let mut rest = &bytes[..];
        while !rest.is_empty() {
            let (key, after) = rest.split_first_chunk::<4>().ok_or_else(bad)?;
            rest = after;
            let mut offset = 0u64;
            let mut shift = 0;
            loop {
                let (&b, after) = rest.split_first().ok_or_else(bad)?;
                rest = after;
                if shift > 63 {
                    return Err(bad());
                }
                offset |= u64::from(b & 0x7f) << shift;
                shift += 7;
                if b & 0x80 == 0 {
                    break;
                }
            }
            let (tail, after) = rest.split_first_chunk::<4>().ok_or_else(bad)?;
            rest = after;
            map.insert(
                u32::from_le_bytes(*key),
                Position {
                    offset,
                    tail: u32::from_le_bytes(*tail),
                },
            );
        }
        Ok(Cursor(map))
    }
}

fn shorten(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_round_trips_and_rejects_other_text() {
        let mut c = Cursor::default();
        c.set(
            "projects/p/facts.ndjson",
            Position {
                offset: 1 << 40,
                tail: 7,
            },
        );
        c.set("projects.ndjson", Position { offset: 0, tail: 0 });
        let text = c.encode();
        assert!(text.starts_with("w1."));
        assert_eq!(Cursor::decode(&text).unwrap(), c);
        for bad in ["", "now", "w1.!!", "w1.AAAA", &text[..text.len() - 2]] {
            let err = Cursor::decode(bad).unwrap_err();
            assert_eq!(err.code(), "invalid_input", "{bad}");
        }
    }
}
