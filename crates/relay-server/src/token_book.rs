//! The store's tokens as the server last read them, kept while the token file is unchanged
//! (its [`TokensStamp`]: size, modification time, inode). Authenticating a request then costs
//! a stat and a hash, on the async worker that has the request: no blocking thread, which a
//! crowd of open event streams could otherwise leave none of. A token made, revoked or
//! narrowed changes the file, and the next request reads it again.

use std::sync::{Arc, Mutex};

use relay_store::Store;
use relay_store::tokens::{TokenRecord, TokensStamp};
use relay_wire::error::Result;

/// The tokens of the last read, and the stamp of the file they were read from.
#[derive(Default)]
pub struct TokenBook(Mutex<Option<(TokensStamp, Arc<Vec<TokenRecord>>)>>);

impl TokenBook {
    /// The store's tokens now: those kept, while the file is as it was when they were read.
    pub fn tokens(&self, store: &Store) -> Result<Arc<Vec<TokenRecord>>> {
        let stamp = store.tokens_stamp();
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((at, tokens)) = kept.as_ref()
            && *at == stamp
        {
            return Ok(tokens.clone());
        }
        // Read after the stamp: a change between the two is read now and seen again next
        // time, never missed.
        let tokens = Arc::new(store.tokens()?);
        *kept = Some((stamp, tokens.clone()));
        Ok(tokens)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use relay_core::ops::Actor;
    use relay_core::ops::trust::tokens::{self, NewToken};

    #[test]
    fn a_token_made_or_revoked_is_seen_by_the_next_lookup() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join(".relay");
        Store::create(&root, "demo").unwrap();
        let store = Store::open(root).unwrap();
        let book = TokenBook::default();
        assert!(book.tokens(&store).unwrap().is_empty());
        let new = NewToken {
            actor: Actor {
                id: "agent".into(),
                actor_type: "agent".into(),
            },
            projects: None,
            read_only: false,
        };
        let made = tokens::create(&store, new).unwrap();
        let seen = book.tokens(&store).unwrap();
        assert!(tokens::authenticate_among(&seen, &made.token).is_ok());
        assert!(
            Arc::ptr_eq(&seen, &book.tokens(&store).unwrap()),
            "kept while unchanged"
        );
        tokens::revoke(&store, &made.record.token_id).unwrap();
        let after = book.tokens(&store).unwrap();
        assert!(tokens::authenticate_among(&after, &made.token).is_err());
    }
}
