//! A read of the store as it is now, or as it stood at a time (a snapshot read, `--as-of`).
//! Reads take a [`View`] rather than a store and an optional time beside it, so one function
//! serves both and no read has an `_at` twin. The view answers what depends on its time (the
//! retractions made by then); the store's other reads are reached through [`View::store`].

use relay_wire::error::Result;
use relay_wire::time::Timestamp;

use crate::Store;
use crate::retractions::Retractions;

/// The store read now (`as_of` is `None`) or as it stood at `as_of`.
#[derive(Debug, Clone, Copy)]
pub struct View<'a> {
    store: &'a Store,
    as_of: Option<Timestamp>,
}

impl<'a> View<'a> {
    /// The store as it stood at `as_of`, or as it is now when `None`.
    pub fn of(store: &'a Store, as_of: Option<Timestamp>) -> View<'a> {
        View { store, as_of }
    }

    pub fn store(&self) -> &'a Store {
        self.store
    }

    /// The time of a snapshot read; `None` reads the store as it is now.
    pub fn as_of(&self) -> Option<Timestamp> {
        self.as_of
    }

    /// The retractions of `projects` made by the view's time.
    pub fn retractions_of(&self, projects: &[String]) -> Result<Retractions> {
        let all = self.store.retractions_of(projects)?;
        Ok(match self.as_of {
            Some(t) => all.until(t),
            None => all,
        })
    }
}

impl Store {
    /// The store read as it is now.
    pub fn view(&self) -> View<'_> {
        View::of(self, None)
    }

    /// The store read as it stood at `t`.
    pub fn as_of(&self, t: Timestamp) -> View<'_> {
        View::of(self, Some(t))
    }
}
