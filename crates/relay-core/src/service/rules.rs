//! The one table of what each operation needs of its caller: nothing (the conformance
//! descriptor), read access, or write access to the projects it touches. The operations are
//! named as their MCP tools are; HTTP routes and MCP tools look their operation up here, and
//! a unit test in each door checks that every route and tool has a row.

use relay_wire::error::{Error, Result};

/// What an operation needs of its caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Anyone who reaches the door: no token.
    Public,
    /// A caller who may read the projects it touches.
    Read,
    /// A caller who may write to the projects it touches: not a read-only token.
    Write,
}

/// One operation and what it needs.
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    pub operation: &'static str,
    pub access: Access,
}

const fn rule(operation: &'static str, access: Access) -> Rule {
    Rule { operation, access }
}

use Access::{Public, Read, Write};

/// Every operation a door offers, with what it needs.
pub const RULES: &[Rule] = &[
    rule("conformance", Public),
    rule("orient", Read),
    rule("deposit", Write),
    rule("pull", Read),
    rule("search", Read),
    rule("orchestrate", Read),
    rule("facts_assert", Write),
    rule("facts_invalidate", Write),
    rule("facts_get", Read),
    rule("facts_list", Read),
    rule("facts_history", Read),
    rule("review_flag", Write),
    rule("review_approve", Write),
    rule("review_request_changes", Write),
    rule("review_list", Read),
    rule("retract", Write),
    rule("session_start", Write),
    rule("session_end", Write),
    rule("sessions_list", Read),
    rule("status", Read),
    rule("watch", Read),
    rule("projects_list", Read),
    rule("projects_create", Write),
    rule("projects_archive", Write),
    rule("amp_store", Write),
    rule("amp_search", Read),
    rule("amp_get", Read),
    rule("amp_delete", Write),
    rule("amp_list", Read),
    rule("amp_status", Read),
];

/// What a request touches, read from its members before they are checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// The project the call selects (its `project`, else the door's, else the store's).
    Selected,
    /// Every project the caller may read (`all_projects`, or a read with no project).
    Every,
    /// A record named by its global id; its project is checked once it is found.
    Record,
    /// The whole store at once (its status): only a caller that sees every project.
    Store,
}

/// What `operation` with `members` (a JSON door's arguments) touches.
pub fn reach(operation: &str, members: &serde_json::Map<String, serde_json::Value>) -> Reach {
    use serde_json::Value;
    if members.get("all_projects") == Some(&Value::Bool(true)) {
        return Reach::Every;
    }
    let by_id = members.get("mode").and_then(Value::as_str) == Some("specific");
    match operation {
        "conformance" => Reach::Every,
        "status" => Reach::Store,
        "pull" if by_id => Reach::Record,
        "review_flag"
        | "review_approve"
        | "review_request_changes"
        | "retract"
        | "session_end"
        | "amp_get"
        | "amp_delete"
        | "amp_store" => Reach::Record,
        "amp_search" | "amp_list" | "amp_status" if !members.contains_key("project") => {
            Reach::Every
        }
        _ => Reach::Selected,
    }
}

/// The rule of `operation`. An operation without one is a door's bug, and is refused: what
/// the table does not allow, no caller may do.
pub fn of(operation: &str) -> Result<&'static Rule> {
    (RULES.iter().find(|r| r.operation == operation)).ok_or_else(|| {
        Error::Unauthorized(format!(
            "operation `{operation}` has no row in the service's table of rules"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_operation_has_one_rule() {
        let mut names: Vec<_> = RULES.iter().map(|r| r.operation).collect();
        names.sort();
        let count = names.len();
        names.dedup();
        assert_eq!(names.len(), count, "an operation has two rows");
        assert_eq!(of("deposit").unwrap().access, Access::Write);
        assert!(of("nope").is_err());
        let members = |v: serde_json::Value| v.as_object().unwrap().clone();
        let all = members(serde_json::json!({"all_projects": true}));
        assert_eq!(reach("pull", &all), Reach::Every);
        let by_id = members(serde_json::json!({"mode": "specific"}));
        assert_eq!(reach("pull", &by_id), Reach::Record);
        assert_eq!(
            reach("pull", &members(serde_json::json!({}))),
            Reach::Selected
        );
        assert_eq!(
            reach("amp_list", &members(serde_json::json!({}))),
            Reach::Every
        );
    }
}
