//! The review operations' requests (§8.5, §11.4): flag_for_review, approve, request changes,
//! and the listing of what awaits review. A review type is one of [`ReviewType`]'s values on
//! every door, and a request for changes says what must change.

use serde::Deserialize;

use relay_wire::error::{Result, SchemaError};

/// Who must review a package (§8.5's `review_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ReviewType {
    /// A person must review it
    Human,
    /// An agent may review it
    Agent,
}

impl From<ReviewType> for Reviewer {
    fn from(t: ReviewType) -> Reviewer {
        match t {
            ReviewType::Human => Reviewer::Human,
            ReviewType::Agent => Reviewer::Agent,
        }
    }
}

/// What flag_for_review (§8.5) is asked for.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlagRequest {
    /// The package (pkg_…); it is looked for in the selected project first, then in every other
    pub package_id: String,
    /// Who must review it: human or agent
    pub review_type: ReviewType,
    /// Why: prose the reviewer or author will read
    pub note: Option<String>,
}

/// What an approval (§11.4: awaiting_review → complete) is asked for.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ApproveRequest {
    /// The package (pkg_…); it is looked for in the selected project first, then in every other
    pub package_id: String,
    /// Why: prose the reviewer or author will read
    pub note: Option<String>,
}

/// What a request for changes (§11.4: awaiting_review → revision_requested) is asked for.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RequestChangesRequest {
    /// The package (pkg_…); it is looked for in the selected project first, then in every other
    pub package_id: String,
    /// What must change
    pub note: String,
}

/// One review action, whichever it is: the package, the transition and its note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transition {
    pub package_id: String,
    pub action: Action,
    pub note: Option<String>,
}

impl FlagRequest {
    /// Nothing to refuse beyond what deserializing checks.
    pub fn validate(&self) -> Result<()> {
        Ok(())
    }

    /// The transition asked for.
    pub fn transition(self) -> Result<Transition> {
        self.validate()?;
        Ok(Transition {
            package_id: self.package_id,
            action: Action::Flag {
                reviewer: self.review_type.into(),
            },
            note: self.note,
        })
    }
}

impl ApproveRequest {
    /// Nothing to refuse beyond what deserializing checks.
    pub fn validate(&self) -> Result<()> {
        Ok(())
    }

    /// The transition asked for.
    pub fn transition(self) -> Result<Transition> {
        self.validate()?;
        Ok(Transition {
            package_id: self.package_id,
            action: Action::Approve,
            note: self.note,
        })
    }
}

impl RequestChangesRequest {
    /// Refuses a blank note: the author must be told what to change.
    pub fn validate(&self) -> Result<()> {
        if self.note.trim().is_empty() {
            return Err(SchemaError::new("note", "is required: say what should change").into());
        }
        Ok(())
    }

    /// The transition asked for.
    pub fn transition(self) -> Result<Transition> {
        self.validate()?;
        Ok(Transition {
            package_id: self.package_id,
            action: Action::RequestChanges,
            note: Some(self.note),
        })
    }
}

/// What the listing of packages awaiting review (§11.4) is asked for.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReviewListRequest {
    /// Only packages awaiting this kind of reviewer: human or agent
    pub review_type: Option<ReviewType>,
    /// Every project, not just the selected one
    #[serde(default)]
    pub all_projects: bool,
}

impl ReviewListRequest {
    /// Nothing to refuse beyond what deserializing checks.
    pub fn validate(&self) -> Result<()> {
        Ok(())
    }

    /// Which reviewer the listing keeps, if one.
    pub fn reviewer(&self) -> Option<Reviewer> {
        self.review_type.map(Reviewer::from)
    }
}

/// A review action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// `flag_for_review`: to `awaiting_review`, with the reviewer kind.
    Flag { reviewer: Reviewer },
    /// To `complete`.
    Approve,
    /// From `awaiting_review` to `revision_requested`.
    RequestChanges,
}

impl Action {
    /// The operation that makes this transition, as the service's table names it.
    pub fn operation(&self) -> &'static str {
        match self {
            Action::Flag { .. } => "review_flag",
            Action::Approve => "review_approve",
            Action::RequestChanges => "review_request_changes",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reviewer {
    Human,
    Agent,
}

impl Reviewer {
    pub fn as_str(self) -> &'static str {
        match self {
            Reviewer::Human => "human",
            Reviewer::Agent => "agent",
        }
    }
}

impl Reviewer {
    /// `human` or `agent`.
    pub fn parse(s: &str) -> Option<Reviewer> {
        match s {
            "human" => Some(Reviewer::Human),
            "agent" => Some(Reviewer::Agent),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_review_type_is_human_or_agent() {
        let r: FlagRequest =
            serde_json::from_value(json!({"package_id": "pkg_1", "review_type": "agent"})).unwrap();
        let t = r.transition().unwrap();
        assert_eq!(
            t.action,
            Action::Flag {
                reviewer: Reviewer::Agent
            }
        );
        let bad = json!({"package_id": "pkg_1", "review_type": "robot"});
        assert!(serde_json::from_value::<FlagRequest>(bad).is_err());
        let missing = json!({"package_id": "pkg_1"});
        assert!(serde_json::from_value::<FlagRequest>(missing).is_err());
        let list: ReviewListRequest =
            serde_json::from_value(json!({"review_type": "human"})).unwrap();
        assert_eq!(list.reviewer(), Some(Reviewer::Human));
    }

    #[test]
    fn a_request_for_changes_says_what_must_change() {
        let r = RequestChangesRequest {
            package_id: "pkg_1".into(),
            note: "  ".into(),
        };
        assert_eq!(r.transition().unwrap_err().code(), "invalid_schema");
        let missing = json!({"package_id": "pkg_1"});
        assert!(serde_json::from_value::<RequestChangesRequest>(missing).is_err());
    }

    #[test]
    fn an_approval_takes_no_review_type() {
        let r = json!({"package_id": "pkg_1", "review_type": "human"});
        assert!(serde_json::from_value::<ApproveRequest>(r).is_err());
    }
}
