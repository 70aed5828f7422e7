//! The filters every listing takes (pull latest and relevant, search), turned into an
//! [`search::filter::Filter`](crate::search::filter::Filter) in one place, so that every door
//! refuses what it cannot honour (an unknown status) the same way.

use serde::Deserialize;

use crate::search::filter::{Filter, Reveal, Viewer, parse_status};
use relay_wire::error::Result;
use relay_wire::time;

/// How many packages a listing shows unless asked otherwise.
pub const DEFAULT_LISTING_LIMIT: usize = 5;

/// How a door spells the names of its parameters in error messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spelling {
    /// Command-line flags: `--since`, `--as-of`.
    Flag,
    /// JSON and query parameters: `since`, `as_of`.
    Param,
}

impl Spelling {
    /// `name` (a parameter's name, `as_of`) as this door spells it.
    pub fn name(self, name: &str) -> String {
        match self {
            Spelling::Flag => format!("--{}", name.replace('_', "-")),
            Spelling::Param => name.to_string(),
        }
    }
}

/// The filters of a listing, as given.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct ListingFilter {
    /// Only packages of these types (any of them).
    #[serde(default)]
    pub types: Vec<String>,
    /// Only packages carrying all of these tags.
    #[serde(default)]
    pub tags: Vec<String>,
    /// Only packages created by this actor id.
    pub created_by: Option<String>,
    /// Only packages in this status (one of §6's).
    pub status: Option<String>,
    /// Only packages created at or after this time.
    pub since: Option<String>,
    /// Only packages created before this time.
    pub until: Option<String>,
    /// Every project, not just the selected one.
    #[serde(default)]
    pub all_projects: bool,
    /// Show packages whose expiry has passed.
    #[serde(default)]
    pub include_expired: bool,
    /// Show retracted packages.
    #[serde(default)]
    pub include_retracted: bool,
    /// A snapshot read: the store as it stood at this time.
    pub as_of: Option<String>,
}

impl ListingFilter {
    /// The filter to list with, seen by `viewer`; an unknown status or an unreadable time
    /// is `invalid_input`, named as the door `spelling` spells it.
    pub fn filter(&self, viewer: Viewer, spelling: Spelling) -> Result<Filter> {
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
