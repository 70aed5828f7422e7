//! The caps on open event streams (`/v1/projects/{id}/events`, `GET /mcp`), per caller and in
//! all, so that one caller's crowd cannot take the server's sockets from everyone else: past a
//! cap a request is refused at once with 429 (that caller's) or 503 (everyone's), with
//! `Retry-After`, and a stream that ends gives its place back.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::reply::RequestError;

/// The caps on open streams, and how many each caller holds.
pub struct StreamCaps {
    /// The most streams open at once, in all.
    pub total: usize,
    /// The most one caller (a token, a console login, the local user) holds at once.
    pub per_caller: usize,
    open: Arc<Mutex<HashMap<String, usize>>>,
}

/// A stream's place under the caps, given back when the stream ends (dropped).
pub struct StreamSlot {
    open: Arc<Mutex<HashMap<String, usize>>>,
    owner: String,
}

/// How long a refused client should wait: streams end when their clients leave.
const RETRY_AFTER_SECONDS: u64 = 5;

impl StreamCaps {
    pub fn new(total: usize, per_caller: usize) -> StreamCaps {
        StreamCaps {
            total,
            per_caller,
            open: Arc::default(),
        }
    }

    /// A place for one more stream of `owner`, or the refusal past a cap.
    pub fn admit(&self, owner: &str) -> Result<StreamSlot, RequestError> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let mine = open.get(owner).copied().unwrap_or(0);
        if mine >= self.per_caller {
            return Err(RequestError::TooManyRequests {
                why: format!(
                    "this caller already holds {mine} open event streams, its most \
                     (relay serve --max-streams-per-caller); close one first"
                ),
                retry_after: RETRY_AFTER_SECONDS,
            });
        }
        let all: usize = open.values().sum();
        if all >= self.total {
            return Err(RequestError::ServerBusy {
                why: format!(
                    "the server holds {all} open event streams, its most \
                     (relay serve --max-streams)"
                ),
                retry_after: RETRY_AFTER_SECONDS,
            });
        }
        *open.entry(owner.to_string()).or_insert(0) += 1;
        Ok(StreamSlot {
            open: self.open.clone(),
            owner: owner.to_string(),
        })
    }

    /// How many streams are open now (for the tests).
    #[cfg(test)]
    fn open(&self) -> usize {
        self.open
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .sum()
    }
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&self.owner) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.owner);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use relay_wire::error::Code;

    #[test]
    fn a_caller_over_its_cap_gets_429_and_the_server_at_its_cap_503_until_a_stream_ends() {
        let caps = StreamCaps::new(3, 2);
        let a1 = caps.admit("tok_a").unwrap();
        let _a2 = caps.admit("tok_a").unwrap();
        let refused = caps.admit("tok_a").err().unwrap();
        assert_eq!(refused.code(), Code::TooManyRequests);
        assert_eq!(refused.retry_after(), Some(RETRY_AFTER_SECONDS));
        let _b1 = caps.admit("tok_b").unwrap();
        let busy = caps.admit("tok_c").err().unwrap();
        assert_eq!(busy.code(), Code::ServerBusy);
        assert_eq!(caps.open(), 3);
        drop(a1);
        assert_eq!(caps.open(), 2);
        let _c1 = caps.admit("tok_c").unwrap();
    }
}
