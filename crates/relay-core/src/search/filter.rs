//! Who may see what, and the filters of listings (pull, relevant pull, orchestrate): what
//! every listing applies to a package, and what it can judge from a month's catalog alone.
//! Retracted and expired records are hidden here too ([`Hidden`]), so every read that lists
//! packages hides them the same way, whatever transport asked. A fact asserted from a
//! retracted package (its `source_package_id`) is hidden with it, as export leaves it behind.

use std::sync::Arc;

use relay_store::index::{Entry, MonthCatalog};
use relay_store::packages::StoredPackage;
use relay_store::retractions::{Retraction, Retractions};
use relay_store::{Store, View};
use relay_wire::error::Result;
use relay_wire::{Fact, Package, Status, expiry, time, time::Timestamp};

pub use crate::request::listing::Reveal;

impl Reveal {
    /// Whether a record hidden for `why` is shown anyway.
    pub fn shows(&self, why: &HiddenBecause) -> bool {
        match why {
            HiddenBecause::Retracted(_) | HiddenBecause::SourceRetracted(_) => self.retracted,
            HiddenBecause::Expired(_) => self.expired,
        }
    }
}

/// Why a record is hidden from reads.
#[derive(Debug, Clone, PartialEq)]
pub enum HiddenBecause<'a> {
    Retracted(&'a Retraction),
    /// A fact whose source package is retracted: the package's retraction.
    SourceRetracted(&'a Retraction),
    Expired(Timestamp),
}

impl HiddenBecause<'_> {
    /// `retracted`, `source_retracted` or `expired`.
    pub fn because(&self) -> &'static str {
        match self {
            HiddenBecause::Retracted(_) => "retracted",
            HiddenBecause::SourceRetracted(_) => "source_retracted",
            HiddenBecause::Expired(_) => "expired",
        }
    }

    /// What reads that mark a hidden record in place of its content say (a fact's history,
    /// a watch's replay): `{"because", "retraction": {…}}` (the retraction as stored; for
    /// `source_retracted`, the source package's) or `{"because", "expired_at"}`.
    pub fn to_value(&self) -> serde_json::Value {
        match self {
            HiddenBecause::Retracted(r) | HiddenBecause::SourceRetracted(r) => {
                serde_json::json!({"because": self.because(), "retraction": r.raw})
            }
            HiddenBecause::Expired(at) => {
                serde_json::json!({"because": self.because(), "expired_at": time::format(*at)})
            }
        }
    }

    /// A phrase for people: `retracted by ana at …: reason`, `its source package pkg_… was
    /// retracted by …`, `expired at …`.
    pub fn summary(&self) -> String {
        match self {
            HiddenBecause::Retracted(r) => format!(
                "retracted by {} at {}: {}",
                r.actor(),
                time::format(r.retracted_at),
                r.reason
            ),
            HiddenBecause::SourceRetracted(r) => format!(
                "its source package {} was retracted by {} at {}: {}",
                r.id,
                r.actor(),
                time::format(r.retracted_at),
                r.reason
            ),
            HiddenBecause::Expired(at) => format!("expired at {}", time::format(*at)),
        }
    }

    /// A sentence for an error or a note, naming the flag that shows the record anyway.
    pub fn explain(&self, what: &str) -> String {
        match self {
            HiddenBecause::Retracted(r) => format!(
                "{what} was retracted by {} at {}: {}; --include-retracted shows it",
                r.actor(),
                time::format(r.retracted_at),
                r.reason
            ),
            HiddenBecause::SourceRetracted(r) => format!(
                "{what} was asserted from package `{}`, which was retracted by {} at {}: {}; \
                 --include-retracted shows it",
                r.id,
                r.actor(),
                time::format(r.retracted_at),
                r.reason
            ),
            HiddenBecause::Expired(at) => format!(
                "{what} expired at {}; --include-expired shows it",
                time::format(*at)
            ),
        }
    }
}

/// What reads hide: the retractions of the projects read, and records whose expiry has come
/// by `now`. Loaded once per read.
#[derive(Debug, Clone, Default)]
pub struct Hidden {
    /// The time expiry is judged at; `None` shows expired records.
    now: Option<Timestamp>,
    /// `None` shows retracted records.
    retractions: Option<Retractions>,
}

impl Hidden {
    /// Hides nothing.
    pub fn nothing() -> Hidden {
        Hidden::default()
    }

    /// What a read of `projects` through `view` hides, but for what `reveal` shows: the
    /// retractions made by the view's time, and expiry judged at that time (now for a read
    /// of the store as it is).
    pub fn load(view: View<'_>, projects: &[String], reveal: Reveal) -> Result<Hidden> {
        let retractions = match reveal.retracted {
            true => None,
            false => Some(view.retractions_of(projects)?),
        };
        Ok(Hidden {
            now: (!reveal.expired).then(|| view.as_of().unwrap_or_else(time::now)),
            retractions,
        })
    }

    /// Whether a retraction may hide some fact of the projects read: a retracted fact, or a
    /// retracted package that facts may name as their source.
    pub fn retracts_facts(&self) -> bool {
        (self.retractions.as_ref()).is_some_and(|r| !r.is_empty())
    }

    /// Whether a package id is retracted (all a catalog entry can tell).
    pub fn retracted_package(&self, id: &str) -> bool {
        (self.retractions.as_ref()).is_some_and(|r| r.package(id).is_some())
    }

    /// Why `p` is hidden, if it is.
    pub fn package(&self, p: &Package) -> Option<HiddenBecause<'_>> {
        self.package_by(p.id(), expiry::expires_at(p.as_map()))
    }

    /// Why the package `id` that expires at `expires_at` is hidden, if it is (for a reader
    /// that holds the record as plain JSON).
    pub fn package_by(&self, id: &str, expires_at: Option<Timestamp>) -> Option<HiddenBecause<'_>> {
        if let Some(r) = self.retractions.as_ref().and_then(|r| r.package(id)) {
            return Some(HiddenBecause::Retracted(r));
        }
        self.expired(expires_at)
    }

    /// Why fact `f` is hidden, if it is: retracted, asserted from a retracted package, or
    /// expired.
    pub fn fact(&self, f: &Fact) -> Option<HiddenBecause<'_>> {
        self.fact_by(
            f.id(),
            f.str_field("source_package_id"),
            expiry::expires_at(f.as_map()),
        )
    }

    /// [`Hidden::fact`] of the fact `id` asserted from `source`, expiring at `expires_at`.
    pub fn fact_by(
        &self,
        id: &str,
        source: Option<&str>,
        expires_at: Option<Timestamp>,
    ) -> Option<HiddenBecause<'_>> {
        if let Some(r) = self.retractions.as_ref() {
            if let Some(r) = r.fact(id) {
                return Some(HiddenBecause::Retracted(r));
            }
            if let Some(r) = source.and_then(|p| r.package(p)) {
                return Some(HiddenBecause::SourceRetracted(r));
            }
        }
        self.expired(expires_at)
    }

    fn expired(&self, at: Option<Timestamp>) -> Option<HiddenBecause<'_>> {
        match (self.now, at) {
            (Some(now), Some(at)) if at <= now => Some(HiddenBecause::Expired(at)),
            _ => None,
        }
    }
}

/// Filters shared by every listing mode. Empty means "any".
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Any of these package types.
    pub types: Vec<String>,
    /// All of these tags.
    pub tags: Vec<String>,
    /// `created_by.id` equals this.
    pub actor: Option<String>,
    pub status: Option<Status>,
    /// `created_at ≥ since`.
    pub since: Option<Timestamp>,
    /// `created_at < until`.
    pub until: Option<Timestamp>,
    /// Who is looking: drafts are shown to their creator only (§5.3).
    pub viewer: Viewer,
    /// Hidden records the listing shows anyway.
    pub reveal: Reveal,
    /// A snapshot read: the store as it stood at this time (`--as-of`).
    pub as_of: Option<Timestamp>,
    /// What is hidden, once [`Filter::prepare`] has loaded it (leave it `None`: public only
    /// so that filters can be written with `..Filter::default()`).
    pub hidden: Option<Arc<Hidden>>,
}

/// Who is looking at a listing. Working it out may ask git for the user's email, so a
/// deferred viewer is resolved only when a draft is met, at most once.
#[derive(Clone, Default)]
pub struct Viewer {
    /// `None` inside: anyone, every draft shown.
    known: std::sync::Arc<std::sync::OnceLock<Option<String>>>,
    resolve: Option<std::sync::Arc<dyn Fn() -> Option<String> + Send + Sync>>,
}

impl Viewer {
    /// Anyone: drafts are shown whoever made them.
    pub fn anyone() -> Viewer {
        Viewer::known(None)
    }

    /// A viewer already known (`None`: anyone; `Some("")`: nobody's drafts are shown).
    pub fn known(id: Option<String>) -> Viewer {
        Viewer {
            known: std::sync::Arc::new(std::sync::OnceLock::from(id)),
            resolve: None,
        }
    }

    /// A viewer worked out by `resolve` when first needed.
    pub fn deferred(resolve: impl Fn() -> Option<String> + Send + Sync + 'static) -> Viewer {
        Viewer {
            known: std::sync::Arc::default(),
            resolve: Some(std::sync::Arc::new(resolve)),
        }
    }

    /// The viewer's actor id; `None` for anyone.
    pub fn id(&self) -> Option<&str> {
        self.known
            .get_or_init(|| self.resolve.as_ref().and_then(|f| f()))
            .as_deref()
    }

    /// Whether some drafts may be hidden (so a listing must read a draft's line to decide).
    pub fn may_hide_drafts(&self) -> bool {
        match self.known.get() {
            Some(known) => known.is_some(),
            None => self.resolve.is_some(),
        }
    }
}

impl std::fmt::Debug for Viewer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.known.get() {
            Some(id) => write!(f, "Viewer({id:?})"),
            None if self.resolve.is_some() => f.write_str("Viewer(deferred)"),
            None => f.write_str("Viewer(None)"),
        }
    }
}

impl Filter {
    /// Whether a package of `status` may be hidden from the viewer, so that its creator must be
    /// read to decide: a draft, unless the viewer is anyone.
    pub fn may_hide(&self, status: Status) -> bool {
        status == Status::Draft && self.viewer.may_hide_drafts()
    }

    /// This filter with what it hides loaded for a read of `projects` (retractions, and the
    /// time expiry is judged at). Every listing calls it first; a filter already prepared is
    /// returned as it is.
    pub fn prepare(&self, store: &Store, projects: &[String]) -> Result<Filter> {
        let mut out = self.clone();
        if out.hidden.is_none() {
            out.hidden = Some(Arc::new(Hidden::load(
                View::of(store, self.as_of),
                projects,
                self.reveal,
            )?));
        }
        Ok(out)
    }

    /// What this filter hides (nothing until [`Filter::prepare`]).
    pub fn hidden(&self) -> Option<&Hidden> {
        self.hidden.as_deref()
    }

    /// Whether `entry` can pass this filter, judged from the index alone (a `true` still needs the
    /// line read and [`Filter::matches`]).
    pub fn may_match(&self, month: &MonthCatalog, entry: &Entry) -> bool {
        let at = entry.created_micros;
        if self.since.is_some_and(|s| at < s.timestamp_micros())
            || self.until.is_some_and(|u| at >= u.timestamp_micros())
            || self.status.is_some_and(|s| s != entry.status)
            || self
                .hidden
                .as_ref()
                .is_some_and(|h| h.retracted_package(month.id(entry)))
        {
            return false;
        }
        self.types.is_empty()
            || month
                .package_type(entry)
                .is_none_or(|t| self.types.iter().any(|wanted| wanted == t))
    }

    /// Text a package's line must hold to match: each tag and the author, as JSON strings.
    /// The package index keeps neither, so a listing by them reads lines; these let it skip
    /// the lines that cannot match ([`relay_store::index::LinePrefilter`]).
    pub fn line_needles(&self) -> Vec<String> {
        let quoted = |s: &str| format!("\"{}\"", relay_store::packages::json_fragment(s));
        (self.tags.iter().map(|t| quoted(t)))
            .chain(self.actor.as_deref().map(quoted))
            .collect()
    }

    pub fn matches(&self, p: &StoredPackage) -> bool {
        let pkg = &p.package;
        if !self.types.is_empty() && !self.types.iter().any(|t| t == pkg.package_type()) {
            return false;
        }
        if !self.tags.is_empty() {
            let tags = pkg.list("tags");
            if !self.tags.iter().all(|t| tags.contains(&t.as_str())) {
                return false;
            }
        }
        if self
            .actor
            .as_deref()
            .is_some_and(|a| a != pkg.created_by().id)
        {
            return false;
        }
        if self.status.is_some_and(|s| s != pkg.status()) {
            return false;
        }
        if pkg.status() == Status::Draft && self.viewer.id().is_some_and(|v| !visible_to(pkg, v)) {
            return false;
        }
        let at = pkg.created_at();
        if self.since.is_some_and(|s| at < s) || self.until.is_some_and(|u| at >= u) {
            return false;
        }
        self.hidden
            .as_ref()
            .is_none_or(|h| h.package(pkg).is_none())
    }
}

/// Whether `viewer` may see a package in listings: drafts are visible to their creator only.
/// A listing's `status` filter as given by a user: one of the §6 statuses, else
/// `invalid_input` naming them.
pub fn parse_status(text: &str) -> relay_wire::error::Result<Status> {
    Status::parse(text).ok_or_else(|| {
        relay_wire::error::Error::InvalidInput(format!(
            "status `{text}` is not one of {}",
            relay_wire::package::STATUSES.join(", ")
        ))
    })
}

pub fn visible_to(p: &Package, viewer: &str) -> bool {
    p.status() != Status::Draft || p.created_by().id == viewer
}

impl crate::request::ListingFilter {
    /// The filter to list with, seen by `viewer`; an unknown status or an unreadable time
    /// is `invalid_input`, named as the door `spelling` spells it.
    pub fn filter(&self, viewer: Viewer, spelling: crate::request::Spelling) -> Result<Filter> {
        let when = |name: &str, text: &Option<String>| {
            time::parse_time(&spelling.name(name), text.as_deref())
        };
        Ok(Filter {
            types: self.types.clone(),
            tags: self.tags.clone(),
            actor: self.created_by.clone(),
            status: self.status.as_deref().map(parse_status).transpose()?,
            since: when("since", &self.since)?,
            until: when("until", &self.until)?,
            viewer,
            reveal: Reveal {
                expired: self.include_expired,
                retracted: self.include_retracted,
            },
            as_of: when("as_of", &self.as_of)?,
            ..Filter::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::{ListingFilter, Spelling};

    #[test]
    fn an_unknown_status_is_refused_not_dropped() {
        let f = ListingFilter {
            status: Some("shipped".into()),
            ..ListingFilter::default()
        };
        let e = f.filter(Viewer::anyone(), Spelling::Param).unwrap_err();
        assert!(
            e.to_string().contains("status `shipped` is not one of"),
            "{e}"
        );
        let known = ListingFilter {
            status: Some("complete".into()),
            ..ListingFilter::default()
        };
        let f = known.filter(Viewer::anyone(), Spelling::Flag).unwrap();
        assert!(f.status.is_some());
    }

    #[test]
    fn times_are_named_as_the_door_spells_them() {
        let f = ListingFilter {
            as_of: Some("not a time".into()),
            ..ListingFilter::default()
        };
        let flag = f.filter(Viewer::anyone(), Spelling::Flag).unwrap_err();
        assert!(flag.to_string().contains("--as-of"), "{flag}");
        let param = f.filter(Viewer::anyone(), Spelling::Param).unwrap_err();
        assert!(param.to_string().contains("as_of"), "{param}");
    }
}
